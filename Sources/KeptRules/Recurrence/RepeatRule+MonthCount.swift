// COUNT from an old anchor on a day-stream rule whose days change month to month (BYDAY with
// BYMONTHDAY, BYMONTH, an INTERVAL that is not a whole number of months), or a weekly rule
// with BYMONTH: the months wholly between the anchor's day and k's are counted on plain integers, a few dozen instructions a
// month. The month's allowed days come from the memo by (first weekday, length), BYMONTH by a
// bit test; the days the INTERVAL reaches are the residues modulo its period in days, kept as a
// repeating bit pattern read at the month's first day's residue (kept incrementally, as is the
// first day's weekday). Days whose residues have the same count of occurrences form a class:
// a month adds each class's popcount times its count. COUNT reached in such a month means the
// count is at least COUNT, which is all the caller asks. A monthly rule's whole months are
// counted the same way by the kind of month (first weekday and length), each kind's count found
// once (WholeMonthCounts).

/// The classes of a day-stream rule's whole days, by their residue modulo the period in days.
package struct WholeMonthCounter {
    /// The period in days (1…64).
    package let period: Int
    /// `len % period` for month lengths 28…31.
    private var lengthResidues = InlineArray<4, Int>(repeating: 0)
    /// Up to 4 classes: the residues repeated over 128 bits (low word, high word), and the
    /// occurrences of each of their days.
    private var low = InlineArray<4, UInt64>(repeating: 0)
    private var high = InlineArray<4, UInt64>(repeating: 0)
    private var perDay = InlineArray<4, Int>(repeating: 0)
    private(set) var classes = 0

    package init(period p: Int) {
        period = p
        for i in 0..<4 { lengthResidues[i] = (28 + i) % p }
    }

    /// Adds the residues (bit r: residue r < period) whose days have `count` occurrences (−1:
    /// counted day by day, DayCounts); false when a fifth class is needed.
    package mutating func add(residues: UInt64, count: Int) -> Bool {
        guard count != 0 else { return true }
        var i = 0
        while i < classes, perDay[i] != count { i += 1 }
        if i == classes {
            guard classes < 4 else { return false }
            perDay[i] = count
            classes += 1
        }
        // Bit j of the 128 is set when j mod period is one: the residues repeated by doubling.
        var lo = residues, hi: UInt64 = 0
        var width = period
        while width < 128 {
            let w = UInt64(truncatingIfNeeded: width)
            hi |= width >= 64 ? lo &<< (w &- 64) : (hi &<< w) | (lo &>> (64 &- w))
            lo |= width >= 64 ? 0 : lo &<< w
            width *= 2
        }
        low[i] |= lo
        high[i] |= hi
        return true
    }

    /// The residues of every class (low and high words), and the count of a day when there is
    /// one class.
    package var union: (UInt64, UInt64, Int) {
        var (lo, hi): (UInt64, UInt64) = (0, 0)
        for i in 0..<classes {
            lo |= low[i]
            hi |= high[i]
        }
        return (lo, hi, classes == 1 ? perDay[0] : 0)
    }

    /// The occurrences of a month whose allowed days are `mask`, its first day ≡ r (< period).
    @inline(never) package func count(_ mask: UInt32, residue r: Int) -> Int {
        var c = 0
        for i in 0..<classes {
            let bits = r == 0 ? low[i] : (low[i] &>> UInt64(r)) | (high[i] &<< UInt64(64 - r))
            c += (mask & UInt32(truncatingIfNeeded: bits)).nonzeroBitCount * perDay[i]
        }
        return c
    }

    /// `len % period` for month lengths 28…31, 16 bits each (len − 28 picks them).
    package var lengthResiduesPacked: UInt64 {
        var x: UInt64 = 0
        for i in 0..<4 { x |= UInt64(lengthResidues[i]) << UInt64(16 * i) }
        return x
    }
}

extension Expansion {
    /// The classes of the whole days (after the anchor's) of a day-stream rule without
    /// BYYEARDAY: a daily rule's admitted residue with `perDay` each, an hourly or minutely
    /// rule's residues with their counts (DayCounts); nil when the period is over 64 days or
    /// the counts need more than 4 classes.
    package func wholeMonthCounter(phase: DayPhase, perDay: Int, dayCounts: inout DayCounts) -> WholeMonthCounter? {
        guard yearDays.isEmpty, nthWeekdays.isEmpty else { return nil }
        if frequency == .daily {
            guard n <= 64 else { return nil }
            let p = phase.all ? 1 : phase.period
            var w = WholeMonthCounter(period: p)
            guard w.add(residues: phase.all ? 1 : phase.residues, count: perDay) else { return nil }
            return w
        }
        // The reached residues as one class whose days are counted one by one (DayCounts, each
        // residue when first met): counting every residue ahead would cost more than a short
        // count saves.
        let p = dayCounts.period
        guard p > 0, phase.all || phase.period == p else { return nil }
        var w = WholeMonthCounter(period: p)
        let full = p == 64 ? ~UInt64(0) : (UInt64(1) << UInt64(p)) &- 1
        guard w.add(residues: phase.all ? full : phase.residues & full, count: -1) else { return nil }
        return w
    }

    /// A weekly rule without BYSETPOS as a day stream: the days of every INTERVAL-th week (the
    /// residues modulo 7·INTERVAL ≤ 63), each with all the times of the day.
    package func weeklyMonthCounter(residues: UInt64) -> WholeMonthCounter? {
        guard yearDays.isEmpty, nthWeekdays.isEmpty, 7 * n <= 64 else { return nil }
        var w = WholeMonthCounter(period: 7 * n)
        guard w.add(residues: residues, count: timesPerDay) else { return nil }
        return w
    }

    /// Counts the months from `cur` on that lie wholly after the anchor's day and before kDay's
    /// month (`cur` ends at the first month not counted), adding to c until it reaches
    /// `limit`. Years are left out (YearSkip) after two years without an occurrence; `skip` is
    /// made when first needed unless `skipping`. The month's state is in plain integers: its
    /// first day, length (from a 2-bit table by month), first weekday, residue, month and year.
    @inline(never)
    package func countWholeMonths(_ cur: inout MonthCursor, _ c: inout Int, kDay: Int, limit: Int, counter w: WholeMonthCounter,
                          skip: inout YearSkip, skipping: inout Bool, memo: inout MonthMaskMemo, dayCounts: inout DayCounts, visited: inout Int) {
        let allowed = UInt32(streamMonths)
        let p = w.period
        let lengthResidues = w.lengthResiduesPacked
        var r = floorMod(cur.base, p)
        var (base, wd, month, year, leap) = (cur.base, cur.firstWeekday, cur.month, cur.year, cur.leap)
        var count = c
        let (ky, km, _) = CalendarMath.civil(dayNumber: kDay)
        // Bounded by k's month only: `most` bounds a search for a first occurrence.
        var left = ky * 12 + km - (year * 12 + month)
        let start = left
        // A month's length − 28 in 2 bits at bit 2·m, for a common year and a leap year.
        let common = 0x3BB_EECC, leapYear = 0x3BB_EEDC
        var lengths = leap ? leapYear : common
        // A month's allowed days: BYMONTHDAY's by its length, BYDAY's weekdays from its first.
        var byLength: (UInt64, UInt64) = (0, 0)
        for i in 0..<4 {
            let m = UInt64(monthDayMask(length: 28 + i)) << UInt64(32 * (i & 1))
            if i < 2 { byLength.0 |= m } else { byLength.1 |= m }
        }
        let weekdays = hasByDay ? weekdayPattern : ~0
        let single = w.classes == 1
        let (low, high, perDay) = w.union
        var atJanuary = count
        var emptyYears = 0
        defer {
            cur = MonthCursor(base: base, length: month == 2 ? (leap ? 29 : 28) : 30 | ((month ^ (month >> 3)) & 1),
                              firstWeekday: wd, month: month, year: year, leap: leap)
            c = count
            visited += start - left
        }
        while left > 0 {
            if month == 1 {
                if count == atJanuary { emptyYears += 1 } else { emptyYears = 0 }
                atJanuary = count
                if emptyYears >= 2, left >= 12 {
                    if !skipping {
                        skip = YearSkip(dayPhase(), months: streamMonths)
                        skipping = true
                    }
                    var jan = MonthCursor(base: base, length: 31, firstWeekday: wd, month: 1, year: year, leap: leap)
                    let years = skip.skipYears(self, &jan, end: Int.max, most: left / 12, memo: &memo)
                    if years > 0 {
                        r = floorMod(r + (jan.base - base), p)
                        (base, wd, year, leap) = (jan.base, jan.firstWeekday, jan.year, jan.leap)
                        lengths = leap ? leapYear : common
                        left -= 12 * years
                        continue
                    }
                }
            }
            let extra = (lengths &>> (2 &* month)) & 3
            if allowed & (UInt32(1) &<< UInt32(truncatingIfNeeded: month)) != 0 {
                let half = extra < 2 ? byLength.0 : byLength.1
                let m = UInt32(truncatingIfNeeded: half &>> UInt64(truncatingIfNeeded: (extra & 1) &* 32))
                    & UInt32(truncatingIfNeeded: weekdays &>> UInt64(truncatingIfNeeded: wd))
                let s = UInt64(truncatingIfNeeded: r)
                let days = m & UInt32(truncatingIfNeeded: (low &>> s) | ((high &<< 1) &<< (63 &- s)))
                // Most months of a series that COUNT has not ended in years have none.
                if days != 0 {
                    if !single {
                        count &+= w.count(m, residue: r)
                    } else if perDay > 0 {
                        count &+= days.nonzeroBitCount &* perDay
                    } else {
                        var x = days
                        while x != 0 {
                            count &+= dayCounts.whole(self, day: base &+ x.trailingZeroBitCount)
                            x &= x &- 1
                        }
                    }
                    if count >= limit { return }
                }
            }
            r &+= Int(truncatingIfNeeded: (lengthResidues &>> UInt64(truncatingIfNeeded: extra &* 16)) & 0xFFFF)
            if r >= p { r &-= p }
            base &+= 28 &+ extra
            wd &+= extra
            if wd >= 7 { wd &-= 7 }
            left &-= 1
            month &+= 1
            if month == 13 {
                month = 1
                year += 1
                leap = CalendarMath.isLeapYear(year)
                lengths = leap ? leapYear : common
            }
        }
    }
}

/// A monthly rule's occurrences in a whole month by its (first weekday, length), the 28 kinds of
/// month BYMONTHDAY and BYDAY tell apart, each found when first met.
package struct WholeMonthCounts {
    private var counts = InlineArray<28, Int32>(repeating: 0)
    private var known: UInt32 = 0

    @inline(__always) package mutating func count(_ e: borrowing Expansion, firstWeekday w: Int, length len: Int, memo: inout MonthMaskMemo) -> Int {
        let k = w &* 4 &+ len &- 28
        if known & (UInt32(1) << UInt32(truncatingIfNeeded: k)) == 0 {
            let m = memo.mask(e, firstWeekday: w, length: len)
            counts[k] = Int32(truncatingIfNeeded: e.kept(total: m.nonzeroBitCount * e.timesPerDay))
            known |= UInt32(1) << UInt32(truncatingIfNeeded: k)
        }
        return Int(counts[k])
    }
}

extension Expansion {
    /// A monthly rule without BYYEARDAY: the months of the series from `cur` on that lie wholly
    /// between the anchor's day and k's, each by the count of its kind (WholeMonthCounts), BYMONTH
    /// a bit test; `cur` ends at the first month not counted, c at most a kind's count past limit.
    /// Every month (INTERVAL 1) on plain integers, as `countWholeMonths` above does.
    package func countWholeMonths(_ cur: inout MonthCursor, _ c: inout Int, kDay: Int, limit: Int, counts: inout WholeMonthCounts, memo: inout MonthMaskMemo) {
        let allowed = UInt32(months == 0 ? 0x1FFE : months)
        var count = c
        guard n == 1 else {
            var m = cur
            while count < limit, m.base + m.length <= kDay {
                if allowed & (UInt32(1) << UInt32(m.month)) != 0 { count += counts.count(self, firstWeekday: m.firstWeekday, length: m.length, memo: &memo) }
                m.advance(months: n)
            }
            (cur, c) = (m, count)
            return
        }
        var (base, wd, month, year, leap) = (cur.base, cur.firstWeekday, cur.month, cur.year, cur.leap)
        // A month's length − 28 in 2 bits at bit 2·m, for a common year and a leap year.
        let common = 0x3BB_EECC, leapYear = 0x3BB_EEDC
        var lengths = leap ? leapYear : common
        while count < limit {
            let extra = (lengths &>> (2 &* month)) & 3
            let len = 28 &+ extra
            if base &+ len > kDay { break }
            if allowed & (UInt32(1) &<< UInt32(truncatingIfNeeded: month)) != 0 { count &+= counts.count(self, firstWeekday: wd, length: len, memo: &memo) }
            base &+= len
            wd &+= extra
            if wd >= 7 { wd &-= 7 }
            month &+= 1
            if month == 13 {
                month = 1
                year &+= 1
                leap = CalendarMath.isLeapYear(year)
                lengths = leap ? leapYear : common
            }
        }
        cur = MonthCursor(base: base, length: month == 2 ? (leap ? 29 : 28) : 30 | ((month ^ (month >> 3)) & 1),
                          firstWeekday: wd, month: month, year: year, leap: leap)
        c = count
    }
}
