// Undo and redo: each step of the history is undone as a whole (R-TASK-1). A deleted task comes
// back under a new id (R-TASK-3, with its uid), and the steps are rewritten to name that id.
// Everything undo changes (the tasks, the ids, the history, reminders it brings back) goes
// through the one change path like any other change.

/// One step undone or redone.
public struct UndoneStep: Sendable {
    public var summary: String
    /// The new ids of the tasks an undone delete brought back, parents first.
    public var restored: [Int]
}

extension Engine {
    /// A change with its task stamped as modified now.
    func stamped(_ c: Change) -> Change {
        guard case .task(let b, var a?) = c else { return c }
        a.modifiedAt = now
        return .task(before: b, after: a)
    }

    public func undo(_ count: Int) throws(DomainError) -> [UndoneStep] {
        guard !store.history.undoStack.isEmpty else { throw .nothingToUndo }
        var done: [UndoneStep] = []
        for _ in 0..<max(count, 1) {
            guard var step = store.history.undoStack.last else { break }
            apply(.history(.popUndo))
            var back: [Int] = []
            for k in step.changes.indices.reversed() {
                if case .task(let before?, .none) = step.changes[k] {
                    // R-TASK-3: the restored task gets a new id.
                    var again = before
                    again.id = takeID()
                    step.changes[k] = .task(before: again, after: nil)
                    apply(.history(.renumber(task: before.id, to: again.id)))
                    for j in step.changes.indices where j < k {
                        step.changes[j] = step.changes[j].renumbered(task: before.id, to: again.id)
                    }
                    back.append(again.id)
                }
                apply(.item(stamped(step.changes[k].inverted)))
            }
            restoreReminders(after: step.changes, forward: false)
            apply(.history(.pushRedo(step)))
            done.append(UndoneStep(summary: step.summary, restored: back))
        }
        return done
    }

    public func redo(_ count: Int) throws(DomainError) -> [UndoneStep] {
        guard !store.history.redoStack.isEmpty else { throw .nothingToRedo }
        var done: [UndoneStep] = []
        for _ in 0..<max(count, 1) {
            guard let step = store.history.redoStack.last else { break }
            apply(.history(.popRedo))
            for c in step.changes { apply(.item(stamped(c))) }
            restoreReminders(after: step.changes, forward: true)
            apply(.history(.pushUndo(step)))
            done.append(UndoneStep(summary: step.summary, restored: []))
        }
        return done
    }

    /// After undo or redo: each task the step made open again gets its reminders back.
    func restoreReminders(after changes: [Change], forward: Bool) {
        for c in changes {
            guard case .task(let b, let a) = c else { continue }
            let target = forward ? a : b
            let other = forward ? b : a
            guard let t = target, t.isOpen, !(other?.isOpen ?? false), let current = store.task(t.id) else { continue }
            let back = restoringReminders(current, leftOpenAt: other?.completedAt)
            if back != current { apply(.item(.task(before: current, after: back))) }
        }
    }
}
