// Undo and redo: each step of the history is undone as a whole (R-TASK-1). A deleted task comes
// back under a new id (R-TASK-3, with its uid), and the steps are rewritten to name that id.
// Everything undo changes (the tasks, the ids, the history, reminders it brings back) goes
// through the one change path like any other change.

import KeptRules

/// One step undone or redone.
public struct UndoneStep: Sendable {
    public var summary: String
    /// The new ids of the tasks an undone delete brought back, parents first.
    public var restored: [Int]
}

extension Engine {
    /// A change with its task stamped as modified now. On a linked store it is first rebased
    /// on the task as it is now (`rebased`).
    package func stamped(_ c: Change) -> Change {
        guard case .task(let b, var a?) = rebased(c) else { return c }
        a.modifiedAt = now
        return .task(before: b, after: a)
    }

    /// Undo and redo of a task's edit on a linked store change only the fields the step
    /// changed (R-SYNC-1): another device may have changed the task's other fields since, and
    /// putting the step's whole copy back would take their change back. A tag or linked note
    /// the step added is taken away, one it took away is put back; the rest stays as it is now.
    /// Where the task is as the step left it (always, on a store of one device), this is the
    /// step's own change.
    package func rebased(_ c: Change) -> Change {
        guard store.sync.link != nil, case .task(let from?, let to?) = c, from.uid == to.uid,
              let now = store.task(uid: from.uid), now != from else { return c }
        let f = TaskJSON.record(from)
        let t = TaskJSON.record(to)
        var r = TaskJSON.record(now)
        for k in Set(f.keys).union(t.keys) where f[k] != t[k] {
            switch k {
            case "id", "modifiedAt": continue
            case "tags", "notes":
                func list(_ o: JSONObject) -> [String] { (o[k]?.arrayValue ?? []).compactMap(\.stringValue) }
                let gone = Set(list(f)).subtracting(list(t))
                var out = list(r).filter { !gone.contains($0) }
                for x in list(t) where !list(f).contains(x) && !out.contains(x) { out.append(x) }
                r[k] = out.isEmpty ? nil : .array(out.map { .string($0) })
            default:
                r[k] = t[k]
            }
        }
        r["id"] = .number(JSONNumber(to.id))
        guard var after = store.task(record: r) else { return c }
        after.modifiedAt = to.modifiedAt
        return .task(before: now, after: after)
    }

    public func undo(_ count: Int) throws(DomainError) -> [UndoneStep] {
        guard !store.history.undoStack.isEmpty else { throw .nothingToUndo }
        var done: [UndoneStep] = []
        for _ in 0..<max(count, 1) {
            guard var step = store.history.undoStack.last else { break }
            // A deleted task comes back under a new id: refused, before anything changes, when
            // there are not enough left.
            let restoring = step.changes.filter { if case .task(_?, .none) = $0 { return true }; return false }.count
            guard hasIDs(restoring) else {
                if done.isEmpty { throw .idsUsedUp }
                break
            }
            apply(.history(.popUndo))
            var back: [Int] = []
            // The new ids so far: each change is renumbered by those of the tasks restored after
            // it in the step (the ones before it in this walk), and the rest of the history by
            // all of them at the end; one pass each, so undoing a bulk delete of 20,000 tasks
            // is not quadratic.
            var renamed: [Int: Int] = [:]
            for k in step.changes.indices.reversed() {
                step.changes[k] = step.changes[k].renumbered(renamed)
                if case .task(let before?, .none) = step.changes[k] {
                    // R-TASK-3: the restored task gets a new id.
                    var again = before
                    again.id = try takeID()
                    step.changes[k] = .task(before: again, after: nil)
                    renamed[before.id] = again.id
                    back.append(again.id)
                }
                apply(.item(stamped(step.changes[k].inverted)))
            }
            if !renamed.isEmpty { apply(.history(.renumber(renamed))) }
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
    package func restoreReminders(after changes: [Change], forward: Bool) {
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
