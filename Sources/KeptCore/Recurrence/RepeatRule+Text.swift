// A repeat in words (R-REP-9): `Every day`, `Every weekday`, `Every Thursday`, `Every 2 weeks`,
// `Every month on the 31st`. The text is canonical: parsing it gives the same rule back.

extension RepeatRule {
    static func list(_ names: [String]) -> String {
        guard names.count > 1, let last = names.last else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + last
    }

    static func timeWord(_ t: WallTime) -> String {
        let h = t.hour % 12 == 0 ? 12 : t.hour % 12
        let ampm = t.hour < 12 ? "am" : "pm"
        return t.minute == 0 ? "\(h)\(ampm)" : "\(h):\(t.minute < 10 ? "0" : "")\(t.minute)\(ampm)"
    }

    /// The rule in words; a weekly rule without days names the anchor's weekday.
    public func text(anchor: CivilDate?) -> String {
        var s: String
        let n = interval
        switch frequency {
        case .daily:
            s = n == 1 ? "Every day" : "Every \(n) days"
        case .weekly:
            let explicit = !weekdays.isEmpty
            let ds = weekdays.isEmpty ? (anchor.map { [$0.weekday] } ?? []) : weekdays
            if n == 1, ds == RepeatRule.workdays { s = "Every weekday" }
            else if n == 1, ds == RepeatRule.weekend { s = "Every weekend" }
            else if n == 1, !ds.isEmpty { s = "Every " + RepeatRule.list(ds.map(\.name)) }
            else if n == 1 { s = "Every week" }
            else {
                s = "Every \(n) weeks"
                if explicit { s += " on " + RepeatRule.list(weekdays.map(\.name)) }
            }
        case .monthly:
            s = n == 1 ? "Every month" : "Every \(n) months"
            if let md = monthDay { s += " on " + RepeatRule.words(md) }
        case .yearly:
            s = n == 1 ? "Every year" : "Every \(n) years"
            // A day without a month is in the anchor's month.
            if let md = monthDay, let m = month ?? anchor?.month {
                if case .day(let d) = md { s += " on \(TimeText.monthName(m)) \(d)" } else { s += " on " + RepeatRule.words(md) + " of " + TimeText.monthName(m) }
            } else if let m = month {
                s += " in " + TimeText.monthName(m)
            }
        }
        if let t = time { s += " at " + RepeatRule.timeWord(t) }
        if let f = from { s += " from " + f.iso }
        if let u = until { s += " until " + u.iso }
        if let c = count { s += " for \(c) time\(c == 1 ? "" : "s")" }
        if skipMissing, canMissDay(anchor: anchor) { s += " skipping missing days" }
        if afterCompletion { s += " after completion" }
        return s
    }

    /// Whether some month (or year) of the series lacks the rule's day, so skipping matters.
    func canMissDay(anchor: CivilDate?) -> Bool {
        guard frequency == .monthly || frequency == .yearly else { return false }
        guard case .day(let d) = monthDay ?? anchor.map({ .day($0.day) }) ?? .day(31) else { return false }
        if frequency == .monthly { return d > 28 }
        let m = month ?? anchor?.month ?? 2
        return d > (m == 2 ? 28 : DatePhrase.maxDay(m))
    }

    static func words(_ md: MonthDay) -> String {
        switch md {
        case .day(let d): return "the " + DatePhrase.ordinal(d)
        case .last: return "the last day"
        case .weekday(let n, let wd): return "the " + (n == -1 ? "last" : DatePhrase.ordinal(n)) + " " + wd.name
        }
    }
}
