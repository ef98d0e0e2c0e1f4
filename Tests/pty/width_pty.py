#!/usr/bin/env python3
"""Runs the real `kept` in a pseudo-terminal 60 and 120 columns wide, with Japanese, emoji,
combining accents and 200-character titles, and checks that `list`, `plan` and
`list group by due` fit the terminal and stay aligned (R-VIEW-7, R-VIEW-8), coloured
(R-VIEW-10). The width comes from the terminal itself (TIOCGWINSZ): no --width, no $COLUMNS.
The display width of every row is measured with Python's unicodedata (East Asian Width and
combining classes), an oracle independent of Kept's own table. Also checks the REPL follows
a resize, that NO_COLOR and a pipe get no colour, that a pipe gets no width (nothing cut)
and that $COLUMNS and --width win over the terminal.

usage: width_pty.py KEPT_BINARY
Exit status 0 when every check passed; otherwise it prints what failed and the output.
"""

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import termios
import time
import unicodedata

TIMEOUT = float(os.environ.get("KEPT_PTY_TIMEOUT", "20"))
SGR = re.compile(r"\x1b\[[0-9;]*m")
DATE = re.compile(r"  +(Overdue \d+d|Today( \d+ [AP]M)?|Tomorrow( \d+ [AP]M)?|(Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d+)")
ROW = re.compile(r"^ *\d+  ")

LONG = ("Renew the insurance for the house and the car and compare every offer from the three "
        "brokers in town before the end of the month so that nothing lapses while we are away "
        "on the long summer holiday abroad this year")
TASKS = [
    ("日本語のタイトルを書く", "@today"),
    ("Party 🎉 with friends", "@yesterday !high"),
    ("Cafe\u0301 cre\u0300me with Zoe\u0308", "@tomorrow every week"),
    (LONG, "@fri"),
    ("会議の準備 📅 と資料", "@2026-07-10"),
    ("Plain task", ""),
    (LONG.replace("insurance", "passport"), "@today 6pm !critical"),
]


def fail(msg, output=""):
    print(f"FAIL: {msg}")
    if output:
        print("--- output ---")
        print(output)
    sys.exit(1)


def width(s):
    """Display width by unicodedata: W and F take 2, combining marks and format characters 0."""
    n = 0
    for c in s:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def run_pty(argv, cols, env, stdin_text=None):
    """Runs argv with a pty of `cols` columns as its terminal; returns what it printed."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, cols, 0, 0))
    # No echo and no CR translation, so the output is what kept wrote.
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.ONLCR
    attrs[3] &= ~termios.ECHO
    termios.tcsetattr(slave, termios.TCSANOW, attrs)

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                            preexec_fn=controlling_tty, close_fds=True)
    os.close(slave)
    buf = b""
    deadline = time.monotonic() + TIMEOUT
    pending = list(stdin_text or [])

    def pump(t):
        nonlocal buf
        r, _, _ = select.select([master], [], [], t)
        if not r:
            return False
        try:
            data = os.read(master, 65536)
        except OSError:
            return False
        if not data:
            return False
        buf += data
        return True

    while time.monotonic() < deadline:
        # A step: bytes to type, a width to resize to, or (text, n) to wait until the text
        # has shown n times.
        while pending:
            step = pending[0]
            if isinstance(step, tuple):
                if buf.count(step[0]) < step[1]:
                    break
            elif isinstance(step, int):
                fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, step, 0, 0))
            else:
                os.write(master, step)
            pending.pop(0)
        if not pump(0.2) and proc.poll() is not None:
            break
    while pump(0.1):
        pass
    if proc.poll() is None:
        proc.kill()
        fail(f"{argv} did not finish", buf.decode("utf-8", "replace"))
    os.close(master)
    return buf.decode("utf-8")


def check_listing(lines, cols, what, out):
    """Every line fits `cols`; the dates of the rows start in one column; nothing wraps."""
    date_cols = set()
    rows = 0
    for line in lines:
        plain = SGR.sub("", line)
        # Standard error shares the terminal: a note of kept's own (a dry run that held a
        # new plan snapshot) is not part of the listing.
        if plain.startswith("kept: "):
            continue
        w = width(plain)
        if cols is not None and w > cols:
            fail(f"{what}: a line of {w} columns at {cols}: {plain!r}", out)
        if not ROW.match(plain):
            continue
        rows += 1
        m = DATE.search(plain)
        if m:
            date_cols.add(width(plain[:m.start(1)]))
    if rows == 0:
        fail(f"{what}: no rows", out)
    if len(date_cols) > 1:
        fail(f"{what}: the dates start in columns {sorted(date_cols)}", out)
    return rows


def listings(out):
    """The output of `kept run --echo`, split at each '> ' command."""
    parts = {}
    cur = None
    for line in out.splitlines():
        line = line.rstrip("\r")
        if line.startswith("> "):
            cur = line[2:]
            parts[cur] = []
        elif cur is not None:
            parts[cur].append(line)
    return parts


def main():
    if len(sys.argv) != 2:
        fail("usage: width_pty.py KEPT_BINARY")
    kept = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="kept-width-")
    try:
        store = os.path.join(tmp, "w.json")
        base = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]
        env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
        env["TERM"] = "xterm-256color"
        env["HOME"] = tmp
        adds = []
        for title, rest in TASKS:
            adds += ["-e", f"add {title} {rest}".strip()]
        r = subprocess.run([kept, "run", "--store", store, "--write"] + base + adds, env=env, capture_output=True)
        if r.returncode != 0:
            fail("could not add the tasks", r.stderr.decode())

        commands = ["list", "plan", "list group by due"]
        cmd_args = []
        for c in commands:
            cmd_args += ["-e", c]
        for cols in (60, 120):
            out = run_pty([kept, "run", "--store", store, "--echo"] + base + cmd_args, cols, env)
            parts = listings(out)
            for c in commands:
                if c not in parts:
                    fail(f"no output for {c} at {cols}", out)
                n = check_listing(parts[c], cols, f"{c} at {cols} columns", out)
                if n < len(TASKS):
                    fail(f"{c} at {cols}: {n} rows", out)
            text = SGR.sub("", out)
            if "…" not in text:
                fail(f"no title cut at {cols} columns", out)
            if "日本語のタイトルを書く" not in text or "Party 🎉 with friends" not in text:
                fail(f"a short title was cut at {cols} columns", out)
            # Colour on a terminal: overdue red, today yellow, the repeat mark cyan.
            for code, what in (("\x1b[31mOverdue 1d", "red overdue"), ("\x1b[33mToday", "yellow today"), ("\x1b[36m↻", "cyan repeat")):
                if code not in out:
                    fail(f"no {what} at {cols} columns", out)
            print(f"ok  list, plan, list group by due at {cols} columns: aligned, fitted, coloured")

        # NO_COLOR: no colour on a terminal; --color always: colour into a pipe.
        out = run_pty([kept, "run", "--store", store] + base + ["-e", "list"], 60, dict(env, NO_COLOR="1"))
        if "\x1b[" in out:
            fail("colour with NO_COLOR", out)
        piped = subprocess.run([kept, "run", "--store", store] + base + ["-e", "list"], env=env, capture_output=True).stdout.decode()
        if "\x1b[" in piped:
            fail("colour into a pipe", piped)
        if LONG not in piped:
            fail("a pipe cut a title (no width without a terminal)", piped)
        check_listing(piped.splitlines(), None, "list into a pipe", piped)
        forced = subprocess.run([kept, "run", "--store", store, "--color", "always"] + base + ["-e", "list"], env=env,
                                capture_output=True).stdout.decode()
        if "\x1b[31m" not in forced:
            fail("no colour into a pipe with --color always", forced)
        print("ok  NO_COLOR and a pipe: no colour; --color always: colour; a pipe: nothing cut")

        # $COLUMNS and --width win over the terminal.
        out = run_pty([kept, "run", "--store", store] + base + ["-e", "list"], 120, dict(env, COLUMNS="50"))
        check_listing(out.splitlines(), 50, "list with COLUMNS=50 on 120", out)
        out = run_pty([kept, "run", "--store", store, "--width", "40"] + base + ["-e", "list"], 120, env)
        check_listing(out.splitlines(), 40, "list with --width 40 on 120", out)
        print("ok  COLUMNS=50 and --width 40 win over a 120-column terminal")

        # The REPL follows a resize: list at 120, then at 60.
        repl_env = dict(env, XDG_DATA_HOME=tmp, XDG_CONFIG_HOME=tmp, XDG_STATE_HOME=tmp)
        out = run_pty([kept, "--store", store] + base, 120, repl_env,
                      stdin_text=[b"list\r", (b"All 7 tasks", 1), 60, b"list\r", (b"All 7 tasks", 2), b".quit\r"])
        plain = SGR.sub("", out)
        blocks = plain.split("All 7 tasks")
        if len(blocks) < 3:
            fail("the REPL did not list twice", out)
        wide = [l for l in blocks[1].splitlines() if ROW.match(l)]
        narrow = [l for l in blocks[2].splitlines() if ROW.match(l)]
        if not wide or not narrow or max(width(l) for l in wide) <= 60:
            fail("the REPL's first list was not laid out at 120 columns", out)
        if max(width(l) for l in narrow) > 60:
            fail("the REPL did not follow the resize to 60 columns", out)
        print("ok  the REPL follows a resize from 120 to 60 columns")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
