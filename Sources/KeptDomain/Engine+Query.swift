// Reading the store through a filter: the rows a compiled filter matches over the columns, and
// the tasks a filter looks at (open ones, unless it names a status). Only the columns are read;
// the tasks printed are built one by one. A filter whose patterns run past their budget fails
// the query (RegexBudgetError, docs/LIMITS.md), never a silent no-match.

import KeptRules

extension Engine {
    /// The rows (positions in id order) a filter matches, and how many tasks it looked at. A
    /// backend that narrows (SQL) reads only the tasks the filter may match; the compiled
    /// filter decides on them as on every task's columns, so the answer is the same.
    public func selectRows(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Int], total: Int) {
        let ds = store.settings.day.dayStart
        if let n = store.narrowedColumns(NarrowRequest(expr: expr, dayStart: ds), filterContext) {
            guard let expr else { return ((0..<n.index.count).filter { n.index.isOpen($0) }, n.total) }
            return (try matchingRows(expr, n.index, filterContext), n.total)
        }
        guard let expr else {
            let index = store.columns(dayStart: ds, withText: false, withSearch: false)
            let open = (0..<index.count).filter { index.isOpen($0) }
            return (open, open.count)
        }
        // Compiled once over the store's columns: names are interned, dues are integers.
        let index = store.columns(dayStart: ds, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
        let total = expr.namesStatus ? index.count : (0..<index.count).reduce(0) { $0 + (index.isOpen($1) ? 1 : 0) }
        return (try matchingRows(expr, index, filterContext), total)
    }

    /// How many tasks a filter matches, and how many it looked at: counted by the backend when
    /// it can (SQL), over the columns otherwise.
    public func count(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: Int, total: Int) {
        if let c = store.count(expr ?? .and([]), filterContext) { return c }
        let (rows, total) = try selectRows(expr)
        return (rows.count, total)
    }

    /// The tasks a filter matches, and how many tasks it looked at.
    public func select(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Task], total: Int) {
        let (rows, total) = try selectRows(expr)
        return (rows.compactMap { store.task(atRow: $0) }, total)
    }

    /// A list's rows: the tasks a filter matches in an order, the first `limit` of them, with
    /// how many match and how many it looked at. A backend whose condition says exactly what
    /// the filter says reads only the rows printed (sort and limit in SQL); the compiled filter
    /// still decides on each, and a row it refuses sends the list the general way. With
    /// `countAll` false, `matched` may stop at the limit (at least one when any task matches,
    /// whatever the limit): a list's head says only whether nothing matches, and a count of a
    /// million matches is most of the cost of ten rows.
    public func select(_ expr: FilterExpr?, order: SortOrder, limit: Int?, countAll: Bool = true) throws(RegexBudgetError) -> (ordered: [Task], matched: Int, total: Int) {
        if let limit, let s = try narrowedSelect(expr, order: order, limit: limit, countAll: countAll) { return s }
        let (matched, total) = try select(expr)
        var ordered = sorted(matched, by: order)
        if let limit { ordered = Array(ordered.prefix(max(0, limit))) }
        return (ordered, matched.count, total)
    }

    /// `select` with a limit on a backend that narrows (SQL), or nil for the general path.
    package func narrowedSelect(_ expr: FilterExpr?, order: SortOrder, limit: Int, countAll: Bool) throws(RegexBudgetError) -> (ordered: [Task], matched: Int, total: Int)? {
        var r = NarrowRequest(expr: expr, dayStart: store.settings.day.dayStart)
        r.order = order
        r.limit = limit
        r.countAll = countAll
        guard let n = store.narrowedColumns(r, filterContext) else { return nil }
        let rows = try expr.map { e throws(RegexBudgetError) in try matchingRows(e, n.index, filterContext) }
            ?? (0..<n.index.count).filter { n.index.isOpen($0) }
        if let all = n.matched {
            // The first rows only: each must match, or the list goes the general way.
            guard rows.count == n.index.count else { return nil }
            let ordered = sorted(rows.compactMap { store.task(atRow: $0) }, by: order)
            return (Array(ordered.prefix(max(0, limit))), all, n.total)
        }
        // Every task the filter may match was read (its order or terms have no column): the
        // filter decides on them here, not on a second read.
        let ordered = sorted(rows.compactMap { store.task(atRow: $0) }, by: order)
        return (Array(ordered.prefix(max(0, limit))), rows.count, n.total)
    }

    /// The deleted tasks a filter over deleted tasks matches, and how many there are: their
    /// tombstones, which keep a uid and when it went (docs/FILTERS.md, "Deleted tasks").
    public func deleted(_ expr: FilterExpr) -> (matched: [Tombstone], total: Int) {
        let all = store.tombstones
        let fc = filterContext
        return (all.filter { Engine.matches(expr, $0, fc) }, all.count)
    }

    /// Whether a tombstone matches a filter of deleted dates (the binder lets no other term in).
    package static func matches(_ e: FilterExpr, _ t: Tombstone, _ fc: FilterContext) -> Bool {
        switch e {
        case .and(let xs): return xs.allSatisfy { matches($0, t, fc) }
        case .or(let xs): return xs.contains { matches($0, t, fc) }
        case .not(let x): return !matches(x, t, fc)
        case .term(.saved(_, let x)): return matches(x, t, fc)
        case .term(.instant(.deleted, let c, let i)): return c.holds(t.deletedAt, i)
        case .term(.instantIn(.deleted, let w)):
            let lo = w.start == Int.min ? Instant(seconds: Int64.min) : fc.start(ofDay: w.start)
            return t.deletedAt >= lo && (w.end == Int.max || t.deletedAt < fc.start(ofDay: w.end))
        case .term: return false
        }
    }

    /// The ids a filter matches (a bulk action's selection).
    public func ids(matching expr: FilterExpr) throws(RegexBudgetError) -> [Int] {
        try select(expr).matched.map(\.id)
    }

    public func matchingRows(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) throws(RegexBudgetError) -> [Int] {
        try CompiledFilter(expr, index: index, context: fc).rows(in: index)
    }

    /// The tasks of the store that a view's filter matches, over an index built from them. A
    /// view's filters have no patterns, so they cannot run past a budget.
    public func matching(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) -> [Task] {
        ((try? matchingRows(expr, index, fc)) ?? []).compactMap { store.task(atRow: $0) }
    }

    /// R-FIL-6: each area once, by the name the user gave it; spellings of one area are one; an
    /// unknown name stays as written; the starter area is never offered.
    public var areaNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        func add(_ name: String) {
            let k = AreaName.key(name)
            guard !k.isEmpty, k != AreaName.key("Kept Onboarding"), seen.insert(k).inserted else { return }
            names.append(name)
        }
        for a in store.areas { add(a.name) }
        for t in store.tasks(.all) { if let a = t.area { add(a) } }
        return names
    }
}
