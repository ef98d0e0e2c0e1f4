// A repeat's own dates (docs/REPEATS.md, "Skipping and adding dates"): occurrences taken out
// (EXDATE) and added (RDATE) on an open repeating task, each change one undoable step. The task
// stands for its series' open occurrence, so a change that takes out that occurrence, or gives
// back or adds one before it, moves the task's due there, with its start and reminders
// (R-REP-5). Later occurrences inherit the dates through the repeat (R-REP-2).

import KeptRules

/// Which occurrence `skip` takes out.
public enum SkipTarget: Sendable, Equatable {
    /// The task's open occurrence: the task moves to the next one.
    case next
    /// An occurrence by its day (every occurrence of that day) or by its day and time.
    case on(Due)
}

/// What a change of a repeat's dates did.
public struct RepeatDateChange: Sendable {
    /// The task as it is now.
    public var task: Task
    /// The date taken out, given back, added or removed, as the repeat keeps it.
    public var date: Due
    /// The task's due before the change, when the change moved it.
    public var movedFrom: Due?
}

extension Engine {
    /// Takes an occurrence out of the series (EXDATE): the open one (`next`, or its date), the
    /// task then due on the next one still ahead; or a later one, the task staying where it is.
    public func skip(_ sel: Selection, _ which: SkipTarget) throws(DomainError) -> Outcome<RepeatDateChange> {
        try act(sel, "skip", summary: { "skip \($0.id) · \($0.title)" }) { (t, step) throws(DomainError) in
            let (spec, open) = try self.series(t, .skip)
            let dueTime = open.time
            let timed = spec.isTimed(dueTime: dueTime)
            var d = open
            if case .on(let x) = which {
                try self.checkTime(x, of: t, spec, timed: timed, adding: false)
                d = x
            }
            var after = spec
            // The open occurrence, or its whole day: the task moves to the next one still ahead.
            if d.date == open.date, d.time == nil || d.time == open.time {
                let ex = d.time == nil ? Due(date: d.date) : spec.exceptionForm(open)
                after.exceptions = RepeatSpec.sorted(spec.exceptions.filter { !RepeatSpec.covers(ex, $0) } + [ex])
                guard let next = after.firstAhead(after: open, dueTime: dueTime, today: self.today, now: self.nowLocal,
                                                  weekStart: self.weekStart, zone: self.zone) else {
                    throw .repeatDate(t, .seriesEnds(after: open))
                }
                return self.redated(t, after, open: open, to: next, date: ex, into: &step)
            }
            guard !self.behind(d, open: open, timed: timed) else { throw .repeatDate(t, .passed(d, open: open)) }
            guard spec.ruleHas(d, dueTime: dueTime, weekStart: self.weekStart, zone: self.zone) || spec.additions.contains(where: { RepeatSpec.covers(d, $0) }) else {
                throw .repeatDate(t, .notAnOccurrence(d, near: spec.dates(near: d, from: open, dueTime: dueTime, weekStart: self.weekStart, zone: self.zone)))
            }
            let ex = d.time == nil ? d : spec.exceptionForm(d)
            // Already taken out: nothing changes.
            if !spec.exceptions.contains(where: { RepeatSpec.covers($0, ex) }) {
                after.exceptions = RepeatSpec.sorted(spec.exceptions.filter { !RepeatSpec.covers(ex, $0) } + [ex])
            }
            return self.redated(t, after, open: open, to: nil, date: ex, into: &step)
        }
    }

    /// Gives back occurrences taken out (every one of that day, for a day without a time); the
    /// task moves back to one when it comes before its open occurrence and has not passed.
    public func unskip(_ sel: Selection, _ d: Due) throws(DomainError) -> Outcome<RepeatDateChange> {
        try act(sel, "unskip", summary: { "unskip \($0.id) · \($0.title)" }) { (t, step) throws(DomainError) in
            let (spec, open) = try self.series(t, .unskip)
            let timed = spec.isTimed(dueTime: open.time)
            try self.checkTime(d, of: t, spec, timed: timed, adding: false)
            let form = d.time == nil ? d : spec.exceptionForm(d)
            let gone = spec.exceptions.filter { $0 == form || (form.time == nil && $0.date == form.date) }
            guard !gone.isEmpty else { throw .repeatDate(t, .notListed(d, added: false, listed: spec.exceptions)) }
            var after = spec
            after.exceptions = spec.exceptions.filter { !gone.contains($0) }
            // The occurrences given back, in time order: the first ahead of now moves the task
            // when it comes before the open one.
            let onDay = after.ruleOccurrences(on: form.date, dueTime: open.time, weekStart: self.weekStart, zone: self.zone)
                + after.additions.filter { $0.date == form.date }
            let back = RepeatSpec.sorted(onDay.filter { o in gone.contains { RepeatSpec.covers($0, o) } && !after.isException(o) })
            let first = back.first { o in
                RepeatSpec.moment(o) < RepeatSpec.moment(open) && !RepeatSpec.hasPassed(o, timed: timed, today: self.today, now: self.nowLocal)
            }
            return self.redated(t, after, open: open, to: first, date: gone.first ?? form, into: &step)
        }
    }

    /// Adds an occurrence (RDATE). A series of one time a day gives it that time when it has
    /// none; the task moves to it when it comes before the open occurrence.
    public func addDate(_ sel: Selection, _ d: Due) throws(DomainError) -> Outcome<RepeatDateChange> {
        try act(sel, "rdate", summary: { "rdate \($0.id) · \($0.title)" }) { (t, step) throws(DomainError) in
            let (spec, open) = try self.series(t, .rdate)
            let timed = spec.isTimed(dueTime: open.time)
            let x = try self.checkTime(d, of: t, spec, timed: timed, adding: true)
            // Already added: nothing changes.
            if spec.additions.contains(x) { return RepeatDateChange(task: t, date: x, movedFrom: nil) }
            if spec.ruleHas(x, dueTime: open.time, weekStart: self.weekStart, zone: self.zone) {
                throw .repeatDate(t, .alreadyAnOccurrence(x, skipped: spec.isException(x)))
            }
            guard !RepeatSpec.hasPassed(x, timed: timed, today: self.today, now: self.nowLocal) else {
                throw .repeatDate(t, .passed(x, open: open))
            }
            var after = spec
            after.additions = RepeatSpec.sorted(spec.additions + [x])
            // A series whose time is the task's due time keeps it when the task stands for an
            // added date at another time.
            if timed, x.time != open.time, after.anchorTime == nil, !(after.rule?.isTimed ?? true) { after.anchorTime = open.time }
            return self.redated(t, after, open: open, to: RepeatSpec.moment(x) < RepeatSpec.moment(open) ? x : nil, date: x, into: &step)
        }
    }

    /// Removes added occurrences (every one of that day, for a day without a time); when the
    /// task stood for one, it moves to the next occurrence still ahead.
    public func removeAddedDate(_ sel: Selection, _ d: Due) throws(DomainError) -> Outcome<RepeatDateChange> {
        try act(sel, "unrdate", summary: { "unrdate \($0.id) · \($0.title)" }) { (t, step) throws(DomainError) in
            let (spec, open) = try self.series(t, .unrdate)
            try self.checkTime(d, of: t, spec, timed: spec.isTimed(dueTime: open.time), adding: false)
            let gone = spec.additions.filter { $0 == d || (d.time == nil && $0.date == d.date) }
            guard !gone.isEmpty else { throw .repeatDate(t, .notListed(d, added: true, listed: spec.additions)) }
            var after = spec
            after.additions = spec.additions.filter { !gone.contains($0) }
            var to: Due? = nil
            if gone.contains(open), !spec.ruleHas(open, dueTime: open.time, weekStart: self.weekStart, zone: self.zone) {
                guard let next = after.firstAhead(after: open, dueTime: open.time, today: self.today, now: self.nowLocal,
                                                  weekStart: self.weekStart, zone: self.zone) else {
                    throw .repeatDate(t, .seriesEnds(after: open))
                }
                to = next
            }
            return self.redated(t, after, open: open, to: to, date: gone.first ?? d, into: &step)
        }
    }

    // MARK: shared

    /// The repeat and the open occurrence of an open repeating task.
    package func series(_ t: Task, _ what: OpenAction) throws(DomainError) -> (RepeatSpec, Due) {
        guard t.isOpen else { throw .wrongState(.notOpen(t.id, what: what)) }
        guard let spec = t.repeatRule, spec.rule != nil, let open = t.due else {
            throw .repeatDate(t, .notRepeating(hasRepeat: t.repeatRule != nil))
        }
        return (spec, open)
    }

    /// Checks that a date's time fits the series, and gives an added date of a series of one
    /// time a day that time when it has none.
    @discardableResult
    package func checkTime(_ d: Due, of t: Task, _ spec: RepeatSpec, timed: Bool, adding: Bool) throws(DomainError) -> Due {
        if d.time != nil, !timed { throw .repeatDate(t, .timeDoesNotFit(d, timed: false)) }
        guard adding, timed, d.time == nil else { return d }
        guard let only = spec.onlyTime(dueTime: t.due?.time) else { throw .repeatDate(t, .timeDoesNotFit(d, timed: true)) }
        return Due(date: d.date, time: only)
    }

    /// Whether `d` is behind the series: before its open occurrence, or passed.
    package func behind(_ d: Due, open: Due, timed: Bool) -> Bool {
        let before = d.time == nil ? d.date < open.date : RepeatSpec.moment(d) < RepeatSpec.moment(open)
        return before || RepeatSpec.hasPassed(d, timed: timed, today: today, now: nowLocal)
    }

    /// The task with its repeat's dates changed to `after`, moved to `to` when given.
    package func redated(_ t: Task, _ after: RepeatSpec, open: Due, to: Due?, date: Due, into step: inout StepChanges) -> RepeatDateChange {
        var a = to.map { moved(t, to: $0) } ?? t
        a.repeatRule = after
        return RepeatDateChange(task: updated(t, to: a, into: &step), date: date, movedFrom: to == nil ? nil : open)
    }
}
