// A saved filter: a name and the filter's text, starred or not, in the user's order (R-FIL-5).

/// A saved filter.
public struct SavedFilter: Sendable, Equatable {
    public var name: String
    public var filter: String
    public var starred: Bool = false
    public var extra = JSONObject()

    public init(name: String, filter: String) {
        self.name = name
        self.filter = filter
    }
}
