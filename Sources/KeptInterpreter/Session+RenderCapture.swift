// The render stage of the capture statements (R-CAP-1…6): the line of a filed task, what
// parse read token by token, and a resolved date with, for explain date, its rule and clock.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a capture statement did.
package enum CaptureOutcome {
    case added(Task)
    case parsed(TaskDraft)
    case date(ResolvedDate, explain: Bool)
}

extension Session {
    /// The output of a capture statement.
    package func render(_ o: CaptureOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .added(let t): return renderAdded(t)
        case .parsed(let d): return parseOutput(d)
        case .date(let r, let explain):
            switch s.kind {
            case .date(let phrase), .explainDate(let phrase): return renderDate(r, phrase, explain: explain)
            default: return CommandOutput()
            }
        }
    }

    /// `Added 4 · Pay rent · +Home · #bills`.
    package func renderAdded(_ t: Task) -> CommandOutput {
        var parts = [text.summary(t)]
        if let p = t.project { parts.append("+" + p) }
        if !t.tags.isEmpty { parts.append(t.tags.map { "#" + $0 }.joined(separator: " ")) }
        return out(["Added " + parts.joined(separator: " · ")],
                   json: .object(JSONObject([("added", TaskJSON.value(t, zone: zone))])), changed: true)
    }

    /// The diagnostic of the engine's error about a filed line, at the token it is about. The
    /// line is read again for where its tokens are: checking a draft does not move them.
    package func addError(_ e: DomainError, _ s: Statement, _ line: TextArg, natural: Bool) -> Diagnostic {
        guard case .success(let d) = QuickAdd.parse(line.text, in: dateContext, natural: natural) else { return diagnostic(e, s, at: line.range) }
        return diagnostic(e, s, at: draftRange(e, d, line))
    }

    /// The diagnostic of a capture statement's engine error.
    package func captureError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .add(let line): return addError(e, s, line, natural: false)
        case .capture(let line): return addError(e, s, line, natural: true)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }

    package func parseOutput(_ d: TaskDraft) -> CommandOutput {
        let txt = text
        let json = JSONValue.object(JSONObject([
            ("title", .string(d.title)),
            ("due", TaskJSON.due(d.due)),
            ("repeat", repeatJSON(d)),
            ("priority", .string((d.priority ?? .none).name)),
            ("project", d.project.map { .string($0) } ?? .null),
            ("tags", .array(d.tags.map { .string($0) })),
            ("notes", .array(d.notes.map { .string($0) })),
            ("start", TaskJSON.due(d.start)),
            ("status", d.status.map { .string($0) } ?? .null),
            ("parent", d.parent.map { .number(JSONNumber($0)) } ?? .null),
            ("tokens", .array(d.tokens.map { t in
                .object(JSONObject([("kind", .string(t.kind.rawValue)), ("start", .number(JSONNumber(t.start))),
                                    ("end", .number(JSONNumber(t.end))), ("text", .string(t.text))]))
            })),
            ("completion", d.completion.map { c in .object(JSONObject([("typed", .string(c.typed)), ("completed", .string(c.completed))])) } ?? .null),
        ]))
        guard format == .text else { return out([], json: json) }
        var rows: [(String, String)] = [("title", d.title.isEmpty ? "(none)" : d.title)]
        if let due = d.due { rows.append(("due", txt.longDue(due))) }
        if let st = d.start { rows.append(("start", txt.longDue(st))) }
        if let r = d.repeatRule { rows.append(("repeat", r.text(anchor: d.due?.date ?? today))) }
        if let p = d.priority { rows.append(("priority", p.name)) }
        if let p = d.project { rows.append(("project", p)) }
        if !d.tags.isEmpty { rows.append(("tags", d.tags.map { "#" + $0 }.joined(separator: " "))) }
        if !d.notes.isEmpty { rows.append(("notes", d.notes.map { "[[\($0)]]" }.joined(separator: " "))) }
        if let st = d.status { rows.append(("status", st)) }
        if let p = d.parent { rows.append(("parent", String(p))) }
        var lines = rows.map { $0.0.padding(9) + " " + $0.1 }
        if !d.tokens.isEmpty {
            lines.append("tokens")
            let kw = d.tokens.map { $0.kind.rawValue.count }.max() ?? 0
            let ranges = d.tokens.map { "\($0.start)..<\($0.end)" }
            let rw = ranges.map(\.count).max() ?? 0
            let tw = d.tokens.map { $0.text.count }.max() ?? 0
            for (k, t) in d.tokens.enumerated() {
                let value = tokenValue(t, d, txt)
                var l = "  " + t.kind.rawValue.padding(kw) + "  " + ranges[k].padding(rw) + "  " + t.text
                if !value.isEmpty { l = l.padding(2 + kw + 2 + rw + 2 + tw) + "  " + value }
                lines.append(l)
            }
        }
        if let c = d.completion { lines.append("completion  \(c.typed) → \(c.completed)") }
        return CommandOutput(lines: lines)
    }

    package func repeatJSON(_ d: TaskDraft) -> JSONValue {
        guard let r = d.repeatRule else { return .null }
        let anchor = r.from ?? d.due?.date ?? today
        return .object(JSONObject([("text", .string(r.text(anchor: anchor))),
                                   ("rrule", (try? r.rrule(anchor: anchor, weekStart: weekStart).get()).map { .string($0) } ?? .null)]))
    }

    /// What a token resolved to, in words, for `parse`.
    package func tokenValue(_ t: CaptureToken, _ d: TaskDraft, _ txt: TaskText) -> String {
        switch t.kind {
        case .date: return d.due.map(txt.longDue) ?? ""
        case .start: return d.start.map(txt.longDue) ?? ""
        case .repeat: return d.repeatRule?.text(anchor: d.due?.date ?? today) ?? ""
        case .priority: return d.priority?.name ?? ""
        case .project: return d.project ?? ""
        case .tag: return String(t.text.dropFirst())
        case .note: return String(t.text.dropFirst(2).dropLast(2))
        case .status: return d.status ?? ""
        case .parent: return d.parent.map { "task \($0)" } ?? ""
        }
    }

    /// `date` and `explain date`: the date, and for explain its rule and the clock it used.
    package func renderDate(_ r: ResolvedDate, _ phrase: TextArg, explain: Bool) -> CommandOutput {
        let txt = text
        var json = JSONObject([("date", .string(r.due.date.iso)), ("time", r.due.time.map { .string($0.iso) } ?? .null)])
        guard explain else { return out([txt.longDue(r.due)], json: .object(json)) }
        // The explanation's text, as fields: the phrase, the rule, and the clock, zone, day
        // start and week start it used.
        json["phrase"] = .string(phrase.text)
        json["rule"] = .string(r.rule)
        json["now"] = .string(TimeText.isoInstant(now, in: zone))
        json["zone"] = .string(zone.identifier)
        json["today"] = .string(today.iso)
        json["dayStart"] = .string(store.settings.day.dayStart.iso)
        json["weekStart"] = .string(store.settings.day.weekStart.name.lowercased())
        let n = nowLocal
        let context = "now \(TimeText.longDate(n.date)) \(TimeText.time(n.time, store.settings.day.hourCycle)) \(zone.identifier)"
            + " · today \(TimeText.shortDate(today)) · day starts \(store.settings.day.dayStart.iso)"
            + " · week starts \(store.settings.day.weekStart.name.lowercased())"
        return out(["\(phrase.text) → \(txt.longDue(r.due))", "  because \(r.rule)", "  \(context)"], json: .object(json))
    }
}

extension String {
    /// Pads with spaces to a width in characters.
    package func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}
