// The render stage of the task actions (R-TASK-1, R-TASK-5): what the engine did, one line for
// one task and a line per task for a bulk action, and its errors at the words they are about.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The target a task action's statement names.
    package func actionTarget(_ s: Statement) -> TaskTarget? {
        switch s.kind {
        case .complete(let t), .reopen(let t), .delete(let t), .archive(let t), .unarchive(let t), .tomorrow(let t),
             .reschedule(let t, _), .move(let t, _), .duplicate(let t):
            return t
        default: return nil
        }
    }

    /// The output of a task action.
    package func render(_ o: ActionOutcome, _ s: Statement) -> CommandOutput {
        guard let target = actionTarget(s) else { return CommandOutput() }
        let z = zone
        switch o {
        case .completed(let r):
            let t = ActionText<Engine.Completion>(verb: "Completed", name: "complete", line: completionLine) { c in
                .object(JSONObject([("completed", TaskJSON.value(c.task, zone: z)), ("next", c.next.map { TaskJSON.value($0, zone: z) } ?? .null)]))
            }
            return render(r, t, s, target)
        case .reopened(let r):
            let txt = text
            let t = ActionText<Engine.Reopening>(verb: "Reopened", name: "reopen", line: { r in
                txt.summary(r.task) + (r.tookBack.map { " · took back \($0.id), which its completion made" } ?? "")
            }) { r in .object(JSONObject([("reopened", TaskJSON.value(r.task, zone: z))])) }
            return render(r, t, s, target)
        case .deleted(let r):
            let t = ActionText<Engine.Deletion>(verb: "Deleted", name: "delete", line: { d in
                "\(d.task.id) · \(d.task.title)" + (d.subtasks.isEmpty ? "" : " with \(d.subtasks.count == 1 ? "1 subtask" : "\(d.subtasks.count) subtasks")")
            }) { d in .object(JSONObject([("deleted", TaskJSON.value(d.task, zone: z))])) }
            return render(r, t, s, target)
        case .deletionAsked(let f, let hit, let below): return confirmDelete(s, f, hit, below)
        case .archived(let r): return render(r, archiveText(archive: true), s, target)
        case .unarchived(let r): return render(r, archiveText(archive: false), s, target)
        case .tomorrow(let r): return render(r, dueText("Moved", "tomorrow"), s, target)
        case .rescheduled(let r): return render(r, dueText("Rescheduled", "reschedule"), s, target)
        case .moved(let r, let group): return render(r, dueText("Moved", "move to \(group.rawValue)"), s, target)
        case .duplicated(let r):
            let t = ActionText<(original: Task, copy: Task)>(verb: "Duplicated", name: "duplicate",
                                                             line: { "\($0.original.id) · \($0.original.title) as \($0.copy.id)" }) {
                .object(JSONObject([("added", TaskJSON.value($0.copy, zone: z))]))
            }
            return render(r, t, s, target)
        }
    }

    /// The diagnostic of a task action's engine error: at the target, or at the due group a
    /// task cannot move into.
    package func actionError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        guard let target = actionTarget(s) else { return diagnostic(e, s, at: s.keywordRange) }
        if case .move(_, let groupText) = s.kind {
            if case .cannotMove = e { return diagnostic(e, s, at: groupText.range, words: ErrorWords(target: target.describe)) }
            return diagnostic(e, s, at: target.range, words: ErrorWords(target: target.describe))
        }
        return diagnostic(e, s, at: target.range)
    }

    /// `1 · Pay rent · next: 2 due Sat Feb 28 · completed its parent …`
    package func completionLine(_ c: Engine.Completion) -> String {
        var line = "\(c.task.id) · \(c.task.title)"
        if let n = c.next, let d = n.due { line += " · next: \(n.id) due \(text.shortDate(d.date))" + (d.time.map { " " + TimeText.time($0, store.settings.day.hourCycle) } ?? "") }
        else if c.seriesEnded { line += " · the series has ended" }
        for p in c.parents { line += " · completed its parent \(completionLine(p))" }
        return line
    }

    /// The line of an archive or an unarchive.
    package func archiveText(archive: Bool) -> ActionText<Task> {
        let key = archive ? "archived" : "unarchived"
        let z = zone
        return ActionText<Task>(verb: archive ? "Archived" : "Unarchived", name: archive ? "archive" : "unarchive",
                                line: { "\($0.id) · \($0.title)" }) { .object(JSONObject([(key, TaskJSON.value($0, zone: z))])) }
    }

    /// The line of a date edit: `ID · TITLE · DATE`, or `· no due date`.
    package func dueText(_ verb: String, _ name: String) -> ActionText<Task> {
        let txt = text
        return ActionText(verb: verb, name: name, line: { txt.summary($0) + ($0.due == nil ? " · no due date" : "") }, json: updatedJSON)
    }

    /// What a bulk delete would take, as a question and as the error for a front end that
    /// cannot ask.
    package func confirmDelete(_ s: Statement, _ f: FilterSource, _ hit: [Task], _ below: Int) -> CommandOutput {
        let where_ = "where " + s.source.rawText(f.range)
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
}
