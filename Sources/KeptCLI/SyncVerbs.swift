// `kept sync [status]` and `kept account init|create` (docs/SYNC.md, "Statements and commands"):
// a store synced as one statement of the language, written when it succeeded, and a server's
// schema and accounts made through the connector KeptMain holds. An offline sync exits 3 and,
// with --json, prints one object that says so. A password is read from standard input, never
// echoed, never printed (R-SYNC-9).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum SyncVerbs {
    /// The exit code of a sync that could not reach its server: its changes wait (docs/LANGUAGE.md).
    static let offlineExit: Int32 = 3

    /// `kept sync [status] --store FILE`: the statement, run on the store and written when it
    /// succeeded (a failed sync leaves the store as it was). Exit 0, 1 a failure, 2 a store that
    /// cannot be read, 3 offline.
    static func sync(_ o: SessionOptions, status: Bool, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        let session: Session
        switch SessionFactory.make(o, testMode: false, commits: .eachStatement) {
        case .success(let s): session = s
        case .failure(let f): return KeptMain.report(f, format: o.format, out: out, err: err, renderer: renderer)
        }
        defer { session.store.close() }
        for n in session.store.notices { err.line(renderer.render(Catalog.store(n))) }
        return sync(session, status: status, out: out, err: err, renderer: renderer)
    }

    /// `kept sync [status]` on a session made for it, in the session's format.
    static func sync(_ session: Session, status: Bool, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        let format = session.format
        let r = session.run(StatementSource(file: SourceFile(name: "kept sync", text: status ? "sync status" : "sync")))
        if let waiting = r.syncOffline, format == .json {
            // One object, also for offline: a program tells it from any other failure.
            let message = r.diagnostics.first?.message ?? ""
            out.line(JSONWriter.compact(.object(JSONObject([
                ("offline", .bool(true)), ("waiting", .number(JSONNumber(waiting))), ("message", .string(message)),
            ]))))
            return offlineExit
        }
        out.lines(r.lines)
        for d in r.diagnostics { report(d, format, out: out, err: err, renderer: renderer) }
        if session.store.readFailure != nil { return 2 }
        if r.syncOffline != nil { return offlineExit }
        return r.failed ? 1 : 0
    }

    /// `kept account init` and `kept account create NAME`, on the server of a connection
    /// string (empty: the PG* variables), which is shown without its password.
    static func account(_ c: AccountCommand, format: OutputFormat, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer,
                        password: () -> String?) -> Int32 {
        guard let connector = KeptMain.syncConnector else {
            report(Catalog.syncUnavailable(range: nil, file: nil), format, out: out, err: err, renderer: renderer)
            return 1
        }
        let server: String
        switch c {
        case .initialize(let s), .create(_, _, _, let s): server = s
        }
        guard let shown = connector.withoutPassword(server) else {
            report(Catalog.badConnectionString(range: nil, file: nil), format, out: out, err: err, renderer: renderer)
            return 1
        }
        let on = Session.serverWords(shown)
        switch c {
        case .initialize:
            switch connector.initialize(server) {
            case .failure(let f):
                report(Catalog.syncFailure(f, waiting: nil, range: nil, file: nil), format, out: out, err: err, renderer: renderer)
                return 1
            case .success(let r):
                let line: String
                if let from = r.from {
                    line = from == r.to ? "The kept schema on \(on) is at version \(r.to) already"
                        : "Migrated the kept schema on \(on) from version \(from) to \(r.to)"
                } else {
                    line = "Made the kept schema on \(on) (version \(r.to))"
                }
                let json = JSONValue.object(JSONObject([("schema", .object(JSONObject([
                    ("server", .string(shown)), ("from", r.from.map { .number(JSONNumber($0)) } ?? .null), ("to", .number(JSONNumber(r.to))),
                ])))]))
                out.line(format == .json ? JSONWriter.compact(json) : line)
                return 0
            }
        case .create(let name, let readOnly, let passwordStdin, _):
            var secret: String? = nil
            if passwordStdin {
                guard let p = password(), !p.isEmpty else {
                    err.line("kept: --password-stdin read no password")
                    return 64
                }
                secret = p
            }
            switch connector.createAccount(name, readOnly: readOnly, password: secret, server: server) {
            case .failure(let f):
                report(Catalog.syncFailure(f, waiting: nil, range: nil, file: nil), format, out: out, err: err, renderer: renderer)
                return 1
            case .success:
                let json = JSONValue.object(JSONObject([("account", .object(JSONObject([
                    ("name", .string(name)), ("server", .string(shown)), ("readOnly", .bool(readOnly)), ("password", .bool(secret != nil)),
                ])))]))
                let how = readOnly ? "read-only account" : "account"
                let login = secret == nil ? "" : ", its login with the password given"
                out.line(format == .json ? JSONWriter.compact(json) : "Made the \(how) \(name) on \(on)\(login)")
                return 0
            }
        }
    }

    /// A diagnostic on stderr, or as one JSON object on stdout in JSON mode.
    static func report(_ d: Diagnostic, _ format: OutputFormat, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) {
        if format == .json {
            out.line(JSONWriter.compact(DiagnosticJSON.value(d)))
        } else {
            out.flush()
            err.line(renderer.render(d))
        }
    }

    /// The password for `--password-stdin`: from a terminal, asked on stderr with echo off;
    /// otherwise standard input, up to its first line break. Nil when nothing could be read.
    static func readPassword() -> String? {
        var bytes: [UInt8] = []
        if isatty(0) != 0 {
            let prompt = Array("Password: ".utf8)
            _ = prompt.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            var saved = termios()
            let quiet = tcgetattr(0, &saved) == 0
            if quiet {
                var t = saved
                t.c_lflag &= ~tcflag_t(ECHO)
                _ = tcsetattr(0, TCSANOW, &t)
            }
            defer {
                if quiet { _ = tcsetattr(0, TCSANOW, &saved) }
                _ = [UInt8(0x0A)].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            }
            var b: UInt8 = 0
            while bytes.count <= 4096 {
                let n = read(0, &b, 1)
                if n < 0, errno == EINTR { continue }
                if n <= 0 || b == 0x0A { break }
                bytes.append(b)
            }
        } else {
            guard let all = readAllStdin(limit: 4096) else { return nil }
            bytes = Array(all.prefix { $0 != 0x0A })
        }
        if bytes.last == 0x0D { bytes.removeLast() }
        guard firstInvalidUTF8(bytes) == nil else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
