#!/usr/bin/env python3
"""Every store of examples/ and a generated 100,000-task store survive load -> save unchanged
apart from the fields a write adds (docs/STORE.md): each task's `uid` and `modifiedAt`, and
the file's `revision` and `checksum`; and `kept convert` takes each JSON -> SQLite -> JSON to
the same store.

For each store: `kept repl --store STORE` with `.save OUT` writes it through Kept's own path.
The two are compared as stores, not as bytes (Kept writes instants as UTC `+00:00` and writes
every setting, where a hand-written store may say `Z` or leave a default out), and then:
  * every task of OUT has a lowercase RFC 4122 version 4 uid, all different;
  * a task the input wrote without `modifiedAt` has the later of createdAt and completedAt;
  * reading the input again shows the same uids (they are derived until the first write);
  * OUT saved again is byte-identical to OUT (a write records the uids; they never change);
  * `kept convert STORE x.db` then `kept convert x.db y.json` gives OUT again: the same tasks,
    fields, unknown keys, history and uids.

The 100,000-task store comes from the peers' seeded generator, whose copy is in
Tests/differential/peers (PEERS_DIR for another); a missing generator fails the run. Ends with
`N passed, M failed`.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEERS = os.environ.get("PEERS_DIR", os.path.join(ROOT, "Tests", "differential", "peers"))
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))
INSTANT = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$")
UID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
SETTING_DEFAULTS = {
    "day-start": "00:00", "week-start": "monday", "clock": "12h", "date-order": "mdy",
    "next-weekday": "coming", "morning": "09:00", "afternoon": "15:00", "evening": "18:00", "tonight": "20:00",
}
PRESETS = [
    {"name": "Overdue", "filter": "overdue", "starred": False},
    {"name": "High Priority", "filter": "priority >= high", "starred": False},
    {"name": "Due This Week", "filter": "@this week", "starred": False},
    {"name": "Repeating", "filter": "repeating", "starred": False},
    {"name": "No Due Date", "filter": "no due", "starred": False},
]


def instant(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).astimezone(timezone.utc)


def normal(v):
    """Instants as UTC, everything else as it is."""
    if isinstance(v, dict):
        return {k: normal(x) for k, x in v.items()}
    if isinstance(v, list):
        return [normal(x) for x in v]
    if isinstance(v, str) and INSTANT.match(v):
        return instant(v).isoformat()
    return v


def as_store(o, written):
    """A store's content: defaults filled in, and what a write adds taken out of `written`."""
    o = json.loads(json.dumps(o))
    o.setdefault("format", "kept-store")
    o.setdefault("version", 1)
    for k in ("projects", "areas", "tasks"):
        o.setdefault(k, [])
    o.setdefault("filters", PRESETS)
    s = o.setdefault("settings", {})
    for k, v in SETTING_DEFAULTS.items():
        s.setdefault(k, v)
    for t in o["tasks"]:
        t.setdefault("status", "open")
        if t.get("priority") == "none":
            del t["priority"]
        for k in ("due", "start", "project", "area", "description", "goal", "repeat", "estimate",
                  "heldUntil", "notTodayOn", "completedAt", "parent", "nextOccurrence"):
            if k in t and t[k] is None:
                del t[k]
        for k in ("tags", "notes", "steps", "reminders", "comments"):
            if t.get(k) == []:
                del t[k]
        if t.get("pristine") is False:
            del t["pristine"]
        t.setdefault("createdAt", "1970-01-01T00:00:00Z")
        if written:
            t.pop("uid", None)
            t.pop("modifiedAt", None)
    if written:
        o.pop("revision", None)
        # The checksum of the file's own bytes (docs/STORE.md, "Checksums"): a write adds it.
        o.pop("checksum", None)
    return normal(o)


def kept(args, stdin=None):
    return subprocess.run([KEPT] + args, input=stdin, capture_output=True, text=True)


def save(store, out):
    r = kept(["repl", "--store", store], stdin=f".save {out}\n")
    if r.returncode != 0 or not os.path.exists(out):
        raise RuntimeError(f"kept could not save {store}: {r.stdout}{r.stderr}")


def uids_shown(store, ids):
    args = ["run", "--store", store, "--format", "json"]
    for i in ids:
        args += ["-e", f"show {i} uid"]
    r = kept(args)
    return [json.loads(l)["uid"] for l in r.stdout.splitlines()]


def check(name, src, tmp, failures):
    work = os.path.join(tmp, "in-" + os.path.basename(src))
    shutil.copyfile(src, work)
    out = os.path.join(tmp, "out.json")
    again = os.path.join(tmp, "again.json")
    for p in (out, again):
        if os.path.exists(p):
            os.remove(p)
    with open(work) as f:
        original = json.load(f)
    before = open(work, "rb").read()
    save(work, out)
    if open(work, "rb").read() != before:
        failures.append(f"{name}: saving a copy changed the store itself")
    with open(out) as f:
        saved = json.load(f)
    a, b = as_store(original, False), as_store(saved, True)
    for t in a["tasks"]:
        t.pop("uid", None)
        t.pop("modifiedAt", None)
    a.pop("revision", None)
    a.pop("checksum", None)
    if a != b:
        keys = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
        detail = keys
        if "tasks" in keys:
            diff = [(x, y) for x, y in zip(a["tasks"], b["tasks"]) if x != y][:1]
            detail = f"{keys}; first task that differs: {diff}"
        failures.append(f"{name}: the saved store differs: {detail}")
    tasks = saved.get("tasks", [])
    uids = [t.get("uid", "") for t in tasks]
    bad = [u for u in uids if not UID.match(u)]
    if bad:
        failures.append(f"{name}: {len(bad)} uids are not lowercase version 4 UUIDs, e.g. {bad[:2]}")
    if len(set(uids)) != len(uids):
        failures.append(f"{name}: uids repeat")
    by_id = {t["id"]: t for t in original.get("tasks", [])}
    for t in tasks:
        o = by_id.get(t["id"], {})
        if "modifiedAt" in o:
            continue
        want = max(instant(o.get("createdAt", "1970-01-01T00:00:00Z")), instant(o["completedAt"]) if o.get("completedAt") else instant(o.get("createdAt", "1970-01-01T00:00:00Z")))
        if instant(t["modifiedAt"]) != want:
            failures.append(f"{name}: task {t['id']} got modifiedAt {t['modifiedAt']}, not {want.isoformat()}")
            break
    sample = [t["id"] for t in tasks[:: max(1, len(tasks) // 20)]][:20]
    shown = uids_shown(work, sample)
    written = [t["uid"] for t in tasks if t["id"] in set(sample)]
    if shown != written:
        failures.append(f"{name}: the uids shown before the first write are not the ones written: {shown[:2]} vs {written[:2]}")
    save(out, again)
    if open(out, "rb").read() != open(again, "rb").read():
        failures.append(f"{name}: a saved store saved again is not byte-identical")
    # JSON -> SQLite -> JSON with kept convert: the same store, uids included.
    db = os.path.join(tmp, "via.db")
    back = os.path.join(tmp, "back.json")
    for p in (db, db + "-wal", db + "-shm", back):
        if os.path.exists(p):
            os.remove(p)
    for a_, b_ in ((work, db), (db, back)):
        r = kept(["convert", a_, b_])
        if r.returncode != 0:
            failures.append(f"{name}: kept convert {os.path.basename(a_)} {os.path.basename(b_)} failed: {r.stderr.strip()[:300]}")
            return
    with open(back) as f:
        converted = json.load(f)
    saved_again = json.load(open(out))
    for o in (converted, saved_again):
        o.pop("revision", None)
        o.pop("checksum", None)
    if converted != saved_again:
        keys = [k for k in set(converted) | set(saved_again) if converted.get(k) != saved_again.get(k)]
        failures.append(f"{name}: JSON -> SQLite -> JSON is not the store saved directly: {keys}")


def main():
    failures = []
    passed = 0
    with tempfile.TemporaryDirectory() as tmp:
        stores = sorted(os.path.join(ROOT, "examples", f) for f in os.listdir(os.path.join(ROOT, "examples")) if f.endswith(".json"))
        big = os.path.join(tmp, "store-100k.json")
        gen = os.path.join(PEERS, "gen_tasks.py")
        if not os.path.exists(gen):
            print(f"store_roundtrip.py: no generator at {gen} (Tests/differential/peers/README.md)")
            print("0 passed, 1 failed")
            return 1
        subprocess.run([sys.executable, gen, "-n", "100000", "--out", tmp], check=True, capture_output=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "convert_store.py"), os.path.join(tmp, "tasks-100k.jsonl"), big,
                        "--zone", "Europe/Berlin"], check=True, capture_output=True)
        label = "generated 100k store (the peers' generator)"
        for s in stores + [big]:
            name = label if s == big else os.path.relpath(s, ROOT)
            before = len(failures)
            check(name, s, tmp, failures)
            if len(failures) == before:
                passed += 1
                print(f"ok      {name}")
            else:
                print(f"FAIL    {name}")
    for f in failures:
        print(f)
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
