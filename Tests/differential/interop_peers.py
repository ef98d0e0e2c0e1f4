#!/usr/bin/env python3
"""Kept's exports read by the real peers, and round trips back (docs/INTEROP.md).

A 10,000-task store from the peers' seeded generator (its copy in peers/, README.md there),
converted with bench/convert_store.py, with a dozen hand-made tasks that use every field, is
  1. exported to iCalendar, read with Python's icalendar, and every RRULE expanded with
     recurring-ical-events: the first 10 dates of every repeating task from its current due
     equal kept's `repeat RULE from ANCHOR next N` (the dates on or after the due), at the
     due's time;
  2. exported to Taskwarrior JSON and `task import`ed into a private data folder with the
     taskrc here (libfaketime at 2026-06-15 09:00 Europe/Berlin): the counts of queries a, b
     and d, and of two more (completed tasks; pending high-priority ones), equal kept's counts
     on its own store, and kept's on the generated part equal the peers' expected answers;
  1b. calendars of its own making (issue 33; R-IO-4 … R-IO-10: EXDATE on DTSTART, RDATE alone
     and as PERIOD, a Windows TZID, RDATE times, DTSTART ≠ DUE, two RRULEs, overrides) imported,
     their dues walked with `skip next`, equal the VTODO occurrences recurring-ical-events
     expands (a cancelled override is no occurrence); `--own` runs these alone;
  3. imported back from each export into new stores: every task keeps every field both
     formats hold (iCalendar: all but id and the occurrence links; Taskwarrior: the table of
     docs/INTEROP.md), and importing the same file again changes nothing.
Needs icalendar and recurring-ical-events (PyPI) and taskwarrior with faketime (Debian);
`make test` installs them, and a missing one fails the run (nothing is skipped). Ends with
`N passed, M failed`; `-v` prints each passed check too.
"""
import datetime as dt
import json
import os
import shutil
import subprocess
import sys
import tempfile
from zoneinfo import ZoneInfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))
FT_LIB = os.environ.get("FT_LIB", "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")
ZONE = "Europe/Berlin"
NOW = "2026-06-15T09:00"
REGEX = "(review|fix) .*(budget|report)"
BERLIN = ZoneInfo(ZONE)
HERE = os.path.dirname(os.path.abspath(__file__))
# The copy of the peers' generator and answers in this repository, or the peers' own folder
# (answers in its results/) with PEERS_DIR.
PEERS = os.environ.get("PEERS_DIR", os.path.join(HERE, "peers"))
ANSWERS = os.path.join(PEERS, "results") if "PEERS_DIR" in os.environ else PEERS
GENERATOR = os.path.join(PEERS, "gen_tasks.py")
TASKRC = os.path.join(HERE, "taskrc")
# Query a's project and tag in the generated store.
QUERY_A = ("Ruqua", "haslest")
# `-v` prints every check that passed with its figures, not only the failures.
VERBOSE = "-v" in sys.argv[1:]

# Tasks that use every field, on top of the generated store (ids from 10001).
RICH = [
    "project add Home",
    'project statuses Home add "In review"',
    "add Call the dentist @tomorrow 3pm +Home #phone !high [[Trip plan]]",
    'set 10001 description "Line one, with; punctuation\\nand a second line \\\\ backslash"',
    "step 10001 add Pack the charger",
    "step 10001 add Print the tickets",
    "step 10001 check 1",
    "remind 10001 tomorrow morning",
    'comment 10001 "called, left a message"',
    "set 10001 estimate 15m",
    "set 10001 start 2026-06-15",
    'set 10001 goal "Health"',
    "subtask 10001 Book the flights @fri",
    "add Water the plants every 2 days at 8am",
    "add Pay rent every month on the 31st @2026-07-31",
    "add Review the draft +Home status:waiting",
    'set 10005 status "In review"',
    "add Standup every weekday at 9am and 5pm",
    "add Exam every year on the last friday of november",
    "add Stretch every day after completion",
    "add Old thing @2026-06-01",
    "archive 10009",
    "add Sort the mail @today",
    "not today 10010",
    "add Ümlaut and emoji ☕ title that is long enough to be folded by an iCalendar writer at seventy-five octets",
    "add Ten times every week for 10 times @2026-06-01",
]


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
            if VERBOSE:
                print("ok  ", what)
        else:
            self.failed += 1
            print("FAIL", what)
        return ok


def kept(args, inp=None):
    return subprocess.run([KEPT] + args, input=inp, capture_output=True, text=True)


def kept_run(store, statements, write=False, fmt="json"):
    args = ["run", "--store", store, "--now", NOW, "--zone", ZONE, "--format", fmt]
    if write:
        args.append("--write")
    return kept(args, inp="\n".join(statements) + "\n")


def tasks_of(store):
    with open(store) as f:
        return json.load(f)["tasks"]


def by_uid(tasks):
    return {t["uid"]: t for t in tasks}


def make_store(tmp):
    subprocess.run([sys.executable, GENERATOR, "-n", "10000", "--out", tmp], check=True, capture_output=True)
    store = os.path.join(tmp, "store.json")
    subprocess.run([sys.executable, os.path.join(ROOT, "bench", "convert_store.py"), os.path.join(tmp, "tasks-10k.jsonl"),
                    store, "--zone", ZONE], check=True, capture_output=True)
    shutil.copy(store, os.path.join(tmp, "plain.json"))
    r = kept_run(store, RICH, write=True, fmt="text")
    if r.returncode != 0:
        raise SystemExit(f"interop_peers.py: the hand-made tasks failed: {r.stdout[-500:]} {r.stderr[-500:]}")
    # A repeat with dates taken out and added (as the store holds them).
    with open(store) as f:
        s = json.load(f)
    for t in s["tasks"]:
        if t["title"] == "Water the plants":
            t["repeat"]["exdate"] = ["2026-06-19T08:00"]
            t["repeat"]["rdate"] = ["2026-06-20T18:00"]
        if t["title"] == "Sort the mail":
            t["someToolField"] = {"kept": ["as", "it", "was"]}
    # Edited by hand, so without Kept's checksum of its bytes, as a hand-written store is;
    # a stale one would add a W0002 line to every run's output (docs/STORE.md, "Checksums").
    s.pop("checksum", None)
    with open(store, "w") as f:
        json.dump(s, f)
    return store


# ---------------------------------------------------------------- 1. iCalendar and its peers

def wall(v, timed):
    if isinstance(v, dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(BERLIN)
        return v.strftime("%Y-%m-%dT%H:%M") if timed else v.strftime("%Y-%m-%d")
    return v.isoformat()


def ics_check(c, store, ics):
    import icalendar
    import recurring_ical_events
    with open(ics, "rb") as f:
        raw = f.read()
    c.check(b"\n" not in raw.replace(b"\r\n", b""), "ics: every line ends in CRLF")
    c.check(all(len(l) <= 75 for l in raw.split(b"\r\n")), "ics: no line is longer than 75 octets")
    cal = icalendar.Calendar.from_ical(raw)
    todos = [x for x in cal.walk("VTODO")]
    tasks = tasks_of(store)
    c.check(len(todos) == len(tasks), f"ics: {len(todos)} VTODOs for {len(tasks)} tasks")
    tzs = [x for x in cal.walk("VTIMEZONE")]
    # kept's dates for every repeating task, in one run
    rep = [t for t in tasks if t.get("repeat") and t.get("due")]
    stmts = []
    for t in rep:
        r = t["repeat"]
        anchor = (r.get("anchor") or t["due"]["date"])[:10]
        rule = r.get("rrule") or r["text"]
        stmts.append(f"repeat {rule} from {anchor} next 60")
    out = kept_run(store, stmts).stdout.splitlines()
    wanted = {}
    for t, line in zip(rep, out):
        r = t["repeat"]
        due = t["due"]
        try:
            dates = json.loads(line)["dates"]
        except (ValueError, KeyError):
            continue
        if r.get("text", "").endswith("after completion"):
            continue
        timed = "T" in dates[0] if dates else False
        ds = [d if timed or not due.get("time") else d + "T" + due["time"] for d in dates]
        ex = set(r.get("exdate", []))
        ds = sorted(set(d for d in ds if d not in ex) | set(r.get("rdate", [])))
        start = due["date"] + ("T" + due["time"] if due.get("time") else "")
        # The task is due at its due, on the rule or not (a task moved by hand), and then at the
        # rule's dates after it; iCalendar's DTSTART is likewise always the first instance.
        wanted[t["uid"]] = ([start] + [d for d in ds if d > start])[:10]
    compared = bad = 0
    for todo in todos:
        uid = str(todo.get("UID"))
        if uid not in wanted or "RRULE" not in todo:
            continue
        mini = icalendar.Calendar()
        for tz in tzs:
            mini.add_component(tz)
        mini.add_component(todo)
        first = todo.get("DTSTART").dt
        timed = isinstance(first, dt.datetime)
        since = (first.date() if timed else first) - dt.timedelta(days=1)
        got = []
        for occ in recurring_ical_events.of(mini, components=["VTODO"]).after(dt.datetime(since.year, since.month, since.day)):
            got.append(wall(occ.get("DTSTART").dt, timed))
            if len(got) == 10:
                break
        compared += 1
        if got != wanted[uid]:
            bad += 1
            if bad <= 5:
                print(f"  {uid} {todo.get('SUMMARY')} {todo.get('RRULE').to_ical().decode()}: ics {got} kept {wanted[uid]}")
    c.check(compared >= 900 and bad == 0, f"ics: the next 10 dates of {compared} repeating tasks equal kept's ({bad} differ)")


# ------------------------------------------- 1b. calendars of its own making (issue 33, 1-7)

B = "TZID=Europe/Berlin"
PST = ["BEGIN:VTIMEZONE", "TZID:Pacific Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:-0700",
       "TZOFFSETTO:-0800", "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000",
       "TZOFFSETFROM:-0800", "TZOFFSETTO:-0700", "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"]
# Each: a name (the rule it covers) and a VTODO's lines; every date is after the run's now, so
# `skip next` walks the series from its first due.
CALENDARS = [
    ("R-IO-4 EXDATE on DTSTART", [f"DTSTART;{B}:20260706T100000", f"DUE;{B}:20260706T100000", "RRULE:FREQ=WEEKLY;COUNT=6",
                                   f"EXDATE;{B}:20260706T100000,20260720T100000"]),
    ("R-IO-5 RDATE alone", ["DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260701", "RDATE;VALUE=DATE:20260708,20260715"]),
    ("R-IO-5 RDATE timed alone", [f"DTSTART;{B}:20260701T090000", f"DUE;{B}:20260701T090000", f"RDATE;{B}:20260702T180000",
                                   "RDATE:20260704T070000Z"]),
    ("R-IO-5 RDATE PERIOD", [f"DTSTART;{B}:20260701T100000", f"DUE;{B}:20260701T100000", "RRULE:FREQ=WEEKLY;COUNT=4",
                              "RDATE;VALUE=PERIOD:20260703T100000Z/PT1H,20260710T120000Z/20260710T130000Z"]),
    ("R-IO-6 Windows TZID", PST + ["DTSTART;TZID=Pacific Standard Time:20260701T100000",
                                    "DUE;TZID=Pacific Standard Time:20260701T100000", "RRULE:FREQ=DAILY;COUNT=7"]),
    ("R-IO-7 RDATE at another time", [f"DTSTART;{B}:20260701T140000", f"DUE;{B}:20260701T140000", "RRULE:FREQ=DAILY;INTERVAL=2;COUNT=6",
                                       f"RDATE;{B}:20260704T110000"]),
    ("R-IO-8 DUE after DTSTART", ["DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260715", "RRULE:FREQ=MONTHLY;COUNT=6"]),
    ("R-IO-8 timed DUE after DTSTART", [f"DTSTART;{B}:20260701T090000", f"DUE;{B}:20260702T170000", "RRULE:FREQ=WEEKLY;COUNT=5",
                                         f"EXDATE;{B}:20260708T090000"]),
    ("R-IO-9 two RRULEs", ["DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260701", "RRULE:FREQ=WEEKLY;COUNT=5",
                            "RRULE:FREQ=MONTHLY;COUNT=3;BYMONTHDAY=3"]),
    ("R-IO-10 overrides", [f"DTSTART;{B}:20260701T100000", f"DUE;{B}:20260701T100000", "RRULE:FREQ=WEEKLY;COUNT=6"],
     [[f"RECURRENCE-ID;{B}:20260701T100000", "STATUS:CANCELLED", f"DTSTART;{B}:20260701T100000", f"DUE;{B}:20260701T100000"],
      [f"RECURRENCE-ID;{B}:20260715T100000", f"DTSTART;{B}:20260716T150000", f"DUE;{B}:20260716T150000"],
      [f"RECURRENCE-ID;{B}:20260729T100000", f"DTSTART;{B}:20260729T100000", f"DUE;{B}:20260729T100000", "SUMMARY:renamed"]]),
]


def calendar_text(name, todo, overrides):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN"]
    lines += [l for l in todo if not l.startswith(("DTSTART", "DUE", "RRULE", "RDATE", "EXDATE")) or l in PST]
    body = [l for l in todo if l not in PST]
    # Overrides go before their series too, as some calendars write them.
    for o in overrides[:1]:
        lines += ["BEGIN:VTODO", "UID:series@x", "SUMMARY:" + name] + o + ["END:VTODO"]
    lines += ["BEGIN:VTODO", "UID:series@x", "SUMMARY:" + name] + body + ["END:VTODO"]
    for o in overrides[1:]:
        lines += ["BEGIN:VTODO", "UID:series@x"] + o + (["SUMMARY:" + name] if not any(x.startswith("SUMMARY") for x in o) else []) + ["END:VTODO"]
    return "\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n"


def own_calendars_check(c, tmp):
    import icalendar
    import recurring_ical_events
    for entry in CALENDARS:
        name, todo = entry[0], entry[1]
        overrides = entry[2] if len(entry) > 2 else []
        text = calendar_text(name, todo, overrides)
        path = os.path.join(tmp, "own.ics")
        with open(path, "w", newline="") as f:
            f.write(text)
        store = os.path.join(tmp, "own.json")
        if os.path.exists(store):
            os.remove(store)
        r = kept(["import", path, "--store", store, "--now", NOW, "--zone", ZONE])
        if not c.check(r.returncode == 0, f"own calendar {name}: imported ({r.stdout.strip()} {r.stderr.strip()})"):
            continue
        # kept's dues: the first, then each `skip next` until the series ends (at most 12)
        out = kept_run(store, ["show 1"] + ["skip next 1"] * 11, write=False).stdout.splitlines()
        got = []
        for line in out:
            try:
                o = json.loads(line)
            except ValueError:
                continue
            t = o.get("updated") or (o if "id" in o else None)
            if not t or not t.get("due"):
                continue
            d = t["due"]["date"] + ("T" + t["due"]["time"] if t["due"].get("time") else "")
            if not got or got[-1] != d:
                got.append(d)
        cal = icalendar.Calendar.from_ical(text.encode())
        peer = []
        for occ in recurring_ical_events.of(cal, components=["VTODO"]).between(dt.datetime(2026, 6, 16), dt.datetime(2027, 6, 16)):
            # A cancelled override is no occurrence (Kept: an EXDATE).
            if str(occ.get("STATUS", "")).upper() == "CANCELLED":
                continue
            v = occ.get("DUE") or occ.get("DTSTART")
            peer.append(wall(v.dt, isinstance(v.dt, dt.datetime)))
        peer = sorted(peer)[:12]
        c.check(got == peer, f"own calendar {name}: kept's dues {got} equal recurring-ical-events' {peer}")


# ---------------------------------------------------------------- 2. Taskwarrior

def tw_check(c, store, twjson, tmp, plain):
    if not c.check(shutil.which("task") is not None and os.path.exists(FT_LIB),
                   f"taskwarrior and libfaketime ({FT_LIB}) are installed (make deps installs them)"):
        return
    data = os.path.join(tmp, "tw")
    os.makedirs(data)
    env = dict(os.environ, TASKRC=TASKRC)
    base = ["task", f"rc.data.location={data}", "rc.verbose=nothing", "rc.gc=off", "rc.confirmation=off"]
    r = subprocess.run(base + ["import", twjson], env=env, capture_output=True, text=True)
    c.check(r.returncode == 0, f"task import: {r.stderr.strip()[:300]}")
    clock = dict(env, LD_PRELOAD=FT_LIB, FAKETIME="2026-06-15 09:00:00", TZ=ZONE)
    with open(os.path.join(ANSWERS, "expected-10k.json")) as f:
        expected = json.load(f)
    project, tag = QUERY_A
    queries = [
        ("a", [f"project:{project}", f"+{tag}", "due.before:eow"], f"count status:any +{project} #{tag} due <= eow", expected.get("a_project_tag_due_before_eow")),
        ("b", ["status:pending", "+OVERDUE"], "count overdue or (@today and not has time)", expected.get("b_pending_overdue")),
        ("d", [f"/{REGEX}/"], f"count status:any (title ~ /{REGEX}/i or description ~ /{REGEX}/i)", expected.get("d_regex_title_or_description")),
        ("e completed", ["status:completed"], "count done or archived", None),
        ("f pending high", ["status:pending", "priority:H"], "count priority:high", None),
    ]
    ks = kept_run(store, [q[2] for q in queries]).stdout.splitlines()
    # The generated part alone gives the peers' answers.
    for (name, _, kq, exp), line in zip(queries, kept_run(plain, [q[2] for q in queries]).stdout.splitlines()):
        if exp is not None:
            c.check(json.loads(line)["count"] == exp, f"kept {name} on the generated store: {line}, the peers expect {exp}")
    for (name, twq, kq, exp), kline in zip(queries, ks):
        tw = subprocess.run(base + twq + ["count"], env=clock, capture_output=True, text=True)
        try:
            twn = int(tw.stdout.strip())
        except ValueError:
            twn = f"no answer ({tw.stderr.strip()[:200]})"
        kn = json.loads(kline)["count"]
        c.check(twn == kn, f"taskwarrior {name}: task says {twn}, kept '{kq}' says {kn}")
        # A count of nothing would agree whatever the export held.
        c.check(kn > 0, f"taskwarrior {name}: the store has tasks that count ({kn})")



def tw_undeclared_uda(c, tmp):
    """R-IO-2: without the UDA lines in .taskrc, Taskwarrior writes an estimate back as a
    string ("30.000000"); export, `task import`, `task export`, `kept import` keeps it."""
    if shutil.which("task") is None:
        return
    rc = os.path.join(tmp, "bare.taskrc")
    with open(rc, "w") as f:
        f.write("confirmation=off\nverbose=nothing\nnews.version=2.6.0\n")
    store = os.path.join(tmp, "uda.json")
    out = os.path.join(tmp, "uda.tw.json")
    r = kept_run(store, ["add Pay rent @fri", "set 1 estimate 30m", f"export {out}"], write=True)
    c.check(r.returncode == 0, f"uda export: {r.stderr[-300:]}")
    base = ["task", f"rc.data.location={os.path.join(tmp, 'tw-bare')}", "rc.gc=off"]
    env = dict(os.environ, TASKRC=rc)
    r = subprocess.run(base + ["import", out], env=env, capture_output=True, text=True)
    c.check(r.returncode == 0, f"uda task import: {r.stderr.strip()[:300]}")
    back = os.path.join(tmp, "uda-back.tw.json")
    with open(back, "w") as f:
        r = subprocess.run(base + ["export"], env=env, stdout=f, stderr=subprocess.PIPE, text=True)
    with open(back) as f:
        written = json.load(f)
    c.check(written and written[0].get("estimate") == "30.000000",
            f"taskwarrior writes an undeclared estimate back as a string: {written[0].get('estimate') if written else written}")
    r = kept_run(os.path.join(tmp, "uda-new.json"), [f"import {back} as tw", "show 1 estimate"], fmt="text")
    c.check(r.returncode == 0 and r.stdout.splitlines()[-1:] == ["30m"], f"kept import of it: {r.stdout[-300:]} {r.stderr[-300:]}")


# ---------------------------------------------------------------- 3. round trips

INSTANTS = ("createdAt", "modifiedAt", "completedAt")


def normal(t, fields):
    out = {}
    for k in fields:
        v = t.get(k)
        if k in INSTANTS and v:
            v = dt.datetime.fromisoformat(v.replace("Z", "+00:00")).astimezone(dt.timezone.utc).isoformat()
        if k == "priority" and v is None:
            v = "none"
        if k == "status" and v is None:
            v = "open"
        if v in (None, [], {}):
            continue
        out[k] = v
    return out


def roundtrip(c, store, exported, name, fields, tmp, parents):
    back = os.path.join(tmp, f"back-{name}.json")
    r = kept_run(back, [f"import {exported}"], write=True)
    if not c.check(r.returncode == 0, f"{name}: import of the export: {r.stdout[-300:]} {r.stderr[-300:]}"):
        return
    a, b = tasks_of(store), tasks_of(back)
    ua, ub = by_uid(a), by_uid(b)
    c.check(set(ua) == set(ub), f"{name}: the same uids come back ({len(set(ua) ^ set(ub))} differ)")
    ida = {t["id"]: t["uid"] for t in a}
    idb = {t["id"]: t["uid"] for t in b}
    diffs = 0
    for u, t in ua.items():
        if u not in ub:
            continue
        x, y = normal(t, fields), normal(ub[u], fields)
        if name.endswith("Taskwarrior -> store"):
            # Taskwarrior keys annotations by their second: a comment made in the task's own
            # second goes out one second later (docs/INTEROP.md).
            for z in (x, y):
                for cm in z.get("comments", []):
                    if isinstance(cm, dict) and cm.get("at"):
                        cm["at"] = cm["at"][:16]
        if parents:
            x["parent"] = ida.get(t.get("parent"))
            y["parent"] = idb.get(ub[u].get("parent"))
        if x != y:
            diffs += 1
            if diffs <= 3:
                keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
                print(f"  {name} {u} {t['title']}: " + "; ".join(f"{k}: {x.get(k)!r} -> {y.get(k)!r}" for k in keys))
    c.check(diffs == 0, f"{name}: every field both hold survives the round trip ({diffs} tasks differ)")
    again = kept_run(back, [f"import {exported}"], write=True)
    rep = json.loads(again.stdout.splitlines()[0])["import"] if again.stdout else {}
    c.check(rep.get("added") == 0 and rep.get("changed") == 0, f"{name}: importing the same file again changes nothing ({rep})")


ICS_FIELDS = ["title", "status", "due", "start", "priority", "project", "area", "tags", "notes", "description", "repeat",
              "estimate", "heldUntil", "notTodayOn", "completedAt", "createdAt", "modifiedAt", "goal", "steps", "reminders",
              "comments", "someToolField"]
TW_FIELDS = ["title", "status", "due", "start", "priority", "project", "tags", "description", "repeat", "completedAt",
             "createdAt", "modifiedAt", "comments"]


def main():
    c = Checks()
    for mod in ("icalendar", "recurring_ical_events"):
        try:
            __import__(mod)
        except ImportError:
            print(f"interop_peers.py: Python's {mod} is missing (make deps installs it)")
            print("0 passed, 1 failed")
            return 1
    missing = [p for p in (GENERATOR, os.path.join(ANSWERS, "expected-10k.json")) if not os.path.exists(p)]
    if missing:
        print(f"interop_peers.py: missing {', '.join(missing)} (Tests/differential/peers/README.md)")
        print("0 passed, 1 failed")
        return 1
    if "--own" in sys.argv:
        with tempfile.TemporaryDirectory() as tmp:
            own_calendars_check(c, tmp)
        print(f"{c.passed} passed, {c.failed} failed")
        return 1 if c.failed else 0
    with tempfile.TemporaryDirectory() as tmp:
        store = make_store(tmp)
        ics = os.path.join(tmp, "out.ics")
        tw = os.path.join(tmp, "out.tw.json")
        r = kept_run(store, [f"export {ics}", f"export {tw}"])
        c.check(r.returncode == 0, f"export: {r.stdout[-300:]} {r.stderr[-300:]}")
        ics_check(c, store, ics)
        own_calendars_check(c, tmp)
        tw_check(c, store, tw, tmp, os.path.join(tmp, "plain.json"))
        tw_undeclared_uda(c, tmp)
        roundtrip(c, store, ics, "store -> iCalendar -> store", ICS_FIELDS, tmp, parents=True)
        tw_fields = TW_FIELDS
        roundtrip(c, store, tw, "store -> Taskwarrior -> store", tw_fields, tmp, parents=False)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
