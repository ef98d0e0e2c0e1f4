// The render stage of saved filters (R-FIL-5), the areas list (R-FIL-6) and `explain
// FILTER`: a line a change, the filters starred first, and a filter explained in words with
// its windows and how much it matches.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a saved-filter statement did, as the engine returned it.
package enum SavedFilterOutcome {
    case defined(SavedFilter, new: Bool, text: String)
    case starred(SavedFilter, changed: Bool, on: Bool)
    case deleted(SavedFilter)
    case renamed(was: String, SavedFilter, to: String)
    case moved(SavedFilter, place: Int)
    case listed([SavedFilter])
    case areas([String])
    /// A filter and how many tasks it matches of how many it looks over, or the pattern that ran past its budget.
    case explained(FilterExpr, Result<(matched: Int, total: Int), RegexBudgetError>)
    /// A filter tried part by part on one task (R-FIL-8).
    case tried(FilterExpr, FilterTrial)
}

extension Session {
    /// The output of a saved-filter statement.
    package func render(_ o: SavedFilterOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .defined(let f, let new, let text):
            return out(["\(new ? "Saved" : "Changed") filter \(f.name) · \(text)"], json: .object(JSONObject([("filter", filterJSON(f))])), changed: true)
        case .starred(let f, let changed, let on):
            guard changed else { return out(["Filter \(f.name) is \(on ? "starred" : "not starred") already"], json: filterJSON(f)) }
            return out(["\(on ? "Starred" : "Unstarred") filter \(f.name)"], json: filterJSON(f), changed: true)
        case .deleted(let gone): return out(["Deleted filter \(gone.name)"], json: filterJSON(gone), changed: true)
        case .renamed(let was, let f, let new): return out(["Renamed filter \(was) to \(new)"], json: filterJSON(f), changed: true)
        case .moved(let f, let place): return out(["Moved filter \(f.name) to \(place)"], json: filterJSON(f), changed: true)
        case .listed(let filters):
            // Starred first, then the others, each group in the user's order.
            let ordered = filters.filter(\.starred) + filters.filter { !$0.starred }
            let w = ordered.map { $0.name.count }.max() ?? 0
            let lines = ordered.map { ($0.starred ? "★ " : "  ") + $0.name.padding(w) + "  " + $0.filter }
            return out(lines.isEmpty ? ["No saved filters"] : lines, json: .object(JSONObject([("filters", .array(ordered.map(filterJSON)))])))
        case .areas(let names):
            return out(names.isEmpty ? ["No areas"] : names, json: .object(JSONObject([("areas", .array(names.map { .string($0) }))])))
        case .explained(let expr, let counted): return renderExplained(expr, counted, s)
        case .tried(let expr, let trial): return renderTrial(expr, trial)
        }
    }

    /// The diagnostic of a saved-filter statement's engine error: at the name it is about, or
    /// for a rename to a name taken, at the new name.
    package func savedFilterError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .filterDefine(let name, _), .filterStar(let name, _), .filterDelete(let name), .filterMove(let name, _):
            return diagnostic(e, s, at: name.range)
        case .filterRename(let old, let new):
            if case .savedFilterExists = e { return diagnostic(e, s, at: new.range) }
            return diagnostic(e, s, at: old.range)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }

    package func filterJSON(_ f: SavedFilter) -> JSONValue {
        .object(JSONObject([("name", .string(f.name)), ("filter", .string(f.filter)), ("starred", .bool(f.starred))]))
    }

    /// `explain FILTER`: the filter in words, what it searches and looks over, and how much it matches.
    package func renderExplained(_ expr: FilterExpr, _ counted: Result<(matched: Int, total: Int), RegexBudgetError>, _ s: Statement) -> CommandOutput {
        let printer = FilterText(context: filterContext, hourCycle: .h24)
        var lines = [printer.describe(expr)]
        for ws in FilterText.searches(expr) {
            lines.append("  searches title, description, steps and comments for " + ws.map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let matched: Int, total: Int, over: String
        if expr.looksAtDeleted {
            lines.append("  over deleted tasks (each keeps its uid and when it was deleted)")
            over = "deleted tasks"
        } else {
            lines.append(expr.namesStatus ? "  over every task (the filter names a status)" : "  over open tasks (no status is named)")
            over = expr.namesStatus ? "every task" : "open tasks"
        }
        switch counted {
        case .success(let r): (matched, total) = (r.matched, r.total)
        case .failure(let e): return .error(regexBudgetError(e, s))
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

    /// `explain FILTER for ID` (R-FIL-8): whether the filter matches the task, then each part
    /// of it, `true` or `false` for the task, the parts of an `and`, `or`, `not` or saved filter
    /// indented under it, then whether the task is among the tasks the filter looks at.
    package func renderTrial(_ expr: FilterExpr, _ trial: FilterTrial) -> CommandOutput {
        let printer = FilterText(context: filterContext, hourCycle: .h24)
        let t = trial.task
        var lines = ["\(t.id) · \(t.title) · \(trial.matches ? "matches" : "does not match") \(printer.describe(expr))"]
        func add(_ x: FilterTruth, depth: Int) {
            lines.append(String(repeating: "  ", count: depth) + (x.value ? "true   " : "false  ") + printer.describe(x.expr))
            for p in x.parts { add(p, depth: depth + 1) }
        }
        // An `and` at the top is the filter itself: its parts are the first level.
        var top = [trial.whole]
        if case .and = trial.whole.expr { top = trial.whole.parts }
        for p in top { add(p, depth: 1) }
        let status = t.status.rawValue
        if expr.namesStatus {
            lines.append("  over every task (the filter names a status)")
        } else {
            lines.append(trial.inScope ? "  over open tasks (no status is named): \(t.id) is \(status)"
                                       : "  over open tasks (no status is named): \(t.id) is \(status), so it does not match")
        }
        func json(_ x: FilterTruth) -> JSONValue {
            var members: [(String, JSONValue)] = [("term", .string(printer.describe(x.expr))), ("value", .bool(x.value))]
            if !x.parts.isEmpty { members.append(("parts", .array(x.parts.map(json)))) }
            return .object(JSONObject(members))
        }
        return out(lines, json: .object(JSONObject([
            ("id", .number(JSONNumber(t.id))),
            ("filter", .string(printer.describe(expr))),
            ("matches", .bool(trial.matches)),
            ("inScope", .bool(trial.inScope)),
            ("over", .string(expr.namesStatus ? "every task" : "open tasks")),
            ("terms", .array(top.map(json))),
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
