#!/usr/bin/env bash
# Store benchmark: how long a whole `kept` process takes to load a store of 1k / 100k tasks and
# list it, next to the process start-up floor and to Python just parsing the same tasks.
#
#   bash bench/store_bench.sh            # from the repo root (or: cd bench && ./store_bench.sh)
#   RUNS=20 RUNS_SMALL=50 bash bench/store_bench.sh
#
# Environment:
#   RUNS        timed runs per 100k command        (default 10; plus 1 warm-up)
#   RUNS_SMALL  timed runs per start-up/1k command (default 30; plus 1 warm-up)
#   PEERS_DIR   the peer-baseline folder with gen_tasks.py and results/summary.md
#               (default: ../shared/bench/peers from the repo root)
#   KEPT        a kept binary to time instead of .build/release/kept (then nothing is built)
#   NO_HYPERFINE=1  use the built-in timing loop even if hyperfine is installed
#
# It prints a table and writes bench/results/. It never fails on a time: timings are only
# printed. It fails (non-zero) only when something cannot run: the build, the generator, the
# converter, or kept rejecting a store.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

RUNS="${RUNS:-10}"
RUNS_SMALL="${RUNS_SMALL:-30}"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
[[ -d "$PEERS_DIR" ]] && PEERS_DIR="$(cd "$PEERS_DIR" && pwd)"
DATA=bench/data
RESULTS=bench/results
NOW=2026-06-15T09:00
ZONE=Europe/Berlin
SIZES=(1k 100k)
declare -A COUNT=([1k]=1000 [100k]=100000)

mkdir -p "$DATA" "$RESULTS"
say() { printf '== %s\n' "$*" >&2; }

# ---- 1. inputs: generator JSONL (from the peers' generator, run in place) ----------------------
need_gen=0
for s in "${SIZES[@]}"; do [[ -s "$DATA/tasks-$s.jsonl" ]] || need_gen=1; done
if (( need_gen )); then
  [[ -f "$PEERS_DIR/gen_tasks.py" ]] || { echo "error: $PEERS_DIR/gen_tasks.py not found (set PEERS_DIR)" >&2; exit 1; }
  say "generating tasks-1k.jsonl and tasks-100k.jsonl with $PEERS_DIR/gen_tasks.py"
  (cd "$PEERS_DIR" && python3 gen_tasks.py -n 1000 -n 100000 --out "$ROOT/$DATA")
fi

# ---- 2. kept stores ----------------------------------------------------------------------------
for s in "${SIZES[@]}"; do
  src="$DATA/tasks-$s.jsonl" dst="$DATA/store-$s.json"
  if [[ ! -s "$dst" || "$src" -nt "$dst" || bench/convert_store.py -nt "$dst" ]]; then
    say "converting $src -> $dst"
    python3 bench/convert_store.py "$src" "$dst" --zone "$ZONE"
  fi
done

# ---- 3. the release binary ---------------------------------------------------------------------
if [[ -n "${KEPT:-}" ]]; then
  say "timing KEPT=$KEPT (not building)"
else
  KEPT=.build/release/kept
  if [[ ! -x "$KEPT" ]] || [[ -n "$(find Sources Package.swift -newer "$KEPT" -print -quit 2>/dev/null)" ]]; then
    say "building: swift build -c release --static-swift-stdlib"
    if ! swift build -c release --static-swift-stdlib >&2; then
      echo "error: swift build -c release --static-swift-stdlib failed (if someone is mid-edit in Sources/, retry later)" >&2
      exit 1
    fi
  fi
fi
KEPT_VERSION="$("$KEPT" --version)"
# The real interpreter, not a pyenv/asdf shim (a shim is a shell script that adds ~100 ms).
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"

# ---- 4. correctness gate: each store loads (exit 0) and lists its open tasks ------------------
declare -A OPEN
for s in "${SIZES[@]}"; do
  store="$DATA/store-$s.json"
  expected=$(python3 -c 'import json,sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["status"]=="pending"))' "$DATA/tasks-$s.jsonl")
  rc=0
  "$KEPT" run --store "$store" --now "$NOW" --zone "$ZONE" -e 'list' >"$RESULTS/list-$s.out" 2>"$RESULTS/list-$s.stderr" || rc=$?
  out=$(head -1 "$RESULTS/list-$s.out")
  if (( rc != 0 )); then
    echo "error: kept rejected $store (exit $rc):" >&2
    cat "$RESULTS/list-$s.stderr" >&2
    exit 1
  fi
  if [[ "$out" != "All $expected tasks" ]]; then
    echo "warning: $store: kept printed '$out', expected 'All $expected tasks'" >&2
  fi
  OPEN[$s]="$out"
  say "$store loads: $out (expected $expected open)"
done

# ---- 5. timing ----------------------------------------------------------------------------------
# Each group is timed in one go (hyperfine: one invocation per group, so the commands of a size
# run side by side under the same machine conditions). Names are "label" and the store size is
# the group's.
q() { printf '%q' "$1"; }
PYPARSE='import json,sys; [json.loads(l) for l in open(sys.argv[1])]'

group_names=() group_cmds=()
add() { group_names+=("$1"); group_cmds+=("$2"); }

HF=""
if [[ -z "${NO_HYPERFINE:-}" ]] && command -v hyperfine >/dev/null 2>&1; then HF=hyperfine; fi

# Fallback: median and min of N runs, timed with date +%s%N around the whole process.
loop_time() {  # loop_time OUT.json RUNS name cmd [name cmd]...
  local out=$1 runs=$2; shift 2
  local json='{"results":[' first=1
  while (( $# )); do
    local name=$1 cmd=$2; shift 2
    eval "$cmd" >/dev/null 2>&1 || { echo "error: failed: $cmd" >&2; return 1; }   # warm-up
    local times=() i t0 t1
    for (( i = 0; i < runs; i++ )); do
      t0=$(date +%s%N)
      eval "$cmd" >/dev/null 2>&1
      t1=$(date +%s%N)
      times+=("$(( t1 - t0 ))")
    done
    local arr
    arr=$(IFS=,; echo "${times[*]}")
    (( first )) || json+=','
    first=0
    json+="{\"command\":\"$name\",\"times_ns\":[$arr]}"
  done
  json+=']}'
  python3 - "$out" "$json" <<'PY'
import json, statistics, sys
d = json.loads(sys.argv[2])
for r in d["results"]:
    ts = [t / 1e9 for t in r.pop("times_ns")]
    r.update(times=ts, median=statistics.median(ts), min=min(ts), max=max(ts),
             mean=statistics.fmean(ts), stddev=statistics.stdev(ts) if len(ts) > 1 else 0.0)
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
}

run_group() {  # run_group TAG RUNS
  local tag=$1 runs=$2 out="$RESULTS/store-bench-$1.json"
  say "timing group $tag (${#group_names[@]} commands, $runs runs + 1 warm-up, ${HF:-fallback loop})"
  if [[ -n "$HF" ]]; then
    local args=() i
    for i in "${!group_names[@]}"; do args+=(-n "${group_names[$i]}" "${group_cmds[$i]}"); done
    # -N: no intermediate shell, so a 1 ms start-up is not swamped by sh's own start-up.
    hyperfine -N --warmup 1 --runs "$runs" --style basic --export-json "$out" "${args[@]}" >&2
  else
    local args=() i
    for i in "${!group_names[@]}"; do args+=("${group_names[$i]}" "${group_cmds[$i]}"); done
    loop_time "$out" "$runs" "${args[@]}"
  fi
  group_names=() group_cmds=()
}

add "kept --version" "$(q "$KEPT") --version"
add "python3 -c pass" "$(q "$PYTHON") -c pass"
run_group startup "$RUNS_SMALL"

for s in "${SIZES[@]}"; do
  store="$DATA/store-$s.json" jsonl="$DATA/tasks-$s.jsonl"
  add "kept run -e list"  "$(q "$KEPT") run --store $(q "$store") --now $NOW --zone $ZONE -e list"
  add "kept run -e now"   "$(q "$KEPT") run --store $(q "$store") --now $NOW --zone $ZONE -e now"
  add "python3 json.loads per line (JSONL)" "$(q "$PYTHON") -c $(q "$PYPARSE") $(q "$jsonl")"
  if [[ $s == 1k ]]; then run_group "$s" "$RUNS_SMALL"; else run_group "$s" "$RUNS"; fi
done

# ---- 6. report ----------------------------------------------------------------------------------
SUMMARY="$PEERS_DIR/results/summary.md"
TASK_NOTE="task (Taskwarrior) is not installed here; not run"
command -v task >/dev/null 2>&1 && TASK_NOTE="task is installed ($(task --version 2>/dev/null || echo '?')); not run here (the peers' tw_bench.sh times it)"

python3 - "$RESULTS" "$SUMMARY" "$KEPT_VERSION" "${HF:-fallback loop (date +%s%N)}" "$TASK_NOTE" \
          "${OPEN[1k]}" "${OPEN[100k]}" "$DATA" <<'PY'
import datetime, json, os, platform, re, sys
res_dir, summary, kept_version, timer, task_note, open1k, open100k, data = sys.argv[1:9]
N = {"1k": 1000, "100k": 100000}

def load(tag):
    with open(os.path.join(res_dir, f"store-bench-{tag}.json")) as f:
        return {r["command"]: r for r in json.load(f)["results"]}

groups = {"startup": load("startup"), "1k": load("1k"), "100k": load("100k")}
rows = []   # (command, size, median ms, min ms, µs/task)
def row(cmd, size, r):
    med, mn = r["median"] * 1e3, r["min"] * 1e3
    per = f"{med * 1e3 / N[size]:.2f}" if size == "100k" else ""
    rows.append((cmd, size, f"{med:.1f}", f"{mn:.1f}", per))

for cmd, r in groups["startup"].items():
    row(cmd, "–", r)
for size in ("1k", "100k"):
    for cmd, r in groups[size].items():
        row(cmd, size, r)

# Taskwarrior figures, read from the peers' summary.md (first table: Taskwarrior medians).
tw = {}
def cell_ms(c):
    m = re.match(r"\s*([0-9][0-9.,]*)", c)
    return float(m.group(1).replace(",", "")) if m else None
try:
    lines = open(summary, encoding="utf-8").read().splitlines()
    header = None
    for ln in lines:
        if ln.startswith("| command |"):
            header = [c.strip() for c in ln.strip("|").split("|")]
            continue
        if header and ln.startswith("|"):
            cells = [c.strip() for c in ln.strip("|").split("|")]
            name = cells[0]
            if name in ("a_project_tag_due_count", "0_startup_empty_store") and name not in tw:
                tw[name] = {col: cells[i] for i, col in enumerate(header) if i < len(cells)}
        elif header and not ln.strip():
            if tw: break
except OSError:
    pass
for name, label in (("0_startup_empty_store", "Taskwarrior start-up, empty store [summary.md]"),
                    ("a_project_tag_due_count", "Taskwarrior a project+tag+due count [summary.md]")):
    if name not in tw:
        rows.append((label + " (not found)", "–", "", "", ""))
        continue
    for size in ("1k", "100k"):
        ms = cell_ms(tw[name].get(size, ""))
        per = f"{ms * 1e3 / N[size]:.2f}" if (size == "100k" and ms is not None and name[0] == "a") else ""
        rows.append((label, size, f"{ms:.1f}" if ms is not None else "?", "–", per))

hdr = ("command", "store", "median ms", "min ms", "µs/task @100k")
w = [max(len(str(x[i])) for x in rows + [hdr]) for i in range(5)]
def fmt(x):
    return "  ".join(str(x[i]).ljust(w[i]) if i < 2 else str(x[i]).rjust(w[i]) for i in range(5))
out = []
now = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
out.append(f"kept store benchmark  {now}  {kept_version}  timer: {timer}")
out.append(f"host: {os.cpu_count()} cpu, {platform.platform()}, python {platform.python_version()} ({sys.executable})")
out.append("")
out.append(fmt(hdr))
out.append("  ".join("-" * x for x in w))
out += [fmt(r) for r in rows]
out.append("")
g = groups
lst, nw, ver = g["100k"]["kept run -e list"]["median"], g["100k"]["kept run -e now"]["median"], g["startup"]["kept --version"]["median"]
py = g["100k"]["python3 json.loads per line (JSONL)"]["median"]
out.append(f"100k split (medians): start-up {ver*1e3:.1f} ms; load (now - --version) {(nw-ver)*1e3:.0f} ms "
           f"= {(nw-ver)*1e6/1e5:.2f} µs/task; list (list - now) {(lst-nw)*1e3:.0f} ms = {(lst-nw)*1e6/1e5:.2f} µs/task")
pp = g["startup"]["python3 -c pass"]["median"]
out.append(f"100k python3: start-up {pp*1e3:.1f} ms; json.loads of every line {(py-pp)*1e3:.0f} ms = {(py-pp)*1e6/1e5:.2f} µs/task")
out.append(f"kept list output: 1k '{open1k}', 100k '{open100k}'")
out.append("")
out.append("files:")
for fn in ("tasks-1k.jsonl", "store-1k.json", "tasks-100k.jsonl", "store-100k.json"):
    p = os.path.join(data, fn)
    if os.path.exists(p):
        b = os.path.getsize(p)
        out.append(f"  {p:<28} {b:>12,} bytes  {b/1e6:8.2f} MB")
out.append("")
out.append(f"Taskwarrior figures: {summary} (Taskwarrior 2.6.2 on the same kind of VM,")
out.append("  hyperfine medians; its 'a' query filters project+tag+due and counts; kept lists everything).")
out.append(f"  {task_note}.")
out.append("")
text = "\n".join(out) + "\n"
sys.stdout.write(text)
with open(os.path.join(res_dir, "store-bench-summary.txt"), "w", encoding="utf-8") as f:
    f.write(text)
PY
say "results: $RESULTS/store-bench-{startup,1k,100k}.json, $RESULTS/store-bench-summary.txt"
