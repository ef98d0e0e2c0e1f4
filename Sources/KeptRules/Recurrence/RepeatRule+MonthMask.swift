// A month's days as one 32-bit mask (bit i: the month's day i + 1), so that the day parts of a
// rule cost a few integer operations a month: BYMONTHDAY from the start and from the end (with
// the month-end clamp), BYDAY (plain weekdays as a 7-day pattern, ordinals counted in the
// month) and BYYEARDAY. A walk over months keeps a cursor (the first day's number and weekday,
// the length) and a memo of the masks by first weekday and length, which are all BYMONTHDAY and
// BYDAY depend on; the INTERVAL of a day-stream rule (daily, hourly, minutely) becomes a
// pattern of the days that can have an occurrence at all (DayPhase).

/// One month of the calendar, as a walk visits them in order.
package struct MonthCursor {
    package var year: Int
    /// 1…12.
    package var month: Int
    /// Day number of the month's first day.
    package var base: Int
    package var length: Int
    /// The weekday of the first day, Monday = 0.
    package var firstWeekday: Int
    package var leap: Bool

    package static let lengths = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    package init(base: Int, length: Int, firstWeekday: Int, month: Int, year: Int, leap: Bool) {
        (self.base, self.length, self.firstWeekday, self.month, self.year, self.leap) = (base, length, firstWeekday, month, year, leap)
    }

    /// The month that holds day number `day`.
    package init(containing day: Int) {
        let (y, m, _) = CalendarMath.civil(dayNumber: day)
        self.init(year: y, month: m)
    }

    /// The month `month` (1…12) of `year`.
    package init(year y: Int, month m: Int) {
        year = y
        month = m
        leap = CalendarMath.isLeapYear(y)
        base = CalendarMath.dayNumber(year: y, month: m, day: 1)
        length = MonthCursor.lengths[m] + (leap && m == 2 ? 1 : 0)
        firstWeekday = floorMod(base + 3, 7)
    }

    /// The next month.
    @inline(__always) package mutating func advance() {
        base += length
        firstWeekday += length - 28
        if firstWeekday >= 7 { firstWeekday -= 7 }
        month += 1
        if month == 13 {
            month = 1
            year += 1
            leap = CalendarMath.isLeapYear(year)
        }
        length = MonthCursor.lengths[month] + (leap && month == 2 ? 1 : 0)
    }

    /// The offset of the month's first day in its year.
    package var yearOffset: Int { YearInfo.monthStarts[month - 1] + (leap && month > 2 ? 1 : 0) }

    /// Bits 0..<n.
    @inline(__always) package static func low(_ n: Int) -> UInt32 { UInt32(truncatingIfNeeded: (UInt64(1) << UInt64(max(0, min(n, 32)))) &- 1) }
}

/// The masks of BYMONTHDAY and BYDAY by a month's first weekday and length, computed when first
/// asked (a walk's own memo, on the stack).
package struct MonthMaskMemo {
    private var masks = InlineArray<28, UInt32>(repeating: 0)
    private var known: UInt32 = 0

    @inline(__always) package mutating func mask(_ e: borrowing Expansion, firstWeekday w1: Int, length len: Int) -> UInt32 {
        let k = w1 * 4 + len - 28
        if known & (UInt32(1) << UInt32(k)) != 0 { return masks[k] }
        let m = e.dayParts(firstWeekday: w1, length: len)
        masks[k] = m
        known |= UInt32(1) << UInt32(k)
        return m
    }
}

/// The days a day-stream rule can have an occurrence on at all, because of its INTERVAL: day d
/// can when d mod `period` is one of the residues. Daily: the anchor's residue mod INTERVAL.
/// Hourly and minutely: the days on which some allowed hour (minute) of the day falls on the
/// INTERVAL's step from the anchor. Weekly rules, counted as a day stream: the days of every
/// INTERVAL-th week.
package struct DayPhase {
    /// The period in days; 1 with every residue is no limit.
    package let period: Int
    /// Bit r for residue r, when the period is at most 64.
    package let residues: UInt64
    /// The residues repeated over 64 bits (bit j: j mod period is a residue), period ≤ 32.
    package let pattern: UInt64
    /// Every day can: no limit.
    package let all: Bool

    package init(period: Int, residues: UInt64) {
        self.period = period
        self.residues = residues
        let full = period >= 64 ? ~UInt64(0) : (UInt64(1) << UInt64(period)) - 1
        all = period > 64 || residues & full == full
        var p: UInt64 = 0
        if period <= 32 {
            var s = 0
            while s < 64 {
                p |= residues << UInt64(s)
                s += period
            }
        }
        pattern = p
    }

    package static let none = DayPhase(period: 1, residues: 1)

    /// Whether day number d can have an occurrence.
    @inline(__always) package func admits(_ d: Int) -> Bool {
        all || residues & (UInt64(1) << UInt64(floorMod(d, period))) != 0
    }

    /// The days of a month from day number `base` that can, as a month mask.
    @inline(__always) package func mask(from base: Int) -> UInt32 {
        if all { return ~0 }
        let r = floorMod(base, period)
        if period <= 32 { return UInt32(truncatingIfNeeded: pattern >> UInt64(r)) }
        var m: UInt32 = 0
        var x = residues
        while x != 0 {
            let res = x.trailingZeroBitCount
            x &= x - 1
            let i = floorMod(res - r, period)
            if i < 32 { m |= UInt32(1) << UInt32(i) }
        }
        return m
    }
}

extension Expansion {
    /// The plain BYDAY weekdays repeated over 64 bits: bit j when weekday j mod 7 (Monday = 0)
    /// is one, so that a month starting on weekday w has `pattern >> w`.
    @inline(__always) package var weekdayPattern: UInt64 { UInt64(weekdays >> 1) &* 0x0102_0408_1020_4081 }

    /// The offset in a month (of `length` days, starting on weekday w1) of its nth weekday.
    @inline(__always) package static func nthOffset(_ e: RepeatRule.NthWeekday, firstWeekday w1: Int, length len: Int) -> Int? {
        let wd = e.weekday.rawValue - 1
        let i: Int
        if e.n > 0 {
            i = (e.n - 1) * 7 + (wd - w1 + 7) % 7
        } else {
            let wl = (w1 + len - 1) % 7
            i = len - 1 + (e.n + 1) * 7 - (wl - wd + 7) % 7
        }
        return i >= 0 && i < len ? i : nil
    }

    /// BYMONTHDAY (a day the month lacks on its last day when clamping) and BYDAY (ordinals in
    /// the month) as the mask of a month of `len` days starting on weekday w1; every day of the
    /// month when the rule has neither.
    package func dayParts(firstWeekday w1: Int, length len: Int) -> UInt32 {
        let full = MonthCursor.low(len)
        var mask = monthDayMask(length: len)
        if hasByDay {
            var bd = UInt32(truncatingIfNeeded: weekdayPattern >> UInt64(w1)) & full
            for e in nthWeekdays {
                if let i = Expansion.nthOffset(e, firstWeekday: w1, length: len) { bd |= UInt32(1) << UInt32(i) }
            }
            mask &= bd
        }
        return mask
    }

    /// BYMONTHDAY (a day the month lacks on its last day when clamping) as the mask of a month
    /// of `len` days; every day of the month when the rule has none.
    @inline(__always) package func monthDayMask(length len: Int) -> UInt32 {
        let full = MonthCursor.low(len)
        guard monthDays | monthDaysFromEnd != 0 else { return full }
        var md = (monthDays >> 1) & full
        if clamp, monthDays >> UInt32(len + 1) != 0 { md |= UInt32(1) << UInt32(len - 1) }
        var neg = monthDaysFromEnd
        while neg != 0 {
            let k = neg.trailingZeroBitCount
            neg &= neg - 1
            if k <= len { md |= UInt32(1) << UInt32(len - k) }
        }
        return md
    }

    /// BYYEARDAY as the mask of the month starting at offset `start` of a year of `yearLength`
    /// days; every day when the rule has none.
    package func yearDayMask(start: Int, length len: Int, yearLength: Int) -> UInt32 {
        if yearDays.isEmpty { return ~0 }
        var m: UInt32 = 0
        for yd in yearDays {
            let i = (yd > 0 ? yd - 1 : yearLength + yd) - start
            if i >= 0, i < len { m |= UInt32(1) << UInt32(i) }
        }
        return m
    }

    /// Whether BYMONTH allows month m (1…12).
    @inline(__always) package func allows(month m: Int) -> Bool { months == 0 || months & (UInt16(1) << UInt16(m)) != 0 }

    /// The days of month m of year y that the rule has, as a mask: a monthly period, and the
    /// days of daily and shorter rules (where every part limits).
    package func monthMask(_ y: YearInfo, month m: Int) -> UInt32 {
        guard allows(month: m) else { return 0 }
        let start = y.monthStart(m)
        let len = y.monthLength(m)
        return dayParts(firstWeekday: y.weekday(ofOffset: start), length: len) & yearDayMask(start: start, length: len, yearLength: y.length)
    }

    /// The same for the month at a cursor, with a memo of the BYMONTHDAY and BYDAY masks.
    @inline(__always) package func monthMask(_ c: MonthCursor, _ memo: inout MonthMaskMemo) -> UInt32 {
        guard allows(month: c.month) else { return 0 }
        let m = memo.mask(self, firstWeekday: c.firstWeekday, length: c.length)
        if yearDays.isEmpty || m == 0 { return m }
        return m & yearDayMask(start: c.yearOffset, length: c.length, yearLength: c.leap ? 366 : 365)
    }

    /// The days of month m of year y, as a day set.
    package func monthSet(_ y: YearInfo, month m: Int) -> DaySet { DaySet(mask: monthMask(y, month: m)) }
}

extension DaySet {
    /// The days of one month mask.
    package init(mask: UInt32) {
        self.init()
        insert(mask: mask, at: 0)
    }
}
