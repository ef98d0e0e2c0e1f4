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
    /// Ends the connection.
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
}
