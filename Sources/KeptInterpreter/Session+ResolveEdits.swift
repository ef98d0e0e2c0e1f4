// The resolve stage of the edits of a task's fields and lists (set ID FIELD VALUE, tag and
// untag, steps, comments and note links): the target to the ids it names, and each value's
// words read once into a typed value. The engine checks and applies it on one task or on a
// selection.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// An edit of a task's fields or lists, resolved: the ids it acts on and its typed value.
package enum EditRequest {
    case set(Selection, FieldValue)
    case tag(Selection, [String], add: Bool)
    case link(Selection, [String], add: Bool)
    /// A step added, checked, unchecked or removed on one task.
    case step(Int, StepChange)
    case comment(Int, String)
}

extension Session {
    /// The request of an edit, or nil when the statement is not one.
    package func resolveEdit(_ s: Statement) -> Result<EditRequest, Diagnostic>? {
        switch s.kind {
        case .setField(let target, let field, let value): return resolveSetField(s, target, field, value)
        case .tag(let target, let words, let add):
            let names = Session.tagNames(words)
            return selection(target, s).map { .tag($0, names, add: add) }
        case .link(let target, let arg, let add):
            guard let titles = Session.noteTitles(arg.text) else {
                return .failure(Catalog.badFieldValue("notes", value: arg.text, range: arg.range, file: s.source.file,
                                                      expected: "note titles in double brackets", help: "for example: link 1 [[Trip plan]]"))
            }
            return selection(target, s).map { .link($0, titles, add: add) }
        case .step(let ref, let edit):
            let change: StepChange
            switch edit {
            case .add(let title): change = .add(title.text)
            case .check(let n, _): change = .check(n)
            case .uncheck(let n, _): change = .uncheck(n)
            case .remove(let n, _): change = .remove(n)
            }
            return resolve(ref, s).map { .step($0.id, change) }
        case .comment(let ref, let body): return resolve(ref, s).map { .comment($0.id, body.text) }
        default: return nil
        }
    }

    /// The request of `set`: the task first, then the field, then the value.
    package func resolveSetField(_ s: Statement, _ target: TaskTarget, _ field: TextArg, _ value: TextArg) -> Result<EditRequest, Diagnostic> {
        let file = s.source.file
        // A task that is not there is the first thing to report, before the field and value.
        if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .failure(d) }
        let settable = TaskField.allCases.filter(\.isSettable).map(\.rawValue)
        guard let f = TaskField(rawValue: field.text.lowercased()), f.isSettable else {
            guard TaskField(rawValue: field.text.lowercased()) == nil else {
                return .failure(Catalog.fieldNotSettable(field.text, range: field.range, file: file, settable: settable))
            }
            return .failure(Catalog.unknownField(field.text, range: field.range, file: file, candidates: settable))
        }
        return fieldValue(f, value, s).flatMap { v in selection(target, s).map { .set($0, v) } }
    }

    package static let noneWords: Set<String> = ["none", "clear", "never"]

    /// Reads a field's value from its words.
    package func fieldValue(_ f: TaskField, _ value: TextArg, _ s: Statement) -> Result<FieldValue, Diagnostic> {
        fieldValue(f, value, file: s.source.file)
    }

    /// Reads a field's value from its words, in any file (a statement's, `kept edit`'s text).
    package func fieldValue(_ f: TaskField, _ value: TextArg, file: SourceFile) -> Result<FieldValue, Diagnostic> {
        let v = value.text
        let none = Session.noneWords.contains(v.lowercased())
        switch f {
        case .title: return .success(.title(v))
        case .description: return .success(.description(v.lowercased() == "none" ? nil : v))
        case .goal: return .success(.goal(v.lowercased() == "none" ? nil : v))
        case .due, .start:
            var d: Due? = nil
            if !none {
                switch wholeDate(value, file: file) {
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

    /// The names of `tag` and `untag`'s words, without their `#`.
    package static func tagNames(_ words: [TextArg]) -> [String] {
        words.map { $0.text.hasPrefix("#") ? String($0.text.dropFirst()) : $0.text }
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
}
