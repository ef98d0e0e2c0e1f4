// What a store keeps for sync (docs/SYNC.md): the link to an account, the device's clock, how
// far it has pulled, the outbox of changes not yet sent and the changes the server refused. It
// changes through the store's one change path (`StoreChange.sync`), so a change and its
// outbox entry are committed together, and a rollback drops both.

import KeptRules

/// The kinds of item that sync.
public enum SyncKind: String, Sendable, CaseIterable, Comparable {
    case task, project, area, filter, setting

    public static func < (a: SyncKind, b: SyncKind) -> Bool { a.rawValue < b.rawValue }
}

/// One item's identity across devices: a task's, project's, area's or saved filter's uid, or a
/// setting's key.
public struct SyncKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var kind: SyncKind
    public var id: String

    public init(_ kind: SyncKind, _ id: String) {
        self.kind = kind
        self.id = id
    }

    public static func < (a: SyncKey, b: SyncKey) -> Bool { (a.kind, a.id) < (b.kind, b.id) }

    public var description: String { "\(kind.rawValue):\(id)" }
}

/// A store's link to an account on a server. It holds no secret: `server` is a libpq
/// connection string with any password taken out (libpq finds one in `PGPASSWORD` or
/// `~/.pgpass`).
public struct SyncLink: Sendable, Equatable {
    public var server: String
    public var account: String
    /// This store's name among the account's devices (HLC.node).
    public var device: String

    public init(server: String, account: String, device: String) {
        self.server = server
        self.account = account
        self.device = device
    }
}

/// One item's changes waiting to be sent, folded: the fields changed since the last push, each
/// with the stamp of its last change. The values are read from the store when it is sent, so
/// the final version travels, once.
public struct OutboxEntry: Sendable, Equatable {
    /// Names this version of the entry; a new one whenever the entry changes, so the server
    /// recognises a resent push and tells it from a new one.
    public var changeID: String
    public var key: SyncKey
    /// Changed fields (wire names, docs/SYNC.md "Fields") with the stamp of their last change.
    public var fields: [String: HLC]
    /// When the item was deleted here (then the values are not sent).
    public var deleted: HLC?
    /// When a deleted item came back here (undo of a delete, a retried refusal).
    public var restored: HLC?
    /// For a deleted item: the values its changed fields had when it went, sent with the
    /// delete so a restore on any device brings them back (nil while the item is here: its
    /// values are read from the store).
    public var values: JSONObject?
    /// The order entries were first queued in; pushes go in this order.
    public var seq: Int

    public init(changeID: String, key: SyncKey, fields: [String: HLC] = [:], deleted: HLC? = nil, restored: HLC? = nil, seq: Int) {
        self.changeID = changeID
        self.key = key
        self.fields = fields
        self.deleted = deleted
        self.restored = restored
        self.seq = seq
    }
}

/// A change as it goes to the server: the entry with the values of its fields.
public struct OutgoingChange: Sendable, Equatable {
    public var changeID: String
    public var key: SyncKey
    /// The changed fields' values (JSON null: the field is now empty).
    public var values: JSONObject
    public var clocks: [String: HLC]
    public var deleted: HLC?
    public var restored: HLC?
    /// What the item is called (a task's title, a project's name), for `sync review`.
    public var label: String

    public init(changeID: String, key: SyncKey, values: JSONObject, clocks: [String: HLC], deleted: HLC?, restored: HLC?, label: String) {
        self.changeID = changeID
        self.key = key
        self.values = values
        self.clocks = clocks
        self.deleted = deleted
        self.restored = restored
        self.label = label
    }
}

/// Why the server refused a change (docs/SYNC.md, "Failures").
public enum Refusal: Sendable, Equatable {
    /// The item was deleted on another device, and the change does not bring it back.
    case deletedElsewhere
    /// A value is longer than the server takes (`field`, in bytes of its JSON text).
    case tooLarge(field: String, limit: Int)
    /// The account's role may read but not write.
    case readOnly
    /// The server could not read the change (with its words).
    case invalid(String)

    /// The code a store and the server write: `deleted`, `too-large`, `read-only`, `invalid`.
    public var code: String {
        switch self {
        case .deletedElsewhere: return "deleted"
        case .tooLarge: return "too-large"
        case .readOnly: return "read-only"
        case .invalid: return "invalid"
        }
    }
}

/// A change the server refused, kept until `sync retry` or `sync discard`.
public struct ReviewEntry: Sendable, Equatable {
    public var change: OutgoingChange
    public var refusal: Refusal
    public var refusedAt: Instant
    /// Every field of the item as this device had it when it sent the change (nil for a
    /// delete), so `sync retry` can bring it back whole after another device deleted it.
    public var record: JSONObject?

    public init(change: OutgoingChange, refusal: Refusal, refusedAt: Instant, record: JSONObject?) {
        self.change = change
        self.refusal = refusal
        self.refusedAt = refusedAt
        self.record = record
    }
}

/// A first pull under way (docs/SYNC.md, "The first pull"): the account's live items, listed
/// in key order a page at a time, each page committed, so a pull cut short goes on from where
/// it stopped. Until the list is confirmed complete, counts and views say the store is loading,
/// and no item is removed for being absent.
public struct SyncListing: Sendable, Equatable {
    /// The account's version when the listing began: what changed after it comes with the
    /// pull that follows the listing.
    public var version: Int64
    /// The live items the account held then.
    public var total: Int
    /// The keys of the most recently changed items, taken first.
    public var recent: [SyncKey]
    /// The last key listed (nil: none yet).
    public var after: SyncKey?
    /// How many items the pages listed so far.
    public var listed: Int
    /// Whether every page is here (then the pull after it, and the confirmation, are left).
    public var paged: Bool
    /// Items of this store the pages did not hold (settings, and items waiting to be sent,
    /// never are): removed once the server confirms the complete list.
    public var absent: [SyncKey]

    public init(version: Int64, total: Int, recent: [SyncKey], after: SyncKey? = nil, listed: Int = 0, paged: Bool = false,
                absent: [SyncKey] = []) {
        self.version = version
        self.total = total
        self.recent = recent
        self.after = after
        self.listed = listed
        self.paged = paged
        self.absent = absent
    }

    /// How many items are here, as far as a count can say while loading.
    public var received: Int {
        if paged { return total }
        let ahead = recent.filter { k in after.map { SyncListing.keyOrder($0, k) } ?? true }.count
        return min(total, listed + ahead)
    }

    /// The server's key order: the kind's name, then the id, as bytes.
    public static func keyOrder(_ a: SyncKey, _ b: SyncKey) -> Bool {
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// Everything a store keeps for sync.
public struct SyncState: Sendable, Equatable {
    public var link: SyncLink?
    /// The device's last stamp: it never goes back, across sessions.
    public var clock: HLC?
    /// The server's version of the last item pulled.
    public var cursor: Int64 = 0
    /// Entries by item.
    public var outbox: [SyncKey: OutboxEntry] = [:]
    /// Refused changes, oldest first.
    public var review: [ReviewEntry] = []
    /// A first pull under way (nil: none, or done).
    public var listing: SyncListing?

    public init() {}

    /// The outbox in the order it is sent.
    public var queue: [OutboxEntry] { outbox.values.sorted { ($0.seq, $0.key) < ($1.seq, $1.key) } }

    /// The largest `seq` queued so far. Not part of the state a store keeps: a loaded store
    /// takes the largest of its outbox, and an empty outbox starts again at 1 (only the order
    /// of the entries waiting matters).
    public var lastSeq = 0

    public static func == (a: SyncState, b: SyncState) -> Bool {
        a.link == b.link && a.clock == b.clock && a.cursor == b.cursor && a.outbox == b.outbox && a.review == b.review
            && a.listing == b.listing
    }

    /// The next entry's place in the queue.
    public var nextSeq: Int { lastSeq + 1 }

    /// Applies one change of the sync state (the store's change path).
    public mutating func apply(_ c: SyncChange) {
        switch c {
        case .link(let l):
            link = l
            cursor = 0
            outbox = [:]
            lastSeq = 0
            listing = nil
        case .clock(let h): clock = h
        case .cursor(let v): cursor = v
        case .queue(let e):
            outbox[e.key] = e
            lastSeq = max(lastSeq, e.seq)
        case .dequeue(let k): outbox[k] = nil
        case .park(let r): review.append(r)
        case .unpark(let id): review.removeAll { $0.change.changeID == id }
        case .listing(let l): listing = l
        }
    }
}

/// One change of a store's sync state.
public enum SyncChange: Sendable, Equatable {
    /// Links the store to an account (nil: unlinks); the cursor and outbox start again.
    case link(SyncLink?)
    /// The device's clock moved on.
    case clock(HLC)
    /// The items up to this server version are here.
    case cursor(Int64)
    /// Puts an item's entry (replacing the one before).
    case queue(OutboxEntry)
    /// The item's entry was sent and taken.
    case dequeue(SyncKey)
    /// A refused change is kept for review.
    case park(ReviewEntry)
    /// A reviewed change, by its change id, goes (retried or discarded).
    case unpark(String)
    /// A first pull began, went on a page, or ended (nil).
    case listing(SyncListing?)
}
