// A filter written back as text: normalised, with windows as concrete ranges of local time in
// the account zone (`explain FILTER`), and saved-filter references found and renamed.

import Foundation

/// Prints filters.
public struct FilterText: Sendable {
    public var zone: Zone
    public var dayStart: WallTime
    public var hourCycle: HourCycle

    func instant(_ day: Int) -> String {
        let d = CivilDate(dayNumber: day)
        return "\(TimeText.shortDate(d)) \(TimeText.time(dayStart, .h24))"
    }

    /// `(#errand and +Home) or due < [Fri Jun 19 00:00]`.
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

    func term(_ t: FilterTerm) -> String {
        switch t {
        case .tag(let n): return "#" + n
        case .project(let n): return n.contains(" ") ? "+\"\(n)\"" : "+" + n
        case .area(let n): return "area:" + n
        case .note(let n): return "[[\(n)]]"
        case .priority(let c, let p): return "priority \(c.rawValue) \(p.name)"
        case .window(let w): return "due in [\(instant(w.start)), \(instant(w.end))) \(zone.identifier)"
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
        case .due(let c, let day):
            switch c {
            case .less: return "due before \(instant(day))"
            case .lessOrEqual: return "due before \(instant(day + 1))"
            case .greater: return "due from \(instant(day + 1))"
            case .greaterOrEqual: return "due from \(instant(day))"
            case .equal: return "due in [\(instant(day)), \(instant(day + 1)))"
            }
        case .estimate(let c, let m): return "estimate \(c.rawValue) \(m)m"
        case .created(let c, let i): return "created \(c.rawValue) \(TimeText.isoInstant(i, in: zone))"
        case .words(let ws): return "search \"" + ws.joined(separator: " ") + "\""
        case .regex(let f, let re): return "\(f.rawValue) ~ /\(re.pattern)/"
        case .saved(let n, let e): return "filter:\(n.contains(" ") ? "\"\(n)\"" : n) (" + describe(e) + ")"
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
