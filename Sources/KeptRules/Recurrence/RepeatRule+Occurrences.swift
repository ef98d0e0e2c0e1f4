// Next occurrences, computed from the anchor: finding the next date after a day costs the same
// for an anchor five years old as for one set yesterday (no series walk), except that COUNT
// needs the occurrences before it counted (in constant time for daily and weekly rules without
// limits, by a walk bounded by COUNT otherwise). UNTIL as RFC 5545 means it: a date for a date
// rule, a floating wall time, or an instant (UTC) compared in the account's zone.

extension RepeatRule {
    package func expansion(anchor: CivilDate, time: WallTime?, weekStart: Weekday, through last: Int = Expansion.lastDay,
                           start: WallTime? = nil) -> Expansion {
        Expansion(self, anchor: anchor, time: time, weekStart: weekStart, through: last, start: start)
    }

    package static func key(_ d: CivilDate, _ minute: Int = 0) -> OccurrenceKey { d.dayNumber * OccurrenceKey.minutesPerDay + minute }
    package static func key(_ t: CivilDateTime) -> OccurrenceKey { key(t.date, t.time.minuteOfDay) }

    package static func due(_ k: OccurrenceKey, timed: Bool) -> Due {
        let day = floorDiv(k, OccurrenceKey.minutesPerDay)
        let minute = k - day * OccurrenceKey.minutesPerDay
        return Due(date: CivilDate(dayNumber: day), time: timed ? WallTime(minuteOfDay: minute) : nil)
    }

    /// Whether an occurrence is on or before UNTIL; an instant UNTIL is compared in `zone`.
    package func meetsUntil(_ k: OccurrenceKey, zone: Zone?) -> Bool {
        guard let end else { return true }
        switch end {
        case .date(let d):
            return floorDiv(k, OccurrenceKey.minutesPerDay) <= d.dayNumber
        case .local(let t, _):
            return k <= RepeatRule.key(t)
        case .utc(let t, let second):
            let wall = RepeatRule.due(k, timed: true)
            let local = CivilDateTime(date: wall.date, time: wall.time ?? .midnight)
            let instant = (zone ?? .utc).instant(for: local)
            return instant.seconds <= Int64(t.secondsAsUTC + second)
        }
    }

    /// The last day an occurrence on or before UNTIL can fall on (for an instant, two days after
    /// its UTC date: the wall clock of any zone is within a day of UTC), or the calendar's.
    package var searchEnd: Int {
        guard let end else { return Expansion.lastDay }
        switch end {
        case .date(let d): return d.dayNumber
        case .local(let t, _): return t.date.dayNumber
        case .utc(let t, _): return min(t.date.dayNumber + 2, Expansion.lastDay)
        }
    }

    /// How many occurrences come before key k (from the anchor on), at most `limit`.
    package func occurrences(before k: OccurrenceKey, in e: Expansion, limit: Int) -> Int {
        if e.walksSkip { return e.skipWalkCount(before: k, limit: limit) }
        if setPositions.isEmpty, let c = uniformCount(before: k, e) { return min(c, limit) }
        return e.countByPeriods(before: k, limit: limit) ?? e.countByDays(before: k, limit: limit)
    }

    /// Daily rules without day parts and weekly rules with weekdays only have the same number
    /// of occurrences in every period: count them without a walk.
    package func uniformCount(before k: OccurrenceKey, _ e: Expansion) -> Int? {
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        let kMin = k - kDay * OccurrenceKey.minutesPerDay
        let timesBefore = e.timesBefore(kMin)
        // The start's own minute: times of the anchor day before it are no occurrences.
        let before = e.timesBefore(e.startKey - e.anchorDay * OccurrenceKey.minutesPerDay)
        switch frequency {
        case .daily where e.everyDay:
            guard kDay > e.anchorDay else { return kDay == e.anchorDay ? max(0, timesBefore - before) : 0 }
            let full = ceilDiv(kDay - e.anchorDay, e.n)
            let onDay = floorMod(kDay - e.anchorDay, e.n) == 0 ? timesBefore : 0
            return full * e.timesPerDay + onDay - before
        case .weekly where e.months == 0:
            let a0 = e.anchorDay - e.weekStart.days(until: e.anchor.weekday)
            func upTo(_ day: Int, _ minute: Int) -> Int {
                let w = floorDiv(day - a0, 7)
                guard w >= 0 else { return 0 }
                var c = ceilDiv(w, e.n) * e.weekdays.nonzeroBitCount * e.timesPerDay
                if w % e.n == 0 {
                    let ws = a0 + 7 * w
                    for d in ws..<day where e.weekdays & Expansion.weekdayBit(d) != 0 { c += e.timesPerDay }
                    if e.weekdays & Expansion.weekdayBit(day) != 0 { c += e.timesBefore(minute) }
                }
                return c
            }
            return max(0, upTo(kDay, kMin) - upTo(e.anchorDay, e.startKey - e.anchorDay * OccurrenceKey.minutesPerDay))
        default:
            return nil
        }
    }

    /// The first occurrence after key k, with COUNT and UNTIL, or nil when the series has ended.
    /// No occurrence lies between k and the first one after it, so COUNT counts the ones up to
    /// k: first, since a series that has ended needs no search ahead.
    package func next(after k: OccurrenceKey, in e: Expansion, zone: Zone?) -> OccurrenceKey? {
        if let c = count, occurrences(before: k + 1, in: e, limit: c) >= c { return nil }
        guard let o = e.first(atOrAfter: k + 1), meetsUntil(o, zone: zone) else { return nil }
        return o
    }

    // MARK: dates (a rule's days)

    /// The first occurrence on or after `start`, ignoring until and count.
    public func firstOccurrence(onOrAfter start: CivilDate, anchor: CivilDate, weekStart: Weekday = .monday) -> CivilDate? {
        let e = expansion(anchor: anchor, time: nil, weekStart: weekStart)
        return e.first(atOrAfter: RepeatRule.key(start)).map { CivilDate(dayNumber: floorDiv($0, OccurrenceKey.minutesPerDay)) }
    }

    /// The day of the first occurrence on a day strictly after `day`, or nil when the series has ended.
    public func nextOccurrence(after day: CivilDate, anchor: CivilDate, weekStart: Weekday = .monday) -> CivilDate? {
        let e = expansion(anchor: anchor, time: nil, weekStart: weekStart, through: searchEnd)
        return next(after: (day.dayNumber + 1) * OccurrenceKey.minutesPerDay - 1, in: e, zone: nil)
            .map { CivilDate(dayNumber: floorDiv($0, OccurrenceKey.minutesPerDay)) }
    }

    /// The days of the first `limit` occurrences from the anchor on (a day twice when the rule
    /// has two times that day).
    public func occurrences(anchor: CivilDate, limit: Int, weekStart: Weekday = .monday) -> [CivilDate] {
        occurrences(anchor: anchor, time: nil, limit: limit, weekStart: weekStart).map(\.date)
    }

    // MARK: occurrences with their times

    /// The first occurrence strictly after `moment` (a day and time on the wall clock), for a
    /// series anchored on `anchor` whose occurrences are at `time` when the rule has no time of
    /// its own (a task's due time); nil when the series has ended.
    public func nextOccurrence(after moment: CivilDateTime, anchor: CivilDate, time: WallTime? = nil,
                               weekStart: Weekday = .monday, zone: Zone? = nil, start: WallTime? = nil) -> Due? {
        let e = expansion(anchor: anchor, time: time, weekStart: weekStart, through: searchEnd, start: start)
        return next(after: RepeatRule.key(moment), in: e, zone: zone).map { RepeatRule.due($0, timed: e.timed) }
    }

    /// The first occurrence at or after `moment`, ignoring COUNT and UNTIL (R-REP-7 dates a
    /// task by it).
    public func firstOccurrence(atOrAfter moment: CivilDateTime, anchor: CivilDate, time: WallTime? = nil,
                                weekStart: Weekday = .monday, start: WallTime? = nil) -> Due? {
        let e = expansion(anchor: anchor, time: time, weekStart: weekStart, start: start)
        return e.first(atOrAfter: RepeatRule.key(moment)).map { RepeatRule.due($0, timed: e.timed) }
    }

    /// The first `limit` occurrences from the anchor on.
    public func occurrences(anchor: CivilDate, time: WallTime? = nil, limit: Int, weekStart: Weekday = .monday,
                            zone: Zone? = nil, start: WallTime? = nil) -> [Due] {
        let e = expansion(anchor: anchor, time: time, weekStart: weekStart, start: start)
        var out: [Due] = []
        var k = e.first(atOrAfter: e.startKey)
        while let x = k, out.count < limit {
            if !meetsUntil(x, zone: zone) { break }
            if let c = count, out.count >= c { break }
            out.append(RepeatRule.due(x, timed: e.timed))
            k = e.first(atOrAfter: x + 1)
        }
        return out
    }

    /// Whether the occurrences have times of day, given the task's due time when the rule has none.
    public func hasTimes(dueTime: WallTime?) -> Bool { isTimed || dueTime != nil }

    // MARK: the simple view

    /// The date of the rule's one day in a month (by month index year*12+month-1), or nil when
    /// that month has no such day (a 5th Tuesday): the simple monthly and yearly shapes.
    package func date(inMonth m: Int, anchor: CivilDate) -> CivilDate? {
        let year = floorDiv(m, 12)
        let month = m - year * 12 + 1
        guard CivilDate.yearRange.contains(year) else { return nil }
        var r = self
        r.frequency = .monthly
        r.monthMask = 0
        r.monthFromAnchor = false
        let e = r.expansion(anchor: anchor, time: nil, weekStart: .monday)
        let info = YearInfo(year)
        return e.monthSet(info, month: month).first(atOrAfter: 0).map { CivilDate(dayNumber: info.base + info.monthStart(month) + $0) }
    }

    package static func monthIndex(_ d: CivilDate) -> Int { d.year * 12 + d.month - 1 }
}

extension Expansion {
    /// The weekday bit (as RepeatRule.bit) of a day number.
    @inline(__always) package static func weekdayBit(_ day: Int) -> UInt8 { UInt8(1) << UInt8(floorMod(day + 3, 7) + 1) }

    /// How many times of the day come before minute s.
    package func timesBefore(_ s: Int) -> Int {
        guard s > 0 else { return 0 }
        let h = min(s / 60, 24)
        let fullHours = h == 0 ? 0 : (hours & ~(~UInt32(0) << UInt32(h))).nonzeroBitCount
        var c = fullHours * minutes.nonzeroBitCount
        if h < 24, hours & (UInt32(1) << UInt32(h)) != 0 {
            c += (minutes & ~(~UInt64(0) << UInt64(s % 60))).nonzeroBitCount
        }
        return c
    }
}
