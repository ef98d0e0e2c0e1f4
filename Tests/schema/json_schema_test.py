#!/usr/bin/env python3
"""JSON mode is an interface: every line `kept --format json`, `@format json` or `.mode json`
prints is one JSON object of a shape in docs/schema/output.schema.json (docs/OUTPUT.md).

Through the real binary: every command's example from `kept help`, in help order, against
examples/home.store.json (each must succeed and print one object of its command's shape);
every other statement form, setters included; errors (with their file, and a did-you-mean as
a fix-it); dot-commands in the piped REPL; a store that cannot be read. Each line is checked
against the one shape it must have, with Python's jsonschema. The schema is checked to reject what it must reject, so the
test can fail.

Usage: python3 Tests/schema/json_schema_test.py [path/to/kept]
"""

import json
import os
import subprocess
import sys
import tempfile

from jsonschema import Draft202012Validator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "debug", "kept")
STORE = os.path.join(ROOT, "examples", "home.store.json")
CLOCK = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]

with open(os.path.join(ROOT, "docs", "schema", "output.schema.json"), encoding="utf-8") as f:
    SCHEMA = json.load(f)
Draft202012Validator.check_schema(SCHEMA)
ROOT_VALIDATOR = Draft202012Validator(SCHEMA)
VALIDATORS = {}
failures = []
checked = 0


def shape(name):
    if name not in VALIDATORS:
        if name not in SCHEMA["$defs"]:
            raise SystemExit(f"no shape '{name}' in the schema")
        VALIDATORS[name] = Draft202012Validator({"$defs": SCHEMA["$defs"], "$ref": "#/$defs/" + name})
    return VALIDATORS[name]


def check(what, line, names):
    """One output line is one JSON object of one of the shapes, and of the schema as a whole."""
    global checked
    checked += 1
    try:
        value = json.loads(line)
    except ValueError as e:
        failures.append(f"{what}: not JSON ({e}): {line[:200]}")
        return None
    if not isinstance(value, dict):
        failures.append(f"{what}: not a JSON object: {line[:200]}")
        return value
    if not any(shape(n).is_valid(value) for n in names):
        errs = [f"{n}: {min(shape(n).iter_errors(value), key=lambda e: len(list(e.path))).message}" for n in names]
        failures.append(f"{what}: not of shape {' or '.join(names)}: {'; '.join(errs)}\n  {line[:300]}")
    if not ROOT_VALIDATOR.is_valid(value):
        failures.append(f"{what}: not valid against the whole schema: {line[:200]}")
    return value


def kept(args, stdin=""):
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    return subprocess.run([KEPT] + args, input=stdin, capture_output=True, text=True, env=env, timeout=60)


def run_statements(statements, what, store=STORE, yes=True):
    """Runs the statements in one session; one line each, each of its shapes."""
    args = ["run", "--format", "json"] + (["--yes"] if yes else []) + CLOCK
    if store:
        args += ["--store", store]
    for s, _ in statements:
        args += ["-e", s]
    r = kept(args)
    lines = r.stdout.splitlines()
    if r.stderr:
        failures.append(f"{what}: stderr is not empty in JSON mode: {r.stderr[:300]}")
    if len(lines) != len(statements):
        failures.append(f"{what}: {len(statements)} statements printed {len(lines)} lines")
        return []
    return [check(f"{what}: '{s}'", l, names) for (s, names), l in zip(statements, lines)]


# 1. Every command of `kept help`, by its example, in help order, on the example store.
EXAMPLE_SHAPES = {
    "add": ["added"], "capture": ["added"], "parse": ["parse"], "date": ["dateResult"], "explain": ["explainDate", "explainFilter", "plan"],
    "repeat": ["repeatPreview"], "rrule": ["rrule"], "show": ["field", "task"], "list": ["list", "view"], "count": ["count"],
    "filter": ["filterDefined", "savedFilter"], "filters": ["filters"], "areas": ["areas"], "complete": ["completed", "bulk"],
    "reopen": ["reopened", "bulk"], "delete": ["deleted", "bulk"], "archive": ["archived", "bulk"], "unarchive": ["unarchived", "bulk"],
    "tomorrow": ["updated", "bulk"], "reschedule": ["updated", "bulk"], "move": ["updated", "bulk"], "tag": ["updated", "bulk"],
    "untag": ["updated", "bulk"], "duplicate": ["added", "bulk"], "step": ["updated"], "comment": ["updated"], "link": ["updated", "bulk"],
    "unlink": ["updated", "bulk"], "subtask": ["added"], "remind": ["updated", "bulk"], "unremind": ["updated", "bulk"],
    "reminders": ["reminders"], "set": ["updated", "bulk", "settings"], "undo": ["undone"], "redo": ["redone"],
    "project": ["projectAdded", "projectRenamed", "projectArchived", "projectDeleted", "projectStatuses"], "projects": ["projects"],
    "now": ["now"], "zone": ["zone"], "help": ["helpCommand", "help"], "plan": ["plan", "planByDate", "openings"], "why": ["why"],
    "not": ["task", "bulk"], "back": ["back"], "top3": ["top3"], "skip": ["updated", "bulk"], "unskip": ["updated", "bulk"],
    "rdate": ["updated", "bulk"], "unrdate": ["updated", "bulk"], "import": ["import"], "export": ["export"],
    "sync": ["syncStatus"], "account": ["account"], "agenda": ["agenda"], "calendar": ["calendarChanged"],
}
listing = kept(["run", "--format", "json", "-e", "help"])
commands = [c["name"] for c in check("help", listing.stdout.strip(), ["help"])["commands"]]
missing = [c for c in commands if c not in EXAMPLE_SHAPES]
if missing:
    failures.append(f"commands of 'kept help' with no shape in this test: {missing}")
helps = run_statements([(f"help {c}", ["helpCommand"]) for c in commands], "help COMMAND", store=None)
examples = [(h["example"], EXAMPLE_SHAPES.get(c, ["error"])) for c, h in zip(commands, helps) if h]
for value, (example, _) in zip(run_statements(examples, "examples in help order"), examples):
    if isinstance(value, dict) and "error" in value:
        failures.append(f"the example '{example}' fails: {value['error']['message']}")

# 2. Every other statement form, setters included, in one session on the example store.
FORMS = [
    ("now", ["now"]), ("now 2026-06-15 09:00", ["now"]), ("now 2026-06-15T07:00:00Z", ["now"]), ("zone", ["zone"]),
    ("zone Europe/Berlin", ["zone"]), ("set", ["settings"]), ("set clock", ["settings"]), ("set clock 24h", ["settings"]),
    ("set clock 12h", ["settings"]), ("show 1", ["task"]), ("show 1 due", ["field"]), ("show 1 description", ["field"]),
    ("show 1 uid", ["field"]), ("show 1 steps", ["field"]), ("list", ["list"]), ("list +Home group by due", ["list"]),
    ("list today", ["view"]), ("list tomorrow", ["view"]), ("list next 7 days group by due", ["view"]), ("list all", ["view"]),
    ("list archived", ["view"]), ("list done today", ["view"]), ("count", ["count"]),
    ("explain @next 7 days and +Home or overdue", ["explainFilter"]), ("explain done", ["explainFilter"]),
    ("explain (+Home or overdue) and -#errand for 1", ["explainTrial"]),
    ("explain date tomorrow 3pm", ["explainDate"]), ("date in 2 weeks", ["dateResult"]), ("parse Call mom @tom", ["parse"]),
    ("parse Book movers start:\"next mon\" status:waiting parent:1", ["parse"]), ("repeat every weekday next 3", ["repeatPreview"]),
    ("repeat every day at 9am next 2", ["repeatPreview"]), ("repeat FREQ=HOURLY;COUNT=3 next 3", ["repeatPreview"]),
    ("repeat every mon and thu at 9am and 5pm next 4", ["repeatPreview"]),
    ("rrule every 2 weeks on tue", ["rrule"]), ("filter Errands = #errand", ["filterDefined"]), ("filter star Errands", ["savedFilter"]),
    ("filter unstar Errands", ["savedFilter"]), ("filter rename Errands to Chores", ["savedFilter"]), ("filter move Chores to 1", ["savedFilter"]),
    ("filters", ["filters"]), ("filter delete Chores", ["savedFilter"]), ("areas", ["areas"]), ("set 1 area Home", ["updated"]),
    ("areas", ["areas"]), ("add Buy milk #errand", ["added"]), ("complete 7", ["completed"]), ("complete where #errand", ["bulk"]),
    ("reopen 7", ["reopened"]), ("tag 7 #errand", ["unchanged"]), ("archive 7", ["archived"]), ("unarchive 7", ["unarchived"]),
    ("delete 7", ["deleted"]), ("undo", ["undone"]), ("redo", ["redone"]), ("delete where #nothing", ["bulk"]),
    ("duplicate where (+Work)", ["bulk"]), ("step 1 add Call", ["updated"]), ("step 1 check 1", ["updated"]),
    ("step 1 uncheck 1", ["updated"]), ("step 1 remove 1", ["updated"]), ("remind 1 in an hour", ["updated"]),
    ("reminders", ["reminders"]), ("unremind 1 1", ["updated"]), ("project add Garden", ["projectAdded"]),
    ("project rename Garden to Yard", ["projectRenamed"]), ("project archive Yard", ["projectArchived"]),
    ("project unarchive Yard", ["projectArchived"]), ("project statuses Yard add Blocked", ["projectStatuses"]),
    ("project statuses Yard", ["projectStatuses"]), ("project statuses Yard remove Blocked", ["projectStatuses"]),
    ("project delete Yard", ["projectDeleted"]), ("projects", ["projects"]), ("plan", ["plan"]), ("plan by date", ["planByDate"]),
    ("plan refresh", ["plan"]), ("explain plan", ["plan"]), ("plan +Home limit 1", ["plan"]), ("why 1", ["why"]),
    ("top3", ["top3"]), ("top3 change", ["top3"]), ("not today 2", ["task"]), ("back 2", ["back"]), ("help", ["help"]),
    ("help add", ["helpCommand"]), ("help settings", ["helpSettings"]), ("help errors", ["helpErrors"]), ("help E0301", ["helpCode"]),
    ("sync status", ["syncStatus"]), ("sync review", ["syncReview"]), ("account", ["account"]),
    ("agenda", ["agenda"]), ("agenda 3 days from tomorrow where +Home", ["agenda"]), ("agenda where #nothing", ["agenda"]),
    ("plan openings", ["openings"]), ("plan openings 1", ["openings"]),
    ("calendar connect Home examples/agenda-home.ics", ["calendarChanged"]), ("calendar list", ["calendars"]),
    ("calendar hide Home", ["calendarChanged"]), ("calendar hide Home", ["calendarChanged"]), ("calendar disconnect Home", ["calendarChanged"]),
]
run_statements(FORMS, "statement forms")

# 3. Errors: one error object each, naming the file ("-e"), line and column.
ERRORS = ["show 99", "lsit", "list priorty >= high", "add", "undo 99", "date feb 30", "set clock 13h", "project add Home",
          "delete where done", "top3 add 99", "sync", "sync retry 1", "sync discard 1", "account link \"host=x password=y\""]
for value, s in zip(run_statements([(s, ["error"]) for s in ERRORS], "errors", yes=False), ERRORS):
    if isinstance(value, dict) and value.get("error", {}).get("file") != "-e":
        failures.append(f"error of '{s}' does not name its file '-e': {value}")
    # A did-you-mean is a fix-it whose title is the help.
    if s == "lsit":
        fixes = value.get("error", {}).get("fixIts") if isinstance(value, dict) else None
        want = [{"title": "did you mean 'list'?", "replacement": "list", "line": 1, "column": 1, "endLine": 1, "endColumn": 5}]
        if fixes != want or value["error"].get("help") != want[0]["title"]:
            failures.append(f"the error of 'lsit' does not carry its fix-it: {value}")

# 4. Dot-commands, piped into the REPL in JSON mode: one object each.
DOTS = [(".mode", ["dotMode"]), (".timer", ["dotSwitch"]), (".timer on", ["dotSwitch"]), (".timer off", ["dotSwitch"]),
        (".bail off", ["dotSwitch"]), (".color", ["dotSwitch"]), (".help", ["dotHelp"]), (".help .open", ["dotCommand"]),
        (".help repl", ["dotHelpText"]), (".help add", ["helpCommand"]), (".history", ["dotHistory"]), (".frob", ["error"]),
        (".timer maybe", ["error"]), (".width 60", ["dotWidth"]), (".width", ["dotWidth"]), (".width none", ["dotWidth"])]
with tempfile.TemporaryDirectory() as d:
    store = os.path.join(d, "s.json")
    rec = os.path.join(d, "r.kept")
    DOTS += [(f".open {store}", ["dotOpened"]), ("add Call mom", ["added"]), (".save", ["dotSaved"]), (f".record {rec}", ["dotRecorded"]),
             (".mode text", ["dotMode"]), (".quit", ["dotQuit"])]
    r = kept(["repl", "--format", "json"] + CLOCK, stdin="".join(l + "\n" for l, _ in DOTS))
    lines = r.stdout.splitlines()
    # `.mode text` prints its object and then text mode; `.quit` prints nothing more in text.
    if len(lines) != len(DOTS) - 1:
        failures.append(f"dot-commands: {len(DOTS)} lines in, {len(lines)} out:\n{r.stdout}{r.stderr}")
    else:
        for (l, names), out in zip(DOTS, lines):
            check(f"dot-command '{l}'", out, names)

    # 5. A store that cannot be read: the error object on stdout, nothing on stderr, exit 2.
    bad = os.path.join(d, "bad.json")
    with open(bad, "w") as f:
        f.write("[1,2]\n")
    r = kept(["run", "--format", "json", "--store", bad] + CLOCK + ["-e", "list"])
    if r.returncode != 2 or r.stderr or len(r.stdout.splitlines()) != 1:
        failures.append(f"unreadable store in JSON mode: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}")
    else:
        value = check("unreadable store", r.stdout.strip(), ["error"])
        if value and value["error"]["file"] != bad:
            failures.append(f"the store error does not name the store: {value}")

# 6. The schema rejects what it must, so this test can fail.
good = json.loads(kept(["run", "--format", "json"] + CLOCK + ["-e", "add Pay rent @today"]).stdout)
check("a fresh add", json.dumps(good), ["added"])
no_uid = json.loads(json.dumps(good)); del no_uid["added"]["uid"]
extra_key = json.loads(json.dumps(good)); extra_key["added"]["colour"] = "red"
bad_date = json.loads(json.dumps(good)); bad_date["added"]["due"]["date"] = "June 15"
timed = json.loads(kept(["run", "--format", "json"] + CLOCK + ["-e", "repeat every day at 9am next 2"]).stdout)
check("a timed repeat", json.dumps(timed), ["repeatPreview"])
bad_time = json.loads(json.dumps(timed)); bad_time["dates"][0] = "2026-06-15 9am"
no_file = {"error": {"code": "E0301", "message": "no task with id 9", "line": 1, "column": 6}}
half_fix = {"error": {"code": "E0101", "message": "unknown command 'lsit'", "file": "-e", "line": 1, "column": 1,
                      "fixIts": [{"title": "did you mean 'list'?", "line": 1, "column": 1, "endLine": 1, "endColumn": 5}]}}
for name, value, s in [("no uid", no_uid, "added"), ("an extra key", extra_key, "added"), ("a date in words", bad_date, "added"),
                       ("an error without file", no_file, "error"), ("a fix-it without its replacement", half_fix, "error"),
                       ("an empty object", {}, "error"), ("a time in words", bad_time, "repeatPreview")]:
    if shape(s).is_valid(value):
        failures.append(f"the schema takes a {s} with {name}")

print(f"json_schema_test: {checked} lines checked against docs/schema/output.schema.json")
if failures:
    print(f"{len(failures)} failures:")
    for f in failures:
        print("  " + f)
    sys.exit(1)
