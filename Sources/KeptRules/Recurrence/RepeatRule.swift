// A repeat rule: the RFC 5545 recurrence rule (FREQ, INTERVAL, every BY* part but BYSECOND,
// BYSETPOS, WKST, COUNT, UNTIL) with Kept's additions: what a month without the rule's day does
// (RFC 7529 SKIP: Kept's words take the month's last day, R-REP-4), `from`, `after completion`.
// Occurrences are computed from the anchor and the rule, never from the previous (clamped) date.
// The BY* parts are bit sets where their values are few (months, days of the month, weekdays,
// week numbers, hours, minutes), so the next occurrence runs on plain integers.

/// A repeat rule, as parsed from `every …` or from an RRULE.
public struct RepeatRule: Sendable, Equatable {
    /// FREQ. SECONDLY is not a frequency of a planner's tasks and is refused when read.
    public enum Frequency: String, Sendable, CaseIterable {
        case daily, weekly, monthly, yearly, hourly, minutely

        /// The number a task index keeps for a repeat's frequency (4 is a rule not read).
        public var code: Int8 {
            switch self {
            case .daily: return 0
            case .weekly: return 1
            case .monthly: return 2
            case .yearly: return 3
            case .hourly: return 5
            case .minutely: return 6
            }
        }
    }

    /// A BYDAY entry with an ordinal: the nth weekday of the month (or of the year), counted
    /// from the end when negative (`-1FR` is the last Friday).
    public struct NthWeekday: Sendable, Hashable, Comparable {
        public var n: Int
        public var weekday: Weekday

        public init(_ n: Int, _ weekday: Weekday) {
            self.n = n
            self.weekday = weekday
        }

        /// Monday first, then 1, 2, …, -2, -1 (the order an RRULE lists them in).
        public static func < (a: NthWeekday, b: NthWeekday) -> Bool {
            if a.weekday != b.weekday { return a.weekday < b.weekday }
            if (a.n > 0) != (b.n > 0) { return a.n > 0 }
            return a.n < b.n
        }
    }

    /// UNTIL: the last day (a date rule), or the last moment, of the series.
    public enum Until: Sendable, Hashable {
        /// The last day an occurrence may fall on (`until 2026-12-31`, `UNTIL=20261231`).
        case date(CivilDate)
        /// A floating local date-time (`UNTIL=20261231T170000`), second 0…59.
        case local(CivilDateTime, second: Int)
        /// An instant, written in UTC with `Z` (`UNTIL=20261231T160000Z`), second 0…59.
        case utc(CivilDateTime, second: Int)
    }

    /// What a month (or year) without the rule's day does: RFC 7529 SKIP for the day of the
    /// month that BYMONTHDAY or the anchor gives.
    public enum Skip: String, Sendable {
        /// The month's last day takes it (SKIP=BACKWARD): Kept's words, R-REP-4.
        case backward
        /// The month has no occurrence (SKIP=OMIT, RFC 5545's reading of a plain BYMONTHDAY=31).
        case omit
        /// The next valid day takes it (SKIP=FORWARD): the 1st of the next month or year.
        case forward
    }

    public var frequency: Frequency
    /// Every N periods (N ≥ 1).
    public var interval: Int = 1
    /// BYMONTH: bit m for month m (1…12); 0 is no BYMONTH.
    public var monthMask: UInt16 = 0
    /// Kept's words `every year on the 15th`: the month is the anchor's (BYMONTH from the anchor).
    public var monthFromAnchor = false
    /// BYMONTHDAY from the start: bit d for day d (1…31).
    public var monthDayMask: UInt32 = 0
    /// BYMONTHDAY from the end: bit k for day -k (-1 is the last day).
    public var monthDayFromEndMask: UInt32 = 0
    /// BYDAY without an ordinal: bit `weekday.rawValue` (1…7).
    public var weekdayMask: UInt8 = 0
    /// BYDAY with an ordinal, sorted.
    public var nthWeekdays: [NthWeekday] = []
    /// BYYEARDAY: -366…-1, 1…366, sorted.
    public var yearDays: [Int] = []
    /// BYWEEKNO from the start (bit n for week n, 1…53) and from the end (bit k for week -k).
    public var weekNoMask: UInt64 = 0
    public var weekNoFromEndMask: UInt64 = 0
    /// BYHOUR: bit h (0…23). BYMINUTE: bit m (0…59).
    public var hourMask: UInt32 = 0
    public var minuteMask: UInt64 = 0
    /// BYSETPOS: -366…-1, 1…366, sorted.
    public var setPositions: [Int] = []
    /// WKST: the day weeks start on for this rule; nil for a rule stored before rules held it,
    /// which takes the account's week start.
    public var weekStart: Weekday?
    /// What a month without the rule's day does.
    public var skip: Skip = .backward
    /// COUNT: how many occurrences the series has.
    public var count: Int?
    /// UNTIL.
    public var end: Until?
    /// The anchor given by `from DATE`; otherwise the task's first due date is the anchor.
    public var from: CivilDate?
    /// The time of `from DATE TIME`: the series' first moment (RFC 5545's DTSTART time), and
    /// the time of day of a rule without times of its own.
    public var fromTime: WallTime?
    /// The next date counts from the completion day (docs/REPEATS.md).
    public var afterCompletion = false

    public init(frequency: Frequency, interval: Int = 1) {
        self.frequency = frequency
        self.interval = interval
    }

    public static let workdays: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    public static let weekend: [Weekday] = [.saturday, .sunday]
    package static let workdayMask: UInt8 = 0b0011_1110
    package static let weekendMask: UInt8 = 0b1100_0000
    package static let allWeekdaysMask: UInt8 = 0b1111_1110

    package static func bit(_ w: Weekday) -> UInt8 { 1 << UInt8(w.rawValue) }
    package static func weekdays(of mask: UInt8) -> [Weekday] { Weekday.allCases.filter { mask & bit($0) != 0 } }
    package static func mask(of days: [Weekday]) -> UInt8 { days.reduce(0) { $0 | bit($1) } }

    /// The set bits of a mask, lowest first.
    package static func bits<M: FixedWidthInteger>(_ mask: M) -> [Int] {
        var out: [Int] = []
        var m = mask
        while m != 0 {
            out.append(m.trailingZeroBitCount)
            m &= m - 1
        }
        return out
    }

    /// The times of day (BYHOUR × BYMINUTE), sorted; empty when the rule has none of its own.
    public var times: [WallTime] {
        guard hourMask != 0, minuteMask != 0, frequency != .hourly, frequency != .minutely else { return [] }
        var out: [WallTime] = []
        for h in RepeatRule.bits(hourMask) {
            for m in RepeatRule.bits(minuteMask) { if let t = WallTime(hour: h, minute: m) { out.append(t) } }
        }
        return out
    }

    /// Whether occurrences have a time of day of the rule's own (at 9am, hourly).
    public var isTimed: Bool {
        frequency == .hourly || frequency == .minutely || hourMask != 0 || minuteMask != 0
    }

    /// Whether the rule has any BYDAY, BYMONTHDAY, BYYEARDAY or BYWEEKNO part (else the anchor
    /// gives the day, RFC 5545).
    package var hasDayParts: Bool {
        weekdayMask != 0 || !nthWeekdays.isEmpty || monthDayMask != 0 || monthDayFromEndMask != 0
            || !yearDays.isEmpty || weekNoMask != 0 || weekNoFromEndMask != 0
    }

    /// The week start the rule counts weeks from: its own, else the account's.
    package func weekStart(or account: Weekday) -> Weekday { weekStart ?? account }
}

// MARK: - the simple view

// The shapes Kept's words have had from the start, read and written as single values: a weekly
// rule's days, a monthly or yearly rule's one day and one month, one time of day, UNTIL as a
// date. A rule with more in it reads nil here; setting a value replaces that part only.

extension RepeatRule {
    /// Which day of a month (or of the rule's month, for yearly rules).
    public enum MonthDay: Sendable, Equatable {
        /// The nth day; a month without it takes its last day (R-REP-4).
        case day(Int)
        case last
        /// The nth weekday (1…5), or counted from the end (-1 the last); a month without it is skipped.
        case weekday(Int, Weekday)
    }

    /// BYDAY without ordinals, in Monday-first order; empty means the anchor's weekday (weekly).
    public var weekdays: [Weekday] {
        get { RepeatRule.weekdays(of: weekdayMask) }
        set { weekdayMask = RepeatRule.mask(of: newValue) }
    }

    /// The one day of the month, or nil (the anchor's day, or more than one day).
    public var monthDay: MonthDay? {
        get {
            guard weekdayMask == 0 || monthDayMask | monthDayFromEndMask == 0, yearDays.isEmpty else { return nil }
            if nthWeekdays.count == 1, let w = nthWeekdays.first, monthDayMask | monthDayFromEndMask == 0, weekdayMask == 0 {
                return .weekday(w.n, w.weekday)
            }
            guard nthWeekdays.isEmpty, weekdayMask == 0 else { return nil }
            if monthDayFromEndMask == 0b10, monthDayMask == 0 { return .last }
            if monthDayFromEndMask == 0, monthDayMask.nonzeroBitCount == 1 { return .day(monthDayMask.trailingZeroBitCount) }
            return nil
        }
        set {
            monthDayMask = 0
            monthDayFromEndMask = 0
            nthWeekdays = []
            switch newValue {
            case .day(let d)?: if (1...31).contains(d) { monthDayMask = 1 << UInt32(d) }
            case .last?: monthDayFromEndMask = 0b10
            case .weekday(let n, let w)?: nthWeekdays = [NthWeekday(n, w)]
            case nil: break
            }
        }
    }

    /// The one month of a yearly rule (BYMONTH), or nil.
    public var month: Int? {
        get { monthMask.nonzeroBitCount == 1 ? monthMask.trailingZeroBitCount : nil }
        set {
            monthMask = newValue.map { (1...12).contains($0) ? UInt16(1) << UInt16($0) : 0 } ?? 0
            monthFromAnchor = false
        }
    }

    /// The one time of day (R-DAY-3), or nil.
    public var time: WallTime? {
        get {
            guard frequency != .hourly, frequency != .minutely, hourMask.nonzeroBitCount == 1, minuteMask.nonzeroBitCount == 1 else { return nil }
            return WallTime(hour: hourMask.trailingZeroBitCount, minute: minuteMask.trailingZeroBitCount)
        }
        set {
            hourMask = newValue.map { UInt32(1) << UInt32($0.hour) } ?? 0
            minuteMask = newValue.map { UInt64(1) << UInt64($0.minute) } ?? 0
        }
    }

    /// The last day of the series, for a date UNTIL.
    public var until: CivilDate? {
        get { if case .date(let d)? = end { return d } else { return nil } }
        set { end = newValue.map { .date($0) } }
    }

    /// A month (or year) without the rule's day is skipped instead of taking its last day.
    public var skipMissing: Bool {
        get { skip == .omit }
        set { skip = newValue ? .omit : .backward }
    }

    /// The same rule with what the anchor implies written out: a yearly day's month. Two rules
    /// with equal normal forms give the same dates from that anchor.
    public func normalized(anchor: CivilDate) -> RepeatRule {
        var r = self
        if r.monthFromAnchor { r.month = anchor.month }
        return r
    }
}
