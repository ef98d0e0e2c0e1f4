#!/usr/bin/env python3
"""Differential test: kept's repeat dates against python-dateutil's rrule.

Three generators, seeded. general_rules.py makes general RFC 5545 RRULEs (every BY part,
BYSETPOS, WKST, COUNT, UNTIL as a date, a floating time or a UTC instant, times of day, HOURLY
and MINUTELY), checked against dateutil on the rule itself, and Kept's words for the shapes
beyond the simple ones, checked against rrule() calls written from their parameters; the times
are wall-clock times in Europe/Berlin, an UTC UNTIL compared as an instant there (dateutil with
a zone-aware DTSTART). The third, below, makes the simple rules (daily and every N days, weekdays,
weekend, weekday lists, every N weeks on days, monthly on days 1-31, the last day, the nth and
last weekday, every N months, yearly with and without a month and day, Feb 29, every N years,
`for N times`, `until DATE`), some written in kept's words and some as RRULEs, anchored from
2020 to 2030. One `kept run --format json` process previews all of them
(`repeat RULE from ANCHOR next 50`, one line per rule on stdin, one JSON line back per rule).
A fourth, below, makes timed RRULEs with COUNT (daily with BYSETPOS, weekly, monthly, yearly;
BYHOUR and BYMINUTE, or BYMINUTE alone) previewed `from DATE TIME` at one of the rule's own
times, often not its day's first: dateutil from that DTSTART is the answer (R-REP-11, R-REP-12).
Each rule's dates must equal, date for date:

  (a) dateutil on the RRULE kept exported for it (`rrulestr(rrule, dtstart=anchor)`), and
  (b) dateutil on an rrule() call written here from the generator's parameters, in a
      different but equivalent form where one exists (BYSETPOS for the nth weekday,
      BYMONTHDAY=(d,-1);BYSETPOS=1 for a day that may not exist, DAILY;BYDAY for weekly
      rules with an interval of 1), so that it does not just repeat kept's export.

Kept's semantics (docs/REPEATS.md): occurrences are the dates on or after the anchor that the
rule gives; a day above 28 falls on the month's end in shorter months (R-REP-4), Feb 29 on
Feb 28 in common years; a rule without a day, weekday or month takes the anchor's; weeks
start on Monday; `until` is inclusive; `for N times` counts from the anchor. (b) follows
these semantics also for an RRULE given without BYMONTHDAY and anchored on the 29th-31st or
on Feb 29 (`FREQ=YEARLY from 2024-02-29`), which kept reads as falling on the month's end,
where a strict RFC 5545 engine skips the months without that day.

usage: python3 Tests/differential/dateutil_diff.py [-n RULES] [--seed N] [--kept PATH] [-v]
Needs python-dateutil (`make deps` installs it). Prints each mismatch, then `N passed, M failed`;
exits 1 when a rule fails (2 when kept cannot be run).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import time
from datetime import date, datetime, timedelta
from itertools import islice

import general_rules

try:
    from dateutil import rrule as du
    from dateutil.rrule import rrulestr
except ImportError:
    sys.exit("dateutil_diff.py: python-dateutil is missing (make deps, or python3 -m pip install python-dateutil)")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOW, ZONE = "2026-06-15T09:00", "Europe/Berlin"
LIMIT = 50

DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]           # index = date.weekday()
DAY_FULL = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DAY_ABBR = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
DU_DAYS = [du.MO, du.TU, du.WE, du.TH, du.FR, du.SA, du.SU]
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
MONTHS_FULL = ["january", "february", "march", "april", "may", "june", "july", "august",
               "september", "october", "november", "december"]
MAX_DAY = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
ORD_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}
LEAP_DAYS = [date(2020, 2, 29), date(2024, 2, 29), date(2028, 2, 29)]


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---------------------------------------------------------------------------------------------
# The generator: a rule is a dict of parameters; `words` / `rrule_in` say it to kept.

def random_anchor(rng):
    r = rng.random()
    if r < 0.35:                                            # about five years before 2026
        return date(2021, 1, 1) + timedelta(days=rng.randint(0, 364))
    if r < 0.45:                                            # around the benchmark's now
        return date(2026, 6, 15) + timedelta(days=rng.randint(-60, 120))
    return date(2020, 1, 1) + timedelta(days=rng.randint(0, (date(2030, 12, 31) - date(2020, 1, 1)).days))


def month_end_anchor(rng):
    """An anchor on the 29th, 30th or 31st (or Feb 29), for rules that take the anchor's day."""
    while True:
        a = random_anchor(rng)
        d = rng.choice([29, 30, 31, 31])
        try:
            return a.replace(day=d)
        except ValueError:
            continue


def weekday_words(rng, days):
    names = [(DAY_FULL if rng.random() < 0.5 else DAY_ABBR)[d] for d in days]
    if len(names) == 1:
        return names[0]
    style = rng.randrange(3)
    if style == 0:
        return ", ".join(names[:-1]) + " and " + names[-1]
    if style == 1:
        return ", ".join(names)
    return " ".join(names)


def make_rule(rng, i):
    kinds = [("daily", 8), ("weekdays", 4), ("weekend", 3), ("weekday_list", 8), ("weeks", 10),
             ("month_day", 14), ("month_end_day", 10), ("month_implicit", 6), ("last_day", 4),
             ("nth_weekday", 10), ("last_weekday", 5), ("yearly_on", 7), ("yearly_feb29", 5),
             ("yearly_implicit", 6)]
    total = sum(w for _, w in kinds)
    r, acc = rng.random() * total, 0
    for kind, w in kinds:
        acc += w
        if r < acc:
            break
    p = {"id": i, "kind": kind, "interval": 1, "days": None, "monthday": None, "month": None,
         "count": None, "until": None, "anchor": random_anchor(rng)}
    if kind == "daily":
        p["freq"] = "daily"
        p["interval"] = rng.choice([1, 1, 2, 3, 4, 5, 7, 10, 14, 30, 45])
    elif kind in ("weekdays", "weekend", "weekday_list"):
        p["freq"] = "weekly"
        if kind == "weekdays":
            p["days"] = [0, 1, 2, 3, 4]
        elif kind == "weekend":
            p["days"] = [5, 6]
        else:
            p["days"] = sorted(rng.sample(range(7), rng.randint(1, 4)))
    elif kind == "weeks":
        p["freq"] = "weekly"
        p["interval"] = rng.choice([1, 2, 2, 2, 3, 4, 6])
        if rng.random() < 0.75:
            p["days"] = sorted(rng.sample(range(7), rng.randint(1, 3)))
    elif kind in ("month_day", "month_end_day", "month_implicit", "last_day", "nth_weekday", "last_weekday"):
        p["freq"] = "monthly"
        p["interval"] = rng.choice([1, 1, 1, 2, 3, 6]) if rng.random() < 0.4 else 1
        if kind == "month_day":
            p["monthday"] = ("day", rng.randint(1, 31))
        elif kind == "month_end_day":
            p["monthday"] = ("day", rng.choice([29, 30, 31]))
        elif kind == "month_implicit":
            if rng.random() < 0.6:
                p["anchor"] = month_end_anchor(rng)
        elif kind == "last_day":
            p["monthday"] = ("last",)
        elif kind == "nth_weekday":
            p["monthday"] = ("nth", rng.randint(1, 4), rng.randrange(7))
        else:
            p["monthday"] = ("nth", -1, rng.randrange(7))
    else:
        p["freq"] = "yearly"
        p["interval"] = rng.choice([1, 1, 1, 2, 3, 4, 5])
        if kind == "yearly_on":
            m = rng.randint(1, 12)
            d = rng.choice([rng.randint(1, MAX_DAY[m - 1]), MAX_DAY[m - 1]])
            if m == 2 and d == 29:
                d = 28
            p["month"], p["monthday"] = m, ("day", d)
        elif kind == "yearly_feb29":
            p["month"], p["monthday"] = 2, ("day", 29)
            if rng.random() < 0.5:
                p["anchor"] = rng.choice(LEAP_DAYS)
        else:                                               # the anchor's month and day
            r = rng.random()
            if r < 0.4:
                p["anchor"] = rng.choice(LEAP_DAYS)
            elif r < 0.6:
                p["anchor"] = month_end_anchor(rng)
    r = rng.random()
    if r < 0.15:
        p["count"] = rng.randint(1, 60)
    elif r < 0.30:
        p["until"] = p["anchor"] + timedelta(days=rng.randint(0, 1500 if p["freq"] in ("monthly", "yearly") else 400))
    p["form"] = "rrule" if rng.random() < 0.2 else "words"
    p["text"] = rrule_input(p) if p["form"] == "rrule" else words(rng, p)
    return p


def words(rng, p):
    """The rule in kept's words (Grammar/kept.ebnf, repeat_rule), in one of its spellings."""
    n, kind = p["interval"], p["kind"]
    def every(unit):
        if n == 1:
            return f"every {unit}"
        if n == 2 and rng.random() < 0.3:
            return f"every other {unit}"
        return f"every {n} {unit}s"
    if p["freq"] == "daily":
        s = every("day")
    elif kind == "weekdays":
        s = rng.choice(["every weekday", "every weekdays"])
    elif kind == "weekend":
        s = rng.choice(["every weekend", "every weekends"])
    elif kind == "weekday_list":
        s = "every " + weekday_words(rng, p["days"]) if rng.random() < 0.8 else "every week on " + weekday_words(rng, p["days"])
    elif kind == "weeks":
        s = every("week")
        if p["days"]:
            s += " on " + weekday_words(rng, p["days"])
    elif p["freq"] == "monthly":
        s = every("month")
        md = p["monthday"]
        if md is None:
            pass
        elif md[0] == "day":
            s += " on the " + (ordinal(md[1]) if rng.random() < 0.85 else str(md[1]))
        elif md[0] == "last":
            s += " on the last day"
        else:
            _, k, wd = md
            day = (DAY_FULL if rng.random() < 0.5 else DAY_ABBR)[wd]
            s += " on the " + (ORD_WORDS[k] if k == -1 or rng.random() < 0.5 else ordinal(k)) + " " + day
    else:
        s = every("year")
        if p["month"]:
            m, d = p["month"], p["monthday"][1]
            s += f" on {(MONTHS if rng.random() < 0.5 else MONTHS_FULL)[m - 1]} " + (str(d) if rng.random() < 0.7 else ordinal(d))
    mod = ""
    if p["count"]:
        mod = f"for {p['count']} time{'s' if p['count'] != 1 else ''}"
    elif p["until"]:
        mod = f"until {p['until'].isoformat()}"
    frm = f"from {p['anchor'].isoformat()}"
    if mod and rng.random() < 0.5:
        return f"{s} {frm} {mod}"
    return f"{s} {mod} {frm}" if mod else f"{s} {frm}"


def rrule_input(p):
    """The rule as an RRULE in the forms kept reads (docs/REPEATS.md), then `from ANCHOR`."""
    parts = ["FREQ=" + p["freq"].upper()]
    if p["interval"] != 1:
        parts.append(f"INTERVAL={p['interval']}")
    if p["days"]:
        parts.append("BYDAY=" + ",".join(DAY_CODES[d] for d in p["days"]))
    if p["month"]:
        parts.append(f"BYMONTH={p['month']}")
    md = p["monthday"]
    if md and md[0] == "day":
        d = md[1]
        # A day every month (or the rule's month) has is plain; a later one falls on the month's end.
        top = 28 if p["month"] in (None, 2) else MAX_DAY[p["month"] - 1]
        parts += [f"BYMONTHDAY={d}"] if d <= top else ["BYMONTHDAY=" + ",".join(map(str, range(28, d + 1))), "BYSETPOS=-1"]
    elif md and md[0] == "last":
        parts.append("BYMONTHDAY=-1")
    elif md:
        parts.append(f"BYDAY={md[1]}{DAY_CODES[md[2]]}")
    if p["count"]:
        parts.append(f"COUNT={p['count']}")
    if p["until"]:
        parts.append("UNTIL=" + p["until"].strftime("%Y%m%d"))
    return ";".join(parts) + f" from {p['anchor'].isoformat()}"


# ---------------------------------------------------------------------------------------------
# (b): the same rule as a dateutil rrule() call, written from the parameters.

def by_day_or_month_end(d):
    """A day of the month that falls on the month's end when the month is shorter:
    the first of {d, the last day} (BYSETPOS=1), which equals kept's BYMONTHDAY=28..d;BYSETPOS=-1."""
    return {"bymonthday": d} if d <= 28 else {"bymonthday": (d, -1), "bysetpos": 1}


def hand_rule(p):
    a = p["anchor"]
    kw = {"dtstart": datetime(a.year, a.month, a.day), "interval": p["interval"], "wkst": du.MO}
    if p["count"]:
        kw["count"] = p["count"]
    if p["until"]:
        kw["until"] = datetime(p["until"].year, p["until"].month, p["until"].day)
    freq = p["freq"]
    if freq == "daily":
        return du.rrule(du.DAILY, **kw)
    if freq == "weekly":
        days = p["days"] or [a.weekday()]
        if p["interval"] == 1:                              # every week on days = those days of every day
            return du.rrule(du.DAILY, byweekday=[DU_DAYS[d] for d in days], **kw)
        return du.rrule(du.WEEKLY, byweekday=[DU_DAYS[d] for d in days], **kw)
    if p["monthday"] is None and p["form"] == "rrule":
        # An RRULE without BYMONTHDAY means DTSTART's day, and a month or year without it is
        # skipped (RFC 5545); kept reads an RRULE that way (docs/REPEATS.md).
        if freq == "monthly":
            return du.rrule(du.MONTHLY, bymonthday=a.day, **kw)
        return du.rrule(du.YEARLY, bymonth=a.month, bymonthday=a.day, **kw)
    md = p["monthday"] or ("day", a.day)
    if freq == "monthly":
        if md[0] == "day":
            return du.rrule(du.MONTHLY, **by_day_or_month_end(md[1]), **kw)
        if md[0] == "last":
            return du.rrule(du.MONTHLY, bymonthday=-1, **kw)
        return du.rrule(du.MONTHLY, byweekday=DU_DAYS[md[2]], bysetpos=md[1], **kw)
    month, d = p["month"] or a.month, md[1]
    if month == 2 and d == 29:                              # Feb 29, else Feb 28
        return du.rrule(du.YEARLY, bymonth=2, bymonthday=(29, -1), bysetpos=1, **kw)
    return du.rrule(du.YEARLY, bymonth=month, bymonthday=d, **kw)  # any other day exists every year


# ----------------------------------------------------- timed rules from one of their times

def timed_start_rule(rng, i):
    """A timed RRULE with COUNT whose start (`from DATE TIME`, RFC 5545's DTSTART) is one of
    the rule's own times, often not its day's first (R-REP-11, R-REP-12: no occurrence comes
    before the start, and COUNT counts from it). The oracle is dateutil with that DTSTART."""
    for _ in range(50):
        freq = rng.choice(["DAILY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"])
        anchor = general_rules.anchor_date(rng)
        parts = [f"FREQ={freq}"]
        if rng.random() < 0.4:
            parts.append(f"INTERVAL={rng.randint(2, 6)}")
        if freq == "WEEKLY":
            days = sorted(set(rng.sample(range(7), rng.randint(1, 3))) | {anchor.weekday()})
            parts.append("BYDAY=" + ",".join(DAY_CODES[d] for d in days))
        elif freq == "MONTHLY":
            anchor = anchor.replace(day=min(anchor.day, 28))
            parts.append("BYMONTHDAY=" + ",".join(map(str, sorted({anchor.day, rng.randint(1, 28)}))))
        elif freq == "YEARLY":
            anchor = anchor.replace(day=min(anchor.day, 28))
            parts.append(f"BYMONTH={anchor.month};BYMONTHDAY={anchor.day}")
        minutes = sorted(rng.sample(range(0, 60, 5), rng.randint(1, 6)))
        if rng.random() < 0.3:
            # BYMINUTE alone: the hour is the start's (issue 33, item 9's shape).
            h = rng.randint(0, 23)
            hours = None
            parts.append("BYMINUTE=" + ",".join(map(str, minutes)))
        else:
            hours = sorted(rng.sample(range(24), rng.randint(1, 3)))
            h = rng.choice(hours)
            parts.append("BYHOUR=" + ",".join(map(str, hours)) + ";BYMINUTE=" + ",".join(map(str, minutes)))
        per_day = len(minutes) * (len(hours) if hours else 1)
        if freq == "DAILY" and per_day > 2 and rng.random() < 0.5:
            parts.append("BYSETPOS=" + ",".join(map(str, sorted(set(rng.sample([1, 2, 3, -1, -2], 2))))))
        parts.append(f"COUNT={rng.randint(1, 25)}")
        text = ";".join(parts)
        start = datetime(anchor.year, anchor.month, anchor.day, h, rng.choice(minutes))
        try:
            first = next(iter(rrulestr(text, dtstart=start)), None)
        except ValueError:
            continue
        if first != start:
            continue                                        # the start is not one of the rule's times
        return {"id": i, "kind": "timed start " + freq.lower(), "anchor": anchor, "start": start, "timed": True,
                "text": f"{text} from {anchor.isoformat()} {general_rules.time_word(start.hour, start.minute)}",
                "form": "rrule", "count": True, "until": None, "rrule": text}
    return make_rule(rng, i)


def check_timed_start(p, out):
    """kept's dates equal dateutil's from the start, on the rule and on kept's own RRULE."""
    problems = []
    kept = out["dates"]
    hand = render(rrulestr(p["rrule"], dtstart=p["start"]), True)
    if hand != kept:
        problems.append(difference("(b) the RRULE from its start", kept, hand))
    if out.get("rrule"):
        exported = render(rrulestr(out["rrule"], dtstart=p["start"]), True)
        if exported != kept:
            problems.append(difference(f"(a) kept's RRULE {out['rrule']} from the start", kept, exported))
    return problems


# ---------------------------------------------------------------------------------------------

def first_diff(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else None


def dates_of(rule):
    return [x.date().isoformat() for x in islice(rule, LIMIT)]


def render(occurrences, timed):
    """Dates as kept prints them: YYYY-MM-DD, or YYYY-MM-DDTHH:MM for a timed rule."""
    return [x.strftime("%Y-%m-%dT%H:%M") if timed else x.date().isoformat() for x in islice(occurrences, LIMIT)]


def difference(what, kept, other):
    i = first_diff(kept, other)
    return (f"{what}: first difference at #{i}: kept {kept[i] if i < len(kept) else 'end'} vs dateutil "
            f"{other[i] if i < len(other) else 'end'} ({len(kept)} vs {len(other)} dates)")


def check_general(p, out):
    """(a) dateutil on kept's export, (b) the generator's oracle, for general rules and new words."""
    problems = []
    kept = out["dates"]
    timed = p["timed"]
    if not out.get("rrule"):
        problems.append("kept exported no RRULE")
    else:
        try:
            exported = render(general_rules.exported(out["rrule"], p["anchor"], aware="Z" in out["rrule"]), timed)
        except Exception as e:                              # dateutil could not read kept's RRULE
            exported = None
            problems.append(f"(a) dateutil cannot read kept's RRULE {out['rrule']}: {e}")
        if exported is not None and exported != kept:
            problems.append(difference(f"(a) kept's RRULE {out['rrule']}", kept, exported))
    try:
        hand = render(p["oracle"](), timed)
    except ValueError:                                      # dateutil: an empty rule
        hand = []
    if hand != kept:
        problems.append(difference("(b) " + ("the RRULE itself" if p["form"] == "rrule" else "hand-written rrule()"), kept, hand))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=6000, help="how many rules (default 6000: 35%% simple, 40%% general RRULEs, 17%% new words, "
                    "8%% timed rules from one of their times)")
    ap.add_argument("--seed", type=int, default=20260615)
    ap.add_argument("--kept", default=os.environ.get("KEPT", os.path.join(ROOT, ".build/debug/kept")))
    ap.add_argument("-v", "--verbose", action="store_true", help="print every rule's script line")
    a = ap.parse_args()
    t0 = time.perf_counter()

    rng = random.Random(a.seed)
    rules = []
    for i in range(a.n):
        x = rng.random()
        if x < 0.35:
            rules.append(make_rule(rng, i))
        elif x < 0.75:
            rules.append(general_rules.general_rule(rng, i))
        elif x < 0.92:
            rules.append(general_rules.words_rule(rng, i))
        else:
            rules.append(timed_start_rule(rng, i))
    script = "".join(f"repeat {p['text']} next {LIMIT}\n" for p in rules)
    if not os.access(a.kept, os.X_OK):
        print(f"dateutil_diff.py: no kept binary at {a.kept} (swift build first)", file=sys.stderr)
        return 2
    proc = subprocess.run([a.kept, "run", "--format", "json", "--now", NOW, "--zone", ZONE],
                          input=script, capture_output=True, text=True, timeout=300)
    lines = proc.stdout.splitlines()
    if len(lines) != len(rules):
        print(f"dateutil_diff.py: kept printed {len(lines)} lines for {len(rules)} rules (exit {proc.returncode})\n"
              f"{proc.stderr[-2000:]}", file=sys.stderr)
        return 2

    passed = failed = 0
    kinds = {}
    for p, line in zip(rules, lines):
        if a.verbose:
            print(f"repeat {p['text']} next {LIMIT}")
        problems = []
        out = json.loads(line)
        anchor = datetime(p["anchor"].year, p["anchor"].month, p["anchor"].day)
        if "error" in out:
            problems.append(f"kept refused it: {out['error'].get('code')} {out['error'].get('message')}")
        elif "start" in p:
            problems += check_timed_start(p, out)
        elif "oracle" in p:
            problems += check_general(p, out)
        else:
            kept = out["dates"]
            if not out.get("rrule"):
                problems.append("kept exported no RRULE")
            else:
                try:
                    exported = dates_of(rrulestr(out["rrule"], dtstart=anchor))
                except Exception as e:                      # dateutil could not read kept's RRULE
                    exported = None
                    problems.append(f"(a) dateutil cannot read kept's RRULE {out['rrule']}: {e}")
                if exported is not None and exported != kept:
                    i = first_diff(kept, exported)
                    problems.append(f"(a) kept's RRULE {out['rrule']}: first difference at #{i}: kept "
                                    f"{kept[i] if i < len(kept) else 'end'} vs dateutil "
                                    f"{exported[i] if i < len(exported) else 'end'} ({len(kept)} vs {len(exported)} dates)")
            hand = dates_of(hand_rule(p))
            if hand != kept:
                i = first_diff(kept, hand)
                problems.append(f"(b) hand-written rrule(): first difference at #{i}: kept "
                                f"{kept[i] if i < len(kept) else 'end'} vs dateutil "
                                f"{hand[i] if i < len(hand) else 'end'} ({len(kept)} vs {len(hand)} dates)")
        k = kinds.setdefault(p["kind"], [0, 0])
        if problems:
            failed += 1
            k[1] += 1
            print(f"FAIL repeat {p['text']} next {LIMIT}   [anchor {p['anchor'].isoformat()}, {p['kind']}]")
            for pr in problems:
                print("     " + pr)
        else:
            passed += 1
            k[0] += 1
    print("passed by kind: " + ", ".join(f"{n} {v[0]}/{v[0] + v[1]}" for n, v in sorted(kinds.items())))
    print(f"rules: {sum(p['form'] == 'rrule' for p in rules)} given as RRULEs, {sum(bool(p['count']) or 'COUNT=' in p['text'] for p in rules)} "
          f"with a count, {sum(bool(p['until']) or 'UNTIL=' in p['text'] or ' until ' in p['text'] for p in rules)} with an end, "
          f"{sum(p.get('timed', False) for p in rules)} with times of day, "
          f"{sum(p['anchor'].year == 2021 for p in rules)} anchored in 2021, "
          f"{sum((p['anchor'].month, p['anchor'].day) == (2, 29) for p in rules)} on a Feb 29")
    print(f"({len(rules)} rules x {LIMIT} dates, seed {a.seed}, {time.perf_counter() - t0:.1f} s)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
