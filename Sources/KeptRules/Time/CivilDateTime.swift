// A date with a wall-clock time and no zone: a timed due date before a Zone pins it to an instant.
// Arithmetic is on the calendar and clock fields (R-DAY-3); a Zone decides what instant it means.

/// A civil date with a wall-clock time, minute precision, in no particular zone.
public struct CivilDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The calendar date.
    public var date: CivilDate
    /// The time of day.
    public var time: WallTime

    /// A date-time from its parts.
    public init(date: CivilDate, time: WallTime) {
        self.date = date
        self.time = time
    }

    /// A date-time from its fields; nil if the date or the time is impossible.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int) {
        guard let date = CivilDate(year: year, month: month, day: day),
              let time = WallTime(hour: hour, minute: minute)
        else { return nil }
        self.init(date: date, time: time)
    }

    /// The same wall time `days` days later (clamped like `CivilDate.adding(days:)`).
    public func adding(days: Int) -> CivilDateTime {
        CivilDateTime(date: date.adding(days: days), time: time)
    }

    /// The same wall time `months` months later, the day clamped to the month's end.
    public func adding(months: Int) -> CivilDateTime {
        CivilDateTime(date: date.adding(months: months), time: time)
    }

    /// The wall clock moved by `minutes`, carrying into the date; a DST change does not alter the result.
    public func adding(minutes: Int) -> CivilDateTime {
        let (newTime, dayOffset) = time.adding(minutes: minutes)
        return CivilDateTime(date: date.adding(days: dayOffset), time: newTime)
    }

    /// Minutes from this wall time to `other` as the calendar counts them (every day 1440 minutes).
    public func minutes(until other: CivilDateTime) -> Int {
        date.days(until: other.date) * WallTime.minutesPerDay + other.time.minuteOfDay - time.minuteOfDay
    }

    /// Seconds since 1970-01-01T00:00 if this wall time were UTC; the zone math starts from here.
    package var secondsAsUTC: Int {
        date.dayNumber * CalendarMath.secondsPerDay + time.minuteOfDay * 60
    }

    /// Parses "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM" (the language allows both) from UTF-8 bytes.
    public static func parseISO(_ bytes: some Collection<UInt8>) -> CivilDateTime? {
        // Contiguous bytes take the pointer path; anything else is walked by index.
        if let parsed = bytes.withContiguousStorageIfAvailable({ parseWhole($0) }) { return parsed }
        return parseWhole(bytes)
    }

    private static func parseWhole(_ bytes: some Collection<UInt8>) -> CivilDateTime? {
        var reader = ISOByteReader(bytes)
        guard let date = CivilDate.read(from: &reader),
              reader.skip(ISOBytes.upperT) || reader.skip(ISOBytes.space),
              let time = WallTime.read(from: &reader, allowShortHour: false),
              reader.isAtEnd
        else { return nil }
        return CivilDateTime(date: date, time: time)
    }

    /// Parses "YYYY-MM-DDTHH:MM" or "YYYY-MM-DD HH:MM".
    public init?(iso: String) {
        guard let value = CivilDateTime.parseISO(iso.utf8) else { return nil }
        self = value
    }

    /// The ISO form, "2026-06-15T09:00".
    public var iso: String {
        ISOBytes.string(capacity: 16) { writer in
            date.write(to: &writer)
            writer.byte(ISOBytes.upperT)
            time.write(to: &writer)
        }
    }

    /// The ISO form, as `iso`.
    public var description: String { iso }

    /// Orders by date, then time.
    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        lhs.date != rhs.date ? lhs.date < rhs.date : lhs.time < rhs.time
    }
}
