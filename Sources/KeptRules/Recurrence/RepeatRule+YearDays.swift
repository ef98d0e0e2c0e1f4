// Day-stream rules with BYYEARDAY: a rule's days are a few a year, so that the next occurrence
// and COUNT walk years, not the twelve months of each. Which BYYEARDAY values BYMONTH,
// BYMONTHDAY and BYDAY allow depends only on the year's type (Jan 1's weekday and whether it is
// a leap year: 14 types), each found once from its months' masks; a year then costs a few
// operations a value, and the INTERVAL's phase (DayPhase) leaves out the days it cannot reach.

/// By year type (Jan 1's weekday × 2 + leap), the BYYEARDAY values (bit j: the rule's j-th)
/// whose day the other day parts allow, each type found when first met (a walk's own memo).
package struct YearDayTypes {
    private var bits = InlineArray<14, UInt64>(repeating: 0)
    private var known: UInt16 = 0

    /// The values of a year whose Jan 1 is on weekday w (Monday = 0).
    @inline(__always) package mutating func days(_ e: borrowing Expansion, jan1Weekday w: Int, leap: Bool, memo: inout MonthMaskMemo) -> UInt64 {
        let t = YearInfo.type(jan1Weekday: w, leap: leap)
        if known & (UInt16(1) << UInt16(t)) == 0 {
            bits[t] = e.yearDayBits(jan1Weekday: w, leap: leap, memo: &memo)
            known |= UInt16(1) << UInt16(t)
        }
        return bits[t]
    }
}

extension Expansion {
    /// Whether the year-by-year walk applies: BYYEARDAY with at most 64 values.
    package var walksYearDays: Bool { !yearDays.isEmpty && yearDays.count <= 64 }

    /// The BYYEARDAY values (bit j: yearDays[j]) of a year of one type whose day BYMONTH,
    /// BYMONTHDAY and BYDAY allow (a day two values name, 366 and -1 in a leap year, once).
    package func yearDayBits(jan1Weekday w: Int, leap: Bool, memo: inout MonthMaskMemo) -> UInt64 {
        let length = leap ? 366 : 365
        var out: UInt64 = 0
        for j in 0..<min(yearDays.count, 64) {
            let yd = yearDays[j]
            let i = yd > 0 ? yd - 1 : length + yd
            guard i >= 0, i < length else { continue }
            if yd < 0, yearDays.contains(i + 1) { continue }
            let m = YearInfo.month(ofOffset: i, leap: leap)
            guard allows(month: m) else { continue }
            let start = YearInfo.monthStarts[m - 1] + (leap && m > 2 ? 1 : 0)
            let len = MonthCursor.lengths[m] + (leap && m == 2 ? 1 : 0)
            let mask = memo.mask(self, firstWeekday: (w + start) % 7, length: len)
            if mask & (UInt32(1) << UInt32(i - start)) != 0 { out |= UInt64(1) << UInt64(j) }
        }
        return out
    }

    /// Calls body with the offset of each BYYEARDAY day the other day parts allow in the year
    /// at a January cursor.
    @inline(__always) package func forEachYearDay(_ cur: MonthCursor, _ types: inout YearDayTypes, memo: inout MonthMaskMemo, _ body: (Int) -> Void) {
        var x = types.days(self, jan1Weekday: cur.firstWeekday, leap: cur.leap, memo: &memo)
        let length = cur.leap ? 366 : 365
        while x != 0 {
            let yd = yearDays[x.trailingZeroBitCount]
            x &= x - 1
            body(yd > 0 ? yd - 1 : length + yd)
        }
    }

    /// The first occurrence at or after k (on day kDay or later), year by year.
    package func firstInYearDays(atOrAfter k: OccurrenceKey, kDay: Int) -> OccurrenceKey? {
        var cur = MonthCursor(year: CalendarMath.civil(dayNumber: kDay).year, month: 1)
        var memo = MonthMaskMemo()
        var types = YearDayTypes()
        // After a year without one, the days the INTERVAL cannot reach are left out untried.
        var phase = DayPhase.none
        // With a phase of at most 64 days, the residues r of Jan 1 modulo its period for which a
        // year of a type has a value reached (bit r: some value's offset i has (r + i) mod p
        // admitted), found once a type: the years between are left out on plain integers, Jan
        // 1's residue kept from year to year.
        var reaching = InlineArray<14, UInt64>(repeating: 0)
        var reachingKnown: UInt16 = 0
        var r = 0
        // Years repeat their days and the INTERVAL's step together after `cycles` 400-year cycles.
        var year = 0
        let lastYear = 401 * cycles
        while year <= lastYear {
            guard cur.base <= searchEnd else { return nil }
            if year == 1 {
                phase = dayPhase()
                r = phase.all ? 0 : floorMod(cur.base, phase.period)
            }
            if year >= 1, !phase.all, phase.period <= 64 {
                let p = phase.period
                let full = p == 64 ? ~UInt64(0) : (UInt64(1) << UInt64(p)) &- 1
                let (common, leapYear) = (365 % p, 366 % p)
                while year <= lastYear {
                    let t = YearInfo.type(jan1Weekday: cur.firstWeekday, leap: cur.leap)
                    if reachingKnown & (UInt16(1) << UInt16(t)) == 0 {
                        let length = cur.leap ? 366 : 365
                        var x = types.days(self, jan1Weekday: cur.firstWeekday, leap: cur.leap, memo: &memo)
                        var s: UInt64 = 0
                        while x != 0 {
                            let yd = yearDays[x.trailingZeroBitCount]
                            x &= x - 1
                            let q = UInt64((yd > 0 ? yd - 1 : length + yd) % p)
                            s |= q == 0 ? phase.residues : ((phase.residues >> q) | (phase.residues << (UInt64(p) - q))) & full
                        }
                        reaching[t] = s
                        reachingKnown |= UInt16(1) << UInt16(t)
                    }
                    if reaching[t] & (UInt64(1) << UInt64(r)) != 0 { break }
                    r += cur.leap ? leapYear : common
                    if r >= p { r -= p }
                    cur.advanceYear()
                    year += 1
                    guard cur.base <= searchEnd else { return nil }
                }
                guard year <= lastYear else { return nil }
                // This year is reached; Jan 1's residue moves on with it.
                r += cur.leap ? leapYear : common
                if r >= p { r -= p }
            }
            var best: OccurrenceKey? = nil
            let base = cur.base
            forEachYearDay(cur, &types, memo: &memo) { i in
                let d = base + i
                guard d >= kDay, phase.admits(d), best.map({ d * OccurrenceKey.minutesPerDay < $0 }) ?? true else { return }
                if let key = firstOnDay(d, atOrAfter: k) { best = best.map { min($0, key) } ?? key }
            }
            if let best { return best }
            cur.advanceYear()
            year += 1
        }
        return nil
    }

    /// The occurrences before key k (on day kDay), at most about `limit`, year by year: whole
    /// days by the counts of their residues (DayCounts), the anchor's and k's on their own.
    package func countByYearDays(before k: OccurrenceKey, kDay: Int, limit: Int) -> Int {
        var cur = MonthCursor(year: anchor.year, month: 1)
        var memo = MonthMaskMemo()
        var types = YearDayTypes()
        var dayCounts = DayCounts(period: dayPeriod)
        var c = 0
        while c < limit, cur.base <= kDay {
            let base = cur.base
            forEachYearDay(cur, &types, memo: &memo) { i in
                let d = base + i
                guard d >= anchorDay, d <= kDay else { return }
                if d == anchorDay || d == kDay || dayCounts.period == 0 {
                    c += count(onDay: d, before: k, atMost: Int(Int32.max))
                } else {
                    c += dayCounts.whole(self, day: d)
                }
            }
            cur.advanceYear()
        }
        return c
    }
}
