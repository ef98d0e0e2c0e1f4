// `kept run --account CONNINFO` (docs/SYNC.md, "Queries on the server"): read statements run on
// the account's items as the server holds them now, with no local store. The statements are
// read first; the account's items other than tasks come first, for their saved filters and
// settings to bind the filters with; from those the run learns which tasks it can need (open
// work, or all), and SQL narrows on that indexed column in one snapshot. The items go into a
// store held in memory in a new device's first-pull order, and the statements run on it as on
// any store: the answers are a synced store's.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum AccountRun {
    /// Runs the sources on the account; the exit code is `kept run`'s (3: the server could not
    /// be reached).
    static func run(_ o: SessionOptions, _ sources: [RunSource], conninfo: String, out: OutputStream, err: OutputStream,
                    renderer: DiagnosticRenderer) -> Int32 {
        func fail(_ d: Diagnostic, offline: Bool = false) -> Int32 {
            SyncVerbs.report(d, o.format, out: out, err: err, renderer: renderer)
            out.flush()
            return offline ? SyncVerbs.offlineExit : 1
        }
        guard let connector = KeptMain.syncConnector else { return fail(Catalog.syncUnavailable(range: nil, file: nil)) }
        guard connector.withoutPassword(conninfo) != nil else { return fail(Catalog.badConnectionString(range: nil, file: nil)) }

        // The statements, read once (standard input cannot be read twice).
        var stdin: [UInt8]? = nil
        var statements: [Statement] = []
        for s in sources.isEmpty ? [.script("-")] : sources {
            switch s {
            case .expression(let e, let raw):
                if let st = Parser.parse(StatementSource(file: SourceFile(name: "-e", bytes: raw ?? Array(e.utf8)))).0 { statements.append(st) }
            case .commandLine(let e):
                if let st = Parser.parse(StatementSource(file: SourceFile(name: "command line", bytes: Array(e.utf8), lead: "kept "))).0 { statements.append(st) }
            case .script(let path):
                let bytes: [UInt8]?
                if path == "-" {
                    stdin = stdin ?? readAllStdin(limit: Limits.scriptBytes)
                    bytes = stdin
                } else {
                    bytes = try? Files.readBytes(path, limit: Limits.scriptBytes).get()
                }
                // What does not read is reported by the run itself, where it stands.
                guard let bytes else { continue }
                for item in Transcript(file: SourceFile(name: path, bytes: SourceFile.droppingBOM(bytes))).items {
                    guard case .command(let c) = item, let st = Parser.parse(c.statement).0 else { continue }
                    statements.append(st)
                }
            }
        }

        let server: any SyncServer
        switch connector.connect(conninfo) {
        case .success(let s): server = s
        case .failure(let f):
            let offline: Bool
            if case .offline = f { offline = true } else { offline = false }
            return fail(Catalog.syncFailure(f, waiting: nil, range: nil, file: nil), offline: offline)
        }
        defer { server.close() }

        func session(_ narrowing: TaskNarrowing) -> (session: Session?, exit: Int32) {
            var options = o
            options.store = nil
            let made: Session
            switch SessionFactory.make(options, testMode: false, commits: .never) {
            case .success(let s): made = s
            case .failure(let f): return (nil, KeptMain.report(f, format: o.format, out: out, err: err, renderer: renderer))
            }
            switch server.items(narrowing) {
            case .failure(let f):
                let offline: Bool
                if case .offline = f { offline = true } else { offline = false }
                return (nil, fail(Catalog.syncFailure(f, waiting: nil, range: nil, file: nil), offline: offline))
            case .success(let items):
                do throws(SyncProblem) { try made.engine.takeAll(items) } catch {
                    return (nil, fail(Catalog.sync(error, range: nil, file: nil)))
                }
            }
            made.readsAccount = true
            made.syncConnector = nil
            return (made, 0)
        }

        // The saved filters and settings first: what the filters are bound with.
        let first = session(TaskNarrowing.noTasks)
        guard let binding = first.session else { return first.exit }
        let made = session(binding.narrowing(for: statements))
        guard let s = made.session else { return made.exit }
        let runner = BatchRunner(session: s, options: o, out: out, err: err, renderer: renderer)
        runner.stdinRead = stdin
        return runner.run(sources)
    }
}
