// The clock a filter is bound and evaluated against: now as an instant, today as an account day,
// the zone and the day start. A date-only due is a whole account day, so a task due today
// without a time is not overdue until the day ends; a timed due, a reminder and a creation time
// are instants, compared with now and with the instants window days start at (the zone's DST
// rules: a skipped time moved forward, a repeated one the first); a finished task is never
// overdue (R-VIEW-3).

/// What a filter is evaluated against: now, today, the zone and the day start.
public struct FilterContext: Sendable {
    /// The account's today, as a day number.
    public var today: Int
    /// Now as a wall-clock reading in civil minutes (day number × 1440 + minute of day).
    public var nowMinute: Int
    /// The day start in minutes; a timed due belongs to the account day it falls in (R-DAY-2).
    public var dayStart: Int
    public var now: Instant
    public var zone: Zone
    package var todayStartSeconds: Int64 = 0

    public init(_ ctx: DateContext, now: Instant) {
        self.today = ctx.today.dayNumber
        self.nowMinute = ctx.now.date.dayNumber * 1440 + ctx.now.time.minuteOfDay
        self.dayStart = ctx.settings.day.dayStart.minuteOfDay
        self.now = now
        self.zone = ctx.zone
        self.todayStartSeconds = start(ofDay: today).seconds
    }

    /// The instant the account day began.
    public var todayStart: Instant {
        get { Instant(seconds: todayStartSeconds) }
        set { todayStartSeconds = newValue.seconds }
    }

    /// The instant account day `d` begins: its date at the day start, in the zone (R-DAY-2).
    public func start(ofDay d: Int) -> Instant {
        let day = min(max(d, CivilDate.earliest.dayNumber), CivilDate.latest.dayNumber + 1)
        return zone.instant(for: CivilDateTime(date: CivilDate(dayNumber: day), time: WallTime(unchecked: dayStart)))
    }

    /// The wall-clock minutes whose instant is before the start of day `d`; every minute for no
    /// end (`Int.max`), none for no start (`Int.min`).
    public func minutes(beforeDay d: Int) -> MinuteSet {
        if d == Int.min { return .empty }
        if d == Int.max { return .all }
        return zone.minutes(before: start(ofDay: d))
    }

    /// The wall-clock minutes of timed dues in a window of days.
    public func minutes(in w: DayWindow) -> MinuteSet {
        minutes(beforeDay: w.end).subtracting(minutes(beforeDay: w.start))
    }

    /// The wall-clock minutes of timed dues that have passed: their instant is before now.
    public var passedMinutes: MinuteSet { zone.minutes(before: now) }

    /// The instant of a timed due (or a reminder) in the zone.
    @inline(__always)
    public func instant(_ date: CivilDate, _ time: WallTime) -> Instant {
        zone.instant(for: CivilDateTime(date: date, time: time))
    }

    /// The account day a due belongs to: a date-only due's date; a timed due's day by its
    /// instant, between the instants days start at.
    public func day(of due: Due) -> Int {
        guard let t = due.time else { return due.date.dayNumber }
        let i = instant(due.date, t)
        let m = due.date.dayNumber * 1440 + t.minuteOfDay - dayStart
        var d = m >= 0 ? m / 1440 : (m - 1439) / 1440
        if i < start(ofDay: d) { d -= 1 } else if i >= start(ofDay: d + 1) { d += 1 }
        return d
    }

    /// Whether a due has passed now: a timed one once its instant has, a date-only one once its
    /// day has ended.
    public func hasPassed(_ due: Due) -> Bool {
        guard let t = due.time else { return due.date.dayNumber < today }
        return instant(due.date, t) < now
    }

    /// Whether a task is overdue (R-VIEW-3): open, and past its due. CompiledFilter reads the
    /// same rule from its columns.
    public func isOverdue(_ t: Task) -> Bool {
        guard t.isOpen, let d = t.due else { return false }
        return hasPassed(d)
    }
}

/// Area names compare without case or spacing (R-FIL-6).
public enum AreaName {
    public static func key(_ s: String) -> String {
        s.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }
}
