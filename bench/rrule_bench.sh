#!/usr/bin/env bash
# Next-occurrence throughput: kept beside python-dateutil's rrule, in one run, on the peers'
# 100,000 rules (now 2026-06-15T09:00, naive local). Runs a copy of the peers' rrule_bench.py
# (it writes bench/data/rrule-next.jsonl: each rule's RRULE, dtstart and dateutil's
# after(now)), then `kept-bench next` (release) on that file, and prints both side by side.
# Then general RFC 5545 rules (every BY part, BYSETPOS, COUNT, UNTIL, times of day, HOURLY and
# MINUTELY) by family: bench/rrule_general.py times dateutil and writes
# bench/data/rrule-general.jsonl, `kept-bench general` times kept on the same rules.
# Prints figures; never fails on time. Usage: bash bench/rrule_bench.sh [SECONDS_PER_KEPT_ROW]
#   GENERAL     how many general rules (default 6000); GENERAL_SECONDS per kept row (default 0.5)
#   PEERS_DIR   the peers' folder (default ../shared/bench/peers)
#   REPEATS     dateutil's repeats per benchmark (default 5, the peers' own; 100k rows use max(3, REPEATS-2))
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RESULTS="$ROOT/bench/results"
SECONDS_PER_ROW="${1:-3}"
REPEATS="${REPEATS:-5}"
mkdir -p "$DATA" "$RESULTS"
PY="$(python3 -c 'import sys; print(sys.executable)')"

# The peer: install python-dateutil from PyPI when missing.
if ! "$PY" -c 'import dateutil' 2>/dev/null; then
  "$PY" -m pip install --quiet python-dateutil
fi

# The peers' script writes results/ beside itself; run a copy so shared/ stays untouched.
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$PEERS/rrule_bench.py" "$WORK/"
echo "== dateutil (rrule_bench.py --repeats $REPEATS; writes $DATA/rrule-next.jsonl)"
(cd "$WORK" && "$PY" rrule_bench.py --repeats "$REPEATS" --dump-dir "$DATA") | tee "$RESULTS/rrule-bench-dateutil.txt"
cp "$WORK/results/rrule.json" "$RESULTS/rrule-bench-dateutil.json"

echo
echo "== kept"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept-bench >/dev/null 2>&1)
"$ROOT/.build/release/kept-bench" next "$DATA/rrule-next.jsonl" "$SECONDS_PER_ROW" | tee "$RESULTS/rrule-bench-kept.txt"

echo
echo "== side by side (rules/s, one core)"
"$PY" - "$RESULTS/rrule-bench-dateutil.json" "$RESULTS/rrule-bench-kept.txt" <<'PYEOF' | tee "$RESULTS/rrule-bench-summary.txt"
import json, re, sys
du = {b["name"]: b["ops_per_s"] for b in json.load(open(sys.argv[1]))["benchmarks"]}
kept = {}
for line in open(sys.argv[2]):
    m = re.match(r"(kept .+?)\s+\d+\s+(\d+) rules/s", line)
    if m:
        kept[m.group(1)] = int(m.group(2))
def pick(d, prefix):
    return next((v for k, v in d.items() if k.startswith(prefix)), None)
rows = [("parse 100k RRULEs", pick(du, "B2 parse rrulestr"), pick(kept, "kept RepeatRule.fromRRULE")),
        ("next after now, fresh anchors (B2 after(now) x100000)", pick(du, "B2 after(now)"), pick(kept, "kept nextOccurrence, fresh")),
        ("next after now, anchors ~5 years back (B3 x10000)", pick(du, "B3 after(now)"), pick(kept, "kept nextOccurrence, anchors ~5y"))]
print(f"{'':56}{'dateutil':>12}{'kept':>14}{'kept/dateutil':>15}")
for name, a, b in rows:
    ratio = f"{b / a:,.0f}x" if a and b else "-"
    print(f"{name:56}{a or 0:>12,.0f}{b or 0:>14,}{ratio:>15}")
PYEOF

echo
echo "== general rules: dateutil (bench/rrule_general.py, writes $DATA/rrule-general.jsonl)"
"$PY" "$ROOT/bench/rrule_general.py" -n "${GENERAL:-6000}" --repeats 1 --out "$DATA/rrule-general.jsonl" | tee "$RESULTS/rrule-general-dateutil.txt"
echo
echo "== general rules: kept"
"$ROOT/.build/release/kept-bench" general "$DATA/rrule-general.jsonl" "${GENERAL_SECONDS:-0.5}" | tee "$RESULTS/rrule-general-kept.txt"
