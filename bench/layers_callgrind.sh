#!/usr/bin/env bash
# Instructions of whole `kept` processes, two builds side by side: the load, filter, plan,
# import and SQLite paths at 100k tasks, and instructions per next occurrence of three rules.
# Counted by `valgrind --tool=callgrind` over every thread; counts do not depend on the
# machine's load, so two builds compare on a shared machine. Prints a table; never fails on
# the figures. Written for issue 29 (the layers must cost nothing a user sees). No regex
# filter: at 100k it runs on two threads, which valgrind serialises until the regex budget
# runs out, so its count changes from run to run.
# Usage: bash bench/layers_callgrind.sh BEFORE_ROOT [AFTER_ROOT]
#   each ROOT is a checkout with release builds of kept and kept-bench in .build/release
#   (swift build -c release --static-swift-stdlib; and --product kept-bench); AFTER_ROOT
#   defaults to this checkout. Data: bench/data/store-100k.json and tasks-100k.tw.json
#   (bash bench/store_bench.sh makes them).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BEFORE="${1:?usage: layers_callgrind.sh BEFORE_ROOT [AFTER_ROOT]}"
AFTER="${2:-$ROOT}"
DATA="$ROOT/bench/data"
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)"; exit 0; }
for f in store-100k.json tasks-100k.tw.json; do
  [ -f "$DATA/$f" ] || { echo "missing $DATA/$f: run bench/store_bench.sh first"; exit 0; }
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A 20,000-record slice of the Taskwarrior file, and a SQLite copy of the 100k store.
python3 - "$DATA/tasks-100k.tw.json" "$work/tw-20k.json" <<'PY'
import json, sys
records = json.load(open(sys.argv[1]))
json.dump(records[:20000], open(sys.argv[2], "w"))
PY
"$AFTER/.build/release/kept" convert "$DATA/store-100k.json" "$work/store-100k.db" >/dev/null

CLOCK=(--now 2026-06-15T09:00 --zone Europe/Berlin)

# Instructions of one command, in millions.
count() {
  local out="$work/cg.out"
  rm -f "$out"
  valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>"$work/err" || true
  awk '/^summary:/ { printf "%.1f", $2 / 1e6 }' "$out"
}

# Runs a labelled command with each build's kept; `@KEPT@` is replaced, `@WORK@` is a fresh folder.
row() {
  local label="$1"; shift
  local figures=()
  for root in "$BEFORE" "$AFTER"; do
    rm -rf "$work/run" && mkdir -p "$work/run"
    cp "$work/store-100k.db" "$work/run/store.db"
    local args=()
    for a in "$@"; do a="${a//@KEPT@/$root/.build/release/kept}"; args+=("${a//@WORK@/$work/run}"); done
    figures+=("$(count "${args[@]}")")
  done
  awk -v l="$label" -v a="${figures[0]}" -v b="${figures[1]}" \
    'BEGIN { printf "| %s | %s M | %s M | %+.1f%% |\n", l, a, b, (b - a) / a * 100 }'
}

# Instructions per next occurrence: a run with CALLS calls minus a run with none.
rule_row() {
  local anchor="$1" rule="$2" figures=()
  for root in "$BEFORE" "$AFTER"; do
    local bin="$root/.build/release/kept-bench"
    rm -f "$work/r1" "$work/r0"
    CALLS=2000 valgrind --tool=callgrind --callgrind-out-file="$work/r1" "$bin" rule "$anchor" "$rule" >/dev/null 2>&1 || true
    CALLS=0 valgrind --tool=callgrind --callgrind-out-file="$work/r0" "$bin" rule "$anchor" "$rule" >/dev/null 2>&1 || true
    figures+=("$(awk '/^summary:/ { print $2 }' "$work/r1" "$work/r0" | awk 'NR == 1 { a = $1 } NR == 2 { printf "%.0f", (a - $1) / 2000 }')")
  done
  awk -v l="next occurrence, $rule from $anchor" -v a="${figures[0]}" -v b="${figures[1]}" \
    'BEGIN { printf "| %s | %s | %s | %+.1f%% |\n", l, a, b, (b - a) / a * 100 }'
}

echo "| whole process (instructions) | before | after | change |"
echo "|---|---:|---:|---:|"
row "load: JSON \`run -e count\`" @KEPT@ run --store "$DATA/store-100k.json" "${CLOCK[@]}" -e count
row "filter: JSON \`count status:any +Ruqua #haslest due <= eow\`" @KEPT@ run --store "$DATA/store-100k.json" "${CLOCK[@]}" -e 'count status:any +Ruqua #haslest due <= eow'
row "list: JSON \`list where overdue\`" @KEPT@ run --store "$DATA/store-100k.json" "${CLOCK[@]}" -e 'list where overdue'
row "plan: JSON \`plan limit 3\`" @KEPT@ run --store "$DATA/store-100k.json" "${CLOCK[@]}" -e 'plan limit 3'
row "plan: SQLite \`plan limit 3\`" @KEPT@ run --store @WORK@/store.db "${CLOCK[@]}" -e 'plan limit 3'
row "load: SQLite \`count overdue\`" @KEPT@ run --store @WORK@/store.db "${CLOCK[@]}" -e 'count overdue'
row "change: SQLite \`run --write -e 'complete 17959'\`" @KEPT@ run --store @WORK@/store.db --write "${CLOCK[@]}" -e 'complete 17959'
row "import: 20,000 Taskwarrior records into a new JSON store" @KEPT@ import "$work/tw-20k.json" --store @WORK@/new.json "${CLOCK[@]}"
echo
echo "| instructions per call | before | after | change |"
echo "|---|---:|---:|---:|"
rule_row 2026-06-01 'FREQ=DAILY;INTERVAL=3'
rule_row 2026-06-01 'FREQ=WEEKLY;BYDAY=MO,WE,FR'
rule_row 2021-05-30 'FREQ=YEARLY;BYDAY=MO,TH,FR;BYSETPOS=-2;COUNT=9'
