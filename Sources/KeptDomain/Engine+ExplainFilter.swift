// `explain FILTER for ID` as a query (R-FIL-8): each part of a filter, true or false for one
// task. Every part is compiled and tried by CompiledFilter, the evaluator every query uses, so
// the explanation cannot disagree with `list`.

import KeptRules

/// One part of a filter and whether it holds for the task, with its own parts.
public struct FilterTruth: Sendable {
    public var expr: FilterExpr
    public var value: Bool
    /// The parts of an `and`, an `or`, a `not` or a saved filter.
    public var parts: [FilterTruth]
}

/// A filter tried on one task.
public struct FilterTrial: Sendable {
    public var task: Task
    /// Whether the task is among the tasks the filter looks at (open ones, unless it names a status).
    public var inScope: Bool
    /// Whether the filter matches it: in scope, and the whole filter holds.
    public var matches: Bool
    public var whole: FilterTruth
}

extension Engine {
    /// Each part of a filter tried on the task `id`.
    public func trial(_ expr: FilterExpr, on id: Int) throws(DomainError) -> FilterTrial {
        let t = try existing(id)
        let ds = store.settings.day.dayStart
        let index = store.columns(dayStart: ds, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
        guard let row = SmartPlan.row(of: id, in: index) else { throw .noTask(id) }
        let fc = filterContext
        func truth(_ e: FilterExpr) -> FilterTruth {
            let value = CompiledFilter(e, index: index, context: fc).holds(row, in: index)
            let parts: [FilterTruth]
            switch e {
            case .and(let xs), .or(let xs): parts = xs.map(truth)
            case .not(.term(let x)) where !x.isSaved: parts = []
            case .not(let x): parts = [truth(x)]
            case .term(.saved(_, let x)): parts = [truth(x)]
            case .term: parts = []
            }
            return FilterTruth(expr: e, value: value, parts: parts)
        }
        let compiled = CompiledFilter(expr, index: index, context: fc)
        return FilterTrial(task: t, inScope: compiled.inScope(row, in: index), matches: compiled.matches(row, in: index), whole: truth(expr))
    }
}

extension FilterTerm {
    /// A saved filter used in place (`filter:Errands`).
    var isSaved: Bool {
        if case .saved = self { return true }
        return false
    }
}
