// The fields of a task by name, for `show ID FIELD` and `set ID FIELD VALUE`.

/// A task field a statement can name.
public enum TaskField: String, CaseIterable, Sendable {
    case id, uid, title, status, due, start, priority, project, area, tags, notes, description
    case `repeat`, estimate, created, modified, completed, parent, goal, steps, reminders

    /// True for the fields `set` can change in this version.
    public var isSettable: Bool {
        switch self {
        case .title, .description, .due, .start, .priority, .project, .area, .repeat, .estimate, .status, .goal, .parent: return true
        default: return false
        }
    }
}
