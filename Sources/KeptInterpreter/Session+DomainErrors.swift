// The engine's errors as diagnostics, pointing at the words they are about: a statement passes
// the range (the task reference, or the value) and what the words said where the message
// quotes them. The catalog words each error (Catalog+Domain).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a statement's words said, for messages that quote them.
package struct ErrorWords {
    /// The value as typed (`set 1 status done`: `done`).
    package var value: String? = nil
    /// How the target reads in a help line (`3`, `where #errand`).
    package var target: String? = nil
    /// Names as the user typed them (`42` → `#42`).
    package var quoted: [String: String] = [:]
}

extension Session {
    /// The diagnostic of an engine error, pointing at `range` in the statement's file.
    package func diagnostic(_ e: DomainError, _ s: Statement, at range: SourceRange, words: ErrorWords = ErrorWords()) -> Diagnostic {
        Catalog.domain(e, range: range, file: s.source.file, words: words, text: text)
    }
}
