// RFC 5545 RRULE out. An exported rule gives the same dates in a strict engine: Kept's month-end
// clamp (R-REP-4) becomes BYMONTHDAY=28,…,d;BYSETPOS=-1 where that says it (one day, one time of
// day), and RFC 7529's RSCALE=GREGORIAN;SKIP=BACKWARD where a BYSETPOS cannot (several days, or
// several times a day); a rule's implicit day, weekday and month come from the anchor; a date
// UNTIL of a timed rule becomes the end of that day as a UTC instant. A rule RRULE cannot say
// (`after completion`) is refused, not exported as another.

/// Why a rule cannot be written as an RRULE, or an RRULE (or a repeat's iCalendar lines) not
/// read. The catalog words each case and gives it its code (Catalog+Rules).
public enum RRULEError: Error, Sendable, Equatable {
    // Not an RRULE Kept reads.
    /// A part without its `=` (`'FREQ' is not NAME=VALUE`).
    case notNameValue(String)
    /// FREQ missing, or not a frequency.
    case badFrequency
    /// A part Kept's rules do not have.
    case unknownPart(String)
    /// A line of a repeat's iCalendar text that is not one of its properties.
    case notARepeatProperty(String)
    /// A repeat's iCalendar text without its RRULE line.
    case noRRULELine
    /// A repeat's iCalendar text without its DTSTART line.
    case noDTSTARTLine
    /// Text that does not start with an RRULE.
    case notAnRRULE
    /// Words after a whole RRULE.
    case wordsAfterRRULE

    // Rules no RRULE says.
    /// `after completion`.
    case afterCompletion
    /// A stored repeat whose rule did not read.
    case unreadableRepeat

    // A part with a value that is not allowed.
    case partTwice(String)
    /// An item of a comma list outside its range (`zero` when 0 is allowed).
    case itemOutOfRange(part: String, value: String, item: String, range: ClosedRange<Int>, zero: Bool)
    case badInterval
    /// An INTERVAL RFC 5545 allows past Kept's limit (docs/LIMITS.md): the limit's code.
    case intervalPastLimit(String)
    case skipWithoutRSCALE
    case badSkip
    case badWeekStart(String)
    case badCount
    /// A BYDAY item that is not a weekday with an optional ordinal.
    case badWeekday(value: String, item: String)
    /// An ordinal weekday past five a month, or 53 a year (`inMonth`).
    case tooManyOfAWeekday(String, inMonth: Bool)
    case badUntil(String)
    /// A repeat's iCalendar line that is not NAME:VALUE.
    case notNameColonValue(String)
    /// A DTSTART, EXDATE or RDATE value that is not a date or a date-time.
    case badDateValue(property: String, item: String)

    // A part the rule's frequency does not allow.
    case weekNumberNotYearly
    case yearDayNotAllowed
    case monthDayInWeekly
    case setPositionAlone
    case countAndUntil
    case numberedWeekday(String)
    case numberedWeekdayWithWeekNumber(String)

    /// A date UNTIL of a rule with times of day.
    case dateUntilOfTimedRule(String)
    /// No month the rule allows has the day it asks for.
    case noDates

    // What Kept does not have.
    case secondly
    /// RSCALE other than GREGORIAN.
    case calendar(String)
    case skipForward
    case bySecond(String)

    /// A well-formed rule Kept cannot hold (no dates, or a part Kept does not have): an import
    /// keeps it as the record's text rather than refuse the file.
    public var keptCannotHold: Bool {
        switch self {
        case .noDates, .secondly, .calendar, .skipForward, .bySecond, .intervalPastLimit: return true
        default: return false
        }
    }
}

extension RepeatRule {
    package static let codes: [Weekday: String] = [.monday: "MO", .tuesday: "TU", .wednesday: "WE", .thursday: "TH",
                                           .friday: "FR", .saturday: "SA", .sunday: "SU"]

    /// The shortest month among a rule's months (28 for February: a common year's).
    package static func shortest(_ months: UInt16) -> Int {
        let ms = months == 0 ? Array(1...12) : bits(months)
        return ms.map { $0 == 2 ? 28 : DatePhrase.maxDay($0) }.min() ?? 28
    }

    /// Whether the week start changes the rule's dates (so that WKST is written).
    package var weekStartMatters: Bool {
        (frequency == .weekly && (interval > 1 || !setPositions.isEmpty)) || weekNoMask | weekNoFromEndMask != 0
    }

    /// The RRULE for this rule, anchored at `anchor` (its implicit day, weekday and month).
    /// `weekStart` is the account's, for a rule without its own; `zone` turns a date UNTIL of a
    /// timed rule into an instant (floating when nil); `dueTime` is DTSTART's time when the rule
    /// has none of its own, so that UNTIL is a date-time too.
    public func rrule(anchor: CivilDate, weekStart: Weekday = .monday, zone: Zone? = nil, dueTime: WallTime? = nil) -> Result<String, RRULEError> {
        guard !afterCompletion else {
            return .failure(.afterCompletion)
        }
        var r = self
        // What the anchor implies, written out.
        if r.monthFromAnchor { r.month = anchor.month }
        if !r.hasDayParts {
            switch r.frequency {
            case .weekly: r.weekdayMask = RepeatRule.bit(anchor.weekday)
            case .monthly: r.monthDayMask = UInt32(1) << UInt32(anchor.day)
            case .yearly:
                if r.monthMask == 0 { r.month = anchor.month }
                r.monthDayMask = UInt32(1) << UInt32(anchor.day)
            case .daily, .hourly, .minutely: break
            }
        }
        var parts = ["FREQ=" + r.frequency.rawValue.uppercased()]
        var rscale = false
        if r.interval != 1 { parts.append("INTERVAL=\(r.interval)") }
        if r.monthMask != 0 { parts.append("BYMONTH=" + RepeatRule.bits(r.monthMask).map(String.init).joined(separator: ",")) }
        if r.weekNoMask | r.weekNoFromEndMask != 0 {
            parts.append("BYWEEKNO=" + RepeatRule.list(r.weekNoMask, r.weekNoFromEndMask))
        }
        if !r.yearDays.isEmpty { parts.append("BYYEARDAY=" + r.yearDays.map(String.init).joined(separator: ",")) }
        var setPos = r.setPositions
        if r.monthDayMask | r.monthDayFromEndMask != 0 {
            let days = RepeatRule.bits(r.monthDayMask)
            let clampMatters = r.skip == .backward && (r.frequency == .monthly || r.frequency == .yearly)
                && (days.last ?? 0) > RepeatRule.shortest(r.monthMask)
            // One day, one time, one month (yearly): BYSETPOS=-1 over 28…d says the clamp.
            if clampMatters, days.count == 1, let d = days.first, r.monthDayFromEndMask == 0, !r.hasByDay,
               r.yearDays.isEmpty, r.weekNoMask | r.weekNoFromEndMask == 0, r.setPositions.isEmpty,
               r.hourMask.nonzeroBitCount <= 1, r.minuteMask.nonzeroBitCount <= 1,
               r.frequency == .monthly || r.monthMask.nonzeroBitCount == 1 {
                parts.append("BYMONTHDAY=" + (28...d).map(String.init).joined(separator: ","))
                setPos = [-1]
            } else {
                parts.append("BYMONTHDAY=" + RepeatRule.list(UInt64(r.monthDayMask), UInt64(r.monthDayFromEndMask)))
                rscale = clampMatters
            }
        }
        if r.hasByDay { parts.append("BYDAY=" + r.byDayText) }
        if !setPos.isEmpty { parts.append("BYSETPOS=" + setPos.map(String.init).joined(separator: ",")) }
        if r.hourMask != 0 { parts.append("BYHOUR=" + RepeatRule.bits(r.hourMask).map(String.init).joined(separator: ",")) }
        if r.minuteMask != 0 { parts.append("BYMINUTE=" + RepeatRule.bits(r.minuteMask).map(String.init).joined(separator: ",")) }
        let wkst = r.weekStart ?? weekStart
        if wkst != .monday, r.weekStartMatters, let c = RepeatRule.codes[wkst] { parts.append("WKST=" + c) }
        if let c = r.count { parts.append("COUNT=\(c)") }
        if let u = r.end { parts.append("UNTIL=" + r.untilText(u, zone: zone, timed: r.isTimed || dueTime != nil)) }
        // RFC 7529: SKIP says a missing day's BACKWARD or FORWARD (OMIT is RFC 5545's reading).
        if r.skipCrossesPeriods { rscale = true }
        if rscale { return .success("RSCALE=GREGORIAN;" + parts.joined(separator: ";") + ";SKIP=" + r.skip.rawValue.uppercased()) }
        return .success(parts.joined(separator: ";"))
    }

    package var hasByDay: Bool { weekdayMask != 0 || !nthWeekdays.isEmpty }

    /// BYDAY's value: plain weekdays Monday first, then the ordinals.
    package var byDayText: String {
        let plain = RepeatRule.weekdays(of: weekdayMask).compactMap { RepeatRule.codes[$0] }
        let nth = nthWeekdays.sorted().map { "\($0.n)\(RepeatRule.codes[$0.weekday] ?? "")" }
        return (plain + nth).joined(separator: ",")
    }

    /// Values from two masks: bit k of `pos` is k, bit k of `neg` is -k.
    package static func list(_ pos: UInt64, _ neg: UInt64) -> String {
        (bits(pos).map(String.init) + bits(neg).reversed().map { "-\($0)" }).joined(separator: ",")
    }

    /// UNTIL's value. A date UNTIL of a timed rule is the last second of that day: an instant
    /// in `zone`, or a floating time without one.
    package func untilText(_ u: Until, zone: Zone?, timed: Bool) -> String {
        func stamp(_ t: CivilDateTime, _ second: Int, utc: Bool) -> String {
            let d = t.date
            return pad(d.year, 4) + pad(d.month, 2) + pad(d.day, 2) + "T" + pad(t.time.hour, 2) + pad(t.time.minute, 2) + pad(second, 2) + (utc ? "Z" : "")
        }
        switch u {
        case .date(let d):
            guard timed else { return pad(d.year, 4) + pad(d.month, 2) + pad(d.day, 2) }
            guard let zone else { return stamp(CivilDateTime(date: d, time: WallTime(unchecked: 1439)), 59, utc: false) }
            let next = zone.instant(for: CivilDateTime(date: d.adding(days: 1), time: .midnight)).adding(seconds: -1)
            let (day, second) = Zone.utc.localParts(at: next)
            return stamp(CivilDateTime(date: CivilDate(dayNumber: day), time: WallTime(unchecked: second / 60)), second % 60, utc: true)
        case .local(let t, let s):
            return stamp(t, s, utc: false)
        case .utc(let t, let s):
            return stamp(t, s, utc: true)
        }
    }

    package func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
