#!/usr/bin/env python3
"""Writes the seed corpus of the fuzz targets (Tests/Fuzz/corpus/TARGET/) from the examples:
the statements of every transcript, its capture lines, repeat rules, filters, a few whole
transcripts and the example store, plus the issue-20 reproducers. Run from the repository root;
the files are committed, so `make fuzz` starts from them."""
import glob, hashlib, os, re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "Fuzz", "corpus")

commands = []
for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.kept"))):
    for line in open(path, encoding="utf-8"):
        if line.startswith("> "):
            commands.append(line[2:].rstrip("\n"))

REPRODUCERS = [
    "date 1.1.99999999999999999999", "add x @1/1/99999999999999999999", "list estimate < 99999999999999999999m",
    "count created > -2000000000000000000w", "repeat every day from 9999-12-30 next 5", "add x every 999999999 days",
    "add x @in 9999999999 days", "repeat every 99999999999999999999 days", "count status:any title ~ /^(\\w+\\s?)*\\d$/",
    "list " + "(" * 120 + "#a" + ")" * 120, "list " + "not " * 150 + "#a", "add Evil \x1b[2J\x07 title",
]

def unique(xs, n):
    seen, out = set(), []
    for x in xs:
        if x and x not in seen:
            seen.add(x)
            out.append(x)
    return out[:n]

def write(target, items, prefix=b""):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    for old in os.listdir(d):
        os.remove(os.path.join(d, old))
    for x in items:
        data = prefix + (x if isinstance(x, bytes) else x.encode("utf-8"))
        name = hashlib.sha1(data).hexdigest()[:16]
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)

statements = unique(commands + REPRODUCERS, 160)
write("statement", statements, prefix=b"\x00")

first = lambda c: c.split(" ", 1)
captures = [c.split(" ", 1)[1] for c in commands if c.split(" ", 1)[0] in ("add", "capture", "parse", "date") and " " in c]
write("capture", unique(captures + ["x @in 9999999999 days", "x @1/1/99999999999999999999", "x every 999999999 days",
                                    "Call mom @tomorrow 6pm #phone +Home !high", "Board offsite friday"], 100), prefix=b"\x08")

rules = [c.split(" ", 1)[1] for c in commands if c.split(" ", 1)[0] in ("repeat", "rrule") and " " in c]
rules += [re.sub(r" next \d+$", "", r) for r in rules]
write("repeat", unique(rules + ["every day from 9999-12-30", "every 99999999999999999999 days", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
                                "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "every month on the 31st", "every last friday of the month"], 100))

filters = [c.split(" ", 1)[1] for c in commands if c.split(" ", 1)[0] in ("list", "count", "explain") and " " in c]
write("filter", unique(filters + ["#errand or (due < fri and not done)", "title ~ /^(\\w+\\s?)*\\d$/", "filter:Soon", "-#errand +Home !high",
                                  "estimate < 99999999999999999999m", "created > -2000000000000000000w"], 100))

transcripts = []
for path in sorted(glob.glob(os.path.join(ROOT, "examples", "*.kept"))):
    text = open(path, encoding="utf-8").read()
    blocks = text.split("\n\n")
    for k in range(0, len(blocks), 6):
        transcripts.append("\n\n".join(blocks[k:k + 6])[:3000])
write("transcript", unique(transcripts, 40))

stores = [open(os.path.join(ROOT, "examples", "home.store.json"), "rb").read()]
stores.append(b'{"format":"kept-store","version":1,"nextId":9007199254740991,"tasks":[]}')
stores.append(b'{"tasks":[{"id":1,"title":"a","title":"b"}]}')
stores.append(b'{"tasks":[{"id":1,"title":"r","due":{"date":"2026-06-01","time":null},"repeat":{"text":"banana"}}]}')
stores.append(b'{"tasks":[\n{"id":2,"title":"b","status":"open","createdAt":"2026-06-01T08:00:00Z"},\n{"id":1,"title":"a","parent":2,"reminders":[{"at":"2026-06-15T09:00"}],"steps":[{"title":"s","done":true}],"comments":[{"text":"c"}]}\n]}')
write("store", stores)
print("seeds written under", os.path.relpath(OUT, ROOT))

# The language server's message reader: a piece size, then what a client sends (issue 35).
import json

def lsp_frame(obj):
    b = json.dumps(obj, ensure_ascii=False).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(b) + b

write("lspreader", [
    b"\x07" + lsp_frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}),
    b"\x00" + lsp_frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}) + lsp_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    b"\x10Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}",
    b"\x03Content-Length: abc\r\n\r\n" + lsp_frame({"id": 3}),
    b"\x05Content-Length: 5\r\n\r\n{\"jsonrpc\":\"2.0\"}" + lsp_frame({}),
    b"\x3fContent-Length: 99999999\r\n\r\n" + b" " * 300 + lsp_frame({"a": "é😀"}),
    b"\x01Content-Length: 2\n\n{}",
    b"\x02" + b"xyz\r\n" * 50,
])
