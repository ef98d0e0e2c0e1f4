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
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
TW_ROOT="${TW_ROOT:-/tmp/kept-plan-compare}"
RUNS="${RUNS:-10}"
FT_LIB="${FT_LIB:-/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}"
for tool in task hyperfine; do command -v "$tool" >/dev/null || { echo "skip: $tool is not installed"; exit 0; }; done
[ -f "$FT_LIB" ] || { echo "skip: libfaketime is not installed (apt-get install faketime)"; exit 0; }
[ -f "$PEERS/tw/taskrc" ] || { echo "skip: no peers folder at $PEERS"; exit 0; }
PY="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$DATA" "$RES" "$TW_ROOT"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1)
KEPT="$ROOT/.build/release/kept"
export TASKRC="$PEERS/tw/taskrc"
CLOCK="LD_PRELOAD=$FT_LIB FAKETIME='2026-06-15 09:00:00' TZ=Europe/Berlin"
SUMMARY="$RES/plan-compare-summary.txt"
: > "$SUMMARY"
for size in ${SIZES:-1k 10k 100k}; do
  n=$(( ${size%k} * 1000 ))
  if [ ! -f "$DATA/tasks-$size.tw.json" ] || [ ! -f "$DATA/tasks-$size.jsonl" ]; then
    (cd "$PEERS" && "$PY" gen_tasks.py -n "$n" --out "$DATA" >/dev/null)
  fi
  [ -f "$DATA/store-$size.json" ] || "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-$size.jsonl" "$DATA/store-$size.json" --zone Europe/Berlin
  D="$TW_ROOT/$size"
  if [ ! -f "$D/pending.data" ]; then
    rm -rf "$D" && mkdir -p "$D"
    task rc.data.location="$D" rc.verbose=nothing import "$DATA/tasks-$size.tw.json" >/dev/null 2>&1
  fi
  TW="task rc.data.location=$D rc.verbose=nothing rc.gc=off"
  K="$KEPT run --store $DATA/store-$size.json --now 2026-06-15T09:00 --zone Europe/Berlin -e"
  echo "== $size tasks: the answers" | tee -a "$SUMMARY"
  { echo "tw next limit:3:"; eval "$CLOCK $TW limit:3 next" | cut -c1-120
    echo "kept plan:"; $K plan | head -8; } | tee -a "$SUMMARY"
  echo "== $size tasks: whole process, min $RUNS runs"
  hyperfine --min-runs "$RUNS" --warmup 2 --style basic --export-json "$RES/plan-compare-$size.json" \
    -n "tw next" "$CLOCK $TW limit:3 next" \
    -n "kept plan" "$K plan" \
    -n "kept count" "$K 'count overdue'" >/dev/null
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
