// The task statements: add, show, list, complete, reopen, delete and set on a field.

extension Session {
    func runShow(_ s: Statement, _ ref: TaskRef, _ field: TextArg?) -> CommandOutput {
        let t: Task
        switch resolve(ref, s) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        let txt = text
        guard let field else {
            return out(detail(t, txt), json: TaskJSON.value(t, zone: zone))
        }
        guard let f = TaskField(rawValue: field.text.lowercased()) else {
            let tok = Token(kind: .word, text: field.text, range: field.range)
            return .error(Catalog.unknownField(tok, file: s.source.file, candidates: TaskField.allCases.map(\.rawValue)))
        }
        let value = fieldText(t, f, txt)
        let json: JSONValue
        switch f {
        // Fields outside the task shape of LANGUAGE.md.
        case .description: json = t.description.map { .string($0) } ?? .null
        case .goal: json = t.goal.map { .string($0) } ?? .null
        case .start: json = TaskJSON.due(t.start)
        default:
            if case .object(let o) = TaskJSON.value(t, zone: zone) { json = o[TaskJSON.key(for: f)] ?? .null } else { json = .null }
        }
        return out([value], json: .object(JSONObject([(f.rawValue, json)])))
    }

    func fieldText(_ t: Task, _ f: TaskField, _ txt: TaskText) -> String {
        switch f {
        case .id: return String(t.id)
        case .title: return t.title
        case .status: return t.status.rawValue
        case .due: return t.due.map(txt.longDue) ?? "none"
        case .start: return t.start.map(txt.longDue) ?? "none"
        case .priority: return t.priority.name
        case .project: return t.project ?? "none"
        case .area: return t.area ?? "none"
        case .tags: return t.tags.isEmpty ? "none" : t.tags.map { "#" + $0 }.joined(separator: " ")
        case .notes: return t.notes.isEmpty ? "none" : t.notes.map { "[[\($0)]]" }.joined(separator: " ")
        case .description: return t.description ?? "none"
        case .repeat: return t.repeatRule?.text ?? "never"
        case .estimate: return t.estimate.map { "\($0.minutes)m" } ?? "none"
        case .created: return txt.instant(t.createdAt, in: zone)
        case .completed: return t.completedAt.map { txt.instant($0, in: zone) } ?? "not completed"
        case .parent: return t.parent.map(String.init) ?? "none"
        case .goal: return t.goal ?? "none"
        case .steps: return t.steps.isEmpty ? "none" : "\(t.steps.filter(\.done).count)/\(t.steps.count)"
        }
    }

    /// The lines of `show ID`: a heading, then the fields that hold something (R-VIEW-5: nothing
    /// is reported as a zero).
    func detail(_ t: Task, _ txt: TaskText) -> [String] {
        var rows: [(String, String)] = [("status", t.status.rawValue)]
        if let d = t.due { rows.append(("due", txt.longDue(d))) }
        if let d = t.start { rows.append(("start", txt.longDue(d))) }
        if t.priority != .none { rows.append(("priority", t.priority.name)) }
        if let p = t.project { rows.append(("project", p)) }
        if let a = t.area { rows.append(("area", a)) }
        if !t.tags.isEmpty { rows.append(("tags", fieldText(t, .tags, txt))) }
        if !t.notes.isEmpty { rows.append(("notes", fieldText(t, .notes, txt))) }
        if let r = t.repeatRule { rows.append(("repeat", r.text)) }
        if let e = t.estimate { rows.append(("estimate", "\(e.minutes)m")) }
        if let p = t.parent { rows.append(("parent", String(p))) }
        if !t.steps.isEmpty { rows.append(("steps", fieldText(t, .steps, txt))) }
        if let d = t.description { rows.append(("description", d)) }
        rows.append(("created", txt.instant(t.createdAt, in: zone)))
        if let c = t.completedAt { rows.append(("completed", txt.instant(c, in: zone))) }
        let w = rows.map { $0.0.count }.max() ?? 0
        return ["\(t.id) · \(t.title)"] + rows.map { "  " + $0.0 + String(repeating: " ", count: w - $0.0.count) + "  " + $0.1 }
    }

    func runComplete(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch resolve(ref, s) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        guard t.status != .done else {
            // R-REP-6: completing twice changes nothing and makes no second copy.
            return .error(Catalog.wrongState("task \(t.id) is already completed", range: ref.range, file: s.source.file,
                                             help: "'reopen \(t.id)' marks it open again"))
        }
        var after = t
        after.status = .done
        after.completedAt = now
        var changes: [Change] = []
        // R-REP-2, R-REP-10: the engine makes the next occurrence itself, in the same step, so
        // undo right away takes both back (R-REP-6).
        var next: Task? = nil
        if t.repeatRule != nil, let n = nextOccurrence(of: t, completedOn: today, id: store.nextID) {
            _ = store.takeID()
            next = n
            after.nextOccurrence = n.id
        }
        changes.append(.task(before: t, after: after))
        if let n = next { changes.append(.task(before: nil, after: n)) }
        commit("complete \(t.id) · \(t.title)", changes)
        let json = JSONValue.object(JSONObject([("completed", TaskJSON.value(after, zone: zone)),
                                                ("next", next.map { TaskJSON.value($0, zone: zone) } ?? .null)]))
        var line = "Completed \(t.id) · \(t.title)"
        if let n = next, let d = n.due { line += " · next: \(n.id) due \(text.shortDate(d.date))" + (d.time.map { " " + TimeText.time($0, store.settings.day.hourCycle) } ?? "") }
        else if t.repeatRule != nil { line += " · the series has ended" }
        return out([line], json: json, changed: true)
    }

    func runReopen(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch ref {
        case .title(let title, let r):
            // A reopen names a finished task, so the title is looked up among done tasks.
            let matches = store.tasks.filter { $0.status == .done && $0.title == title }
            guard matches.count == 1, let m = matches.first else {
                if matches.isEmpty {
                    return .error(Catalog.noTitle(title, range: r, file: s.source.file,
                                                  candidates: store.tasks.filter { $0.status == .done }.map(\.title)))
                }
                return .error(Catalog.ambiguousTitle(title, ids: matches.map(\.id), range: r, file: s.source.file))
            }
            t = m
        case .id:
            switch resolve(ref, s) {
            case .success(let x): t = x
            case .failure(let d): return .error(d)
            }
        }
        guard t.status == .done else {
            return .error(Catalog.wrongState("task \(t.id) is not completed", range: ref.range, file: s.source.file))
        }
        var after = t
        after.status = .open
        after.completedAt = nil
        after.nextOccurrence = nil
        var changes: [Change] = [.task(before: t, after: after)]
        var note = ""
        // R-REP-6: the occurrence its completion made goes too, unless it was changed since.
        if let nid = t.nextOccurrence, let n = store.task(nid), n.pristine, n.isOpen {
            changes.append(.task(before: n, after: nil))
            note = " · took back \(n.id), which its completion made"
        }
        commit("reopen \(t.id) · \(t.title)", changes)
        return out(["Reopened \(text.summary(after))\(note)"], json: .object(JSONObject([("reopened", TaskJSON.value(after, zone: zone))])),
                   changed: true)
    }

    func runDelete(_ s: Statement, _ ref: TaskRef) -> CommandOutput {
        let t: Task
        switch resolve(ref, s) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        commit("delete \(t.id) · \(t.title)", [.task(before: t, after: nil)])
        return out(["Deleted \(t.id) · \(t.title)"], json: .object(JSONObject([("deleted", TaskJSON.value(t, zone: zone))])),
                   changed: true)
    }

    func runSetField(_ s: Statement, _ ref: TaskRef, _ field: TextArg, _ value: TextArg) -> CommandOutput {
        let t: Task
        switch resolve(ref, s) {
        case .success(let x): t = x
        case .failure(let d): return .error(d)
        }
        let file = s.source.file
        let settable = TaskField.allCases.filter(\.isSettable).map(\.rawValue)
        guard let f = TaskField(rawValue: field.text.lowercased()), f.isSettable else {
            let tok = Token(kind: .word, text: field.text, range: field.range)
            let known = TaskField(rawValue: field.text.lowercased()) != nil
            var d = Catalog.unknownField(tok, file: file, candidates: settable,
                                         label: known ? "not settable in this version" : "not a task field")
            if known { d.message = "field '\(field.text)' cannot be set yet"; d.help = "settable fields: \(settable.joined(separator: ", "))" }
            return .error(d)
        }
        var after = t
        switch f {
        case .title:
            guard !value.text.isEmpty else { return .error(Catalog.emptyTitle(range: value.range, file: file)) }
            guard !value.text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return .error(Catalog.badFieldValue("title", value: value.text, range: value.range, file: file,
                                                    expected: "one line of text", help: "a title has no line breaks or tabs; put details in the description"))
            }
            after.title = value.text
        case .description:
            after.description = value.text.lowercased() == "none" ? nil : value.text
        case .due:
            if ["none", "clear", "never"].contains(value.text.lowercased()) {
                after.due = nil
            } else {
                let words = value.text.split(separator: " ").map(String.init)
                switch DatePhrase.resolve(words, in: dateContext) {
                case .success(let (r, used)) where used == words.count:
                    after.due = r.due
                case .success:
                    return .error(Catalog.badDate(value.text, range: value.range, file: file))
                case .failure(let e):
                    return .error(Diagnostic(code: e.impossible ? "E0205" : "E0203", message: e.message, file: file, range: value.range,
                                             label: e.impossible ? "no such day" : "not a date phrase", help: e.help))
                }
            }
        case .priority:
            guard let p = Priority(word: value.text) else {
                return .error(Catalog.badFieldValue("priority", value: value.text, range: value.range, file: file,
                                                    expected: "none, low, medium, high or critical",
                                                    help: Suggestion.help(value.text, in: Priority.words)))
            }
            after.priority = p
        case .repeat:
            if ["never", "none"].contains(value.text.lowercased()) {
                // R-REP-8: this occurrence stops the series; earlier ones are not touched.
                after.repeatRule = nil
            } else {
                let rule: RepeatRule
                switch repeatRule(value.text.split(separator: " ").map(String.init), range: value.range, file: file) {
                case .success(let r): rule = r
                case .failure(let d): return .error(d)
                }
                after.repeatRule = nil
                attach(rule, to: &after)
            }
        case .project:
            if value.text.lowercased() == "none" {
                after.project = nil
            } else {
                guard let p = store.project(named: value.text) else {
                    return .error(Catalog.unknownProject(value.text, range: value.range, file: file,
                                                         candidates: store.projects.map(\.name)))
                }
                after.project = p.name
            }
        default:
            break
        }
        guard after != t else {
            return out(["Unchanged \(t.id) · \(t.title)"], json: .object(JSONObject([("unchanged", TaskJSON.value(t, zone: zone))])))
        }
        commit("set \(t.id) \(f.rawValue) · \(after.title)", [.task(before: t, after: after)])
        let txt = text
        return out(["Set \(f.rawValue) of \(t.id) · \(after.title): \(fieldText(after, f, txt))"],
                   json: .object(JSONObject([("updated", TaskJSON.value(after, zone: zone))])), changed: true)
    }
}
