// Actions on one task or on a selection (R-TASK-1, R-TASK-5): the engine resolves nothing by
// name; it takes ids, runs one edit on each task, and records one undoable step. On one task a
// refused edit is the call's error and changes nothing; in a bulk action it skips that task and
// says why.

import KeptRules

/// Which tasks an action is for.
public enum Selection: Sendable {
    case task(Int)
    /// Every task a filter matched, in order; `label` names them in the history (`where #errand`).
    case tasks([Int], label: String)
}

/// What an action did.
public enum Outcome<R> {
    /// One task, changed.
    case done(R)
    /// One task that was already so: nothing changed.
    case unchanged(Task)
    case bulk(Bulk<R>)
}

/// What a bulk action did: one step for all of it (R-TASK-5).
public struct Bulk<R> {
    public var done: [R] = []
    public var skipped: [(task: Task, error: DomainError)] = []
    /// Tasks that were already so.
    public var unchanged = 0
    public var changed = false
    /// The selection matched nothing.
    public var empty = false
}

extension Engine {
    /// `1 task`, `3 tasks`: how history names a count.
    package static func tasks(_ n: Int) -> String { n == 1 ? "1 task" : "\(n) tasks" }

    /// Runs an edit on each selected task as one step. `name` is the action as history names
    /// it (`complete`); `summary` names a one-task step from the task as the edit left it.
    package func act<R>(_ sel: Selection, _ name: String, summary: ((Task) -> String)? = nil,
                _ edit: (Task, inout StepChanges) throws(DomainError) -> R) throws(DomainError) -> Outcome<R> {
        switch sel {
        case .task(let id):
            let t = try existing(id)
            var step = StepChanges()
            let r: R
            do {
                r = try edit(t, &step)
            } catch {
                rollback(&step, to: 0)
                throw error
            }
            guard !step.isEmpty else { return .unchanged(t) }
            record(step, summary: summary.map { $0(store.task(t.id) ?? t) } ?? "\(name) \(t.id) · \(t.title)")
            return .done(r)
        case .tasks(let ids, let label):
            var bulk = Bulk<R>()
            guard !ids.isEmpty else {
                bulk.empty = true
                return .bulk(bulk)
            }
            var step = StepChanges()
            for id in ids {
                // An earlier edit may have changed or removed it (a subtask deleted with its parent).
                guard let t = store.task(id) else { continue }
                let mark = step.changes.count
                do {
                    let r = try edit(t, &step)
                    if step.changes.count == mark { bulk.unchanged += 1 } else { bulk.done.append(r) }
                } catch {
                    rollback(&step, to: mark)
                    bulk.skipped.append((t, error))
                }
            }
            bulk.changed = !step.isEmpty
            record(step, summary: "\(name) \(label) · \(Engine.tasks(bulk.done.count))")
            return .bulk(bulk)
        }
    }

    /// The end of an edit of one task: `a` staged when it differs from `t`; the task as it is now.
    package func updated(_ t: Task, to a: Task, into step: inout StepChanges) -> Task {
        if a != t { stage([.task(before: t, after: a)], into: &step) }
        return store.task(a.id) ?? a
    }

    /// The plan change that takes these tasks out of their Top 3 seats, if any holds one: part
    /// of the step that deletes or archives them, so undo puts the picks back.
    package func unseating(_ ids: Set<Int>) -> [Change] {
        guard let p = store.plan, p.top3.contains(where: ids.contains) else { return [] }
        var after = p
        after.top3.removeAll(where: ids.contains)
        return [.plan(before: p, after: after)]
    }

    // MARK: complete, reopen

    /// What completing one task did: the occurrence its repeat made (R-REP-2), whether the
    /// series ended, and the parents it completed (R-TASK-4).
    public struct Completion: Sendable {
        public var task: Task
        public var next: Task?
        public var seriesEnded: Bool
        /// The parent whose last open subtask this was, its parent when that was the last one
        /// too, and so on up: nearest first, each completed in the same step.
        public var parents: [Completion]
    }

    public func complete(_ sel: Selection) throws(DomainError) -> Outcome<Completion> {
        try act(sel, "complete") { (t, step) throws(DomainError) in try self.completeEdit(t, &step) }
    }

    package func completeEdit(_ t: Task, _ step: inout StepChanges) throws(DomainError) -> Completion {
        var c = try completeOne(t, &step)
        // R-TASK-4: the last open subtask done completes the parent, and so on up: a loop, so a
        // chain of thousands is no recursion to the stack's end, over subtasks a walk lists
        // once, so it is not quadratic either.
        var walk = SubtaskWalk(engine: self)
        var child = t
        var seen: Set<Int> = [t.id]
        while let pid = child.parent, seen.insert(pid).inserted, let p = store.task(pid), p.isOpen,
              !walk.children(of: pid).contains(where: { store.task($0.id)?.isOpen == true }) {
            let mark = step.changes.count
            guard let up = try? completeOne(p, &step) else {
                rollback(&step, to: mark)
                break
            }
            // A parent's next occurrence is an open subtask of its own parent: the walk learns it.
            if let n = up.next, let q = n.parent, walk.all != nil { walk.all?[q, default: []].append(n) }
            c.parents.append(up)
            child = p
        }
        return c
    }

    /// Completes one task and makes its next occurrence; parents are completeEdit's.
    package func completeOne(_ t: Task, _ step: inout StepChanges) throws(DomainError) -> Completion {
        // R-REP-6: completing twice changes nothing and makes no second copy.
        guard t.status != .done else { throw .wrongState(.alreadyCompleted(t.id)) }
        var after = t
        after.status = .done
        after.completedAt = now
        // R-REP-2, R-REP-10: the engine makes the next occurrence itself, in the same step, so
        // undo right away takes both back (R-REP-6).
        var next: Task? = nil
        if t.repeatRule != nil, let n = try nextOccurrence(of: t, completedOn: today) {
            next = n
            after.nextOccurrence = n.id
        }
        var changes: [Change] = [.task(before: t, after: after)]
        if let n = next { changes.append(.task(before: nil, after: n)) }
        // R-SYNC-7: an occurrence made by its derived uid is sent as a make, unless this store
        // deleted it before (then making it again is this device's own decision).
        if let n = next, let due = n.due, n.uid == Engine.occurrenceUID(of: t, due: due), store.tombstone(uid: n.uid) == nil {
            making = n.uid
        }
        defer { making = nil }
        stage(changes, into: &step)
        return Completion(task: store.task(t.id) ?? after, next: next.flatMap { store.task($0.id) }, seriesEnded: t.repeatRule != nil && next == nil,
                          parents: [])
    }

    /// What reopening did: the task, and the occurrence its completion had made, taken back.
    public struct Reopening: Sendable {
        public var task: Task
        public var tookBack: Task?
    }

    public func reopen(_ sel: Selection) throws(DomainError) -> Outcome<Reopening> {
        try act(sel, "reopen") { (t, step) throws(DomainError) in
            guard t.status == .done else { throw .wrongState(.notCompleted(t.id)) }
            var after = t
            after.status = .open
            after.completedAt = nil
            after.nextOccurrence = nil
            // R-TASK-7: reopening restores the reminders; one that passed meanwhile is Past due.
            after = self.restoringReminders(after, leftOpenAt: t.completedAt)
            var changes: [Change] = [.task(before: t, after: after)]
            var took: Task? = nil
            // R-REP-6: the occurrence its completion made goes too, unless it was changed since.
            if let nid = t.nextOccurrence, let n = self.store.task(nid), n.pristine, n.isOpen {
                changes.append(.task(before: n, after: nil))
                took = n
            }
            // R-TASK-2: the completion time is in the step's before, so undo puts it back.
            self.stage(changes, into: &step)
            return Reopening(task: self.store.task(t.id) ?? after, tookBack: took)
        }
    }

    // MARK: delete, archive

    /// A deleted task with the subtasks that went with it.
    public struct Deletion: Sendable {
        public var task: Task
        public var subtasks: [Task]
    }

    /// What deleting these tasks would take: the tasks and how many subtasks go with them.
    public func deletion(of ids: [Int]) -> (tasks: [Task], subtasks: Int) {
        let hit = ids.compactMap { store.task($0) }
        var gone = Set(hit.map(\.id))
        for t in hit { for d in descendants(of: t.id) { gone.insert(d.id) } }
        return (hit, gone.count - hit.count)
    }

    public func delete(_ sel: Selection) throws(DomainError) -> Outcome<Deletion> {
        try act(sel, "delete") { t, step in
            // R-TASK-3: subtasks go with their parent, deepest first, so undo restores the
            // parent first and each subtask finds its parent's new id.
            let below = self.descendants(of: t.id)
            // A Top 3 pick leaves its seat in the same step, staged first, so undo gives the
            // seat back to the task under its new id (R-TASK-1, R-TASK-3).
            let seat = self.unseating(Set(below.map(\.id) + [t.id]))
            self.stage(seat + below.reversed().map { .task(before: $0, after: nil) } + [.task(before: t, after: nil)], into: &step)
            return Deletion(task: t, subtasks: below)
        }
    }

    public func archive(_ sel: Selection) throws(DomainError) -> Outcome<Task> {
        try act(sel, "archive") { (t, step) throws(DomainError) in
            guard t.status != .archived else { throw .wrongState(.alreadyArchived(t.id)) }
            var after = t
            after.status = .archived
            self.stage(self.unseating([t.id]) + [.task(before: t, after: after)], into: &step)
            return self.store.task(t.id) ?? after
        }
    }

    public func unarchive(_ sel: Selection) throws(DomainError) -> Outcome<Task> {
        try act(sel, "unarchive") { (t, step) throws(DomainError) in
            guard t.status == .archived else { throw .wrongState(.notArchived(t.id)) }
            var after = t
            // A task finished before it was archived comes back finished.
            after.status = t.completedAt == nil ? .open : .done
            after = self.restoringReminders(after, leftOpenAt: t.completedAt)
            self.stage([.task(before: t, after: after)], into: &step)
            return self.store.task(t.id) ?? after
        }
    }

    // MARK: duplicate

    /// A copy as a new open task: fields, tags, notes and steps (unchecked) are kept; comments,
    /// completion, a hold and subtasks are not. Returns the copy.
    public func duplicate(_ sel: Selection) throws(DomainError) -> Outcome<(original: Task, copy: Task)> {
        try act(sel, "duplicate") { (t, step) throws(DomainError) in
            var c = t
            let fresh = try self.newTask(title: t.title)
            c.id = fresh.id
            c.uid = fresh.uid
            c.status = t.isOpen ? t.status : .open
            c.completedAt = nil
            c.createdAt = self.now
            c.nextOccurrence = nil
            c.pristine = false
            c.heldUntil = nil
            c.notTodayOn = nil
            c.comments = []
            c.steps = t.steps.map { Step(title: $0.title) }
            // The copy keeps the reminders still ahead; a passed one belongs to the original.
            let z = self.zone, n = self.now
            c.reminders = t.reminders.filter { z.instant(for: $0.at) > n }.map { r in
                var x = r
                x.pastDue = false
                return x
            }
            self.stage([.task(before: nil, after: c)], into: &step)
            return (t, self.store.task(c.id) ?? c)
        }
    }
}
