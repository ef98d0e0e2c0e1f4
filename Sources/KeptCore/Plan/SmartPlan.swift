// The Smart order and its sections (R-PLAN-1…4, R-PLAN-6): Top 3, Quick wins, and the rest,
// computed on the column store (TaskIndex) with plain structs, so a plan over 100,000 tasks
// scores every row but builds a Task only for the rows it prints.

/// One open task of a plan: its row in the index and the keys of the order.
public struct PlanRow: Sendable, Equatable {
    public var row: Int
    public var score: Double
    /// The due as civil minutes (a date-only due sorts after that day's times); Int64.max
    /// without a due.
    public var dueKey: Int64
    public var created: Int64
    public var id: Int

    /// The Smart order: higher score first; ties on due (no due last), then creation, then id,
    /// so the same store always gives the same plan (R-PLAN-2).
    @inline(__always)
    public static func before(_ a: PlanRow, _ b: PlanRow) -> Bool {
        if a.score != b.score { return a.score > b.score }
        if a.dueKey != b.dueKey { return a.dueKey < b.dueKey }
        if a.created != b.created { return a.created < b.created }
        return a.id < b.id
    }

    /// The By date order: earliest due first (so overdue first), no due last; then creation, id.
    @inline(__always)
    public static func byDate(_ a: PlanRow, _ b: PlanRow) -> Bool {
        if a.dueKey != b.dueKey { return a.dueKey < b.dueKey }
        if a.created != b.created { return a.created < b.created }
        return a.id < b.id
    }
}

/// The sections a task can be in.
public enum PlanSection: String, Sendable {
    case top3 = "Top 3"
    case quickWins = "Quick wins"
    case rest = "All other tasks"
}

/// The best `k` of a stream in an order, kept sorted; for small k over many rows.
struct TopRows {
    let k: Int
    /// The By date order instead of the Smart order.
    let byDate: Bool
    var rows: [PlanRow] = []

    init(_ k: Int, byDate: Bool = false) {
        self.k = k
        self.byDate = byDate
        rows.reserveCapacity(min(k, 1024) + 1)
    }

    @inline(__always)
    func before(_ a: PlanRow, _ b: PlanRow) -> Bool {
        byDate ? PlanRow.byDate(a, b) : PlanRow.before(a, b)
    }

    @inline(__always)
    mutating func offer(_ r: PlanRow) {
        guard k > 0 else { return }
        if rows.count == k, let last = rows.last, !before(r, last) { return }
        var lo = 0
        var hi = rows.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(rows[mid], r) { lo = mid + 1 } else { hi = mid }
        }
        rows.insert(r, at: lo)
        if rows.count > k { rows.removeLast() }
    }
}

/// A Smart plan over some rows of an index: every open task in exactly one section.
public struct SmartPlan: Sendable {
    /// Top 3 in seat order; a seat may hold a pick finished today (it still counts, R-REP-2).
    public var top3: [PlanRow] = []
    /// The first rows of Quick wins and of the rest, in order, and how many each holds.
    public var quickWins: [PlanRow] = []
    public var quickWinCount = 0
    public var rest: [PlanRow] = []
    public var restCount = 0

    /// What a plan is made from.
    public struct Input {
        public var index: TaskIndex
        /// The open rows to plan (all of them, or those a filter matched).
        public var rows: [Int]
        public var urgency: Urgency
        /// Top 3 picks kept from the plan's snapshot, by id in seat order; the caller checked
        /// them. Free seats are filled in the Smart order.
        public var picks: [Int] = []
        /// Quick wins: a user-set estimate at or under this (R-PLAN-3).
        public var quickWinMinutes: Int
        /// How many rows of Quick wins and of the rest to keep in order; nil keeps all.
        public var limit: Int?
        /// Given by the caller: whether a row has a reminder today (the reminder model decides
        /// it); nil for none.
        public var reminderToday: ((Int) -> Bool)? = nil
    }

    /// The row of an id in an index (rows are in id order), or nil.
    public static func row(of id: Int, in ix: TaskIndex) -> Int? {
        var lo = 0
        var hi = ix.ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ix.ids[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < ix.ids.count && ix.ids[lo] == id ? lo : nil
    }

    /// The ids of tasks that have an open subtask.
    static func blockedIDs(_ ix: TaskIndex) -> Set<Int> {
        var out = Set<Int>()
        for i in 0..<ix.count where ix.parent[i] != 0 && ix.isOpen(i) { out.insert(ix.parent[i]) }
        return out
    }

    /// The urgency input of one row.
    @inline(__always)
    static func input(_ ix: TaskIndex, _ i: Int, blocked: Set<Int>, reminder: Bool) -> UrgencyInput {
        var x = UrgencyInput()
        x.priority = ix.priority[i]
        let d = ix.dueDay[i]
        x.dueDay = d == TaskIndex.none ? nil : Int(d)
        x.dueHasTime = ix.dueMinute[i] >= 0
        x.createdSeconds = ix.created[i]
        x.hasGoal = ix.hasGoal[i]
        x.blocked = !blocked.isEmpty && blocked.contains(ix.ids[i])
        x.hasReminderToday = reminder
        return x
    }

    /// The due key of a row: civil minutes, a date-only due at the end of its day.
    @inline(__always)
    static func dueKey(_ ix: TaskIndex, _ i: Int) -> Int64 {
        let m = ix.dueMinute[i]
        if m >= 0 { return m }
        let d = ix.dueDate[i]
        return d == TaskIndex.none ? Int64.max : Int64(d) * 1440 + 1440
    }

    /// Scores rows of an index.
    public static func scored(_ inp: Input) -> [PlanRow] {
        let ix = inp.index
        let blocked = blockedIDs(ix)
        var out: [PlanRow] = []
        out.reserveCapacity(inp.rows.count)
        for i in inp.rows {
            let x = input(ix, i, blocked: blocked, reminder: inp.reminderToday?(i) ?? false)
            out.append(PlanRow(row: i, score: inp.urgency.score(x), dueKey: dueKey(ix, i), created: ix.created[i], id: ix.ids[i]))
        }
        return out
    }

    /// The urgency input of a row, as the plan scored it (for `why`).
    public static func input(of row: Int, _ inp: Input) -> UrgencyInput {
        input(inp.index, row, blocked: blockedIDs(inp.index), reminder: inp.reminderToday?(row) ?? false)
    }

    /// Whether a row is held out of Top 3 and Quick wins today (R-PLAN-6).
    @inline(__always)
    static func held(_ ix: TaskIndex, _ i: Int, today: Int) -> Bool {
        let h = ix.held[i]
        return h != TaskIndex.none && Int(h) > today
    }

    /// Whether an open row is a quick win by its estimate (R-PLAN-3): one the user set, at or
    /// under the threshold; a suggested estimate never counts.
    @inline(__always)
    static func quickWin(_ ix: TaskIndex, _ i: Int, _ max: Int) -> Bool {
        let e = ix.userEstimate[i]
        return e >= 0 && Int(e) <= max
    }

    /// Makes the plan. `seatRows` are rows (open or finished today) of picks outside `rows`.
    public static func make(_ inp: Input, extraSeats: [PlanRow] = []) -> SmartPlan {
        let ix = inp.index
        let today = inp.urgency.today
        let scoredRows = scored(inp)
        var plan = SmartPlan()
        // Seats: the kept picks in seat order, then the best of the others.
        var byID: [Int: PlanRow] = [:]
        if !inp.picks.isEmpty {
            let wanted = Set(inp.picks)
            for r in scoredRows where wanted.contains(r.id) { byID[r.id] = r }
            for r in extraSeats { byID[r.id] = r }
        }
        var seats: [PlanRow] = inp.picks.compactMap { byID[$0] }
        let seated = seats.map(\.id)
        if seats.count < 3 {
            var best = TopRows(3 - seats.count)
            for r in scoredRows where !seated.contains(r.id) && !held(ix, r.row, today: today) { best.offer(r) }
            seats += best.rows
        }
        plan.top3 = seats
        // At most three ids: a scan is cheaper than hashing every row.
        let inTop = seats.map(\.id)
        let k = inp.limit ?? Int.max
        var wins = TopRows(k)
        var rest = TopRows(k)
        var winsAll: [PlanRow] = []
        var restAll: [PlanRow] = []
        for r in scoredRows where !inTop.contains(r.id) {
            // R-PLAN-6: a held task leaves Quick wins too; it stays in the rest with its return date.
            if quickWin(ix, r.row, inp.quickWinMinutes), !held(ix, r.row, today: today) {
                if inp.limit == nil { winsAll.append(r) } else { wins.offer(r) }
                plan.quickWinCount += 1
            } else {
                if inp.limit == nil { restAll.append(r) } else { rest.offer(r) }
                plan.restCount += 1
            }
        }
        plan.quickWins = inp.limit == nil ? winsAll.sorted(by: PlanRow.before) : wins.rows
        plan.rest = inp.limit == nil ? restAll.sorted(by: PlanRow.before) : rest.rows
        return plan
    }

    /// Rows in the By date order, the first `limit` of them (R-PLAN-1).
    public static func byDate(_ inp: Input) -> (rows: [PlanRow], count: Int) {
        let ix = inp.index
        if let k = inp.limit {
            var best = TopRows(k, byDate: true)
            for i in inp.rows { best.offer(PlanRow(row: i, score: 0, dueKey: dueKey(ix, i), created: ix.created[i], id: ix.ids[i])) }
            return (best.rows, inp.rows.count)
        }
        let all = inp.rows.map { PlanRow(row: $0, score: 0, dueKey: dueKey(ix, $0), created: ix.created[$0], id: ix.ids[$0]) }
        return (all.sorted(by: PlanRow.byDate), all.count)
    }
}
