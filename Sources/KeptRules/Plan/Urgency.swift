// The urgency score of the Smart order (docs/PLAN.md): a sum of weighted terms a planner's
// user can read back with `why ID`. The due curve keeps rising for overdue work and keeps
// falling for later dates, so no two due days score the same (unlike a clamp at 7 days
// overdue and 14 days ahead), and a task without a due date has its own explicit place.

/// What the score of one task is computed from; plain values, so a plan over many tasks can
/// score rows of the column store without building a Task.
public struct UrgencyInput: Sendable, Equatable {
    /// 0 none, 1 low, 2 medium, 3 high, 4 critical.
    public var priority: UInt8 = 0
    /// The account day of the due, or nil without one.
    public var dueDay: Int? = nil
    public var dueHasTime = false
    public var createdSeconds: Int64 = 0
    public var hasGoal = false
    /// Has an open subtask.
    public var blocked = false
    /// Given by the caller: the reminder model decides it.
    public var hasReminderToday = false

    public init() {}
}

/// One term of a score: its value (the curve or 0/1) times its weight.
public struct UrgencyTerm: Sendable, Equatable {
    /// The term's name as `why` and JSON print it, matching its setting (`time-today`).
    public var name: String
    public var value: Double
    public var weight: Double
    public var points: Double { value * weight }
}

/// Scores tasks as of one moment: the plan's, so a plan's order holds still (R-PLAN-5).
public struct Urgency: Sendable {
    public var weights: UrgencyWeights
    /// The account day and the instant (seconds) the score is taken at.
    public var today: Int
    public var asOf: Int64

    public init(weights: UrgencyWeights, today: Int, asOf: Int64) {
        self.weights = weights
        self.today = today
        self.asOf = asOf
    }

    /// The due curve: 1 for today; 7 / (7 + n) for n days ahead (½ a week ahead, ⅓ two weeks,
    /// always a little less for a later day); 1 + √k / 4 for k days overdue (1.25 a day, 1.75
    /// nine days, 3.5 a hundred, still rising). Without a due, the value of a due urgency.no-due
    /// days ahead.
    @inline(__always)
    public func dueValue(_ dueDay: Int?) -> Double {
        guard let d = dueDay else { return 7 / (7 + weights.noDueDays) }
        let n = d - today
        if n >= 0 { return 7 / (7 + Double(n)) }
        return 1 + Double(-n).squareRoot() / 4
    }

    /// The age term: the share of urgency.age-days the task has been open, at most 1.
    @inline(__always)
    package func ageValue(_ created: Int64) -> Double {
        let days = Double(max(0, asOf - created)) / 86_400
        return min(days / weights.ageDays, 1)
    }

    /// The score: the sum of `terms`, in the same order, so the two always agree.
    @inline(__always)
    public func score(_ x: UrgencyInput) -> Double {
        let w = weights
        var s = dueValue(x.dueDay) * w.due
        s += w.priority(x.priority)
        s += (x.dueHasTime && x.dueDay == today ? 1 : 0) * w.timeToday
        s += (x.hasReminderToday ? 1 : 0) * w.reminderToday
        s += ageValue(x.createdSeconds) * w.age
        s += (x.hasGoal ? 1 : 0) * w.goal
        s += (x.blocked ? 1 : 0) * w.blocked
        return s
    }

    /// Every term of a score, zero terms included, so `why` shows what could count.
    public func terms(_ x: UrgencyInput) -> [UrgencyTerm] {
        let w = weights
        return [
            UrgencyTerm(name: "due", value: dueValue(x.dueDay), weight: w.due),
            UrgencyTerm(name: "priority", value: x.priority == 0 ? 0 : 1, weight: x.priority == 0 ? 0 : w.priority(x.priority)),
            UrgencyTerm(name: "time-today", value: x.dueHasTime && x.dueDay == today ? 1 : 0, weight: w.timeToday),
            UrgencyTerm(name: "reminder-today", value: x.hasReminderToday ? 1 : 0, weight: w.reminderToday),
            UrgencyTerm(name: "age", value: ageValue(x.createdSeconds), weight: w.age),
            UrgencyTerm(name: "goal", value: x.hasGoal ? 1 : 0, weight: w.goal),
            UrgencyTerm(name: "blocked", value: x.blocked ? 1 : 0, weight: w.blocked),
        ]
    }

    /// A score or points as printed: one decimal, `23.4`, `-5.0`.
    public static func text(_ x: Double, digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let n = Int((abs(x) * scale).rounded())
        let sign = x < 0 && n != 0 ? "-" : ""
        guard digits > 0 else { return sign + String(n) }
        let whole = n / Int(scale)
        var frac = String(n % Int(scale))
        while frac.count < digits { frac = "0" + frac }
        return sign + String(whole) + "." + frac
    }
}
