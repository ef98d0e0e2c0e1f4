// The dot-commands of the REPL (DotCommand.swift lists them): they act on the session, not on
// the store's tasks, and are never part of the language. Their errors are E05xx diagnostics
// pointing into the line just typed. In JSON mode each prints one JSON object, as statements
// do; a setter prints the value it set (docs/OUTPUT.md).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

extension REPL {
    /// Prints a dot-command's result in the session's format: text lines, or one JSON object.
    func say(_ text: [String], json: @autoclosure () -> JSONValue) {
        if session.format == .json {
            out.line(session.display.prettyJSON ? JSONWriter.pretty(json()) : JSONWriter.compact(json()))
        } else {
            out.lines(text)
        }
    }

    static func object(_ members: [(String, JSONValue)]) -> JSONValue { .object(JSONObject(members)) }

    /// Runs a dot-command line. `from` skips a transcript's `> ` before it.
    func dotCommand(_ line: String, name: String, line number: Int, from: Int = 0) {
        let bytes = Array(line.utf8)
        let file = SourceFile(name: name, bytes: bytes, firstLine: number)
        guard let cmd = DotCommand(Array(bytes[min(from, bytes.count)...])) else { return }
        func shift(_ r: SourceRange) -> SourceRange { SourceRange(start: r.start + from, end: r.end + from) }
        func argError(_ a: Catalog.DotArgument, range: SourceRange? = nil) {
            let r = range.map(shift) ?? SourceRange.at(bytes.count)
            report(Catalog.dotArgument(a, range: r, file: file, usage: DotCommand.usage(cmd.name)))
        }
        func onOff(_ current: Bool, _ what: String) -> Bool? {
            guard let a = cmd.arguments.first else {
                say(["\(what) \(current ? "on" : "off")"], json: REPL.object([(what, .string(current ? "on" : "off"))]))
                return nil
            }
            switch a.text.lowercased() {
            case "on":
                say([], json: REPL.object([(what, .string("on"))]))
                return true
            case "off":
                say([], json: REPL.object([(what, .string("off"))]))
                return false
            default:
                argError(.notOnOff(command: cmd.name, value: a.text), range: a.range)
                return nil
            }
        }
        switch cmd.name {
        case "quit", "exit", "q":
            guard mayLeave() else { return }
            say([], json: REPL.object([("quit", .bool(true))]))
            quit = true
        case "help":
            help(cmd.rest)
        case "mode":
            let pretty = session.format == .json && session.display.prettyJSON
            guard let a = cmd.arguments.first else {
                let mode = session.format.rawValue + (pretty ? " pretty" : "")
                say(["mode \(mode)"], json: REPL.object([("mode", .string(session.format.rawValue))] + (pretty ? [("pretty", .bool(true))] : [])))
                return
            }
            // `.mode json pretty`: JSON indented over several lines (docs/REPL.md).
            let wantsPretty = cmd.arguments.count == 2 && cmd.arguments[1].text.lowercased() == "pretty"
            guard let f = OutputFormat(rawValue: a.text.lowercased()), cmd.arguments.count == 1 || (wantsPretty && f == .json) else {
                argError(.notAMode(cmd.rest), range: a.range)
                return
            }
            // Printed in the mode the command started in.
            say([], json: REPL.object([("mode", .string(f.rawValue))] + (wantsPretty ? [("pretty", .bool(true))] : [])))
            session.format = f
            session.display.prettyJSON = wantsPretty
        case "width":
            guard let a = cmd.arguments.first else {
                let w = session.currentWidth
                say(["width \(w.map(String.init) ?? "none")\(session.measureWidth != nil ? " (auto)" : "")"],
                    json: REPL.object([("width", w.map { .number(JSONNumber($0)) } ?? .null)]))
                return
            }
            guard let choice = WidthChoice(a.text), cmd.arguments.count == 1 else {
                argError(.notAWidth(cmd.rest, minimum: WidthChoice.minimum), range: a.range)
                return
            }
            // `auto` follows a terminal as it is resized; a number or none stays.
            session.display.width = choice.resolved()
            session.measureWidth = choice.measure()
            say([], json: REPL.object([("width", session.currentWidth.map { .number(JSONNumber($0)) } ?? .null)]))
        case "timer":
            if let on = onOff(timer, "timer") { timer = on }
        case "bail":
            if let on = onOff(bail, "bail") { bail = on }
        case "color", "colour":
            if let on = onOff(color, "color") {
                color = on
                session.display.color = on
                runner.renderer.color = on
                (editor as? ReadlineEditor)?.setColor(on)
            }
        case "history":
            say(editor.history.enumerated().map { k, h in "\(String(k + 1).leftPadded(5))  \(h)" },
                json: REPL.object([("history", .array(editor.history.map { .string($0) }))]))
        case "open":
            guard !cmd.rest.isEmpty else { return argError(.noFile(.open)) }
            guard mayLeave("open \(cmd.rest)") else { return }
            switch SessionFactory.backend(cmd.rest, writable: true) {
            case .success(let s):
                session.replaceStore(s)
                session.commits = .eachStatement
                runner.options.store = cmd.rest
                unsaved = 0
                runner.showNotices()
                recorder.opened(s)
                say(["Opened \(cmd.rest) · \(s.taskCount == 1 ? "1 task" : "\(s.taskCount) tasks") · written after each change"],
                    json: REPL.object([("opened", .string(cmd.rest)), ("tasks", .number(JSONNumber(s.taskCount)))]))
            case .failure(.store(let d)):
                report(d)
            case .failure(.usage(let m)):
                argError(.cannotOpen(m), range: cmd.restRange)
            }
        case "save":
            guard let path = cmd.rest.isEmpty ? options.store : cmd.rest else {
                return argError(.noStoreFile)
            }
            // The store commits after each statement; `.save` commits what is left, and `.save
            // FILE` writes a copy there (the session stays on its own store).
            let saved: Result<Void, StoreError>
            if cmd.rest.isEmpty || cmd.rest == options.store {
                saved = session.engine.commit()
            } else {
                switch StoreKind.of(path) {
                case .success(let kind): saved = kind.write(session.store.snapshot(), to: path)
                case .failure(let e): return argError(.notAStoreName(e.message), range: cmd.restRange)
                }
            }
            switch saved {
            case .success:
                unsaved = 0
                say(["Saved \(path)"], json: REPL.object([("saved", .string(path))]))
            case .failure(let e): report(Catalog.store(e))
            }
        case "read":
            guard !cmd.rest.isEmpty else { return argError(.noFile(.read)) }
            guard let f = runner.load(cmd.rest) else {
                // The script could not be read: this command failed, the session goes on.
                runner.unreadable = false
                runner.failed = true
                return
            }
            _ = runner.run(file: f, wholeFileIsOneStatement: false)
            if runner.unreadable {
                runner.unreadable = false
                runner.failed = true
            }
        case "record":
            guard !cmd.rest.isEmpty else { return argError(.noFile(.record)) }
            switch recorder.write(to: cmd.rest) {
            case .success(let stores):
                let n = recorder.commandCount
                var msg = "Recorded \(n == 1 ? "1 command" : "\(n) commands") to \(cmd.rest)"
                if !stores.isEmpty { msg += " (store: \(stores.joined(separator: ", ")))" }
                say([msg], json: REPL.object([("recorded", .string(cmd.rest)), ("commands", .number(JSONNumber(n))),
                                              ("stores", .array(stores.map { .string($0) }))]))
            case .failure(let e):
                report(Catalog.dotWriteFailed(e.path, reason: e.reason, range: shift(cmd.restRange), file: file))
            }
        default:
            report(Catalog.unknownDotCommand(cmd.name, range: shift(cmd.nameRange), file: file, candidates: DotCommand.names))
        }
    }

    /// `.help`: the dot-commands; `.help .NAME` one of them; `.help WORD` the language's help.
    func help(_ topic: String) {
        func entry(_ d: (name: String, usage: String, summary: String)) -> JSONValue {
            REPL.object([("name", .string("." + d.name)), ("usage", .string(d.usage)), ("summary", .string(d.summary))])
        }
        if topic.isEmpty {
            let width = DotCommand.table.map(\.usage.count).max() ?? 0
            say(["Dot-commands act on the session; every other line is a statement of the language ('help' lists them)."]
                + DotCommand.table.map { "  \($0.usage.padding(width))  \($0.summary)" }
                + ["Tab completes, Ctrl-C clears the line, Ctrl-D on an empty line quits; history: \(History.maxEntries) lines."],
                json: REPL.object([("dotCommands", .array(DotCommand.table.map(entry)))]))
            return
        }
        let name = topic.hasPrefix(".") ? String(topic.dropFirst()).lowercased() : topic.lowercased()
        if let d = DotCommand.table.first(where: { $0.name == name }) {
            say([d.usage, "  \(d.summary)"], json: entry(d))
            return
        }
        if let lines = FrontEndHelp.frontEnd(name) {
            say(lines, json: REPL.object([("help", .string(name)), ("text", .array(lines.map { .string($0) }))]))
            return
        }
        let r = session.run(StatementSource(file: SourceFile(name: "help", text: "help \(topic)")))
        out.lines(r.lines)
        for d in r.diagnostics { report(d) }
    }
}

extension String {
    func leftPadded(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}
