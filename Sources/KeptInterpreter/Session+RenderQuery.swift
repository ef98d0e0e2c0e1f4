// The render stage of the query statements: a list's head and rows, each section of a comma
// list headed by its filter as written; a count; a filter's syntax tree; and the error of a
// pattern that ran past its budget.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What one section of a list found.
package enum ListSectionOutcome {
    case view(ListView, ViewList)
    case deleted(FilterExpr, matched: [Tombstone], total: Int)
    /// The tasks shown, in order and cut to the limit; how many matched, of how many.
    case tasks(FilterExpr?, ordered: [Task], matched: Int, total: Int)
}

/// What a query statement found.
package enum QueryOutcome {
    /// A list's sections, in order, up to the first whose pattern ran past its budget.
    case listed(ListClauses, [ListSection], [ListSectionOutcome], comma: Bool, failure: RegexBudgetError?, stop: Diagnostic?)
    case counted(FilterExpr?, Result<(matched: Int, total: Int), RegexBudgetError>)
    case parsedFilter(ParsedFilter, FilterSource)
}

extension Session {
    /// The error of a query whose patterns ran past their budget, under the pattern when the
    /// statement spells it (a saved filter's is under the statement).
    package func regexBudgetError(_ e: RegexBudgetError, _ s: Statement) -> Diagnostic {
        let range = patterns.first { $0.pattern == e.pattern }?.range ?? s.range
        return Catalog.regexBudget(e.pattern, timedOut: e.timedOut, range: range, file: s.source.file)
    }

    /// The output of a query statement.
    package func render(_ o: QueryOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .listed(let clauses, let sections, let found, let comma, let failure, let stop):
            return renderList(clauses, sections, found, comma: comma, failure: failure, stop: stop, s)
        case .counted(let expr, let counted):
            let matched: Int, total: Int
            switch counted {
            case .success(let r): (matched, total) = (r.matched, r.total)
            case .failure(let e): return .error(regexBudgetError(e, s))
            }
            let json = JSONValue.object(JSONObject([("count", .number(JSONNumber(matched))), ("total", .number(JSONNumber(total)))]))
            let line: String
            if expr == nil { line = "All \(Session.tasks(total))" }
            else if matched == 0, total > 0 { line = "Nothing matches these filters (0 of \(total))" }
            else { line = "\(matched) of \(total)" }
            return out([line], json: json)
        case .parsedFilter(let parsed, let f): return renderParsedFilter(parsed, f, s)
        }
    }

    /// `list`: a view or a filter, or a comma list of them, each its own section (Todoist's
    /// `list today, overdue`), with the clauses applying to every section. A section whose
    /// pattern ran past its budget fails the list with what the statement had said up to it.
    package func renderList(_ clauses: ListClauses, _ sections: [ListSection], _ found: [ListSectionOutcome], comma: Bool,
                            failure: RegexBudgetError?, stop: Diagnostic?, _ s: Statement) -> CommandOutput {
        if let failure {
            if found.count < sections.count {
                let at = sections[found.count]
                if warnings.count > at.warnings { warnings.removeLast(warnings.count - at.warnings) }
                if patterns.count > at.patterns { patterns.removeLast(patterns.count - at.patterns) }
            }
            return .error(regexBudgetError(failure, s))
        }
        if let stop { return .error(stop) }
        guard comma else {
            guard let first = found.first else { return CommandOutput() }
            let r = listSection(first, clauses, head: nil)
            return listing(r.lines, json: r.json)
        }
        var lines: [String] = []
        var parts: [JSONValue] = []
        for (k, o) in found.enumerated() {
            let head = sections[k].head ?? ""
            let r = listSection(o, clauses, head: head)
            lines += r.lines
            if case .object(var obj) = r.json {
                obj.members.insert(("filter", .string(head)), at: 0)
                parts.append(.object(obj))
            }
        }
        return listing(lines, json: .object(JSONObject([("sections", .array(parts))])))
    }

    /// One list: a view, a filter, or every open task; a section of a comma list is headed by
    /// its filter as written.
    package func listSection(_ o: ListSectionOutcome, _ clauses: ListClauses, head named: String?) -> Rendered {
        let (matched, total, ordered, expr): (Int, Int, [Task], FilterExpr?)
        switch o {
        case .view(let v, let found):
            var r = renderView(v, found, clauses)
            if let named, format == .text, let first = r.lines.first, !first.lowercased().hasPrefix(named.lowercased()) {
                r.lines[0] = named + " · " + first
            }
            return r
        case .deleted(let e, let found, let all): return renderDeletedList(e, found, all, clauses, named)
        case .tasks(let e, let shown, let m, let t): (matched, total, ordered, expr) = (m, t, shown, e)
        }
        var members: [(String, JSONValue)] = [("tasks", .array(ordered.map { TaskJSON.value($0, zone: zone) }))]
        if clauses.groupByDue { members.append(("groups", groupsJSON(ordered))) }
        members += [("shown", .number(JSONNumber(ordered.count))), ("total", .number(JSONNumber(total)))]
        let json = JSONValue.object(JSONObject(members))
        // R-FIL-4: how much a list shows; nothing matching is not the same as nothing there.
        var head: String
        if let expr {
            let on = expr.filterCount == 1 ? "1 filter on" : "\(expr.filterCount) filters on"
            if total == 0 { head = "No tasks" }
            else if matched == 0 { head = "Nothing matches these filters · \(Session.tasks(total)) · \(on)" }
            else { head = "\(ordered.count) of \(Session.tasks(total)) · \(on)" }
        } else {
            head = total == 0 ? "No open tasks" : (ordered.count < total ? "\(ordered.count) of \(Session.tasks(total))" : "All \(Session.tasks(total))")
        }
        if let named { head = named + " · " + head }
        let body = clauses.groupByDue ? grouped(ordered) : text.rows(ordered, layout: rowLayout([(ordered, 0)]))
        return rendered([fitted(head)] + body, json: json)
    }

    /// Deleted tasks through a filter: each one's uid and when it was deleted, the latest first;
    /// a deleted task keeps nothing else (docs/FILTERS.md, "Deleted tasks").
    package func renderDeletedList(_ e: FilterExpr, _ matched: [Tombstone], _ total: Int, _ clauses: ListClauses, _ named: String?) -> Rendered {
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
    package func renderView(_ v: ListView, _ r: ViewList, _ c: ListClauses) -> Rendered {
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
        // One layout for the view's rows and its Done rows (R-VIEW-8).
        let l = rowLayout([(rows, c.groupByDue ? 2 : 0), (r.done, 2)])
        var lines = [fitted(head)] + (c.groupByDue ? grouped(rows, layout: l) : text.rows(rows, layout: l))
        if !r.done.isEmpty {
            lines.append("Done (\(r.done.count))")
            lines += text.rows(r.done, layout: l, indent: 2)
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

    /// `parse filter F`: the filter's syntax tree, each node with its bytes in the filter.
    package func renderParsedFilter(_ parsed: ParsedFilter, _ f: FilterSource, _ s: Statement) -> CommandOutput {
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
