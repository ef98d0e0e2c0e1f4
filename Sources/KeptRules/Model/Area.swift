// An area of life (Home, Work) above projects; names compare without case or spacing (R-FIL-6).

/// An area.
public struct Area: Sendable, Equatable {
    public var name: String
    public var extra = JSONObject()

    public init(name: String) {
        self.name = name
    }
}
