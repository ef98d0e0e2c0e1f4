// What `kept test` found, as values: the outcome of each command, the report of each script,
// and which commands a run selects (`-k`, `FILE:LINE`). The runner prints them as people read
// them; TestReport.swift writes them as TAP or JUnit XML.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// What became of one command under test.
struct TestOutcome: Sendable {
    enum Status: String, Sendable {
        case passed, failed, skipped
        /// It failed under `@xfail`, as expected.
        case xfailed
        /// It (or every command of its case or file) passed under `@xfail`: a failure.
        case xpassed
    }

    var line: Int
    var caseName: String?
    /// The command as written (its first line), or the `@xfail` of a case or file that passed.
    var statement: String
    var status: Status
    /// The reason of its `@skip` or `@xfail`.
    var reason: String?
    var seconds: Double = 0
    /// For a failure: the `FAIL file:line` header, the command and the diff.
    var failure: [String] = []
    /// The block `--update` would write instead, when its output differs.
    var update: BlockUpdate? = nil
    /// The line its own `@skip` or `@xfail` adds to the summary.
    var note: String? = nil

    var isFailure: Bool { status == .failed || status == .xpassed }
}

/// The new expected lines of one failing block, and the lines of the file they replace.
struct BlockUpdate: Sendable {
    /// The 1-based lines of the old block (empty when the command expected nothing).
    var lines: Range<Int>
    var replacement: [String]
}

/// The outcome of one script.
struct ScriptReport: Sendable {
    var path: String
    var outcomes: [TestOutcome] = []
    /// Why the script could not run, each diagnostic as one line: the script is an error.
    var errors: [String] = []
    /// A line of the summary: a skip's or an expected failure's reason.
    struct Note: Sendable {
        var line: Int
        var text: String
    }
    /// The reasons of the skips and expected failures of its cases and of the file.
    var notes: [Note] = []
    /// Commands the selection left out.
    var deselected = 0
    /// Not run at all: the run stopped (`--max-failures`) before its turn.
    var notRun = false
    var seconds: Double = 0
    /// Blocks `--update` rewrote.
    var updatedBlocks = 0

    init(path: String) { self.path = path }

    var broken: Bool { !errors.isEmpty }
    /// Every skip's and expected failure's reason, in the order of the file.
    var allNotes: [String] {
        (notes + outcomes.compactMap { o in o.note.map { Note(line: o.line, text: $0) } })
            .enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element.text)
    }
    func count(_ s: TestOutcome.Status) -> Int { outcomes.reduce(0) { $0 + ($1.status == s ? 1 : 0) } }
    var failures: Int { outcomes.reduce(0) { $0 + ($1.isFailure ? 1 : 0) } }
    /// Whether any command ran or was skipped: a script the selection left entirely out is
    /// not reported.
    var selected: Bool { broken || !outcomes.isEmpty }
}

/// Which commands of the scripts a run tests.
struct TestSelection: Sendable {
    /// `-k`: parts (or globs) of `path::case`.
    var patterns: [String] = []
    /// `FILE:LINE`: the lines asked for, by the file's path as found.
    var lines: [String: [Int]] = [:]

    var isEverything: Bool { patterns.isEmpty && lines.isEmpty }

    /// A command's name for `-k`: its path, and `::` and its case when it has one.
    static func name(_ path: String, _ caseName: String?) -> String {
        caseName.map { "\(path)::\($0)" } ?? path
    }

    /// Whether `-k` picks a name: any pattern, as a part of it ignoring case; with `*` or `?` it
    /// is a glob, still matching a part (`a.kept::*them` picks `tests/a.kept::list them`).
    func picks(_ name: String) -> Bool {
        guard !patterns.isEmpty else { return true }
        let lower = name.lowercased()
        return patterns.contains { p in
            let lp = p.lowercased()
            if lp.contains("*") || lp.contains("?") {
                return ExpectedLine.glob(Array(("*" + lp + "*").unicodeScalars), Array(lower.unicodeScalars))
            }
            return lower.contains(lp)
        }
    }
}
