// A limited plan on SQLite (issue 34, item 2; docs/STORE.md, "The plan"): `plan limit 3` and
// Top 3 read the rows that can be among a section's first rows, not every open task, and count
// the sections in SQL.
//
// A task's score (Urgency.score) is a sum of terms. Those that change with `now` (the due
// curve, the age, a due time today, a reminder today) are computed here on the columns, as of
// the plan's snapshot. The rows with a term no column orders (a goal, reminders, an open
// subtask, a hold) are few and are read whole as candidates. Every other open row (a plain
// row) scores the due curve + its priority + its age + a due time today, all from the
// `tasks_plan` index: for one priority, the rows come in due order, and no row after due day d
// can score more than the curve at d - 1 with the most age and a time today. So each priority
// and section (quick wins, the rest) is read in due order until that bound falls below the
// last of its best rows; the rows without a due in creation order the same way. The plan is
// then made from the candidates' columns by SmartPlan, as from every open task's, with the
// counts of every open task (SmartPlan.Counts).

import KeptRules
import KeptDomain

extension SQLiteStore {
    /// The most rows a section prints for which the candidates are read (beyond it, the plan
    /// reads every open task's columns).
    package static let candidateLimit = 1_000

    /// The candidates of a limited plan and the counts of its sections; nil when the plan
    /// reads every open task instead (an older file read as it is, a weight that makes the
    /// order not follow the due, or a read that failed).
    package func planCandidates(_ r: NarrowRequest, _ b: PlanBounds) -> NarrowedColumns? {
        let u = b.urgency
        let w = u.weights
        guard hasPlanColumns, !indexesDropped, w.due >= 0, w.age >= 0, b.limit <= SQLiteStore.candidateLimit else { return nil }
        // Each section's best rows: the limit, and as many again as Top 3 can take from it
        // (three seats, three more when the picks are left out by `top3 change`).
        let keep = b.limit + 6
        let open = StatusKind.openSQL
        var ids = Set(r.alsoIDs)
        var special = Set<Int>()
        let counts: SmartPlan.Counts
        do throws(SQLiteError) {
            // The rows read whole: open subtasks and their parents (blocked), rows with a goal,
            // with reminders, or held past today. Each through its own index (without
            // statistics SQLite would take the index on kind, which holds most of the store).
            let sub = try db.statement("SELECT id, parent FROM tasks INDEXED BY tasks_parent WHERE parent IS NOT NULL AND \(open)")
            defer { sub.reset() }
            while try sub.step() {
                special.insert(Int(sub.int(0)))
                special.insert(Int(sub.int(1)))
            }
            for sql in ["SELECT id FROM tasks INDEXED BY tasks_goal WHERE goal = 1 AND \(open)",
                        "SELECT id FROM tasks INDEXED BY tasks_reminders WHERE reminders > 0 AND \(open)",
                        "SELECT id FROM tasks INDEXED BY tasks_held WHERE held_until > ?1 AND \(open)"] {
                let st = try db.statement(sql)
                defer { st.reset() }
                if sql.contains("?1") { st.bind(1, u.today) }
                while try st.step() { special.insert(Int(st.int(0))) }
            }
            ids.formUnion(special)
            // The plain rows, by priority (the highest weight first: its rows raise the bar
            // the others must pass) and section.
            let priorities = (UInt8(0)...4).sorted { w.priority($0) > w.priority($1) }
            var wins = TopRows(keep)
            var rest = TopRows(keep)
            for p in priorities {
                for quick in [true, false] {
                    let section = quick ? "user_estimate <= ?2" : "(user_estimate IS NULL OR user_estimate > ?2)"
                    for dated in [true, false] {
                        if quick {
                            try scanPlain(p, section, dated: dated, u, b, ds: r.dayStart.minuteOfDay, special: special, into: &wins)
                        } else {
                            try scanPlain(p, section, dated: dated, u, b, ds: r.dayStart.minuteOfDay, special: special, into: &rest)
                        }
                    }
                }
            }
            for row in wins.rows { ids.insert(row.id) }
            for row in rest.rows { ids.insert(row.id) }
            // The counts of every open task: all of them, and the quick wins not held today.
            let all = Int(try db.integer("SELECT \(scopeCountSQL(open))") ?? 0)
            let q = try db.statement("""
                SELECT count(*) FROM tasks INDEXED BY tasks_quick WHERE \(open) AND user_estimate IS NOT NULL \
                AND user_estimate <= ?1 AND (held_until IS NULL OR held_until <= ?2)
                """)
            defer { q.reset() }
            q.bind(1, b.quickWinMinutes)
            q.bind(2, u.today)
            let quickWins = try q.step() ? Int(q.int(0)) : 0
            counts = SmartPlan.Counts(open: all, quickWins: quickWins)
        } catch {
            readFailed(error)
            return nil
        }
        let list = ids.sorted().map(String.init).joined(separator: ", ")
        guard var n = planColumns(r, only: "id IN (\(list))") else { return nil }
        n.total = counts.open
        n.planCounts = counts
        return n
    }

    /// Reads the plain rows of one priority and section, in due order (`dated`) or creation
    /// order (no due), into `top` until no later row can be among its best.
    private func scanPlain(_ p: UInt8, _ section: String, dated: Bool, _ u: Urgency, _ b: PlanBounds, ds: Int,
                           special: Set<Int>, into top: inout TopRows) throws(SQLiteError) {
        let w = u.weights
        let order = dated ? "due_day IS NOT NULL ORDER BY due_day" : "due_day IS NULL ORDER BY created"
        let st = try db.statement("""
            SELECT due_day, due_minute, created, id FROM tasks INDEXED BY tasks_plan \
            WHERE \(StatusKind.openSQL) AND goal = 0 AND priority = ?1 AND \(section) AND \(order)
            """)
        defer { st.reset() }
        st.bind(1, Int(p))
        st.bind(2, b.quickWinMinutes)
        let prio = w.priority(p)
        var boundDay: Int64? = nil
        while try st.step() {
            let id = Int(st.int(3))
            let created = st.int(2)
            if top.isFull, let last = top.last {
                // The most any row from here on can score: the terms in Urgency.score's order,
                // each at its most (a plain row has no reminder, goal or open subtask).
                if dated {
                    let d = st.int(0)
                    if boundDay != d {
                        boundDay = d
                        // A due time before the day start is of the day before (account day).
                        let day = Int(d) - 1
                        var s = u.dueValue(day) * w.due
                        s += prio
                        s += (day == u.today || day + 1 == u.today) ? max(0, w.timeToday) : 0
                        s += w.age
                        if s < last.score { return }
                    }
                } else {
                    var s = u.dueValue(nil) * w.due
                    s += prio
                    s += u.ageValue(created) * w.age
                    // Ties go to the earlier due, then the earlier creation.
                    if s < last.score || (s == last.score && (last.dueKey < Int64.max || last.created < created)) { return }
                }
            }
            guard !special.contains(id) else { continue }
            var x = UrgencyInput()
            x.priority = p
            let minute: Int64? = st.isNull(1) ? nil : st.int(1)
            var dueKey = Int64.max
            if dated {
                let d = st.int(0)
                if let m = minute {
                    x.dueDay = Int(TaskIndex.accountDay(m, ds))
                    x.dueHasTime = true
                    dueKey = m
                } else {
                    x.dueDay = Int(d)
                    dueKey = d * 1440 + 1440
                }
            }
            x.createdSeconds = created
            top.offer(PlanRow(row: 0, score: u.score(x), dueKey: dueKey, created: created, id: id))
        }
    }
}
