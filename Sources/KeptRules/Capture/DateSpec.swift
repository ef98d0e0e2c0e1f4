// A date phrase as parsed, before it is resolved against now: which day, which time. Parsing
// decides where a phrase ends and what it says; resolving (DatePhrase+Resolve) decides the date.

/// The day part of a phrase.
public enum DayRef: Sendable, Equatable {
    /// `yesterday`, `today`, `tomorrow`.
    case relative(Int)
    /// A weekday, as `fri`, `next fri`, `this fri` or `fri next week` says it.
    case weekday(Weekday, WeekdayMode)
    /// `next week`, `next month`, `next year`: the first day of that period.
    case nextPeriod(TimeUnit)
    /// `eow`, `end of month`, `eoy`: the last day of the current period.
    case endOf(TimeUnit)
    /// `this weekend` (the coming Saturday, or today on a weekend) or `next weekend`.
    case weekend(next: Bool)
    /// `may 17`, `17 may 2027`.
    case monthDay(month: Int, day: Int, year: Int?)
    /// `the 17th`.
    case dayOfMonth(Int)
    case date(CivilDate)
    /// `5/17`, read by the `date-order` setting.
    case slash(Int, Int, year: Int?)
    /// `in 3 days`, `in 2 weeks`, `in 1 month`, `3 days from now`.
    case inDays(Int, TimeUnit)
}

/// How a weekday name is read (docs/CAPTURE.md's table).
public enum WeekdayMode: Sendable, Equatable {
    /// `fri`, `on fri`: the first such day strictly after today.
    case coming
    /// `next fri`: the coming one, or the one of next week with `next-weekday following-week`.
    case next
    /// `this fri`: the one of the current week.
    case this
    /// `fri next week`: the one of next week.
    case nextWeek
}

/// The time part of a phrase.
public enum TimeRef: Sendable, Equatable {
    case time(WallTime)
    /// `morning`, `evening`: the setting's time; `this evening` is today's.
    case named(NamedTime, today: Bool)
    /// `at 9`: an hour without am/pm.
    case bareHour(Int)
}

/// A parsed phrase.
public struct DateSpec: Sendable, Equatable {
    public var day: DayRef?
    public var time: TimeRef?
    /// `in an hour`, `in 90m`: minutes after now (a date and a time).
    public var minutesFromNow: Int?
    /// `2026-06-15T15:00`: a date-time written whole.
    public var dateTime: CivilDateTime?

    public init(day: DayRef? = nil, time: TimeRef? = nil, minutesFromNow: Int? = nil, dateTime: CivilDateTime? = nil) {
        self.day = day
        self.time = time
        self.minutesFromNow = minutesFromNow
        self.dateTime = dateTime
    }
}
