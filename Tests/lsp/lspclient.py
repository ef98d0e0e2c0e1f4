"""A plain LSP client over pipes for the tests and the benchmark of `kept lsp`.

It frames JSON-RPC messages with Content-Length (in bytes), reads the server's messages on a
thread, and lets a test wait for a response by id or for a notification by method.
"""

import json
import os
import queue
import subprocess
import threading
import time

# The client capabilities of two real clients, as they send them in `initialize` (trimmed to
# what the server reads: the position encodings, and the features named).
NEOVIM_CAPS = {
    "general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]},
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": False},
        "completion": {"completionItem": {"snippetSupport": False}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "semanticTokens": {"requests": {"full": {"delta": True}, "range": False},
                           "formats": ["relative"], "tokenTypes": [], "tokenModifiers": []},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix"]}}},
        "publishDiagnostics": {"relatedInformation": True},
    },
    "window": {"workDoneProgress": True},
}
VSCODE_CAPS = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"dynamicRegistration": True, "didSave": True},
        "completion": {"completionItem": {"snippetSupport": True}, "contextSupport": True},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "semanticTokens": {"requests": {"full": {"delta": True}, "range": True},
                           "formats": ["relative"], "tokenTypes": [], "tokenModifiers": []},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["", "quickfix"]}}},
        "codeLens": {"dynamicRegistration": True},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
    },
    "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": True}},
}


def frame(obj):
    body = json.dumps(obj).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Client:
    def __init__(self, binary, env=None):
        e = dict(os.environ)
        e["NO_COLOR"] = "1"
        if env:
            e.update(env)
        self.proc = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=e)
        self.messages = queue.Queue()
        self.pending = []
        self.next_id = 1
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_err(self):
        self.stderr = self.proc.stderr.read()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode("ascii").partition(":")
                headers[k.strip().lower()] = v.strip()
            n = int(headers["content-length"])
            body = out.read(n)
            self.messages.put(json.loads(body.decode("utf-8")))

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj):
        self.write(frame(obj))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request_async(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return i

    def _take(self, pred, timeout):
        for k, m in enumerate(self.pending):
            if pred(m):
                return self.pending.pop(k)
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise TimeoutError("no matching message")
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                raise TimeoutError("no matching message")
            if m is None:
                raise EOFError("the server closed its output")
            if pred(m):
                return m
            self.pending.append(m)

    def response(self, i, timeout=20):
        return self._take(lambda m: m.get("id") == i and "method" not in m, timeout)

    def request(self, method, params, timeout=20):
        return self.response(self.request_async(method, params), timeout)

    def notification(self, method, timeout=20, pred=lambda p: True):
        return self._take(lambda m: m.get("method") == method and "id" not in m and pred(m.get("params")), timeout)["params"]

    def drop_notifications(self, method):
        self.pending = [m for m in self.pending if m.get("method") != method]

    def initialize(self, caps=VSCODE_CAPS):
        r = self.request("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": caps})
        self.notify("initialized", {})
        return r

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "kept", "version": version, "text": text}})

    def diagnostics(self, uri, version=None, timeout=20):
        return self.notification("textDocument/publishDiagnostics", timeout,
                                 lambda p: p["uri"] == uri and (version is None or p.get("version") == version))

    def shutdown_and_exit(self, timeout=10):
        r = self.request("shutdown", None)
        self.notify("exit", None)
        self.proc.stdin.close()
        return r, self.proc.wait(timeout=timeout)

    def close(self):
        try:
            self.proc.kill()
        except Exception:
            pass
        self.proc.wait()
