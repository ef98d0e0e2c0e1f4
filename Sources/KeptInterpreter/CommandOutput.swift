// What running one statement produced: the lines to print, the diagnostics, and whether the
// store changed (so a front end knows to write it).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A question a front end asks before running a statement again with `confirmed: true`.
public struct Confirmation: Sendable, Equatable {
    /// `Delete 3 tasks where #errand?`
    public var question: String
    /// What would be deleted, one task a line.
    public var details: [String]
    /// What the statement prints when the answer is no, in the session's format.
    public var declined: [String]
}

/// Whether a bulk delete runs at once or waits for a yes: the engine never reads a terminal, so
/// the REPL and the runners decide (R-TASK-5; docs/SCRIPTS.md).
public enum BulkDeletePolicy: Sendable {
    case run, ask
}

/// How a session's output is laid out for where it goes (docs/OUTPUT.md, "Width and colour"):
/// the front end decides from the command line, the environment and the terminal.
public struct DisplayOptions: Sendable, Equatable {
    /// The columns a listing fits (R-VIEW-7); nil for no limit.
    public var width: Int?
    /// Whether listings are coloured (R-VIEW-10): only on a terminal, or with `--color always`.
    public var color = false
    /// Whether JSON is printed pretty, over several lines (`--pretty`, `.mode json pretty`).
    public var prettyJSON = false

    public init(width: Int? = nil, color: Bool = false, prettyJSON: Bool = false) {
        self.width = width
        self.color = color
        self.prettyJSON = prettyJSON
    }
}

/// The result of one statement.
public struct CommandOutput: Sendable {
    /// Output lines, without line breaks; in JSON mode one JSON object per line.
    public var lines: [String] = []
    public var diagnostics: [Diagnostic] = []
    /// True when the statement changed the store.
    public var changed = false
    /// Set when the statement waits for the user's yes (a bulk delete under `.ask`); it changed
    /// nothing, and `diagnostics` holds the error a front end that cannot ask reports.
    public var confirmation: Confirmation?
    /// Set when the lines are a file's own bytes (an export to standard output): shown as they
    /// are, so `export - > f` writes what `export f` writes (CRLF and all).
    public var verbatim = false
    /// Set when the lines carry colour (SGR sequences the renderer wrote around text it had
    /// already escaped): displaying them escapes everything but those sequences.
    public var styled = false
    /// The width the lines were laid out to fit, when they are a listing that had one
    /// (R-VIEW-7): `.record` writes it as `@width N`, so the transcript replays the same rows.
    public var fittedTo: Int?
    /// Set when the statement failed only because the sync server could not be reached: how
    /// many changes wait in the outbox (E0342). Nothing was lost, and a front end tells it
    /// apart: `kept sync` and a run whose only failures are these exit 3 (docs/LANGUAGE.md).
    public var syncOffline: Int? = nil

    public init(lines: [String] = [], diagnostics: [Diagnostic] = [], changed: Bool = false) {
        self.lines = lines
        self.diagnostics = diagnostics
        self.changed = changed
    }

    public var failed: Bool { diagnostics.contains { $0.severity == .error } }

    package static func error(_ d: Diagnostic) -> CommandOutput { CommandOutput(diagnostics: [d]) }
}
