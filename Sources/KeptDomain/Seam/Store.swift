// The store in memory: tasks in id order with an index by id, projects, areas, saved filters
// and settings, plus whatever fields of the file this version does not know (R-STORE-1).

import KeptRules

/// Everything the user keeps: one store file's content.
public struct Store: Sendable {
    /// The tasks in id order. A store loaded from a file may hold them still unbuilt (see
    /// `DeferredTasks`); the first change builds them.
    public var tasks: [Task] { deferred?.tasks ?? built }
    private var built: [Task] = []
    private var deferred: (any UnbuiltTasks)? = nil
    public var projects: [Project] = []
    public var areas: [Area] = []
    /// Saved filters in the user's order; a new store has the presets (R-FIL-2).
    public var filters: [SavedFilter] = SavedFilter.presets
    public var settings = Settings()
    /// The Smart plan as it was last made (R-PLAN-5); nil until the first `plan`.
    public var plan: PlanSnapshot? = nil
    /// The connected calendars, in the order they were connected (docs/AGENDA.md).
    public var calendars: [CalendarConnection] = []
    /// The id the next new task gets; ids are never reused, even after a delete.
    public var nextID = 1
    /// The largest id a store may hold (2^53 - 1, exact in every JSON reader); the loader
    /// refuses larger ids, and a nextId past one more, so id arithmetic cannot overflow and a
    /// store written after its last id is used still reads back (Limits.largestID).
    public static let maxID = Limits.largestID
    /// Whether a new task can still get an id; an add past the last one is refused (docs/LIMITS.md).
    public var hasIDsLeft: Bool { nextID <= Store.maxID }
    /// Whether `n` new tasks can get ids.
    public func hasIDsLeft(_ n: Int) -> Bool { n <= 0 || nextID <= Store.maxID - (n - 1) }
    /// Top-level fields this version does not know.
    public var extra = JSONObject()
    /// The undo and redo history, kept in the file so a later session can still undo.
    public var history = Journal()
    /// The link to an account, the outbox and the refused changes (docs/SYNC.md).
    public var sync = SyncState()
    /// Deleted tasks' uids with when they went, at most `Tombstone.limit`: keyed by uid, so a
    /// bulk delete and its undo cost one lookup a task.
    package var tombstoneMap: [TaskUID: Instant] = [:]

    /// The tombstones, oldest first.
    public var tombstones: [Tombstone] {
        get { tombstoneMap.map { Tombstone(uid: $0.key, deletedAt: $0.value) }.sorted { ($0.deletedAt, $0.uid) < ($1.deletedAt, $1.uid) } }
        set { tombstoneMap = Dictionary(newValue.map { ($0.uid, $0.deletedAt) }, uniquingKeysWith: { _, b in b }) }
    }
    /// How many times the store file has been written; a writer that read an older revision
    /// learns that another process wrote meanwhile (docs/STORE.md, "Two processes on one JSON file").
    public var revision = 0
    /// What the file's checksum said when the store was read (a store made in memory, or read
    /// from a file without one, has none).
    public var checksum: StoreChecksum = .absent

    public init() {}

    /// Everything but the tasks: small, so a backend can keep a copy to roll back to.
    package struct Meta {
        package var projects: [Project]
        package var areas: [Area]
        package var filters: [SavedFilter]
        package var settings: Settings
        package var plan: PlanSnapshot?
        package var calendars: [CalendarConnection] = []
        package var nextID: Int
        package var extra: JSONObject
        package var history: Journal
        package var tombstones: [TaskUID: Instant]
        package var revision: Int
        package var sync: SyncState
    }

    package var meta: Meta {
        get {
            Meta(projects: projects, areas: areas, filters: filters, settings: settings, plan: plan, calendars: calendars, nextID: nextID,
                 extra: extra, history: history, tombstones: tombstoneMap, revision: revision, sync: sync)
        }
        set {
            projects = newValue.projects
            areas = newValue.areas
            filters = newValue.filters
            settings = newValue.settings
            plan = newValue.plan
            calendars = newValue.calendars
            nextID = newValue.nextID
            extra = newValue.extra
            history = newValue.history
            tombstoneMap = newValue.tombstones
            sync = newValue.sync
            revision = newValue.revision
        }
    }

    /// Builds a store from decoded parts; tasks are put in id order.
    public init(tasks: [Task]) {
        // A store file keeps its tasks in id order, so the sort is usually skipped.
        var sorted = true
        var k = 1
        while sorted, k < tasks.count {
            sorted = tasks[k - 1].id < tasks[k].id
            k += 1
        }
        built = sorted ? tasks : tasks.sorted { $0.id < $1.id }
        nextID = max(nextID, (built.last?.id ?? 0) + 1)
    }

    /// A store whose tasks are built only when asked for; their ids must be in order.
    public init(deferred: any UnbuiltTasks) {
        self.deferred = deferred
        nextID = max(nextID, (deferred.ids.last ?? 0) + 1)
    }

    /// The number of tasks, without building them.
    public var taskCount: Int { deferred?.ids.count ?? built.count }

    /// Builds the tasks before a change.
    private mutating func own() {
        // Asked at every change: nil is told without copying the optional.
        guard deferred != nil, let d = deferred else { return }
        built = d.tasks
        deferred = nil
    }

    /// The position of an id in id order: where it is, or where it would go.
    private func row(of id: Int) -> (row: Int, found: Bool) {
        if let d = deferred {
            let ids = d.ids
            let k = Store.lowerBound(ids.count) { ids[$0] < id }
            return (k, k < ids.count && ids[k] == id)
        }
        // Past the newest (an add asks for its own id first): no search, and only the newest's id
        // read (`built.last` would copy the task).
        if !built.isEmpty, built[built.count - 1].id < id { return (built.count, false) }
        let k = Store.lowerBound(built.count) { built[$0].id < id }
        return (k, k < built.count && built[k].id == id)
    }

    package static func lowerBound(_ n: Int, _ below: (Int) -> Bool) -> Int {
        var lo = 0
        var hi = n
        while lo < hi {
            let mid = (lo + hi) / 2
            if below(mid) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The task with an id, or nil.
    public func task(_ id: Int) -> Task? {
        let (k, found) = row(of: id)
        guard found else { return nil }
        return task(atRow: k)
    }

    /// The task at a position in id order (a row of `columns`); only it is built.
    public func task(atRow k: Int) -> Task? {
        if let d = deferred { return d.task(atRow: k) }
        return k >= 0 && k < built.count ? built[k] : nil
    }

    /// The id of the task at a position in id order, without building it.
    package func id(atRow k: Int) -> Int? {
        if let d = deferred {
            let ids = d.ids
            return k >= 0 && k < ids.count ? ids[k] : nil
        }
        return k >= 0 && k < built.count ? built[k].id : nil
    }

    /// The direct subtasks of a task, in id order; a store whose tasks are unbuilt finds them in
    /// its columns and builds only those.
    public func tasks(parent id: Int) -> [Task] {
        guard let d = deferred else { return built.filter { $0.parent == id } }
        var out: [Task] = []
        for (k, p) in d.index.parent.enumerated() where p == id {
            if let t = d.task(atRow: k) { out.append(t) }
        }
        return out
    }

    /// The tasks with reminders, in id order; a store whose tasks are unbuilt builds only these
    /// (its columns know which rows have reminders).
    public var tasksWithReminders: [Task] {
        guard let d = deferred else { return built.filter { !$0.reminders.isEmpty } }
        var out: [Task] = []
        var last = -1
        for r in d.index.reminderRows where Int(r) != last {
            last = Int(r)
            if let t = d.task(atRow: last) { out.append(t) }
        }
        return out
    }

    /// The filter columns of the tasks. A store whose tasks are unbuilt has them from loading,
    /// text included; only the search text needs the tasks built.
    public func columns(dayStart: WallTime, withText: Bool, withSearch: Bool = false) -> TaskIndex {
        if let d = deferred, !withSearch { return d.index.rebased(dayStart: dayStart) }
        return TaskIndex(tasks, dayStart: dayStart, withText: withText, withSearch: withSearch)
    }

    /// Hands out a fresh id.
    public mutating func takeID() -> Int {
        let id = nextID
        // Loading caps ids at maxID and nextId at one more; callers check hasIDsLeft first, and
        // nextID never goes past maxID + 1, so what is written reads back.
        nextID = min(nextID + 1, Store.maxID + 1)
        return id
    }

    /// Room for `n` more tasks.
    package mutating func reserveTasks(_ n: Int) {
        own()
        built.reserveCapacity(built.count + n)
    }

    /// Adds a task, or replaces the task with its id; tasks stay in id order.
    public mutating func put(_ t: Task) {
        own()
        if built.isEmpty || built[built.count - 1].id < t.id {
            // A new task, after the newest: the common case, without a search.
            built.append(t)
            if t.id >= nextID { nextID = t.id + 1 }
            return
        }
        let (k, found) = row(of: t.id)
        if found {
            built[k] = t
        } else if k == built.count {
            built.append(t)
        } else {
            // An id below the newest only comes from a hand-edited store.
            built.insert(t, at: k)
        }
        if t.id >= nextID { nextID = t.id + 1 }
    }

    /// Removes a task; returns it, or nil when there was none.
    @discardableResult
    public mutating func remove(_ id: Int) -> Task? {
        own()
        let (k, found) = row(of: id)
        guard found else { return nil }
        return built.remove(at: k)
    }

    /// The project with a name, compared without case.
    public func project(named name: String) -> Project? {
        let n = name.lowercased()
        return projects.first { $0.name.lowercased() == n }
    }

    /// Adds or replaces a project, by name.
    public mutating func put(_ p: Project) {
        let n = p.name.lowercased()
        if let k = projects.firstIndex(where: { $0.name.lowercased() == n }) {
            projects[k] = p
        } else {
            projects.append(p)
        }
    }

    /// Gives a project a new name in its place in the list.
    public mutating func renameProject(_ old: String, to p: Project) {
        let n = old.lowercased()
        if let k = projects.firstIndex(where: { $0.name.lowercased() == n }) { projects[k] = p } else { put(p) }
    }

    /// Removes a project by name.
    public mutating func removeProject(named name: String) {
        let n = name.lowercased()
        projects.removeAll { $0.name.lowercased() == n }
    }
}
