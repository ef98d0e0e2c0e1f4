#!/usr/bin/env bash
# Sync beside TaskChampion's, in one run, on loopback (issue 30). For each size N:
#   kept-bench sync: store A (SQLite) makes N tasks, links and pushes them all; a new store B
#     makes its first pull; one edit on A pushed by A and pulled by B (median of ROUNDS);
#     concurrent offline edits of one task. In one process, through a PostgreSQL server on
#     127.0.0.1 (TCP, not its socket), fsync on.
#   the same as whole processes a user runs, on the stores kept-bench leaves:
#     `kept run --store a.db --write -e 'set ID title …'`, `kept sync --store a.db`,
#     `kept sync --store b.db` (median of PROC_ROUNDS).
#   the peer, ../shared/bench/peers/tc_sync_bench.py: TaskChampion 3 replicas syncing through
#     its local sync server (files), in one Python process.
# The server is a throwaway cluster made here (initdb as `postgres`, trust logins, a free port),
# stopped and removed on exit, failure or Ctrl-C. Prints figures; never fails on a time.
#   SIZES="1000 10000 100000" (add 1000000 for the million; the peer's 100k takes minutes)
#   ROUNDS=20 (the peer: PEER_ROUNDS=5, its own default), PROC_ROUNDS=7
#   PEER_MAX=100000: the peer runs at sizes up to this (its one change costs 20 s at 100k);
#   NO_PEER=1 skips it
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
RES="$ROOT/bench/results"
SIZES="${SIZES:-1000 10000 100000}"
ROUNDS="${ROUNDS:-20}"
PEER_ROUNDS="${PEER_ROUNDS:-5}"
PROC_ROUNDS="${PROC_ROUNDS:-7}"
PEER_MAX="${PEER_MAX:-100000}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$RES"

echo "== build (release)"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept-bench >/dev/null 2>&1 \
  && swift build -c release --static-swift-stdlib --product kept >/dev/null 2>&1) || {
  echo "the release build failed: run swift build -c release --static-swift-stdlib --product kept-bench" >&2; exit 1; }
BENCH="$ROOT/.build/release/kept-bench"
KEPT="$ROOT/.build/release/kept"

# The peer: TaskChampion's Python bindings from PyPI when missing.
if [ -z "${NO_PEER:-}" ] && [ ! -f "$PEERS/tc_sync_bench.py" ]; then
  echo "no $PEERS/tc_sync_bench.py (PEERS_DIR=…): Kept alone"
  NO_PEER=1
fi
if [ -z "${NO_PEER:-}" ] && ! "$PY" -c 'import taskchampion' 2>/dev/null; then
  "$PY" -m pip install --quiet taskchampion3-py-dev
fi

# PostgreSQL's programs: the newest /usr/lib/postgresql/N/bin with initdb and pg_ctl.
PGBIN=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n); do
  [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && PGBIN="$d"
done
[ -n "$PGBIN" ] || { echo "PostgreSQL is not under /usr/lib/postgresql/*/bin: run make deps" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# A short folder: the server's Unix socket path may not pass 107 bytes.
TMP="$(mktemp -d /tmp/kept-sync-XXXXXX)"
chmod 755 "$TMP"
mkdir -p "$TMP/pg/sock" "$TMP/stores" "$TMP/peer"
[ "$(id -u)" = 0 ] && chown -R postgres:postgres "$TMP/pg"
STARTED=""
cleanup() {
  if [ -n "$STARTED" ]; then
    as_pg "$PGBIN/pg_ctl" -D "$TMP/pg/data" -m fast -w stop >/dev/null 2>&1 \
      || as_pg "$PGBIN/pg_ctl" -D "$TMP/pg/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== server: PostgreSQL $("$PGBIN/pg_ctl" --version | awk '{print $3}') on 127.0.0.1, fsync on"
as_pg "$PGBIN/initdb" -D "$TMP/pg/data" -A trust -U postgres -E UTF8 --locale=C >/dev/null
PORT=""
for _ in 1 2 3 4; do
  p=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if as_pg "$PGBIN/pg_ctl" -D "$TMP/pg/data" -l "$TMP/pg/log" -w -t 60 \
       -o "-k $TMP/pg/sock -p $p -c listen_addresses=127.0.0.1" start >/dev/null; then
    PORT="$p"; STARTED=1; break
  fi
done
[ -n "$PORT" ] || { echo "the server did not start:" >&2; tail -20 "$TMP/pg/log" >&2; exit 1; }
as_pg "$PGBIN/psql" -X -q -h "$TMP/pg/sock" -p "$PORT" -U postgres -d postgres -c 'CREATE DATABASE kept' >/dev/null
echo "   fsync $(as_pg "$PGBIN/psql" -X -A -t -h "$TMP/pg/sock" -p "$PORT" -U postgres -d kept -c 'SHOW fsync'), synchronous_commit $(as_pg "$PGBIN/psql" -X -A -t -h "$TMP/pg/sock" -p "$PORT" -U postgres -d kept -c 'SHOW synchronous_commit')"
SERVER="host=127.0.0.1 port=$PORT dbname=kept user=postgres"
"$KEPT" account init --server "$SERVER" >/dev/null
for n in $SIZES; do "$KEPT" account create "bench$n" --server "$SERVER" >/dev/null; done

# This run's lines, appended to the day's file at the end.
OUT="$RES/sync-$(date -u +%Y-%m-%d).jsonl"
RUN="$TMP/run.jsonl"
: > "$RUN"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1 /proc/loadavg), $(git -C "$ROOT" rev-parse --short HEAD), ROUNDS=$ROUNDS, PEER_ROUNDS=$PEER_ROUNDS, PROC_ROUNDS=$PROC_ROUNDS"
for n in $SIZES; do
  conn="host=127.0.0.1 port=$PORT dbname=kept user=bench$n"
  dir="$TMP/stores/$n"
  echo "-- $n tasks: kept-bench sync"
  line=$("$BENCH" sync "$conn" "$n" "$ROUNDS" "$dir")
  echo "   $line"
  # Whole processes on the stores it left: an edit on A, A's sync, B's sync.
  ids=$("$PY" -c 'import json,sys; r=json.loads(sys.argv[1]); print(r["a_id"], r["b_id"])' "$line")
  aid=${ids% *}
  procs=$("$PY" - "$KEPT" "$dir" "$aid" "$PROC_ROUNDS" <<'PYEOF'
import json, statistics, subprocess, sys, time
kept, d, aid, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
def run(*args):
    t = time.perf_counter()
    r = subprocess.run([kept, *args], capture_output=True, text=True)
    dt = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit(f"kept {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return dt, r.stdout
edit, push, pull, total = [], [], [], []
for k in range(rounds + 1):
    e, _ = run("run", "--store", f"{d}/a.db", "--write", "-e", f'set {aid} title "process edit {k}"')
    p, _ = run("sync", "--store", f"{d}/a.db", "--json")
    q, out = run("sync", "--store", f"{d}/b.db", "--json")
    if json.loads(out).get("received") != 1:
        sys.exit(f"B's sync did not take the edit: {out.strip()}")
    if k == 0:
        continue  # a warm-up: the page cache, the server's plans
    edit.append(e); push.append(p); pull.append(q); total.append(e + p + q)
ms = lambda xs: round(statistics.median(xs) * 1000, 1)
print(json.dumps({"edit_ms": ms(edit), "sync_a_ms": ms(push), "sync_b_ms": ms(pull),
                  "total_ms": ms(total), "min_total_ms": round(min(total) * 1000, 1), "rounds": rounds}))
PYEOF
)
  echo "   processes: $procs"
  rm -rf "$dir"
  peer='{}'
  if [ -z "${NO_PEER:-}" ] && [ "$n" -le "$PEER_MAX" ]; then
    echo "-- $n tasks: TaskChampion (tc_sync_bench.py)"
    cp "$PEERS/tc_sync_bench.py" "$TMP/peer/"
    # The peer makes its replicas and server under TMPDIR; they go with this folder.
    peer=$(cd "$TMP/peer" && TMPDIR="$TMP/peer" "$PY" tc_sync_bench.py -n "$n" --rounds "$PEER_ROUNDS" | tail -1)
    rm -rf "$TMP"/peer/tc-sync-*
    echo "   $peer"
  fi
  "$PY" -c 'import json,sys; print(json.dumps({"tasks": int(sys.argv[1]), "date": sys.argv[2], "kept": json.loads(sys.argv[3]), "kept_processes": json.loads(sys.argv[4]), "taskchampion": json.loads(sys.argv[5])}))' \
    "$n" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$line" "$procs" "$peer" >> "$RUN"
done

echo
echo "== sync, Kept (PostgreSQL on 127.0.0.1, fsync on) beside TaskChampion 3 (local server: files)"
cat "$RUN" >> "$OUT"
"$PY" - "$RUN" "$OUT" <<'PYEOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def f(x, nd=2):
    return "–" if x is None else f"{x:,.{nd}f}"
print("| tasks | first pull s Kept / TC | push all s Kept / TC | one change push+pull ms, in process, Kept / TC | "
      "one change as processes ms, Kept | ratio TC/Kept: first pull, one change |")
print("|---:|---:|---:|---:|---:|---:|")
for r in rows:
    k, p, t = r["kept"], r["kept_processes"], r["taskchampion"]
    kp, tp = k["first_pull_new_store_s"], t.get("first_pull_new_replica_s")
    ko, to = k["one_change_push_pull_ms"], t.get("one_change_push_pull_ms")
    ratio = lambda a, b: "–" if a is None or not b else f"{a / b:,.0f}×"
    print(f"| {r['tasks']:,} | {f(kp, 3)} / {f(tp, 3)} | {f(k['push_all_s'], 3)} / {f(t.get('push_all_s'), 3)} "
          f"| {f(ko, 1)} / {f(to, 1)} | {f(p['total_ms'], 1)} (edit {f(p['edit_ms'], 1)}, sync A {f(p['sync_a_ms'], 1)}, sync B {f(p['sync_b_ms'], 1)}) "
          f"| {ratio(tp, kp)}, {ratio(to, ko)} |")
print("\nWhere Kept's time goes (ms): in the calls to the server (the round trip, the server's work, and the"
      "\nclient's writing and reading of their JSON), in the stores' commits, and in the engine")
print("| tasks | phase | server push | server pull | commit | engine |")
print("|---:|---|---:|---:|---:|---:|")
for r in rows:
    k = r["kept"]
    for name, key in (("push all", "split_push_all"), ("first pull", "split_first_pull"), ("one change (median round)", "split_one_change")):
        x = k.get(key)
        if x:
            print(f"| {r['tasks']:,} | {name} | {x['server_push_ms']:,.1f} | {x['server_pull_ms']:,.1f} | {x['commit_ms']:,.1f} | {x['engine_ms']:,.1f} |")
print()
for r in rows:
    k, t = r["kept"], r["taskchampion"]
    print(f"{r['tasks']:,}: concurrent edit, Kept A {k['concurrent_edit']['A']} B {k['concurrent_edit']['B']}; "
          f"TC A {t.get('concurrent_edit', {}).get('A')} B {t.get('concurrent_edit', {}).get('B')}")
print(f"\nraw (appended): {sys.argv[2]}")
PYEOF
