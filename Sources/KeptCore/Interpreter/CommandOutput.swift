// What running one statement produced: the lines to print, the diagnostics, and whether the
// store changed (so a front end knows to write it).

/// How results are printed.
public enum OutputFormat: String, Sendable {
    case text, json
}

/// The result of one statement.
public struct CommandOutput: Sendable {
    /// Output lines, without line breaks; in JSON mode one JSON object per line.
    public var lines: [String] = []
    public var diagnostics: [Diagnostic] = []
    /// True when the statement changed the store.
    public var changed = false

    public init(lines: [String] = [], diagnostics: [Diagnostic] = [], changed: Bool = false) {
        self.lines = lines
        self.diagnostics = diagnostics
        self.changed = changed
    }

    public var failed: Bool { diagnostics.contains { $0.severity == .error } }

    static func error(_ d: Diagnostic) -> CommandOutput { CommandOutput(diagnostics: [d]) }
}
