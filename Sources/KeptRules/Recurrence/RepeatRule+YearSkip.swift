// Whole years without an occurrence, left out in a few integer operations: a walk over months
// that has crossed a year without finding one asks, at each January, whether the year can hold
// a day of the rule at all. The days the day parts allow in a year depend only on the year's
// type (the weekday of Jan 1, and whether it is a leap year: 14 types), and whether the
// INTERVAL's step reaches one of them on the residue of the year's first day modulo the
// phase's period (DayPhase). So each type's days are reduced once, when first met, to their
// residues modulo that period (one 64-bit word), and a year costs a rotation and an AND; a run
// of years is left out in one loop on plain integers (`skipYears`). For a rule without BYDAY
// ordinals and BYYEARDAY a type's residues come from the days BYMONTH and BYMONTHDAY allow in a
// common or a leap year (six 64-bit words each, made once) ANDed with BYDAY's weekdays, not
// from its twelve months. The answer is never "no" for a year that has an occurrence; "maybe"
// walks its months as before.

package struct YearSkip {
    /// By year type (Jan 1's weekday × 2 + leap): bit j when a day of that type's year that
    /// the day parts allow is j days after Jan 1 modulo the period (period 1: bit 0 when any).
    private var residues = InlineArray<14, UInt64>(repeating: 0)
    private var known: UInt16 = 0
    /// The phase's period (1 when the phase does not limit, or is longer than 64 days).
    package let period: Int
    /// The phase's residues (bit r: day numbers ≡ r can have an occurrence).
    package let admitted: UInt64
    /// The months (bit m, 1…12) a year's days come from.
    package let months: UInt16
    /// Without BYDAY ordinals and BYYEARDAY: bit j of word i (0…5 a common year, 6…11 a leap
    /// year) when BYMONTH and BYMONTHDAY allow the day 64·i + j after Jan 1; made when first
    /// asked (bit 0 of `wordsKnown` the common year's, bit 1 the leap year's).
    private var dayWords = InlineArray<12, UInt64>(repeating: 0)
    private var wordsKnown: UInt8 = 0
    /// A year with few such days (at most `sparse`): by their offset from Jan 1 modulo 7 (c,
    /// index 7·leap + c), the residues of their offsets modulo the period, so that a type's
    /// residues are those of the offsets its Jan 1 weekday puts on BYDAY's weekdays (bit 2 and
    /// bit 3 of `wordsKnown`: made for a common, a leap year).
    private var byOffset = InlineArray<14, UInt64>(repeating: 0)
    private static let sparse = 96

    package init(_ phase: DayPhase, months: UInt16) {
        if phase.all || phase.period > 64 {
            period = 1
            admitted = 1
        } else {
            period = phase.period
            admitted = phase.residues
        }
        self.months = months
    }

    /// Whether the year whose Jan 1 is day number `base` (on weekday w, Monday = 0) may hold an
    /// occurrence: false only when none of its days both meets the day parts and is reached.
    package mutating func mayHave(_ e: borrowing Expansion, base: Int, jan1Weekday w: Int, leap: Bool, memo: inout MonthMaskMemo) -> Bool {
        let x = typeResidues(e, jan1Weekday: w, leap: leap, memo: &memo)
        if period == 1 { return x != 0 }
        let r = floorMod(base, period)
        let full = period == 64 ? ~UInt64(0) : (UInt64(1) << UInt64(period)) &- 1
        let rotated = r == 0 ? x : ((x << UInt64(r)) | (x >> UInt64(period - r))) & full
        return rotated & admitted != 0
    }

    /// The residues of a year type (`residues`), made when first asked.
    @inline(__always) private mutating func typeResidues(_ e: borrowing Expansion, jan1Weekday w: Int, leap: Bool, memo: inout MonthMaskMemo) -> UInt64 {
        let t = YearInfo.type(jan1Weekday: w, leap: leap)
        if known & (UInt16(1) << UInt16(t)) == 0 {
            residues[t] = e.nthWeekdays.isEmpty && e.yearDays.isEmpty ? wordResidues(e, jan1Weekday: w, leap: leap)
                : e.yearResidues(jan1Weekday: w, leap: leap, period: period, months: months, memo: &memo)
            known |= UInt16(1) << UInt16(t)
        }
        return residues[t]
    }

    /// From the January at `cur`, the years that cannot hold an occurrence left out, at most
    /// `most` of them and none whose Jan 1 is after day number `end`, in one loop on plain
    /// integers (Jan 1's residue, weekday and leap year kept from year to year): `cur` ends at
    /// the January of the first year that may; returns how many were left out.
    package mutating func skipYears(_ e: borrowing Expansion, _ cur: inout MonthCursor, end: Int, most: Int, memo: inout MonthMaskMemo) -> Int {
        var (base, w, leap, year) = (cur.base, cur.firstWeekday, cur.leap, cur.year)
        let p = period
        let full = p == 64 ? ~UInt64(0) : (UInt64(1) << UInt64(p)) &- 1
        var r = p == 1 ? 0 : floorMod(base, p)
        let common = 365 % p, leapYear = 366 % p
        var skipped = 0
        while skipped < most, base <= end {
            let x = typeResidues(e, jan1Weekday: w, leap: leap, memo: &memo)
            if p == 1 {
                if x != 0 { break }
            } else {
                let s = UInt64(truncatingIfNeeded: r)
                let rotated = r == 0 ? x : ((x &<< s) | (x &>> (UInt64(truncatingIfNeeded: p) &- s))) & full
                if rotated & admitted != 0 { break }
            }
            base += leap ? 366 : 365
            w += leap ? 2 : 1
            if w >= 7 { w -= 7 }
            r += leap ? leapYear : common
            if r >= p { r -= p }
            year += 1
            leap = CalendarMath.isLeapYear(year)
            skipped += 1
        }
        if skipped > 0 { cur = MonthCursor(base: base, length: 31, firstWeekday: w, month: 1, year: year, leap: leap) }
        return skipped
    }

    /// `yearResidues` for a rule without BYDAY ordinals and BYYEARDAY, from the year's day words
    /// and BYDAY's weekdays.
    private mutating func wordResidues(_ e: borrowing Expansion, jan1Weekday w: Int, leap: Bool) -> UInt64 {
        let o = leap ? 6 : 0
        let bit: UInt8 = leap ? 2 : 1
        if wordsKnown & bit == 0 {
            var start = 0
            for m in 1...12 {
                let len = MonthCursor.lengths[m] + (leap && m == 2 ? 1 : 0)
                if months & (UInt16(1) << UInt16(m)) != 0 {
                    let mask = UInt64(e.monthDayMask(length: len))
                    let i = start >> 6, s = UInt64(start & 63)
                    dayWords[o + i] |= mask << s
                    if s > 0, i < 5 { dayWords[o + i + 1] |= mask >> (64 - s) }
                }
                start += len
            }
            wordsKnown |= bit
            var days = 0
            for i in 0..<6 { days += dayWords[o + i].nonzeroBitCount }
            if days <= YearSkip.sparse {
                let c7 = leap ? 7 : 0
                for i in 0..<6 {
                    var x = dayWords[o + i]
                    while x != 0 {
                        let j = 64 * i + x.trailingZeroBitCount
                        x &= x &- 1
                        byOffset[c7 + j % 7] |= UInt64(1) << UInt64(period == 1 ? 0 : j % period)
                    }
                }
                wordsKnown |= bit << 2
            }
        }
        let p = period
        if wordsKnown & (bit << 2) != 0 {
            // Offset c falls on weekday (w + c) mod 7: BYDAY's weekdays rotated down by w are
            // the offsets' classes, and only those are read.
            let allowed = e.hasByDay ? UInt32(truncatingIfNeeded: e.weekdays >> 1) & 0x7F : 0x7F
            var classes = ((allowed >> UInt32(w)) | (allowed << UInt32(7 - w))) & 0x7F
            let c7 = leap ? 7 : 0
            var res: UInt64 = 0
            while classes != 0 {
                res |= byOffset[c7 + classes.trailingZeroBitCount]
                classes &= classes &- 1
            }
            return res
        }
        let full = p == 64 ? ~UInt64(0) : (UInt64(1) << UInt64(p)) &- 1
        // BYDAY's weekdays from a word's first day (64 ≡ 1 mod 7: one weekday later a word):
        // the 63-bit pattern read at wd, its missing top bits from the copy 7 days before.
        let weekdays = e.hasByDay ? e.weekdayPattern : ~UInt64(0)
        var wd = w
        var res: UInt64 = 0
        for i in 0..<6 {
            var x = dayWords[o + i] & ((weekdays &>> UInt64(wd)) | (weekdays &<< UInt64(7 - wd)))
            if p == 1 {
                if x != 0 { return 1 }
            } else {
                while x != 0 {
                    res |= UInt64(1) << UInt64((64 * i + x.trailingZeroBitCount) % p)
                    x &= x &- 1
                }
                if res == full { return res }
            }
            wd += 1
            if wd == 7 { wd = 0 }
        }
        return res
    }
}

extension Expansion {
    /// The residues modulo `period` (≤ 64) of the offsets from Jan 1 of the days the day parts
    /// allow in the given months of a year of one type (period 1: bit 0 when there is any).
    package func yearResidues(jan1Weekday w: Int, leap: Bool, period p: Int, months allowed: UInt16, memo: inout MonthMaskMemo) -> UInt64 {
        let full = p >= 64 ? ~UInt64(0) : (UInt64(1) << UInt64(p)) &- 1
        let yearLength = leap ? 366 : 365
        var res: UInt64 = 0
        if !yearDays.isEmpty {
            // BYYEARDAY's few days, each looked up in its month's mask.
            for yd in yearDays {
                let i = yd > 0 ? yd - 1 : yearLength + yd
                guard i >= 0, i < yearLength else { continue }
                var m = 12
                while m > 1, YearInfo.monthStarts[m - 1] + (leap && m > 2 ? 1 : 0) > i { m -= 1 }
                guard allowed & (UInt16(1) << UInt16(m)) != 0 else { continue }
                let start = YearInfo.monthStarts[m - 1] + (leap && m > 2 ? 1 : 0)
                let len = MonthCursor.lengths[m] + (leap && m == 2 ? 1 : 0)
                let mask = memo.mask(self, firstWeekday: (w + start) % 7, length: len)
                guard mask & (UInt32(1) << UInt32(i - start)) != 0 else { continue }
                if p == 1 { return 1 }
                res |= UInt64(1) << UInt64(i % p)
            }
            return res
        }
        // The allowed months only, each from its offset in the year.
        var months = allowed & 0x1FFE
        while months != 0 {
            let m = months.trailingZeroBitCount
            months &= months - 1
            let start = YearInfo.monthStarts[m - 1] + (leap && m > 2 ? 1 : 0)
            let len = MonthCursor.lengths[m] + (leap && m == 2 ? 1 : 0)
            var mask = memo.mask(self, firstWeekday: (w + start) % 7, length: len)
            if p == 1 {
                if mask != 0 { return 1 }
            } else {
                while mask != 0 {
                    res |= UInt64(1) << UInt64((start + mask.trailingZeroBitCount) % p)
                    mask &= mask - 1
                }
                if res == full { return res }
            }
        }
        return res
    }

    /// The months (bit m) a day-stream rule's days come from: BYMONTH's, or all.
    package var streamMonths: UInt16 { months == 0 ? 0x1FFE : months }
}

extension MonthCursor {
    /// n months on.
    @inline(__always) package mutating func advance(months n: Int) {
        if n > 12 {
            let i = year * 12 + month - 1 + n
            self = MonthCursor(year: floorDiv(i, 12), month: floorMod(i, 12) + 1)
            return
        }
        for _ in 0..<n { advance() }
    }

    /// From a January to the next one.
    @inline(__always) package mutating func advanceYear() {
        let yearLength = leap ? 366 : 365
        base += yearLength
        firstWeekday = (firstWeekday + yearLength) % 7
        year += 1
        leap = CalendarMath.isLeapYear(year)
    }
}
