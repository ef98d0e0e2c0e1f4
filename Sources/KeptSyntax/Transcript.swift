// Script files are transcripts: `> ` commands, `... ` continuations, expected output up to a
// blank line, `#` comments and `@` directives between blocks. A file with no `> ` line is a
// plain script: every line that is not blank, a comment or a directive is a command.
//
// `@skip` and `@xfail` mark what they are written on: the command or the `@case` line right
// below them; or, standing alone (a blank or comment line after them) before the first command
// of the file or of a case, that whole file or case.

import KeptRules

/// One command of a script with the output a transcript expects of it.
public struct TranscriptCommand: Sendable {
    public let statement: StatementSource
    /// The 1-based line of the `> `.
    public let line: Int
    /// The expected lines as written (patterns and `! CODE …` lines included).
    public var expected: [String]
    /// The 1-based lines of the expected block: `expectedLines.lowerBound` is the first line after
    /// the command, and the block is empty when the two bounds are equal.
    public var expectedLines: Range<Int>
    /// The `@` directives written just before this command (`@format json`, `@unordered`, …).
    public var modifiers: [TranscriptDirective]
    /// The case it belongs to (`@case "name"`), nil before the first case.
    public var caseName: String?
}

/// A directive line: `@name rest`.
public struct TranscriptDirective: Sendable, Equatable {
    public let name: String
    public let argument: String
    public let line: Int
    public let range: SourceRange

    public init(name: String, argument: String, line: Int, range: SourceRange) {
        self.name = name
        self.argument = argument
        self.line = line
        self.range = range
    }

    /// A directive from its text after the `@`: the name up to the first blank, the rest
    /// trimmed as its argument.
    public init(text: String, line: Int, range: SourceRange) {
        if let sp = text.firstIndex(where: { $0 == " " || $0 == "\t" }) {
            self.init(name: String(text[..<sp]), argument: String(text[sp...]).trimmedSpaces, line: line, range: range)
        } else {
            self.init(name: text, argument: "", line: line, range: range)
        }
    }

    /// The argument without the quotes around it: a case's name, a skip's reason.
    public var unquoted: String {
        var a = argument
        if a.count >= 2, a.hasPrefix("\""), a.hasSuffix("\"") { a = String(a.dropFirst().dropLast()) }
        return a
    }

    /// `@skip` and `@xfail`: they mark a command, a case or the file.
    public var isMark: Bool { Transcript.markDirectives.contains(name) }
}

/// One element of a script, in order.
public enum TranscriptItem: Sendable {
    case command(TranscriptCommand)
    /// A directive that modifies no command: `@case`, `@store`, and a `@skip` or `@xfail` of
    /// the file (before the first `@case`) or of the case it follows.
    case directive(TranscriptDirective)
}

/// A script split into commands and directives, with any lines it could not place.
public struct Transcript: Sendable {
    /// Directives that stand alone: `@case "name"`, `@store FILE`.
    public static let fileDirectives = ["case", "store"]
    /// Directives that modify the next command.
    public static let commandDirectives = ["format", "unordered", "skip", "xfail", "yes", "width"]
    /// Directives that mark a command, a case or the file as skipped or expected to fail.
    public static let markDirectives = ["skip", "xfail"]

    public let file: SourceFile
    public let items: [TranscriptItem]
    /// True when the file holds `> ` lines; false for a plain script.
    public let isTranscript: Bool
    public let diagnostics: [Diagnostic]

    public var commands: [TranscriptCommand] {
        items.compactMap { if case .command(let c) = $0 { return c } else { return nil } }
    }

    /// Directives that apply to the whole file or a case, in order.
    public var directives: [TranscriptDirective] {
        items.compactMap { if case .directive(let d) = $0 { return d } else { return nil } }
    }

    /// The error of a directive line, or nil when it is a known one with a good argument: the
    /// one check of transcripts and of piped REPL input.
    public static func check(_ d: TranscriptDirective, file: SourceFile) -> Diagnostic? {
        if fileDirectives.contains(d.name) { return nil }
        guard commandDirectives.contains(d.name) else {
            return Catalog.unknownDirective(d, file: file, candidates: fileDirectives + commandDirectives)
        }
        if d.name == "format", OutputFormat(rawValue: d.argument) == nil {
            return Catalog.badFormatDirective(d.argument, range: d.range, file: file)
        }
        // `@width N` (20 or more) or `@width none`: never the terminal's, so a run is the same anywhere.
        if d.name == "width", d.argument.lowercased() != "none", (Int(d.argument) ?? 0) < 20 || (Int(d.argument) ?? 0) > 10_000 {
            return Catalog.badWidthDirective(d.argument, range: d.range, file: file)
        }
        return nil
    }

    public init(file: SourceFile) {
        self.file = file
        var lines: [(start: Int, end: Int)] = []
        for (k, s) in file.lineStarts.enumerated() {
            var e = k + 1 < file.lineStarts.count ? file.lineStarts[k + 1] - 1 : file.bytes.count
            if e > s, file.bytes[e - 1] == 0x0D { e -= 1 }
            lines.append((s, max(s, e)))
        }
        // A final line break leaves an empty last line that is not part of the script.
        if let last = lines.last, last.start == last.end, lines.count > 1 { lines.removeLast() }
        let b = file.bytes
        let transcript = lines.contains { TranscriptReader.isCommandLine(b[$0.start..<$0.end]) }
        self.isTranscript = transcript
        var reader = TranscriptReader(transcript: transcript)

        var items: [TranscriptItem] = []
        var diags: [Diagnostic] = []
        var pending: [TranscriptDirective] = []
        var caseName: String? = nil
        // The command being read: its first line, its statement's start and end, the
        // continuation prefixes to blank, and its expected lines.
        var open: (line: Int, start: Int, end: Int, blanks: [SourceRange], expected: [String], first: Int,
                   modifiers: [TranscriptDirective])? = nil
        func close() {
            guard let c = open else { return }
            open = nil
            let stmt = StatementSource(file: file, range: SourceRange(start: c.start, end: c.end), blanking: c.blanks)
            items.append(.command(TranscriptCommand(
                statement: stmt, line: c.line, expected: c.expected,
                expectedLines: c.first..<(c.first + c.expected.count), modifiers: c.modifiers, caseName: caseName)))
        }
        // Whether the file, or the case being read, has had a command yet: a `@skip` or
        // `@xfail` standing alone marks the file or case only before its first command.
        var scopeHasCommand = false
        func addDirective(_ d: TranscriptDirective) {
            switch d.name {
            case "case":
                caseName = d.unquoted
                scopeHasCommand = false
                items.append(.directive(d))
                // A mark right above `@case` is the case's.
                items += pending.filter(\.isMark).map { .directive($0) }
                pending.removeAll(where: \.isMark)
            case "store":
                items.append(.directive(d))
            default:
                if let e = Transcript.check(d, file: file) { diags.append(e) }
                pending.append(d)
            }
        }
        // A blank or comment line (or the end) after a mark: it stands alone, for the scope.
        func standAlone() {
            let marks = pending.filter(\.isMark)
            guard !marks.isEmpty else { return }
            pending.removeAll(where: \.isMark)
            for m in marks {
                if scopeHasCommand {
                    diags.append(Catalog.misplacedMark(m, file: file, inCase: caseName != nil))
                } else {
                    items.append(.directive(m))
                }
            }
        }
        for (n, l) in lines.enumerated() {
            let lineNo = n + 1
            switch reader.read(b[l.start..<l.end]) {
            case .command(let prefix):
                close()
                open = (lineNo, l.start + prefix, l.end, [], [], lineNo + 1, pending)
                pending = []
                scopeHasCommand = true
            case .continuation:
                open?.blanks.append(SourceRange(start: l.start, end: l.start + 4))
                open?.end = l.end
                open?.first = lineNo + 1
            case .expected:
                open?.expected.append(String(decoding: b[l.start..<l.end], as: UTF8.self))
            case .blank, .comment:
                standAlone()
            case .directive:
                close()
                addDirective(TranscriptDirective(text: String(decoding: b[(l.start + 1)..<l.end], as: UTF8.self), line: lineNo,
                                                 range: SourceRange(start: l.start, end: l.end)))
            case .stray:
                close()
                diags.append(Catalog.strayTranscriptLine(file: file, range: SourceRange(start: l.start, end: l.end)))
            }
        }
        close()
        standAlone()
        self.items = items
        self.diagnostics = diags
    }
}
