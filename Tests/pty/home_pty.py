#!/usr/bin/env python3
"""The REPL without a store file asks before it throws changes away (R-HOME-3), driven in a
pseudo-terminal as a person would: Ctrl-D after a change asks, `n` keeps the session, `.save
FILE` copies the changes so Ctrl-D leaves at once, and a second Ctrl-D at the question leaves.

usage: home_pty.py KEPT_BINARY
Exit status 0 when every check passed.
"""

import os
import sys
import tempfile
import shutil

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from repl_pty import Term, check  # noqa: E402


def session(kept, tmp):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "KEPT_HISTFILE", "KEPT_STORE")}
    env.update({"TERM": "xterm", "XDG_STATE_HOME": os.path.join(tmp, "state"), "INPUTRC": "/dev/null",
                "HOME": tmp, "XDG_DATA_HOME": os.path.join(tmp, "data"), "LANG": "C.UTF-8"})
    t = Term([kept, "repl", "--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"], env)
    t.expect(b"no store file", "the banner saying there is no store file")
    t.expect(b"kept> ", "the first prompt")
    return t


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 64
    kept = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="kept-home-pty-")
    try:
        # Ctrl-D with nothing changed leaves at once.
        t = session(kept, tmp)
        t.send(b"\x04")
        check(t.wait_exit() == 0, "an unchanged session ends with status 0")
        check(b"Discard" not in t.buf, "an unchanged session does not ask")

        # A change, then Ctrl-D: the question; `n` keeps the session and its task.
        t = session(kept, tmp)
        t.send(b"add Buy milk @tomorrow\r")
        t.expect(b"Added 1", "the task filed")
        t.expect(b"kept> ")
        t.send(b"\x04")
        t.expect(b"1 change would be lost", "the warning")
        t.expect(b"Discard 1 change and quit? [y/N] ", "the question")
        t.send(b"n\r")
        t.expect(b"kept> ", "the prompt again after 'n'")
        t.send(b"list\r")
        t.expect(b"Buy milk", "the task still there")
        t.expect(b"kept> ")
        # `.quit` asks too; then `.save FILE` keeps the changes and Ctrl-D leaves at once.
        t.send(b".quit\r")
        t.expect(b"Discard 1 change and quit? [y/N] ", "the question after .quit")
        t.send(b"\r")
        t.expect(b"kept> ", "an empty answer is no")
        saved = os.path.join(tmp, "saved.json")
        t.send(f".save {saved}\r".encode())
        t.expect(b"Saved", "the copy written")
        t.expect(b"kept> ")
        mark = len(t.buf)
        t.send(b"\x04")
        check(t.wait_exit() == 0, "the session ends after .save")
        check(b"Discard" not in t.buf[mark:], "no question once the changes are saved")
        check(os.path.exists(saved), "the saved store exists")

        # `y` discards; a second Ctrl-D at the question leaves too.
        for answer in (b"y\r", b"\x04"):
            t = session(kept, tmp)
            t.send(b"add Walk the dog\r")
            t.expect(b"Added 1")
            t.expect(b"kept> ")
            t.send(b"\x04")
            t.expect(b"Discard 1 change and quit? [y/N] ")
            t.send(answer)
            check(t.wait_exit() == 0, f"the session ends after {answer!r}")
        check(not os.path.exists(os.path.join(tmp, "data", "kept")), "the store-less REPL made no store of the user's")
        print("home_pty: every check passed")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
