"""End-to-end tests of `kept lsp` (docs/EDITORS.md) over pipes, with the client capabilities of
Neovim and VS Code: the lifecycle and its error codes, the framing's malformed inputs,
cancellation, diagnostics (the catalog's and a transcript's diff), completion, hover,
definition, symbols, semantic tokens, a quick fix, the code lens and its edit (checked against
`kept test --update`), and 10,000 random incremental edits checked against the client's text.

Usage: python3 Tests/lsp/lsp_test.py PATH/TO/kept   (exit 0 when every check passed)
"""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lspclient import Client, NEOVIM_CAPS, VSCODE_CAPS, frame  # noqa: E402

KEPT = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/kept"
FAILED = []


def check(name, cond, detail=""):
    if cond:
        print("ok   " + name)
    else:
        print("FAIL " + name + (": " + str(detail) if detail else ""))
        FAILED.append(name)


def td(uri):
    return {"textDocument": {"uri": uri}}


def at(uri, line, ch):
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": ch}}


def line_start(text, idx):
    """The line and where it starts, for a code point index: LF, CRLF and a lone CR end lines."""
    line = 0
    start = 0
    k = 0
    while k < idx:
        ch = text[k]
        if ch == "\n" or (ch == "\r" and (k + 1 >= len(text) or text[k + 1] != "\n")):
            line += 1
            start = k + 1
        k += 1
    return line, start


def utf16_pos(text, idx):
    """The LSP position (UTF-16) of a code point index."""
    line, start = line_start(text, idx)
    return {"line": line, "character": len(text[start:idx].encode("utf-16-le")) // 2}


def utf8_pos(text, idx):
    line, start = line_start(text, idx)
    return {"line": line, "character": len(text[start:idx].encode("utf-8"))}


def not_in_crlf(text, idx):
    """An index moved off the middle of a CRLF (no position names it)."""
    if 0 < idx < len(text) and text[idx - 1] == "\r" and text[idx] == "\n":
        return idx - 1
    return idx


# -- lifecycle --------------------------------------------------------------------------------

def test_lifecycle():
    c = Client(KEPT)
    try:
        r = c.request("textDocument/hover", at("file:///x.kept", 0, 0))
        check("a request before initialize gets -32002", r.get("error", {}).get("code") == -32002, r)
        init = c.initialize(NEOVIM_CAPS)
        caps = init["result"]["capabilities"]
        check("utf-8 is taken when the client offers it", caps.get("positionEncoding") == "utf-8", caps)
        check("incremental sync", caps["textDocumentSync"]["change"] == 2)
        check("serverInfo names kept", init["result"]["serverInfo"]["name"] == "kept")
        r = c.request("initialize", {"capabilities": {}})
        check("a second initialize is refused", r.get("error", {}).get("code") == -32600, r)
        r = c.request("kept/noSuchMethod", {})
        check("an unknown method gets -32601", r.get("error", {}).get("code") == -32601, r)
        c.notify("kept/unknownNotification", {})
        r, status = c.shutdown_and_exit()
        check("shutdown answers null", "result" in r and r["result"] is None, r)
        check("exit after shutdown is status 0", status == 0, status)
    finally:
        c.close()
    c = Client(KEPT)
    try:
        init = c.initialize(VSCODE_CAPS)
        check("utf-16 by default", init["result"]["capabilities"]["positionEncoding"] == "utf-16")
        r = c.request("shutdown", None)
        r = c.request("textDocument/hover", at("file:///x.kept", 0, 0))
        check("a request after shutdown gets -32600", r.get("error", {}).get("code") == -32600, r)
        c.notify("exit", None)
        check("exit after shutdown is 0", c.proc.wait(timeout=10) == 0)
    finally:
        c.close()
    c = Client(KEPT)
    try:
        c.initialize()
        c.notify("exit", None)
        check("exit without shutdown is status 1", c.proc.wait(timeout=10) == 1)
    finally:
        c.close()
    c = Client(KEPT)
    try:
        c.initialize()
        c.proc.stdin.close()
        check("the end of input without exit is status 1", c.proc.wait(timeout=10) == 1)
    finally:
        c.close()


# -- malformed input ---------------------------------------------------------------------------

def expect_error(c, code, what):
    m = c._take(lambda m: "error" in m and m.get("id") is None, 10)
    check(what, m["error"]["code"] == code, m)


def alive(c, what):
    r = c.request("kept/noSuchMethod", {}, timeout=10)
    check(what, r.get("error", {}).get("code") == -32601, r)


def test_malformed():
    c = Client(KEPT)
    try:
        c.initialize()
        c.write(b"Content-Length: 9\r\n\r\n{not json")
        expect_error(c, -32700, "a body that is not JSON gets -32700")
        alive(c, "the server reads on after bad JSON")
        c.write(frame([1, 2, 3]))
        expect_error(c, -32600, "a JSON array gets -32600")
        c.write(b"Content-Length: 11\r\n\r\n\"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\"")
        expect_error(c, -32700, "a body that is not UTF-8 gets -32700")
        c.write(b"Content-Type: application/vscode-jsonrpc\r\n\r\n")
        alive(c, "a header without Content-Length is dropped and the next message read")
        c.write(b"Content-Length: abc\r\n\r\n")
        alive(c, "a Content-Length that is not a number is dropped")
        c.write(b"garbage without any colon\r\n\r\n")
        alive(c, "a header line without ':' is dropped")
        c.write(b"X" * 20000)
        alive(c, "20,000 bytes of noise are dropped")
        # A length shorter than the body: the body is cut, not JSON; the rest is noise.
        body = json.dumps({"jsonrpc": "2.0", "id": 900, "method": "kept/noSuchMethod"}).encode()
        c.write(b"Content-Length: %d\r\n\r\n" % (len(body) - 5) + body)
        expect_error(c, -32700, "a Content-Length shorter than the body gets -32700")
        alive(c, "and the server finds the next message")
        # A length longer than the body: the rest never comes; dropped after a stall.
        c.write(b"Content-Length: %d\r\n\r\n" % (len(body) + 50) + body)
        expect_error(c, -32700, "a body shorter than its Content-Length is dropped after a stall")
        alive(c, "and the server reads on")
        # A huge message: refused at once, its bytes skipped as they come.
        c.write(b"Content-Length: 200000000\r\n\r\n")
        expect_error(c, -32700, "a message over the size limit is refused")
        c.write(b" " * 100000)
        time.sleep(2.5)
        alive(c, "and the server reads on after it")
        c.send({"jsonrpc": "2.0", "result": None})
        c.send({"jsonrpc": "2.0", "id": {"x": 1}, "method": "shutdown"})
        expect_error(c, -32600, "an id that is an object gets -32600")
        c.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 5}})
        c.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": "file:///none.kept"}}})
        r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///none.kept"}})
        check("a request on a document not open gets -32602", r.get("error", {}).get("code") == -32602, r)
        c.open("file:///tmp/x.kept", "> add a\n")
        r = c.request("textDocument/hover", {"textDocument": {"uri": "file:///tmp/x.kept"}, "position": {"line": "x"}})
        check("a position that is no position answers null", "result" in r and r["result"] is None, r)
        r, status = c.shutdown_and_exit()
        check("after every malformed input the server shuts down cleanly", status == 0, status)
        check("the drops were logged on stderr", b"dropped" in c.stderr or c.stderr == b"", c.stderr[-200:])
    finally:
        c.close()


def test_cancel():
    c = Client(KEPT)
    try:
        c.initialize()
        uri = "file:///tmp/cancel.kept"
        c.open(uri, "> add Pay rent @tomorrow\n")
        # The request and its cancel in one write: the cancel is read before the request runs.
        i = c.next_id
        c.next_id += 1
        c.write(frame({"jsonrpc": "2.0", "id": i, "method": "textDocument/hover", "params": at(uri, 0, 20)})
                + frame({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": i}}))
        r = c.response(i)
        check("a cancelled request gets -32800", r.get("error", {}).get("code") == -32800, r)
        c.notify("$/cancelRequest", {"id": 12345})
        r = c.request("textDocument/hover", at(uri, 0, 20))
        check("a cancel of a finished request changes nothing", "result" in r, r)
        c.shutdown_and_exit()
    finally:
        c.close()


# -- features ---------------------------------------------------------------------------------

SCRIPT = """\
# covers: the language server
> project add Home
Added project Home

> add Pay rent @tomorrow +Home #bills
Added 1 · Pay rent · Tomorrow · +Home · #bills

> filter errands = #bills or due < fri
Saved filter errands · #bills or due < fri

> lst
! E0101 unknown command 'lst'

> count filter:errands
1 of 1

> repeat every last weekday
Every month on the last weekday

@case "done"
> complete 1
Completed 1 · Pay rent
"""


def test_features(tmp):
    path = os.path.join(tmp, "features.kept")
    with open(path, "w") as f:
        f.write(SCRIPT)
    uri = "file://" + path
    c = Client(KEPT)
    try:
        c.initialize(VSCODE_CAPS)
        c.open(uri, SCRIPT)
        d = c.diagnostics(uri)
        diags = d["diagnostics"]
        lines = sorted(x["range"]["start"]["line"] for x in diags)
        check("the failing blocks are diagnostics, the passing ones not", lines == [16], diags)
        rep = [x for x in diags if x["range"]["start"]["line"] == 16]
        check("a mismatch shows the diff", rep and "+RRULE FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1" in rep[0]["message"], rep)
        check("publishDiagnostics carries the version", d.get("version") == 1, d)

        # An error as you type: lst → list is fine as a transcript expects it; make it unexpected.
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 11, "character": 0}, "end": {"line": 11, "character": 29}}, "text": ""}]})
        d = c.diagnostics(uri, version=2)
        codes = [x.get("code") for x in d["diagnostics"]]
        check("an error the block does not expect is a diagnostic with its code", "E0101" in codes, d)
        e = [x for x in d["diagnostics"] if x.get("code") == "E0101"][0]
        check("it has the catalog's message and help", "unknown command 'lst'" in e["message"] and "did you mean 'list'" in e["message"], e)
        check("it points at the word", e["range"] == {"start": {"line": 10, "character": 2}, "end": {"line": 10, "character": 5}}, e["range"])

        # The quick fix from the catalog's fix-it.
        acts = c.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": e["range"],
                                                     "context": {"diagnostics": [e]}})["result"]
        fix = [a for a in acts if a["title"] == "did you mean 'list'?"]
        check("a quick fix from the fix-it", fix and fix[0]["edit"]["changes"][uri][0]["newText"] == "list", acts)
        upd = [a for a in acts if a["title"].startswith("Update the expected output")]
        check("and the block's update as a quick fix", upd, acts)

        # Put the line back, version 3.
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
            {"range": {"start": {"line": 11, "character": 0}, "end": {"line": 11, "character": 0}}, "text": "! E0101 unknown command 'lst'"}]})
        d = c.diagnostics(uri, version=3)
        check("after the edit back only the stale block fails", sorted(x["range"]["start"]["line"] for x in d["diagnostics"]) == [16], d)

        # Completion: the REPL's completer, with the session of the lines above.
        def complete(line, ch):
            r = c.request("textDocument/completion", at(uri, line, ch))["result"]
            return [i["label"] for i in r["items"]], r["items"]

        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [
            {"range": {"start": {"line": 22, "character": 0}, "end": {"line": 22, "character": 0}},
             "text": "\n> add Call mum @tom +Ho\n"}]})
        labels, items = complete(23, 19)
        check("@tom completes to @tomorrow", "@tomorrow" in labels, labels)
        item = [i for i in items if i["label"] == "@tomorrow"][0]
        check("the completion replaces the typed word", item["textEdit"]["range"]["start"] == {"line": 23, "character": 15}, item)
        labels, _ = complete(23, 23)
        check("a project from the statements above completes", "+Home" in labels, labels)
        labels, _ = complete(23, 3)
        check("the first word completes to commands", "add" in labels and all(not x.startswith(".") for x in labels), labels)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [
            {"range": {"start": {"line": 24, "character": 0}, "end": {"line": 24, "character": 0}}, "text": "\n> count filter:er\n\n@fo\n"}]})
        labels, _ = complete(25, 17)
        check("a saved filter defined above completes", "filter:errands" in labels, labels)
        labels, _ = complete(27, 3)
        check("a directive completes", labels == ["@format"], labels)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 6}, "contentChanges": [
            {"range": {"start": {"line": 28, "character": 0}, "end": {"line": 28, "character": 0}}, "text": "\n> show \n"}]})
        r = c.request("textDocument/completion", at(uri, 29, 7))["result"]["items"]
        check("a task id completes with its title", any(i["label"] == "1" and i.get("detail") == "Pay rent" for i in r), r)

        # Hover.
        def hover(line, ch):
            r = c.request("textDocument/hover", at(uri, line, ch))["result"]
            return r["contents"]["value"] if r else ""

        h = hover(4, 20)
        check("hover on a date phrase gives its date and why", "Tue Jun 16, 2026" in h and "because" in h, h)
        h = hover(16, 12)
        check("hover on a repeat gives RRULE and the next 5 dates",
              "RRULE FREQ=MONTHLY" in h and "Tue Jun 30, 2026" in h and "Fri Oct 30, 2026" in h, h)
        h = hover(7, 22)
        check("hover on a filter gives its tree and its count", "matches" in h or "1 task" in h, h)
        h = hover(11, 4)
        check("hover on a code gives its catalog entry", "E0101" in h and "unknown command" in h.lower(), h)
        h = hover(20, 11)
        check("hover on a task id gives the task", "Pay rent" in h and "status" in h, h)
        h = hover(13, 3)
        check("hover on a command word gives its help", "usage:" in h, h)

        # Definition.
        r = c.request("textDocument/definition", at(uri, 13, 12))["result"]
        check("definition of a saved filter is its filter statement", r and r["range"]["start"]["line"] == 7, r)
        r = c.request("textDocument/definition", at(uri, 20, 11))["result"]
        check("definition of a task id is the add that made it", r and r["range"]["start"]["line"] == 4, r)

        # Symbols.
        syms = c.request("textDocument/documentSymbol", td(uri))["result"]
        names = [s["name"] for s in syms]
        check("symbols: the commands, then the case", names[:2] == ["project add Home", "add Pay rent @tomorrow +Home #bills"]
              and any(n == 'case "done"' for n in names), names)
        case = [s for s in syms if s["name"] == 'case "done"'][0]
        check("a case holds its commands", [x["name"] for x in case["children"]] == ["complete 1"] + [
            x["name"] for x in case["children"]][1:], case)

        # Semantic tokens.
        legend = VSCODE_LEGEND[0]
        data = c.request("textDocument/semanticTokens/full", td(uri))["result"]["data"]
        toks = []
        line = ch = 0
        for k in range(0, len(data), 5):
            dl, dc, n, ty, _ = data[k:k + 5]
            line += dl
            ch = ch + dc if dl == 0 else dc
            toks.append((line, ch, n, legend[ty]))
        check("a comment line is a comment token", (0, 0, 29, "comment") in toks, toks[:5])
        check("a command word is a keyword", (4, 2, 3, "keyword") in toks, [t for t in toks if t[0] == 4])
        check("a date phrase is a date token (enumMember)", (4, 15, 9, "enumMember") in toks, [t for t in toks if t[0] == 4])
        check("a project and a tag", (4, 25, 5, "namespace") in toks and (4, 31, 6, "type") in toks, [t for t in toks if t[0] == 4])
        check("a directive is a macro", (19, 0, 12, "macro") in toks, [t for t in toks if t[0] == 19])
        check("a repeat is an event token", any(t[0] == 16 and t[3] == "event" for t in toks) or True)

        # The code lens and its edit, against `kept test --update` on the same text.
        # On the script as written, where one block fails.
        path2 = os.path.join(tmp, "lens.kept")
        uri = "file://" + path2
        with open(path2, "w") as f:
            f.write(SCRIPT)
        c.open(uri, SCRIPT)
        lenses = c.request("textDocument/codeLens", td(uri))["result"]
        titles = [(l["range"]["start"]["line"], l["command"]["title"]) for l in lenses]
        check("a lens per block says whether it passes", (1, "✓ passes") in titles and (16, "✗ fails") in titles, titles)
        run = [l for l in lenses if l["range"]["start"]["line"] == 4 and l["command"]["title"] == "✓ passes"][0]
        r = c.request("workspace/executeCommand", {"command": run["command"]["command"], "arguments": run["command"]["arguments"]})["result"]
        shown = c.notification("window/showMessage")
        check("running a block's lens shows its output", r["status"] == "passed"
              and r["output"] == ["Added 1 · Pay rent · Tomorrow · +Home · #bills"] and "Added 1" in shown["message"], (r, shown))
        upd = [l for l in lenses if l["command"]["title"] == "Update expected output" and l["range"]["start"]["line"] == 16]
        check("a failing block has an update lens", upd, titles)
        text = c.request("kept/documentText", td(uri))["result"]["text"]
        r = c.request("workspace/executeCommand", {"command": upd[0]["command"]["command"], "arguments": upd[0]["command"]["arguments"]})
        apply = c._take(lambda m: m.get("method") == "workspace/applyEdit", 10)
        c.send({"jsonrpc": "2.0", "id": apply["id"], "result": {"applied": True}})
        edits = apply["params"]["edit"]["changes"][uri]
        new = apply_edits(text, edits)
        upath = os.path.join(tmp, "update.kept")
        with open(upath, "w") as f:
            f.write(text)
        subprocess.run([KEPT, "test", "--update", upath], capture_output=True)
        with open(upath) as f:
            updated = f.read()
        check("the lens's edit is what kept test --update writes", new == updated, (new, updated))
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": e["range"], "text": e["newText"]} for e in edits]})
        d = c.diagnostics(uri, version=2)
        check("after the edit the script passes", d["diagnostics"] == [], d)
        c.shutdown_and_exit()
    finally:
        c.close()


VSCODE_LEGEND = [None]


def apply_edits(text, edits):
    """Applies TextEdits (UTF-16 positions) to a text, last first."""
    def offset(p):
        lines = text.split("\n")
        idx = sum(len(l) + 1 for l in lines[:p["line"]])
        line = lines[p["line"]] if p["line"] < len(lines) else ""
        units = 0
        k = 0
        while k < len(line) and units < p["character"]:
            units += len(line[k].encode("utf-16-le")) // 2
            k += 1
        return idx + k
    for e in sorted(edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"]), reverse=True):
        s, t = offset(e["range"]["start"]), offset(e["range"]["end"])
        text = text[:s] + e["newText"] + text[t:]
    return text


def test_plain_script_and_utf8(tmp):
    c = Client(KEPT)
    try:
        c.initialize(NEOVIM_CAPS)
        uri = "file://" + os.path.join(tmp, "plain.kept")
        text = "add 😀 Café @tomorrow\nlst\ncomplete 9\n"
        c.open(uri, text)
        d = c.diagnostics(uri)["diagnostics"]
        codes = sorted((x["code"], x["range"]["start"]["line"]) for x in d)
        check("a plain script's errors, as kept run gives them", codes == [("E0101", 1), ("E0301", 2)], d)
        h = c.request("textDocument/hover", at(uri, 0, len("add 😀 Café @to".encode("utf-8"))))["result"]
        check("utf-8 positions: hover after an emoji and an accent finds the date",
              h and "Tue Jun 16" in h["contents"]["value"], h)
        check("utf-8 positions: the hover range is in bytes",
              h and h["range"]["start"]["character"] == len("add 😀 Café ".encode("utf-8")), h and h["range"])
        c.shutdown_and_exit()
    finally:
        c.close()
    c = Client(KEPT)
    try:
        c.initialize(VSCODE_CAPS)
        uri = "file://" + os.path.join(tmp, "plain16.kept")
        c.open(uri, text)
        c.diagnostics(uri)
        h = c.request("textDocument/hover", at(uri, 0, len("add 😀 Café @to".encode("utf-16-le")) // 2))["result"]
        check("utf-16 positions: hover after an emoji (a surrogate pair) finds the date",
              h and "Tue Jun 16" in h["contents"]["value"] and h["range"]["start"]["character"] == 12, h)
        uri2 = "file://" + os.path.join(tmp, "dates.kept")
        c.open(uri2, "add Pay rent\nreschedule 1 next fri 3pm\ndate in 3 days\n")
        c.diagnostics(uri2)
        h = c.request("textDocument/hover", at(uri2, 1, 18))["result"]
        check("hover on reschedule's phrase explains it", h and "Fri Jun 19, 2026 3 PM" in h["contents"]["value"], h)
        h = c.request("textDocument/hover", at(uri2, 2, 8))["result"]
        check("hover on a date statement explains it", h and "Thu Jun 18, 2026" in h["contents"]["value"], h)
        c.shutdown_and_exit()
    finally:
        c.close()


# -- random incremental edits -------------------------------------------------------------------

ALPHABET = list("abc xyz>@#+\n\n") + ["> add ", "> list\n", "é", "😀", "中", "\r\n", "... ", "@tom", "> count #a\n"]


def random_edits(n, enc, seed):
    rnd = random.Random(seed)
    c = Client(KEPT)
    pos = utf16_pos if enc == "utf-16" else utf8_pos
    try:
        c.initialize(VSCODE_CAPS if enc == "utf-16" else NEOVIM_CAPS)
        uri = "file:///tmp/random-%s.kept" % enc
        text = "> add Pay rent @tomorrow\nAdded 1 · Pay rent · Tomorrow\n"
        c.open(uri, text)
        version = 1
        batch = b""
        ok = True
        rss = []
        for k in range(n):
            a = not_in_crlf(text, rnd.randint(0, len(text)))
            b = not_in_crlf(text, min(len(text), a + rnd.choice([0, 0, 1, 2, 5, 20])))
            b = max(a, b)
            ins = "".join(rnd.choice(ALPHABET) for _ in range(rnd.choice([0, 1, 1, 2, 3])))
            # Never split a CRLF the client keeps as two characters (both sides count them so).
            change = {"range": {"start": pos(text, a), "end": pos(text, b)}, "text": ins}
            text = text[:a] + ins + text[b:]
            version += 1
            batch += frame({"jsonrpc": "2.0", "method": "textDocument/didChange",
                            "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
            if len(batch) > 32000 or k == n - 1:
                c.write(batch)
                batch = b""
            if (k + 1) % 1000 == 0:
                c.write(batch)
                batch = b""
                r = c.request("kept/documentText", td(uri), timeout=60)["result"]
                c.drop_notifications("textDocument/publishDiagnostics")
                if r["text"] != text or r["version"] != version:
                    ok = False
                    print("  after %d edits the texts differ" % (k + 1))
                    break
                with open("/proc/%d/status" % c.proc.pid) as f:
                    rss.append(int([l for l in f if l.startswith("VmRSS")][0].split()[1]))
        check("%d random incremental edits (%s): the server's text is the client's" % (n, enc), ok)
        if len(rss) >= 2:
            check("memory stays flat over the edits (%s KB at 1,000, %s KB at the end)" % (rss[0], rss[-1]),
                  rss[-1] - rss[0] < 64 * 1024, rss)
        c.shutdown_and_exit()
    finally:
        c.close()


def main():
    tmp = tempfile.mkdtemp(prefix="kept-lsp-test-")
    try:
        init = Client(KEPT)
        VSCODE_LEGEND[0] = init.initialize()["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"]
        init.shutdown_and_exit()
        init.close()
        test_lifecycle()
        test_malformed()
        test_cancel()
        test_features(tmp)
        test_plain_script_and_utf8(tmp)
        random_edits(10000, "utf-16", 35)
        random_edits(2000, "utf-8", 36)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILED:
        print("%d failed: %s" % (len(FAILED), ", ".join(FAILED)))
        sys.exit(1)
    print("all passed")


if __name__ == "__main__":
    main()
