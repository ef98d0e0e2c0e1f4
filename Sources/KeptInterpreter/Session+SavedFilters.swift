// Saved filters in the language (R-FIL-5): a filter's text is read here, so a saved filter is
// checked when it is saved (`filter:NAME` uses one inside another, and a cycle is refused with
// the chain); the engine keeps them (Domain/Engine+Filters). Also the areas list (R-FIL-6) and
// `explain FILTER`.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// Runs a saved-filter call; its errors point at `range`.
    package func savedFilter<R>(_ s: Statement, _ range: SourceRange, _ call: () throws(DomainError) -> R, _ render: (R) -> CommandOutput) -> CommandOutput {
        do {
            return render(try call())
        } catch {
            return .error(diagnostic(error, s, at: range))
        }
    }

    package func runFilterDefine(_ s: Statement, _ name: TextArg, _ f: FilterSource) -> CommandOutput {
        let text = s.source.rawText(f.range)
        // The filter must read now, and must not reach itself through others.
        var others = store.filters.filter { $0.name.lowercased() != name.text.lowercased() }
        others.append(SavedFilter(name: name.text, filter: text))
        // Its syntax is read first, with no store and no clock; then it is bound against the
        // store, as every use of it will be.
        let parsed: ParsedFilter
        switch f.parsed {
        case .success(let p): parsed = p
        case .failure(let d): return .error(d)
        }
        var scope = filterScope
        scope.saved = others
        var b = FilterBinder(scope: scope, file: s.source.file, visiting: [name.text])
        do throws(Diagnostic) { _ = try b.bindFilter(parsed.syntax) } catch { return .error(error) }
        warnings += parsed.warnings
        return savedFilter(s, name.range, { () throws(DomainError) in try engine.defineFilter(name.text, text) }) { r in
            out(["\(r.new ? "Saved" : "Changed") filter \(r.filter.name) · \(text)"], json: .object(JSONObject([("filter", filterJSON(r.filter))])), changed: true)
        }
    }

    package func runFilterStar(_ s: Statement, _ name: TextArg, _ on: Bool) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.starFilter(name.text, on) }) { r in
            guard r.changed else { return out(["Filter \(r.filter.name) is \(on ? "starred" : "not starred") already"], json: filterJSON(r.filter)) }
            return out(["\(on ? "Starred" : "Unstarred") filter \(r.filter.name)"], json: filterJSON(r.filter), changed: true)
        }
    }

    package func runFilterDelete(_ s: Statement, _ name: TextArg) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.deleteFilter(name.text) }) { gone in
            out(["Deleted filter \(gone.name)"], json: filterJSON(gone), changed: true)
        }
    }

    package func runFilterRename(_ s: Statement, _ old: TextArg, _ new: TextArg) -> CommandOutput {
        do {
            let r = try engine.renameFilter(old.text, to: new.text)
            return out(["Renamed filter \(r.was) to \(new.text)"], json: filterJSON(r.filter), changed: true)
        } catch {
            if case .savedFilterExists = error { return .error(diagnostic(error, s, at: new.range)) }
            return .error(diagnostic(error, s, at: old.range))
        }
    }

    package func runFilterMove(_ s: Statement, _ name: TextArg, _ to: Int) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.moveFilter(name.text, to: to) }) { r in
            out(["Moved filter \(r.filter.name) to \(r.place)"], json: filterJSON(r.filter), changed: true)
        }
    }

    /// Starred first, then the others, each group in the user's order.
    package func runFilters() -> CommandOutput {
        let ordered = store.filters.filter(\.starred) + store.filters.filter { !$0.starred }
        let w = ordered.map { $0.name.count }.max() ?? 0
        let lines = ordered.map { ($0.starred ? "★ " : "  ") + $0.name.padding(w) + "  " + $0.filter }
        return out(lines.isEmpty ? ["No saved filters"] : lines, json: .object(JSONObject([("filters", .array(ordered.map(filterJSON)))])))
    }

    package func filterJSON(_ f: SavedFilter) -> JSONValue {
        .object(JSONObject([("name", .string(f.name)), ("filter", .string(f.filter)), ("starred", .bool(f.starred))]))
    }

    package func runAreas() -> CommandOutput {
        let names = areaNames
        return out(names.isEmpty ? ["No areas"] : names, json: .object(JSONObject([("areas", .array(names.map { .string($0) }))])))
    }

    package func runExplainFilter(_ s: Statement, _ f: FilterSource) -> CommandOutput {
        let expr: FilterExpr
        switch bindFilter(f, s, deleted: true) {
        case .success(let e?): expr = e
        case .success(nil): return .error(Catalog.expected("a filter", after: "explain", found: nil, range: f.range, file: s.source.file))
        case .failure(let d): return .error(d)
        }
        let printer = FilterText(context: filterContext, hourCycle: .h24)
        var lines = [printer.describe(expr)]
        for ws in FilterText.searches(expr) {
            lines.append("  searches title, description, steps and comments for " + ws.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let matched: Int, total: Int, over: String
        if expr.looksAtDeleted {
            lines.append("  over deleted tasks (each keeps its uid and when it was deleted)")
            over = "deleted tasks"
            let d = engine.deleted(expr)
            (matched, total) = (d.matched.count, d.total)
        } else {
            lines.append(expr.namesStatus ? "  over every task (the filter names a status)" : "  over open tasks (no status is named)")
            over = expr.namesStatus ? "every task" : "open tasks"
            do throws(RegexBudgetError) { let r = try selectRows(expr); (matched, total) = (r.matched.count, r.total) } catch { return .error(regexBudgetError(error, s)) }
        }
        lines.append("  matches \(matched) of \(total)")
        // The text's parts as fields: the windows as local date-times in the zone, and what
        // the filter looks over.
        let day = store.settings.day.dayStart
        func local(_ d: Int) -> JSONValue { .string(CivilDateTime(date: CivilDate(dayNumber: d), time: day).iso) }
        let windows = Session.windows(expr).map { w in JSONValue.object(JSONObject([("start", local(w.start)), ("end", local(w.end))])) }
        return out(lines, json: .object(JSONObject([
            ("filter", .string(lines[0])),
            ("over", .string(over)),
            ("windows", .array(windows)),
            ("zone", .string(zone.identifier)),
            ("count", .number(JSONNumber(matched))),
            ("total", .number(JSONNumber(total))),
        ])))
    }

    /// The due windows of a filter, in the order it names them.
    package static func windows(_ e: FilterExpr) -> [DayWindow] {
        switch e {
        case .term(.window(let w)): return [w]
        case .term: return []
        case .and(let xs), .or(let xs): return xs.flatMap(windows)
        case .not(let x): return windows(x)
        }
    }
}
