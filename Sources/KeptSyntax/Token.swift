// The tokens of the statement language. Capture lines keep their raw text as well, since the
// quick-add parser reads sigils and spacing that the statement lexer does not keep.

import KeptRules

/// What a token is.
public enum TokenKind: Hashable, Sendable {
    /// A run of bytes up to white space or punctuation (`list`, `#errand`, `2026-06-15`, `15:00`).
    case word
    /// A word made only of ASCII digits.
    case number
    /// A `"quoted text"`; `text` holds it without quotes and with escapes undone.
    case string
    /// One of `( ) , = < > <= >= ~ & |`.
    case punct
    /// A `/pattern/flags` after `~` (and spaces): `text` holds it as written, from its `/` to
    /// where a word would end after the closing `/`; the last `flags` bytes are what follows
    /// that `/`, flags or not, which the filter parser checks. A `,`, `)`, `|` or space inside
    /// the pattern is the pattern's.
    case pattern(flags: Int)
    /// A `/` after `~` that no `/` closes: the word it starts, as any word is read, which the
    /// filter parser reports as an unterminated pattern.
    case unclosedPattern
    /// The end of the statement.
    case end
}

/// One token with the byte range it came from.
public struct Token: Hashable, Sendable {
    public var kind: TokenKind
    /// The token's value: the word, the unquoted string, the punctuation.
    public var text: String
    public var range: SourceRange

    public init(kind: TokenKind, text: String, range: SourceRange) {
        self.kind = kind
        self.text = text
        self.range = range
    }

    /// True for a word or number spelled `word`, ignoring ASCII case.
    public func isWord(_ word: String) -> Bool {
        (kind == .word || kind == .number) && text.lowercased() == word
    }

    public func isPunct(_ p: String) -> Bool { kind == .punct && text == p }

    /// What a diagnostic says was found here: the token's text, or nil at the end of the
    /// statement, where nothing was.
    public var found: String? { kind == .end ? nil : text }
}
