// Saved filters (R-FIL-5): named filters in the store, starred or not, in the user's order;
// `filter:NAME` uses one inside another, and a cycle is refused with the chain. Also the areas
// list (R-FIL-6) and `explain FILTER`.

extension Session {
    func savedIndex(_ name: TextArg, _ s: Statement) -> Result<Int, Diagnostic> {
        if let k = store.filters.firstIndex(where: { $0.name.lowercased() == name.text.lowercased() }) { return .success(k) }
        return .failure(Diagnostic(code: "E0213", message: "no saved filter named '\(name.text)'", file: s.source.file, range: name.range,
                                   label: "not a saved filter",
                                   help: Suggestion.nearest(name.text, in: store.filters.map(\.name)).map { "did you mean '\($0)'?" } ?? "'filters' lists them"))
    }

    func commitFilters(_ summary: String, _ after: [SavedFilter]) {
        commit(summary, [.filters(before: store.filters, after: after)])
    }

    func runFilterDefine(_ s: Statement, _ name: TextArg, _ f: FilterSource) -> CommandOutput {
        let text = s.source.rawText(f.range)
        // The filter must read now, and must not reach itself through others.
        var others = store.filters.filter { $0.name.lowercased() != name.text.lowercased() }
        others.append(SavedFilter(name: name.text, filter: text))
        var p = FilterParser(source: s.source, tokens: f.tokens, from: f.start, context: dateContext, projects: store.projects.map(\.name),
                             saved: others, visiting: [name.text])
        do throws(Diagnostic) { _ = try p.parseFilter() } catch { return .error(error) }
        var after = store.filters
        if let k = after.firstIndex(where: { $0.name.lowercased() == name.text.lowercased() }) {
            after[k].filter = text
            commitFilters("filter \(after[k].name) = \(text)", after)
            return out(["Changed filter \(after[k].name) · \(text)"], json: .object(JSONObject([("filter", filterJSON(after[k]))])), changed: true)
        }
        let sf = SavedFilter(name: name.text, filter: text)
        after.append(sf)
        commitFilters("filter \(sf.name) = \(text)", after)
        return out(["Saved filter \(sf.name) · \(text)"], json: .object(JSONObject([("filter", filterJSON(sf))])), changed: true)
    }

    func runFilterStar(_ s: Statement, _ name: TextArg, _ on: Bool) -> CommandOutput {
        switch savedIndex(name, s) {
        case .failure(let d): return .error(d)
        case .success(let k):
            var after = store.filters
            guard after[k].starred != on else { return out(["Filter \(after[k].name) is \(on ? "starred" : "not starred") already"], json: filterJSON(after[k])) }
            after[k].starred = on
            commitFilters("filter \(on ? "star" : "unstar") \(after[k].name)", after)
            return out(["\(on ? "Starred" : "Unstarred") filter \(after[k].name)"], json: filterJSON(after[k]), changed: true)
        }
    }

    func runFilterDelete(_ s: Statement, _ name: TextArg) -> CommandOutput {
        switch savedIndex(name, s) {
        case .failure(let d): return .error(d)
        case .success(let k):
            var after = store.filters
            let gone = after.remove(at: k)
            // A filter another one uses cannot go: the other would stop reading.
            if let user = after.first(where: { FilterText.refers($0.filter, to: gone.name) }) {
                return .error(Diagnostic(code: "E0310", message: "filter \(user.name) uses \(gone.name)", file: s.source.file, range: name.range,
                                         label: "still used", help: "change or delete \(user.name) first"))
            }
            commitFilters("filter delete \(gone.name)", after)
            return out(["Deleted filter \(gone.name)"], json: filterJSON(gone), changed: true)
        }
    }

    func runFilterRename(_ s: Statement, _ old: TextArg, _ new: TextArg) -> CommandOutput {
        switch savedIndex(old, s) {
        case .failure(let d): return .error(d)
        case .success(let k):
            if store.filters.enumerated().contains(where: { $0.offset != k && $0.element.name.lowercased() == new.text.lowercased() }) {
                return .error(Diagnostic(code: "E0304", message: "a saved filter named '\(new.text)' exists", file: s.source.file, range: new.range,
                                         label: "already in the store"))
            }
            var after = store.filters
            let was = after[k].name
            after[k].name = new.text
            // References follow the rename.
            for j in after.indices { after[j].filter = FilterText.rename(after[j].filter, from: was, to: new.text) }
            commitFilters("filter rename \(was) to \(new.text)", after)
            return out(["Renamed filter \(was) to \(new.text)"], json: filterJSON(after[k]), changed: true)
        }
    }

    func runFilterMove(_ s: Statement, _ name: TextArg, _ to: Int) -> CommandOutput {
        switch savedIndex(name, s) {
        case .failure(let d): return .error(d)
        case .success(let k):
            var after = store.filters
            let f = after.remove(at: k)
            after.insert(f, at: min(max(0, to - 1), after.count))
            commitFilters("filter move \(f.name) to \(to)", after)
            return out(["Moved filter \(f.name) to \(min(to, after.count))"], json: filterJSON(f), changed: true)
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

    /// R-FIL-6: each area once, by the name the user gave it; spellings of one area are one; an
    /// unknown name stays as written; the starter area is never offered. The `areas` command
    /// and the REPL's completion both list these.
    public var areaNames: [String] {
        var seen = Set<String>()
        var names: [String] = []
        func add(_ name: String) {
            let k = AreaName.key(name)
            guard !k.isEmpty, k != AreaName.key("Kept Onboarding"), seen.insert(k).inserted else { return }
            names.append(name)
        }
        for a in store.areas { add(a.name) }
        for t in store.tasks { if let a = t.area { add(a) } }
        return names
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
