// Priorities, lowest to highest, with the words capture accepts for each.

/// A task's priority.
public enum Priority: Int, Sendable, CaseIterable, Comparable {
    case none = 0, low, medium, high, critical

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }

    /// The stored and printed name.
    public var name: String {
        switch self {
        case .none: return "none"
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        case .critical: return "critical"
        }
    }

    /// Reads a priority word: the names, `med`, `urgent`, and `1`…`4` with 1 the highest.
    public init?(word: String) {
        switch word.lowercased() {
        case "none", "0": self = .none
        case "low", "4": self = .low
        case "medium", "med", "3": self = .medium
        case "high", "2": self = .high
        case "critical", "urgent", "1": self = .critical
        default: return nil
        }
    }

    /// The words accepted, for suggestions.
    public static let words = ["none", "low", "medium", "med", "high", "critical", "urgent"]
}
