// The sync seam on PostgreSQL: a push is one call of `kept.push`, a pull one of `kept.pull`
// (docs/SYNC.md, "Push"). The server merges; this only sends and reads, and turns whatever
// the server sends that does not read into `.badRow` rather than into less.

import KeptRules
import KeptDomain

/// An account on a PostgreSQL server with the Kept schema.
public final class PostgresServer: SyncServer {
    private let conninfo: String
    private var connection: PGConnection?
    /// The role the server knows the connection as (`current_user`).
    public private(set) var account: String

    private init(conninfo: String, connection: PGConnection, account: String) {
        self.conninfo = conninfo
        self.connection = connection
        self.account = account
    }

    deinit { close() }

    /// Connects, and checks the database has this build's schema (not a newer one) and the
    /// role an account row.
    public static func connect(_ conninfo: String) -> Result<PostgresServer, SyncFailure> {
        let c: PGConnection
        switch open(conninfo) {
        case .success(let x): c = x
        case .failure(let f): return .failure(f)
        }
        switch account(on: c) {
        case .failure(let f): return .failure(f)
        case .success(let name): return .success(PostgresServer(conninfo: conninfo, connection: c, account: name))
        }
    }

    /// The role the connection logs in as, once the database is found to have this build's
    /// schema (not a newer one) and the role an account row. The listener checks the same.
    static func account(on c: PGConnection) -> Result<String, SyncFailure> {
        let account: String
        switch c.exec("SELECT current_user::text") {
        case .failure(let e): return .failure(SyncFailure(e))
        case .success(let r):
            guard let name = r.scalar else { return .failure(.badRow("the server gave no current_user")) }
            account = name
        }
        switch Schema.found(on: c) {
        // A role outside Kept's groups may not even use the schema: it has no account.
        case .failure(let e) where e.sqlstate == "42501": return .failure(.noAccount(account))
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        case .success(let f): if let bad = SyncFailure.schema(found: f) { return .failure(bad) }
        }
        switch c.exec("SELECT kept.version()") {
        case .failure(let e) where e.sqlstate == "42501": return .failure(.noAccount(account))
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        case .success(let r) where r.scalar == nil: return .failure(.noAccount(account))
        case .success: return .success(account)
        }
    }

    /// A connection set up as every call expects it.
    private static func open(_ conninfo: String) -> Result<PGConnection, SyncFailure> {
        switch PGConnection.connect(conninfo) {
        case .failure(let e): return .failure(SyncFailure(e))
        case .success(let c):
            // A push waits for the account's row lock; under a stricter isolation a database
            // might default to, that wait would end in a serialization failure instead.
            if case .failure(let e) = c.exec("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED") {
                return .failure(SyncFailure(e))
            }
            return .success(c)
        }
    }

    /// The connection, made again when the last one was lost (a server restarted, a network
    /// gone): a failed call leaves nothing to undo, since each is one transaction.
    private func live() -> Result<PGConnection, SyncFailure> {
        if let c = connection, !c.isBroken { return .success(c) }
        connection?.close()
        connection = nil
        switch Self.open(conninfo) {
        case .failure(let f): return .failure(f)
        case .success(let c):
            connection = c
            return .success(c)
        }
    }

    /// Ends the connection; a later call connects again.
    public func close() {
        connection?.close()
        connection = nil
    }

    // MARK: the seam

    public func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        guard !changes.isEmpty else { return .success([]) }
        // PostgreSQL's text and jsonb hold no NUL character: such a change would fail the whole
        // push, again at every try. It is refused here instead, and the others go.
        var local: [Int: PushResult] = [:]
        var sent: [OutgoingChange] = []
        for (k, ch) in changes.enumerated() {
            if Self.holdsNUL(ch.json) {
                local[k] = PushResult(changeID: ch.changeID,
                                      outcome: .refused(.invalid("a value holds a NUL character, which the server cannot store"), current: nil),
                                      duplicate: false)
            } else {
                sent.append(ch)
            }
        }
        var answers: [PushResult] = []
        if !sent.isEmpty {
            let c: PGConnection
            switch live() {
            case .success(let x): c = x
            case .failure(let f): return .failure(f)
            }
            let body = JSONWriter.compact(.array(sent.map(\.json)))
            let text: String
            switch c.exec("SELECT kept.push($1::jsonb)::text", params: [body]) {
            case .failure(let e): return .failure(SyncFailure(e, account: account))
            case .success(let r):
                guard let t = r.scalar else { return .failure(.badRow("kept.push gave no answer")) }
                text = t
            }
            switch Self.decodeAnswers(text, for: sent) {
            case .failure(let f): return .failure(f)
            case .success(let a): answers = a
            }
        }
        var out: [PushResult] = []
        var next = answers.makeIterator()
        for k in changes.indices {
            if let r = local[k] {
                out.append(r)
            } else if let r = next.next() {
                out.append(r)
            }
        }
        return .success(out)
    }

    public func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        guard limit > 0 else { return .success([]) }
        let c: PGConnection
        switch live() {
        case .success(let x): c = x
        case .failure(let f): return .failure(f)
        }
        let lim = String(min(limit, Int(Int32.max)))
        switch c.exec("SELECT kind, key, fields, clocks, deleted, version FROM kept.pull($1::bigint, $2::int)", params: [String(version), lim]) {
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        case .success(let r):
            var items: [PulledItem] = []
            items.reserveCapacity(r.rows.count)
            for row in r.rows {
                guard let item = Self.item(row: row) else {
                    return .failure(.badRow("a pulled row does not read as an item: \(Self.sample(row))"))
                }
                items.append(item)
            }
            return .success(items)
        }
    }

    public func head(recent limit: Int) -> Result<SyncHead, SyncFailure> {
        let sql = "SELECT account_version, live, kind, key, fields, clocks, deleted, version FROM kept.head($1::int)"
        switch rows(sql, [String(Self.clamped(limit))]) {
        case .failure(let f): return .failure(f)
        case .success(let r):
            guard let first = r.rows.first else { return .failure(.noAccount(account)) }
            guard first.count == 8, let vText = first[0], let version = Int64(vText), let nText = first[1], let live = Int(nText), live >= 0 else {
                return .failure(.badRow("kept.head's first row does not read: \(Self.sample(first))"))
            }
            var recent: [PulledItem] = []
            recent.reserveCapacity(r.rows.count)
            for row in r.rows {
                // Every row repeats the version and the count: one snapshot gives one of each.
                guard row.count == 8, row[0] == vText, row[1] == nText else {
                    return .failure(.badRow("kept.head's rows disagree on the version or the count"))
                }
                // The one row of an account with no live item.
                if r.rows.count == 1, row[2...].allSatisfy({ $0 == nil }) { break }
                guard let item = Self.item(row: Array(row[2...])), item.deleted == nil else {
                    return .failure(.badRow("a row of kept.head does not read as a live item: \(Self.sample(Array(row[2...])))"))
                }
                recent.append(item)
            }
            return .success(SyncHead(version: version, live: live, recent: recent))
        }
    }

    public func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> {
        guard limit > 0 else { return .success([]) }
        let sql = "SELECT kind, key, fields, clocks, deleted, version FROM kept.list($1::text, $2::text, $3::int)"
        switch rows(sql, [key?.kind.rawValue, key?.id, String(Self.clamped(limit))]) {
        case .failure(let f): return .failure(f)
        case .success(let r):
            var items: [PulledItem] = []
            items.reserveCapacity(r.rows.count)
            for row in r.rows {
                guard let item = Self.item(row: row), item.deleted == nil else {
                    return .failure(.badRow("a listed row does not read as a live item: \(Self.sample(row))"))
                }
                items.append(item)
            }
            return .success(items)
        }
    }

    public func summary() -> Result<SyncSummary, SyncFailure> {
        switch rows("SELECT version, live, checksum FROM kept.summary()", []) {
        case .failure(let f): return .failure(f)
        case .success(let r):
            guard let row = r.rows.first else { return .failure(.noAccount(account)) }
            guard r.rows.count == 1, row.count == 3, let version = row[0].flatMap({ Int64($0) }),
                  let live = row[1].flatMap({ Int($0) }), live >= 0, let sum = row[2].flatMap({ Int64($0) }) else {
                return .failure(.badRow("kept.summary's answer does not read: \(Self.sample(row))"))
            }
            // PostgreSQL has no unsigned bigint: the checksum's 64 bits come as a signed one.
            return .success(SyncSummary(version: version, count: live, checksum: UInt64(bitPattern: sum)))
        }
    }

    public func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> {
        // An array as PostgreSQL's text form reads it: every element quoted, `"` and `\` escaped.
        let statuses = narrowing.statuses.map { set in
            "{" + set.sorted().map { status in
                var quoted = "\""
                for ch in status {
                    if ch == "\"" || ch == "\\" { quoted.append("\\") }
                    quoted.append(ch)
                }
                return quoted + "\""
            }.joined(separator: ",") + "}"
        }
        let sql = "SELECT account_version, kind, key, fields, clocks, deleted, version FROM kept.items($1::text[], $2::text)"
        switch rows(sql, [statuses, narrowing.project]) {
        case .failure(let f): return .failure(f)
        case .success(let r):
            guard let first = r.rows.first else { return .failure(.noAccount(account)) }
            guard first.count == 7, let vText = first[0], let version = Int64(vText) else {
                return .failure(.badRow("kept.items's first row does not read: \(Self.sample(first))"))
            }
            var items: [PulledItem] = []
            items.reserveCapacity(r.rows.count)
            for row in r.rows {
                guard row.count == 7, row[0] == vText else { return .failure(.badRow("kept.items's rows disagree on the version")) }
                if r.rows.count == 1, row[1...].allSatisfy({ $0 == nil }) { break }
                guard let item = Self.item(row: Array(row[1...])), item.deleted == nil else {
                    return .failure(.badRow("a row of kept.items does not read as a live item: \(Self.sample(Array(row[1...])))"))
                }
                items.append(item)
            }
            // The server's key order, which the statement does not sort by (its tasks come
            // through whichever index narrows them).
            items.sort { SyncListing.keyOrder($0.key, $1.key) }
            return .success(SyncItems(version: version, items: items))
        }
    }

    /// The rows of one statement on the live connection, its failure as the engine reads it.
    private func rows(_ sql: String, _ params: [String?]) -> Result<PGRows, SyncFailure> {
        let c: PGConnection
        switch live() {
        case .success(let x): c = x
        case .failure(let f): return .failure(f)
        }
        return c.exec(sql, params: params).mapError { SyncFailure($0, account: account) }
    }

    /// A limit as PostgreSQL's `int` takes it.
    private static func clamped(_ limit: Int) -> Int { min(max(limit, 0), Int(Int32.max)) }

    public func version() -> Result<Int64, SyncFailure> {
        let c: PGConnection
        switch live() {
        case .success(let x): c = x
        case .failure(let f): return .failure(f)
        }
        switch c.exec("SELECT kept.version()") {
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        case .success(let r):
            guard let text = r.scalar else { return .failure(.noAccount(account)) }
            guard let v = Int64(text) else { return .failure(.badRow("the account's version does not read: \(text.prefix(40))")) }
            return .success(v)
        }
    }

    // MARK: reading the server's answers

    /// The results of a push, one per change sent, in order, each naming its change.
    static func decodeAnswers(_ text: String, for sent: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            return .failure(.badRow("kept.push's answer is not JSON: \(error.description)"))
        }
        guard let list = value.arrayValue, list.count == sent.count else {
            return .failure(.badRow("kept.push answered \(value.arrayValue?.count ?? 0) results for \(sent.count) changes"))
        }
        var out: [PushResult] = []
        out.reserveCapacity(list.count)
        for (answer, change) in zip(list, sent) {
            guard let r = result(answer), r.changeID == change.changeID else {
                return .failure(.badRow("kept.push's answer for change \(change.changeID) does not read"))
            }
            out.append(r)
        }
        return .success(out)
    }

    /// One result: `{"id", "outcome", "duplicate", "reason"…, "current"}`.
    static func result(_ v: JSONValue) -> PushResult? {
        guard let o = v.objectValue, let id = o["id"]?.stringValue, let duplicate = o["duplicate"]?.boolValue else { return nil }
        switch o["outcome"]?.stringValue {
        case "applied":
            return PushResult(changeID: id, outcome: .applied, duplicate: duplicate)
        case "refused":
            guard let refusal = Refusal(json: v) else { return nil }
            var current: PulledItem?
            if let c = o["current"], !c.isNull {
                guard let item = item(json: c) else { return nil }
                current = item
            }
            return PushResult(changeID: id, outcome: .refused(refusal, current: current), duplicate: duplicate)
        default:
            return nil
        }
    }

    /// An item as `kept.item_row` writes it.
    static func item(json v: JSONValue) -> PulledItem? {
        guard let o = v.objectValue, let n = o["version"]?.numberValue?.int else { return nil }
        let deleted: String?
        switch o["deleted"] {
        case .none, .some(.null): deleted = nil
        case .some(.string(let s)): deleted = s
        default: return nil
        }
        return item(kind: o["kind"]?.stringValue, key: o["key"]?.stringValue, fields: o["fields"], clocks: o["clocks"],
                    deleted: deleted, version: Int64(n))
    }

    /// An item as `kept.pull` returns it: kind, key, fields and clocks as JSON text, the
    /// deletion stamp, the version.
    static func item(row: [String?]) -> PulledItem? {
        guard row.count == 6, let fieldsText = row[2], let clocksText = row[3], let vText = row[5], let version = Int64(vText) else { return nil }
        guard let fields = try? JSONParser.parse(fieldsText), let clocks = try? JSONParser.parse(clocksText) else { return nil }
        return item(kind: row[0], key: row[1], fields: fields, clocks: clocks, deleted: row[4], version: version)
    }

    /// The item, when every part reads: a known kind, a key, fields as an object (in the order
    /// of their names), every clock a stamp.
    static func item(kind: String?, key: String?, fields: JSONValue?, clocks: JSONValue?, deleted: String?, version: Int64) -> PulledItem? {
        guard let kind = kind.flatMap(SyncKind.init(rawValue:)), let key, !key.isEmpty,
              let f = fields?.objectValue, let c = clocks?.objectValue else { return nil }
        var stamps: [String: HLC] = [:]
        for (name, v) in c.members {
            guard let s = v.stringValue, let h = HLC(s) else { return nil }
            stamps[name] = h
        }
        var del: HLC?
        if let deleted {
            guard let h = HLC(deleted) else { return nil }
            del = h
        }
        let sorted = JSONObject(f.members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        return PulledItem(key: SyncKey(kind, key), fields: sorted, clocks: stamps, deleted: del, version: version)
    }

    /// The start of a row, for a message.
    private static func sample(_ row: [String?]) -> String {
        String(row.prefix(2).map { $0 ?? "null" }.joined(separator: " ").prefix(80))
    }

    /// Whether any text of `v`, a name or a value, holds a NUL character.
    static func holdsNUL(_ v: JSONValue) -> Bool {
        switch v {
        case .string(let s): return s.utf8.contains(0)
        case .array(let a): return a.contains(where: holdsNUL)
        case .object(let o): return o.members.contains { $0.key.utf8.contains(0) || holdsNUL($0.value) }
        case .null, .bool, .number: return false
        }
    }
}
