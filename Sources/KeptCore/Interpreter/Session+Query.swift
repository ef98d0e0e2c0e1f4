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
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name),
                             saved: store.filters)
        do throws(Diagnostic) {
            return .success(try p.parseFilter())
        } catch {
            return .failure(error)
        }
    }

    /// The tasks a filter looks at and those it matches: open tasks, unless the filter names a
    /// status. Fails when its patterns run past their budget (E0226).
    func select(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Task], total: Int) {
        let (rows, total) = try selectRows(expr)
        return (rows.compactMap { store.task(atRow: $0) }, total)
    }

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

    /// The rows (positions in id order) a filter matches, and how many tasks it looked at;
    /// only the store's columns are read, so no task is built.
    func selectRows(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Int], total: Int) {
        let ds = store.settings.day.dayStart
        guard let expr else {
            let index = store.columns(dayStart: ds, withText: false)
            let open = (0..<index.count).filter { index.isOpen($0) }
            return (open, open.count)
        }
        // Compiled once over the store's columns: names are interned, dues are integers.
        let index = store.columns(dayStart: ds, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
        let total = expr.namesStatus ? index.count : (0..<index.count).reduce(0) { $0 + (index.isOpen($1) ? 1 : 0) }
        return (try matchingRows(expr, index, filterContext), total)
    }

    /// The tasks of the store that a view's filter matches, over an index built from them. A
    /// view's filters have no patterns, so they cannot run past a budget.
    func matching(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) -> [Task] {
        ((try? matchingRows(expr, index, fc)) ?? []).compactMap { store.task(atRow: $0) }
    }

    func matchingRows(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) throws(RegexBudgetError) -> [Int] {
        try CompiledFilter(expr, index: index, context: fc).rows(in: index)
    }

    static func tasks(_ n: Int) -> String { n == 1 ? "1 task" : "\(n) tasks" }

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
        let names = ["Overdue", "Today", "Tomorrow", "This Week", "Later", "No Due Date"]
        var buckets = [[Task]](repeating: [], count: names.count)
        let fc = filterContext
        let weekEnd = store.settings.day.endOfWeek(containing: today).dayNumber
        for t in tasks { buckets[dueGroup(t, fc, weekEnd: weekEnd)].append(t) }
        for (k, b) in buckets.enumerated() where !b.isEmpty {
            lines.append("\(names[k]) (\(b.count))")
            lines += text.rows(b).map { "  " + $0 }
        }
        return lines
    }

    /// The index of a task's due group (R-VIEW-4): Overdue, Today, Tomorrow, This Week, Later,
    /// No Due Date.
    func dueGroup(_ t: Task, _ fc: FilterContext, weekEnd: Int) -> Int {
        guard let d = t.due else { return 5 }
        if fc.isOverdue(t) { return 0 }
        let day = fc.day(of: d)
        if day <= fc.today { return 1 }
        if day == fc.today + 1 { return 2 }
        return day <= weekEnd ? 3 : 4
    }

    /// The views of R-VIEW-1 with their counts; Today and Next 7 days list overdue first and
    /// end with what was done today (R-VIEW-2).
    func runView(_ v: ListView, _ c0: ListClauses) -> CommandOutput {
        let fc = filterContext
        var c = c0
        // Views read by date unless asked otherwise.
        if c.order.isEmpty, v != .archived, v != .doneToday { c.order = [(.due, false)] }
        // One index for all the view's parts; no part reads text.
        let index = store.columns(dayStart: store.settings.day.dayStart, withText: false)
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
        let matched: [Int], total: Int
        do throws(RegexBudgetError) { (matched, total) = try selectRows(expr) } catch { return .error(regexBudgetError(error, s)) }
        let json = JSONValue.object(JSONObject([("count", .number(JSONNumber(matched.count))), ("total", .number(JSONNumber(total)))]))
        let line: String
        if expr == nil { line = "All \(Session.tasks(total))" }
        else if matched.isEmpty, total > 0 { line = "Nothing matches these filters (0 of \(total))" }
        else { line = "\(matched.count) of \(total)" }
        return out([line], json: json)
    }
}
