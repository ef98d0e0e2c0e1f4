// A project groups tasks; tasks name their project, so a rename rewrites them.

/// A project.
public struct Project: Sendable, Equatable {
    public var name: String
    /// Its identity across devices, which a rename keeps: at first derived from the name, so
    /// two devices that make a project of one name make one (docs/SYNC.md, "Identity").
    public var uid: TaskUID
    public var archived: Bool = false
    /// Statuses of open work this project adds to the built-in ones, as the user spelled them
    /// (`In review`); a task stores the lowercased name.
    public var statuses: [String] = []
    public var extra = JSONObject()

    public init(name: String) {
        self.name = name
        self.uid = Project.uid(named: name)
    }

    /// The uid an item of this name starts with.
    public static func uid(named name: String) -> TaskUID {
        TaskUID.named("project", name.lowercased())
    }
}
