// The render stage of undo and redo: the engine undoes whole steps (Domain/Engine+Undo); a
// deleted task comes back under a new id, which the line names (R-TASK-3).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// `Undid complete 3 (back as 9)`, a line a step.
    package func renderUndone(_ steps: [UndoneStep]) -> CommandOutput {
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

    /// `Redid complete 3`, a line a step.
    package func renderRedone(_ steps: [UndoneStep]) -> CommandOutput {
        out(steps.map { "Redid \($0.summary)" }, json: .object(JSONObject([("redone", .array(steps.map { .string($0.summary) }))])), changed: true)
    }
}
