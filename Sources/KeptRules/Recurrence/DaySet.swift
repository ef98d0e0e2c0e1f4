// The days of one period of a recurrence (a year has 366 at most) as a bit set on the stack:
// bit i is the period's i-th day. Building a period's days, taking its nth day (BYSETPOS) and
// finding the first day on or after another are bit operations, with no allocation.

/// A set of day offsets 0..<384 within one period.
package struct DaySet {
    private var w = InlineArray<6, UInt64>(repeating: 0)

    package static let capacity = 384

    package mutating func insert(_ i: Int) {
        guard i >= 0, i < DaySet.capacity else { return }
        w[i >> 6] |= 1 << UInt64(i & 63)
    }

    package func contains(_ i: Int) -> Bool {
        guard i >= 0, i < DaySet.capacity else { return false }
        return w[i >> 6] & (1 << UInt64(i & 63)) != 0
    }

    package var count: Int {
        var c = 0
        for k in 0..<6 { c += w[k].nonzeroBitCount }
        return c
    }

    package var isEmpty: Bool {
        for k in 0..<6 where w[k] != 0 { return false }
        return true
    }

    /// The k-th member, 0-based, in increasing order.
    package func member(_ k: Int) -> Int? {
        guard k >= 0 else { return nil }
        var left = k
        for j in 0..<6 {
            let c = w[j].nonzeroBitCount
            if left < c {
                var x = w[j]
                for _ in 0..<left { x &= x - 1 }
                return j << 6 + x.trailingZeroBitCount
            }
            left -= c
        }
        return nil
    }

    /// The first member ≥ i.
    package func first(atOrAfter i: Int) -> Int? {
        var j = max(0, i) >> 6
        guard j < 6 else { return nil }
        var x = w[j] & (~UInt64(0) << UInt64(max(0, i) & 63))
        while true {
            if x != 0 { return j << 6 + x.trailingZeroBitCount }
            j += 1
            if j == 6 { return nil }
            x = w[j]
        }
    }

    /// Inserts the days of a month mask (bit i: day i) at offset o.
    package mutating func insert(mask: UInt32, at o: Int) {
        guard mask != 0, o >= 0, o < DaySet.capacity else { return }
        let j = o >> 6, s = UInt64(o & 63)
        let m = UInt64(mask)
        w[j] |= m << s
        if s > 32, j + 1 < 6 { w[j + 1] |= m >> (64 - s) }
    }

    /// How many members are in lo..<hi.
    package func count(from lo: Int, to hi: Int) -> Int {
        let a = max(0, lo), b = min(hi, DaySet.capacity)
        guard a < b else { return 0 }
        var c = 0
        for j in (a >> 6)...((b - 1) >> 6) {
            var x = w[j]
            let start = j << 6
            if a > start { x &= ~UInt64(0) << UInt64(a - start) }
            if b < start + 64 { x &= (UInt64(1) << UInt64(b - start)) &- 1 }
            c += x.nonzeroBitCount
        }
        return c
    }

    /// Inserts the days a..<b.
    package mutating func insert(from a: Int, to b: Int) {
        let lo = max(0, a), hi = min(b, DaySet.capacity)
        guard lo < hi else { return }
        for j in (lo >> 6)...((hi - 1) >> 6) {
            let start = j << 6
            var x = ~UInt64(0)
            if lo > start { x &= ~UInt64(0) << UInt64(lo - start) }
            if hi < start + 64 { x &= (UInt64(1) << UInt64(hi - start)) &- 1 }
            w[j] |= x
        }
    }

    /// Keeps the members that `other` has too.
    package mutating func formIntersection(_ other: DaySet) {
        for j in 0..<6 { w[j] &= other.w[j] }
    }

    /// The days of a period whose first day is on weekday w1 (Monday = 0) that fall on the
    /// weekdays of a pattern (bit j: weekday j mod 7 is one, for j in 0..<64).
    package static func weekdays(_ pattern: UInt64, firstWeekday w1: Int) -> DaySet {
        var set = DaySet()
        for j in 0..<6 {
            // Word j starts on weekday (w1 + 64j) mod 7; bit 63 of the pattern is weekday 0
            // again, so its low bits continue where the shifted pattern ends.
            let w0 = (w1 + 64 * j) % 7
            set.w[j] = (pattern >> UInt64(w0)) | (pattern << UInt64(63 - w0))
        }
        return set
    }

    /// Keeps the members for which `keep` is true.
    package mutating func filter(_ keep: (Int) -> Bool) {
        for j in 0..<6 {
            var x = w[j]
            while x != 0 {
                let b = x.trailingZeroBitCount
                if !keep(j << 6 + b) { w[j] &= ~(1 << UInt64(b)) }
                x &= x - 1
            }
        }
    }
}
