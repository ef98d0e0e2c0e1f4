"""How fast `kept lsp` answers (docs/EDITORS.md), with the plain client of Tests/lsp.

- diagnostics after one keystroke in a 5,000-line transcript (1,666 commands and their output):
  the time from a `didChange` of one character to the `publishDiagnostics` of that version, at
  lines spread evenly over the file (a change near the top re-runs more of the script);
- completion (`@tom` in the last command) and hover (a date phrase in the middle command);
- the server's resident memory over 10,000 edits.

Usage: python3 bench/lsp_bench.py [KEPT]   (default: KEPT from the environment, else
.build/release/kept). Prints figures; never fails on a time.
"""

import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "lsp"))
from lspclient import Client, VSCODE_CAPS, frame  # noqa: E402

KEPT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("KEPT", ".build/release/kept")
COMMANDS = 1666


def script():
    lines = ["> project add Home", "Added project Home", ""]
    for i in range(1, COMMANDS):
        lines += ["> add Task %d @tomorrow +Home #t%d" % (i, i % 7), "Added %d · Task %d · Tomorrow · +Home · #t%d" % (i, i, i % 7), ""]
    return "\n".join(lines) + "\n"


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        return int([l for l in f if l.startswith("VmRSS")][0].split()[1])


def ms(xs):
    xs = sorted(xs)
    return "median %.1f ms, p90 %.1f ms, min %.1f ms, max %.1f ms (n=%d)" % (
        statistics.median(xs) * 1000, xs[int(len(xs) * 0.9)] * 1000, xs[0] * 1000, xs[-1] * 1000, len(xs))


def main():
    text = script()
    nlines = text.count("\n")
    uri = "file:///tmp/kept-lsp-bench.kept"
    c = Client(KEPT)
    try:
        c.initialize(VSCODE_CAPS)
        t0 = time.perf_counter()
        c.open(uri, text)
        d = c.diagnostics(uri, version=1, timeout=120)
        print("%d lines, %d commands: first run %.1f ms, %d diagnostics" % (
            nlines, COMMANDS, (time.perf_counter() - t0) * 1000, len(d["diagnostics"])))
        version = 1
        rnd = random.Random(20260615)

        # One keystroke (a character typed into a title, then taken out), at lines spread evenly.
        typed = []
        for k in range(60):
            cmd = rnd.randrange(1, COMMANDS)
            line = cmd * 3
            for insert in (True, False):
                version += 1
                rng = {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 8 if insert else 9}}
                t = time.perf_counter()
                c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                    "contentChanges": [{"range": rng, "text": "x" if insert else ""}]})
                c.diagnostics(uri, version=version, timeout=60)
                typed.append(time.perf_counter() - t)
        print("diagnostics after a keystroke: " + ms(typed))
        near_end = []
        for k in range(20):
            line = (COMMANDS - 1 - k % 5) * 3
            for insert in (True, False):
                version += 1
                rng = {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 8 if insert else 9}}
                t = time.perf_counter()
                c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                    "contentChanges": [{"range": rng, "text": "x" if insert else ""}]})
                c.diagnostics(uri, version=version, timeout=60)
                near_end.append(time.perf_counter() - t)
        print("diagnostics after a keystroke in the last commands: " + ms(near_end))

        # Completion of `@tom` in the last command, hover on a date in the middle one.
        last = (COMMANDS - 1) * 3
        comp = []
        for _ in range(50):
            t = time.perf_counter()
            r = c.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": last, "character": 20}})
            comp.append(time.perf_counter() - t)
        labels = [i["label"] for i in r["result"]["items"]]
        print("completion: " + ms(comp) + (" (offers @tomorrow)" if "@tomorrow" in labels else " (no @tomorrow!)"))
        hov = []
        mid = (COMMANDS // 2) * 3
        for _ in range(50):
            t = time.perf_counter()
            r = c.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": mid, "character": 18}})
            hov.append(time.perf_counter() - t)
        ok = r["result"] and "Tue Jun 16" in r["result"]["contents"]["value"]
        print("hover: " + ms(hov) + (" (explains the date)" if ok else " (no explanation!)"))

        # Memory over 10,000 edits (typed in bursts, as an editor sends them).
        samples = [rss(c.proc.pid)]
        batch = b""
        for k in range(10000):
            line = rnd.randrange(1, COMMANDS) * 3
            version += 1
            ins = k % 2 == 0
            rng = {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 8}}
            # Each insert is taken out by the next edit, so the text ends as it began.
            if not ins:
                line = prev
                rng = {"start": {"line": line, "character": 8}, "end": {"line": line, "character": 9}}
            prev = line
            batch += frame({"jsonrpc": "2.0", "method": "textDocument/didChange",
                            "params": {"textDocument": {"uri": uri, "version": version},
                                       "contentChanges": [{"range": rng, "text": "x" if ins else ""}]}})
            if k % 20 == 19:
                c.write(batch)
                batch = b""
            if k % 1000 == 999:
                c.request("kept/documentText", {"textDocument": {"uri": uri}}, timeout=120)
                c.drop_notifications("textDocument/publishDiagnostics")
                samples.append(rss(c.proc.pid))
        final = c.request("kept/documentText", {"textDocument": {"uri": uri}}, timeout=120)["result"]["text"]
        print("memory over 10,000 edits (RSS, MB, every 1,000): " + " ".join("%.0f" % (s / 1024) for s in samples)
              + ("; the text is the client's" if final == text else "; the text differs!"))
        c.shutdown_and_exit()
    finally:
        c.close()


if __name__ == "__main__":
    main()
