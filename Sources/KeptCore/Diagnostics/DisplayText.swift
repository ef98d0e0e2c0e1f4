// Text for a terminal or a transcript. A title, a note or a script can hold control characters
// (escape, bell, NUL, DEL, the C1 controls); printed raw, a store could move the cursor, clear
// the screen or retitle the window. They are written as escapes instead: `\e` for ESC, `\u0007`
// for the others. Tabs and line breaks stay (a description may hold lines). JSON output is not
// touched: its writer escapes what JSON needs and the text stays as it is.

/// Escaping of control characters in text meant for people.
public enum DisplayText {
    /// Whether a scalar is escaped: C0 controls but tab and line feed, DEL, and C1 controls.
    @inline(__always)
    static func isControl(_ v: UInt32) -> Bool {
        (v < 0x20 && v != 0x09 && v != 0x0A) || (v >= 0x7F && v <= 0x9F)
    }

    /// The text with each control character written as an escape; the same string (no copy)
    /// when it has none, which is nearly always.
    public static func escaped(_ s: String) -> String {
        // The bytes tell: a C0 control or DEL is one byte, a C1 control is 0xC2 then 0x80...0x9F.
        var clean = true
        var previous: UInt8 = 0
        for b in s.utf8 {
            if (b < 0x20 && b != 0x09 && b != 0x0A) || b == 0x7F || (previous == 0xC2 && b >= 0x80 && b <= 0x9F) {
                clean = false
                break
            }
            previous = b
        }
        if clean { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        for u in s.unicodeScalars {
            let v = u.value
            guard isControl(v) else {
                out.unicodeScalars.append(u)
                continue
            }
            if v == 0x1B {
                out += "\\e"
            } else {
                let hex = String(v, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out
    }

    /// One scalar of a line quoted under a caret, shown in one column: a control character
    /// becomes its Control Pictures symbol (␛, ␇, ␀) or U+FFFD, so the caret stays aligned.
    static func picture(_ u: Unicode.Scalar) -> Unicode.Scalar {
        let v = u.value
        guard isControl(v) else { return u }
        if v < 0x20 { return Unicode.Scalar(0x2400 + v) ?? "\u{FFFD}" }
        if v == 0x7F { return "\u{2421}" }
        return "\u{FFFD}"
    }
}
