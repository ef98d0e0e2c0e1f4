// A diagnostic is data: a code, a one-line message and the ranges it is about. The engine
// returns them; only a renderer draws them (swift-syntax keeps the two apart the same way).

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

    public init(code: DiagnosticCode, severity: Severity? = nil, message: String, file: SourceFile? = nil,
                range: SourceRange? = nil, label: String? = nil, secondary: [DiagnosticLabel] = [],
                notes: [String] = [], help: String? = nil) {
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
        self.help = help.map(DisplayText.escaped)
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
