// A session: parse a statement, resolve the names in it, call the engine, render what the
// engine returned (docs/ARCHITECTURE.md). The REPL, `kept run` and `kept test` all drive the
// same Session, so a statement means the same thing wherever it runs. The session also decides
// when the store commits: after each statement (the REPL), once at the end (`kept run --write`),
// or never.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// When a session makes its changes durable.
public enum CommitPolicy: Sendable {
    /// After each statement that changed something, before its output is shown (the REPL).
    case eachStatement
    /// When the front end ends the run (`finish`): all statements' changes, or none.
    case atEnd
    /// Never: the store stays as it was (`kept run` without `--write`, `kept test`).
    case never
}

/// The interpreter's state and entry point.
public final class Session {
    /// The engine: the store, the clock and zone, and every rule that changes the store.
    public let engine: Engine
    public var format: OutputFormat
    public var commits: CommitPolicy
    /// Whether `delete where …` runs at once or first reports what it would delete.
    public var bulkDelete: BulkDeletePolicy = .run
    /// Which files `import` and `export` may open: any, unless `kept test` confines a
    /// transcript to its folders (docs/SCRIPTS.md).
    public var pathPolicy: PathPolicy = .unrestricted
    /// The folder a relative file name of `import` and `export` is read against: nil for the
    /// working folder; a transcript's own folder under `kept test`, as `@store` is
    /// (docs/SCRIPTS.md), so a transcript passes from any working folder.
    public var fileBase: String? = nil
    /// True while a statement the user confirmed runs.
    package var confirmed = false
    /// The warnings the statement's filters gave (a word that looks like an operator), reported with its output.
    package var warnings: [Diagnostic] = []
    /// The patterns of the statement's filters, as bound, and where each is written: where an
    /// error about a pattern that ran past its budget points.
    package var patterns: [(pattern: String, range: SourceRange)] = []
    /// How sync statements reach a server (docs/SYNC.md): the front end sets it; without one
    /// `sync` and `account link` are E0338.
    public var syncConnector: (any SyncConnector)?
    /// Set for a query on the server (`kept run --account`): the store is the account's items,
    /// read for this run, and a statement that would change it is refused (E0349).
    public var readsAccount = false
    /// Tasks another device changed (by uid), from this session's syncs, not yet named by a
    /// statement since (R-SYNC-8).
    package var refreshed: Set<TaskUID> = []
    /// The tasks the statement named by id, as resolved.
    package var named: [TaskUID] = []
    /// What a live front end learns from the statements run (Session+RenderLive).
    package var live = LiveObservation()
    /// True once this session asked about `date-order` (W0003) or set it: the question is
    /// asked once a session (R-CAP-10, Session+ResolveCapture).
    package var dateOrderAsked = false
    /// How text output is laid out for where it goes: the width listings fit and whether they
    /// are coloured, and whether JSON is pretty-printed (docs/OUTPUT.md, "Width and colour").
    public var display = DisplayOptions()
    /// Reads the width again before each listing (a terminal that may be resized), when set;
    /// `display.width` otherwise.
    public var measureWidth: (() -> Int?)?

    public init(engine: Engine, format: OutputFormat = .text, commits: CommitPolicy = .eachStatement) {
        self.engine = engine
        self.format = format
        self.commits = commits
    }

    /// A session over a store held in memory (tests, and a REPL without `--store`).
    public convenience init(store: any StoreBackend, clock: SessionClock, defaultZone: Zone, zoneOverride: Zone? = nil, format: OutputFormat = .text,
                            uids: UIDSource = .random) {
        self.init(engine: Engine(store: store, clock: clock, defaultZone: defaultZone, zoneOverride: zoneOverride, uids: uids),
                  format: format)
    }

    /// An independent copy in memory: the same store content, history, clock and zone, changed
    /// separately and never written (each `@case` of a transcript).
    public func copy() -> Session {
        // The copy remembers the file the store came from, so an export still refuses it.
        let e = Engine(store: engine.store.copyInMemory(), clock: engine.clock, defaultZone: engine.defaultZone,
                       zoneOverride: engine.zoneOverride, uids: engine.uids)
        let s = Session(engine: e, format: format, commits: .never)
        s.bulkDelete = bulkDelete
        s.pathPolicy = pathPolicy
        s.fileBase = fileBase
        s.syncConnector = syncConnector
        s.display = display
        return s
    }

    // MARK: what the engine holds

    /// The store, for reading; every change goes through the engine.
    public var store: any StoreBackend { engine.store }
    public var journal: Journal { engine.store.history }
    public var clock: SessionClock {
        get { engine.clock }
        set { engine.clock = newValue }
    }
    public var zoneOverride: Zone? {
        get { engine.zoneOverride }
        set { engine.zoneOverride = newValue }
    }
    public var defaultZone: Zone { engine.defaultZone }
    public var zone: Zone { engine.zone }
    public var now: Instant { engine.now }
    public var nowLocal: CivilDateTime { engine.nowLocal }
    public var today: CivilDate { engine.today }
    public var weekStart: Weekday { engine.weekStart }
    public var dateContext: DateContext { engine.dateContext }
    public var filterContext: FilterContext { engine.filterContext }
    public var text: TaskText {
        var t = TaskText(today: today, settings: store.settings)
        t.escape = DisplayText.escaped
        return t
    }
    public var areaNames: [String] { engine.areaNames }

    /// Works on another store from now on (`.open`); what was pending on the old one is dropped.
    public func replaceStore(_ s: any StoreBackend) {
        engine.store.rollback()
        engine.store.close()
        engine.replaceStore(s)
    }

    // MARK: running

    /// Parses and runs one statement; `confirmed` is the user's yes to a question it asked.
    public func run(_ source: StatementSource, confirmed: Bool = false) -> CommandOutput {
        let (stmt, diags) = Parser.parse(source)
        guard let stmt else { return CommandOutput(diagnostics: diags) }
        // The statement's own source: masked where it may hold a password (R-SYNC-9).
        let source = stmt.source
        self.confirmed = confirmed
        defer { self.confirmed = false }
        // Another process's committed changes are read before the statement (docs/STORE.md).
        if commits == .eachStatement, !store.hasPending, store.changedElsewhere() { _ = store.reload() }
        // A store that locks takes its lock before a statement that may change it reads it.
        if commits != .never, stmt.kind.mayChange, case .failure(let e) = store.prepareToWrite() {
            return CommandOutput(diagnostics: [Catalog.store(e, at: .locking, statement: source)])
        }
        if readsAccount, let refused = refusedOnAccount(stmt) { return .error(refused) }
        if case .setting(let key?, _?) = stmt.kind, key.text.lowercased() == "date-order" { dateOrderAsked = true }
        warnings = []
        patterns = []
        named = []
        var out = displayed(noteLoading(noteRefreshed(execute(stmt)), stmt))
        out.diagnostics = warnings + out.diagnostics
        // A read that found damage fails the statement, whatever it printed from what was sound:
        // an answer from part of the store is never given as the answer (docs/STORE.md, "Damage").
        if let e = store.readFailure {
            if store.hasPending { engine.rollback() }
            return CommandOutput(diagnostics: [Catalog.store(e, at: .damagedRead, statement: source)])
        }
        guard commits == .eachStatement, store.hasPending else { return out }
        // A statement that failed changed nothing; what it looked at (a plan snapshot) goes too.
        if out.failed {
            engine.rollback()
            return out
        }
        if case .failure(let e) = engine.commit() {
            // Nothing was written: the statement did not happen. The store is read again, so
            // the next statement sees what the other process wrote.
            engine.rollback()
            let reread = store.reload()
            // The statement that did not happen is where the error points.
            out = CommandOutput(diagnostics: [Catalog.store(e, at: .commit(reread: reread.isSuccess), statement: source)])
        }
        return out
    }

    /// Ends a run whose changes commit at its end (`kept run --write`): writes them when no
    /// statement failed, or with `keepGoing` whatever succeeded; otherwise writes nothing.
    /// Returns what went wrong, or nil when the store is as the run left it.
    public func finish(failed: Int, keepGoing: Bool, runFlags: Bool = true) -> Diagnostic? {
        guard commits == .atEnd, store.hasPending else { return nil }
        if failed > 0, !keepGoing {
            engine.rollback()
            return Catalog.runNotWritten(store.location ?? "the store", failed: failed, runFlags: runFlags)
        }
        if case .failure(let e) = engine.commit() {
            engine.rollback()
            return Catalog.store(e)
        }
        return nil
    }

    /// Runs a parsed statement, stage by stage (Session+Act): resolve its parts to typed
    /// values, act with one engine call, render the typed result.
    public func execute(_ s: Statement) -> CommandOutput {
        staged(s)
    }

    /// Applies changes as one undoable step, as an action would: fixtures of tests, and
    /// callers that make their own changes.
    public func commit(_ summary: String, _ changes: [Change]) {
        var step = Engine.StepChanges()
        engine.stage(changes, into: &step)
        engine.record(step, summary: summary)
    }
}

extension Result {
    package var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

extension StoreBackend {
    /// Every task, in id order (a store may build them all for this).
    public var tasks: [Task] { tasks(.all) }
}
