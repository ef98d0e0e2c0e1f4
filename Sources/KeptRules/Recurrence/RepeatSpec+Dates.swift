// A repeat's own dates, as pure functions of typed values: the occurrences the rule has on a
// day, the form an EXDATE or RDATE is kept in, whether a date has passed, and the open
// occurrence after one is taken out (docs/REPEATS.md, "Skipping and adding dates"). The
// statements that change them are the engine's (Domain/Engine+RepeatDates.swift).

extension RepeatRule {
    /// Whether the rule has at most one occurrence a day (a rule of whole days, or of one time
    /// of day), so that taking out an occurrence is taking out its day. Hourly and minutely
    /// rules are counted as several: their occurrences are their times.
    public var oneADay: Bool {
        frequency != .hourly && frequency != .minutely && max(1, hourMask.nonzeroBitCount) * max(1, minuteMask.nonzeroBitCount) == 1
    }
}

extension RepeatSpec {
    /// Whether the series' occurrences have times of day, for a task due at `dueTime`.
    public func isTimed(dueTime: WallTime?) -> Bool {
        rule?.hasTimes(dueTime: occurrenceTime(dueTime: dueTime)) ?? (dueTime != nil)
    }

    /// The one time of day of a series that has one (the rule's, or the task's due time for a
    /// rule without times), or nil: a series of whole days, or of several times a day.
    public func onlyTime(dueTime: WallTime?) -> WallTime? {
        guard let rule, rule.oneADay else { return nil }
        let t = occurrenceTime(dueTime: dueTime)
        guard rule.hourMask != 0 || rule.minuteMask != 0 else { return t }
        // BYHOUR or BYMINUTE alone: the other comes from the anchor's (or the due's) time, as
        // the expansion takes it.
        let h = rule.hourMask != 0 ? rule.hourMask.trailingZeroBitCount : (t?.hour ?? 0)
        let m = rule.minuteMask != 0 ? rule.minuteMask.trailingZeroBitCount : (t?.minute ?? 0)
        return WallTime(hour: h, minute: m)
    }

    /// The rule's occurrences on one day (COUNT and UNTIL applied, EXDATE and RDATE not).
    public func ruleOccurrences(on day: CivilDate, dueTime: WallTime?, weekStart: Weekday, zone: Zone) -> [Due] {
        guard let rule, let anchor else { return [] }
        return RepeatSpec.occurrences(of: rule, on: day, anchor: anchor, time: occurrenceTime(dueTime: dueTime), weekStart: weekStart, zone: zone,
                                      start: anchorTime)
    }

    /// Whether the rule gives `d`: an occurrence at its time, or any occurrence on its day
    /// when it has no time.
    public func ruleHas(_ d: Due, dueTime: WallTime?, weekStart: Weekday, zone: Zone) -> Bool {
        let on = ruleOccurrences(on: d.date, dueTime: dueTime, weekStart: weekStart, zone: zone)
        guard let t = d.time else { return !on.isEmpty }
        return on.contains { $0.time == t }
    }

    /// The form an EXDATE is kept in: the day alone for a series of one occurrence a day (so a
    /// later change of the task's time keeps it taken out), else the occurrence itself.
    public func exceptionForm(_ d: Due) -> Due {
        (rule?.oneADay ?? true) ? Due(date: d.date) : d
    }

    /// Whether an EXDATE (or a day) `e` takes out the occurrence `d`.
    package static func covers(_ e: Due, _ d: Due) -> Bool { e.date == d.date && (e.time == nil || e.time == d.time) }

    /// Whether an occurrence has passed: a day before today, or a moment not after now.
    public static func hasPassed(_ d: Due, timed: Bool, today: CivilDate, now: CivilDateTime) -> Bool {
        timed && d.time != nil ? moment(d) <= now : d.date < today
    }

    /// The first occurrence after `o` that has not passed (EXDATE and RDATE applied): on or after
    /// today for a series of whole days, after now for a timed one; nil when the series has ended.
    public func firstAhead(after o: Due, dueTime: WallTime?, today: CivilDate, now: CivilDateTime, weekStart: Weekday, zone: Zone) -> Due? {
        let after: CivilDateTime
        if isTimed(dueTime: dueTime), o.time != nil {
            after = max(RepeatSpec.moment(o), now)
        } else {
            after = max(CivilDateTime(date: o.date, time: RepeatSpec.lastMinute), RepeatSpec.firstMoment(today))
        }
        return nextOccurrence(after: after, time: dueTime, weekStart: weekStart, zone: zone)
    }

    /// Dates of the series near `d` that is not one of them, for a message: the last before it
    /// (from `open` on) and the first two after it.
    public func dates(near d: Due, from open: Due, dueTime: WallTime?, weekStart: Weekday, zone: Zone) -> [Due] {
        var before: Due? = nil
        var cur: Due? = RepeatSpec.moment(open) < RepeatSpec.moment(d) ? open : nil
        var from = RepeatSpec.moment(open)
        var steps = 0
        while let c = cur, RepeatSpec.moment(c) < RepeatSpec.moment(d), steps < 1000 {
            before = c
            from = RepeatSpec.moment(c)
            cur = nextOccurrence(after: from, time: dueTime, weekStart: weekStart, zone: zone)
            steps += 1
        }
        if cur == nil || steps == 0 {
            cur = nextOccurrence(after: max(from, RepeatSpec.moment(d)), time: dueTime, weekStart: weekStart, zone: zone)
        }
        var out: [Due] = before.map { [$0] } ?? []
        if let c = cur {
            out.append(c)
            if let n = nextOccurrence(after: RepeatSpec.moment(c), time: dueTime, weekStart: weekStart, zone: zone) { out.append(n) }
        }
        return out
    }

    /// A list of EXDATEs or RDATEs in time order, each once.
    package static func sorted(_ ds: [Due]) -> [Due] {
        var out: [Due] = []
        for d in ds.sorted(by: { (moment($0), $0.time == nil ? 0 : 1) < (moment($1), $1.time == nil ? 0 : 1) }) where out.last != d { out.append(d) }
        return out
    }

    package static let lastMinute = WallTime(unchecked: WallTime.minutesPerDay - 1)
}
