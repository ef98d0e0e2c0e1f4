// RFC 5545 RRULE in (section 3.3.10), with RFC 7529's RSCALE=GREGORIAN and SKIP. Every part is
// read with its RFC meaning, and a rule the RFC forbids is refused with its reason rather than
// guessed at: a malformed value, a part its FREQ does not allow, an UNTIL that does not fit the
// rule, a rule without any date, a part Kept does not have (SECONDLY, BYSECOND, other
// calendars, SKIP=FORWARD). The month-end form Kept
// exports (BYMONTHDAY=28,…,d;BYSETPOS=-1) reads back as Kept's clamped day; a plain day that a
// month lacks, or the anchor's day, is skipped in those months, as a strict engine does.

extension RepeatRule {
    /// Reads an RRULE (`FREQ=MONTHLY;BYDAY=-1FR`), with or without an `RRULE:` prefix. WKST is
    /// kept when given; without it the rule's week start is nil, which a caller that keeps the
    /// rule makes Monday (RFC 5545's default).
    public static func fromRRULE(_ text: String) -> Result<RepeatRule, RRULEError> {
        var reader = RRULEReader()
        return reader.read(text)
    }
}

package struct RRULEReader {
    package typealias Failure = RRULEError

    package static let weekdayCodes: [String: Weekday] = ["MO": .monday, "TU": .tuesday, "WE": .wednesday, "TH": .thursday,
                                                   "FR": .friday, "SA": .saturday, "SU": .sunday]

    /// Integers from a comma list, each within `range` and not 0 unless allowed.
    package func ints(_ name: String, _ value: String, _ range: ClosedRange<Int>, zero: Bool = false) throws(Failure) -> [Int] {
        var out: [Int] = []
        for item in value.split(separator: ",", omittingEmptySubsequences: false) {
            guard let v = Int(item), range.contains(v), zero || v != 0 else {
                throw .itemOutOfRange(part: name, value: value, item: String(item), range: range, zero: zero)
            }
            out.append(v)
        }
        return out
    }

    package static func mask<M: FixedWidthInteger>(_ values: [Int]) -> M {
        values.reduce(M(0)) { $0 | (M(1) << M(abs($1))) }
    }

    package mutating func read(_ text: String) -> Result<RepeatRule, Failure> {
        do throws(Failure) {
            return .success(try parse(text))
        } catch {
            return .failure(error)
        }
    }

    package func parse(_ text: String) throws(Failure) -> RepeatRule {
        var t = Substring(text)
        if t.uppercased().hasPrefix("RRULE:") { t = t.dropFirst(6) }
        var fields: [String: String] = [:]
        for part in t.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw .notNameValue(String(part)) }
            let name = kv[0].uppercased()
            guard fields[name] == nil else { throw .partTwice(name) }
            fields[name] = kv[1].uppercased()
        }
        guard let f = fields.removeValue(forKey: "FREQ") else {
            throw .badFrequency
        }
        if f == "SECONDLY" { throw .secondly }
        guard let freq = RepeatRule.Frequency(rawValue: f.lowercased()) else {
            throw .badFrequency
        }
        var r = RepeatRule(frequency: freq)
        if let i = fields.removeValue(forKey: "INTERVAL") {
            guard let n = Int(i), n >= 1 else { throw i.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) && i.count > 3 ? .intervalPastLimit(i) : .badInterval }
            guard n <= Limits.repeatInterval else { throw .intervalPastLimit(i) }
            r.interval = n
        }
        // RFC 7529: RSCALE names the calendar; SKIP says what a missing day does.
        var skip: RepeatRule.Skip? = nil
        if let rs = fields.removeValue(forKey: "RSCALE") {
            guard rs == "GREGORIAN" else { throw .calendar(rs) }
            skip = .omit
        }
        if let s = fields.removeValue(forKey: "SKIP") {
            guard skip != nil else { throw .skipWithoutRSCALE }
            switch s {
            case "OMIT": skip = .omit
            case "BACKWARD": skip = .backward
            case "FORWARD": skip = .forward
            default: throw .badSkip
            }
        }
        let monthly = freq == .monthly, yearly = freq == .yearly
        if let v = fields.removeValue(forKey: "BYMONTH") { r.monthMask = Self.mask(try ints("BYMONTH", v, 1...12)) }
        if let v = fields.removeValue(forKey: "BYWEEKNO") {
            guard yearly else { throw .weekNumberNotYearly }
            let ws = try ints("BYWEEKNO", v, -53...53)
            r.weekNoMask = Self.mask(ws.filter { $0 > 0 })
            r.weekNoFromEndMask = Self.mask(ws.filter { $0 < 0 })
        }
        if let v = fields.removeValue(forKey: "BYYEARDAY") {
            guard ![.daily, .weekly, .monthly].contains(freq) else {
                throw .yearDayNotAllowed
            }
            r.yearDays = Array(Set(try ints("BYYEARDAY", v, -366...366))).sorted()
        }
        if let v = fields.removeValue(forKey: "BYMONTHDAY") {
            guard freq != .weekly else { throw .monthDayInWeekly }
            let ds = try ints("BYMONTHDAY", v, -31...31)
            r.monthDayMask = Self.mask(ds.filter { $0 > 0 })
            r.monthDayFromEndMask = Self.mask(ds.filter { $0 < 0 })
        }
        if let v = fields.removeValue(forKey: "BYDAY") { try readByDay(v, &r) }
        if let v = fields.removeValue(forKey: "BYHOUR") { r.hourMask = Self.mask(try ints("BYHOUR", v, 0...23, zero: true)) }
        if let v = fields.removeValue(forKey: "BYMINUTE") { r.minuteMask = Self.mask(try ints("BYMINUTE", v, 0...59, zero: true)) }
        if let v = fields.removeValue(forKey: "BYSECOND") {
            guard v == "0" else { throw .bySecond(v) }
        }
        if let v = fields.removeValue(forKey: "BYSETPOS") {
            r.setPositions = Array(Set(try ints("BYSETPOS", v, -366...366))).sorted()
            guard r.hasDayParts || r.monthMask != 0 || r.hourMask != 0 || r.minuteMask != 0 else {
                throw .setPositionAlone
            }
        }
        if let w = fields.removeValue(forKey: "WKST") {
            guard let wd = Self.weekdayCodes[w] else { throw .badWeekStart(w) }
            r.weekStart = wd
        }
        if let c = fields.removeValue(forKey: "COUNT") {
            guard let n = Int(c), n >= 1, n <= 1_000_000 else { throw .badCount }
            r.count = n
        }
        if let u = fields.removeValue(forKey: "UNTIL") {
            guard r.count == nil else { throw .countAndUntil }
            r.end = try until(u, timed: r.isTimed)
        }
        if let unknown = fields.keys.sorted().first {
            throw .unknownPart(unknown)
        }
        _ = monthly
        try normalize(&r, skip: skip)
        if r.hasNoDates { throw .noDates }
        return r
    }

    /// BYDAY: weekdays, with an ordinal in monthly (±1…5) and yearly (±1…53) rules only.
    package func readByDay(_ v: String, _ r: inout RepeatRule) throws(Failure) {
        var nth: Set<RepeatRule.NthWeekday> = []
        for item in v.split(separator: ",", omittingEmptySubsequences: false) {
            let code = String(item.suffix(2))
            guard let wd = Self.weekdayCodes[code] else { throw .badWeekday(value: v, item: String(item)) }
            let ord = item.dropLast(2)
            if ord.isEmpty {
                r.weekdayMask |= RepeatRule.bit(wd)
                continue
            }
            guard let n = Int(ord), n != 0 else { throw .badWeekday(value: v, item: String(item)) }
            guard r.frequency == .monthly || r.frequency == .yearly else {
                throw .numberedWeekday(String(item))
            }
            if r.frequency == .monthly || r.monthMask != 0 {
                guard (-5...5).contains(n) else { throw .tooManyOfAWeekday(String(item), inMonth: true) }
            } else {
                guard (-53...53).contains(n) else { throw .tooManyOfAWeekday(String(item), inMonth: false) }
            }
            guard r.weekNoMask | r.weekNoFromEndMask == 0 else {
                throw .numberedWeekdayWithWeekNumber(String(item))
            }
            nth.insert(RepeatRule.NthWeekday(n, wd))
        }
        r.nthWeekdays = nth.sorted()
    }

    /// UNTIL: YYYYMMDD for a rule without times, YYYYMMDDTHHMMSS (floating) or …Z (UTC).
    package func until(_ u: String, timed: Bool) throws(Failure) -> RepeatRule.Until {
        guard let v = ICalendarStamp(u) else {
            throw .badUntil(u)
        }
        guard let t = v.time else {
            guard !timed else {
                throw .dateUntilOfTimedRule(u)
            }
            return .date(v.date)
        }
        let wall = CivilDateTime(date: v.date, time: t)
        if v.utc { return .utc(wall, second: v.second) }
        // The last second of a day, floating, is that day (occurrences are to the minute).
        if t.minuteOfDay == WallTime.minutesPerDay - 1, v.second == 59 { return .date(v.date) }
        return .local(wall, second: v.second)
    }

    /// Kept's forms of a rule read: the clamp form back to its day, and SKIP only where a month
    /// can lack the day (so that equal rules compare equal).
    package func normalize(_ r: inout RepeatRule, skip: RepeatRule.Skip?) throws(RRULEError) {
        let days = RepeatRule.bits(r.monthDayMask)
        if r.setPositions == [-1], r.monthDayFromEndMask == 0, let last = days.last, last >= 29,
           days == Array(28...last), !r.hasByDay, r.yearDays.isEmpty, r.weekNoMask | r.weekNoFromEndMask == 0,
           r.hourMask.nonzeroBitCount <= 1, r.minuteMask.nonzeroBitCount <= 1,
           r.frequency == .monthly || (r.frequency == .yearly && r.monthMask.nonzeroBitCount == 1) {
            // BYMONTHDAY=28,…,d;BYSETPOS=-1: the dth, or the month's last day when shorter.
            let d = r.frequency == .yearly ? min(last, DatePhrase.maxDay(r.monthMask.trailingZeroBitCount)) : last
            r.monthDayMask = UInt32(1) << UInt32(d)
            r.setPositions = []
            r.skip = .backward
            return
        }
        r.skip = r.canMissDay ? (skip ?? .omit) : .backward
        // A SKIP that moves a day out of its period is walked period by period (SkipWalk),
        // which holds days of the month or year and plain weekdays, not ordinals or weeks.
        if r.skipCrossesPeriods, !r.nthWeekdays.isEmpty || r.weekNoMask | r.weekNoFromEndMask != 0 || !r.setPositions.isEmpty {
            throw .skipForward
        }
    }
}

extension RepeatRule {
    /// Whether a month (or year) of the series can lack the rule's day, so that SKIP matters:
    /// a day above the shortest month's length, or the anchor's day (which may be the 31st).
    package var canMissDay: Bool {
        guard frequency == .monthly || frequency == .yearly else { return false }
        if !hasDayParts { return true }
        let days = RepeatRule.bits(monthDayMask)
        let shortest = RepeatRule.shortest(monthFromAnchor ? 0 : monthMask)
        let fromEnd = RepeatRule.bits(monthDayFromEndMask)
        return (days.last ?? 0) > shortest || (fromEnd.last ?? 0) > shortest || yearDays.contains { abs($0) == 366 }
    }

    /// Whether the rule's SKIP moves a missing day out of its month or year (RFC 7529): any
    /// FORWARD, and BACKWARD for a day counted from the end (BYMONTHDAY=-31 in February is
    /// January's last day) or BYYEARDAY=±366 in a common year.
    public var skipCrossesPeriods: Bool {
        guard frequency == .monthly || frequency == .yearly, canMissDay else { return false }
        switch skip {
        case .omit: return false
        case .forward: return true
        case .backward:
            return RepeatRule.bits(monthDayFromEndMask).contains { $0 > RepeatRule.shortest(monthFromAnchor ? 0 : monthMask) }
                || yearDays.contains { abs($0) == 366 }
        }
    }

    /// A rule whose days no allowed month has (BYMONTH=2;BYMONTHDAY=30 skipping missing days).
    package var hasNoDates: Bool {
        guard monthDayMask != 0, monthDayFromEndMask == 0, skip == .omit || !(frequency == .monthly || frequency == .yearly),
              monthMask != 0 else { return false }
        let longest = RepeatRule.bits(monthMask).map(DatePhrase.maxDay).max() ?? 31
        return monthDayMask.trailingZeroBitCount > longest
    }
}

extension RepeatRule {
    /// Where a rule came from, for the defaults it takes on entering the engine.
    public enum Origin: Sendable {
        /// Kept's words (`every …`).
        case words
        /// An RRULE, given as one or read from an iCalendar RRULE line.
        case rrule
    }

    /// The rule as the engine keeps it: the one place the defaults a new rule takes are made.
    /// Its week start is fixed: an RRULE's WKST, Monday without one (RFC 5545's default, whatever
    /// the account's); for words the account's `week-start` as it is now, so that setting
    /// another later changes no series. An RRULE's instant UNTIL that is the last second of a
    /// day in the account's zone (as Kept exports `until DATE` of a timed rule) reads as that
    /// day. A rule that already has its week start keeps it, so admitting twice changes nothing.
    public func admitted(from origin: Origin, weekStart account: Weekday, zone: Zone) -> RepeatRule {
        var r = self
        if r.weekStart == nil { r.weekStart = origin == .rrule ? .monday : account }
        return origin == .rrule ? r.untilAsDay(in: zone) : r
    }

    /// The rule with an instant UNTIL that is the last second of a day in `zone` (as Kept
    /// exports `until DATE` of a timed rule) read as that day.
    public func untilAsDay(in zone: Zone) -> RepeatRule {
        guard case .utc(let t, let s)? = end else { return self }
        let (day, second) = zone.localParts(at: Instant(seconds: Int64(t.secondsAsUTC + s)))
        guard second == CalendarMath.secondsPerDay - 1 else { return self }
        var r = self
        r.end = .date(CivilDate(dayNumber: day))
        return r
    }
}

/// An iCalendar DATE or DATE-TIME value: `20261231`, `20261231T235959` (floating) or
/// `20261231T235959Z` (UTC).
package struct ICalendarStamp {
    package var date: CivilDate
    package var time: WallTime?
    package var second = 0
    package var utc = false

    package init?(_ s: String) {
        let b = Array(s.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for c in b[from..<(from + count)] {
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count == 8 || b.count == 15 || b.count == 16, let y = num(0, 4), let m = num(4, 2), let d = num(6, 2),
              let date = CivilDate(year: y, month: m, day: d) else { return nil }
        self.date = date
        guard b.count > 8 else { return }
        guard b[8] == UInt8(ascii: "T"), let hh = num(9, 2), let mm = num(11, 2), let ss = num(13, 2), ss <= 59,
              let t = WallTime(hour: hh, minute: mm) else { return nil }
        if b.count == 16 {
            guard b[15] == UInt8(ascii: "Z") else { return nil }
            utc = true
        }
        time = t
        second = ss
    }
}
