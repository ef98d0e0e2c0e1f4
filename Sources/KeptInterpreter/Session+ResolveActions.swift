// The resolve stage of the task actions (R-TASK-1, R-TASK-5): a statement's target to the ids
// it names (an id, a quoted title, or `where FILTER`), and its other words to typed values (a
// date, a due group). Nothing here changes the store or prints.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A task action, resolved: the ids it acts on and its typed values.
package enum ActionRequest {
    case complete(Selection)
    case reopen(Selection)
    case delete(Selection)
    /// A bulk delete that waits for a yes: the ids its filter matched.
    case confirmDelete(FilterSource, ids: [Int])
    case archive(Selection)
    case unarchive(Selection)
    case tomorrow(Selection)
    /// R-TASK-8: a picked date, or nil to clear it.
    case reschedule(Selection, to: Due?)
    case move(Selection, to: DueGroup)
    case duplicate(Selection)
}

extension Session {
    /// The request of a task action, or nil when the statement is not one.
    package func resolveAction(_ s: Statement) -> Result<ActionRequest, Diagnostic>? {
        switch s.kind {
        case .complete(let t): return selection(t, s).map(ActionRequest.complete)
        case .reopen(let t): return selection(t, s, scope: .done).map(ActionRequest.reopen)
        case .delete(let t): return resolveDelete(s, t)
        case .archive(let t): return selection(t, s).map(ActionRequest.archive)
        case .unarchive(let t): return selection(t, s, scope: .archived).map(ActionRequest.unarchive)
        case .tomorrow(let t): return selection(t, s).map(ActionRequest.tomorrow)
        case .reschedule(let t, let when):
            var picked: Due? = nil
            if !["clear", "none"].contains(when.text.lowercased()) {
                switch wholeDate(when, s, help: "today, tomorrow, next week, a date, or clear") {
                case .success(let d): picked = d
                case .failure(let d): return .failure(d)
                }
            }
            return selection(t, s).map { .reschedule($0, to: picked) }
        case .move(let t, let groupText):
            // R-VIEW-4: moving into a due group reschedules and keeps the time of day.
            guard let group = DueGroup(words: groupText.text) else {
                let names = DueGroup.allCases.map(\.rawValue)
                return .failure(Catalog.notADueGroup(groupText.text, range: groupText.range, file: s.source.file, candidates: names))
            }
            return selection(t, s).map { .move($0, to: group) }
        case .duplicate(let t): return selection(t, s).map(ActionRequest.duplicate)
        default: return nil
        }
    }

    /// A delete's request. A bulk delete waits for a yes when the front end asks for one and
    /// the filter matches something.
    package func resolveDelete(_ s: Statement, _ target: TaskTarget) -> Result<ActionRequest, Diagnostic> {
        if case .filter(let f) = target, bulkDelete == .ask, !confirmed {
            switch compileTarget(f, s) {
            case .failure(let d): return .failure(d)
            case .success(let e):
                let ids: [Int]
                do throws(RegexBudgetError) { ids = try engine.ids(matching: e) } catch { return .failure(regexBudgetError(error, s)) }
                if !ids.isEmpty { return .success(.confirmDelete(f, ids: ids)) }
            }
        }
        return selection(target, s).map(ActionRequest.delete)
    }
}
