// RFC 7529's SKIP where it moves a day out of its period (docs/REPEATS.md, "RRULE"): FORWARD
// puts a missing day on the next valid one (April 31st is May 1st, day 366 of a common year is
// next January 1st), and BACKWARD puts a day counted from the end before the period's start
// (BYMONTHDAY=-31 in February is January 31st, BYYEARDAY=-366 of a common year is the last
// December 31st). Such a rule is walked period by period from the anchor's: each period's days
// with the moves, a day given twice once, its times, and nothing before the series' start.
// The walk is linear in the periods from the anchor, which is enough for these rare rules.

extension Expansion {
    /// The occurrences (keys) of the p-th period from the anchor's, in order, each once.
    package func skipPeriodKeys(_ p: Int) -> [OccurrenceKey] {
        var days: [Int] = []
        let months: [Int] = Array(1...12).filter { self.months == 0 || self.months & (UInt16(1) << UInt16($0)) != 0 }
        func moved(_ base: Int, _ len: Int, _ d: Int) {
            // d is a 1-based day of a period of len days from day number base; out of range
            // below 1 or above len, it moves as SKIP says.
            if d >= 1, d <= len { days.append(base + d - 1); return }
            switch skip {
            case .omit: return
            case .backward: days.append(d > len ? base + len - 1 : base - 1)
            case .forward: days.append(d > len ? base + len : base)
            }
        }
        func monthDays(year: Int, month: Int) {
            guard let first = CivilDate(year: year, month: month, day: 1) else { return }
            let len = CivilDate.daysInMonth(year: year, month: month)
            var pos = self.monthDays
            while pos != 0 {
                let d = pos.trailingZeroBitCount
                pos &= pos - 1
                moved(first.dayNumber, len, d)
            }
            var neg = monthDaysFromEnd
            while neg != 0 {
                let k = neg.trailingZeroBitCount
                neg &= neg - 1
                moved(first.dayNumber, len, len + 1 - k)
            }
        }
        switch frequency {
        case .monthly:
            let m = anchor.year * 12 + anchor.month - 1 + p * n
            let y = floorDiv(m, 12)
            guard CivilDate.yearRange.contains(y), months.contains(m - y * 12 + 1) else { return [] }
            monthDays(year: y, month: m - y * 12 + 1)
        case .yearly:
            let y = anchor.year + p * n
            guard CivilDate.yearRange.contains(y), let jan1 = CivilDate(year: y, month: 1, day: 1) else { return [] }
            if !yearDays.isEmpty {
                let len = CivilDate.isLeapYear(y) ? 366 : 365
                for yd in yearDays { moved(jan1.dayNumber, len, yd > 0 ? yd : len + 1 + yd) }
                if self.months != 0 { days = days.filter { months.contains(CivilDate(dayNumber: $0).month) } }
            } else {
                for m in months { monthDays(year: y, month: m) }
            }
        default:
            return []
        }
        if weekdays != 0 { days = days.filter { weekdays & Expansion.weekdayBit($0) != 0 } }
        days = Array(Set(days)).sorted()
        var keys: [OccurrenceKey] = []
        for d in days where d >= CivilDate.earliest.dayNumber && d <= Expansion.lastDay {
            if timed {
                for i in 0..<timesPerDay { keys.append(d * OccurrenceKey.minutesPerDay + time(i)) }
            } else {
                keys.append(d * OccurrenceKey.minutesPerDay)
            }
        }
        return keys.filter { $0 >= startKey }
    }

    /// The period of the p-th period from the anchor's that k's day is in or near: where a
    /// walk for k starts (a period's days may spill one day into its neighbours).
    package func skipPeriod(of k: OccurrenceKey) -> Int {
        let d = CivilDate(dayNumber: floorDiv(k, OccurrenceKey.minutesPerDay))
        let steps = frequency == .monthly ? (d.year * 12 + d.month - 1) - (anchor.year * 12 + anchor.month - 1) : d.year - anchor.year
        return max(0, floorDiv(steps, n) - 1)
    }

    /// The periods a walk looks at before it gives up (a rule whose periods all lack a day).
    static let skipWalkPeriods = 4_800

    /// The first occurrence at or after k.
    package func skipWalkFirst(atOrAfter k: OccurrenceKey) -> OccurrenceKey? {
        var p = skipPeriod(of: k)
        var empty = 0
        while empty < Expansion.skipWalkPeriods {
            let keys = skipPeriodKeys(p)
            if let x = keys.first(where: { $0 >= k }) {
                return floorDiv(x, OccurrenceKey.minutesPerDay) <= searchEnd ? x : nil
            }
            empty += 1
            // Past the calendar, or past the search's end, there is none.
            let y = frequency == .monthly ? anchor.year + (p * n) / 12 : anchor.year + p * n
            if y > CivilDate.yearRange.upperBound || (CivilDate(year: y, month: 1, day: 1)?.dayNumber ?? Int.max) > searchEnd + 1 { return nil }
            p += 1
        }
        return nil
    }

    /// How many occurrences come before k, from the anchor's period on, at most `limit`.
    package func skipWalkCount(before k: OccurrenceKey, limit: Int) -> Int {
        var c = 0
        var p = 0
        let last = skipPeriod(of: k) + 2
        while p <= last, c < limit {
            c += skipPeriodKeys(p).filter { $0 < k }.count
            p += 1
        }
        return min(c, limit)
    }
}
