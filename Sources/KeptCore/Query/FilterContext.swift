// What a filter is evaluated against, on calendar fields: a date-only due is a whole account day,
// so a task due today without a time is not overdue until the day ends, and a timed due is
// overdue once its time passes; a finished task is never overdue (R-VIEW-3).

/// What a filter is evaluated against: now, today and the day start, as plain integers.
public struct FilterContext: Sendable {
    /// The account's today, as a day number.
    public var today: Int
    /// Now as civil minutes (day number × 1440 + minute of day).
    public var nowMinute: Int
    /// The day start in minutes; a timed due belongs to the account day it falls in (R-DAY-2).
    public var dayStart: Int
    public var now: Instant
    var todayStartSeconds: Int64 = 0

    public init(_ ctx: DateContext, now: Instant) {
        self.today = ctx.today.dayNumber
        self.nowMinute = ctx.now.date.dayNumber * 1440 + ctx.now.time.minuteOfDay
        self.dayStart = ctx.settings.day.dayStart.minuteOfDay
        self.now = now
    }

    /// The account day a due belongs to.
    @inline(__always)
    func day(of due: Due) -> Int {
        guard let t = due.time else { return due.date.dayNumber }
        let m = due.date.dayNumber * 1440 + t.minuteOfDay - dayStart
        return m >= 0 ? m / 1440 : (m - 1439) / 1440
    }
}

extension FilterContext {
    /// Whether a task is overdue (R-VIEW-3): open, and past a timed due, or past the day of a
    /// date-only one. CompiledFilter reads the same rule from its columns.
    public func isOverdue(_ t: Task) -> Bool {
        guard t.isOpen, let d = t.due else { return false }
        if let time = d.time { return d.date.dayNumber * 1440 + time.minuteOfDay < nowMinute }
        return d.date.dayNumber < today
    }

    /// The instant the account day began; filled by the session (zone-dependent).
    public var todayStart: Instant {
        get { Instant(seconds: todayStartSeconds) }
        set { todayStartSeconds = newValue.seconds }
    }
}

/// Area names compare without case or spacing (R-FIL-6).
public enum AreaName {
    public static func key(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
