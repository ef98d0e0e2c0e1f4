// The SQLite backend (docs/STORE.md, "The SQLite store"): one row per task, keyed by its uid,
// with the columns statements look things up by and the whole record as JSON text, so a field
// this version does not know survives (R-STORE-1). A statement reads what it needs: a task by
// id, its subtasks, a count straight from the columns in SQL; only a statement that needs every
// task's columns (a list, the plan) reads all records. Writers take SQLite's write lock with
// BEGIN IMMEDIATE before the statement reads, so changes of several processes queue rather
// than conflict; each commit is durable (WAL, synchronous=FULL; R-STORE-2).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A store in a SQLite database.
public final class SQLiteStore: StoreBackend {
    let db: SQLiteDatabase
    public let file: StorePath
    /// Everything but the tasks, the history and the tombstones, read once and again when
    /// another process wrote.
    var currentMeta: Store.Meta
    /// The undo history, read when first asked for.
    var loadedJournal: Journal?
    /// Every task's record read into a store's columns, for statements that need them all;
    /// dropped at any change of a task.
    private var full: Store?
    /// `PRAGMA data_version` when the caches were read: another process's commit changes it.
    private var seenVersion: Int64 = 0
    /// Room for the task writer's cursor, kept from one row's record to the next.
    var recordRoom: [UInt8] = []
    /// True inside this connection's write transaction.
    private var writing = false
    /// A write that failed: the commit fails with it, and nothing is written.
    private var failure: StoreError?
    public private(set) var hasPending = false
    /// Set while a large import into an empty store has dropped the secondary indexes of
    /// the tasks (SQLiteStore.taskIndexes): the commit makes them again before it commits.
    private(set) var indexesDropped = false
    /// Whether the tombstones table has a row; nil when not known. A new task asks for its
    /// uid's tombstone, and a store without any answers without a query.
    var hasTombstones: Bool?

    /// The first bytes of every SQLite database file.
    public static let header: [UInt8] = Array("SQLite format 3".utf8) + [0]
    /// `PRAGMA application_id` of a Kept store: "KEPT".
    static let applicationID: Int64 = 0x4B45_5054
    /// `PRAGMA user_version`: the schema version this Kept writes.
    public static let schemaVersion: Int64 = 1
    /// A database this large or smaller (about 12,000 tasks) is checked with `PRAGMA
    /// quick_check` when opened; the check reads every page, so a larger one is checked page by
    /// page as SQLite reads it, and a damaged page fails the statement (docs/STORE.md).
    static let quickCheckBytes = 8 << 20

    private init(db: SQLiteDatabase, file: StorePath) {
        self.db = db
        self.file = file
        self.currentMeta = Store().meta
    }

    /// Opens a Kept database, creating it when missing. A file that is not a Kept database, a
    /// damaged one, or one of a newer schema is refused and never written.
    public static func open(_ path: String) -> Result<SQLiteStore, StoreError> {
        let p = StorePath(path)
        let exists = access(p.target, F_OK) == 0
        let size: Int = {
            var st = stat()
            return stat(p.target, &st) == 0 ? Int(st.st_size) : 0
        }()
        let db: SQLiteDatabase
        switch SQLiteDatabase.open(p.target, create: !exists) {
        case .success(let d): db = d
        case .failure(let e): return .failure(refusal(path, e))
        }
        // A new store is the user's own (its -wal and -shm take the same mode).
        if !exists { chmod(p.target, 0o600) }
        let s = SQLiteStore(db: db, file: p)
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
                try? db.exec("ROLLBACK")
                throw error
            }
            if tables > 0, app != applicationID {
                return .failure(.unreadable(Catalog.notAKeptDatabase(path, reason: "it is a SQLite database of another program")))
            }
            if version > schemaVersion {
                return .failure(.unreadable(Catalog.newerStore(path, version: Int(version), reads: Int(schemaVersion))))
            }
            if exists, size <= quickCheckBytes, tables > 0 {
                let check = try db.text("PRAGMA quick_check") ?? "ok"
                guard check == "ok" else { return .failure(.unreadable(Catalog.notAKeptDatabase(path, reason: "it is damaged: \(check)"))) }
            }
            // WAL lets readers read while one process writes; FULL makes each commit durable.
            _ = try? db.text("PRAGMA journal_mode=WAL")
            try db.exec("PRAGMA synchronous=FULL")
            if tables == 0 || version < schemaVersion { try s.migrate() }
            try s.readCaches()
        } catch {
            return .failure(refusal(path, error))
        }
        return .success(s)
    }

    static func refusal(_ path: String, _ e: SQLiteError) -> StoreError {
        if e.isDamage { return .unreadable(Catalog.notAKeptDatabase(path, reason: e.message)) }
        if e.isBusy { return .locked(path: path) }
        return .unreadable(Catalog.storeUnreadable(path: path, reason: e.message))
    }

    public var location: String? { file.path }

    // MARK: reading

    public var settings: Settings { currentMeta.settings }
    public var projects: [Project] { currentMeta.projects }
    public var areas: [Area] { currentMeta.areas }
    public var filters: [SavedFilter] { currentMeta.filters }
    public var plan: PlanSnapshot? { currentMeta.plan }
    public var nextID: Int { currentMeta.nextID }

    public var history: Journal {
        if let j = loadedJournal { return j }
        let j = (try? readHistory()) ?? Journal()
        loadedJournal = j
        return j
    }

    public var taskCount: Int {
        if let f = full { return f.taskCount }
        return Int((try? db.integer("SELECT count(*) FROM tasks")) ?? 0)
    }

    public func task(_ id: Int) -> Task? {
        one("SELECT record FROM tasks WHERE id = ?1") { $0.bind(1, id) }
    }

    public func task(uid: TaskUID) -> Task? {
        one("SELECT record FROM tasks WHERE uid = ?1") { $0.bind(1, uid.description) }
    }

    public func task(atRow k: Int) -> Task? { fullStore().task(atRow: k) }

    public func tasks(_ query: TaskQuery) -> [Task] {
        switch query {
        case .all: return fullStore().tasks
        case .children(let id): return many("SELECT record FROM tasks WHERE parent = ?1 ORDER BY id") { $0.bind(1, id) }
        case .project(let name):
            return many("SELECT record FROM tasks WHERE project_key = ?1 AND project = ?2 ORDER BY id") {
                $0.bind(1, name.lowercased())
                $0.bind(2, name)
            }
        case .titled(let t): return many("SELECT record FROM tasks WHERE title = ?1 ORDER BY id") { $0.bind(1, t) }
        case .withReminders: return many("SELECT record FROM tasks WHERE reminders > 0 ORDER BY id") { _ in }
        }
    }

    public func columns(dayStart: WallTime, withText: Bool, withSearch: Bool) -> TaskIndex {
        fullStore().columns(dayStart: dayStart, withText: withText, withSearch: withSearch)
    }

    public func tombstone(uid: TaskUID) -> Tombstone? {
        if hasTombstones == nil { hasTombstones = ((try? db.integer("SELECT EXISTS (SELECT 1 FROM tombstones)")) ?? 1) != 0 }
        guard hasTombstones != false else { return nil }
        guard let st = try? db.statement("SELECT deleted_at FROM tombstones WHERE uid = ?1") else { return nil }
        defer { st.reset() }
        st.bind(1, uid.description)
        guard (try? st.step()) == true, let at = st.text(0).flatMap(TimeText.parseISOInstant) else { return nil }
        return Tombstone(uid: uid, deletedAt: at)
    }

    public func snapshot() -> Store {
        var s = fullStore()
        s.meta = currentMeta
        s.history = history
        s.tombstones = allTombstones()
        return s
    }

    /// Every task's record in id order, read into a store's columns (its tasks built only when
    /// asked for), once until a task changes.
    func fullStore() -> Store {
        if let f = full { return f }
        var bytes = Array("{\"tasks\": [\n".utf8)
        var n = 0
        if let st = try? db.statement("SELECT record FROM tasks ORDER BY id") {
            while (try? st.step()) == true {
                if n > 0 { bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: "\n")]) }
                _ = st.appendBytes(0, to: &bytes)
                n += 1
            }
            st.reset()
        }
        bytes.append(contentsOf: Array("\n]}\n".utf8))
        var s = (try? StoreCodec.decode(bytes).get()) ?? Store()
        s.meta = currentMeta
        full = s
        return s
    }

    /// Forgets the full view: a task changed.
    func dropFullView() { full = nil }

    /// Whether every record has been read (tests check that a statement did not need to).
    var hasFullView: Bool { full != nil }

    private func one(_ sql: String, _ bind: (SQLiteStatement) -> Void) -> Task? {
        many(sql, bind).first
    }

    private func many(_ sql: String, _ bind: (SQLiteStatement) -> Void) -> [Task] {
        var out: [Task] = []
        do throws(SQLiteError) {
            let st = try db.statement(sql)
            defer { st.reset() }
            bind(st)
            var bytes: [UInt8] = []
            while try st.step() {
                bytes.removeAll(keepingCapacity: true)
                _ = st.appendBytes(0, to: &bytes)
                var r = JSONReader(bytes: bytes)
                do throws(JSONError) {
                    out.append(try StoreCodec.decodeTask(&r))
                } catch {
                    damaged("a task record cannot be read: \(error.message)")
                }
            }
        } catch {
            if error.isDamage { damaged(error.message) }
        }
        return out
    }

    /// A read found the database damaged: nothing may be written to it from now on, and the
    /// statement fails at its commit with E0327 (a read is not silently an absence).
    func damaged(_ reason: String) {
        failure = .unreadable(Catalog.notAKeptDatabase(file.path, reason: "it is damaged: \(reason)"))
        hasPending = true
    }

    public var tombstones: [Tombstone] { allTombstones() }

    func allTombstones() -> [Tombstone] {
        var out: [Tombstone] = []
        guard let st = try? db.statement("SELECT uid, deleted_at FROM tombstones ORDER BY seq") else { return out }
        defer { st.reset() }
        while (try? st.step()) == true {
            if let u = st.text(0).flatMap(TaskUID.init), let at = st.text(1).flatMap(TimeText.parseISOInstant) {
                out.append(Tombstone(uid: u, deletedAt: at))
            }
        }
        return out
    }

    // MARK: changing

    /// Takes the write lock before a statement that may change the store reads it, so what
    /// it reads is what it changes; reads again what another process committed meanwhile.
    public func prepareToWrite() -> Result<Void, StoreError> {
        guard !writing else { return .success(()) }
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
        guard failure == nil else { return }
        if !writing {
            // A change no statement announced: the lock is taken now, and what was read
            // before it must still be what the store holds.
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
            if error.isDamage { damaged(error.message) } else { failure = .writeFailed(path: file.path, reason: error.message) }
        }
    }

    /// Room for `n` new rows in one transaction (a large import): the page cache is raised to
    /// about 200 bytes a task (at most 128 MB, within the store's memory goal), so the pages of the indexes a new row goes into
    /// at random places (uid, title) stay in memory instead of being read back from the WAL
    /// for every row. It stays raised for the connection; SQLite fills it only as pages are used.
    public func reserveTasks(_ n: Int) {
        let kb = min(n / 5, 131_072)
        if kb > 2_000 { try? db.exec("PRAGMA cache_size = -\(kb)") }
        // Into an empty store, the secondary indexes are made once after the rows (a sort)
        // instead of taking each row at a random place; the keys (uid, id) stay. It is one
        // transaction: a rollback or a crash leaves them as they were.
        guard n >= SQLiteStore.bulkRows, writing, failure == nil, !indexesDropped, taskCount == 0 else { return }
        do throws(SQLiteError) {
            for (name, _) in SQLiteStore.taskIndexes { try db.exec("DROP INDEX \(name)") }
            indexesDropped = true
        } catch {
            failure = .writeFailed(path: file.path, reason: error.message)
        }
    }

    /// How many new rows (as an import estimates them) make an import into an empty store a
    /// bulk load.
    static let bulkRows = 4_096

    /// The secondary indexes again, after a bulk load.
    private func remakeIndexes() throws(SQLiteError) {
        guard indexesDropped else { return }
        for (_, create) in SQLiteStore.taskIndexes { try db.exec(create) }
        indexesDropped = false
    }

    public func commit() -> Result<Void, StoreError> {
        if let f = failure {
            rollback()
            return .failure(f)
        }
        guard writing else {
            hasPending = false
            return .success(())
        }
        do throws(SQLiteError) {
            try remakeIndexes()
            try db.exec("COMMIT")
            writing = false
            hasPending = false
            return .success(())
        } catch {
            rollback()
            return .failure(error.isBusy ? .locked(path: file.path) : .writeFailed(path: file.path, reason: error.message))
        }
    }

    public func rollback() {
        if writing { try? db.exec("ROLLBACK") }
        // The rollback takes back the drop too.
        indexesDropped = false
        writing = false
        failure = nil
        hasPending = false
        try? readCaches()
    }

    // MARK: other processes

    private func version() throws(SQLiteError) -> Int64 { try db.integer("PRAGMA data_version") ?? 0 }

    public func changedElsewhere() -> Bool {
        guard !writing else { return false }
        return ((try? version()) ?? seenVersion) != seenVersion
    }

    public func reload() -> Result<Void, StoreError> {
        if writing { try? db.exec("ROLLBACK") }
        indexesDropped = false
        writing = false
        failure = nil
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
            currentMeta = try readMeta()
            if own { try db.exec("COMMIT") }
        } catch {
            if own { try? db.exec("ROLLBACK") }
            throw error
        }
        loadedJournal = nil
        full = nil
        hasTombstones = nil
    }
}
