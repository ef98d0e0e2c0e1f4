// Counting in SQL: a filter whose every term the task columns answer becomes a WHERE clause,
// so `count overdue` on a million tasks reads an index, not a million records. The clause
// says what CompiledFilter says of the same terms (Tests/KeptCoreTests/SQLiteStoreTests.swift
// holds the two to it); a filter with any other term (words, a regex, notes, repeats) returns
// nil and is counted over the columns as usual.

import KeptRules
import KeptDomain
import KeptFiles

extension SQLiteStore {
    /// An SQL expression of how many tasks a scope holds: the open ones from the kept counts
    /// (version 4, `kindCounts`), one row; any other by counting.
    package func scopeCountSQL(_ scope: String) -> String {
        guard hasPlanColumns, scope == StatusKind.openSQL else { return "(SELECT count(*) FROM tasks WHERE \(scope))" }
        return "(SELECT coalesce(sum(n), 0) FROM task_kinds WHERE \(scope))"
    }

    /// The count of a filter and of the tasks it looks at, from SQL; nil when a term of it has
    /// no column to answer it.
    public func count(_ expr: FilterExpr, _ fc: FilterContext) -> (matched: Int, total: Int)? {
        var args: [SQLArg] = []
        guard let clause = SQLiteStore.clause(expr, fc, &args) else { return nil }
        let scope = expr.namesStatus ? "1" : StatusKind.openSQL
        let sql = "SELECT (SELECT count(*) FROM tasks WHERE \(scope) AND (\(clause))), \(scopeCountSQL(scope))"
        do throws(SQLiteError) {
            let st = try db.statement(sql)
            defer { st.reset() }
            for (k, a) in args.enumerated() {
                switch a {
                case .int(let v): st.bind(Int32(k + 1), v)
                case .text(let v): st.bind(Int32(k + 1), v)
                }
            }
            guard try st.step() else { return nil }
            return (Int(st.int(0)), Int(st.int(1)))
        } catch {
            // Not an answer of 0: the statement fails with what went wrong (readFailure).
            readFailed(error)
            return nil
        }
    }

    package enum SQLArg {
        case int(Int)
        case text(String)
    }

    /// The SQL of a comparison operator.
    package static func op(_ c: Comparison) -> String { c == .equal ? "=" : c.rawValue }

    /// The test of a set of civil minutes on a column that is not NULL.
    package static func minutes(_ set: MinuteSet, _ col: String) -> String {
        guard !set.ranges.isEmpty else { return "0" }
        let parts = set.ranges.map { r -> String in
            switch (r.lowerBound == Int64.min, r.upperBound == Int64.max) {
            case (true, true): return "1"
            case (true, false): return "\(col) < \(r.upperBound)"
            case (false, true): return "\(col) >= \(r.lowerBound)"
            case (false, false): return "\(col) >= \(r.lowerBound) AND \(col) < \(r.upperBound)"
            }
        }
        return parts.count == 1 ? parts[0] : parts.map { "(\($0))" }.joined(separator: " OR ")
    }

    /// The due in a window (docs/FILTERS.md, "Instants"): a date-only due by its day, a timed one
    /// by its civil minute among those whose instant falls in the window; bounded by the dates it
    /// can have, so SQLite reads a range of the (kind, due_day, due_minute) index.
    package static func window(_ w: DayWindow, _ fc: FilterContext) -> String {
        dues(dateFrom: w.start, dateTo: w.end, timed: fc.minutes(in: w))
    }

    /// A due whose date-only day is in from..<to or whose timed minute is in `timed`.
    package static func dues(dateFrom: Int, dateTo: Int, timed: MinuteSet) -> String {
        var date: [String] = []
        if dateFrom != Int.min { date.append("due_day >= \(dateFrom)") }
        if dateTo != Int.max { date.append("due_day < \(dateTo)") }
        var sql = "due_day IS NOT NULL AND (CASE WHEN due_minute IS NOT NULL THEN \(minutes(timed, "due_minute")) ELSE \(date.isEmpty ? "1" : date.joined(separator: " AND ")) END)"
        // The days any match can be on (a timed due's date is its minute's day); nil for no bound.
        var lows: [Int64?] = [dateFrom == Int.min ? nil : Int64(dateFrom)]
        var highs: [Int64?] = [dateTo == Int.max ? nil : Int64(dateTo) - 1]
        if let f = timed.ranges.first, let l = timed.ranges.last {
            lows.append(f.lowerBound == Int64.min ? nil : Int64(CalendarMath.floorDivide(Int(f.lowerBound), 1440)))
            highs.append(l.upperBound == Int64.max ? nil : Int64(CalendarMath.floorDivide(Int(l.upperBound) - 1, 1440)))
        }
        if !lows.contains(where: { $0 == nil }), let lo = lows.compactMap({ $0 }).min() { sql += " AND due_day >= \(lo)" }
        if !highs.contains(where: { $0 == nil }), let hi = highs.compactMap({ $0 }).max() { sql += " AND due_day <= \(hi)" }
        return sql
    }

    /// A filter as a WHERE clause over the task columns, its values in `args`; nil when a term
    /// has no column.
    package static func clause(_ e: FilterExpr, _ fc: FilterContext, _ args: inout [SQLArg]) -> String? {
        func all(_ xs: [FilterExpr], _ join: String) -> String? {
            var parts: [String] = []
            for x in xs {
                guard let p = clause(x, fc, &args) else { return nil }
                parts.append("(\(p))")
            }
            return parts.isEmpty ? (join == " AND " ? "1" : "0") : parts.joined(separator: join)
        }
        func arg(_ a: SQLArg) -> String {
            args.append(a)
            return "?\(args.count)"
        }
        switch e {
        case .and(let xs): return all(xs, " AND ")
        case .or(let xs): return all(xs, " OR ")
        case .not(let x): return clause(x, fc, &args).map { "NOT (\($0))" }
        case .term(let t):
            // Every term is written to be 0 or 1, never NULL (`NOT` of a NULL would drop a task
            // the columns count), and plain enough for SQLite to use the indexes.
            return term(t, fc, &args)
        }
    }

    package static func term(_ t: FilterTerm, _ fc: FilterContext, _ args: inout [SQLArg]) -> String? {
        func arg(_ a: SQLArg) -> String {
            args.append(a)
            return "?\(args.count)"
        }
        let open = StatusKind.openSQL
        switch t {
        case .tag(let n): return "instr(coalesce(tag_keys, ''), \(arg(.text("\u{1F}" + n.lowercased() + "\u{1F}")))) > 0"
        case .tagPattern(let p):
            // A `*` at either end (or both) is a substring of the keys; one inside is left to the columns.
            let core = String(p.drop { $0 == "*" }.reversed().drop { $0 == "*" }.reversed())
            guard !core.contains("*") else { return nil }
            if core.isEmpty { return "tag_keys IS NOT NULL" }
            let needle = (p.hasPrefix("*") ? "" : "\u{1F}") + core + (p.hasSuffix("*") ? "" : "\u{1F}")
            return "instr(coalesce(tag_keys, ''), \(arg(.text(needle)))) > 0"
        // `IS NOT NULL AND =` rather than `IS`: never NULL, and SQLite can use the partial
        // index of the column (`IS` reads every open task's row through the kind index).
        case .project(let n): return "(project_key IS NOT NULL AND project_key = \(arg(.text(n.lowercased()))))"
        case .area(let n): return "area_key IS \(arg(.text(AreaName.key(n))))"
        case .priority(let c, let p): return "priority \(op(c)) \(p.rawValue)"
        case .window(let w): return window(w, fc)
        case .due(let c, let d): return window(DayWindow(c, d), fc)
        case .overdue:
            // R-VIEW-3: a finished task is never overdue; a date-only due waits for its day's end,
            // a timed one for its instant.
            return "\(open) AND " + dues(dateFrom: Int.min, dateTo: fc.today, timed: fc.passedMinutes)
        case .noDue: return "due_day IS NULL"
        case .hasDue: return "due_day IS NOT NULL"
        case .hasTime: return "due_minute IS NOT NULL"
        case .status(.open): return open
        case .status(.done): return "kind = \(StatusKind.done.rawValue)"
        case .status(.archived): return "kind = \(StatusKind.archived.rawValue)"
        case .status(.any): return "1"
        case .status(.named(let n)): return "status = \(arg(.text(n)))"
        case .doneToday: return "kind = \(StatusKind.done.rawValue) AND completed IS NOT NULL AND completed >= \(fc.todayStart.seconds)"
        case .held: return "held_until IS NOT NULL AND held_until > \(fc.today)"
        case .estimate(let c, let m): return "estimate IS NOT NULL AND estimate \(op(c)) \(m)"
        case .instant(let f, let c, let i):
            guard let col = column(f) else { return nil }
            return "\(col) IS NOT NULL AND \(col) \(op(c)) \(i.seconds)"
        case .instantIn(let f, let w):
            guard let col = column(f) else { return nil }
            var parts = ["\(col) IS NOT NULL"]
            if w.start != Int.min { parts.append("\(col) >= \(fc.start(ofDay: w.start).seconds)") }
            if w.end != Int.max { parts.append("\(col) < \(fc.start(ofDay: w.end).seconds)") }
            return parts.joined(separator: " AND ")
        case .hasSubtasks: return "EXISTS (SELECT 1 FROM tasks AS c WHERE c.parent = tasks.id)"
        case .blocked:
            return "EXISTS (SELECT 1 FROM tasks AS c WHERE c.parent = tasks.id AND c.kind IN (\(StatusKind.open.rawValue), \(StatusKind.other.rawValue)))"
        case .isSubtask: return "parent IS NOT NULL AND EXISTS (SELECT 1 FROM tasks AS p WHERE p.id = tasks.parent)"
        case .blocking: return "\(open) AND parent IS NOT NULL AND EXISTS (SELECT 1 FROM tasks AS p WHERE p.id = tasks.parent)"
        case .hasReminder: return "reminders > 0"
        case .hasEstimate: return "estimate IS NOT NULL"
        case .parent(let id): return "(parent IS NOT NULL AND parent = \(id))"
        case .saved(_, let x): return clause(x, fc, &args)
        case .note, .repeating, .repeatFrequency, .words, .regex, .hasNotes: return nil
        }
    }

    /// The column of an instant a task keeps; deleted tasks are tombstones, not rows.
    package static func column(_ f: InstantField) -> String? {
        switch f {
        case .created: return "created"
        case .modified: return "modified"
        case .completed: return "completed"
        case .deleted: return nil
        }
    }
}
