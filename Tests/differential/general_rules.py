"""The general RFC 5545 rules, and Kept's words for the shapes beyond the simple ones, for
dateutil_diff.py.

`general_rule` makes a random RRULE with every BY part (BYMONTH, BYWEEKNO, BYYEARDAY,
BYMONTHDAY, BYDAY with and without ordinals, BYHOUR, BYMINUTE, BYSETPOS), WKST, COUNT, UNTIL as
a date, a floating date-time or a UTC instant, and every FREQ but SECONDLY. Its oracle is
dateutil on the rule itself. The generator keeps to rules that have dates (so that neither
engine searches to the year 9999) and away from the places where dateutil departs from RFC
5545, which Kept follows (docs/REPEATS.md):

  - a weekly period is the whole week: dateutil starts the first one at DTSTART, which moves
    BYSETPOS there, so a weekly rule with BYSETPOS is anchored on its week's first day;
  - BYDAY entries with and without an ordinal add up: dateutil keeps only days that meet both,
    so a rule has one kind or the other;
  - BYWEEKNO=-52 and -53 for the days of next year's week 1 (a TODO in dateutil), and 52 and 53
    for the days of January in the previous year's last week (dateutil counts 2022-01-02,
    ISO week 52 of 2021, as week 53), left out; RepeatRuleTests has them by hand.

`words_rule` makes one of Kept's new word shapes (lists of month days with the month-end
clamp, nth weekdays from the end, the nth weekday of the month, Friday the 13th, months,
quarters, several times a day, times every N hours from one time to another, hourly and
minutely rules, a timed rule's `until DATE`), with an oracle written here from its parameters.
"""
from datetime import date, datetime, timedelta
from itertools import islice
from zoneinfo import ZoneInfo

from dateutil import rrule as du
from dateutil.rrule import rrulestr

BERLIN = ZoneInfo("Europe/Berlin")
UTC = ZoneInfo("UTC")
CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
FULL = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
DU_DAYS = [du.MO, du.TU, du.WE, du.TH, du.FR, du.SA, du.SU]
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]
MAX_DAY = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
FREQS = {"YEARLY": du.YEARLY, "MONTHLY": du.MONTHLY, "WEEKLY": du.WEEKLY, "DAILY": du.DAILY,
         "HOURLY": du.HOURLY, "MINUTELY": du.MINUTELY}


def ordinal(n):
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def counted(n):
    """`2nd`, `last`, `2nd to last`, as Kept's words count from either end."""
    return "last" if n == -1 else (f"{ordinal(-n)} to last" if n < 0 else ordinal(n))


def listing(items):
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def time_word(h, m):
    hh = 12 if h % 12 == 0 else h % 12
    return f"{hh}{'' if m == 0 else f':{m:02d}'}{'am' if h < 12 else 'pm'}"


def gcd(a, b):
    while b:
        a, b = b, a % b
    return a


def anchor_date(rng):
    r = rng.random()
    if r < 0.3:                                             # about five years before 2026
        return date(2021, 1, 1) + timedelta(days=rng.randint(0, 364))
    if r < 0.45:                                            # around the DST changes of 2026
        return rng.choice([date(2026, 3, 20), date(2026, 10, 18)]) + timedelta(days=rng.randint(0, 12))
    return date(2020, 1, 1) + timedelta(days=rng.randint(0, 4000))


def fmt_until_utc(dt):
    return dt.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


# ---------------------------------------------------------------------------------------------
# General RRULEs

def general_rule(rng, i, anchor_for=None):
    """A random RRULE; `anchor_for(freq)` gives its anchor instead of a random one."""
    freq = rng.choices(list(FREQS), weights=[20, 25, 18, 17, 10, 10])[0]
    n = rng.choice([1, 1, 1, 2, 3]) if freq in ("YEARLY", "MONTHLY", "WEEKLY") else rng.choice([1, 1, 2, 3, 5])
    if freq == "HOURLY":
        n = rng.choice([1, 2, 3, 4, 5, 6, 8, 12, 25])
    if freq == "MINUTELY":
        n = rng.choice([5, 7, 15, 20, 45, 90, 360])
    anchor = anchor_for(freq) if anchor_for else anchor_date(rng)
    parts = [f"FREQ={freq}"]
    if n != 1:
        parts.append(f"INTERVAL={n}")
    months = []
    byday_plain, byday_nth, monthdays, weeknos, yeardays = [], [], [], [], []
    hours, minutes = [], []
    setpos = []
    wkst = rng.choice(CODES) if rng.random() < 0.3 else None
    r = rng.random
    # BYMONTH: every FREQ; reachable by a monthly INTERVAL from the anchor's month.
    if (freq == "YEARLY" and r() < 0.55) or (freq != "YEARLY" and r() < 0.25):
        months = sorted(rng.sample(range(1, 13), rng.randint(1, 3)))
        if freq == "MONTHLY" and n > 1:
            g = gcd(n, 12)
            if not any((m - anchor.month) % g == 0 for m in months):
                months.append(anchor.month)
                months = sorted(set(months))
    use_weekno = freq == "YEARLY" and not months and r() < 0.35
    use_yearday = freq in ("YEARLY", "HOURLY", "MINUTELY") and not months and not use_weekno and r() < 0.25
    if use_weekno:
        weeknos = sorted(set(rng.choice(list(range(1, 52)) + list(range(-51, 0))) for _ in range(rng.randint(1, 3))))
    if use_yearday:
        yeardays = sorted(set(rng.choice(list(range(1, 366)) + list(range(-365, 0))) for _ in range(rng.randint(1, 3))))
    # BYMONTHDAY: not weekly; a day every allowed month has, unless the months vary.
    if freq != "WEEKLY" and not use_weekno and not use_yearday and r() < 0.4:
        top = 28 if (months or n > 1 or freq == "YEARLY") else 31
        k = rng.randint(1, 3)
        monthdays = sorted(set(rng.choice(list(range(1, top + 1)) + list(range(-28, 0))) for _ in range(k)))
    # BYDAY: one kind, plain or with ordinals (monthly and yearly, not with BYWEEKNO or BYMONTHDAY).
    if r() < 0.5:
        if freq in ("MONTHLY", "YEARLY") and not use_weekno and not monthdays and not use_yearday and r() < 0.5:
            in_month = freq == "MONTHLY" or months
            top = (4 if n > 1 else 5) if in_month else 52
            for _ in range(rng.randint(1, 2)):
                k = rng.randint(1, top) * rng.choice([1, -1])
                byday_nth.append((k, rng.randrange(7)))
            byday_nth = sorted(set(byday_nth))
        else:
            byday_plain = sorted(rng.sample(range(7), rng.randint(1, 4)))
            if freq == "DAILY" and n % 7 == 0 and anchor.weekday() not in byday_plain:
                byday_plain = sorted(set(byday_plain) | {anchor.weekday()})
    # The anchor's day in months that may not have it, every time (INTERVAL=3 from the 30th, BYMONTH=2):
    # a day every month has.
    if freq in ("MONTHLY", "YEARLY") and months and not (monthdays or byday_plain or byday_nth or weeknos or yeardays) and anchor.day > 28:
        monthdays = [rng.randint(1, 28)]
    # Times: expand for daily and longer, limit the hours of hourly and both of minutely.
    if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY"):
        if r() < 0.45:
            hours = sorted(rng.sample(range(24), rng.randint(1, 3)))
            if rng.random() < 0.3:
                hours = sorted(set(hours) | {2})             # 02:xx, in Berlin's spring gap
        if r() < 0.45:
            minutes = sorted(rng.sample(range(60), rng.randint(1, 2)))
    elif freq == "HOURLY":
        if r() < 0.4:
            g = gcd(n, 24)
            reach = [h for h in range(24) if h % g == 0]
            hours = sorted(set(rng.choice(reach) for _ in range(rng.randint(1, 4))))
        if r() < 0.5:
            minutes = sorted(rng.sample(range(60), rng.randint(1, 3)))
    else:
        if r() < 0.4:
            hours = sorted(rng.sample(range(24), rng.randint(3, 8)))
        if r() < 0.3:
            g = gcd(n, 60)
            minutes = sorted(set(rng.choice(range(0, 60, g)) for _ in range(rng.randint(1, 4))))
        # Some allowed minute must be reachable from 00:00 every INTERVAL minutes.
        g = gcd(n, 1440)
        hs, ms = hours or list(range(24)), minutes or list(range(60))
        if not any((h * 60 + m) % g == 0 for h in hs for m in ms):
            hours, minutes = [], []
    # BYSETPOS, within the smallest set a period has.
    per_day = max(1, len(hours) * len(minutes)) if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") else 1
    if r() < 0.3:
        # The fewest instances a period can have (BYSETPOS past them would leave the rule without
        # any date, which both engines search to the year 9999 for); 1 where it can vary.
        smallest = None
        plain_only = byday_plain and not monthdays and not yeardays
        if plain_only and freq == "MONTHLY":
            smallest = 4 * len(byday_plain) * per_day
        elif plain_only and freq == "YEARLY" and not weeknos:
            smallest = 4 * len(byday_plain) * per_day * max(1, len(months))
        elif monthdays and freq == "MONTHLY" and not byday_plain:
            smallest = len(monthdays) * per_day
        elif freq in ("MONTHLY", "YEARLY") and (monthdays or yeardays or weeknos or byday_nth):
            smallest = 1 if not (monthdays and byday_plain) else None
        elif freq == "WEEKLY" and not months and (byday_plain or per_day > 1):
            # (BYSETPOS goes with another BY part, RFC 5545.)
            smallest = max(1, len(byday_plain)) * per_day
        elif freq == "DAILY" and per_day > 1:
            smallest = per_day
        elif freq == "HOURLY" and len(minutes) > 1:
            smallest = len(minutes)
        if smallest:
            setpos = sorted(set(rng.choice([1, 2, -1, -2, 3][:max(1, min(5, smallest))]) for _ in range(rng.randint(1, 2))))
            setpos = [p for p in setpos if abs(p) <= smallest] or [1]
    if freq == "WEEKLY" and setpos:
        # Kept and RFC 5545 take the whole first week; dateutil starts it at DTSTART.
        ws = CODES.index(wkst or "MO")
        anchor = anchor - timedelta(days=(anchor.weekday() - ws) % 7)
    if months:
        parts.append("BYMONTH=" + ",".join(map(str, months)))
    if weeknos:
        parts.append("BYWEEKNO=" + ",".join(map(str, weeknos)))
    if yeardays:
        parts.append("BYYEARDAY=" + ",".join(map(str, yeardays)))
    if monthdays:
        parts.append("BYMONTHDAY=" + ",".join(map(str, monthdays)))
    if byday_plain:
        parts.append("BYDAY=" + ",".join(CODES[d] for d in byday_plain))
    if byday_nth:
        parts.append("BYDAY=" + ",".join(f"{k}{CODES[d]}" for k, d in byday_nth))
    if hours:
        parts.append("BYHOUR=" + ",".join(map(str, hours)))
    if minutes:
        parts.append("BYMINUTE=" + ",".join(map(str, minutes)))
    if setpos:
        parts.append("BYSETPOS=" + ",".join(map(str, setpos)))
    if wkst:
        parts.append("WKST=" + wkst)
    timed = bool(hours or minutes) or freq in ("HOURLY", "MINUTELY")
    aware = False
    x = rng.random()
    if x < 0.2:
        parts.append(f"COUNT={rng.randint(1, 60)}")
    elif x < 0.45:
        span = {"HOURLY": 20, "MINUTELY": 4}.get(freq, 900)
        end = datetime(anchor.year, anchor.month, anchor.day) + timedelta(days=rng.randint(0, span), minutes=rng.randint(0, 1439))
        style = rng.random()
        if style < 0.5 or (not timed and style < 0.8):
            aware = True
            parts.append("UNTIL=" + fmt_until_utc(end.replace(tzinfo=BERLIN)))
        elif timed:
            parts.append("UNTIL=" + end.strftime("%Y%m%dT%H%M%S"))
        else:
            parts.append("UNTIL=" + end.strftime("%Y%m%d"))
    text = ";".join(parts)
    dtstart = datetime(anchor.year, anchor.month, anchor.day, tzinfo=BERLIN if aware else None)
    return {"id": i, "kind": "rfc " + freq.lower(), "anchor": anchor, "text": f"{text} from {anchor.isoformat()}",
            "form": "rrule", "timed": timed, "oracle": lambda: rrulestr(text, dtstart=dtstart), "count": None, "until": None}


# ---------------------------------------------------------------------------------------------
# Kept's words for the new shapes

def merged(rules, count):
    """The union of several dateutil rules (duplicates once), COUNT applied to the union."""
    s = du.rruleset()
    for x in rules:
        s.rrule(x)
    return islice(s, count) if count else iter(s)


def words_rule(rng, i):
    kind = rng.choice(["md_list", "nth_end", "position", "fri13", "months", "quarter", "times", "range",
                       "subdaily", "until_time"])
    anchor = anchor_date(rng)
    a0 = datetime(anchor.year, anchor.month, anchor.day)
    count = rng.randint(1, 40) if rng.random() < 0.15 else None
    kw = {"dtstart": a0}
    if count and kind not in ("md_list",):
        kw["count"] = count
    timed = False
    n = 1
    if kind == "md_list":
        days = sorted(set(rng.randint(1, 31) for _ in range(rng.randint(2, 3))))
        neg = sorted(set(rng.randint(1, 5) for _ in range(rng.randint(0, 1))))
        n = rng.choice([1, 1, 2, 3])
        kw["interval"] = n
        items = [ordinal(d) for d in days] + [counted(-k) + " day" for k in neg]
        rng.shuffle(items)
        body = ("every month" if n == 1 else f"every {n} months") + " on the " + listing(items)
        plain = [d for d in days if d <= 28] + [-k for k in neg]
        rules = [du.rrule(du.MONTHLY, bymonthday=plain, **kw)] if plain else []
        rules += [du.rrule(du.MONTHLY, bymonthday=list(range(28, d + 1)), bysetpos=-1, **kw) for d in days if d > 28]
        oracle = lambda: merged(rules, count)
    elif kind == "nth_end":
        picks = sorted(set((rng.choice([-4, -3, -2, -1, 1, 2, 3, 4]), rng.randrange(7)) for _ in range(rng.randint(1, 2))))
        body = "every month on the " + listing([f"{counted(k)} {FULL[d]}" for k, d in picks])
        oracle = lambda: du.rrule(du.MONTHLY, byweekday=[DU_DAYS[d](k) for k, d in picks], **kw)
    elif kind == "position":
        k = rng.choice([1, 2, 3, -1, -2])
        which = rng.choice(["weekday", "weekend day", "list"])
        days = [0, 1, 2, 3, 4] if which == "weekday" else ([5, 6] if which == "weekend day" else sorted(rng.sample(range(7), 3)))
        what = which if which != "list" else "of " + listing([FULL[d] for d in days])
        body = "every last weekday" if (k == -1 and which == "weekday" and rng.random() < 0.5) else f"every month on the {counted(k)} {what}"
        oracle = lambda: du.rrule(du.MONTHLY, byweekday=[DU_DAYS[d] for d in days], bysetpos=k, **kw)
    elif kind == "fri13":
        wd, d = rng.randrange(7), rng.randint(1, 28)
        body = f"every {FULL[wd]} the {ordinal(d)}"
        oracle = lambda: du.rrule(du.MONTHLY, byweekday=DU_DAYS[wd], bymonthday=d, **kw)
    elif kind == "months":
        ms = sorted(rng.sample(range(1, 13), rng.randint(1, 2)))
        inm = " in " + listing([MONTHS[m - 1] for m in ms])
        shape = rng.randrange(3)
        if shape == 0:
            body = "every day" + inm
            oracle = lambda: du.rrule(du.DAILY, bymonth=ms, **kw)
        elif shape == 1:
            days = sorted(rng.sample(range(7), rng.randint(1, 3)))
            body = "every " + listing([FULL[d] for d in days]) + inm
            oracle = lambda: du.rrule(du.DAILY, byweekday=[DU_DAYS[d] for d in days], bymonth=ms, **kw)
        else:
            d = rng.randint(1, 28)
            body = f"every month on the {ordinal(d)}" + inm
            oracle = lambda: du.rrule(du.YEARLY, bymonth=ms, bymonthday=d, **kw)
    elif kind == "quarter":
        shape = rng.randrange(5)
        starts, ends = (1, 4, 7, 10), (3, 6, 9, 12)
        if shape == 0:
            d = rng.randint(1, 28)
            body, oracle = f"every quarter on the {ordinal(d)}", lambda: du.rrule(du.MONTHLY, bymonth=starts, bymonthday=d, **kw)
        elif shape == 1:
            k = rng.randint(1, 3)
            body = f"every quarter on the {counted(-k)} day"
            oracle = lambda: du.rrule(du.MONTHLY, bymonth=ends, bymonthday=-k, **kw)
        elif shape == 2:
            k, wd = rng.randint(1, 4), rng.randrange(7)
            body = f"every quarter on the {ordinal(k)} {FULL[wd]}"
            oracle = lambda: du.rrule(du.MONTHLY, bymonth=starts, byweekday=DU_DAYS[wd](k), **kw)
        elif shape == 3:
            wd = rng.randrange(7)
            body = f"every quarter on the last {FULL[wd]}"
            oracle = lambda: du.rrule(du.MONTHLY, bymonth=ends, byweekday=DU_DAYS[wd](-1), **kw)
        else:
            body = "every quarter on the last weekday"
            oracle = lambda: du.rrule(du.MONTHLY, bymonth=ends, byweekday=DU_DAYS[:5], bysetpos=-1, **kw)
    elif kind == "times":
        timed = True
        hs = sorted(rng.sample(range(24), rng.randint(2, 3)))
        ms = sorted(rng.sample([0, 15, 30, 45], rng.choice([1, 1, 2])))
        ts = [time_word(h, m) for h in hs for m in ms]
        shape = rng.randrange(3)
        at = " at " + (listing(ts) if rng.random() < 0.7 else " ".join(ts))
        if shape == 0:
            body = "every day" + at
            oracle = lambda: du.rrule(du.DAILY, byhour=hs, byminute=ms, **kw)
        elif shape == 1:
            days = [0, 1, 2, 3, 4] if rng.random() < 0.5 else sorted(rng.sample(range(7), 2))
            body = ("every weekday" if len(days) == 5 else "every " + listing([FULL[d] for d in days])) + at
            oracle = lambda: du.rrule(du.WEEKLY, byweekday=[DU_DAYS[d] for d in days], byhour=hs, byminute=ms, **kw)
        else:
            d = rng.randint(1, 28)
            body = f"every month on the {ordinal(d)}" + at
            oracle = lambda: du.rrule(du.MONTHLY, bymonthday=d, byhour=hs, byminute=ms, **kw)
    elif kind == "range":
        timed = True
        if rng.random() < 0.6:
            step = rng.choice([1, 2, 3, 4])
            h0 = rng.randint(0, 12)
            h1 = rng.randint(h0 + step, 23)
            m = rng.choice([0, 0, 30])
            hs = list(range(h0, h1 + 1, step))
            ms = [m]
            unit = "hour" if step == 1 else f"{step} hours"
            rng_words = f"every {unit} from {time_word(h0, m)} to {time_word(hs[-1], m)}"
        else:
            step = rng.choice([15, 20, 30])
            h0 = rng.randint(6, 18)
            h1 = h0 + rng.randint(0, 3)
            hs = list(range(h0, h1 + 1))
            ms = list(range(0, 60, step))
            rng_words = f"every {step} minutes from {time_word(h0, 0)} to {time_word(h1, ms[-1])}"
        if rng.random() < 0.5:
            body = rng_words
            oracle = lambda: du.rrule(du.DAILY, byhour=hs, byminute=ms, **kw)
        else:
            body = "every weekday " + rng_words
            oracle = lambda: du.rrule(du.WEEKLY, byweekday=DU_DAYS[:5], byhour=hs, byminute=ms, **kw)
    elif kind == "subdaily":
        timed = True
        if rng.random() < 0.5:
            n = rng.choice([1, 2, 3, 5, 8])
            body = "every hour" if n == 1 else f"every {n} hours"
            oracle = lambda: du.rrule(du.HOURLY, interval=n, **kw)
        else:
            n = rng.choice([1, 10, 15, 45, 90])
            body = "every minute" if n == 1 else f"every {n} minutes"
            oracle = lambda: du.rrule(du.MINUTELY, interval=n, **kw)
    else:  # until_time: a timed rule's `until DATE` is the end of that day
        timed = True
        h, m = rng.randint(0, 23), rng.choice([0, 30])
        end = anchor + timedelta(days=rng.randint(0, 60))
        count = None
        kw.pop("count", None)
        body = f"every day at {time_word(h, m)} until {end.isoformat()}"
        oracle = lambda: du.rrule(du.DAILY, byhour=h, byminute=m, until=datetime(end.year, end.month, end.day, 23, 59, 59), **kw)
    if count and kind == "md_list":
        body += f" for {count} times"
    elif count and kind != "until_time":
        body += f" for {count} times"
    return {"id": i, "kind": "words " + kind, "anchor": anchor, "text": f"{body} from {anchor.isoformat()}",
            "form": "words", "timed": timed, "oracle": oracle, "count": count, "until": None}


# ---------------------------------------------------------------------------------------------
# (a) for an exported rule a strict engine without RFC 7529 reads: SKIP=BACKWARD as the union
# of each day (a day a month may lack as BYMONTHDAY=28,…,d;BYSETPOS=-1) at each time.

def exported(rrule_text, anchor, aware):
    dtstart = datetime(anchor.year, anchor.month, anchor.day, tzinfo=BERLIN if aware else None)
    if "SKIP=BACKWARD" not in rrule_text:
        return rrulestr(rrule_text, dtstart=dtstart)
    parts = dict(p.split("=", 1) for p in rrule_text.split(";") if not p.startswith(("RSCALE", "SKIP")))
    if parts["FREQ"] == "YEARLY" and "INTERVAL" not in parts:
        parts["FREQ"] = "MONTHLY"                           # the same months, each its own period
    count = int(parts.pop("COUNT")) if "COUNT" in parts else None
    days = [int(x) for x in parts.pop("BYMONTHDAY").split(",")]
    hours = [int(x) for x in parts.pop("BYHOUR").split(",")] if "BYHOUR" in parts else [None]
    minutes = [int(x) for x in parts.pop("BYMINUTE").split(",")] if "BYMINUTE" in parts else [None]
    months = [int(x) for x in parts["BYMONTH"].split(",")] if "BYMONTH" in parts else list(range(1, 13))
    shortest = min(28 if m == 2 else MAX_DAY[m - 1] for m in months)
    base = ";".join(f"{k}={v}" for k, v in parts.items())
    rules = []
    for h in hours:
        for m in minutes:
            t = (f";BYHOUR={h}" if h is not None else "") + (f";BYMINUTE={m}" if m is not None else "")
            plain = [d for d in days if d <= shortest]
            if plain:
                rules.append(rrulestr(base + ";BYMONTHDAY=" + ",".join(map(str, plain)) + t, dtstart=dtstart))
            for d in days:
                if d > shortest:
                    rules.append(rrulestr(base + ";BYMONTHDAY=" + ",".join(map(str, range(28, d + 1))) + ";BYSETPOS=-1" + t,
                                          dtstart=dtstart))
    return merged(rules, count)
