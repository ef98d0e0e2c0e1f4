// The account's day settings: when a day starts, when a week starts, how hours are shown.
// "Today", "this week" and repeat dates all go through here (R-DAY-2, R-DAY-4, R-DAY-5).

/// The account's day start, week start and hour cycle.
public struct DayRules: Sendable, Equatable {
    /// When a new day begins on the wall clock; default 00:00 (R-DAY-2).
    public var dayStart: WallTime
    /// The first day of a week; default Monday (R-DAY-5).
    public var weekStart: Weekday
    /// How hours are shown; default 12-hour (R-DAY-4).
    public var hourCycle: HourCycle

    /// Rules from settings; every argument has the documented default.
    public init(dayStart: WallTime = .midnight, weekStart: Weekday = .monday, hourCycle: HourCycle = .h12) {
        self.dayStart = dayStart
        self.weekStart = weekStart
        self.hourCycle = hourCycle
    }

    /// The defaults: day start 00:00, weeks from Monday, 12-hour clock.
    public static let standard = DayRules()

    /// The day that `local` belongs to: with a 04:00 day start, Jun 16 01:30 is still Jun 15.
    public func today(at local: CivilDateTime) -> CivilDate {
        // R-DAY-2: "today" is the day that began at the last day start, so before it we are in yesterday.
        local.time < dayStart ? local.date.adding(days: -1) : local.date
    }

    /// The day that `instant` belongs to in `zone`.
    public func today(at instant: Instant, in zone: Zone) -> CivilDate {
        today(at: zone.local(at: instant))
    }

    /// The wall-clock moment `day` begins: its date at the day start.
    public func start(of day: CivilDate) -> CivilDateTime {
        CivilDateTime(date: day, time: dayStart)
    }

    /// The instant `day` begins in `zone`; a day start inside a DST gap moves forward like any wall time.
    public func start(of day: CivilDate, in zone: Zone) -> Instant {
        zone.instant(for: start(of: day))
    }

    /// The first day of the week that contains `date`.
    public func startOfWeek(containing date: CivilDate) -> CivilDate {
        // R-DAY-5: weeks run from the week-start setting, Monday unless the account says Sunday.
        date.adding(days: -weekStart.days(until: date.weekday))
    }

    /// The last day of the week that contains `date`.
    public func endOfWeek(containing date: CivilDate) -> CivilDate {
        startOfWeek(containing: date).adding(days: 6)
    }
}
