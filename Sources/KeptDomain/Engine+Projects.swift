// Projects: add, rename, archive and delete, where deleting a project with tasks needs the
// caller's choice (R-TASK-6), and a project's own statuses of open work.

import KeptRules

/// What deleting a project does with its tasks (R-TASK-6).
public enum ProjectTasks: Sendable {
    case moveToInbox, delete
}

extension Engine {
    /// The project with a name, compared without case, or `unknownProject`.
    public func project(_ name: String) throws(DomainError) -> Project {
        guard let p = store.project(named: name) else { throw .unknownProject(name, known: store.projects.map(\.name)) }
        return p
    }

    /// A project that takes tasks: known and not archived.
    package func openProject(_ name: String) throws(DomainError) -> Project {
        let p = try project(name)
        guard !p.archived else { throw .archivedProject(p.name) }
        return p
    }

    public func addProject(_ name: String) throws(DomainError) -> Project {
        guard store.project(named: name) == nil else { throw .projectExists(name) }
        let p = Project(name: name)
        return try perform("project add \(p.name)") { step in
            stage([.project(before: nil, after: p)], into: &step)
            return p
        }
    }

    /// Renames a project and every task that names it, in one step; nil when the name is the
    /// same. Returns the old name, the project and how many tasks moved with it.
    public func renameProject(_ old: String, to new: String) throws(DomainError) -> (was: String, project: Project, tasks: Int)? {
        let p = try project(old)
        if let other = store.project(named: new), other.name.lowercased() != p.name.lowercased() { throw .projectExists(other.name) }
        guard new != p.name else { return nil }
        var renamed = p
        renamed.name = new
        return try perform("project rename \(p.name) to \(renamed.name)") { step in
            var changes: [Change] = [.project(before: p, after: renamed)]
            for t in store.tasks(.project(p.name)) {
                var a = t
                a.project = renamed.name
                changes.append(.task(before: t, after: a))
            }
            stage(changes, into: &step)
            return (p.name, renamed, changes.count - 1)
        }
    }

    public func archiveProject(_ name: String, archived: Bool) throws(DomainError) -> Project {
        let p = try project(name)
        guard p.archived != archived else { throw .wrongState(.projectArchived(p.name, archived: p.archived)) }
        var a = p
        a.archived = archived
        return try perform("project \(archived ? "archive" : "unarchive") \(p.name)") { step in
            stage([.project(before: p, after: a)], into: &step)
            return a
        }
    }

    /// R-TASK-6: a project with tasks is deleted only when the caller says whether its tasks go
    /// to the Inbox (no project) or are deleted with it, subtasks included. Returns the tasks it
    /// had, and how many tasks were deleted or moved.
    public func deleteProject(_ name: String, tasks choice: ProjectTasks?) throws(DomainError) -> (project: Project, had: Int, changed: Int) {
        let p = try project(name)
        let tasks = store.tasks(.project(p.name))
        if !tasks.isEmpty, choice == nil { throw .projectHasTasks(p.name, count: tasks.count) }
        return try perform("project delete \(p.name)") { step in
            var changes: [Change] = []
            var n = 0
            switch choice {
            case .moveToInbox?:
                for t in tasks {
                    var a = t
                    a.project = nil
                    changes.append(.task(before: t, after: a))
                }
                n = tasks.count
            case .delete?:
                var gone: [Int: Task] = [:]
                for t in tasks {
                    gone[t.id] = t
                    for d in descendants(of: t.id) { gone[d.id] = d }
                }
                // Deepest first, so undo restores each parent before its subtasks (R-TASK-3).
                let ordered = gone.values.sorted { (depth($0), $1.id) > (depth($1), $0.id) }
                changes += unseating(Set(ordered.map(\.id)))
                changes += ordered.map { .task(before: $0, after: nil) }
                n = ordered.count
            case nil: break
            }
            changes.append(.project(before: p, after: nil))
            stage(changes, into: &step)
            return (p, tasks.count, n)
        }
    }

    // MARK: statuses

    /// The statuses `set ID status` offers a task in `project` (`done` is `complete`'s).
    public func statuses(of project: String?) -> [String] {
        ["open", "waiting", "archived"] + (project.flatMap { store.project(named: $0)?.statuses } ?? [])
    }

    /// The status a word names for a task in `project`: a built-in one, or one of the project's
    /// own (case does not matter; the task stores it lowercased).
    public func status(_ word: String, for project: String?) throws(DomainError) -> TaskStatus {
        let key = word.trimmedSpaces.lowercased()
        guard let name = statuses(of: project).first(where: { $0.lowercased() == key }) else {
            throw .unknownStatus(word, project: project, allowed: statuses(of: project))
        }
        return TaskStatus(rawValue: name.lowercased())
    }

    /// How a task's status reads: a project's own status as the project spells it.
    public func statusText(_ t: Task) -> String {
        guard let p = t.project.flatMap({ store.project(named: $0) }) else { return t.status.rawValue }
        return p.statuses.first { $0.lowercased() == t.status.rawValue } ?? t.status.rawValue
    }

    /// Adds a status of open work to a project.
    public func addStatus(_ status: String, to name: String) throws(DomainError) -> Project {
        let p = try project(name)
        let n = status.trimmedSpaces
        guard !n.isEmpty, n.count <= 40, !n.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badStatusName(status)
        }
        let builtIn = TaskStatus.reserved.contains(n.lowercased())
        if builtIn || p.statuses.contains(where: { $0.lowercased() == n.lowercased() }) {
            throw .statusExists(project: p.name, status: n, builtIn: builtIn)
        }
        var a = p
        a.statuses.append(n)
        return try perform("project statuses \(p.name)") { step in
            stage([.project(before: p, after: a)], into: &step)
            return a
        }
    }

    /// Removes one of a project's statuses; the tasks that have it are open again, in the same
    /// step. Returns the project, the status as it was spelled, and how many tasks reopened.
    public func removeStatus(_ status: String, from name: String) throws(DomainError) -> (project: Project, status: String, reopened: Int) {
        let p = try project(name)
        let key = status.trimmedSpaces.lowercased()
        guard let k = p.statuses.firstIndex(where: { $0.lowercased() == key }) else {
            throw .noSuchStatus(project: p.name, status: status, own: p.statuses)
        }
        var a = p
        let gone = a.statuses.remove(at: k)
        return try perform("project statuses \(p.name)") { step in
            var changes: [Change] = [.project(before: p, after: a)]
            for t in store.tasks(.project(p.name)) where t.status.rawValue == key {
                var x = t
                x.status = .open
                changes.append(.task(before: t, after: x))
            }
            stage(changes, into: &step)
            return (a, gone, changes.count - 1)
        }
    }
}

extension StoreBackend {
    /// The project with a name, compared without case.
    public func project(named name: String) -> Project? {
        let n = name.lowercased()
        return projects.first { $0.name.lowercased() == n }
    }
}
