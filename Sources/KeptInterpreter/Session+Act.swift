// The act stage (docs/ARCHITECTURE.md): a resolved request to one call of the engine, and the
// typed outcome it returned. Nothing here reads a statement's words or prints. `staged` runs a
// statement through the three stages.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a statement does, resolved: one case a family of statements.
package enum Request {
    case action(ActionRequest)
    case repeatDate(RepeatDateRequest)
    case reminder(ReminderRequest)
    /// Undo or redo this many steps.
    case undo(Int)
    case redo(Int)
    // Edits, Plan, Structure, Tasks, Capture
    case edit(EditRequest)
    case planning(PlanningRequest)
    case capture(CaptureRequest)
    case structure(StructureRequest)
    /// `show`: a task, and the field to show or nil for all.
    case show(Task, field: TaskField?)
    // Query, Repeat, SavedFilters, Settings, Interop
    case repeatRule(RepeatRequest)
    case settings(SettingsRequest)
    case savedFilter(SavedFilterRequest)
    case interop(InteropRequest)
    case query(QueryRequest)
    // Sync
    case sync(SyncRequest)
    // Agenda
    case agenda(AgendaStatementRequest)
    /// `calendar …` (docs/AGENDA.md).
    case calendar(CalendarRequest)
}

/// What the engine returned for a request.
package enum Acted {
    case action(ActionOutcome)
    case repeatDate(Outcome<RepeatDateChange>)
    case reminder(ReminderOutcome)
    case undone([UndoneStep])
    case redone([UndoneStep])
    // Edits, Plan, Structure, Tasks, Capture
    case edited(Outcome<Task>)
    case planned(PlanningOutcome)
    case captured(CaptureOutcome)
    case structured(StructureOutcome)
    case shown(Task, field: TaskField?)
    // Query, Repeat, SavedFilters, Settings, Interop
    case repeatRule(RepeatOutcome)
    case settings(SettingsOutcome)
    case savedFilter(SavedFilterOutcome)
    case interop(InteropOutcome)
    case query(QueryOutcome)
    // Sync
    case sync(SyncOutcome)
    // Agenda
    case agenda(AgendaOutcome)
    case calendar(CalendarOutcome)
}

/// What a task action did, as the engine returned it.
package enum ActionOutcome {
    case completed(Outcome<Engine.Completion>)
    case reopened(Outcome<Engine.Reopening>)
    case deleted(Outcome<Engine.Deletion>)
    /// What a bulk delete would take: the tasks its filter matched and how many subtasks below them.
    case deletionAsked(FilterSource, hit: [Task], subtasks: Int)
    case archived(Outcome<Task>)
    case unarchived(Outcome<Task>)
    case tomorrow(Outcome<Task>)
    case rescheduled(Outcome<Task>)
    case moved(Outcome<Task>, to: DueGroup)
    case duplicated(Outcome<(original: Task, copy: Task)>)
}

extension Session {
    /// Runs a statement in its stages: resolve its parts to a request, act on it with one
    /// engine call, render the outcome, or the engine's error at the words it is about. A
    /// statement of a family not split by stage prints nothing here.
    package func staged(_ s: Statement) -> CommandOutput {
        guard let resolved = resolve(s) else { return CommandOutput() }
        return resolved.map { request in
            do throws(DomainError) {
                let acted = try act(request)
                observe(acted)
                return render(acted, s)
            } catch {
                return .error(render(error, s))
            }
        }.value
    }

    /// One engine call for a request.
    package func act(_ r: Request) throws(DomainError) -> Acted {
        switch r {
        case .action(let a): return .action(try act(a))
        case .repeatDate(let d): return .repeatDate(try act(d))
        case .reminder(let r): return .reminder(try act(r))
        case .undo(let n): return .undone(try engine.undo(n))
        case .redo(let n): return .redone(try engine.redo(n))
        // Edits, Plan, Structure, Tasks, Capture
        case .edit(let e): return .edited(try act(e))
        case .planning(let p): return .planned(try act(p))
        case .capture(let c): return .captured(try act(c))
        case .structure(let st): return .structured(try act(st))
        case .show(let t, let f): return .shown(t, field: f)
        // Query, Repeat, SavedFilters, Settings, Interop
        case .repeatRule(let r): return .repeatRule(act(r))
        case .settings(let r): return .settings(try act(r))
        case .savedFilter(let r): return .savedFilter(try act(r))
        case .interop(let r): return .interop(act(r))
        case .query(let r): return .query(act(r))
        // Sync
        case .sync(let r): return .sync(act(r))
        // Agenda
        case .agenda(let r): return .agenda(act(r))
        case .calendar(let r): return .calendar(try act(r))
        }
    }

    /// One engine call for a task action.
    package func act(_ r: ActionRequest) throws(DomainError) -> ActionOutcome {
        switch r {
        case .complete(let sel): return .completed(try engine.complete(sel))
        case .reopen(let sel): return .reopened(try engine.reopen(sel))
        case .delete(let sel): return .deleted(try engine.delete(sel))
        case .confirmDelete(let f, let ids):
            let (hit, below) = engine.deletion(of: ids)
            return .deletionAsked(f, hit: hit, subtasks: below)
        case .archive(let sel): return .archived(try engine.archive(sel))
        case .unarchive(let sel): return .unarchived(try engine.unarchive(sel))
        case .tomorrow(let sel): return .tomorrow(try engine.tomorrow(sel))
        case .reschedule(let sel, let due): return .rescheduled(try engine.reschedule(sel, to: due))
        case .move(let sel, let group): return .moved(try engine.move(sel, to: group), to: group)
        case .duplicate(let sel): return .duplicated(try engine.duplicate(sel))
        }
    }

    /// One engine call for a change to a repeat's dates.
    package func act(_ r: RepeatDateRequest) throws(DomainError) -> Outcome<RepeatDateChange> {
        switch r {
        case .skipNext(let sel): return try engine.skip(sel, .next)
        case .skip(let sel, let d): return try engine.skip(sel, .on(d))
        case .unskip(let sel, let d): return try engine.unskip(sel, d)
        case .rdate(let sel, let d): return try engine.addDate(sel, d)
        case .unrdate(let sel, let d): return try engine.removeAddedDate(sel, d)
        }
    }

    /// One engine call for a reminder statement.
    package func act(_ r: ReminderRequest) throws(DomainError) -> ReminderOutcome {
        switch r {
        case .remind(let sel, let time): return .reminded(try engine.remind(sel, at: time))
        case .unremind(let sel, let number): return .unreminded(try engine.unremind(sel, number: number))
        case .list: return .listed(engine.reminderEntries())
        }
    }

    /// One engine call for an edit of a task's fields or lists.
    package func act(_ r: EditRequest) throws(DomainError) -> Outcome<Task> {
        switch r {
        case .set(let sel, let v): return try engine.set(v, on: sel)
        case .tag(let sel, let names, let add): return try engine.tag(sel, names, add: add)
        case .link(let sel, let titles, let add): return try engine.link(sel, titles, add: add)
        case .step(let id, let change): return try engine.step(id, change)
        case .comment(let id, let body): return try engine.comment(id, body)
        }
    }

    /// One engine call for a plan statement. `top3 change` with no other task to pick reads
    /// the picks as they stay.
    package func act(_ r: PlanningRequest) throws(DomainError) -> PlanningOutcome {
        switch r {
        case .plan(let e, let limit, let explain): return .plan(engine.planView(e, limit: limit), explain: explain)
        case .byDate(let e, let limit):
            do throws(RegexBudgetError) { return .byDate(.success(try engine.planByDate(e, limit: limit))) } catch { return .byDate(.failure(error)) }
        case .refresh: return .refreshed(engine.refreshPlan(limit: Session.planRows))
        case .why(let t): return .why(t, try engine.why(t.id))
        case .notToday(let sel):
            let r = try engine.notToday(sel)
            return .notToday(r.outcome, top3: r.top3)
        case .back(let t): return .back(try engine.back(t.id))
        case .top3: return .top3(engine.top3())
        case .changeTop3:
            guard let v = engine.changeTop3() else { return .top3Kept(engine.top3()) }
            return .top3Changed(v)
        case .addToTop3(let t): return .top3Changed(try engine.addToTop3(t.id))
        case .replaceInTop3(let old, let new): return .top3Changed(try engine.replaceInTop3(old.id, with: new.id))
        }
    }

    /// One engine call for a capture statement: `add` files the draft; parse and date call
    /// nothing.
    package func act(_ r: CaptureRequest) throws(DomainError) -> CaptureOutcome {
        switch r {
        case .add(let d): return .added(try engine.add(d))
        case .parse(let d): return .parsed(d)
        case .date(let r, let explain): return .date(r, explain: explain)
        }
    }

    /// One engine call for a structure statement; `projects` reads the store as it renders.
    package func act(_ r: StructureRequest) throws(DomainError) -> StructureOutcome {
        switch r {
        case .subtask(let d, let parent): return .subtask(try engine.add(d, parent: parent))
        case .addProject(let name): return .addedProject(try engine.addProject(name))
        case .renameProject(let old, let new): return .renamedProject(try engine.renameProject(old, to: new))
        case .archiveProject(let name, let archived): return .archivedProject(try engine.archiveProject(name, archived: archived), archived: archived)
        case .deleteProject(let name, let c): return .deletedProject(try engine.deleteProject(name, tasks: c), tasks: c)
        case .statuses(let name): return .statuses(try engine.project(name))
        case .addStatus(let st, let name): return .addedStatus(try engine.addStatus(st, to: name))
        case .removeStatus(let st, let name): return .removedStatus(try engine.removeStatus(st, from: name))
        case .projects: return .projects
        }
    }
}

extension Result where Success == CommandOutput, Failure == Diagnostic {
    /// The output, or the diagnostic as an error's output.
    package var value: CommandOutput {
        switch self {
        case .success(let o): return o
        case .failure(let d): return .error(d)
        }
    }
}

extension Session {
    /// A rule's RRULE, or its next dates from its anchor: an hourly rule without `from` starts now.
    package func act(_ r: RepeatRequest) -> RepeatOutcome {
        switch r {
        case .rrule(let rule):
            let anchor = rule.from ?? today
            return .rrule(rule, anchor: anchor, rule.rrule(anchor: anchor, weekStart: weekStart, zone: zone))
        case .preview(let rule, let limit):
            let anchor = rule.from ?? today
            let rr = rule.rrule(anchor: anchor, weekStart: weekStart, zone: zone)
            let time = rule.fromTime ?? (rule.dependsOnAnchorTime && rule.from == nil ? nowLocal.time : nil)
            let dates = rule.occurrences(anchor: anchor, time: time, limit: limit, weekStart: weekStart, zone: zone, start: rule.fromTime)
            return .previewed(RepeatPreview(rule: rule, anchor: anchor, rrule: rr, dates: dates, limit: limit))
        }
    }

    /// The session's clock or zone set, or a setting set by the engine; the others read only.
    package func act(_ r: SettingsRequest) throws(DomainError) -> SettingsOutcome {
        switch r {
        case .showNow: return .now
        case .setNow(let c):
            clock = c
            return .nowSet
        case .showZone: return .zone
        case .setZone(let z):
            // `zone` fixes the zone of this session, as `now` fixes its clock (R-DAY-1); the
            // account's own zone is the setting `set zone NAME`, which is stored and undoable.
            zoneOverride = z
            return .zoneSet
        case .listSettings: return .settings
        case .showSetting(let spec): return .setting(spec)
        case .set(let spec, let value): return .settingSet(spec, changed: try engine.set(setting: spec.key, to: value))
        case .help(let topic): return .help(topic)
        }
    }

    /// One engine call for a saved-filter statement; `filters` and `areas` read the store.
    /// `explain` counts what its filter matches, or returns the pattern past its budget.
    package func act(_ r: SavedFilterRequest) throws(DomainError) -> SavedFilterOutcome {
        switch r {
        case .define(let name, let text):
            let d = try engine.defineFilter(name, text)
            return .defined(d.filter, new: d.new, text: text)
        case .star(let name, let on):
            let d = try engine.starFilter(name, on)
            return .starred(d.filter, changed: d.changed, on: on)
        case .delete(let name): return .deleted(try engine.deleteFilter(name))
        case .rename(let old, let new):
            let d = try engine.renameFilter(old, to: new)
            return .renamed(was: d.was, d.filter, to: new)
        case .move(let name, let to):
            let d = try engine.moveFilter(name, to: to)
            return .moved(d.filter, place: d.place)
        case .list: return .listed(store.filters)
        case .areas: return .areas(areaNames)
        case .explainFor(let expr, let t): return .tried(expr, try engine.trial(expr, on: t.id))
        case .explain(let expr):
            if expr.looksAtDeleted {
                let d = engine.deleted(expr)
                return .explained(expr, .success((d.matched.count, d.total)))
            }
            do throws(RegexBudgetError) {
                let r = try engine.selectRows(expr)
                return .explained(expr, .success((r.matched.count, r.total)))
            } catch {
                return .explained(expr, .failure(error))
            }
        }
    }

    /// An import, read into the engine as one undo step, or an export: the tasks chosen, put
    /// in the format's order, written by the format's writer, and the file written.
    package func act(_ r: InteropRequest) -> InteropOutcome {
        switch r {
        case .importing(let job):
            let (input, zone, options) = (job.input, self.zone, job.options)
            var skipped: [String: Int] = [:]
            let result: Result<ImportReport, ImportError>
            do throws(ImportError) {
                switch job.format {
                case .taskwarrior:
                    result = .success(try run(TaskwarriorReader(input, zone: zone), options))
                case .jsonLines:
                    result = .success(try run(JSONLinesReader(input, zone: zone), options))
                case .icalendar:
                    var src = ICalendarReader(input, zone: zone, weekStart: weekStart, events: job.events)
                    result = .success(try engine.importTasks(&src, options: options))
                    skipped = src.skipped
                case .csv:
                    let e = engine
                    var src = CSVReader(input, context: dateContext, newUID: { e.uids.next() })
                    result = .success(try engine.importTasks(&src, options: options))
                }
            } catch {
                result = .failure(error)
            }
            return .imported(result, skipped: skipped)
        case .exporting(let job):
            var tasks: [Task]
            if let e = job.filter {
                do throws(RegexBudgetError) { tasks = try engine.select(e).matched } catch { return .exported(.failure(error)) }
            } else {
                tasks = store.tasks
            }
            var left = 0
            if job.format == .csv {
                // Todoist's CSV holds open work, parents before their subtasks.
                let open = tasks.filter(\.isOpen)
                left = tasks.count - open.count
                tasks = Session.treeOrder(open)
            }
            let st = store
            var bytes: [UInt8] = []
            let zone = self.zone
            switch job.format {
            case .taskwarrior: TaskwarriorWriter.write(tasks, zone: zone, to: &bytes)
            case .jsonLines: JSONLinesWriter.write(tasks, parentUID: { st.task($0)?.uid }, zone: zone, to: &bytes)
            case .icalendar:
                ICalendarWriter.write(tasks, .init(zone: zone, weekStart: weekStart, now: now, parentUID: { st.task($0)?.uid }), to: &bytes)
            case .csv:
                let e = engine
                CSVWriter.write(tasks, depth: { e.depth($0) }, zone: zone, to: &bytes)
            }
            // Through a symlink to the file it names: the link stays a link (docs/INTEROP.md).
            var failure: String? = nil
            if job.path != "-", case .failure(let e) = job.target.write(bytes) { failure = e.reason }
            return .exported(.success(Exported(format: job.format, tasks: tasks.count, left: left, bytes: bytes, failure: failure)))
        }
    }

    package func run<S: ImportSource>(_ source: S, _ options: ImportOptions) throws(ImportError) -> ImportReport {
        try Importing.run(source, into: engine, options: options)
    }

    /// Parents before their subtasks, each level in id order.
    package static func treeOrder(_ tasks: [Task]) -> [Task] {
        let ids = Set(tasks.map(\.id))
        var kids: [Int: [Task]] = [:]
        var roots: [Task] = []
        for t in tasks {
            if let p = t.parent, ids.contains(p) { kids[p, default: []].append(t) } else { roots.append(t) }
        }
        var out: [Task] = []
        var seen: Set<Int> = []
        func visit(_ t: Task) {
            guard seen.insert(t.id).inserted else { return }
            out.append(t)
            for c in kids[t.id] ?? [] { visit(c) }
        }
        for r in roots { visit(r) }
        for t in tasks where !seen.contains(t.id) { out.append(t) }
        return out
    }

    /// A list's sections in order, each one query of the engine, up to the first whose
    /// pattern runs past its budget; a count; `parse filter` asks nothing of the engine.
    package func act(_ r: QueryRequest) -> QueryOutcome {
        switch r {
        case .list(let c, let sections, let comma, let stop):
            var found: [ListSectionOutcome] = []
            for sec in sections {
                switch sec.request {
                case .view(let v): found.append(.view(v, engine.view(v, order: c.order, limit: c.limit)))
                case .deleted(let e):
                    let d = engine.deleted(e)
                    found.append(.deleted(e, matched: d.matched, total: d.total))
                case .tasks(let e):
                    // R-VIEW-9: grouped by due, a list without `order by` goes by due in each group.
                    let order: SortOrder = c.order.isEmpty && c.groupByDue ? [(.due, false)] : c.order
                    let ordered: [Task], matched: Int, total: Int
                    do throws(RegexBudgetError) { (ordered, matched, total) = try engine.select(e, order: order, limit: c.limit, countAll: false) } catch {
                        return .listed(c, sections, found, comma: comma, failure: error, stop: stop)
                    }
                    found.append(.tasks(e, ordered: ordered, matched: matched, total: total))
                }
            }
            return .listed(c, sections, found, comma: comma, failure: nil, stop: stop)
        case .count(let expr):
            if let e = expr, e.looksAtDeleted {
                let d = engine.deleted(e)
                return .counted(expr, .success((d.matched.count, d.total)))
            }
            do throws(RegexBudgetError) { return .counted(expr, .success(try engine.count(expr))) } catch { return .counted(expr, .failure(error)) }
        case .parseFilter(let p, let f): return .parsedFilter(p, f)
        }
    }
}

extension Session {
    /// One engine call for a sync statement: a sync through a connection made for it (and
    /// closed after), a read of the sync state, or a refused change retried or discarded.
    /// `account link` links the store, then syncs once on the same connection. The tasks a sync
    /// refreshed are kept, so a later statement naming one says so (R-SYNC-8).
    package func act(_ r: SyncRequest) -> SyncOutcome {
        switch r {
        case .sync(let link, let connector):
            switch connector.connect(link.server) {
            case .failure(let f): return .synced(link, .failure(.failed(f, waiting: engine.syncStatus.waiting)))
            case .success(let server):
                defer { server.close() }
                return .synced(link, syncOnce(server))
            }
        case .status: return .status(engine.syncStatus)
        case .review: return .review(store.sync.review)
        case .retry(let n):
            do throws(SyncProblem) { return .retried(n, .success(try engine.retryRefused(n))) } catch { return .retried(n, .failure(error)) }
        case .discard(let n):
            do throws(SyncProblem) { return .discarded(n, .success(try engine.discardRefused(n))) } catch { return .discarded(n, .failure(error)) }
        case .account: return .account(engine.syncStatus.link)
        case .link(let conninfo, let stripped, let connector):
            // R-SYNC-9: the connection is made with the string as written (it may hold the
            // password); the store keeps it without.
            switch connector.connect(conninfo) {
            case .failure(let f): return .linked(.failure(.failed(f, waiting: engine.syncStatus.waiting)))
            case .success(let server):
                defer { server.close() }
                let link = SyncLink(server: stripped, account: server.account, device: HLC.newNode())
                do throws(SyncProblem) { try engine.link(link) } catch { return .linked(.failure(error)) }
                // The link commits like any change, before its first sync: a sync that fails
                // leaves the store linked, with everything in its outbox.
                if commits == .eachStatement {
                    if case .failure(let e) = engine.commit() {
                        engine.rollback()
                        return .linkNotWritten(e)
                    }
                    _ = store.prepareToWrite()
                }
                return .linked(.success(LinkOutcome(link: link, sync: syncOnce(server))))
            }
        }
    }

    /// One sync on a connection; the tasks it refreshed are remembered.
    package func syncOnce(_ server: any SyncServer) -> Result<SyncReport, SyncProblem> {
        do throws(SyncProblem) {
            // A first pull commits each page where statements commit as they go, so a pull cut
            // short keeps what came (docs/SYNC.md, "The first pull").
            let report = try engine.sync(with: server, checkpoint: { [engine, store, commits] in
                guard commits == .eachStatement, store.hasPending else { return .success(()) }
                return engine.commit().flatMap { store.prepareToWrite() }
            })
            refreshed.formUnion(report.refreshed)
            return .success(report)
        } catch {
            return .failure(error)
        }
    }
}
