// What `list` shows besides a filter, as values: the views of R-VIEW-1 and the sort keys of
// `order by` (docs/FILTERS.md). The parser reads them (ListClauses); the engine runs them.

/// The views of R-VIEW-1.
public enum ListView: String, Sendable, CaseIterable {
    case today, tomorrow, next7 = "next 7 days", all, archived, doneToday = "done today"
}

/// A sort key of `order by`.
public enum OrderKey: String, Sendable, CaseIterable {
    case due, priority, created, title, id
}

/// The keys of `order by`, first to last, each ascending or descending; ties on id.
public typealias SortOrder = [(key: OrderKey, descending: Bool)]
