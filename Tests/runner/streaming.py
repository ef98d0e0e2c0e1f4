#!/usr/bin/env python3
"""Checks that `kept test` streams: a script's result (and its TAP points on stdout) is printed
as soon as it and the scripts before it are done, not at the end of the run. The second script
reads its store (`@store`) from a named pipe, so it cannot finish until this driver writes the
pipe; the first script's line must arrive while the second one waits. With -j 1 and -j 2.

usage: streaming.py KEPT_BINARY
Exit status 0 when every check passed.
"""

import os
import select
import subprocess
import sys
import tempfile
import time

KEPT = sys.argv[1]
TIMEOUT = float(os.environ.get("KEPT_PIPE_TIMEOUT", "10"))


def read_until(proc, needle, seen):
    """Reads stdout until `needle` is in it (or the timeout); returns all read so far."""
    deadline = time.monotonic() + TIMEOUT
    fd = proc.stdout.fileno()
    while needle not in seen:
        left = deadline - time.monotonic()
        if left <= 0:
            return seen, False
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                return seen, needle in seen
            seen += chunk
    return seen, True


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "a.kept"), "w") as f:
            f.write("> add A\nAdded 1 · A\n")
        with open(os.path.join(d, "b.kept"), "w") as f:
            f.write("@store s.json\n> count\nAll 0 tasks\n")
        for extra in (["-j", "1"], ["-j", "2"], ["-j", "2", "--report", "tap", "-"]):
            fifo = os.path.join(d, "s.json")
            os.mkfifo(fifo)
            proc = subprocess.Popen([KEPT, "test", *extra, d], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            tap = "--report" in extra
            first = b"ok 1 - " if tap else b"ok      " + os.path.join(d, "a.kept").encode()
            seen, ok = read_until(proc, first, b"")
            if not ok:
                failures.append(f"{extra}: the first script's result did not arrive while the second waited: {seen!r}")
            elif proc.poll() is not None or b"b.kept" in seen:
                failures.append(f"{extra}: the second script was done before its store was written: {seen!r}")
            with open(fifo, "w") as f:
                f.write("{}\n")
            out, err = proc.communicate(timeout=TIMEOUT)
            seen += out
            if proc.returncode != 0:
                failures.append(f"{extra}: exit {proc.returncode}: {seen!r} {err!r}")
            last = (err if tap else seen).decode().splitlines()[-1:]
            if last != ["2 passed, 0 failed, 0 errors, 0 skipped"]:
                failures.append(f"{extra}: summary {last}")
            os.unlink(fifo)
    if failures:
        print("FAIL:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
