// `@format json` blocks compare values, not text: an expected JSON value matches an actual line
// whose JSON is the same value, whatever the key order or the layout (a value may be written
// pretty-printed over several lines), and a string in the expected value may be a pattern
// (`"… (re)"`, `"… (glob)"`), as a whole expected line may.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum ExpectedJSON {
    /// The items of a JSON block: each JSON value with the lines it was written on, or a line
    /// that is no JSON (`...`, a `(re)` or `(glob)` line, an `! CODE` line) with a nil value.
    static func values(_ raw: [String]) -> [(Range<Int>, JSONValue?)] {
        var out: [(Range<Int>, JSONValue?)] = []
        var k = 0
        while k < raw.count {
            guard !isLinePattern(raw[k]) else {
                out.append((k..<(k + 1), nil))
                k += 1
                continue
            }
            // A value runs to the line where its brackets close (within `maxLines`).
            var depth = 0
            var inString = false
            var escaped = false
            var end = k
            var closed = false
            while end < min(raw.count, k + maxLines) {
                for c in raw[end].utf8 {
                    if inString {
                        if escaped { escaped = false }
                        else if c == 0x5C { escaped = true }
                        else if c == 0x22 { inString = false }
                        continue
                    }
                    switch c {
                    case 0x22: inString = true
                    case 0x7B, 0x5B: depth += 1
                    case 0x7D, 0x5D: depth -= 1
                    default: break
                    }
                }
                end += 1
                if depth <= 0, !inString { closed = true; break }
            }
            let text = raw[k..<end].joined(separator: "\n")
            if closed, !isLinePattern(raw[end - 1]), let v = try? JSONParser.parse(text) {
                out.append((k..<end, v))
                k = end
            } else {
                // Not JSON after all: the line is read as an expected line.
                out.append((k..<(k + 1), nil))
                k += 1
            }
        }
        return out
    }

    /// The most lines one pretty-printed value may take.
    static let maxLines = 1000

    /// A line that is a pattern of the line as a whole, never a JSON value.
    static func isLinePattern(_ line: String) -> Bool {
        line == "..." || line == "<BLANKLINE>" || line.hasSuffix(" (re)") || line.hasSuffix(" (glob)") || line.hasPrefix("! ")
    }

    /// Whether an actual value is the expected one: objects with the same keys (in any order),
    /// arrays element by element, numbers by value, strings literally or by their pattern.
    static func matches(_ e: JSONValue, _ a: JSONValue) -> Bool {
        switch (e, a) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)):
            if x.text == y.text { return true }
            if let p = x.int, let q = y.int { return p == q }
            if let p = x.double, let q = y.double { return p == q }
            return false
        case (.string(let x), .string(let y)):
            if x == y { return true }
            if x.hasSuffix(" (re)") || x.hasSuffix(" (glob)") { return ExpectedLine(x).matches(y) }
            return false
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { matches($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.members.allSatisfy { m in y[m.key].map { matches(m.value, $0) } ?? false }
        default:
            return false
        }
    }
}
