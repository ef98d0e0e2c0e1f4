// The storage seam: what the engine needs of a store, whatever holds it. A backend answers
// reads (the filter columns, single tasks by id or uid, the small lists), takes changes through
// `apply` (visible to reads at once), and makes them durable together with `commit`, or drops
// them with `rollback`. The JSON file is the first backend (JSONStore).

import KeptRules

/// Tasks a statement asks a backend for by something other than their id.
public enum TaskQuery: Sendable, Equatable {
    /// Every task, in id order (a backend may have to build them all).
    case all
    /// The direct subtasks of a task.
    case children(of: Int)
    /// The tasks whose project is this one (by the name the tasks store).
    case project(String)
    /// The tasks with exactly this title.
    case titled(String)
    /// The tasks that have a reminder.
    case withReminders
}

/// A read a backend may narrow (SQL): the tasks a filter may match, and no others need be read.
/// The backend's condition may only widen the set; the compiled filter decides on the rows that
/// come back (docs/STORE.md, "A statement reads what it needs").
public struct NarrowRequest {
    /// The filter; nil for its scope alone (every open task).
    public var expr: FilterExpr?
    /// Only open tasks, whatever the filter's scope (the plan).
    public var openOnly = false
    /// The order a list prints and how many rows it keeps: a backend whose condition is exact
    /// may read only those rows (and then says how many match in all).
    public var order: SortOrder? = nil
    public var limit: Int? = nil
    /// Whether such a read says how many match in all (a count of every match). When false it
    /// says how many up to the limit (at least one when any does): what a list's head needs.
    public var countAll = true
    /// Tasks read whatever the filter says (the plan's picks finished today).
    public var alsoIDs: [Int] = []
    /// Every open subtask read too (the plan: a task with one is blocked, whatever the filter).
    public var openSubtasks = false
    public var dayStart: WallTime
    public var withText = false
    public var withSearch = false
    /// Set for the whole plan limited to a few rows a section (`plan limit 3`, Top 3): a
    /// backend may read only the rows that can be in its sections' first rows, and then
    /// counts the sections (NarrowedColumns.planCounts).
    public var plan: PlanBounds? = nil

    public init(expr: FilterExpr?, dayStart: WallTime) {
        self.expr = expr
        self.dayStart = dayStart
        if let expr {
            withText = CompiledFilter.needsText(expr)
            withSearch = CompiledFilter.needsSearch(expr)
        }
    }
}

/// What a backend needs to read only the candidates of a limited plan: the score as of the
/// plan's snapshot, the quick-win threshold, and how many rows of each section are printed.
public struct PlanBounds: Sendable {
    public var urgency: Urgency
    public var quickWinMinutes: Int
    /// Rows of Quick wins and of the rest printed (Top 3 comes on top).
    public var limit: Int

    public init(urgency: Urgency, quickWinMinutes: Int, limit: Int) {
        self.urgency = urgency
        self.quickWinMinutes = quickWinMinutes
        self.limit = limit
    }
}

/// The columns of the rows a backend read for a `NarrowRequest`, in id order.
public struct NarrowedColumns {
    public var index: TaskIndex
    /// The tasks the filter looks at (its scope; the open ones with `openOnly`).
    public var total: Int
    /// Set when only the first `limit` rows in `order` were read, by a condition that says
    /// exactly what the filter says: how many match in all.
    public var matched: Int?
    /// Set when only a limited plan's candidates were read (NarrowRequest.plan): the counts
    /// of every open task.
    public var planCounts: SmartPlan.Counts? = nil

    public init(index: TaskIndex, total: Int, matched: Int?, planCounts: SmartPlan.Counts? = nil) {
        self.index = index
        self.total = total
        self.matched = matched
        self.planCounts = planCounts
    }
}

/// Why a store could not be read, written or committed.
public enum StoreError: Error, Sendable {
    /// Another process wrote the store after this one read it; nothing was written.
    case conflict(path: String)
    /// Another writer holds the store's lock and did not let go in time.
    case locked(path: String)
    /// The store, or the folder that holds it, cannot be written; nothing was.
    case readOnly(path: String, folder: Bool)
    /// The write itself failed; the store is as it was.
    case writeFailed(path: String, reason: String)
    /// The store cannot be read (with what says where and why).
    case unreadable(StoreProblem)
    /// The store cannot be replaced by a new file without harm; nothing was written.
    case notReplaceable(path: String, reason: NotReplaceable)

    /// Why a rename would do harm.
    public enum NotReplaceable: Sendable, Equatable {
        /// A pipe or another file that is not a regular file (read once, never written).
        case notAFile
        /// A file with this many names: the others would keep the old version.
        case hardLinks(Int)
    }
}

/// A store as the engine sees it.
public protocol StoreBackend: AnyObject {
    /// Where the store lives, for messages; nil for a store held in memory only.
    var location: String? { get }

    // MARK: reading: what is committed, with what is applied since

    var settings: Settings { get }
    var projects: [Project] { get }
    var areas: [Area] { get }
    var filters: [SavedFilter] { get }
    var plan: PlanSnapshot? { get }
    var calendars: [CalendarConnection] { get }
    var nextID: Int { get }
    var history: Journal { get }
    var taskCount: Int { get }
    func task(_ id: Int) -> Task?
    func task(uid: TaskUID) -> Task?
    /// The task at a row of `columns` (rows are positions in id order).
    func task(atRow k: Int) -> Task?
    func tasks(_ query: TaskQuery) -> [Task]
    /// The filter columns; `withText` keeps titles and descriptions, `withSearch` the folded
    /// search text (the costliest).
    func columns(dayStart: WallTime, withText: Bool, withSearch: Bool) -> TaskIndex
    /// The columns of only the tasks a request may match, when the backend can narrow a read
    /// (SQL); nil reads every task's columns (`columns`). Until the next `columns` or
    /// `narrowedColumns`, `task(atRow:)` answers for the rows of this index.
    func narrowedColumns(_ request: NarrowRequest, _ fc: FilterContext) -> NarrowedColumns?
    func tombstone(uid: TaskUID) -> Tombstone?
    /// Every tombstone, oldest first.
    var tombstones: [Tombstone] { get }
    /// The link to an account, the outbox and the refused changes (docs/SYNC.md).
    var sync: SyncState { get }
    /// A task from its store record (the shape the store file writes, `TaskJSON.record`); nil
    /// when the record does not read. Sync builds pulled tasks with it.
    func task(record: JSONObject) -> Task?
    /// How many tasks a filter matches and how many it looks at, when the backend can count
    /// without the columns (SQL); nil otherwise.
    func count(_ expr: FilterExpr, _ fc: FilterContext) -> (matched: Int, total: Int)?
    /// The whole store as one value, for writing a copy elsewhere.
    func snapshot() -> Store
    /// An independent copy held in memory, changed separately and never written; it remembers
    /// where it came from (`location`), so an export still refuses that file.
    func copyInMemory() -> any StoreBackend
    /// Every task's uid with its id, where the backend holds the tasks in memory and one table
    /// answers an import's many questions at once; nil where each is a query (SQL).
    func uidTable() -> [TaskUID: Int]?
    /// Every tombstone's time by uid, where reading them all once costs less than a query for
    /// each record an import reads (SQL); nil where each is a lookup already.
    func tombstoneTable() -> [TaskUID: Instant]?
    /// Every task's uid, in no order (a first pull's check of what the store holds): a backend
    /// that has to build every task for it need not (SQL reads one column).
    func taskUIDs() -> [TaskUID]

    // MARK: changing

    /// Called before a statement that may change the store reads it: a backend that locks
    /// (SQLite) takes its write lock here, so what the statement reads is what it changes.
    func prepareToWrite() -> Result<Void, StoreError>

    /// Applies one change; reads see it at once. Nothing is durable before `commit`.
    func apply(_ change: StoreChange)
    /// Whether changes were applied since the last commit or rollback.
    var hasPending: Bool { get }
    /// Makes every change applied since the last commit durable, all or none. When another
    /// process wrote the store since it was read, nothing is written (`conflict`) and the
    /// changes stay pending until `rollback` or `reload`.
    func commit() -> Result<Void, StoreError>
    /// Drops every change applied since the last commit.
    func rollback()
    /// Told before a change adds about `n` tasks (a large import), so the backend can make
    /// room; a hint, which a backend may ignore.
    func reserveTasks(_ n: Int)

    // MARK: other processes

    /// Whether another process wrote the store since this one read it.
    func changedElsewhere() -> Bool
    /// Reads the store again, dropping what is pending.
    func reload() -> Result<Void, StoreError>

    // MARK: damage and the end

    /// The damage reads have found, as the error a statement fails with: once set, it stays for
    /// the life of the backend, and nothing is written (docs/STORE.md, "Damage").
    var readFailure: StoreError? { get }
    /// What the store has to say when it is opened (a JSON file changed after Kept wrote it):
    /// the front end shows it once, on standard error, before the first statement, so it never
    /// takes the place of a statement's output (one JSON object per statement).
    var notices: [StoreNotice] { get }
    /// Ends the backend's use: a SQLite store closes its connection, so its -wal is checkpointed
    /// and removed. Nothing pending is written.
    func close()
}

extension StoreBackend {
    public func count(_ expr: FilterExpr, _ fc: FilterContext) -> (matched: Int, total: Int)? { nil }

    public func reserveTasks(_ n: Int) {}

    public func narrowedColumns(_ request: NarrowRequest, _ fc: FilterContext) -> NarrowedColumns? { nil }

    public func uidTable() -> [TaskUID: Int]? { nil }

    public func tombstoneTable() -> [TaskUID: Instant]? { nil }

    public func taskUIDs() -> [TaskUID] { tasks(.all).map(\.uid) }

    public var readFailure: StoreError? { nil }

    public var notices: [StoreNotice] { [] }

    public func close() {}

    /// The filter columns without the folded search text.
    public func columns(dayStart: WallTime, withText: Bool) -> TaskIndex {
        columns(dayStart: dayStart, withText: withText, withSearch: false)
    }
}
