// Reminders (R-TASK-7): `remind` with a preset or a picked time, `unremind`, and `reminders`,
// the nearest 60 scheduled across the store. A reminder is a wall-clock time; whether it is
// scheduled, sent or cancelled is worked out at now, and only "Past due" is stored.

/// One reminder with its task, where it sits, and what it is at now.
struct ReminderEntry {
    var task: Task
    /// Its place among the task's reminders, from 0 (`unremind ID N` counts from 1).
    var index: Int
    var reminder: Reminder
    var instant: Instant
    var state: ReminderState

    /// Time order: by instant, then task id, then the reminder's place on its task (R-TASK-7).
    static func ringsBefore(_ x: ReminderEntry, _ y: ReminderEntry) -> Bool {
        (x.instant, x.task.id, x.index) < (y.instant, y.task.id, y.index)
    }
}

extension Session {
    /// The presets of R-TASK-7, by the words that name them; each maps onto a date phrase except
    /// "later today", which has its own rule (docs/DECISIONS.md).
    static let reminderPresets: [(words: String, phrase: String)] = [
        ("later today", ""), ("in an hour", "in an hour"), ("this evening", "this evening"),
        ("tomorrow morning", "tomorrow morning"), ("tomorrow", "tomorrow morning"), ("next week", "next week"),
        ("in 1 month", "in 1 month"), ("in a month", "in 1 month"),
    ]

    /// The wall-clock time a preset or a date phrase means now. A day without a time rings at
    /// the `morning` setting; a time that has passed is refused.
    func reminderTime(_ when: TextArg, _ file: SourceFile) -> Result<CivilDateTime, Diagnostic> {
        let words = when.text.lowercased().split(separator: " ").map(String.init)
        let key = words.joined(separator: " ")
        let settings = store.settings
        let ctx = dateContext
        if key == "later today" {
            // Three hours on, rounded up to the hour; still within the account's day (R-DAY-2).
            var l = zone.local(at: zone.instant(for: ctx.now).adding(minutes: 180))
            if l.time.minuteOfDay % 60 != 0 { l = l.adding(minutes: 60 - l.time.minuteOfDay % 60) }
            let dayEnd = settings.day.start(of: ctx.today.adding(days: 1))
            guard l < dayEnd else {
                return .failure(Catalog.reminderPassed("it is too late for 'later today'", range: when.range, file: file,
                                                       label: "three hours from now is past the end of today",
                                                       help: "'remind … tomorrow morning' rings at \(TimeText.time(settings.morning, settings.day.hourCycle)) tomorrow"))
            }
            return .success(l)
        }
        let phrase = Session.reminderPresets.first { $0.words == key }.map { $0.phrase.split(separator: " ").map(String.init) } ?? words
        let due: Due
        switch DatePhrase.resolve(phrase, in: ctx) {
        case .success(let (r, used)) where used == phrase.count: due = r.due
        case .success:
            return .failure(Catalog.badReminderTime(when.text, range: when.range, file: file))
        case .failure(let e):
            if e.impossible { return .failure(Diagnostic(code: e.code, message: e.message, file: file, range: when.range, label: e.label, help: e.help)) }
            var d = Catalog.badReminderTime(when.text, range: when.range, file: file)
            if let h = e.help { d.help = h }
            return .failure(d)
        }
        let at = CivilDateTime(date: due.date, time: due.time ?? settings.morning)
        guard zone.instant(for: at) > now else {
            return .failure(Catalog.reminderPassed("\(text.reminderTime(at)) has passed", range: when.range, file: file,
                                                   label: "a reminder rings ahead of now",
                                                   help: key == "this evening" ? "'remind … tomorrow' rings tomorrow morning" : nil))
        }
        return .success(at)
    }

    /// R-TASK-7: adds a reminder; a task can have several, never the same time twice.
    func runRemind(_ s: Statement, _ target: TaskTarget, _ when: TextArg) -> CommandOutput {
        let file = s.source.file
        if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .error(d) }
        let at: CivilDateTime
        switch reminderTime(when, file) {
        case .success(let x): at = x
        case .failure(let d): return .error(d)
        }
        let txt = text
        var action = TaskAction(verb: "Added a reminder to", name: "remind") { t, step in
            guard t.isOpen else {
                return .failure(Catalog.wrongState("task \(t.id) is \(t.status.rawValue == "done" ? "completed" : t.status.rawValue); its reminders are cancelled",
                                                   range: target.range, file: file, help: "reopen it first: its reminders come back with it"))
            }
            var a = t
            // Kept in time order, so `show` and `unremind N` number them as they ring.
            if !a.reminders.contains(where: { $0.at == at }) {
                a.reminders.insert(Reminder(at: at), at: a.reminders.firstIndex { at < $0.at } ?? a.reminders.count)
            }
            let n = a.reminders.count
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): \(txt.reminderTime(at))" + (n > 1 ? " · \(n) reminders" : ""), into: &step)
        }
        action.summary = { "remind \($0.id) \(txt.reminderTime(at)) · \($0.title)" }
        return runAction(s, target, action)
    }

    /// Removes one reminder (by its number in `show ID`) or all of a task's.
    func runUnremind(_ s: Statement, _ target: TaskTarget, _ which: TextArg) -> CommandOutput {
        let file = s.source.file
        let all = which.text.lowercased() == "all"
        var number = 0
        if !all {
            guard let n = Int(which.text), n >= 1 else {
                return .error(Catalog.badFieldValue("reminders", value: which.text, range: which.range, file: file,
                                                    expected: "a reminder number from 1, or all", help: "'show ID' lists a task's reminders in order"))
            }
            number = n
        }
        return runAction(s, target, TaskAction(verb: "Removed \(all ? "the reminders" : "a reminder") of", name: "unremind", scope: .open) { t, step in
            var a = t
            if all {
                a.reminders = []
            } else {
                guard number <= t.reminders.count else { return .failure(Catalog.noReminder(number, of: t, range: which.range, file: file)) }
                a.reminders.remove(at: number - 1)
            }
            let left = a.reminders.count
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): " + (left == 0 ? "no reminders" : left == 1 ? "1 reminder" : "\(left) reminders"), into: &step)
        })
    }

    /// Every reminder in the store with its state at now. The nearest 60 ahead on open tasks are
    /// scheduled; ties go by task id, then the reminder's order on its task (R-TASK-7).
    func reminderEntries() -> [ReminderEntry] {
        let z = zone
        let n = now
        var out: [ReminderEntry] = []
        var ahead: [Int] = []
        for t in store.tasksWithReminders {
            for (k, r) in t.reminders.enumerated() {
                let i = z.instant(for: r.at)
                let state: ReminderState
                if !t.isOpen { state = .cancelled } else if i > n { state = .waiting } else { state = r.pastDue ? .pastDue : .sent }
                if state == .waiting { ahead.append(out.count) }
                out.append(ReminderEntry(task: t, index: k, reminder: r, instant: i, state: state))
            }
        }
        ahead.sort { ReminderEntry.ringsBefore(out[$0], out[$1]) }
        for k in ahead.prefix(Reminder.scheduledLimit) { out[k].state = .scheduled }
        return out
    }

    /// A task's reminders as they read in `show`: `Tomorrow 9 AM, Mon Jun 15 9 AM · Past due`.
    func remindersText(_ t: Task) -> String {
        guard !t.reminders.isEmpty else { return "none" }
        let txt = text
        var states: [Int: ReminderState] = [:]
        for e in reminderEntries() where e.task.id == t.id { states[e.index] = e.state }
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
    func runReminders(_ s: Statement) -> CommandOutput {
        let entries = reminderEntries()
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

    /// R-TASK-7: a task that is open again gets its reminders back; one whose time passed since
    /// the task stopped being open never rang, so it is Past due. Only a completion records when
    /// that was; after an archive or a delete every passed reminder counts.
    func restoringReminders(_ t: Task, leftOpenAt: Instant?) -> Task {
        guard t.isOpen, !t.reminders.isEmpty else { return t }
        var a = t
        let z = zone
        let n = now
        for k in a.reminders.indices where !a.reminders[k].pastDue {
            let i = z.instant(for: a.reminders[k].at)
            if i <= n, leftOpenAt.map({ i > $0 }) ?? true { a.reminders[k].pastDue = true }
        }
        return a
    }

    /// After undo or redo: each task the step made open again gets its reminders back.
    func restoreReminders(after changes: [Change], forward: Bool) {
        for c in changes {
            guard case .task(let b, let a) = c else { continue }
            let target = forward ? a : b
            let other = forward ? b : a
            guard let t = target, t.isOpen, !(other?.isOpen ?? false), let current = store.task(t.id) else { continue }
            let back = restoringReminders(current, leftOpenAt: other?.completedAt)
            if back != current { store.put(back) }
        }
    }
}
