// A project groups tasks; tasks name their project, so a rename rewrites them.

/// A project.
public struct Project: Sendable, Equatable {
    public var name: String
    public var archived: Bool = false
    /// Statuses of open work this project adds to the built-in ones, as the user spelled them
    /// (`In review`); a task stores the lowercased name.
    public var statuses: [String] = []
    public var extra = JSONObject()

    public init(name: String) {
        self.name = name
    }
}
