#!/usr/bin/env bash
# Importing the peers' Taskwarrior export of 100,000 tasks (gen_tasks.py, seed 20260615):
# Taskwarrior's `task import` into an empty private data folder (the peers' taskrc) beside
# `kept import` into a new JSON store and a new SQLite store, in interleaved rounds (each round
# runs each command once, so a slow spell of this shared machine falls on all of them), with
# the median, the ratio to Taskwarrior and each one's peak resident memory. With SIZES="100k 1m"
# it also imports the million (kept only; Taskwarrior would take minutes). Prints figures;
# never fails on time. Release build with the static standard library, as the other benches.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
ROUNDS="${ROUNDS:-5}"
SIZES="${SIZES:-100k}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
command -v task >/dev/null || { echo "skip: task (Taskwarrior) is not installed"; exit 0; }
[ -f "$PEERS/tw/taskrc" ] || { echo "skip: no peers folder at $PEERS"; exit 0; }
mkdir -p "$DATA" "$RES"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1)
KEPT="$ROOT/.build/release/kept"
export TASKRC="$PEERS/tw/taskrc"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

file() { # SIZE -> the Taskwarrior file, made when missing
  local n=$(( ${1%k} * 1000 )) label="$1"
  [ "$1" = 1m ] && n=1000000 && label=1000k
  [ -f "$DATA/tasks-$label.tw.json" ] || (cd "$PEERS" && "$PY" gen_tasks.py -n "$n" --out "$DATA" >/dev/null)
  echo "$DATA/tasks-$label.tw.json"
}

# `once NAME PREPARE COMMAND`: runs COMMAND once after PREPARE, appends "NAME ms rss_kb" to $TMP/t.
once() {
  eval "$2"
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f "%M" -o "$TMP/rss" bash -c "$3" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo "$1 $(( (t1 - t0) / 1000000 )) $(tail -1 "$TMP/rss")" >> "$TMP/t"
}

CLOCK="--now 2026-06-15T09:00 --zone Europe/Berlin"
for size in $SIZES; do
  F="$(file "$size")"
  : > "$TMP/t"
  rounds=$ROUNDS
  [ "$size" = 1m ] && rounds=1
  for r in $(seq "$rounds"); do
    if [ "$size" != 1m ]; then
      once taskwarrior "rm -rf $TMP/tw && mkdir -p $TMP/tw" "task rc.data.location=$TMP/tw rc.verbose=nothing import $F"
    fi
    once kept-json "rm -f $TMP/s.json" "$KEPT import $F --store $TMP/s.json $CLOCK"
    once kept-sqlite "rm -f $TMP/s.db $TMP/s.db-wal $TMP/s.db-shm" "$KEPT import $F --store $TMP/s.db $CLOCK"
  done
  n=$("$KEPT" run --store "$TMP/s.json" $CLOCK -e 'count status:any' | awk '{print $1}')
  echo "== import of $(basename "$F") ($n tasks in the store), $rounds round(s), $(date -u +%Y-%m-%d), load $(cut -d' ' -f1 /proc/loadavg)"
  "$PY" - "$TMP/t" "$size" <<'PYEOF' | tee "$RES/import-bench-$size.txt"
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, ms, rss = line.split()
    rows.setdefault(name, []).append((int(ms), int(rss)))
tw = statistics.median(ms for ms, _ in rows["taskwarrior"]) if "taskwarrior" in rows else None
print(f"{'command':<14} {'median ms':>10} {'min ms':>8} {'peak RSS MB':>12} {'vs Taskwarrior':>15}")
for name, v in rows.items():
    med = statistics.median(ms for ms, _ in v)
    ratio = f"{tw / med:.1f}x faster" if tw and name != "taskwarrior" else ""
    print(f"{name:<14} {med:>10.0f} {min(ms for ms, _ in v):>8} {max(r for _, r in v) / 1024:>12.0f} {ratio:>15}")
PYEOF
done
