// Text for a terminal or a transcript. A title, a note or a script can hold control characters
// (escape, bell, NUL, DEL, the C1 controls); printed raw, a store could move the cursor, clear
// the screen or retitle the window. They are written as escapes instead: `\e` for ESC, `\u0007`
// for the others. Tabs and line breaks stay (a description may hold lines). Invisible format
// characters are escaped the same way (`\u202e`): a bidi override, isolate or mark can make a
// line read in another order than it is ("Trojan Source"), and a zero-width space, word joiner
// or BOM makes two titles that look alike differ. ZWNJ and ZWJ stay where they join two
// letters of a script past ASCII, marks or emoji (Persian, the Indic scripts and emoji
// sequences need them), and are escaped anywhere else. JSON output is not touched: its writer
// escapes what JSON needs and the text stays as it is.

import KeptRules

/// Escaping of control and invisible format characters in text meant for people.
public enum DisplayText {
    /// Whether a scalar is escaped: C0 controls but tab and line feed, DEL, and C1 controls.
    @inline(__always)
    package static func isControl(_ v: UInt32) -> Bool {
        (v < 0x20 && v != 0x09 && v != 0x0A) || (v >= 0x7F && v <= 0x9F)
    }

    /// Invisible format characters that are always escaped: the Arabic letter mark, the
    /// zero-width space, the left-to-right and right-to-left marks, the bidi embeddings and
    /// overrides (U+202A–U+202E), the word joiner, the bidi isolates (U+2066–U+2069) and the BOM.
    @inline(__always)
    package static func isInvisible(_ v: UInt32) -> Bool {
        switch v {
        case 0x061C, 0x200B, 0x200E, 0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    /// ZWNJ (U+200C) and ZWJ (U+200D): escaped unless they join (`canJoin` on both sides).
    @inline(__always)
    package static func isJoiner(_ v: UInt32) -> Bool { v == 0x200C || v == 0x200D }

    /// A scalar a joiner may stand beside: a letter or mark past ASCII, or an emoji.
    package static func canJoin(_ u: Unicode.Scalar?) -> Bool {
        guard let u, u.value >= 0x80 else { return false }
        let p = u.properties
        switch p.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return p.isAlphabetic || (p.isEmoji && u.value >= 0x2000)
        }
    }

    /// Whether the UTF-8 bytes may hold a scalar `escaped` writes otherwise: a control (one
    /// byte, or 0xC2 0x80...0x9F), U+061C (D8 9C), U+200B–U+200F and U+202A–U+202E (E2 80 …),
    /// U+2060 and U+2066–U+2069 (E2 81 …), U+FEFF (EF BB BF). Looks at each byte once.
    package static func mayNeedEscapes(_ s: String) -> Bool {
        var p1: UInt8 = 0, p2: UInt8 = 0
        for b in s.utf8 {
            if b < 0x80 {
                if (b < 0x20 && b != 0x09 && b != 0x0A) || b == 0x7F { return true }
            } else if p1 == 0xC2, b <= 0x9F {
                return true
            } else if p1 == 0xD8, b == 0x9C {
                return true
            } else if p2 == 0xE2, p1 == 0x80, (0x8B...0x8F).contains(b) || (0xAA...0xAE).contains(b) {
                return true
            } else if p2 == 0xE2, p1 == 0x81, b == 0xA0 || (0xA6...0xA9).contains(b) {
                return true
            } else if p2 == 0xEF, p1 == 0xBB, b == 0xBF {
                return true
            }
            p2 = p1
            p1 = b
        }
        return false
    }

    /// The text with each control character, and each invisible format character that is not
    /// joining letters, written as an escape; the same string (no copy) when it has none, which
    /// is nearly always.
    public static func escaped(_ s: String) -> String {
        if !mayNeedEscapes(s) { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 8)
        let scalars = Array(s.unicodeScalars)
        for (k, u) in scalars.enumerated() {
            let v = u.value
            let joins = isJoiner(v) && canJoin(k > 0 ? scalars[k - 1] : nil) && canJoin(k + 1 < scalars.count ? scalars[k + 1] : nil)
            guard isControl(v) || isInvisible(v) || (isJoiner(v) && !joins) else {
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
    /// becomes its Control Pictures symbol (␛, ␇, ␀) or U+FFFD, and an invisible format
    /// character U+FFFD, so the caret stays aligned and the line reads in its own order.
    package static func picture(_ u: Unicode.Scalar) -> Unicode.Scalar {
        let v = u.value
        if isInvisible(v) { return "\u{FFFD}" }
        guard isControl(v) else { return u }
        if v < 0x20 { return Unicode.Scalar(0x2400 + v) ?? "\u{FFFD}" }
        if v == 0x7F { return "\u{2421}" }
        return "\u{FFFD}"
    }
}
