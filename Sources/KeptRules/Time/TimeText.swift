// Display and ISO text for times, dates and instants, built by hand from integers.
// English only, no locale and no DateFormatter, so output is identical on every machine.

/// Text forms of the time types for display and JSON.
public enum TimeText {
    private static let monthShortNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let monthNames = ["January", "February", "March", "April", "May", "June", "July",
                                     "August", "September", "October", "November", "December"]

    /// A time of day on the given clock: "2 PM", "2:30 PM", "12 AM" or "14:00", "09:05".
    public static func time(_ time: WallTime, _ cycle: HourCycle) -> String {
        switch cycle {
        case .h24:
            return time.iso
        case .h12:
            // R-DAY-4: whole hours drop ":00"; noon and midnight are 12 PM and 12 AM like any other hour.
            let hour12 = time.hour % 12 == 0 ? 12 : time.hour % 12
            return ISOBytes.string(capacity: 8) { writer in
                writer.number(hour12)
                if time.minute != 0 {
                    writer.byte(ISOBytes.colon)
                    writer.twoDigits(time.minute)
                }
                writer.text(time.hour < 12 ? " AM" : " PM")
            }
        }
    }

    /// A date with its weekday, no year: "Sat Feb 28".
    public static func shortDate(_ date: CivilDate) -> String {
        date.weekday.shortName + " " + monthShort(date.month) + " " + dayText(date.day)
    }

    /// A date with its weekday and year: "Sat Feb 28, 2026".
    public static func longDate(_ date: CivilDate) -> String {
        shortDate(date) + ", " + ISOBytes.string(capacity: 4) { $0.fourDigits(date.year) }
    }

    /// A date and time for display: "Sat Feb 28 2 PM" or "Sat Feb 28 14:00".
    public static func shortDateTime(_ dateTime: CivilDateTime, _ cycle: HourCycle) -> String {
        shortDate(dateTime.date) + " " + time(dateTime.time, cycle)
    }

    /// The three-letter month name, "Feb"; empty for a month outside 1...12.
    public static func monthShort(_ month: Int) -> String {
        (1...12).contains(month) ? monthShortNames[month - 1] : ""
    }

    /// The full month name, "February"; empty for a month outside 1...12.
    public static func monthName(_ month: Int) -> String {
        (1...12).contains(month) ? monthNames[month - 1] : ""
    }

    /// An instant as ISO 8601 in `zone`, always with a numeric offset: "2026-06-15T09:00:00+02:00".
    public static func isoInstant(_ instant: Instant, in zone: Zone) -> String {
        isoString(seconds: instant.clampedSeconds, offset: zone.offset(at: instant))
    }

    /// Parses an ISO 8601 instant with a zone designator: "2026-06-15T09:00:00Z", "…+02:00", "…-05:00".
    ///
    /// Seconds and a fraction of a second (dropped) are optional; the offset may be `Z`, `±HH:MM`,
    /// `±HHMM`, `±HH` or `±HH:MM:SS`; 'T', 't' or a space separates date and time.
    /// A time without an offset is not an instant and gives nil.
    public static func parseISOInstant(_ text: String) -> Instant? {
        parseISOInstant(text.utf8)
    }

    /// Parses an ISO 8601 instant from UTF-8 bytes, as `parseISOInstant(_: String)`.
    public static func parseISOInstant(_ bytes: some Collection<UInt8>) -> Instant? {
        // Contiguous bytes take the pointer path; anything else is walked by index.
        if let parsed = bytes.withContiguousStorageIfAvailable({ utcInstant($0) ?? parseInstant($0) }) { return parsed }
        return parseInstant(bytes)
    }

    /// The form a store holds, "YYYY-MM-DDTHH:MM:SSZ", read at its fixed places (every task's
    /// creation and change time is one, at each load). Nil for anything else, and for a value
    /// this form cannot say is valid: the general reader decides those.
    package static func utcInstant(_ p: UnsafeBufferPointer<UInt8>) -> Instant? {
        guard p.count == 20, p[4] == ISOBytes.dash, p[7] == ISOBytes.dash, p[10] == ISOBytes.upperT,
              p[13] == ISOBytes.colon, p[16] == ISOBytes.colon, p[19] == ISOBytes.upperZ else { return nil }
        var bad = false
        func two(_ i: Int) -> Int {
            let a = p[i] &- 0x30, b = p[i + 1] &- 0x30
            if a > 9 || b > 9 { bad = true }
            return Int(a) * 10 + Int(b)
        }
        let year = two(0) * 100 + two(2), month = two(5), day = two(8)
        let hour = two(11), minute = two(14), second = two(17)
        guard !bad, year >= 1, month >= 1, month <= 12, day >= 1, day <= CalendarMath.daysInMonth(year: year, month: month),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        let days = CalendarMath.dayNumber(year: year, month: month, day: day)
        return Instant(seconds: Int64(days * CalendarMath.secondsPerDay + hour * 3_600 + minute * 60 + second))
    }

    private static func parseInstant(_ bytes: some Collection<UInt8>) -> Instant? {
        var reader = ISOByteReader(bytes)
        guard let date = CivilDate.read(from: &reader),
              reader.skip(ISOBytes.upperT) || reader.skip(ISOBytes.lowerT) || reader.skip(ISOBytes.space),
              let hour = reader.digits(exactly: 2), hour <= 23,
              reader.skip(ISOBytes.colon),
              let minute = reader.digits(exactly: 2), minute <= 59
        else { return nil }

        var second = 0
        if reader.skip(ISOBytes.colon) {
            // Leap second 60 is refused: nothing downstream can represent it.
            guard let value = reader.digits(exactly: 2), value <= 59 else { return nil }
            second = value
            if reader.skip(ISOBytes.dot) {
                guard reader.digits(minCount: 1, maxCount: 9) != nil else { return nil }
            }
        }

        guard let offset = readOffset(from: &reader), reader.isAtEnd else { return nil }
        let local = date.dayNumber * CalendarMath.secondsPerDay + hour * 3_600 + minute * 60 + second
        return Instant(seconds: Int64(local - offset))
    }

    /// Reads a zone designator and returns seconds east of UTC.
    private static func readOffset<Bytes>(from reader: inout ISOByteReader<Bytes>) -> Int? {
        if reader.skip(ISOBytes.upperZ) || reader.skip(ISOBytes.lowerZ) { return 0 }
        let sign: Int
        if reader.skip(ISOBytes.plus) {
            sign = 1
        } else if reader.skip(ISOBytes.dash) {
            sign = -1
        } else {
            return nil
        }
        guard let hours = reader.digits(exactly: 2), hours <= 23 else { return nil }
        var minutes = 0
        var seconds = 0
        if reader.isAtEnd { return sign * hours * 3_600 }
        let colon = reader.skip(ISOBytes.colon)
        guard let m = reader.digits(exactly: 2), m <= 59 else { return nil }
        minutes = m
        // Seconds in an offset only in the extended form: old local mean times print that way.
        if colon, reader.skip(ISOBytes.colon) {
            guard let s = reader.digits(exactly: 2), s <= 59 else { return nil }
            seconds = s
        }
        return sign * (hours * 3_600 + minutes * 60 + seconds)
    }

    /// "YYYY-MM-DDTHH:MM:SS±HH:MM" for a UTC second and an offset; the offset gets ":SS" only if it has seconds.
    package static func isoString(seconds: Int, offset: Int) -> String {
        let local = seconds + offset
        let dayNumber = CalendarMath.floorDivide(local, CalendarMath.secondsPerDay)
        let secondOfDay = local - dayNumber * CalendarMath.secondsPerDay
        let date = CivilDate(dayNumber: dayNumber)
        let magnitude = offset.magnitude
        return ISOBytes.string(capacity: 28) { writer in
            date.write(to: &writer)
            writer.byte(ISOBytes.upperT)
            writer.twoDigits(secondOfDay / 3_600)
            writer.byte(ISOBytes.colon)
            writer.twoDigits(secondOfDay / 60 % 60)
            writer.byte(ISOBytes.colon)
            writer.twoDigits(secondOfDay % 60)
            // Always a numeric offset, "+00:00" for UTC, never "Z": one shape for every zone.
            writer.byte(offset < 0 ? ISOBytes.dash : ISOBytes.plus)
            writer.twoDigits(Int(magnitude / 3_600))
            writer.byte(ISOBytes.colon)
            writer.twoDigits(Int(magnitude / 60 % 60))
            if magnitude % 60 != 0 {
                writer.byte(ISOBytes.colon)
                writer.twoDigits(Int(magnitude % 60))
            }
        }
    }

    /// A day of the month without padding: "1", "28".
    private static func dayText(_ day: Int) -> String {
        ISOBytes.string(capacity: 2) { $0.number(day) }
    }
}
