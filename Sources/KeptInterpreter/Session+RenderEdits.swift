// The render stage of the edits of a task's fields and lists: a line per changed task, and
// the engine's errors at the words they are about (the value, the tag, the step).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The output of an edit.
    package func render(edit o: Outcome<Task>, _ s: Statement) -> CommandOutput {
        let txt = text
        switch s.kind {
        case .setField(let target, let field, _):
            guard let f = TaskField(rawValue: field.text.lowercased()) else { return CommandOutput() }
            let t = ActionText<Task>(verb: "Set \(f.rawValue) of", name: "set \(f.rawValue)",
                                     line: { "\($0.id) · \($0.title): \(self.fieldText($0, f, txt))" }, json: updatedJSON)
            return render(o, t, s, target)
        case .tag(let target, _, let add):
            let t = ActionText<Task>(verb: add ? "Tagged" : "Untagged", name: add ? "tag" : "untag",
                                     line: { "\($0.id) · \($0.title): \(self.fieldText($0, .tags, txt))" }, json: updatedJSON)
            return render(o, t, s, target)
        case .link(let target, _, let add):
            let t = ActionText<Task>(verb: add ? "Linked" : "Unlinked", name: add ? "link" : "unlink",
                                     line: { "\($0.id) · \($0.title): \(self.fieldText($0, .notes, txt))" }, json: updatedJSON)
            return render(o, t, s, target)
        case .step(let ref, let edit):
            let verb: String
            switch edit {
            case .add: verb = "Added a step to"
            case .check: verb = "Checked a step of"
            case .uncheck: verb = "Unchecked a step of"
            case .remove: verb = "Removed a step of"
            }
            let t = ActionText<Task>(verb: verb, name: "step", line: { a in
                "\(a.id) · \(a.title): " + (a.steps.isEmpty ? "no steps" : "\(a.steps.filter(\.done).count)/\(a.steps.count)")
            }, json: updatedJSON)
            return render(o, t, s, .task(ref))
        case .comment(let ref, _):
            let t = ActionText<Task>(verb: "Commented on", name: "comment", line: { a in
                "\(a.id) · \(a.title): \(a.comments.count == 1 ? "1 comment" : "\(a.comments.count) comments")"
            }, json: updatedJSON)
            return render(o, t, s, .task(ref))
        default: return CommandOutput()
        }
    }

    /// The diagnostic of an edit's engine error: one about the value, a tag or a step points
    /// at its words, another at the target.
    package func editError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .setField(let target, _, let value):
            let words = ErrorWords(value: value.text)
            switch e {
            case .noTask, .unknownProject, .archivedProject, .unknownStatus, .statusDone, .parentCycle, .emptyTitle, .titleNotOneLine:
                return diagnostic(e, s, at: value.range, words: words)
            default: return diagnostic(e, s, at: target.range, words: words)
            }
        case .tag(let target, let words, _):
            // A refused tag points at the word that named it, quoted as typed.
            let names = Session.tagNames(words)
            var typed: [String: TextArg] = [:]
            for (k, w) in words.enumerated() where typed[names[k]] == nil { typed[names[k]] = w }
            var range = target.range
            if case .badTag(let n) = e, let w = typed[n] { range = w.range }
            return diagnostic(e, s, at: range, words: ErrorWords(quoted: typed.mapValues(\.text)))
        case .link(let target, _, _): return diagnostic(e, s, at: target.range)
        case .step(let ref, let edit):
            var valueRange = ref.range
            switch edit {
            case .add(let title): valueRange = title.range
            case .check(_, let r), .uncheck(_, let r), .remove(_, let r): valueRange = r
            }
            switch e {
            case .noStep, .stepNotOneLine: return diagnostic(e, s, at: valueRange)
            default: return diagnostic(e, s, at: ref.range)
            }
        case .comment(let ref, _): return diagnostic(e, s, at: ref.range)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }
}
