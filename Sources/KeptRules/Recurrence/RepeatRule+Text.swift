// A repeat in words (R-REP-9): `Every day`, `Every weekday`, `Every Thursday`, `Every 2 weeks`,
// `Every month on the 31st`, `Every month on the 1st and 15th`, `Every Friday the 13th`,
// `Every weekday at 9am and 5pm`, `Every 2 hours from 9am to 5pm`. The text is canonical:
// parsing it gives the same rule back. A rule words cannot say (BYWEEKNO, BYYEARDAY, the nth
// weekday of a year, a date-time UNTIL, …) has no words: its text is its RRULE.

extension RepeatRule {
    package static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    package static func timeWord(_ t: WallTime) -> String {
        let h = t.hour % 12 == 0 ? 12 : t.hour % 12
        let ampm = t.hour < 12 ? "am" : "pm"
        return t.minute == 0 ? "\(h)\(ampm)" : "\(h):\(t.minute < 10 ? "0" : "")\(t.minute)\(ampm)"
    }

    package static let quarterStarts: UInt16 = 0b0_0100_1001_0010
    package static let quarterEnds: UInt16 = 0b1_0010_0100_1000

    /// ` from 2026-06-15`, ` from 2024-10-23 3:40pm`, or nothing.
    var fromWords: String {
        guard let f = from else { return "" }
        return " from " + f.iso + (fromTime.map { " " + RepeatRule.timeWord($0) } ?? "")
    }

    /// The rule in words, or its RRULE when it has none (`repeat` says which).
    public func text(anchor: CivilDate?) -> String {
        if let w = words(anchor: anchor) { return w }
        return literalRRULE + fromWords
    }

    /// The rule in words; a weekly rule without days names the anchor's weekday. Nil when no
    /// words say it.
    public func words(anchor: CivilDate?) -> String? {
        // Words say a missing day's BACKWARD (Kept's) and OMIT (`skipping missing days`), not FORWARD.
        guard yearDays.isEmpty, weekNoMask | weekNoFromEndMask == 0, skip != .forward else { return nil }
        if case .local? = end { return nil }
        if case .utc? = end { return nil }
        // BYSETPOS in words is `the nth of some weekdays`, once a day.
        if !setPositions.isEmpty {
            guard frequency == .monthly || frequency == .yearly, weekdayMask != 0, nthWeekdays.isEmpty,
                  monthDayMask | monthDayFromEndMask == 0, hourMask.nonzeroBitCount * minuteMask.nonzeroBitCount <= 1 else { return nil }
        }
        var s: String
        let n = interval
        var monthsSaid = false
        switch frequency {
        case .hourly, .minutely:
            guard !hasDayParts, monthMask == 0, hourMask == 0, minuteMask == 0, setPositions.isEmpty else { return nil }
            let unit = frequency == .hourly ? "hour" : "minute"
            s = n == 1 ? "Every \(unit)" : "Every \(n) \(unit)s"
        case .daily:
            guard !hasDayParts, setPositions.isEmpty else { return nil }
            s = n == 1 ? "Every day" : "Every \(n) days"
        case .weekly:
            guard monthDayMask | monthDayFromEndMask == 0, nthWeekdays.isEmpty, setPositions.isEmpty else { return nil }
            let explicit = weekdayMask != 0
            let ds = explicit ? weekdays : (anchor.map { [$0.weekday] } ?? [])
            if n == 1, ds == RepeatRule.workdays { s = "Every weekday" }
            else if n == 1, ds == RepeatRule.weekend { s = "Every weekend" }
            else if n == 1, !ds.isEmpty { s = "Every " + RepeatRule.list(ds.map(\.name)) }
            else if n == 1 { s = "Every week" }
            else {
                s = "Every \(n) weeks"
                if explicit { s += " on " + RepeatRule.list(weekdays.map(\.name)) }
            }
        case .monthly:
            if weekdayMask != 0, nthWeekdays.isEmpty, setPositions.isEmpty, monthDayMask | monthDayFromEndMask != 0 {
                // Friday the 13th.
                guard n == 1, let days = monthDayWords() else { return nil }
                s = "Every " + RepeatRule.list(weekdays.map(\.name)) + " the " + days
            } else {
                guard let day = dayWords() else { return nil }
                let quarter = n == 1 && day != nil && isQuarter
                s = quarter ? "Every quarter" : (n == 1 ? "Every month" : "Every \(n) months")
                if let day { s += " on " + day }
                monthsSaid = quarter
            }
        case .yearly:
            let months = monthFromAnchor ? (anchor.map { UInt16(1) << UInt16($0.month) } ?? 0) : monthMask
            s = n == 1 ? "Every year" : "Every \(n) years"
            monthsSaid = true
            if !hasDayParts {
                if months != 0 { s += " in " + RepeatRule.monthList(months) }
            } else {
                guard months != 0, let day = dayWords(), let d = day else { return nil }
                if months.nonzeroBitCount == 1, case .day(let md)? = monthDay {
                    s += " on \(TimeText.monthName(months.trailingZeroBitCount)) \(md)"
                } else {
                    s += " on " + d + " of " + RepeatRule.monthList(months)
                }
            }
        }
        if !monthsSaid, monthMask != 0 { s += " in " + RepeatRule.monthList(monthMask) }
        if frequency != .hourly, frequency != .minutely, hourMask != 0 || minuteMask != 0 {
            guard hourMask != 0, minuteMask != 0, let t = timeWords(prefixed: &s) else { return nil }
            s += t
        }
        s += fromWords
        if let u = until { s += " until " + u.iso }
        if let c = count { s += " for \(c) time\(c == 1 ? "" : "s")" }
        if skipMissing, missesDay(anchor: anchor) { s += " skipping missing days" }
        if afterCompletion { s += " after completion" }
        return s
    }

    package static func monthList(_ mask: UInt16) -> String { list(bits(mask).map(TimeText.monthName)) }

    /// Whether a monthly rule is on the 1st (or an nth from the start) of each quarter, or on
    /// the last day (or an nth from the end) of each.
    package var isQuarter: Bool {
        let signs = RepeatRuleParser.signs(self)
        return (monthMask == RepeatRule.quarterStarts && signs > 0) || (monthMask == RepeatRule.quarterEnds && signs < 0)
    }

    /// The times of day: `at 9am and 5pm`, or `every 2 hours from 9am to 5pm` for three or more
    /// evenly spaced times (a daily rule's words are then those alone).
    package func timeWords(prefixed s: inout String) -> String? {
        let ts = times
        guard !ts.isEmpty else { return nil }
        if ts.count >= 3 {
            let step = ts[1].minuteOfDay - ts[0].minuteOfDay
            if zip(ts, ts.dropFirst()).allSatisfy({ $1.minuteOfDay - $0.minuteOfDay == step }), let first = ts.first, let last = ts.last {
                let unit = step % 60 == 0 ? (step == 60 ? "hour" : "\(step / 60) hours") : (step == 1 ? "minute" : "\(step) minutes")
                let range = "every \(unit) from \(RepeatRule.timeWord(first)) to \(RepeatRule.timeWord(last))"
                if frequency == .daily, interval == 1, s.hasPrefix("Every day") {
                    s = "Every " + range.dropFirst("every ".count) + s.dropFirst("Every day".count)
                    return ""
                }
                return " " + range
            }
        }
        return " at " + RepeatRule.list(ts.map(RepeatRule.timeWord))
    }

    /// A monthly or yearly rule's days in words: nil when words cannot say them, .some(nil)
    /// when the rule has none (the anchor's day).
    package func dayWords() -> String?? {
        let md = monthDayMask | monthDayFromEndMask != 0
        if !md, nthWeekdays.isEmpty, weekdayMask == 0 { return .some(nil) }
        if md {
            guard nthWeekdays.isEmpty, weekdayMask == 0, setPositions.isEmpty, let w = monthDayWords() else { return nil }
            return "the " + w
        }
        if !nthWeekdays.isEmpty {
            guard weekdayMask == 0, setPositions.isEmpty, nthWeekdays.allSatisfy({ abs($0.n) <= 5 }) else { return nil }
            return "the " + RepeatRule.list(nthWeekdays.map { RepeatRule.counted($0.n) + " " + $0.weekday.name })
        }
        if setPositions.isEmpty { return "every " + RepeatRule.list(weekdays.map(\.name)) }
        guard setPositions.count == 1, let p = setPositions.first, abs(p) <= 31 else { return nil }
        let what: String
        switch weekdayMask {
        case RepeatRule.workdayMask: what = "weekday"
        case RepeatRule.weekendMask: what = "weekend day"
        default: what = "of " + RepeatRule.list(weekdays.map(\.name))
        }
        return "the " + RepeatRule.counted(p) + " " + what
    }

    /// Days of the month: `1st and 15th`, `last day`, `3rd to last day`.
    package func monthDayWords() -> String? {
        let pos = RepeatRule.bits(monthDayMask).map { DatePhrase.ordinal($0) }
        let neg = RepeatRule.bits(monthDayFromEndMask).reversed().map { RepeatRule.counted(-$0) + " day" }
        let all = pos + neg
        return all.isEmpty ? nil : RepeatRule.list(all)
    }

    /// `2nd`, `last`, `2nd to last`.
    package static func counted(_ n: Int) -> String {
        n == -1 ? "last" : (n < 0 ? DatePhrase.ordinal(-n) + " to last" : DatePhrase.ordinal(n))
    }

    /// Whether some month (or year) of the series lacks the rule's day, so skipping matters.
    package func missesDay(anchor: CivilDate?) -> Bool {
        guard frequency == .monthly || frequency == .yearly else { return false }
        let anchorMonth = anchor.map { UInt16(1) << UInt16($0.month) } ?? 0
        var months = monthFromAnchor ? anchorMonth : monthMask
        if frequency == .yearly, months == 0, !hasDayParts { months = anchorMonth }
        let day = hasDayParts ? max(RepeatRule.bits(monthDayMask).last ?? 0, RepeatRule.bits(monthDayFromEndMask).last ?? 0) : (anchor?.day ?? 31)
        return day > RepeatRule.shortest(months)
    }

    /// The RRULE that is the rule's text when words cannot say it: the rule's own parts only,
    /// so that it reads back as the same rule.
    public var literalRRULE: String {
        var parts = ["FREQ=" + frequency.rawValue.uppercased()]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if monthMask != 0 { parts.append("BYMONTH=" + RepeatRule.bits(monthMask).map(String.init).joined(separator: ",")) }
        if weekNoMask | weekNoFromEndMask != 0 { parts.append("BYWEEKNO=" + RepeatRule.list(weekNoMask, weekNoFromEndMask)) }
        if !yearDays.isEmpty { parts.append("BYYEARDAY=" + yearDays.map(String.init).joined(separator: ",")) }
        if monthDayMask | monthDayFromEndMask != 0 {
            parts.append("BYMONTHDAY=" + RepeatRule.list(UInt64(monthDayMask), UInt64(monthDayFromEndMask)))
        }
        if hasByDay { parts.append("BYDAY=" + byDayText) }
        if !setPositions.isEmpty { parts.append("BYSETPOS=" + setPositions.map(String.init).joined(separator: ",")) }
        if hourMask != 0 { parts.append("BYHOUR=" + RepeatRule.bits(hourMask).map(String.init).joined(separator: ",")) }
        if minuteMask != 0 { parts.append("BYMINUTE=" + RepeatRule.bits(minuteMask).map(String.init).joined(separator: ",")) }
        if let w = weekStart, w != .monday, let c = RepeatRule.codes[w] { parts.append("WKST=" + c) }
        if let c = count { parts.append("COUNT=\(c)") }
        if let u = end { parts.append("UNTIL=" + untilText(u, zone: nil, timed: isTimed)) }
        if skip != .omit, canMissDay { return "RSCALE=GREGORIAN;" + parts.joined(separator: ";") + ";SKIP=" + skip.rawValue.uppercased() }
        return parts.joined(separator: ";")
    }
}

extension RepeatRuleParser {
    /// Whether a monthly rule's days count from the month's start (1), its end (-1), or both or
    /// neither (0).
    package static func signs(_ r: RepeatRule) -> Int {
        if r.weekdayMask != 0, r.setPositions.isEmpty { return 0 }
        var pos = r.monthDayMask != 0, neg = r.monthDayFromEndMask != 0
        for e in r.nthWeekdays { if e.n > 0 { pos = true } else { neg = true } }
        for p in r.setPositions { if p > 0 { pos = true } else { neg = true } }
        return pos == neg ? 0 : (pos ? 1 : -1)
    }
}
