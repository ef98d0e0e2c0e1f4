// The query statements: list and count, with or without a filter (R-FIL-1, R-FIL-3, R-FIL-4,
// R-VIEW-3, R-VIEW-5). A filter is parsed and checked once, then evaluated over the store.

extension Session {
    /// The filter context of now: today, now and the instant today began.
    var filterContext: FilterContext {
        let dc = dateContext
        var fc = FilterContext(dc, now: now)
        fc.todayStart = zone.instant(for: CivilDateTime(date: dc.today, time: store.settings.day.dayStart))
        return fc
    }

    /// Parses a statement's filter; nil when there is none.
    func compile(_ f: FilterSource?, _ s: Statement) -> Result<FilterExpr?, Diagnostic> {
        guard let f else { return .success(nil) }
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name))
        do throws(Diagnostic) {
            return .success(try p.parseFilter())
        } catch {
            return .failure(error)
        }
    }

    /// The tasks a filter looks at and those it matches: open tasks, unless the filter names a
    /// status.
    func select(_ expr: FilterExpr?) -> (matched: [Task], total: Int) {
        guard let expr else {
            let open = store.tasks.filter(\.isOpen)
            return (open, open.count)
        }
        let scope = expr.namesStatus ? store.tasks : store.tasks.filter(\.isOpen)
        let ev = FilterEvaluator(expr, context: filterContext)
        return (scope.filter(ev.matches), scope.count)
    }

    static func tasks(_ n: Int) -> String { n == 1 ? "1 task" : "\(n) tasks" }

    func runList(_ s: Statement, _ f: FilterSource?) -> CommandOutput {
        let expr: FilterExpr?
        switch compile(f, s) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        let (matched, total) = select(expr)
        let ordered = TaskOrder.creation(matched)
        let json = JSONValue.object(JSONObject([
            ("tasks", .array(ordered.map { TaskJSON.value($0, zone: zone) })),
            ("shown", .number(JSONNumber(ordered.count))),
            ("total", .number(JSONNumber(total))),
        ]))
        // R-FIL-4: how much a list shows; nothing matching is not the same as nothing there.
        let head: String
        if let expr {
            let on = expr.filterCount == 1 ? "1 filter on" : "\(expr.filterCount) filters on"
            if total == 0 { head = "No tasks" }
            else if ordered.isEmpty { head = "Nothing matches these filters · \(Session.tasks(total)) · \(on)" }
            else { head = "\(ordered.count) of \(Session.tasks(total)) · \(on)" }
        } else {
            head = total == 0 ? "No open tasks" : "All \(Session.tasks(total))"
        }
        return out([head] + text.rows(ordered), json: json)
    }

    func runCount(_ s: Statement, _ f: FilterSource?) -> CommandOutput {
        let expr: FilterExpr?
        switch compile(f, s) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        let (matched, total) = select(expr)
        let json = JSONValue.object(JSONObject([("count", .number(JSONNumber(matched.count))), ("total", .number(JSONNumber(total)))]))
        let line: String
        if expr == nil { line = "All \(Session.tasks(total))" }
        else if matched.isEmpty, total > 0 { line = "Nothing matches these filters (0 of \(total))" }
        else { line = "\(matched.count) of \(total)" }
        return out([line], json: json)
    }
}
