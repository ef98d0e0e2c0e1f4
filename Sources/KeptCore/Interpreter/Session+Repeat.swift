// Repeats in the session: dating a new repeating task (R-REP-7), the next occurrence made on
// completion (R-REP-2, 3, 5, 6, 10), stopping a series (R-REP-8), and the repeat and rrule
// statements that preview a rule.

extension Session {
    var weekStart: Weekday { store.settings.day.weekStart }

    /// A repeat for a task: the anchor is `from DATE`, else the due date; an undated task is
    /// dated to the rule's first occurrence on or after today (R-REP-7).
    func attach(_ rule: RepeatRule, to t: inout Task) {
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

    /// The occurrence that completing `t` makes, or nil when the series has ended.
    func nextOccurrence(of t: Task, completedOn day: CivilDate, id: Int) -> Task? {
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
        n.id = id
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
        n.repeatRule = nextSpec
        n.nextOccurrence = nil
        n.pristine = true
        return n
    }

    /// A rule from words (`every …`, the `every` may be left out) or an RRULE with an optional
    /// `from DATE`: what `repeat`, `rrule` and `set ID repeat` take.
    func repeatRule(_ words: [String], range: SourceRange, file: SourceFile) -> Result<RepeatRule, Diagnostic> {
        if words.joined(separator: " ").uppercased().contains("FREQ=") {
            switch RepeatRule.fromRRULE(words.first ?? "") {
            case .success(var r):
                if words.count >= 3, words[1].lowercased() == "from" {
                    switch DatePhrase.resolve(Array(words[2...]), in: dateContext) {
                    case .success(let (d, used)) where used == words.count - 2: r.from = d.due.date
                    default:
                        return .failure(Catalog.badDate(words[2...].joined(separator: " "), range: range, file: file))
                    }
                } else if words.count > 1 {
                    return .failure(Diagnostic(code: "E0103", message: "unexpected '\(words[1])' after the RRULE", file: file, range: range,
                                               label: "not part of the rule", help: "an RRULE takes 'from DATE' and 'next N' after it"))
                }
                return .success(r)
            case .failure(let e):
                return .failure(Diagnostic(code: "E0210", message: e.message, file: file, range: range, label: "not an RRULE Kept reads"))
            }
        } else {
            let ws = words.first?.lowercased() == "every" ? words : ["every"] + words
            switch RepeatRule.parse(words: ws, in: dateContext) {
            case .success(let (r, used)) where used == ws.count:
                return .success(r)
            case .success(let (_, used)):
                let bad = ws[used]
                return .failure(Diagnostic(code: "E0103", message: "unexpected '\(bad)' after the repeat '\(ws[..<used].joined(separator: " "))'",
                                           file: file, range: range, label: "not part of the rule"))
            case .failure(let e):
                return .failure(Diagnostic(code: e.outOfRange ?? "E0210", message: e.message, file: file, range: range, label: "not a repeat rule",
                                           help: e.help ?? "for example: every day, every mon and thu, every month on the 31st"))
            }
        }
    }

    func runRepeat(_ s: Statement, _ arg: TextArg, rruleOnly: Bool) -> CommandOutput {
        let file = s.source.file
        var words = arg.text.split(separator: " ").map(String.init)
        var limit = 5
        // `next N` at the end sets how many dates to show.
        if !rruleOnly, words.count >= 2, words[words.count - 2].lowercased() == "next", Limits.isDigits(words[words.count - 1]) {
            // A number of any length: too many digits is too many dates, not a word of the rule.
            let n = Limits.number(words[words.count - 1].utf8) ?? Int.max
            guard n >= 1, n <= Limits.repeatPreviewDates else {
                return .error(Diagnostic(code: "E0209", message: "'next \(words[words.count - 1])' shows from 1 to \(Limits.repeatPreviewDates) dates", file: file, range: arg.range, label: "too many"))
            }
            limit = n
            words.removeLast(2)
        }
        let rule: RepeatRule
        switch repeatRule(words, range: arg.range, file: file) {
        case .success(let r): rule = r
        case .failure(let d): return .error(d)
        }
        let anchor = rule.from ?? today
        let words_ = rule.text(anchor: anchor)
        let rr = rule.rrule(anchor: anchor, weekStart: weekStart)
        if rruleOnly {
            switch rr {
            case .success(let x): return out([x], json: .object(JSONObject([("rule", .string(words_)), ("rrule", .string(x))])))
            case .failure(let e):
                return .error(Diagnostic(code: "E0211", message: "'\(words_)' cannot be written as an RRULE", file: file, range: arg.range,
                                         label: "no RRULE says this", notes: [e.message]))
            }
        }
        let dates = rule.occurrences(anchor: anchor, limit: limit, weekStart: weekStart)
        let rrText = (try? rr.get()) ?? "none (\((rr.failure?.message) ?? ""))"
        let json = JSONValue.object(JSONObject([
            ("rule", .string(words_)),
            ("rrule", (try? rr.get()).map { .string($0) } ?? .null),
            ("dates", .array(dates.map { .string($0.iso) })),
        ]))
        var lines = [words_, "RRULE " + rrText]
        lines += dates.map { d in rule.time.map { "\(TimeText.longDate(d)) \(TimeText.time($0, store.settings.day.hourCycle))" } ?? TimeText.longDate(d) }
        if dates.count < limit { lines.append("(the series ends here)") }
        return out(lines, json: json)
    }
}
