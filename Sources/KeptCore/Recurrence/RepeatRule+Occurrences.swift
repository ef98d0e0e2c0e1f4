// Next occurrences, computed in constant time from the anchor: finding the next date after a
// day costs the same for an anchor five years old as for one set yesterday (no series walk).

extension RepeatRule {
    /// The weekdays a weekly rule falls on, given the anchor.
    func days(anchor: CivilDate) -> [Weekday] { weekdays.isEmpty ? [anchor.weekday] : weekdays }

    /// The date of the rule's day in a month (by month index year*12+month-1), or nil when that
    /// month has no such day (a 5th Tuesday).
    func date(inMonth m: Int, anchor: CivilDate) -> CivilDate? {
        let year = m >= 0 ? m / 12 : (m - 11) / 12
        let month = m - year * 12 + 1
        guard year >= 1, year <= 9999 else { return nil }
        let dim = CivilDate.daysInMonth(year: year, month: month)
        switch monthDay ?? .day(anchor.day) {
        case .day(let d):
            // R-REP-4: the 31st falls on the last day of shorter months, from the anchor's day.
            if skipMissing, d > dim { return nil }
            return CivilDate(year: year, month: month, day: min(d, dim))
        case .last:
            return CivilDate(year: year, month: month, day: dim)
        case .weekday(let n, let wd):
            guard let first = CivilDate(year: year, month: month, day: 1) else { return nil }
            if n > 0 {
                let d = 1 + first.weekday.days(until: wd) + 7 * (n - 1)
                return d <= dim ? CivilDate(year: year, month: month, day: d) : nil
            }
            guard let lastDay = CivilDate(year: year, month: month, day: dim) else { return nil }
            return CivilDate(year: year, month: month, day: dim - wd.days(until: lastDay.weekday))
        }
    }

    static func monthIndex(_ d: CivilDate) -> Int { d.year * 12 + d.month - 1 }

    /// The first occurrence on or after `start`, ignoring `until` and `count`.
    func firstOccurrence(onOrAfter start0: CivilDate, anchor: CivilDate, weekStart: Weekday) -> CivilDate? {
        let start = max(start0, anchor)
        let n = max(1, interval)
        switch frequency {
        case .daily:
            let diff = anchor.days(until: start)
            let k = (diff + n - 1) / n
            // Past 9999-12-31 the series has no more dates (checked, never clamped onto the last day).
            return anchor.addingChecked(days: k * n)
        case .weekly:
            let ds = days(anchor: anchor)
            let offsets = ds.map { weekStart.days(until: $0) }.sorted()
            let a0 = anchor.adding(days: -weekStart.days(until: anchor.weekday))
            let s0 = start.adding(days: -weekStart.days(until: start.weekday))
            var week = a0.days(until: s0) / 7
            // Round up to a week of the series.
            if week % n != 0 { week += n - week % n }
            for _ in 0..<2 {
                guard let ws = a0.addingChecked(days: week * 7) else { return nil }
                for o in offsets {
                    guard let d = ws.addingChecked(days: o) else { return nil }
                    if d >= start { return d }
                }
                week += n
            }
            return nil
        case .monthly:
            let m0 = RepeatRule.monthIndex(anchor)
            var m = RepeatRule.monthIndex(start)
            let k = (m - m0 + n - 1) / n
            m = m0 + k * n
            // At most a few months lack a 5th weekday in a row; 14 tries cover any interval.
            for _ in 0..<14 {
                if let d = date(inMonth: m, anchor: anchor), d >= start { return d }
                m += n
            }
            return nil
        case .yearly:
            let month = self.month ?? anchor.month
            var y = anchor.year + ((start.year - anchor.year + n - 1) / n) * n
            for _ in 0..<9 {
                if let d = date(inMonth: y * 12 + month - 1, anchor: anchor), d >= start { return d }
                y += n
            }
            return nil
        }
    }

    /// How many occurrences fall before `date` (for `for N times`).
    func index(of date: CivilDate, anchor: CivilDate, weekStart: Weekday) -> Int {
        let n = max(1, interval)
        switch frequency {
        case .daily:
            return anchor.days(until: date) / n
        case .weekly:
            let offsets = days(anchor: anchor).map { weekStart.days(until: $0) }.sorted()
            let a0 = anchor.adding(days: -weekStart.days(until: anchor.weekday))
            let d0 = date.adding(days: -weekStart.days(until: date.weekday))
            let weeks = a0.days(until: d0) / 7 / n
            let firstWeek = offsets.filter { a0.adding(days: $0) >= anchor }.count
            let inWeek = offsets.filter { d0.adding(days: $0) < date }.count
            return weeks == 0 ? offsets.filter { a0.adding(days: $0) >= anchor && a0.adding(days: $0) < date }.count
                : firstWeek + (weeks - 1) * offsets.count + inWeek
        case .monthly, .yearly:
            // Occurrences before `date`: walk the series' months; only reached for `for N times`.
            var k = 0
            var d = firstOccurrence(onOrAfter: anchor, anchor: anchor, weekStart: weekStart)
            while let x = d, x < date, k < 120_000, let after = x.addingChecked(days: 1) {
                k += 1
                d = firstOccurrence(onOrAfter: after, anchor: anchor, weekStart: weekStart)
            }
            return k
        }
    }

    /// The first occurrence strictly after `day`, or nil when the series has ended.
    public func nextOccurrence(after day: CivilDate, anchor: CivilDate, weekStart: Weekday = .monday) -> CivilDate? {
        guard let after = day.addingChecked(days: 1),
              let d = firstOccurrence(onOrAfter: after, anchor: anchor, weekStart: weekStart) else { return nil }
        if let u = until, d > u { return nil }
        if let c = count, index(of: d, anchor: anchor, weekStart: weekStart) >= c { return nil }
        return d
    }

    /// The first `limit` occurrences from the anchor on.
    public func occurrences(anchor: CivilDate, limit: Int, weekStart: Weekday = .monday) -> [CivilDate] {
        var out: [CivilDate] = []
        var d = firstOccurrence(onOrAfter: anchor, anchor: anchor, weekStart: weekStart)
        while let x = d, out.count < limit {
            if let u = until, x > u { break }
            if let c = count, out.count >= c { break }
            out.append(x)
            // The calendar ends at 9999-12-31: the series ends with it.
            guard let after = x.addingChecked(days: 1) else { break }
            d = firstOccurrence(onOrAfter: after, anchor: anchor, weekStart: weekStart)
        }
        return out
    }
}
