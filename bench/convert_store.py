#!/usr/bin/env python3
"""Convert a gen_tasks.py JSONL task file into a kept store (docs/STORE.md, kept-store v1).

    python3 bench/convert_store.py bench/data/tasks-100k.jsonl bench/data/store-100k.json

Field mapping (generator -> store):
  id, title, project, tags, description, completedAt, createdAt   as they are
  status       "completed" -> "done", "pending" -> "open"
  due          "2026-08-14"                -> {"date": "2026-08-14", "time": null}
               "2026-08-14T15:00:00+02:00" -> {"date": "2026-08-14", "time": "15:00"}
               (the local wall clock as written; the offset must be the store zone's,
               otherwise the instant is converted to the store zone and counted as a warning)
  priority     "urgent" -> "critical", "none" left out, others as they are
  estimateMinutes N -> {"minutes": N, "source": "user"}
  repeat       {"text", "rrule"} as it is
  dueHasTime   dropped (it is implied by the due)
Top level: settings {"zone": ZONE}, projects = the distinct project names (sorted),
areas and filters empty, nextId = max id + 1.

The output is laid out as kept writes a store: the top-level keys one per line and one
compact task object per line. Null and default fields are left out, as kept does.
Stdlib only. The file is written to a temporary name and renamed into place.
"""
import argparse
import json
import os
import sys
from datetime import date, datetime
from zoneinfo import ZoneInfo

STATUS = {"completed": "done", "pending": "open"}
PRIORITY = {"none": None, "low": "low", "medium": "medium", "high": "high", "urgent": "critical",
            "critical": "critical"}


class ConvertError(Exception):
    pass


def dumps(value):
    """Compact JSON, non-ASCII as UTF-8 (like kept's JSONWriter)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def convert_due(raw, zone, stats):
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise ConvertError(f"due {raw!r} is not a string")
    if "T" not in raw:
        return {"date": date.fromisoformat(raw).isoformat(), "time": None}
    dt = datetime.fromisoformat(raw)
    if dt.tzinfo is not None:
        local = dt.astimezone(zone)
        if local.replace(tzinfo=None) != dt.replace(tzinfo=None):
            stats["offset_mismatch"] += 1     # offset is not the store zone's: use the zone's wall clock
        dt = local
    if dt.second or dt.microsecond:
        stats["seconds_dropped"] += 1
    return {"date": dt.date().isoformat(), "time": f"{dt.hour:02d}:{dt.minute:02d}"}


def convert_task(g, zone, stats):
    """One generator record -> an ordered dict in kept's key order (StoreCodec.taskObject)."""
    t = {}
    if not isinstance(g.get("id"), int) or g["id"] < 1:
        raise ConvertError(f"bad id {g.get('id')!r}")
    t["id"] = g["id"]
    if not isinstance(g.get("title"), str):
        raise ConvertError("no title")
    t["title"] = g["title"]
    status = g.get("status", "pending")
    if status not in STATUS:
        raise ConvertError(f"unknown status {status!r}")
    t["status"] = STATUS[status]
    due = convert_due(g.get("due"), zone, stats)
    if due is not None:
        t["due"] = due
    pri = g.get("priority", "none") or "none"
    if pri not in PRIORITY:
        raise ConvertError(f"unknown priority {pri!r}")
    if PRIORITY[pri] is not None:
        t["priority"] = PRIORITY[pri]
    if g.get("project"):
        t["project"] = g["project"]
    if g.get("tags"):
        t["tags"] = list(g["tags"])
    if g.get("description") is not None:
        t["description"] = g["description"]
    rep = g.get("repeat")
    if rep is not None:
        r = {"text": rep["text"]}
        if rep.get("rrule") is not None:
            r["rrule"] = rep["rrule"]
        t["repeat"] = r
    est = g.get("estimateMinutes")
    if est is not None:
        t["estimate"] = {"minutes": int(est), "source": "user"}
    if g.get("completedAt") is not None:
        t["completedAt"] = g["completedAt"]
    if g.get("createdAt") is not None:
        t["createdAt"] = g["createdAt"]
    return t


def convert(src, dst, zone_name):
    zone = ZoneInfo(zone_name)
    stats = {"offset_mismatch": 0, "seconds_dropped": 0}
    tasks, projects, ids = [], set(), set()
    with open(src, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                t = convert_task(json.loads(line), zone, stats)
            except (ConvertError, ValueError, KeyError, TypeError) as e:
                raise SystemExit(f"{src}:{lineno}: {e}")
            if t["id"] in ids:
                raise SystemExit(f"{src}:{lineno}: duplicate id {t['id']}")
            ids.add(t["id"])
            if "project" in t:
                projects.add(t["project"])
            tasks.append(t)

    next_id = max(ids) + 1 if ids else 1
    parts = [
        "{\n",
        '  "format": "kept-store",\n',
        '  "version": 1,\n',
        f'  "nextId": {next_id},\n',
        f'  "settings": {{\n    "zone": {dumps(zone_name)}\n  }},\n',
    ]
    if projects:
        parts.append('  "projects": [\n    ' +
                     ",\n    ".join(dumps({"name": p}) for p in sorted(projects)) + "\n  ],\n")
    else:
        parts.append('  "projects": [],\n')
    parts.append('  "areas": [],\n')
    parts.append('  "filters": [],\n')
    if tasks:
        parts.append('  "tasks": [\n    ' + ",\n    ".join(dumps(t) for t in tasks) + "\n  ]\n")
    else:
        parts.append('  "tasks": []\n')
    parts.append("}\n")

    tmp = os.path.join(os.path.dirname(os.path.abspath(dst)), f".{os.path.basename(dst)}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as out:
        out.writelines(parts)
    os.replace(tmp, dst)

    n_open = sum(1 for t in tasks if t["status"] == "open")
    print(f"{src} -> {dst}: {len(tasks)} tasks ({n_open} open), {len(projects)} projects, "
          f"nextId {next_id}", file=sys.stderr)
    if stats["offset_mismatch"]:
        print(f"  warning: {stats['offset_mismatch']} timed dues had an offset other than "
              f"{zone_name}'s; converted to {zone_name} wall-clock time", file=sys.stderr)
    if stats["seconds_dropped"]:
        print(f"  warning: {stats['seconds_dropped']} timed dues had seconds; dropped (a due time is HH:MM)",
              file=sys.stderr)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Convert a gen_tasks.py JSONL file into a kept store JSON.")
    ap.add_argument("jsonl", help="input: tasks-<N>.jsonl from gen_tasks.py")
    ap.add_argument("store", help="output: the kept store JSON file")
    ap.add_argument("--zone", default="Europe/Berlin", help="the store zone (settings.zone); default Europe/Berlin")
    a = ap.parse_args(argv)
    convert(a.jsonl, a.store, a.zone)


if __name__ == "__main__":
    main()
