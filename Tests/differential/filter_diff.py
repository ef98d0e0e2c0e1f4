#!/usr/bin/env python3
"""Filters against an evaluator of their own: docs/FILTERS.md, read as a specification.

This script knows nothing of kept's code. It writes random stores (docs/STORE.md) at several
clocks, makes random filters from the terms docs/FILTERS.md lists, works out each filter's
count and scope with the rules of that page ("Scope", "Terms", "Windows", "Dates and
instants"), and asks `kept run --format json` for `count FILTER` on the same store and clock.
Every disagreement is printed with the filter, the clock, the ids the evaluator expects and
kept's own `list status:any (F)`.

The clocks (each a zone, a day start, a week start and now as an instant):
  * Berlin on an ordinary Monday morning;
  * Berlin's spring night (2026-03-29): now 03:15 CEST, just after the skipped hour;
  * Berlin's autumn night (2026-10-25): now in the repeated hour, the second 02:30;
  * New York's autumn night (2026-11-01): now the second 01:30, given as 06:30Z;
  * New York's spring night (2026-03-08): now 03:10 EDT;
  * a 04:00 day start at 02:00 (today is still the day before);
  * week start Sunday, on a Saturday and on a Sunday.
Dues cluster on the clock's night, with wall-clock times in the skipped and repeated hours.

Run: python3 Tests/differential/filter_diff.py [--filters N] [--seed S]. Stdlib only. Ends
with `N passed, M failed` (a failed filter is one disagreement).

covers: R-FIL-1, R-FIL-3, R-FIL-4, R-FIL-5, R-FIL-6, R-VIEW-2, R-VIEW-3, R-DAY-2, R-DAY-5
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unicodedata
import uuid
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))

# (label, zone, day start, week start, now as a UTC instant)
CLOCKS = [
    ("berlin-june", "Europe/Berlin", "00:00", "monday", "2026-06-15T07:00:00Z"),
    ("berlin-spring-gap", "Europe/Berlin", "00:00", "monday", "2026-03-29T01:15:00Z"),
    ("berlin-autumn-repeat", "Europe/Berlin", "00:00", "monday", "2026-10-25T01:30:00Z"),
    ("newyork-autumn-repeat", "America/New_York", "00:00", "monday", "2026-11-01T06:30:00Z"),
    ("newyork-spring-gap", "America/New_York", "00:00", "monday", "2026-03-08T07:10:00Z"),
    ("day-start-0400", "Europe/Berlin", "04:00", "monday", "2026-06-17T00:00:00Z"),
    ("week-sunday-sat", "America/New_York", "00:00", "sunday", "2026-06-20T15:00:00Z"),
    ("week-sunday-sun", "Europe/Berlin", "04:00", "sunday", "2026-06-21T10:00:00Z"),
]

TAGS = ["errand", "phone", "Über", "work", "workshop", "deep", "homework"]
PROJECTS = ["Home", "Work", "Ärger"]
AREAS = ["Home", "home  ", "Garden"]
NOTES = ["Budget", "Trip plan"]
TITLE_WORDS = ["call", "mom", "report", "Café", "budget", "alpha", "naïve", "plan", "milk", "draft"]
SAVED = [
    {"name": "Errands", "filter": "#errand or #phone", "starred": False},
    {"name": "Finished", "filter": "done", "starred": False},
    {"name": "Soon", "filter": "@next 3 days or overdue", "starred": False},
]
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
PRIORITIES = ["none", "low", "medium", "high", "critical"]
REPEATS = {"Every day": "daily", "Every week": "weekly", "Every monday": "weekly", "Every month": "monthly",
           "Every year": "yearly"}


# ---------------------------------------------------------------- the clock (docs/FILTERS.md)

class Clock:
    def __init__(self, zone, day_start, week_start, now_text):
        self.tz = ZoneInfo(zone)
        self.zone = zone
        h, m = day_start.split(":")
        self.day_start = time(int(h), int(m))
        self.day_start_text = day_start
        self.week_start = WEEKDAYS.index(week_start[:3])
        self.now = datetime.fromisoformat(now_text.replace("Z", "+00:00")).timestamp()
        self.now_text = now_text
        local = datetime.fromtimestamp(self.now, self.tz).date()
        d = local
        # Today is the account day whose start is at or before now and the next day's after it.
        while self.start(d) > self.now:
            d -= timedelta(days=1)
        while self.start(d + timedelta(days=1)) <= self.now:
            d += timedelta(days=1)
        self.today = d

    def instant(self, d, t):
        """A wall-clock reading in the zone: a skipped time moved forward by the gap, a repeated
        one the first (fold 0 does both)."""
        return datetime.combine(d, t, tzinfo=self.tz).replace(fold=0).timestamp()

    def start(self, d):
        """The instant account day d starts: its date at the day start."""
        return self.instant(d, self.day_start)

    def week(self):
        """The first day of the week holding today."""
        back = (self.today.weekday() - self.week_start) % 7
        return self.today - timedelta(days=back)


def add_months(d, n):
    y, m = divmod(d.month - 1 + n, 12)
    y += d.year
    m += 1
    last = (date(y + (m == 12), m % 12 + 1, 1) - timedelta(days=1)).day
    return date(y, m, min(d.day, last))


# ---------------------------------------------------------------- values and windows

class Day:
    def __init__(self, d):
        self.d = d


class Inst:
    def __init__(self, t):
        self.t = t


def date_value(kind, c, rng):
    """A date value of docs/FILTERS.md: (text, Day or Inst)."""
    t = c.today
    if kind == "iso":
        d = t + timedelta(days=rng.randint(-6, 6))
        return d.isoformat(), Day(d)
    if kind == "word":
        w = rng.choice(["today", "tomorrow", "yesterday"])
        return w, Day(t + timedelta(days={"today": 0, "tomorrow": 1, "yesterday": -1}[w]))
    if kind == "weekday":
        k = rng.randrange(7)
        ahead = (k - t.weekday()) % 7 or 7  # strictly after today
        return rng.choice([WEEKDAYS[k], ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][k]]), \
            Day(t + timedelta(days=ahead))
    if kind == "period":
        w = rng.choice(["next week", "eow", "next month"])
        if w == "next week":
            return w, Day(c.week() + timedelta(days=7))
        if w == "eow":
            return w, Day(c.week() + timedelta(days=6))
        return w, Day(add_months(t.replace(day=1), 1))
    if kind == "ago-days":
        n = rng.randint(0, 9)
        unit = rng.choice(["d", "w", "mo", "y", " days ago", " weeks ago", " months ago"])
        if unit == " days ago" and n == 1:
            unit = " day ago"
        text = f"-{n}{unit}" if not unit.startswith(" ") else f"{n}{unit}"
        if unit in ("d", " days ago", " day ago"):
            d = t - timedelta(days=n)
        elif unit in ("w", " weeks ago"):
            d = t - timedelta(days=7 * n)
        elif unit in ("mo", " months ago"):
            d = add_months(t, -n)
        else:
            d = t.replace(year=t.year - n) if not (t.month == 2 and t.day == 29) else date(t.year - n, 2, 28)
        return text, Day(d)
    # ago-minutes
    n = rng.randint(1, 30)
    form = rng.choice(["h", "m", " hours ago", " minutes ago"])
    mins = n * 60 if form in ("h", " hours ago") else n * 7
    if form == "m":
        text = f"-{mins}m"
    elif form == " minutes ago":
        text = f"{mins} minutes ago"
    else:
        text = f"-{n}h" if form == "h" else f"{n} hours ago"
    return text, Inst(c.now - 60 * mins)


def window(c, rng):
    """A window (text without '@', first day, day after the last)."""
    t = c.today
    k = rng.randrange(9)
    if k == 0:
        return "today", t, t + timedelta(days=1)
    if k == 1:
        return "tomorrow", t + timedelta(days=1), t + timedelta(days=2)
    if k == 2:
        return "yesterday", t - timedelta(days=1), t
    if k == 3:
        nxt = rng.random() < 0.5
        w = c.week() + timedelta(days=7 if nxt else 0)
        return ("next week" if nxt else "this week"), w, w + timedelta(days=7)
    if k == 4:
        nxt = rng.random() < 0.5
        m = add_months(t.replace(day=1), 1 if nxt else 0)
        return ("next month" if nxt else "this month"), m, add_months(m, 1)
    if k == 5:
        n = rng.randint(1, 10)
        return f"next {n} days", t, t + timedelta(days=n)
    if k == 6:
        text, v = date_value(rng.choice(["iso", "weekday"]), c, rng)
        return text, v.d, v.d + timedelta(days=1)
    # ranges: both ends whole days, a through b
    while True:
        ta, a = date_value(rng.choice(["iso", "word", "ago-days"]), c, rng)
        tb, b = date_value(rng.choice(["iso", "word", "weekday"]), c, rng)
        if a.d <= b.d:
            return f"{ta}..{tb}", a.d, b.d + timedelta(days=1)


# ---------------------------------------------------------------- tasks as the evaluator sees them

def fold(s):
    return "".join(ch for ch in unicodedata.normalize("NFKD", s) if not unicodedata.combining(ch)).lower()


def is_open(t):
    return t["status"] not in ("done", "archived")


def due_instant(t, c):
    d = t.get("due")
    if not d or d.get("time") is None:
        return None
    h, m = d["time"].split(":")
    return c.instant(date.fromisoformat(d["date"]), time(int(h), int(m)))


def due_in(t, c, lo, hi):
    """The due in the window [lo, hi) of days (None: no end)."""
    d = t.get("due")
    if not d:
        return False
    if d.get("time") is None:
        day = date.fromisoformat(d["date"])
        return (lo is None or day >= lo) and (hi is None or day < hi)
    i = due_instant(t, c)
    return (lo is None or i >= c.start(lo)) and (hi is None or i < c.start(hi))


def inst_of(t, field):
    key = {"created": "createdAt", "modified": "modifiedAt", "completed": "completedAt"}[field]
    v = t.get(key)
    return None if v is None else datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp()


def cmp(op, a, b):
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b}[op]


def glob(pattern, name):
    rx = "".join(".*" if ch == "*" else re.escape(ch) for ch in pattern.lower())
    return re.fullmatch(rx, name.lower(), re.S) is not None


class Store:
    def __init__(self, tasks):
        self.tasks = tasks
        self.by_id = {t["id"]: t for t in tasks}
        self.children = {}
        for t in tasks:
            p = t.get("parent")
            if p is not None and p in self.by_id:
                self.children.setdefault(p, []).append(t)


# ---------------------------------------------------------------- random filters

class Term:
    """A filter as text, with its meaning: match(task) and whether it names a status."""
    def __init__(self, text, match, status=False, simple=True):
        self.text = text
        self.match = match
        self.status = status
        self.simple = simple


def term(c, st, rng):
    k = rng.randrange(44)
    if k == 0:
        tag = rng.choice(TAGS + ["none"])
        shown = rng.choice([tag, tag.upper(), tag.capitalize()])
        text = rng.choice(["#", "tag:"]) + shown
        return Term(text, lambda t: tag.lower() in [x.lower() for x in t.get("tags", [])])
    if k == 1:
        p = rng.choice(["work*", "*shop", "*o*", "*", "wor*k", "*work", "ü*", "home*"])
        return Term("#" + p, lambda t: any(glob(p, x) for x in t.get("tags", [])))
    if k == 2:
        p = rng.choice(PROJECTS)
        text = rng.choice(["+" + p, "+" + p.lower(), "project:" + p.upper()])
        return Term(text, lambda t: (t.get("project") or "").lower() == p.lower())
    if k == 3:
        p = rng.choice(PRIORITIES[1:])
        return Term(rng.choice(["!", "priority:"]) + p, lambda t: t.get("priority", "none") == p)
    if k == 4:
        op = rng.choice(["<", "<=", ">", ">=", "="])
        p = rng.choice(PRIORITIES[1:])
        return Term(f"priority {op} {p}", lambda t: cmp(op, PRIORITIES.index(t.get("priority", "none")), PRIORITIES.index(p)))
    if k == 5:
        a = rng.choice(["home", "HOME", "garden", "Garden"])
        key = " ".join(a.lower().split())
        return Term("area:" + a, lambda t: t.get("area") is not None and " ".join(t["area"].lower().split()) == key)
    if k == 6:
        s = rng.choice(["waiting", "any", "all", "open", "done", "archived"])
        if s in ("any", "all"):
            return Term("status:" + s, lambda t: True, status=True)
        if s == "open":
            return Term("status:open", is_open, status=True)
        return Term("status:" + s, lambda t: t["status"] == s, status=True)
    if k == 7:
        return Term('status:"in review"', lambda t: t["status"] == "in review", status=True)
    if k == 8:
        w = rng.choice(["open", "done", "archived"])
        return Term(w, is_open if w == "open" else (lambda t: t["status"] == w), status=True)
    if k == 9:
        ts = c.start(c.today)
        return Term("done today", lambda t: t["status"] == "done" and inst_of(t, "completed") is not None
                    and inst_of(t, "completed") >= ts, status=True)
    if k == 10:
        text, lo, hi = window(c, rng)
        a, b = c.start(lo), c.start(hi)
        return Term("done @" + text, lambda t: t["status"] == "done" and inst_of(t, "completed") is not None
                    and a <= inst_of(t, "completed") < b, status=True)
    if k in (11, 12):
        def overdue(t):
            if not is_open(t) or not t.get("due"):
                return False
            i = due_instant(t, c)
            return date.fromisoformat(t["due"]["date"]) < c.today if i is None else i < c.now
        return Term(rng.choice(["overdue", "@overdue"]), overdue)
    if k == 13:
        w = rng.choice(["no due", "has due", "has time"])
        if w == "no due":
            return Term(w, lambda t: not t.get("due"))
        if w == "has due":
            return Term(w, lambda t: bool(t.get("due")))
        return Term(w, lambda t: bool(t.get("due")) and t["due"].get("time") is not None)
    if k == 14:
        return Term("repeating", lambda t: is_open(t) and t.get("repeat") is not None)
    if k == 15:
        f = rng.choice(["daily", "weekly", "monthly", "yearly"])
        return Term("repeat:" + f, lambda t: t.get("repeat") is not None and REPEATS[t["repeat"]["text"]] == f)
    if k == 16:
        return Term("held", lambda t: t.get("heldUntil") is not None and date.fromisoformat(t["heldUntil"]) > c.today)
    if k == 17:
        neg = rng.random() < 0.4
        m = (lambda t: t["id"] in st.children)
        return Term("no subtasks" if neg else rng.choice(["has subtasks", "has subtask"]),
                    (lambda t: not m(t)) if neg else m)
    if k == 18:
        return Term("is subtask", lambda t: t.get("parent") is not None and t["parent"] in st.by_id)
    if k == 19:
        n = rng.choice([t["id"] for t in st.tasks])
        return Term(f"parent:{n}", lambda t: t.get("parent") == n)
    if k == 20:
        return Term("blocked", lambda t: any(is_open(x) for x in st.children.get(t["id"], [])))
    if k == 21:
        return Term("blocking", lambda t: is_open(t) and t.get("parent") is not None and t["parent"] in st.by_id)
    if k == 22:
        noun = rng.choice(["reminder", "estimate", "notes"])
        neg = rng.random() < 0.4
        key = {"reminder": "reminders", "estimate": "estimate", "notes": "notes"}[noun]
        m = (lambda t: bool(t.get(key)))
        return Term(("no " if neg else "has ") + noun, (lambda t: not m(t)) if neg else m)
    if k == 23:
        op = rng.choice(["<", "<=", ">", ">=", "="])
        v, mins = rng.choice([("15m", 15), ("1h", 60), ("30", 30), ("1h30m", 90), ("2h", 120)])
        return Term(f"estimate {op} {v}", lambda t: t.get("estimate") is not None and cmp(op, t["estimate"]["minutes"], mins))
    if k in (24, 25, 26, 27):
        text, lo, hi = window(c, rng)
        return Term("@" + text, lambda t: due_in(t, c, lo, hi))
    if k in (28, 29, 30):
        op = rng.choice(["<", "<=", ">", ">=", "=", "before", "after"])
        text, v = date_value(rng.choice(["iso", "word", "weekday", "period", "ago-days"]), c, rng)
        d = v.d
        one = timedelta(days=1)
        lo, hi = {"<": (None, d), "before": (None, d), "<=": (None, d + one), ">": (d + one, None),
                  "after": (d + one, None), ">=": (d, None), "=": (d, d + one)}[op]
        return Term(f"due {op} {text}", lambda t: due_in(t, c, lo, hi))
    if k in (31, 32, 33, 34):
        field = rng.choice(["created", "modified", "completed"])
        op = rng.choice(["<", "<=", ">", ">=", "=", "before", "after"])
        text, v = date_value(rng.choice(["iso", "word", "weekday", "ago-days", "ago-minutes", "ago-minutes"]), c, rng)
        o = {"before": "<", "after": ">"}.get(op, op)
        if isinstance(v, Day):
            s0, s1 = c.start(v.d), c.start(v.d + timedelta(days=1))
            test = (lambda x: s0 <= x < s1) if o == "=" else (lambda x: cmp(o, x, s0))
        else:
            test = (lambda x: v.t <= x < v.t + 60) if o == "=" else (lambda x: cmp(o, x, v.t))

        def m(t):
            x = inst_of(t, field)
            return x is not None and test(x)
        return Term(f"{field} {op} {text}", m, status=field == "completed")
    if k in (35, 36):
        field = rng.choice(["created", "modified", "completed"])
        text, lo, hi = window(c, rng)
        a, b = c.start(lo), c.start(hi)

        def m(t):
            x = inst_of(t, field)
            return x is not None and a <= x < b
        return Term(f"{field} @{text}", m, status=field == "completed")
    if k in (37, 38):
        words = rng.sample(["call", "mom", "cafe", "Café", "REPORT", "budg", "naive", "alpha", "milk", "step", "noted"],
                           rng.choice([1, 1, 2]))
        form = rng.randrange(3)
        text = " ".join(words) if form == 0 else ('"' + " ".join(words) + '"' if form == 1 else 'search "' + " ".join(words) + '"')
        fw = [fold(w) for w in words]
        return Term(text, lambda t: all(w in haystack(t) for w in fw), simple=form != 0 or len(words) == 1)
    if k == 39:
        pat, flags = rng.choice([("^call", "i"), ("a.*e", ""), ("report$", "i"), ("^d", "")])
        rx = re.compile(pat, re.I if "i" in flags else 0)
        field = rng.choice(["title", "description"])
        return Term(f"{field} ~ /{pat}/{flags}", lambda t: t.get(field) is not None and rx.search(t[field]) is not None)
    if k == 40:
        n = rng.choice(NOTES)
        return Term(f"[[{n}]]", lambda t: n.lower() in [x.lower() for x in t.get("notes", [])])
    # saved filters: as if their text were written there in parentheses
    f = rng.choice(SAVED)
    if f["name"] == "Errands":
        return Term("filter:Errands", lambda t: any(x.lower() in ("errand", "phone") for x in t.get("tags", [])))
    if f["name"] == "Finished":
        return Term("filter:Finished", lambda t: t["status"] == "done", status=True)
    soon = [term_fixed_window(c, c.today, c.today + timedelta(days=3))]

    def m(t):
        if soon[0](t):
            return True
        if not is_open(t) or not t.get("due"):
            return False
        i = due_instant(t, c)
        return date.fromisoformat(t["due"]["date"]) < c.today if i is None else i < c.now
    return Term("filter:Soon", m)


def term_fixed_window(c, lo, hi):
    return lambda t: due_in(t, c, lo, hi)


def haystack(t):
    parts = [t["title"]]
    if t.get("description") is not None:
        parts.append(t["description"])
    parts += [s["title"] for s in t.get("steps", [])]
    parts += [x["text"] for x in t.get("comments", [])]
    return fold("\n".join(parts))


def expr(c, st, rng, depth):
    if depth <= 0 or rng.random() < 0.35:
        return term(c, st, rng)
    k = rng.randrange(4)
    if k == 0:  # not
        x = expr(c, st, rng, depth - 1)
        inner = x.text if x.simple else "(" + x.text + ")"
        form = rng.randrange(3)
        if form == 0:
            text = "not " + inner
        elif form == 1 and not inner.startswith("-"):
            text = "-" + inner
        else:
            text = "- " + inner
        return Term(text, lambda t: not x.match(t), x.status, simple=True)
    xs = [expr(c, st, rng, depth - 1) for _ in range(rng.randint(2, 3))]
    status = any(x.status for x in xs)
    parts = [x.text if x.simple else "(" + x.text + ")" for x in xs]
    if k == 1:  # or
        text = (" " + rng.choice(["or", "|"]) + " ").join(parts)
        return Term(text, lambda t: any(x.match(t) for x in xs), status, simple=False)
    op = rng.choice(["and", "&", ""])
    text = parts[0]
    for p in parts[1:]:
        # `done @W` and `done today` are one term (docs/FILTERS.md): a `done` next to a window is
        # joined with `and` to mean the two terms.
        o = "and" if op == "" and re.search(r"(^|[ (-])done$", text) and (p.startswith("@") or p.startswith("today")) else op
        text += (" " + o + " " if o else " ") + p
    return Term(text, lambda t: all(x.match(t) for x in xs), status, simple=False)


# ---------------------------------------------------------------- random stores

def iso_utc(ts):
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")


def make_store(c, rng, n):
    tasks = []
    night = c.today
    for i in range(1, n + 1):
        t = {"id": i, "uid": str(uuid.UUID(int=rng.getrandbits(128), version=4)),
             "title": " ".join(rng.sample(TITLE_WORDS, rng.randint(1, 3)))}
        r = rng.random()
        t["status"] = "open" if r < 0.5 else "waiting" if r < 0.6 else "done" if r < 0.82 else "archived" if r < 0.92 else "in review"
        if rng.random() < 0.8:
            near = rng.random() < 0.5
            d = night + timedelta(days=rng.choice([-1, 0, 0, 1]) if near else rng.randint(-12, 12))
            tm = None
            if rng.random() < 0.55:
                if near:
                    tm = f"{rng.randint(0, 4):02d}:{rng.choice([0, 10, 15, 30, 45, 59]):02d}"
                else:
                    tm = f"{rng.randint(0, 23):02d}:{rng.choice([0, 15, 30, 45]):02d}"
            t["due"] = {"date": d.isoformat(), "time": tm}
            if rng.random() < 0.15:
                text = rng.choice(list(REPEATS))
                t["repeat"] = {"text": text}
        if rng.random() < 0.7:
            t["priority"] = rng.choice(PRIORITIES)
        if rng.random() < 0.6:
            t["project"] = rng.choice(PROJECTS) if t["status"] != "in review" else "Work"
        if t["status"] == "in review":
            t["project"] = "Work"
        if rng.random() < 0.3:
            t["area"] = rng.choice(AREAS)
        t["tags"] = [x for x in TAGS if rng.random() < 0.2]
        if rng.random() < 0.2:
            t["notes"] = rng.sample(NOTES, rng.randint(1, 2))
        if rng.random() < 0.4:
            t["description"] = " ".join(rng.sample(TITLE_WORDS, rng.randint(1, 4)))
        if rng.random() < 0.15:
            t["steps"] = [{"title": "step " + rng.choice(TITLE_WORDS), "done": False}]
        if rng.random() < 0.1:
            t["comments"] = [{"text": "noted " + rng.choice(TITLE_WORDS), "at": "2026-01-02T10:00:00+00:00"}]
        if rng.random() < 0.3:
            t["estimate"] = {"minutes": rng.choice([5, 15, 30, 60, 90, 120]), "source": "user"}
        if rng.random() < 0.15:
            t["heldUntil"] = (night + timedelta(days=rng.randint(-2, 3))).isoformat()
        # Instants: some in the last hours (the night), some days around.
        def around():
            if rng.random() < 0.5:
                return c.now - 60 * rng.randint(-60, 600)
            return c.now - 3600 * rng.randint(-48, 24 * 40) - 60 * rng.randint(0, 59)
        created = around()
        t["createdAt"] = iso_utc(created)
        if t["status"] in ("done", "archived") and rng.random() < 0.9:
            t["completedAt"] = iso_utc(max(created, around()))
        t["modifiedAt"] = iso_utc(max(created, around()))
        if tasks and rng.random() < 0.25:
            t["parent"] = rng.randint(1, i - 1)
        if rng.random() < 0.2:
            t["reminders"] = [{"at": (night + timedelta(days=rng.randint(0, 3))).isoformat() + "T09:00"}]
        tasks.append(t)
    store = {
        "format": "kept-store", "version": 1, "revision": 1, "nextId": n + 1,
        "settings": {"zone": c.zone, "day-start": c.day_start_text,
                     "week-start": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][c.week_start]},
        "projects": [{"name": p, "statuses": ["In review"] if p == "Work" else []} for p in PROJECTS],
        "areas": [{"name": "Home"}, {"name": "Garden"}],
        "filters": SAVED,
        "tasks": tasks,
    }
    return store


# ---------------------------------------------------------------- running kept

def kept_counts(store_path, c, filters):
    with tempfile.NamedTemporaryFile("w", suffix=".kept", delete=False, encoding="utf-8") as f:
        for x in filters:
            f.write("count " + x + "\n")
        script = f.name
    try:
        out = subprocess.run([KEPT, "run", "--keep-going", "--store", store_path, "--now", c.now_text, "--format", "json", script],
                             capture_output=True, text=True)
    finally:
        os.unlink(script)
    answers = []
    for line in out.stdout.splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if "error" in v and str(v["error"].get("code", "")).startswith("W"):
            continue
        answers.append(v)
    return answers, out.stderr


def kept_ids(store_path, c, f):
    out = subprocess.run([KEPT, "run", "--store", store_path, "--now", c.now_text, "--format", "json", "-e", f"list status:any ({f})"],
                         capture_output=True, text=True)
    return out.stdout.strip()[:300]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--filters", type=int, default=2400, help="filters in all (spread over the clocks and stores)")
    ap.add_argument("--seed", type=int, default=20260615)
    ap.add_argument("--tasks", type=int, default=90)
    args = ap.parse_args()
    if not os.path.exists(KEPT):
        print(f"filter_diff.py: no kept at {KEPT}")
        return 1
    rng = random.Random(args.seed)
    runs = [(c, s) for c in CLOCKS for s in range(2)]
    per = -(-args.filters // len(runs))
    passed = failed = 0
    shown = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (label, zone, ds, ws, now), s in runs:
            c = Clock(zone, ds, ws, now)
            store = make_store(c, rng, args.tasks)
            st = Store(store["tasks"])
            path = os.path.join(tmp, f"{label}-{s}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(store, f, ensure_ascii=False)
            filters = [expr(c, st, rng, rng.choice([0, 1, 2, 3])) for _ in range(per)]
            answers, err = kept_counts(path, c, [x.text for x in filters])
            if len(answers) != len(filters):
                print(f"FAIL {label}: {len(answers)} answers to {len(filters)} filters; stderr: {err.strip()[:400]}")
                failed += len(filters)
                continue
            for x, a in zip(filters, answers):
                scope = st.tasks if x.status else [t for t in st.tasks if is_open(t)]
                want = (sum(1 for t in scope if x.match(t)), len(scope))
                got = (a.get("count"), a.get("total")) if "count" in a else a
                if got == want:
                    passed += 1
                    continue
                failed += 1
                if shown < 25:
                    shown += 1
                    ids = [t["id"] for t in scope if x.match(t)]
                    print(f"FAIL {label} store {s}: count {x.text}\n  kept {got}, expected {want} (ids {ids[:30]})"
                          f"\n  kept lists: {kept_ids(path, c, x.text)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
