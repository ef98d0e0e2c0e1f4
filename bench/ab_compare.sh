#!/usr/bin/env bash
# A/B: this checkout's release build against another checkout's (BASE, a folder with its own
# release build, for example a `git worktree` of an earlier commit), on the 100,000-task store:
# the in-memory filter and plan figures (kept-bench), and whole `kept run` processes for the
# peers' queries and the plan, timed in interleaved rounds (tw_common.sh explains why). Prints
# figures; never fails on time.
#
#   git worktree add ../kept-base 5f0e707 && (cd ../kept-base && swift build -c release --static-swift-stdlib)
#   BASE=../kept-base bash bench/ab_compare.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BASE="$(cd "${BASE:?set BASE to the other checkout}" && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
RUNS="${RUNS:-10}"
ROUNDS="${ROUNDS:-5}"
command -v hyperfine >/dev/null || { echo "skip: hyperfine is not installed"; exit 0; }
PY="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$DATA" "$RES"
if [ ! -f "$DATA/store-100k.json" ]; then
  [ -f "$DATA/tasks-100k.jsonl" ] || (cd "$PEERS" && "$PY" gen_tasks.py -n 100000 --out "$DATA" >/dev/null)
  "$PY" "$ROOT/bench/convert_store.py" "$DATA/tasks-100k.jsonl" "$DATA/store-100k.json" --zone Europe/Berlin
fi
(cd "$ROOT" && swift build -c release --static-swift-stdlib >/dev/null 2>&1)
for side in "$BASE" "$ROOT"; do
  [ -x "$side/.build/release/kept" ] && [ -x "$side/.build/release/kept-bench" ] || { echo "no release build in $side"; exit 1; }
done
STORE="$DATA/store-100k.json"
echo "== in memory (kept-bench), base then this checkout"
for side in "$BASE" "$ROOT"; do
  echo "-- $side"
  "$side/.build/release/kept-bench" filter "$STORE" 2 | sed 's/^/   /'
  "$side/.build/release/kept-bench" plan "$STORE" 5 | sed 's/^/   /'
done
echo
RE='(review|fix) .*(budget|report)'
declare -A Q=(
  [a]="count status:any +Ruqua #haslest due <= eow"
  [b]="count overdue"
  [d]="count status:any (title ~ /$RE/i or description ~ /$RE/i)"
  [plan]="plan"
)
echo "== whole process at 100k, median ms over $ROUNDS interleaved rounds ($RUNS runs each)"
printf "%-6s %10s %10s %8s\n" query base this ratio
for q in a b d plan; do
  args=()
  for side in "$BASE" "$ROOT"; do
    args+=(--command-name "$side" "$side/.build/release/kept run --store $STORE --now 2026-06-15T09:00 --zone Europe/Berlin -e '${Q[$q]}'")
  done
  parts=()
  per=$(( (RUNS + ROUNDS - 1) / ROUNDS )); [ "$per" -ge 2 ] || per=2
  for r in $(seq "$ROUNDS"); do
    hyperfine -N --runs "$per" --warmup 1 --style none --export-json "$RES/ab-$q.round$r" "${args[@]}" >/dev/null
    parts+=("$RES/ab-$q.round$r")
  done
  "$PY" - "$q" "$BASE" "$ROOT" "${parts[@]}" <<'PYEOF'
import json, statistics, sys
q, base, this = sys.argv[1:4]
t = {}
for p in sys.argv[4:]:
    for x in json.load(open(p))["results"]:
        t.setdefault(x["command"], []).extend(x["times"])
b, h = statistics.median(t[base]) * 1000, statistics.median(t[this]) * 1000
print(f"{q:<6} {b:10.1f} {h:10.1f} {h / b:8.2f}")
PYEOF
  rm -f "${parts[@]}"
done
