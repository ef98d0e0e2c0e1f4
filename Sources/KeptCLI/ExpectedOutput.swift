// Matching a command's output against its expected block: literal lines, ` (re)` PCRE2 lines,
// ` (glob)` lines, `...` for any number of lines, `<BLANKLINE>`, and `! CODE [message]` errors.
// As in cram, a pattern line that equals the actual line literally matches too.

import KeptCore

/// One expected line, read.
enum ExpectedLine {
    case literal(String)
    case regex(RegexPattern?, String)
    case glob(String, String)
    case anyLines
    /// `! E0101` without a message: any message of that code.
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

/// An expected block, ready to compare.
struct ExpectedOutput {
    let lines: [ExpectedLine]

    init(_ raw: [String]) {
        lines = raw.map(ExpectedLine.init)
    }

    /// True when the actual lines satisfy the block, in order (or as a multiset when unordered).
    func matches(_ actual: [String], unordered: Bool) -> Bool {
        if unordered { return matchesUnordered(actual) }
        // `...` is a star over lines, as `*` is over characters.
        return ExpectedLine.wildcard(lines.count, actual.count, star: { if case .anyLines = lines[$0] { return true }; return false }) {
            lines[$0].matches(actual[$1])
        }
    }

    /// Each expected line takes one actual line, in any order; `...` absorbs what is left.
    private func matchesUnordered(_ actual: [String]) -> Bool {
        var left = actual
        var wildcard = false
        for l in lines {
            if case .anyLines = l {
                wildcard = true
                continue
            }
            guard let k = left.firstIndex(where: { l.matches($0) }) else { return false }
            left.remove(at: k)
        }
        return wildcard || left.isEmpty
    }

    /// Whether an expected line (by index) and an actual line count as the same for a diff.
    func same(_ i: Int, _ actual: String) -> Bool { lines[i].matches(actual) }
}
