// What a filter asks of rows beyond their own columns: how tasks hang together as subtasks
// (`has subtasks`, `is subtask`, `blocked`, `blocking`), which have reminders, and which tags a
// pattern (`#work*`) names. Worked out once per compiled filter, only when a term needs it.

/// The subtask relations of an index's rows.
package struct RowRelations {
    /// A task with a subtask in the store.
    package var hasSubtasks: [Bool]
    /// A task with an open subtask: it waits on it (the plan's blocked, docs/PLAN.md).
    package var blocked: [Bool]
    /// A task whose parent is in the store.
    package var isSubtask: [Bool]
    /// An open subtask of a task in the store: it holds its parent up.
    package var blocking: [Bool]

    package init(_ ix: TaskIndex) {
        let n = ix.count
        hasSubtasks = [Bool](repeating: false, count: n)
        blocked = hasSubtasks
        isSubtask = hasSubtasks
        blocking = hasSubtasks
        for c in 0..<n where ix.parent[c] != 0 {
            guard let p = ix.row(ofID: ix.parent[c]) else { continue }
            isSubtask[c] = true
            hasSubtasks[p] = true
            if ix.statusKind[c].isOpen {
                blocking[c] = true
                blocked[p] = true
            }
        }
    }
}

extension TaskIndex {
    /// The row of a task id (rows are in id order), or nil.
    package func row(ofID id: Int) -> Int? {
        var lo = 0, hi = ids.count
        while lo < hi {
            let m = (lo + hi) / 2
            if ids[m] < id { lo = m + 1 } else { hi = m }
        }
        return lo < ids.count && ids[lo] == id ? lo : nil
    }

    /// A flag for each row with a reminder.
    package func reminderFlags() -> [Bool] {
        var f = [Bool](repeating: false, count: count)
        for r in reminderRows where Int(r) < count { f[Int(r)] = true }
        return f
    }

    /// The ids of the interned names a tag pattern matches (`*` is any run of characters, case
    /// aside). Names of projects and notes share the table; only the tag column is read with them.
    package func tagIDs(matching pattern: String) -> [Int32] {
        let parts = pattern.lowercased().split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var out: [Int32] = []
        for (name, id) in names where !name.hasPrefix("area:") && !name.hasPrefix("status:") && TaskIndex.glob(parts, name) { out.append(id) }
        return out.sorted()
    }

    /// Whether `name` is the parts of a pattern with any runs between them.
    package static func glob(_ parts: [String], _ name: String) -> Bool {
        guard let first = parts.first else { return false }
        guard parts.count > 1 else { return name == first }
        guard name.hasPrefix(first), let last = parts.last else { return false }
        var rest = Substring(name.dropFirst(first.count))
        guard rest.count >= last.count else { return false }
        for p in parts.dropFirst().dropLast() where !p.isEmpty {
            guard let r = rest.range(of: p) else { return false }
            rest = rest[r.upperBound...]
        }
        return rest.hasSuffix(last)
    }
}
