// A session: one store, one clock and zone, one journal. The REPL, `kept run` and `kept test`
// all drive the same Session, so a statement means the same thing wherever it runs.

/// Where the session's now comes from (R-DAY-1).
public enum SessionClock: Sendable {
    /// The injected clock (the system clock outside tests).
    case clock(any Clock)
    /// A wall-clock reading fixed by `now 2026-06-15 09:00`: it stays 09:00 when the zone changes.
    case wall(CivilDateTime)
    /// An instant fixed by `now 2026-06-15T07:00:00Z`.
    case instant(Instant)
}

/// The interpreter's state and entry point.
public final class Session {
    public internal(set) var store: Store
    /// The undo history; it lives in the store, so it is saved with it.
    public internal(set) var journal: Journal {
        get { store.history }
        _modify { yield &store.history }
        set { store.history = newValue }
    }
    public var clock: SessionClock
    public var format: OutputFormat
    /// A zone given on the command line; a `zone` statement replaces it.
    public var zoneOverride: Zone?
    /// The zone used when neither the store nor the command line names one.
    public let defaultZone: Zone
    /// Whether `delete where …` runs at once or first reports what it would delete.
    public var bulkDelete: BulkDeletePolicy = .run
    /// True while a statement the user confirmed runs.
    var confirmed = false

    public init(store: Store, clock: SessionClock, defaultZone: Zone, zoneOverride: Zone? = nil, format: OutputFormat = .text) {
        self.store = store
        self.clock = clock
        self.defaultZone = defaultZone
        self.zoneOverride = zoneOverride
        self.format = format
    }

    /// An independent copy: the same store, journal, clock and zone, changed separately.
    public func copy() -> Session {
        let s = Session(store: store, clock: clock, defaultZone: defaultZone, zoneOverride: zoneOverride, format: format)
        s.bulkDelete = bulkDelete
        return s
    }

    // MARK: time

    /// The account zone: the command line's, else the store's, else the default.
    public var zone: Zone {
        if let z = zoneOverride { return z }
        if let n = store.settings.zone, let z = Zone(identifier: n) { return z }
        return defaultZone
    }

    public var now: Instant {
        switch clock {
        case .clock(let c): return c.now()
        case .wall(let w): return zone.instant(for: w)
        case .instant(let i): return i
        }
    }

    /// Now as a wall-clock reading in the account zone.
    public var nowLocal: CivilDateTime {
        switch clock {
        case .wall(let w): return zone.resolve(w).wall
        default: return zone.local(at: now)
        }
    }

    /// The account's today, after the day start (R-DAY-2).
    public var today: CivilDate { store.settings.day.today(at: nowLocal) }

    public var dateContext: DateContext {
        let n = nowLocal
        return DateContext(now: n, today: store.settings.day.today(at: n), settings: store.settings, zone: zone)
    }

    public var text: TaskText { TaskText(today: today, settings: store.settings) }

    // MARK: running

    /// Parses and runs one statement; `confirmed` is the user's yes to a question it asked.
    public func run(_ source: StatementSource, confirmed: Bool = false) -> CommandOutput {
        let (stmt, diags) = Parser.parse(source)
        guard let stmt else { return CommandOutput(diagnostics: diags) }
        self.confirmed = confirmed
        defer { self.confirmed = false }
        return displayed(execute(stmt))
    }

    /// What a statement prints, as it reaches a terminal or a transcript: in text, control
    /// characters of user text are escaped here, once for every statement (DisplayText); JSON
    /// keeps the text as it is. Diagnostics escape their own text (Diagnostic.init).
    func displayed(_ r: CommandOutput) -> CommandOutput {
        guard format == .text else { return r }
        var o = r
        o.lines = r.lines.map(DisplayText.escaped)
        if var q = r.confirmation {
            q.question = DisplayText.escaped(q.question)
            q.details = q.details.map(DisplayText.escaped)
            q.declined = q.declined.map(DisplayText.escaped)
            o.confirmation = q
        }
        return o
    }

    /// Runs a parsed statement. Each statement kind goes to the module that owns it.
    public func execute(_ s: Statement) -> CommandOutput {
        switch s.kind {
        case .now(let arg): return runNow(s, arg)
        case .zone(let arg): return runZone(s, arg)
        case .setting(let key, let value): return runSetting(s, key, value)
        case .setField(let ref, let field, let value): return runSetField(s, ref, field, value)
        case .add(let line): return runAdd(s, line, natural: false)
        case .capture(let line): return runAdd(s, line, natural: true)
        case .parse(let line): return runParse(s, line)
        case .date(let phrase): return runDate(s, phrase, explain: false)
        case .explainDate(let phrase): return runDate(s, phrase, explain: true)
        case .repeatPreview(let rule): return runRepeat(s, rule, rruleOnly: false)
        case .rrule(let rule): return runRepeat(s, rule, rruleOnly: true)
        case .show(let ref, let field): return runShow(s, ref, field)
        case .list(let f): return runList(s, f)
        case .count(let f): return runCount(s, f)
        case .filterDefine(let n, let f): return runFilterDefine(s, n, f)
        case .filterStar(let n, let on): return runFilterStar(s, n, on)
        case .filterDelete(let n): return runFilterDelete(s, n)
        case .filterRename(let a, let b): return runFilterRename(s, a, b)
        case .filterMove(let n, let k): return runFilterMove(s, n, k)
        case .filters: return runFilters()
        case .explainFilter(let f): return runExplainFilter(s, f)
        case .areas: return runAreas()
        case .complete(let t): return runComplete(s, t)
        case .reopen(let t): return runReopen(s, t)
        case .delete(let t): return runDelete(s, t)
        case .archive(let t): return runArchive(s, t, archive: true)
        case .unarchive(let t): return runArchive(s, t, archive: false)
        case .tomorrow(let t): return runTomorrow(s, t)
        case .reschedule(let t, let when): return runReschedule(s, t, when)
        case .move(let t, let g): return runMove(s, t, g)
        case .tag(let t, let tags, let add): return runTag(s, t, tags, add: add)
        case .duplicate(let t): return runDuplicate(s, t)
        case .step(let r, let e): return runStep(s, r, e)
        case .comment(let r, let body): return runComment(s, r, body)
        case .link(let t, let notes, let add): return runLink(s, t, notes, add: add)
        case .subtask(let r, let line): return runSubtask(s, r, line)
        case .remind(let t, let when): return runRemind(s, t, when)
        case .unremind(let t, let which): return runUnremind(s, t, which)
        case .reminders: return runReminders(s)
        case .undo(let n): return runUndo(s, n)
        case .redo(let n): return runRedo(s, n)
        case .projectAdd(let name): return runProjectAdd(s, name)
        case .projectRename(let a, let b): return runProjectRename(s, a, b)
        case .projectArchive(let n, let a): return runProjectArchive(s, n, archived: a)
        case .projectDelete(let n, let c): return runProjectDelete(s, n, c)
        case .projectStatuses(let n, let e): return runProjectStatuses(s, n, e)
        case .projects: return runProjects()
        case .help(let topic): return runHelp(s, topic)
        case .plan(let r): return runPlan(s, r)
        case .why(let ref): return runWhy(s, ref)
        case .notToday(let t): return runNotToday(s, t)
        case .back(let ref): return runBack(s, ref)
        case .top3(let e): return runTop3(s, e)
        }
    }

    // MARK: changes

    /// Applies the changes of one user action and records them as one undoable step.
    func commit(_ summary: String, _ changes: [Change]) {
        var step: [Change] = []
        stage(changes, into: &step)
        journal.record(JournalStep(summary: summary, changes: step))
    }

    func apply(_ c: Change, forward: Bool) {
        switch c {
        case .task(let before, let after):
            let target = forward ? after : before
            let other = forward ? before : after
            if let t = target { store.put(t) } else if let o = other { store.remove(o.id) }
        case .project(let before, let after):
            let target = forward ? after : before
            let other = forward ? before : after
            if let p = target, let o = other, o.name.lowercased() != p.name.lowercased() {
                store.renameProject(o.name, to: p)
            } else if let p = target { store.put(p) } else if let o = other { store.removeProject(named: o.name) }
        case .settings(let before, let after):
            store.settings = forward ? after : before
        case .filters(let before, let after):
            store.filters = forward ? after : before
        case .plan(let before, let after):
            store.plan = forward ? after : before
        }
    }

    /// Replaces the store, with the undo history it holds.
    public func replaceStore(_ s: Store) {
        store = s
    }

    /// Finds the task a reference names: an id, or a title matching exactly one open task.
    func resolve(_ ref: TaskRef, _ s: Statement) -> Result<Task, Diagnostic> {
        resolve(ref, s, scope: .open)
    }

    /// One line of output, text or JSON by the format.
    func out(_ text: @autoclosure () -> [String], json: @autoclosure () -> JSONValue, changed: Bool = false) -> CommandOutput {
        switch format {
        case .text: return CommandOutput(lines: text(), changed: changed)
        case .json: return CommandOutput(lines: [JSONWriter.compact(json())], changed: changed)
        }
    }
}
