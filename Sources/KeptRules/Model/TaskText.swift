// How tasks read in text: the row date (`Overdue 2d`, `Today 3 PM`, `Tomorrow`, `Sat Feb 28`,
// R-VIEW-5), the long date of `show`, and list rows. Built from integers, no Foundation formatting.

/// Text for tasks and dates, against the session's today and settings.
public struct TaskText: Sendable {
    public var today: CivilDate
    public var settings: Settings
    /// How user text reads in a row: the session escapes control characters here, so a row is
    /// measured as it prints (RowLayout.swift).
    public var escape: @Sendable (String) -> String = { $0 }

    public init(today: CivilDate, settings: Settings) {
        self.today = today
        self.settings = settings
    }

    package func time(_ t: WallTime) -> String { TimeText.time(t, settings.day.hourCycle) }

    /// A short date, with the year only when it is not this year's.
    public func shortDate(_ d: CivilDate) -> String {
        d.year == today.year ? TimeText.shortDate(d) : TimeText.longDate(d)
    }

    /// The date part of a row (R-VIEW-5); a finished task is never called overdue (R-VIEW-3).
    public func rowDate(_ due: Due, open: Bool) -> String {
        let day: String
        let diff = today.days(until: due.date)
        if diff < 0, open {
            return "Overdue \(-diff)d"
        } else if diff == 0 {
            day = "Today"
        } else if diff == 1 {
            day = "Tomorrow"
        } else {
            day = shortDate(due.date)
        }
        if let t = due.time { return "\(day) \(time(t))" }
        return day
    }

    /// The full date of `show`: `Sat Feb 28, 2026` or `Sat Feb 28, 2026 3 PM`.
    public func longDue(_ due: Due) -> String {
        if let t = due.time { return "\(TimeText.longDate(due.date)) \(time(t))" }
        return TimeText.longDate(due.date)
    }

    /// An occurrence of a repeat: `Wed Jul 1`, `Wed Jul 1 9 AM`, with the year when it is not this one.
    public func occurrence(_ d: Due) -> String {
        shortDate(d.date) + (d.time.map { " " + time($0) } ?? "")
    }

    /// A reminder's time: `Today 3 PM`, `Tomorrow 9 AM`, `Mon Jun 22 9 AM` (R-TASK-7).
    public func reminderTime(_ at: CivilDateTime) -> String {
        let diff = today.days(until: at.date)
        let day = diff == 0 ? "Today" : diff == 1 ? "Tomorrow" : shortDate(at.date)
        return "\(day) \(time(at.time))"
    }

    /// An instant in the account zone, as `Sat Feb 28, 2026 9 AM`.
    public func instant(_ i: Instant, in zone: Zone) -> String {
        let l = zone.local(at: i)
        return "\(TimeText.longDate(l.date)) \(time(l.time))"
    }

    /// `1 · Pay rent · Today`: the summary of added, completed and undone tasks.
    public func summary(_ t: Task) -> String {
        var parts = ["\(t.id)", t.title]
        if let d = t.due { parts.append(rowDate(d, open: t.isOpen)) }
        if let r = t.repeatRule, t.isOpen { parts.append(r.text) }
        return parts.joined(separator: " · ")
    }
}
