#!/usr/bin/env bash
# Sync under load (issue 31): many accounts on one PostgreSQL server, many clients at once.
#   1. seed: ACCOUNTS accounts of TASKS tasks each (kept-bench sync-load seed; the first account
#      through Kept's own create and push, the others copied from it by SQL as the superuser,
#      then checked against it).
#   2. for each count in CLIENTS: that many clients, each a thread of one kept-bench process
#      with its own connection and its own engine on an in-memory store, half of them alone on
#      an account and the rest two devices to an account; each pulls its account, then for
#      SYNC_LOAD_SECONDS makes random changes and syncs after each one (kept-bench sync-load
#      run). Each run uses accounts no run before it touched.
#   Afterwards each run checks every client's store against the server and that no change was
#   lost; a run that finds a difference or a loss makes this script exit 1.
# The server is a throwaway cluster made here (initdb as `postgres`, trust logins, a free port
# on 127.0.0.1, fsync on), stopped and removed on exit, failure or Ctrl-C. The clients reach it
# over TCP on loopback, as devices on a network would; the two share this machine's cores.
# Each run also samples what the clients' backends wait for and whether any waits for another
# account's (pg_stat_activity, pg_blocking_pids, as the superuser), the WAL written, and the
# mean time in each of Kept's functions (track_functions = pl).
#   ACCOUNTS=1000 TASKS=1000 CLIENTS="10 25 50" SYNC_LOAD_SECONDS=60 SEED=31
#   KEPT_BENCH=path: time that kept-bench (another build's) instead of building this checkout's
#   NOTIFY_MODE=in-push (schema 2's kept.push notifies in its transaction), none (kept.push
#   made again on this server without its pg_notify) or after (without it, and each client
#   notifies in a transaction of its own after a push that changed something)
#   SYNCHRONOUS_COMMIT=off: commits do not wait for the WAL to reach the disk (a crash may lose
#   the last moments; for seeing what limits the server once the disk does not)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
RES="$ROOT/bench/results"
ACCOUNTS="${ACCOUNTS:-1000}"
TASKS="${TASKS:-1000}"
CLIENTS="${CLIENTS:-10 25 50}"
SECONDS_EACH="${SYNC_LOAD_SECONDS:-60}"
SEED="${SEED:-31}"
SYNCHRONOUS_COMMIT="${SYNCHRONOUS_COMMIT:-on}"
NOTIFY_MODE="${NOTIFY_MODE:-in-push}"
PY="$(python3 -c 'import sys; print(sys.executable)')"
mkdir -p "$RES"

# Each run needs an account for each lone client and one for each pair.
need=1
for n in $CLIENTS; do need=$((need + n / 2 + (n - n / 2 + 1) / 2)); done
[ "$need" -le "$ACCOUNTS" ] || { echo "CLIENTS=\"$CLIENTS\" needs $need accounts; ACCOUNTS is $ACCOUNTS" >&2; exit 2; }

if [ -n "${KEPT_BENCH:-}" ]; then
  BENCH="$KEPT_BENCH"
else
  echo "== build (release)"
  (cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept-bench >/dev/null 2>&1) || {
    echo "the release build failed: run swift build -c release --static-swift-stdlib --product kept-bench" >&2; exit 1; }
  BENCH="$ROOT/.build/release/kept-bench"
fi

# PostgreSQL's programs: the newest /usr/lib/postgresql/N/bin with initdb and pg_ctl.
PGBIN=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n); do
  [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && PGBIN="$d"
done
[ -n "$PGBIN" ] || { echo "PostgreSQL is not under /usr/lib/postgresql/*/bin: run make deps" >&2; exit 1; }
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# A short folder: the server's Unix socket path may not pass 107 bytes.
TMP="$(mktemp -d /tmp/kept-load-XXXXXX)"
chmod 755 "$TMP"
mkdir -p "$TMP/pg/sock"
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

echo "== server: PostgreSQL $("$PGBIN/pg_ctl" --version | awk '{print $3}') on 127.0.0.1, fsync on, synchronous_commit $SYNCHRONOUS_COMMIT, max_connections 200"
as_pg "$PGBIN/initdb" -D "$TMP/pg/data" -A trust -U postgres -E UTF8 --locale=C >/dev/null
PORT=""
for _ in 1 2 3 4; do
  p=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  if as_pg "$PGBIN/pg_ctl" -D "$TMP/pg/data" -l "$TMP/pg/log" -w -t 60 \
       -o "-k $TMP/pg/sock -p $p -c listen_addresses=127.0.0.1 -c max_connections=200 -c synchronous_commit=$SYNCHRONOUS_COMMIT -c track_functions=pl" start >/dev/null; then
    PORT="$p"; STARTED=1; break
  fi
done
[ -n "$PORT" ] || { echo "the server did not start:" >&2; tail -20 "$TMP/pg/log" >&2; exit 1; }
as_pg "$PGBIN/psql" -X -q -h "$TMP/pg/sock" -p "$PORT" -U postgres -d postgres -c 'CREATE DATABASE kept' >/dev/null
SUPER="host=$TMP/pg/sock port=$PORT dbname=kept user=postgres"
BASE="host=127.0.0.1 port=$PORT dbname=kept"

OUT="$RES/sync-load-$(date -u +%Y-%m-%d).jsonl"
RUN="$TMP/run.jsonl"
: > "$RUN"
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1 /proc/loadavg), $(git -C "$ROOT" rev-parse --short HEAD), $(nproc) cores"
echo "-- seed: $ACCOUNTS accounts x $TASKS tasks"
line=$("$BENCH" sync-load seed "$SUPER" "$BASE" "$ACCOUNTS" "$TASKS" "$NOTIFY_MODE")
echo "   $line"
echo "$line" >> "$RUN"
echo "   schema version $(as_pg "$PGBIN/psql" -X -A -t -h "$TMP/pg/sock" -p "$PORT" -U postgres -d kept -c 'SELECT schema_version FROM kept.meta'), database $(as_pg "$PGBIN/psql" -X -A -t -h "$TMP/pg/sock" -p "$PORT" -U postgres -d kept -c "SELECT pg_size_pretty(pg_database_size('kept'))")"

failed=0
first=1
for n in $CLIENTS; do
  echo "-- $n clients, $SECONDS_EACH s, accounts from $(printf 'load%04d' "$first")"
  if line=$("$BENCH" sync-load run "$BASE" "$n" "$SECONDS_EACH" "$first" "$SEED" "$SUPER" "$NOTIFY_MODE"); then :; else
    echo "   the run with $n clients FAILED its checks" >&2
    failed=1
  fi
  echo "   $line"
  [ -n "$line" ] && echo "$line" >> "$RUN"
  first=$((first + n / 2 + (n - n / 2 + 1) / 2))
done

# This run's lines, with the date and commit, appended to the day's file.
"$PY" - "$RUN" "$OUT" "$(git -C "$ROOT" rev-parse --short HEAD)" "$SYNCHRONOUS_COMMIT" <<'PYEOF'
import json, sys, datetime
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
with open(sys.argv[2], "a") as out:
    for r in rows:
        out.write(json.dumps({"date": stamp, "commit": sys.argv[3], "synchronous_commit": sys.argv[4], **r}) + "\n")
seed = [r for r in rows if r.get("step") == "seed"]
runs = [r for r in rows if r.get("step") == "run"]
if seed:
    s = seed[0]
    print(f"\n== seed: schema {s.get('schema', 1)}, notify {s.get('notify', 'none')}: {s['accounts']:,} accounts x {s['tasks_per_account']:,} tasks = {int(s['items_on_server']):,} items in {s['seed_s']:.1f} s "
          f"(roles {s['roles_and_rows_s']:.1f} s, items {s['copy_items_s']:.1f} s, pushes {s['copy_pushes_s']:.1f} s, "
          f"vacuum {s['vacuum_analyze_s']:.1f} s); through the engine one account took "
          f"{s['create_first_account_s'] + s['template_link_push_pull_s']:.2f} s (about {s['through_engine_estimate_s']:,} s for all)")
print("\n| clients | accounts (pairs) | s | syncs | syncs/s | pushes | pulls | changes sent | p50 ms | p99 ms | max ms "
      "| server CPU s (% of all cores) | client CPU s (%) | server CPU ms / sync | equal | lost |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
for r in runs:
    print(f"| {r['clients']} | {r['accounts']} ({r['pairs']}) | {r['duration_s']:.0f} | {r['syncs']:,} | {r['syncs_per_s']:,.0f} "
          f"| {r['pushes']:,} | {r['pulls']:,} | {r['changes_sent']:,} | {r['sync_p50_ms']:.1f} | {r['sync_p99_ms']:.1f} "
          f"| {r['sync_max_ms']:,.0f} | {r['server_cpu_s']:.1f} ({r['server_cpu_pct']:.0f}%) | {r['client_cpu_s']:.1f} ({r['client_cpu_pct']:.0f}%) "
          f"| {r['server_cpu_ms_per_sync']:.2f} | {r['equal']} | {r['lost']} |")
print("\n| clients | others' CPU % | in kept.push / kept.pull, mean ms | WAL bytes / sync | backends seen waiting for (share of samples) | blocked by the same account / by another |")
print("|---:|---:|---:|---:|---|---:|")
for r in runs:
    waits = ", ".join(f"{k} {v:.0%}" for k, v in r.get("waits", {}).items())
    fn = r.get("functions", {})
    inside = f"{fn.get('push', {}).get('mean_ms', 0):.3f} / {fn.get('pull', {}).get('mean_ms', 0):.3f}"
    print(f"| {r['clients']} | {r['others_cpu_pct']} | {inside} | {r.get('wal_bytes_per_sync', '-'):,} | {waits} "
          f"| {r.get('blocked_by_same_account', '-')} / {r.get('blocked_by_other_account', '-')} "
          f"{' '.join(f'({k} {v})' for k, v in r.get('blocked_by_other_account_waiting_for', {}).items())} |")
print(f"\nraw (appended): {sys.argv[2]}")
PYEOF
if [ "$failed" = 1 ]; then
  echo "lost or unequal: see the runs above" >&2
  exit 1
fi
echo "lost: 0"
