// The interactive loop: read a statement (several lines while the parser says it is
// unfinished), run it through the same runner as `kept run`, print. With a store file the
// store is written after each change. Dot-commands (REPL+DotCommands.swift) act on the session;
// piped input (REPL+Piped.swift) reads scripts exactly as `kept run` does.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// The read-eval-print loop.
final class REPL {
    static let prompt = "kept> "
    static let continuationPrompt = "  ... "

    let session: Session
    let editor: LineEditor
    let out: OutputStream
    let err: OutputStream
    let interactive: Bool
    /// Runs statements the way `kept run --write` does: the same output, errors and store writes.
    let runner: BatchRunner
    let recorder: Recorder
    var timer = false
    /// Piped input stops at its first error with exit 1 (issue 8); `.bail off` reads on, as
    /// `kept run` does. A terminal session never stops on an error.
    var bail = true
    /// Live colouring and coloured errors (`.color`); off with NO_COLOR or TERM=dumb.
    var color: Bool
    /// Lines read so far: a statement's diagnostics count lines of the whole session.
    var lineNumber = 0
    var quit = false
    /// A piped script could not be read (not UTF-8, a stray transcript line): exit 2.
    var unreadable = false
    /// Live sync of a linked store (REPL+Live.swift); nil for a store that is not linked.
    var live: LiveSync?
    /// Whether the statement that ran last changed the store (it is then pushed at once).
    var lastChanged = false
    /// Changes of a session without a store file that no `.save FILE` has copied yet: leaving
    /// asks before they are thrown away (R-HOME-3).
    var unsaved = 0

    var options: SessionOptions { runner.options }

    init(session: Session, editor: LineEditor, options: SessionOptions, out: OutputStream, err: OutputStream,
         renderer: DiagnosticRenderer, interactive: Bool) {
        self.session = session
        self.editor = editor
        self.out = out
        self.err = err
        self.interactive = interactive
        self.color = renderer.color
        var o = options
        o.echo = false
        runner = BatchRunner(session: session, options: o, out: out, err: err, renderer: renderer)
        recorder = Recorder(session: session, startedWithStore: options.store != nil)
        // A confirmed bulk delete, by an answer or by `@yes`, is recorded with `@yes`.
        runner.observer = { [unowned self] src, format, result, confirmed in
            self.lastChanged = result.changed
            if result.changed, self.runner.options.store == nil { self.unsaved += 1 }
            self.recorder.command(self.recordedLines(src), format: format, output: result, confirmed: confirmed)
        }
        // On a terminal a bulk delete asks; piped input is a script and needs --yes or @yes.
        if interactive {
            runner.confirm = { [unowned self] q in self.confirm(q) }
        }
    }

    /// Asks a bulk delete's question through the editor (R-TASK-5): `y` or `yes` goes on,
    /// anything else (Ctrl-C too) is no; nil when input ended.
    func confirm(_ q: Confirmation) -> Bool? {
        out.lines(q.details)
        out.flush()
        // No sync while the question waits: the answer is about the store as the question saw it.
        editor.setIdle(nil)
        defer { updateLive() }
        switch editor.read(prompt: q.question + " [y/N] ") {
        case .line(let a): return ["y", "yes"].contains(a.trimmedSpaces.lowercased())
        case .interrupted, .invalid, .tooLong: return false
        case .end: return nil
        }
    }

    /// Whether an interactive session may end now: yes, unless it holds changes no file has,
    /// and the user, asked, does not say yes. A second Ctrl-D at the question leaves too.
    func mayLeave(_ then: String = "quit") -> Bool {
        // (Piped input is a script: it ends where its input ends, and notes what was lost.)
        guard interactive, unsaved > 0, runner.options.store == nil else { return true }
        let what = unsaved == 1 ? "1 change" : "\(unsaved) changes"
        out.line("")
        out.line("This session has no store file: \(what) would be lost. '.save FILE' writes them to a store.")
        out.flush()
        editor.setIdle(nil)
        switch editor.read(prompt: "Discard \(what) and \(then)? [y/N] ") {
        case .line(let a): return ["y", "yes"].contains(a.trimmedSpaces.lowercased())
        case .end: return true
        case .interrupted, .invalid, .tooLong: return false
        }
    }

    /// The lines of a statement as they were typed, for `.record`.
    var pendingLines: [String]? = nil
    func recordedLines(_ src: StatementSource) -> [String] {
        // R-SYNC-9: a statement that may hold a password is recorded masked.
        let masked = Parser.masked(src)
        if masked.file !== src.file { return [masked.text] }
        if let p = pendingLines { return p }
        return [src.text]
    }

    func run() -> Int32 {
        runner.showNotices()
        defer { live?.stop() }
        if interactive {
            var where_ = options.store.map { "store \($0), written after each change" } ?? "no store file: changes last for this session ('.save FILE' keeps them)"
            if options.store != nil, let link = session.store.sync.link, session.syncConnector != nil {
                where_ += " and synced live with \(link.account)"
            }
            out.line("Kept \(KeptMain.version) · \(where_) · .help · Ctrl-D quits")
            out.flush()
            updateLive()
            runInteractive()
            out.flush()
            err.flush()
            return quitOnWriteFailure ? 1 : 0
        }
        updateLive()
        runPiped()
        // Piped input cannot be asked before its changes go (R-HOME-3): it says so at its end.
        if unsaved > 0, runner.options.store == nil, session.format == .text {
            out.flush()
            err.line("kept: note: nothing was written: this session had no store file; --store FILE keeps its changes")
        }
        out.flush()
        err.flush()
        if unreadable || runner.unreadable { return 2 }
        return runner.exitCode
    }

    /// Set when the store could not be written; the interactive session then exits 1.
    var quitOnWriteFailure = false

    func runInteractive() {
        var pending: [String] = []
        var firstLine = 0
        while !quit {
            switch editor.read(prompt: pending.isEmpty ? REPL.prompt : REPL.continuationPrompt) {
            case .end:
                quit = mayLeave()
            case .interrupted:
                // Ctrl-C drops the whole unfinished statement, never the session.
                pending = []
            case .invalid, .tooLong:
                continue
            case .line(let l):
                lineNumber += 1
                if pending.isEmpty {
                    let t = l.trimmedSpaces
                    if t.isEmpty { continue }
                    if t.hasPrefix(".") {
                        editor.remember(l)
                        dotCommand(l, name: "<repl>", line: lineNumber)
                        flush()
                        updateLive()
                        continue
                    }
                    firstLine = lineNumber
                }
                pending.append(l)
                let file = SourceFile(name: "<repl>", text: pending.joined(separator: "\n"), firstLine: firstLine)
                let src = StatementSource(file: file)
                if Parser.isIncomplete(src) { continue }
                // R-SYNC-9: a statement that may hold a password is kept out of the history.
                if Parser.masked(src).file === src.file { editor.remember(pending.joined(separator: " ")) }
                execute(src, lines: pending, modifiers: [])
                pending = []
                flush()
            }
        }
    }

    func flush() {
        out.flush()
        err.flush()
    }

    /// Runs one statement through the runner, with `.timer` and `.record` around it.
    func execute(_ src: StatementSource, lines: [String]?, modifiers: [TranscriptDirective]) {
        recorder.willRun(session)
        pendingLines = lines
        defer { pendingLines = nil }
        let t0 = DispatchTime.now().uptimeNanoseconds
        lastChanged = false
        let ok = runner.runStatement(src, modifiers: modifiers)
        if timer {
            let ms = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1_000_000
            out.flush()
            err.line("time: \(String(format: "%.3f", ms)) ms")
        }
        if !ok {
            // The store could not be written: `kept run` stops here, and so does piped input.
            quitOnWriteFailure = true
            if !interactive { quit = true }
            return
        }
        afterStatement()
    }

    /// Reports a diagnostic of the REPL itself (a dot-command's), as the runner reports errors.
    func report(_ d: Diagnostic) {
        runner.report(d)
        runner.failed = true
    }
}
