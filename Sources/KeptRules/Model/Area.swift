// An area of life (Home, Work) above projects; names compare without case or spacing (R-FIL-6).

/// An area.
public struct Area: Sendable, Equatable {
    public var name: String
    /// Its identity across devices, which a rename keeps: at first derived from the name, so
    /// two devices that make an area of one name make one (docs/SYNC.md, "Identity").
    public var uid: TaskUID
    public var extra = JSONObject()

    public init(name: String) {
        self.name = name
        self.uid = Area.uid(named: name)
    }

    /// The uid an item of this name starts with.
    public static func uid(named name: String) -> TaskUID {
        TaskUID.named("area", name.lowercased())
    }
}
