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

    package init(row: Int, score: Double, dueKey: Int64, created: Int64, id: Int) {
        self.row = row
        self.score = score
        self.dueKey = dueKey
        self.created = created
        self.id = id
    }

    /// The Smart order: higher score first; ties on due (no due last), then creation, then id,
    /// so the same store always gives the same plan (R-PLAN-2).
    @inline(__always)
    public static func before(_ a: PlanRow, _ b: PlanRow) -> Bool {
        if a.score != b.score { return a.score > b.score }
        return byDate(a, b)
    }

    /// The By date order: earliest due first (so overdue first), no due last; then creation, id.
    @inline(__always)
    public static func byDate(_ a: PlanRow, _ b: PlanRow) -> Bool {
        if a.dueKey != b.dueKey { return a.dueKey < b.dueKey }
        if a.created != b.created { return a.created < b.created }
        return a.id < b.id
    }
}

extension PlanRow {
    /// Row `i` of an index with its order keys.
    @inline(__always)
    package init(_ ix: TaskIndex, row i: Int, score: Double = 0) {
        self.init(row: i, score: score, dueKey: SmartPlan.dueKey(ix, i), created: ix.created[i], id: ix.ids[i])
    }
}

/// The sections a task can be in.
public enum PlanSection: String, Sendable {
    case top3 = "Top 3"
    case quickWins = "Quick wins"
    case rest = "All other tasks"
}

/// The best `k` of a stream in an order: kept sorted as they come for a small k, collected and
/// sorted once for a large one (a sorted insert costs k a row). `rows` is the answer.
package struct TopRows {
    /// Above this k, rows are collected and sorted at the end.
    package static let insertLimit = 1024
    package let k: Int
    /// The By date order instead of the Smart order.
    package let byDate: Bool
    private var kept: [PlanRow] = []

    package init(_ k: Int, byDate: Bool = false) {
        self.k = k
        self.byDate = byDate
        kept.reserveCapacity(min(k, TopRows.insertLimit) + 1)
    }

    /// The best `k` rows in order.
    package var rows: [PlanRow] {
        k <= TopRows.insertLimit ? kept : Array(kept.sorted(by: byDate ? PlanRow.byDate : PlanRow.before).prefix(k))
    }

    /// Whether `k` rows are kept, and the last of them (for a k kept sorted as they come).
    package var isFull: Bool { k <= TopRows.insertLimit && kept.count >= k }
    package var last: PlanRow? { k <= TopRows.insertLimit ? kept.last : nil }

    @inline(__always)
    package func before(_ a: PlanRow, _ b: PlanRow) -> Bool {
        byDate ? PlanRow.byDate(a, b) : PlanRow.before(a, b)
    }

    @inline(__always)
    package mutating func offer(_ r: PlanRow) {
        guard k > 0 else { return }
        guard k <= TopRows.insertLimit else {
            kept.append(r)
            return
        }
        if kept.count == k, let last = kept.last, !before(r, last) { return }
        var lo = 0
        var hi = kept.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if before(kept[mid], r) { lo = mid + 1 } else { hi = mid }
        }
        kept.insert(r, at: lo)
        if kept.count > k { kept.removeLast() }
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
        /// Given by the caller: the rows with a reminder today (the reminder model decides it).
        public var remindedRows: Set<Int> = []
        /// Set when `rows` are only the candidates of a limited plan (a backend that reads the
        /// best rows of each section, not every open task): the section counts of every open
        /// task, from which the counts of the plan are made.
        public var counts: Counts? = nil

        package init(index: TaskIndex, rows: [Int], urgency: Urgency, picks: [Int] = [], quickWinMinutes: Int, limit: Int? = nil, remindedRows: Set<Int> = []) {
            self.index = index
            self.rows = rows
            self.urgency = urgency
            self.picks = picks
            self.quickWinMinutes = quickWinMinutes
            self.limit = limit
            self.remindedRows = remindedRows
        }
    }

    /// How many open tasks there are, and how many of them are quick wins not held today
    /// (R-PLAN-3, R-PLAN-6), counted by a backend over every open task.
    public struct Counts: Sendable, Equatable {
        public var open: Int
        public var quickWins: Int
        public init(open: Int, quickWins: Int) {
            self.open = open
            self.quickWins = quickWins
        }
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

    /// Per row, whether its task has an open subtask; empty when none has.
    package static func blockedRows(_ ix: TaskIndex) -> [Bool] {
        var out: [Bool] = []
        for i in 0..<ix.count where ix.parent[i] != 0 && ix.isOpen(i) {
            guard let p = row(of: ix.parent[i], in: ix) else { continue }
            if out.isEmpty { out = [Bool](repeating: false, count: ix.count) }
            out[p] = true
        }
        return out
    }

    /// Per row, one of a set of rows; empty for an empty set.
    package static func flags(_ rows: Set<Int>, _ n: Int) -> [Bool] {
        guard !rows.isEmpty else { return [] }
        var out = [Bool](repeating: false, count: n)
        for r in rows where r >= 0 && r < n { out[r] = true }
        return out
    }

    /// The urgency input of one row; `blocked` and `reminded` are row flags (empty for none).
    @inline(__always)
    package static func input(_ ix: TaskIndex, _ i: Int, blocked: [Bool], reminded: [Bool]) -> UrgencyInput {
        var x = UrgencyInput()
        x.priority = ix.priority[i]
        let d = ix.dueDay[i]
        x.dueDay = d == TaskIndex.none ? nil : Int(d)
        x.dueHasTime = ix.dueMinute[i] >= 0
        x.createdSeconds = ix.created[i]
        x.hasGoal = ix.hasGoal[i]
        x.blocked = !blocked.isEmpty && blocked[i]
        x.hasReminderToday = !reminded.isEmpty && reminded[i]
        return x
    }

    /// The due key of a row: civil minutes, a date-only due at the end of its day.
    @inline(__always)
    package static func dueKey(_ ix: TaskIndex, _ i: Int) -> Int64 {
        let m = ix.dueMinute[i]
        if m >= 0 { return m }
        let d = ix.dueDate[i]
        return d == TaskIndex.none ? Int64.max : Int64(d) * 1440 + 1440
    }

    /// Scores rows of an index.
    public static func scored(_ inp: Input) -> [PlanRow] {
        let ix = inp.index
        let blocked = blockedRows(ix)
        let reminded = flags(inp.remindedRows, ix.count)
        var out: [PlanRow] = []
        out.reserveCapacity(inp.rows.count)
        for i in inp.rows {
            let x = input(ix, i, blocked: blocked, reminded: reminded)
            out.append(PlanRow(ix, row: i, score: inp.urgency.score(x)))
        }
        return out
    }

    /// The urgency input of a row, as the plan scored it (for `why`).
    public static func input(of row: Int, _ inp: Input) -> UrgencyInput {
        let ix = inp.index
        let blocked = (0..<ix.count).contains { ix.parent[$0] == ix.ids[row] && ix.isOpen($0) }
        var x = input(ix, row, blocked: [], reminded: [])
        x.blocked = blocked
        x.hasReminderToday = inp.remindedRows.contains(row)
        return x
    }

    /// Whether a row is held out of Top 3 and Quick wins today (R-PLAN-6).
    @inline(__always)
    package static func held(_ ix: TaskIndex, _ i: Int, today: Int) -> Bool {
        ix.isHeld(i, today: Int32(clamping: today))
    }

    /// Whether an open row is a quick win by its estimate (R-PLAN-3): one the user set, at or
    /// under the threshold; a suggested estimate never counts.
    @inline(__always)
    package static func quickWin(_ ix: TaskIndex, _ i: Int, _ max: Int) -> Bool {
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
            // At most three picks: a scan of them is cheaper than hashing every row.
            for r in scoredRows where inp.picks.contains(r.id) { byID[r.id] = r }
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
        for r in scoredRows where !inTop.contains(r.id) {
            // R-PLAN-6: a held task leaves Quick wins too; it stays in the rest with its return date.
            if quickWin(ix, r.row, inp.quickWinMinutes), !held(ix, r.row, today: today) {
                wins.offer(r)
                plan.quickWinCount += 1
            } else {
                rest.offer(r)
                plan.restCount += 1
            }
        }
        plan.quickWins = wins.rows
        plan.rest = rest.rows
        if let c = inp.counts {
            // The rows were candidates only: the sections' counts are those of every open task,
            // less the seats (open ones) taken out of them.
            var seatedWins = 0
            var seatedOpen = 0
            for s in seats where s.row < ix.count && ix.isOpen(s.row) {
                seatedOpen += 1
                if quickWin(ix, s.row, inp.quickWinMinutes), !held(ix, s.row, today: today) { seatedWins += 1 }
            }
            plan.quickWinCount = max(0, c.quickWins - seatedWins)
            plan.restCount = max(0, c.open - seatedOpen - plan.quickWinCount)
        }
        return plan
    }

    /// Rows in the By date order, the first `limit` of them (R-PLAN-1).
    public static func byDate(_ inp: Input) -> (rows: [PlanRow], count: Int) {
        var best = TopRows(inp.limit ?? Int.max, byDate: true)
        for i in inp.rows { best.offer(PlanRow(inp.index, row: i)) }
        return (best.rows, inp.rows.count)
    }
}
