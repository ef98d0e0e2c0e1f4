// A filter's syntax tree as `parse filter` prints it: one line per node, indented, with each
// term's byte range in the filter and its words; nothing is bound, so names and dates are shown
// as written (a project is checked and a date resolved only when the filter runs).

import KeptRules

extension FilterSyntax {
    /// The tree as lines: a node, its range relative to `base` and its source text.
    public func lines(source: StatementSource, base: Int) -> [(indent: Int, node: String, range: SourceRange?, text: String)] {
        var out: [(Int, String, SourceRange?, String)] = []
        func walk(_ s: FilterSyntax, _ depth: Int) {
            switch s {
            case .term(let t):
                out.append((depth, t.kind.described, SourceRange(start: t.range.start - base, end: t.range.end - base), source.rawText(t.range)))
            case .and(let xs):
                out.append((depth, "and", nil, ""))
                for x in xs { walk(x, depth + 1) }
            case .or(let xs):
                out.append((depth, "or", nil, ""))
                for x in xs { walk(x, depth + 1) }
            case .not(let x, let r):
                out.append((depth, "not", SourceRange(start: r.start - base, end: r.end - base), source.rawText(r)))
                walk(x, depth + 1)
            }
        }
        walk(self, 0)
        return out
    }
}

extension TermKind {
    /// What the term says, unbound.
    public var described: String {
        switch self {
        case .tag(let n): return n.contains("*") ? "tag pattern \(n)" : "tag \(n)"
        case .project(let n): return "project \(n)"
        case .area(let n): return "area \(n)"
        case .note(let n): return "note \(n)"
        case .priority(let c, let p): return "priority \(c.rawValue) \(p.name)"
        case .window(let w): return "due in \(w.described)"
        case .predicate(let p): return p.rawValue
        case .notPredicate(let p): return "not " + p.rawValue
        case .status(let s):
            switch s {
            case .open: return "status open"
            case .done: return "status done"
            case .archived: return "status archived"
            case .any: return "status any"
            case .named(let n): return "status \(n)"
            }
        case .doneToday: return "done today"
        case .repeatFrequency(let f): return "repeat \(f.rawValue)"
        case .parent(let id): return "parent \(id)"
        case .estimate(let c, let m): return "estimate \(c.rawValue) \(m)m"
        case .date(let f, let c, let v): return "\(f.rawValue) \(c.rawValue) \(v.described)"
        case .dateIn(let f, let w, let doneOnly): return doneOnly ? "done, completed in \(w.described)" : "\(f.rawValue) in \(w.described)"
        case .words(let ws, let quoted): return "search \"\(ws.joined(separator: " "))\"" + (quoted ? "" : " (bare words)")
        case .regex(let f, let re, _): return "\(f.rawValue) ~ /\(re.pattern)/"
        case .saved(let n): return "saved filter \(n)"
        }
    }
}

extension WindowSyntax {
    public var described: String {
        switch self {
        case .today: return "@today"
        case .tomorrow: return "@tomorrow"
        case .yesterday: return "@yesterday"
        case .thisWeek: return "@this week"
        case .nextWeek: return "@next week"
        case .thisMonth: return "@this month"
        case .nextMonth: return "@next month"
        case .nextDays(let n): return "@next \(n) days"
        case .day(let v): return "@" + v.described
        case .range(let a, let b): return "@" + a.described + ".." + b.described
        }
    }
}

extension DateValueSyntax {
    public var described: String {
        switch self {
        case .phrase(_, let t): return "'\(t)'"
        case .daysAgo(let n, let u, _): return "\(n) \(u.rawValue)\(n == 1 ? "" : "s") ago"
        case .minutesAgo(let m, _): return "\(m) minute\(m == 1 ? "" : "s") ago"
        }
    }
}
