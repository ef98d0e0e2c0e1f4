// The JSON file backend (docs/STORE.md): the whole store in memory, loaded by the fast loader,
// and written whole at each commit under the store's lock, only when no other process wrote it
// since it was read. Without a file it is the in-memory store of tests and of a REPL without
// `--store`.

import KeptRules
import KeptDomain
import KeptFiles

/// A store held in memory, with or without a JSON file behind it.
public final class JSONStore: StoreBackend {
    /// The store as it stands, changes applied.
    public private(set) var store: Store
    /// What `rollback` goes back to: everything but the tasks as last committed (or read), and
    /// each task a pending change touched as it was before. A copy of the whole store would
    /// cost a copy of every task at the next change.
    private var committedMeta: Store.Meta
    private var taskLog: [(id: Int, before: TaskBox?)] = []
    public private(set) var hasPending = false
    /// Ids by uid, made at the first lookup by uid (an import asks for thousands) and kept up
    /// to date by every change after it.
    private var uidIndex: [TaskUID: Int]? = nil
    /// The file, and the identity of the version last read or written; nil in memory.
    public let file: StorePath?
    /// The file a store held in memory was read from (for messages, notices and the export
    /// check).
    private var readFrom: String? = nil
    private var identity: FileIdentity?

    /// A store held in memory; `path` names the file it was read from, if any (it is never
    /// written, but an export must not destroy it either).
    public init(memory store: Store = Store(), readFrom path: String? = nil) {
        self.store = store
        self.committedMeta = store.meta
        self.file = nil
        self.readFrom = path
    }

    private init(store: Store, file: StorePath, identity: FileIdentity?) {
        self.store = store
        self.committedMeta = store.meta
        self.file = file
        self.identity = identity
    }

    /// Opens a store file; a missing one is an empty store that the first commit creates.
    public static func open(_ path: String) -> Result<JSONStore, StoreError> {
        let p = StorePath(path)
        switch StoreFile.loadWithIdentity(p) {
        case .failure(let d): return .failure(.unreadable(d))
        case .success(let (loaded, id)):
            switch loaded {
            case .store(let s): return .success(JSONStore(store: s, file: p, identity: id))
            case .missing(let s): return .success(JSONStore(store: s, file: p, identity: nil))
            }
        }
    }

    public var location: String? { file?.path ?? readFrom }

    public var notices: [StoreNotice] {
        store.checksum == .differs ? [.changedOutside(path: file?.path ?? readFrom ?? "the store")] : []
    }

    // MARK: reading

    public var settings: Settings { store.settings }
    public var projects: [Project] { store.projects }
    public var areas: [Area] { store.areas }
    public var filters: [SavedFilter] { store.filters }
    public var plan: PlanSnapshot? { store.plan }
    public var calendars: [CalendarConnection] { store.calendars }
    public var nextID: Int { store.nextID }
    public var history: Journal { store.history }
    public var taskCount: Int { store.taskCount }
    public func task(_ id: Int) -> Task? { store.task(id) }
    public func task(atRow k: Int) -> Task? { store.task(atRow: k) }
    public func task(uid: TaskUID) -> Task? {
        if uidIndex == nil { uidIndex = Dictionary(store.tasks.map { ($0.uid, $0.id) }, uniquingKeysWith: { a, _ in a }) }
        return uidIndex?[uid].flatMap { store.task($0) }
    }
    public var tombstones: [Tombstone] { store.tombstones }
    public var sync: SyncState { store.sync }
    public func task(record: JSONObject) -> Task? { StoreCodec.task(record: record) }
    public func tombstone(uid: TaskUID) -> Tombstone? {
        // Every new task asks; a store without tombstones answers without hashing.
        guard !store.tombstoneMap.isEmpty else { return nil }
        return store.tombstoneMap[uid].map { Tombstone(uid: uid, deletedAt: $0) }
    }
    public func snapshot() -> Store { store }

    public func copyInMemory() -> any StoreBackend { JSONStore(memory: store, readFrom: location) }

    public func uidTable() -> [TaskUID: Int]? {
        var m: [TaskUID: Int] = [:]
        m.reserveCapacity(taskCount)
        for t in store.tasks { m[t.uid] = t.id }
        return m
    }

    public func columns(dayStart: WallTime, withText: Bool, withSearch: Bool) -> TaskIndex {
        store.columns(dayStart: dayStart, withText: withText, withSearch: withSearch)
    }

    public func tasks(_ query: TaskQuery) -> [Task] {
        switch query {
        case .all: return store.tasks
        case .withReminders: return store.tasksWithReminders
        case .children(let id): return store.tasks(parent: id)
        case .project(let name): return store.tasks.filter { $0.project == name }
        case .titled(let title): return store.tasks.filter { $0.title == title }
        }
    }

    // MARK: changing

    /// Room for `n` more tasks, before a large import adds them one by one.
    public func reserveTasks(_ n: Int) {
        store.reserveTasks(n)
        taskLog.reserveCapacity(taskLog.count + n)
    }

    /// The JSON file is checked at commit instead (StoreFile.commit): readers and a REPL left
    /// open never hold its lock.
    public func prepareToWrite() -> Result<Void, StoreError> { .success(()) }

    public func apply(_ change: StoreChange) {
        if let (b, a) = change.taskKeys {
            // A boxed copy: an entry of the log costs a word for a task that was not there (an add).
            if let id = b?.id { taskLog.append((id, store.task(id).map(TaskBox.init))) }
            // Every id the store holds is below its next id: an add asks for nothing.
            if let id = a?.id, id != b?.id { taskLog.append((id, id < store.nextID ? store.task(id).map(TaskBox.init) : nil)) }
            if uidIndex != nil {
                if let b { uidIndex?[b.uid] = nil }
                if let a { uidIndex?[a.uid] = a.id }
            }
        }
        store.apply(change)
        hasPending = true
    }

    public func rollback() {
        guard hasPending else { return }
        for (id, before) in taskLog.reversed() {
            if let t = before?.task { store.put(t) } else { store.remove(id) }
        }
        store.meta = committedMeta
        uidIndex = nil
        settled()
    }

    /// What is applied now is what a rollback goes back to.
    private func settled() {
        committedMeta = store.meta
        taskLog.removeAll()
        hasPending = false
    }

    public func commit() -> Result<Void, StoreError> {
        guard hasPending else { return .success(()) }
        guard let file else {
            settled()
            return .success(())
        }
        let read = committedMeta.revision
        store.revision = read + 1
        let pieces = StoreCodec.encodePieces(store)
        store.revision = read
        switch StoreFile.commit(pieces, to: file, readAs: identity, revision: read) {
        case .failure(let e): return .failure(e)
        case .success(let id):
            identity = id
            store.revision = read + 1
            store.checksum = .matches
            settled()
            return .success(())
        }
    }

    // MARK: other processes

    public func changedElsewhere() -> Bool {
        guard let file else { return false }
        // A pipe was read once; its times change with every writer, not with a new store.
        if identity?.isRegular == false { return false }
        return FileIdentity.of(file.target) != identity
    }

    public func reload() -> Result<Void, StoreError> {
        guard let file else {
            rollback()
            return .success(())
        }
        switch StoreFile.loadWithIdentity(file) {
        case .failure(let d): return .failure(.unreadable(d))
        case .success(let (loaded, id)):
            switch loaded {
            case .store(let s), .missing(let s):
                store = s
                identity = id
                uidIndex = nil
                settled()
                return .success(())
            }
        }
    }
}

/// A task held by reference in JSONStore's rollback log.
package final class TaskBox {
    package let task: Task
    package init(_ task: Task) { self.task = task }
}
