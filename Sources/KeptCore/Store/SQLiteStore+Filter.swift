// Counting in SQL: a filter whose every term the task columns answer becomes a WHERE clause,
// so `count overdue` on a million tasks reads an index, not a million records. The clause
// says what CompiledFilter says of the same terms (Tests/KeptCoreTests/SQLiteStoreTests.swift
// holds the two to it); a filter with any other term (words, a regex, notes, repeats) returns
// nil and is counted over the columns as usual.

extension SQLiteStore {
    /// The count of a filter and of the tasks it looks at, from SQL; nil when a term of it has
    /// no column to answer it.
    public func count(_ expr: FilterExpr, _ fc: FilterContext) -> (matched: Int, total: Int)? {
        var args: [SQLArg] = []
        guard let clause = SQLiteStore.clause(expr, fc, &args) else { return nil }
        let scope = expr.namesStatus ? "1" : "kind IN (0, 3)"
        let sql = "SELECT (SELECT count(*) FROM tasks WHERE \(scope) AND (\(clause))), (SELECT count(*) FROM tasks WHERE \(scope))"
        guard let st = try? db.statement(sql) else { return nil }
        defer { st.reset() }
        for (k, a) in args.enumerated() {
            switch a {
            case .int(let v): st.bind(Int32(k + 1), v)
            case .text(let v): st.bind(Int32(k + 1), v)
            }
        }
        guard (try? st.step()) == true else { return nil }
        return (Int(st.int(0)), Int(st.int(1)))
    }

    enum SQLArg {
        case int(Int)
        case text(String)
    }

    /// The SQL of a comparison operator.
    static func op(_ c: Comparison) -> String { c == .equal ? "=" : c.rawValue }

    /// The account day a due belongs to (a timed due by its civil minute less the day start,
    /// R-DAY-2), as TaskIndex computes it; NULL without a due.
    static func accountDay(_ ds: Int) -> String {
        "(CASE WHEN due_minute IS NULL THEN due_day ELSE ((due_minute - \(ds)) - (((due_minute - \(ds)) % 1440) + 1440) % 1440) / 1440 END)"
    }

    /// A filter as a WHERE clause over the task columns, its values in `args`; nil when a term
    /// has no column.
    static func clause(_ e: FilterExpr, _ fc: FilterContext, _ args: inout [SQLArg]) -> String? {
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

    static func term(_ t: FilterTerm, _ fc: FilterContext, _ args: inout [SQLArg]) -> String? {
        func arg(_ a: SQLArg) -> String {
            args.append(a)
            return "?\(args.count)"
        }
        switch t {
        case .tag(let n): return "instr(coalesce(tag_keys, ''), \(arg(.text("\u{1F}" + n.lowercased() + "\u{1F}")))) > 0"
        case .project(let n): return "project_key IS \(arg(.text(n.lowercased())))"
        case .area(let n): return "area_key IS \(arg(.text(AreaName.key(n))))"
        case .priority(let c, let p): return "priority \(op(c)) \(p.rawValue)"
        case .window(let w):
            let d = accountDay(fc.dayStart)
            return "due_day IS NOT NULL AND \(d) >= \(w.start) AND \(d) < \(w.end)"
        case .overdue:
            // R-VIEW-3: a finished task is never overdue; a date-only due waits for its day's end.
            // No due after the later of today and now's civil day can be overdue: the bound lets
            // SQLite read a range of the (kind, due_day, due_minute) index.
            let last = max(fc.today, fc.nowMinute / 1440)
            return "kind IN (0, 3) AND due_day IS NOT NULL AND due_day <= \(last) AND (CASE WHEN due_minute IS NOT NULL THEN due_minute < \(fc.nowMinute) ELSE due_day < \(fc.today) END)"
        case .noDue: return "due_day IS NULL"
        case .hasDue: return "due_day IS NOT NULL"
        case .hasTime: return "due_minute IS NOT NULL"
        case .status(.open): return "kind IN (0, 3)"
        case .status(.done): return "kind = 1"
        case .status(.archived): return "kind = 2"
        case .status(.any): return "1"
        case .status(.named(let n)): return "status = \(arg(.text(n)))"
        case .doneToday: return "kind = 1 AND completed IS NOT NULL AND completed >= \(fc.todayStart.seconds)"
        case .held: return "held_until IS NOT NULL AND held_until > \(fc.today)"
        case .due(let c, let d): return "due_day IS NOT NULL AND \(accountDay(fc.dayStart)) \(op(c)) \(d)"
        case .estimate(let c, let m): return "estimate IS NOT NULL AND estimate \(op(c)) \(m)"
        case .created(let c, let i): return "created \(op(c)) \(i.seconds)"
        case .saved(_, let x): return clause(x, fc, &args)
        case .note, .repeating, .repeatFrequency, .words, .regex: return nil
        }
    }
}
