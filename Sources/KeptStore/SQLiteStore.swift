// The SQLite backend (docs/STORE.md, "The SQLite store"): one row per task, keyed by its uid,
// with the columns statements look things up by and the whole record as JSON text, so a field
// this version does not know survives (R-STORE-1). A statement reads what it needs: a task by
// id, its subtasks, a count straight from the columns in SQL; only a statement that needs every
// task's columns (a list, the plan) reads all records. Writers take SQLite's write lock with
// BEGIN IMMEDIATE before the statement reads, so changes of several processes queue rather
// than conflict; each commit is durable (WAL, synchronous=FULL; R-STORE-2).

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store in a SQLite database.
public final class SQLiteStore: StoreBackend {
    package let db: SQLiteDatabase
    public let file: StorePath
    /// Everything but the tasks, the history and the tombstones, read once and again when
    /// another process wrote.
    package var currentMeta: Store.Meta
    /// The undo history, read when first asked for.
    package var loadedJournal: Journal?
    /// Every task's record read into a store's columns, for statements that need them all;
    /// dropped at any change of a task.
    private var full: Store?
    /// The tasks the last narrowed read took (SQLiteStore+Narrow), whose rows `task(atRow:)`
    /// answers for until the next read of columns; `stale` once a task changed since.
    /// The plan's read from columns keeps only the ids of its rows (`store` nil), whose tasks
    /// are read by id.
    package var partial: (rows: [Int], store: Store?, stale: Bool)?
    /// Rows narrowed reads took since every record was last read or a task changed: once they
    /// are as many as the store holds, the next read takes every record, which later
    /// statements of a REPL then read from memory (SQLiteStore+Narrow).
    package var narrowedRows = 0
    /// How many records a narrowed read that widens decides on at once (`readKept`; tests
    /// make it small to read in many chunks).
    package var keptChunk = SQLiteStore.keptChunk
    /// `PRAGMA data_version` when the caches were read: another process's commit changes it.
    package var seenVersion: Int64 = 0
    /// Room for the task writer's cursor, kept from one row's record to the next.
    package var recordRoom: [UInt8] = []
    /// A row's record as it is bound, its room kept from one row to the next.
    package var recordBytes: [UInt8] = []
    /// True inside this connection's write transaction.
    package var writing = false
    /// A write that failed: the commit fails with it, and nothing is written.
    package var failure: StoreError?
    /// What reads found damaged, in the order found. It stays for the life of the connection:
    /// every later statement fails with it and nothing is written (docs/STORE.md, "Damage").
    public private(set) var damage: [StoreDamage] = []
    /// Whether task rows carry checksums (schema 2; a version-1 file opened read-only has none).
    private(set) var hasSums = true
    /// Whether the sync tables are there (schema 3; an older file opened read-only has none).
    private(set) var hasSyncTables = true
    /// Whether the plan's columns and indexes are there (schema 4; an older file opened
    /// read-only has none, and its plan reads the records, as version 3 did).
    private(set) var hasPlanColumns = true
    /// The sync state as last read or committed, with the `data_version` it was read at: while
    /// no other process commits, a rollback takes it back instead of reading a long outbox again.
    package var committedSync: (version: Int64, state: SyncState)?
    /// Whether the connection may write (a check, a convert or a backup reads only).
    package let readOnly: Bool
    /// Whether `useWAL` has run.
    package var walSet = false
    public private(set) var hasPending = false
    /// A large import into an empty store as it runs (SQLiteStore+BulkLoad): the commit makes
    /// the indexes it dropped again before it commits.
    package var bulk: BulkLoad?
    /// Whether the tombstones table has a row; nil when not known. A new task asks for its
    /// uid's tombstone, and a store without any answers without a query.
    package var hasTombstones: Bool?

    /// The first bytes of every SQLite database file.
    public static let header: [UInt8] = Array("SQLite format 3".utf8) + [0]
    /// `PRAGMA application_id` of a Kept store: "KEPT".
    package static let applicationID: Int64 = 0x4B45_5054
    /// `PRAGMA user_version`: the schema version this Kept writes (2: task rows carry a
    /// checksum of their record; 3: the sync tables; 4: the plan's columns and indexes).
    public static let schemaVersion: Int64 = 4
    /// A database this large or smaller (about 12,000 tasks) is checked with `PRAGMA
    /// quick_check` when opened; the check reads every page, so a larger one is checked page by
    /// page as SQLite reads it, and a damaged page fails the statement (docs/STORE.md).
    package static let quickCheckBytes = 8 << 20

    private init(db: SQLiteDatabase, file: StorePath, readOnly: Bool) {
        self.db = db
        self.file = file
        self.readOnly = readOnly
        self.currentMeta = Store().meta
    }

    /// Opens a Kept database, creating it when missing. A file that is not a Kept database, a
    /// damaged one, one of a newer schema, or one beside a -wal that does not belong to it is
    /// refused and never written. `readOnly` reads an existing store and never writes it.
    public static func open(_ path: String, readOnly: Bool = false) -> Result<SQLiteStore, StoreError> {
        let p = StorePath(path)
        var exists = access(p.target, F_OK) == 0
        if !exists, !readOnly {
            if let e = create(p, path) { return .failure(e) }
            exists = true
        }
        let size: Int = {
            var st = stat()
            return stat(p.target, &st) == 0 ? Int(st.st_size) : 0
        }()
        if readOnly, !exists { return .failure(.unreadable(StoreProblem.unreadable(path: path, reason: "there is no such file"))) }
        // An empty file is a store that lost its bytes, not a new one: taken as new, it would
        // silently stand for the tasks it held.
        if exists, size == 0 { return .failure(.unreadable(StoreProblem.notKept(path: path, reason: "it is empty (0 bytes)"))) }
        // A -wal left beside the file is read before anything may write it: one of another
        // database, or of a newer copy of this one, would be copied into it at the first
        // checkpoint (docs/STORE.md, "Copying and restoring a store").
        if exists, let e = foreignWAL(path, p.target) { return .failure(e) }
        let db: SQLiteDatabase
        // A store opened for reading still has a read-write connection, so that closing it
        // removes the -wal and -shm that reading made; it is never written (`apply` refuses), and
        // the checkpoint at close only copies what other connections committed.
        switch SQLiteDatabase.open(p.target, create: false) {
        case .success(let d): db = d
        case .failure(let e): return .failure(refusal(path, e))
        }
        let s = SQLiteStore(db: db, file: p, readOnly: readOnly)
        do throws(SQLiteError) {
            db.busyTimeout(Int32(StoreFile.lockTimeoutMilliseconds))
            // The three are read in one read transaction: another process making this new store
            // commits its schema and its application id at once, and reads on either side of
            // that commit would take a half-made store for another program's.
            try db.exec("BEGIN")
            let app: Int64, version: Int64, tables: Int64
            do throws(SQLiteError) {
                app = try db.integer("PRAGMA application_id") ?? 0
                version = try db.integer("PRAGMA user_version") ?? 0
                tables = try db.integer("SELECT count(*) FROM sqlite_schema") ?? 0
                try db.exec("COMMIT")
            } catch {
                db.rollbackQuietly()
                throw error
            }
            if tables > 0, app != applicationID {
                db.close()
                return .failure(.unreadable(StoreProblem.notKept(path: path, reason: "it is a SQLite database of another program")))
            }
            if version > schemaVersion {
                db.close()
                return .failure(.unreadable(StoreProblem.newer(path: path, version: Int(version), reads: Int(schemaVersion))))
            }
            if exists, size <= quickCheckBytes, tables > 0 {
                let check = try db.text("PRAGMA quick_check") ?? "ok"
                guard check == "ok" else {
                    db.keepWALOnClose()
                    db.close()
                    return .failure(.unreadable(StoreProblem.notKept(path: path, reason: "it is damaged: \(check)")))
                }
            }
            if readOnly {
                guard tables > 0 else { throw SQLiteError.damage("it has no tables") }
                s.hasSums = version >= 2
                s.hasSyncTables = version >= 3
                s.hasPlanColumns = version >= 4
            } else {
                // FULL makes each commit durable.
                try db.exec("PRAGMA synchronous=FULL")
                if tables == 0 || version < schemaVersion { try s.migrate() }
            }
            try s.readCaches()
            // A store small enough to check whole on opening has every record checked too, so
            // a process that may write learns of damage before anything is written.
            if !readOnly, exists, size <= quickCheckBytes, tables > 0 {
                s.verifyRecords()
                if let e = s.readFailure {
                    s.close()
                    return .failure(e)
                }
            }
        } catch {
            if error.isDamage { db.keepWALOnClose() }
            db.close()
            return .failure(refusal(path, error))
        }
        return .success(s)
    }

    /// Makes a new store whole beside the path and links it into place, so no crash leaves a
    /// file without the schema there (an empty file is refused as a store that lost its bytes).
    /// When another process made it meanwhile, that one is the store.
    private static func create(_ p: StorePath, _ path: String) -> StoreError? {
        let tmp = Files.directory(of: p.target) + "/.\(Files.basename(of: p.target)).new-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func clean() { for f in [tmp, tmp + "-journal", tmp + "-wal", tmp + "-shm"] { unlink(f) } }
        defer { clean() }
        let db: SQLiteDatabase
        switch SQLiteDatabase.open(tmp, create: true) {
        case .success(let d): db = d
        case .failure(let e): return refusal(path, e)
        }
        // A new store is the user's own (its -wal and -shm take the same mode).
        chmod(tmp, 0o600)
        let s = SQLiteStore(db: db, file: StorePath(tmp), readOnly: false)
        do throws(SQLiteError) {
            try db.exec("PRAGMA synchronous=FULL")
            try s.migrate()
        } catch {
            s.close()
            return .writeFailed(path: path, reason: error.message)
        }
        s.close()
        if link(tmp, p.target) != 0 {
            let e = errno
            // A file system without hard links gets a rename, which only a creator racing this
            // one in the same instant could lose to.
            let noLinks = e == EPERM || e == EOPNOTSUPP || e == EMLINK
            guard e == EEXIST || (noLinks && access(p.target, F_OK) != 0 && rename(tmp, p.target) == 0) else {
                return .writeFailed(path: path, reason: FileError(errno: e).reason)
            }
        }
        // The new name is made durable before anything is committed under it.
        let dir = openFolder(Files.directory(of: p.target))
        if dir >= 0 {
            _ = fsync(dir)
            closeFolder(dir)
        }
        return nil
    }

    /// Every task row against its checksum, the history and the tombstones, decoding nothing
    /// more than that needs (the tasks are decoded when a statement reads them).
    package func verifyRecords() {
        if hasSums {
            do throws(SQLiteError) {
                let st = try db.statement("SELECT id, checksum, record FROM tasks")
                defer { st.reset() }
                while try st.step() {
                    if !sumHolds(st) { damaged(table: "tasks", at: "row id \(st.int(0))", SQLiteStore.sumFails) }
                }
            } catch {
                readFailed(error)
            }
        }
        _ = history
        _ = allTombstones()
    }

    /// Puts the database in WAL mode before its first write (readers then read while one
    /// process writes). Not at opening: a store found damaged before it is written keeps its
    /// bytes, the journal mode in its header included. A file whose mode cannot change now
    /// (another connection reading it) stays in the mode it has.
    package func useWAL() {
        guard !walSet else { return }
        walSet = true
        do throws(SQLiteError) {
            // The switch itself moves `data_version`: when nothing else was committed since the
            // store was read, the new version is this connection's own, not another writer's
            // (else the first change of a dry run on a store never opened in WAL mode would be
            // taken for a conflict and silently dropped).
            let before = try version()
            let mode = try db.text("PRAGMA journal_mode")
            _ = try db.text("PRAGMA journal_mode=WAL")
            if before == seenVersion, mode?.lowercased() != "wal" { seenVersion = try version() }
        } catch {}
    }

    /// Closes the connection (its -wal is checkpointed and removed when it is the last one, and
    /// no damage was found). What is pending is dropped; the store is not used after this.
    public func close() {
        if writing { db.rollbackQuietly() }
        writing = false
        endBulkLoad()
        if !damage.isEmpty { db.keepWALOnClose() }
        db.close()
    }

    package static func refusal(_ path: String, _ e: SQLiteError) -> StoreError {
        if e.isDamage { return .unreadable(StoreProblem.notKept(path: path, reason: e.message)) }
        if e.isBusy { return .locked(path: path) }
        return .unreadable(StoreProblem.unreadable(path: path, reason: e.message))
    }

    public var location: String? { file.path }

    // MARK: reading

    public var settings: Settings { currentMeta.settings }
    public var projects: [Project] { currentMeta.projects }
    public var areas: [Area] { currentMeta.areas }
    public var filters: [SavedFilter] { currentMeta.filters }
    public var plan: PlanSnapshot? { currentMeta.plan }
    public var calendars: [CalendarConnection] { currentMeta.calendars }
    public var nextID: Int { currentMeta.nextID }

    public var history: Journal {
        if let j = loadedJournal { return j }
        do throws(SQLiteError) {
            let j = try readHistory()
            loadedJournal = j
            return j
        } catch {
            damaged(table: "history", at: nil, error.message)
            return Journal()
        }
    }

    public var taskCount: Int {
        if let f = full { return f.taskCount }
        do throws(SQLiteError) {
            return Int(try db.integer("SELECT count(*) FROM tasks") ?? 0)
        } catch {
            readFailed(error)
            return 0
        }
    }

    public func task(_ id: Int) -> Task? {
        many("id = ?1") { $0.bind(1, id) }.first
    }

    public func task(uid: TaskUID) -> Task? {
        many("uid = ?1") { $0.bind(1, uid.description) }.first
    }

    public func task(atRow k: Int) -> Task? {
        if let p = partial {
            if !p.stale, let s = p.store { return s.task(atRow: k) }
            // Read by id: a task changed since the rows were read (the row's task as it is now),
            // or the rows were read from columns.
            let id = p.store.map { $0.id(atRow: k) } ?? (k >= 0 && k < p.rows.count ? p.rows[k] : nil)
            return id.flatMap { task($0) }
        }
        return fullStore().task(atRow: k)
    }

    public func tasks(_ query: TaskQuery) -> [Task] {
        switch query {
        case .all: return fullStore().tasks
        case .children(let id): return many("parent = ?1") { $0.bind(1, id) }
        case .project(let name):
            return many("project_key = ?1 AND project = ?2") {
                $0.bind(1, name.lowercased())
                $0.bind(2, name)
            }
        case .titled(let t): return many("title = ?1") { $0.bind(1, t) }
        case .withReminders: return many("reminders > 0") { _ in }
        }
    }

    public func columns(dayStart: WallTime, withText: Bool, withSearch: Bool) -> TaskIndex {
        partial = nil
        return fullStore().columns(dayStart: dayStart, withText: withText, withSearch: withSearch)
    }

    public func tombstone(uid: TaskUID) -> Tombstone? {
        do throws(SQLiteError) {
            if hasTombstones == nil { hasTombstones = (try db.integer("SELECT EXISTS (SELECT 1 FROM tombstones)") ?? 1) != 0 }
            guard hasTombstones != false else { return nil }
            let st = try db.statement("SELECT deleted_at, \(sumColumn) FROM tombstones WHERE uid = ?1")
            defer { st.reset() }
            st.bind(1, uid.description)
            guard try st.step() else { return nil }
            guard tombstoneSumHolds(uid.description, st.text(0), st, 1), let at = st.text(0).flatMap(TimeText.parseISOInstant) else {
                damaged(table: "tombstones", at: uid.description, "it does not match its checksum, or its time does not read")
                return nil
            }
            return Tombstone(uid: uid, deletedAt: at)
        } catch {
            readFailed(error)
            return nil
        }
    }

    public func copyInMemory() -> any StoreBackend { JSONStore(memory: snapshot(), readFrom: location) }

    public func tombstoneTable() -> [TaskUID: Instant]? {
        Dictionary(allTombstones().map { ($0.uid, $0.deletedAt) }, uniquingKeysWith: { _, b in b })
    }

    public func snapshot() -> Store {
        var s = fullStore()
        s.meta = currentMeta
        s.history = history
        s.tombstones = allTombstones()
        return s
    }

    /// Every task's record in id order, read into a store's columns (its tasks built only when
    /// asked for), once until a task changes. Each record's checksum is checked as it is read; a
    /// record that fails it, or that does not decode, is left out and reported (`damage`), so
    /// the rest is what `kept convert --salvage` copies.
    package func fullStore() -> Store {
        if let f = full { return f }
        let s = readTasks("SELECT id, \(sumColumn), record FROM tasks ORDER BY id", bind: { _ in })
        full = s
        return s
    }

    /// The tasks of the rows a query picks (columns: id, checksum, record), in id order, read
    /// into a store's columns as `fullStore` reads them all. `sortByID` sorts rows a query read
    /// in another order.
    package func readTasks(_ sql: String, bind: (SQLiteStatement) -> Void, sortByID: Bool = false) -> Store {
        var bytes = SQLiteStore.recordsHead
        // Each record's id and where its bytes start; a read in another order is put in id order.
        var rows: [(id: Int64, start: Int, end: Int)] = []
        var ordered = true
        var n = 0
        var lastID: Int64 = 0
        do throws(SQLiteError) {
            let st = try db.statement(sql)
            defer { st.reset() }
            bind(st)
            while try st.step() {
                guard let at = appendRecord(st, to: &bytes, first: n == 0) else { continue }
                let id = st.int(0)
                if n > 0, lastID >= id { ordered = false }
                lastID = id
                n += 1
                if sortByID { rows.append((id, at.lowerBound, at.upperBound)) }
            }
        } catch {
            readFailed(error)
        }
        if sortByID, !ordered { bytes = SQLiteStore.inIDOrder(rows, of: bytes) }
        bytes.append(contentsOf: SQLiteStore.recordsTail)
        var s: Store
        switch StoreCodec.decode(bytes) {
        case .success(let d): s = d
        case .failure: s = decodeRowByRow(sql, bind: bind)
        }
        s.meta = currentMeta
        return s
    }

    /// Reads the rows of `sql` (columns: id, checksum, record) in chunks of `chunk` records and
    /// keeps of each chunk the records whose ids `keep` picks from it (nil: all of them), so
    /// only the kept records are ever held together: a read of every open task for a filter
    /// whose terms have no column (words, notes) holds its matches, not a million tasks. The
    /// kept records are one store, in id order, decoded together as `readTasks` decodes its
    /// rows. Nil when a chunk or the kept records do not decode together (damage): the caller
    /// reads the rows the usual way, which reports it.
    /// `read` counts the rows read, kept or not.
    package func readKept(_ sql: String, bind: (SQLiteStatement) -> Void, chunk: Int, read: inout Int, keep: (Store) -> Set<Int>?) -> Store? {
        let head = SQLiteStore.recordsHead, tail = SQLiteStore.recordsTail
        // The kept records' bytes, one after another in one array (no commas), and where each is.
        var kept: [(id: Int64, start: Int, end: Int)] = []
        var keptBytes = head
        var bytes = head
        var rows: [(id: Int64, start: Int, end: Int)] = []
        // Decodes the chunk read so far and keeps what `keep` picks of it.
        func flush() -> Bool {
            guard !rows.isEmpty else { return true }
            let ordered = zip(rows, rows.dropFirst()).contains(where: { $0.id >= $1.id }) ? SQLiteStore.inIDOrder(rows, of: bytes) : bytes
            guard case .success(let s) = StoreCodec.decode(ordered + tail) else { return false }
            let ids = keep(s)
            // Copied out: the chunk's array is let go.
            for r in rows where ids?.contains(Int(r.id)) ?? true {
                let start = keptBytes.count
                keptBytes += bytes[r.start..<r.end]
                kept.append((r.id, start, keptBytes.count))
            }
            bytes = head
            rows.removeAll(keepingCapacity: true)
            return true
        }
        do throws(SQLiteError) {
            let st = try db.statement(sql)
            defer { st.reset() }
            bind(st)
            while try st.step() {
                guard let at = appendRecord(st, to: &bytes, first: rows.isEmpty) else { continue }
                rows.append((st.int(0), at.lowerBound, at.upperBound))
                read += 1
                if rows.count >= chunk, !flush() { return nil }
            }
        } catch {
            readFailed(error)
        }
        guard flush() else { return nil }
        guard case .success(var s) = StoreCodec.decode(SQLiteStore.inIDOrder(kept, of: keptBytes) + tail) else { return nil }
        s.meta = currentMeta
        return s
    }

    /// The bytes around records read as a store (`StoreCodec.decode`).
    static let recordsHead = Array("{\"tasks\": [\n".utf8)
    static let recordsTail = Array("\n]}\n".utf8)

    /// Appends the record of the row `st` is on (columns: id, checksum, record) to the records
    /// in `bytes`, after a comma unless it is the first; a record that fails its checksum is
    /// reported and left out (nil). Returns where its bytes are.
    private func appendRecord(_ st: SQLiteStatement, to bytes: inout [UInt8], first: Bool) -> Range<Int>? {
        guard sumHolds(st) else {
            damaged(table: "tasks", at: "row id \(st.int(0))", SQLiteStore.sumFails)
            return nil
        }
        if !first { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
        let start = bytes.count
        _ = st.appendBytes(2, to: &bytes)
        return start..<bytes.count
    }

    /// The records at `rows` of `bytes`, put in id order after `recordsHead`.
    static func inIDOrder(_ rows: [(id: Int64, start: Int, end: Int)], of bytes: [UInt8]) -> [UInt8] {
        var out = recordsHead
        out.reserveCapacity(bytes.count)
        for (k, r) in rows.sorted(by: { $0.id < $1.id }).enumerated() {
            if k > 0 { out.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
            out.append(contentsOf: bytes[r.start..<r.end])
        }
        return out
    }

    /// The checksum column as the queries read it: NULL where the schema has none.
    package var sumColumn: String { hasSums ? "checksum" : "NULL" }

    /// Whether the record of the row `st` is on (columns: id, checksum, record) matches its
    /// checksum, read where SQLite holds it. A NULL checksum reads as 0, which a record's
    /// checksum is once in 2^64.
    private func sumHolds(_ st: SQLiteStatement) -> Bool {
        guard hasSums else { return true }
        return st.withBytes(2) { StoreSum.row($0, key: st.int(0)) } == st.int(1)
    }

    package static let sumFails = "its record does not match its checksum"

    /// The tasks whose checksums held but which did not decode as one array (a record a version
    /// without checksums wrote, or damage the checksum was made over): each row read alone, so
    /// the damaged ones are named and the rest kept.
    private func decodeRowByRow(_ sql: String, bind: (SQLiteStatement) -> Void) -> Store {
        var good = SQLiteStore.recordsHead
        var n = 0
        do throws(SQLiteError) {
            let st = try db.statement(sql)
            defer { st.reset() }
            bind(st)
            var rows: [(Int64, [UInt8])] = []
            while try st.step() {
                var one: [UInt8] = []
                _ = st.appendBytes(2, to: &one)
                guard rowTask(st, one) != nil else { continue }
                rows.append((st.int(0), one))
            }
            // In id order, whatever order the query read them in.
            for (_, one) in rows.sorted(by: { $0.0 < $1.0 }) {
                if n > 0 { good.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
                good += one
                n += 1
            }
        } catch {
            readFailed(error)
        }
        good.append(contentsOf: SQLiteStore.recordsTail)
        switch StoreCodec.decode(good) {
        case .success(let s): return s
        case .failure(let e):
            // The records are sound one by one but not together (two with one id or uid).
            damaged(table: "tasks", at: nil, e.message)
            return Store()
        }
    }

    /// The task of the row `st` is on (columns: id, checksum, record; the record's bytes given),
    /// or nil, with the damage reported, when the record fails its checksum, does not decode,
    /// or says another id.
    private func rowTask(_ st: SQLiteStatement, _ bytes: [UInt8]) -> Task? { recordTask(st, bytes, sum: 1, record: 2) }

    /// The same, the checksum and the record in columns `sum` and `record` of `st` (id in 0).
    package func recordTask(_ st: SQLiteStatement, _ bytes: [UInt8], sum: Int32, record: Int32) -> Task? {
        let row = "row id \(st.int(0))"
        let holds = !hasSums || st.withBytes(record) { StoreSum.row($0, key: st.int(0)) } == st.int(sum)
        guard holds else {
            damaged(table: "tasks", at: row, SQLiteStore.sumFails)
            return nil
        }
        var r = JSONReader(bytes: bytes)
        do throws(JSONError) {
            let t = try StoreCodec.decodeTask(&r)
            guard Int64(t.id) == st.int(0) else {
                damaged(table: "tasks", at: row, "its record says id \(t.id)")
                return nil
            }
            return t
        } catch {
            damaged(table: "tasks", at: row, "its record cannot be read: \(error.message)")
            return nil
        }
    }

    /// Forgets the full view: a task changed.
    package func dropFullView() {
        full = nil
        narrowedRows = 0
        if partial != nil { partial?.stale = true }
    }

    /// Whether every record has been read (tests check that a statement did not need to).
    package var hasFullView: Bool { full != nil }

    /// The tasks of the rows `condition` picks, in id order, each checked against its checksum
    /// and its id.
    /// One column, not the records: a row whose uid does not read is damage, as a record's.
    public func taskUIDs() -> [TaskUID] {
        var out: [TaskUID] = []
        do throws(SQLiteError) {
            let st = try db.statement("SELECT uid FROM tasks")
            defer { st.reset() }
            while try st.step() {
                let text = st.text(0) ?? ""
                guard let u = TaskUID(text) else {
                    damaged(table: "tasks", at: text, "its uid does not read")
                    continue
                }
                out.append(u)
            }
        } catch {
            readFailed(error)
        }
        return out
    }

    private func many(_ condition: String, _ bind: (SQLiteStatement) -> Void) -> [Task] {
        var out: [Task] = []
        do throws(SQLiteError) {
            let st = try db.statement("SELECT id, \(sumColumn), record FROM tasks WHERE \(condition) ORDER BY id")
            defer { st.reset() }
            bind(st)
            var bytes: [UInt8] = []
            while try st.step() {
                bytes.removeAll(keepingCapacity: true)
                _ = st.appendBytes(2, to: &bytes)
                if let t = rowTask(st, bytes) { out.append(t) }
            }
        } catch {
            readFailed(error)
        }
        return out
    }

    /// A read found part of the store damaged: the statement fails with it (`readFailure`), so
    /// a read is never silently an absence; nothing may be written to the store from now on,
    /// not even by the checkpoint at close.
    package func damaged(table: String, at key: String?, _ reason: String) {
        let d = StoreDamage(table: table, key: key, reason: reason)
        if !damage.contains(d) { damage.append(d) }
        failure = readFailure
        hasPending = true
        db.keepWALOnClose()
    }

    /// A query that failed while reading: damage SQLite found is reported as damage; any other
    /// failure (the disk, the lock) fails the statement the same way, never as an empty answer.
    package func readFailed(_ e: SQLiteError) {
        damaged(table: "the database", at: nil, e.message)
    }

    /// The damage found so far, as the error every statement fails with.
    public var readFailure: StoreError? {
        damage.isEmpty ? nil : .unreadable(StoreProblem.damaged(path: file.path, damage))
    }

    public var tombstones: [Tombstone] { allTombstones() }
    public var sync: SyncState { currentMeta.sync }
    public func task(record: JSONObject) -> Task? { StoreCodec.task(record: record) }

    package func allTombstones() -> [Tombstone] {
        var out: [Tombstone] = []
        do throws(SQLiteError) {
            let st = try db.statement("SELECT uid, deleted_at, \(sumColumn) FROM tombstones ORDER BY seq")
            defer { st.reset() }
            while try st.step() {
                guard tombstoneSumHolds(st.text(0) ?? "", st.text(1), st, 2), let u = st.text(0).flatMap(TaskUID.init),
                      let at = st.text(1).flatMap(TimeText.parseISOInstant) else {
                    damaged(table: "tombstones", at: st.text(0), "it does not match its checksum, or its uid or time does not read")
                    continue
                }
                out.append(Tombstone(uid: u, deletedAt: at))
            }
        } catch {
            readFailed(error)
        }
        return out
    }

    /// Whether a tombstone's row matches the checksum in column `c` of `st`.
    private func tombstoneSumHolds(_ uid: String, _ at: String?, _ st: SQLiteStatement, _ c: Int32) -> Bool {
        guard hasSums else { return true }
        return !st.isNull(c) && StoreSum.row(uid + "\u{1F}" + (at ?? ""), key: 0) == st.int(c)
    }

    // MARK: changing

    /// Takes the write lock before a statement that may change the store reads it, so what
    /// it reads is what it changes; reads again what another process committed meanwhile.
    public func prepareToWrite() -> Result<Void, StoreError> {
        if let f = readFailure { return .failure(f) }
        guard !writing else { return .success(()) }
        useWAL()
        do throws(SQLiteError) {
            try db.exec("BEGIN IMMEDIATE")
            writing = true
            if try version() != seenVersion { try readCaches() }
            return .success(())
        } catch {
            return .failure(error.isBusy ? .locked(path: file.path) : SQLiteStore.refusal(file.path, error))
        }
    }

    public func apply(_ change: StoreChange) {
        hasPending = true
        if readOnly, failure == nil { failure = .writeFailed(path: file.path, reason: "it was opened for reading only") }
        guard failure == nil else { return }
        if !writing {
            // A change no statement announced: the lock is taken now, and what was read
            // before it must still be what the store holds.
            useWAL()
            do throws(SQLiteError) {
                try db.exec("BEGIN IMMEDIATE")
                writing = true
                if try version() != seenVersion {
                    failure = .conflict(path: file.path)
                    return
                }
            } catch {
                failure = error.isBusy ? .locked(path: file.path) : .writeFailed(path: file.path, reason: error.message)
                return
            }
        }
        do throws(SQLiteError) {
            try write(change)
        } catch {
            if error.isDamage { readFailed(error) } else { failure = .writeFailed(path: file.path, reason: error.message) }
        }
    }

    /// Room for `n` new rows in one transaction (a large import); into an empty store, a bulk
    /// load (SQLiteStore+BulkLoad).
    public func reserveTasks(_ n: Int) { beginBulkLoad(n) }

    public func commit() -> Result<Void, StoreError> {
        if let f = readFailure ?? failure {
            rollback()
            return .failure(f)
        }
        guard writing else {
            hasPending = false
            return .success(())
        }
        do throws(SQLiteError) {
            try finishBulkLoad()
            try db.exec("COMMIT")
            writing = false
            hasPending = false
            endBulkLoad()
            // Another process's commit would have been read before this transaction wrote
            // (prepareToWrite) or refused it (apply), and this connection's own commits leave
            // `data_version` as it was: what was committed is the state at `seenVersion`.
            committedSync = (seenVersion, currentMeta.sync)
            return .success(())
        } catch {
            rollback()
            return .failure(error.isBusy ? .locked(path: file.path) : .writeFailed(path: file.path, reason: error.message))
        }
    }

    public func rollback() {
        if writing { db.rollbackQuietly() }
        // The rollback takes back the drop too.
        writing = false
        endBulkLoad()
        failure = readFailure
        hasPending = false
        do throws(SQLiteError) { try readCaches() } catch { readFailed(error) }
    }

    // MARK: other processes

    package func version() throws(SQLiteError) -> Int64 { try db.integer("PRAGMA data_version") ?? 0 }

    public func changedElsewhere() -> Bool {
        guard !writing else { return false }
        do throws(SQLiteError) {
            return try version() != seenVersion
        } catch {
            // Not knowing is answered as a change: the reload that follows reports the error.
            return true
        }
    }

    public func reload() -> Result<Void, StoreError> {
        if writing { db.rollbackQuietly() }
        writing = false
        endBulkLoad()
        failure = readFailure
        hasPending = false
        do throws(SQLiteError) {
            try readCaches()
            return .success(())
        } catch {
            return .failure(SQLiteStore.refusal(file.path, error))
        }
    }

    /// Reads the small parts of the store again and forgets the rest.
    /// Outside a write they are read in one read transaction, the version first: a commit of
    /// another process lands wholly before or after what is read, and one after it leaves the
    /// version seen behind, so the next write reads again rather than keep a stale next id.
    private func readCaches() throws(SQLiteError) {
        let own = !writing
        if own { try db.exec("BEGIN") }
        do throws(SQLiteError) {
            seenVersion = try version()
            var meta = try readMeta()
            if let c = committedSync, c.version == seenVersion {
                meta.sync = c.state
            } else {
                let found = damage.count
                meta.sync = try readSync()
                // A state read with damage is not kept: the next read names the damage again.
                committedSync = damage.count == found ? (seenVersion, meta.sync) : nil
            }
            currentMeta = meta
            if own { try db.exec("COMMIT") }
        } catch {
            if own { db.rollbackQuietly() }
            throw error
        }
        loadedJournal = nil
        full = nil
        narrowedRows = 0
        if partial != nil { partial?.stale = true }
        hasTombstones = nil
    }
}

// Inside SQLiteStore `open` and `close` name its own methods; these are the system's.
private func openFolder(_ path: String) -> Int32 { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
private func closeFolder(_ fd: Int32) { close(fd) }
