// Narrowed reads (docs/STORE.md, "A statement reads what it needs"): SQL narrows, the compiled
// filter decides. The terms of a filter that have columns become a WHERE clause that can only
// widen the set (a term without a column reads as true, a `not` over one as true); only those
// rows' records are read, and CompiledFilter decides on them exactly as on every task's columns,
// so there is one semantics. When the clause says exactly what the filter says, a list's order
// and limit go into SQL too, and only the rows printed are read.
//
// A fast path decides nothing: it declines (nil, the general path) whatever is unusual: a term
// that looks at other tasks (subtasks, blocked, blocking), every record read already, or
// `KEPT_SQL_PUSHDOWN=0` in the environment (the differential test runs with it to hold the two
// paths to one answer: Tests/differential/sqlite_diff.py).

import KeptRules
import KeptDomain

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SQLiteStore {
    /// Whether reads are narrowed in SQL: on unless `KEPT_SQL_PUSHDOWN` is `0`.
    package static let pushDown: Bool = {
        guard let v = getenv("KEPT_SQL_PUSHDOWN") else { return true }
        return String(cString: v) != "0"
    }()

    public func narrowedColumns(_ r: NarrowRequest, _ fc: FilterContext) -> NarrowedColumns? {
        guard SQLiteStore.pushDown, !hasFullView else { return nil }
        // A session that has read as many rows narrowed as the store holds reads them all once,
        // and answers from memory until a task changes (the REPL's cost a statement stays as
        // it was); one statement alone never reads more than the whole store this way.
        if narrowedRows > 0 {
            do throws(SQLiteError) {
                if narrowedRows >= Int(try db.integer("SELECT max(rowid) FROM tasks") ?? 0) { return nil }
            } catch {
                readFailed(error)
                return nil
            }
        }
        // The whole plan: its columns, not its records; a limited one only its candidates'.
        if r.expr == nil, r.openOnly {
            if let b = r.plan, let c = planCandidates(r, b) { return c }
            return planColumns(r)
        }
        let expr = r.expr ?? .and([])
        // A term that looks at other tasks needs every task's columns.
        guard !CompiledFilter.uses(expr, SQLiteStore.relational) else { return nil }
        var args: [SQLArg] = []
        let exact = SQLiteStore.clause(expr, fc, &args)
        if exact == nil { args.removeAll() }
        let cond = exact ?? SQLiteStore.widening(expr, fc, &args)
        let scope = r.openOnly || !expr.namesStatus ? StatusKind.openSQL : "1"
        // The scope alone (most of a store is open) is read by scanning the table, not through
        // the index on kind: a unary `+` keeps SQLite from choosing it for the scope; the
        // filter's own terms (overdue, a window) still choose their index.
        let scan = scope == "1" ? "1" : "+" + scope
        var condition = "(\(scan)) AND ((\(cond))\(r.openSubtasks ? " OR parent IS NOT NULL" : ""))"
        if !r.alsoIDs.isEmpty { condition = "(\(condition)) OR id IN (\(r.alsoIDs.map(String.init).joined(separator: ", ")))" }
        func bind(_ st: SQLiteStatement) {
            for (k, a) in args.enumerated() {
                switch a {
                case .int(let v): st.bind(Int32(k + 1), v)
                case .text(let v): st.bind(Int32(k + 1), v)
                }
            }
        }
        let failures = damage.count
        let total: Int
        var matched: Int? = nil
        do throws(SQLiteError) {
            total = Int(try db.integer("SELECT \(scopeCountSQL(scope))") ?? 0)
        } catch {
            readFailed(error)
            return nil
        }
        let read = "SELECT id, \(sumColumn), record FROM tasks WHERE "
        var sql = read + condition
        // A limited read that does not count its matches: the rows it reads are all of them up
        // to the limit.
        var countedByRows = false
        if exact != nil, r.alsoIDs.isEmpty, !r.openSubtasks, let limit = r.limit, let order = r.order, let by = SQLiteStore.orderBy(order) {
            // Exact: the first rows in the list's order are the rows it prints. How many match
            // in all is counted when asked; else the rows read say it up to the limit, and a
            // limit of 0 asks only whether any does.
            countedByRows = !r.countAll && limit > 0
            let counting = r.countAll ? "SELECT count(*) FROM tasks WHERE \(condition)"
                : limit > 0 ? nil : "SELECT count(*) FROM (SELECT 1 FROM tasks WHERE \(condition) LIMIT 1)"
            if let counting {
                do throws(SQLiteError) {
                    let st = try db.statement(counting)
                    defer { st.reset() }
                    bind(st)
                    guard try st.step() else { return nil }
                    matched = Int(st.int(0))
                } catch {
                    readFailed(error)
                    return nil
                }
            }
            // The rows are chosen first by what the condition and the order read (an index
            // alone, where it holds them: tasks_kind_due), then only their records are read.
            sql = read + "rowid IN (SELECT rowid FROM tasks WHERE \(condition) ORDER BY \(by) LIMIT \(max(0, limit)))"
        }
        // In the order SQLite finds them (the table's, or an index's), put in id order after:
        // an ORDER BY id would sort the records themselves in a temporary tree. A condition
        // that widens (a term without a column: words, notes, a repeat) may read many more
        // rows than match: the compiled filter decides on them chunk by chunk as they are read,
        // so only the matches are held (the engine decides on those again, with the same
        // answer). Not for a pattern, whose budget is the statement's, nor for rows read
        // whatever the filter says (picks, open subtasks).
        var streamed: Store? = nil
        var rowsRead = 0
        if exact == nil, r.expr != nil, !CompiledFilter.needsText(expr), r.alsoIDs.isEmpty, !r.openSubtasks {
            streamed = readKept(sql, bind: bind, chunk: keptChunk, read: &rowsRead) { chunk in
                let ix = chunk.columns(dayStart: r.dayStart, withText: false, withSearch: r.withSearch)
                do throws(RegexBudgetError) {
                    return Set(try CompiledFilter(expr, index: ix, context: fc).rows(in: ix).map { ix.ids[$0] })
                } catch {
                    return nil
                }
            }
        }
        // Damage found while reading is the statement's failure (readFailure), as on the general path.
        guard damage.count == failures else { return nil }
        let s: Store
        if let streamed {
            s = streamed
        } else {
            s = readTasks(sql, bind: bind, sortByID: true)
            rowsRead = s.taskCount
            guard damage.count == failures else { return nil }
        }
        if countedByRows { matched = s.taskCount }
        partial = (rows: [], store: s, stale: false)
        narrowedRows += rowsRead
        return NarrowedColumns(index: s.columns(dayStart: r.dayStart, withText: r.withText, withSearch: r.withSearch), total: total, matched: matched)
    }

    /// How many records a narrowed read that widens decides on at once (`readKept`).
    package static let keptChunk = 16_384

    /// The terms whose answer for a task depends on other tasks of the store.
    package static func relational(_ t: FilterTerm) -> Bool {
        switch t {
        case .hasSubtasks, .blocked, .isSubtask, .blocking: return true
        default: return false
        }
    }

    /// A condition every task the filter matches meets (it may hold for others): the exact
    /// clause of a part that has one, true for a part that has none.
    package static func widening(_ e: FilterExpr, _ fc: FilterContext, _ args: inout [SQLArg]) -> String {
        let mark = args.count
        if let c = clause(e, fc, &args) { return c }
        args.removeSubrange(mark...)
        switch e {
        case .and(let xs):
            let parts = xs.map { widening($0, fc, &args) }.filter { $0 != "1" }
            return parts.isEmpty ? "1" : parts.map { "(\($0))" }.joined(separator: " AND ")
        case .or(let xs):
            var parts: [String] = []
            for x in xs {
                let m = args.count
                let p = widening(x, fc, &args)
                if p == "1" {
                    args.removeSubrange(m...)
                    args.removeSubrange(mark...)
                    return "1"
                }
                parts.append("(\(p))")
            }
            return parts.isEmpty ? "0" : parts.joined(separator: " OR ")
        case .term(.saved(_, let x)): return widening(x, fc, &args)
        // A repeat has no column, but only a record with a repeat holds this key: a title's
        // quotes are escaped, so it widens (a nested extra field may hold it) and never narrows.
        case .term(.repeating), .term(.repeatFrequency): return "instr(record, '\"repeat\":{') > 0"
        // A `not` over a part without an exact clause can hold for any task.
        case .not, .term: return "1"
        }
    }

    /// The SQL order of a list's keys (docs/FILTERS.md, "Lists and counts"; Engine.sorted), ties
    /// on id; nil when a key has no column (title sorts by folded text).
    package static func orderBy(_ order: SortOrder) -> String? {
        // No order: creation order.
        guard !order.isEmpty else { return "created, id" }
        var keys: [String] = []
        for (key, desc) in order {
            let dir = desc ? " DESC" : ""
            switch key {
            // Tasks without a due last, whichever way; a date-only due after that day's times.
            case .due: keys += ["due_day IS NULL", "coalesce(due_minute, due_day * 1440 + 1440)\(dir)"]
            case .priority: keys.append("priority\(dir)")
            case .created: keys.append("created\(dir)")
            case .id: keys.append("id\(dir)")
            case .title: return nil
            }
        }
        return (keys + ["id"]).joined(separator: ", ")
    }
}

// The plan's columns (issue 34, item 2): the unfiltered plan reads the open tasks' lookup
// columns, not their records. Urgency needs two things no column holds, whether a task has a
// goal and whether its estimate was suggested; the records that can say so (their text holds
// `"goal"` or `suggested`: the writer writes no member that is absent) are asked in SQL, and the
// reminders of the tasks that have any are read from their records. The rows the plan prints
// are read by id, each against its checksum, as `show` reads a task.
extension SQLiteStore {
    /// One open task (or pick) as the plan reads it.
    private struct PlanRowColumns {
        var id: Int
        var kind: UInt8
        var priority: UInt8
        var dueDay: Int?
        var dueMinute: Int64?
        var created: Int64
        var completed: Int64?
        var held: Int32?
        var parent: Int
        var estimate: Int32?
        var userEstimate: Bool
        var reminders: [Int64]
        var goal: Bool
    }

    /// Whether bytes hold a needle.
    /// Whether a record's bytes can hold a goal (`"goal"`) or, with `estimate`, a suggested
    /// estimate (`suggested`): each `g` is found with memchr and the words are compared there.
    package static func mayHold(_ b: UnsafeRawBufferPointer, estimate: Bool) -> Bool {
        guard let base = b.baseAddress else { return false }
        let n = b.count
        var at = 0
        while at < n {
            guard let found = memchr(base + at, Int32(UInt8(ascii: "g")), n - at) else { return false }
            let k: Int = UnsafeRawPointer(found) - base
            if SQLiteStore.word(b, k - 1, SQLiteStore.goalKey) { return true }
            if estimate, SQLiteStore.word(b, k - 2, SQLiteStore.suggested) { return true }
            at = k + 1
        }
        return false
    }

    /// Whether `w` is at offset `k` of `b`.
    private static func word(_ b: UnsafeRawBufferPointer, _ k: Int, _ w: [UInt8]) -> Bool {
        guard k >= 0, k + w.count <= b.count else { return false }
        for (j, c) in w.enumerated() where b[k + j] != c { return false }
        return true
    }

    private static let goalKey = Array("\"goal\"".utf8)
    private static let suggested = Array("suggested".utf8)

    /// The plan's index of the open tasks and the picks (`alsoIDs`), from columns; of the rows
    /// `only` names instead when it is given (a limited plan's candidates).
    package func planColumns(_ r: NarrowRequest, only: String? = nil) -> NarrowedColumns? {
        var cond = "+kind IN (\(StatusKind.open.rawValue), \(StatusKind.other.rawValue))"
        if !r.alsoIDs.isEmpty { cond = "(\(cond)) OR id IN (\(r.alsoIDs.map(String.init).joined(separator: ", ")))" }
        if let only { cond = only }
        // Version 4 holds the goal and the user's estimate in columns: only a row with
        // reminders has its record read.
        let planned = hasPlanColumns ? "goal, user_estimate" : "0, NULL"
        let sql = """
            SELECT id, kind, priority, due_day, due_minute, created, completed, held_until, parent, estimate, \
            reminders, \(sumColumn), record, \(planned) FROM tasks WHERE \(cond)
            """
        var rows: [PlanRowColumns] = []
        let failures = damage.count
        var total = 0
        var ordered = true
        do throws(SQLiteError) {
            // Room for every row at once (the largest rowid bounds their number), not doubled
            // as they come.
            if only == nil { rows.reserveCapacity(max(0, min(Int(try db.integer("SELECT max(rowid) FROM tasks") ?? 0), 1 << 26))) }
            let st = try db.statement(sql)
            defer { st.reset() }
            while try st.step() {
                let kind = UInt8(clamping: st.int(1))
                let reminders = st.int(10) > 0
                let estimate: Int32? = st.isNull(9) ? nil : Int32(clamping: st.int(9))
                // The record is decoded only when its bytes can hold a goal or a suggested
                // estimate, or it has reminders; then its checksum is checked as any record's.
                var goal = hasPlanColumns && st.int(13) != 0
                var user = !hasPlanColumns || !st.isNull(14)
                var reminderMinutes: [Int64] = []
                let look = reminders || (!hasPlanColumns && st.withBytes(12) { b in
                    SQLiteStore.mayHold(b, estimate: estimate != nil)
                })
                if look {
                    var bytes: [UInt8] = []
                    _ = st.appendBytes(12, to: &bytes)
                    guard let t = recordTask(st, bytes, sum: 11, record: 12) else { continue }
                    goal = t.goal != nil
                    user = t.estimate?.source != .suggested
                    reminderMinutes = t.reminders.map { TaskIndex.civilMinute($0.at) }
                }
                let row = PlanRowColumns(
                    id: Int(st.int(0)), kind: kind, priority: UInt8(clamping: st.int(2)),
                    dueDay: st.isNull(3) ? nil : Int(st.int(3)), dueMinute: st.isNull(4) ? nil : st.int(4),
                    created: st.int(5), completed: st.isNull(6) ? nil : st.int(6), held: st.isNull(7) ? nil : Int32(clamping: st.int(7)),
                    parent: st.isNull(8) ? 0 : Int(st.int(8)), estimate: estimate,
                    userEstimate: user, reminders: reminderMinutes, goal: goal)
                if StatusKind.of(raw: kind).isOpen { total += 1 }
                if let last = rows.last, last.id >= row.id { ordered = false }
                rows.append(row)
            }
        } catch {
            readFailed(error)
            return nil
        }
        if !ordered { rows.sort { $0.id < $1.id } }
        // Damage found in a record read is the statement's failure, as on the general path.
        guard damage.count == failures else { return nil }
        var ix = TaskIndex(reserving: rows.count, dayStart: r.dayStart)
        let ds = r.dayStart.minuteOfDay
        // No names: no filter is compiled over the plan's index (a filtered plan reads records).
        for (k, t) in rows.enumerated() {
            ix.tagStart.append(0)
            ix.noteStart.append(0)
            ix.project.append(-1)
            ix.area.append(-1)
            ix.statusKind.append(StatusKind.of(raw: t.kind))
            ix.statusID.append(-1)
            ix.priority.append(t.priority)
            if let day = t.dueDay {
                ix.dueDate.append(Int32(clamping: day))
                if let m = t.dueMinute {
                    ix.dueMinute.append(m)
                    ix.dueDay.append(TaskIndex.accountDay(m, ds))
                } else {
                    ix.dueMinute.append(-1)
                    ix.dueDay.append(Int32(clamping: day))
                }
            } else {
                ix.dueDate.append(TaskIndex.none)
                ix.dueMinute.append(-1)
                ix.dueDay.append(TaskIndex.none)
            }
            ix.repeatFreq.append(-1)
            ix.estimate.append(t.estimate ?? -1)
            ix.created.append(t.created)
            ix.completed.append(t.completed ?? Int64.min)
            ix.held.append(t.held ?? TaskIndex.none)
            ix.ids.append(t.id)
            ix.userEstimate.append(t.userEstimate ? (t.estimate ?? -1) : -1)
            ix.hasGoal.append(t.goal)
            ix.parent.append(t.parent)
            for m in t.reminders {
                ix.reminderRows.append(Int32(k))
                ix.reminderMinutes.append(m)
            }
            ix.count += 1
        }
        // No text: no regex runs over the plan's index.
        ix.hasText = false
        partial = (rows: rows.map(\.id), store: nil, stale: true)
        narrowedRows += rows.count
        return NarrowedColumns(index: ix, total: total, matched: nil)
    }
}
