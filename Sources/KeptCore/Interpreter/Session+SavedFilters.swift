// Saved filters in the language (R-FIL-5): a filter's text is read here, so a saved filter is
// checked when it is saved (`filter:NAME` uses one inside another, and a cycle is refused with
// the chain); the engine keeps them (Domain/Engine+Filters). Also the areas list (R-FIL-6) and
// `explain FILTER`.

extension Session {
    /// Runs a saved-filter call; its errors point at `range`.
    func savedFilter<R>(_ s: Statement, _ range: SourceRange, _ call: () throws(DomainError) -> R, _ render: (R) -> CommandOutput) -> CommandOutput {
        do {
            return render(try call())
        } catch {
            return .error(diagnostic(error, s, at: range))
        }
    }

    func runFilterDefine(_ s: Statement, _ name: TextArg, _ f: FilterSource) -> CommandOutput {
        let text = s.source.rawText(f.range)
        // The filter must read now, and must not reach itself through others.
        var others = store.filters.filter { $0.name.lowercased() != name.text.lowercased() }
        others.append(SavedFilter(name: name.text, filter: text))
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name),
                             saved: others, visiting: [name.text])
        do throws(Diagnostic) { _ = try p.parseFilter() } catch { return .error(error) }
        return savedFilter(s, name.range, { () throws(DomainError) in try engine.defineFilter(name.text, text) }) { r in
            out(["\(r.new ? "Saved" : "Changed") filter \(r.filter.name) · \(text)"], json: .object(JSONObject([("filter", filterJSON(r.filter))])), changed: true)
        }
    }

    func runFilterStar(_ s: Statement, _ name: TextArg, _ on: Bool) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.starFilter(name.text, on) }) { r in
            guard r.changed else { return out(["Filter \(r.filter.name) is \(on ? "starred" : "not starred") already"], json: filterJSON(r.filter)) }
            return out(["\(on ? "Starred" : "Unstarred") filter \(r.filter.name)"], json: filterJSON(r.filter), changed: true)
        }
    }

    func runFilterDelete(_ s: Statement, _ name: TextArg) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.deleteFilter(name.text) }) { gone in
            out(["Deleted filter \(gone.name)"], json: filterJSON(gone), changed: true)
        }
    }

    func runFilterRename(_ s: Statement, _ old: TextArg, _ new: TextArg) -> CommandOutput {
        do {
            let r = try engine.renameFilter(old.text, to: new.text)
            return out(["Renamed filter \(r.was) to \(new.text)"], json: filterJSON(r.filter), changed: true)
        } catch {
            if case .savedFilterExists = error { return .error(diagnostic(error, s, at: new.range)) }
            return .error(diagnostic(error, s, at: old.range))
        }
    }

    func runFilterMove(_ s: Statement, _ name: TextArg, _ to: Int) -> CommandOutput {
        savedFilter(s, name.range, { () throws(DomainError) in try engine.moveFilter(name.text, to: to) }) { r in
            out(["Moved filter \(r.filter.name) to \(r.place)"], json: filterJSON(r.filter), changed: true)
        }
    }

    /// Starred first, then the others, each group in the user's order.
    func runFilters() -> CommandOutput {
        let ordered = store.filters.filter(\.starred) + store.filters.filter { !$0.starred }
        let w = ordered.map { $0.name.count }.max() ?? 0
        let lines = ordered.map { ($0.starred ? "★ " : "  ") + $0.name.padding(w) + "  " + $0.filter }
        return out(lines.isEmpty ? ["No saved filters"] : lines, json: .array(ordered.map(filterJSON)))
    }

    func filterJSON(_ f: SavedFilter) -> JSONValue {
        .object(JSONObject([("name", .string(f.name)), ("filter", .string(f.filter)), ("starred", .bool(f.starred))]))
    }

    func runAreas() -> CommandOutput {
        let names = areaNames
        return out(names.isEmpty ? ["No areas"] : names, json: .array(names.map { .string($0) }))
    }

    func runExplainFilter(_ s: Statement, _ f: FilterSource) -> CommandOutput {
        let expr: FilterExpr
        switch compile(f, s) {
        case .success(let e?): expr = e
        case .success(nil): return .error(Catalog.expected("a filter", after: "explain", at: Token(kind: .end, text: "", range: f.range), file: s.source.file))
        case .failure(let d): return .error(d)
        }
        let printer = FilterText(zone: zone, dayStart: store.settings.day.dayStart, hourCycle: .h24)
        var lines = [printer.describe(expr)]
        lines.append(expr.namesStatus ? "  over every task (the filter names a status)" : "  over open tasks (no status is named)")
        let matched: [Int], total: Int
        do throws(RegexBudgetError) { (matched, total) = try selectRows(expr) } catch { return .error(regexBudgetError(error, s)) }
        lines.append("  matches \(matched.count) of \(total)")
        return out(lines, json: .object(JSONObject([("filter", .string(lines[0])), ("count", .number(JSONNumber(matched.count))),
                                                    ("total", .number(JSONNumber(total)))])))
    }
}
