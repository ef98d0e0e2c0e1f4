// The RFC 5545 expansion of a rule (section 3.3.10), on day numbers and minutes of the day.
// The rule's parts, with what the anchor implies (RFC 5545: a part the rule lacks comes from
// DTSTART), become one Expansion. Each period (a year, month, week, day, hour or minute, every
// INTERVAL of them from the anchor's) has a set of days: the BY* parts that expand a period
// build it and the others limit it, which comes to one rule: a day is in when it meets every
// part (BYDAY entries and BYMONTHDAY values each count as one part, met by any of its values).
// The times of day (BYHOUR × BYMINUTE) go with every day; BYSETPOS picks from the period's
// day × time list. The next occurrence jumps straight to the period that holds a day, so an
// anchor five years old costs what a new one does.
//
// Where python-dateutil's rrule differs from the RFC, Kept follows the RFC: a weekly period is
// the whole week even in the anchor's week (dateutil starts that week at DTSTART, which moves
// BYSETPOS there), and BYDAY entries with and without an ordinal add up (dateutil keeps only
// the days that meet both kinds).

/// An occurrence as one integer: day number × 1440 + minute of the day.
package typealias OccurrenceKey = Int

extension OccurrenceKey {
    package static let minutesPerDay = 1440
}

@inline(__always) package func floorDiv(_ a: Int, _ b: Int) -> Int { CalendarMath.floorDivide(a, b) }
/// a mod b with the sign of b (one division).
@inline(__always) package func floorMod(_ a: Int, _ b: Int) -> Int {
    let r = a % b
    return r != 0 && (r < 0) != (b < 0) ? r + b : r
}
@inline(__always) package func ceilDiv(_ a: Int, _ b: Int) -> Int { -CalendarMath.floorDivide(-a, b) }

package func gcd(_ a: Int, _ b: Int) -> Int {
    var (x, y) = (abs(a), abs(b))
    while y != 0 { (x, y) = (y, x % y) }
    return x
}

/// The facts of one year the expansion needs.
package struct YearInfo {
    package let year: Int
    /// Day number of Jan 1.
    package let base: Int
    package let length: Int
    package let leap: Bool
    /// Weekday of Jan 1, Monday = 0.
    package let firstWeekday: Int

    /// A year's type, 0…13 (Jan 1's weekday, Monday = 0, × 2, + 1 in a leap year): the days
    /// the day parts allow in a year depend only on it.
    @inline(__always) package static func type(jan1Weekday w: Int, leap: Bool) -> Int { w * 2 + (leap ? 1 : 0) }

    package static let monthStarts = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365]

    package static func firstDay(_ year: Int) -> Int { CalendarMath.dayNumber(year: year, month: 1, day: 1) }

    package init(_ year: Int) {
        self.year = year
        leap = CalendarMath.isLeapYear(year)
        length = leap ? 366 : 365
        base = CalendarMath.dayNumber(year: year, month: 1, day: 1)
        firstWeekday = floorMod(base + 3, 7)
    }

    /// Offset of the first day of month m (1…13) in the year.
    @inline(__always) package func monthStart(_ m: Int) -> Int { YearInfo.monthStarts[m - 1] + (leap && m > 2 ? 1 : 0) }
    @inline(__always) package func monthLength(_ m: Int) -> Int { monthStart(m + 1) - monthStart(m) }
    /// The month (1…12) of a day offset in the year.
    package func month(ofOffset i: Int) -> Int {
        var m = 1 + min(11, i / 31)
        while m > 1, monthStart(m) > i { m -= 1 }
        while m < 12, monthStart(m + 1) <= i { m += 1 }
        return m
    }
    /// The month (1…12) of a day offset in a year: a guess from 31-day months, at most one short.
    package static func month(ofOffset i: Int, leap: Bool) -> Int {
        let m = 1 + min(11, i / 31)
        return m < 12 && monthStarts[m] + (leap && m > 1 ? 1 : 0) <= i ? m + 1 : m
    }
    /// Weekday (Monday = 0) of a day offset.
    @inline(__always) package func weekday(ofOffset i: Int) -> Int { floorMod(firstWeekday + i, 7) }
}

/// A rule with its anchor: everything one computation of occurrences needs.
package struct Expansion {
    /// The rule's lists and week numbers (the rest of it is read into the fields below).
    package let nthWeekdays: [RepeatRule.NthWeekday]
    package let yearDays: [Int]
    package let setPositions: [Int]
    package let weekNoMask: UInt64
    package let weekNoFromEndMask: UInt64
    package let frequency: RepeatRule.Frequency
    package let n: Int
    package let anchor: CivilDate
    package let anchorDay: Int
    /// The anchor's minute of the day: the default time and the phase of hourly rules.
    package let anchorMinute: Int
    /// Whether occurrences have a time of day.
    package let timed: Bool
    /// No occurrence comes before this key (the anchor's day, or its moment for hourly rules).
    package let startKey: OccurrenceKey
    package let weekStart: Weekday
    /// Effective parts (with the anchor's defaults); 0 is "no such part".
    package let months: UInt16
    package let monthDays: UInt32
    package let monthDaysFromEnd: UInt32
    package let weekdays: UInt8
    package let hasByDay: Bool
    /// Whether the BYDAY ordinals count within the month (BYMONTH given, or a monthly rule) or
    /// within the year.
    package let nthInMonth: Bool
    /// Daily and longer: the hours and minutes of the times of day. Hourly: the hours that
    /// limit and the minutes of each hour. Minutely: the hours and minutes that limit.
    package let hours: UInt32
    package let minutes: UInt64
    /// Number of times of day (daily and longer), ≥ 1.
    package let timesPerDay: Int
    /// A day the month lacks (BYMONTHDAY=31 in April) falls on the month's last day.
    package let clamp: Bool
    /// RFC 7529 SKIP that moves a missing day out of its period: such a rule is walked period
    /// by period from the anchor's (Expansion+SkipWalk), with `skip` saying where a day goes.
    package let walksSkip: Bool
    package let skip: RepeatRule.Skip
    /// The last day a search for an occurrence looks at (day-stream and weekly rules): the
    /// calendar's, or UNTIL's for the next occurrence of a series (RepeatRule.searchEnd).
    package let searchEnd: Int

    package init(_ rule: borrowing RepeatRule, anchor: CivilDate, time: WallTime?, weekStart account: Weekday, through last: Int = Expansion.lastDay,
                 start: WallTime? = nil) {
        searchEnd = last
        nthWeekdays = rule.nthWeekdays
        yearDays = rule.yearDays
        setPositions = rule.setPositions
        weekNoMask = rule.weekNoMask
        weekNoFromEndMask = rule.weekNoFromEndMask
        frequency = rule.frequency
        n = max(1, rule.interval)
        self.anchor = anchor
        anchorDay = anchor.dayNumber
        weekStart = rule.weekStart ?? account
        var months = rule.monthFromAnchor ? UInt16(1) << UInt16(anchor.month) : rule.monthMask
        var md = rule.monthDayMask
        let mdEnd = rule.monthDayFromEndMask
        var wd = rule.weekdayMask
        if !rule.hasDayParts {
            switch rule.frequency {
            case .yearly:
                if months == 0 { months = UInt16(1) << UInt16(anchor.month) }
                md = UInt32(1) << UInt32(anchor.day)
            case .monthly:
                md = UInt32(1) << UInt32(anchor.day)
            case .weekly:
                wd = RepeatRule.bit(anchor.weekday)
            case .daily, .hourly, .minutely:
                break
            }
        }
        self.months = months
        monthDays = md
        monthDaysFromEnd = mdEnd
        weekdays = wd
        hasByDay = wd != 0 || !rule.nthWeekdays.isEmpty
        nthInMonth = rule.frequency == .monthly || months != 0
        clamp = rule.skip == .backward && (rule.frequency == .monthly || rule.frequency == .yearly)
        walksSkip = rule.skipCrossesPeriods
        skip = rule.skip
        let aMin = time?.minuteOfDay ?? 0
        anchorMinute = aMin
        switch rule.frequency {
        case .hourly:
            hours = rule.hourMask
            minutes = rule.minuteMask != 0 ? rule.minuteMask : UInt64(1) << UInt64(aMin % 60)
            timed = true
        case .minutely:
            hours = rule.hourMask
            minutes = rule.minuteMask
            timed = true
        case .daily, .weekly, .monthly, .yearly:
            if rule.hourMask != 0 || rule.minuteMask != 0 || time != nil {
                hours = rule.hourMask != 0 ? rule.hourMask : UInt32(1) << UInt32(aMin / 60)
                minutes = rule.minuteMask != 0 ? rule.minuteMask : UInt64(1) << UInt64(aMin % 60)
                timed = true
            } else {
                hours = 1
                minutes = 1
                timed = false
            }
        }
        timesPerDay = max(1, hours.nonzeroBitCount * minutes.nonzeroBitCount)
        let subDaily = rule.frequency == .hourly || rule.frequency == .minutely
        // RFC 5545: DTSTART is the first instance, so a timed series given its start's time
        // (`start`: an RRULE's DTSTART, `from DATE TIME`) has no occurrence before it.
        startKey = anchorDay * OccurrenceKey.minutesPerDay + (subDaily ? aMin : (timed ? start?.minuteOfDay ?? 0 : 0))
    }

    // MARK: times of day

    /// The k-th time of day (minute of the day), daily and longer.
    package func time(_ k: Int) -> Int {
        let perHour = minutes.nonzeroBitCount
        guard perHour > 0 else { return 0 }
        return Expansion.nthBit(UInt64(hours), k / perHour) * 60 + Expansion.nthBit(minutes, k % perHour)
    }

    package static func nthBit(_ mask: UInt64, _ k: Int) -> Int {
        var x = mask
        for _ in 0..<k where x != 0 { x &= x - 1 }
        return x == 0 ? 0 : x.trailingZeroBitCount
    }

    /// The first time of day at or after minute s (daily and longer), as a minute of the day.
    package func firstTime(atOrAfter s: Int) -> Int? {
        if s <= 0 { return Expansion.nthBit(UInt64(hours), 0) * 60 + minutes.trailingZeroBitCount }
        let h = s / 60
        guard h < 24 else { return nil }
        if hours & (UInt32(1) << UInt32(h)) != 0 {
            let m = minutes & (~UInt64(0) << UInt64(s % 60))
            if m != 0 { return h * 60 + m.trailingZeroBitCount }
        }
        let later = hours & (h >= 23 ? 0 : ~UInt32(0) << UInt32(h + 1))
        guard later != 0 else { return nil }
        return later.trailingZeroBitCount * 60 + minutes.trailingZeroBitCount
    }

    // MARK: the days of one period

    /// Whether a day (by its month and day of the month) meets BYMONTHDAY as a limit.
    @inline(__always) package func meetsMonthDays(day: Int, monthLength: Int) -> Bool {
        if monthDays | monthDaysFromEnd == 0 { return true }
        return monthDays & (UInt32(1) << UInt32(day)) != 0 || monthDaysFromEnd & (UInt32(1) << UInt32(monthLength + 1 - day)) != 0
    }

    /// Whether the day at `offset` of a range [first, last] of day offsets (a month or a year)
    /// meets BYDAY: a plain weekday, or one of the nth weekdays counted in that range.
    package func meetsByDay(_ y: YearInfo, offset i: Int, first: Int, last: Int) -> Bool {
        if !hasByDay { return true }
        let wd = y.weekday(ofOffset: i)
        if weekdays & (UInt8(1) << UInt8(wd + 1)) != 0 { return true }
        for e in nthWeekdays where e.weekday.rawValue - 1 == wd {
            if Expansion.nth(e, y, first: first, last: last) == i { return true }
        }
        return false
    }

    /// The offset of the nth weekday in the range [first, last], or nil.
    package static func nth(_ e: RepeatRule.NthWeekday, _ y: YearInfo, first: Int, last: Int) -> Int? {
        let wd = e.weekday.rawValue - 1
        let i: Int
        if e.n > 0 {
            i = first + (e.n - 1) * 7 + floorMod(wd - y.weekday(ofOffset: first), 7)
        } else {
            i = last + (e.n + 1) * 7 - floorMod(y.weekday(ofOffset: last) - wd, 7)
        }
        return i >= first && i <= last ? i : nil
    }

    /// Inserts the days of BYDAY in the range [first, last] (offsets relative to `origin`).
    package func insertByDay(_ set: inout DaySet, _ y: YearInfo, first: Int, last: Int, origin: Int) {
        if weekdays != 0 {
            for wd in 0..<7 where weekdays & (UInt8(1) << UInt8(wd + 1)) != 0 {
                var i = first + floorMod(wd - y.weekday(ofOffset: first), 7)
                while i <= last {
                    set.insert(i - origin)
                    i += 7
                }
            }
        }
        for e in nthWeekdays {
            if let i = Expansion.nth(e, y, first: first, last: last) { set.insert(i - origin) }
        }
    }

    /// Inserts the days of BYMONTHDAY in month m (offsets relative to `origin`), a day the
    /// month lacks on its last day when clamping.
    package func insertMonthDays(_ set: inout DaySet, _ y: YearInfo, month m: Int, origin: Int, clamp: Bool) {
        let start = y.monthStart(m)
        let len = y.monthLength(m)
        var pos = monthDays
        while pos != 0 {
            let d = pos.trailingZeroBitCount
            pos &= pos - 1
            if d <= len { set.insert(start + d - 1 - origin) } else if clamp { set.insert(start + len - 1 - origin) }
        }
        var neg = monthDaysFromEnd
        while neg != 0 {
            let k = neg.trailingZeroBitCount
            neg &= neg - 1
            if k <= len { set.insert(start + len - k - origin) }
        }
    }

    package func meetsYearDays(_ y: YearInfo, offset i: Int) -> Bool {
        yearDays.isEmpty || yearDays.contains(i + 1) || yearDays.contains(i - y.length)
    }

    /// Whether a year's days are its months' (no BYYEARDAY, BYWEEKNO or ordinals in the year).
    package var yearIsItsMonths: Bool { yearDays.isEmpty && weekNoMask | weekNoFromEndMask == 0 && (nthWeekdays.isEmpty || nthInMonth) }

    /// The days of year y that a yearly rule has, as offsets from Jan 1 (a year of months with
    /// their masks from `memo`, by first weekday and length).
    package func yearSet(_ y: YearInfo, _ memo: inout MonthMaskMemo) -> DaySet {
        var set = DaySet()
        // Without BYYEARDAY, BYWEEKNO and ordinals counted in the year, a year is its months.
        if yearIsItsMonths {
            for m in 1...12 where allows(month: m) {
                let start = y.monthStart(m)
                set.insert(mask: memo.mask(self, firstWeekday: y.weekday(ofOffset: start), length: y.monthLength(m)), at: start)
            }
            return set
        }
        let monthOK: (Int) -> Bool = { i in months == 0 || months & (UInt16(1) << UInt16(y.month(ofOffset: i))) != 0 }
        // BYDAY ordinals count within each month of BYMONTH, else within the year.
        let byDayOK: (Int) -> Bool = { i in
            guard hasByDay else { return true }
            if nthInMonth {
                let m = y.month(ofOffset: i)
                return meetsByDay(y, offset: i, first: y.monthStart(m), last: y.monthStart(m + 1) - 1)
            }
            return meetsByDay(y, offset: i, first: 0, last: y.length - 1)
        }
        let hasWeekNo = weekNoMask | weekNoFromEndMask != 0
        let weekDays = hasWeekNo ? weekNoSet(y) : DaySet()
        let weekNoOK: (Int) -> Bool = { i in weekDays.contains(i) }
        if !yearDays.isEmpty {
            for yd in yearDays {
                let i = yd > 0 ? yd - 1 : y.length + yd
                if i >= 0, i < y.length { set.insert(i) }
            }
            set.filter { i in
                guard monthOK(i), byDayOK(i), !hasWeekNo || weekNoOK(i) else { return false }
                let m = y.month(ofOffset: i)
                return meetsMonthDays(day: i - y.monthStart(m) + 1, monthLength: y.monthLength(m))
            }
        } else if monthDays | monthDaysFromEnd != 0 {
            for m in 1...12 where months == 0 || months & (UInt16(1) << UInt16(m)) != 0 {
                insertMonthDays(&set, y, month: m, origin: 0, clamp: clamp)
            }
            if hasByDay || hasWeekNo { set.filter { byDayOK($0) && (!hasWeekNo || weekNoOK($0)) } }
        } else if hasWeekNo {
            set = weekDays
            if nthWeekdays.isEmpty {
                // BYMONTH's months and BYDAY's weekdays as sets of their own, word by word.
                if months != 0 {
                    var inMonths = DaySet()
                    for m in 1...12 where allows(month: m) { inMonths.insert(from: y.monthStart(m), to: y.monthStart(m + 1)) }
                    set.formIntersection(inMonths)
                }
                if hasByDay { set.formIntersection(DaySet.weekdays(weekdayPattern, firstWeekday: y.firstWeekday)) }
            } else if hasByDay || months != 0 {
                set.filter { monthOK($0) && byDayOK($0) }
            }
        } else if hasByDay {
            if months != 0 {
                for m in 1...12 where months & (UInt16(1) << UInt16(m)) != 0 {
                    insertByDay(&set, y, first: y.monthStart(m), last: y.monthStart(m + 1) - 1, origin: 0)
                }
            } else {
                insertByDay(&set, y, first: 0, last: y.length - 1, origin: 0)
            }
        }
        return set
    }

    /// The days of year y (offsets from Jan 1) whose week (by WKST, week 1 the first with four
    /// days in its year) BYWEEKNO has, counted from the start or the end of the week's own
    /// year: early January may be the last week of the year before, late December week 1 of the
    /// next.
    package func weekNoSet(_ y: YearInfo) -> DaySet {
        var set = DaySet()
        let end = y.base + y.length
        // Jan 1 of the years around y from y's own, without a calendar conversion.
        let prevJan1 = y.base - (CalendarMath.isLeapYear(y.year - 1) ? 366 : 365)
        let afterNextJan1 = end + (CalendarMath.isLeapYear(y.year + 1) ? 366 : 365)
        let w1 = Expansion.week1Start(jan1: y.base, weekStart: weekStart)
        let w1Next = Expansion.week1Start(jan1: end, weekStart: weekStart)
        let w1Prev = Expansion.week1Start(jan1: prevJan1, weekStart: weekStart)
        func meets(_ week: Int, of weeks: Int) -> Bool {
            weekNoMask & (UInt64(1) << UInt64(week)) != 0 || weekNoFromEndMask & (UInt64(1) << UInt64(weeks + 1 - week)) != 0
        }
        func insert(_ from: Int, _ to: Int) { set.insert(from: from - y.base, to: min(to, end) - y.base) }
        // The weeks of y's own numbering that BYWEEKNO names, by the bits of its values.
        let weeks = (w1Next - w1) / 7
        var pos = weekNoMask
        while pos != 0 {
            let week = pos.trailingZeroBitCount
            pos &= pos - 1
            if week >= 1, week <= weeks { insert(w1 + 7 * (week - 1), w1 + 7 * week) }
        }
        var neg = weekNoFromEndMask
        while neg != 0 {
            let k = neg.trailingZeroBitCount
            neg &= neg - 1
            if k >= 1, k <= weeks { insert(w1 + 7 * (weeks - k), w1 + 7 * (weeks + 1 - k)) }
        }
        let before = (w1 - w1Prev) / 7
        if w1 > y.base, meets(before, of: before) { insert(y.base, w1) }
        if w1Next < end, meets(1, of: (Expansion.week1Start(jan1: afterNextJan1, weekStart: weekStart) - w1Next) / 7) { insert(w1Next, end) }
        return set
    }

    /// Day number of the first day of week 1 of the year whose Jan 1 is day number `jan1`.
    package static func week1Start(jan1: Int, weekStart: Weekday) -> Int {
        let back = floorMod(floorMod(jan1 + 3, 7) - (weekStart.rawValue - 1), 7)
        // The week holding Jan 1 is week 1 when it has at least four days of the year.
        return 7 - back >= 4 ? jan1 - back : jan1 - back + 7
    }

    /// The days of the week starting on day number `ws`, as offsets from it.
    package func weekSet(_ ws: Int) -> DaySet {
        var set = DaySet()
        let wd0 = floorMod(ws + 3, 7)
        // BYMONTH: the week's days up to the end of its first month, and the rest.
        var split = 7, firstOK = true, secondOK = true
        if months != 0 {
            let (y, m, d) = CalendarMath.civil(dayNumber: ws)
            split = CalendarMath.daysInMonth(year: y, month: m) - d + 1
            firstOK = months & (UInt16(1) << UInt16(m)) != 0
            secondOK = months & (UInt16(1) << UInt16(m == 12 ? 1 : m + 1)) != 0
            if !firstOK, !secondOK || split >= 7 { return set }
        }
        for i in 0..<7 where weekdays & (UInt8(1) << UInt8(floorMod(wd0 + i, 7) + 1)) != 0 {
            if i < split ? firstOK : secondOK { set.insert(i) }
        }
        return set
    }

    /// The day number of the first day, on or after day `d`, of a month BYMONTH allows.
    package func nextAllowedMonth(from d: Int) -> Int? {
        let (y0, m0, _) = CalendarMath.civil(dayNumber: d)
        for k in 1...12 {
            let mi = y0 * 12 + m0 - 1 + k
            let m = mi - floorDiv(mi, 12) * 12 + 1
            if months & (UInt16(1) << UInt16(m)) != 0 { return CalendarMath.dayNumber(year: floorDiv(mi, 12), month: m, day: 1) }
        }
        return nil
    }

    // MARK: the first occurrence at or after a key

    /// The first occurrence of a period (its days from day number `base`) at or after `k`.
    package func first(in set: DaySet, base: Int, atOrAfter k: OccurrenceKey) -> OccurrenceKey? {
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        let kMin = k - kDay * OccurrenceKey.minutesPerDay
        if setPositions.isEmpty {
            let i0 = kDay - base
            guard var d = set.first(atOrAfter: i0) else { return nil }
            if d == i0 {
                if let t = firstTime(atOrAfter: kMin) { return (base + d) * OccurrenceKey.minutesPerDay + t }
                guard let d2 = set.first(atOrAfter: i0 + 1) else { return nil }
                d = d2
            }
            return (base + d) * OccurrenceKey.minutesPerDay + (firstTime(atOrAfter: 0) ?? 0)
        }
        let total = set.count * timesPerDay
        var best: OccurrenceKey? = nil
        for p in setPositions {
            let idx = p > 0 ? p - 1 : total + p
            guard idx >= 0, idx < total, let d = set.member(idx / timesPerDay) else { continue }
            let key = (base + d) * OccurrenceKey.minutesPerDay + time(idx % timesPerDay)
            if key >= k, best.map({ key < $0 }) ?? true { best = key }
        }
        return best
    }

    /// The first occurrence at or after `k0`, ignoring COUNT and UNTIL.
    package func first(atOrAfter k0: OccurrenceKey) -> OccurrenceKey? {
        // The series ends with the calendar: a date past 9999-12-31 is none, never clamped.
        guard let o = firstInCalendar(atOrAfter: k0), floorDiv(o, OccurrenceKey.minutesPerDay) <= Expansion.lastDay else { return nil }
        return o
    }

    private func firstInCalendar(atOrAfter k0: OccurrenceKey) -> OccurrenceKey? {
        if walksSkip { return skipWalkFirst(atOrAfter: max(k0, startKey)) }
        let k = max(k0, startKey)
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        guard kDay <= searchEnd else { return nil }
        switch frequency {
        case .yearly:
            let (ky, _, _) = CalendarMath.civil(dayNumber: kDay)
            var y = anchor.year + ceilDiv(max(0, ky - anchor.year), n) * n
            var memo = MonthMaskMemo()
            for _ in 0...(400 / gcd(n, 400) + 1) {
                guard y <= CivilDate.yearRange.upperBound else { return nil }
                let info = YearInfo(y)
                if let key = first(in: yearSet(info, &memo), base: info.base, atOrAfter: k) { return key }
                y += n
            }
            return nil
        case .monthly:
            let (ky, km, _) = CalendarMath.civil(dayNumber: kDay)
            let a = anchor.year * 12 + anchor.month - 1
            let m0 = a + ceilDiv(max(0, ky * 12 + km - 1 - a), n) * n
            guard floorDiv(m0, 12) <= CivilDate.yearRange.upperBound else { return nil }
            var cur = MonthCursor(year: floorDiv(m0, 12), month: floorMod(m0, 12) + 1)
            // The first two months of the series from k, on their own: most rules have a day there.
            for _ in 0..<2 {
                guard cur.year <= CivilDate.yearRange.upperBound else { return nil }
                if allows(month: cur.month) {
                    var mask = dayParts(firstWeekday: cur.firstWeekday, length: cur.length)
                    if mask != 0, !yearDays.isEmpty { mask &= yearDayMask(start: cur.yearOffset, length: cur.length, yearLength: cur.leap ? 366 : 365) }
                    if mask != 0, let key = first(in: DaySet(mask: mask), base: cur.base, atOrAfter: k) { return key }
                }
                cur.advance(months: n)
            }
            return firstInMonths(from: cur, atOrAfter: k)
        case .weekly:
            let a0 = anchorDay - weekStart.days(until: anchor.weekday)
            let w0 = kDay - floorMod(kDay + 3 - (weekStart.rawValue - 1), 7)
            var ws = a0 + ceilDiv(max(0, (w0 - a0) / 7), n) * n * 7
            for _ in 0...(20871 / gcd(n, 20871) + 1) {
                guard ws <= searchEnd else { return nil }
                let set = weekSet(ws)
                if set.isEmpty, months != 0, let next = nextAllowedMonth(from: ws) {
                    // Weeks outside BYMONTH: jump to the series' week that reaches the next allowed month.
                    ws = max(ws + 7 * n, a0 + ceilDiv(floorDiv(next - a0, 7), n) * n * 7)
                    continue
                }
                if let key = first(in: set, base: ws, atOrAfter: k) { return key }
                ws += 7 * n
            }
            return nil
        case .daily, .hourly, .minutely:
            return firstInDays(atOrAfter: k, kDay: kDay)
        }
    }

    /// Monthly rules, from the month at `start` on (one of the series): the first occurrence at
    /// or after k, month by month with the masks memoised. With an INTERVAL that divides 12
    /// every year has the same months of the series: a year none of whose months holds a day
    /// (YearSkip) is left out whole.
    package func firstInMonths(from start: MonthCursor, atOrAfter k: OccurrenceKey) -> OccurrenceKey? {
        var cur = start
        var memo = MonthMaskMemo()
        let a = anchor.year * 12 + anchor.month - 1
        var stepMonths: UInt16 = 0
        if 12 % n == 0 {
            for m in 1...12 where floorMod(m - 1 - a, n) == 0 && allows(month: m) { stepMonths |= UInt16(1) << UInt16(m) }
            if stepMonths == 0 { return nil }
        }
        let firstStepMonth = stepMonths.trailingZeroBitCount
        var skip = YearSkip(.none, months: stepMonths)
        let limit = 4800 / gcd(n, 4800) + 1
        var steps = 0
        while steps <= limit {
            guard cur.year <= CivilDate.yearRange.upperBound else { return nil }
            if stepMonths != 0, cur.month == firstStepMonth {
                let jan1 = cur.base - cur.yearOffset
                var jan = MonthCursor(base: jan1, length: 31, firstWeekday: floorMod(jan1 + 3, 7), month: 1, year: cur.year, leap: cur.leap)
                let years = skip.skipYears(self, &jan, end: Expansion.lastDay, most: (limit - steps) / (12 / n) + 1, memo: &memo)
                if years > 0 {
                    cur = MonthCursor(year: jan.year, month: cur.month)
                    steps += years * (12 / n)
                    continue
                }
            }
            // A month BYMONTH leaves out costs no calendar work.
            if allows(month: cur.month) {
                let mask = monthMask(cur, &memo)
                if mask != 0, let key = first(in: DaySet(mask: mask), base: cur.base, atOrAfter: k) { return key }
            }
            cur.advance(months: n)
            steps += 1
        }
        return nil
    }

    package static let lastDay = CivilDate.latest.dayNumber

    // MARK: counting (COUNT)

    /// The occurrences of a period (its days from day number `base`) in [startKey, k).
    package func count(in set: DaySet, base: Int, before k: OccurrenceKey) -> Int {
        if setPositions.isEmpty {
            // The period's days from the anchor's on (startKey is a day's first minute here)
            // before k's day are whole; on k's day, the times before k's minute.
            let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
            let lo = floorDiv(startKey, OccurrenceKey.minutesPerDay) - base, hi = kDay - base
            var c = set.count(from: lo, to: hi) * timesPerDay
            if hi >= lo, set.contains(hi) { c += timesBefore(k - kDay * OccurrenceKey.minutesPerDay) }
            // The start day's times before the start's (a timed series from DTSTART's time).
            let startMinute = startKey - floorDiv(startKey, OccurrenceKey.minutesPerDay) * OccurrenceKey.minutesPerDay
            if startMinute > 0, hi >= lo, lo >= 0, set.contains(lo) { c = max(0, c - timesBefore(startMinute)) }
            return c
        }
        let total = set.count * timesPerDay
        var c = 0
        for j in 0..<setPositions.count {
            let idx = Expansion.position(setPositions[j], total)
            guard idx >= 0, idx < total, !isRepeat(j, total), let d = set.member(idx / timesPerDay) else { continue }
            let key = (base + d) * OccurrenceKey.minutesPerDay + time(idx % timesPerDay)
            if key >= startKey, key < k { c += 1 }
        }
        return c
    }

    /// The 0-based index BYSETPOS value p picks among `total` occurrences (out of range: none).
    @inline(__always) package static func position(_ p: Int, _ total: Int) -> Int { p > 0 ? p - 1 : total + p }

    /// Whether BYSETPOS's j-th value picks what an earlier one does, among `total`.
    package func isRepeat(_ j: Int, _ total: Int) -> Bool {
        let idx = Expansion.position(setPositions[j], total)
        for i in 0..<j where Expansion.position(setPositions[i], total) == idx { return true }
        return false
    }

    /// How many occurrences a whole period with `total` of them before BYSETPOS has.
    package func kept(total: Int) -> Int {
        guard !setPositions.isEmpty else { return total }
        var c = 0
        for j in 0..<setPositions.count {
            let idx = Expansion.position(setPositions[j], total)
            if idx >= 0, idx < total, !isRepeat(j, total) { c += 1 }
        }
        return c
    }

    /// How many occurrences come before key k, at most `limit`, by whole periods for yearly,
    /// monthly and weekly rules (one set a period, not a search an occurrence); nil for the others.
    package func countByPeriods(before k: OccurrenceKey, limit: Int) -> Int? {
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        let startDay = floorDiv(startKey, OccurrenceKey.minutesPerDay)
        var c = 0
        switch frequency {
        case .yearly:
            var y = anchor.year
            // A year of months (no BYYEARDAY, BYWEEKNO or ordinals in the year) wholly between
            // the anchor and k counts by the bits of its months (their masks memoised by first
            // weekday and length), BYSETPOS by what it keeps of the year's total.
            let byMonths = yearIsItsMonths
            var memo = MonthMaskMemo()
            while c < limit, y <= CivilDate.yearRange.upperBound, YearInfo.firstDay(y) <= kDay {
                let info = YearInfo(y)
                if byMonths, info.base >= startDay, info.base + info.length <= kDay {
                    var days = 0
                    for m in 1...12 where allows(month: m) {
                        days += memo.mask(self, firstWeekday: info.weekday(ofOffset: info.monthStart(m)), length: info.monthLength(m)).nonzeroBitCount
                    }
                    c += kept(total: days * timesPerDay)
                } else {
                    c += count(in: yearSet(info, &memo), base: info.base, before: k)
                }
                y += n
            }
        case .monthly where months == 0 && !hasByDay && yearDays.isEmpty && monthDays | monthDaysFromEnd != 0
                && (monthDaysFromEnd == 0 ? monthDays >> 29 == 0 : monthDays == 0 && monthDaysFromEnd >> 29 == 0):
            // BYMONTHDAY within the first 28 days, or within the last 28: every month has the
            // same days. The anchor's month and k's are counted, the whole months between by
            // multiplying.
            let a = anchor.year * 12 + anchor.month - 1
            let (ky, km, _) = CalendarMath.civil(dayNumber: kDay)
            let kIndex = ky * 12 + km - 1
            func partial(_ cur: MonthCursor) -> Int {
                count(in: DaySet(mask: dayParts(firstWeekday: cur.firstWeekday, length: cur.length)), base: cur.base, before: k)
            }
            c = partial(MonthCursor(containing: anchorDay))
            if kIndex > a {
                c += (kIndex - 1 - a) / n * kept(total: (monthDays | monthDaysFromEnd).nonzeroBitCount * timesPerDay)
                if (kIndex - a) % n == 0 { c += partial(MonthCursor(year: ky, month: km)) }
            }
        case .monthly:
            var cur = MonthCursor(containing: anchorDay)
            var memo = MonthMaskMemo()
            var whole = WholeMonthCounts()
            while c < limit, cur.base <= kDay, cur.year <= CivilDate.yearRange.upperBound {
                if yearDays.isEmpty, cur.base >= startDay, cur.base + cur.length <= kDay {
                    countWholeMonths(&cur, &c, kDay: kDay, limit: limit, counts: &whole, memo: &memo)
                    continue
                }
                let m = monthMask(cur, &memo)
                if m != 0 {
                    // A month wholly between the anchor and k counts by its bits.
                    if cur.base >= startDay, cur.base + cur.length <= kDay {
                        c += kept(total: m.nonzeroBitCount * timesPerDay)
                    } else {
                        c += count(in: DaySet(mask: m), base: cur.base, before: k)
                    }
                }
                cur.advance(months: n)
            }
        case .weekly where setPositions.isEmpty && n <= 9:
            // Without BYSETPOS a weekly rule is a day stream: its weekdays in BYMONTH's months,
            // in every INTERVAL-th week from the anchor's (the days of the weeks as a phase).
            let a0 = anchorDay - weekStart.days(until: anchor.weekday)
            var res: UInt64 = 0
            for j in 0..<7 { res |= UInt64(1) << UInt64(floorMod(a0 + j, 7 * n)) }
            let phase = DayPhase(period: 7 * n, residues: res)
            var cur = MonthCursor(containing: anchorDay)
            var memo = MonthMaskMemo()
            var wholeMonthsTried = false, months = 0
            while c < limit, cur.base <= kDay, cur.year <= CivilDate.yearRange.upperBound {
                // The months from the anchor's day to k's month, on plain integers, once three
                // months have not reached the limit.
                months += 1
                if !wholeMonthsTried, months > 3, cur.base >= anchorDay, kDay - cur.base >= 62 {
                    wholeMonthsTried = true
                    if let w = weeklyMonthCounter(residues: res) {
                        var skip = YearSkip(.none, months: 0), skipping = false, visited = 0, unused = DayCounts(period: 0)
                        countWholeMonths(&cur, &c, kDay: kDay, limit: limit, counter: w, skip: &skip, skipping: &skipping,
                                         memo: &memo, dayCounts: &unused, visited: &visited)
                        continue
                    }
                }
                let m = monthMask(cur, &memo) & phase.mask(from: cur.base)
                if m != 0 { c += count(in: DaySet(mask: m), base: cur.base, before: k) }
                cur.advance()
            }
        case .weekly where months == 0:
            // Without BYMONTH every week has the same days: the anchor's week and k's are
            // counted, the whole weeks between by multiplying.
            let a0 = anchorDay - weekStart.days(until: anchor.weekday)
            let set = weekSet(a0)
            let step = 7 * n
            c = count(in: set, base: a0, before: k)
            let whole = kDay - 7 - a0 >= step ? floorDiv(kDay - 7 - a0, step) : 0
            c += whole * kept(total: set.count * timesPerDay)
            let ws = a0 + step * (whole + 1)
            if ws <= kDay { c += count(in: set, base: ws, before: k) }
        case .weekly:
            var ws = anchorDay - weekStart.days(until: anchor.weekday)
            while c < limit, ws <= kDay {
                c += count(in: weekSet(ws), base: ws, before: k)
                ws += 7 * n
            }
        case .daily, .hourly, .minutely:
            return nil
        }
        return min(c, limit)
    }

}

extension DaySet {
    /// The days 0..<count.
    package static func all(_ count: Int) -> DaySet {
        var s = DaySet()
        for i in 0..<min(count, capacity) { s.insert(i) }
        return s
    }
}
