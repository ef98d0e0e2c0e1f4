// The plan (R-PLAN-1…7, docs/PLAN.md): the Smart plan over the store's columns, its snapshot
// that holds still for the day (R-PLAN-5), Not today holds (R-PLAN-6) and the Top 3 picks
// (R-PLAN-7). Only the rows printed are ever built as tasks.

import KeptRules

/// A plan as one statement sees it.
public struct PlanView {
    public var input: SmartPlan.Input
    public var plan: SmartPlan
    public var snapshot: PlanSnapshot
    /// The open tasks planned, and the open tasks there are.
    public var shown: Int
    public var total: Int
    public var expr: FilterExpr?
    /// Whether making the view stored a new snapshot or new picks.
    public var stored = false
    /// Set when the filter's patterns ran past their budget: the view is empty, and the
    /// statement fails (docs/LIMITS.md).
    public var failure: RegexBudgetError? = nil
}

/// What Not today did to one task (R-PLAN-6).
public struct Hold: Sendable {
    public var task: Task
    public var until: CivilDate
    /// A second Not today within a week: held for seven days.
    public var long: Bool
}

/// What `back` did: the hold ended, the seat taken, or the picks that fill Top 3.
public struct Back {
    public var task: Task
    public var endedHold: Bool
    /// In Top 3 now (already, or just picked).
    public var inTop3: Bool
    public var picked: Bool
    /// Top 3 is full: the picks, one of which it would replace (R-PLAN-7).
    public var full: [Task]?
    public var view: PlanView
}

/// `plan by date`: the rows printed, in order; how many open tasks the filter matches; how
/// many open tasks there are; the filter.
public struct PlanByDate {
    public var tasks: [Task]
    public var count: Int
    public var total: Int
    public var expr: FilterExpr?
}

extension Engine {
    /// The snapshot of today's plan; a new one (made now, no picks yet) when there is none or
    /// it is of another day (R-PLAN-5). `stored` says whether it is the store's.
    package func todaysSnapshot() -> (PlanSnapshot, stored: Bool) {
        if let p = store.plan, p.isCurrent(today: today) { return (p, true) }
        return (PlanSnapshot(madeAt: now, day: today, top3: [], extra: store.plan?.extra ?? JSONObject()), false)
    }

    /// The urgency of a snapshot: scores as of the moment it was made, so rows hold still.
    public func urgency(_ snap: PlanSnapshot) -> Urgency {
        Urgency(weights: store.settings.urgency, today: snap.day.dayNumber, asOf: snap.madeAt.seconds)
    }

    /// The plan of the open tasks a filter matches (all open tasks without one). The whole plan
    /// keeps the snapshot's Top 3 picks, fills free seats and stores both, without an undo step
    /// (it is how the plan was shown, not a change of the user's); a filtered plan picks its
    /// own Top 3 among the matching tasks and stores nothing.
    /// `allRows` keeps every open row in the view's input (`plan by date` orders them all);
    /// without it, the whole plan with a limit may be made from its candidates only.
    public func planView(_ expr: FilterExpr?, limit: Int?, snapshot given: PlanSnapshot? = nil, persist: Bool = true, allRows: Bool = false) -> PlanView {
        let (snap0, stored) = given.map { ($0, true) } ?? todaysSnapshot()
        var snap = snap0
        let ds = store.settings.day.dayStart
        let index: TaskIndex
        var rows: [Int]
        var total = 0
        var failure: RegexBudgetError? = nil
        var counts: SmartPlan.Counts? = nil
        var request = NarrowRequest(expr: expr, dayStart: ds)
        request.openOnly = true
        request.openSubtasks = true
        // The picks are read whatever they are now: one finished today keeps its seat.
        if expr == nil { request.alsoIDs = snap.top3 }
        if expr == nil, !allRows, let limit {
            request.plan = PlanBounds(urgency: urgency(snap), quickWinMinutes: store.settings.quickWinMinutes, limit: max(0, limit))
        }
        if let n = store.narrowedColumns(request, filterContext) {
            // A backend that narrows (SQL) reads only the open tasks (and the picks), or only
            // the candidates of a limited plan with the counts of every open task; the plan is
            // made from them as from every task's columns.
            index = n.index
            total = n.total
            counts = n.planCounts
            if let expr {
                do throws(RegexBudgetError) { rows = try matchingRows(expr, index, filterContext).filter { index.isOpen($0) } } catch {
                    rows = []
                    failure = error
                }
            } else {
                rows = (0..<index.count).filter { index.isOpen($0) }
            }
        } else if let expr {
            index = store.columns(dayStart: ds, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
            for i in 0..<index.count where index.isOpen(i) { total += 1 }
            do throws(RegexBudgetError) { rows = try matchingRows(expr, index, filterContext).filter { index.isOpen($0) } } catch {
                rows = []
                failure = error
            }
        } else {
            index = store.columns(dayStart: ds, withText: false, withSearch: false)
            rows = (0..<index.count).filter { index.isOpen($0) }
            total = rows.count
        }
        let u = urgency(snap)
        var input = SmartPlan.Input(index: index, rows: rows, urgency: u, quickWinMinutes: store.settings.quickWinMinutes, limit: limit)
        input.counts = counts
        // `urgency.reminder-today`: a reminder on the plan's day, whatever its time of day.
        input.remindedRows = index.rowsWithReminder(onDay: Int32(u.today))
        var extra: [PlanRow] = []
        if expr == nil {
            // A pick keeps its seat while it is open and not held, or finished today (R-REP-2).
            let todayStart = filterContext.todayStart.seconds
            var picks: [Int] = []
            for id in snap.top3 {
                guard let i = SmartPlan.row(of: id, in: index) else { continue }
                if index.isOpen(i) {
                    if !SmartPlan.held(index, i, today: u.today) { picks.append(id) }
                } else if index.isDone(i, since: todayStart) {
                    picks.append(id)
                    extra.append(PlanRow(index, row: i))
                }
            }
            input.picks = picks
        }
        let plan = SmartPlan.make(input, extraSeats: extra)
        var changed = false
        if expr == nil, persist {
            snap.top3 = plan.top3.map(\.id)
            if !stored || snap != store.plan {
                apply(.item(.plan(before: store.plan, after: snap)))
                changed = true
            }
        }
        return PlanView(input: input, plan: plan, snapshot: snap, shown: counts?.open ?? rows.count, total: total, expr: expr, stored: changed, failure: failure)
    }

    /// `plan by date` (R-PLAN-1): the open tasks a filter matches (every open task without
    /// one) in the By date order (earliest due first, so overdue first; no due last; then
    /// creation and id), the first `limit` of them, how many there are, and how many open
    /// tasks it looked at. A backend that narrows (SQL) reads only the rows printed, as a
    /// limited list in that order does (`narrowedSelect`); otherwise the plan's rows are
    /// ordered on its columns (`SmartPlan.byDate`), and only the rows printed become tasks.
    public func planByDate(_ expr: FilterExpr?, limit: Int?) throws(RegexBudgetError) -> PlanByDate {
        // The plan is of open tasks, whatever status a filter names.
        let scoped = expr.map { e in e.namesStatus ? .and([.term(.status(.open)), e]) : e }
        if let limit, let s = try narrowedSelect(scoped, order: [(.due, false), (.created, false)], limit: limit, countAll: true) {
            let total = scoped?.namesStatus == true ? try count(nil).total : s.total
            return PlanByDate(tasks: s.ordered, count: s.matched, total: total, expr: expr)
        }
        let v = planView(expr, limit: 0, persist: false, allRows: true)
        if let e = v.failure { throw e }
        var input = v.input
        input.limit = limit
        let (rows, count) = SmartPlan.byDate(input)
        return PlanByDate(tasks: rows.compactMap { store.task(atRow: $0.row) }, count: count, total: v.total, expr: expr)
    }

    /// `plan refresh`: score again now and pick a new Top 3; one undo step (R-PLAN-5).
    public func refreshPlan(limit: Int?) -> PlanView {
        let before = store.plan
        let fresh = PlanSnapshot(madeAt: now, day: today, top3: [], extra: before?.extra ?? JSONObject())
        var v = planView(nil, limit: limit, snapshot: fresh, persist: false)
        v.snapshot.top3 = v.plan.top3.map(\.id)
        let snap = v.snapshot
        var step = StepChanges()
        stage([.plan(before: before, after: snap)], into: &step)
        record(step, summary: "plan refresh")
        v.stored = true
        return v
    }

    /// Runs a plan action; an error puts back the snapshot as it was, so the day's first
    /// snapshot that the action looked at is not kept either.
    package func keepingPlanOnError<R>(_ body: () throws(DomainError) -> R) throws(DomainError) -> R {
        let saved = store.plan
        do {
            return try body()
        } catch {
            if store.plan != saved { apply(.item(.plan(before: store.plan, after: saved))) }
            throw error
        }
    }

    /// An open task by id, for the plan's actions.
    package func openTask(_ id: Int, for what: OpenAction) throws(DomainError) -> Task {
        let t = try existing(id)
        guard t.isOpen else { throw .wrongState(.notOpen(t.id, what: what)) }
        return t
    }

    // MARK: not today, back, top3

    /// R-PLAN-6: holds tasks out of Top 3 and Quick wins until the next day start, or seven days
    /// for a second Not today within a week; the due date never moves. When a pick left, the
    /// new Top 3 comes back too (R-PLAN-7).
    public func notToday(_ sel: Selection) throws(DomainError) -> (outcome: Outcome<Hold>, top3: PlanView?) {
        try keepingPlanOnError { () throws(DomainError) in
            // The plan of today first, so a pick that leaves is known as a pick.
            let picksBefore = planView(nil, limit: 0).snapshot.top3
            let o = try act(sel, "not today") { (t, step) throws(DomainError) in
                guard t.isOpen else { throw .wrongState(.notOpen(t.id, what: .notToday)) }
                var after = t
                let end = Holds.end(today: self.today, lastNotToday: t.notTodayOn)
                after.heldUntil = end
                after.notTodayOn = self.today
                var changes: [Change] = [.task(before: t, after: after)]
                if let plan = self.store.plan, plan.top3.contains(t.id) {
                    var p = plan
                    p.top3.removeAll { $0 == t.id }
                    changes.append(.plan(before: plan, after: p))
                }
                self.stage(changes, into: &step)
                return Hold(task: self.store.task(t.id) ?? after, until: end, long: end.dayNumber - self.today.dayNumber > 1)
            }
            // Top 3 can move only when a pick left it (the held task was otherwise never a
            // candidate): only then is the plan made again.
            guard store.plan?.top3 != picksBefore else { return (o, nil) }
            let v = planView(nil, limit: 0)
            return (o, v.snapshot.top3 != picksBefore ? v : nil)
        }
    }

    /// "Show in Top 3" (R-PLAN-6): ends a hold and takes a free seat; a full Top 3 says which
    /// picks the task could replace (R-PLAN-7).
    public func back(_ id: Int) throws(DomainError) -> Back {
        let t = try openTask(id, for: .back)
        let v = planView(nil, limit: 0)
        var changes: [Change] = []
        var result = Back(task: t, endedHold: false, inTop3: false, picked: false, full: nil, view: v)
        if let h = t.heldUntil, h > today {
            var after = t
            after.heldUntil = nil
            changes.append(.task(before: t, after: after))
            result.endedHold = true
        }
        let seats = v.snapshot.top3
        if seats.contains(t.id) {
            result.inTop3 = true
        } else if seats.count < 3 {
            var p = v.snapshot
            p.top3.append(t.id)
            changes.append(.plan(before: store.plan, after: p))
            result.inTop3 = true
            result.picked = true
        } else {
            result.full = v.plan.top3.compactMap { store.task(atRow: $0.row) }
        }
        if !changes.isEmpty {
            var step = StepChanges()
            stage(changes, into: &step)
            record(step, summary: "back \(t.id) · \(t.title)")
        }
        // Only a new pick moves Top 3; ending a hold alone leaves the seats as they were.
        if result.picked { result.view = planView(nil, limit: 0) }
        result.task = store.task(t.id) ?? t
        return result
    }

    /// Today's plan with its Top 3, made (and stored) if need be.
    public func top3() -> PlanView { planView(nil, limit: 0) }

    /// R-PLAN-7: new picks at once: the best open tasks that are not picks now; a pick finished
    /// today keeps its seat. Nil when no other open task can be picked.
    public func changeTop3() -> PlanView? {
        let v = planView(nil, limit: 0)
        let seats = v.snapshot.top3
        let open = Set(v.plan.top3.filter { v.input.index.isOpen($0.row) }.map(\.id))
        var input = v.input
        input.rows = input.rows.filter { !open.contains(v.input.index.ids[$0]) }
        input.picks = seats.filter { !open.contains($0) }
        input.limit = 0
        let extra = v.plan.top3.filter { !open.contains($0.id) }
        let fresh = SmartPlan.make(input, extraSeats: extra)
        guard fresh.top3.contains(where: { !seats.contains($0.id) }) else { return nil }
        var after = v.snapshot
        after.top3 = fresh.top3.map(\.id)
        return setTop3(after, "top3 change")
    }

    /// Adds an open task to a free seat of Top 3.
    public func addToTop3(_ id: Int) throws(DomainError) -> PlanView {
        try keepingPlanOnError { () throws(DomainError) in
            let v = planView(nil, limit: 0)
            let t = try openTask(id, for: .top3Add)
            let seats = v.snapshot.top3
            if let h = t.heldUntil, h > today { throw .held(t, until: h) }
            if seats.contains(t.id) { throw .alreadyPicked(t) }
            guard seats.count < 3 else { throw .top3Full(picks: v.plan.top3.compactMap { store.task(atRow: $0.row) }, adding: t) }
            var after = v.snapshot
            after.top3.append(t.id)
            return setTop3(after, "top3 add \(t.id) · \(t.title)")
        }
    }

    /// Gives a pick's seat to another open task.
    public func replaceInTop3(_ old: Int, with new: Int) throws(DomainError) -> PlanView {
        try keepingPlanOnError { () throws(DomainError) in
            let v = planView(nil, limit: 0)
            let seats = v.snapshot.top3
            let o = try existing(old)
            guard let k = seats.firstIndex(of: o.id) else { throw .notAPick(o, picks: seats) }
            let t = try openTask(new, for: .top3Replace)
            if let h = t.heldUntil, h > today { throw .held(t, until: h) }
            if seats.contains(t.id) { throw .alreadyPicked(t) }
            var after = v.snapshot
            after.top3[k] = t.id
            return setTop3(after, "top3 replace \(o.id) with \(t.id) · \(t.title)")
        }
    }

    /// Stores new picks as one undo step and returns the plan they make.
    package func setTop3(_ snap: PlanSnapshot, _ summary: String) -> PlanView {
        var step = StepChanges()
        stage([.plan(before: store.plan, after: snap)], into: &step)
        record(step, summary: summary)
        return planView(nil, limit: 0)
    }
}
