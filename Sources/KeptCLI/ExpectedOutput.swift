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
        var memo = [Int: Bool]()
        func m(_ i: Int, _ j: Int) -> Bool {
            let key = i * (s.count + 1) + j
            if let v = memo[key] { return v }
            var r: Bool
            if i == p.count {
                r = j == s.count
            } else if p[i] == "*" {
                r = m(i + 1, j) || (j < s.count && m(i, j + 1))
            } else if p[i] == "\\", i + 1 < p.count {
                r = j < s.count && s[j] == p[i + 1] && m(i + 2, j + 1)
            } else if p[i] == "?" {
                r = j < s.count && m(i + 1, j + 1)
            } else {
                r = j < s.count && s[j] == p[i] && m(i + 1, j + 1)
            }
            memo[key] = r
            return r
        }
        return m(0, 0)
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
        var memo = [Int: Bool]()
        func m(_ i: Int, _ j: Int) -> Bool {
            let key = i * (actual.count + 1) + j
            if let v = memo[key] { return v }
            var r: Bool
            if i == lines.count {
                r = j == actual.count
            } else if case .anyLines = lines[i] {
                r = m(i + 1, j) || (j < actual.count && m(i, j + 1))
            } else {
                r = j < actual.count && lines[i].matches(actual[j]) && m(i + 1, j + 1)
            }
            memo[key] = r
            return r
        }
        return m(0, 0)
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
