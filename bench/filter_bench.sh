#!/usr/bin/env bash
# Filter evaluation: in memory over a million tasks (kept-bench filter), and `kept run --store …
# -e 'count …'` as a whole process on the peers' queries a, b and d at 1k, 10k and 100k tasks.
# Taskwarrior's figures for the same queries come from ../shared/bench/peers/results/summary.md
# (its tw_bench.sh needs taskwarrior, faketime and hyperfine; run it there for a same-run figure).
# Prints figures; never fails on time.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RUNS="${RUNS:-5}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$DATA" "$ROOT/bench/results"
for n in 1000 10000 100000; do
  label=$([ $n = 1000 ] && echo 1k || ([ $n = 10000 ] && echo 10k || echo 100k))
  if [ ! -f "$DATA/store-$label.json" ]; then
    [ -f "$DATA/tasks-$label.jsonl" ] || (cd "$PEERS" && "$PY" gen_tasks.py -n $n --out "$DATA" >/dev/null)
    "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-$label.jsonl" "$DATA/store-$label.json" --zone Europe/Berlin
  fi
done
(cd "$ROOT" && swift build -c release --static-swift-stdlib >/dev/null 2>&1)
KEPT="$ROOT/.build/release/kept"
echo "== in memory"
"$ROOT/.build/release/kept-bench" filter "$DATA/store-100k.json" 2
echo
echo "== whole process, median of $RUNS (ms)"
RE='(review|fix) .*(budget|report)'
declare -A Q=(
  [a]="count status:any +Ruqua #haslest due <= eow"
  [b]="count overdue"
  [d]="count status:any (title ~ /$RE/i or description ~ /$RE/i)"
)
printf "%-6s %10s %10s %10s\n" query 1k 10k 100k
for q in a b d; do
  row="$q"
  for label in 1k 10k 100k; do
    times=()
    for _ in $(seq "$RUNS"); do
      t0=$(date +%s%N)
      "$KEPT" run --store "$DATA/store-$label.json" --now 2026-06-15T09:00 --zone Europe/Berlin -e "${Q[$q]}" >/dev/null
      t1=$(date +%s%N)
      times+=($(( (t1 - t0) / 1000000 )))
    done
    med=$(printf "%s\n" "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
    row="$row $(printf "%10s" "$med")"
  done
  echo "$row"
done
echo
echo "Taskwarrior 2.6.2, same queries (ms, from $PEERS/results/summary.md):"
grep -m3 -E "^\| (a_project_tag_due_count|b_pending_overdue_count|d_regex_search_count) " "$PEERS/results/summary.md" || true
echo
echo "== regex budget (docs/LIMITS.md): each query fails with E0226; whole process, 100k tasks, median of $RUNS (ms)"
for p in '^(\w+\s?)*\d$' '^(\w+\s?){1,5}\d$'; do
  times=()
  for _ in $(seq "$RUNS"); do
    t0=$(date +%s%N)
    "$KEPT" run --store "$DATA/store-100k.json" --now 2026-06-15T09:00 --zone Europe/Berlin -e "count status:any title ~ /$p/" >/dev/null 2>&1 || true
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  med=$(printf "%s\n" "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
  printf "%-24s %6s ms\n" "/$p/" "$med"
done
