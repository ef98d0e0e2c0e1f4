// The plan that holds still (R-PLAN-5): when it was made, for which day, and its Top 3 picks.
// Scores are taken as of `madeAt`, so rows do not move on their own; completing, capturing and
// filtering still move them. It is stored with the tasks (docs/STORE.md, "plan").

/// A Smart plan as it was made.
public struct PlanSnapshot: Sendable, Equatable {
    /// When the plan was made; every score of the plan is taken at this instant.
    public var madeAt: Instant
    /// The account day it was made for; on another day a new plan is made.
    public var day: CivilDate
    /// The Top 3 picks by id, in seat order (R-PLAN-7).
    public var top3: [Int]
    /// Keys of the stored plan this version does not know; kept, and carried to the next plan
    /// made (R-STORE-1).
    public var extra = JSONObject()

    public init(madeAt: Instant, day: CivilDate, top3: [Int], extra: JSONObject = JSONObject()) {
        self.madeAt = madeAt
        self.day = day
        self.top3 = top3
        self.extra = extra
    }

    /// Whether the snapshot is still the plan of `today`.
    public func isCurrent(today: CivilDate) -> Bool { day == today }
}
