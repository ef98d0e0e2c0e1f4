// Structure in the language: subtasks, and projects with their own statuses (R-TASK-6). The
// rules are the engine's (Domain/Engine+Projects); here names are read and results shown.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// `subtask P LINE`: files the line as a task whose parent is P.
    package func runSubtask(_ s: Statement, _ ref: TaskRef, _ line: TextArg) -> CommandOutput {
        switch resolve(ref, s, scope: .open) {
        case .success(let p):
            return resolveAdd(s, line, natural: false, parent: p.id).map { request in
                do throws(DomainError) {
                    return render(try act(request), s)
                } catch {
                    return .error(addError(error, s, line, natural: false))
                }
            }.value
        case .failure(let d): return .error(d)
        }
    }

    /// Runs a project call; its errors point at `range`.
    package func project<R>(_ s: Statement, _ range: SourceRange, _ call: () throws(DomainError) -> R, _ render: (R) -> CommandOutput) -> CommandOutput {
        do {
            return render(try call())
        } catch {
            return .error(diagnostic(error, s, at: range))
        }
    }

    package func runProjectAdd(_ s: Statement, _ name: TextArg) -> CommandOutput {
        project(s, name.range, { () throws(DomainError) in try engine.addProject(name.text) }) { p in
            out(["Added project \(p.name)"], json: .object(JSONObject([("project", .object(JSONObject([("name", .string(p.name))])))])), changed: true)
        }
    }

    /// Renames a project and every task that names it, in one step.
    package func runProjectRename(_ s: Statement, _ old: TextArg, _ new: TextArg) -> CommandOutput {
        let range = { (e: DomainError) -> SourceRange in
            if case .projectExists = e { return new.range }
            return old.range
        }
        do {
            guard let (was, p, n) = try engine.renameProject(old.text, to: new.text) else {
                let name = store.project(named: old.text)?.name ?? old.text
                return out(["Unchanged project \(name)"], json: .object(JSONObject([("unchanged", .string(name))])))
            }
            return out(["Renamed project \(was) to \(p.name)" + (n > 0 ? " · \(Session.tasks(n)) moved with it" : "")],
                       json: .object(JSONObject([("project", .string(p.name)), ("tasks", .number(JSONNumber(n)))])), changed: true)
        } catch {
            return .error(diagnostic(error, s, at: range(error)))
        }
    }

    package func runProjectArchive(_ s: Statement, _ name: TextArg, archived: Bool) -> CommandOutput {
        project(s, name.range, { () throws(DomainError) in try engine.archiveProject(name.text, archived: archived) }) { p in
            out(["\(archived ? "Archived" : "Unarchived") project \(p.name)"],
                json: .object(JSONObject([("project", .string(p.name)), ("archived", .bool(archived))])), changed: true)
        }
    }

    /// R-TASK-6: a project with tasks is deleted only when the caller says what happens to them.
    package func runProjectDelete(_ s: Statement, _ name: TextArg, _ choice: ProjectTasksChoice?) -> CommandOutput {
        let c: ProjectTasks? = choice.map { $0 == .moveToInbox ? .moveToInbox : .delete }
        return project(s, name.range, { () throws(DomainError) in try engine.deleteProject(name.text, tasks: c) }) { r in
            var note = ""
            switch c {
            case .moveToInbox? where r.had > 0: note = " · \(Session.tasks(r.changed)) moved to the Inbox"
            case .delete? where r.had > 0: note = " · \(Session.tasks(r.changed)) deleted with it"
            default: break
            }
            return out(["Deleted project \(r.project.name)\(note)"],
                       json: .object(JSONObject([("deleted", .string(r.project.name)), ("tasks", .number(JSONNumber(r.had)))])), changed: true)
        }
    }

    // MARK: custom statuses and the project list

    /// How a task's status reads: a project's own status as the project spells it.
    package func statusText(_ t: Task) -> String { engine.statusText(t) }

    /// `project statuses NAME [add|remove STATUS]`. Removing a status sets the tasks that have it
    /// back to open, in the same step.
    package func runProjectStatuses(_ s: Statement, _ name: TextArg, _ edit: StatusEdit?) -> CommandOutput {
        guard let edit else {
            return project(s, name.range, { () throws(DomainError) in try engine.project(name.text) }) { p in
                let own = p.statuses.isEmpty ? "no statuses of its own" : "its own: " + p.statuses.joined(separator: ", ")
                return out(["\(p.name): open, waiting, archived, done · \(own)"],
                           json: .object(JSONObject([("project", .string(p.name)), ("statuses", .array(p.statuses.map { .string($0) }))])))
            }
        }
        func json(_ p: Project) -> JSONValue {
            .object(JSONObject([("project", .string(p.name)), ("statuses", .array(p.statuses.map { .string($0) }))]))
        }
        switch edit {
        case .add(let st):
            let range = { (e: DomainError) -> SourceRange in
                if case .unknownProject = e { return name.range }
                return st.range
            }
            do {
                let p = try engine.addStatus(st.text, to: name.text)
                return out(["Added the status \(st.text.trimmedSpaces) to project \(p.name)"], json: json(p), changed: true)
            } catch {
                return .error(diagnostic(error, s, at: range(error)))
            }
        case .remove(let st):
            let range = { (e: DomainError) -> SourceRange in
                if case .unknownProject = e { return name.range }
                return st.range
            }
            do {
                let r = try engine.removeStatus(st.text, from: name.text)
                let line = "Removed the status \(r.status) from project \(r.project.name)" + (r.reopened == 0 ? "" : " · \(Session.tasks(r.reopened)) back to open")
                return out([line], json: json(r.project), changed: true)
            } catch {
                return .error(diagnostic(error, s, at: range(error)))
            }
        }
    }

    /// `projects`: each project with its open tasks, archived mark and own statuses.
    package func runProjects() -> CommandOutput {
        guard !store.projects.isEmpty else { return out(["No projects"], json: .object(JSONObject([("projects", .array([]))]))) }
        var open: [String: Int] = [:]
        for t in store.tasks(.all) where t.isOpen { if let p = t.project { open[p.lowercased(), default: 0] += 1 } }
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
