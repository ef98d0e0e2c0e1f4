#!/usr/bin/env python3
"""Checks `kept test --report` through the real binary: JUnit XML read back with xml.etree
(totals, one testcase per command with its time, <failure>, <skipped>, <error> for a script
that could not run), TAP 13 by a strict line check (version, consecutive points, SKIP and TODO,
YAML blocks, the plan), a report on stdout with the human output on stderr, the progress line
(by default on a terminal, none when piped, --progress and --no-progress), and `-j 1` and `-j 2` on examples/ giving the same
reports and the same human output, with the wall time of each printed.

usage: reports.py KEPT_BINARY
Exit status 0 when every check passed.
"""

import os
import pty
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

KEPT = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def kept(*args, cwd=None):
    # Bytes, decoded by hand: text mode would turn the progress line's carriage returns into
    # line breaks.
    r = subprocess.run([KEPT, *args], capture_output=True, cwd=cwd, timeout=600)
    r.stdout = r.stdout.decode()
    r.stderr = r.stderr.decode()
    return r


def on_terminal(args):
    """Runs kept with stdout on a pseudo-terminal; what it wrote there."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([KEPT, *args], stdout=slave, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    proc.wait(timeout=60)
    os.close(master)
    # The terminal turns each line break into CR LF.
    return out.decode().replace("\r\n", "\n")


SCRIPTS = {
    "a_pass.kept": "> add Pay rent\nAdded 1 · Pay rent\n\n@case \"listing\"\n> list\nAll 1 task\n1  Pay rent\n",
    "b_fail.kept": "> add Pay rent\nAdded 1 · Pay the rent\n\n@skip \"not yet\"\n> frobnicate\nnope\n\n"
                   "@xfail \"known # bug\"\n> show 1 title\nwrong\n",
    "c_broken.kept": "> add Pay rent\nAdded 1 · Pay rent\n\n@frob\n",
}

TAP_POINT = re.compile(r"^(ok|not ok) (\d+) - (\S.*?)(?: # (SKIP|TODO) (.*))?$")


def check_tap(lines, expected_points, where):
    check(lines[:1] == ["TAP version 13"], f"{where}: TAP must start with 'TAP version 13': {lines[:1]}")
    n = 0
    k = 1
    points = []
    while k < len(lines):
        line = lines[k]
        m = TAP_POINT.match(line)
        if m:
            n += 1
            check(int(m.group(2)) == n, f"{where}: point {m.group(2)} should be {n}: {line!r}")
            points.append((m.group(1), m.group(4), m.group(3)))
            k += 1
            if k < len(lines) and lines[k] == "  ---":
                k += 1
                while k < len(lines) and lines[k] != "  ...":
                    check(lines[k].startswith("  "), f"{where}: a YAML line must be indented: {lines[k]!r}")
                    k += 1
                check(k < len(lines), f"{where}: a YAML block must end with '  ...'")
                k += 1
            continue
        if re.fullmatch(r"1\.\.\d+", line):
            check(k == len(lines) - 1, f"{where}: the plan must be the last line")
            check(line == f"1..{n}", f"{where}: the plan {line!r} should be 1..{n}")
            break
        check(False, f"{where}: a line TAP does not know: {line!r}")
        k += 1
    check(n == expected_points, f"{where}: {n} points, expected {expected_points}")
    return points


def main():
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "t")
        os.mkdir(d)
        for name, text in SCRIPTS.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        junit = os.path.join(tmp, "out.xml")
        tapfile = os.path.join(tmp, "out.tap")
        r = kept("test", "--report", "junit", junit, "--report", "tap", tapfile, d)
        check(r.returncode == 2, f"a broken script makes the run exit 2, not {r.returncode}")
        check(r.stdout.splitlines()[-1:] == ["2 passed, 1 failed, 1 errors, 1 skipped, 1 xfailed"],
              f"summary: {r.stdout!r}")
        check("\r" not in r.stdout, "no progress line when stdout is a pipe")

        # JUnit, read back.
        root = ET.parse(junit).getroot()
        check(root.tag == "testsuites", f"root {root.tag}")
        check((root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == ("6", "1", "1", "2"),
              f"JUnit totals {root.attrib}")
        suites = root.findall("testsuite")
        check([os.path.basename(s.get("name")) for s in suites] == sorted(SCRIPTS), f"suites {[s.get('name') for s in suites]}")
        cases = root.findall("./testsuite/testcase")
        check(len(cases) == 6, f"{len(cases)} testcases")
        for c in cases:
            check(re.fullmatch(r"\d+\.\d{6}", c.get("time") or "") is not None, f"testcase time {c.get('time')!r}")
        by_suite = {os.path.basename(s.get("name")): s for s in suites}
        a = by_suite["a_pass.kept"].findall("testcase")
        check([c.get("classname").split("/")[-1] for c in a] == ["a_pass.kept", "a_pass.kept::listing"], "classnames name the case")
        check(all(len(list(c)) == 0 for c in a), "passing testcases are empty")
        b = by_suite["b_fail.kept"].findall("testcase")
        check(b[0].find("failure") is not None and "Pay the rent" in (b[0].find("failure").text or ""), "the failure holds the diff")
        check(b[1].find("skipped") is not None and b[1].find("skipped").get("message") == "not yet", "the skip holds its reason")
        check(b[2].find("skipped") is not None and b[2].find("skipped").get("type") == "xfail", "an xfail is a skipped testcase of type xfail")
        c = by_suite["c_broken.kept"].findall("testcase")
        check(len(c) == 1 and c[0].find("error") is not None and "E0105" in (c[0].find("error").text or ""),
              "a broken script is one testcase with an <error>")

        # TAP, line by line.
        with open(tapfile) as f:
            tap = f.read().splitlines()
        points = check_tap(tap, 6, "TAP file")
        check([p[0] for p in points] == ["ok", "ok", "not ok", "ok", "not ok", "not ok"], f"TAP results {points}")
        check(points[3][1] == "SKIP" and points[4][1] == "TODO", f"SKIP and TODO directives {points}")
        check(points[5][2].endswith("c_broken.kept could not run"), f"a broken script is a failing point {points}")
        check(points[4][2].endswith("show 1 title") and "\\#" in tap[[i for i, l in enumerate(tap) if "# TODO" in l][0]],
              "a '#' in a reason is escaped")

        # On stdout ('-'): the report alone on stdout, the human output on stderr.
        r = kept("test", "--report", "tap", "-", d)
        check_tap(r.stdout.splitlines(), 6, "TAP on stdout")
        check(r.stderr.splitlines()[-1:] == ["2 passed, 1 failed, 1 errors, 1 skipped, 1 xfailed"], f"human output on stderr: {r.stderr!r}")
        r = kept("test", "--report", "junit", "-", os.path.join(d, "a_pass.kept"))
        check(ET.fromstring(r.stdout).get("tests") == "2", f"JUnit on stdout: {r.stdout!r}")

        # The progress line, asked for on a pipe: redrawn with a carriage return, cleared at the end.
        r = kept("test", "--progress", "-j", "1", d)
        check("\r\x1b[K[" in r.stdout and "/3] " in r.stdout, f"--progress draws the line: {r.stdout!r}")
        check(r.stdout.endswith("1 xfailed\n"), "the progress line is cleared before the summary")
        r = kept("test", "--no-progress", d)
        check("\r" not in r.stdout, "--no-progress")
        # On a terminal the progress line is the default; --no-progress turns it off there too.
        for args, shown in ((["test", "-j", "1", d], True), (["test", "--no-progress", d], False)):
            out = on_terminal(args)
            check(("\r\x1b[K[3/3] " in out) == shown, f"progress on a terminal with {args[1:-1]}: {out!r}")
            check(out.rstrip().endswith("1 xfailed"), f"the summary ends the output on a terminal: {out!r}")
        r = kept("test", "--progress=yes", d)
        check(r.returncode == 64, f"--progress=yes is a usage error, not exit {r.returncode}")

        # examples/ with -j 1 and -j 2: the same reports (times aside) and the same human output.
        out = {}
        for jobs in ("1", "2"):
            jf = os.path.join(tmp, f"j{jobs}.xml")
            tf = os.path.join(tmp, f"j{jobs}.tap")
            t0 = time.monotonic()
            r = kept("test", "-j", jobs, "--report", "junit", jf, "--report", "tap", tf, "examples/", cwd=ROOT)
            wall = time.monotonic() - t0
            check(r.returncode == 0, f"examples/ with -j {jobs}: exit {r.returncode}\n{r.stdout}")
            with open(jf) as f:
                x = re.sub(r' time="[0-9.]+"', "", f.read())
            with open(tf) as f:
                t = re.sub(r"duration_ms: [0-9.]+", "duration_ms", f.read())
            out[jobs] = (r.stdout, x, t)
            print(f"kept test -j {jobs} examples/: {wall:.2f} s wall, {r.stdout.splitlines()[-1]}")
        check(out["1"] == out["2"], "-j 1 and -j 2 give different reports")

    if failures:
        print("FAIL:\n" + "\n".join(failures), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
