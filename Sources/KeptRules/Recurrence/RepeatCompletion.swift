// What a repeating task's series does, as pure functions of typed values: the occurrence a
// completion makes (R-REP-2, R-REP-3: the first one still ahead, so completing late never
// piles up copies; `after completion` starts the series again), the date a new repeat gives
// an undated task (R-REP-7), and where a reminder goes with its occurrence (R-REP-5). Times
// are wall-clock times in the account's zone; an occurrence the DST gap moves onto the next
// one (02:30 becomes 03:30, beside a 03:30) is the same moment and counts once.

/// The occurrence a completion makes, and the repeat it holds.
public struct NextOccurrence: Sendable, Equatable {
    public var due: Due
    /// The next occurrence's repeat: the same, or re-anchored (`after completion`).
    public var spec: RepeatSpec
}

extension RepeatSpec {
    /// The time of day a rule's occurrences take when the rule has none of its own.
    package func occurrenceTime(dueTime: WallTime?) -> WallTime? { anchorTime ?? dueTime }

    /// Whether an occurrence is one the series takes out (EXDATE).
    package func isException(_ d: Due) -> Bool {
        exceptions.contains { $0.date == d.date && ($0.time == nil || $0.time == d.time) }
    }

    /// The first occurrence strictly after `moment`, with EXDATE and RDATE: the rule's next
    /// one that is not taken out, or an added one before it. `time` is the task's due time,
    /// for a rule without times of its own.
    public func nextOccurrence(after moment: CivilDateTime, time: WallTime?, weekStart: Weekday, zone: Zone?) -> Due? {
        guard let rule, let anchor else { return nil }
        let t = occurrenceTime(dueTime: time)
        // Exceptions hide occurrences (a whole day's, for a day without a time): step past them.
        var found = rule.nextOccurrence(after: moment, anchor: anchor, time: t, weekStart: weekStart, zone: zone, start: anchorTime)
        var steps = 0
        while let d = found, isException(d), steps < 1440 * (exceptions.count + 1) {
            found = rule.nextOccurrence(after: RepeatSpec.moment(d), anchor: anchor, time: t, weekStart: weekStart, zone: zone, start: anchorTime)
            steps += 1
        }
        let added = additions.filter { RepeatSpec.moment($0) > moment && !isException($0) }.min { RepeatSpec.moment($0) < RepeatSpec.moment($1) }
        switch (found, added) {
        case (let f?, let a?): return RepeatSpec.moment(a) < RepeatSpec.moment(f) ? a : f
        case (let f?, nil): return f
        case (nil, let a): return a
        }
    }

    /// The occurrences from the anchor on, with EXDATE and RDATE, at most `limit`.
    public func occurrences(limit: Int, time: WallTime?, weekStart: Weekday, zone: Zone?) -> [Due] {
        guard let anchor, limit > 0 else { return [] }
        var out: [Due] = []
        var d = RepeatSpec.firstMoment(anchor)
        // The first occurrence may be on the anchor's first minute itself.
        var next = nextOccurrence(after: d, time: time, weekStart: weekStart, zone: zone)
        while let x = next, out.count < limit {
            out.append(x)
            d = RepeatSpec.moment(x)
            next = nextOccurrence(after: d, time: time, weekStart: weekStart, zone: zone)
        }
        return out
    }

    /// The wall-clock moment of an occurrence; a day without a time is its first minute.
    package static func moment(_ d: Due) -> CivilDateTime { CivilDateTime(date: d.date, time: d.time ?? .midnight) }

    /// The moment just before a day begins, so that "after" it includes the day's first minute.
    package static func firstMoment(_ day: CivilDate) -> CivilDateTime {
        CivilDateTime(date: day.adding(days: -1), time: WallTime(unchecked: WallTime.minutesPerDay - 1))
    }

    /// R-REP-2, R-REP-3: the occurrence completing the one due `completedDue` makes, at the
    /// wall-clock moment `completedAt` on `today` (the account's day, R-DAY-2), or nil when the
    /// series has ended. It is the first occurrence of the series after both the completed one
    /// and the completion: to the minute for a timed series (completing the 9am occurrence of
    /// `at 9am and 5pm` makes the 5pm one), to the day otherwise. With `after completion` the
    /// series starts again from the completion day (from the completion moment, for an hourly
    /// rule).
    public func next(afterCompleting completedDue: Due?, at completedAt: CivilDateTime, today: CivilDate,
                     zone: Zone, weekStart: Weekday) -> NextOccurrence? {
        guard let rule else { return nil }
        let dueTime = completedDue?.time
        let timed = rule.hasTimes(dueTime: occurrenceTime(dueTime: dueTime))
        if rule.afterCompletion {
            var restarted = self
            let subDaily = rule.frequency == .hourly || rule.frequency == .minutely
            restarted.anchor = subDaily ? completedAt.date : today
            restarted.anchorTime = subDaily ? completedAt.time : anchorTime
            // The dates taken out and added are dates: the restarted series keeps them too.
            let after = subDaily ? completedAt : CivilDateTime(date: today, time: WallTime(unchecked: WallTime.minutesPerDay - 1))
            guard let d = restarted.nextOccurrence(after: after, time: dueTime, weekStart: weekStart, zone: zone) else { return nil }
            var spec = RepeatSpec(rule: rule, anchor: d.date, anchorTime: d.time)
            spec.exceptions = exceptions
            spec.additions = additions
            return NextOccurrence(due: d, spec: spec)
        }
        var spec = self
        if spec.anchor == nil { spec.anchor = completedDue?.date ?? today }
        let after: CivilDateTime
        if timed {
            // Still ahead: after the completed occurrence and after the completion itself.
            let done = completedDue.map(RepeatSpec.moment) ?? completedAt
            after = max(done, completedAt)
        } else {
            after = CivilDateTime(date: max(completedDue?.date ?? today, today), time: WallTime(unchecked: WallTime.minutesPerDay - 1))
        }
        var d = spec.nextOccurrence(after: after, time: dueTime, weekStart: weekStart, zone: zone)
        // A DST gap can move an occurrence onto the one after it: the same moment counts once.
        if timed, let done = completedDue.map(RepeatSpec.moment) {
            let doneInstant = zone.instant(for: done)
            var guardSteps = 0
            while let x = d, zone.instant(for: RepeatSpec.moment(x)) <= doneInstant, guardSteps < 4 {
                d = spec.nextOccurrence(after: RepeatSpec.moment(x), time: dueTime, weekStart: weekStart, zone: zone)
                guardSteps += 1
            }
        }
        guard let due = d else { return nil }
        return NextOccurrence(due: due, spec: self)
    }

    /// R-REP-7: the first occurrence on or after `today` that dates an undated task, from the
    /// anchor (`from DATE`, else today); nil when the series has none.
    public func firstDue(onOrAfter today: CivilDate, weekStart: Weekday) -> Due? {
        guard let rule else { return nil }
        let a = anchor ?? today
        return rule.firstOccurrence(atOrAfter: CivilDateTime(date: max(a, today), time: .midnight), anchor: a,
                                    time: anchorTime, weekStart: weekStart, start: anchorTime)
    }

    /// R-REP-5: where a reminder (or another wall-clock moment of the task) goes when the task's
    /// occurrence moves from `old` to `new`: by the same wall-clock span when both have times
    /// (8:45 before 9am goes to 4:45pm before 5pm), by whole days otherwise; a task that had no
    /// date keeps the time of day on the day it is next due.
    public static func moved(_ t: CivilDateTime, from old: Due?, to new: Due) -> CivilDateTime {
        guard let old else { return CivilDateTime(date: new.date, time: t.time) }
        if let a = old.time, let b = new.time {
            return t.adding(minutes: CivilDateTime(date: old.date, time: a).minutes(until: CivilDateTime(date: new.date, time: b)))
        }
        return t.adding(days: old.date.days(until: new.date))
    }
}
