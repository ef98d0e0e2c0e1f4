// The query statements: list and count, with or without a filter (R-FIL-1, R-FIL-3, R-FIL-4,
// R-VIEW-3, R-VIEW-5). A filter is parsed and checked once, then evaluated over the store.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    package func select(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Task], total: Int) { try engine.select(expr) }
    package func selectRows(_ expr: FilterExpr?) throws(RegexBudgetError) -> (matched: [Int], total: Int) { try engine.selectRows(expr) }
    package func matching(_ expr: FilterExpr, _ index: TaskIndex, _ fc: FilterContext) -> [Task] { engine.matching(expr, index, fc) }

    /// The error of a query whose patterns ran past their budget, under the pattern when the
    /// statement spells it (a saved filter's is under the statement).
    package func regexBudgetError(_ e: RegexBudgetError, _ s: Statement) -> Diagnostic {
        let range = patterns.first { $0.pattern == e.pattern }?.range ?? s.range
        return Catalog.regexBudget(e.pattern, timedOut: e.timedOut, range: range, file: s.source.file)
    }

    /// `list`: a view or a filter, or a comma list of them, each its own section (Todoist's
    /// `list today, overdue`), with the clauses applying to every section.
    package func runList(_ s: Statement, _ body: Result<ListClauses, Diagnostic>) -> CommandOutput {
        let clauses: ListClauses
        switch body {
        case .success(let c): clauses = c
        case .failure(let d): return .error(d)
        }
        guard clauses.parts.count > 1 else {
            switch listSection(s, clauses.parts.first, clauses, head: nil) {
            case .success(let r): return out(r)
            case .failure(let d): return .error(d)
            }
        }
        var lines: [String] = []
        var sections: [JSONValue] = []
        for part in clauses.parts {
            switch listSection(s, part, clauses, head: part.text) {
            case .failure(let d): return .error(d)
            case .success(let r):
                lines += r.lines
                if case .object(var o) = r.json {
                    o.members.insert(("filter", .string(part.text)), at: 0)
                    sections.append(.object(o))
                }
            }
        }
        return out(lines, json: .object(JSONObject([("sections", .array(sections))])))
    }

    /// One list: a view, a filter, or every open task; a section of a comma list is headed by
    /// its filter as written.
    package func listSection(_ s: Statement, _ part: ListPart?, _ clauses: ListClauses, head named: String?) -> Result<Rendered, Diagnostic> {
        if let v = part?.view {
            var r = runView(v, clauses)
            if let named, format == .text, let first = r.lines.first, !first.lowercased().hasPrefix(named.lowercased()) {
                r.lines[0] = named + " · " + first
            }
            return .success(r)
        }
        let expr: FilterExpr?
        switch bindFilter(part?.filter, s, deleted: true) {
        case .success(let e): expr = e
        case .failure(let d): return .failure(d)
        }
        if let e = expr, e.looksAtDeleted { return .success(runDeletedList(e, clauses, named)) }
        let matched: [Task], total: Int
        do throws(RegexBudgetError) { (matched, total) = try select(expr) } catch { return .failure(regexBudgetError(error, s)) }
        var ordered = engine.sorted(matched, by: clauses.order)
        if let n = clauses.limit { ordered = Array(ordered.prefix(n)) }
        var members: [(String, JSONValue)] = [("tasks", .array(ordered.map { TaskJSON.value($0, zone: zone) }))]
        if clauses.groupByDue { members.append(("groups", groupsJSON(ordered))) }
        members += [("shown", .number(JSONNumber(ordered.count))), ("total", .number(JSONNumber(total)))]
        let json = JSONValue.object(JSONObject(members))
        // R-FIL-4: how much a list shows; nothing matching is not the same as nothing there.
        var head: String
        if let expr {
            let on = expr.filterCount == 1 ? "1 filter on" : "\(expr.filterCount) filters on"
            if total == 0 { head = "No tasks" }
            else if matched.isEmpty { head = "Nothing matches these filters · \(Session.tasks(total)) · \(on)" }
            else { head = "\(ordered.count) of \(Session.tasks(total)) · \(on)" }
        } else {
            head = total == 0 ? "No open tasks" : (ordered.count < total ? "\(ordered.count) of \(Session.tasks(total))" : "All \(Session.tasks(total))")
        }
        if let named { head = named + " · " + head }
        let body = clauses.groupByDue ? grouped(ordered) : text.rows(ordered)
        return .success(rendered([head] + body, json: json))
    }

    /// Deleted tasks through a filter: each one's uid and when it was deleted, the latest first;
    /// a deleted task keeps nothing else (docs/FILTERS.md, "Deleted tasks").
    package func runDeletedList(_ e: FilterExpr, _ clauses: ListClauses, _ named: String?) -> Rendered {
        let (matched, total) = engine.deleted(e)
        var rows = matched.sorted { ($0.deletedAt, $0.uid.description) > ($1.deletedAt, $1.uid.description) }
        if let n = clauses.limit { rows = Array(rows.prefix(n)) }
        let on = e.filterCount == 1 ? "1 filter on" : "\(e.filterCount) filters on"
        let noun = total == 1 ? "deleted task" : "deleted tasks"
        var head = total == 0 ? "No deleted tasks" : (matched.isEmpty ? "Nothing matches these filters · \(total) \(noun) · \(on)"
                                                                         : "\(rows.count) of \(total) \(noun) · \(on)")
        if let named { head = named + " · " + head }
        let lines = rows.map { "\($0.uid)  deleted \(text.longDue(Due(date: zone.local(at: $0.deletedAt).date, time: zone.local(at: $0.deletedAt).time)))" }
        let json = JSONValue.object(JSONObject([
            ("deleted", .array(rows.map { .object(JSONObject([("uid", .string($0.uid.description)), ("deletedAt", .string(TimeText.isoInstant($0.deletedAt, in: zone)))])) })),
            ("shown", .number(JSONNumber(rows.count))),
            ("total", .number(JSONNumber(total))),
        ]))
        return rendered([head] + lines, json: json)
    }

    /// A view of R-VIEW-1 with its count; Today and Next 7 days end with what was done today
    /// (R-VIEW-2).
    package func runView(_ v: ListView, _ c: ListClauses) -> Rendered {
        let r = engine.view(v, order: c.order, limit: c.limit)
        let rows = r.tasks
        var head: String
        switch v {
        case .today: head = "Today · \(Session.tasks(r.count)) · \(r.done.count) of \(r.done.count + r.count) done today"
        case .next7: head = "Next 7 days · \(Session.tasks(r.count))"
        case .tomorrow: head = "Tomorrow · \(Session.tasks(r.count))"
        case .all: head = "All \(Session.tasks(r.count))"
        case .archived: head = "Archived · \(Session.tasks(r.count))"
        case .doneToday: head = "Done today · \(Session.tasks(r.count))"
        }
        if rows.count < r.count { head += " · showing \(rows.count)" }
        var lines = [head] + (c.groupByDue ? grouped(rows) : text.rows(rows))
        if !r.done.isEmpty {
            lines.append("Done (\(r.done.count))")
            lines += text.rows(r.done).map { "  " + $0 }
        }
        var members: [(String, JSONValue)] = [
            ("view", .string(v.rawValue)),
            ("tasks", .array(rows.map { TaskJSON.value($0, zone: zone) })),
            ("done", .array(r.done.map { TaskJSON.value($0, zone: zone) })),
        ]
        if c.groupByDue { members.append(("groups", groupsJSON(rows))) }
        members.append(("shown", .number(JSONNumber(rows.count))))
        let json = JSONValue.object(JSONObject(members))
        return rendered(lines, json: json)
    }

    package func runCount(_ s: Statement, _ f: FilterSource?) -> CommandOutput {
        let expr: FilterExpr?
        switch bindFilter(f, s, deleted: true) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        let matched: Int, total: Int
        if let e = expr, e.looksAtDeleted {
            let d = engine.deleted(e)
            (matched, total) = (d.matched.count, d.total)
        } else {
            do throws(RegexBudgetError) { (matched, total) = try engine.count(expr) } catch { return .error(regexBudgetError(error, s)) }
        }
        let json = JSONValue.object(JSONObject([("count", .number(JSONNumber(matched))), ("total", .number(JSONNumber(total)))]))
        let line: String
        if expr == nil { line = "All \(Session.tasks(total))" }
        else if matched == 0, total > 0 { line = "Nothing matches these filters (0 of \(total))" }
        else { line = "\(matched) of \(total)" }
        return out([line], json: json)
    }
}

extension Session {
    /// `parse filter F`: the filter's syntax tree, read with no store and no clock, each node
    /// with its bytes in the filter; its warnings as diagnostics.
    package func runParseFilter(_ s: Statement, _ f: FilterSource) -> CommandOutput {
        let parsed: ParsedFilter
        switch f.parsed {
        case .success(let p): parsed = p
        case .failure(let d): return .error(d)
        }
        warnings += parsed.warnings
        let rows = parsed.syntax.lines(source: s.source, base: f.range.start)
        let heads = rows.map { String(repeating: "  ", count: $0.indent) + $0.node }
        let spans = rows.map { $0.range.map { "\($0.start)..<\($0.end)" } ?? "" }
        let w = heads.map(\.count).max() ?? 0
        let sw = spans.map(\.count).max() ?? 0
        var lines: [String] = []
        for (k, r) in rows.enumerated() {
            lines.append(spans[k].isEmpty ? heads[k] : heads[k].padding(w) + "  " + spans[k].padding(sw) + "  " + r.text)
        }
        let json = JSONValue.array(rows.map { r in
            .object(JSONObject([("depth", .number(JSONNumber(r.indent))), ("node", .string(r.node)),
                                ("start", r.range.map { .number(JSONNumber($0.start)) } ?? .null),
                                ("end", r.range.map { .number(JSONNumber($0.end)) } ?? .null)]))
        })
        return out(lines, json: .object(JSONObject([("filter", json)])))
    }
}
