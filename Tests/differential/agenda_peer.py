#!/usr/bin/env python3
"""Connected calendars against recurring-ical-events (docs/AGENDA.md, "Connected calendars").

Seeded random calendars of this project's own making, whose VEVENTs use every part Kept reads:
RRULE with BY* parts (BYDAY with and without an ordinal, BYMONTHDAY, BYMONTH, BYSETPOS),
COUNT and UNTIL, EXDATE, RDATE (dates, date-times and PERIODs), RECURRENCE-ID moves, retitles
and cancellations, STATUS:CANCELLED events, all-day and overnight events, DTEND and DURATION
and neither, TZIDs of several zones (with VTIMEZONEs by rule, by X-LIC-LOCATION, by IANA name
alone and by Windows name), UTC and floating times, and DST nights (starts at 02:30 on the
nights the clocks skip and repeat, and overnight events across them). Each calendar is
connected to a store and `agenda 60 days from DATE` (JSON) lists its events; they must equal
what `recurring_ical_events.of(cal).between(first, last + 1 day)` gives in Europe/Berlin,
with its cancelled occurrences left out (Kept never shows those), apart from the differences
docs/AGENDA.md documents ("Against recurring-ical-events"): the check computes RFC 5545's end
for a DURATION with a time part (1) and takes an end before the start as the start (3); its
calendars put no time in the DST gap of a zone only a VTIMEZONE defines (2) and no RDATE where
recurring-ical-events would take it for another occurrence (4), and use whole minutes (5).

`-n N` calendars (default 300), `--seed S`, `-v` prints every calendar, `--keep DIR` keeps the
files. Ends with `N passed, M failed`. Needs icalendar and recurring-ical-events (PyPI);
`make test` installs them.
"""
import datetime as dt
import json
import os
import random
import subprocess
import sys
import tempfile
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEPT = os.environ.get("KEPT", os.path.join(ROOT, ".build", "debug", "kept"))
ZONE = "Europe/Berlin"
BERLIN = ZoneInfo(ZONE)
UTC = dt.timezone.utc


def arg(name, default):
    a = sys.argv[1:]
    return type(default)(a[a.index(name) + 1]) if name in a else default


N = arg("-n", 300)
SEED = arg("--seed", 36)
KEEP = arg("--keep", "")
VERBOSE = "-v" in sys.argv[1:]

# Windows of 60 days, each over DST nights of several zones: March (US, EU, then Sydney's end),
# late September (Sydney's start, then EU's and US's end), and summer (none).
WINDOWS = [dt.date(2026, 3, 1), dt.date(2026, 9, 20), dt.date(2026, 6, 1), dt.date(2027, 2, 20)]
DAYS = 60

# Zones by how a file names them: (TZID, IANA zone, how the file defines it).
ZONES = [
    ("Europe/Berlin", "Europe/Berlin", "iana"),
    ("America/New_York", "America/New_York", "vtimezone-rules"),
    ("Australia/Sydney", "Australia/Sydney", "iana"),
    ("Asia/Kolkata", "Asia/Kolkata", "iana"),
    ("Berlin Local", "Europe/Berlin", "x-lic"),
    ("W. Europe Standard Time", "Europe/Berlin", "windows"),
    ("Eastern Standard Time", "America/New_York", "windows"),
    ("Z", "UTC", "utc"),
    ("", ZONE, "floating"),
]

VTIMEZONE_RULES = {
    "America/New_York": """BEGIN:VTIMEZONE
TZID:America/New_York
BEGIN:DAYLIGHT
DTSTART:20070311T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
TZOFFSETFROM:-0500
TZOFFSETTO:-0400
TZNAME:EDT
END:DAYLIGHT
BEGIN:STANDARD
DTSTART:20071104T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
TZOFFSETFROM:-0400
TZOFFSETTO:-0500
TZNAME:EST
END:STANDARD
END:VTIMEZONE""",
}

DAYCODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def stamp(x, tzid):
    """A DATE or DATE-TIME value with its parameters: (params, value)."""
    if isinstance(x, dt.datetime):
        v = x.strftime("%Y%m%dT%H%M%S")
        if tzid == "Z":
            return "", v + "Z"
        if tzid == "":
            return "", v
        return ";TZID=" + tzid, v
    return ";VALUE=DATE", x.strftime("%Y%m%d")


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.n = 0

    def rule(self, start, allday):
        r = self.r
        kind = r.choice(["DAILY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "YEARLY"])
        parts = ["FREQ=" + kind]
        if r.random() < 0.4:
            parts.append("INTERVAL=%d" % r.choice([2, 3]))
        wd = DAYCODES[start.weekday()]
        if kind == "DAILY" and r.random() < 0.3:
            parts.append("BYDAY=" + ",".join(sorted(set([wd] + r.sample(DAYCODES, 3)), key=DAYCODES.index)))
        elif kind == "WEEKLY" and r.random() < 0.6:
            parts.append("BYDAY=" + ",".join(sorted(set([wd] + r.sample(DAYCODES, r.randint(1, 3))), key=DAYCODES.index)))
        elif kind == "MONTHLY":
            c = r.random()
            if c < 0.35:
                parts.append("BYMONTHDAY=%d" % start.day)
            elif c < 0.7:
                nth = (start.day - 1) // 7 + 1
                parts.append("BYDAY=%d%s" % (nth if nth < 5 else -1, wd))
            elif c < 0.85:
                parts.append("BYDAY=MO,TU,WE,TH,FR;BYSETPOS=%d" % r.choice([1, -1, 2]))
            else:
                parts.append("BYMONTHDAY=%d,%d" % (start.day, r.choice([1, 15, -1])))
        elif kind == "YEARLY":
            c = r.random()
            if c < 0.5:
                months = sorted({start.month, r.randint(1, 12)}) if r.random() < 0.5 else [start.month]
                parts.append("BYMONTH=" + ",".join(str(m) for m in months))
            else:
                parts.append("BYMONTH=%d;BYDAY=%s" % (start.month, r.choice(["1", "2", "-1"]) + wd))
        end = r.random()
        if end < 0.2:
            parts.append("COUNT=%d" % r.randint(3, 40))
        elif end < 0.4:
            u = start + dt.timedelta(days=r.randint(20, 500))
            if allday:
                parts.append("UNTIL=" + u.strftime("%Y%m%d"))
            else:
                parts.append("UNTIL=" + (u.astimezone(UTC) if u.tzinfo else u).strftime("%Y%m%dT%H%M%S") + ("Z" if u.tzinfo else ""))
        return ";".join(parts)

    def event(self, window, zone):
        """One VEVENT (with its overrides) as lines."""
        r = self.r
        self.n += 1
        uid = "ev%d-%d@agenda-peer" % (self.n, r.randint(0, 10**6))
        tzid, iana, how = zone
        tz = ZoneInfo(iana)
        allday = r.random() < 0.25
        recurring = r.random() < 0.6
        offset = r.randint(-400, 58) if recurring else r.randint(-3, 62)
        day = window + dt.timedelta(days=offset)
        c = r.random()
        if c < 0.12 and how not in ("vtimezone-rules", "x-lic"):
            # On a DST night: the hour the clocks skip or repeat (docs/AGENDA.md, difference 2:
            # not in a zone a VTIMEZONE's own rules define).
            hh, mm = 2, r.choice([0, 30])
        elif c < 0.3:
            hh, mm = r.randint(20, 23), r.choice([0, 30, 45])  # overnight, often
        else:
            hh, mm = r.randint(6, 19), r.choice([0, 15, 30, 45])
        title = r.choice(["Standup", "Review", "Lunch", "Gym", "1:1", "Call; with, punctuation", "Planning", "Flight"])
        lines = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20260101T000000Z", "SUMMARY:" + title.replace(",", "\\,").replace(";", "\\;")]
        if allday:
            start = day
            p, v = stamp(start, tzid)
            lines.append("DTSTART" + p + ":" + v)
            n = r.choice([1, 1, 2, 3])
            e = r.random()
            if e < 0.6:
                p, v = stamp(start + dt.timedelta(days=n), tzid)
                lines.append("DTEND" + p + ":" + v)
            elif e < 0.8:
                lines.append("DURATION:P%dD" % n)
        else:
            start = dt.datetime(day.year, day.month, day.day, hh, mm)
            p, v = stamp(start, tzid)
            lines.append("DTSTART" + p + ":" + v)
            minutes = r.choice([15, 30, 45, 60, 90, 120, 300, 600]) if hh >= 20 else r.choice([0, 15, 30, 60, 90, 150])
            if how in ("vtimezone-rules", "x-lic") and (hh * 60 + mm + minutes) // 60 % 24 == 2:
                minutes += 60  # difference 2: no end in the hour the clocks skip
            e = r.random()
            if e < 0.55:
                p, v = stamp(start + dt.timedelta(minutes=minutes), tzid)
                lines.append("DTEND" + p + ":" + v)
            elif e < 0.9 and minutes > 0:
                lines.append("DURATION:PT%dM" % minutes if minutes % 60 else "DURATION:PT%dH" % (minutes // 60))
            elif e < 0.95:
                lines.append("DURATION:P1D")
        if r.random() < 0.04:
            lines.append("STATUS:CANCELLED")
        overrides = []
        if recurring:
            aware = start if allday else (start if tzid == "" else start.replace(tzinfo=tz))
            rule = self.rule(aware, allday)
            lines.append("RRULE:" + rule)
            # Occurrences to take out, add or override: from the rule, read with dateutil.
            from dateutil import rrule as du
            base = start if allday or tzid == "" else start
            dstart = dt.datetime(base.year, base.month, base.day, 0 if allday else base.hour, 0 if allday else base.minute)
            rr = rule
            if "UNTIL=" in rr and "Z" in rr:
                # UNTIL in UTC on a wall-clock expansion: close enough to pick dates to change.
                rr = rr.replace("Z", "")
            try:
                occ = list(du.rrulestr(rr, dtstart=dstart).between(
                    dt.datetime.combine(window, dt.time()) - dt.timedelta(days=3),
                    dt.datetime.combine(window, dt.time()) + dt.timedelta(days=DAYS + 3), inc=True))[:400]
            except Exception:
                occ = []
            occ = [o for o in occ if o != dstart]
            occdays = {o.date() for o in occ} | {dstart.date()}
            def naive_utc(o):
                if tzid == "" or allday:
                    return None
                return (o if tzid == "Z" else o.replace(tzinfo=tz)).astimezone(UTC).replace(tzinfo=None) if tzid != "Z" else o
            walls = set(occ) | {dstart}
            utcs = {naive_utc(o) for o in walls}
            def clashes(a):
                # Difference 4 (docs/AGENDA.md): recurring-ical-events knows an occurrence by
                # its wall time and its UTC time alike; none here is another's other time.
                return naive_utc(a) in walls or a in utcs
            r.shuffle(occ)
            def value(o):
                return stamp(o.date() if allday else o, tzid)
            ex = []
            if occ and r.random() < 0.5:
                k = r.randint(1, min(3, len(occ)))
                ex = occ[:k]
                occ = occ[k:]
                if allday or tzid not in ("Z",):
                    p, _ = value(ex[0])
                    lines.append("EXDATE" + p + ":" + ",".join(value(o)[1] for o in ex))
            exdays = {o.date() for o in ex}
            if r.random() < 0.4:
                add = window + dt.timedelta(days=r.randint(0, DAYS - 1))
                # Difference 4 (docs/AGENDA.md): not on a day an EXDATE takes an occurrence of.
                while add in exdays:
                    add += dt.timedelta(days=1)
                if allday:
                    p, v = stamp(add, tzid)
                    lines.append("RDATE" + p + ":" + v)
                elif r.random() < 0.5 or how in ("vtimezone-rules", "x-lic", "windows"):
                    # Difference 2: no PERIOD in a zone named otherwise than by IANA.
                    a = dt.datetime(add.year, add.month, add.day, r.randint(6, 22), r.choice([0, 30]))
                    while clashes(a):
                        a += dt.timedelta(minutes=15)
                    p, v = stamp(a, tzid)
                    lines.append("RDATE" + p + ":" + v)
                else:
                    # Difference 4: a PERIOD on a day the rule has no occurrence on.
                    while add in occdays or add in exdays:
                        add += dt.timedelta(days=1)
                    a = dt.datetime(add.year, add.month, add.day, r.randint(6, 21), r.choice([0, 30]))
                    while clashes(a):
                        a += dt.timedelta(minutes=15)
                    p, v = stamp(a, tzid)
                    _, v2 = stamp(a + dt.timedelta(minutes=r.choice([30, 90])), tzid)
                    if tzid in ("Z",):
                        lines.append("RDATE;VALUE=PERIOD:%s/%s" % (v, v2))
                    else:
                        lines.append("RDATE;VALUE=PERIOD%s:%s/%s" % (p, v, r.choice([v2, "PT45M"])))
            for o in occ[: r.choice([0, 0, 1, 2])]:
                p, v = value(o)
                ov = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20260101T000000Z", "RECURRENCE-ID" + p + ":" + v]
                if r.random() < 0.35:
                    ov.append("STATUS:CANCELLED")
                    ov.append("SUMMARY:" + title.replace(",", "\\,").replace(";", "\\;"))
                    p2, v2 = stamp(o.date() if allday else o, tzid)
                    ov.append("DTSTART" + p2 + ":" + v2)
                else:
                    ov.append("SUMMARY:" + r.choice(["Moved", "Retitled", title.replace(",", "\\,").replace(";", "\\;")]))
                    if allday:
                        nd = o.date() + dt.timedelta(days=r.randint(-2, 5))
                        p2, v2 = stamp(nd, tzid)
                        ov.append("DTSTART" + p2 + ":" + v2)
                        p3, v3 = stamp(nd + dt.timedelta(days=1), tzid)
                        ov.append("DTEND" + p3 + ":" + v3)
                    else:
                        nd = o + dt.timedelta(hours=r.randint(-30, 30))
                        if how in ("vtimezone-rules", "x-lic") and nd.hour == 2:
                            nd += dt.timedelta(hours=2)  # difference 2
                        p2, v2 = stamp(nd, tzid)
                        ov.append("DTSTART" + p2 + ":" + v2)
                        p3, v3 = stamp(nd + dt.timedelta(minutes=r.choice([30, 60])), tzid)
                        ov.append("DTEND" + p3 + ":" + v3)
                ov.append("END:VEVENT")
                overrides.append(ov)
        lines.append("END:VEVENT")
        return lines, overrides

    def calendar(self, window):
        r = self.r
        zones = r.sample(ZONES, r.randint(1, 3))
        out = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//kept//agenda peer//EN"]
        for tzid, iana, how in zones:
            if how == "vtimezone-rules":
                out += VTIMEZONE_RULES[iana].split("\n")
            elif how == "x-lic":
                out += ["BEGIN:VTIMEZONE", "TZID:" + tzid, "X-LIC-LOCATION:" + iana,
                        "BEGIN:STANDARD", "DTSTART:19701025T030000", "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
                        "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "END:STANDARD",
                        "BEGIN:DAYLIGHT", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
                        "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200", "END:DAYLIGHT", "END:VTIMEZONE"]
        events = []
        for _ in range(r.randint(2, 7)):
            ev, ovs = self.event(window, r.choice(zones))
            events.append(ev)
            events += ovs
        r.shuffle(events)
        for e in events:
            out += e
        out.append("END:VCALENDAR")
        return "\r\n".join(out) + "\r\n"


def utc(t):
    """An instant as UTC text: a wall time the clocks skip prints with either offset."""
    return t.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def exact_ends(cal):
    """The events whose length is a DURATION with a time part, by UID, with that duration:
    docs/AGENDA.md, difference 1 (RFC 5545 adds the hours as elapsed time, across a DST change;
    recurring-ical-events adds them on the wall clock)."""
    out = {}
    for ev in cal.walk("VEVENT"):
        if "RECURRENCE-ID" in ev or "DTEND" in ev or "DURATION" not in ev:
            continue
        d = ev["DURATION"].dt
        if d.seconds and isinstance(ev["DTSTART"].dt, dt.datetime):
            out[str(ev["UID"])] = d
    return out


def peer_events(text, first, last):
    """What recurring-ical-events gives for the days first..last in Berlin, as comparable rows."""
    cal = icalendar.Calendar.from_ical(text)
    exact = exact_ends(cal)
    a = dt.datetime.combine(first, dt.time(), BERLIN)
    b = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(), BERLIN)
    rows = set()
    for ev in recurring_ical_events.of(cal).between(a, b):
        if str(ev.get("STATUS", "")).upper() == "CANCELLED":
            continue
        s = ev["DTSTART"].dt
        e = ev["DTEND"].dt if "DTEND" in ev else None
        uid = str(ev.get("UID"))
        title = str(ev.get("SUMMARY", ""))
        if not isinstance(s, dt.datetime):
            last_day = (e - dt.timedelta(days=1)) if e and e > s else s
            rows.add((uid, title, "day", s.isoformat(), last_day.isoformat()))
            continue
        if s.tzinfo is None:
            s = s.replace(tzinfo=BERLIN)
        if e is None:
            e = s
        if e.tzinfo is None:
            e = e.replace(tzinfo=BERLIN)
        if uid in exact and "RECURRENCE-ID" not in ev or (uid in exact and e - s == exact[uid]):
            # Difference 1: the days of the DURATION on the wall clock, its time part elapsed.
            d = exact[uid]
            wall = s + dt.timedelta(days=d.days)
            e = dt.datetime.fromtimestamp(wall.timestamp(), UTC) + dt.timedelta(seconds=d.seconds)
        # Difference 3: an end before the start (a start in the hour the clocks skip, an end
        # in the hour after it) is the start.
        rows.add((uid, title, "time", utc(s), utc(max(s, e, key=lambda x: x.timestamp()))))
    return rows


def kept_rows(events):
    rows = set()
    for ev in events:
        if ev.get("allDay"):
            rows.add((ev["uid"], ev["title"], "day", ev["first"], ev["last"]))
        else:
            rows.add((ev["uid"], ev["title"], "time", utc(dt.datetime.fromisoformat(ev["start"])), utc(dt.datetime.fromisoformat(ev["end"]))))
    return rows


def agenda_events(value):
    """Every object with "type": "event" inside an agenda's JSON, wherever the days put it."""
    found = []
    def walk(v):
        if isinstance(v, dict):
            if v.get("type") == "event":
                found.append(v)
                return
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(value)
    return found


def main():
    rnd = random.Random(SEED)
    gen = Gen(rnd)
    folder = KEEP or tempfile.mkdtemp(prefix="agenda-peer-")
    os.makedirs(folder, exist_ok=True)
    jobs = []
    for k in range(N):
        window = rnd.choice(WINDOWS)
        text = gen.calendar(window)
        path = os.path.join(folder, "cal%03d.ics" % k)
        with open(path, "w", newline="") as f:
            f.write(text)
        jobs.append((path, window, text))
    # One process for every calendar: connect it, list 60 days, hide it again.
    script = os.path.join(folder, "run.kept")
    with open(script, "w") as f:
        for k, (path, window, _) in enumerate(jobs):
            f.write("calendar connect C%03d %s\n" % (k, path))
            f.write("agenda %d days from %s\n" % (DAYS, window.isoformat()))
            f.write("calendar hide C%03d\n" % k)
    p = subprocess.run([KEPT, "run", "--zone", ZONE, "--now", "2026-06-15T09:00", "--format", "json", script],
                       capture_output=True, text=True)
    outputs = [json.loads(line) for line in p.stdout.splitlines() if line.strip()]
    if len(outputs) != 3 * len(jobs):
        print("kept gave %d outputs for %d statements; stderr:\n%s" % (len(outputs), 3 * len(jobs), p.stderr[:3000]))
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for k, (path, window, text) in enumerate(jobs):
        last = window + dt.timedelta(days=DAYS - 1)
        want = peer_events(text, window, last)
        got = kept_rows(agenda_events(outputs[3 * k + 1]))
        if want == got:
            passed += 1
            if VERBOSE:
                print("ok %s: %d events" % (path, len(got)))
        else:
            failed += 1
            print("FAIL %s (%s … %s)" % (path, window, last))
            for row in sorted(want - got):
                print("  only recurring-ical-events:", row)
            for row in sorted(got - want):
                print("  only kept:                 ", row)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
