// The render stage of the plan statements (R-PLAN-1…7, docs/PLAN.md). The plan is computed
// on the store's columns; only the rows printed are built as tasks.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a plan statement did, as the engine returned it.
package enum PlanningOutcome {
    case plan(PlanView, explain: Bool)
    /// The rows `plan by date` prints, in order, with how many there are.
    case byDate(Result<PlanByDate, RegexBudgetError>)
    case refreshed(PlanView)
    case why(Task, PlanPlace)
    /// The holds, and the new picks when a pick was held.
    case notToday(Outcome<Hold>, top3: PlanView?)
    case back(Back)
    case top3(PlanView)
    /// `top3 change` with no other task to pick: the picks as they stay.
    case top3Kept(PlanView)
    /// The picks after `top3 change`, `add` or `replace`.
    case top3Changed(PlanView)
}

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

    /// The lines of a section: its heading, its rows and how many more it holds, in the
    /// plan's one layout (R-VIEW-8).
    package func sectionLines(_ name: String, _ rows: [PlanRow], _ ts: [Task], count: Int, scores: Bool, layout: RowLayout) -> [String] {
        guard count > 0 else { return [] }
        var lines = [name] + text.rows(ts, scores: scores ? rows.map(\.score) : nil, layout: layout, indent: 2)
        if count > rows.count { lines.append(fitted("  … \(count - rows.count) more (plan limit N shows more)")) }
        return lines
    }

    /// The output of a plan statement.
    package func render(_ o: PlanningOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .plan(let v, let explain):
            if let e = v.failure { return .error(regexBudgetError(e, s)) }
            return planOutput(v, explain: explain)
        case .byDate(.success(let v)): return renderPlanByDate(v)
        case .byDate(.failure(let e)): return .error(regexBudgetError(e, s))
        // `plan refresh`: one undo step (R-PLAN-5).
        case .refreshed(let v): return planOutput(v, explain: false, changed: true)
        case .why(let t, let w): return renderWhy(t, w)
        case .notToday(let r, let newTop3):
            guard case .notToday(let target) = s.kind else { return CommandOutput() }
            return renderNotToday(r, newTop3, s, target)
        case .back(let b): return renderBack(b)
        case .top3(let v): return listing(top3Lines(v), json: top3JSON(v), changed: v.stored)
        case .top3Kept(let v): return listing(["No other open task to pick; Top 3 stays"] + top3Lines(v), json: top3JSON(v), changed: v.stored)
        case .top3Changed(let v): return listing(top3Lines(v), json: top3JSON(v), changed: true)
        }
    }

    /// The diagnostic of a plan statement's engine error: at the task it is about; a pick
    /// `top3 replace` cannot replace at the pick.
    package func planError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .why(let ref), .back(let ref): return diagnostic(e, s, at: ref.range)
        case .notToday(let target): return diagnostic(e, s, at: target.range)
        case .top3(.add(let ref)): return diagnostic(e, s, at: ref.range)
        case .top3(.replace(let oldRef, let newRef)):
            if case .notAPick = e { return diagnostic(e, s, at: oldRef.range) }
            return diagnostic(e, s, at: newRef.range)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }

    /// The text and JSON of a Smart plan (R-PLAN-2, R-PLAN-4).
    package func planOutput(_ v: PlanView, explain: Bool, changed: Bool? = nil) -> CommandOutput {
        let p = v.plan
        var head = explain ? "Smart plan with scores · as of \(madeText(v.snapshot))" : "Smart follows your plan · updated \(madeText(v.snapshot))"
        if let e = v.expr {
            let on = e.filterCount == 1 ? "1 filter on" : "\(e.filterCount) filters on"
            head += " · \(v.shown) of \(Session.tasks(v.total)) · \(on)"
        }
        var lines = [fitted(head)]
        let scores = explain || store.settings.rowDetail == .detailed
        if v.shown == 0 && p.top3.isEmpty {
            lines.append(v.total == 0 ? "No open tasks" : "Nothing matches these filters")
        } else {
            let (top3, quick, rest) = (tasks(p.top3), tasks(p.quickWins), tasks(p.rest))
            let l = rowLayout([(top3, 2), (quick, 2), (rest, 2)], scores: scores)
            lines += sectionLines(PlanSection.top3.rawValue, p.top3, top3, count: p.top3.count, scores: scores, layout: l)
            lines += sectionLines(PlanSection.quickWins.rawValue, p.quickWins, quick, count: p.quickWinCount, scores: scores, layout: l)
            // R-PLAN-2: "All tasks" when Top 3 and Quick wins are empty.
            let restName = p.top3.isEmpty && p.quickWinCount == 0 ? "All tasks" : PlanSection.rest.rawValue
            lines += sectionLines(restName, p.rest, rest, count: p.restCount, scores: scores, layout: l)
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
        return listing(lines, json: .object(JSONObject(members)), changed: changed ?? v.stored)
    }

    /// `plan by date`: the date order, overdue first, no due last (R-PLAN-1).
    package func renderPlanByDate(_ v: PlanByDate) -> CommandOutput {
        let count = v.count
        let ts = v.tasks
        var head = "By date · \(Session.tasks(count))"
        if let e = v.expr { head += " of \(v.total) · " + (e.filterCount == 1 ? "1 filter on" : "\(e.filterCount) filters on") }
        var lines = [fitted(head)]
        if count == 0 { lines.append(v.total == 0 ? "No open tasks" : "Nothing matches these filters") }
        lines += text.rows(ts, layout: rowLayout([(ts, 2)]), indent: 2)
        if count > ts.count { lines.append(fitted("  … \(count - ts.count) more (plan by date limit N shows more)")) }
        let json = JSONValue.object(JSONObject([("order", .string("date")), ("tasks", .array(ts.map { .number(JSONNumber($0.id)) })),
                                                ("more", .number(JSONNumber(count - ts.count)))]))
        return listing(lines, json: json)
    }

    // MARK: why

    /// `why ID`: the task's place in the plan and the terms of its score.
    package func renderWhy(_ t: Task, _ w: PlanPlace) -> CommandOutput {
        var lines = ["\(t.id) · \(t.title) · \(w.sectionName), \(w.section == .top3 ? "seat" : "row") \(w.position) of \(w.size) · score \(Urgency.text(w.score))"]
        let nameWidth = w.terms.map(\.name.count).max() ?? 0
        for term in w.terms {
            var line = "  " + term.name + String(repeating: " ", count: nameWidth - term.name.count)
            line += "  " + Urgency.text(term.value, digits: 2) + " × " + UrgencyWeights.text(term.weight) + " = " + Urgency.text(term.points)
            if let note = termNote(term.name, t) { line += "  (\(note))" }
            lines.append(line)
        }
        if let h = w.heldUntil {
            lines.append("held by Not today until \(TimeText.shortDate(h)): out of Top 3 and Quick wins")
        }
        func neighbour(_ n: PlanNeighbour?) -> String {
            guard let n, let task = n.task else { return "nothing" }
            return "\(task.id) · \(task.title) (score \(Urgency.text(n.score)))"
        }
        lines.append("above: " + neighbour(w.above))
        lines.append("below: " + neighbour(w.below))
        // R-PLAN-8: the plan is the snapshot (R-PLAN-5): when it was made, and how to make it again.
        let made = madeText(w.snapshot)
        if let pick = w.outscoredPick, let task = pick.task {
            lines.append("Top 3 pick \(task.id) · \(task.title) scores \(Urgency.text(pick.score)), less than this task: "
                         + "Top 3 was picked at \(made) and is held for the day")
        }
        lines.append("plan of \(made) · Top 3 held until the next day starts · 'plan refresh' picks again")
        let json = JSONValue.object(JSONObject([
            ("id", .number(JSONNumber(t.id))),
            ("score", Session.decimal(w.score, 2)),
            ("section", .string(w.sectionName)),
            ("position", .number(JSONNumber(w.position))),
            ("terms", .array(w.terms.map(Session.termJSON))),
            ("above", w.above.map { .number(JSONNumber($0.id)) } ?? .null),
            ("below", w.below.map { .number(JSONNumber($0.id)) } ?? .null),
            ("madeAt", .string(TimeText.isoInstant(w.snapshot.madeAt, in: zone))),
            ("top3", .array(w.snapshot.top3.map { .number(JSONNumber($0)) })),
            ("outscoredPick", w.outscoredPick.map { .number(JSONNumber($0.id)) } ?? .null),
        ]))
        return out(lines, json: json, changed: w.stored)
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
        let ts = tasks(v.plan.top3)
        return ["Top 3"] + text.rows(ts, layout: rowLayout([(ts, 2)]), indent: 2)
    }

    package func top3JSON(_ v: PlanView) -> JSONValue {
        .object(JSONObject([("top3", .array(v.snapshot.top3.map { .number(JSONNumber($0)) }))]))
    }

    /// The holds of `not today`, then the new picks when a pick was held.
    package func renderNotToday(_ r: Outcome<Hold>, _ newTop3: PlanView?, _ s: Statement, _ target: TaskTarget) -> CommandOutput {
        let z = zone
        let today = self.today
        let t = ActionText<Hold>(verb: "Not today", name: "not today", line: { h in
            var line = "\(h.task.id) · \(h.task.title) · Back \(TimeText.shortDate(h.until).split(separator: " ").dropFirst().joined(separator: " "))"
            if h.until.dayNumber - today.dayNumber > 1 { line += " · a second Not today within a week holds it for 7 days" }
            return line
        }) { TaskJSON.value($0.task, zone: z) }
        var o = render(r, t, s, target)
        // R-PLAN-7: Not today on a pick shows the new picks at once.
        if let v = newTop3, format == .text, !o.failed {
            o.lines += top3Lines(v)
            o.styled = display.color
            o.fittedTo = currentWidth
        }
        return o
    }

    /// `back ID`: what ended, and the picks when it was picked.
    package func renderBack(_ b: Back) -> CommandOutput {
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
        return listing(lines, json: .object(JSONObject([("back", .number(JSONNumber(b.task.id))),
                                                   ("top3", .array(b.view.snapshot.top3.map { .number(JSONNumber($0)) }))])),
                   changed: b.endedHold || b.picked || b.view.stored)
    }
}
