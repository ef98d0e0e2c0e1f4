// The filter language's tree: terms joined by and, or and not. The parser builds it from the
// statement's tokens; CompiledFilter checks tasks against it (docs/FILTERS.md, R-FIL-1).

/// A comparison operator of `due < fri`, `priority >= high`.
public enum Comparison: String, Sendable {
    case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "="

    func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
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

/// A half-open range of account days `[start, end)`, by day number (R-DAY-2).
public struct DayWindow: Sendable, Equatable {
    public var start: Int
    public var end: Int
}

/// One predicate over a task.
public enum FilterTerm: Sendable {
    case tag(String)
    case project(String)
    case area(String)
    case note(String)
    case priority(Comparison, Priority)
    /// The due falls in the window (a timed due by the account day it belongs to).
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
    /// `due < fri`: the due against the start of a day (or the day itself for date-only dues).
    case due(Comparison, day: Int)
    case estimate(Comparison, minutes: Int)
    case created(Comparison, Instant)
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

/// A filter tree.
public indirect enum FilterExpr: Sendable {
    case term(FilterTerm)
    case and([FilterExpr])
    case or([FilterExpr])
    case not(FilterExpr)

    /// True when the filter names a status, so it is not limited to open tasks.
    public var namesStatus: Bool {
        switch self {
        case .term(let t):
            switch t {
            case .status, .doneToday: return true
            case .saved(_, let e): return e.namesStatus
            default: return false
            }
        case .and(let xs), .or(let xs): return xs.contains { $0.namesStatus }
        case .not(let x): return x.namesStatus
        }
    }

    /// How many filters are on, for `12 of 104 tasks · 2 filters on` (R-FIL-4).
    public var filterCount: Int {
        if case .and(let xs) = self { return xs.count }
        return 1
    }
}
