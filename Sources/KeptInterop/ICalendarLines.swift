// iCalendar content lines (RFC 5545 section 3.1): unfolding and folding at 75 octets, CRLF,
// parameters (quoted where they must be), and TEXT escaping (backslash, semicolon, comma,
// newline).

import KeptRules
import KeptDomain
import KeptFiles

/// One content line: `NAME;PARAM=VALUE:value`.
package struct ContentLine {
    package var name: String
    package var params: [(String, String)] = []
    package var value: String
    /// The line the property starts on in its file (0 when made here).
    package var line = 0

    package init(_ name: String, _ value: String, params: [(String, String)] = []) {
        self.name = name
        self.value = value
        self.params = params
    }

    package func param(_ n: String) -> String? { params.first { $0.0 == n }?.1 }

    /// Parses one unfolded line; nil with the column of the fault.
    package static func parse(_ s: String, line: Int) -> Result<ContentLine, ImportError> {
        let b = Array(s.utf8)
        var k = 0
        func isNameByte(_ c: UInt8) -> Bool {
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D
        }
        while k < b.count, isNameByte(b[k]) { k += 1 }
        func fail(_ p: ImportError.Problem, _ at: Int) -> Result<ContentLine, ImportError> {
            .failure(ImportError(p, line: line, column: String(decoding: b[0..<min(at, b.count)], as: UTF8.self).count + 1))
        }
        guard k > 0 else { return fail(.propertyNameMissing, 0) }
        var cl = ContentLine(String(decoding: b[0..<k], as: UTF8.self).uppercased(), "")
        cl.line = line
        while k < b.count, b[k] == 0x3B {
            k += 1
            let ns = k
            while k < b.count, isNameByte(b[k]) { k += 1 }
            guard k > ns, k < b.count, b[k] == 0x3D else { return fail(.parameterNotNameValue(property: cl.name), k) }
            let pname = String(decoding: b[ns..<k], as: UTF8.self).uppercased()
            k += 1
            var values: [String] = []
            repeat {
                if k < b.count, b[k] == 0x2C { k += 1 }
                if k < b.count, b[k] == 0x22 {
                    let vs = k + 1
                    k = vs
                    while k < b.count, b[k] != 0x22 { k += 1 }
                    guard k < b.count else { return fail(.quotedParameterNotClosed(property: cl.name), vs - 1) }
                    values.append(String(decoding: b[vs..<k], as: UTF8.self))
                    k += 1
                } else {
                    let vs = k
                    while k < b.count, b[k] != 0x3B, b[k] != 0x3A, b[k] != 0x2C { k += 1 }
                    values.append(String(decoding: b[vs..<k], as: UTF8.self))
                }
            } while k < b.count && b[k] == 0x2C
            cl.params.append((pname, values.joined(separator: ",")))
        }
        guard k < b.count, b[k] == 0x3A else { return fail(.colonExpected(property: cl.name), k) }
        cl.value = String(decoding: b[(k + 1)...], as: UTF8.self)
        return .success(cl)
    }

    /// The line as written: folded at 75 octets (never inside a character), ending in CRLF.
    package func append(to out: inout [UInt8], fold: Bool = true) {
        var text = Array(name.utf8)
        for (n, v) in params {
            text.append(0x3B)
            text.append(contentsOf: n.utf8)
            text.append(0x3D)
            let clean = v.filter { $0 != "\"" && !$0.isNewline }
            if clean.contains(where: { $0 == ";" || $0 == ":" || $0 == "," }) {
                text.append(0x22); text.append(contentsOf: clean.utf8); text.append(0x22)
            } else {
                text.append(contentsOf: clean.utf8)
            }
        }
        text.append(0x3A)
        text.append(contentsOf: value.utf8)
        guard fold else {
            out.append(contentsOf: text)
            return
        }
        var start = 0
        var limit = 75
        while text.count - start > limit {
            var cut = start + limit
            while cut > start, text[cut] & 0xC0 == 0x80 { cut -= 1 }
            out.append(contentsOf: text[start..<cut])
            out.append(contentsOf: [0x0D, 0x0A, 0x20])
            start = cut
            limit = 74
        }
        out.append(contentsOf: text[start...])
        out.append(contentsOf: [0x0D, 0x0A])
    }

    /// TEXT escaped (RFC 5545 section 3.3.11). TEXT holds no control character but HTAB, and
    /// has no escape for one: the others are left out, so strict readers accept the line.
    package static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            case "\t": out.append(c)
            default:
                if let v = c.asciiValue, v < 0x20 || v == 0x7F { break }
                out.append(c)
            }
        }
        return out
    }

    /// TEXT unescaped; a list value split at its unescaped commas first when `list`.
    package static func unescape(_ s: String) -> String {
        // On the bytes: String.contains(String) is Foundation's search, costly per line.
        guard s.utf8.contains(0x5C) else { return s }
        var out = ""
        var esc = false
        for c in s {
            if esc {
                switch c {
                case "n", "N": out.append("\n")
                default: out.append(c)
                }
                esc = false
            } else if c == "\\" {
                esc = true
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// The items of a TEXT list (CATEGORIES), unescaped.
    package static func list(_ s: String) -> [String] {
        var items: [String] = []
        var cur = ""
        var esc = false
        for c in s {
            if esc { cur.append("\\"); cur.append(c); esc = false }
            else if c == "\\" { esc = true }
            else if c == "," { items.append(cur); cur = "" }
            else { cur.append(c) }
        }
        items.append(cur)
        return items.map { unescape($0).trimmedSpaces }.filter { !$0.isEmpty }
    }
}

/// Unfolded content lines of a file, each with the number of the line it starts on.
package struct UnfoldingReader {
    package var lines: LineReader
    package var held: (String, Int)?

    package init(_ input: ByteInput) { lines = LineReader(input) }

    package mutating func next() throws(ImportError) -> (String, Int)? {
        var cur = held
        held = nil
        if cur == nil {
            repeat {
                guard let l = try lines.next() else { return nil }
                cur = (try utf8Line(l, line: lines.line), lines.line)
            } while cur?.0.isEmpty == true
        }
        while let l = try lines.next() {
            let t = try utf8Line(l, line: lines.line)
            if let f = t.first, f == " " || f == "\t" {
                cur?.0 += t.dropFirst()
            } else {
                if !t.isEmpty { held = (t, lines.line) }
                break
            }
        }
        return cur
    }
}
