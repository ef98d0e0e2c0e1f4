// A filter written back as text: normalised, with windows as concrete ranges of local time in
// the account zone (`explain FILTER`), and saved-filter references found and renamed.

import Foundation

/// Prints filters.
public struct FilterText: Sendable {
    public var context: FilterContext
    public var hourCycle: HourCycle

    public init(context: FilterContext, hourCycle: HourCycle) {
        self.context = context
        self.hourCycle = hourCycle
    }

    package var zone: Zone { context.zone }

    /// The local date and time account day `day` starts at: `Fri Jun 19 00:00`.
    package func instant(_ day: Int) -> String {
        let l = zone.local(at: context.start(ofDay: day))
        return "\(TimeText.shortDate(l.date)) \(TimeText.time(l.time, .h24))"
    }

    /// `(#errand and +Home) or due before Fri Jun 19 00:00`.
    public func describe(_ e: FilterExpr) -> String {
        switch e {
        case .term(let t): return term(t)
        case .and(let xs): return xs.map { x in if case .or = x { return "(" + describe(x) + ")" } else { return describe(x) } }.joined(separator: " and ")
        case .or(let xs): return xs.map(describe).joined(separator: " or ")
        case .not(let x):
            if case .term = x { return "not " + describe(x) }
            return "not (" + describe(x) + ")"
        }
    }

    /// A window of days as the instants it runs between: `in [a, b) Zone`, `before b`, `from a`.
    package func window(_ w: DayWindow) -> String {
        switch (w.start == Int.min, w.end == Int.max) {
        case (true, true): return "at any time"
        case (true, false): return "before \(instant(w.end))"
        case (false, true): return "from \(instant(w.start))"
        case (false, false): return "in [\(instant(w.start)), \(instant(w.end))) \(zone.identifier)"
        }
    }

    package func term(_ t: FilterTerm) -> String {
        switch t {
        case .tag(let n), .tagPattern(let n): return "#" + n
        case .project(let n): return n.contains(" ") ? "+\"\(n)\"" : "+" + n
        case .area(let n): return "area:" + n
        case .note(let n): return "[[\(n)]]"
        case .priority(let c, let p): return "priority \(c.rawValue) \(p.name)"
        case .window(let w): return "due " + window(w)
        case .due(let c, let day): return "due " + window(DayWindow(c, day))
        case .overdue: return "overdue"
        case .noDue: return "no due"
        case .hasDue: return "has due"
        case .hasTime: return "has time"
        case .repeating: return "repeating"
        case .repeatFrequency(let f): return "repeat:" + f.rawValue
        case .status(let s):
            switch s {
            case .open: return "open"
            case .done: return "done"
            case .archived: return "archived"
            case .any: return "status:any"
            case .named(let n): return "status:" + n
            }
        case .doneToday: return "done today"
        case .held: return "held"
        case .estimate(let c, let m): return "estimate \(c.rawValue) \(m)m"
        case .instant(let f, let c, let i): return "\(f.rawValue) \(c.rawValue) \(TimeText.isoInstant(i, in: zone))"
        case .instantIn(let f, let w): return "\(f.rawValue) " + window(w)
        case .hasSubtasks: return "has subtasks"
        case .isSubtask: return "is subtask"
        case .blocked: return "blocked"
        case .blocking: return "blocking"
        case .hasReminder: return "has reminder"
        case .hasEstimate: return "has estimate"
        case .hasNotes: return "has notes"
        case .parent(let id): return "parent:\(id)"
        case .words(let ws): return "search \"" + ws.joined(separator: " ") + "\""
        case .regex(let f, let re): return "\(f.rawValue) ~ /\(re.pattern)/"
        case .saved(let n, let e): return "filter:\(n.contains(" ") ? "\"\(n)\"" : n) (" + describe(e) + ")"
        }
    }

    /// The word searches of a filter, through its saved filters: what `explain` lists, so a
    /// bare word is never a search no one sees.
    public static func searches(_ e: FilterExpr) -> [[String]] {
        switch e {
        case .term(.words(let ws)): return [ws]
        case .term(.saved(_, let x)): return searches(x)
        case .term: return []
        case .and(let xs), .or(let xs): return xs.flatMap(searches)
        case .not(let x): return searches(x)
        }
    }

    /// Whether a filter's text names a saved filter.
    public static func refers(_ text: String, to name: String) -> Bool {
        rename(text, from: name, to: "\u{1}") != text
    }

    /// The text with `filter:OLD` (or `filter:"OLD"`) made `filter:NEW`.
    public static func rename(_ text: String, from old: String, to new: String) -> String {
        let newRef = new.contains(" ") ? "filter:\"\(new)\"" : "filter:" + new
        var out = text
        for form in ["filter:\"\(old)\"", "filter:" + old] {
            var result = ""
            var rest = Substring(out)
            while let r = rest.range(of: form, options: .caseInsensitive) {
                let after = rest[r.upperBound...]
                // Only a whole name: `filter:Work` is not `filter:Workout`.
                if let c = after.first, c.isLetter || c.isNumber || c == "_" || c == "-" {
                    result += rest[..<r.upperBound]
                } else {
                    result += rest[..<r.lowerBound] + newRef
                }
                rest = after
            }
            out = result + rest
        }
        return out
    }
}
