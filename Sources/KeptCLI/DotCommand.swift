// The REPL's dot-commands: one line each, starting with '.', for the session rather than the
// language (the statements stay the same in the REPL, `kept run` and `kept test`).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// One dot-command line, parsed.
struct DotCommand {
    /// The dot-commands with their usage and what they do, in `.help` order.
    static let table: [(name: String, usage: String, summary: String)] = [
        ("help", ".help [TOPIC]", "list the dot-commands, or explain a command or dot-command"),
        ("open", ".open FILE", "open another store (a missing file is an empty store); it is written after each change"),
        ("save", ".save [FILE]", "commit the store now, or write a copy of it to FILE"),
        ("mode", ".mode text|json [pretty]", "print results as text or as one JSON object per command (pretty: indented, over several lines)"),
        ("width", ".width [N|auto|none]", "the columns lists and plans fit: auto follows the terminal, none cuts nothing"),
        ("timer", ".timer on|off", "print how long each command took, on stderr"),
        ("bail", ".bail on|off", "stop piped input at the first error, exit 1 (on unless turned off; as 'sqlite3 -bail')"),
        ("read", ".read SCRIPT", "run a script's statements, as 'kept run SCRIPT' would"),
        ("record", ".record FILE", "write the session so far as a 'kept test' transcript, with the store and clock it started from"),
        ("history", ".history", "list the history"),
        ("color", ".color [on|off]", "colour capture tokens and errors as you type (off with NO_COLOR)"),
        ("quit", ".quit", "leave the REPL (also .exit, or Ctrl-D)"),
    ]

    static var names: [String] { table.map(\.name) }

    /// The name without the dot, as typed (lowercased).
    let name: String
    /// The name's range in the line.
    let nameRange: SourceRange
    /// The arguments, split on white space, with their ranges.
    let arguments: [(text: String, range: SourceRange)]
    /// The whole argument text after the name, trimmed (a file name may hold spaces).
    let rest: String
    let restRange: SourceRange

    /// Parses a line that starts with '.' (after leading spaces).
    init?(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: ".") else { return nil }
        let s = i
        i += 1
        while i < bytes.count, bytes[i] != 0x20, bytes[i] != 0x09 { i += 1 }
        name = String(decoding: bytes[(s + 1)..<i], as: UTF8.self).lowercased()
        nameRange = SourceRange(start: s, end: i)
        var args: [(String, SourceRange)] = []
        var j = i
        while j < bytes.count {
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x09 { j += 1 }
            guard j < bytes.count else { break }
            let a = j
            while j < bytes.count, bytes[j] != 0x20, bytes[j] != 0x09 { j += 1 }
            args.append((String(decoding: bytes[a..<j], as: UTF8.self), SourceRange(start: a, end: j)))
        }
        arguments = args
        var rs = i
        while rs < bytes.count, bytes[rs] == 0x20 || bytes[rs] == 0x09 { rs += 1 }
        var re = bytes.count
        while re > rs, bytes[re - 1] == 0x20 || bytes[re - 1] == 0x09 { re -= 1 }
        rest = String(decoding: bytes[rs..<re], as: UTF8.self)
        restRange = SourceRange(start: rs, end: max(rs, re))
    }

    /// The usage line of a dot-command by name.
    static func usage(_ name: String) -> String {
        table.first { $0.name == name }?.usage ?? ".\(name)"
    }
}
