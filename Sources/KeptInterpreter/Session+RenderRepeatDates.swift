// The render stage of a repeat's own dates (docs/REPEATS.md, "Skipping and adding dates"): a
// line per changed task, errors about the date at the date, and how `show` lists the dates a
// repeat skips and adds. The rules are the engine's (Domain/Engine+RepeatDates).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The target of a change to a repeat's dates, and its date's words.
    package func parts(_ edit: RepeatDateEdit) -> (target: TaskTarget, date: TextArg?) {
        switch edit {
        case .skipNext(let t): return (t, nil)
        case .skip(let t, let a), .unskip(let t, let a), .rdate(let t, let a), .unrdate(let t, let a): return (t, a)
        }
    }

    /// The output of a change to a repeat's dates.
    package func render(_ o: Outcome<RepeatDateChange>, _ edit: RepeatDateEdit, _ s: Statement) -> CommandOutput {
        let verb: String
        switch edit {
        case .skipNext, .skip: verb = "Skipped an occurrence of"
        case .unskip: verb = "Restored an occurrence of"
        case .rdate: verb = "Added an occurrence to"
        case .unrdate: verb = "Removed an added occurrence of"
        }
        let txt = text
        let t = ActionText<RepeatDateChange>(verb: verb, name: s.keyword.rawValue, line: { c in
            var l = "\(c.task.id) · \(c.task.title): \(txt.occurrence(c.date))"
            if c.movedFrom != nil, let d = c.task.due { l += " · now due \(txt.occurrence(d))" }
            return l
        }) { self.updatedJSON($0.task) }
        return render(o, t, s, parts(edit).target)
    }

    /// The diagnostic of an engine error about a repeat's dates: one about the date points at
    /// it, one about the task (it does not repeat) at the target.
    package func render(_ e: DomainError, _ edit: RepeatDateEdit, _ s: Statement) -> Diagnostic {
        let (target, date) = parts(edit)
        if let date, case .repeatDate(_, let p) = e, !(p == .notRepeating(hasRepeat: false) || p == .notRepeating(hasRepeat: true)) {
            return diagnostic(e, s, at: date.range)
        }
        return diagnostic(e, s, at: target.range)
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
