// Orders of tasks. Creation order is the first; Smart order (urgency) and By date join it here,
// and every order ends its ties on id so the same store always prints the same list.

/// Sorting tasks for lists and plans.
public enum TaskOrder {
    /// Oldest first; ties on id.
    public static func creation(_ tasks: [Task]) -> [Task] {
        tasks.sorted { a, b in
            a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id < b.id
        }
    }
}
