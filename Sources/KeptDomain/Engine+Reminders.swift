// Reminders (R-TASK-7): adding one at a preset or a picked time, removing them, what each is at
// now, and bringing them back when a task is open again. A reminder is a wall-clock time;
// whether it is scheduled, sent or cancelled is worked out at now, and only Past due is stored.

import KeptRules

/// The presets of R-TASK-7 (docs/DECISIONS.md has their times).
public enum ReminderPreset: String, CaseIterable, Sendable {
    case laterToday = "later today"
    case inAnHour = "in an hour"
    case thisEvening = "this evening"
    case tomorrowMorning = "tomorrow morning"
    case nextWeek = "next week"
    case inAMonth = "in 1 month"

    /// The words that name each preset.
    public static let words: [(String, ReminderPreset)] = [
        ("later today", .laterToday), ("in an hour", .inAnHour), ("this evening", .thisEvening),
        ("tomorrow morning", .tomorrowMorning), ("tomorrow", .tomorrowMorning), ("next week", .nextWeek),
        ("in 1 month", .inAMonth), ("in a month", .inAMonth),
    ]

    public init?(words: String) {
        guard let p = ReminderPreset.words.first(where: { $0.0 == words })?.1 else { return nil }
        self = p
    }

    /// The date phrase each preset but "later today" means.
    package var phrase: [String] {
        switch self {
        case .laterToday: return []
        case .inAnHour: return ["in", "an", "hour"]
        case .thisEvening: return ["this", "evening"]
        case .tomorrowMorning: return ["tomorrow", "morning"]
        case .nextWeek: return ["next", "week"]
        case .inAMonth: return ["in", "1", "month"]
        }
    }
}

/// When a reminder rings, as the caller gives it.
public enum ReminderTime: Sendable {
    case preset(ReminderPreset)
    /// A picked date, maybe with a time; a day without a time rings at the `morning` setting.
    case at(Due)
}

/// One reminder with its task, where it sits, and what it is at now.
public struct ReminderEntry: Sendable {
    public var task: Task
    /// Its place among the task's reminders, from 0 (`unremind ID N` counts from 1).
    public var index: Int
    public var reminder: Reminder
    public var instant: Instant
    public var state: ReminderState

    /// Time order: by instant, then task id, then the reminder's place on its task (R-TASK-7).
    public static func ringsBefore(_ x: ReminderEntry, _ y: ReminderEntry) -> Bool {
        (x.instant, x.task.id, x.index) < (y.instant, y.task.id, y.index)
    }
}

extension Engine {
    /// The wall-clock time a reminder rings at, ahead of now.
    public func reminderTime(_ when: ReminderTime) throws(DomainError) -> CivilDateTime {
        let settings = store.settings
        let ctx = dateContext
        var preset: ReminderPreset? = nil
        let due: Due
        switch when {
        case .preset(.laterToday):
            // Three hours on, rounded up to the hour; still within the account's day (R-DAY-2).
            var l = zone.local(at: ctx.nowInstant.adding(minutes: 180))
            if l.time.minuteOfDay % 60 != 0 { l = l.adding(minutes: 60 - l.time.minuteOfDay % 60) }
            guard l < settings.day.start(of: ctx.today.adding(days: 1)) else { throw .reminder(.tooLateToday) }
            return l
        case .preset(let p):
            preset = p
            guard case .success(let (r, _)) = DatePhrase.resolve(p.phrase, in: ctx) else { throw .reminder(.passed(ctx.now, preset: p)) }
            due = r.due
        case .at(let d):
            due = d
        }
        let at = CivilDateTime(date: due.date, time: due.time ?? settings.morning)
        guard zone.instant(for: at) > now else { throw .reminder(.passed(at, preset: preset)) }
        return at
    }

    /// R-TASK-7: adds a reminder; a task can have several, never the same time twice.
    public func remind(_ sel: Selection, at when: ReminderTime) throws(DomainError) -> Outcome<(task: Task, at: CivilDateTime)> {
        if case .task(let id) = sel { _ = try existing(id) }
        let at = try reminderTime(when)
        let words = TaskText(today: today, settings: store.settings).reminderTime(at)
        return try act(sel, "remind", summary: { "remind \($0.id) \(words) · \($0.title)" }) { (t, step) throws(DomainError) in
            guard t.isOpen else { throw .wrongState(.remindersCancelled(t.id, status: t.status)) }
            var a = t
            // Kept in time order, so `show` and `unremind N` number them as they ring.
            if !a.reminders.contains(where: { $0.at == at }) {
                a.reminders.insert(Reminder(at: at), at: a.reminders.firstIndex { at < $0.at } ?? a.reminders.count)
            }
            return (self.updated(t, to: a, into: &step), at)
        }
    }

    /// Removes one reminder (by its number, from 1) or, with nil, all of a task's.
    public func unremind(_ sel: Selection, number: Int?) throws(DomainError) -> Outcome<Task> {
        try act(sel, "unremind") { (t, step) throws(DomainError) in
            var a = t
            if let n = number {
                guard n >= 1, n <= t.reminders.count else { throw .noReminder(n, of: t) }
                a.reminders.remove(at: n - 1)
            } else {
                a.reminders = []
            }
            return self.updated(t, to: a, into: &step)
        }
    }

    /// Every reminder in the store with its state at now. The nearest 60 ahead on open tasks are
    /// scheduled; ties go by task id, then the reminder's order on its task (R-TASK-7).
    public func reminderEntries() -> [ReminderEntry] {
        let z = zone
        let n = now
        var out: [ReminderEntry] = []
        var ahead: [Int] = []
        for t in store.tasks(.withReminders) {
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

    /// R-TASK-7: a task that is open again gets its reminders back; one whose time passed since
    /// the task stopped being open never rang, so it is Past due. Only a completion records when
    /// that was; after an archive or a delete every passed reminder counts.
    package func restoringReminders(_ t: Task, leftOpenAt: Instant?) -> Task {
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
}
