#!/usr/bin/env bash
# REPL start-up: how long from launching `kept repl --store <10,000 tasks>` in a pseudo-terminal
# to the first prompt bytes ("kept> ") on the terminal. The issue asks for under 50 ms.
#
#   bash bench/repl_startup.sh           # from the repo root; RUNS=50 for more runs
#
# Environment: RUNS (default 30, plus 3 warm-ups), PEERS_DIR (the generator's folder, default
# ../shared/bench/peers), KEPT (a binary to time instead of .build/release/kept; nothing built).
# It prints the median, min and max; it never fails on a time.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
RUNS="${RUNS:-30}"
PEERS_DIR="${PEERS_DIR:-$ROOT/../shared/bench/peers}"
DATA=bench/data
mkdir -p "$DATA" bench/results
say() { printf '== %s\n' "$*" >&2; }

if [[ ! -s "$DATA/tasks-10k.jsonl" ]]; then
  [[ -f "$PEERS_DIR/gen_tasks.py" ]] || { echo "error: $PEERS_DIR/gen_tasks.py not found (set PEERS_DIR)" >&2; exit 1; }
  say "generating tasks-10k.jsonl with $PEERS_DIR/gen_tasks.py"
  (cd "$PEERS_DIR" && python3 gen_tasks.py -n 10000 --out "$ROOT/$DATA")
fi
if [[ ! -s "$DATA/store-10k.json" || "$DATA/tasks-10k.jsonl" -nt "$DATA/store-10k.json" ]]; then
  say "converting tasks-10k.jsonl -> store-10k.json"
  python3 bench/convert_store.py "$DATA/tasks-10k.jsonl" "$DATA/store-10k.json" --zone Europe/Berlin
fi
if [[ -z "${KEPT:-}" ]]; then
  KEPT=.build/release/kept
  if [[ ! -x "$KEPT" ]] || [[ -n "$(find Sources Package.swift -newer "$KEPT" -print -quit 2>/dev/null)" ]]; then
    say "building: swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib >&2
  fi
fi

# The REPL writes the store only after a change; Ctrl-D right after the prompt changes nothing,
# but it runs on a copy all the same.
cp "$DATA/store-10k.json" "$DATA/store-10k.repl.json"
PYTHON="$(python3 -c 'import sys; print(sys.executable)')"
"$PYTHON" - "$KEPT" "$DATA/store-10k.repl.json" "$RUNS" <<'PY' | tee bench/results/repl-startup.txt
import os, pty, select, statistics, subprocess, sys, tempfile, time, fcntl, termios, struct
kept, store, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
hist = tempfile.mkdtemp(prefix="kept-bench-")
env = dict(os.environ, TERM="xterm", KEPT_HISTFILE=os.path.join(hist, "history"), INPUTRC="/dev/null")
env.pop("NO_COLOR", None)

def once():
    m, s = pty.openpty()
    fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    t0 = time.perf_counter()
    p = subprocess.Popen([kept, "repl", "--store", store, "--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"],
                         stdin=s, stdout=s, stderr=s, env=env, start_new_session=True)
    os.close(s)
    buf = b""
    took = None
    deadline = t0 + 10
    while time.perf_counter() < deadline:
        r, _, _ = select.select([m], [], [], 0.5)
        if r:
            try:
                buf += os.read(m, 65536)
            except OSError:
                break
            if b"kept> " in buf:
                took = (time.perf_counter() - t0) * 1000
                break
    os.write(m, b"\x04")
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    os.close(m)
    if took is None:
        sys.exit(f"no prompt within 10 s; the terminal showed {buf[-300:]!r}")
    return took

for _ in range(3):
    once()
times = sorted(once() for _ in range(runs))
print(f"kept repl --store store-10k.json (10,000 tasks), launch to first prompt, {runs} runs:")
print(f"  median {statistics.median(times):.1f} ms   min {times[0]:.1f} ms   max {times[-1]:.1f} ms")
PY
rm -f "$DATA/store-10k.repl.json"
