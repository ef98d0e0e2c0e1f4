// A time of day on the wall clock, to the minute, with no date and no zone.
// A 9:00 task stays at 9:00 across DST changes because this is what it stores (R-DAY-3).

/// A wall-clock time of day, 00:00...23:59, minute precision.
public struct WallTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Minutes since midnight, 0..<1440, in two bytes (a task holds two times).
    private let value: UInt16
    /// Minutes since midnight, 0..<1440.
    public var minuteOfDay: Int { Int(value) }

    /// Minutes in a day.
    public static let minutesPerDay = 1_440

    /// 00:00.
    public static let midnight = WallTime(unchecked: 0)
    /// 12:00.
    public static let noon = WallTime(unchecked: 720)

    /// A time from hour 0...23 and minute 0...59; nil otherwise (24:00 is not a time of day).
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.init(unchecked: hour * 60 + minute)
    }

    /// A time from minutes since midnight, 0..<1440; nil otherwise.
    public init?(minuteOfDay: Int) {
        guard (0..<WallTime.minutesPerDay).contains(minuteOfDay) else { return nil }
        self.init(unchecked: minuteOfDay)
    }

    /// For a minute already known to be in 0..<1440.
    package init(unchecked minuteOfDay: Int) {
        value = UInt16(clamping: minuteOfDay)
    }

    /// The hour, 0...23.
    public var hour: Int { minuteOfDay / 60 }

    /// The minute, 0...59.
    public var minute: Int { minuteOfDay % 60 }

    /// The time `minutes` later on a 24-hour dial, with how many midnights were crossed (negative going back).
    public func adding(minutes: Int) -> (time: WallTime, dayOffset: Int) {
        // Reduce first so that huge inputs cannot overflow the sum.
        let days = minutes / WallTime.minutesPerDay
        let total = minuteOfDay + minutes % WallTime.minutesPerDay
        let carry = CalendarMath.floorDivide(total, WallTime.minutesPerDay)
        return (WallTime(unchecked: total - carry * WallTime.minutesPerDay), days + carry)
    }

    /// Parses "HH:MM" or "H:MM" (24-hour) from UTF-8 bytes; nil for anything else.
    public static func parseISO(_ bytes: some Collection<UInt8>) -> WallTime? {
        // Contiguous bytes take the pointer path; anything else is walked by index.
        if let parsed = bytes.withContiguousStorageIfAvailable({ parseWhole($0) }) { return parsed }
        return parseWhole(bytes)
    }

    private static func parseWhole(_ bytes: some Collection<UInt8>) -> WallTime? {
        var reader = ISOByteReader(bytes)
        guard let time = read(from: &reader, allowShortHour: true), reader.isAtEnd else { return nil }
        return time
    }

    /// Parses "HH:MM" or "H:MM".
    public init?(iso: String) {
        guard let time = WallTime.parseISO(iso.utf8) else { return nil }
        self = time
    }

    /// Reads "HH:MM" (or "H:MM" when allowed) at the reader's position.
    package static func read<Bytes>(from reader: inout ISOByteReader<Bytes>, allowShortHour: Bool) -> WallTime? {
        let hour: Int
        if allowShortHour {
            guard let read = reader.digits(minCount: 1, maxCount: 2) else { return nil }
            hour = read.value
        } else {
            guard let value = reader.digits(exactly: 2) else { return nil }
            hour = value
        }
        guard reader.skip(ISOBytes.colon), let minute = reader.digits(exactly: 2) else { return nil }
        return WallTime(hour: hour, minute: minute)
    }

    /// The ISO form, "09:05".
    public var iso: String {
        ISOBytes.string(capacity: 5) { write(to: &$0) }
    }

    /// The ISO form, as `iso`.
    public var description: String { iso }

    /// Appends "HH:MM".
    package func write(to writer: inout ISOByteWriter) {
        writer.twoDigits(hour)
        writer.byte(ISOBytes.colon)
        writer.twoDigits(minute)
    }

    /// Orders by minute of the day.
    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        lhs.minuteOfDay < rhs.minuteOfDay
    }
}
