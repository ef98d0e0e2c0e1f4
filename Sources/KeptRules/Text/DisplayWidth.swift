// How many terminal columns text takes (wcwidth), for every renderer that lines text up in
// columns (docs/OUTPUT.md, "Width"). Counted a grapheme cluster (a Swift Character) at a time:
// - a cluster whose first scalar is East Asian Wide or Fullwidth takes 2 columns: CJK, kana,
//   Hangul syllables, fullwidth forms, and every emoji with Emoji_Presentation (Unicode puts
//   those in W); `wide` below is that table, as ranges, from EastAsianWidth.txt (Unicode 15.1);
// - a cluster that ends its emoji with VARIATION SELECTOR-16 (`❤️`) takes 2, as terminals draw
//   it; a pair of regional indicators (a flag) takes 2; a ZWJ sequence (`👩‍💻`) is one
//   cluster and takes the width of its first emoji, 2;
// - a cluster made only of zero-width scalars takes 0: combining marks (Mn, Me), format
//   characters (Cf: ZWJ, ZWNJ, the bidi marks), variation selectors, Hangul medial and final
//   jamo; such marks after a base add nothing, while spacing marks (Mc, as in Devanagari) and
//   the halfwidth kana sound marks add a column each, as terminals draw them;
// - controls take 0 (text meant for people has them escaped before it is measured); everything
//   else takes 1. Ambiguous-width characters (A) take 1, as outside East Asian locales.

/// Display width in terminal columns, and text cut to a width.
public enum DisplayWidth {
    /// East Asian Wide (W) and Fullwidth (F) ranges, first and last scalar, in order.
    static let wide: [(UInt32, UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC), (0x23F0, 0x23F0),
        (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
        (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5),
        (0x26FA, 0x26FA), (0x26FD, 0x26FD), (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728),
        (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
        (0x2E80, 0x2E99), (0x2E9B, 0x2EF3), (0x2F00, 0x2FD5), (0x2FF0, 0x2FFF), (0x3000, 0x303E),
        (0x3041, 0x3096), (0x3099, 0x30FF), (0x3105, 0x312F), (0x3131, 0x318E), (0x3190, 0x31E3),
        (0x31EF, 0x321E), (0x3220, 0x3247), (0x3250, 0x4DBF), (0x4E00, 0xA48C), (0xA490, 0xA4C6),
        (0xA960, 0xA97C), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE10, 0xFE19), (0xFE30, 0xFE52),
        (0xFE54, 0xFE66), (0xFE68, 0xFE6B), (0xFF01, 0xFF60), (0xFFE0, 0xFFE6),
        (0x16FE0, 0x16FE4), (0x16FF0, 0x16FF1), (0x17000, 0x187F7), (0x18800, 0x18CD5), (0x18D00, 0x18D08),
        (0x1AFF0, 0x1AFF3), (0x1AFF5, 0x1AFFB), (0x1AFFD, 0x1AFFE), (0x1B000, 0x1B122), (0x1B132, 0x1B132),
        (0x1B150, 0x1B152), (0x1B155, 0x1B155), (0x1B164, 0x1B167), (0x1B170, 0x1B2FB),
        (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F200, 0x1F202),
        (0x1F210, 0x1F23B), (0x1F240, 0x1F248), (0x1F250, 0x1F251), (0x1F260, 0x1F265), (0x1F300, 0x1F320),
        (0x1F32D, 0x1F335), (0x1F337, 0x1F37C), (0x1F37E, 0x1F393), (0x1F3A0, 0x1F3CA), (0x1F3CF, 0x1F3D3),
        (0x1F3E0, 0x1F3F0), (0x1F3F4, 0x1F3F4), (0x1F3F8, 0x1F43E), (0x1F440, 0x1F440), (0x1F442, 0x1F4FC),
        (0x1F4FF, 0x1F53D), (0x1F54B, 0x1F54E), (0x1F550, 0x1F567), (0x1F57A, 0x1F57A), (0x1F595, 0x1F596),
        (0x1F5A4, 0x1F5A4), (0x1F5FB, 0x1F64F), (0x1F680, 0x1F6C5), (0x1F6CC, 0x1F6CC), (0x1F6D0, 0x1F6D2),
        (0x1F6D5, 0x1F6D7), (0x1F6DC, 0x1F6DF), (0x1F6EB, 0x1F6EC), (0x1F6F4, 0x1F6FC), (0x1F7E0, 0x1F7EB),
        (0x1F7F0, 0x1F7F0), (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1F9FF), (0x1FA70, 0x1FA7C),
        (0x1FA80, 0x1FA88), (0x1FA90, 0x1FABD), (0x1FABF, 0x1FAC5), (0x1FACE, 0x1FADB), (0x1FAE0, 0x1FAE8),
        (0x1FAF0, 0x1FAF8), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD),
    ]

    /// Whether a scalar is East Asian Wide or Fullwidth: a binary search of `wide`.
    public static func isWide(_ v: UInt32) -> Bool {
        if v < 0x1100 { return false }
        var lo = 0, hi = wide.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let (a, b) = wide[mid]
            if v < a { hi = mid - 1 } else if v > b { lo = mid + 1 } else { return true }
        }
        return false
    }

    /// Whether a scalar takes no column of its own: a combining or enclosing mark, a format
    /// character, a variation selector, a Hangul medial or final jamo, or a control.
    public static func isZeroWidth(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x300 { return v < 0x20 || (v >= 0x7F && v < 0xA0) }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return true }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// The columns one grapheme cluster takes: 0, 1 or 2.
    public static func of(_ c: Character) -> Int {
        let scalars = c.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F && scalars.count == 1 { return first.value < 0x20 ? 0 : 1 }
        // The first scalar that is not zero-width is the cluster's base.
        guard let k = scalars.firstIndex(where: { !isZeroWidth($0) }) else { return 0 }
        let base = scalars[k]
        // Spacing marks and halfwidth sound marks after the base take a column each, as
        // terminals draw them.
        var spacing = 0
        for u in scalars[scalars.index(after: k)...] where u.value == 0xFF9E || u.value == 0xFF9F || u.properties.generalCategory == .spacingMark {
            spacing += 1
        }
        if isWide(base.value) { return 2 + spacing }
        // A flag: two regional indicators.
        if (0x1F1E6...0x1F1FF).contains(base.value) { return scalars.count >= 2 ? 2 : 1 }
        // An emoji in its emoji presentation (VS16).
        if scalars.contains(where: { $0.value == 0xFE0F }), base.properties.isEmoji { return 2 }
        return 1 + spacing
    }

    /// The columns a string takes.
    public static func of(_ s: String) -> Int {
        // ASCII without controls: one column a byte.
        var ascii = true
        for b in s.utf8 where b < 0x20 || b >= 0x7F {
            ascii = false
            break
        }
        if ascii { return s.utf8.count }
        // A scalar at a time while no scalar can join another in a cluster (nearly every
        // title: accents precomposed, CJK, symbols); by cluster otherwise.
        var n = 0
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x7F {
                n += v < 0x20 ? 0 : 1
                continue
            }
            if v < 0xA0 || v >= 0x1F000 || joins(u) { return byCluster(s) }
            n += isWide(v) ? 2 : 1
        }
        return n
    }

    /// The columns a string takes, a grapheme cluster at a time.
    static func byCluster(_ s: String) -> Int {
        var n = 0
        for c in s { n += of(c) }
        return n
    }

    /// Whether a scalar past ASCII takes no column in a cluster: a mark (Mn, Me), a format
    /// character, a variation selector, a Hangul medial or final jamo. Wide scalars are never
    /// such, but for the ideographic and kana combining marks.
    static func joins(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if (0x302A...0x302F).contains(v) || v == 0x3099 || v == 0x309A { return true }
        if isWide(v) { return false }
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) || (0xFE00...0xFE0F).contains(v) { return true }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return true
        default: return false
        }
    }

    /// The text padded with spaces to `width` columns (unchanged when it is as wide or wider).
    public static func padded(_ s: String, to width: Int) -> String {
        let w = of(s)
        return w >= width ? s : s + String(repeating: " ", count: width - w)
    }

    /// The text cut to at most `width` columns, ending in `…` when it was cut. The cut falls
    /// between grapheme clusters, never inside one; when a word boundary lies in the last third
    /// of what fits, the cut is there, so a word is not broken when a whole one can go.
    public static func truncated(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        guard of(s) > width else { return s }
        if width == 1 { return "…" }
        // Whole clusters up to width - 1 columns, then the ellipsis.
        var kept = ""
        var used = 0
        var lastSpace: (index: String.Index, used: Int)? = nil
        var endsAWord = false
        for c in s {
            let w = of(c)
            if used + w > width - 1 {
                endsAWord = c == " "
                break
            }
            if c == " " { lastSpace = (kept.endIndex, used) }
            kept.append(c)
            used += w
        }
        if !endsAWord, let sp = lastSpace, sp.used * 3 >= (width - 1) * 2 {
            kept = String(kept[..<sp.index])
        }
        while kept.last == " " { kept.removeLast() }
        return kept + "…"
    }
}
