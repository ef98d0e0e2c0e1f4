// The one path of every change to a store (docs/ARCHITECTURE.md): the engine makes a change
// value, the backend applies it to what it holds and later persists exactly those changes.
// Undo and redo are made of the `item` changes; ids, tombstones and the history itself move
// through the same path, so nothing changes a store behind a backend's back.

import KeptRules

/// One change to a store, as the storage seam carries it.
public enum StoreChange: Sendable {
    /// A change of the user's data: a task, a project, the settings, the saved filters or the
    /// plan. Undo and redo steps are lists of these.
    case item(Change)
    /// The id the next new task gets. Ids are never reused, so undo leaves it as it is.
    case nextID(Int)
    /// A deleted task's uid is remembered (`add`) or forgotten when the task comes back.
    case tombstone(Tombstone)
    case untombstone(TaskUID)
    /// The undo and redo history.
    case history(HistoryChange)
    /// The sync state: the link, the clock, the cursor, the outbox and the review (docs/SYNC.md).
    case sync(SyncChange)
}

/// A change of the undo and redo history. Undo takes the newest step off (`popUndo`), renumbers
/// what it restores, and puts the step as it left it where redo finds it (`pushRedo`).
public enum HistoryChange: Sendable {
    /// A new step; whatever could be redone is gone.
    case record(JournalStep)
    case popUndo
    case pushRedo(JournalStep)
    case popRedo
    /// A redone step, back where undo finds it (what else can be redone stays).
    case pushUndo(JournalStep)
    /// Every step that names a task by an old id names its new one instead (R-TASK-3: a
    /// restored task has a new id, and earlier steps must still undo the task they changed).
    case renumber([Int: Int])
}

extension Change {
    /// The change that takes this one back.
    public var inverted: Change {
        switch self {
        case .task(let b, let a): return .task(before: a, after: b)
        case .project(let b, let a): return .project(before: a, after: b)
        case .area(let b, let a): return .area(before: a, after: b)
        case .settings(let b, let a): return .settings(before: a, after: b)
        case .filters(let b, let a): return .filters(before: a, after: b)
        case .plan(let b, let a): return .plan(before: a, after: b)
        case .calendars(let b, let a): return .calendars(before: a, after: b)
        }
    }
}

extension StoreChange {
    /// The id and uid of the task a task change replaces and of the one it puts; nil for any
    /// other change. A backend's bookkeeping reads these, not copies of the tasks.
    package var taskKeys: (before: (id: Int, uid: TaskUID)?, after: (id: Int, uid: TaskUID)?)? {
        guard case .item(.task(let b, let a)) = self else { return nil }
        return (b.map { ($0.id, $0.uid) }, a.map { ($0.id, $0.uid) })
    }
}

extension Store {
    /// Applies one change. Every change to a store's content goes through here.
    public mutating func apply(_ change: StoreChange) {
        switch change {
        case .item(let c): apply(c)
        case .nextID(let n): nextID = n
        case .tombstone(let t):
            tombstoneMap[t.uid] = t.deletedAt
            // Past the bound the oldest go, a batch at a time, so a delete costs one lookup.
            if tombstoneMap.count > Tombstone.limit + Tombstone.limit / 10 {
                tombstones = Array(tombstones.suffix(Tombstone.limit))
            }
        case .untombstone(let uid):
            tombstoneMap[uid] = nil
        case .history(let h): history.apply(h)
        case .sync(let c): sync.apply(c)
        }
    }

    /// Applies a change of the user's data: `after` replaces `before`.
    package mutating func apply(_ c: Change) {
        switch c {
        case .task(let before, let after):
            if let t = after {
                // A task whose id changed (undo's renumbering) leaves its old row.
                if let b = before, b.id != t.id { remove(b.id) }
                put(t)
            } else if let b = before {
                remove(b.id)
            }
        case .project(let before, let after):
            if let p = after, let o = before, o.name.lowercased() != p.name.lowercased() {
                renameProject(o.name, to: p)
            } else if let p = after {
                put(p)
            } else if let o = before {
                removeProject(named: o.name)
            }
        case .area(let before, let after):
            if let o = before { areas.removeAll { $0.uid == o.uid } }
            if let a = after {
                areas.removeAll { $0.uid == a.uid }
                areas.append(a)
            }
        case .settings(_, let after): settings = after
        case .filters(_, let after): filters = after
        case .plan(_, let after): plan = after
        case .calendars(_, let after): calendars = after
        }
    }
}
