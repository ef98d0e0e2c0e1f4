// Undo and redo: every change is a step of before/after pairs, so undo puts back exactly what
// was there (R-TASK-1). The history is bounded; the bound is documented in docs/STORE.md.

import KeptRules

/// One reversible change to one item. Indirect: a change is a word that the change path,
/// the step and the backend's log share, not two tasks copied at each hand-over.
public indirect enum Change: Sendable {
    case task(before: Task?, after: Task?)
    case project(before: Project?, after: Project?)
    /// An area: areas change by sync only (a store's own statements name them on tasks).
    case area(before: Area?, after: Area?)
    case settings(before: Settings, after: Settings)
    /// The whole list of saved filters: they are few, and their order is part of them.
    case filters(before: [SavedFilter], after: [SavedFilter])
    /// The plan snapshot with its Top 3 picks (R-PLAN-7).
    case plan(before: PlanSnapshot?, after: PlanSnapshot?)
    /// The connected calendars (docs/AGENDA.md): few, and kept on this device only.
    case calendars(before: [CalendarConnection], after: [CalendarConnection])
}

extension Change {
    /// The same change with task `old` called `new`, as the task itself or as a parent.
    /// The change with tasks renumbered by a map of old ids to new (ids and parents).
    public func renumbered(_ map: [Int: Int]) -> Change {
        guard !map.isEmpty else { return self }
        switch self {
        case .plan(let b, let a):
            func fix(_ p: PlanSnapshot?) -> PlanSnapshot? {
                guard var p else { return nil }
                p.top3 = p.top3.map { map[$0] ?? $0 }
                return p
            }
            return .plan(before: fix(b), after: fix(a))
        case .task(let b, let a):
            func fix(_ t: Task?) -> Task? {
                guard var t else { return nil }
                if let n = map[t.id] { t.id = n }
                if let p = t.parent, let n = map[p] { t.parent = n }
                return t
            }
            return .task(before: fix(b), after: fix(a))
        default:
            return self
        }
    }

    public func renumbered(task old: Int, to new: Int) -> Change {
        if case .plan(let b, let a) = self {
            // A Top 3 pick restored by undo keeps its seat under its new id.
            func fix(_ p: PlanSnapshot?) -> PlanSnapshot? {
                guard var p else { return nil }
                p.top3 = p.top3.map { $0 == old ? new : $0 }
                return p
            }
            return .plan(before: fix(b), after: fix(a))
        }
        guard case .task(let b, let a) = self else { return self }
        func fix(_ t: Task?) -> Task? {
            guard var t else { return nil }
            if t.id == old { t.id = new }
            if t.parent == old { t.parent = new }
            return t
        }
        return .task(before: fix(b), after: fix(a))
    }
}

/// One user action: what it was and every change it made.
public struct JournalStep: Sendable {
    /// How undo and redo name it: `complete 1 · Pay rent`.
    public var summary: String
    public var changes: [Change]

    public init(summary: String, changes: [Change]) {
        self.summary = summary
        self.changes = changes
    }
}

/// The undo and redo stacks.
public struct Journal: Sendable {
    /// How many steps undo can go back; older ones are dropped.
    public static let limit = 1000
    /// How many steps of each stack the store file keeps (docs/STORE.md).
    public static let storedSteps = 100
    /// How many changed items the kept steps may hold together; older steps go first.
    public static let storedChanges = 10_000
    /// How many new tasks one step may hold in memory: an import that adds more is made, but
    /// is not a step undo can take back (it would hold every task it added; docs/INTEROP.md).
    public static let heldAdds = 100_000

    public private(set) var undoStack: [JournalStep] = []
    public private(set) var redoStack: [JournalStep] = []

    public init() {}

    /// Records a new step; whatever could be redone is gone.
    public mutating func record(_ step: JournalStep) {
        guard !step.changes.isEmpty else { return }
        undoStack.append(step)
        if undoStack.count > Journal.limit { undoStack.removeFirst(undoStack.count - Journal.limit) }
        redoStack.removeAll()
    }

    /// Takes the newest step off for undoing.
    public mutating func popUndo() -> JournalStep? { undoStack.popLast() }

    /// Takes the newest undone step off for redoing.
    public mutating func popRedo() -> JournalStep? { redoStack.popLast() }

    /// Puts an undone step where redo finds it.
    public mutating func pushRedo(_ s: JournalStep) { redoStack.append(s) }

    /// Puts a redone step back where undo finds it, keeping what else can be redone.
    public mutating func pushUndo(_ s: JournalStep) { undoStack.append(s) }

    /// Applies a change of the history (the store's one change path, StoreChange).
    public mutating func apply(_ h: HistoryChange) {
        switch h {
        case .record(let s): record(s)
        case .popUndo: _ = popUndo()
        case .pushRedo(let s): pushRedo(s)
        case .popRedo: _ = popRedo()
        case .pushUndo(let s): pushUndo(s)
        case .renumber(let map): renumber(map)
        }
    }

    /// Makes every step that names task `old` name `new` instead: a task restored by undo has
    /// a new id (R-TASK-3), and earlier steps must still undo the task they changed.
    /// Renumbers tasks by a map of old ids to new in every step, in one pass.
    public mutating func renumber(_ map: [Int: Int]) {
        guard !map.isEmpty else { return }
        for k in undoStack.indices { undoStack[k].changes = undoStack[k].changes.map { $0.renumbered(map) } }
        for k in redoStack.indices { redoStack[k].changes = redoStack[k].changes.map { $0.renumbered(map) } }
    }

    public mutating func renumber(task old: Int, to new: Int) {
        func fixSteps(_ steps: inout [JournalStep]) {
            for k in steps.indices {
                steps[k].changes = steps[k].changes.map { $0.renumbered(task: old, to: new) }
            }
        }
        fixSteps(&undoStack)
        fixSteps(&redoStack)
    }
}
