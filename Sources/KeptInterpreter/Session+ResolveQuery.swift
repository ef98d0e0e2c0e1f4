// The resolve stage of the query statements: list and count, with or without a filter
// (R-FIL-1, R-FIL-3, R-FIL-4, R-VIEW-3, R-VIEW-5), and `parse filter`. A filter is parsed
// and bound once here, then evaluated over the store by the act stage.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What one section of a list shows, resolved.
package enum ListSectionRequest {
    /// A view of R-VIEW-1.
    case view(ListView)
    /// Deleted tasks through a filter (docs/FILTERS.md, "Deleted tasks").
    case deleted(FilterExpr)
    /// The tasks a filter matches, or every open task when nil.
    case tasks(FilterExpr?)
}

/// One section of a list: what it shows, its head in a comma list, and how many warnings and
/// patterns the statement had once its filter was bound (an error of this section reports
/// only those, as when the sections were bound one after another).
package struct ListSection {
    package var request: ListSectionRequest
    package var head: String?
    package var warnings: Int
    package var patterns: Int
}

/// A query statement, resolved.
package enum QueryRequest {
    /// `list`: its sections in order, up to the first whose filter could not be bound, and
    /// that one's error. `comma` says whether it is a comma list of sections.
    case list(ListClauses, [ListSection], comma: Bool, stop: Diagnostic?)
    /// `count`: a filter bound, or none.
    case count(FilterExpr?)
    /// `parse filter F`: the filter's syntax, read with no store and no clock.
    case parseFilter(ParsedFilter, FilterSource)
}

extension Session {
    /// The request of `list`, `count` or `parse filter`, or nil for another statement.
    package func resolveQuery(_ s: Statement) -> Result<QueryRequest, Diagnostic>? {
        switch s.kind {
        case .list(let body):
            let clauses: ListClauses
            switch body {
            case .success(let c): clauses = c
            case .failure(let d): return .failure(d)
            }
            let comma = clauses.parts.count > 1
            var sections: [ListSection] = []
            for part in comma ? clauses.parts.map(Optional.some) : [clauses.parts.first] {
                switch listSection(s, part) {
                case .success(let r):
                    sections.append(ListSection(request: r, head: comma ? part?.text : nil, warnings: warnings.count, patterns: patterns.count))
                case .failure(let d):
                    // A single list's error is the statement's; a comma list's comes after the sections before it.
                    guard comma else { return .failure(d) }
                    return .success(.list(clauses, sections, comma: comma, stop: d))
                }
            }
            return .success(.list(clauses, sections, comma: comma, stop: nil))
        case .count(let f): return bindFilter(f, s, deleted: true).map(QueryRequest.count)
        case .parseFilter(let f):
            switch f.parsed {
            case .success(let p):
                warnings += p.warnings
                return .success(.parseFilter(p, f))
            case .failure(let d): return .failure(d)
            }
        default: return nil
        }
    }

    /// One list: a view, a filter, or every open task.
    package func listSection(_ s: Statement, _ part: ListPart?) -> Result<ListSectionRequest, Diagnostic> {
        if let v = part?.view { return .success(.view(v)) }
        return bindFilter(part?.filter, s, deleted: true).map { e in
            if let e, e.looksAtDeleted { return .deleted(e) }
            return .tasks(e)
        }
    }
}
