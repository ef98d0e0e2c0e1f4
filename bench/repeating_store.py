#!/usr/bin/env python3
"""A store where every task repeats, for timing whole `kept` processes that work out next
occurrences (`complete where repeating`, `export --as ics`).

Takes the first N tasks of a kept store (bench/data/store-100k.json, made by store_bench.sh),
opens each, gives it a due date when it has none, and gives it a repeat in turn from a pool:
`peers`, the distinct repeats of the source store (the peers' 57 rules); or `general`, 3,000
random RFC 5545 rules of every FREQ and BY part from Tests/differential/general_rules.py
(seed 29; needs python3-dateutil).

usage: python3 bench/repeating_store.py [--rules peers|general] [-n 10000] SOURCE OUT
"""
import argparse
import json
import os
import random
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rules", choices=["peers", "general"], default="peers")
    ap.add_argument("-n", type=int, default=10_000)
    ap.add_argument("source")
    ap.add_argument("out")
    a = ap.parse_args()
    store = json.load(open(a.source, encoding="utf-8"))
    if a.rules == "peers":
        text = open(a.source, encoding="utf-8").read()
        pool = [json.loads(r) for r in sorted(set(re.findall(r'"repeat":(\{[^}]*\})', text)))]
    else:
        sys.path.insert(0, os.path.join(ROOT, "Tests", "differential"))
        import general_rules  # noqa: E402
        rng = random.Random(29)
        pool = [{"text": "every day", "rrule": general_rules.general_rule(rng, i)["text"].split(" from ")[0]}
                for i in range(3000)]
    if not pool:
        sys.exit(f"repeating_store.py: no repeats in {a.source}")
    tasks = store["tasks"][: a.n]
    for k, t in enumerate(tasks):
        t["status"] = "open"
        t.pop("completedAt", None)
        t.setdefault("due", {"date": "2026-%02d-%02d" % (1 + k % 12, 1 + k % 28), "time": None})
        t["repeat"] = pool[k % len(pool)]
    store["tasks"] = tasks
    store["nextId"] = max((t["id"] for t in tasks), default=0) + 1
    with open(a.out, "w", encoding="utf-8") as f:
        json.dump(store, f, ensure_ascii=False, indent=1)
    print(f"{a.out}: {len(tasks)} tasks, every one repeating ({len(pool)} {a.rules} rules)")


if __name__ == "__main__":
    main()
