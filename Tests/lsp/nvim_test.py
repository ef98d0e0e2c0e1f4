"""Headless Neovim (Debian's `neovim`) attaches `kept lsp` to a .kept file with an error and a
date phrase through vim.lsp (Tests/lsp/nvim_attach.lua), and reads back the diagnostic and the
hover text.

Usage: python3 Tests/lsp/nvim_test.py PATH/TO/kept   (exit 0 when it passed)
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

KEPT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/kept")
HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    nvim = shutil.which("nvim")
    if not nvim:
        print("FAIL no nvim: `make deps` installs Debian's neovim")
        sys.exit(1)
    tmp = tempfile.mkdtemp(prefix="kept-nvim-")
    try:
        path = os.path.join(tmp, "bills.kept")
        with open(path, "w") as f:
            f.write("add Pay rent @tomorrow #bills\nlsit\n")
        out = os.path.join(tmp, "out.json")
        env = dict(os.environ, KEPT_BIN=KEPT, KEPT_FILE=path, KEPT_OUT=out, HOME=tmp,
                   XDG_CONFIG_HOME=tmp, XDG_DATA_HOME=tmp, XDG_STATE_HOME=tmp, XDG_CACHE_HOME=tmp)
        r = subprocess.run([nvim, "--headless", "-n", "-i", "NONE", "-u", "NONE", "-c",
                            "luafile " + os.path.join(HERE, "nvim_attach.lua")],
                           env=env, capture_output=True, timeout=120, stdin=subprocess.DEVNULL)
        if not os.path.exists(out):
            print("FAIL Neovim wrote nothing (status %d)\n%s\n%s" % (r.returncode, r.stdout.decode(errors="replace"),
                                                                     r.stderr.decode(errors="replace")))
            sys.exit(1)
        with open(out) as f:
            got = json.load(f)
        failed = []
        d = [x for x in got["diagnostics"] if x.get("code") == "E0101"]
        if d and d[0]["lnum"] == 1 and d[0]["col"] == 0 and "unknown command 'lsit'" in d[0]["message"]:
            print("ok   Neovim shows the diagnostic: E0101 at 2:1, %r" % d[0]["message"].split("\n")[0])
        else:
            failed.append("diagnostic")
            print("FAIL the diagnostic: %r" % got["diagnostics"])
        h = got.get("hover") or ""
        if "Tue Jun 16, 2026" in h and "because" in h:
            print("ok   Neovim shows the hover: %r" % h.split("\n")[2])
        else:
            failed.append("hover")
            print("FAIL the hover: %r" % h)
        print("     (Neovim's position encoding: %s)" % got.get("encoding"))
        sys.exit(1 if failed else 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
