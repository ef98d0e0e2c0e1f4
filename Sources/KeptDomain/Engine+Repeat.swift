// Repeats on tasks: dating a new repeating task (R-REP-7), the next occurrence a completion makes
// (R-REP-2, 3, 5, 6, 10), stopping a series (R-REP-8, in Engine+Edits).

import KeptRules

extension Engine {
    /// A rule as the engine keeps it, with the defaults of where it came from
    /// (RepeatRule.admitted: the week start, an RRULE's UNTIL that ends a day).
    public func admit(_ rule: RepeatRule, from origin: RepeatRule.Origin) -> RepeatRule {
        rule.admitted(from: origin, weekStart: weekStart, zone: zone)
    }

    /// A repeat for a task: the anchor is `from DATE`, else the due date; an undated task is
    /// dated to the rule's first occurrence on or after today (R-REP-7). A rule not admitted yet
    /// (a draft's, from capture's words) is admitted as words: it keeps the account's week
    /// start as it is now.
    public func attach(_ rule: RepeatRule, to t: inout Task) {
        let today = self.today
        let rule = admit(rule, from: .words)
        if t.due == nil {
            let start = rule.from ?? today
            // An hourly rule without a time starts now.
            let time = rule.fromTime ?? (rule.dependsOnAnchorTime && rule.from == nil ? nowLocal.time : nil)
            t.due = RepeatSpec(rule: rule, anchor: start, anchorTime: time).firstDue(onOrAfter: start, weekStart: weekStart) ?? Due(date: today)
        }
        if var d = t.due, d.time == nil, rule.isTimed {
            d.time = RepeatSpec(rule: rule, anchor: d.date).firstDue(onOrAfter: d.date, weekStart: weekStart)?.time ?? rule.times.first
            t.due = d
        }
        t.repeatRule = RepeatSpec(rule: rule, anchor: rule.from ?? t.due?.date ?? today, anchorTime: t.due?.time)
    }

    /// The occurrence that completing `t` on `day` makes, with a new id and uid; nil when the
    /// series has ended (then no id is taken). R-REP-3: the first occurrence still ahead, to
    /// the minute for a timed series.
    package func nextOccurrence(of t: Task, completedOn day: CivilDate) throws(DomainError) -> Task? {
        guard let spec = t.repeatRule,
              let next = spec.next(afterCompleting: t.due, at: nowLocal, today: day, zone: zone, weekStart: weekStart) else { return nil }
        // R-REP-5: the next occurrence keeps the task's fields and its due time; it drops a
        // Not today hold and comments.
        var n = moved(t, to: next.due)
        // The next occurrence needs an id; without one the series would end behind the user's back.
        let fresh = try newTask(title: t.title)
        n.id = fresh.id
        // The derived uid, unless this store holds it already (an occurrence completed, reopened
        // with its made one kept, and completed again): a uid names one task.
        let derived = Engine.occurrenceUID(of: t, due: next.due)
        n.uid = store.task(uid: derived) == nil ? derived : fresh.uid
        n.status = .open
        n.completedAt = nil
        n.heldUntil = nil
        n.notTodayOn = nil
        n.comments = []
        n.steps = t.steps.map { Step(title: $0.title, done: false) }
        n.createdAt = now
        n.modifiedAt = now
        n.repeatRule = next.spec
        n.nextOccurrence = nil
        n.pristine = true
        return n
    }

    /// R-REP-10 across devices: the uid of the occurrence due `due` that completing `t` makes,
    /// derived from `t`'s uid (its place in the series) and the date, so two devices that
    /// complete one occurrence offline make one next occurrence, and sync keeps one
    /// (docs/SYNC.md, "Repeats").
    public static func occurrenceUID(of t: Task, due: Due) -> TaskUID {
        TaskUID.named("occurrence", t.uid.description + " " + RepeatExtras.text(due))
    }

    /// R-REP-5: the task as the occurrence due `due`: a start date keeps its distance to the
    /// due; a reminder moves with the occurrence, keeping its time of day (a task that had no
    /// date keeps its reminder's time on the day it is now due), and is a new reminder, so not
    /// Past due.
    package func moved(_ t: Task, to due: Due) -> Task {
        var n = t
        n.due = due
        if let oldStart = t.start, let oldDue = t.due {
            n.start = Due(date: oldStart.date.adding(days: oldDue.date.days(until: due.date)), time: oldStart.time)
        }
        n.reminders = t.reminders.map { r in
            var m = r
            m.pastDue = false
            m.at = RepeatSpec.moved(r.at, from: t.due, to: due)
            return m
        }
        return n
    }
}
