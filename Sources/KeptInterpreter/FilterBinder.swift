// The second stage: a filter's syntax bound against a store and a clock (docs/FILTERS.md,
// "Stages"). Project names must exist, saved filters are read and bound in place (a cycle is
// refused with its chain), date phrases resolve at now, windows become account days, and a date
// compared with an instant (created, modified, completed, deleted) becomes the instant its day
// starts. The result is a FilterExpr; nothing here reads a task.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a filter is bound against.
public struct FilterScope: Sendable {
    public var projects: [String]
    public var saved: [SavedFilter]
    public var dates: DateContext
    public var clock: FilterContext

    public init(projects: [String], saved: [SavedFilter], dates: DateContext, clock: FilterContext) {
        self.projects = projects
        self.saved = saved
        self.dates = dates
        self.clock = clock
    }
}

/// Binds filter syntax.
public struct FilterBinder {
    package let scope: FilterScope
    /// The file errors point into: the statement's (a saved filter's own errors are reported at
    /// the `filter:NAME` that uses it).
    package let file: SourceFile
    /// The saved filters being expanded, to catch a cycle.
    package var visiting: [String]
    /// Where the first term about deleted tasks and the first about anything else were, so the
    /// two are never mixed (deleted tasks keep only their uid and when they went).
    package var deletedAt: SourceRange? = nil
    package var otherAt: SourceRange? = nil

    public init(scope: FilterScope, file: SourceFile, visiting: [String] = []) {
        self.scope = scope
        self.file = file
        self.visiting = visiting
    }

    package var today: CivilDate { scope.dates.today }

    /// A filter's text read and bound in one go (tests, benchmarks, fuzzing); its warnings dropped.
    public static func bind(_ text: String, name: String, scope: FilterScope) -> Result<FilterExpr, Diagnostic> {
        switch FilterParser.parse(text, name: name) {
        case .failure(let d): return .failure(d)
        case .success(let p):
            var b = FilterBinder(scope: scope, file: p.source.file)
            do throws(Diagnostic) { return .success(try b.bindFilter(p.syntax)) } catch { return .failure(error) }
        }
    }

    /// Binds a whole filter.
    public mutating func bindFilter(_ s: FilterSyntax) throws(Diagnostic) -> FilterExpr {
        let e = try bind(s)
        if let d = deletedAt, let o = otherAt { throw Catalog.deletedMixed(at: o, deleted: d, file: file) }
        return e
    }

    package mutating func bind(_ s: FilterSyntax) throws(Diagnostic) -> FilterExpr {
        switch s {
        case .and(let xs):
            var out: [FilterExpr] = []
            for x in xs { out.append(try bind(x)) }
            return .and(out)
        case .or(let xs):
            var out: [FilterExpr] = []
            for x in xs { out.append(try bind(x)) }
            return .or(out)
        case .not(let x, _): return .not(try bind(x))
        case .term(let t): return try bind(t)
        }
    }

    package mutating func note(_ r: SourceRange, deleted: Bool) {
        if deleted { deletedAt = deletedAt ?? r } else { otherAt = otherAt ?? r }
    }

    package mutating func bind(_ t: TermSyntax) throws(Diagnostic) -> FilterExpr {
        let r = t.range
        switch t.kind {
        case .date(.deleted, _, _), .dateIn(.deleted, _, _): note(r, deleted: true)
        case .saved: break
        default: note(r, deleted: false)
        }
        switch t.kind {
        case .tag(let n):
            return .term(n.contains("*") ? .tagPattern(n.lowercased()) : .tag(n))
        case .project(let name):
            guard let p = scope.projects.first(where: { $0.lowercased() == name.lowercased() }) else {
                throw Catalog.unknownProject(name, range: r, file: file, candidates: scope.projects, tagForm: file.text(r).hasPrefix("+"))
            }
            return .term(.project(p))
        case .area(let n): return .term(.area(n))
        case .note(let n): return .term(.note(n))
        case .priority(let c, let p): return .term(.priority(c, p))
        case .window(let w): return .term(.window(try window(w, r)))
        case .predicate(let p): return .term(FilterBinder.term(p))
        case .notPredicate(let p): return .not(.term(FilterBinder.term(p)))
        case .status(let s): return .term(.status(s))
        case .doneToday: return .term(.doneToday)
        case .repeatFrequency(let f): return .term(.repeatFrequency(f))
        case .parent(let id): return .term(.parent(id))
        case .estimate(let c, let m): return .term(.estimate(c, minutes: m))
        case .words(let ws, _): return .term(.words(ws))
        case .regex(let f, let re, _): return .term(.regex(field: f, re))
        case .saved(let name): return .term(try saved(name, r, depth: t.depth))
        case .dateIn(let f, let w, let doneOnly):
            let days = try window(w, r)
            guard let field = FilterBinder.instantField(f) else { return .term(.window(days)) }
            let e = FilterExpr.term(.instantIn(field, days))
            return doneOnly ? .and([.term(.status(.done)), e]) : e
        case .date(let f, let c, let v):
            guard let field = FilterBinder.instantField(f) else { return .term(.due(c, day: try day(v, r, whole: true))) }
            switch try value(v, r) {
            case .day(let d):
                // A day against an instant is the instant the day starts; `=` is the whole day.
                if c == .equal { return .term(.instantIn(field, DayWindow(start: d, end: d + 1))) }
                return .term(.instant(field, c, scope.clock.start(ofDay: d)))
            case .instant(let i):
                // `=` an instant is that minute.
                if c == .equal {
                    return .and([.term(.instant(field, .greaterOrEqual, i)), .term(.instant(field, .less, i.adding(seconds: 60)))])
                }
                return .term(.instant(field, c, i))
            }
        }
    }

    package static func instantField(_ f: DateField) -> InstantField? {
        switch f {
        case .due: return nil
        case .created: return .created
        case .modified: return .modified
        case .completed: return .completed
        case .deleted: return .deleted
        }
    }

    package static func term(_ p: FilterPredicate) -> FilterTerm {
        switch p {
        case .overdue: return .overdue
        case .repeating: return .repeating
        case .held: return .held
        case .blocked: return .blocked
        case .blocking: return .blocking
        case .noDue: return .noDue
        case .hasDue: return .hasDue
        case .hasTime: return .hasTime
        case .hasSubtasks: return .hasSubtasks
        case .isSubtask: return .isSubtask
        case .hasReminder: return .hasReminder
        case .hasEstimate: return .hasEstimate
        case .hasNotes: return .hasNotes
        }
    }

    // MARK: dates

    /// A bound date value: a whole account day, or an instant.
    package enum Bound {
        case day(Int)
        case instant(Instant)
    }

    /// The value of a date: a day (a phrase without a time, `-7d`, `30 days ago`) or an instant
    /// (a phrase with a time, `in 2 hours`, `-2h`, `2 hours ago`).
    package func value(_ v: DateValueSyntax, _ r: SourceRange) throws(Diagnostic) -> Bound {
        switch v {
        case .phrase(let spec, let text):
            switch DatePhrase.resolve(spec, in: scope.dates) {
            case .failure(let e): throw Catalog.dateInFilter(e, range: r, file: file, label: "not a date")
            case .success(let d):
                guard let time = d.due.time else { return .day(d.due.date.dayNumber) }
                _ = text
                return .instant(scope.clock.instant(d.due.date, time))
            }
        case .daysAgo(let n, let unit, let text):
            let d: CivilDate?
            switch unit {
            case .day: d = today.addingChecked(days: -n)
            case .week: d = today.addingChecked(days: -7 * n)
            case .month: d = today.addingChecked(months: -n)
            case .year: d = today.addingChecked(years: -n)
            }
            guard let d else { throw Catalog.dateBeforeCalendar(text, range: r, file: file) }
            return .day(d.dayNumber)
        case .minutesAgo(let m, let text):
            let i = scope.clock.now.adding(minutes: -m)
            guard Instant.supportedSeconds.contains(Int(clamping: i.seconds)) else {
                throw Catalog.dateBeforeCalendar(text, range: r, file: file)
            }
            return .instant(i)
        }
    }

    /// The account day of a date value where a day is meant (a due, a window): a value with a
    /// time of day is refused, since a window and the due's day are whole days.
    package func day(_ v: DateValueSyntax, _ r: SourceRange, whole: Bool) throws(Diagnostic) -> Int {
        switch try value(v, r) {
        case .day(let d): return d
        case .instant: throw Catalog.timeWhereDayIsMeant(v.text, range: r, file: file)
        }
    }

    /// The account days of a window.
    package func window(_ w: WindowSyntax, _ r: SourceRange) throws(Diagnostic) -> DayWindow {
        let t = today.dayNumber
        let rules = scope.dates.settings.day
        switch w {
        case .today: return DayWindow(start: t, end: t + 1)
        case .tomorrow: return DayWindow(start: t + 1, end: t + 2)
        case .yesterday: return DayWindow(start: t - 1, end: t)
        case .thisWeek, .nextWeek:
            var week = rules.startOfWeek(containing: today).dayNumber
            if case .nextWeek = w { week += 7 }
            return DayWindow(start: week, end: week + 7)
        case .thisMonth, .nextMonth:
            var m = today.firstOfMonth
            if case .nextMonth = w { m = m.adding(months: 1) }
            return DayWindow(start: m.dayNumber, end: m.adding(months: 1).dayNumber)
        case .nextDays(let n):
            // R-VIEW-1: the next N days start today.
            return DayWindow(start: t, end: t + n)
        case .day(let v):
            let d = try day(v, r, whole: true)
            return DayWindow(start: d, end: d + 1)
        case .range(let a, let b):
            let x = try day(a, r, whole: true), y = try day(b, r, whole: true)
            // Both ends are whole days: a..b covers a through b.
            guard x <= y else { throw Catalog.badRange(a.text + ".." + b.text, range: r, file: file) }
            return DayWindow(start: x, end: y + 1)
        }
    }

    // MARK: saved filters

    /// `filter:NAME`: the saved filter's own syntax, read and bound in place (R-FIL-5).
    package mutating func saved(_ name: String, _ r: SourceRange, depth: Int) throws(Diagnostic) -> FilterTerm {
        guard let f = scope.saved.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw Catalog.noSavedFilter(name, range: r, file: file, known: scope.saved.map(\.name))
        }
        if let k = visiting.firstIndex(where: { $0.lowercased() == f.name.lowercased() }) {
            throw Catalog.savedFilterCycle((visiting[k...] + [f.name]).joined(separator: " → "), range: r, file: file)
        }
        guard depth < Limits.filterDepth else { throw Catalog.filterTooDeep(file: file, range: r) }
        let parsed: ParsedFilter
        switch FilterParser.parse(f.filter, name: f.name, depth: depth + 1) {
        case .success(let p): parsed = p
        case .failure(let d): throw FilterBinder.reported(d, f.name, r, file)
        }
        var inner = FilterBinder(scope: scope, file: parsed.source.file, visiting: visiting + [f.name])
        do throws(Diagnostic) {
            let e = try inner.bind(parsed.syntax)
            if inner.deletedAt != nil { note(r, deleted: true) }
            if inner.otherAt != nil { note(r, deleted: false) }
            return .saved(f.name, e)
        } catch {
            throw FilterBinder.reported(error, f.name, r, file)
        }
    }

    /// An error inside a saved filter, where the statement uses it (Catalog.inSavedFilter).
    package static func reported(_ d: Diagnostic, _ name: String, _ r: SourceRange, _ file: SourceFile) -> Diagnostic {
        Catalog.inSavedFilter(name, d, range: r, file: file)
    }
}
