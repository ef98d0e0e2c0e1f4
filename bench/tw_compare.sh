#!/usr/bin/env bash
# Whole-process filter counts, kept beside Taskwarrior in the same run (interleaved rounds): queries a
# (project + tag + due by end of week), b (overdue) and d (regex over title and description) of
# ../shared/bench/peers at 1k, 10k and 100k tasks. Taskwarrior runs as the peers' tw_bench.sh
# runs it (their taskrc, a private data dir, libfaketime at 2026-06-15 09:00 Europe/Berlin);
# kept gets the same now with --now. Needs task, faketime and hyperfine; skips without them.
# Writes only under bench/data, bench/results and $TW_ROOT; prints the table. Never fails on time.
set -euo pipefail
TW_ROOT="${TW_ROOT:-/tmp/kept-tw-compare}"
source "$(dirname "$0")/tw_common.sh"
SUMMARY="$RES/tw-compare-summary.txt"
: > "$SUMMARY"
for size in ${SIZES:-1k 10k 100k}; do
  tw_store "$size"
  read -r P TAG RX < <("$PY" -c "import json,sys;q=json.load(open(sys.argv[1]))['query'];print(q['project'],q['tag'],q['regex'])" "$DATA/manifest-$size.json")
  echo "== $size tasks: the answers"
  {
    echo "a  tw $(eval "$CLOCK $TW project:$P +$TAG due.before:eow count")  kept $($K "count status:any +$P #$TAG due <= eow")"
    echo "b  tw $(eval "$CLOCK $TW status:pending +OVERDUE count")  kept $($K 'count overdue')"
    echo "d  tw $(eval "$CLOCK $TW '/$RX/' count")  kept $($K "count status:any (title ~ /$RX/i or description ~ /$RX/i)")"
  } | tee -a "$SUMMARY"
  # Through a shell (hyperfine subtracts its start-up): Taskwarrior needs the faketime variables.
  echo "== $size tasks: whole process, $RUNS runs each or more, in ${ROUNDS:-5} interleaved rounds"
  interleaved "$RES/tw-compare-$size.json" \
    "tw a" "$CLOCK $TW project:$P +$TAG due.before:eow count" \
    "kept a" "$K 'count status:any +$P #$TAG due <= eow'" \
    "tw b" "$CLOCK $TW status:pending +OVERDUE count" \
    "kept b" "$K 'count overdue'" \
    "tw d" "$CLOCK $TW '/$RX/' count" \
    "kept d" "$K 'count status:any (title ~ /$RX/i or description ~ /$RX/i)'"
  "$PY" - "$RES/tw-compare-$size.json" "$size" <<'PYEOF' | tee -a "$SUMMARY"
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
for q in "abd":
    tw, k = r["tw " + q], r["kept " + q]
    print(f"{sys.argv[2]:>5} {q}  tw {tw['median']*1000:8.1f} ms   kept {k['median']*1000:7.1f} ms (min {k['min']*1000:6.1f})   {tw['median']/k['median']:5.1f}x")
PYEOF
done
echo "(written to $SUMMARY)"
