// Repeats in the session: dating a new repeating task (R-REP-7), the next occurrence made on
// completion (R-REP-2, 3, 5, 6, 10), stopping a series (R-REP-8), and the repeat and rrule
// statements that preview a rule.

extension Session {
    var weekStart: Weekday { store.settings.day.weekStart }

    /// A repeat for a task: the anchor is `from DATE`, else the due date; an undated task is
    /// dated to the rule's first occurrence on or after today (R-REP-7). The rule keeps the
    /// account's week start as it is now.
    func attach(_ rule: RepeatRule, to t: inout Task) {
        let today = self.today
        var rule = rule
        if rule.weekStart == nil { rule.weekStart = weekStart }
        if t.due == nil {
            let start = rule.from ?? today
            // An hourly rule without a time starts now.
            let time = rule.dependsOnAnchorTime && rule.from == nil ? nowLocal.time : nil
            t.due = RepeatSpec(rule: rule, anchor: start, anchorTime: time).firstDue(onOrAfter: start, weekStart: weekStart) ?? Due(date: today)
        }
        if var d = t.due, d.time == nil, rule.isTimed {
            d.time = RepeatSpec(rule: rule, anchor: d.date).firstDue(onOrAfter: d.date, weekStart: weekStart)?.time ?? rule.times.first
            t.due = d
        }
        t.repeatRule = RepeatSpec(rule: rule, anchor: rule.from ?? t.due?.date ?? today, anchorTime: t.due?.time)
    }

    /// The occurrence that completing `t` makes, or nil when the series has ended.
    func nextOccurrence(of t: Task, completedOn day: CivilDate, id: Int) -> Task? {
        guard let spec = t.repeatRule,
              let next = spec.next(afterCompleting: t.due, at: nowLocal, today: day, zone: zone, weekStart: weekStart) else { return nil }
        let d = next.due.date
        let nextSpec = next.spec
        // R-REP-5: the next occurrence keeps the task's fields and its due time; it drops a
        // Not today hold and comments.
        var n = t
        n.id = id
        n.status = .open
        n.due = next.due
        if let oldStart = t.start, let oldDue = t.due {
            n.start = Due(date: oldStart.date.adding(days: oldDue.date.days(until: d)), time: oldStart.time)
        }
        // R-REP-5: a reminder moves with the date, keeping its time of day; a task that had no
        // date keeps its reminder's time on the day it is next due. Either is a new reminder,
        // so it is not Past due.
        n.reminders = t.reminders.map { r in
            var m = r
            m.pastDue = false
            m.at = RepeatSpec.moved(r.at, from: t.due, to: next.due)
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
                // RFC 5545: an RRULE without WKST counts weeks from Monday, whatever the account's.
                r.weekStart = r.weekStart ?? .monday
                r = r.untilAsDay(in: zone)
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
                return .failure(Diagnostic(code: e.code, message: e.message, file: file, range: range, label: "not an RRULE Kept reads"))
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
                return .failure(Diagnostic(code: e.code, message: e.message, file: file, range: range, label: "not a repeat rule",
                                           help: e.help ?? "for example: every day, every mon and thu, every month on the 31st"))
            }
        }
    }

    func runRepeat(_ s: Statement, _ arg: TextArg, rruleOnly: Bool) -> CommandOutput {
        let file = s.source.file
        var words = arg.text.split(separator: " ").map(String.init)
        var limit = 5
        // `next N` at the end sets how many dates to show.
        if !rruleOnly, words.count >= 2, words[words.count - 2].lowercased() == "next", let n = Int(words[words.count - 1]) {
            guard n >= 1, n <= 1000 else {
                return .error(Diagnostic(code: "E0209", message: "'next \(n)' shows from 1 to 1000 dates", file: file, range: arg.range, label: "too many"))
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
        let rr = rule.rrule(anchor: anchor, weekStart: weekStart, zone: zone)
        if rruleOnly {
            switch rr {
            case .success(let x): return out([x], json: .object(JSONObject([("rule", .string(words_)), ("rrule", .string(x))])))
            case .failure(let e):
                return .error(Diagnostic(code: "E0211", message: "'\(words_)' cannot be written as an RRULE", file: file, range: arg.range,
                                         label: "no RRULE says this", notes: [e.message]))
            }
        }
        // An hourly rule without `from` starts now.
        let time = rule.dependsOnAnchorTime && rule.from == nil ? nowLocal.time : nil
        let dates = rule.occurrences(anchor: anchor, time: time, limit: limit, weekStart: weekStart, zone: zone)
        let rrText = (try? rr.get()) ?? "none (\((rr.failure?.message) ?? ""))"
        let json = JSONValue.object(JSONObject([
            ("rule", .string(words_)),
            ("rrule", (try? rr.get()).map { .string($0) } ?? .null),
            ("dates", .array(dates.map { .string($0.date.iso + ($0.time.map { "T" + $0.iso } ?? "")) })),
        ]))
        var lines = [rule.words(anchor: anchor) ?? "No words say this rule: its text is its RRULE", "RRULE " + rrText]
        lines += dates.map { d in d.time.map { "\(TimeText.longDate(d.date)) \(TimeText.time($0, store.settings.day.hourCycle))" } ?? TimeText.longDate(d.date) }
        if dates.count < limit { lines.append("(the series ends here)") }
        return out(lines, json: json)
    }
}
