// `why ID` as a query (R-PLAN-2, R-PLAN-4, R-PLAN-8): where one open task stands in today's
// plan, its score term by term, its neighbours, and the held snapshot it stands in. A task the plan does not hold is the typed error
// `notInPlan`, with the reason.

import KeptRules

/// A row next to a task in the plan, with its task when it can be built.
public struct PlanNeighbour {
    public var id: Int
    public var score: Double
    public var task: Task?
}

/// Where an open task stands in today's plan, and why.
public struct PlanPlace {
    public var task: Task
    public var section: PlanSection
    /// The section's name: "All tasks" when Top 3 and Quick wins are empty (R-PLAN-2).
    public var sectionName: String
    /// The task's seat or row in its section, from 1, and how many the section holds.
    public var position: Int
    public var size: Int
    public var score: Double
    /// The score's terms (R-PLAN-4).
    public var terms: [UrgencyTerm]
    /// The day a Not today hold ends, while it holds (R-PLAN-6).
    public var heldUntil: CivilDate?
    public var above: PlanNeighbour?
    public var below: PlanNeighbour?
    /// Whether looking stored the day's snapshot.
    public var stored: Bool
    /// The plan the place is in: its instant and its held Top 3 picks (R-PLAN-5).
    public var snapshot: PlanSnapshot
    /// The lowest-scoring Top 3 pick this task outscores while not a pick itself: the picks
    /// are held from the snapshot, so a task added or changed since can score more (R-PLAN-8).
    public var outscoredPick: PlanNeighbour?
}

extension Engine {
    /// Where a task stands in today's whole plan. Only open tasks are planned.
    public func why(_ id: Int) throws(DomainError) -> PlanPlace {
        let t = try existing(id)
        guard t.isOpen else { throw .notInPlan(t, why: .notOpen) }
        let v = planView(nil, limit: nil)
        guard let row = SmartPlan.row(of: t.id, in: v.input.index) else { throw .notInPlan(t, why: .noColumns) }
        let p = v.plan
        let flat = p.top3 + p.quickWins + p.rest
        guard let at = flat.firstIndex(where: { $0.id == t.id }) else { throw .notInPlan(t, why: .noSection) }
        var section = PlanSection.rest
        var position = 0
        var size = 0
        var base = 0
        for (name, rows) in [(PlanSection.top3, p.top3), (.quickWins, p.quickWins), (.rest, p.rest)] {
            if at < base + rows.count {
                section = name
                position = at - base + 1
                size = rows.count
                break
            }
            base += rows.count
        }
        let x = SmartPlan.input(of: row, v.input)
        let name = section == .rest && p.top3.isEmpty && p.quickWinCount == 0 ? "All tasks" : section.rawValue
        func neighbour(_ k: Int) -> PlanNeighbour? {
            guard k >= 0, k < flat.count else { return nil }
            return PlanNeighbour(id: flat[k].id, score: flat[k].score, task: store.task(atRow: flat[k].row))
        }
        let score = v.input.urgency.score(x)
        let held = t.heldUntil.flatMap { $0 > today ? $0 : nil }
        // A task not held and not a pick that scores more than a pick: the lowest such pick.
        var outscored: PlanNeighbour? = nil
        if section != .top3, held == nil, let low = p.top3.filter({ $0.score < score }).min(by: { $0.score < $1.score }) {
            outscored = PlanNeighbour(id: low.id, score: low.score, task: store.task(atRow: low.row))
        }
        return PlanPlace(task: t, section: section, sectionName: name, position: position, size: size,
                         score: score, terms: v.input.urgency.terms(x), heldUntil: held,
                         above: neighbour(at - 1), below: neighbour(at + 1), stored: v.stored,
                         snapshot: v.snapshot, outscoredPick: outscored)
    }
}
