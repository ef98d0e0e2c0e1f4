// The statement lexer: one statement's bytes to tokens, on bytes, never printing. A lexical
// error (an unclosed quote) becomes a diagnostic and the lexer still ends the token stream.
// A `/pattern/` after `~` is one token, so no later stage looks inside it.

import KeptRules

/// Splits one statement into tokens.
public struct Lexer {
    private let bytes: [UInt8]
    private let base: Int
    private let end: Int
    private var i: Int
    public private(set) var diagnostics: [Diagnostic] = []
    private let file: SourceFile
    /// True just after a `~`: a `/` after it, past spaces, starts a pattern.
    private var afterTilde = false

    /// Lexes `range` of `file`. `bytes` is the statement's text with continuation prefixes
    /// blanked, laid at the same offsets as in the file.
    public init(file: SourceFile, statement: StatementSource) {
        self.file = file
        self.bytes = statement.bytes
        self.base = statement.range.start
        self.end = statement.bytes.count
        self.i = 0
    }

    package static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    package static func isPunct(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: "="),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "~"), UInt8(ascii: "&"),
             UInt8(ascii: "|"):
            return true
        default:
            return false
        }
    }

    /// All tokens of the statement, ending with `.end`. A statement past the size or token
    /// limit (docs/LIMITS.md) gives an error and no more tokens, so no later stage sees it.
    public mutating func tokenize() -> [Token] {
        if end > Limits.statementBytes {
            diagnostics.append(Catalog.statementTooLong(file: file, range: range(0, end), bytes: end))
            return [Token(kind: .end, text: "", range: range(end, end))]
        }
        var out: [Token] = []
        while true {
            let t = next()
            if out.count == Limits.statementTokens, t.kind != .end {
                diagnostics.append(Catalog.tooManyTokens(file: file, range: t.range))
                return [Token(kind: .end, text: "", range: range(end, end))]
            }
            out.append(t)
            if t.kind == .end { return out }
        }
    }

    private func range(_ s: Int, _ e: Int) -> SourceRange {
        SourceRange(start: base + s, end: base + e)
    }

    /// The next token.
    public mutating func next() -> Token {
        if afterTilde {
            afterTilde = false
            // Only spaces may stand between `~` and its pattern, as the filter parser always read it.
            var j = i
            while j < end, bytes[j] == 0x20 { j += 1 }
            if j < end, bytes[j] == UInt8(ascii: "/") {
                i = j
                return lexPattern()
            }
        }
        while i < end, Lexer.isSpace(bytes[i]) { i += 1 }
        guard i < end else { return Token(kind: .end, text: "", range: range(end, end)) }
        let start = i
        let b = bytes[i]
        if b == UInt8(ascii: "\"") { return lexString() }
        if Lexer.isPunct(b) {
            i += 1
            if (b == UInt8(ascii: "<") || b == UInt8(ascii: ">")), i < end, bytes[i] == UInt8(ascii: "=") {
                i += 1
            }
            afterTilde = b == UInt8(ascii: "~")
            return Token(kind: .punct, text: String(decoding: bytes[start..<i], as: UTF8.self),
                         range: range(start, i))
        }
        return lexWord()
    }

    /// A word: bytes up to white space, punctuation or a quote; `\` makes the next byte part
    /// of it, whatever it is.
    private mutating func lexWord() -> Token {
        let start = i
        var text: [UInt8] = []
        var allDigits = true
        while i < end {
            let c = bytes[i]
            if Lexer.isSpace(c) || Lexer.isPunct(c) || c == UInt8(ascii: "\"") { break }
            if c == UInt8(ascii: "\\"), i + 1 < end {
                // `\` makes the next byte part of the word, whatever it is.
                text.append(bytes[i + 1])
                i += 2
                allDigits = false
                continue
            }
            if c < UInt8(ascii: "0") || c > UInt8(ascii: "9") { allDigits = false }
            text.append(c)
            i += 1
        }
        return Token(kind: allDigits ? .number : .word, text: String(decoding: text, as: UTF8.self),
                     range: range(start, i))
    }

    /// `/pattern/flags` after `~`, from the `/` at `i`: to the closing `/` (a `\` keeps the next
    /// byte in the pattern), then the flags, up to a space, punctuation or a quote, where the
    /// word the closing `/` is in would end. The flags are checked by the filter parser, so a
    /// pattern after `~` in a title (`add Fix ~ /x/`) is no error. A pattern no `/` closes is
    /// the word its `/` starts, of kind `unclosedPattern`; what follows it is read as before.
    private mutating func lexPattern() -> Token {
        let start = i
        let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")
        var j = i + 1
        while j < end, bytes[j] != slash { j += bytes[j] == backslash && j + 1 < end ? 2 : 1 }
        guard j < end else {
            var t = lexWord()
            t.kind = .unclosedPattern
            return t
        }
        j += 1
        let flags = j
        while j < end, bytes[j] != 0x20, !Lexer.isPunct(bytes[j]), bytes[j] != UInt8(ascii: "\"") {
            j += bytes[j] == backslash && j + 1 < end ? 2 : 1
        }
        i = j
        return Token(kind: .pattern(flags: j - flags), text: String(decoding: bytes[start..<j], as: UTF8.self), range: range(start, j))
    }

    private mutating func lexString() -> Token {
        let start = i
        i += 1
        var text: [UInt8] = []
        while i < end {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return Token(kind: .string, text: String(decoding: text, as: UTF8.self), range: range(start, i))
            }
            if c == UInt8(ascii: "\\"), i + 1 < end {
                let n = bytes[i + 1]
                switch n {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                default: text.append(n)
                }
                i += 2
                continue
            }
            text.append(c)
            i += 1
        }
        diagnostics.append(Catalog.unterminatedString(file: file, range: range(start, start + 1)))
        return Token(kind: .string, text: String(decoding: text, as: UTF8.self), range: range(start, i))
    }
}
