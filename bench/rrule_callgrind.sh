#!/usr/bin/env bash
# Instructions per next occurrence, to decide between two versions of the hot path: for each
# rule, `valgrind --tool=callgrind` counts the instructions of `kept-bench rule` with CALLS
# calls and with none, and prints the difference per call. Counts do not depend on the
# machine's load, so two builds compare on a shared machine. Prints figures; never fails on them.
# Usage: bash bench/rrule_callgrind.sh [ANCHOR RRULE]...   (default: the rules below)
#   CALLS   calls per rule (default 2000)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CALLS="${CALLS:-2000}"
BIN="$ROOT/.build/release/kept-bench"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 0; }
[ -x "$BIN" ] || (cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept-bench >/dev/null 2>&1)
if [ $# -eq 0 ]; then
  # The slowest rules of bench/rrule_general.py's 6,000 in the last measured run, by family,
  # and the simple shapes that must stay constant-time.
  set -- \
    2026-06-12 'FREQ=HOURLY;INTERVAL=25;BYMONTHDAY=8,24;BYDAY=SA;BYHOUR=6;BYMINUTE=45' \
    2021-06-11 'FREQ=HOURLY;INTERVAL=25;BYMONTHDAY=8,24;BYDAY=SA;BYHOUR=6;BYMINUTE=45' \
    2026-06-05 'FREQ=DAILY;INTERVAL=5;BYMONTHDAY=-1;BYDAY=TH;BYMINUTE=22' \
    2026-05-26 'FREQ=DAILY;INTERVAL=5;BYMONTHDAY=19;BYDAY=FR,SU;BYHOUR=2,10,11,21;BYMINUTE=43;BYSETPOS=-1,2' \
    2026-06-13 'FREQ=HOURLY;INTERVAL=25;BYYEARDAY=246;BYDAY=TU,TH,FR;BYHOUR=3' \
    2021-06-14 'FREQ=MINUTELY;INTERVAL=7;BYMONTH=2,3,5;BYMONTHDAY=-22,6;BYHOUR=9,13,14,18,20;BYMINUTE=4,20' \
    2026-06-13 'FREQ=MINUTELY;INTERVAL=7;BYYEARDAY=-292,334,352;BYHOUR=8,9,14' \
    2021-05-01 'FREQ=MONTHLY;BYMONTH=2;BYDAY=5TH;BYMINUTE=18' \
    2026-04-26 'FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-27;BYDAY=SA;WKST=TH' \
    2026-06-12 'FREQ=HOURLY;INTERVAL=25;BYMONTH=2,3,9;BYMONTHDAY=-9;BYDAY=SU;BYHOUR=4,9,10,16;BYMINUTE=19,30,44;COUNT=2' \
    2021-04-15 'FREQ=WEEKLY;BYMONTH=4;BYHOUR=2,9;WKST=SU;COUNT=51' \
    2021-05-04 'FREQ=WEEKLY;BYMONTH=5,7,9;BYHOUR=0;WKST=TU;COUNT=53' \
    2026-06-12 'FREQ=HOURLY;BYYEARDAY=-350,-257,-217;BYDAY=MO,WE,FR;BYMINUTE=24,26,55;COUNT=4' \
    2021-05-20 'FREQ=YEARLY;BYMONTH=3,4,7;BYMONTHDAY=-8,3;BYDAY=TU,SU;COUNT=40' \
    2026-04-20 'FREQ=DAILY;INTERVAL=3' \
    2026-04-20 'FREQ=WEEKLY;BYDAY=MO,WE,FR' \
    2026-01-31 'FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1' \
    2024-02-29 'FREQ=YEARLY'
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
ir() { # instructions of one run: CALLS, ANCHOR, RRULE
  CALLS="$1" valgrind --tool=callgrind --callgrind-out-file="$work/out" "$BIN" rule "$2" "$3" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
  sed -n 's/^summary: //p' "$work/out"
}
printf '%12s  %s\n' "instr/call" "rule"
while [ $# -ge 2 ]; do
  a="$1" r="$2"; shift 2
  with=$(ir "$CALLS" "$a" "$r"); without=$(ir 0 "$a" "$r")
  printf '%12d  %s from %s\n' $(( (with - without) / CALLS )) "$r" "$a"
done
