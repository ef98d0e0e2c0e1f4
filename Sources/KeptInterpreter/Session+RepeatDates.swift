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

    /// The dates a repeat skips and adds, as `show` lists them: `Wed Jul 1, Wed Jul 8`.
    package func repeatDateRows(_ t: Task, _ txt: TaskText) -> [(String, String)] {
        guard let r = t.repeatRule else { return [] }
        var rows: [(String, String)] = []
        if !r.exceptions.isEmpty { rows.append(("skips", r.exceptions.map(txt.occurrence).joined(separator: ", "))) }
        if !r.additions.isEmpty { rows.append(("adds", r.additions.map(txt.occurrence).joined(separator: ", "))) }
        return rows
    }
}
