// A project groups tasks; tasks name their project, so a rename rewrites them.

/// A project.
public struct Project: Sendable, Equatable {
    public var name: String
    public var archived: Bool = false
    public var extra = JSONObject()

    public init(name: String) {
        self.name = name
    }
}
