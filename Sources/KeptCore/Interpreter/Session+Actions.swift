// Task actions on one task or on every task a `where` filter matches (R-TASK-1, R-TASK-5): the
// engine that resolves the target, runs an edit on each task and records one undoable step,
// and the actions that change a task's state or date.

/// What one action did to one task: its line of output and its JSON.
struct ActionResult {
    var line: String
    var json: JSONValue
}

/// Where a quoted title is looked up: most actions name an open task, `reopen` a done one and
/// `unarchive` an archived one.
enum TitleScope {
    case open, done, archived

    func admits(_ t: Task) -> Bool {
        switch self {
        case .open: return t.isOpen
        case .done: return t.status == .done
        case .archived: return t.status == .archived
        }
    }

    var word: String {
        switch self {
        case .open: return "open"
        case .done: return "completed"
        case .archived: return "archived"
        }
    }
}

/// One action: how it reads in output and history, and its edit of one task.
struct TaskAction {
    /// `Completed`, `Set priority of`: the start of each output line.
    var verb: String
    /// `complete`, `set priority`: how undo names the step.
    var name: String
    var scope: TitleScope = .open
    /// How undo names the step on one task, given the task as the action left it.
    var summary: ((Task) -> String)? = nil
    /// Stages the changes of this action on one task, or says why it does not apply.
    var edit: (Task, inout [Change]) -> Result<ActionResult, Diagnostic>
}

extension Session {
    /// The end of an edit of one task: `a` staged when it differs from `t`, and the action's
    /// result, `line` in text and `{"updated": task}` in JSON.
    func updated(_ t: Task, to a: Task, line: String, into step: inout [Change]) -> Result<ActionResult, Diagnostic> {
        if a != t { stage([.task(before: t, after: a)], into: &step) }
        return .success(ActionResult(line: line, json: .object(JSONObject([("updated", TaskJSON.value(a, zone: zone))]))))
    }

    /// Applies changes as part of a step being built: a later edit of the same step sees them.
    func stage(_ changes: [Change], into step: inout [Change]) {
        var changes = changes
        for k in changes.indices {
            // R-REP-6: a made occurrence stops being pristine at its first change.
            if case .task(let b?, var a?) = changes[k], b.pristine, a.pristine, a.id == b.id {
                var x = b
                x.pristine = a.pristine
                if x != a || a.status != b.status {
                    a.pristine = false
                    changes[k] = .task(before: b, after: a)
                }
            }
        }
        for c in changes { apply(c, forward: true) }
        step += changes
    }

    /// The plan change that takes these tasks out of their Top 3 seats, if any holds one: part
    /// of the step that deletes or archives them, so undo puts the picks back.
    func unseating(_ ids: Set<Int>) -> [Change] {
        guard let p = store.plan, p.top3.contains(where: ids.contains) else { return [] }
        var after = p
        after.top3.removeAll(where: ids.contains)
        return [.plan(before: p, after: after)]
    }

    /// Takes back the changes staged after `mark`, newest first.
    func rollback(_ step: inout [Change], to mark: Int) {
        while step.count > mark, let c = step.popLast() { apply(c, forward: false) }
    }

    /// A task by reference, with a title looked up in `scope`; the error lists the candidates.
    func resolve(_ ref: TaskRef, _ s: Statement, scope: TitleScope) -> Result<Task, Diagnostic> {
        switch ref {
        case .id(let id, let r):
            guard let t = store.task(id) else { return .failure(Catalog.noTask(id, range: r, file: s.source.file)) }
            return .success(t)
        case .title(let title, let r):
            let matches = store.tasks.filter { scope.admits($0) && $0.title == title }
            if matches.count == 1, let t = matches.first { return .success(t) }
            if matches.isEmpty {
                var d = Catalog.noTitle(title, range: r, file: s.source.file, candidates: store.tasks.filter(scope.admits).map(\.title))
                if scope != .open { d.message = "no \(scope.word) task titled \"\(title)\"" }
                return .failure(d)
            }
            var d = Catalog.ambiguousTitle(title, ids: matches.map(\.id), range: r, file: s.source.file)
            if scope != .open { d.message = "\(matches.count) \(scope.word) tasks are titled \"\(title)\"" }
            let txt = text
            d.notes = matches.prefix(10).map { "candidate: " + txt.summary($0) }
            return .failure(d)
        }
    }

    /// Compiles the filter of a `where`, which must be whole.
    func compileTarget(_ f: FilterSource, _ s: Statement) -> Result<FilterExpr, Diagnostic> {
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name),
                             saved: store.filters)
        do throws(Diagnostic) {
            let e = try p.parseFilter()
            guard p.peek.kind == .end else {
                throw Diagnostic(code: "E0103", message: "unexpected '\(p.peek.text)' in the filter", file: s.source.file, range: p.peek.range,
                                 label: "not part of the filter")
            }
            return .success(e)
        } catch {
            return .failure(error)
        }
    }

    /// Runs an action on its target as one undoable step. On one task a failed edit is the
    /// statement's error and changes nothing; in a bulk action it skips that task and says why.
    func runAction(_ s: Statement, _ target: TaskTarget, _ action: TaskAction) -> CommandOutput {
        switch target {
        case .task(let ref):
            let t: Task
            switch resolve(ref, s, scope: action.scope) {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
            var step: [Change] = []
            switch action.edit(t, &step) {
            case .failure(let d):
                rollback(&step, to: 0)
                return .error(d)
            case .success(let r):
                guard !step.isEmpty else {
                    return out(["Unchanged \(t.id) · \(t.title)"], json: .object(JSONObject([("unchanged", TaskJSON.value(t, zone: zone))])))
                }
                let named = action.summary.map { $0(store.task(t.id) ?? t) } ?? "\(action.name) \(t.id) · \(t.title)"
                journal.record(JournalStep(summary: named, changes: step))
                return out(["\(action.verb) \(r.line)"], json: r.json, changed: true)
            }
        case .filter(let f):
            let expr: FilterExpr
            switch compileTarget(f, s) {
            case .success(let e): expr = e
            case .failure(let d): return .error(d)
            }
            let where_ = "where " + s.source.rawText(f.range)
            // A pattern past its budget fails the bulk action before anything changes (E0226).
            let ids: [Int]
            do throws(RegexBudgetError) { ids = try select(expr).matched.map(\.id) } catch { return .error(regexBudgetError(error, s)) }
            guard !ids.isEmpty else {
                return out(["Nothing matches \(where_); nothing changed"],
                           json: .object(JSONObject([("bulk", .string(action.name)), ("results", .array([])), ("skipped", .array([]))])))
            }
            var step: [Change] = []
            var done: [ActionResult] = []
            var skipped: [(Task, String)] = []
            var unchanged = 0
            for id in ids {
                // An earlier edit may have changed or removed it (a subtask deleted with its parent).
                guard let t = store.task(id) else { continue }
                let mark = step.count
                switch action.edit(t, &step) {
                case .failure(let d):
                    rollback(&step, to: mark)
                    skipped.append((t, d.message))
                case .success(let r):
                    if step.count == mark { unchanged += 1 } else { done.append(r) }
                }
            }
            // R-TASK-5: a bulk action prints everything it changed, and is one step.
            var lines = ["\(action.verb) \(Session.tasks(done.count)) \(where_):"]
            if done.isEmpty { lines = ["Nothing changed \(where_)"] }
            lines += done.map { "  " + $0.line }
            lines += skipped.map { "  skipped \($0.0.id) · \($0.0.title): \($0.1)" }
            if unchanged > 0 { lines.append("  \(Session.tasks(unchanged)) already so") }
            if !step.isEmpty {
                journal.record(JournalStep(summary: "\(action.name) \(where_) · \(Session.tasks(done.count))", changes: step))
            }
            let json = JSONValue.object(JSONObject([
                ("bulk", .string(action.name)), ("results", .array(done.map(\.json))),
                ("skipped", .array(skipped.map { .object(JSONObject([("id", .number(JSONNumber($0.0.id))), ("reason", .string($0.1))])) })),
            ]))
            return out(lines, json: json, changed: !step.isEmpty)
        }
    }

    // MARK: complete, reopen, delete

    func runComplete(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        runAction(s, target, TaskAction(verb: "Completed", name: "complete") { t, step in
            self.completeEdit(t, s, range: target.range, &step)
        })
    }

    /// Completes one task: makes its next occurrence (R-REP-2) and, unless `upward` is false,
    /// completes a parent whose last open subtask this was (R-TASK-4), all in the same step.
    func completeEdit(_ t: Task, _ s: Statement, range: SourceRange, _ step: inout [Change], upward: Bool = true) -> Result<ActionResult, Diagnostic> {
        guard t.status != .done else {
            // R-REP-6: completing twice changes nothing and makes no second copy.
            return .failure(Catalog.wrongState("task \(t.id) is already completed", range: range, file: s.source.file,
                                               help: "'reopen \(t.id)' marks it open again"))
        }
        var after = t
        after.status = .done
        after.completedAt = now
        // R-REP-2, R-REP-10: the engine makes the next occurrence itself, in the same step, so
        // undo right away takes both back (R-REP-6).
        var next: Task? = nil
        // The next occurrence needs an id; without one the series would end behind the user's back.
        if t.repeatRule != nil, !store.hasIDsLeft { return .failure(Catalog.idsUsedUp(range: range, file: s.source.file)) }
        if t.repeatRule != nil, let n = nextOccurrence(of: t, completedOn: today, id: store.nextID) {
            _ = store.takeID()
            next = n
            after.nextOccurrence = n.id
        }
        var changes: [Change] = [.task(before: t, after: after)]
        if let n = next { changes.append(.task(before: nil, after: n)) }
        stage(changes, into: &step)
        var line = "\(t.id) · \(t.title)"
        if let n = next, let d = n.due { line += " · next: \(n.id) due \(text.shortDate(d.date))" + (d.time.map { " " + TimeText.time($0, store.settings.day.hourCycle) } ?? "") }
        else if t.repeatRule != nil { line += " · the series has ended" }
        // R-TASK-4: the last open subtask done completes the parent, and so on up. A loop over
        // subtasks listed once, so a chain of thousands in a store is neither a recursion to
        // the stack's end nor quadratic.
        var child = t
        var kids: [Int: [Int]]? = nil
        var seen: Set<Int> = [t.id]
        while upward, let pid = child.parent, seen.insert(pid).inserted, let p = store.task(pid), p.isOpen {
            if kids == nil {
                var k: [Int: [Int]] = [:]
                for x in store.tasks { if let q = x.parent { k[q, default: []].append(x.id) } }
                kids = k
            }
            guard !(kids?[pid] ?? []).contains(where: { store.task($0)?.isOpen == true }) else { break }
            let mark = step.count
            guard case .success(let r) = completeEdit(p, s, range: range, &step, upward: false) else { break }
            // The parent's next occurrence, if it repeats, is an open subtask of its own parent.
            for c in step[mark...] {
                if case .task(nil, let n?) = c, let q = n.parent { kids?[q, default: []].append(n.id) }
            }
            line += " · completed its parent \(r.line)"
            child = p
        }
        let json = JSONValue.object(JSONObject([("completed", TaskJSON.value(after, zone: zone)),
                                                ("next", next.map { TaskJSON.value($0, zone: zone) } ?? .null)]))
        return .success(ActionResult(line: line, json: json))
    }

    func runReopen(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        runAction(s, target, TaskAction(verb: "Reopened", name: "reopen", scope: .done) { t, step in
            guard t.status == .done else {
                return .failure(Catalog.wrongState("task \(t.id) is not completed", range: target.range, file: s.source.file))
            }
            var after = t
            after.status = .open
            after.completedAt = nil
            after.nextOccurrence = nil
            // R-TASK-7: reopening restores the reminders; one that passed meanwhile is Past due.
            after = self.restoringReminders(after, leftOpenAt: t.completedAt)
            var changes: [Change] = [.task(before: t, after: after)]
            var note = ""
            // R-REP-6: the occurrence its completion made goes too, unless it was changed since.
            if let nid = t.nextOccurrence, let n = self.store.task(nid), n.pristine, n.isOpen {
                changes.append(.task(before: n, after: nil))
                note = " · took back \(n.id), which its completion made"
            }
            // R-TASK-2: the completion time is in the step's before, so undo puts it back.
            self.stage(changes, into: &step)
            return .success(ActionResult(line: "\(self.text.summary(after))\(note)",
                                         json: .object(JSONObject([("reopened", TaskJSON.value(after, zone: self.zone))]))))
        })
    }

    func runDelete(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        // A bulk delete waits for a yes when the front end asks for one.
        if case .filter(let f) = target, bulkDelete == .ask, !confirmed {
            switch compileTarget(f, s) {
            case .failure(let d): return .error(d)
            case .success(let e):
                let hit: [Task]
                do throws(RegexBudgetError) { hit = try select(e).matched } catch { return .error(regexBudgetError(error, s)) }
                if !hit.isEmpty { return confirmDelete(s, f, hit) }
            }
        }
        return runAction(s, target, TaskAction(verb: "Deleted", name: "delete") { t, step in
            // R-TASK-3: subtasks go with their parent, deepest first, so undo restores the
            // parent first and each subtask finds its parent's new id.
            let below = self.descendants(of: t.id)
            // A Top 3 pick leaves its seat in the same step, staged first, so undo gives the
            // seat back to the task under its new id (R-TASK-1, R-TASK-3).
            let seat = self.unseating(Set(below.map(\.id) + [t.id]))
            self.stage(seat + below.reversed().map { .task(before: $0, after: nil) } + [.task(before: t, after: nil)], into: &step)
            let note = below.isEmpty ? "" : " with \(below.count == 1 ? "1 subtask" : "\(below.count) subtasks")"
            return .success(ActionResult(line: "\(t.id) · \(t.title)\(note)",
                                         json: .object(JSONObject([("deleted", TaskJSON.value(t, zone: self.zone))]))))
        })
    }

    /// What a bulk delete would take, as a question and as the E0318 error for a front end that
    /// cannot ask.
    func confirmDelete(_ s: Statement, _ f: FilterSource, _ hit: [Task]) -> CommandOutput {
        let where_ = "where " + s.source.rawText(f.range)
        var gone = Set(hit.map(\.id))
        for t in hit { for d in descendants(of: t.id) { gone.insert(d.id) } }
        let below = gone.count - hit.count
        let what = Session.tasks(hit.count) + (below == 0 ? "" : below == 1 ? " and 1 subtask" : " and \(below) subtasks")
        let txt = text
        var d = Catalog.bulkDeleteNeedsConfirmation("'delete \(where_)' would delete \(what)", range: f.range, file: s.source.file)
        d.notes = hit.prefix(10).map { "would delete: " + txt.summary($0) } + (hit.count > 10 ? ["and \(hit.count - 10) more"] : [])
        var o = CommandOutput(diagnostics: [d])
        // In JSON mode too the answer no prints one object: a bulk delete's, with nothing deleted.
        let no = out(["Nothing deleted"], json: .object(JSONObject([("bulk", .string("delete")), ("results", .array([])),
                                                                    ("skipped", .array([])), ("declined", .bool(true))])))
        o.confirmation = Confirmation(question: "Delete \(what) \(where_)?", details: hit.map { "  " + txt.summary($0) },
                                      declined: no.lines)
        return o
    }

    // MARK: archive, unarchive

    func runArchive(_ s: Statement, _ target: TaskTarget, archive: Bool) -> CommandOutput {
        let action = TaskAction(verb: archive ? "Archived" : "Unarchived", name: archive ? "archive" : "unarchive",
                                scope: archive ? .open : .archived) { t, step in
            var after = t
            if archive {
                guard t.status != .archived else {
                    return .failure(Catalog.wrongState("task \(t.id) is already archived", range: target.range, file: s.source.file,
                                                       help: "'unarchive \(t.id)' brings it back"))
                }
                after.status = .archived
            } else {
                guard t.status == .archived else {
                    return .failure(Catalog.wrongState("task \(t.id) is not archived", range: target.range, file: s.source.file))
                }
                // A task finished before it was archived comes back finished.
                after.status = t.completedAt == nil ? .open : .done
                after = self.restoringReminders(after, leftOpenAt: t.completedAt)
            }
            self.stage((archive ? self.unseating([t.id]) : []) + [.task(before: t, after: after)], into: &step)
            return .success(ActionResult(line: "\(t.id) · \(t.title)",
                                         json: .object(JSONObject([(archive ? "archived" : "unarchived", TaskJSON.value(after, zone: self.zone))]))))
        }
        return runAction(s, target, action)
    }

    // MARK: dates

    /// An edit that gives a task a new due (or none), with the line `ID · TITLE · DATE`.
    func dueEdit(_ name: String, _ verb: String, _ newDue: @escaping (Task) -> Result<Due?, Diagnostic>) -> TaskAction {
        TaskAction(verb: verb, name: name) { t, step in
            let due: Due?
            switch newDue(t) {
            case .success(let d): due = d
            case .failure(let e): return .failure(e)
            }
            var after = t
            after.due = due
            return self.updated(t, to: after, line: self.text.summary(after) + (due == nil ? " · no due date" : ""), into: &step)
        }
    }

    /// R-VIEW-6: "Tomorrow" moves the due date one day later and keeps its time; a task without
    /// a due date is due tomorrow.
    func runTomorrow(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let tomorrow = today.adding(days: 1)
        return runAction(s, target, dueEdit("tomorrow", "Moved") { t in
            guard let d = t.due else { return .success(Due(date: tomorrow)) }
            return .success(Due(date: d.date.adding(days: 1), time: d.time))
        })
    }

    /// R-TASK-8: the date shortcuts (today, tomorrow, next week, a picked date, clear). A date
    /// without a time keeps the task's time of day, as a move between due groups does.
    func runReschedule(_ s: Statement, _ target: TaskTarget, _ when: TextArg) -> CommandOutput {
        let file = s.source.file
        if ["clear", "none"].contains(when.text.lowercased()) {
            return runAction(s, target, dueEdit("reschedule", "Rescheduled") { _ in .success(nil) })
        }
        let words = when.text.split(separator: " ").map(String.init)
        let picked: Due
        switch DatePhrase.resolve(words, in: dateContext) {
        case .success(let (r, used)) where used == words.count: picked = r.due
        case .success: return .error(Catalog.badDate(when.text, range: when.range, file: file, help: "today, tomorrow, next week, a date, or clear"))
        case .failure(let e):
            return .error(Diagnostic(code: e.code, message: e.message, file: file, range: when.range,
                                     label: e.label, help: e.help))
        }
        return runAction(s, target, dueEdit("reschedule", "Rescheduled") { t in
            .success(Due(date: picked.date, time: picked.time ?? t.due?.time))
        })
    }

    /// The due groups a task can be moved into, by the words that name them.
    enum DueGroup: String, CaseIterable {
        case overdue, today, tomorrow, thisWeek = "this week", later, noDue = "no due date"

        init?(words: String) {
            let w = words.lowercased().split(separator: " ").joined(separator: " ")
            switch w {
            case "overdue": self = .overdue
            case "today": self = .today
            case "tomorrow": self = .tomorrow
            case "this week": self = .thisWeek
            case "later": self = .later
            case "no due date", "no due", "none": self = .noDue
            default: return nil
            }
        }

        var title: String {
            switch self {
            case .overdue: return "Overdue"
            case .today: return "Today"
            case .tomorrow: return "Tomorrow"
            case .thisWeek: return "This Week"
            case .later: return "Later"
            case .noDue: return "No Due Date"
            }
        }
    }

    /// R-VIEW-4: moving into a due group reschedules and keeps the time of day; a task already in
    /// the group stays as it is; nothing can be moved into Overdue.
    func runMove(_ s: Statement, _ target: TaskTarget, _ groupText: TextArg) -> CommandOutput {
        let file = s.source.file
        guard let group = DueGroup(words: groupText.text) else {
            let names = DueGroup.allCases.map(\.rawValue)
            return .error(Diagnostic(code: "E0209", message: "'\(groupText.text)' is not a due group", file: file, range: groupText.range,
                                     label: "expected today, tomorrow, this week, later or no due date",
                                     help: Suggestion.help(groupText.text, in: names)))
        }
        guard group != .overdue else {
            return .error(Catalog.cannotMove("nothing can be moved into Overdue", range: groupText.range, file: file,
                                             reason: "a date cannot be moved into the past this way",
                                             help: "'reschedule \(target.describe) DATE' sets any date, a past one included"))
        }
        let fc = filterContext
        let weekEnd = store.settings.day.endOfWeek(containing: today).dayNumber
        let groupIndex = [DueGroup.overdue, .today, .tomorrow, .thisWeek, .later, .noDue]
        let todayN = today.dayNumber
        let nowMinute = fc.nowMinute
        return runAction(s, target, dueEdit("move to \(group.rawValue)", "Moved") { t in
            if groupIndex[self.dueGroup(t, fc, weekEnd: weekEnd)] == group { return .success(t.due) }
            let time = t.due?.time
            switch group {
            case .noDue: return .success(nil)
            case .today:
                // Keeping a time that has passed would land in Overdue, so the task becomes
                // all-day today instead.
                if let tm = time, todayN * 1440 + tm.minuteOfDay < nowMinute { return .success(Due(date: CivilDate(dayNumber: todayN))) }
                return .success(Due(date: CivilDate(dayNumber: todayN), time: time))
            case .tomorrow: return .success(Due(date: CivilDate(dayNumber: todayN + 1), time: time))
            case .thisWeek:
                guard todayN + 2 <= weekEnd else {
                    return .failure(Catalog.cannotMove("this week has no day after tomorrow", range: groupText.range, file: file,
                                                       reason: "the week ends \(TimeText.shortDate(CivilDate(dayNumber: weekEnd)))",
                                                       help: "move it to tomorrow or later"))
                }
                return .success(Due(date: CivilDate(dayNumber: todayN + 2), time: time))
            case .later: return .success(Due(date: CivilDate(dayNumber: weekEnd + 1), time: time))
            case .overdue: return .success(t.due)
            }
        })
    }

    // MARK: duplicate

    /// A copy as a new open task: fields, tags, notes and steps (unchecked) are kept; comments,
    /// completion, a hold and subtasks are not.
    func runDuplicate(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        runAction(s, target, TaskAction(verb: "Duplicated", name: "duplicate") { t, step in
            guard self.store.hasIDsLeft else { return .failure(Catalog.idsUsedUp(range: target.range, file: s.source.file)) }
            var c = t
            c.id = self.store.takeID()
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
            return .success(ActionResult(line: "\(t.id) · \(t.title) as \(c.id)",
                                         json: .object(JSONObject([("added", TaskJSON.value(c, zone: self.zone))]))))
        })
    }

    // MARK: structure

    /// The direct subtasks of a task.
    func children(of id: Int) -> [Task] { store.tasks.filter { $0.parent == id } }

    /// Every task below one, parents before their subtasks.
    func descendants(of id: Int) -> [Task] {
        // The subtasks of every task, listed once: a walk down a deep tree stays linear.
        var kids: [Int: [Task]] = [:]
        for t in store.tasks { if let p = t.parent { kids[p, default: []].append(t) } }
        var out: [Task] = []
        var queue = [id]
        var seen: Set<Int> = [id]
        var k = 0
        while k < queue.count {
            for c in kids[queue[k]] ?? [] where seen.insert(c.id).inserted {
                out.append(c)
                queue.append(c.id)
            }
            k += 1
        }
        return out
    }
}
