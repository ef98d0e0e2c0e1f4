// The resolve stage of structure (R-TASK-6): subtasks, and projects with their own statuses.
// A subtask's parent is looked up and its line read as add reads one; a project is named by
// its words, which the engine looks up. The rules are the engine's (Domain/Engine+Projects).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A structure statement, resolved.
package enum StructureRequest {
    /// `subtask P LINE`: files the draft as a task whose parent is P.
    case subtask(TaskDraft, parent: Int)
    case addProject(String)
    /// Renames a project and every task that names it, in one step.
    case renameProject(String, to: String)
    case archiveProject(String, archived: Bool)
    /// R-TASK-6: a project with tasks is deleted only when the caller says what happens to them.
    case deleteProject(String, tasks: ProjectTasks?)
    /// `project statuses NAME`: its statuses.
    case statuses(String)
    case addStatus(String, to: String)
    /// Removing a status sets the tasks that have it back to open, in the same step.
    case removeStatus(String, from: String)
    /// `projects`: the project list.
    case projects
}

extension Session {
    /// The request of a structure statement, or nil when the statement is not one.
    package func resolveStructure(_ s: Statement) -> Result<StructureRequest, Diagnostic>? {
        switch s.kind {
        case .subtask(let ref, let line):
            return resolve(ref, s, scope: .open).flatMap { p in
                resolveAdd(s, line, natural: false, parent: p.id).map { .subtask($0, parent: p.id) }
            }
        case .projectAdd(let name): return .success(.addProject(name.text))
        case .projectRename(let old, let new): return .success(.renameProject(old.text, to: new.text))
        case .projectArchive(let name, let archived): return .success(.archiveProject(name.text, archived: archived))
        case .projectDelete(let name, let choice):
            return .success(.deleteProject(name.text, tasks: choice.map { $0 == .moveToInbox ? .moveToInbox : .delete }))
        case .projectStatuses(let name, let edit):
            switch edit {
            case nil: return .success(.statuses(name.text))
            case .add(let st)?: return .success(.addStatus(st.text, to: name.text))
            case .remove(let st)?: return .success(.removeStatus(st.text, from: name.text))
            }
        case .projects: return .success(.projects)
        default: return nil
        }
    }
}
