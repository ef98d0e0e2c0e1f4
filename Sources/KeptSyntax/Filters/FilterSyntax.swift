// The first stage of a filter: its syntax tree, read from tokens with no store and no clock
// (docs/FILTERS.md, "Stages"). Names stay names and dates stay date phrases; FilterBinder binds
// them against a store and a clock into a FilterExpr, which CompiledFilter runs over columns. A
// saved filter's text is read to this tree when it is saved, and `parse filter` prints it.

import KeptRules

/// A filter as written: terms joined by and, or and not, each with its source range.
public indirect enum FilterSyntax: Sendable {
    case term(TermSyntax)
    case and([FilterSyntax])
    case or([FilterSyntax])
    /// `not X` or `-X`; the range is the `not` or the `-`.
    case not(FilterSyntax, SourceRange)

    /// The source range the filter covers.
    public var range: SourceRange {
        switch self {
        case .term(let t): return t.range
        case .and(let xs), .or(let xs): return xs.dropFirst().reduce(xs.first?.range ?? SourceRange.at(0)) { $0.union($1.range) }
        case .not(let x, let r): return r.union(x.range)
        }
    }

    /// How many filters are on, for `12 of 104 tasks · 2 filters on` (R-FIL-4).
    public var filterCount: Int {
        if case .and(let xs) = self { return xs.count }
        return 1
    }

    /// Every term, in source order.
    public var terms: [TermSyntax] {
        switch self {
        case .term(let t): return [t]
        case .and(let xs), .or(let xs): return xs.flatMap(\.terms)
        case .not(let x, _): return x.terms
        }
    }
}

/// One term with where it was written.
public struct TermSyntax: Sendable {
    public var kind: TermKind
    public var range: SourceRange
    /// For a saved filter: how deep in parentheses, `not`s and saved filters it sits (Limits.filterDepth).
    public var depth: Int = 0
}

/// The date fields a filter compares: the due (account days) and the instants of a task's life.
public enum DateField: String, Sendable, CaseIterable {
    case due, created, modified, completed, deleted
}

/// A date value as written, before the clock binds it.
public enum DateValueSyntax: Sendable {
    /// A date phrase (`fri`, `next week`, `2026-06-01`, `tomorrow 3pm`), parsed but not resolved.
    case phrase(DateSpec, text: String)
    /// `-7d`, `-2w`, `-1mo`, `-1y`, `30 days ago`: that many days, weeks, months or years before today.
    case daysAgo(Int, unit: DateUnit, text: String)
    /// `-2h`, `-90m`, `2 hours ago`: that many minutes before now (an instant).
    case minutesAgo(Int, text: String)

    public var text: String {
        switch self {
        case .phrase(_, let t), .daysAgo(_, _, let t), .minutesAgo(_, let t): return t
        }
    }
}

/// The calendar units of `N units ago`.
public enum DateUnit: String, Sendable {
    case day, week, month, year
}

/// A window of account days as written (`@today`, `@this week`, `@today..fri`).
public enum WindowSyntax: Sendable {
    case today, tomorrow, yesterday, thisWeek, nextWeek, thisMonth, nextMonth
    /// `@next N days`: today and the N − 1 days after it (R-VIEW-1).
    case nextDays(Int)
    /// `@fri`, `@2026-06-21`: that one day.
    case day(DateValueSyntax)
    /// `@a..b`: a through b, both ends whole days.
    case range(DateValueSyntax, DateValueSyntax)
}

/// The predicates a filter names with words (`overdue`, `has subtasks`): one row each, read by
/// the parser, completion, the colouring and the look-alike warning (docs/FILTERS.md).
public enum FilterPredicate: String, Sendable, CaseIterable {
    case overdue, repeating, held, blocked, blocking
    case noDue = "no due", hasDue = "has due", hasTime = "has time"
    case hasSubtasks = "has subtasks", isSubtask = "is subtask"
    case hasReminder = "has reminder", hasEstimate = "has estimate", hasNotes = "has notes"

    /// Every spelling the parser takes: the canonical words, and the other number of the noun.
    public var spellings: [String] {
        switch self {
        case .hasSubtasks: return [rawValue, "has subtask"]
        case .hasReminder: return [rawValue, "has reminders"]
        case .hasEstimate: return [rawValue, "has estimates"]
        case .hasNotes: return [rawValue, "has note"]
        default: return [rawValue]
        }
    }

    /// The predicate a `no …` spelling negates (`no subtasks` is `not has subtasks`).
    package static func negated(_ noun: String) -> FilterPredicate? {
        FilterPredicate.allCases.first { p in p.rawValue.hasPrefix("has ") && p.spellings.contains("has " + noun) }
    }
}

/// What one term says, before binding.
public enum TermKind: Sendable {
    /// `#work`, `tag:work`; a `*` in the name matches any run of characters (`#work*`).
    case tag(String)
    /// `+Home`, `project:Home`: a project's name, checked when bound.
    case project(String)
    case area(String)
    case note(String)
    case priority(Comparison, Priority)
    /// `@…`: the due falls in the window.
    case window(WindowSyntax)
    case predicate(FilterPredicate)
    /// `no subtasks`, `no reminder`: not the predicate.
    case notPredicate(FilterPredicate)
    case status(StatusTerm)
    /// `done today`: finished since today's day start (R-VIEW-2).
    case doneToday
    case repeatFrequency(RepeatRule.Frequency)
    /// `parent:12`: a direct subtask of task 12.
    case parent(Int)
    case estimate(Comparison, minutes: Int)
    /// `due < fri`, `created > 30 days ago`, `completed >= 2026-06-01`.
    case date(DateField, Comparison, DateValueSyntax)
    /// `created @this week`, `done @this week` (completed in the window, and done).
    case dateIn(DateField, WindowSyntax, doneOnly: Bool)
    /// Bare words and quoted text: every word must appear (R-FIL-3). `quoted` when written in
    /// quotes or after `search`.
    case words([String], quoted: Bool)
    /// `title ~ /re/i`; `at` is where `/re/` is written, the slashes included.
    case regex(RegexField, RegexPattern, at: SourceRange)
    /// `filter:NAME`, expanded when bound.
    case saved(String)
}
