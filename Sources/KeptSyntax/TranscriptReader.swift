// The one reading of a script's lines, a line at a time: `Transcript` reads a whole file with
// it, and the piped REPL reads its input with it as the lines arrive. A transcript's lines are
// `> ` commands, `... ` continuations right after them, the expected block up to a blank line
// or the next `> `, and between blocks `#` comments, `@` directives and blank lines. A plain
// script (no `> ` line) has a command on every other line.

import KeptRules

/// Classifies the lines of a script in order.
public struct TranscriptReader: Sendable {
    /// What one line of a script is.
    public enum Line: Sendable, Equatable {
        /// The first line of a statement; its text starts after `prefix` bytes (`> `, or none in
        /// a plain script).
        case command(prefix: Int)
        /// `... text`, right after a command line or another continuation.
        case continuation
        /// A line of the expected block under a transcript's command.
        case expected
        case blank
        case comment
        case directive
        /// Text outside any block of a transcript (docs/SCRIPTS.md).
        case stray
    }

    /// True once the script is known to be a transcript.
    public private(set) var isTranscript: Bool
    /// Input read as it comes turns into a transcript at its first `> ` line; a file knows
    /// from the start.
    private let discovers: Bool
    /// After a transcript's command: the expected block goes on to a blank line or a `> `.
    private var inBlock = false
    /// Right after a command line or a continuation: a `... ` line continues it.
    private var continues = false

    /// A reader for a file, which knows whether it holds `> ` lines.
    public init(transcript: Bool) {
        isTranscript = transcript
        discovers = false
    }

    /// A reader for input read a line at a time (the piped REPL): it is a plain script until its
    /// first `> ` line.
    public static func discovering() -> TranscriptReader {
        TranscriptReader(discovers: true)
    }

    private init(discovers: Bool) {
        isTranscript = false
        self.discovers = discovers
    }

    /// Whether a line is a transcript's command line: `> text` or `>` alone.
    public static func isCommandLine<C: Collection>(_ line: C) -> Bool where C.Element == UInt8 {
        guard let first = line.first, first == UInt8(ascii: ">") else { return false }
        return line.count == 1 || line.dropFirst().first == 0x20
    }

    package static func isBlank<C: Collection>(_ line: C) -> Bool where C.Element == UInt8 {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    package static func starts<C: Collection>(_ line: C, with prefix: String) -> Bool where C.Element == UInt8 {
        line.starts(with: prefix.utf8)
    }

    /// The kind of the next line (without its line break).
    public mutating func read<C: Collection>(_ line: C) -> Line where C.Element == UInt8 {
        if continues, TranscriptReader.starts(line, with: "... ") { return .continuation }
        continues = false
        let blank = TranscriptReader.isBlank(line)
        let command = TranscriptReader.isCommandLine(line)
        if command, discovers { isTranscript = true }
        if inBlock {
            if blank {
                inBlock = false
                return .blank
            }
            if !command { return .expected }
            inBlock = false
        }
        if blank { return .blank }
        if isTranscript ? command : !(TranscriptReader.starts(line, with: "#") || TranscriptReader.starts(line, with: "@")) {
            continues = true
            inBlock = isTranscript
            return .command(prefix: isTranscript ? min(2, line.count) : 0)
        }
        if TranscriptReader.starts(line, with: "#") { return .comment }
        if TranscriptReader.starts(line, with: "@") { return .directive }
        return .stray
    }
}
