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

// MARK: custom statuses and the project list

extension Session {
    /// The statuses `set ID status` offers a task in `project` (`done` is `complete`'s).
    func statuses(of project: String?) -> [String] {
        ["open", "waiting", "archived"] + (project.flatMap { store.project(named: $0)?.statuses } ?? [])
    }

    /// The status a word names for a task in `project`: a built-in one, or one of the project's
    /// own (case does not matter; the task stores it lowercased). Otherwise E0319 lists them.
    func status(_ word: String, for project: String?, range: SourceRange, file: SourceFile) -> Result<TaskStatus, Diagnostic> {
        let key = word.trimmedSpaces.lowercased()
        guard let name = statuses(of: project).first(where: { $0.lowercased() == key }) else {
            let allowed = statuses(of: project)
            let whose = project.map { "project \($0)" } ?? "a task without a project"
            var d = Catalog.unknownStatus("'\(word)' is not a status of \(whose)", range: range, file: file,
                                          allowed: allowed)
            if let near = Suggestion.help(word, in: allowed) { d.help = near + "; statuses: " + allowed.joined(separator: ", ") }
            else if let p = project { d.help = "statuses: \(allowed.joined(separator: ", ")); 'project statuses \(p) add \(word)' adds it" }
            return .failure(d)
        }
        return .success(TaskStatus(rawValue: name.lowercased()))
    }

    /// How a task's status reads: a project's own status as the project spells it.
    func statusText(_ t: Task) -> String {
        guard let p = t.project.flatMap({ store.project(named: $0) }) else { return t.status.rawValue }
        return p.statuses.first { $0.lowercased() == t.status.rawValue } ?? t.status.rawValue
    }

    /// `project statuses NAME [add|remove STATUS]`. Removing a status sets the tasks that have it
    /// back to open, in the same step.
    func runProjectStatuses(_ s: Statement, _ name: TextArg, _ edit: StatusEdit?) -> CommandOutput {
        let file = s.source.file
        let p: Project
        switch project(name, s) {
        case .success(let x): p = x
        case .failure(let d): return .error(d)
        }
        guard let edit else {
            let own = p.statuses.isEmpty ? "no statuses of its own" : "its own: " + p.statuses.joined(separator: ", ")
            return out(["\(p.name): open, waiting, archived, done · \(own)"],
                       json: .object(JSONObject([("project", .string(p.name)), ("statuses", .array(p.statuses.map { .string($0) }))])))
        }
        var a = p
        var changes: [Change] = []
        var line: String
        switch edit {
        case .add(let st):
            let n = st.text.trimmedSpaces
            guard !n.isEmpty, n.count <= 40, !n.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return .error(Catalog.badFieldValue("status", value: st.text, range: st.range, file: file, expected: "a name of one line, up to 40 characters"))
            }
            if TaskStatus.reserved.contains(n.lowercased()) || p.statuses.contains(where: { $0.lowercased() == n.lowercased() }) {
                return .error(Catalog.statusExists("project \(p.name) already has the status '\(n)'", range: st.range, file: file,
                                                   builtIn: TaskStatus.reserved.contains(n.lowercased())))
            }
            a.statuses.append(n)
            line = "Added the status \(n) to project \(p.name)"
        case .remove(let st):
            let key = st.text.trimmedSpaces.lowercased()
            guard let k = p.statuses.firstIndex(where: { $0.lowercased() == key }) else {
                return .error(Catalog.noSuchStatus("project \(p.name) has no status '\(st.text)'", range: st.range, file: file,
                                                   own: p.statuses, project: p.name))
            }
            let gone = p.statuses[k]
            a.statuses.remove(at: k)
            for t in store.tasks where t.project == p.name && t.status.rawValue == key {
                var x = t
                x.status = .open
                changes.append(.task(before: t, after: x))
            }
            line = "Removed the status \(gone) from project \(p.name)" + (changes.isEmpty ? "" : " · \(Session.tasks(changes.count)) back to open")
        }
        changes.insert(.project(before: p, after: a), at: 0)
        commit("project statuses \(p.name)", changes)
        return out([line], json: .object(JSONObject([("project", .string(p.name)), ("statuses", .array(a.statuses.map { .string($0) }))])),
                   changed: true)
    }

    /// `projects`: each project with its open tasks, archived mark and own statuses.
    func runProjects() -> CommandOutput {
        guard !store.projects.isEmpty else { return out(["No projects"], json: .object(JSONObject([("projects", .array([]))]))) }
        var open: [String: Int] = [:]
        for t in store.tasks where t.isOpen { if let p = t.project { open[p.lowercased(), default: 0] += 1 } }
        let w = store.projects.map(\.name.count).max() ?? 0
        var lines: [String] = []
        var json: [JSONValue] = []
        for p in store.projects {
            let n = open[p.name.lowercased()] ?? 0
            var parts: [String] = []
            if n > 0 { parts.append(n == 1 ? "1 open task" : "\(n) open tasks") }
            if p.archived { parts.append("archived") }
            if !p.statuses.isEmpty { parts.append("statuses: " + p.statuses.joined(separator: ", ")) }
            let name = parts.isEmpty ? p.name : p.name + String(repeating: " ", count: w - p.name.count)
            lines.append(([name] + parts).joined(separator: "  "))
            json.append(.object(JSONObject([("name", .string(p.name)), ("archived", .bool(p.archived)), ("open", .number(JSONNumber(n))),
                                            ("statuses", .array(p.statuses.map { .string($0) }))])))
        }
        return out(lines, json: .object(JSONObject([("projects", .array(json))])))
    }
}
