// Matching a command's output against its expected block: literal lines, ` (re)` PCRE2 lines,
// ` (glob)` lines, `...` for any number of lines, `<BLANKLINE>`, and `! CODE [message]` errors.
// As in cram, a pattern line that equals the actual line literally matches too. Under
// `@format json` each expected JSON value is compared as a value (ExpectedJSON.swift), and
// `@unordered` blocks are matched as a multiset by a maximum bipartite matching.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// One expected line, read.
enum ExpectedLine {
    case literal(String)
    case regex(RegexPattern?, String)
    case glob(String, String)
    case anyLines
    /// `! CODE` without a message: any message of that code.
    case errorCode(String)

    init(_ raw: String) {
        if raw == "..." {
            self = .anyLines
        } else if raw == "<BLANKLINE>" {
            self = .literal("")
        } else if raw.hasSuffix(" (re)") {
            let p = String(raw.dropLast(5))
            self = .regex(try? RegexPattern(p, whole: true), raw)
        } else if raw.hasSuffix(" (glob)") {
            self = .glob(String(raw.dropLast(7)), raw)
        } else if raw.hasPrefix("! "), raw.split(separator: " ").count == 2 {
            self = .errorCode(String(raw.dropFirst(2)))
        } else {
            self = .literal(raw)
        }
    }

    /// Whether one actual line satisfies this expected line (`...` matches no single line here).
    func matches(_ actual: String) -> Bool {
        switch self {
        case .literal(let s): return s == actual
        case .regex(let re, let raw):
            if raw == actual { return true }
            return re?.matches(actual) ?? false
        case .glob(let g, let raw):
            return raw == actual || ExpectedLine.glob(Array(g.unicodeScalars), Array(actual.unicodeScalars))
        case .anyLines: return false
        case .errorCode(let code): return actual == "! \(code)" || actual.hasPrefix("! \(code) ")
        }
    }

    /// `*` any run, `?` one character, `\` escapes the next.
    static func glob(_ p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
        enum Item { case star, any, scalar(Unicode.Scalar) }
        var items: [Item] = []
        var i = 0
        while i < p.count {
            if p[i] == "*" { items.append(.star) }
            else if p[i] == "?" { items.append(.any) }
            else if p[i] == "\\", i + 1 < p.count { items.append(.scalar(p[i + 1])); i += 1 }
            else { items.append(.scalar(p[i])) }
            i += 1
        }
        return wildcard(items.count, s.count, star: { if case .star = items[$0] { return true }; return false }) { k, j in
            switch items[k] {
            case .star: return false
            case .any: return true
            case .scalar(let c): return s[j] == c
            }
        }
    }

    /// Wildcard matching with no recursion and no table: item `k` of the pattern is a `star`
    /// (any run) or matches one subject item when `one(k, j)`. The greedy walk keeps one place
    /// to come back to (the last star), which is enough for stars: at worst pattern × subject
    /// steps, whatever the lengths (a transcript block of 100,000 lines, a glob of 100,000
    /// characters).
    static func wildcard(_ p: Int, _ s: Int, star: (Int) -> Bool, _ one: (Int, Int) -> Bool) -> Bool {
        var i = 0
        var j = 0
        var starAt = -1
        var mark = 0
        while j < s {
            if i < p, !star(i), one(i, j) {
                i += 1
                j += 1
            } else if i < p, star(i) {
                starAt = i
                mark = j
                i += 1
            } else if starAt >= 0 {
                i = starAt + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p, star(i) { i += 1 }
        return i == p
    }
}

/// One item of an expected block: a line, or under `@format json` a JSON value, which may be
/// written over several lines.
enum ExpectedItem {
    case line(ExpectedLine)
    case json(JSONValue)

    var isAnyLines: Bool {
        if case .line(.anyLines) = self { return true }
        return false
    }

    /// Whether one actual line (and its JSON value, when it has one) satisfies this item.
    func matches(_ actual: String, _ value: JSONValue?) -> Bool {
        switch self {
        case .line(let l): return l.matches(actual)
        case .json(let e): return value.map { ExpectedJSON.matches(e, $0) } ?? false
        }
    }
}

/// An expected block, ready to compare.
struct ExpectedOutput {
    let items: [ExpectedItem]
    /// The lines of the block each item was written on.
    let spans: [Range<Int>]
    /// The block as written.
    let raw: [String]

    /// Reads a block; under `@format json` (`json`) each JSON value is one item, whatever its
    /// key order and layout, and lines that are no JSON (`...`, a `(re)` line) items as usual.
    init(_ raw: [String], json: Bool = false) {
        self.raw = raw
        var items: [ExpectedItem] = []
        var spans: [Range<Int>] = []
        if json {
            for (range, value) in ExpectedJSON.values(raw) {
                if let value {
                    items.append(.json(value))
                } else {
                    items.append(.line(ExpectedLine(raw[range.lowerBound])))
                }
                spans.append(range)
            }
        } else {
            items = raw.map { .line(ExpectedLine($0)) }
            spans = raw.indices.map { $0..<($0 + 1) }
        }
        self.items = items
        self.spans = spans
    }

    var hasJSON: Bool { items.contains { if case .json = $0 { return true }; return false } }

    /// The JSON values of the actual lines, when the block holds JSON items (nil for a line that
    /// is no JSON).
    func values(_ actual: [String]) -> [JSONValue?] {
        guard hasJSON else { return Array(repeating: nil, count: actual.count) }
        return actual.map { try? JSONParser.parse($0) }
    }

    /// True when the actual lines satisfy the block, in order (or as a multiset when unordered).
    func matches(_ actual: [String], unordered: Bool) -> Bool {
        let v = values(actual)
        if unordered { return unorderedMatching(actual, v).complete }
        // `...` is a star over lines, as `*` is over characters.
        return ExpectedLine.wildcard(items.count, actual.count, star: { items[$0].isAnyLines }) {
            items[$0].matches(actual[$1], v[$1])
        }
    }

    /// The most expected items that can each take a different actual line, in any order: a
    /// maximum bipartite matching (a line matched literally by one item and by a pattern of
    /// another goes where both can be satisfied). `pairs[i]` is the actual line of item i; the
    /// block matches when every item other than `...` has one and, without `...`, no actual
    /// line is left.
    struct Matching {
        var pairs: [Int?]
        var complete: Bool
        /// Actual lines no item took.
        var unmatched: [Int]
    }

    func unorderedMatching(_ actual: [String], _ values: [JSONValue?]) -> Matching {
        var pairs = [Int?](repeating: nil, count: items.count)
        var owner = [Int?](repeating: nil, count: actual.count)
        // Literal lines first, through a table: each takes a line equal to it. Copies of a line
        // are alike, so this never costs a pattern the line it needs (any matching can swap).
        var free: [String: [Int]] = [:]
        for (j, a) in actual.enumerated().reversed() { free[a, default: []].append(j) }
        var patterns: [Int] = []
        for (i, item) in items.enumerated() {
            if item.isAnyLines { continue }
            if case .line(.literal(let s)) = item {
                if let j = free[s]?.popLast() {
                    pairs[i] = j
                    owner[j] = i
                }
            } else {
                patterns.append(i)
            }
        }
        // Then the patterns: first fit, and for an item that finds no free line, an augmenting
        // path (Kuhn's algorithm, as a breadth-first search so no stack grows with the block):
        // lines whose items can move to another line are freed for it. Only lines no literal
        // took are offered; each item's lines are listed when first needed.
        let open = actual.indices.filter { owner[$0] == nil }
        var edges: [Int: [Int]] = [:]
        func lines(of i: Int) -> [Int] {
            if let e = edges[i] { return e }
            let e = open.filter { items[i].matches(actual[$0], values[$0]) }
            edges[i] = e
            return e
        }
        var stuck: [Int] = []
        for i in patterns {
            if let j = open.first(where: { owner[$0] == nil && items[i].matches(actual[$0], values[$0]) }) {
                pairs[i] = j
                owner[j] = i
            } else {
                stuck.append(i)
            }
        }
        for root in stuck {
            var via: [Int: Int] = [:]   // line → the item that reached it
            var queue = [root]
            var head = 0
            var end: Int? = nil
            search: while head < queue.count {
                let u = queue[head]
                head += 1
                for j in lines(of: u) where via[j] == nil {
                    via[j] = u
                    guard let o = owner[j] else { end = j; break search }
                    queue.append(o)
                }
            }
            // Flip the path: each item on it takes the line it reached, its old line going on.
            var j = end
            while let line = j, let u = via[line] {
                let previous = pairs[u]
                pairs[u] = line
                owner[line] = u
                j = u == root ? nil : previous
            }
        }
        let wildcard = items.contains { $0.isAnyLines }
        let unmatched = actual.indices.filter { owner[$0] == nil }
        let allTaken = items.indices.allSatisfy { items[$0].isAnyLines || pairs[$0] != nil }
        return Matching(pairs: pairs, complete: allTaken && (wildcard || unmatched.isEmpty), unmatched: unmatched)
    }

    /// An item as a diff shows it: its lines, a value over several lines folded into one.
    func display(_ i: Int) -> String {
        spans[i].map { raw[$0].trimmedSpaces }.joined(separator: " ")
    }

    /// Whether an expected item (by index) and an actual line count as the same for a diff.
    func same(_ i: Int, _ actual: String, _ value: JSONValue?) -> Bool { items[i].matches(actual, value) }
}
