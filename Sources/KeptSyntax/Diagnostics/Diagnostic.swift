// A diagnostic is data: a code, a one-line message, the ranges it is about and the fixes it
// knows. The engine returns them; only a renderer draws them (swift-syntax keeps the two apart
// the same way).

import KeptRules

/// A secondary range with its own label ("'(' opened here").
public struct DiagnosticLabel: Sendable {
    public var range: SourceRange
    public var text: String
    public init(range: SourceRange, text: String) {
        self.range = range
        self.text = text
    }
}

/// A fix a diagnostic knows for certain, as data: replace the text of `range` with
/// `replacement`. The REPL shows its title as the did-you-mean; a language server offers it as
/// a code action.
public struct FixIt: Sendable, Equatable {
    /// What the fix does, as a help line: `did you mean 'list'?`.
    public var title: String
    /// The bytes it replaces, in the diagnostic's file.
    public var range: SourceRange
    public var replacement: String

    public init(title: String, range: SourceRange, replacement: String) {
        self.title = title
        self.range = range
        self.replacement = replacement
    }

    /// The text with the fix made.
    public func applied(to text: String) -> String {
        let b = Array(text.utf8)
        let s = max(0, min(range.start, b.count)), e = max(s, min(range.end, b.count))
        return String(decoding: b[..<s] + Array(replacement.utf8) + b[e...], as: UTF8.self)
    }
}

/// One error or warning with everything needed to draw it.
public struct Diagnostic: Error, Sendable {
    /// A stable code from the catalog: `E00xx` lexical, `E01xx` syntax, `E02xx` meaning,
    /// `E03xx` runtime, `W…` warnings.
    public var code: DiagnosticCode
    public var severity: Severity
    /// One line, lowercase, no final period.
    public var message: String
    /// The file the ranges point into; nil for a diagnostic about no source (a usage error).
    public var file: SourceFile?
    public var range: SourceRange?
    /// The text under the caret.
    public var label: String?
    public var secondary: [DiagnosticLabel]
    public var notes: [String]
    public var help: String?
    /// The fixes the catalog knows for certain (a did-you-mean), in the diagnostic's file.
    public var fixIts: [FixIt]

    /// A diagnostic without a help of its own takes its first fix-it's title as its help: the
    /// did-you-mean a renderer prints is the fix-it's.
    public init(code: DiagnosticCode, severity: Severity? = nil, message: String, file: SourceFile? = nil,
                range: SourceRange? = nil, label: String? = nil, secondary: [DiagnosticLabel] = [],
                notes: [String] = [], help: String? = nil, fixIts: [FixIt] = []) {
        self.code = code
        self.severity = severity ?? code.severity
        // Messages quote user text (a title, an unknown word): its control characters are
        // escaped here, once for every diagnostic, so no form of it prints them raw.
        self.message = DisplayText.escaped(message)
        self.file = file
        self.range = range
        self.label = label.map(DisplayText.escaped)
        self.secondary = secondary.map { DiagnosticLabel(range: $0.range, text: DisplayText.escaped($0.text)) }
        self.notes = notes.map(DisplayText.escaped)
        self.fixIts = fixIts.map { FixIt(title: DisplayText.escaped($0.title), range: $0.range, replacement: $0.replacement) }
        self.help = help.map(DisplayText.escaped) ?? self.fixIts.first?.title
    }

    /// The 1-based line and column of the primary range, when there is one.
    public var location: (line: Int, column: Int)? {
        guard let file, let range else { return nil }
        return file.lineColumn(of: range.start)
    }

    /// The same diagnostic pointing at another range of the same file.
    public func at(_ range: SourceRange, label: String? = nil) -> Diagnostic {
        var d = self
        d.range = range
        if let label { d.label = label }
        return d
    }
}
