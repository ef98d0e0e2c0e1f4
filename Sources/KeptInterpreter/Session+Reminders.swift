// Reminders in the language (R-TASK-7): `remind` with a preset or a picked time, `unremind`,
// and `reminders`, the nearest 60 scheduled across the store. The rules are the engine's
// (Domain/Engine+Reminders).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The time a reminder's words name: a preset, or a date phrase read whole.
    package func reminderTime(_ when: TextArg, _ s: Statement) -> Result<ReminderTime, Diagnostic> {
        let file = s.source.file
        let words = when.text.lowercased().split(separator: " ").map(String.init)
        if let p = ReminderPreset(words: words.joined(separator: " ")) { return .success(.preset(p)) }
        switch DatePhrase.resolve(words, in: dateContext) {
        case .success(let (r, used)) where used == words.count: return .success(.at(r.due))
        case .success:
            return .failure(Catalog.badReminderTime(when.text, range: when.range, file: file))
        case .failure(let e):
            return .failure(Catalog.badReminderTime(when.text, range: when.range, file: file, dateError: e))
        }
    }

    /// R-TASK-7: adds a reminder; a task can have several, never the same time twice.
    package func runRemind(_ s: Statement, _ target: TaskTarget, _ when: TextArg) -> CommandOutput {
        if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .error(d) }
        let time: ReminderTime
        switch reminderTime(when, s) {
        case .success(let x): time = x
        case .failure(let d): return .error(d)
        }
        let txt = text
        let t = ActionText<(task: Task, at: CivilDateTime)>(verb: "Added a reminder to", name: "remind", line: { r in
            let n = r.task.reminders.count
            return "\(r.task.id) · \(r.task.title): \(txt.reminderTime(r.at))" + (n > 1 ? " · \(n) reminders" : "")
        }) { self.updatedJSON($0.task) }
        return act(s, target, t, range: { e in
            if case .reminder = e { return when.range }
            return nil
        }) { (sel) throws(DomainError) in try engine.remind(sel, at: time) }
    }

    /// Removes one reminder (by its number in `show ID`) or all of a task's.
    package func runUnremind(_ s: Statement, _ target: TaskTarget, _ which: TextArg) -> CommandOutput {
        let all = which.text.lowercased() == "all"
        var number: Int? = nil
        if !all {
            guard let n = Int(which.text), n >= 1 else {
                return .error(Catalog.badFieldValue("reminders", value: which.text, range: which.range, file: s.source.file,
                                                    expected: "a reminder number from 1, or all", help: "'show ID' lists a task's reminders in order"))
            }
            number = n
        }
        let t = ActionText<Task>(verb: "Removed \(all ? "the reminders" : "a reminder") of", name: "unremind", line: { a in
            let left = a.reminders.count
            return "\(a.id) · \(a.title): " + (left == 0 ? "no reminders" : left == 1 ? "1 reminder" : "\(left) reminders")
        }, json: updatedJSON)
        return act(s, target, t, range: { e in
            if case .noReminder = e { return which.range }
            return nil
        }) { (sel) throws(DomainError) in try engine.unremind(sel, number: number) }
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
    package func runReminders(_ s: Statement) -> CommandOutput {
        let entries = engine.reminderEntries()
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
