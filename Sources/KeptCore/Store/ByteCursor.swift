// Bytes written at a cursor into room made beforehand: no capacity check, uniqueness check or
// call per piece, as appending to an array costs. The store's task writer writes a record's
// fixed parts and strings with it, and the JSON writer a quoted string.

/// A cursor writing into `room` bytes that the caller made for the most it can write; every
/// write stays inside that room (the callers reserve by the bounds below).
struct ByteCursor {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// The most a quoted, escaped string of `utf8` bytes takes: each byte as `\u00xx`, and
    /// the quotes.
    @inline(__always)
    static func quotedBound(_ utf8: Int) -> Int { 6 * utf8 + 2 }

    /// What was written.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) mutating func byte(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    @inline(__always) mutating func lit(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        (base + count).initialize(from: s.utf8Start, count: n)
        count += n
    }

    @inline(__always) mutating func bytes(_ p: UnsafePointer<UInt8>, _ n: Int) {
        (base + count).initialize(from: p, count: n)
        count += n
    }

    /// Two digits of `n`'s last two.
    @inline(__always) mutating func two(_ n: Int) {
        base[count] = 0x30 + UInt8(truncatingIfNeeded: n / 10 % 10)
        base[count + 1] = 0x30 + UInt8(truncatingIfNeeded: n % 10)
        count += 2
    }

    /// A whole number in decimal (at most 20 bytes).
    mutating func int(_ n: Int) {
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
        var k = count + digits
        count = k
        while m > 0 {
            k -= 1
            base[k] = 0x30 + UInt8(truncatingIfNeeded: m % 10)
            m /= 10
        }
    }

    /// `YYYY-MM-DD`.
    @inline(__always) mutating func ymd(_ d: CivilDate) {
        let y = max(0, min(d.year, 9999))
        two(y / 100)
        two(y % 100)
        byte(UInt8(ascii: "-"))
        two(d.month)
        byte(UInt8(ascii: "-"))
        two(d.day)
    }

    /// A string quoted and escaped as `JSONWriter.appendString` writes it (at most
    /// `quotedBound(utf8.count)` bytes). Plain runs are found by the reader's scan
    /// (`JSONReader.plainRunEnd`, eight bytes at a time), which also stops at bytes past
    /// ASCII: those are written as they are.
    mutating func quoted(_ utf8: UnsafeBufferPointer<UInt8>) {
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
    mutating func quoted(_ s: String) {
        var s = s
        s.withUTF8 { quoted($0) }
    }

    /// The escape for a quote, a backslash or a control character.
    mutating func escape(_ b: UInt8) {
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
