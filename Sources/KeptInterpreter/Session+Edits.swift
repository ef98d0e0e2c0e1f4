// Edits of a task's fields and lists in the language: set ID FIELD VALUE, tag and untag, steps,
// comments and note links. Each value's words are read once into a typed value; the engine
// checks and applies it on one task or on a selection.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    package func runSetField(_ s: Statement, _ target: TaskTarget, _ field: TextArg, _ value: TextArg) -> CommandOutput {
        let file = s.source.file
        // A task that is not there is the first thing to report, before the field and value.
        if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .error(d) }
        let settable = TaskField.allCases.filter(\.isSettable).map(\.rawValue)
        guard let f = TaskField(rawValue: field.text.lowercased()), f.isSettable else {
            guard TaskField(rawValue: field.text.lowercased()) == nil else {
                return .error(Catalog.fieldNotSettable(field.text, range: field.range, file: file, settable: settable))
            }
            return .error(Catalog.unknownField(field.text, range: field.range, file: file, candidates: settable))
        }
        let v: FieldValue
        switch fieldValue(f, value, s) {
        case .success(let x): v = x
        case .failure(let d): return .error(d)
        }
        let txt = text
        let t = ActionText<Task>(verb: "Set \(f.rawValue) of", name: "set \(f.rawValue)",
                                 line: { "\($0.id) · \($0.title): \(self.fieldText($0, f, txt))" }, json: updatedJSON)
        // Errors about the value point at it; those about the task at the task.
        return act(s, target, t, range: { e in
            switch e {
            case .noTask, .unknownProject, .archivedProject, .unknownStatus, .statusDone, .parentCycle, .emptyTitle, .titleNotOneLine:
                return value.range
            default: return nil
            }
        }, words: ErrorWords(value: value.text)) { (sel) throws(DomainError) in try engine.set(v, on: sel) }
    }

    package static let noneWords: Set<String> = ["none", "clear", "never"]

    /// Reads a field's value from its words.
    package func fieldValue(_ f: TaskField, _ value: TextArg, _ s: Statement) -> Result<FieldValue, Diagnostic> {
        let file = s.source.file
        let v = value.text
        let none = Session.noneWords.contains(v.lowercased())
        switch f {
        case .title: return .success(.title(v))
        case .description: return .success(.description(v.lowercased() == "none" ? nil : v))
        case .goal: return .success(.goal(v.lowercased() == "none" ? nil : v))
        case .due, .start:
            var d: Due? = nil
            if !none {
                switch wholeDate(value, s) {
                case .success(let x): d = x
                case .failure(let e): return .failure(e)
                }
            }
            return .success(f == .due ? .due(d) : .start(d))
        case .priority:
            guard let p = Priority(word: v) else {
                return .failure(Catalog.badFieldValue("priority", value: v, range: value.range, file: file,
                                                      expected: "none, low, medium, high or critical",
                                                      help: Catalog.didYouMean(Suggestion.nearest(v, in: Priority.words))))
            }
            return .success(.priority(p))
        case .repeat:
            if ["never", "none"].contains(v.lowercased()) { return .success(.repeatRule(nil)) }
            return repeatRule(v.split(separator: " ").map(String.init), range: value.range, file: file).map { .repeatRule($0) }
        case .project: return .success(.project(v.lowercased() == "none" ? nil : v))
        case .area: return .success(.area(v.lowercased() == "none" ? nil : v))
        case .estimate:
            if none { return .success(.estimate(nil)) }
            guard let e = Session.estimate(v) else {
                return .failure(Catalog.badFieldValue("estimate", value: v, range: value.range, file: file,
                                                      expected: "a duration like 15m, 1h or 1h30m, then optionally 'suggested'",
                                                      help: "for example: set 1 estimate 20m"))
            }
            return .success(.estimate(e))
        case .status: return .success(.status(v))
        case .parent:
            if v.lowercased() == "none" { return .success(.parent(nil)) }
            guard let pid = Int(v), pid >= 1 else {
                return .failure(Catalog.badFieldValue("parent", value: v, range: value.range, file: file, expected: "a task id, or none"))
            }
            return .success(.parent(pid))
        case .id, .uid, .tags, .notes, .created, .modified, .completed, .steps, .reminders:
            return .failure(Catalog.badFieldValue(f.rawValue, value: v, range: value.range, file: file, expected: "a settable field"))
        }
    }

    /// `15m`, `1h`, `1h30m`, `2h 15m`, `90` (minutes), then optionally `user` or `suggested`.
    package static func estimate(_ text: String) -> Estimate? {
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

    package func runTag(_ s: Statement, _ target: TaskTarget, _ words: [TextArg], add: Bool) -> CommandOutput {
        let names = words.map { $0.text.hasPrefix("#") ? String($0.text.dropFirst()) : $0.text }
        let txt = text
        let t = ActionText<Task>(verb: add ? "Tagged" : "Untagged", name: add ? "tag" : "untag",
                                 line: { "\($0.id) · \($0.title): \(self.fieldText($0, .tags, txt))" }, json: updatedJSON)
        // A refused tag points at the word that named it, quoted as typed.
        var typed: [String: TextArg] = [:]
        for (k, w) in words.enumerated() where typed[names[k]] == nil { typed[names[k]] = w }
        return act(s, target, t, range: { e in
            guard case .badTag(let n) = e else { return nil }
            return typed[n]?.range
        }, words: ErrorWords(quoted: typed.mapValues(\.text))) { (sel) throws(DomainError) in try engine.tag(sel, names, add: add) }
    }

    /// The notes of `[[A]] [[B]]`, or of one quoted title.
    package static func noteTitles(_ text: String) -> [String]? {
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

    package func runLink(_ s: Statement, _ target: TaskTarget, _ arg: TextArg, add: Bool) -> CommandOutput {
        guard let titles = Session.noteTitles(arg.text) else {
            return .error(Catalog.badFieldValue("notes", value: arg.text, range: arg.range, file: s.source.file,
                                                expected: "note titles in double brackets", help: "for example: link 1 [[Trip plan]]"))
        }
        let txt = text
        let t = ActionText<Task>(verb: add ? "Linked" : "Unlinked", name: add ? "link" : "unlink",
                                 line: { "\($0.id) · \($0.title): \(self.fieldText($0, .notes, txt))" }, json: updatedJSON)
        return act(s, target, t) { (sel) throws(DomainError) in try engine.link(sel, titles, add: add) }
    }

    // MARK: steps and comments

    package func runStep(_ s: Statement, _ ref: TaskRef, _ edit: StepEdit) -> CommandOutput {
        let verb: String
        let change: StepChange
        var valueRange = ref.range
        switch edit {
        case .add(let title):
            verb = "Added a step to"
            change = .add(title.text)
            valueRange = title.range
        case .check(let n, let r):
            verb = "Checked a step of"
            change = .check(n)
            valueRange = r
        case .uncheck(let n, let r):
            verb = "Unchecked a step of"
            change = .uncheck(n)
            valueRange = r
        case .remove(let n, let r):
            verb = "Removed a step of"
            change = .remove(n)
            valueRange = r
        }
        let t = ActionText<Task>(verb: verb, name: "step", line: { a in
            "\(a.id) · \(a.title): " + (a.steps.isEmpty ? "no steps" : "\(a.steps.filter(\.done).count)/\(a.steps.count)")
        }, json: updatedJSON)
        return act(s, .task(ref), t, range: { e in
            switch e {
            case .noStep, .stepNotOneLine: return valueRange
            default: return nil
            }
        }) { (sel) throws(DomainError) in
            guard case .task(let id) = sel else { throw .noTask(0) }
            return try engine.step(id, change)
        }
    }

    package func runComment(_ s: Statement, _ ref: TaskRef, _ body: TextArg) -> CommandOutput {
        let t = ActionText<Task>(verb: "Commented on", name: "comment", line: { a in
            "\(a.id) · \(a.title): \(a.comments.count == 1 ? "1 comment" : "\(a.comments.count) comments")"
        }, json: updatedJSON)
        return act(s, .task(ref), t) { (sel) throws(DomainError) in
            guard case .task(let id) = sel else { throw .noTask(0) }
            return try engine.comment(id, body.text)
        }
    }
}
