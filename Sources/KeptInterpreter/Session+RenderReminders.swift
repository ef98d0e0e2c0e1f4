// The render stage of reminders (R-TASK-7): the line of `remind` and `unremind`, their errors
// at the time or the number they are about, `reminders` (the Past due ones, then the nearest
// 60 scheduled), and a task's reminders as `show` lists them.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a reminder statement did, as the engine returned it.
package enum ReminderOutcome {
    case reminded(Outcome<(task: Task, at: CivilDateTime)>)
    case unreminded(Outcome<Task>)
    case listed([ReminderEntry])
}

extension Session {
    /// The output of a reminder statement.
    package func render(_ o: ReminderOutcome, _ s: Statement) -> CommandOutput {
        switch (o, s.kind) {
        case (.reminded(let r), .remind(let target, _)):
            let txt = text
            let t = ActionText<(task: Task, at: CivilDateTime)>(verb: "Added a reminder to", name: "remind", line: { r in
                let n = r.task.reminders.count
                return "\(r.task.id) · \(r.task.title): \(txt.reminderTime(r.at))" + (n > 1 ? " · \(n) reminders" : "")
            }) { self.updatedJSON($0.task) }
            return render(r, t, s, target)
        case (.unreminded(let r), .unremind(let target, let which)):
            let all = which.text.lowercased() == "all"
            let t = ActionText<Task>(verb: "Removed \(all ? "the reminders" : "a reminder") of", name: "unremind", line: { a in
                let left = a.reminders.count
                return "\(a.id) · \(a.title): " + (left == 0 ? "no reminders" : left == 1 ? "1 reminder" : "\(left) reminders")
            }, json: updatedJSON)
            return render(r, t, s, target)
        case (.listed(let entries), _): return renderReminders(entries)
        default: return CommandOutput()
        }
    }

    /// The diagnostic of a reminder statement's engine error: one about the time or the
    /// number points at it, another at the target.
    package func reminderError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .remind(let target, let when):
            if case .reminder = e { return diagnostic(e, s, at: when.range) }
            return diagnostic(e, s, at: target.range)
        case .unremind(let target, let which):
            if case .noReminder = e { return diagnostic(e, s, at: which.range) }
            return diagnostic(e, s, at: target.range)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }

    /// A task's reminders as they read in `show`: `Tomorrow 9 AM, Mon Jun 15 9 AM · Past due`.
    package func remindersText(_ t: Task) -> String {
        guard !t.reminders.isEmpty else { return "none" }
        let txt = text
        var states: [Int: ReminderState] = [:]
        for e in engine.reminderEntries() where e.task.id == t.id { states[e.index] = e.state }
        return t.reminders.enumerated().map { k, r in
            let st = states[k] ?? .cancelled
            let word: String
            switch st {
            case .scheduled: word = ""
            case .waiting: word = " · not yet scheduled"
            case .cancelled: word = " · cancelled"
            case .sent: word = " · sent"
            case .pastDue: word = " · Past due"
            }
            return txt.reminderTime(r.at) + word
        }.joined(separator: ", ")
    }

    /// `reminders`: the Past due ones on open tasks, then the nearest 60 scheduled, in time order.
    package func renderReminders(_ entries: [ReminderEntry]) -> CommandOutput {
        let past = entries.filter { $0.state == .pastDue }.sorted(by: ReminderEntry.ringsBefore)
        let scheduled = entries.filter { $0.state == .scheduled }.sorted(by: ReminderEntry.ringsBefore)
        let waiting = entries.filter { $0.state == .waiting }.count
        let txt = text
        func json(_ e: ReminderEntry) -> JSONValue {
            .object(JSONObject([("task", .number(JSONNumber(e.task.id))), ("title", .string(e.task.title)), ("reminder", .number(JSONNumber(e.index + 1))),
                                ("at", .string(e.reminder.at.iso)), ("state", .string(e.state.rawValue))]))
        }
        let value = JSONValue.object(JSONObject([("pastDue", .array(past.map(json))), ("scheduled", .array(scheduled.map(json))),
                                                 ("notYetScheduled", .number(JSONNumber(waiting)))]))
        guard !past.isEmpty || !scheduled.isEmpty else { return out(["No reminders scheduled"], json: value) }
        let times = (past + scheduled).map { txt.reminderTime($0.reminder.at) }
        let w = times.map(\.count).max() ?? 0
        func row(_ e: ReminderEntry, _ time: String) -> String {
            "  " + time + String(repeating: " ", count: w - time.count) + "  \(e.task.id) · \(e.task.title)"
        }
        var lines: [String] = []
        if !past.isEmpty {
            lines.append("Past due")
            lines += past.enumerated().map { row($1, times[$0]) }
        }
        if !scheduled.isEmpty {
            lines.append("Scheduled: \(scheduled.count == 1 ? "1 reminder" : "\(scheduled.count) reminders")" + (waiting > 0 ? ", the nearest \(Reminder.scheduledLimit)" : ""))
            lines += scheduled.enumerated().map { row($1, times[past.count + $0]) }
        }
        if waiting > 0 { lines.append("  \(waiting) more, scheduled as nearer ones pass") }
        return out(lines, json: value)
    }
}
