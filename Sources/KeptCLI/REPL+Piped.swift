// Piped input: no prompt, no echo, no colour, no history, and the same reading as `kept run`
// on stdin (TranscriptReader, the one reader of scripts), line by line so output keeps pace
// with input: a plain script (a command per line, `... ` continuing it) or a transcript (`> `
// commands, their expected output skipped), `#` comments and `@format json` before a command.
// The first failing statement (or dot-command) is reported and ends the input with exit 1, as
// issue 8 asks (`sqlite3 -bail`); after `.bail off` the input reads on as `kept run` does.
// Exit 2 when the input is unreadable (docs/DECISIONS.md).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

extension REPL {
    func runPiped() {
        var reader = TranscriptReader.discovering()
        var modifiers: [TranscriptDirective] = []
        // A line read ahead to see whether it continues the statement before it, with its kind.
        var lookahead: (input: EditorInput, kind: TranscriptReader.Line?)? = nil
        // A BOM before the first line is no part of the input, as at the start of a script file.
        var first = true
        func next() -> (input: EditorInput, kind: TranscriptReader.Line?) {
            if let l = lookahead { lookahead = nil; return l }
            let input = editor.read(prompt: "")
            defer { first = false }
            if case .line(let raw) = input {
                let l = first ? SourceFile.droppingBOM(raw) : raw
                return (.line(l), reader.read(l.utf8))
            }
            return (input, nil)
        }
        while !quit {
            // Between statements: live sync's wakes and polls, until the next line is there.
            if lookahead == nil { idleBetweenStatements() }
            let (input, kind) = next()
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
            let file = SourceFile(name: "<stdin>", text: line, firstLine: lineNumber)
            let prefix: Int
            switch kind {
            case .blank?, .comment?, .expected?, nil:
                continue
            case .directive?:
                let d = TranscriptDirective(text: String(line.dropFirst()), line: lineNumber, range: SourceRange(start: 0, end: line.utf8.count))
                if let e = Transcript.check(d, file: file) {
                    report(e)
                    unreadable = true
                    return
                }
                if Transcript.commandDirectives.contains(d.name) { modifiers.append(d) }
                continue
            case .stray?:
                report(Catalog.strayTranscriptLine(file: file, range: SourceRange(start: 0, end: file.bytes.count)))
                unreadable = true
                return
            case .continuation?:
                // The line it continues ran already: nothing more was waiting when it was in.
                report(Catalog.lateContinuation(file: file))
                if bail { return }
                continue
            case .command(let p)?:
                prefix = p
            }
            if String(line.dropFirst(prefix)).trimmedSpaces.hasPrefix(".") {
                dotCommand(line, name: "<stdin>", line: lineNumber, from: prefix)
                flush()
                updateLive()
                modifiers = []
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
                if !editor.inputReady(), !Parser.isIncomplete(statement()) { break }
                let n = next()
                if case .line(let c) = n.input, n.kind == .continuation {
                    lines.append(c)
                    lineNumber += 1
                } else {
                    lookahead = n
                    break
                }
            }
            let typed = [String(lines[0].dropFirst(prefix))] + lines.dropFirst().map { String($0.dropFirst(4)) }
            execute(statement(), lines: typed, modifiers: modifiers)
            flush()
            modifiers = []
            // The first error ends piped input (exit 1), unless `.bail off`.
            if bail, runner.failed { return }
        }
    }
}
