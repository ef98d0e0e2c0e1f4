// Task actions in the language (R-TASK-1, R-TASK-5): a statement's target is resolved to ids
// (an id, a quoted title, or `where FILTER`), the engine runs the action, and the outcome is
// rendered: one line for one task, a line per task for a bulk action.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// Runs an engine action on a statement's target and renders what it did. Errors point at
    /// the target unless `range` says which words they are about.
    package func act<R>(_ s: Statement, _ target: TaskTarget, scope: TitleScope = .open, _ text: ActionText<R>,
                range: (DomainError) -> SourceRange? = { _ in nil }, words: ErrorWords = ErrorWords(),
                _ call: (Selection) throws(DomainError) -> Outcome<R>) -> CommandOutput {
        let sel: Selection
        switch selection(target, s, scope: scope) {
        case .success(let x): sel = x
        case .failure(let d): return .error(d)
        }
        do {
            return render(try call(sel), text, s, target)
        } catch {
            return .error(diagnostic(error, s, at: range(error) ?? target.range, words: words))
        }
    }

    // MARK: complete, reopen, delete

    /// `1 · Pay rent · next: 2 due Sat Feb 28 · completed its parent …`
    package func completionLine(_ c: Engine.Completion) -> String {
        var line = "\(c.task.id) · \(c.task.title)"
        if let n = c.next, let d = n.due { line += " · next: \(n.id) due \(text.shortDate(d.date))" + (d.time.map { " " + TimeText.time($0, store.settings.day.hourCycle) } ?? "") }
        else if c.seriesEnded { line += " · the series has ended" }
        for p in c.parents { line += " · completed its parent \(completionLine(p))" }
        return line
    }

    package func runComplete(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let z = zone
        let t = ActionText<Engine.Completion>(verb: "Completed", name: "complete", line: completionLine) { c in
            .object(JSONObject([("completed", TaskJSON.value(c.task, zone: z)), ("next", c.next.map { TaskJSON.value($0, zone: z) } ?? .null)]))
        }
        return act(s, target, t) { (sel) throws(DomainError) in try engine.complete(sel) }
    }

    package func runReopen(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let z = zone
        let txt = text
        let t = ActionText<Engine.Reopening>(verb: "Reopened", name: "reopen", line: { r in
            txt.summary(r.task) + (r.tookBack.map { " · took back \($0.id), which its completion made" } ?? "")
        }) { r in .object(JSONObject([("reopened", TaskJSON.value(r.task, zone: z))])) }
        return act(s, target, scope: .done, t) { (sel) throws(DomainError) in try engine.reopen(sel) }
    }

    package func runDelete(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        // A bulk delete waits for a yes when the front end asks for one.
        if case .filter(let f) = target, bulkDelete == .ask, !confirmed {
            switch compileTarget(f, s) {
            case .failure(let d): return .error(d)
            case .success(let e):
                let ids: [Int]
                do throws(RegexBudgetError) { ids = try engine.ids(matching: e) } catch { return .error(regexBudgetError(error, s)) }
                if !ids.isEmpty { return confirmDelete(s, f, ids) }
            }
        }
        let z = zone
        let t = ActionText<Engine.Deletion>(verb: "Deleted", name: "delete", line: { d in
            "\(d.task.id) · \(d.task.title)" + (d.subtasks.isEmpty ? "" : " with \(d.subtasks.count == 1 ? "1 subtask" : "\(d.subtasks.count) subtasks")")
        }) { d in .object(JSONObject([("deleted", TaskJSON.value(d.task, zone: z))])) }
        return act(s, target, t) { (sel) throws(DomainError) in try engine.delete(sel) }
    }

    /// What a bulk delete would take, as a question and as the error for a front end that
    /// cannot ask.
    package func confirmDelete(_ s: Statement, _ f: FilterSource, _ ids: [Int]) -> CommandOutput {
        let where_ = "where " + s.source.rawText(f.range)
        let (hit, below) = engine.deletion(of: ids)
        let what = Session.tasks(hit.count) + (below == 0 ? "" : below == 1 ? " and 1 subtask" : " and \(below) subtasks")
        let txt = text
        let d = Catalog.bulkDeleteNeedsConfirmation(where_, tasks: hit.count, subtasks: below, shown: hit.prefix(10).map(txt.summary),
                                                    range: f.range, file: s.source.file)
        var o = CommandOutput(diagnostics: [d])
        // In JSON mode too the answer no prints one object: a bulk delete's, with nothing deleted.
        let no = out(["Nothing deleted"], json: .object(JSONObject([("bulk", .string("delete")), ("results", .array([])),
                                                                    ("skipped", .array([])), ("declined", .bool(true))])))
        o.confirmation = Confirmation(question: "Delete \(what) \(where_)?", details: hit.map { "  " + txt.summary($0) },
                                      declined: no.lines)
        return o
    }

    // MARK: archive, unarchive

    package func runArchive(_ s: Statement, _ target: TaskTarget, archive: Bool) -> CommandOutput {
        let key = archive ? "archived" : "unarchived"
        let z = zone
        let t = ActionText<Task>(verb: archive ? "Archived" : "Unarchived", name: archive ? "archive" : "unarchive",
                                 line: { "\($0.id) · \($0.title)" }) { .object(JSONObject([(key, TaskJSON.value($0, zone: z))])) }
        return act(s, target, scope: archive ? .open : .archived, t) { (sel) throws(DomainError) in
            archive ? try engine.archive(sel) : try engine.unarchive(sel)
        }
    }

    // MARK: dates

    /// The line of a date edit: `ID · TITLE · DATE`, or `· no due date`.
    package func dueText(_ verb: String, _ name: String) -> ActionText<Task> {
        let txt = text
        return ActionText(verb: verb, name: name, line: { txt.summary($0) + ($0.due == nil ? " · no due date" : "") }, json: updatedJSON)
    }

    package func runTomorrow(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        act(s, target, dueText("Moved", "tomorrow")) { (sel) throws(DomainError) in try engine.tomorrow(sel) }
    }

    /// R-TASK-8: the date shortcuts (today, tomorrow, next week, a picked date, clear).
    package func runReschedule(_ s: Statement, _ target: TaskTarget, _ when: TextArg) -> CommandOutput {
        var picked: Due? = nil
        if !["clear", "none"].contains(when.text.lowercased()) {
            switch wholeDate(when, s, help: "today, tomorrow, next week, a date, or clear") {
            case .success(let d): picked = d
            case .failure(let d): return .error(d)
            }
        }
        return act(s, target, dueText("Rescheduled", "reschedule")) { (sel) throws(DomainError) in try engine.reschedule(sel, to: picked) }
    }

    /// R-VIEW-4: moving into a due group reschedules and keeps the time of day.
    package func runMove(_ s: Statement, _ target: TaskTarget, _ groupText: TextArg) -> CommandOutput {
        guard let group = DueGroup(words: groupText.text) else {
            let names = DueGroup.allCases.map(\.rawValue)
            return .error(Catalog.notADueGroup(groupText.text, range: groupText.range, file: s.source.file, candidates: names))
        }
        let words = ErrorWords(target: target.describe)
        return act(s, target, dueText("Moved", "move to \(group.rawValue)"), range: { e in
            if case .cannotMove = e { return groupText.range }
            return nil
        }, words: words) { (sel) throws(DomainError) in try engine.move(sel, to: group) }
    }

    // MARK: duplicate

    package func runDuplicate(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let z = zone
        let t = ActionText<(original: Task, copy: Task)>(verb: "Duplicated", name: "duplicate",
                                                         line: { "\($0.original.id) · \($0.original.title) as \($0.copy.id)" }) {
            .object(JSONObject([("added", TaskJSON.value($0.copy, zone: z))]))
        }
        return act(s, target, t) { (sel) throws(DomainError) in try engine.duplicate(sel) }
    }
}
