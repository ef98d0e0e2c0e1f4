// The resolve stage (docs/ARCHITECTURE.md): the names of a statement to values. A task
// reference becomes a task by id (the engine's lookup) or by title, a `where` filter the
// ids it matches, a filter's syntax a bound FilterExpr, a date phrase a Due, a capture line a
// checked TaskDraft. Nothing here changes the store or prints.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// Where a quoted title is looked up: most actions name an open task, `reopen` a done one and
/// `unarchive` an archived one.
package enum TitleScope {
    case open, done, archived

    package func admits(_ t: Task) -> Bool {
        switch self {
        case .open: return t.isOpen
        case .done: return t.status == .done
        case .archived: return t.status == .archived
        }
    }

    package var word: String {
        switch self {
        case .open: return "open"
        case .done: return "completed"
        case .archived: return "archived"
        }
    }
}

extension Session {
    /// The request of a statement of a family split by stage, or nil for the others.
    package func resolve(_ s: Statement) -> Result<Request, Diagnostic>? {
        if let a = resolveAction(s) { return a.map(Request.action) }
        if let r = resolveReminder(s) { return r.map(Request.reminder) }
        switch s.kind {
        case .repeatDates(let e): return resolve(e, s).map(Request.repeatDate)
        case .undo(let n): return .success(.undo(n))
        case .redo(let n): return .success(.redo(n))
        // Edits, Plan, Structure, Tasks, Capture
        case .setField, .tag, .step, .comment, .link: return resolveEdit(s)?.map(Request.edit)
        case .plan, .why, .notToday, .back, .top3: return resolvePlanning(s)?.map(Request.planning)
        case .add, .capture, .parse, .date, .explainDate: return resolveCapture(s)?.map(Request.capture)
        case .subtask, .projectAdd, .projectRename, .projectArchive, .projectDelete, .projectStatuses, .projects:
            return resolveStructure(s)?.map(Request.structure)
        case .show: return resolveShow(s)
        // Query, Repeat, SavedFilters, Settings, Interop
        case .repeatPreview(let rule): return resolveRepeat(s, rule, rruleOnly: false).map(Request.repeatRule)
        case .rrule(let rule): return resolveRepeat(s, rule, rruleOnly: true).map(Request.repeatRule)
        case .now, .zone, .setting, .help: return resolveSettings(s)?.map(Request.settings)
        case .filterDefine, .filterStar, .filterDelete, .filterRename, .filterMove, .filters, .areas, .explainFilter:
            return resolveSavedFilter(s)?.map(Request.savedFilter)
        case .importFile, .exportFile: return resolveInterop(s)?.map(Request.interop)
        case .list, .count, .parseFilter: return resolveQuery(s)?.map(Request.query)
        // Sync
        case .sync, .account: return resolveSync(s)?.map(Request.sync)
        // Agenda
        case .agenda, .openings: return resolveAgenda(s)?.map(Request.agenda)
        case .calendar: return resolveCalendar(s)?.map(Request.calendar)
        default: return nil
        }
    }

    /// Finds the task a reference names: an id, or a title matching exactly one open task.
    package func resolve(_ ref: TaskRef, _ s: Statement) -> Result<Task, Diagnostic> {
        resolve(ref, s, scope: .open)
    }

    /// A task by reference, with a title looked up in `scope`; the error lists the candidates.
    package func resolve(_ ref: TaskRef, _ s: Statement, scope: TitleScope) -> Result<Task, Diagnostic> {
        switch ref {
        case .id(let id, let r):
            do {
                let t = try engine.existing(id)
                // R-SYNC-8: a task named by id may be one another device changed.
                named.append(t.uid)
                return .success(t)
            } catch {
                return .failure(diagnostic(error, s, at: r))
            }
        case .title(let title, let r):
            let matches = store.tasks(.titled(title)).filter(scope.admits)
            if matches.count == 1, let t = matches.first { return .success(t) }
            if matches.isEmpty {
                return .failure(Catalog.noTitle(title, among: scope, range: r, file: s.source.file,
                                                candidates: store.tasks(.all).filter(scope.admits).map(\.title)))
            }
            let txt = text
            return .failure(Catalog.ambiguousTitle(title, among: .tasks(scope), ids: matches.map(\.id),
                                                   candidates: matches.prefix(10).map(txt.summary), range: r, file: s.source.file))
        }
    }

    /// The pick a reference names (R-PLAN-7): an id, or a title matched among the picks first
    /// (open or finished today), so a pick titled like another open task is still found; two
    /// picks of one title are ambiguous, with both as candidates. A title no pick has is
    /// looked up among the open tasks, so the error says what it matches.
    package func resolvePick(_ ref: TaskRef, _ s: Statement, picks: [Int]) -> Result<Task, Diagnostic> {
        guard case .title(let title, let r) = ref else { return resolve(ref, s, scope: .open) }
        let matches = picks.compactMap { store.task($0) }.filter { $0.title == title }
        if matches.count == 1, let t = matches.first { return .success(t) }
        if matches.isEmpty { return resolve(ref, s, scope: .open) }
        let txt = text
        return .failure(Catalog.ambiguousTitle(title, among: .picks, ids: matches.map(\.id), candidates: matches.map(txt.summary),
                                               range: r, file: s.source.file))
    }

    /// The ids a target names: the task of a reference, or what a `where` filter matches.
    package func selection(_ target: TaskTarget, _ s: Statement, scope: TitleScope = .open) -> Result<Selection, Diagnostic> {
        switch target {
        case .task(let ref): return resolve(ref, s, scope: scope).map { .task($0.id) }
        case .filter(let f):
            // A pattern past its budget fails the bulk action before anything changes (docs/LIMITS.md).
            return compileTarget(f, s).flatMap { e in
                do throws(RegexBudgetError) {
                    return .success(.tasks(try engine.ids(matching: e), label: "where " + s.source.rawText(f.range)))
                } catch {
                    return .failure(regexBudgetError(error, s))
                }
            }
        }
    }

    /// The filter of a `where`, read and bound; a filter over deleted tasks picks nothing (docs/FILTERS.md).
    package func compileTarget(_ f: FilterSource, _ s: Statement) -> Result<FilterExpr, Diagnostic> {
        bindFilter(f, s).map { $0 ?? .and([]) }
    }

    /// What filters are bound against: the store's projects and saved filters, and now.
    package var filterScope: FilterScope {
        FilterScope(projects: store.projects.map(\.name), saved: store.filters, dates: dateContext, clock: filterContext)
    }

    /// Binds a statement's one filter, as the parser read it, against the store and now; nil
    /// when there is none. A filter over deleted tasks is refused unless `deleted` says the
    /// statement shows them.
    package func bindFilter(_ f: FilterSource?, _ s: Statement, deleted: Bool = false) -> Result<FilterExpr?, Diagnostic> {
        guard let f else { return .success(nil) }
        let parsed: ParsedFilter
        switch f.parsed {
        case .success(let p): parsed = p
        case .failure(let d): return .failure(d)
        }
        var b = FilterBinder(scope: filterScope, file: s.source.file)
        do throws(Diagnostic) {
            let e = try b.bindFilter(parsed.syntax)
            if e.looksAtDeleted, !deleted { throw Catalog.deletedNotActionable(range: f.range, file: s.source.file) }
            warnings += parsed.warnings
            for t in parsed.syntax.terms { if case .regex(_, let re, let at) = t.kind { patterns.append((re.pattern, at)) } }
            return .success(e)
        } catch {
            return .failure(error)
        }
    }

    /// A date phrase that must be read whole.
    package func wholeDate(_ value: TextArg, _ s: Statement, help: String? = nil) -> Result<Due, Diagnostic> {
        wholeDate(value, file: s.source.file, help: help)
    }

    /// A date phrase that must be read whole, in a file that is no statement (`kept edit`'s text).
    package func wholeDate(_ value: TextArg, file: SourceFile, help: String? = nil) -> Result<Due, Diagnostic> {
        let words = value.text.split(separator: " ").map(String.init)
        switch DatePhrase.resolve(words, in: dateContext) {
        case .success(let (r, used)) where used == words.count: return .success(r.due)
        case .success: return .failure(Catalog.badDate(value.text, range: value.range, file: file, help: help))
        case .failure(let e):
            return .failure(Catalog.wholeDate(e, range: value.range, file: file))
        }
    }

    /// Parses a capture line and checks it against the store (the project, the status, the
    /// parent); an error points at the token it is about.
    package func draft(_ s: Statement, _ line: TextArg, natural: Bool, explain: Bool = false, parent: Int? = nil) -> Result<TaskDraft, Diagnostic> {
        switch QuickAdd.parse(line.text, in: dateContext, natural: natural, explain: explain) {
        case .failure(let e): return .failure(diagnostic(e, line, s))
        case .success(let d):
            do {
                return .success(try engine.checked(d, parent: parent))
            } catch {
                return .failure(diagnostic(error, s, at: draftRange(error, d, line)))
            }
        }
    }

    /// The range of the token an error about a draft is about.
    package func draftRange(_ e: DomainError, _ d: TaskDraft, _ line: TextArg) -> SourceRange {
        func token(_ kind: CaptureToken.Kind) -> SourceRange {
            let tok = d.tokens.first { $0.kind == kind }
            return SourceRange(start: line.range.start + (tok?.start ?? 0), end: line.range.start + (tok?.end ?? line.text.utf8.count))
        }
        switch e {
        case .unknownProject, .archivedProject:
            let (a, b) = d.projectRange ?? (0, line.text.utf8.count)
            return SourceRange(start: line.range.start + a, end: line.range.start + b)
        case .unknownStatus: return token(.status)
        case .noTask: return token(.parent)
        default: return line.range
        }
    }
}
