#!/usr/bin/env bash
# The Smart plan as a whole process, beside Taskwarrior's `next` report (limit 3) in the same
# hyperfine run: `kept run --store S -e plan` (Top 3, Quick wins and the first 20 other tasks
# of every open task, scored) against `task limit:3 next` (every pending task scored by
# urgency, the top 3 printed), on the peers' stores of ../shared/bench/peers. Taskwarrior runs
# as tw_compare.sh runs it (the peers' taskrc, a private data dir, libfaketime at 2026-06-15
# 09:00 Europe/Berlin); kept gets the same now with --now. `kept … -e 'count overdue'` is timed
# too, as the floor of loading the store. Needs task, faketime and hyperfine; skips without
# them. Writes only under bench/data, bench/results and $TW_ROOT; never fails on time.
set -euo pipefail
TW_ROOT="${TW_ROOT:-/tmp/kept-plan-compare}"
source "$(dirname "$0")/tw_common.sh"
SUMMARY="$RES/plan-compare-summary.txt"
: > "$SUMMARY"
for size in ${SIZES:-1k 10k 100k}; do
  tw_store "$size"
  echo "== $size tasks: the answers" | tee -a "$SUMMARY"
  { echo "tw next limit:3:"; eval "$CLOCK $TW limit:3 next" | cut -c1-120
    echo "kept plan:"; $K plan | head -8; } | tee -a "$SUMMARY"
  echo "== $size tasks: whole process, $RUNS runs each or more, in ${ROUNDS:-5} interleaved rounds"
  interleaved "$RES/plan-compare-$size.json" \
    "tw next" "$CLOCK $TW limit:3 next" \
    "kept plan" "$K plan" \
    "kept count" "$K 'count overdue'"
  "$PY" - "$RES/plan-compare-$size.json" "$size" <<'PYEOF' | tee -a "$SUMMARY"
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
tw, k, c = r["tw next"], r["kept plan"], r["kept count"]
ms = lambda x: x * 1000
print(f"{sys.argv[2]:>5}  tw next limit:3 {ms(tw['median']):8.1f} ms   kept plan {ms(k['median']):7.1f} ms (min {ms(k['min']):6.1f})"
      f"   {tw['median']/k['median']:5.1f}x   (kept count, the load floor: {ms(c['median']):6.1f} ms)")
PYEOF
done
echo "(written to $SUMMARY)"
