// A repeat's own dates in the language (docs/REPEATS.md, "Skipping and adding dates"): skip,
// unskip, rdate and unrdate, and how `show` lists the dates a repeat skips and adds. The rules
// are the engine's (Domain/Engine+RepeatDates).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    package func runRepeatDates(_ s: Statement, _ edit: RepeatDateEdit) -> CommandOutput {
        let txt = text
        func line(_ verb: String) -> ActionText<RepeatDateChange> {
            ActionText(verb: verb, name: s.keyword.rawValue, line: { c in
                var l = "\(c.task.id) · \(c.task.title): \(txt.occurrence(c.date))"
                if c.movedFrom != nil, let d = c.task.due { l += " · now due \(txt.occurrence(d))" }
                return l
            }) { self.updatedJSON($0.task) }
        }
        /// Runs an action on a date read whole; errors about the date point at it.
        func dated(_ t: TaskTarget, _ a: TextArg, _ verb: String,
                   _ call: @escaping (Selection, Due) throws(DomainError) -> Outcome<RepeatDateChange>) -> CommandOutput {
            switch wholeDate(a, s, help: "a date like jul 1 or 2026-07-01, with a time for a series with times: jul 1 9am") {
            case .failure(let d): return .error(d)
            case .success(let d):
                return act(s, t, line(verb), range: { e in
                    if case .repeatDate(_, let p) = e, !(p == .notRepeating(hasRepeat: false) || p == .notRepeating(hasRepeat: true)) { return a.range }
                    return nil
                }) { (sel) throws(DomainError) in try call(sel, d) }
            }
        }
        switch edit {
        case .skipNext(let t):
            return act(s, t, line("Skipped an occurrence of")) { (sel) throws(DomainError) in try engine.skip(sel, .next) }
        case .skip(let t, let a):
            return dated(t, a, "Skipped an occurrence of") { (sel, d) throws(DomainError) in try self.engine.skip(sel, .on(d)) }
        case .unskip(let t, let a):
            return dated(t, a, "Restored an occurrence of") { (sel, d) throws(DomainError) in try self.engine.unskip(sel, d) }
        case .rdate(let t, let a):
            return dated(t, a, "Added an occurrence to") { (sel, d) throws(DomainError) in try self.engine.addDate(sel, d) }
        case .unrdate(let t, let a):
            return dated(t, a, "Removed an added occurrence of") { (sel, d) throws(DomainError) in try self.engine.removeAddedDate(sel, d) }
        }
    }

    /// The diagnostic of a repeat's dates that cannot change so.
    package func repeatDateDiagnostic(_ t: Task, _ p: RepeatDateProblem, range: SourceRange, file: SourceFile) -> Diagnostic {
        let txt = text
        let id = t.id
        func written(_ d: Due) -> String { d.date.iso + (d.time.map { " " + $0.iso } ?? "") }
        func listed(_ ds: [Due]) -> String { ds.map(txt.occurrence).joined(separator: ", ") }
        let message: String, label: String
        var help: String? = nil
        switch p {
        case .notRepeating(let hasRepeat):
            if hasRepeat {
                message = "task \(id) has no due date, so its repeat has no open occurrence"
                label = "no due date"
                help = "'reschedule \(id) DATE' dates it"
            } else {
                message = "task \(id) does not repeat"
                label = "no repeat"
                help = "'set \(id) repeat every week' gives it one"
            }
        case .notAnOccurrence(let d, let near):
            message = "\(txt.occurrence(d)) is not a date of task \(id)'s repeat"
            label = "not an occurrence of \(t.repeatRule?.text ?? "its repeat")"
            help = near.isEmpty ? "the series has no dates near it" : "its dates near it: \(listed(near))"
        case .seriesEnds(let after):
            message = "task \(id)'s repeat has no occurrence after \(txt.occurrence(after))"
            label = "the last of its series"
            help = "'complete \(id)' finishes the series; 'set \(id) repeat never' stops it here"
        case .alreadyAnOccurrence(let d, let skipped):
            if skipped {
                message = "\(txt.occurrence(d)) is a date of task \(id)'s repeat, skipped"
                label = "taken out by skip"
                help = "'unskip \(id) \(written(d))' gives it back"
            } else {
                message = "\(txt.occurrence(d)) is already a date of task \(id)'s repeat"
                label = "the rule gives it"
            }
        case .notListed(let d, let added, let ds):
            message = added ? "task \(id)'s repeat has no added date \(txt.occurrence(d))" : "task \(id)'s repeat does not skip \(txt.occurrence(d))"
            label = added ? "not an added date" : "not a skipped date"
            help = ds.isEmpty ? (added ? "it has no added dates" : "it skips no dates") : (added ? "its added dates: " : "it skips: ") + listed(ds)
        case .passed(let d, let open):
            if RepeatSpec.moment(d) < RepeatSpec.moment(open), d.date != open.date || d.time != nil {
                message = "\(txt.occurrence(d)) is before task \(id)'s open occurrence, \(txt.occurrence(open))"
                label = "the series is past it"
                help = "'skip next \(id)' takes out the open occurrence; a later date takes out that one"
            } else {
                message = "\(txt.occurrence(d)) has passed"
                label = "an added date is ahead of now"
            }
        case .timeDoesNotFit(let d, let timed):
            if timed {
                message = "task \(id)'s repeat has several times a day: an added date needs one"
                label = "which time of the day?"
                help = "for example: rdate \(id) \(d.date.iso) 5pm"
            } else {
                message = "task \(id)'s repeat has no times of day"
                label = "a time for a series of whole days"
                help = "write the day alone: \(d.date.iso)"
            }
        }
        return Catalog.repeatDate(p, message: message, range: range, file: file, label: label, help: help)
    }

    /// The dates a repeat skips and adds, as `show` lists them: `Wed Jul 1, Wed Jul 8`.
    package func repeatDateRows(_ t: Task, _ txt: TaskText) -> [(String, String)] {
        guard let r = t.repeatRule else { return [] }
        var rows: [(String, String)] = []
        if !r.exceptions.isEmpty { rows.append(("skips", r.exceptions.map(txt.occurrence).joined(separator: ", "))) }
        if !r.additions.isEmpty { rows.append(("adds", r.additions.map(txt.occurrence).joined(separator: ", "))) }
        return rows
    }
}
