// Numbers in the words a user types: a run of digits past the largest Kept reads, and lengths
// of time like `1h30m`.

/// Reads numbers in words.
public enum NumberWords {
    /// True when a word holds a run of ASCII digits past `Limits.largestNumber`.
    public static func hasTooLargeNumber(_ s: String) -> Bool {
        var run = 0
        for b in s.utf8 {
            if b >= 0x30, b <= 0x39 {
                run += 1
                if run > 9 { return true }
            } else {
                run = 0
            }
        }
        return false
    }

    /// `15m`, `2h`, `90`, `1h30m`; nil for anything else, or a number past `Limits.largestNumber`.
    public static func minutes(_ s: String) -> Int? {
        let l = s.lowercased()
        guard !hasTooLargeNumber(l) else { return nil }
        if let n = Int(l) { return n }
        var total = 0
        var num = 0
        var digits = false
        for c in l {
            // Nine digits at most (checked above), so neither the number nor the total can overflow.
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits = true; continue }
            guard digits else { return nil }
            switch c {
            case "m": total += num
            case "h": total += num * 60
            case "d": total += num * 1440
            default: return nil
            }
            num = 0
            digits = false
        }
        return digits ? nil : total
    }
}
