// The due groups of R-VIEW-4, defined once: `list … group by due` sorts rows into them and
// `move TASK to GROUP` reschedules into them.

/// A due group, in the order lists show them.
public enum DueGroup: String, CaseIterable, Sendable {
    case overdue, today, tomorrow, thisWeek = "this week", later, noDue = "no due date"

    /// The group some words name (`this week`, `no due`), or nil.
    public init?(words: String) {
        let w = words.lowercased().split(separator: " ").joined(separator: " ")
        switch w {
        case "overdue": self = .overdue
        case "today": self = .today
        case "tomorrow": self = .tomorrow
        case "this week": self = .thisWeek
        case "later": self = .later
        case "no due date", "no due", "none": self = .noDue
        default: return nil
        }
    }

    /// How a list heads the group.
    public var title: String {
        switch self {
        case .overdue: return "Overdue"
        case .today: return "Today"
        case .tomorrow: return "Tomorrow"
        case .thisWeek: return "This Week"
        case .later: return "Later"
        case .noDue: return "No Due Date"
        }
    }

    /// The group of a task at a filter context, with the week ending on day `weekEnd`.
    public static func of(_ t: Task, _ fc: FilterContext, weekEnd: Int) -> DueGroup {
        guard let d = t.due else { return .noDue }
        if fc.isOverdue(t) { return .overdue }
        let day = fc.day(of: d)
        if day <= fc.today { return .today }
        if day == fc.today + 1 { return .tomorrow }
        return day <= weekEnd ? .thisWeek : .later
    }
}
