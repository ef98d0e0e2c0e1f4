// The entry point behind `main.swift`: parses the command line and hands over to the batch
// runner, the test runner or the REPL. Exit codes (README.md, "Command line"): 0 ok, 1 a command or test failed,
// 2 a script or store could not be read or parsed, 64 usage.

import KeptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `kept` program.
public enum KeptMain {
    public static let version = "0.1.0"

    /// The process's arguments as bytes (without the program name): `CommandLine.arguments`
    /// has already replaced bytes that are not UTF-8.
    public static func rawArguments() -> [[UInt8]] {
        (1..<Int(CommandLine.argc)).map { k in
            guard let p = CommandLine.unsafeArgv[k] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
        }
    }

    /// Runs the program with its arguments (without the program name) and, when known, their
    /// bytes; returns the exit code.
    public static func main(_ args: [String], raw: [[UInt8]]? = nil) -> Int32 {
        let out = OutputStream(fd: 1)
        let err = OutputStream(fd: 2)
        defer {
            out.flush()
            err.flush()
        }
        let term = TerminalInfo.current()
        switch CommandLineOptions.parse(args, raw: raw) {
        case .failure(let u):
            err.line("kept: \(u.message)")
            err.line(CommandLineOptions.usage)
            err.line("'kept --help' explains the options")
            return 64
        case .success(.version):
            out.line("kept \(version)")
            return 0
        case .success(.help(let topic)):
            return help(topic, out: out, err: err)
        case .success(.convert(let from, let to)):
            let renderer = DiagnosticRenderer(style: term.stderrIsTTY ? .rich : .short, color: term.stderrIsTTY && !term.colorDisabled)
            return convert(from, to, out: out, err: err, renderer: renderer)
        case .success(.run(let o, let sources)):
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: term.stderrIsTTY && !term.colorDisabled)
            switch SessionFactory.make(o, testMode: false, commits: SessionFactory.commits(o, repl: false)) {
            case .success(let session):
                keepUntilExit(session)
                return BatchRunner(session: session, options: o, out: out, err: err, renderer: renderer).run(sources)
            case .failure(let f):
                return report(f, err: err, renderer: renderer)
            }
        case .success(.test(let o, let paths, let update, let jobs)):
            return TestRunner(options: o, update: update, jobs: jobs).run(paths, out: out, err: err)
        case .success(.repl(let o)):
            let interactive = term.stdinIsTTY && term.stdoutIsTTY && !term.termIsDumb
            let renderer = DiagnosticRenderer(style: o.errors ?? (interactive || term.stderrIsTTY ? .rich : .short),
                                              color: interactive && !term.colorDisabled)
            switch SessionFactory.make(o, testMode: false, commits: SessionFactory.commits(o, repl: true)) {
            case .success(let session):
                let color = interactive && !term.colorDisabled
                let editor: LineEditor
                if interactive {
                    let rl = ReadlineEditor(historyPath: History.path(environment: History.processEnvironment),
                                            completer: Completer(session: session), highlighter: CaptureHighlighter(session: session))
                    rl.setColor(color)
                    editor = rl
                } else {
                    editor = PlainLineEditor()
                }
                return REPL(session: session, editor: editor, options: o, out: out, err: err, renderer: renderer,
                            interactive: interactive).run()
            case .failure(let f):
                return report(f, err: err, renderer: renderer)
            }
        }
    }

    /// Sessions the process ends with. `kept run` exits right after its last output, so the
    /// session is not released: freeing a large store's columns page by page (milliseconds for
    /// 100,000 tasks) would only delay the exit that returns the memory anyway (clang's
    /// `-disable-free` is the same idea).
    nonisolated(unsafe) static var keptUntilExit: [Session] = []

    static func keepUntilExit(_ session: Session) {
        keptUntilExit.append(session)
    }

    /// `kept help repl` and `kept help .NAME`: the REPL's side, which is not part of the language.
    static func replHelp(_ topic: String, out: OutputStream, err: OutputStream) -> Int32 {
        if topic.hasPrefix(".") {
            guard let d = DotCommand.table.first(where: { $0.name == topic.dropFirst().lowercased() }) else {
                err.line("kept: no dot-command '\(topic)'; 'kept help repl' lists them")
                return 64
            }
            out.lines([d.usage, "  \(d.summary)"])
            return 0
        }
        let width = DotCommand.table.map(\.usage.count).max() ?? 0
        out.lines([
            "kept repl [--store FILE] [--now ISO] [--zone TZ] [--format text|json] [--errors rich|short]",
            "",
            "The REPL runs the statements of the language, as 'kept run' does, and writes the store after each change.",
            "On a terminal it uses GNU readline; piped or with TERM=dumb it reads stdin exactly as 'kept run' does,",
            "but stops at the first error with exit 1 ('.bail off' reads on).",
            "",
            "Dot-commands (one line each, for the session; never part of a script for 'kept run'):",
        ] + DotCommand.table.map { "  \($0.usage.padding(width))  \($0.summary)" } + [
            "",
            "Keys: Tab completes commands, fields, names from the store, date and repeat words, and files after",
            "  .open/.read/.record/.save; Right arrow or Tab takes the grey completion of an unfinished date or repeat;",
            "  Ctrl-C clears the line (or the unfinished statement); Ctrl-D on an empty line quits.",
            "A statement with an open quote or an unclosed filter '(' continues on the next line ('  ... ').",
            "History: $KEPT_HISTFILE, else $XDG_STATE_HOME/kept/history (~/.local/state/kept/history), the last \(History.maxEntries) lines;",
            "  a line starting with a space, or the same as the one before, is not kept.",
            "Colour: capture tokens as you type and errors; off with NO_COLOR, TERM=dumb or '.color off'.",
        ])
        return 0
    }

    /// `kept convert FROM TO`: reads FROM with its backend and writes all of it, unknown fields
    /// and the undo history included, to TO, a new file whose name says its kind (docs/STORE.md).
    static func convert(_ from: String, _ to: String, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        if StoreFile.head(StorePath(to).target, 1) != nil {
            err.line("kept: '\(to)' exists; convert writes a new store and never replaces one")
            return 64
        }
        let kind: StoreKind
        switch StoreKind.of(to) {
        case .success(let k): kind = k
        case .failure(let e):
            err.line("kept: \(e.message)")
            return 64
        }
        let source: any StoreBackend
        switch SessionFactory.backend(from, writable: false) {
        case .success(let s): source = s
        case .failure(let f): return report(f, err: err, renderer: renderer)
        }
        let store = source.snapshot()
        if case .failure(let e) = kind.write(store, to: to) {
            err.line(renderer.render(Session.diagnostic(e)))
            return 1
        }
        out.line("Converted \(from) to \(to) (\(kind.rawValue)) · \(store.taskCount == 1 ? "1 task" : "\(store.taskCount) tasks")")
        return 0
    }

    static func report(_ f: SessionFactory.Failure, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        switch f {
        case .usage(let m):
            err.line("kept: \(m)")
            err.line(CommandLineOptions.usage)
            return 64
        case .store(let d):
            err.line(renderer.render(d))
            return 2
        }
    }

    static func help(_ topic: String?, out: OutputStream, err: OutputStream) -> Int32 {
        guard let topic else {
            out.lines([
                "Kept: the rules engine of a personal planner, as a small language.",
                "",
                CommandLineOptions.usage,
                "",
                "  --store FILE     the store to open (JSON, docs/STORE.md); a missing file is an empty store",
                "  --now ISO        fix the clock: 2026-06-15T09:00 (wall clock) or 2026-06-15T07:00:00Z",
                "  --zone TZ        the account time zone for this run, like Europe/Berlin",
                "  --format F       text (default) or json: one JSON object per command",
                "  --write          let 'run' write the store file, once at the end and only when every statement",
                "                   succeeded (it is left unchanged otherwise)",
                "  --keep-going     with --write: write what succeeded even when a statement failed",
                "  --bail           with 'run': stop at the first statement that fails",
                "  --echo           with 'run': print each command before its output, as a transcript",
                "  --yes, -y        confirm bulk deletes ('delete where …') in advance; without it 'run' and 'test'",
                "                   refuse one (E0318) and the REPL asks; '@yes' in a transcript confirms one command",
                "  -e COMMAND       run one command; may be repeated; stdin is read when there is no script",
                "  --errors S       rich (source line and caret) or short (file:line:col); default by terminal",
                "  --update         with 'test': rewrite failing expected blocks with the actual output",
                "  -j N             with 'test': scripts to run at once (default 2)",
                "",
                "'kept help COMMAND' explains a command of the language; 'kept help' with no name lists them.",
                "'kept help repl' lists the REPL's dot-commands, keys and history file.",
            ])
            return 0
        }
        if topic == "repl" || topic.hasPrefix(".") {
            return replHelp(topic, out: out, err: err)
        }
        let session = Session(store: Store(), clock: .clock(SystemClock()), defaultZone: Zone.utc)
        let r = session.run(StatementSource(file: SourceFile(name: "help", text: "help \(topic)")))
        out.lines(r.lines)
        let renderer = DiagnosticRenderer(style: .short)
        for d in r.diagnostics { err.line(renderer.render(d)) }
        return r.failed ? 64 : 0
    }
}
