// The day stream of daily, hourly and minutely rules: every day the day parts allow (all of
// them limit), each with the occurrences its times and the INTERVAL's step from the anchor give
// it. The next occurrence walks months as masks (BYYEARDAY too), skipping the days the
// INTERVAL cannot reach (DayPhase) and the years that hold none (YearSkip); COUNT counts whole
// months of days by their bits.

/// The occurrences of whole days of an hourly or minutely rule by the day's residue modulo the
/// INTERVAL's period in days (≤ 64), each computed when first asked (a count's own memo, on the
/// stack): a whole day's times on the step depend only on that residue. Period 0: not kept.
package struct DayCounts {
    package let period: Int
    private var counts = InlineArray<64, Int32>(repeating: 0)
    private var known: UInt64 = 0

    package init(period p: Int) { period = p <= 64 ? p : 0 }

    /// The occurrences of day number d, a whole day after the anchor's that the day parts allow.
    @inline(__always) package mutating func whole(_ e: borrowing Expansion, day d: Int) -> Int {
        let r = period == 1 ? 0 : floorMod(d, period)
        if known & (UInt64(1) << UInt64(r)) == 0 {
            counts[r] = Int32(e.count(onDay: d, before: (d + 1) * OccurrenceKey.minutesPerDay, atMost: Int(Int32.max)))
            known |= UInt64(1) << UInt64(r)
        }
        return Int(counts[r])
    }
}

extension Expansion {
    /// Whether a daily rule has no day part, so that every INTERVAL-th day is in.
    package var everyDay: Bool { months == 0 && monthDays | monthDaysFromEnd == 0 && !hasByDay && yearDays.isEmpty }

    /// Daily, hourly and minutely rules: the first occurrence at or after k, from the days the
    /// day parts allow (month masks, BYYEARDAY included), each tried in turn; once a few have
    /// none, the days the INTERVAL cannot reach are left out without a try, and from the first
    /// January on, whole years that cannot hold one (YearSkip).
    package func firstInDays(atOrAfter k: OccurrenceKey, kDay: Int) -> OccurrenceKey? {
        if !reachable || (frequency == .minutely && !minutelySetPosKeeps) { return nil }
        if everyDay, frequency == .daily {
            var d = anchorDay + ceilDiv(max(0, kDay - anchorDay), n) * n
            for _ in 0..<2 {
                if let key = firstOnDay(d, atOrAfter: k) { return key }
                d += n
            }
            return nil
        }
        if walksYearDays { return firstInYearDays(atOrAfter: k, kDay: kDay) }
        var c = MonthCursor(containing: kDay)
        var memo = MonthMaskMemo()
        var phase: DayPhase? = nil
        var skip = YearSkip(.none, months: 0)
        var skipping = false
        var misses = 0
        var from = kDay - c.base
        var visited = 0
        let limit = 4801 * cycles
        // Whole years are left out once a calendar year has had none (at the second January), or
        // at the first January after six months without one (a sparse rule: a dense one never
        // gets there, and asking would cost it more than it saves).
        var januaries = 0
        while visited < limit {
            if c.month == 1, visited > 0, januaries >= 1 || visited >= 6 || c.base - kDay >= 365 {
                if !skipping {
                    let ph = phase ?? dayPhase()
                    phase = ph
                    skip = YearSkip(ph, months: streamMonths)
                    skipping = true
                }
                let years = skip.skipYears(self, &c, end: searchEnd, most: (limit - visited) / 12 + 1, memo: &memo)
                if years > 0 {
                    visited += 12 * years
                    if c.base > searchEnd { return nil }
                    continue
                }
            }
            var cand = monthMask(c, &memo)
            if from > 0 {
                cand &= ~MonthCursor.low(from)
                from = 0
            }
            if cand != 0, let ph = phase { cand &= ph.mask(from: c.base) }
            while cand != 0 {
                let d = c.base + cand.trailingZeroBitCount
                cand &= cand - 1
                if let key = firstOnDay(d, atOrAfter: k) { return key }
                misses += 1
                if phase == nil, misses >= 4 {
                    let ph = dayPhase()
                    phase = ph
                    cand &= ph.mask(from: c.base)
                }
            }
            if c.month == 1, visited > 0 { januaries += 1 }
            c.advance()
            visited += 1
            if c.base > searchEnd { return nil }
        }
        return nil
    }

    /// The INTERVAL's period in days for the day stream: how many 400-year cycles of the
    /// calendar a walk needs before the days and the INTERVAL's step repeat together.
    package var cycles: Int {
        let p = dayPeriod
        return p / gcd(p, 146_097)
    }

    /// The period in days of the days a day-stream rule's INTERVAL reaches.
    package var dayPeriod: Int {
        switch frequency {
        case .daily: return n
        case .hourly: return n / gcd(n, 24)
        case .minutely: return n / gcd(n, OccurrenceKey.minutesPerDay)
        case .weekly, .monthly, .yearly: return 1
        }
    }

    /// The days a daily, hourly or minutely rule's INTERVAL lets have an occurrence: day d when
    /// some allowed hour (minute) of it falls on the step from the anchor. `exact` when every
    /// such day has one (daily, and hourly and minutely rules whose allowed times were counted).
    package func dayPhase() -> DayPhase {
        let p = dayPeriod
        guard p > 1 else { return .none }
        guard p <= 64 else { return DayPhase(period: p, residues: 0) }
        switch frequency {
        case .daily:
            return DayPhase(period: p, residues: UInt64(1) << UInt64(floorMod(anchorDay, p)))
        case .hourly, .minutely:
            // Slot s of day d (an hour, or a minute) is on the step when
            // perDay·d + s ≡ anchor (mod n): with g = gcd(perDay, n), when g divides anchor − s,
            // d ≡ ((anchor − s) / g) · (perDay / g)⁻¹ (mod p).
            let hourly = frequency == .hourly
            let perDay = hourly ? 24 : OccurrenceKey.minutesPerDay
            let g = n / p
            let inv = Expansion.inverse((perDay / g) % p, p)
            let anchor = hourly ? anchorDay * 24 + anchorMinute / 60 : startKey
            // The same modulo n, above every slot, so that the differences are positive.
            let a = floorMod(anchor, n) + n * ((perDay + n - 1) / n)
            var res: UInt64 = 0
            func add(_ slot: Int) {
                let diff = a - slot
                if diff % g == 0 { res |= UInt64(1) << UInt64((diff / g % p) * inv % p) }
            }
            if hourly {
                guard hourMinutes != 0 else { return DayPhase(period: p, residues: 0) }
                // The hours g apart from the first with g dividing a − h: each one's residue is
                // the one before less inv (mod p).
                var h = floorMod(a, g)
                var r = (a - h) / g % p * inv % p
                let less = inv % p
                while h < 24 {
                    if hours == 0 || hours & (UInt32(1) << UInt32(h)) != 0 { res |= UInt64(1) << UInt64(r) }
                    r -= less
                    if r < 0 { r += p }
                    h += g
                }
            } else {
                let hs = hours == 0 ? 24 : hours.nonzeroBitCount, ms = minutes == 0 ? 60 : minutes.nonzeroBitCount
                // Many allowed minutes: every day may have one.
                guard hs * ms <= 256 else { return .none }
                var hb = hours == 0 ? UInt32(0xFF_FFFF) : hours
                while hb != 0 {
                    let h = hb.trailingZeroBitCount
                    hb &= hb - 1
                    var mb = minutes == 0 ? (UInt64(1) << 60) - 1 : minutes
                    while mb != 0 {
                        add(h * 60 + mb.trailingZeroBitCount)
                        mb &= mb - 1
                    }
                }
            }
            return DayPhase(period: p, residues: res)
        case .weekly, .monthly, .yearly:
            return .none
        }
    }

    /// a⁻¹ mod m, for a and m without a common factor (m ≥ 1).
    package static func inverse(_ a: Int, _ m: Int) -> Int {
        var (r0, r1) = (m, floorMod(a, m))
        var (t0, t1) = (0, 1)
        while r1 != 0 {
            let q = r0 / r1
            (r0, r1) = (r1, r0 - q * r1)
            (t0, t1) = (t1, t0 - q * t1)
        }
        return floorMod(t0, m)
    }

    /// Daily, hourly and minutely rules: the occurrences before key k, at most `limit`, month by
    /// month (whole years that cannot hold one left out): a daily rule's whole days by the bits
    /// of its months, an hourly or minutely rule's by the counts of their residues (DayCounts).
    package func countByDays(before k: OccurrenceKey, limit: Int) -> Int {
        guard reachable, frequency != .minutely || minutelySetPosKeeps else { return 0 }
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        guard kDay >= anchorDay, limit > 0 else { return 0 }
        if walksYearDays { return min(countByYearDays(before: k, kDay: kDay, limit: limit), limit) }
        // A minutely rule's phase costs more to find than it saves on most days (count(onDay:)
        // keeps to the step itself): only when years are to be left out.
        var phase = frequency == .minutely ? .none : dayPhase()
        var skip = YearSkip(phase, months: streamMonths)
        var skipping = frequency != .minutely
        var c = 0
        // A daily rule whose INTERVAL the phase says exactly has the same count on each whole day.
        let wholeDays = frequency == .daily && n <= 64
        // A whole day's count, on a day of the series after the anchor's (whose count starts at
        // the series' start, R-REP-11); the anchor's day is counted on its own.
        let perDay = wholeDays ? count(onDay: anchorDay + n, before: (anchorDay + n + 1) * OccurrenceKey.minutesPerDay, atMost: Int.max) : 0
        // An hourly or minutely rule's whole day (after the anchor's, before k's) has the count
        // of its residue modulo the INTERVAL's period in days: each counted once, when first met.
        var dayCounts = DayCounts(period: dayPeriod)
        var cur = MonthCursor(containing: anchorDay)
        var memo = MonthMaskMemo()
        var visited = 0
        let most = 4801 * cycles
        // Years are left out only after a year without an occurrence (a dense rule's years all
        // have some: asking would cost more than it saves).
        var atJanuary = -1
        // The months wholly between the anchor's day and k's, on plain integers
        // (WholeMonthCounter), once three months have not reached the limit (a dense rule
        // reaches it sooner than the counter is set up) and two months' days are left.
        var wholeMonthsTried = false
        // `most` months without an occurrence mean none ever; once there is one, only k bounds.
        while c < limit, cur.base <= kDay, visited < most || c > 0 {
            if !wholeMonthsTried, visited >= 3, cur.base > anchorDay, kDay - cur.base >= 62 {
                wholeMonthsTried = true
                if let w = wholeMonthCounter(phase: phase, perDay: perDay, dayCounts: &dayCounts) {
                    countWholeMonths(&cur, &c, kDay: kDay, limit: limit, counter: w, skip: &skip, skipping: &skipping,
                                     memo: &memo, dayCounts: &dayCounts, visited: &visited)
                    atJanuary = -1
                    continue
                }
            }
            if cur.month == 1, visited > 0 {
                if c == atJanuary, !skipping {
                    phase = dayPhase()
                    skip = YearSkip(phase, months: streamMonths)
                    skipping = true
                }
                if c == atJanuary, !skip.mayHave(self, base: cur.base, jan1Weekday: cur.firstWeekday, leap: cur.leap, memo: &memo) {
                    cur.advanceYear()
                    visited += 12
                    continue
                }
                atJanuary = c
            }
            var cand = monthMask(cur, &memo)
            if cand != 0 {
                if anchorDay > cur.base { cand &= ~MonthCursor.low(anchorDay - cur.base) }
                let last = kDay - cur.base
                if last < cur.length { cand &= MonthCursor.low(last + 1) }
                cand &= phase.mask(from: cur.base)
                if wholeDays {
                    if last < cur.length, cand & (UInt32(1) << UInt32(last)) != 0 {
                        cand &= ~(UInt32(1) << UInt32(last))
                        c += count(onDay: kDay, before: k, atMost: limit - c)
                    }
                    if anchorDay >= cur.base, anchorDay - cur.base < cur.length, cand & (UInt32(1) << UInt32(anchorDay - cur.base)) != 0 {
                        cand &= ~(UInt32(1) << UInt32(anchorDay - cur.base))
                        c += count(onDay: anchorDay, before: k, atMost: limit - c)
                    }
                    c += cand.nonzeroBitCount * perDay
                } else if dayCounts.period > 0 {
                    // The anchor's day and k's are counted on their own; the others are whole.
                    var edges: UInt32 = 0
                    if anchorDay >= cur.base, anchorDay - cur.base < cur.length { edges |= UInt32(1) << UInt32(anchorDay - cur.base) }
                    if last < cur.length { edges |= UInt32(1) << UInt32(last) }
                    var partial = cand & edges
                    cand &= ~edges
                    while partial != 0 {
                        let d = cur.base + partial.trailingZeroBitCount
                        partial &= partial - 1
                        c += count(onDay: d, before: k, atMost: limit - c)
                    }
                    if dayCounts.period == 1 {
                        if cand != 0 { c += cand.nonzeroBitCount * dayCounts.whole(self, day: cur.base + cand.trailingZeroBitCount) }
                    } else {
                        while cand != 0, c < limit {
                            let d = cur.base + cand.trailingZeroBitCount
                            cand &= cand - 1
                            c += dayCounts.whole(self, day: d)
                        }
                    }
                } else {
                    while cand != 0, c < limit {
                        let d = cur.base + cand.trailingZeroBitCount
                        cand &= cand - 1
                        c += count(onDay: d, before: k, atMost: limit - c)
                    }
                }
            }
            cur.advance()
            visited += 1
        }
        return min(c, limit)
    }

    /// The occurrences on day number d in [startKey, k), at most `cap` (a day the day parts allow).
    package func count(onDay d: Int, before k: OccurrenceKey, atMost cap: Int) -> Int {
        let dayKey = d * OccurrenceKey.minutesPerDay
        let lo = max(startKey - dayKey, 0), hi = min(k - dayKey, OccurrenceKey.minutesPerDay)
        guard lo < hi else { return 0 }
        var c = 0
        switch frequency {
        case .daily:
            guard floorMod(d - anchorDay, n) == 0 else { return 0 }
            if setPositions.isEmpty { return timesBefore(hi) - timesBefore(lo) }
            var picked = 0
            for j in 0..<setPositions.count {
                let idx = Expansion.position(setPositions[j], timesPerDay)
                guard idx >= 0, idx < timesPerDay, !isRepeat(j, timesPerDay) else { continue }
                let t = time(idx)
                if t >= lo, t < hi { picked += 1 }
            }
            return picked
        case .hourly:
            let anchorHour = anchorDay * 24 + anchorMinute / 60
            var h = floorMod(anchorHour - d * 24, n)
            let selected = hourMinutes
            while h < 24, c < cap {
                if hours == 0 || hours & (UInt32(1) << UInt32(h)) != 0 {
                    let from = max(lo - h * 60, 0), to = min(hi - h * 60, 60)
                    if from < to { c += (selected & (((UInt64(1) << UInt64(to)) &- 1) & ~((UInt64(1) << UInt64(from)) &- 1))).nonzeroBitCount }
                }
                h += n
            }
        case .minutely:
            guard minutelySetPosKeeps else { return 0 }
            // Hour by hour: the allowed minutes on the step, in [lo, hi), by their bits.
            let r0 = floorMod(startKey - dayKey, n), step = stepMinutes
            var hs = (hours == 0 ? UInt32(0xFF_FFFF) : hours) & ~MonthCursor.low(lo / 60)
            while hs != 0, c < cap {
                let h = hs.trailingZeroBitCount
                hs &= hs - 1
                if h * 60 >= hi { break }
                var m = minuteMask & onStep(floorMod(r0 - h * 60, n), step)
                if h == lo / 60 { m &= ~UInt64(0) << UInt64(lo % 60) }
                if hi < h * 60 + 60 { m &= (UInt64(1) << UInt64(hi - h * 60)) &- 1 }
                c += m.nonzeroBitCount
            }
        case .weekly, .monthly, .yearly:
            return 0
        }
        return min(c, cap)
    }

    /// Whether some hour (minute) of the day can be reached at all by an hourly (minutely) rule
    /// whose BYHOUR (BYMINUTE) limits it, and a daily rule's INTERVAL can reach a weekday of BYDAY.
    package var reachable: Bool {
        switch frequency {
        case .daily:
            guard n % 7 == 0, weekdays != 0, nthWeekdays.isEmpty else { return true }
            return weekdays & RepeatRule.bit(anchor.weekday) != 0
        case .hourly:
            guard hours != 0 else { return true }
            let g = gcd(n, 24)
            for h in 0..<24 where hours & (UInt32(1) << UInt32(h)) != 0 && floorMod(h - anchorMinute / 60, g) == 0 { return true }
            return false
        case .minutely:
            guard hours != 0 || minutes != 0 else { return true }
            // A time h:m is on a step when h·60 + m ≡ the anchor's minute (mod gcd(n, 1440)).
            let g = gcd(n, OccurrenceKey.minutesPerDay)
            var hs = hours == 0 ? UInt32(0xFF_FFFF) : hours
            while hs != 0 {
                let h = hs.trailingZeroBitCount
                hs &= hs - 1
                if minutes == 0 {
                    if floorMod(anchorMinute - h * 60, g) < 60 { return true }
                    continue
                }
                var ms = minutes
                while ms != 0 {
                    if floorMod(h * 60 + ms.trailingZeroBitCount - anchorMinute, g) == 0 { return true }
                    ms &= ms - 1
                }
            }
            return false
        case .weekly, .monthly, .yearly:
            return true
        }
    }

    /// The first occurrence on day number d at or after k (d a day the day parts allow).
    package func firstOnDay(_ d: Int, atOrAfter k: OccurrenceKey) -> OccurrenceKey? {
        let dayKey = d * OccurrenceKey.minutesPerDay
        let s = max(0, k - dayKey)
        guard s < OccurrenceKey.minutesPerDay else { return nil }
        switch frequency {
        case .daily:
            guard floorMod(d - anchorDay, n) == 0 else { return nil }
            if setPositions.isEmpty { return firstTime(atOrAfter: s).map { dayKey + $0 } }
            var best: Int? = nil
            for p in setPositions {
                let idx = p > 0 ? p - 1 : timesPerDay + p
                guard idx >= 0, idx < timesPerDay else { continue }
                let t = time(idx)
                if t >= s, best.map({ t < $0 }) ?? true { best = t }
            }
            return best.map { dayKey + $0 }
        case .hourly:
            // Hours every INTERVAL from the anchor's hour; BYMINUTE gives the minutes of each.
            let anchorHour = anchorDay * 24 + anchorMinute / 60
            var h = s / 60
            h += floorMod(anchorHour - (d * 24 + h), n)
            let selected = hourMinutes
            while h < 24 {
                if hours == 0 || hours & (UInt32(1) << UInt32(h)) != 0 {
                    let from = h == s / 60 ? s % 60 : 0
                    let m = selected & (~UInt64(0) << UInt64(from))
                    if m != 0 { return dayKey + h * 60 + m.trailingZeroBitCount }
                }
                h += n
            }
            return nil
        case .minutely:
            guard minutelySetPosKeeps else { return nil }
            // Hour by hour from s's: the first allowed minute on the step.
            let r0 = floorMod(startKey - dayKey, n), step = stepMinutes
            var hs = (hours == 0 ? UInt32(0xFF_FFFF) : hours) & ~MonthCursor.low(s / 60)
            while hs != 0 {
                let h = hs.trailingZeroBitCount
                hs &= hs - 1
                var m = minuteMask & onStep(floorMod(r0 - h * 60, n), step)
                if h == s / 60 { m &= ~UInt64(0) << UInt64(s % 60) }
                if m != 0 { return dayKey + h * 60 + m.trailingZeroBitCount }
            }
            return nil
        case .weekly, .monthly, .yearly:
            return nil
        }
    }

    /// Hourly: the minutes of each hour, BYSETPOS picked from them.
    package var hourMinutes: UInt64 {
        guard !setPositions.isEmpty else { return minutes }
        let c = minutes.nonzeroBitCount
        var out: UInt64 = 0
        for p in setPositions {
            let idx = p > 0 ? p - 1 : c + p
            if idx >= 0, idx < c { out |= UInt64(1) << UInt64(Expansion.nthBit(minutes, idx)) }
        }
        return out
    }

    /// Minutely: the minutes of an hour that BYMINUTE allows (all when it has none).
    @inline(__always) package var minuteMask: UInt64 { minutes == 0 ? (UInt64(1) << 60) &- 1 : minutes }

    /// Minutely: the minutes 0, n, 2n, … of an hour (n < 60), so that `stepMinutes << r` are
    /// those on the INTERVAL's step when the first is minute r.
    package var stepMinutes: UInt64 {
        guard n < 60 else { return 1 }
        var m: UInt64 = 1
        var width = n
        while width < 64 {
            m |= m << UInt64(width)
            width *= 2
        }
        return m
    }

    /// Minutely: the minutes of an hour on the step whose first is minute r (< n), from
    /// `stepMinutes`.
    @inline(__always) package func onStep(_ r: Int, _ step: UInt64) -> UInt64 {
        r < 60 ? (step << UInt64(r)) & ((UInt64(1) << 60) &- 1) : 0
    }

    /// Minutely: a period is one minute, so only BYSETPOS 1 or -1 keeps it.
    package var minutelySetPosKeeps: Bool {
        setPositions.isEmpty || setPositions.contains(1) || setPositions.contains(-1)
    }
}
