// The plan statements (R-PLAN-1…7, docs/PLAN.md): plan, plan by date, plan refresh, explain
// plan, why, not today, back and top3. The plan is computed on the store's columns; only the
// rows printed are built as tasks.

extension Session {
    /// How many rows of Quick wins and of the rest `plan` prints without `limit`.
    static let planRows = 20

    /// A plan as one statement sees it.
    struct PlanView {
        var input: SmartPlan.Input
        var plan: SmartPlan
        var snapshot: PlanSnapshot
        /// The open tasks planned, and the open tasks there are.
        var shown: Int
        var total: Int
        var expr: FilterExpr?
        /// Whether making the view stored a new snapshot or new picks.
        var stored = false
        /// Set when the filter's patterns ran past their budget: the view is empty, and the
        /// statement fails with E0226.
        var failure: RegexBudgetError? = nil
    }

    /// The snapshot of today's plan; a new one (made now, no picks yet) when there is none or
    /// it is of another day (R-PLAN-5). `stored` says whether it is the store's.
    func todaysSnapshot() -> (PlanSnapshot, stored: Bool) {
        if let p = store.plan, p.isCurrent(today: today) { return (p, true) }
        return (PlanSnapshot(madeAt: now, day: today, top3: [], extra: store.plan?.extra ?? JSONObject()), false)
    }

    /// The urgency of a snapshot: scores as of the moment it was made, so rows hold still.
    func urgency(_ snap: PlanSnapshot) -> Urgency {
        Urgency(weights: store.settings.urgency, today: snap.day.dayNumber, asOf: snap.madeAt.seconds)
    }

    /// Computes the plan of the open tasks a filter matches (all open tasks without one). The
    /// whole plan keeps the snapshot's Top 3 picks, fills free seats and stores both, without
    /// an undo step (it is how the plan was shown, not a change of the user's); a filtered plan
    /// picks its own Top 3 among the matching tasks and stores nothing.
    func planView(_ expr: FilterExpr?, limit: Int?, snapshot given: PlanSnapshot? = nil, persist: Bool = true) -> PlanView {
        let (snap0, stored) = given.map { ($0, true) } ?? todaysSnapshot()
        var snap = snap0
        let ds = store.settings.day.dayStart
        let index: TaskIndex
        var rows: [Int]
        var total = 0
        var failure: RegexBudgetError? = nil
        if let expr {
            index = store.columns(dayStart: ds, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
            for i in 0..<index.count where index.isOpen(i) { total += 1 }
            do throws(RegexBudgetError) { rows = try matchingRows(expr, index, filterContext).filter { index.isOpen($0) } } catch {
                rows = []
                failure = error
            }
        } else {
            index = store.columns(dayStart: ds, withText: false)
            rows = (0..<index.count).filter { index.isOpen($0) }
            total = rows.count
        }
        let u = urgency(snap)
        var input = SmartPlan.Input(index: index, rows: rows, urgency: u, quickWinMinutes: store.settings.quickWinMinutes, limit: limit)
        // `urgency.reminder-today`: a reminder on the plan's day, whatever its time of day.
        let reminded = index.rowsWithReminder(onDay: Int32(u.today))
        input.remindedRows = reminded
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
                store.plan = snap
                changed = true
            }
        }
        return PlanView(input: input, plan: plan, snapshot: snap, shown: rows.count, total: total, expr: expr, stored: changed, failure: failure)
    }

    /// Tasks of plan rows, built one by one.
    func tasks(_ rows: [PlanRow]) -> [Task] {
        rows.compactMap { store.task(atRow: $0.row) }
    }

    /// `updated 7:42 AM` of the snapshot (R-PLAN-5).
    func madeText(_ snap: PlanSnapshot) -> String {
        let l = zone.local(at: snap.madeAt)
        let t = TimeText.time(l.time, store.settings.day.hourCycle)
        return l.date == today ? t : "\(TimeText.shortDate(l.date)) \(t)"
    }

    /// The lines of a section: its heading, its rows and how many more it holds.
    func sectionLines(_ name: String, _ rows: [PlanRow], count: Int, scores: Bool) -> [String] {
        guard count > 0 else { return [] }
        let ts = tasks(rows)
        var lines = [name] + text.rows(ts, scores: scores ? rows.map(\.score) : nil).map { "  " + $0 }
        if count > rows.count { lines.append("  … \(count - rows.count) more (plan limit N shows more)") }
        return lines
    }

    func runPlan(_ s: Statement, _ r: PlanRequest) -> CommandOutput {
        if r.refresh { return runPlanRefresh(s) }
        let expr: FilterExpr?
        switch compile(r.filter, s) {
        case .success(let e): expr = e
        case .failure(let d): return .error(d)
        }
        // `explain plan` prints the whole plan unless told a limit; `plan` the first rows.
        let limit = r.limit == Int.max ? nil : (r.limit ?? (r.explain ? nil : Session.planRows))
        if r.order == .byDate { return runPlanByDate(expr, limit: limit, s) }
        let v = planView(expr, limit: limit)
        if let e = v.failure { return .error(regexBudgetError(e, s)) }
        return planOutput(v, explain: r.explain)
    }

    /// The text and JSON of a Smart plan (R-PLAN-2, R-PLAN-4).
    func planOutput(_ v: PlanView, explain: Bool, changed: Bool? = nil) -> CommandOutput {
        let p = v.plan
        var head = explain ? "Smart plan with scores · as of \(madeText(v.snapshot))" : "Smart follows your plan · updated \(madeText(v.snapshot))"
        if let e = v.expr {
            let on = e.filterCount == 1 ? "1 filter on" : "\(e.filterCount) filters on"
            head += " · \(v.shown) of \(Session.tasks(v.total)) · \(on)"
        }
        var lines = [head]
        let scores = explain || store.settings.rowDetail == .detailed
        if v.shown == 0 && p.top3.isEmpty {
            lines.append(v.total == 0 ? "No open tasks" : "Nothing matches these filters")
        } else {
            lines += sectionLines(PlanSection.top3.rawValue, p.top3, count: p.top3.count, scores: scores)
            lines += sectionLines(PlanSection.quickWins.rawValue, p.quickWins, count: p.quickWinCount, scores: scores)
            // R-PLAN-2: "All tasks" when Top 3 and Quick wins are empty.
            let restName = p.top3.isEmpty && p.quickWinCount == 0 ? "All tasks" : PlanSection.rest.rawValue
            lines += sectionLines(restName, p.rest, count: p.restCount, scores: scores)
        }
        func ids(_ rows: [PlanRow]) -> JSONValue { .array(rows.map { .number(JSONNumber($0.id)) }) }
        var members: [(String, JSONValue)] = [
            ("madeAt", .string(TimeText.isoInstant(v.snapshot.madeAt, in: zone))),
            ("top3", ids(p.top3)), ("quickWins", ids(p.quickWins)), ("rest", ids(p.rest)),
            ("more", .object(JSONObject([("quickWins", .number(JSONNumber(p.quickWinCount - p.quickWins.count))),
                                         ("rest", .number(JSONNumber(p.restCount - p.rest.count)))]))),
        ]
        if explain {
            members.append(("scores", .object(JSONObject((p.top3 + p.quickWins + p.rest).map { (String($0.id), Session.decimal($0.score, 2)) }))))
        }
        return out(lines, json: .object(JSONObject(members)), changed: changed ?? v.stored)
    }

    /// `plan by date`: the date order, overdue first, no due last (R-PLAN-1).
    func runPlanByDate(_ expr: FilterExpr?, limit: Int?, _ s: Statement) -> CommandOutput {
        let v = planView(expr, limit: 0, persist: false)
        if let e = v.failure { return .error(regexBudgetError(e, s)) }
        var input = v.input
        input.limit = limit
        let (rows, count) = SmartPlan.byDate(input)
        var head = "By date · \(Session.tasks(count))"
        if let e = v.expr { head += " of \(v.total) · " + (e.filterCount == 1 ? "1 filter on" : "\(e.filterCount) filters on") }
        var lines = [head]
        if count == 0 { lines.append(v.total == 0 ? "No open tasks" : "Nothing matches these filters") }
        lines += text.rows(tasks(rows)).map { "  " + $0 }
        if count > rows.count { lines.append("  … \(count - rows.count) more (plan by date limit N shows more)") }
        let json = JSONValue.object(JSONObject([("order", .string("date")), ("tasks", .array(rows.map { .number(JSONNumber($0.id)) })),
                                                ("more", .number(JSONNumber(count - rows.count)))]))
        return out(lines, json: json)
    }

    /// `plan refresh`: score again now and pick a new Top 3; one undo step (R-PLAN-5).
    func runPlanRefresh(_ s: Statement) -> CommandOutput {
        let before = store.plan
        let fresh = PlanSnapshot(madeAt: now, day: today, top3: [], extra: before?.extra ?? JSONObject())
        var v = planView(nil, limit: Session.planRows, snapshot: fresh, persist: false)
        v.snapshot.top3 = v.plan.top3.map(\.id)
        commit("plan refresh", [.plan(before: before, after: v.snapshot)])
        return planOutput(v, explain: false, changed: true)
    }

    // MARK: why

    func runWhy(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch resolve(ref, s, scope: .open) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        guard t.isOpen else {
            return .error(Catalog.notInPlan(t, range: ref.range, file: s.source.file, why: "only open tasks are planned"))
        }
        let v = planView(nil, limit: nil)
        guard let row = SmartPlan.row(of: t.id, in: v.input.index) else {
            return .error(Catalog.notInPlan(t, range: ref.range, file: s.source.file, why: "not in the store's columns"))
        }
        let p = v.plan
        let sections: [(PlanSection, [PlanRow])] = [(.top3, p.top3), (.quickWins, p.quickWins), (.rest, p.rest)]
        let flat = p.top3 + p.quickWins + p.rest
        guard let at = flat.firstIndex(where: { $0.id == t.id }) else {
            return .error(Catalog.notInPlan(t, range: ref.range, file: s.source.file, why: "not in any section"))
        }
        var section = PlanSection.rest
        var position = 0
        var size = 0
        var base = 0
        for (name, rows) in sections {
            if at < base + rows.count {
                section = name
                position = at - base + 1
                size = rows.count
                break
            }
            base += rows.count
        }
        let x = SmartPlan.input(of: row, v.input)
        let terms = v.input.urgency.terms(x)
        let score = v.input.urgency.score(x)
        let sectionName = section == .rest && p.top3.isEmpty && p.quickWinCount == 0 ? "All tasks" : section.rawValue
        var lines = ["\(t.id) · \(t.title) · \(sectionName), \(section == .top3 ? "seat" : "row") \(position) of \(size) · score \(Urgency.text(score))"]
        let nameWidth = terms.map(\.name.count).max() ?? 0
        for term in terms {
            var line = "  " + term.name + String(repeating: " ", count: nameWidth - term.name.count)
            line += "  " + Urgency.text(term.value, digits: 2) + " × " + UrgencyWeights.text(term.weight) + " = " + Urgency.text(term.points)
            if let note = termNote(term.name, t) { line += "  (\(note))" }
            lines.append(line)
        }
        if let h = t.heldUntil, h > today {
            lines.append("held by Not today until \(TimeText.shortDate(h)): out of Top 3 and Quick wins")
        }
        func neighbour(_ k: Int) -> String {
            guard k >= 0, k < flat.count, let n = store.task(atRow: flat[k].row) else { return "nothing" }
            return "\(n.id) · \(n.title) (score \(Urgency.text(flat[k].score)))"
        }
        lines.append("above: " + neighbour(at - 1))
        lines.append("below: " + neighbour(at + 1))
        let json = JSONValue.object(JSONObject([
            ("id", .number(JSONNumber(t.id))),
            ("score", Session.decimal(score, 2)),
            ("section", .string(sectionName)),
            ("position", .number(JSONNumber(position))),
            ("terms", .array(terms.map(Session.termJSON))),
            ("above", at > 0 ? .number(JSONNumber(flat[at - 1].id)) : .null),
            ("below", at + 1 < flat.count ? .number(JSONNumber(flat[at + 1].id)) : .null),
        ]))
        return out(lines, json: json, changed: v.stored)
    }

    /// A number rounded for JSON, as text shows it.
    static func decimal(_ x: Double, _ digits: Int) -> JSONValue {
        .number(JSONNumber(validatedText: Urgency.text(x, digits: digits)))
    }

    static func termJSON(_ term: UrgencyTerm) -> JSONValue {
        let o = JSONObject([("name", .string(term.name)), ("value", decimal(term.value, 3)),
                            ("weight", .number(JSONNumber(term.weight) ?? JSONNumber(0)))])
        return .object(o)
    }

    /// What a term stands for on this task, in a user's words.
    func termNote(_ name: String, _ t: Task) -> String? {
        switch name {
        case "due":
            guard let d = t.due else { return "no due date: ranks as if due in \(UrgencyWeights.text(store.settings.urgency.noDueDays)) days" }
            return text.rowDate(d, open: true)
        case "priority": return t.priority == .none ? nil : t.priority.name
        case "goal": return t.goal
        default: return nil
        }
    }

    // MARK: not today, back, top3

    /// The open task a reference names, for the plan's actions.
    func planTask(_ ref: TaskRef, _ s: Statement, _ what: String) -> Result<Task, Diagnostic> {
        switch resolve(ref, s, scope: .open) {
        case .failure(let d): return .failure(d)
        case .success(let t):
            guard t.isOpen else {
                return .failure(Catalog.wrongState("task \(t.id) is not open", range: ref.range, file: s.source.file,
                                                   help: "\(what) works on open tasks; 'reopen \(t.id)' opens it again"))
            }
            return .success(t)
        }
    }

    /// The Top 3 section's lines, for actions that change it (R-PLAN-7: the new picks at once).
    func top3Lines(_ v: PlanView) -> [String] {
        guard !v.plan.top3.isEmpty else { return ["Top 3 is empty: no open task to pick"] }
        return ["Top 3"] + text.rows(tasks(v.plan.top3)).map { "  " + $0 }
    }

    func runNotToday(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        // The plan of today first, so a pick that leaves is known as a pick; an error puts
        // back the snapshot as it was, so it changes nothing.
        let saved = store.plan
        let picksBefore = planView(nil, limit: 0).snapshot.top3
        let out0 = runAction(s, target, TaskAction(verb: "Not today", name: "not today") { t, step in
            guard t.isOpen else {
                return .failure(Catalog.wrongState("task \(t.id) is not open", range: target.range, file: s.source.file,
                                                   help: "Not today holds open tasks"))
            }
            // R-PLAN-6: the next day start, or seven days for a second Not today within a week;
            // the due date never moves.
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
            var line = "\(t.id) · \(t.title) · Back \(TimeText.shortDate(end).split(separator: " ").dropFirst().joined(separator: " "))"
            if end.dayNumber - self.today.dayNumber > 1 { line += " · a second Not today within a week holds it for 7 days" }
            return .success(ActionResult(line: line, json: TaskJSON.value(after, zone: self.zone)))
        })
        if out0.failed, !out0.changed { store.plan = saved }
        guard !out0.failed, out0.changed else { return out0 }
        // Top 3 can move only when a pick left it (the held task was otherwise never a
        // candidate): only then is the plan made again.
        guard store.plan?.top3 != picksBefore else { return out0 }
        let v = planView(nil, limit: 0)
        // R-PLAN-7: Not today on a pick shows the new picks at once.
        guard v.snapshot.top3 != picksBefore, format == .text else { return out0 }
        var r = out0
        r.lines += top3Lines(v)
        return r
    }

    func runBack(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch planTask(ref, s, "back") {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        let v = planView(nil, limit: 0)
        var changes: [Change] = []
        var parts = ["Back \(t.id) · \(t.title)"]
        var lines: [String] = []
        if let h = t.heldUntil, h > today {
            var after = t
            after.heldUntil = nil
            changes.append(.task(before: t, after: after))
            parts.append("Not today ended")
        }
        let seats = v.snapshot.top3
        var picked = false
        if seats.contains(t.id) {
            parts.append("in Top 3")
        } else if seats.count < 3 {
            var p = v.snapshot
            p.top3.append(t.id)
            changes.append(.plan(before: store.plan, after: p))
            parts.append("in Top 3")
            picked = true
        } else {
            // R-PLAN-7: a full Top 3 asks which pick the task replaces.
            let picks = tasks(v.plan.top3)
            lines.append("Top 3 is full: which pick does \(t.id) replace? top3 replace \(picks.first.map { String($0.id) } ?? "ID") with \(t.id)")
            lines += picks.map { "  pick: \($0.id) · \($0.title)" }
        }
        if !changes.isEmpty { commit("back \(t.id) · \(t.title)", changes) }
        // Only a new pick moves Top 3; ending a hold alone leaves the seats as they were.
        let shown = picked ? planView(nil, limit: 0) : v
        lines.insert(parts.joined(separator: " · "), at: 0)
        if picked { lines += top3Lines(shown) }
        return out(lines, json: .object(JSONObject([("back", .number(JSONNumber(t.id))),
                                                   ("top3", .array(shown.snapshot.top3.map { .number(JSONNumber($0)) }))])),
                   changed: !changes.isEmpty || v.stored)
    }

    /// `top3 …`: an error changes nothing, not even the day's first snapshot it looked at.
    func runTop3(_ s: Statement, _ edit: Top3Edit) -> CommandOutput {
        let saved = store.plan
        let r = runTop3Edit(s, edit)
        if r.failed, !r.changed { store.plan = saved }
        return r
    }

    func runTop3Edit(_ s: Statement, _ edit: Top3Edit) -> CommandOutput {
        let file = s.source.file
        let v = planView(nil, limit: 0)
        let seats = v.snapshot.top3
        var after = v.snapshot
        let summary: String
        switch edit {
        case .show:
            return out(top3Lines(v), json: .object(JSONObject([("top3", .array(seats.map { .number(JSONNumber($0)) }))])), changed: v.stored)
        case .change:
            // R-PLAN-7: new picks at once: the best open tasks that are not picks now; a pick
            // finished today keeps its seat.
            let open = Set(v.plan.top3.filter { v.input.index.isOpen($0.row) }.map(\.id))
            var input = v.input
            input.rows = input.rows.filter { !open.contains(v.input.index.ids[$0]) }
            input.picks = seats.filter { !open.contains($0) }
            input.limit = 0
            let extra = v.plan.top3.filter { !open.contains($0.id) }
            let fresh = SmartPlan.make(input, extraSeats: extra)
            guard fresh.top3.contains(where: { !seats.contains($0.id) }) else {
                return out(["No other open task to pick; Top 3 stays"] + top3Lines(v), json: .object(JSONObject([("top3", .array(seats.map { .number(JSONNumber($0)) }))])),
                           changed: v.stored)
            }
            after.top3 = fresh.top3.map(\.id)
            summary = "top3 change"
        case .add(let ref):
            let t: Task
            switch planTask(ref, s, "top3 add") {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
            if let h = t.heldUntil, h > today { return .error(Catalog.heldTask(t, until: TimeText.shortDate(h), range: ref.range, file: file)) }
            if seats.contains(t.id) { return .error(Catalog.alreadyPicked(t, range: ref.range, file: file)) }
            guard seats.count < 3 else { return .error(Catalog.top3Full(tasks(v.plan.top3), adding: t, range: ref.range, file: file)) }
            after.top3.append(t.id)
            summary = "top3 add \(t.id) · \(t.title)"
        case .replace(let oldRef, let newRef):
            let old: Task
            switch resolvePick(oldRef, s, picks: seats) {
            case .success(let x): old = x
            case .failure(let d): return .error(d)
            }
            guard let k = seats.firstIndex(of: old.id) else { return .error(Catalog.notAPick(old, range: oldRef.range, file: file, picks: seats)) }
            let t: Task
            switch planTask(newRef, s, "top3 replace") {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
            if let h = t.heldUntil, h > today { return .error(Catalog.heldTask(t, until: TimeText.shortDate(h), range: newRef.range, file: file)) }
            if seats.contains(t.id) { return .error(Catalog.alreadyPicked(t, range: newRef.range, file: file)) }
            after.top3[k] = t.id
            summary = "top3 replace \(old.id) with \(t.id) · \(t.title)"
        }
        commit(summary, [.plan(before: store.plan, after: after)])
        let shown = planView(nil, limit: 0)
        return out(top3Lines(shown), json: .object(JSONObject([("top3", .array(shown.snapshot.top3.map { .number(JSONNumber($0)) }))])), changed: true)
    }

    /// The pick a reference names (R-PLAN-7): an id, or a title matched among the picks first
    /// (open or finished today), so a pick titled like another open task is still found; two
    /// picks of one title are ambiguous, with both as candidates. A title no pick has is
    /// looked up among the open tasks, so the error says what it matches.
    func resolvePick(_ ref: TaskRef, _ s: Statement, picks: [Int]) -> Result<Task, Diagnostic> {
        guard case .title(let title, let r) = ref else { return resolve(ref, s, scope: .open) }
        let matches = picks.compactMap { store.task($0) }.filter { $0.title == title }
        if matches.count == 1, let t = matches.first { return .success(t) }
        if matches.isEmpty { return resolve(ref, s, scope: .open) }
        var d = Catalog.ambiguousTitle(title, ids: matches.map(\.id), range: r, file: s.source.file)
        d.message = "\(matches.count) Top 3 picks are titled \"\(title)\""
        let txt = text
        d.notes = matches.map { "candidate: " + txt.summary($0) }
        return .failure(d)
    }
}
