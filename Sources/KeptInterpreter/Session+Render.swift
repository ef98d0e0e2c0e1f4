// The render stage (docs/ARCHITECTURE.md): what the engine returned, as text or JSON in the
// session's format. An action's outcome (one task, unchanged, or a bulk action's results), the
// due groups, plan numbers, and the escaping every statement's text gets. The engine's errors
// are rendered by Session+DomainErrors.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// How one action's results read: the verb that starts each line, and each result's line and JSON.
package struct ActionText<R> {
    package var verb: String
    /// The action as a bulk action's JSON names it (`complete`, `set priority`).
    package var name: String
    package var line: (R) -> String
    package var json: (R) -> JSONValue
}

extension Session {
    /// What a statement prints, as it reaches a terminal or a transcript: in text, control
    /// characters of user text are escaped here, once for every statement (DisplayText); JSON
    /// keeps the text as it is, and so does a file's text (CommandOutput.verbatim). Diagnostics
    /// escape their own text (Diagnostic.init).
    /// JSON is pretty-printed here when the session asks for it.
    package func displayed(_ r: CommandOutput) -> CommandOutput {
        if format == .json, display.prettyJSON, !r.verbatim {
            var o = r
            o.lines = r.lines.flatMap { line -> [String] in
                guard let v = try? JSONParser.parse(line) else { return [line] }
                return JSONWriter.pretty(v).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            }
            return o
        }
        guard format == .text, !r.verbatim else { return r }
        var o = r
        o.lines = r.styled ? r.lines.map(Session.escapedKeepingColor) : r.lines.map(DisplayText.escaped)
        if var q = r.confirmation {
            q.question = DisplayText.escaped(q.question)
            q.details = q.details.map(DisplayText.escaped)
            q.declined = q.declined.map(DisplayText.escaped)
            o.confirmation = q
        }
        return o
    }

    /// A coloured line escaped for display: its SGR sequences (`ESC [ digits ; … m`) stay, and
    /// everything between them is escaped as any text is.
    package static func escapedKeepingColor(_ line: String) -> String {
        guard line.utf8.contains(0x1B) else { return DisplayText.escaped(line) }
        var out = ""
        var rest = Substring(line)
        while let esc = rest.firstIndex(of: "\u{1B}") {
            out += DisplayText.escaped(String(rest[..<esc]))
            let after = rest[rest.index(after: esc)...]
            var k = after.startIndex
            if k < after.endIndex, after[k] == "[" {
                k = after.index(after: k)
                while k < after.endIndex, after[k].isASCII, after[k].isNumber || after[k] == ";" { k = after.index(after: k) }
                if k < after.endIndex, after[k] == "m" {
                    out += String(rest[esc...k])
                    rest = rest[rest.index(after: k)...]
                    continue
                }
            }
            out += DisplayText.escaped("\u{1B}")
            rest = after
        }
        return out + DisplayText.escaped(String(rest))
    }

    /// What a statement prints, made in the session's format only: its lines in text, its
    /// value in JSON. A comma list's sections are put together from these.
    package struct Rendered {
        package var lines: [String] = []
        package var json: JSONValue = .null
    }

    package func rendered(_ text: @autoclosure () -> [String], json: @autoclosure () -> JSONValue) -> Rendered {
        format == .text ? Rendered(lines: text()) : Rendered(json: json())
    }

    package func out(_ r: Rendered, changed: Bool = false) -> CommandOutput {
        out(r.lines, json: r.json, changed: changed)
    }

    /// One line of output, text or JSON by the format.
    package func out(_ text: @autoclosure () -> [String], json: @autoclosure () -> JSONValue, changed: Bool = false) -> CommandOutput {
        switch format {
        case .text: return CommandOutput(lines: text(), changed: changed)
        case .json: return CommandOutput(lines: [JSONWriter.compact(json())], changed: changed)
        }
    }

    /// The output of what the engine returned for a statement.
    package func render(_ a: Acted, _ s: Statement) -> CommandOutput {
        switch a {
        case .action(let o): return render(o, s)
        case .repeatDate(let o):
            guard case .repeatDates(let e) = s.kind else { return CommandOutput() }
            return render(o, e, s)
        case .reminder(let o): return render(o, s)
        case .undone(let steps): return renderUndone(steps)
        case .redone(let steps): return renderRedone(steps)
        // Edits, Plan, Structure, Tasks, Capture
        case .edited(let o): return render(edit: o, s)
        case .planned(let o): return render(o, s)
        case .captured(let o): return render(o, s)
        case .structured(let o): return render(o, s)
        case .shown(let t, let f): return renderShow(t, f)
        // Query, Repeat, SavedFilters, Settings, Interop
        case .repeatRule(let o): return render(o, s)
        case .settings(let o): return render(o)
        case .savedFilter(let o): return render(o, s)
        case .interop(let o): return render(o, s)
        case .query(let o): return render(o, s)
        // Sync
        case .sync(let o): return render(o, s)
        // Agenda
        case .agenda(let o): return render(o, s)
        case .calendar(let o): return render(o)
        }
    }

    /// The diagnostic of the engine's error for a statement, at the words it is about.
    package func render(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .repeatDates(let edit): return render(e, edit, s)
        case .remind, .unremind, .reminders: return reminderError(e, s)
        case .undo, .redo: return diagnostic(e, s, at: s.keywordRange)
        // Edits, Plan, Structure, Tasks, Capture
        case .setField, .tag, .step, .comment, .link: return editError(e, s)
        case .plan, .why, .notToday, .back, .top3: return planError(e, s)
        case .add, .capture, .parse, .date, .explainDate: return captureError(e, s)
        case .subtask, .projectAdd, .projectRename, .projectArchive, .projectDelete, .projectStatuses, .projects: return structureError(e, s)
        // Query, Repeat, SavedFilters, Settings, Interop
        case .setting(_, let value?): return diagnostic(e, s, at: value.range)
        case .filterDefine, .filterStar, .filterDelete, .filterRename, .filterMove: return savedFilterError(e, s)
        case .calendar: return calendarError(e, s)
        default: return actionError(e, s)
        }
    }

    /// The text and JSON of an action's outcome.
    package func render<R>(_ o: Outcome<R>, _ t: ActionText<R>, _ s: Statement, _ target: TaskTarget) -> CommandOutput {
        switch o {
        case .done(let r): return out(["\(t.verb) \(t.line(r))"], json: t.json(r), changed: true)
        case .unchanged(let task):
            return out(["Unchanged \(task.id) · \(task.title)"], json: .object(JSONObject([("unchanged", TaskJSON.value(task, zone: zone))])))
        case .bulk(let b):
            let where_: String
            if case .filter(let f) = target { where_ = "where " + s.source.rawText(f.range) } else { where_ = "" }
            let skippedJSON = JSONValue.array(b.skipped.map { .object(JSONObject([("id", .number(JSONNumber($0.task.id))),
                                                                                   ("reason", .string(diagnostic($0.error, s, at: target.range).message))])) })
            guard !b.empty else {
                return out(["Nothing matches \(where_); nothing changed"],
                           json: .object(JSONObject([("bulk", .string(t.name)), ("results", .array([])), ("skipped", .array([]))])))
            }
            // R-TASK-5: a bulk action prints everything it changed, and is one step.
            var lines = ["\(t.verb) \(Session.tasks(b.done.count)) \(where_):"]
            if b.done.isEmpty { lines = ["Nothing changed \(where_)"] }
            lines += b.done.map { "  " + t.line($0) }
            lines += b.skipped.map { "  skipped \($0.task.id) · \($0.task.title): \(diagnostic($0.error, s, at: target.range).message)" }
            if b.unchanged > 0 { lines.append("  \(Session.tasks(b.unchanged)) already so") }
            let json = JSONValue.object(JSONObject([
                ("bulk", .string(t.name)), ("results", .array(b.done.map(t.json))), ("skipped", skippedJSON),
            ]))
            return out(lines, json: json, changed: b.changed)
        }
    }

    package static func tasks(_ n: Int) -> String { n == 1 ? "1 task" : "\(n) tasks" }

    /// `{"updated": task}`, the JSON of most edits.
    package func updatedJSON(_ t: Task) -> JSONValue { .object(JSONObject([("updated", TaskJSON.value(t, zone: zone))])) }

    /// The groups as text: a header with its count, then its rows, all in one layout
    /// (R-VIEW-8), or in `layout` when the listing has more rows than these.
    package func grouped(_ tasks: [Task], layout given: RowLayout? = nil) -> [String] {
        let txt = text
        let groups = engine.dueGroups(tasks)
        let l = given ?? rowLayout([(tasks, 2)])
        return groups.flatMap { g in [fitted("\(g.group.title) (\(g.tasks.count))")] + txt.rows(g.tasks, layout: l, indent: 2) }
    }

    /// One layout for the rows of a listing, at the session's width and colour in text.
    package func rowLayout(_ blocks: [(tasks: [Task], indent: Int)], scores: Bool = false) -> RowLayout {
        text.layout(blocks, scores: scores, width: format == .text ? currentWidth : nil, color: format == .text && display.color)
    }

    /// The width listings fit now: the terminal's as it is, or the one set.
    package var currentWidth: Int? { measureWidth?() ?? display.width }

    /// A line of a listing that is not a row (a heading, a count), cut to the width.
    package func fitted(_ line: String) -> String {
        guard format == .text, let w = currentWidth else { return line }
        let shown = DisplayText.escaped(line)
        return DisplayWidth.of(shown) > w ? DisplayWidth.truncated(shown, to: w) : line
    }

    /// A listing's output, marked as coloured when its rows are.
    package func listing(_ lines: [String], json: @autoclosure () -> JSONValue, changed: Bool = false) -> CommandOutput {
        var o = out(lines, json: json(), changed: changed)
        o.styled = format == .text && display.color
        o.fittedTo = format == .text ? currentWidth : nil
        return o
    }

    /// The groups as JSON: `[{"group": "overdue", "title": "Overdue", "tasks": [ids]}…]`.
    package func groupsJSON(_ tasks: [Task]) -> JSONValue {
        .array(engine.dueGroups(tasks).map { g in
            .object(JSONObject([("group", .string(g.group.rawValue)), ("title", .string(g.group.title)),
                                ("tasks", .array(g.tasks.map { .number(JSONNumber($0.id)) }))]))
        })
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
}
