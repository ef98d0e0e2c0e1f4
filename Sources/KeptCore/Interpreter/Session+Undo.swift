// undo and redo: each step of the journal is undone as a whole (R-TASK-1). A deleted task comes
// back under a new id (R-TASK-3), and the redo step is rewritten to name that id.

extension Session {
    func runUndo(_ s: Statement, _ count: Int) -> CommandOutput {
        guard !journal.undoStack.isEmpty else { return .error(Catalog.nothingToUndo(range: s.keywordRange, file: s.source.file)) }
        var lines: [String] = []
        var done: [JSONValue] = []
        for _ in 0..<count {
            // A deleted task comes back under a new id: refused, before anything changes, when none is left.
            if let next = journal.undoStack.last,
               !store.hasIDsLeft(next.changes.filter { if case .task(_?, .none) = $0 { return true }; return false }.count) {
                if lines.isEmpty { return .error(Catalog.idsUsedUp(range: s.keywordRange, file: s.source.file)) }
                break
            }
            guard var step = journal.popUndo() else { break }
            var back: [Int] = []
            // The new ids so far: each change is renumbered by those of the tasks restored
            // after it in the step (the ones before it in this walk), and the rest of the
            // history by all of them at the end; one pass each, so undoing a bulk delete of
            // 20,000 tasks is not quadratic.
            var renamed: [Int: Int] = [:]
            for k in step.changes.indices.reversed() {
                step.changes[k] = step.changes[k].renumbered(renamed)
                if case .task(let before?, .none) = step.changes[k] {
                    // R-TASK-3: the restored task gets a new id.
                    var again = before
                    again.id = store.takeID()
                    step.changes[k] = .task(before: again, after: nil)
                    renamed[before.id] = again.id
                    back.append(again.id)
                }
                apply(step.changes[k], forward: false)
            }
            journal.renumber(renamed)
            restoreReminders(after: step.changes, forward: false)
            journal.pushRedo(step)
            // The parent of a deleted tree is restored first, so it is named first.
            var note = ""
            if let last = back.last {
                note = back.count == 1 ? " (back as \(last))" : " (back as \(back.dropLast().map(String.init).joined(separator: ", ")) and \(last))"
            }
            lines.append("Undid \(step.summary)\(note)")
            done.append(.string(step.summary))
        }
        return out(lines, json: .object(JSONObject([("undone", .array(done))])), changed: true)
    }

    func runRedo(_ s: Statement, _ count: Int) -> CommandOutput {
        guard !journal.redoStack.isEmpty else { return .error(Catalog.nothingToRedo(range: s.keywordRange, file: s.source.file)) }
        var lines: [String] = []
        var done: [JSONValue] = []
        for _ in 0..<count {
            guard let step = journal.popRedo() else { break }
            for c in step.changes { apply(c, forward: true) }
            restoreReminders(after: step.changes, forward: true)
            journal.pushUndo(step)
            lines.append("Redid \(step.summary)")
            done.append(.string(step.summary))
        }
        return out(lines, json: .object(JSONObject([("redone", .array(done))])), changed: true)
    }
}
