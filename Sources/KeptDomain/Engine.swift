// The rules engine's typed API (docs/ARCHITECTURE.md). Every change a statement can make is one
// call here, on typed values (ids, civil dates, rules, drafts): the call checks the rules
// (R-REP-*, R-TASK-*, R-PLAN-*), makes its changes through one path (`apply`, to the store
// backend) and records them as one undoable step. The engine never sees a token, a source
// range or output text: it returns typed results, and its errors are DomainError values.

import KeptRules

/// The engine over one store, at one clock and zone.
public final class Engine {
    /// The store, behind the storage seam.
    public package(set) var store: any StoreBackend
    public var clock: SessionClock
    /// A zone given on the command line or by `zone`; the account's own is the `zone` setting.
    public var zoneOverride: Zone?
    /// The zone used when neither the store nor the command line names one.
    public let defaultZone: Zone
    /// Where new tasks' uids come from.
    public var uids: UIDSource
    /// The occurrence a completion is making by its derived uid, while that change is staged:
    /// the outbox sends it as a make, which any change of the item elsewhere outweighs
    /// (`queue`, docs/SYNC.md "Repeats").
    package var making: TaskUID?

    public init(store: any StoreBackend, clock: SessionClock, defaultZone: Zone, zoneOverride: Zone? = nil, uids: UIDSource = .random) {
        self.store = store
        self.clock = clock
        self.defaultZone = defaultZone
        self.zoneOverride = zoneOverride
        self.uids = uids
    }

    /// Works on another store from now on (what is pending on the old one stays there).
    public func replaceStore(_ s: any StoreBackend) {
        store = s
    }

    // MARK: time (R-DAY-1, R-DAY-2)

    public var settings: Settings { store.settings }

    /// The account zone: the command line's, else the store's, else the default.
    public var zone: Zone {
        if let z = zoneOverride { return z }
        if let n = store.settings.zone, let z = Zone(identifier: n) { return z }
        return defaultZone
    }

    public var now: Instant {
        switch clock {
        case .clock(let c): return c.now()
        case .wall(let w): return zone.instant(for: w)
        case .instant(let i): return i
        }
    }

    /// Now as a wall-clock reading in the account zone.
    public var nowLocal: CivilDateTime {
        switch clock {
        case .wall(let w): return zone.resolve(w).wall
        default: return zone.local(at: now)
        }
    }

    /// The account's today, after the day start (R-DAY-2).
    public var today: CivilDate { store.settings.day.today(at: nowLocal) }

    public var weekStart: Weekday { store.settings.day.weekStart }

    public var dateContext: DateContext {
        let n = nowLocal
        return DateContext(now: n, today: store.settings.day.today(at: n), settings: store.settings, zone: zone, instant: now)
    }

    /// The filter context of now: today, now and the instant today began.
    public var filterContext: FilterContext {
        FilterContext(dateContext, now: now)
    }

    // MARK: the change path

    /// Applies one change to the store: every change the engine makes goes through here. A task
    /// that leaves the store leaves a tombstone, and one that comes back takes it away.
    /// A linked store queues what the change did to each item it touches, in the same commit
    /// (docs/SYNC.md, "The outbox"); `queue: false` is for what came from the server.
    package func apply(_ c: StoreChange, queue: Bool = true) {
        guard case .item(let item) = c else {
            store.apply(c)
            return
        }
        let linked = queue && store.sync.link != nil
        let before = linked ? syncFields(touchedBy: item) : [:]
        store.apply(c)
        if case .task(let b, let a) = item {
            if let b, a == nil {
                store.apply(.tombstone(Tombstone(uid: b.uid, deletedAt: now)))
            } else if let a, b?.uid != a.uid, store.tombstone(uid: a.uid) != nil {
                store.apply(.untombstone(a.uid))
            }
        }
        if linked { self.queue(before: before, after: syncFields(touchedBy: item)) }
    }

    /// Whether `n` more ids can be handed out (ids stop at Store.maxID, so every id a store
    /// holds reads back exactly; docs/LIMITS.md).
    package func hasIDs(_ n: Int) -> Bool { n <= 0 || store.nextID <= Store.maxID - (n - 1) }

    /// Hands out the next id; ids are never reused, even after a delete or an undo.
    package func takeID() throws(DomainError) -> Int {
        guard hasIDs(1) else { throw .idsUsedUp }
        let id = store.nextID
        apply(.nextID(id + 1))
        return id
    }

    /// A new task with a fresh uid, made now.
    package func newTask(title: String) throws(DomainError) -> Task {
        Task(id: try takeID(), title: title, createdAt: now, uid: uids.next())
    }

    /// The changes of one user action as it is made; each is applied at once, so a later part
    /// of the action sees an earlier one.
    public struct StepChanges: Sendable {
        public package(set) var changes: [Change] = []
        /// For a linked store: each item's outbox entry as it was before the change at an
        /// index first touched it, so taking the step back takes its entries back too.
        package var outboxBefore: [(at: Int, key: SyncKey, entry: OutboxEntry?)] = []

        package init(changes: [Change] = []) {
            self.changes = changes
        }
        public var isEmpty: Bool { changes.isEmpty }
    }

    /// Applies changes as part of a step: every changed task is stamped `modifiedAt` now.
    package func stage(_ changes: [Change], into step: inout StepChanges) {
        let at = now
        for var c in changes {
            if case .task(let b, var a?) = c {
                // R-REP-6: a made occurrence stops being pristine at its first change.
                if let b, b.pristine, a.pristine, a.id == b.id {
                    var x = b
                    x.pristine = a.pristine
                    if x != a || a.status != b.status { a.pristine = false }
                }
                a.modifiedAt = at
                c = .task(before: b, after: a)
            }
            if store.sync.link != nil {
                for key in syncKeys(touchedBy: c) { step.outboxBefore.append((step.changes.count, key, store.sync.outbox[key])) }
            }
            apply(.item(c))
            step.changes.append(c)
        }
    }

    /// Takes back the changes staged after `mark`, newest first, and the outbox entries they
    /// made: a change taken back is no change to send.
    package func rollback(_ step: inout StepChanges, to mark: Int) {
        while step.changes.count > mark, let c = step.changes.popLast() { apply(.item(c.inverted), queue: false) }
        var restored: Set<SyncKey> = []
        for m in step.outboxBefore where m.at >= mark && restored.insert(m.key).inserted {
            store.apply(.sync(m.entry.map { .queue($0) } ?? .dequeue(m.key)))
        }
        step.outboxBefore.removeAll { $0.at >= mark }
    }

    /// Records a finished step in the undo history (R-TASK-1).
    package func record(_ step: StepChanges, summary: String) {
        guard !step.isEmpty else { return }
        apply(.history(.record(JournalStep(summary: summary, changes: step.changes))))
    }

    /// Runs `body` as one step, recorded under `summary`; an error takes back all it staged.
    package func perform<R>(_ summary: String, _ body: (inout StepChanges) throws(DomainError) -> R) throws(DomainError) -> R {
        var step = StepChanges()
        do {
            let r = try body(&step)
            record(step, summary: summary)
            return r
        } catch {
            rollback(&step, to: 0)
            throw error
        }
    }

    // MARK: reads the rules need

    public func task(_ id: Int) -> Task? { store.task(id) }

    /// The task with an id, or `noTask`.
    public func existing(_ id: Int) throws(DomainError) -> Task {
        guard let t = store.task(id) else { throw .noTask(id) }
        return t
    }

    /// The direct subtasks of a task.
    public func children(of id: Int) -> [Task] { store.tasks(.children(of: id)) }

    /// Subtasks by parent: asked of the backend one parent at a time, and after a few dozen
    /// parents listed once for the whole store, so a walk down a tree of thousands stays
    /// linear whatever the backend answers a question with.
    package struct SubtaskWalk {
        package let engine: Engine
        package var asked = 0
        package var all: [Int: [Task]]? = nil

        package mutating func children(of id: Int) -> [Task] {
            asked += 1
            if all == nil, asked > 32 {
                var m: [Int: [Task]] = [:]
                for t in engine.store.tasks(.all) { if let p = t.parent { m[p, default: []].append(t) } }
                all = m
            }
            if let all { return all[id] ?? [] }
            return engine.children(of: id)
        }
    }

    /// Every task below one, parents before their subtasks.
    public func descendants(of id: Int) -> [Task] {
        var walk = SubtaskWalk(engine: self)
        var out: [Task] = []
        var queue = [id]
        var seen: Set<Int> = [id]
        var k = 0
        while k < queue.count {
            for c in walk.children(of: queue[k]) where seen.insert(c.id).inserted {
                out.append(c)
                queue.append(c.id)
            }
            k += 1
        }
        return out
    }

    /// How many ancestors a task has (a loop in a hand-edited store ends the count).
    public func depth(_ t: Task) -> Int {
        var n = 0
        var seen: Set<Int> = [t.id]
        var p = t.parent
        while let id = p, seen.insert(id).inserted, let up = store.task(id) {
            n += 1
            p = up.parent
        }
        return n
    }

    // MARK: committing

    /// Makes what the statements since the last commit changed durable (R-STORE-2).
    public func commit() -> Result<Void, StoreError> { store.commit() }

    /// Drops what the statements since the last commit changed.
    public func rollback() { store.rollback() }
}
