#!/usr/bin/env bash
# Whole-process filter counts, kept beside Taskwarrior in the same hyperfine run: queries a
# (project + tag + due by end of week), b (overdue) and d (regex over title and description) of
# ../shared/bench/peers at 1k, 10k and 100k tasks. Taskwarrior runs as the peers' tw_bench.sh
# runs it (their taskrc, a private data dir, libfaketime at 2026-06-15 09:00 Europe/Berlin);
# kept gets the same now with --now. Needs task, faketime and hyperfine; skips without them.
# Writes only under bench/data, bench/results and $TW_ROOT; prints the table. Never fails on time.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
TW_ROOT="${TW_ROOT:-/tmp/kept-tw-compare}"
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
SUMMARY="$RES/tw-compare-summary.txt"
: > "$SUMMARY"
for size in ${SIZES:-1k 10k 100k}; do
  n=$(( ${size%k} * 1000 ))
  if [ ! -f "$DATA/tasks-$size.tw.json" ] || [ ! -f "$DATA/manifest-$size.json" ]; then
    (cd "$PEERS" && "$PY" gen_tasks.py -n "$n" --out "$DATA" >/dev/null)
  fi
  [ -f "$DATA/store-$size.json" ] || "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-$size.jsonl" "$DATA/store-$size.json" --zone Europe/Berlin
  read -r P TAG RX < <("$PY" -c "import json,sys;q=json.load(open(sys.argv[1]))['query'];print(q['project'],q['tag'],q['regex'])" "$DATA/manifest-$size.json")
  D="$TW_ROOT/$size"
  if [ ! -f "$D/pending.data" ]; then
    rm -rf "$D" && mkdir -p "$D"
    task rc.data.location="$D" rc.verbose=nothing import "$DATA/tasks-$size.tw.json" >/dev/null 2>&1
  fi
  TW="task rc.data.location=$D rc.verbose=nothing rc.gc=off"
  K="$KEPT run --store $DATA/store-$size.json --now 2026-06-15T09:00 --zone Europe/Berlin -e"
  echo "== $size tasks: the answers"
  {
    echo "a  tw $(eval "$CLOCK $TW project:$P +$TAG due.before:eow count")  kept $($K "count status:any +$P #$TAG due <= eow")"
    echo "b  tw $(eval "$CLOCK $TW status:pending +OVERDUE count")  kept $($K 'count overdue')"
    echo "d  tw $(eval "$CLOCK $TW '/$RX/' count")  kept $($K "count status:any (title ~ /$RX/i or description ~ /$RX/i)")"
  } | tee -a "$SUMMARY"
  # Through a shell (hyperfine subtracts its start-up): Taskwarrior needs the faketime variables.
  echo "== $size tasks: whole process, min $RUNS runs"
  hyperfine --min-runs "$RUNS" --warmup 2 --style basic --export-json "$RES/tw-compare-$size.json" \
    -n "tw a" "$CLOCK $TW project:$P +$TAG due.before:eow count" \
    -n "kept a" "$K 'count status:any +$P #$TAG due <= eow'" \
    -n "tw b" "$CLOCK $TW status:pending +OVERDUE count" \
    -n "kept b" "$K 'count overdue'" \
    -n "tw d" "$CLOCK $TW '/$RX/' count" \
    -n "kept d" "$K 'count status:any (title ~ /$RX/i or description ~ /$RX/i)'" >/dev/null
  "$PY" - "$RES/tw-compare-$size.json" "$size" <<'PYEOF' | tee -a "$SUMMARY"
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
for q in "abd":
    tw, k = r["tw " + q], r["kept " + q]
    print(f"{sys.argv[2]:>5} {q}  tw {tw['median']*1000:8.1f} ms   kept {k['median']*1000:7.1f} ms (min {k['min']*1000:6.1f})   {tw['median']/k['median']:5.1f}x")
PYEOF
done
echo "(written to $SUMMARY)"
