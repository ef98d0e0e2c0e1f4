// The resolve stage of showing tasks: `show ID [FIELD]`, the task looked up and the field
// named.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The request of `show`: the task, then the field; nil when the statement is not one.
    package func resolveShow(_ s: Statement) -> Result<Request, Diagnostic>? {
        guard case .show(let ref, let field) = s.kind else { return nil }
        return resolve(ref, s).flatMap { t in
            guard let field else { return .success(.show(t, field: nil)) }
            guard let f = TaskField(rawValue: field.text.lowercased()) else {
                return .failure(Catalog.unknownField(field.text, range: field.range, file: s.source.file, candidates: TaskField.allCases.map(\.rawValue)))
            }
            return .success(.show(t, field: f))
        }
    }
}
