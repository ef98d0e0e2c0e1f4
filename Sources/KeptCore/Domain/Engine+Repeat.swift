// Repeats on tasks: dating a new repeating task (R-REP-7), the next occurrence a completion makes
// (R-REP-2, 3, 5, 6, 10), stopping a series (R-REP-8, in Engine+Edits).

extension Engine {
    /// A repeat for a task: the anchor is `from DATE`, else the due date; an undated task is
    /// dated to the rule's first occurrence on or after today (R-REP-7).
    public func attach(_ rule: RepeatRule, to t: inout Task) {
        let today = self.today
        if t.due == nil {
            let first = rule.firstOccurrence(onOrAfter: rule.from ?? today, anchor: rule.from ?? today, weekStart: weekStart) ?? today
            t.due = Due(date: first)
        }
        if var d = t.due, d.time == nil, let time = rule.time {
            d.time = time
            t.due = d
        }
        t.repeatRule = RepeatSpec(rule: rule, anchor: rule.from ?? t.due?.date ?? today)
    }

    /// The occurrence that completing `t` on `day` makes, with a new id and uid; nil when the
    /// series has ended (then no id is taken).
    func nextOccurrence(of t: Task, completedOn day: CivilDate) -> Task? {
        guard let spec = t.repeatRule, let rule = spec.rule else { return nil }
        let date: CivilDate?
        var nextSpec = spec
        if rule.afterCompletion {
            // The series starts again from the completion day.
            date = rule.nextOccurrence(after: day, anchor: day, weekStart: weekStart)
            if let d = date { nextSpec = RepeatSpec(rule: rule, anchor: d) }
        } else {
            // R-REP-3: the first date of the series after both the due day and today, so a
            // late completion never piles up missed copies.
            let anchor = spec.anchor ?? t.due?.date ?? day
            let after = max(t.due?.date ?? day, day)
            date = rule.nextOccurrence(after: after, anchor: anchor, weekStart: weekStart)
        }
        guard let d = date else { return nil }
        // R-REP-5: the next occurrence keeps the task's fields and its due time; it drops a
        // Not today hold and comments.
        var n = t
        let fresh = newTask(title: t.title)
        n.id = fresh.id
        n.uid = fresh.uid
        n.status = .open
        n.due = Due(date: d, time: t.due?.time)
        if let oldStart = t.start, let oldDue = t.due {
            n.start = Due(date: oldStart.date.adding(days: oldDue.date.days(until: d)), time: oldStart.time)
        }
        // R-REP-5: a reminder moves with the date, keeping its time of day; a task that had no
        // date keeps its reminder's time on the day it is next due. Either is a new reminder,
        // so it is not Past due.
        n.reminders = t.reminders.map { r in
            var m = r
            m.pastDue = false
            if let oldDue = t.due { m.at = r.at.adding(days: oldDue.date.days(until: d)) } else { m.at = CivilDateTime(date: d, time: r.at.time) }
            return m
        }
        n.completedAt = nil
        n.heldUntil = nil
        n.notTodayOn = nil
        n.comments = []
        n.steps = t.steps.map { Step(title: $0.title, done: false) }
        n.createdAt = now
        n.modifiedAt = now
        n.repeatRule = nextSpec
        n.nextOccurrence = nil
        n.pristine = true
        return n
    }
}
