// The render stage of `agenda` (docs/AGENDA.md, R-AGENDA-1…): each account day under its
// heading, in text and JSON. Times are the account zone's wall clock at the entry's instant,
// in the `clock` setting's form, so a task due in a DST gap shows the time it happens.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What `agenda` or `plan openings` returned.
package enum AgendaOutcome {
    case agenda(Result<Agenda, RegexBudgetError>)
    case openings(PlanOpenings)
}

extension Session {
    /// The engine call of `agenda` or `plan openings`, with the connected calendars' events
    /// of the days it shows; a calendar that cannot be read is reported beside the output.
    package func act(_ r: AgendaStatementRequest) -> AgendaOutcome {
        switch r {
        case .agenda(let req):
            let last = req.first.adding(days: max(1, req.days) - 1)
            let (events, problems) = connectedEvents(first: req.first, last: last)
            warnings += problems
            do throws(RegexBudgetError) { return .agenda(.success(try engine.agenda(req, events: events))) } catch { return .agenda(.failure(error)) }
        case .openings(let n):
            let (events, problems) = connectedEvents(first: today, last: today)
            warnings += problems
            return .openings(engine.openings(per: n, events: events))
        }
    }

    package func render(_ o: AgendaOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .agenda(.failure(let e)): return .error(regexBudgetError(e, s))
        case .agenda(.success(let a)): return renderAgenda(a)
        case .openings(let p): return renderOpenings(p)
        }
    }

    /// A day's heading: `Mon Jun 15 · Today`, `Tue Jun 16 · Tomorrow`, `Wed Jun 17`.
    package func agendaHeading(_ d: CivilDate, today: CivilDate) -> String {
        let date = text.shortDate(d)
        switch today.days(until: d) {
        case 0: return date + " · Today"
        case 1: return date + " · Tomorrow"
        default: return date
        }
    }

    /// The clock time of an instant in the account zone.
    package func clockText(_ i: Instant) -> String { text.time(zone.local(at: i).time) }

    /// An event's words after its title: `until 11 AM`, `since Mon 10 PM`, `all day`.
    package func eventWhen(_ e: CalendarEvent, on day: CivilDate, _ fc: FilterContext) -> String {
        switch e.when {
        case .allDay(let a, let b):
            return a == b ? "all day" : "all day, \(text.shortDate(a)) – \(text.shortDate(b))"
        case .timed(let start, let end):
            let s = zone.local(at: start), f = zone.local(at: end)
            var parts: [String] = []
            if start < fc.start(ofDay: day.dayNumber) { parts.append("since \(text.shortDate(s.date)) \(text.time(s.time))") }
            let endsLater = end > fc.start(ofDay: day.dayNumber + 1)
            parts.append(endsLater ? "until \(text.shortDate(f.date)) \(text.time(f.time))" : "until \(text.time(f.time))")
            return parts.joined(separator: " · ")
        }
    }

    /// A task's words after its id: its title, then its marks (R-AGENDA-6: a hold's return).
    package func agendaTaskText(_ t: Task, upcoming: Bool, overdue: Bool) -> String {
        var parts = [t.title]
        if overdue, let d = t.due { parts.append(text.rowDate(d, open: true)) }
        if let h = t.heldUntil, h > today, t.isOpen, !upcoming { parts.append("Back " + TimeText.shortDate(h).split(separator: " ").dropFirst().joined(separator: " ")) }
        if let r = t.repeatRule, t.isOpen { parts.append("↻ " + r.text) }
        if upcoming { parts.append("upcoming") }
        if t.status == .done { parts.append("done") }
        return parts.joined(separator: "  ")
    }

    package func renderAgenda(_ a: Agenda) -> CommandOutput {
        guard let first = a.first, let last = a.last else { return CommandOutput() }
        let range = first == last ? text.shortDate(first) : "\(text.shortDate(first)) – \(text.shortDate(last))"
        var head = "Agenda · \(range)"
        if let f = a.filter {
            head += " · " + (f.filterCount == 1 ? "1 filter on" : "\(f.filterCount) filters on")
            head += " · \(Session.tasks(a.leftOut)) left out"
        }
        var lines = [fitted(head)]
        let fc = engine.filterContext
        if a.isEmpty {
            lines.append(a.filter == nil ? "Nothing on these days" : "Nothing on these days matches the filter: it left out \(Session.tasks(a.leftOut))")
        } else {
            // One column of times for the whole agenda.
            var width = 0
            for d in a.days { for e in d.timed { if let i = e.at { width = max(width, DisplayWidth.of(clockText(i))) } } }
            for d in a.days {
                lines.append(fitted(agendaHeading(d.date, today: a.today)))
                if d.isEmpty { lines.append("  Nothing due") }
                if d.overdueCount > 0 {
                    lines.append("  Overdue (\(d.overdueCount))")
                    lines += d.overdue.map { fitted("    \($0.id)  " + agendaTaskText($0, upcoming: false, overdue: true)) }
                    if d.overdueCount > d.overdue.count { lines.append("    … \(d.overdueCount - d.overdue.count) more (list overdue shows them)") }
                }
                if !d.dueThisDay.isEmpty {
                    lines.append("  Due this day")
                    lines += d.dueThisDay.map { fitted("    " + entryText($0, on: d.date, fc)) }
                }
                for e in d.timed {
                    let t = e.at.map(clockText) ?? ""
                    lines.append(fitted("  " + t + String(repeating: " ", count: max(0, width - DisplayWidth.of(t))) + "  " + entryText(e, on: d.date, fc)))
                }
                if !d.done.isEmpty {
                    lines.append("  Done (\(d.done.count))")
                    lines += d.done.map { fitted("    \($0.id)  " + agendaTaskText($0, upcoming: false, overdue: false)) }
                }
            }
        }
        return listing(lines, json: agendaJSON(a))
    }

    /// An entry's words: `3  Call the bank`, `7  Water plants  ↻ Every day  upcoming`,
    /// `Standup · until 11 AM · Work`.
    package func entryText(_ e: AgendaEntry, on day: CivilDate, _ fc: FilterContext) -> String {
        switch e.what {
        // A task still open on a day gone by is overdue there.
        case .task(let t): return "\(t.id)  " + agendaTaskText(t, upcoming: false, overdue: t.isOpen && day < today)
        case .upcoming(let t): return "\(t.id)  " + agendaTaskText(t, upcoming: true, overdue: false)
        case .event(let ev):
            var parts = [ev.title.isEmpty ? "(no title)" : ev.title, eventWhen(ev, on: day, fc), ev.calendar]
            if let l = ev.location, !l.isEmpty { parts.append(l) }
            return parts.joined(separator: " · ")
        }
    }

    // MARK: JSON

    /// An event as the agenda's JSON gives it (docs/AGENDA.md, "JSON").
    package func eventJSON(_ e: CalendarEvent) -> JSONValue {
        var o = JSONObject([("type", .string("event")), ("calendar", .string(e.calendar)),
                            ("uid", e.uid.map { .string($0) } ?? .null), ("title", .string(e.title))])
        switch e.when {
        case .allDay(let a, let b):
            o.members += [("allDay", .bool(true)), ("first", .string(a.iso)), ("last", .string(b.iso))]
        case .timed(let s, let f):
            o.members += [("start", .string(TimeText.isoInstant(s, in: zone))), ("end", .string(TimeText.isoInstant(f, in: zone)))]
        }
        o.members.append(("location", e.location.map { .string($0) } ?? .null))
        return .object(o)
    }

    /// A task as the agenda's JSON gives it: its output shape with `"type": "task"`; an
    /// upcoming occurrence has no id of its own (`"series"` is its task's) and `"upcoming": true`.
    package func agendaTaskJSON(_ t: Task, at: Instant?, upcoming: Bool) -> JSONValue {
        var o = JSONObject([("type", .string("task"))])
        if case .object(let v) = TaskJSON.value(t, zone: zone) { o.members += v.members }
        if upcoming {
            o["id"] = .null
            o["uid"] = .null
            o.members.append(("series", .number(JSONNumber(t.id))))
            o.members.append(("upcoming", .bool(true)))
        }
        if let at { o.members.append(("at", .string(TimeText.isoInstant(at, in: zone)))) }
        return .object(o)
    }

    package func entryJSON(_ e: AgendaEntry) -> JSONValue {
        switch e.what {
        case .task(let t): return agendaTaskJSON(t, at: e.at, upcoming: false)
        case .upcoming(let t): return agendaTaskJSON(t, at: e.at, upcoming: true)
        case .event(let ev): return eventJSON(ev)
        }
    }

    package func agendaJSON(_ a: Agenda) -> JSONValue {
        let days: [JSONValue] = a.days.map { d in
            .object(JSONObject([
                ("date", .string(d.date.iso)),
                ("heading", .string(agendaHeading(d.date, today: a.today))),
                ("overdue", .array(d.overdue.map { agendaTaskJSON($0, at: nil, upcoming: false) })),
                ("overdueCount", .number(JSONNumber(d.overdueCount))),
                ("dueThisDay", .array(d.dueThisDay.map(entryJSON))),
                ("timed", .array(d.timed.map(entryJSON))),
                ("done", .array(d.done.map { agendaTaskJSON($0, at: nil, upcoming: false) })),
            ]))
        }
        return .object(JSONObject([
            ("first", .string(a.first?.iso ?? a.today.iso)), ("last", .string(a.last?.iso ?? a.today.iso)),
            ("today", .string(a.today.iso)), ("filtered", .bool(a.filter != nil)),
            ("leftOut", .number(JSONNumber(a.leftOut))), ("empty", .bool(a.isEmpty)),
            ("days", .array(days)),
        ]))
    }
}

extension Session {
    /// Minutes as `30 min`, `2 h`, `1 h 15 min`.
    package static func duration(_ m: Int) -> String {
        let (h, r) = (m / 60, m % 60)
        if h == 0 { return "\(r) min" }
        return r == 0 ? "\(h) h" : "\(h) h \(r) min"
    }

    /// `plan openings`: today's free stretches, then each pick's suggested starts (R-AGENDA-7).
    package func renderOpenings(_ p: PlanOpenings) -> CommandOutput {
        var lines = ["Openings today · from \(clockText(p.from)) until the day ends at \(clockText(p.until))"]
        if p.free.isEmpty {
            lines.append("  No free time left today")
        } else {
            lines.append("  Free: " + p.free.map { "\(clockText($0.start))–\(clockText($0.end))" }.joined(separator: ", "))
        }
        if p.picks.isEmpty { lines.append("Top 3 is empty: no open task to pick") }
        for o in p.picks {
            lines.append("\(o.task.id)  \(o.task.title)  \(Session.duration(o.minutes))\(o.estimated ? "" : " (no estimate)")")
            if o.starts.isEmpty {
                lines.append("   No opening fits today")
            } else {
                // The autumn's repeated hour reads twice: the second says so.
                let texts = o.starts.map(clockText)
                var l = "   " + texts.enumerated().map { k, t in k > 0 && texts[k - 1] == t ? t + " again" : t }.joined(separator: ", ")
                if o.total > o.starts.count { l += " · \(o.total - o.starts.count) more" }
                lines.append(l)
            }
        }
        lines.append("Suggestions only: nothing is written")
        let z = zone
        func iso(_ i: Instant) -> JSONValue { .string(TimeText.isoInstant(i, in: z)) }
        let json = JSONValue.object(JSONObject([
            ("from", iso(p.from)), ("until", iso(p.until)),
            ("free", .array(p.free.map { .object(JSONObject([("start", iso($0.start)), ("end", iso($0.end)), ("minutes", .number(JSONNumber($0.minutes)))])) })),
            ("picks", .array(p.picks.map { o in
                .object(JSONObject([("id", .number(JSONNumber(o.task.id))), ("title", .string(o.task.title)),
                                    ("minutes", .number(JSONNumber(o.minutes))), ("estimated", .bool(o.estimated)),
                                    ("openings", .array(o.starts.map(iso))), ("more", .number(JSONNumber(o.total - o.starts.count)))]))
            })),
        ]))
        return out(lines, json: json)
    }
}
