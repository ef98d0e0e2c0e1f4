// The resolve stage of `agenda` and `plan openings` (docs/AGENDA.md): the first day read as a
// whole day, the filter bound as `list` binds it, the number of days and of openings.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// `agenda` or `plan openings`, resolved.
package enum AgendaStatementRequest {
    case agenda(AgendaRequest)
    /// Up to this many openings for each Top 3 pick.
    case openings(Int)
}

extension Session {
    /// How many days `agenda` shows without `N days`.
    package static let agendaDays = 7
    /// How many openings `plan openings` offers a pick without `N`.
    package static let openingsPerPick = 3

    /// The request of `agenda` or `plan openings`, or nil for another statement.
    package func resolveAgenda(_ s: Statement) -> Result<AgendaStatementRequest, Diagnostic>? {
        switch s.kind {
        case .openings(let n): return .success(.openings(n ?? Session.openingsPerPick))
        case .agenda(let spec):
            var first = today
            if let from = spec.from {
                switch wholeDate(from, s, help: "for example: agenda from tomorrow, agenda from 2026-07-01") {
                case .failure(let d): return .failure(d)
                case .success(let due):
                    if due.time != nil { return .failure(Catalog.timeWhereDayIsMeant(from.text, range: from.range, file: s.source.file)) }
                    first = due.date
                }
            }
            // The days must be days a date can hold.
            let days = spec.days ?? Session.agendaDays
            guard CivilDate(dayNumber: first.dayNumber).addingChecked(days: days - 1) != nil else {
                return .failure(Catalog.badAgendaDays(String(days), range: spec.daysRange ?? spec.from?.range ?? s.keywordRange, file: s.source.file))
            }
            return bindFilter(spec.filter, s).map { .agenda(AgendaRequest(first: first, days: days, filter: $0)) }
        default: return nil
        }
    }
}
