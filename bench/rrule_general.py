#!/usr/bin/env python3
"""General RFC 5545 rules for the next-occurrence benchmark: dateutil's side, and the rules for
kept-bench's.

Makes N rules with the differential test's generator (Tests/differential/general_rules.py:
every BY part, BYSETPOS, WKST, COUNT, UNTIL, times of day, HOURLY and MINUTELY), anchored up to
60 days before now (3 days for hourly and minutely rules) and again about five years earlier
(60 months back for yearly and monthly rules, 261 weeks for the others, so that the rule keeps
its weekday and month), times dateutil's after(now) on the pre-built rules by family (at most
300 rules of a family; from the old anchors only for daily and longer rules, where dateutil
walks five years of hours or minutes otherwise), and writes bench/data/rrule-general.jsonl:
per rule its RRULE, family, both anchors and dateutil's answers, for `kept-bench general`.

usage: python3 bench/rrule_general.py [-n RULES] [--repeats N] [--out FILE]
"""
import argparse
import json
import os
import random
import statistics
import sys
import time
from datetime import datetime, timedelta

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Tests", "differential"))
import general_rules  # noqa: E402
from dateutil.rrule import rrulestr  # noqa: E402

NOW = datetime(2026, 6, 15, 9, 0)


def family(text):
    freq = text.split(";")[0].split("=")[1].lower()
    if "COUNT=" in text:
        return "with COUNT"
    if "BYSETPOS" in text:
        return f"{freq}, BYSETPOS"
    if "BYWEEKNO" in text or "BYYEARDAY" in text:
        return f"{freq}, BYWEEKNO/BYYEARDAY"
    return freq


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=10000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "data", "rrule-general.jsonl"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    today = NOW.date()

    def anchor_for(freq):
        back = rng.randint(0, 3) if freq in ("HOURLY", "MINUTELY") else rng.randint(0, 60)
        return today - timedelta(days=back)

    rows = []
    while len(rows) < a.n:
        p = general_rules.general_rule(rng, len(rows), anchor_for=anchor_for)
        text, anchor = p["text"].split(" from ")[0], p["anchor"]
        if "Z;" in text + ";":
            continue                                        # a UTC UNTIL needs a zone-aware DTSTART in dateutil
        if text.startswith(("FREQ=YEARLY", "FREQ=MONTHLY")):
            try:
                old_anchor = anchor.replace(year=anchor.year - 5)
            except ValueError:
                old_anchor = anchor.replace(year=anchor.year - 5, day=28)
        else:
            old_anchor = anchor - timedelta(weeks=261)
        rows.append({"rrule": text, "family": family(text), "anchor": anchor, "old": old_anchor})

    def built(r, which):
        d = r[which]
        return rrulestr(r["rrule"], dtstart=datetime(d.year, d.month, d.day))

    answers = {}
    print(f"{'dateutil after(now), by family':44}{'rules':>8}{'timed':>7}{'fresh rules/s':>16}{'~5y rules/s':>14}")
    for fam in sorted(set(r["family"] for r in rows)):
        idx = [i for i, r in enumerate(rows) if r["family"] == fam]
        sample = idx[:300]
        sub_daily = fam.startswith(("hourly", "minutely")) or (fam == "with COUNT")
        rates = []
        for which in ("anchor", "old"):
            if which == "old" and sub_daily:
                rates.append(None)
                continue
            rules = {i: built(rows[i], which) for i in sample}
            times = []
            for _ in range(a.repeats):
                t0 = time.perf_counter()
                out = [rules[i].after(NOW) for i in sample]
                times.append(time.perf_counter() - t0)
            for i, x in zip(sample, out):
                answers[(which, i)] = x
            rates.append(len(sample) / statistics.median(times))
        cells = "".join(f"{x:>16,.0f}" if j == 0 else (f"{x:>14,.0f}" if x else f"{'-':>14}") for j, x in enumerate(rates))
        print(f"{fam:44}{len(idx):>8}{len(sample):>7}{cells}")
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        for i, r in enumerate(rows):
            row = {"rrule": r["rrule"], "family": r["family"], "dtstart": r["anchor"].isoformat(), "old": r["old"].isoformat()}
            for which, key in (("anchor", "next"), ("old", "oldNext")):
                if (which, i) in answers:                   # "none": dateutil has no next occurrence
                    x = answers[(which, i)]
                    row[key] = x.strftime("%Y-%m-%dT%H:%M") if x else "none"
            f.write(json.dumps(row) + "\n")
    print(f"wrote {a.out} ({len(rows)} rules)")


if __name__ == "__main__":
    main()
