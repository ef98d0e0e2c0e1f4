// The sync seam: what the engine needs of a server, whatever it is. `KeptSync` implements it on
// PostgreSQL; the tests' oracle implements the same rules in memory. The server decides every
// merge (docs/SYNC.md, "Merging"); the engine sends its outbox, keeps what is refused, and
// takes in what changed.

import KeptRules

/// An item as the server holds it after merging, as a pull or a refusal returns it.
public struct PulledItem: Sendable, Equatable {
    public var key: SyncKey
    /// Every field's value (wire names, docs/SYNC.md "Fields"); JSON null for an empty one.
    public var fields: JSONObject
    /// The stamp of every field's last change.
    public var clocks: [String: HLC]
    /// When it was deleted; nil while it lives.
    public var deleted: HLC?
    /// The server's version of the item: a pull asks for the items after a version.
    public var version: Int64

    public init(key: SyncKey, fields: JSONObject, clocks: [String: HLC], deleted: HLC?, version: Int64) {
        self.key = key
        self.fields = fields
        self.clocks = clocks
        self.deleted = deleted
        self.version = version
    }

    /// The latest stamp the item carries (the device's clock takes it in).
    public var latest: HLC? { ([deleted].compactMap { $0 } + Array(clocks.values)).max() }
}

/// What the server did with one pushed change.
public enum PushOutcome: Sendable, Equatable {
    /// Merged (or recognised as sent before and merged then).
    case applied
    /// Refused, with the item as the server holds it (nil when it has none).
    case refused(Refusal, current: PulledItem?)
}

/// The answer to one pushed change.
public struct PushResult: Sendable, Equatable {
    public var changeID: String
    public var outcome: PushOutcome
    /// The server had this change id already: nothing was applied again.
    public var duplicate: Bool

    public init(changeID: String, outcome: PushOutcome, duplicate: Bool) {
        self.changeID = changeID
        self.outcome = outcome
        self.duplicate = duplicate
    }
}

/// Why a sync did not happen. Only a refusal of a change is kept for review; these leave the
/// outbox as it was.
public enum SyncFailure: Error, Sendable, Equatable {
    /// The server could not be reached, or went away (refused connection, timeout, restart).
    case offline(String)
    /// The server refused the login (with its words).
    case login(String)
    /// The server has no Kept schema, or one newer than this version.
    case schema(String)
    /// The account named in the link does not exist on the server.
    case noAccount(String)
    /// Anything else the server said (with its words and SQLSTATE when it gave one).
    case server(String)
    /// A row the server sent does not read as an item (a server written by something else).
    case badRow(String)
}

/// A server an engine syncs with.
public protocol SyncServer: AnyObject {
    /// The account this connection is (the server's login role).
    var account: String { get }
    /// Sends changes in one transaction: every change gets a result, in order, or none does.
    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure>
    /// The account's items changed after `version`, in version order, at most `limit`.
    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure>
    /// The account's latest version.
    func version() -> Result<Int64, SyncFailure>

    // MARK: the first pull (docs/SYNC.md, "The first pull")

    /// Where a first pull starts, read at one snapshot: the account's version, how many live
    /// items it holds, and its `limit` most recently changed live items (latest first).
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure>
    /// The account's live items (not deleted) in key order after `key` (nil: from the first),
    /// at most `limit`. Key order is the kind's name, then the id, both compared as bytes.
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure>
    /// The account's live items, but settings, counted and summed (`SyncSummary.checksum`) at
    /// one version, read at one snapshot: what confirms a store holds the complete list.
    func summary() -> Result<SyncSummary, SyncFailure>

    // MARK: queries on the server (`kept run --account`)

    /// Every live item of the account but the tasks `narrowing` rules out, read at one
    /// snapshot. The narrowing is a superset of what a query needs; the compiled filter decides.
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure>

    /// Ends the connection.
    func close()
}

/// Where a first pull starts (`SyncServer.head`).
public struct SyncHead: Sendable, Equatable {
    /// The account's version when it was read.
    public var version: Int64
    /// How many live items (settings too) it held then.
    public var live: Int
    /// The most recently changed live items, latest first.
    public var recent: [PulledItem]

    public init(version: Int64, live: Int, recent: [PulledItem]) {
        self.version = version
        self.live = live
        self.recent = recent
    }
}

/// A count and a checksum of an account's live items (settings left out) at one version.
public struct SyncSummary: Sendable, Equatable {
    public var version: Int64
    public var count: Int
    public var checksum: UInt64

    public init(version: Int64, count: Int, checksum: UInt64) {
        self.version = version
        self.count = count
        self.checksum = checksum
    }

    /// One item's part of the checksum: the first 8 bytes of MD5("kind/id"), big-endian. The
    /// checksum is the XOR of the parts, so order does not matter; PostgreSQL computes it as
    /// `bit_xor(('x' || left(md5(kind || '/' || key), 16))::bit(64)::bigint)`.
    public static func part(_ key: SyncKey) -> UInt64 {
        let d = MD5.digest(Array((key.kind.rawValue + "/" + key.id).utf8))
        var v: UInt64 = 0
        for b in d.prefix(8) { v = v << 8 | UInt64(b) }
        return v
    }

    /// The count and checksum of a set of keys (settings left out).
    public static func of<S: Sequence>(_ keys: S) -> (count: Int, checksum: UInt64) where S.Element == SyncKey {
        var n = 0
        var x: UInt64 = 0
        for k in keys where k.kind != .setting {
            n += 1
            x ^= part(k)
        }
        return (n, x)
    }
}

/// Which tasks a query on the server may need: SQL narrows on these, on indexed columns, and
/// the compiled filter decides. Nil: no narrowing on that column.
public struct TaskNarrowing: Sendable, Equatable {
    /// Only tasks whose `status` field is one of these.
    public var statuses: Set<String>?
    /// Only tasks whose `project` field is this name, exactly.
    public var project: String?
    /// False: only open work, a task whose `status` is neither `done` nor `archived` (what a
    /// list or a count without a status term looks at).
    public var closed: Bool

    public init(statuses: Set<String>? = nil, project: String? = nil, closed: Bool = true) {
        self.statuses = statuses
        self.project = project
        self.closed = closed
    }

    /// Open work only.
    public static let openWork = TaskNarrowing(closed: false)

    /// No tasks at all: the account's other items (what binding a filter needs).
    public static let noTasks = TaskNarrowing(statuses: [])

    /// The tasks a narrowing keeps: those it admits, with their parents, and theirs, up to the
    /// top (a subtask shows its parent whatever the parent's status).
    public func select(_ tasks: [SyncKey: JSONObject]) -> Set<SyncKey> {
        var out = Set(tasks.filter { admits($0.value) }.keys)
        var todo = Array(out)
        while let k = todo.popLast() {
            guard let p = tasks[k]?["parent"]?.stringValue else { continue }
            let parent = SyncKey(.task, p)
            if tasks[parent] != nil, out.insert(parent).inserted { todo.append(parent) }
        }
        return out
    }

    /// Whether a task's fields pass.
    public func admits(_ fields: JSONObject) -> Bool {
        let status = fields["status"]?.stringValue ?? ""
        if let s = statuses, !s.contains(status) { return false }
        if let p = project, fields["project"]?.stringValue != p { return false }
        if !closed, status == "done" || status == "archived" { return false }
        return true
    }

    /// Every task.
    public static let none = TaskNarrowing()
}

/// An account's items as a query on the server reads them.
public struct SyncItems: Sendable, Equatable {
    public var version: Int64
    public var items: [PulledItem]
    /// Each task's place among all the account's live tasks in a first pull's order
    /// (`SyncItems.ranks`), from 1: the id a store synced from nothing gives it, whatever the
    /// narrowing left out.
    public var ranks: [SyncKey: Int]

    public init(version: Int64, items: [PulledItem], ranks: [SyncKey: Int] = [:]) {
        self.version = version
        self.items = items
        self.ranks = ranks
    }

    /// The first pull's order of an account's live items (every kind): the 50 of the highest
    /// versions, latest first, then the rest by key (`SyncListing.keyOrder`). A task's rank is
    /// one more than the tasks before it. PostgreSQL computes the same with window functions.
    public static func ranks(_ live: [KeyVersion], recent: Int = 50) -> [SyncKey: Int] {
        var out: [SyncKey: Int] = [:]
        var n = 0
        for item in firstPullOrder(live, recent: recent) where item.key.kind == .task {
            n += 1
            out[item.key] = n
        }
        return out
    }

    /// The items in the order a first pull takes them.
    public static func firstPullOrder<T>(_ live: [T], recent: Int = 50) -> [T] where T: FirstPullOrdered {
        let first = live.sorted { $0.version > $1.version }.prefix(max(0, recent))
        let firstKeys = Set(first.map(\.key))
        return Array(first) + live.filter { !firstKeys.contains($0.key) }.sorted { SyncListing.keyOrder($0.key, $1.key) }
    }
}

/// What a first pull orders by.
public protocol FirstPullOrdered {
    var key: SyncKey { get }
    var version: Int64 { get }
}

extension PulledItem: FirstPullOrdered {}

/// A key and a version, for ordering without the fields.
public struct KeyVersion: FirstPullOrdered, Sendable {
    public var key: SyncKey
    public var version: Int64
    public init(_ key: SyncKey, _ version: Int64) {
        self.key = key
        self.version = version
    }
}

/// A session that hears when the account changes (PostgreSQL's LISTEN on the account's
/// channel, notified in each push's transaction). One per live front end, on its own
/// connection, apart from the one that syncs.
public protocol SyncListener: AnyObject {
    /// Waits at most `timeout` seconds. True: the account changed (a notification came, or
    /// may have: a front end then syncs); false: nothing came. A connection that went away or
    /// stopped answering its keep-alive fails (`.offline`), within 10 s of going quiet.
    func wait(timeout: Double) -> Result<Bool, SyncFailure>
    /// Ends the session.
    func close()
}

/// What `kept account init` did to a server's schema.
public struct SchemaReport: Sendable, Equatable {
    /// The version found: nil when there was no schema.
    public var from: Int?
    /// The version it is at now.
    public var to: Int

    public init(from: Int?, to: Int) {
        self.from = from
        self.to = to
    }

    /// Nothing was done: the schema was at this version already.
    public var alreadyCurrent: Bool { from == to }
}

/// How the front ends reach a server: `KeptSync` gives the PostgreSQL one, and tests their own.
/// `server` is a libpq connection string or URI; an empty one means libpq's `PG*` variables.
public protocol SyncConnector: Sendable {
    /// A connection as the account the connection string logs in as.
    func connect(_ server: String) -> Result<any SyncServer, SyncFailure>
    /// The connection string with any password taken out (what a store's link keeps); nil when
    /// it does not read as one.
    func withoutPassword(_ server: String) -> String?
    /// Makes or migrates the Kept schema (`kept account init`); refuses a newer one.
    func initialize(_ server: String) -> Result<SchemaReport, SyncFailure>
    /// Makes an account and its login role (`kept account create NAME`).
    func createAccount(_ name: String, readOnly: Bool, password: String?, server: String) -> Result<Void, SyncFailure>
    /// A listener on the account's channel (LISTEN), on a connection of its own.
    func listen(_ server: String) -> Result<any SyncListener, SyncFailure>
}
