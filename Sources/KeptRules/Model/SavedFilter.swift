// A saved filter: a name and the filter's text, starred or not, in the user's order (R-FIL-5).

/// A saved filter.
public struct SavedFilter: Sendable, Equatable {
    public var name: String
    /// Its identity across devices, which a rename keeps: at first derived from the name, so
    /// two devices that make a saved filter of one name make one (docs/SYNC.md, "Identity").
    public var uid: TaskUID
    public var filter: String
    public var starred: Bool = false
    public var extra = JSONObject()

    public init(name: String, filter: String) {
        self.name = name
        self.uid = SavedFilter.uid(named: name)
        self.filter = filter
    }

    /// The presets every new store starts with (R-FIL-2); they can be changed and deleted.
    public static let presets: [SavedFilter] = [
        SavedFilter(name: "Overdue", filter: "overdue"),
        SavedFilter(name: "High Priority", filter: "priority >= high"),
        SavedFilter(name: "Due This Week", filter: "@this week"),
        SavedFilter(name: "Repeating", filter: "repeating"),
        SavedFilter(name: "No Due Date", filter: "no due"),
    ]

    /// The uid an item of this name starts with.
    public static func uid(named name: String) -> TaskUID {
        TaskUID.named("filter", name.lowercased())
    }
}
