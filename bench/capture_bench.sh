#!/usr/bin/env bash
# Capture parsing throughput: kept beside dateparser and parsedatetime, in one run, on the
# peers' 10,000 quick-add phrases (base Mon 2026-06-15 09:00 Europe/Berlin). Prints figures;
# never fails on time. Usage: bash bench/capture_bench.sh [SECONDS_PER_KEPT_ROW]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PEERS="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA="$ROOT/bench/data"
SECONDS_PER_ROW="${1:-3}"
mkdir -p "$DATA" "$ROOT/bench/results"
PY="$(python3 -c 'import sys; print(sys.executable)')"

# The peers: install them from PyPI when missing.
if ! "$PY" -c 'import dateparser, parsedatetime' 2>/dev/null; then
  "$PY" -m pip install --quiet dateparser parsedatetime
fi

# The peers' script writes its results beside itself; run a copy so shared/ stays untouched.
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$PEERS/dateparse_bench.py" "$WORK/"
echo "== peers (dateparse_bench.py: dateparser, parsedatetime; writes $DATA/phrases.jsonl)"
(cd "$WORK" && "$PY" dateparse_bench.py --repeats 3 --dump-dir "$DATA") | sed -n '1,12p'

echo
echo "== kept"
(cd "$ROOT" && swift build -c release --static-swift-stdlib --product kept-bench >/dev/null 2>&1)
"$ROOT/.build/release/kept-bench" capture "$DATA/phrases.jsonl" "$SECONDS_PER_ROW" | tee "$ROOT/bench/results/capture-bench.txt"
