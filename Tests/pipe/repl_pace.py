#!/usr/bin/env python3
"""Drives the real `kept repl` through a pipe a line at a time, as a program would: writes one
line, then waits (with a timeout per line) for what that statement prints before it writes the
next. Output that waited for the next line or for the end of input fails the wait. Between two
lines a second process writes the store (`kept run --store S --write -e 'add ...'`), and the
REPL's next statement sees the task it added; once for a JSON store and once for a SQLite one.

usage: repl_pace.py KEPT_BINARY
Exit status 0 when every check passed; otherwise it prints what it waited for and what the
REPL had printed.
"""

import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = float(os.environ.get("KEPT_PIPE_TIMEOUT", "10"))
CLOCK = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]


def fail(what, seen):
    print(f"FAIL: {what}\n--- seen so far:\n{seen}", file=sys.stderr)
    sys.exit(1)


class Piped:
    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, bufsize=0)
        self.out = b""
        self.err = b""

    def send(self, line):
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def pump(self, timeout):
        fds = [self.proc.stdout, self.proc.stderr]
        r, _, _ = select.select(fds, [], [], timeout)
        for f in r:
            data = os.read(f.fileno(), 65536)
            if f is self.proc.stdout:
                self.out += data
            else:
                self.err += data
        return bool(r)

    def expect(self, lines, stream="out", what=""):
        """Waits until exactly `lines` (each with its line break) have arrived on the stream,
        and nothing more; then clears the stream."""
        want = "".join(l + "\n" for l in lines).encode()
        deadline = time.monotonic() + TIMEOUT
        while True:
            got = self.out if stream == "out" else self.err
            if len(got) >= len(want):
                break
            left = deadline - time.monotonic()
            if left <= 0:
                fail(f"{what}: waited {TIMEOUT}s for {want!r} on std{stream}", got.decode(errors="replace"))
            if self.proc.poll() is not None and not self.pump(0.1):
                fail(f"{what}: kept ended (status {self.proc.returncode}) before {want!r}", got.decode(errors="replace"))
            self.pump(min(left, 0.5))
        # A short grace for anything printed past what was expected.
        self.pump(0.05)
        got = self.out if stream == "out" else self.err
        if got != want:
            fail(f"{what}: expected exactly {want!r} on std{stream}", got.decode(errors="replace"))
        if stream == "out":
            self.out = b""
        else:
            self.err = b""

    def quiet(self, what):
        """Nothing arrives on either stream for a moment (the REPL is waiting for a line)."""
        self.pump(0.3)
        if self.out or self.err:
            fail(f"{what}: expected no output yet", (self.out + self.err).decode(errors="replace"))


def drive(kept, store, env):
    r = Piped([kept, "repl", "--store", store, "--errors", "short"] + CLOCK, env)
    r.send("add Call mom @tomorrow 3pm #phone")
    r.expect(["Added 1 · Call mom · Tomorrow 3 PM · #phone"], what="first add")
    r.send("count")
    r.expect(["All 1 task"], what="count")
    # An unfinished filter waits for its continuation, then runs at once.
    r.send("list (#phone")
    r.quiet("open parenthesis")
    r.send("...     or #errand)")
    r.expect(["1 of 1 task · 1 filter on", "1  Call mom  Tomorrow 3 PM"], what="continued list")
    # A second process writes the store between two lines.
    w = subprocess.run([kept, "run", "--store", store, "--write"] + CLOCK + ["-e", "add Written elsewhere @today"],
                       env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if w.returncode != 0:
        fail("the second process's write", w.stdout + w.stderr)
    r.send("list")
    r.expect(["All 2 tasks", "1  Call mom           Tomorrow 3 PM", "2  Written elsewhere  Today"],
             what="list after the other process wrote")
    # The REPL's own change after that is written over the other process's, not refused.
    r.send("complete 2")
    r.expect(["Completed 2 · Written elsewhere"], what="complete after the other write")
    # Dot-commands keep pace too, and errors arrive on stderr before the next line.
    r.send(".bail off")
    r.send(".mode json")
    r.send("count")
    r.expect(['{"count":1,"total":1}'], what="count in JSON mode")
    # In JSON mode a dot-command prints JSON too, `.mode text` included.
    r.send(".mode text")
    r.expect(['{"mode":"text"}'], what=".mode text in JSON mode")
    r.send("show 9")
    r.expect(["<stdin>:11:6: error[E0301]: no task with id 9; help: 'list' shows the open tasks with their ids"], stream="err", what="error")
    r.send("count")
    r.expect(["All 1 task"], what="count after the error")
    # A continuation that comes after its statement ran (nothing was waiting) is an error.
    r.send("show 1 title")
    r.expect(["Call mom"], what="a finished statement runs at once")
    r.send("...     due")
    r.expect(["<stdin>:14:1: error[E0505]: this line continues a statement that already ran; "
              "help: send a statement's lines together: piped input runs a finished statement when no more input is waiting"],
             stream="err", what="late continuation")
    r.proc.stdin.close()
    if r.proc.wait(timeout=TIMEOUT) != 1:
        fail(f"exit status {r.proc.returncode} (an error was reported: 1)", "")
    check = subprocess.run([kept, "run", "--store", store] + CLOCK + ["-e", "count where done"],
                           env=env, capture_output=True, text=True, timeout=TIMEOUT)
    if check.stdout != "1 of 2\n":
        fail("the REPL wrote its change", check.stdout + check.stderr)


def main():
    kept = sys.argv[1]
    env = dict(os.environ, NO_COLOR="1", TERM="dumb")
    tmp = tempfile.mkdtemp(prefix="kept-pace-")
    try:
        for name in ["s.json", "s.db"]:
            drive(kept, os.path.join(tmp, name), env)
            print(f"ok {name}")
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
