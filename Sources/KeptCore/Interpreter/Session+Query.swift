// The query statements: list and count, with or without a filter (R-FIL-1, R-FIL-3, R-FIL-4,
// R-VIEW-3, R-VIEW-5). A filter is parsed and checked once, then evaluated over the store.

extension Session {
    /// Parses a statement's filter; nil when there is none.
    func compile(_ f: FilterSource?, _ s: Statement) -> Result<FilterExpr?, Diagnostic> {
        guard let f else { return .success(nil) }
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name),
                             saved: store.filters)
        do throws(Diagnostic) {
            return .success(try p.parseFilter())
        } catch {
            return .failure(error)
        }
    }

    func select(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Task], total: Int) { try engine.select(expr) }
    func selectRows(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Int], total: Int) { try engine.selectRows(expr) }
    func matching(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) -> [Task] { engine.matching(expr, index, fc) }

    /// The error of a query whose patterns ran past their budget, under the pattern when the
    /// statement spells it (a saved filter's is under the statement).
    func regexBudgetError(_ e: RegexBudgetError, _ s: Statement) -> Diagnostic {
        let needle = Array("/\(e.pattern)/".utf8)
        let b = s.source.bytes
        var range = s.range
        if needle.count <= b.count {
            for k in 0...(b.count - needle.count) where b[k] == needle[0] && Array(b[k..<(k + needle.count)]) == needle {
                range = SourceRange(start: s.source.range.start + k, end: s.source.range.start + k + needle.count)
                break
            }
        }
        return Catalog.regexBudget(e.pattern, timedOut: e.timedOut, range: range, file: s.source.file)
    }

    func runList(_ s: Statement, _ f: FilterSource?) -> CommandOutput {
        var clauses = ListClauses(view: nil, filterEnd: 0)
        var filter = f
        if let f {
            var cp = ListClauseParser(tokens: f.tokens, from: f.start, file: s.source.file)
            do throws(Diagnostic) { clauses = try cp.parseListBody() } catch { return .error(error) }
            if clauses.view != nil || clauses.filterEnd == f.start {
                filter = nil
            } else {
                var toks = Array(f.tokens[..<clauses.filterEnd])
                toks.append(Token(kind: .end, text: "", range: SourceRange.at(f.tokens[clauses.filterEnd].range.start)))
                filter = FilterSource(tokens: toks, start: f.start, range: f.range)
            }
        }
        if let v = clauses.view { return runView(v, clauses) }
        let expr: FilterExpr?
        switch compile(filter, s) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        let matched: [Task], total: Int
        do throws(RegexBudgetError) { (matched, total) = try select(expr) } catch { return .error(regexBudgetError(error, s)) }
        var ordered = order(matched, clauses)
        if let n = clauses.limit { ordered = Array(ordered.prefix(n)) }
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
            else if matched.isEmpty { head = "Nothing matches these filters · \(Session.tasks(total)) · \(on)" }
            else { head = "\(ordered.count) of \(Session.tasks(total)) · \(on)" }
        } else {
            head = total == 0 ? "No open tasks" : (ordered.count < total ? "\(ordered.count) of \(Session.tasks(total))" : "All \(Session.tasks(total))")
        }
        let body = clauses.groupByDue ? grouped(ordered) : text.rows(ordered)
        return out([head] + body, json: json)
    }

    /// Tasks in the order the clauses ask for; creation order, and ties on id, otherwise.
    func order(_ tasks: [Task], _ c: ListClauses) -> [Task] {
        guard !c.order.isEmpty else { return TaskOrder.creation(tasks) }
        return tasks.sorted { a, b in
            for (key, desc) in c.order {
                let r: Int
                switch key {
                case .due:
                    // Tasks without a due come last, whichever way.
                    let x = a.due.map { $0.date.dayNumber * 1440 + ($0.time?.minuteOfDay ?? 1440) } ?? Int.max
                    let y = b.due.map { $0.date.dayNumber * 1440 + ($0.time?.minuteOfDay ?? 1440) } ?? Int.max
                    if x == y { continue }
                    if x == Int.max || y == Int.max { return x < y }
                    r = x < y ? -1 : 1
                case .priority: r = a.priority == b.priority ? 0 : (a.priority < b.priority ? -1 : 1)
                case .created: r = a.createdAt == b.createdAt ? 0 : (a.createdAt < b.createdAt ? -1 : 1)
                case .title:
                    let x = SearchText.fold(a.title), y = SearchText.fold(b.title)
                    r = x == y ? 0 : (x < y ? -1 : 1)
                case .id: r = a.id == b.id ? 0 : (a.id < b.id ? -1 : 1)
                }
                if r != 0 { return desc ? r > 0 : r < 0 }
            }
            return a.id < b.id
        }
    }

    /// The due groups of R-VIEW-4, in order, each with its rows; empty groups are left out.
    func grouped(_ tasks: [Task]) -> [String] {
        var lines: [String] = []
        var buckets: [DueGroup: [Task]] = [:]
        let fc = filterContext
        let weekEnd = store.settings.day.endOfWeek(containing: today).dayNumber
        for t in tasks { buckets[DueGroup.of(t, fc, weekEnd: weekEnd), default: []].append(t) }
        for g in DueGroup.allCases {
            guard let b = buckets[g], !b.isEmpty else { continue }
            lines.append("\(g.title) (\(b.count))")
            lines += text.rows(b).map { "  " + $0 }
        }
        return lines
    }

    /// The views of R-VIEW-1 with their counts; Today and Next 7 days list overdue first and
    /// end with what was done today (R-VIEW-2).
    func runView(_ v: ListView, _ c0: ListClauses) -> CommandOutput {
        let fc = filterContext
        var c = c0
        // Views read by date unless asked otherwise.
        if c.order.isEmpty, v != .archived, v != .doneToday { c.order = [(.due, false)] }
        // One index for all the view's parts; no part reads text.
        let index = store.columns(dayStart: store.settings.day.dayStart, withText: false, withSearch: false)
        func match(_ e: FilterExpr) -> [Task] { matching(e, index, fc) }
        let open = FilterExpr.term(.status(.open))
        let doneToday = c.order.isEmpty ? TaskOrder.creation(match(.term(.doneToday))) : order(match(.term(.doneToday)), c)
        var rows: [Task]
        var head: String
        var withDone = false
        switch v {
        case .today, .next7:
            let days = v == .today ? 1 : 7
            let w = FilterExpr.term(.window(DayWindow(start: fc.today, end: fc.today + days)))
            let overdue = order(match(.and([open, .term(.overdue)])), c)
            let due = order(match(.and([open, w, .not(.term(.overdue))])), c)
            rows = overdue + due
            let name = v == .today ? "Today" : "Next 7 days"
            head = "\(name) · \(Session.tasks(rows.count))"
            if v == .today { head += " · \(doneToday.count) of \(doneToday.count + rows.count) done today" }
            withDone = true
        case .tomorrow:
            rows = order(match(.and([open, .term(.window(DayWindow(start: fc.today + 1, end: fc.today + 2)))])), c)
            head = "Tomorrow · \(Session.tasks(rows.count))"
        case .all:
            rows = order(match(open), c)
            head = "All \(Session.tasks(rows.count))"
        case .archived:
            rows = order(match(.term(.status(.archived))), c)
            head = "Archived · \(Session.tasks(rows.count))"
        case .doneToday:
            rows = doneToday
            head = "Done today · \(Session.tasks(rows.count))"
        }
        if let n = c.limit, n < rows.count {
            head += " · showing \(n)"
            rows = Array(rows.prefix(n))
        }
        var lines = [head] + (c.groupByDue ? grouped(rows) : text.rows(rows))
        if withDone, !doneToday.isEmpty {
            lines.append("Done (\(doneToday.count))")
            lines += text.rows(doneToday).map { "  " + $0 }
        }
        let json = JSONValue.object(JSONObject([
            ("view", .string(v.rawValue)),
            ("tasks", .array(rows.map { TaskJSON.value($0, zone: zone) })),
            ("done", .array((withDone ? doneToday : []).map { TaskJSON.value($0, zone: zone) })),
            ("shown", .number(JSONNumber(rows.count))),
        ]))
        return out(lines, json: json)
    }

    func runCount(_ s: Statement, _ f: FilterSource?) -> CommandOutput {
        let expr: FilterExpr?
        switch compile(f, s) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        let matched: Int, total: Int
        do throws(RegexBudgetError) { (matched, total) = try engine.count(expr) } catch { return .error(regexBudgetError(error, s)) }
        let json = JSONValue.object(JSONObject([("count", .number(JSONNumber(matched))), ("total", .number(JSONNumber(total)))]))
        let line: String
        if expr == nil { line = "All \(Session.tasks(total))" }
        else if matched == 0, total > 0 { line = "Nothing matches these filters (0 of \(total))" }
        else { line = "\(matched) of \(total)" }
        return out([line], json: json)
    }
}
