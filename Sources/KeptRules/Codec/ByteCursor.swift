// Bytes written at a cursor into room made beforehand, without the capacity check, uniqueness
// check and call per piece that appending to an array costs. The store's task writer writes a
// record's fixed parts and strings with it, and the JSON writer a quoted string.
//
// Every write is checked against the room: a write that does not fit touches nothing and
// marks the cursor `overflowed`, and the caller writes again into more room
// (`StoreCodec.appendTaskRecord`, `JSONWriter.appendString`). The room the callers make is
// meant to be enough, but a wrong bound then costs a second pass, never a byte outside it.

/// A cursor writing into a room; every write stays inside it.
public struct ByteCursor {
    // Inlinable with the writes below, so the store's task writer in KeptStore compiles them
    // into its loops; only `place` moves `count`.
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    @usableFromInline package internal(set) var count = 0
    /// A write did not fit: what was written is incomplete and must be written again.
    @usableFromInline package internal(set) var overflowed = false

    /// A cursor at the start of `room`; nil for a room of no bytes.
    package init?(_ room: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = room.baseAddress, room.count > 0 else { return nil }
        self.base = base
        capacity = room.count
    }

    /// The most a quoted, escaped string of `utf8` bytes takes: each byte as `\u00xx`, and
    /// the quotes.
    @inline(__always)
    package static func quotedBound(_ utf8: Int) -> Int { 6 * utf8 + 2 }

    /// What was written.
    package var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Starts again at the beginning of the room (what was written has been copied out).
    package mutating func restart() { count = 0 }

    /// The place of the next `n` bytes, which the caller writes exactly; nil, and the cursor
    /// overflowed, when they do not fit. The one check every write goes through (as unsigned
    /// numbers, a negative `n` does not fit either).
    @inlinable @inline(__always) mutating func place(_ n: Int) -> UnsafeMutablePointer<UInt8>? {
        guard UInt(bitPattern: n) <= UInt(bitPattern: capacity &- count) else {
            overflowed = true
            return nil
        }
        let p = base + count
        count &+= n
        return p
    }

    @inlinable @inline(__always) package mutating func byte(_ b: UInt8) {
        guard let p = place(1) else { return }
        p[0] = b
    }

    @inlinable @inline(__always) package mutating func lit(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        guard let p = place(n) else { return }
        p.initialize(from: s.utf8Start, count: n)
    }

    @inlinable @inline(__always) package mutating func bytes(_ src: UnsafePointer<UInt8>, _ n: Int) {
        guard let p = place(n) else { return }
        p.initialize(from: src, count: n)
    }

    /// Two digits of `n`'s last two.
    @inlinable @inline(__always) package mutating func two(_ n: Int) {
        guard let p = place(2) else { return }
        ByteCursor.two(n, at: p)
    }

    /// Two digits of `n`'s last two at p[0] and p[1].
    @inlinable @inline(__always) static func two(_ n: Int, at p: UnsafeMutablePointer<UInt8>) {
        p[0] = 0x30 + UInt8(truncatingIfNeeded: n / 10 % 10)
        p[1] = 0x30 + UInt8(truncatingIfNeeded: n % 10)
    }

    /// A whole number in decimal (at most 20 bytes).
    package mutating func int(_ n: Int) {
        if n >= 0, n < 10 {
            byte(0x30 + UInt8(truncatingIfNeeded: n))
            return
        }
        if n < 0 { byte(UInt8(ascii: "-")) }
        var m = n.magnitude
        var digits = 0
        var t = m
        while t > 0 {
            digits += 1
            t /= 10
        }
        guard let p = place(digits) else { return }
        var k = digits
        while m > 0, k > 0 {
            k -= 1
            p[k] = 0x30 + UInt8(truncatingIfNeeded: m % 10)
            m /= 10
        }
    }

    /// `YYYY-MM-DD`.
    @inlinable @inline(__always) package mutating func ymd(_ d: CivilDate) {
        guard let p = place(10) else { return }
        ByteCursor.ymd(d, at: p)
    }

    /// `YYYY-MM-DD` at p[0..<10].
    @inlinable @inline(__always) static func ymd(_ d: CivilDate, at p: UnsafeMutablePointer<UInt8>) {
        let y = max(0, min(d.year, 9999))
        two(y / 100, at: p)
        two(y % 100, at: p + 2)
        p[4] = UInt8(ascii: "-")
        two(d.month, at: p + 5)
        p[7] = UInt8(ascii: "-")
        two(d.day, at: p + 8)
    }

    /// `"YYYY-MM-DD"`.
    @inlinable @inline(__always) package mutating func quotedDate(_ d: CivilDate) {
        guard let p = place(12) else { return }
        p[0] = 0x22
        ByteCursor.ymd(d, at: p + 1)
        p[11] = 0x22
    }

    /// An instant in UTC, quoted, as `TimeText.isoInstant(i, in: .utc)` writes it:
    /// `"2026-06-15T07:00:00+00:00"`.
    package mutating func quotedInstant(_ i: Instant) {
        let s = i.clampedSeconds
        let day = CalendarMath.floorDivide(s, CalendarMath.secondsPerDay)
        let sec = s - day * CalendarMath.secondsPerDay
        let zone: StaticString = "+00:00\""
        guard let p = place(27) else { return }
        p[0] = 0x22
        ByteCursor.ymd(CivilDate(dayNumber: day), at: p + 1)
        p[11] = UInt8(ascii: "T")
        ByteCursor.two(sec / 3_600, at: p + 12)
        p[14] = UInt8(ascii: ":")
        ByteCursor.two(sec / 60 % 60, at: p + 15)
        p[17] = UInt8(ascii: ":")
        ByteCursor.two(sec % 60, at: p + 18)
        (p + 20).initialize(from: zone.utf8Start, count: 7)
    }

    /// A task uid in its text form, quoted: each word's nibbles from its last.
    package mutating func uid(hi: UInt64, lo: UInt64) {
        let text: StaticString = "\"00000000-0000-0000-0000-000000000000\""
        guard let p = place(38) else { return }
        p.initialize(from: text.utf8Start, count: 38)
        // The digits of [from, to) of the 38 just written.
        func hex(_ w: inout UInt64, _ from: Int, _ to: Int) {
            var k = to
            while k > from {
                k -= 1
                let n = UInt8(truncatingIfNeeded: w & 0xF)
                p[k] = n < 10 ? 0x30 + n : 0x57 + n
                w >>= 4
            }
        }
        var hi = hi, lo = lo
        hex(&hi, 15, 19); hex(&hi, 10, 14); hex(&hi, 1, 9)
        hex(&lo, 25, 37); hex(&lo, 20, 24)
    }

    /// A string quoted and escaped as `JSONWriter.appendString` writes it (at most
    /// `quotedBound(utf8.count)` bytes). Plain runs are found by the reader's scan
    /// (`JSONReader.plainRunEnd`, eight bytes at a time), which also stops at bytes past
    /// ASCII: those are written as they are.
    package mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        byte(0x22)
        guard let src = utf8.baseAddress else {
            byte(0x22)
            return
        }
        let n = utf8.count
        var k = 0
        while k < n {
            let end = JSONReader.plainRunEnd(utf8, from: k)
            bytes(src + k, end - k)
            guard end < n else { break }
            let b = src[end]
            if b < 0x20 || b == 0x22 || b == 0x5C { escape(b) } else { byte(b) }
            k = end + 1
        }
        byte(0x22)
    }

    /// A string quoted and escaped.
    package mutating func quoted(_ s: String) {
        var s = s
        s.withUTF8 { quoted($0) }
    }

    /// The escape for a quote, a backslash or a control character.
    package mutating func escape(_ b: UInt8) {
        byte(UInt8(ascii: "\\"))
        switch b {
        case 0x22: byte(UInt8(ascii: "\""))
        case 0x5C: byte(UInt8(ascii: "\\"))
        case 0x0A: byte(UInt8(ascii: "n"))
        case 0x0D: byte(UInt8(ascii: "r"))
        case 0x09: byte(UInt8(ascii: "t"))
        case 0x08: byte(UInt8(ascii: "b"))
        case 0x0C: byte(UInt8(ascii: "f"))
        default:
            lit("u00")
            byte(ByteCursor.hexDigit(b >> 4))
            byte(ByteCursor.hexDigit(b & 0x0F))
        }
    }

    /// The lowercase hex digit for a value below 16.
    @inline(__always) static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
