// A calendar date with no time and no zone: what an all-day due date is (R-DAY-3).
// Proleptic Gregorian, years 1...9999; all arithmetic is on calendar fields and day numbers, never seconds.

/// A proleptic Gregorian calendar date in years 1...9999.
///
/// Every value is a real date. Arithmetic that would leave 0001-01-01...9999-12-31
/// saturates at the nearer end instead of trapping, so input can never crash it.
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The fields in one word, `year << 9 | month << 5 | day`: a date is four bytes (a task holds
    /// several, and a store or an import holds many tasks), and the order of dates is the order
    /// of the words.
    private let packed: UInt32

    /// The year, 1...9999.
    public var year: Int { Int(packed >> 9) }
    /// The month, 1...12.
    public var month: Int { Int((packed >> 5) & 0xF) }
    /// The day of the month, 1...28/29/30/31.
    public var day: Int { Int(packed & 0x1F) }

    /// The range of years accepted; four digits keep ISO text fixed-width.
    public static let yearRange: ClosedRange<Int> = 1...9999

    /// The earliest representable date, 0001-01-01.
    public static let earliest = CivilDate(unchecked: 1, 1, 1)
    /// The latest representable date, 9999-12-31.
    public static let latest = CivilDate(unchecked: 9999, 12, 31)

    private static let earliestDayNumber = CalendarMath.dayNumber(year: 1, month: 1, day: 1)
    private static let latestDayNumber = CalendarMath.dayNumber(year: 9999, month: 12, day: 31)

    /// A date from its fields, or nil when it does not exist (Feb 30, month 13, year 0).
    public init?(year: Int, month: Int, day: Int) {
        guard CivilDate.yearRange.contains(year), (1...12).contains(month), day >= 1,
              day <= CalendarMath.daysInMonth(year: year, month: month)
        else { return nil }
        self.init(unchecked: year, month, day)
    }

    /// The date `dayNumber` days after 1970-01-01 (negative is before), clamped to 0001-01-01...9999-12-31.
    public init(dayNumber: Int) {
        let clamped = min(max(dayNumber, CivilDate.earliestDayNumber), CivilDate.latestDayNumber)
        let (y, m, d) = CalendarMath.civil(dayNumber: clamped)
        self.init(unchecked: y, m, d)
    }

    /// For fields already known to form a valid date.
    private init(unchecked year: Int, _ month: Int, _ day: Int) {
        packed = UInt32(truncatingIfNeeded: year) << 9 | UInt32(truncatingIfNeeded: month) << 5 | UInt32(truncatingIfNeeded: day)
    }

    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int {
        CalendarMath.dayNumber(year: year, month: month, day: day)
    }

    /// The day of the week.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday, index 3 counting Monday as 0.
        Weekday.fromIndex(CalendarMath.floorModulo(dayNumber + 3, 7))
    }

    /// The day of the year, 1...366.
    public var dayOfYear: Int {
        dayNumber - CalendarMath.dayNumber(year: year, month: 1, day: 1) + 1
    }

    /// The first day of this date's month.
    public var firstOfMonth: CivilDate { CivilDate(unchecked: year, month, 1) }

    /// The last day of this date's month.
    public var lastOfMonth: CivilDate {
        CivilDate(unchecked: year, month, CalendarMath.daysInMonth(year: year, month: month))
    }

    /// January 1 of this date's year.
    public var firstOfYear: CivilDate { CivilDate(unchecked: year, 1, 1) }

    /// December 31 of this date's year.
    public var lastOfYear: CivilDate { CivilDate(unchecked: year, 12, 31) }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        let (sum, overflow) = dayNumber.addingReportingOverflow(days)
        if overflow { return days > 0 ? .latest : .earliest }
        return CivilDate(dayNumber: sum)
    }

    /// The same day `months` months later, clamped to the month's end: Jan 31 + 1 month = Feb 28/29.
    public func adding(months: Int) -> CivilDate {
        let (total, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(months)
        if overflow { return months > 0 ? .latest : .earliest }
        let newYear = CalendarMath.floorDivide(total, 12)
        if newYear < CivilDate.yearRange.lowerBound { return .earliest }
        if newYear > CivilDate.yearRange.upperBound { return .latest }
        let newMonth = total - newYear * 12 + 1
        // Clamp to the month's end rather than spill into the next month: Jan 31 + 1 month is Feb 28/29.
        let newDay = min(day, CalendarMath.daysInMonth(year: newYear, month: newMonth))
        return CivilDate(unchecked: newYear, newMonth, newDay)
    }

    /// The same day `years` years later; Feb 29 in a year without one becomes Feb 28.
    public func adding(years: Int) -> CivilDate {
        let (months, overflow) = years.multipliedReportingOverflow(by: 12)
        if overflow { return years > 0 ? .latest : .earliest }
        return adding(months: months)
    }

    /// The date `days` days later, or nil when it would leave 0001-01-01...9999-12-31: for
    /// dates a user asks for, which are refused past the calendar rather than clamped.
    public func addingChecked(days: Int) -> CivilDate? {
        let (sum, overflow) = dayNumber.addingReportingOverflow(days)
        guard !overflow, sum >= CivilDate.earliestDayNumber, sum <= CivilDate.latestDayNumber else { return nil }
        return CivilDate(dayNumber: sum)
    }

    /// The same day `months` months later, clamped to the month's end, or nil past the calendar.
    public func addingChecked(months: Int) -> CivilDate? {
        let (total, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(months)
        guard !overflow else { return nil }
        let newYear = CalendarMath.floorDivide(total, 12)
        guard CivilDate.yearRange.contains(newYear) else { return nil }
        return adding(months: months)
    }

    /// The same day `years` years later (Feb 29 becomes Feb 28), or nil past the calendar.
    public func addingChecked(years: Int) -> CivilDate? {
        let (months, overflow) = years.multipliedReportingOverflow(by: 12)
        guard !overflow else { return nil }
        return addingChecked(months: months)
    }

    /// Days from this date to `other`: positive when `other` is later.
    public func days(until other: CivilDate) -> Int {
        other.dayNumber - dayNumber
    }

    /// Whether `year` has a Feb 29.
    public static func isLeapYear(_ year: Int) -> Bool {
        CalendarMath.isLeapYear(year)
    }

    /// The number of days in a month, or 0 when `month` is not in 1...12.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        CalendarMath.daysInMonth(year: year, month: month)
    }

    /// Parses exactly "YYYY-MM-DD" from UTF-8 bytes; nil for anything else or an impossible date.
    public static func parseISO(_ bytes: some Collection<UInt8>) -> CivilDate? {
        // Contiguous bytes (native strings, arrays) take the pointer path; anything else is walked by index.
        if let parsed = bytes.withContiguousStorageIfAvailable({ parseWhole($0) }) { return parsed }
        return parseWhole(bytes)
    }

    private static func parseWhole(_ bytes: some Collection<UInt8>) -> CivilDate? {
        var reader = ISOByteReader(bytes)
        guard let date = read(from: &reader), reader.isAtEnd else { return nil }
        return date
    }

    /// Parses exactly "YYYY-MM-DD".
    public init?(iso: String) {
        guard let date = CivilDate.parseISO(iso.utf8) else { return nil }
        self = date
    }

    /// Reads "YYYY-MM-DD" at the reader's position, for this and the date-time parsers.
    package static func read<Bytes>(from reader: inout ISOByteReader<Bytes>) -> CivilDate? {
        guard let y = reader.digits(exactly: 4), reader.skip(ISOBytes.dash),
              let m = reader.digits(exactly: 2), reader.skip(ISOBytes.dash),
              let d = reader.digits(exactly: 2)
        else { return nil }
        return CivilDate(year: y, month: m, day: d)
    }

    /// The ISO form, "2026-06-15".
    public var iso: String {
        ISOBytes.string(capacity: 10) { write(to: &$0) }
    }

    /// The ISO form, as `iso`.
    public var description: String { iso }

    /// Appends "YYYY-MM-DD".
    package func write(to writer: inout ISOByteWriter) {
        writer.fourDigits(year)
        writer.byte(ISOBytes.dash)
        writer.twoDigits(month)
        writer.byte(ISOBytes.dash)
        writer.twoDigits(day)
    }

    /// Orders by year, then month, then day.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        lhs.packed < rhs.packed
    }
}
