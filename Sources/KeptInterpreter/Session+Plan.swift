// The plan statements (R-PLAN-1…7, docs/PLAN.md): plan, plan by date, plan refresh, explain
// plan, why, not today, back and top3. The plan is computed on the store's columns; only the
// rows printed are built as tasks.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// How many rows of Quick wins and of the rest `plan` prints without `limit`.
    package static let planRows = 20

    package func planView(_ expr: FilterExpr?, limit: Int?) -> PlanView { engine.planView(expr, limit: limit) }

    /// Tasks of plan rows, built one by one.
    package func tasks(_ rows: [PlanRow]) -> [Task] {
        rows.compactMap { store.task(atRow: $0.row) }
    }

    /// `updated 7:42 AM` of the snapshot (R-PLAN-5).
    package func madeText(_ snap: PlanSnapshot) -> String {
        let l = zone.local(at: snap.madeAt)
        let t = TimeText.time(l.time, store.settings.day.hourCycle)
        return l.date == today ? t : "\(TimeText.shortDate(l.date)) \(t)"
    }

    /// The lines of a section: its heading, its rows and how many more it holds.
    package func sectionLines(_ name: String, _ rows: [PlanRow], count: Int, scores: Bool) -> [String] {
        guard count > 0 else { return [] }
        let ts = tasks(rows)
        var lines = [name] + text.rows(ts, scores: scores ? rows.map(\.score) : nil).map { "  " + $0 }
        if count > rows.count { lines.append("  … \(count - rows.count) more (plan limit N shows more)") }
        return lines
    }

    package func runPlan(_ s: Statement, _ r: PlanRequest) -> CommandOutput {
        if r.refresh { return runPlanRefresh(s) }
        let expr: FilterExpr?
        switch bindFilter(r.filter, s) {
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
    package func planOutput(_ v: PlanView, explain: Bool, changed: Bool? = nil) -> CommandOutput {
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
    package func runPlanByDate(_ expr: FilterExpr?, limit: Int?, _ s: Statement) -> CommandOutput {
        let v = engine.planView(expr, limit: 0, persist: false)
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
    package func runPlanRefresh(_ s: Statement) -> CommandOutput {
        planOutput(engine.refreshPlan(limit: Session.planRows), explain: false, changed: true)
    }

    // MARK: why

    package func runWhy(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
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
    package static func decimal(_ x: Double, _ digits: Int) -> JSONValue {
        .number(JSONNumber(validatedText: Urgency.text(x, digits: digits)))
    }

    package static func termJSON(_ term: UrgencyTerm) -> JSONValue {
        let o = JSONObject([("name", .string(term.name)), ("value", decimal(term.value, 3)),
                            ("weight", .number(JSONNumber(term.weight) ?? JSONNumber(0)))])
        return .object(o)
    }

    /// What a term stands for on this task, in a user's words.
    package func termNote(_ name: String, _ t: Task) -> String? {
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

    /// The Top 3 section's lines, for actions that change it (R-PLAN-7: the new picks at once).
    package func top3Lines(_ v: PlanView) -> [String] {
        guard !v.plan.top3.isEmpty else { return ["Top 3 is empty: no open task to pick"] }
        return ["Top 3"] + text.rows(tasks(v.plan.top3)).map { "  " + $0 }
    }

    package func top3JSON(_ v: PlanView) -> JSONValue {
        .object(JSONObject([("top3", .array(v.snapshot.top3.map { .number(JSONNumber($0)) }))]))
    }

    package func runNotToday(_ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let z = zone
        let today = self.today
        var newTop3: PlanView? = nil
        let t = ActionText<Hold>(verb: "Not today", name: "not today", line: { h in
            var line = "\(h.task.id) · \(h.task.title) · Back \(TimeText.shortDate(h.until).split(separator: " ").dropFirst().joined(separator: " "))"
            if h.until.dayNumber - today.dayNumber > 1 { line += " · a second Not today within a week holds it for 7 days" }
            return line
        }) { TaskJSON.value($0.task, zone: z) }
        var o = act(s, target, t) { (sel) throws(DomainError) in
            let r = try engine.notToday(sel)
            newTop3 = r.top3
            return r.outcome
        }
        // R-PLAN-7: Not today on a pick shows the new picks at once.
        if let v = newTop3, format == .text, !o.failed { o.lines += top3Lines(v) }
        return o
    }

    package func runBack(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch resolve(ref, s, scope: .open) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        let b: Back
        do { b = try engine.back(t.id) } catch { return .error(diagnostic(error, s, at: ref.range)) }
        var parts = ["Back \(b.task.id) · \(b.task.title)"]
        if b.endedHold { parts.append("Not today ended") }
        if b.inTop3 { parts.append("in Top 3") }
        var lines = [parts.joined(separator: " · ")]
        if let picks = b.full {
            // R-PLAN-7: a full Top 3 asks which pick the task replaces.
            lines.append("Top 3 is full: which pick does \(b.task.id) replace? top3 replace \(picks.first.map { String($0.id) } ?? "ID") with \(b.task.id)")
            lines += picks.map { "  pick: \($0.id) · \($0.title)" }
        }
        if b.picked { lines += top3Lines(b.view) }
        return out(lines, json: .object(JSONObject([("back", .number(JSONNumber(b.task.id))),
                                                   ("top3", .array(b.view.snapshot.top3.map { .number(JSONNumber($0)) }))])),
                   changed: b.endedHold || b.picked || b.view.stored)
    }

    /// `top3 …`: an error changes nothing, not even the day's first snapshot it looked at.
    package func runTop3(_ s: Statement, _ edit: Top3Edit) -> CommandOutput {
        switch edit {
        case .show:
            let v = engine.top3()
            return out(top3Lines(v), json: top3JSON(v), changed: v.stored)
        case .change:
            guard let v = engine.changeTop3() else {
                let v = engine.top3()
                return out(["No other open task to pick; Top 3 stays"] + top3Lines(v), json: top3JSON(v), changed: v.stored)
            }
            return out(top3Lines(v), json: top3JSON(v), changed: true)
        case .add(let ref):
            let t: Task
            switch resolve(ref, s, scope: .open) {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
            do {
                let v = try engine.addToTop3(t.id)
                return out(top3Lines(v), json: top3JSON(v), changed: true)
            } catch {
                return .error(diagnostic(error, s, at: ref.range))
            }
        case .replace(let oldRef, let newRef):
            // The picks as the plan would seat them, without storing a snapshot yet.
            let picks = engine.planView(nil, limit: 0, persist: false).plan.top3.map(\.id)
            let old: Task
            switch resolvePick(oldRef, s, picks: picks) {
            case .success(let x): old = x
            case .failure(let d): return .error(d)
            }
            let t: Task
            switch resolve(newRef, s, scope: .open) {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
            do {
                let v = try engine.replaceInTop3(old.id, with: t.id)
                return out(top3Lines(v), json: top3JSON(v), changed: true)
            } catch {
                if case .notAPick = error { return .error(diagnostic(error, s, at: oldRef.range)) }
                return .error(diagnostic(error, s, at: newRef.range))
            }
        }
    }

    /// The pick a reference names (R-PLAN-7): an id, or a title matched among the picks first
    /// (open or finished today), so a pick titled like another open task is still found; two
    /// picks of one title are ambiguous, with both as candidates. A title no pick has is
    /// looked up among the open tasks, so the error says what it matches.
    package func resolvePick(_ ref: TaskRef, _ s: Statement, picks: [Int]) -> Result<Task, Diagnostic> {
        guard case .title(let title, let r) = ref else { return resolve(ref, s, scope: .open) }
        let matches = picks.compactMap { store.task($0) }.filter { $0.title == title }
        if matches.count == 1, let t = matches.first { return .success(t) }
        if matches.isEmpty { return resolve(ref, s, scope: .open) }
        let txt = text
        return .failure(Catalog.ambiguousTitle(title, among: .picks, ids: matches.map(\.id), candidates: matches.map(txt.summary),
                                               range: r, file: s.source.file))
    }
}
