// The second stage of a filter: its terms bound against a store and a clock. Names are the
// store's, dates are account days (windows, the due) or instants (created, modified, completed,
// deleted); a FilterContext turns days into the instants they start at. CompiledFilter runs it
// over the columns (docs/FILTERS.md, R-FIL-1).

/// A comparison operator of `due < fri`, `priority >= high`.
public enum Comparison: String, Sendable {
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "="

    @inline(__always)
    package func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        case .equal: return a == b
        }
    }
}

/// Which tasks a status term selects.
public enum StatusTerm: Sendable, Equatable {
    case open, done, archived, any
    case named(String)
}

/// A half-open range of account days `[start, end)`, by day number (R-DAY-2); `Int.min` and
/// `Int.max` stand for no end (`due < fri` is the window before Friday).
public struct DayWindow: Sendable, Equatable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// The window a comparison of a day makes: `< d` is every day before d, `> d` every day after.
    public init(_ c: Comparison, _ d: Int) {
        switch c {
        case .less: self.init(start: Int.min, end: d)
        case .lessOrEqual: self.init(start: Int.min, end: d + 1)
        case .greater: self.init(start: d + 1, end: Int.max)
        case .greaterOrEqual: self.init(start: d, end: Int.max)
        case .equal: self.init(start: d, end: d + 1)
        }
    }
}

/// The instants of a task's life a filter compares.
public enum InstantField: String, Sendable {
    case created, modified, completed, deleted
}

/// One predicate over a task.
public enum FilterTerm: Sendable {
    case tag(String)
    /// `#work*`: a tag matching the pattern (`*` is any run of characters), lowercased.
    case tagPattern(String)
    case project(String)
    case area(String)
    case note(String)
    case priority(Comparison, Priority)
    /// The due falls in the window: a date-only due by its day, a timed due by its instant
    /// against the instants the window's days start at.
    case window(DayWindow)
    case overdue
    case noDue
    case hasDue
    case hasTime
    case repeating
    case repeatFrequency(RepeatRule.Frequency)
    case status(StatusTerm)
    case doneToday
    case held
    /// `due < fri`: the window of days the comparison makes.
    case due(Comparison, day: Int)
    case estimate(Comparison, minutes: Int)
    /// `created > -7d`: the instant against another.
    case instant(InstantField, Comparison, Instant)
    /// `created @this week`: the instant falls in the window (from the start of its first day to
    /// the start of the day after it).
    case instantIn(InstantField, DayWindow)
    case hasSubtasks, isSubtask, blocked, blocking, hasReminder, hasEstimate, hasNotes
    /// A direct subtask of the task with this id.
    case parent(Int)
    /// Every word must match somewhere in title, description, steps or comments (R-FIL-3).
    case words([String])
    case regex(field: RegexField, RegexPattern)
    /// `filter:NAME`, expanded.
    indirect case saved(String, FilterExpr)
}

/// The text fields a regex can look at.
public enum RegexField: String, Sendable {
    case title, description
}

/// A bound filter tree.
public indirect enum FilterExpr: Sendable {
    case term(FilterTerm)
    case and([FilterExpr])
    case or([FilterExpr])
    case not(FilterExpr)

    /// True when the filter names a status (or a completion), so it is not limited to open tasks.
    public var namesStatus: Bool {
        anyTerm { t in
            switch t {
            case .status, .doneToday: return true
            case .instant(let f, _, _), .instantIn(let f, _): return f == .completed
            default: return false
            }
        }
    }

    /// True when the filter looks at deleted tasks (their tombstones) instead of the store's tasks.
    public var looksAtDeleted: Bool {
        anyTerm { t in
            switch t {
            case .instant(.deleted, _, _), .instantIn(.deleted, _): return true
            default: return false
            }
        }
    }

    /// Whether any term, through saved filters, satisfies `p`.
    public func anyTerm(_ p: (FilterTerm) -> Bool) -> Bool {
        switch self {
        case .term(.saved(_, let e)): return e.anyTerm(p)
        case .term(let t): return p(t)
        case .and(let xs), .or(let xs): return xs.contains { $0.anyTerm(p) }
        case .not(let x): return x.anyTerm(p)
        }
    }

    /// How many filters are on, for `12 of 104 tasks · 2 filters on` (R-FIL-4).
    public var filterCount: Int {
        if case .and(let xs) = self { return xs.count }
        return 1
    }
}
