// A filter compiled against a TaskIndex: names become integer ids, windows day numbers, so
// evaluating one task is a few integer comparisons (docs/FILTERS.md: compiled once per query).

import Dispatch
import Synchronization

/// A query whose regular expressions ran past their budget: the pattern, and whether the
/// query's time ran out (else one subject reached PCRE2's step or depth limit).
public struct RegexBudgetError: Error, Sendable, Equatable {
    public var pattern: String
    public var timedOut: Bool
}

/// A filter ready to run over one index.
public struct CompiledFilter: Sendable {
    package indirect enum Node: Sendable {
        case and([Node]), or([Node]), not(Node)
        case tag(Int32), tags([Int32]), note(Int32), project(Int32), area(Int32), status(Int32)
        case statusKind(StatusKind), open, any
        case priority(Comparison, UInt8)
        /// The due in a window: a date-only due's day in lo..<hi, a timed due's civil minute in the set.
        case due(Int32, Int32, MinuteTest)
        /// The same, for a window whose edges no DST change moves: the due's account day in lo..<hi.
        case dueDay(Int32, Int32)
        /// Open and past due: a date-only due before `today`, a timed due whose minute is before
        /// `passedBefore` (no DST change near now: the passed minutes are every minute before
        /// one), or, with `DST`, in `passedMinutes`. The bounds are the filter's, not the node's,
        /// so the inner loop reads no payload.
        case overdue, overdueDST
        case noDue, hasDue, hasTime, repeating
        case repeatFreq(Int8)
        case doneToday
        case held
        case estimate(Comparison, Int32)
        /// An instant column (seconds) against a value; an absent one (`Int64.min`) never matches.
        case instant(InstantColumn, Comparison, Int64)
        case instantIn(InstantColumn, Int64, Int64)
        /// A flag per row worked out when compiled (subtasks, reminders).
        case flags([Bool])
        case parent(Int)
        case hasEstimate, hasNotes
        case words([[UInt8]])
        /// A pattern's field, its matcher, and its place in `patterns` (to name it in an error).
        case regex(RegexField, RegexMatcher, Int)
        case never
    }

    /// The instant columns read row by row (modified is worked out into flags when compiled).
    package enum InstantColumn: Sendable { case created, completed }

    package let root: Node
    /// The patterns the regex nodes match with, kept alive here.
    package let patterns: [RegexPattern]
    /// Only open tasks, unless the filter names a status.
    package let openOnly: Bool
    package let today: Int32
    package let todayStart: Int64
    /// The passed minutes of `overdue` (Node.overdue, Node.overdueDST).
    package let passedBefore: Int64
    package let passedMinutes: MinuteTest

    /// Compiles a filter; the open-only scope of docs/FILTERS.md is added unless it names a status.
    public init(_ expr: FilterExpr, index: TaskIndex, context: FilterContext) {
        today = Int32(context.today)
        todayStart = context.todayStart.seconds
        passedBefore = CompiledFilter.passedBound(context) ?? Int64.min
        passedMinutes = MinuteTest(context.passedMinutes)
        var b = Builder(ix: index, fc: context)
        root = b.node(expr)
        patterns = b.patterns
        openOnly = !expr.namesStatus
    }

    /// The minute every passed minute is before, when the passed minutes are one range from the
    /// start of time (no DST change near now), else nil.
    package static func passedBound(_ fc: FilterContext) -> Int64? {
        let r = fc.passedMinutes.ranges
        guard r.count == 1, let first = r.first, first.lowerBound == Int64.min else { return nil }
        return first.upperBound
    }

    /// Builds the nodes of one filter over one index.
    package struct Builder {
        package let ix: TaskIndex
        package let fc: FilterContext
        package var patterns: [RegexPattern] = []
        /// The flags of row relations, made once for the filter.
        package var relations: RowRelations? = nil

        /// The modified column, made once for the filter (the index keeps it sparse).
        package var modifiedSeconds: [Int64]? = nil

        package mutating func modified() -> [Int64] {
            if let m = modifiedSeconds { return m }
            let m = ix.modifiedColumn()
            modifiedSeconds = m
            return m
        }

        /// The instants a window of days runs between.
        package func edges(_ w: DayWindow) -> (Int64, Int64) {
            (w.start == Int.min ? Int64.min : fc.start(ofDay: w.start).seconds, w.end == Int.max ? Int64.max : fc.start(ofDay: w.end).seconds)
        }

        package mutating func rel() -> RowRelations {
            if let r = relations { return r }
            let r = RowRelations(ix)
            relations = r
            return r
        }

        package mutating func node(_ e: FilterExpr) -> Node {
            switch e {
            case .and(let xs): return .and(xs.map { node($0) })
            case .or(let xs): return .or(xs.map { node($0) })
            case .not(let x): return .not(node(x))
            case .term(let t): return term(t)
            }
        }

        package static func day(_ d: Int) -> Int32 { Int32(clamping: d) }

        package mutating func term(_ t: FilterTerm) -> Node {
            switch t {
            case .tag(let n): return .tag(ix.id(n.lowercased()))
            case .tagPattern(let p): return .tags(ix.tagIDs(matching: p))
            case .project(let n): return .project(ix.id(n.lowercased()))
            case .area(let n): return .area(ix.id("area:" + AreaName.key(n)))
            case .note(let n): return .note(ix.id(n.lowercased()))
            case .priority(let c, let p): return .priority(c, UInt8(p.rawValue))
            case .window(let w): return window(w)
            case .due(let c, let d): return window(DayWindow(c, d))
            case .overdue: return CompiledFilter.passedBound(fc) == nil ? .overdueDST : .overdue
            case .noDue: return .noDue
            case .hasDue: return .hasDue
            case .hasTime: return .hasTime
            case .repeating: return .repeating
            case .repeatFrequency(let f): return .repeatFreq(f.code)
            case .status(let s):
                switch s {
                case .open: return .open
                case .done: return .statusKind(.done)
                case .archived: return .statusKind(.archived)
                case .any: return .any
                case .named(let n): return .status(ix.id("status:" + n))
                }
            case .doneToday: return .doneToday
            case .held: return .held
            case .estimate(let c, let m): return .estimate(c, Int32(clamping: m))
            case .instant(.modified, let c, let i):
                return .flags(modified().map { c.holds($0, i.seconds) })
            case .instantIn(.modified, let w):
                let (lo, hi) = edges(w)
                return .flags(modified().map { $0 >= lo && $0 < hi })
            case .instant(let f, let c, let i):
                guard let col = Builder.column(f) else { return .never }
                return .instant(col, c, i.seconds)
            case .instantIn(let f, let w):
                guard let col = Builder.column(f) else { return .never }
                let (lo, hi) = edges(w)
                return .instantIn(col, lo, hi)
            case .hasSubtasks: return .flags(rel().hasSubtasks)
            case .blocked: return .flags(rel().blocked)
            case .isSubtask: return .flags(rel().isSubtask)
            case .blocking: return .flags(rel().blocking)
            case .hasReminder: return .flags(ix.reminderFlags())
            case .hasEstimate: return .hasEstimate
            case .hasNotes: return .hasNotes
            case .parent(let id): return .parent(id)
            case .words(let ws): return .words(ws.map { Array($0.utf8) })
            case .regex(let f, let re):
                patterns.append(re)
                return .regex(f, re.matcher, patterns.count - 1)
            case .saved(_, let e): return node(e)
            }
        }

        package func window(_ w: DayWindow) -> Node {
            let set = fc.minutes(in: w)
            // Away from a DST change the window's minutes are the wall-clock minutes of its days,
            // from the day start of the first to that of the day after the last: exactly the
            // timed dues whose account day (the index's column) is in the window.
            if ix.dayStart.minuteOfDay == fc.dayStart, let plain = Builder.wallMinutes(w, dayStart: fc.dayStart),
               set.ranges == (plain.isEmpty ? [] : [plain]) {
                return .dueDay(Builder.day(w.start), Builder.day(w.end))
            }
            return .due(Builder.day(w.start), Builder.day(w.end), MinuteTest(set))
        }

        /// The wall-clock minutes from the day start of `w.start` to that of `w.end`, or nil for
        /// days far outside the calendar.
        package static func wallMinutes(_ w: DayWindow, dayStart: Int) -> Range<Int64>? {
            let limit = 100_000_000
            func edge(_ d: Int, open: Int64) -> Int64? {
                if d == Int.min || d == Int.max { return open }
                guard d > -limit, d < limit else { return nil }
                return Int64(d) * 1440 + Int64(dayStart)
            }
            guard let lo = edge(w.start, open: Int64.min), let hi = edge(w.end, open: Int64.max) else { return nil }
            return lo < hi ? lo..<hi : lo..<lo
        }

        package static func column(_ f: InstantField) -> InstantColumn? {
            switch f {
            case .created: return .created
            case .completed: return .completed
            // Modified is read through flags; deleted tasks are tombstones, never rows of the
            // index (Engine+Query).
            case .modified, .deleted: return nil
            }
        }
    }

    /// The rows of an index the filter matches, in order. A regex or word search over a large
    /// index is split over two threads; the answer is the same either way. The query's regular
    /// expressions share one budget (docs/LIMITS.md): a subject that reaches PCRE2's limits, or
    /// matching past the budget's time, fails the whole query, never a silent no-match.
    public func rows(in ix: TaskIndex, budget: RegexBudget = RegexBudget()) throws(RegexBudgetError) -> [Int] {
        let n = ix.count
        guard n >= CompiledFilter.splitAt, CompiledFilter.costly(root), Cores.online() >= 2 else {
            var out: [Int] = []
            let scratch = RegexScratch(budget: budget)
            for i in 0..<n {
                if matches(i, in: ix, scratch, root) { out.append(i) }
                if scratch.failure != nil { break }
            }
            if let f = scratch.failure { throw error(f) }
            return out
        }
        let halves = Mutex<[([Int], RegexFailure?)]>([([], nil), ([], nil)])
        // The second thread walks its own copy of the tree: sharing one would have both threads
        // counting references to the same nodes on every task.
        let trees = [root, root.copied()]
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            var out: [Int] = []
            let scratch = RegexScratch(budget: budget)
            let tree = trees[part]
            for i in (part == 0 ? 0..<(n / 2) : (n / 2)..<n) {
                if matches(i, in: ix, scratch, tree) { out.append(i) }
                if scratch.failure != nil {
                    budget.stop()
                    break
                }
            }
            halves.withLock { $0[part] = (out, scratch.failure) }
        }
        let (first, second) = halves.withLock { ($0[0], $0[1]) }
        // The failure of a thread that found one itself (the other was only stopped), the first half's first.
        if let f = [first.1, second.1].compactMap({ $0 }).min(by: { ($0.pattern < 0 ? 1 : 0) < ($1.pattern < 0 ? 1 : 0) }) {
            throw error(f)
        }
        return first.0 + second.0
    }

    /// The error of a failure: the pattern it names, by its text.
    package func error(_ f: RegexFailure) -> RegexBudgetError {
        let k = f.pattern >= 0 && f.pattern < patterns.count ? f.pattern : 0
        return RegexBudgetError(pattern: patterns.isEmpty ? "" : patterns[k].pattern, timedOut: f.timedOut)
    }

    /// An index this large is worth two threads for a costly filter.
    package static let splitAt = 20_000

    package static func costly(_ n: Node) -> Bool {
        switch n {
        case .regex, .words: return true
        case .and(let ns), .or(let ns): return ns.contains(where: costly)
        case .not(let x): return costly(x)
        default: return false
        }
    }

    /// Whether task `i` matches (a regex makes match data for each of its matches). Here a
    /// subject past PCRE2's limits counts as no match; queries go through `rows(in:)`, which
    /// fails instead.
    public func matches(_ i: Int, in ix: TaskIndex) -> Bool {
        matches(i, in: ix, nil, root)
    }

    /// Whether task `i` meets the filter's terms, whatever its status: `explain FILTER for ID`
    /// tries each term this way, through the one evaluator queries use (R-FIL-8).
    public func holds(_ i: Int, in ix: TaskIndex) -> Bool {
        eval(root, i, ix, nil)
    }

    /// Whether task `i` is among the tasks the filter looks at: open ones, unless it names a status.
    public func inScope(_ i: Int, in ix: TaskIndex) -> Bool {
        !openOnly || ix.statusKind[i].isOpen
    }

    /// Whether task `i` matches, with one thread's regex scratch: the inner loop of `rows`.
    public func matches(_ i: Int, in ix: TaskIndex, scratch: RegexScratch) -> Bool {
        matches(i, in: ix, scratch, root)
    }

    /// The same with one thread's regex scratch and tree.
    package func matches(_ i: Int, in ix: TaskIndex, _ s: RegexScratch?, _ tree: Node) -> Bool {
        if openOnly {
            if !ix.statusKind[i].isOpen { return false }
        }
        return eval(tree, i, ix, s)
    }

    package func eval(_ n: Node, _ i: Int, _ ix: TaskIndex, _ s: RegexScratch?) -> Bool {
        switch n {
        case .and(let xs):
            for x in xs where !eval(x, i, ix, s) { return false }
            return true
        case .or(let xs):
            for x in xs where eval(x, i, ix, s) { return true }
            return false
        case .not(let x): return !eval(x, i, ix, s)
        case .tag(let id): return id >= 0 && ix.has(id, in: ix.tagStart, ix.tagIDs, i)
        case .tags(let ids):
            for id in ids where ix.has(id, in: ix.tagStart, ix.tagIDs, i) { return true }
            return false
        case .note(let id): return id >= 0 && ix.has(id, in: ix.noteStart, ix.noteIDs, i)
        case .project(let id): return id >= 0 && ix.project[i] == id
        case .area(let id): return id >= 0 && ix.area[i] == id
        case .status(let id): return ix.statusID[i] == id
        case .statusKind(let k): return ix.statusKind[i] == k
        case .open: return ix.statusKind[i].isOpen
        case .any: return true
        case .priority(let c, let p): return c.holds(ix.priority[i], p)
        case .due(let lo, let hi, let timed):
            let d = ix.dueDate[i]
            guard d != TaskIndex.none else { return false }
            let m = ix.dueMinute[i]
            return m >= 0 ? timed.contains(m) : d >= lo && d < hi
        case .dueDay(let lo, let hi):
            let d = ix.dueDay[i]
            return d != TaskIndex.none && d >= lo && d < hi
        case .overdue:
            // R-VIEW-3: a finished task is never overdue; a date-only due waits for its day's end.
            guard ix.statusKind[i].isOpen, ix.dueDate[i] != TaskIndex.none else { return false }
            let m = ix.dueMinute[i]
            return m >= 0 ? m < passedBefore : ix.dueDate[i] < today
        case .overdueDST:
            guard ix.statusKind[i].isOpen, ix.dueDate[i] != TaskIndex.none else { return false }
            let m = ix.dueMinute[i]
            return m >= 0 ? passedMinutes.contains(m) : ix.dueDate[i] < today
        case .noDue: return ix.dueDate[i] == TaskIndex.none
        case .hasDue: return ix.dueDate[i] != TaskIndex.none
        case .hasTime: return ix.dueMinute[i] >= 0
        case .repeating: return ix.repeatFreq[i] >= 0 && ix.statusKind[i].isOpen
        case .repeatFreq(let f): return ix.repeatFreq[i] == f
        case .doneToday: return ix.isDone(i, since: todayStart)
        case .held: return ix.isHeld(i, today: today)
        case .estimate(let c, let m): let e = ix.estimate[i]; return e >= 0 && c.holds(e, m)
        case .instant(let col, let c, let t):
            let v = CompiledFilter.value(col, i, ix)
            return v != Int64.min && c.holds(v, t)
        case .instantIn(let col, let lo, let hi):
            let v = CompiledFilter.value(col, i, ix)
            return v != Int64.min && v >= lo && v < hi
        case .flags(let f): return i < f.count && f[i]
        case .parent(let id): return ix.parent[i] == id
        case .hasEstimate: return ix.estimate[i] >= 0
        case .hasNotes: return ix.noteStart[i + 1] > ix.noteStart[i]
        case .words(let ws):
            guard i < ix.haystacks.count else { return false }
            let hay = ix.haystacks[i]
            for w in ws where !CompiledFilter.contains(hay, w) { return false }
            return true
        case .regex(let f, let re, let k):
            guard ix.hasText, 4 * i + 3 < ix.textSpans.count else { return false }
            guard let s else { return ix.withText(i, f == .title ? 0 : 1) { re.matches(valid: $0, nil) } }
            return ix.withText(i, f == .title ? 0 : 1) { s.match(re, pattern: k, $0) }
        case .never: return false
        }
    }

    @inline(__always)
    package static func value(_ col: InstantColumn, _ i: Int, _ ix: TaskIndex) -> Int64 {
        switch col {
        case .created: return ix.created[i]
        case .completed: return ix.completed[i]
        }
    }

    // MARK: the tree

    /// Whether `needle` occurs in `hay`, on bytes (both already folded).
    package static func contains(_ hay: [UInt8], _ needle: [UInt8]) -> Bool {
        let n = needle.count
        guard n > 0 else { return true }
        guard hay.count >= n else { return false }
        return hay.withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { nd in
                let first = nd[0]
                var i = 0
                let last = h.count - n
                while i <= last {
                    if h[i] == first {
                        var k = 1
                        while k < n, h[i + k] == nd[k] { k += 1 }
                        if k == n { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether the compiled filter needs the text columns (a regex).
    public static func needsText(_ e: FilterExpr) -> Bool { uses(e) { if case .regex = $0 { return true }; return false } }

    /// Whether it needs the folded search text (words).
    public static func needsSearch(_ e: FilterExpr) -> Bool { uses(e) { if case .words = $0 { return true }; return false } }

    package static func uses(_ e: FilterExpr, _ p: (FilterTerm) -> Bool) -> Bool {
        switch e {
        case .term(.saved(_, let x)): return uses(x, p)
        case .term(let t): return p(t)
        case .and(let xs), .or(let xs): return xs.contains { uses($0, p) }
        case .not(let x): return uses(x, p)
        }
    }
}

/// A MinuteSet for the inner loop: its first range as two integers, the others (only on a DST
/// night) after them.
package struct MinuteTest: Sendable {
    package let lo: Int64
    package let hi: Int64
    package let rest: [Range<Int64>]

    package init(_ s: MinuteSet) {
        let r = s.ranges
        lo = r.first?.lowerBound ?? 0
        hi = r.first?.upperBound ?? 0
        rest = Array(r.dropFirst())
    }

    @inline(__always)
    package func contains(_ m: Int64) -> Bool {
        if m >= lo && m < hi { return true }
        if rest.isEmpty { return false }
        for r in rest where r.contains(m) { return true }
        return false
    }
}

extension CompiledFilter.Node {
    /// The same tree in new storage: new nodes, lists and words, the same patterns.
    package func copied() -> CompiledFilter.Node {
        switch self {
        case .and(let xs): return .and(xs.map { $0.copied() })
        case .or(let xs): return .or(xs.map { $0.copied() })
        case .not(let x): return .not(x.copied())
        case .words(let ws): return .words(ws.map { w in w.map { $0 } })
        case .tags(let ids): return .tags(ids.map { $0 })
        case .flags(let f): return .flags(f.map { $0 })
        default: return self
        }
    }
}
