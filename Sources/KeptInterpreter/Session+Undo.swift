// undo and redo in the language: the engine undoes whole steps (Domain/Engine+Undo); a deleted
// task comes back under a new id, which the line names (R-TASK-3).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    package func runUndo(_ s: Statement, _ count: Int) -> CommandOutput {
        let steps: [UndoneStep]
        do { steps = try engine.undo(count) } catch { return .error(diagnostic(error, s, at: s.keywordRange)) }
        var lines: [String] = []
        for st in steps {
            // The parent of a deleted tree is restored first, so it is named first.
            var note = ""
            if let last = st.restored.last {
                note = st.restored.count == 1 ? " (back as \(last))" : " (back as \(st.restored.dropLast().map(String.init).joined(separator: ", ")) and \(last))"
            }
            lines.append("Undid \(st.summary)\(note)")
        }
        return out(lines, json: .object(JSONObject([("undone", .array(steps.map { .string($0.summary) }))])), changed: true)
    }

    package func runRedo(_ s: Statement, _ count: Int) -> CommandOutput {
        let steps: [UndoneStep]
        do { steps = try engine.redo(count) } catch { return .error(diagnostic(error, s, at: s.keywordRange)) }
        return out(steps.map { "Redid \($0.summary)" }, json: .object(JSONObject([("redone", .array(steps.map { .string($0.summary) }))])), changed: true)
    }
}
