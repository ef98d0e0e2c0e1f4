// The sync state in a SQLite store (docs/STORE.md, "Sync"): the link, the clock and the cursor
// in `sync_meta`, one row an outbox entry in `sync_outbox`, one row a refused change in
// `sync_review`, each with its checksum. Every change of the sync state is one row's change
// (queue an upsert, dequeue a delete), so a store with a long outbox commits one more entry
// at the cost of one row, in the transaction of the change it records.

import KeptRules
import KeptDomain
import KeptFiles

extension SQLiteStore {
    /// The sync tables (schema version 3). The outbox is keyed by item, as the state is, and
    /// holds no rowid (its rows are found by that key alone). A review row is keyed by its place
    /// in the list, not by its change id: the state keeps every change parked, and `unpark`
    /// takes all of a change id's. Refused changes are few, and the state itself scans them
    /// at each `unpark`, so the table has no index on the change id.
    package static let syncSchema = """
    CREATE TABLE sync_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL, checksum INTEGER);
    CREATE TABLE sync_outbox (kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL, checksum INTEGER,
                              PRIMARY KEY (kind, id)) WITHOUT ROWID;
    CREATE TABLE sync_review (seq INTEGER PRIMARY KEY, change_id TEXT NOT NULL, record TEXT NOT NULL, checksum INTEGER);
    """

    /// An outbox row's checksum: its record, seeded with its key (kind, U+001F, id), so an
    /// entry moved to another item's row fails too.
    package static func outboxSum(_ record: String, kind: String, id: String) -> Int64 {
        StoreSum.row(record, key: StoreSum.key(kind + "\u{1F}" + id))
    }

    // MARK: reading

    /// The sync state from its tables, every row checked against its checksum and its key. A
    /// row that fails is reported (`damaged`, naming the table and the row) and left out, so
    /// the statement fails rather than answer from less than the store holds (R-STORE-4).
    /// A store of an older schema opened for reading has no sync tables: it never synced.
    package func readSync() throws(SQLiteError) -> SyncState {
        var s = SyncState()
        guard hasSyncTables else { return s }
        let meta = try db.statement("SELECT key, value, checksum FROM sync_meta ORDER BY key")
        do throws(SQLiteError) {
            while try meta.step() {
                let k = meta.text(0) ?? "", v = meta.text(1) ?? ""
                guard !meta.isNull(2), StoreSum.row(v, key: StoreSum.key(k)) == meta.int(2) else {
                    damaged(table: "sync_meta", at: k, "its value does not match its checksum")
                    continue
                }
                let value = SQLiteStore.json(v)
                switch k {
                case "link":
                    guard let l = value.flatMap(SyncLink.init(json:)) else { damaged(table: "sync_meta", at: k, "it is not a link"); continue }
                    s.link = l
                case "clock":
                    guard let h = value?.stringValue.flatMap(HLC.init) else { damaged(table: "sync_meta", at: k, "it is not a stamp"); continue }
                    s.clock = h
                case "cursor":
                    guard let n = value?.numberValue?.int, n >= 0 else { damaged(table: "sync_meta", at: k, "it is not a server version"); continue }
                    s.cursor = Int64(n)
                case "listing":
                    guard let l = value.flatMap(SyncListing.init(json:)) else { damaged(table: "sync_meta", at: k, "it is not a first pull's place"); continue }
                    s.listing = l
                default:
                    // Another version's key: this one neither reads nor writes it.
                    break
                }
            }
        } catch {
            meta.reset()
            throw error
        }
        meta.reset()
        let outbox = try db.statement("SELECT kind, id, seq, record, checksum FROM sync_outbox ORDER BY seq, kind, id")
        do throws(SQLiteError) {
            while try outbox.step() {
                let kind = outbox.text(0) ?? "", id = outbox.text(1) ?? "", record = outbox.text(3) ?? ""
                let row = "row \(kind):\(id)"
                guard !outbox.isNull(4), SQLiteStore.outboxSum(record, kind: kind, id: id) == outbox.int(4) else {
                    damaged(table: "sync_outbox", at: row, SQLiteStore.sumFails)
                    continue
                }
                guard let e = SQLiteStore.json(record).flatMap(OutboxEntry.init(json:)) else {
                    damaged(table: "sync_outbox", at: row, "its record cannot be read")
                    continue
                }
                guard e.key.kind.rawValue == kind, e.key.id == id, Int64(e.seq) == outbox.int(2) else {
                    damaged(table: "sync_outbox", at: row, "its record is for \(e.key), seq \(e.seq)")
                    continue
                }
                s.apply(.queue(e))
            }
        } catch {
            outbox.reset()
            throw error
        }
        outbox.reset()
        let review = try db.statement("SELECT seq, change_id, record, checksum FROM sync_review ORDER BY seq")
        do throws(SQLiteError) {
            while try review.step() {
                let seq = review.int(0), record = review.text(2) ?? ""
                let row = "row seq \(seq)"
                guard !review.isNull(3), StoreSum.row(record, key: seq) == review.int(3) else {
                    damaged(table: "sync_review", at: row, SQLiteStore.sumFails)
                    continue
                }
                guard let r = SQLiteStore.json(record).flatMap(ReviewEntry.init(json:)) else {
                    damaged(table: "sync_review", at: row, "its record cannot be read")
                    continue
                }
                guard r.change.changeID == review.text(1) else {
                    damaged(table: "sync_review", at: row, "its record is change \(r.change.changeID)")
                    continue
                }
                s.review.append(r)
            }
        } catch {
            review.reset()
            throw error
        }
        review.reset()
        return s
    }

    /// A record's JSON, or nil when it does not read (a key twice included).
    private static func json(_ text: String) -> JSONValue? {
        var r = JSONReader(bytes: Array(text.utf8))
        r.uniqueKeys = true
        do throws(JSONError) {
            let v = try r.readValue()
            try r.finish()
            return v
        } catch {
            return nil
        }
    }

    // MARK: writing

    /// One change of the sync state, as the rows it changes.
    package func writeSync(_ c: SyncChange) throws(SQLiteError) {
        switch c {
        case .link(let l):
            // A new link starts the cursor and the outbox again (SyncState.apply): the one
            // change that empties the outbox. The review stays, as in the state.
            try putKeyed("sync_meta", "link", l.map { JSONWriter.compact($0.json) })
            try putKeyed("sync_meta", "cursor", nil)
            try putKeyed("sync_meta", "listing", nil)
            try db.exec("DELETE FROM sync_outbox")
        case .clock(let h):
            try putKeyed("sync_meta", "clock", JSONWriter.compact(.string(h.description)))
        case .cursor(let v):
            try putKeyed("sync_meta", "cursor", String(v))
        case .queue(let e):
            let record = JSONWriter.compact(e.json)
            let st = try db.statement("INSERT INTO sync_outbox (kind, id, seq, record, checksum) VALUES (?1, ?2, ?3, ?4, ?5) "
                                      + "ON CONFLICT (kind, id) DO UPDATE SET seq = excluded.seq, record = excluded.record, checksum = excluded.checksum")
            st.bind(1, e.key.kind.rawValue)
            st.bind(2, e.key.id)
            st.bind(3, e.seq)
            st.bind(4, record)
            st.bind(5, SQLiteStore.outboxSum(record, kind: e.key.kind.rawValue, id: e.key.id))
            try st.run()
        case .dequeue(let k):
            let st = try db.statement("DELETE FROM sync_outbox WHERE kind = ?1 AND id = ?2")
            st.bind(1, k.kind.rawValue)
            st.bind(2, k.id)
            try st.run()
        case .park(let r):
            let seq = (try db.integer("SELECT coalesce(max(seq), 0) + 1 FROM sync_review")) ?? 1
            let record = JSONWriter.compact(r.json)
            let st = try db.statement("INSERT INTO sync_review (seq, change_id, record, checksum) VALUES (?1, ?2, ?3, ?4)")
            st.bind(1, seq)
            st.bind(2, r.change.changeID)
            st.bind(3, record)
            st.bind(4, StoreSum.row(record, key: seq))
            try st.run()
        case .unpark(let id):
            let st = try db.statement("DELETE FROM sync_review WHERE change_id = ?1")
            st.bind(1, id)
            try st.run()
        case .listing(let l):
            try putKeyed("sync_meta", "listing", l.map { JSONWriter.compact($0.json) })
        }
    }

    /// Writes a whole sync state into empty sync tables (`kept convert`, `fill`).
    package func writeSyncState(_ s: SyncState) throws(SQLiteError) {
        try db.exec("DELETE FROM sync_meta; DELETE FROM sync_outbox; DELETE FROM sync_review")
        try putKeyed("sync_meta", "link", s.link.map { JSONWriter.compact($0.json) })
        if let h = s.clock { try writeSync(.clock(h)) }
        if s.cursor != 0 { try writeSync(.cursor(s.cursor)) }
        if let l = s.listing { try writeSync(.listing(l)) }
        for e in s.queue { try writeSync(.queue(e)) }
        for r in s.review { try writeSync(.park(r)) }
    }
}
