// The entry point behind `main.swift`: parses the command line and hands over to the batch
// runner, the test runner or the REPL. Exit codes (docs/LANGUAGE.md, "The command line"): 0 ok,
// 1 a command or test failed, 2 a script or store could not be read or parsed, 3 a sync could not
// reach its server (the changes wait), 64 usage.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter
import KeptSync

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `kept` program.
public enum KeptMain {
    public static let version = "0.1.0"

    /// How every front end reaches a sync server: the one place it is set, to PostgreSQL
    /// (`KeptSync`). Tests set their own; nil makes `sync` and `account link` E0338 and
    /// `kept account` say sync is not available.
    nonisolated(unsafe) public static var syncConnector: (any SyncConnector)? = PostgresConnector()

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
        main(args, raw: raw, out: OutputStream(fd: 1), err: OutputStream(fd: 2))
    }

    /// The program with its output streams (tests collect what they print).
    static func main(_ args: [String], raw: [[UInt8]]? = nil, out: OutputStream, err: OutputStream,
                     password: () -> String? = SyncVerbs.readPassword) -> Int32 {
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
        case .success(.options):
            out.lines(FrontEndHelp.options)
            return 0
        case .success(.completion(let shell)):
            out.raw(ShellCompletion.script(shell))
            return 0
        case .success(.manpage):
            out.raw(ManPage.roff())
            return 0
        case .success(.convert(let from, let to, let salvage)):
            let renderer = DiagnosticRenderer(style: term.stderrIsTTY ? .rich : .short, color: term.stderrIsTTY && !term.colorDisabled)
            return convert(from, to, salvage: salvage, out: out, err: err, renderer: renderer)
        case .success(.sync(var o, let status)):
            if let code = HomeVerbs.fillStore(&o, making: false, err: err) { return code }
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: o.format == .text && o.color.enabled(tty: term.stderrIsTTY, term))
            return SyncVerbs.sync(o, status: status, out: out, err: err, renderer: renderer)
        case .success(.syncWatch(var o)):
            if let code = HomeVerbs.fillStore(&o, making: false, err: err) { return code }
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: o.format == .text && o.color.enabled(tty: term.stderrIsTTY, term))
            return SyncWatch.run(o, out: out, err: err, renderer: renderer)
        case .success(.account(let command, let o)):
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: o.format == .text && o.color.enabled(tty: term.stderrIsTTY, term))
            return SyncVerbs.account(command, format: o.format, out: out, err: err, renderer: renderer, password: password)
        case .success(.home(let command, let o)):
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: o.format == .text && o.color.enabled(tty: term.stderrIsTTY, term))
            return HomeVerbs.run(command, o, home: Home.process, out: out, err: err, renderer: renderer)
        case .success(.check(let path)):
            let renderer = DiagnosticRenderer(style: term.stderrIsTTY ? .rich : .short, color: term.stderrIsTTY && !term.colorDisabled)
            return StoreVerbs.check(path, out: out, err: err, renderer: renderer)
        case .success(.backup(let from, let to)):
            let renderer = DiagnosticRenderer(style: term.stderrIsTTY ? .rich : .short, color: term.stderrIsTTY && !term.colorDisabled)
            return StoreVerbs.backup(from, to, out: out, err: err, renderer: renderer)
        case .success(.run(var o, let sources)):
            // `kept import`, `export` and `account link` work on the user's store without --store.
            let verbs = sources.allSatisfy { if case .commandLine = $0 { return true } else { return false } }
            var made = false
            if verbs, !sources.isEmpty, o.account == nil, let code = HomeVerbs.fillStore(&o, making: o.write, made: &made, err: err) { return code }
            // A dry run on a file that is not there reads nothing, and never makes it: most
            // likely a typo (R-HOME-2). A run with --write makes it, as asked.
            if !verbs, !o.write, o.format == .text, let path = o.store, !HomeVerbs.exists(path) {
                err.line("kept: note: there is no store at \(path): the run reads an empty store")
            }
            let renderer = DiagnosticRenderer(style: o.errors ?? (term.stderrIsTTY ? .rich : .short),
                                              color: o.format == .text && o.color.enabled(tty: term.stderrIsTTY, term))
            if let account = o.account {
                return AccountRun.run(o, sources, conninfo: account, out: out, err: err, renderer: renderer)
            }
            switch SessionFactory.make(o, testMode: false, commits: SessionFactory.commits(o, repl: false)) {
            case .success(let session):
                keepUntilExit(session)
                let code = BatchRunner(session: session, options: o, out: out, err: err, renderer: renderer).run(sources)
                // Closed, a SQLite store's -wal is checkpointed and removed: what the run wrote is
                // in the one file a copy takes (docs/STORE.md).
                session.store.close()
                // A store made for an import that failed is not left behind empty.
                if made, code != 0, let path = o.store { HomeVerbs.removeIfEmpty(path) }
                return code
            case .failure(let f):
                return report(f, format: o.format, out: out, err: err, renderer: renderer)
            }
        case .success(.test(let o, let paths, var t)):
            // `KEPT_UPDATE=1` is `--update`, for a run whose command line is not at hand.
            if getenv("KEPT_UPDATE").map({ String(cString: $0) }) == "1" { t.update = true }
            return TestRunner(options: o, test: t, stdoutIsTTY: term.stdoutIsTTY).run(paths, out: out, err: err)
        case .success(.repl(let o)):
            let interactive = term.stdinIsTTY && term.stdoutIsTTY && !term.termIsDumb
            if interactive, o.format == .text, let path = o.store, !HomeVerbs.exists(path) {
                err.line("kept: note: there is no store at \(path): it starts empty, and the first change makes the file")
            }
            let color = o.format == .text && o.color.enabled(tty: interactive, term)
            let renderer = DiagnosticRenderer(style: o.errors ?? (interactive || term.stderrIsTTY ? .rich : .short), color: color)
            switch SessionFactory.make(o, testMode: false, commits: SessionFactory.commits(o, repl: true)) {
            case .success(let session):
                let editor: LineEditor
                if interactive {
                    let rl = ReadlineEditor(historyPath: History.path(environment: History.processEnvironment),
                                            completer: Completer(session: session), highlighter: CaptureHighlighter(session: session))
                    rl.setColor(color)
                    editor = rl
                } else {
                    editor = PlainLineEditor()
                }
                let code = REPL(session: session, editor: editor, options: o, out: out, err: err, renderer: renderer,
                                interactive: interactive).run()
                session.store.close()
                return code
            case .failure(let f):
                return report(f, format: o.format, out: out, err: err, renderer: renderer)
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

    /// `kept help .NAME`: one dot-command of the REPL.
    static func dotHelp(_ topic: String, out: OutputStream, err: OutputStream) -> Int32 {
        guard let d = DotCommand.table.first(where: { $0.name == topic.dropFirst().lowercased() }) else {
            err.line("kept: no dot-command '\(topic)'; 'kept help repl' lists them")
            return 64
        }
        out.lines([d.usage, "  \(d.summary)"])
        return 0
    }

    /// `kept convert FROM TO`: reads FROM with its backend and writes all of it, unknown fields
    /// and the undo history included, to TO, a new file whose name says its kind (docs/STORE.md).
    /// A damaged FROM is refused; with `salvage` what is sound is written and the rest listed.
    static func convert(_ from: String, _ to: String, salvage: Bool, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        if Files.head(StorePath(to).target, 1) != nil {
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
        switch StoreCheck.openForReading(from) {
        case .success(let s): source = s
        case .failure(let e): return report(.store(Catalog.store(e)), err: err, renderer: renderer)
        }
        defer { source.close() }
        for n in source.notices { err.line(renderer.render(Catalog.store(n))) }
        let store = source.snapshot()
        var damage: [StoreDamage] = []
        if let e = source.readFailure {
            guard salvage, let sql = source as? SQLiteStore else {
                err.line(renderer.render(Catalog.store(e)))
                return 2
            }
            damage = sql.damage
        }
        if case .failure(let e) = kind.write(store, to: to) {
            err.line(renderer.render(Catalog.store(e)))
            return 1
        }
        let tasks = store.taskCount == 1 ? "1 task" : "\(store.taskCount) tasks"
        if damage.isEmpty {
            out.line("Converted \(from) to \(to) (\(kind.rawValue)) · \(tasks)")
        } else {
            out.line("Salvaged \(from) to \(to) (\(kind.rawValue)) · \(tasks) · \(damage.count) damaged \(damage.count == 1 ? "item" : "items") left out:")
            out.lines(damage.map { "  \($0)" })
        }
        return 0
    }

    /// A session that could not be made: a usage error, or a store that could not be read (in
    /// JSON mode one error object on stdout, as every error there is).
    static func report(_ f: SessionFactory.Failure, format: OutputFormat = .text, out: OutputStream? = nil, err: OutputStream,
                       renderer: DiagnosticRenderer) -> Int32 {
        switch f {
        case .usage(let m):
            err.line("kept: \(m)")
            err.line(CommandLineOptions.usage)
            return 64
        case .store(let d):
            if format == .json, let out {
                out.line(JSONWriter.compact(DiagnosticJSON.value(d)))
            } else {
                err.line(renderer.render(d))
            }
            return 2
        }
    }

    /// `kept help [TOPIC]`: with no topic the commands of the language; `run`, `test` and `repl`
    /// the front ends; `.NAME` a dot-command; any other topic the `help` statement's.
    static func help(_ topic: String?, out: OutputStream, err: OutputStream) -> Int32 {
        if let topic {
            if topic.hasPrefix(".") { return dotHelp(topic, out: out, err: err) }
            if let lines = FrontEndHelp.frontEnd(topic.lowercased()) {
                out.lines(lines)
                return 0
            }
        }
        let session = Session(store: JSONStore(memory: Store()), clock: .clock(SystemClock()), defaultZone: Zone.utc)
        let r = session.run(StatementSource(file: SourceFile(name: "help", text: topic.map { "help \($0)" } ?? "help")))
        out.lines(topic == nil ? FrontEndHelp.commands(r.lines) : r.lines)
        let renderer = DiagnosticRenderer(style: .short)
        for d in r.diagnostics { err.line(renderer.render(d)) }
        return r.failed ? 64 : 0
    }
}
