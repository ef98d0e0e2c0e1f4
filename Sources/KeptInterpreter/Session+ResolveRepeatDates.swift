// The resolve stage of a repeat's own dates (docs/REPEATS.md, "Skipping and adding dates"):
// skip, unskip, rdate and unrdate, their target to ids and their date read whole.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A change to a repeat's dates, resolved: the ids it acts on and the date.
package enum RepeatDateRequest {
    case skipNext(Selection)
    case skip(Selection, Due)
    case unskip(Selection, Due)
    case rdate(Selection, Due)
    case unrdate(Selection, Due)
}

extension Session {
    /// The request of `skip`, `unskip`, `rdate` or `unrdate`: the date first, then the target.
    package func resolve(_ edit: RepeatDateEdit, _ s: Statement) -> Result<RepeatDateRequest, Diagnostic> {
        func dated(_ t: TaskTarget, _ a: TextArg, _ make: @escaping (Selection, Due) -> RepeatDateRequest) -> Result<RepeatDateRequest, Diagnostic> {
            wholeDate(a, s, help: "a date like jul 1 or 2026-07-01, with a time for a series with times: jul 1 9am").flatMap { d in
                selection(t, s).map { make($0, d) }
            }
        }
        switch edit {
        case .skipNext(let t): return selection(t, s).map(RepeatDateRequest.skipNext)
        case .skip(let t, let a): return dated(t, a, RepeatDateRequest.skip)
        case .unskip(let t, let a): return dated(t, a, RepeatDateRequest.unskip)
        case .rdate(let t, let a): return dated(t, a, RepeatDateRequest.rdate)
        case .unrdate(let t, let a): return dated(t, a, RepeatDateRequest.unrdate)
        }
    }
}
