// The store in memory: tasks in id order with an index by id, projects, areas, saved filters
// and settings, plus whatever fields of the file this version does not know (R-STORE-1).

/// Everything the user keeps: one store file's content.
public struct Store: Sendable {
    public private(set) var tasks: [Task] = []
    private var index: [Int: Int] = [:]
    public var projects: [Project] = []
    public var areas: [Area] = []
    /// Saved filters in the user's order; a new store has the presets (R-FIL-2).
    public var filters: [SavedFilter] = SavedFilter.presets
    public var settings = Settings()
    /// The id the next new task gets; ids are never reused, even after a delete.
    public var nextID = 1
    /// The largest id a store may hold (2^53 - 1, exact in every JSON reader); the loader
    /// refuses larger ids and nextIds, so id arithmetic cannot overflow.
    public static let maxID = 9_007_199_254_740_991
    /// Top-level fields this version does not know.
    public var extra = JSONObject()

    public init() {}

    /// Builds a store from decoded parts; tasks are put in id order.
    public init(tasks: [Task]) {
        self.tasks = tasks.sorted { $0.id < $1.id }
        reindex()
        nextID = max(nextID, (self.tasks.last?.id ?? 0) + 1)
    }

    private mutating func reindex() {
        index.removeAll(keepingCapacity: true)
        for (k, t) in tasks.enumerated() { index[t.id] = k }
    }

    /// The task with an id, or nil.
    public func task(_ id: Int) -> Task? {
        guard let k = index[id] else { return nil }
        return tasks[k]
    }

    /// Hands out a fresh id.
    public mutating func takeID() -> Int {
        let id = nextID
        // Loading caps ids and nextId at maxID, so this cannot overflow.
        nextID += 1
        return id
    }

    /// Adds a task, or replaces the task with its id.
    public mutating func put(_ t: Task) {
        if let k = index[t.id] {
            tasks[k] = t
            return
        }
        if let last = tasks.last, last.id > t.id {
            // An id below the newest only comes from a hand-edited store; keep the order.
            var lo = 0
            var hi = tasks.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tasks[mid].id < t.id { lo = mid + 1 } else { hi = mid }
            }
            tasks.insert(t, at: lo)
            reindex()
        } else {
            index[t.id] = tasks.count
            tasks.append(t)
        }
        if t.id >= nextID { nextID = t.id + 1 }
    }

    /// Removes a task; returns it, or nil when there was none.
    @discardableResult
    public mutating func remove(_ id: Int) -> Task? {
        guard let k = index[id] else { return nil }
        let t = tasks.remove(at: k)
        if k == tasks.count {
            index[id] = nil
        } else {
            reindex()
        }
        return t
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

    /// Removes a project by name.
    public mutating func removeProject(named name: String) {
        let n = name.lowercased()
        projects.removeAll { $0.name.lowercased() == n }
    }
}
