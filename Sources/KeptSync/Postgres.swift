// A thin layer over libpq for the sync server: a connection, parameterised statements, errors
// as values with their SQLSTATE and kind. This is the one file that imports CLibPQ; nothing it
// returns holds a pointer of libpq's.

#if canImport(Glibc)
import Glibc
#endif

import CLibPQ

/// What PostgreSQL, or libpq on its way there, said went wrong.
package struct PGError: Error, Sendable, Equatable {
    /// What a caller can do about it.
    package enum Kind: Sendable, Equatable {
        /// The server could not be reached or went away: try again later.
        case offline
        /// The server refused the login (SQLSTATE class 28, or a password it asked for).
        case login
        /// The connection string does not read (libpq's own words say where).
        case badConninfo
        /// Anything else the server said.
        case server
    }

    package var kind: Kind
    /// The five characters of PostgreSQL's error code, when the server sent one.
    package var sqlstate: String?
    /// The server's or libpq's words, with any password of the connection string taken out.
    package var message: String

    package init(kind: Kind, sqlstate: String?, message: String) {
        self.kind = kind
        self.sqlstate = sqlstate
        self.message = message
    }

    /// The kind of an error with this SQLSTATE on a connection that is (`lost` false) or is not
    /// still usable. Class 08 is the connection's, 57P01–57P03 a server shutting down or
    /// starting, 53300 no free connection slot: each passes, so each is "offline".
    package static func kind(sqlstate: String?, lost: Bool) -> Kind {
        if lost { return .offline }
        guard let s = sqlstate else { return .server }
        if s.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(s) { return .offline }
        if s.hasPrefix("28") { return .login }
        return .server
    }
}

/// The rows a statement returned, every value in PostgreSQL's text form (nil for SQL NULL).
package struct PGRows: Sendable, Equatable {
    package var columns: [String]
    package var rows: [[String?]]
    /// The rows an INSERT, UPDATE or DELETE touched, or a SELECT returned.
    package var affected: Int

    /// The first column of the first row, when there is one and it is not NULL.
    package var scalar: String? {
        guard let row = rows.first, let v = row.first else { return nil }
        return v
    }
}

/// One connection to PostgreSQL through libpq. Every statement goes through `exec`, with its
/// values as parameters: no value is ever spliced into SQL text.
public final class PGConnection {
    private var conn: OpaquePointer?
    /// The parts of the connection string that must never appear in a message.
    private let secrets: [String]

    private init(_ conn: OpaquePointer, secrets: [String]) {
        self.conn = conn
        self.secrets = secrets
    }

    deinit { close() }

    // MARK: connecting

    /// Connects with a libpq connection string (`host=… dbname=…`) or URI
    /// (`postgresql://…`); a text with neither form is a database name, as for libpq. The `PG…`
    /// variables and `~/.pgpass` apply as libpq applies them. Without a `connect_timeout` (in
    /// the string or `PGCONNECT_TIMEOUT`) a wait is cut after 5 seconds, so an unreachable
    /// server is "offline" soon rather than after the system's TCP timeout.
    package static func connect(_ conninfo: String) -> Result<PGConnection, PGError> {
        let secrets = passwordTexts(in: conninfo)
        // libpq reads C strings: a NUL would cut the string short and connect somewhere else.
        guard !conninfo.utf8.contains(0) else {
            return .failure(PGError(kind: .badConninfo, sqlstate: nil, message: "the connection string holds a NUL character"))
        }
        let options: [(String, String)]
        if looksLikeConninfo(conninfo) {
            switch parse(conninfo) {
            case .success(let o): options = o
            case .failure(let e): return .failure(PGError(kind: .badConninfo, sqlstate: nil, message: scrub(e.message, secrets)))
            }
        } else {
            options = conninfo.isEmpty ? [] : [("dbname", conninfo)]
        }

        // Keywords are read in order and a later one wins, so the caller's string (expanded
        // from `dbname`) overrides the defaults before it; the encoding comes after it because
        // every text Kept sends and reads is UTF-8.
        var keys = ["fallback_application_name"]
        var values = ["kept"]
        let envTimeout = getenv("PGCONNECT_TIMEOUT").map { String(cString: $0) } ?? ""
        let givenTimeout = options.first { $0.0 == "connect_timeout" }?.1 ?? envTimeout
        if givenTimeout.isEmpty {
            keys.append("connect_timeout")
            values.append("5")
        }
        // TCP keep-alives (libpq sets them on TCP connections only), so that a connection
        // whose server or network vanished without a word is noticed by the system too: probes
        // after 10 s of quiet, every 5 s, 3 unanswered end it; data left unacknowledged for
        // 30 s ends it as well (a peer gone while a statement was being sent). Before `dbname`,
        // so a connection string that sets any of them wins.
        keys += ["keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout"]
        values += ["1", "10", "5", "3", "30000"]
        keys += ["dbname", "client_encoding"]
        values += [conninfo, "UTF8"]
        let seconds = timeoutSeconds(givenTimeout.isEmpty ? "5" : givenTimeout)

        guard let c = withCStrings(keys, { k in withCStrings(values, { v in PQconnectStartParams(k, v, 1) }) }) else {
            return .failure(PGError(kind: .offline, sqlstate: nil, message: "libpq could not allocate a connection"))
        }
        // Verbose errors carry the SQLSTATE of a refused login ("FATAL:  28P01: …"), which is
        // the only way libpq tells a wrong password from a server going down while connecting.
        PQsetErrorVerbosity(c, PQERRORS_VERBOSE)
        PQsetNoticeProcessor(c, { _, _ in }, nil)

        if let failure = finishConnecting(c, seconds: seconds, secrets: secrets) {
            PQfinish(c)
            return .failure(failure)
        }
        PQsetErrorVerbosity(c, PQERRORS_DEFAULT)
        return .success(PGConnection(c, secrets: secrets))
    }

    /// Drives libpq's non-blocking connection to its end; nil when it is made. A wait that
    /// sees no progress for `seconds` ends it (libpq's own blocking connect does the same per
    /// host; here the attempt ends rather than moving on to a next host).
    private static func finishConnecting(_ c: OpaquePointer, seconds: Int?, secrets: [String]) -> PGError? {
        var state = PGRES_POLLING_WRITING
        while true {
            if PQstatus(c) == CONNECTION_BAD { state = PGRES_POLLING_FAILED }
            switch state {
            case PGRES_POLLING_OK:
                return nil
            case PGRES_POLLING_READING, PGRES_POLLING_WRITING:
                let fd = PQsocket(c)
                guard fd >= 0 else { return connectError(c, secrets: secrets) }
                let events = Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                switch wait(fd: fd, events: events, seconds: seconds) {
                case .ready: break
                case .timedOut:
                    return PGError(kind: .offline, sqlstate: nil, message: "no answer from the server within \(seconds ?? 0) seconds")
                case .failed(let why):
                    return PGError(kind: .offline, sqlstate: nil, message: "waiting for the server failed: \(why)")
                }
                state = PQconnectPoll(c)
            default:
                return connectError(c, secrets: secrets)
            }
        }
    }

    private enum Wait { case ready, timedOut, failed(String) }

    /// Waits until `fd` is ready for `events`, for at most `seconds` (nil: without end).
    private static func wait(fd: Int32, events: Int16, seconds: Int?) -> Wait {
        let clock = ContinuousClock()
        let deadline = seconds.map { clock.now.advanced(by: .seconds($0)) }
        while true {
            var ms: Int32 = -1
            if let deadline {
                let left = clock.now.duration(to: deadline)
                if left <= .zero { return .timedOut }
                let (s, atto) = left.components
                ms = Int32(clamping: s * 1000 + atto / 1_000_000_000_000_000 + 1)
            }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let r = poll(&p, 1, ms)
            if r > 0 { return .ready }
            if r == 0 { continue }  // the deadline check above decides
            let e = errno
            if e == EINTR { continue }
            return .failed(String(cString: strerror(e)))
        }
    }

    /// The error of a connection that failed, classified by the SQLSTATE the server sent
    /// (a refused login) or by libpq's knowledge that a password was wanted.
    private static func connectError(_ c: OpaquePointer, secrets: [String]) -> PGError {
        let raw = String(cString: PQerrorMessage(c))
        let (state, words) = splitVerbose(raw)
        var kind = PGError.kind(sqlstate: state, lost: false)
        if state == nil { kind = PQconnectionNeedsPassword(c) != 0 ? .login : .offline }
        return PGError(kind: kind, sqlstate: state, message: scrub(words, secrets))
    }

    /// Takes the SQLSTATE out of a verbose message (`FATAL:  28P01: password …`) and drops the
    /// `LOCATION:` lines that name the server's source files.
    static func splitVerbose(_ message: String) -> (String?, String) {
        var state: String?
        var lines: [String] = []
        for line in message.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("LOCATION:") { continue }
            var text = String(line)
            if let r = text.firstRange(of: ":  ") {
                let rest = text[r.upperBound...]
                let code = rest.prefix(5)
                if code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isUppercase) }),
                   rest.dropFirst(5).hasPrefix(": ") {
                    if state == nil { state = String(code) }
                    text = String(text[..<r.upperBound]) + String(rest.dropFirst(7))
                }
            }
            lines.append(text)
        }
        return (state, lines.joined(separator: "\n"))
    }

    /// libpq's `connect_timeout`: whole seconds, none for zero or less, and at least 2.
    private static func timeoutSeconds(_ text: String) -> Int? {
        guard let n = Int(text.trimmingSpaces) else { return nil }
        // A day at most, so the milliseconds a wait is given stay far from overflowing.
        return n <= 0 ? nil : min(max(n, 2), 86_400)
    }

    /// Ends the connection; later calls fail as offline.
    package func close() {
        if let c = conn { PQfinish(c) }
        conn = nil
    }

    /// The connection was lost (or closed): a new one must be made.
    package var isBroken: Bool {
        guard let c = conn else { return true }
        return lost || PQstatus(c) != CONNECTION_OK
    }

    /// A statement failed as offline. libpq may still call the connection good then: a write
    /// to a closed socket is only noticed when it next reads.
    private var lost = false

    // MARK: notifications (the listener's side: docs/SYNC.md, "Live changes")

    /// `name` quoted as an identifier by libpq (PQescapeIdentifier), for the statements that
    /// take a name and no parameter, such as LISTEN.
    package func quotedIdentifier(_ name: String) -> Result<String, PGError> {
        guard let c = conn else { return .failure(PGError(kind: .offline, sqlstate: nil, message: "the connection was closed")) }
        guard !name.utf8.contains(0) else {
            return .failure(PGError(kind: .server, sqlstate: "22021", message: "a name holds a NUL character"))
        }
        let bytes = Array(name.utf8CString)
        guard let p = bytes.withUnsafeBufferPointer({ PQescapeIdentifier(c, $0.baseAddress, bytes.count - 1) }) else {
            return .failure(PGError(kind: .server, sqlstate: nil, message: String(cString: PQerrorMessage(c)).trimmingSpaces))
        }
        defer { PQfreemem(p) }
        return .success(String(cString: p))
    }

    /// Waits at most `milliseconds` for the server to send something (0: only looks). True:
    /// something came, or the connection ended (the next `consumeInput` says which).
    package func waitForInput(milliseconds: Int32) -> Result<Bool, PGError> {
        guard let c = conn else { return .failure(PGError(kind: .offline, sqlstate: nil, message: "the connection was closed")) }
        let fd = PQsocket(c)
        guard fd >= 0 else {
            lost = true
            return .failure(PGError(kind: .offline, sqlstate: nil, message: "the connection has no socket"))
        }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, max(milliseconds, 0))
            if r >= 0 { return .success(r > 0) }
            let e = errno
            // A signal (a terminal resized, a child ended) cuts the wait short, as a quiet one.
            if e == EINTR { return .success(false) }
            return .failure(PGError(kind: .offline, sqlstate: nil, message: "waiting for the server failed: \(String(cString: strerror(e)))"))
        }
    }

    /// Reads whatever the server sent, without waiting (PQconsumeInput). Fails as offline when
    /// the connection ended: a server stopped, a backend terminated.
    package func consumeInput() -> PGError? {
        guard let c = conn else { return PGError(kind: .offline, sqlstate: nil, message: "the connection was closed") }
        if PQconsumeInput(c) == 0 || PQstatus(c) != CONNECTION_OK {
            lost = true
            let words = String(cString: PQerrorMessage(c)).trimmingSpaces
            return PGError(kind: .offline, sqlstate: nil, message: Self.scrub(words.isEmpty ? "the connection ended" : words, secrets))
        }
        return nil
    }

    /// The notifications read so far, oldest first (each freed as it is taken).
    package func notifications() -> [(channel: String, payload: String)] {
        guard let c = conn else { return [] }
        var out: [(channel: String, payload: String)] = []
        while let n = PQnotifies(c) {
            out.append((String(cString: n.pointee.relname), String(cString: n.pointee.extra)))
            PQfreemem(n)
        }
        return out
    }

    /// Sends a statement without waiting for its answer (PQsendQuery); `answer()` takes it.
    package func send(_ sql: String) -> PGError? {
        guard let c = conn else { return PGError(kind: .offline, sqlstate: nil, message: "the connection was closed") }
        if PQsendQuery(c, sql) == 0 {
            lost = true
            return PGError(kind: .offline, sqlstate: nil, message: Self.scrub(String(cString: PQerrorMessage(c)).trimmingSpaces, secrets))
        }
        return nil
    }

    /// Where the answer to a statement sent stands.
    package enum Answer: Equatable {
        /// Not all of it has come: read more input, then ask again.
        case pending
        /// It came, and the connection is ready for another statement.
        case done
        case failed(PGError)
    }

    /// Takes the answer of the statement `send` sent, as far as it has been read; never waits.
    package func answer() -> Answer {
        guard let c = conn else { return .failed(PGError(kind: .offline, sqlstate: nil, message: "the connection was closed")) }
        while PQisBusy(c) == 0 {
            guard let res = PQgetResult(c) else { return .done }
            defer { PQclear(res) }
            let status = PQresultStatus(res)
            if status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK && status != PGRES_EMPTY_QUERY {
                let state = field(res, kept_pq_diag_sqlstate())
                let message = field(res, kept_pq_diag_message()) ?? String(cString: PQerrorMessage(c)).trimmingSpaces
                let broke = PQstatus(c) != CONNECTION_OK || state == nil
                if broke { lost = true }
                return .failed(PGError(kind: PGError.kind(sqlstate: state, lost: broke), sqlstate: state, message: Self.scrub(message, secrets)))
            }
        }
        return .pending
    }

    /// The value of one of the connection's options as libpq uses it (PQconninfo), nil when
    /// unset: what a test reads to see the defaults `connect` adds.
    package func option(_ name: String) -> String? {
        guard let c = conn, let opts = PQconninfo(c) else { return nil }
        defer { PQconninfoFree(opts) }
        var k = 0
        while let key = opts[k].keyword {
            if String(cString: key) == name { return opts[k].val.map { String(cString: $0) } }
            k += 1
        }
        return nil
    }

    // MARK: statements

    /// Runs one statement with `params` as `$1`, `$2`… (text format, nil for NULL). Always
    /// `PQexecParams`, so a value is never read as SQL and a text holds only one statement.
    package func exec(_ sql: String, params: [String?] = []) -> Result<PGRows, PGError> {
        guard let c = conn else { return .failure(PGError(kind: .offline, sqlstate: nil, message: "the connection was closed")) }
        // libpq takes C strings: a NUL would end a value early and change what is sent.
        if params.contains(where: { $0?.utf8.contains(0) == true }) {
            return .failure(PGError(kind: .server, sqlstate: "22021", message: "a value holds a NUL character, which PostgreSQL cannot store"))
        }
        let texts = params.map { $0 ?? "" }
        let result: OpaquePointer? = withCStrings(texts) { values in
            // A NULL parameter is a null pointer among the others.
            var pointers: [UnsafePointer<CChar>?] = []
            for (k, p) in params.enumerated() { pointers.append(p == nil ? nil : values[k]) }
            return pointers.withUnsafeBufferPointer { buf in
                PQexecParams(c, sql, Int32(clamping: params.count), nil, buf.baseAddress, nil, nil, 0)
            }
        }
        guard let res = result else {
            // No result at all: out of memory, or a connection that broke.
            let message = String(cString: PQerrorMessage(c)).trimmingSpaces
            lost = true
            return .failure(PGError(kind: .offline, sqlstate: nil, message: Self.scrub(message, secrets)))
        }
        defer { PQclear(res) }
        let status = PQresultStatus(res)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let state = field(res, kept_pq_diag_sqlstate())
            var message = field(res, kept_pq_diag_message()) ?? String(cString: PQresultErrorMessage(res)).trimmingSpaces
            if message.isEmpty { message = String(cString: PQerrorMessage(c)).trimmingSpaces }
            // An error without a SQLSTATE is libpq's own: the connection broke on the way
            // ("server closed the connection unexpectedly", "could not send data").
            let broke = PQstatus(c) != CONNECTION_OK || state == nil
            let kind = PGError.kind(sqlstate: state, lost: broke)
            if kind == .offline { lost = true }
            return .failure(PGError(kind: kind, sqlstate: state, message: Self.scrub(message, secrets)))
        }
        let n = Int(PQntuples(res))
        let width = Int(PQnfields(res))
        var columns: [String] = []
        for f in 0..<width { columns.append(PQfname(res, Int32(f)).map { String(cString: $0) } ?? "") }
        var rows: [[String?]] = []
        rows.reserveCapacity(n)
        for r in 0..<n {
            var row: [String?] = []
            row.reserveCapacity(width)
            for f in 0..<width {
                if PQgetisnull(res, Int32(r), Int32(f)) != 0 { row.append(nil); continue }
                row.append(PQgetvalue(res, Int32(r), Int32(f)).map { String(cString: $0) })
            }
            rows.append(row)
        }
        let touched = PQcmdTuples(res).map { Int(String(cString: $0)) ?? n } ?? n
        return .success(PGRows(columns: columns, rows: rows, affected: touched))
    }

    private func field(_ res: OpaquePointer, _ code: Int32) -> String? {
        guard let p = PQresultErrorField(res, code) else { return nil }
        return String(cString: p)
    }

    /// The password verifier PostgreSQL stores for `role`, made here by libpq with the server's
    /// `password_encryption`, so the password itself never travels nor reaches a server log.
    package func passwordVerifier(_ password: String, role: String) -> Result<String, PGError> {
        guard let c = conn else { return .failure(PGError(kind: .offline, sqlstate: nil, message: "the connection was closed")) }
        guard !password.utf8.contains(0), !role.utf8.contains(0) else {
            return .failure(PGError(kind: .server, sqlstate: "22021", message: "a password or name holds a NUL character"))
        }
        guard let p = PQencryptPasswordConn(c, password, role, nil) else {
            let message = String(cString: PQerrorMessage(c)).trimmingSpaces
            return .failure(PGError(kind: PQstatus(c) == CONNECTION_OK ? .server : .offline, sqlstate: nil,
                                    message: Self.scrub(message, secrets + [password])))
        }
        defer { PQfreemem(p) }
        return .success(String(cString: p))
    }

    // MARK: connection strings

    /// The connection string without its password, as a link may keep it (libpq finds the
    /// password again in `PGPASSWORD` or `~/.pgpass`): `key='value'` pairs, quoted and escaped
    /// as libpq reads them. A URI comes back in that form too, and a bare database name as
    /// `dbname='…'`. Nil when the text does not read.
    public static func withoutPassword(_ conninfo: String) -> String? {
        let options: [(String, String)]
        if looksLikeConninfo(conninfo) {
            guard case .success(let o) = parse(conninfo) else { return nil }
            options = o
        } else {
            options = conninfo.isEmpty ? [] : [("dbname", conninfo)]
        }
        return options.filter { $0.0 != "password" }.map { "\($0.0)=\(quoted($0.1))" }.joined(separator: " ")
    }

    /// A value as libpq's connection strings quote it: in single quotes, `\` and `'` escaped.
    static func quoted(_ value: String) -> String {
        var out = "'"
        for ch in value {
            if ch == "\\" || ch == "'" { out.append("\\") }
            out.append(ch)
        }
        return out + "'"
    }

    /// libpq's rule (`expand_dbname`): a text with `=` or a URI prefix is a connection string.
    static func looksLikeConninfo(_ s: String) -> Bool {
        s.contains("=") || s.hasPrefix("postgresql://") || s.hasPrefix("postgres://")
    }

    /// The options a connection string sets, in libpq's order; libpq's words when it does not read.
    private static func parse(_ conninfo: String) -> Result<[(String, String)], PGError> {
        func bad(_ why: String) -> PGError { PGError(kind: .badConninfo, sqlstate: nil, message: why) }
        guard !conninfo.utf8.contains(0) else { return .failure(bad("the connection string holds a NUL character")) }
        var err: UnsafeMutablePointer<CChar>? = nil
        guard let opts = PQconninfoParse(conninfo, &err) else {
            defer { if let err { PQfreemem(err) } }
            return .failure(bad(err.map { String(cString: $0).trimmingSpaces } ?? "the connection string does not read"))
        }
        defer { PQconninfoFree(opts) }
        var out: [(String, String)] = []
        var k = 0
        while let key = opts[k].keyword {
            if let v = opts[k].val { out.append((String(cString: key), String(cString: v))) }
            k += 1
        }
        return .success(out)
    }

    // MARK: keeping passwords out of messages

    /// Every text of `conninfo` that may be its password: libpq's reading of it, and, for a
    /// string libpq cannot read (whose error may echo it), what follows `password` or sits
    /// between `:` and `@` in a URI, as written and percent-decoded.
    static func passwordTexts(in conninfo: String) -> [String] {
        var found: Set<String> = []
        if looksLikeConninfo(conninfo), case .success(let o) = parse(conninfo) {
            for (k, v) in o where k == "password" { found.insert(v) }
        }
        let chars = Array(conninfo)
        var i = 0
        let word = "password"
        while i + word.count <= chars.count {
            guard String(chars[i..<(i + word.count)]).lowercased() == "password" else { i += 1; continue }
            var j = i + word.count
            while j < chars.count, chars[j] == " " || chars[j] == "=" { j += 1 }
            if j < chars.count, chars[j] == "'" {
                var v = ""
                var raw = ""
                j += 1
                while j < chars.count, chars[j] != "'" {
                    if chars[j] == "\\", j + 1 < chars.count { raw.append(chars[j]); j += 1 }
                    v.append(chars[j])
                    raw.append(chars[j])
                    j += 1
                }
                found.insert(v)
                found.insert(raw)
            } else {
                var v = ""
                while j < chars.count, chars[j] != " " { v.append(chars[j]); j += 1 }
                found.insert(v)
                if let amp = v.firstIndex(of: "&") { found.insert(String(v[..<amp])) }
            }
            i = j
        }
        if let scheme = conninfo.firstRange(of: "://") {
            let rest = conninfo[scheme.upperBound...]
            if let at = rest.lastIndex(of: "@") {
                let userinfo = rest[..<at]
                if let colon = userinfo.firstIndex(of: ":") { found.insert(String(userinfo[userinfo.index(after: colon)...])) }
            }
        }
        for v in Array(found) { if let d = percentDecoded(v) { found.insert(d) } }
        return found.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// `text` with every one of `secrets` replaced by stars.
    static func scrub(_ text: String, _ secrets: [String]) -> String {
        var out = text
        for s in secrets where !s.isEmpty {
            out = out.replacing(s, with: "********")
        }
        return out
    }

    private static func percentDecoded(_ s: String) -> String? {
        guard s.contains("%") else { return nil }
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let b = u.first {
            u = u.dropFirst()
            if b == UInt8(ascii: "%"), u.count >= 2, let v = UInt8(String(decoding: u.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                u = u.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Calls `body` with `strings` as C strings ending with a null pointer, alive for the call (a
/// Swift array of pointers passes to C as a `const char *const *`).
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    var copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { for p in copies { free(p) } }
    copies.append(nil)
    return body(copies.map { $0.map { UnsafePointer($0) } })
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }

}
