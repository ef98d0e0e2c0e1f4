// `kept run`: executes scripts, `-e` commands or stdin against a store and prints what each
// command prints. A failing statement is reported and the next one still runs (unless
// --bail). The runner never writes the store: the session commits, and with --write the whole
// run is one transaction, written at its end only when every statement succeeded (R-STORE-2).
// A sync that could not reach its server is reported but is no failure of the run: its changes
// wait in the outbox, the run goes on and is written, and it exits 3 when nothing else failed.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Runs statements in batch.
final class BatchRunner {
    let session: Session
    /// The REPL changes the store file with `.open`.
    var options: SessionOptions
    let out: OutputStream
    let err: OutputStream
    /// The REPL turns colour off with `.color off`.
    var renderer: DiagnosticRenderer
    /// Told of every statement run (not a declined bulk delete), with the format it ran in,
    /// what it printed and whether it ran confirmed, by `@yes` or an answer (the REPL's
    /// `.record` listens here).
    var observer: ((StatementSource, OutputFormat, CommandOutput, _ confirmed: Bool) -> Void)?
    /// Answers a question a statement asks (a bulk delete): true to go on, false for no, nil
    /// when input ended. Without it the statement's refusal stands, as in a script.
    var confirm: ((Confirmation) -> Bool?)?
    var failed = false
    /// How many statements failed, for the run's one commit at its end.
    var failures = 0
    /// How many syncs could not reach their server (E0342): reported, not counted as failures.
    var offline = 0
    var unreadable = false
    /// Standard input, when it was read before the run (`kept run --account` reads its
    /// statements first, to know what to ask the server for).
    var stdinRead: [UInt8]?

    init(session: Session, options: SessionOptions, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) {
        self.session = session
        self.options = options
        self.out = out
        self.err = err
        self.renderer = renderer
    }

    /// Prints a diagnostic: rendered on stderr, or as a JSON object on stdout in JSON mode.
    func report(_ d: Diagnostic) {
        if session.format == .json {
            out.line(JSONWriter.compact(DiagnosticJSON.value(d)))
        } else {
            out.flush()
            err.line(renderer.render(d))
            err.flush()
        }
    }

    /// Reads a script file as a SourceFile, or reports why it cannot be.
    func load(_ path: String) -> SourceFile? {
        switch Files.readBytes(path, limit: Limits.scriptBytes) {
        case .failure(let e):
            report(e.isTooLarge ? Catalog.scriptTooLarge(path) : Catalog.scriptUnreadable(path, reason: e.reason))
            unreadable = true
            return nil
        case .success(let read):
            let bytes = SourceFile.droppingBOM(read)
            let file = SourceFile(name: path, bytes: bytes)
            if let bad = firstInvalidUTF8(bytes) {
                report(Catalog.invalidUTF8(file: file, offset: bad))
                unreadable = true
                return nil
            }
            return file
        }
    }

    /// Runs every statement of one source.
    func run(file: SourceFile, wholeFileIsOneStatement: Bool) -> Bool {
        if wholeFileIsOneStatement {
            return runStatement(StatementSource(file: file), modifiers: [])
        }
        let t = Transcript(file: file)
        if !t.diagnostics.isEmpty {
            for d in t.diagnostics { report(d) }
            unreadable = true
            return true
        }
        for item in t.items {
            guard case .command(let c) = item else { continue }
            if !runStatement(c.statement, modifiers: c.modifiers) { return false }
        }
        return true
    }

    /// Runs one statement; false when the store could not be written and the run must stop.
    func runStatement(_ src: StatementSource, modifiers: [TranscriptDirective]) -> Bool {
        let saved = session.format
        if let f = modifiers.first(where: { $0.name == "format" }), let fmt = OutputFormat(rawValue: f.argument) {
            session.format = fmt
        }
        defer { session.format = saved }
        if options.echo {
            // R-SYNC-9: an `account link` statement is shown masked.
            let text = Parser.masked(src).text
            if !text.isEmpty { out.line("> " + text) }
        }
        // `@yes` confirms the next command's bulk delete, as an answer in the REPL would.
        var confirmed = modifiers.contains { $0.name == "yes" }
        var result = session.withWidth(modifiers) { session.run(src, confirmed: confirmed) }
        var declined = false
        if let q = result.confirmation, let confirm {
            // The engine asks; an interactive front end answers through its editor (R-TASK-5).
            switch confirm(q) {
            case true?:
                confirmed = true
                result = session.run(src, confirmed: true)
            case false?:
                declined = true
                result = CommandOutput(lines: q.declined)
            case nil:
                return true
            }
        }
        out.lines(result.lines)
        for d in result.diagnostics { report(d) }
        if result.failed, result.syncOffline != nil {
            offline += 1
        } else if result.failed {
            failed = true
            failures += 1
        }
        // A damaged store fails every statement after the one that found it: the run stops
        // there, as a store that could not be read (exit 2).
        if session.store.readFailure != nil {
            unreadable = true
            return false
        }
        // A declined bulk delete changed nothing and is not told: replayed, it would be refused
        // rather than declined.
        if !declined { observer?(src, session.format, result, confirmed) }
        if options.echo { out.line("") }
        // `--bail` stops at the first statement that fails (an offline sync is not one).
        return !(result.failed && result.syncOffline == nil && options.bail)
    }

    /// The store's notices (its warnings), on standard error in every format: they speak of the store,
    /// not of a statement, so they never stand among the statements' outputs.
    func showNotices() {
        for n in session.store.notices { err.line(renderer.render(Catalog.store(n))) }
    }

    /// Runs all sources in order; returns the exit code.
    func run(_ sources: [RunSource]) -> Int32 {
        showNotices()
        var list = sources
        if list.isEmpty { list = [.script("-")] }
        for s in list {
            let keepGoing: Bool
            switch s {
            case .expression(let e, let raw):
                let file = SourceFile(name: "-e", bytes: raw ?? Array(e.utf8))
                if let bad = firstInvalidUTF8(file.bytes) {
                    report(Catalog.invalidUTF8(file: file, offset: bad))
                    unreadable = true
                    keepGoing = true
                } else {
                    keepGoing = run(file: file, wholeFileIsOneStatement: true)
                }
            case .commandLine(let e):
                keepGoing = run(file: SourceFile(name: "command line", bytes: Array(e.utf8), lead: "kept "), wholeFileIsOneStatement: true)
            case .script(let path):
                let file: SourceFile?
                if path == "-" {
                    let f = (stdinRead ?? readAllStdin(limit: Limits.scriptBytes)).map { SourceFile(name: "<stdin>", bytes: SourceFile.droppingBOM($0)) }
                    if f == nil {
                        report(Catalog.scriptTooLarge("<stdin>"))
                        unreadable = true
                        file = nil
                    } else if let f, let bad = firstInvalidUTF8(f.bytes) {
                        report(Catalog.invalidUTF8(file: f, offset: bad))
                        unreadable = true
                        file = nil
                    } else {
                        file = f
                    }
                } else {
                    file = load(path)
                }
                keepGoing = file.map { run(file: $0, wholeFileIsOneStatement: false) } ?? true
            }
            if !keepGoing { break }
        }
        // The run is one transaction: written now, or not at all (docs/SCRIPTS.md).
        let verbsOwn = !list.contains { if case .commandLine = $0 { return false } else { return true } }
        if let d = session.finish(failed: failures, keepGoing: options.keepGoing, runFlags: !verbsOwn) {
            report(d)
            failed = true
        }
        noteUnwritten()
        out.flush()
        err.flush()
        if unreadable { return 2 }
        return exitCode
    }

    /// A run that changed its store but writes nothing says so on standard error, once, at its
    /// end (R-HOME-2): `kept run` without `--write`, or without a store at all.
    func noteUnwritten() {
        // In JSON mode standard error stays empty (docs/OUTPUT.md): the note is for people.
        guard session.commits == .never, session.store.hasPending, session.format == .text else { return }
        if let path = options.store {
            err.line("kept: note: nothing was written to \(path): 'kept run' is a dry run; --write saves its changes")
        } else {
            err.line("kept: note: nothing was written: this run has no store; --store FILE --write saves its changes, and 'kept add …' files on your own store")
        }
    }

    /// 1 when a statement failed, 3 when the only failures were syncs that could not reach
    /// their server, else 0.
    var exitCode: Int32 {
        if failed { return 1 }
        return offline > 0 ? SyncVerbs.offlineExit : 0
    }
}
