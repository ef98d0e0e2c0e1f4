# Shared by tw_compare.sh and plan_compare.sh (sourced, not run): the tools they need, the
# release binary, Taskwarrior as the peers' tw_bench.sh runs it (their taskrc, a private data
# folder under $TW_ROOT, libfaketime at 2026-06-15 09:00 Europe/Berlin), and `tw_store SIZE`,
# which makes the generated store of that size for both (only when missing) and sets D, TW
# and K. The caller sets TW_ROOT first. Skips (exit 0) without task, hyperfine or faketime.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
RES="$ROOT/bench/results"
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

tw_store() {
  local size="$1"
  local n=$(( ${size%k} * 1000 ))
  if [ ! -f "$DATA/tasks-$size.tw.json" ] || [ ! -f "$DATA/tasks-$size.jsonl" ] || [ ! -f "$DATA/manifest-$size.json" ]; then
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
}

# `interleaved OUT.json NAME CMD [NAME CMD ...]`: times the commands in $ROUNDS rounds (default
# 5) of one hyperfine call each, every command a warm-up and a few runs per round, and writes
# OUT.json with each command's times from all rounds and their median, min and mean. One long
# hyperfine call runs all of one command before the next, so a slow spell of this shared VM
# lands on one side of a ratio; rounds spread it over both. The warm-up in every round matters:
# the first run after a Taskwarrior run is 20-50 ms slower whatever it is (the kernel is still
# settling Taskwarrior's memory), which would fall on kept alone. At least $RUNS runs per
# command in all.
interleaved() {
  local out="$1"; shift
  local rounds="${ROUNDS:-5}"
  local per=$(( (RUNS + rounds - 1) / rounds )); [ "$per" -ge 2 ] || per=2
  local args=() parts=() r
  while [ "$#" -ge 2 ]; do args+=(-n "$1" "$2"); shift 2; done
  for r in $(seq "$rounds"); do
    hyperfine --runs "$per" --warmup 1 --style none --export-json "$out.round$r" "${args[@]}" >/dev/null
    parts+=("$out.round$r")
  done
  "$PY" - "$out" "${parts[@]}" <<'PYEOF'
import json, statistics, sys
merged = {}
for part in sys.argv[2:]:
    for x in json.load(open(part))["results"]:
        merged.setdefault(x["command"], []).extend(x["times"])
results = [{"command": c, "times": t, "median": statistics.median(t), "min": min(t), "mean": statistics.mean(t)}
           for c, t in merged.items()]
json.dump({"results": results, "rounds": len(sys.argv) - 2}, open(sys.argv[1], "w"), indent=1)
PYEOF
  rm -f "${parts[@]}"
}
