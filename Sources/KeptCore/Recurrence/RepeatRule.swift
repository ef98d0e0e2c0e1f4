// A repeat rule: how often, on which days, from which anchor, until when. Occurrences are
// computed from the anchor and the rule (R-REP-4), never from the previous clamped date.

/// A repeat rule, as parsed from `every …` or from an RRULE.
public struct RepeatRule: Sendable, Equatable {
    public enum Frequency: String, Sendable {
        case daily, weekly, monthly, yearly
    }

    /// Which day of a month (or of the rule's month, for yearly rules).
    public enum MonthDay: Sendable, Equatable {
        /// The nth day; a month without it takes its last day (R-REP-4).
        case day(Int)
        case last
        /// The nth weekday (1…5), or the last one (-1); a month without a 5th is skipped.
        case weekday(Int, Weekday)
    }

    public var frequency: Frequency
    /// Every N days, weeks, months or years (N ≥ 1).
    public var interval: Int = 1
    /// Weekly rules: the chosen days, in Monday-first order; empty means the anchor's weekday.
    public var weekdays: [Weekday] = []
    /// Monthly and yearly rules: the day; nil means the anchor's day.
    public var monthDay: MonthDay?
    /// Yearly rules: the month; nil means the anchor's month.
    public var month: Int?
    /// A wall-clock time each occurrence is due at (R-DAY-3).
    public var time: WallTime?
    /// The anchor given by `from DATE`; otherwise the task's first due date is the anchor.
    public var from: CivilDate?
    /// The last day an occurrence may fall on.
    public var until: CivilDate?
    /// How many occurrences the series has.
    public var count: Int?
    /// The next date counts from the completion day (docs/REPEATS.md).
    public var afterCompletion = false
    /// A month (or year) without the rule's day is skipped instead of taking its last day: the
    /// RFC 5545 reading of a plain BYMONTHDAY=31, kept for rules that came in as an RRULE.
    public var skipMissing = false

    public init(frequency: Frequency, interval: Int = 1) {
        self.frequency = frequency
        self.interval = interval
    }

    /// The same rule with what the anchor implies written out: a yearly day's month. Two rules
    /// with equal normal forms give the same dates from that anchor.
    public func normalized(anchor: CivilDate) -> RepeatRule {
        var r = self
        if r.frequency == .yearly, r.monthDay != nil, r.month == nil { r.month = anchor.month }
        return r
    }

    public static let workdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    public static let weekend: [Weekday] = [.saturday, .sunday]
}
