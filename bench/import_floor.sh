#!/usr/bin/env bash
# What SQLite alone takes to write the rows a 100,000-task import makes (issue 34 item 4): the
# floor under `kept import` into a new SQLite store, whatever Kept does before SQLite. Makes a
# store by `kept import` of the peers' Taskwarrior file, then, in the sqlite3 shell with no
# Kept code at all, copies its tasks into an empty database of the same schema as a bulk load
# does (the secondary indexes and the kind trigger dropped, rows in id order, a rollback
# journal, one transaction) and makes each index again, printing each step's time. Beside it,
# `task import` of the same file, once, for the ratio the issue asks (15x). Prints figures;
# never fails on time. Needs sqlite3 (the shell) and, for the ratio, Taskwarrior.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
PY="$(python3 -c 'import sys; print(sys.executable)')"
command -v sqlite3 >/dev/null || { echo "skip: the sqlite3 shell is not installed"; exit 0; }
mkdir -p "$DATA"
F="$DATA/tasks-100k.tw.json"
[ -f "$F" ] || (cd "$PEERS" && "$PY" gen_tasks.py -n 100000 --out "$DATA" >/dev/null)
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1)
KEPT="$ROOT/.build/release/kept"
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
CLOCK="--now 2026-06-15T09:00 --zone Europe/Berlin"

t0=$(date +%s%N)
"$KEPT" import "$F" --store "$TMP/kept.db" $CLOCK >/dev/null
t1=$(date +%s%N)
kept_ms=$(( (t1 - t0) / 1000000 ))

# The schema of the store Kept made, without its rows; the secondary indexes as Kept makes them.
sqlite3 "$TMP/kept.db" .schema > "$TMP/schema.sql"
indexes=$(sqlite3 "$TMP/kept.db" "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks' AND sql IS NOT NULL AND name NOT IN ('tasks_parent', 'tasks_reminders') ORDER BY name")
sqlite3 "$TMP/floor.db" < "$TMP/schema.sql"
{
  echo "PRAGMA journal_mode = DELETE;"
  echo "PRAGMA cache_size = -20000;"
  echo "ATTACH '$TMP/kept.db' AS made;"
  echo "BEGIN;"
  for i in $indexes; do echo "DROP INDEX $i;"; done
  echo "DROP TRIGGER tasks_kind_insert;"
  echo ".timer on"
  echo ".print rows"
  echo "INSERT INTO main.tasks SELECT * FROM made.tasks ORDER BY id;"
  for i in $indexes; do
    echo ".print $i"
    sqlite3 "$TMP/kept.db" "SELECT sql || ';' FROM sqlite_master WHERE name = '$i'"
  done
  echo ".print commit"
  echo "COMMIT;"
} > "$TMP/floor.sql"
# Reading the rows from the other database is part of the "rows" step; its pages are in the
# page cache of the system (just written), as a bulk load's own records are in memory.
sqlite3 "$TMP/floor.db" < "$TMP/floor.sql" > "$TMP/out.txt"

tw_ms=""
if command -v task >/dev/null && [ -f "$PEERS/tw/taskrc" ]; then
  mkdir -p "$TMP/tw"
  t0=$(date +%s%N)
  TASKRC="$PEERS/tw/taskrc" task rc.data.location="$TMP/tw" rc.verbose=nothing import "$F" >/dev/null 2>&1 || true
  t1=$(date +%s%N)
  tw_ms=$(( (t1 - t0) / 1000000 ))
fi

"$PY" - "$TMP/out.txt" "$kept_ms" "$tw_ms" "$(cut -d' ' -f1 /proc/loadavg)" <<'PYEOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
kept_ms, tw_ms, load = int(sys.argv[2]), sys.argv[3], sys.argv[4]
steps, name = [], None
for l in lines:
    if l.startswith("Run Time:"):
        real = float(l.split()[3]) * 1000
        if name: steps.append((name, real))
        name = None
    elif l.strip():
        name = l.strip()
total = sum(ms for _, ms in steps)
print(f"== SQLite alone, the rows of a 100,000-task import (sqlite3 shell), load {load}")
for n, ms in steps:
    print(f"  {n:<18} {ms:8.1f} ms")
print(f"  {'in all':<18} {total:8.1f} ms")
print(f"kept import into a new SQLite store (whole process): {kept_ms} ms")
if tw_ms:
    tw = int(tw_ms)
    print(f"task import (whole process): {tw} ms; 15x asks for {tw / 15:.0f} ms; SQLite alone is {tw / total:.1f}x, kept {tw / kept_ms:.1f}x")
PYEOF
