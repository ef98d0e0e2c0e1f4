// The shell verbs on the user's store (docs/LANGUAGE.md, "Your store"): `kept add`, `list`,
// `plan`, `done`, `show`, `undo` run one statement of the language each and commit it at once;
// `kept edit` opens the task in the user's editor; `kept init` makes a store. The store is
// `--store`, else `KEPT_STORE`, else the config file's, else `~/.local/share/kept/tasks.db`,
// made on the first change with the config file's settings and the machine's zone.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a store could not be made.
enum MakeFailure: Error {
    case message(String)
    case store(StoreError)

    func render(_ renderer: DiagnosticRenderer) -> String {
        switch self {
        case .message(let m): return "kept: \(m)"
        case .store(let e): return renderer.render(Catalog.store(e))
        }
    }
}

enum HomeVerbs {
    /// The verbs whose statement may change the store: the store is made before they run
    /// when it is not there yet (and removed again when the statement failed).
    static let changing: Set<String> = ["add", "done", "undo"]

    static func run(_ command: HomeCommand, _ o: SessionOptions, home: Home, out: OutputStream, err: OutputStream,
                    renderer: DiagnosticRenderer) -> Int32 {
        let config: HomeConfig
        switch HomeConfig.read(home.configPath) {
        case .success(let c): config = c
        case .failure(let d):
            err.line(renderer.render(d))
            return 2
        }
        guard let (path, source) = home.store(flag: o.store, config: config) else {
            err.line("kept: no store: HOME is not set; name one with --store FILE or KEPT_STORE")
            return 64
        }
        var opts = o
        opts.store = path
        switch command {
        case .initialize(let p):
            let target = p.map(home.expand) ?? path
            switch make(target, opts, config) {
            case .success(let zone):
                out.line("Made \(target) (\(kindName(target))) · zone \(zone)")
                return 0
            case .failure(let f):
                err.line(f.render(renderer))
                return 1
            }
        case .statement(let text, let verb):
            var made = false
            var commits = CommitPolicy.eachStatement
            if !exists(path) {
                if changing.contains(verb) {
                    if case .failure(let f) = make(path, opts, config) {
                        err.line(f.render(renderer))
                        return 1
                    }
                    made = true
                } else {
                    // Nothing to read yet, and a read makes no store.
                    err.line("kept: note: there is no store at \(path) yet (\(source.words)); 'kept add' makes it")
                    commits = .never
                    opts.store = nil
                }
            }
            let code = statement(text, opts, commits: commits, out: out, err: err, renderer: renderer)
            // The statement that was to make the store failed: no empty store is left behind.
            if made, code != 0 { removeIfEmpty(path) }
            return code
        case .edit(let ref):
            guard let id = Int(ref), id >= 1 else {
                err.line("kept: 'kept edit' takes a task id, like kept edit 3, not '\(ref)'")
                return 64
            }
            guard exists(path) else {
                err.line("kept: there is no store at \(path) yet (\(source.words)); 'kept add' makes it")
                return 1
            }
            return edit(id, opts, out: out, err: err, renderer: renderer)
        }
    }

    /// Sets a verb's store to the user's when the command line named none (`kept import`,
    /// `export`, `sync`, `account link`); `making` makes it first when it is not there (with
    /// the config file's settings and the machine's zone). An exit code when that failed.
    static func fillStore(_ o: inout SessionOptions, making: Bool, err: OutputStream, home: Home = .process) -> Int32? {
        var made = false
        return fillStore(&o, making: making, made: &made, err: err, home: home)
    }

    /// As above; `made` says the store was made here (and is removed again when the command
    /// failed: `removeIfEmpty`).
    static func fillStore(_ o: inout SessionOptions, making: Bool, made: inout Bool, err: OutputStream, home: Home = .process) -> Int32? {
        guard o.store == nil else { return nil }
        let config: HomeConfig
        switch HomeConfig.read(home.configPath) {
        case .success(let c): config = c
        case .failure(let d):
            err.line(DiagnosticRenderer(style: .short).render(d))
            return 2
        }
        guard let (path, source) = home.store(flag: nil, config: config) else {
            err.line("kept: no store: name one with --store FILE (or KEPT_STORE); HOME is not set")
            return 64
        }
        o.store = path
        if !making, !exists(path) {
            err.line("kept: there is no store at \(path) yet (\(source.words)); 'kept add' or 'kept init' makes it, or name one with --store FILE")
            return 1
        }
        if making, !exists(path) {
            if case .failure(let f) = make(path, o, config) {
                err.line(f.render(DiagnosticRenderer(style: .short)))
                return 1
            }
            made = true
        }
        return nil
    }

    /// Removes a store made for a command that then failed, when it holds no task.
    static func removeIfEmpty(_ path: String) {
        if let n = taskCount(path), n == 0 { remove(path) }
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(StorePath(path).target, &st) == 0
    }

    static func kindName(_ path: String) -> String {
        (try? StoreKind.of(path).get())?.rawValue ?? "store"
    }

    static func taskCount(_ path: String) -> Int? {
        guard case .success(let s) = StoreKind.open(path) else { return nil }
        defer { s.close() }
        return s.snapshot().taskCount
    }

    static func remove(_ path: String) {
        let t = StorePath(path).target
        for f in [t, t + "-wal", t + "-shm"] { unlink(f) }
    }

    /// Makes a new store at a path, with the config file's settings and the zone (`--zone`,
    /// else the config file's, else the machine's); returns the zone's name.
    static func make(_ path: String, _ o: SessionOptions, _ config: HomeConfig) -> Result<String, MakeFailure> {
        if exists(path) { return .failure(.message("'\(path)' exists; 'kept init' makes a new store and never replaces one")) }
        let kind: StoreKind
        switch StoreKind.of(path) {
        case .success(let k): kind = k
        case .failure(let e): return .failure(.message(e.message))
        }
        if let m = Home.makeFolders(above: path) { return .failure(.message(m)) }
        var zone = SessionFactory.machineZone.identifier
        if let z = o.zone {
            guard Zone(identifier: z) != nil else { return .failure(.message("--zone takes an IANA zone like Europe/Berlin, not '\(z)'")) }
            zone = z
        }
        var store = Store()
        store.settings = config.newStoreSettings(machineZone: zone)
        if o.zone != nil { store.settings.zone = zone }
        if case .failure(let e) = kind.write(store, to: path) { return .failure(.store(e)) }
        // Only its owner reads a store of tasks (it may hold anything a user writes down).
        chmod(StorePath(path).target, 0o600)
        return .success(store.settings.zone ?? zone)
    }

    /// One statement, committed at once, its errors shown in the command line as typed.
    static func statement(_ text: String, _ o: SessionOptions, commits: CommitPolicy, out: OutputStream, err: OutputStream,
                          renderer: DiagnosticRenderer) -> Int32 {
        switch SessionFactory.make(o, testMode: false, commits: commits) {
        case .success(let session):
            let code = BatchRunner(session: session, options: o, out: out, err: err, renderer: renderer).run([.commandLine(text)])
            session.store.close()
            return code
        case .failure(let f):
            return KeptMain.report(f, format: o.format, out: out, err: err, renderer: renderer)
        }
    }

    /// `kept edit ID`: the task as text in the editor, then the lines the user changed as one step.
    static func edit(_ id: Int, _ o: SessionOptions, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        let session: Session
        switch SessionFactory.make(o, testMode: false, commits: .eachStatement) {
        case .success(let s): session = s
        case .failure(let f): return KeptMain.report(f, format: o.format, out: out, err: err, renderer: renderer)
        }
        defer { session.store.close() }
        let typed = "edit \(id)"
        let line = SourceFile(name: "command line", bytes: Array(typed.utf8), lead: "kept ")
        let editable: Session.EditableTask
        switch session.editable(id, at: SourceRange(start: 5, end: typed.utf8.count), in: line) {
        case .success(let e): editable = e
        case .failure(let d):
            err.line(renderer.render(d))
            return 1
        }
        let tmpdir = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array("\(tmpdir)/kept-edit-\(id)-XXXXXX.txt".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { b in b.baseAddress.map { mkstemps($0, 4) } ?? -1 }
        guard fd >= 0 else {
            err.line(renderer.render(Catalog.editText(.editorFailed("could not start: no temporary file in \(tmpdir) (\(FileError(errno: errno).reason))"))))
            return 1
        }
        let file = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bytes = Array(editable.text.utf8)
        let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var keep = false
        defer { if !keep { unlink(file) } }
        guard wrote == bytes.count else {
            err.line(renderer.render(Catalog.editText(.editorFailed("could not start: the temporary file could not be written"))))
            return 1
        }
        if let why = runEditor(file) {
            err.line(renderer.render(Catalog.editText(.editorFailed(why))))
            return 1
        }
        let back: [UInt8]
        switch Files.readBytes(file, limit: 1 << 20) {
        case .success(let b): back = b
        case .failure(let e):
            err.line(renderer.render(Catalog.editText(.editorFailed("left a file that cannot be read: \(e.reason)"))))
            return 1
        }
        let result = session.applyEdit(editable, edited: SourceFile(name: file, bytes: back))
        out.lines(result.lines)
        for d in result.diagnostics {
            if session.format == .json { out.line(JSONWriter.compact(DiagnosticJSON.value(d))) } else { err.line(renderer.render(d)) }
        }
        if result.failed {
            // The user's text is not thrown away: it stays for the next try.
            keep = true
            err.line("kept: your edited text is kept in \(file)")
            return 1
        }
        return 0
    }

    /// Runs $VISUAL, else $EDITOR, else vi on a file, on the terminal; why it failed, or nil.
    static func runEditor(_ file: String) -> String? {
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.trimmedSpaces.isEmpty } ?? "vi"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The editor's own words may hold options (`code --wait`); the file is one argument.
        p.arguments = ["-c", editor + " \"$1\"", "sh", file]
        do {
            try p.run()
        } catch {
            return "'\(editor)' could not be started"
        }
        p.waitUntilExit()
        if p.terminationReason != .exit { return "'\(editor)' was stopped by a signal" }
        if p.terminationStatus != 0 { return "'\(editor)' exited with status \(p.terminationStatus)" }
        return nil
    }
}
