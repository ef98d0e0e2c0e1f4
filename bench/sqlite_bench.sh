#!/usr/bin/env bash
# The SQLite store's reads (issue 34's goals), at 100k and 1M tasks in one run, beside the JSON
# store at 100k and Taskwarrior at 100k, as whole processes (hyperfine medians):
#   `list overdue limit 10`, `plan limit 3`, counts of filters with an indexed term, a `where`
#   bulk action touching 10 tasks (`--write`), and the peak memory of the list and the plan.
# Then, with WRITES=1, the SQLite store against the JSON file for changes (issue 15's goals):
#   one durable change inside a REPL session (median of .timer over 200 statements), 100k and 1M
#   `kept run --write -e 'complete ID'` as a whole process, 100k and 1M (Taskwarrior: `add`)
#   `count overdue` as a whole process, 100k and 1M (Taskwarrior: `+OVERDUE count` at 100k)
#   resident memory of `count` at 1M
#   cost growth: 200 changes in a REPL at 1M against 200 at 1k
# Stores come from the peers' generator (bench/data, git-ignored); the 1M ones take minutes to
# make the first time and are kept there for the next run. Prints figures; never fails on time. SIZES="100k" skips the million.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
RUNS="${RUNS:-10}"
SIZES="${SIZES:-1k 100k 1m}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
command -v hyperfine >/dev/null || { echo "skip: hyperfine is not installed"; exit 0; }
mkdir -p "$DATA" "$RES"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1)
KEPT="$ROOT/.build/release/kept"
CLOCK=(--now 2026-06-15T09:00 --zone Europe/Berlin)

store() { # SIZE -> makes store-SIZE.json and store-SIZE.db when missing
  local size="$1" n
  case "$size" in 1k) n=1000 ;; 100k) n=100000 ;; 1m) n=1000000 ;; esac
  if [ ! -f "$DATA/tasks-$size.jsonl" ]; then
    (cd "$PEERS" && "$PY" gen_tasks.py -n "$n" --out "$DATA" >/dev/null)
    # The generator names a million `1000k`.
    [ -f "$DATA/tasks-1000k.jsonl" ] && mv "$DATA/tasks-1000k.jsonl" "$DATA/tasks-1m.jsonl" && rm -f "$DATA/tasks-1000k.tw.json" "$DATA/manifest-1000k.json"
  fi
  [ -f "$DATA/store-$size.json" ] || "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-$size.jsonl" "$DATA/store-$size.json" --zone Europe/Berlin >/dev/null
  [ -f "$DATA/store-$size.db" ] || "$KEPT" convert "$DATA/store-$size.json" "$DATA/store-$size.db" >/dev/null
}

# median ms of the `.timer` lines of a REPL session (statements after the first).
repl_median() { # STORE SCRIPT
  { echo ".timer on"; cat "$2"; } | "$KEPT" repl --store "$1" "${CLOCK[@]}" 2>&1 >/dev/null \
    | "$PY" -c 'import sys, statistics; t=[float(l.split()[1]) for l in sys.stdin if l.startswith("time:")][1:]; print(f"{statistics.median(t):.2f} {sum(t):.1f}")'
}

open_ids() { # STORE N -> N ids of open tasks without a repeat, from the middle of the store
  "$KEPT" run --store "$1" "${CLOCK[@]}" --format json -e "list open not repeating limit $(( $2 * 3 ))" \
    | "$PY" -c "import json,sys; ids=[t['id'] for t in json.load(sys.stdin)['tasks']]; print(' '.join(map(str, ids[-$2:])))"
}

declare -A R

# ---- issue 34: reads that cost what they return
R34="$RES/sqlite-reads-summary.txt"
SIZES34="${SIZES34:-100k 1m}"
ms() { "$PY" -c "import json;print(f\"{json.load(open('$1'))['results'][0]['median']*1000:.1f}\")"; }
# Ten tasks of one day and one project (a filter with indexed terms), found in the store.
ten_filter() { # STORE
  "$KEPT" run --store "$1" "${CLOCK[@]}" --format json -e "list @2026-07-01..2026-07-07 limit 100000" \
    | "$PY" -c '
import json, sys, collections
c = collections.Counter((t["due"]["date"], t["project"]) for t in json.load(sys.stdin)["tasks"] if t["project"])
d, p = min(c.items(), key=lambda kv: (abs(kv[1] - 10), kv[0]))[0]
print(f"due = {d} and +\"{p}\"")'
}
bench34() { # SIZE KIND
  local size="$1" kind="$2" s="$DATA/store-$1.$2" work="$DATA/work34-$1.$2"
  rm -f "$work" "$work-wal" "$work-shm"
  cp "$s" "$work"
  # The copy written out first, so its writeback does not fall on the timed runs.
  sync "$work"
  local runs=$RUNS
  [ "$size" = 1m ] && runs=5
  for q in "list overdue limit 10" "plan limit 3" "count overdue" "count @next 7 days" "count +Raibrir and !high" "count due < 2026-05-01"; do
    local key="${q// /_}"
    hyperfine -N --runs "$runs" --warmup 1 --style none --export-json "$RES/sq34-$size-$kind.json" \
      "$KEPT run --store $work ${CLOCK[*]} -e '$q'" >/dev/null 2>&1
    R[$key-$size-$kind]=$(ms "$RES/sq34-$size-$kind.json")
  done
  local f
  f=$(ten_filter "$work")
  R[ten-$size-$kind]="$("$KEPT" run --store "$work" "${CLOCK[@]}" -e "count $f" | tr -d '\n')"
  hyperfine -N --runs "$runs" --warmup 1 --style none --export-json "$RES/sq34-$size-$kind.json" \
    --prepare "$KEPT run --store $work --write ${CLOCK[*]} -e 'set where ($f) priority none'" \
    "$KEPT run --store $work --write ${CLOCK[*]} -e 'set where ($f) priority high'" >/dev/null 2>&1
  R[where-$size-$kind]=$(ms "$RES/sq34-$size-$kind.json")
  # Item 5: a REPL started on the store, one answer, and its end (piped, as a whole process).
  printf 'count overdue\n' > "$RES/sq34-repl.kept"
  hyperfine -N --runs "$runs" --warmup 1 --style none --export-json "$RES/sq34-$size-$kind.json" \
    "sh -c '$KEPT repl --store $work ${CLOCK[*]} < $RES/sq34-repl.kept'" >/dev/null 2>&1
  R[repl-$size-$kind]=$(ms "$RES/sq34-$size-$kind.json")
  R[rsslist-$size-$kind]=$( { /usr/bin/time -f %M "$KEPT" run --store "$work" "${CLOCK[@]}" -e 'list overdue limit 10' >/dev/null; } 2>&1 | tail -1)
  R[rssplan-$size-$kind]=$( { /usr/bin/time -f %M "$KEPT" run --store "$work" "${CLOCK[@]}" -e 'plan limit 3' >/dev/null; } 2>&1 | tail -1)
  rm -f "$work" "$work-wal" "$work-shm"
}
for size in $SIZES34; do
  store "$size"
  bench34 "$size" db
  [ "$size" = 100k ] && bench34 "$size" json
done
TW34=()
if command -v task >/dev/null && [ -f "$PEERS/tw/taskrc" ] && [ -f "${FT_LIB:=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}" ]; then
  TW_ROOT="${TW_ROOT:-/tmp/kept-tw-bench}"
  D="$TW_ROOT/100k"
  if [ ! -f "$D/pending.data" ]; then
    store 100k
    rm -rf "$D" && mkdir -p "$D"
    TASKRC="$PEERS/tw/taskrc" task rc.data.location="$D" rc.verbose=nothing import "$DATA/tasks-100k.tw.json" >/dev/null 2>&1
  fi
  TW="env TASKRC=$PEERS/tw/taskrc LD_PRELOAD=$FT_LIB FAKETIME=@2026-06-15\ 07:00:00 TZ=Europe/Berlin task rc.data.location=$D rc.verbose=nothing rc.gc=off"
  for q in "+OVERDUE limit:10 list" "next limit:3" "+OVERDUE count"; do
    hyperfine --runs 5 --warmup 1 --style none --export-json "$RES/sq34-tw.json" "$TW $q" >/dev/null 2>&1 || true
    TW34+=("$(ms "$RES/sq34-tw.json" 2>/dev/null || echo -)")
  done
fi
{
  printf "%-40s %10s %10s %10s %10s %9s %9s\n" "statement (ms, whole process, median)" "SQL 100k" "SQL 1M" "JSON 100k" "TW 100k" "goal 100k" "goal 1M"
  row() { printf "%-40s %10s %10s %10s %10s %9s %9s\n" "$1" "${R[$2-100k-db]:--}" "${R[$2-1m-db]:--}" "${R[$2-100k-json]:--}" "$3" "$4" "$5"; }
  row "list overdue limit 10" list_overdue_limit_10 "${TW34[0]:--}" "<= 25" "<= 40"
  row "plan limit 3" plan_limit_3 "${TW34[1]:--}" "<= 40" "<= 150"
  row "count overdue" count_overdue "${TW34[2]:--}" "<= 25" "<= 60"
  row "count @next 7 days" count_@next_7_days "" "<= 25" "<= 60"
  row "count +Raibrir and !high" count_+Raibrir_and_\!high "" "<= 25" "<= 60"
  row "count due < 2026-05-01" count_due_\<_2026-05-01 "" "<= 25" "<= 60"
  row "set where (10 tasks) priority (--write)" where "" "<= 30" "<= 50"
  row "repl: start, count overdue, end" repl "" "" ""
  row "peak memory of the list (KB)" rsslist "" "" "<= 102400"
  row "peak memory of the plan (KB)" rssplan "" "" "<= 102400"
  echo "the where filter's count: 100k ${R[ten-100k-db]:-}, 1M ${R[ten-1m-db]:-}"
  [ ${#TW34[@]} -gt 0 ] && echo "Taskwarrior: +OVERDUE limit:10 list, next limit:3, +OVERDUE count (same run, libfaketime)"
} | tee "$R34"
[ "${WRITES:-0}" = 1 ] || exit 0

# ---- issue 15: changes
for size in $SIZES; do
  store "$size"
  for kind in json db; do
    s="$DATA/store-$size.$kind"
    work="$DATA/work-$size.$kind"
    rm -f "$work" "$work-wal" "$work-shm" "$DATA/.work-$size.$kind.lock"
    cp "$s" "$work"
    # A change to a JSON store of a million tasks rewrites ~280 MB: five of them tell its median.
    n=200; runs=$RUNS
    if [ "$size" = 1m ] && [ "$kind" = json ]; then n=5; runs=3; fi
    # Reads first, on the store as generated, so both kinds count the same tasks.
    if [ "$size" != 1k ]; then
      hyperfine -N --runs "$runs" --warmup 1 --style none --export-json "$RES/sq-count-$size-$kind.json" \
        "$KEPT run --store $work ${CLOCK[*]} -e 'count overdue'" >/dev/null 2>&1
      R[count-$size-$kind]=$("$PY" -c "import json;print(f\"{json.load(open('$RES/sq-count-$size-$kind.json'))['results'][0]['median']*1000:.1f}\")")
      R[rss-$size-$kind]=$( { /usr/bin/time -f %M "$KEPT" run --store "$work" "${CLOCK[@]}" -e 'count overdue' >/dev/null; } 2>&1 | tail -1)
      R[answer-$size-$kind]=$("$KEPT" run --store "$work" "${CLOCK[@]}" -e 'count overdue')
    fi
    ids=$(open_ids "$work" "$n")
    script="$RES/complete-$size-$kind.kept"
    for i in $ids; do echo "complete $i"; done > "$script"
    read -r med total < <(repl_median "$work" "$script")
    R[repl-$size-$kind]="$med"
    R[total-$size-$kind]="$total"
    if [ "$size" != 1k ]; then
      id=$(echo "$ids" | awk '{print $1}')
      hyperfine -N --runs "$runs" --warmup 1 --style none --export-json "$RES/sq-complete-$size-$kind.json" \
        --prepare "$KEPT run --store $work --write ${CLOCK[*]} -e 'reopen $id'" \
        "$KEPT run --store $work --write ${CLOCK[*]} -e 'complete $id'" >/dev/null 2>&1
      R[complete-$size-$kind]=$("$PY" -c "import json;print(f\"{json.load(open('$RES/sq-complete-$size-$kind.json'))['results'][0]['median']*1000:.1f}\")")
    fi
  done
done

TWLINE=""
if command -v task >/dev/null && [ -f "$PEERS/tw/taskrc" ] && [ -f "${FT_LIB:=/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1}" ]; then
  TW_ROOT="${TW_ROOT:-/tmp/kept-tw-bench}"
  D="$TW_ROOT/100k"
  if [ ! -f "$D/pending.data" ]; then
    store 100k
    rm -rf "$D" && mkdir -p "$D"
    TASKRC="$PEERS/tw/taskrc" task rc.data.location="$D" rc.verbose=nothing import "$DATA/tasks-100k.tw.json" >/dev/null 2>&1
  fi
  TW="env TASKRC=$PEERS/tw/taskrc LD_PRELOAD=$FT_LIB FAKETIME=@2026-06-15\ 07:00:00 TZ=Europe/Berlin task rc.data.location=$D rc.verbose=nothing rc.gc=off"
  hyperfine --runs 5 --warmup 1 --style none --export-json "$RES/sq-tw-count.json" "$TW +OVERDUE count" >/dev/null 2>&1 || true
  hyperfine --runs 5 --warmup 1 --style none --export-json "$RES/sq-tw-add.json" "$TW add bench task" >/dev/null 2>&1 || true
  twc=$("$PY" -c "import json;print(f\"{json.load(open('$RES/sq-tw-count.json'))['results'][0]['median']*1000:.0f}\")" 2>/dev/null || echo "-")
  twa=$("$PY" -c "import json;print(f\"{json.load(open('$RES/sq-tw-add.json'))['results'][0]['median']*1000:.0f}\")" 2>/dev/null || echo "-")
  TWLINE="Taskwarrior at 100k (same run): +OVERDUE count ${twc} ms, add ${twa} ms"
fi

{
  printf "%-44s %12s %12s %10s\n" "work (ms; memory in KB)" "JSON file" "SQLite" "goal"
  for size in 100k 1m; do
    [[ " $SIZES " == *" $size "* ]] || continue
    printf "%-44s %12s %12s %10s\n" "one change in a REPL session, $size (median)" "${R[repl-$size-json]}" "${R[repl-$size-db]}" "<= 2"
    printf "%-44s %12s %12s %10s\n" "kept run --write -e 'complete ID', $size" "${R[complete-$size-json]}" "${R[complete-$size-db]}" "$([ $size = 1m ] && echo '<= 30' || echo '<= 15')"
    printf "%-44s %12s %12s %10s\n" "count overdue, whole process, $size" "${R[count-$size-json]}" "${R[count-$size-db]}" "$([ $size = 1m ] && echo '<= 400' || echo '<= 60')"
    printf "%-44s %12s %12s %10s\n" "resident memory of count, $size (KB)" "${R[rss-$size-json]}" "${R[rss-$size-db]}" "$([ $size = 1m ] && echo '<= 409600' || echo '')"
    printf "%-44s %12s %12s\n" "  its answer" "${R[answer-$size-json]}" "${R[answer-$size-db]}"
  done
  if [[ " $SIZES " == *" 1k "* ]] && [[ " $SIZES " == *" 1m "* ]]; then
    printf "%-44s %12s %12s %10s\n" "200 changes in a REPL, 1k (total)" "${R[total-1k-json]}" "${R[total-1k-db]}" ""
    printf "%-44s %12s %12s %10s\n" "200 changes in a REPL, 1m (total)" "${R[total-1m-json]}" "${R[total-1m-db]}" "<= 2x 1k"
  fi
  [ -n "$TWLINE" ] && echo "$TWLINE"
} | tee "$RES/sqlite-bench-summary.txt"
