// Piped input: no prompt, no echo, no colour, no history, and the same reading as `kept run`
// on stdin, line by line so output keeps pace with input: a plain script (a command per line,
// `... ` continuing it) or a transcript (`> ` commands, their expected output skipped), `#`
// comments and `@format json` before a command. The first failing statement (or dot-command)
// is reported and ends the input with exit 1, as issue 8 asks (`sqlite3 -bail`); after
// `.bail off` the input reads on as `kept run` does. Exit 2 when the input is unreadable
// (docs/DECISIONS.md).

import KeptCore

extension REPL {
    func runPiped() {
        var transcript = false
        var inExpected = false
        var modifiers: [TranscriptDirective] = []
        var lookahead: EditorInput? = nil
        func next() -> EditorInput {
            if let l = lookahead { lookahead = nil; return l }
            return editor.read(prompt: "")
        }
        while !quit {
            let input = next()
            let line: String
            switch input {
            case .end, .interrupted:
                return
            case .invalid(let bytes, let offset):
                lineNumber += 1
                report(Catalog.invalidUTF8(file: SourceFile(name: "<stdin>", bytes: bytes, firstLine: lineNumber), offset: offset))
                unreadable = true
                return
            case .tooLong(let start):
                lineNumber += 1
                let f = SourceFile(name: "<stdin>", bytes: start, firstLine: lineNumber)
                report(Catalog.statementTooLong(file: f, range: SourceRange(start: 0, end: 0), bytes: nil))
                unreadable = true
                return
            case .line(let l):
                line = l
                lineNumber += 1
            }
            let isCommand = line.hasPrefix("> ") || line == ">"
            let blank = line.allSatisfy { $0 == " " || $0 == "\t" }
            if inExpected {
                if blank { inExpected = false; continue }
                if !isCommand { continue }
                inExpected = false
            }
            if isCommand { transcript = true }
            if blank || line.hasPrefix("#") { continue }
            if line.hasPrefix("@") {
                let d = REPL.directive(line, line: lineNumber)
                if let e = Transcript.check(d, file: SourceFile(name: "<stdin>", text: line, firstLine: lineNumber)) {
                    report(e)
                    unreadable = true
                    return
                }
                if Transcript.commandDirectives.contains(d.name) { modifiers.append(d) }
                continue
            }
            if transcript && !isCommand {
                let file = SourceFile(name: "<stdin>", text: line, firstLine: lineNumber)
                report(Catalog.strayTranscriptLine(file: file, range: SourceRange(start: 0, end: file.bytes.count)))
                unreadable = true
                return
            }
            let prefix = isCommand ? min(2, line.utf8.count) : 0
            if String(line.dropFirst(prefix)).trimmedSpaces.hasPrefix(".") {
                dotCommand(line, name: "<stdin>", line: lineNumber, from: prefix)
                flush()
                modifiers = []
                if transcript { inExpected = true }
                if bail, runner.failed { return }
                continue
            }
            // Continuations: `... text`, right after the command or another continuation. When
            // no further input is there yet and the statement is finished, it runs now: a
            // program writing a line at a time sees each statement's output before it sends
            // the next (issue 18).
            let first = lineNumber
            var lines = [line]
            func statement() -> StatementSource {
                let text = lines.joined(separator: "\n")
                let file = SourceFile(name: "<stdin>", text: text, firstLine: first)
                var blanks: [SourceRange] = []
                var offset = lines[0].utf8.count + 1
                for c in lines.dropFirst() {
                    blanks.append(SourceRange(start: offset, end: offset + 4))
                    offset += c.utf8.count + 1
                }
                return StatementSource(file: file, range: SourceRange(start: prefix, end: file.bytes.count), blanking: blanks)
            }
            while true {
                if lookahead == nil, !editor.inputReady(), !Parser.isIncomplete(statement()) { break }
                let n = next()
                if case .line(let c) = n, c.hasPrefix("... ") {
                    lines.append(c)
                    lineNumber += 1
                } else {
                    lookahead = n
                    break
                }
            }
            let src = statement()
            let typed = [String(lines[0].dropFirst(prefix))] + lines.dropFirst().map { String($0.dropFirst(4)) }
            execute(src, lines: typed, modifiers: modifiers)
            flush()
            modifiers = []
            if transcript { inExpected = true }
            // The first error ends piped input (exit 1), unless `.bail off`.
            if bail, runner.failed { return }
        }
    }

    /// A directive line `@name rest`, as Transcript reads it.
    static func directive(_ line: String, line number: Int) -> TranscriptDirective {
        TranscriptDirective(text: String(line.dropFirst()), line: number, range: SourceRange(start: 0, end: line.utf8.count))
    }
}
