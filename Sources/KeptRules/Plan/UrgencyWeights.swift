// The weights of the urgency score (docs/PLAN.md). Every weight is a setting, `set
// urgency.priority.high 6`; the defaults are the table of docs/PLAN.md.

/// How much each term of the urgency score counts.
public struct UrgencyWeights: Sendable, Equatable {
    /// Points for a task due today; the due curve scales it (R-PLAN-4).
    public var due = 12.0
    public var priorityLow = 1.8
    public var priorityMedium = 3.9
    public var priorityHigh = 6.0
    public var priorityCritical = 9.0
    /// A due time today: a commitment at a set hour.
    public var timeToday = 3.0
    /// A reminder that rings today.
    public var reminderToday = 2.0
    /// Points for a task as old as `ageDays`; younger tasks get their share.
    public var age = 2.0
    public var ageDays = 365.0
    /// A task linked to a goal.
    public var goal = 3.0
    /// A task with an open subtask waits for it (a negative weight sinks it).
    public var blocked = -5.0
    /// A task without a due date ranks as if it were due this many days ahead: its explicit
    /// place in the order, instead of losing to every dated task.
    public var noDueDays = 14.0

    public init() {}

    /// One weight: its setting key, what it is, and where it lives.
    public struct Key: Sendable {
        public let key: String
        public let summary: String
        package let path: WritableKeyPath<UrgencyWeights, Double> & Sendable
        /// The smallest value it takes (day counts must be positive).
        package let minimum: Double
    }

    /// The weights as settings, in the order `set` and docs/PLAN.md list them.
    public static let keys: [Key] = [
        Key(key: "urgency.due", summary: "points for being due today; the due curve scales them", path: \.due, minimum: -1000),
        Key(key: "urgency.priority.low", summary: "points for low priority", path: \.priorityLow, minimum: -1000),
        Key(key: "urgency.priority.medium", summary: "points for medium priority", path: \.priorityMedium, minimum: -1000),
        Key(key: "urgency.priority.high", summary: "points for high priority", path: \.priorityHigh, minimum: -1000),
        Key(key: "urgency.priority.critical", summary: "points for critical priority", path: \.priorityCritical, minimum: -1000),
        Key(key: "urgency.time-today", summary: "points for a due time today", path: \.timeToday, minimum: -1000),
        Key(key: "urgency.reminder-today", summary: "points for a reminder today", path: \.reminderToday, minimum: -1000),
        Key(key: "urgency.age", summary: "points for a task urgency.age-days old (younger: a share)", path: \.age, minimum: -1000),
        Key(key: "urgency.age-days", summary: "the age in days that earns all of urgency.age", path: \.ageDays, minimum: 1),
        Key(key: "urgency.goal", summary: "points for a goal link", path: \.goal, minimum: -1000),
        Key(key: "urgency.blocked", summary: "points for waiting on an open subtask (negative sinks it)", path: \.blocked, minimum: -1000),
        Key(key: "urgency.no-due", summary: "a task without a due ranks as if due this many days ahead", path: \.noDueDays, minimum: 0),
    ]

    /// A weight as settings print it: `6`, `1.8`, `-5`.
    public static func text(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int(x)) }
        return String(x)
    }

    /// Reads a weight: a finite number from the key's minimum to 1000.
    package static func parse(_ v: String, minimum: Double) -> Double? {
        guard let x = Double(v.trimmedSpaces), x.isFinite, x >= minimum, x <= 1000 else { return nil }
        return x
    }

    /// The weight of a priority (0 for none).
    @inline(__always)
    public func priority(_ p: UInt8) -> Double {
        switch p {
        case 1: return priorityLow
        case 2: return priorityMedium
        case 3: return priorityHigh
        case 4: return priorityCritical
        default: return 0
        }
    }
}
