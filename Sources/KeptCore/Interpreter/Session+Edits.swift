// Edits of a task's fields and lists: set ID FIELD VALUE, tag and untag, steps, comments and
// note links. Each value is read once; the edit then runs on one task or on a selection.

extension Session {
    func runSetField(_ s: Statement, _ target: TaskTarget, _ field: TextArg, _ value: TextArg) -> CommandOutput {
        let file = s.source.file
        // A task that is not there is the first thing to report, before the field and value.
        if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .error(d) }
        let settable = TaskField.allCases.filter(\.isSettable).map(\.rawValue)
        guard let f = TaskField(rawValue: field.text.lowercased()), f.isSettable else {
            let tok = Token(kind: .word, text: field.text, range: field.range)
            let known = TaskField(rawValue: field.text.lowercased()) != nil
            var d = Catalog.unknownField(tok, file: file, candidates: settable,
                                         label: known ? "not settable" : "not a task field")
            if known { d.message = "field '\(field.text)' cannot be set"; d.help = "settable fields: \(settable.joined(separator: ", "))" }
            return .error(d)
        }
        let setter: (Task) -> Result<Task, Diagnostic>
        switch fieldSetter(f, value, file) {
        case .success(let x): setter = x
        case .failure(let d): return .error(d)
        }
        let txt = text
        var action = TaskAction(verb: "Set \(f.rawValue) of", name: "set \(f.rawValue)") { t, step in
            let after: Task
            switch setter(t) {
            case .success(let x): after = x
            case .failure(let d): return .failure(d)
            }
            return self.updated(t, to: after, line: "\(t.id) · \(after.title): \(self.fieldText(after, f, txt))", into: &step)
        }
        action.summary = { "set \($0.id) \(f.rawValue) · \($0.title)" }
        return runAction(s, target, action)
    }

    static let noneWords: Set<String> = ["none", "clear", "never"]

    /// Reads a field's value once, into an edit that sets it on any task.
    func fieldSetter(_ f: TaskField, _ value: TextArg, _ file: SourceFile) -> Result<(Task) -> Result<Task, Diagnostic>, Diagnostic> {
        let v = value.text
        let none = Session.noneWords.contains(v.lowercased())
        func plain(_ change: @escaping (inout Task) -> Void) -> Result<(Task) -> Result<Task, Diagnostic>, Diagnostic> {
            .success { t in
                var a = t
                change(&a)
                return .success(a)
            }
        }
        switch f {
        case .title:
            guard !v.isEmpty else { return .failure(Catalog.emptyTitle(range: value.range, file: file)) }
            guard !v.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return .failure(Catalog.badFieldValue("title", value: v, range: value.range, file: file,
                                                      expected: "one line of text", help: "a title has no line breaks or tabs; put details in the description"))
            }
            return plain { $0.title = v }
        case .description:
            return plain { $0.description = v.lowercased() == "none" ? nil : v }
        case .goal:
            return plain { $0.goal = v.lowercased() == "none" ? nil : v }
        case .due, .start:
            let d: Due?
            if none { d = nil } else {
                switch dueValue(value, file) {
                case .success(let x): d = x
                case .failure(let e): return .failure(e)
                }
            }
            return plain { if f == .due { $0.due = d } else { $0.start = d } }
        case .priority:
            guard let p = Priority(word: v) else {
                return .failure(Catalog.badFieldValue("priority", value: v, range: value.range, file: file,
                                                      expected: "none, low, medium, high or critical",
                                                      help: Suggestion.help(v, in: Priority.words)))
            }
            return plain { $0.priority = p }
        case .repeat:
            if ["never", "none"].contains(v.lowercased()) {
                // R-REP-8: this occurrence stops the series; earlier ones are not touched.
                return plain { $0.repeatRule = nil }
            }
            let rule: RepeatRule
            switch repeatRule(v.split(separator: " ").map(String.init), range: value.range, file: file) {
            case .success(let r): rule = r
            case .failure(let d): return .failure(d)
            }
            return plain { t in
                t.repeatRule = nil
                self.attach(rule, to: &t)
            }
        case .project:
            if v.lowercased() == "none" { return plain { $0.project = nil } }
            guard let p = store.project(named: v) else {
                return .failure(Catalog.unknownProject(v, range: value.range, file: file, candidates: store.projects.map(\.name)))
            }
            guard !p.archived else { return .failure(Catalog.archivedProject(p.name, range: value.range, file: file)) }
            return plain { $0.project = p.name }
        case .area:
            if v.lowercased() == "none" { return plain { $0.area = nil } }
            // R-FIL-6: a known area is written by the name the user gave it; another stays as typed.
            let key = AreaName.key(v)
            let name = store.areas.first { AreaName.key($0.name) == key }?.name ?? v
            return plain { $0.area = name }
        case .estimate:
            if none { return plain { $0.estimate = nil } }
            guard let e = Session.estimate(v) else {
                return .failure(Catalog.badFieldValue("estimate", value: v, range: value.range, file: file,
                                                      expected: "a duration like 15m, 1h or 1h30m, then optionally 'suggested'",
                                                      help: "for example: set 1 estimate 20m"))
            }
            return plain { $0.estimate = e }
        case .status:
            let w = v.lowercased()
            guard w != "done" else {
                return .failure(Catalog.badFieldValue("status", value: v, range: value.range, file: file, expected: "open, archived or a status of open work",
                                                      help: "'complete ID' marks a task done, with its next occurrence"))
            }
            // A built-in status, or one of the task's project's own, checked task by task.
            return .success { t in
                self.status(v, for: t.project, range: value.range, file: file).map { st in
                    var a = t
                    a.status = st
                    return a
                }
            }
        case .parent:
            if v.lowercased() == "none" { return plain { $0.parent = nil } }
            guard let pid = Int(v), pid >= 1 else {
                return .failure(Catalog.badFieldValue("parent", value: v, range: value.range, file: file, expected: "a task id, or none"))
            }
            guard store.task(pid) != nil else { return .failure(Catalog.noTask(pid, range: value.range, file: file)) }
            return .success { t in
                // A subtask of itself, or of its own subtask, would make a loop.
                if pid == t.id || self.descendants(of: t.id).contains(where: { $0.id == pid }) {
                    return .failure(Catalog.parentCycle("task \(pid) cannot be the parent of task \(t.id)", range: value.range, file: file))
                }
                var a = t
                a.parent = pid
                return .success(a)
            }
        case .id, .tags, .notes, .created, .completed, .steps, .reminders:
            return .failure(Catalog.badFieldValue(f.rawValue, value: v, range: value.range, file: file, expected: "a settable field"))
        }
    }

    /// A date phrase that must be read whole.
    func dueValue(_ value: TextArg, _ file: SourceFile) -> Result<Due, Diagnostic> {
        let words = value.text.split(separator: " ").map(String.init)
        switch DatePhrase.resolve(words, in: dateContext) {
        case .success(let (r, used)) where used == words.count: return .success(r.due)
        case .success: return .failure(Catalog.badDate(value.text, range: value.range, file: file))
        case .failure(let e):
            return .failure(Diagnostic(code: e.code, message: e.message, file: file, range: value.range,
                                       label: e.label, help: e.help))
        }
    }

    /// `15m`, `1h`, `1h30m`, `2h 15m`, `90` (minutes), then optionally `user` or `suggested`.
    static func estimate(_ text: String) -> Estimate? {
        var words = text.lowercased().split(separator: " ").map(String.init)
        var source = EstimateSource.user
        if let last = words.last, let s = EstimateSource(rawValue: last) {
            source = s
            words.removeLast()
        }
        guard !words.isEmpty else { return nil }
        var minutes = 0
        for w in words {
            var digits = ""
            var parts = 0
            for ch in w {
                if ch.isASCII, ch.isNumber {
                    digits.append(ch)
                } else if ch == "h" || ch == "m", digits.count <= 5, let n = Int(digits) {
                    minutes += ch == "h" ? n * 60 : n
                    digits = ""
                    parts += 1
                } else {
                    return nil
                }
            }
            if !digits.isEmpty {
                // A bare number is minutes, but `1h30` is not a duration.
                guard parts == 0, digits.count <= 5, let n = Int(digits) else { return nil }
                minutes += n
            }
        }
        guard minutes > 0, minutes <= 100_000 else { return nil }
        return Estimate(minutes: minutes, source: source)
    }

    // MARK: tags and note links

    func runTag(_ s: Statement, _ target: TaskTarget, _ words: [TextArg], add: Bool) -> CommandOutput {
        var names: [String] = []
        for w in words {
            let name = w.text.hasPrefix("#") ? String(w.text.dropFirst()) : w.text
            // Digits alone stay text in capture (#42), so they are not a tag here either.
            guard !name.isEmpty, !name.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return .error(Catalog.badFieldValue("tags", value: w.text, range: w.range, file: s.source.file,
                                                    expected: "a tag name like #errand", help: "a tag is not only digits"))
            }
            if !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) }
        }
        let txt = text
        return runAction(s, target, TaskAction(verb: add ? "Tagged" : "Untagged", name: add ? "tag" : "untag") { t, step in
            var a = t
            for n in names {
                let has = a.tags.contains { $0.lowercased() == n.lowercased() }
                if add, !has { a.tags.append(n) }
                if !add { a.tags.removeAll { $0.lowercased() == n.lowercased() } }
            }
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): \(self.fieldText(a, .tags, txt))", into: &step)
        })
    }

    /// The notes of `[[A]] [[B]]`, or of one quoted title.
    static func noteTitles(_ text: String) -> [String]? {
        var out: [String] = []
        var rest = text.trimmedSpaces
        while !rest.isEmpty {
            guard rest.hasPrefix("[["), let close = rest.firstRange(of: "]]") else { return nil }
            let title = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound]).trimmedSpaces
            guard !title.isEmpty else { return nil }
            out.append(title)
            rest = String(rest[close.upperBound...]).trimmedSpaces
        }
        return out.isEmpty ? nil : out
    }

    func runLink(_ s: Statement, _ target: TaskTarget, _ arg: TextArg, add: Bool) -> CommandOutput {
        guard let titles = Session.noteTitles(arg.text) else {
            return .error(Catalog.badFieldValue("notes", value: arg.text, range: arg.range, file: s.source.file,
                                                expected: "note titles in double brackets", help: "for example: link 1 [[Trip plan]]"))
        }
        let txt = text
        return runAction(s, target, TaskAction(verb: add ? "Linked" : "Unlinked", name: add ? "link" : "unlink") { t, step in
            var a = t
            for n in titles {
                if add, !a.notes.contains(n) { a.notes.append(n) }
                if !add { a.notes.removeAll { $0 == n } }
            }
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): \(self.fieldText(a, .notes, txt))", into: &step)
        })
    }

    // MARK: steps and comments

    func runStep(_ s: Statement, _ ref: TaskRef, _ edit: StepEdit) -> CommandOutput {
        let file = s.source.file
        let verb: String
        switch edit {
        case .add: verb = "Added a step to"
        case .check: verb = "Checked a step of"
        case .uncheck: verb = "Unchecked a step of"
        case .remove: verb = "Removed a step of"
        }
        return runAction(s, .task(ref), TaskAction(verb: verb, name: "step") { t, step in
            var a = t
            func index(_ n: Int, _ r: SourceRange) -> Result<Int, Diagnostic> {
                guard n >= 1, n <= t.steps.count else { return .failure(Catalog.noStep(n, of: t, range: r, file: file)) }
                return .success(n - 1)
            }
            switch edit {
            case .add(let title):
                guard !title.text.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
                    return .failure(Catalog.badFieldValue("steps", value: title.text, range: title.range, file: file, expected: "one line of text"))
                }
                a.steps.append(Step(title: title.text))
            case .check(let n, let r), .uncheck(let n, let r):
                switch index(n, r) {
                case .success(let k):
                    if case .check = edit { a.steps[k].done = true } else { a.steps[k].done = false }
                case .failure(let d): return .failure(d)
                }
            case .remove(let n, let r):
                switch index(n, r) {
                case .success(let k): a.steps.remove(at: k)
                case .failure(let d): return .failure(d)
                }
            }
            let count = a.steps.isEmpty ? "no steps" : "\(a.steps.filter(\.done).count)/\(a.steps.count)"
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): \(count)", into: &step)
        })
    }

    /// A comment is kept as `{"text", "at"}`, the time it was written, in the store.
    func runComment(_ s: Statement, _ ref: TaskRef, _ body: TextArg) -> CommandOutput {
        let at = TimeText.isoInstant(now, in: .utc)
        return runAction(s, .task(ref), TaskAction(verb: "Commented on", name: "comment") { t, step in
            var a = t
            a.comments.append(.object(JSONObject([("text", .string(body.text)), ("at", .string(at))])))
            return self.updated(t, to: a, line: "\(t.id) · \(t.title): \(a.comments.count == 1 ? "1 comment" : "\(a.comments.count) comments")",
                                into: &step)
        })
    }
}
