// The render stage of structure (R-TASK-6): a filed subtask, a project's line after each
// change, its statuses, and the project list; errors at the name they are about.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a structure statement did, as the engine returned it.
package enum StructureOutcome {
    case subtask(Task)
    case addedProject(Project)
    /// The rename, or nil when the name did not change.
    case renamedProject((was: String, project: Project, tasks: Int)?)
    case archivedProject(Project, archived: Bool)
    case deletedProject((project: Project, had: Int, changed: Int), tasks: ProjectTasks?)
    case statuses(Project)
    case addedStatus(Project)
    case removedStatus((project: Project, status: String, reopened: Int))
    case projects
}

extension Session {
    /// The output of a structure statement.
    package func render(_ o: StructureOutcome, _ s: Statement) -> CommandOutput {
        func json(_ p: Project) -> JSONValue {
            .object(JSONObject([("project", .string(p.name)), ("statuses", .array(p.statuses.map { .string($0) }))]))
        }
        switch o {
        case .subtask(let t): return renderAdded(t)
        case .addedProject(let p):
            return out(["Added project \(p.name)"], json: .object(JSONObject([("project", .object(JSONObject([("name", .string(p.name))])))])), changed: true)
        case .renamedProject(let r):
            guard let (was, p, n) = r else {
                guard case .projectRename(let old, _) = s.kind else { return CommandOutput() }
                let name = store.project(named: old.text)?.name ?? old.text
                return out(["Unchanged project \(name)"], json: .object(JSONObject([("unchanged", .string(name))])))
            }
            return out(["Renamed project \(was) to \(p.name)" + (n > 0 ? " · \(Session.tasks(n)) moved with it" : "")],
                       json: .object(JSONObject([("project", .string(p.name)), ("tasks", .number(JSONNumber(n)))])), changed: true)
        case .archivedProject(let p, let archived):
            return out(["\(archived ? "Archived" : "Unarchived") project \(p.name)"],
                       json: .object(JSONObject([("project", .string(p.name)), ("archived", .bool(archived))])), changed: true)
        case .deletedProject(let r, let c):
            var note = ""
            switch c {
            case .moveToInbox? where r.had > 0: note = " · \(Session.tasks(r.changed)) moved to the Inbox"
            case .delete? where r.had > 0: note = " · \(Session.tasks(r.changed)) deleted with it"
            default: break
            }
            return out(["Deleted project \(r.project.name)\(note)"],
                       json: .object(JSONObject([("deleted", .string(r.project.name)), ("tasks", .number(JSONNumber(r.had)))])), changed: true)
        case .statuses(let p):
            let own = p.statuses.isEmpty ? "no statuses of its own" : "its own: " + p.statuses.joined(separator: ", ")
            return out(["\(p.name): open, waiting, archived, done · \(own)"], json: json(p))
        case .addedStatus(let p):
            guard case .projectStatuses(_, .add(let st)?) = s.kind else { return CommandOutput() }
            return out(["Added the status \(st.text.trimmedSpaces) to project \(p.name)"], json: json(p), changed: true)
        case .removedStatus(let r):
            let line = "Removed the status \(r.status) from project \(r.project.name)" + (r.reopened == 0 ? "" : " · \(Session.tasks(r.reopened)) back to open")
            return out([line], json: json(r.project), changed: true)
        case .projects: return renderProjects()
        }
    }

    /// The diagnostic of a structure statement's engine error: at the name it is about.
    package func structureError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        switch s.kind {
        case .subtask(_, let line): return addError(e, s, line, natural: false)
        case .projectAdd(let name), .projectArchive(let name, _), .projectDelete(let name, _), .projectStatuses(let name, nil):
            return diagnostic(e, s, at: name.range)
        case .projectRename(let old, let new):
            if case .projectExists = e { return diagnostic(e, s, at: new.range) }
            return diagnostic(e, s, at: old.range)
        case .projectStatuses(let name, .add(let st)?), .projectStatuses(let name, .remove(let st)?):
            if case .unknownProject = e { return diagnostic(e, s, at: name.range) }
            return diagnostic(e, s, at: st.range)
        default: return diagnostic(e, s, at: s.keywordRange)
        }
    }

    // MARK: custom statuses and the project list

    /// How a task's status reads: a project's own status as the project spells it.
    package func statusText(_ t: Task) -> String { engine.statusText(t) }

    /// `projects`: each project with its open tasks, archived mark and own statuses.
    package func renderProjects() -> CommandOutput {
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
