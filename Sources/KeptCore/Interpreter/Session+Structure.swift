// Structure: subtasks (R-TASK-4 lives with completion in Session+Actions) and projects:
// rename, archive and delete, where deleting a project with tasks needs the caller's choice
// (R-TASK-6).

extension Session {
    /// `subtask P LINE`: files the line as a task whose parent is P.
    func runSubtask(_ s: Statement, _ ref: TaskRef, _ line: TextArg) -> CommandOutput {
        switch resolve(ref, s, scope: .open) {
        case .success(let p): return runAdd(s, line, natural: false, parent: p.id)
        case .failure(let d): return .error(d)
        }
    }

    func project(_ name: TextArg, _ s: Statement) -> Result<Project, Diagnostic> {
        guard let p = store.project(named: name.text) else {
            return .failure(Catalog.unknownProject(name.text, range: name.range, file: s.source.file, candidates: store.projects.map(\.name)))
        }
        return .success(p)
    }

    /// Renames a project and every task that names it, in one step.
    func runProjectRename(_ s: Statement, _ old: TextArg, _ new: TextArg) -> CommandOutput {
        let p: Project
        switch project(old, s) {
        case .success(let x): p = x
        case .failure(let d): return .error(d)
        }
        if let other = store.project(named: new.text), other.name.lowercased() != p.name.lowercased() {
            return .error(Catalog.projectExists(other.name, range: new.range, file: s.source.file))
        }
        guard new.text != p.name else { return out(["Unchanged project \(p.name)"], json: .object(JSONObject([("unchanged", .string(p.name))]))) }
        var renamed = p
        renamed.name = new.text
        var changes: [Change] = [.project(before: p, after: renamed)]
        for t in store.tasks where t.project == p.name {
            var a = t
            a.project = renamed.name
            changes.append(.task(before: t, after: a))
        }
        commit("project rename \(p.name) to \(renamed.name)", changes)
        let n = changes.count - 1
        return out(["Renamed project \(p.name) to \(renamed.name)" + (n > 0 ? " · \(Session.tasks(n)) moved with it" : "")],
                   json: .object(JSONObject([("project", .string(renamed.name)), ("tasks", .number(JSONNumber(n)))])), changed: true)
    }

    func runProjectArchive(_ s: Statement, _ name: TextArg, archived: Bool) -> CommandOutput {
        let p: Project
        switch project(name, s) {
        case .success(let x): p = x
        case .failure(let d): return .error(d)
        }
        guard p.archived != archived else {
            return .error(Catalog.wrongState("project \(p.name) is \(archived ? "already" : "not") archived", range: name.range, file: s.source.file))
        }
        var a = p
        a.archived = archived
        commit("project \(archived ? "archive" : "unarchive") \(p.name)", [.project(before: p, after: a)])
        return out(["\(archived ? "Archived" : "Unarchived") project \(p.name)"],
                   json: .object(JSONObject([("project", .string(p.name)), ("archived", .bool(archived))])), changed: true)
    }

    /// R-TASK-6: a project with tasks is deleted only when the caller says whether its tasks go
    /// to the Inbox (no project) or are deleted with it, subtasks included.
    func runProjectDelete(_ s: Statement, _ name: TextArg, _ choice: ProjectTasksChoice?) -> CommandOutput {
        let p: Project
        switch project(name, s) {
        case .success(let x): p = x
        case .failure(let d): return .error(d)
        }
        let tasks = store.tasks.filter { $0.project == p.name }
        var changes: [Change] = []
        var note = ""
        if !tasks.isEmpty {
            guard let choice else { return .error(Catalog.projectHasTasks(p.name, count: tasks.count, range: name.range, file: s.source.file)) }
            switch choice {
            case .moveToInbox:
                for t in tasks {
                    var a = t
                    a.project = nil
                    changes.append(.task(before: t, after: a))
                }
                note = " · \(Session.tasks(tasks.count)) moved to the Inbox"
            case .deleteTasks:
                var gone: [Int: Task] = [:]
                for t in tasks {
                    gone[t.id] = t
                    for d in descendants(of: t.id) { gone[d.id] = d }
                }
                // Deepest first, so undo restores each parent before its subtasks (R-TASK-3).
                let ordered = gone.values.sorted { (depth($0), $1.id) > (depth($1), $0.id) }
                changes += ordered.map { .task(before: $0, after: nil) }
                note = " · \(Session.tasks(ordered.count)) deleted with it"
            }
        }
        changes.append(.project(before: p, after: nil))
        commit("project delete \(p.name)", changes)
        return out(["Deleted project \(p.name)\(note)"],
                   json: .object(JSONObject([("deleted", .string(p.name)), ("tasks", .number(JSONNumber(tasks.count)))])), changed: true)
    }

    /// How many ancestors a task has (a loop in a hand-edited store ends the count).
    func depth(_ t: Task) -> Int {
        var n = 0
        var seen: Set<Int> = [t.id]
        var p = t.parent
        while let id = p, seen.insert(id).inserted, let up = store.task(id) {
            n += 1
            p = up.parent
        }
        return n
    }
}
