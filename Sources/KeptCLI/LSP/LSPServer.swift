// `kept lsp`: a Language Server Protocol 3.17 server over standard input and output, for
// `.kept` scripts (docs/EDITORS.md). One thread reads and frames messages (LSPMessageReader), and
// notes a `$/cancelRequest` the moment it reads one; the main thread answers requests in order
// and, whenever no message is waiting, runs the documents that changed and publishes their
// diagnostics, so a burst of keystrokes is run once. JSON is Foundation's JSONSerialization.
//
// Lifecycle (LSP 3.17, "Lifecycle Messages"): a request before `initialize` gets -32002, one
// after `shutdown` -32600; `exit` ends the process with 0 after a `shutdown`, else 1; the end of
// the input without `exit` is 1 too. A request that was cancelled before it ran gets -32800, an
// unknown method -32601, a message that is not JSON -32700, JSON that is not a request -32600.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// JSON-RPC and LSP error codes.
enum LSPError {
    static let parseError = -32700
    static let invalidRequest = -32600
    static let methodNotFound = -32601
    static let invalidParams = -32602
    static let internalError = -32603
    static let serverNotInitialized = -32002
    static let requestCancelled = -32800
}

/// What the reader thread hands the main thread.
enum LSPIncoming {
    case message([String: Any])
    /// Bytes that were not a message: logged, and answered with `code` when it is set.
    case bad(String, code: Int?)
    case end
}

/// A request's id as a key (a number and a string of the same digits are different ids).
func lspKey(_ id: Any?) -> String? {
    if let s = id as? String { return "s:" + s }
    if let n = lspInt(id) { return "n:\(n)" }
    return nil
}

func lspInt(_ v: Any?) -> Int? {
    if let i = v as? Int { return i }
    if let d = v as? Double, d == d.rounded(), abs(d) < 1e15 { return Int(d) }
    if let n = v as? NSNumber { return n.intValue }
    return nil
}

/// The reader thread touches only `queue` and `cancelled`, under `lock`.
final class LSPServer: @unchecked Sendable {
    let input: Int32
    let output: Int32
    let maxBody: Int
    /// How long a message may stay half-read before it is dropped.
    let stallSeconds: Int32

    private let lock = NSCondition()
    private var queue: [LSPIncoming] = []
    private var cancelled: Set<String> = []

    private(set) var initialized = false
    private(set) var shuttingDown = false
    var encoding = PositionEncoding.utf16
    var documents: [String: LSPDocument] = [:]
    var analyses: [String: LSPAnalysis] = [:]
    /// Documents changed since they were last run, with the first byte that may differ.
    var dirty: [String: Int] = [:]
    /// Documents run (for a request) whose diagnostics are not published yet.
    var unpublished: Set<String> = []
    /// The id of the next request the server sends the client.
    var nextOutgoing = 1

    init(input: Int32 = 0, output: Int32 = 1, maxBody: Int = LSPMessageReader.defaultMaxBody, stallSeconds: Int32 = 2) {
        self.input = input
        self.output = output
        self.maxBody = maxBody
        self.stallSeconds = stallSeconds
    }

    // MARK: reading

    private func push(_ items: [LSPIncoming]) {
        guard !items.isEmpty else { return }
        lock.lock()
        for (n, item) in items.enumerated() {
            guard case .message(let m) = item, m["method"] as? String == "$/cancelRequest",
                  let k = lspKey((m["params"] as? [String: Any])?["id"]) else { continue }
            // Only a request still waiting is cancelled (one already answered is not kept).
            let waiting = (queue + items.prefix(n)).contains {
                if case .message(let r) = $0, r["method"] != nil, lspKey(r["id"]) == k { return true }
                return false
            }
            if waiting { cancelled.insert(k) }
        }
        queue += items
        lock.signal()
        lock.unlock()
    }

    /// A frame as the main thread takes it.
    static func incoming(_ f: LSPFrame) -> LSPIncoming {
        switch f {
        case .dropped(let why, let answer):
            return .bad(why, code: answer ? LSPError.parseError : nil)
        case .message(let body):
            guard let json = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
                return .bad("a message that is not JSON (\(body.count) bytes)", code: LSPError.parseError)
            }
            guard let m = json as? [String: Any] else {
                return .bad("a message that is not a JSON object", code: LSPError.invalidRequest)
            }
            return .message(m)
        }
    }

    /// The reader thread: bytes in, frames out, until the input ends.
    private func readLoop() {
        var reader = LSPMessageReader(maxBody: maxBody)
        var buf = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            // A message left half-read for `stallSeconds` is dropped, so a wrong length never hangs.
            var pfd = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, reader.isPartial ? stallSeconds * 1000 : -1)
            if ready == 0 {
                if let f = reader.flushPartial() { push([LSPServer.incoming(f)]) }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            let n = buf.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            reader.feed(Array(buf[0..<n]))
            var items: [LSPIncoming] = []
            while let f = reader.next() { items.append(LSPServer.incoming(f)) }
            push(items)
        }
        var items: [LSPIncoming] = []
        if let f = reader.flushPartial() { items.append(LSPServer.incoming(f)) }
        items.append(.end)
        push(items)
    }

    // MARK: writing

    func send(_ message: [String: Any]) {
        var m = message
        m["jsonrpc"] = "2.0"
        guard let data = try? JSONSerialization.data(withJSONObject: m, options: []) else {
            log("could not encode a message", type: 1)
            return
        }
        let bytes = LSPMessageReader.frame(Array(data))
        var off = 0
        bytes.withUnsafeBytes { p in
            while off < bytes.count {
                let n = write(output, p.baseAddress?.advanced(by: off), bytes.count - off)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { return }
                off += n
            }
        }
    }

    func respond(_ id: Any?, _ result: Any?) {
        send(["id": id ?? NSNull(), "result": result ?? NSNull()])
    }

    func fail(_ id: Any?, _ code: Int, _ message: String) {
        send(["id": id ?? NSNull(), "error": ["code": code, "message": message] as [String: Any]])
    }

    func notify(_ method: String, _ params: Any) {
        send(["method": method, "params": params])
    }

    /// A line in the client's log (window/logMessage) and on stderr.
    func log(_ text: String, type: Int = 3) {
        FileHandle.standardError.write(Data("kept lsp: \(text)\n".utf8))
        notify("window/logMessage", ["type": type, "message": text] as [String: Any])
    }

    // MARK: the main loop

    /// Serves until `exit` or the end of the input; returns the exit status.
    func serve() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        let t = Thread { self.readLoop() }
        t.stackSize = 4 << 20
        t.start()
        while true {
            lock.lock()
            while queue.isEmpty {
                if !dirty.isEmpty || !unpublished.isEmpty {
                    lock.unlock()
                    publishDirty()
                    lock.lock()
                    continue
                }
                lock.wait()
            }
            let item = queue.removeFirst()
            lock.unlock()
            switch item {
            case .end:
                return shuttingDown ? 0 : 1
            case .bad(let why, let code):
                log(why, type: 2)
                if let code { fail(nil, code, why) }
            case .message(let m):
                if let status = handle(m) { return status }
            }
        }
    }

    /// Handles one message; returns an exit status when the server is to end.
    func handle(_ m: [String: Any]) -> Int32? {
        let id = m["id"]
        guard let method = m["method"] as? String else {
            // A response to a request of the server's (workspace/applyEdit), or nonsense.
            if id != nil, m["result"] != nil || m["error"] != nil { return nil }
            log("a message with neither a method nor a result", type: 2)
            if id != nil { fail(id, LSPError.invalidRequest, "a request needs a method") }
            return nil
        }
        let isRequest = id != nil && !(id is NSNull)
        if isRequest, lspKey(id) == nil {
            fail(nil, LSPError.invalidRequest, "a request id is a number or a string")
            return nil
        }
        let params = m["params"] as? [String: Any] ?? [:]
        if method == "exit" { return shuttingDown ? 0 : 1 }
        if isRequest, let k = lspKey(id) {
            lock.lock()
            let wasCancelled = cancelled.remove(k) != nil
            lock.unlock()
            if wasCancelled {
                fail(id, LSPError.requestCancelled, "the request was cancelled")
                return nil
            }
        }
        guard initialized || method == "initialize" else {
            if isRequest { fail(id, LSPError.serverNotInitialized, "the server is not initialized: send 'initialize' first") }
            return nil
        }
        if shuttingDown {
            if isRequest { fail(id, LSPError.invalidRequest, "the server is shutting down: only 'exit' is taken") }
            return nil
        }
        guard isRequest else {
            notification(method, params)
            return nil
        }
        request(id, method, params)
        return nil
    }

    func notification(_ method: String, _ params: [String: Any]) {
        switch method {
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "textDocument/didSave",
             "workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders":
            break
        case "textDocument/didOpen":
            guard let td = params["textDocument"] as? [String: Any], let uri = td["uri"] as? String,
                  let text = td["text"] as? String else { return badParams(method) }
            documents[uri] = LSPDocument(uri: uri, version: lspInt(td["version"]) ?? 0, text: text)
            analyses[uri] = nil
            dirty[uri] = 0
        case "textDocument/didChange":
            guard let td = params["textDocument"] as? [String: Any], let uri = td["uri"] as? String,
                  var doc = documents[uri], let changes = params["contentChanges"] as? [[String: Any]] else { return badParams(method) }
            var from = dirty[uri] ?? Int.max
            for c in changes {
                guard let text = c["text"] as? String else { return badParams(method) }
                if let r = c["range"] as? [String: Any], let s = LSPServer.position(r["start"]), let e = LSPServer.position(r["end"]) {
                    from = min(from, doc.offset(s, encoding))
                    doc.apply(text, from: s, to: e, encoding)
                } else {
                    from = 0
                    doc.apply(text, from: nil, to: nil, encoding)
                }
            }
            if let v = lspInt(td["version"]) { doc.version = v }
            documents[uri] = doc
            dirty[uri] = from
        case "textDocument/didClose":
            guard let td = params["textDocument"] as? [String: Any], let uri = td["uri"] as? String else { return badParams(method) }
            documents[uri] = nil
            analyses[uri] = nil
            dirty[uri] = nil
            unpublished.remove(uri)
            notify("textDocument/publishDiagnostics", ["uri": uri, "diagnostics": [Any]()] as [String: Any])
        default:
            // Notifications the server does not know are ignored (`$/` ones by the spec).
            break
        }
    }

    private func badParams(_ method: String) {
        log("'\(method)' with parameters the server cannot read: ignored", type: 2)
    }

    static func position(_ v: Any?) -> LSPPosition? {
        guard let p = v as? [String: Any], let l = lspInt(p["line"]), let c = lspInt(p["character"]) else { return nil }
        return LSPPosition(line: l, character: c)
    }

    func request(_ id: Any?, _ method: String, _ params: [String: Any]) {
        switch method {
        case "initialize":
            if initialized { return fail(id, LSPError.invalidRequest, "the server is already initialized") }
            initialized = true
            respond(id, initializeResult(params))
        case "shutdown":
            shuttingDown = true
            respond(id, nil)
        case "textDocument/completion": withDocument(id, params) { self.completion($0, $1, params) }
        case "textDocument/hover": withDocument(id, params) { self.hover($0, $1, params) }
        case "textDocument/definition": withDocument(id, params) { self.definition($0, $1, params) }
        case "textDocument/documentSymbol": withDocument(id, params) { self.symbols($0, $1) }
        case "textDocument/semanticTokens/full": withDocument(id, params) { self.semanticTokens($0, $1) }
        case "textDocument/codeAction": withDocument(id, params) { self.codeActions($0, $1, params) }
        case "textDocument/codeLens": withDocument(id, params) { self.codeLenses($0, $1) }
        case "workspace/executeCommand": respond(id, executeCommand(params))
        case "kept/documentText":
            // The server's copy of a document (tests check it against the client's).
            guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let d = documents[uri] else {
                return fail(id, LSPError.invalidParams, "no such open document")
            }
            respond(id, ["text": d.text, "version": d.version] as [String: Any])
        default:
            fail(id, LSPError.methodNotFound, "unknown method '\(method)'")
        }
    }

    /// Runs a feature on an open document, run first if it changed.
    private func withDocument(_ id: Any?, _ params: [String: Any], _ body: (LSPDocument, LSPAnalysis) -> Any?) {
        guard let uri = (params["textDocument"] as? [String: Any])?["uri"] as? String, let doc = documents[uri] else {
            return fail(id, LSPError.invalidParams, "the document is not open")
        }
        guard let a = analysis(uri) else { return respond(id, nil) }
        respond(id, body(doc, a))
    }

    /// The document's analysis, run now when it changed since.
    func analysis(_ uri: String) -> LSPAnalysis? {
        if dirty[uri] != nil { analyze(uri) }
        return analyses[uri]
    }

    private func analyze(_ uri: String) {
        guard let doc = documents[uri] else { return }
        let from = dirty[uri] ?? 0
        dirty[uri] = nil
        analyses[uri] = LSPAnalysis(path: LSPServer.path(of: uri), bytes: doc.bytes, reusing: analyses[uri], changedFrom: from)
        unpublished.insert(uri)
    }

    private func publishDirty() {
        for uri in dirty.keys.sorted() { analyze(uri) }
        let due = unpublished.sorted()
        unpublished = []
        for uri in due {
            guard let a = analyses[uri], let doc = documents[uri] else { continue }
            notify("textDocument/publishDiagnostics", ["uri": uri, "version": doc.version,
                                                       "diagnostics": diagnostics(doc, a)] as [String: Any])
        }
    }

    /// A file URI's path, percent escapes undone; any other URI as it is.
    static func path(of uri: String) -> String {
        if uri.hasPrefix("file://"), let u = URL(string: uri), u.isFileURL { return u.path }
        return uri
    }

    private func initializeResult(_ params: [String: Any]) -> [String: Any] {
        let general = (params["capabilities"] as? [String: Any])?["general"] as? [String: Any]
        let offered = general?["positionEncodings"] as? [String] ?? []
        encoding = offered.contains("utf-8") ? .utf8 : .utf16
        let caps: [String: Any] = [
            "positionEncoding": encoding.rawValue,
            "textDocumentSync": ["openClose": true, "change": 2] as [String: Any],
            "completionProvider": ["triggerCharacters": ["@", "+", "#", ":", "."], "resolveProvider": false] as [String: Any],
            "hoverProvider": true,
            "definitionProvider": true,
            "documentSymbolProvider": true,
            "semanticTokensProvider": ["legend": ["tokenTypes": LSPServer.tokenTypes, "tokenModifiers": [String]()] as [String: Any],
                                       "full": true, "range": false] as [String: Any],
            "codeActionProvider": ["codeActionKinds": ["quickfix"]] as [String: Any],
            "codeLensProvider": ["resolveProvider": false] as [String: Any],
            "executeCommandProvider": ["commands": [LSPServer.runCommand, LSPServer.updateCommand]] as [String: Any],
        ]
        return ["capabilities": caps, "serverInfo": ["name": "kept", "version": KeptMain.version] as [String: Any]]
    }
}
