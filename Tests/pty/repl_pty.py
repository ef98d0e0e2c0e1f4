#!/usr/bin/env python3
"""Drives the real `kept repl` in a pseudo-terminal, as a person would: types commands, presses
Tab to complete `@tom`, a project name and a task id (listed with its title), sees the coloured capture tokens and the grey ghost
completion (also after wide characters, and on a line that wraps after a resize), clears a
half-typed line with Ctrl-C, keeps a full history file at its size, continues a statement on a
second line, answers a bulk delete's question, records the session with .record, exits with
Ctrl-D, and checks the history file and the recording.

usage: repl_pty.py KEPT_BINARY
Exit status 0 when every check passed; otherwise it prints what it waited for and what the
terminal showed. Every wait has a timeout and looks for text, never for a fixed sleep.
"""

import os
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

TIMEOUT = float(os.environ.get("KEPT_PTY_TIMEOUT", "20"))


class Term:
    def __init__(self, argv, env):
        self.master, slave = pty.openpty()
        # 120 columns, so the capture line never wraps.
        import fcntl, struct, termios
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        def controlling_tty():
            # A session of its own with the pty as its controlling terminal, so Ctrl-C
            # typed into the pty is a SIGINT for kept, as in a real terminal.
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                                     preexec_fn=controlling_tty, close_fds=True)
        os.close(slave)
        self.buf = b""
        self.mark = 0

    def pump(self, timeout):
        r, _, _ = select.select([self.master], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:
            return False
        if not data:
            return False
        self.buf += data
        return True

    def expect(self, text, what=None):
        """Waits until `text` (bytes) shows after the last mark; moves the mark past it."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            k = self.buf.find(text, self.mark)
            if k >= 0:
                self.mark = k + len(text)
                return
            left = deadline - time.monotonic()
            if left <= 0 or (self.proc.poll() is not None and not self.pump(0.1)):
                fail(f"waited for {what or text!r}", self.buf[self.mark:])
            self.pump(min(left, 0.5))

    def resize(self, cols):
        """Sets the terminal's width; the kernel sends kept a SIGWINCH."""
        import fcntl, struct, termios
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))

    def send(self, data):
        os.write(self.master, data)

    def wait_exit(self):
        deadline = time.monotonic() + TIMEOUT
        while self.proc.poll() is None and time.monotonic() < deadline:
            self.pump(0.2)
        if self.proc.poll() is None:
            self.proc.kill()
            fail("kept repl did not exit after Ctrl-D", self.buf[self.mark:])
        while self.pump(0.05):
            pass
        return self.proc.returncode


def fail(message, shown):
    print(f"FAIL: {message}")
    print("--- the terminal showed (after the last match):")
    print(repr(shown[-2000:]))
    sys.exit(1)


def check(cond, message):
    if not cond:
        print(f"FAIL: {message}")
        sys.exit(1)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 64
    kept = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="kept-pty-")
    try:
        store = os.path.join(tmp, "home.json")
        opts = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]
        setup = subprocess.run([kept, "run", "--store", store, "--write", *opts,
                                "-e", "project add Home", "-e", "add Call mom @tomorrow #phone +Home",
                                "-e", "add Buy milk #errand"], capture_output=True, text=True)
        check(setup.returncode == 0, f"setting up the store failed: {setup.stderr}")
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "KEPT_HISTFILE")}
        env.update({"TERM": "xterm", "XDG_STATE_HOME": os.path.join(tmp, "state"), "INPUTRC": "/dev/null",
                    "HOME": tmp, "LANG": "C.UTF-8"})
        # A full history file: the session keeps it at the documented 1000 lines as it appends.
        hist = os.path.join(tmp, "state", "kept", "history")
        os.makedirs(os.path.dirname(hist))
        with open(hist, "w", encoding="utf-8") as f:
            f.write("".join(f"count old-{k}\n" for k in range(1000)))
        t = Term([kept, "repl", "--store", store, *opts], env)
        t.expect(b"written after each change", "the banner naming the store")
        t.expect(b"kept> ", "the first prompt")

        # Live capture feedback: the ghost completion in grey, then Tab takes it.
        t.send(b"add Pay rent @tom")
        t.expect(b"\x1b[90morrow", "the grey ghost 'orrow' after '@tom'")
        t.send(b"\t")
        t.expect(b"\x1b[36m@tomorrow", "'@tomorrow' coloured as a date after Tab")
        # Tab completes a project name from the store.
        t.send(b"+Ho\t")
        t.expect(b"\x1b[34m+Home", "'+Home' completed and coloured as a project")
        t.send(b"#pri !high")
        t.expect(b"\x1b[32m#pri", "'#pri' coloured as a tag")
        t.expect(b"\x1b[31m!high", "'!high' coloured as a priority")
        t.send(b"\r")
        t.expect(b"Added 3 \xc2\xb7 Pay rent \xc2\xb7 Tomorrow", "the task filed")
        live = open(hist, encoding="utf-8").read().splitlines()
        check(len(live) == 1000 and live[-1].startswith("add Pay rent"),
              f"after an append the history file should hold the last 1000 lines: {len(live)}, last {live[-1:]}")

        # R-REPL-1: Tab after a verb that takes a task lists the ids with their titles; the
        # line takes the id alone.
        t.expect(b"kept> ")
        t.send(b"why \t\t")
        t.expect(b"1  Call mom", "task 1 listed with its title after 'why ' Tab Tab")
        t.expect(b"3  Pay rent", "task 3 listed with its title")
        t.send(b"3\t")
        t.expect(b"why 3 ", "the id alone completed into the line")
        t.send(b"\x03")

        # Wide characters: the cursor goes back to where readline put it, two columns each
        # ("kept> add 日本 @tom" is 19 columns).
        t.expect(b"kept> ")
        t.send("add 日本 @tom".encode())
        t.expect(b"\x1b[90morrow\x1b[0m\x1b[J\r\x1b[19C", "the cursor after '@tom' at column 19")
        t.send(b"\x03")
        t.expect(b"kept> ", "a fresh prompt")

        # A resize reaches readline, and a capture line that wraps is still coloured: drawn
        # from its first row, one up from the cursor.
        t.resize(40)
        t.send(b"add " + b"a" * 40 + b" @tom")
        t.expect(b"\x1b[1A\rkept> \x1b[1madd", "the wrapped capture line drawn from its first row")
        t.expect(b"\x1b[90morrow", "the ghost on the wrapped row")
        t.send(b"\x03")
        t.expect(b"kept> ", "a fresh prompt")
        t.resize(120)

        # Right arrow at the end of the line takes the ghost of an unfinished repeat phrase.
        t.expect(b"kept> ")
        t.send(b"parse Gym every mo")
        t.expect(b"\x1b[90mnday", "the grey ghost 'nday' after 'every mo'")
        t.send(b"\x1b[C")
        t.expect(b"\x1b[35mevery monday", "'every monday' coloured as a repeat after Right arrow")
        t.send(b"\r")
        t.expect(b"Every Monday", "parse shows the repeat")

        # Ctrl-C clears a half-typed line and never exits.
        t.expect(b"kept> ")
        t.send(b"add Half typed")
        t.expect(b"Half typed")
        t.send(b"\x03")
        t.expect(b"^C", "Ctrl-C echoed")
        t.expect(b"kept> ", "a fresh prompt after Ctrl-C")
        t.send(b"count\r")
        t.expect(b"All 3 tasks", "three tasks: the half-typed line was not filed")

        # A statement the parser calls unfinished continues on the next line.
        t.expect(b"kept> ")
        t.send(b"list (#phone or\r")
        t.expect(b"  ... ", "the continuation prompt")
        t.send(b"#errand)\r")
        t.expect(b"2 of 3 tasks", "the two-line filter ran")

        # An error points into the line just typed.
        t.expect(b"kept> ")
        t.send(b"lsit\r")
        t.expect(b"<repl>:", "the rich error's location")
        t.expect(b"did you mean 'list'?", "the rich error's help")

        # Completion of a command word and of a dot-command.
        t.expect(b"kept> ")
        t.send(b"compl\t")
        t.expect(b"complete ", "'compl' completed to 'complete'")
        t.send(b"1\r")
        t.expect(b"Completed 1", "complete 1 ran")

        # A bulk delete asks first (R-TASK-5): no keeps the task, yes deletes it.
        t.expect(b"kept> ")
        t.send(b"delete where #errand\r")
        t.expect(b"Delete 1 task where #errand? [y/N] ", "the bulk delete's question")
        t.send(b"n\r")
        t.expect(b"Nothing deleted", "no keeps the task")
        t.expect(b"kept> ")
        t.send(b"delete where #errand\r")
        t.expect(b"Delete 1 task where #errand? [y/N] ", "the question again")
        t.send(b"yes\r")
        t.expect(b"Deleted 1 task where #errand", "yes deletes it")

        record = os.path.join(tmp, "session.kept")
        t.expect(b"kept> ")
        t.send(f".record {record}\r".encode())
        t.expect(b"Recorded", ".record wrote the transcript")
        t.expect(b"kept> ")
        t.send(b"\x04")
        rc = t.wait_exit()
        check(rc == 0, f"kept repl exited {rc} after Ctrl-D")

        check(os.path.exists(hist), "the history file was not written")
        lines = open(hist, encoding="utf-8").read().splitlines()
        check(any(l.startswith("add Pay rent @tomorrow +Home") for l in lines), f"history lacks the add line: {lines}")
        check("list (#phone or #errand)" in lines, f"history lacks the two-line statement as one entry: {lines}")
        check(not any("Half typed" in l for l in lines), f"the line cleared with Ctrl-C is in the history: {lines}")

        test = subprocess.run([kept, "test", record], capture_output=True, text=True)
        check(test.returncode == 0, f"kept test on the recording failed:\n{test.stdout}{test.stderr}\n{open(record).read()}")
        print(f"ok: pty session, history ({len(lines)} lines), recording passes kept test")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
