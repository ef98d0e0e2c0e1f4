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
            do throws(DomainError) { return render(try act(request), s) } catch { return .error(render(error, s)) }
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
        case .byDate(let e, let limit): return .byDate(engine.planView(e, limit: 0, persist: false), limit: limit)
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
