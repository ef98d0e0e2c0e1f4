// A hybrid logical clock (docs/SYNC.md, "Clocks"): the wall time in milliseconds, a counter
// for events within one millisecond or behind a clock already seen, and the device. Every
// field a device changes is stamped with one, and the later stamp wins the field. A device
// takes the largest stamp it receives into its own clock, so once it has seen a change from a
// device whose clock runs ahead, its own next edit is later than that change: a fast clock
// cannot win forever.

import KeptRules

/// One stamp of a hybrid logical clock.
public struct HLC: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since 1970 (UTC), of the device's clock or of a later stamp it saw.
    public var millis: Int64
    /// Events within one `millis`.
    public var counter: Int
    /// The device that made the stamp: 16 lowercase hex digits.
    public var node: String

    public init(millis: Int64, counter: Int, node: String) {
        self.millis = max(0, min(millis, HLC.maxMillis))
        self.counter = max(0, min(counter, HLC.maxCounter))
        self.node = node
    }

    /// The largest `millis` the text form holds (13 digits: the year 2286).
    public static let maxMillis: Int64 = 9_999_999_999_999
    /// The largest counter the text form holds (4 hex digits).
    public static let maxCounter = 0xFFFF

    /// The stamp of a value nobody chose (a default setting, a preset filter): earlier than
    /// every edit, so any device's choice wins over it.
    public static func zero(node: String) -> HLC { HLC(millis: 0, counter: 0, node: node) }

    public static func < (a: HLC, b: HLC) -> Bool {
        (a.millis, a.counter, a.node) < (b.millis, b.counter, b.node)
    }

    /// `1764806400000-0000-3f2a…`: fixed widths, so texts sort as the stamps do (the server
    /// compares them as text).
    public var description: String {
        // Written byte by byte: every field of every change a device queues or sends carries
        // a stamp, and the general form below was an eighth of a whole sync's instructions.
        if (0...HLC.maxMillis).contains(millis), (0...HLC.maxCounter).contains(counter) {
            let node = node.utf8
            return String(unsafeUninitializedCapacity: 19 + node.count) { b in
                var m = millis
                for k in stride(from: 12, through: 0, by: -1) {
                    b[k] = UInt8(ascii: "0") + UInt8(m % 10)
                    m /= 10
                }
                b[13] = UInt8(ascii: "-")
                let digits: StaticString = "0123456789abcdef"
                for k in 0..<4 { b[14 + k] = digits.utf8Start[(counter >> (12 - 4 * k)) & 0xF] }
                b[18] = UInt8(ascii: "-")
                var k = 19
                for c in node {
                    b[k] = c
                    k += 1
                }
                return k
            }
        }
        let ms = String(millis)
        let c = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 13 - ms.count)) + ms + "-"
            + String(repeating: "0", count: max(0, 4 - c.count)) + c + "-" + node
    }

    /// Reads the text form; nil for anything else.
    public init?(_ text: String) {
        // Every stamp a store or a server writes is in the canonical form, read byte by byte:
        // a pull reads one for every field of every item, and a first pull of 100,000 tasks
        // spent most of its reading in the grapheme-by-grapheme checks of `general`.
        guard let h = HLC.canonical(text) ?? HLC.general(text) else { return nil }
        self = h
    }

    /// Any text form this version reads: the canonical one, and a counter with capitals or a
    /// `+` (which the server refuses).
    static func general(_ text: String) -> HLC? {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 13, parts[1].count == 4, !parts[2].isEmpty, parts[2].count <= 32,
              parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let ms = Int64(parts[0]),
              let c = Int(parts[1], radix: 16),
              parts[2].allSatisfy({ $0.isASCII && ($0.isNumber || ("a"..."f").contains($0)) }) else { return nil }
        return HLC(millis: ms, counter: c, node: String(parts[2]))
    }

    /// The canonical text form, `^[0-9]{13}-[0-9a-f]{4}-[0-9a-f]{1,32}$` (what `description`
    /// writes and the server takes); nil for any other text, which `general` reads or refuses.
    static func canonical(_ text: String) -> HLC? {
        var text = text
        return text.withUTF8 { b -> HLC? in
            let n = b.count
            guard n >= 20, n <= 51, b[13] == UInt8(ascii: "-"), b[18] == UInt8(ascii: "-") else { return nil }
            var ms: Int64 = 0
            for k in 0..<13 {
                let d = b[k] &- UInt8(ascii: "0")
                guard d < 10 else { return nil }
                ms = ms * 10 + Int64(d)
            }
            func hex(_ c: UInt8) -> Int? {
                if c &- UInt8(ascii: "0") < 10 { return Int(c &- UInt8(ascii: "0")) }
                if c &- UInt8(ascii: "a") < 6 { return Int(c &- UInt8(ascii: "a")) + 10 }
                return nil
            }
            var counter = 0
            for k in 14..<18 {
                guard let d = hex(b[k]) else { return nil }
                counter = counter << 4 | d
            }
            for k in 19..<n where hex(b[k]) == nil { return nil }
            return HLC(millis: ms, counter: counter, node: String(decoding: UnsafeBufferPointer(rebasing: b[19..<n]), as: UTF8.self))
        }
    }

    /// The milliseconds of an instant.
    public static func millis(of i: Instant) -> Int64 {
        let (ms, overflow) = i.seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? maxMillis : ms
    }

    /// The next stamp of a device whose last stamp was `last`, at wall time `now`.
    public static func tick(after last: HLC?, now: Int64, node: String) -> HLC {
        guard let last, last.millis >= now else { return HLC(millis: now, counter: 0, node: node) }
        if last.counter >= maxCounter { return HLC(millis: last.millis + 1, counter: 0, node: node) }
        return HLC(millis: last.millis, counter: last.counter + 1, node: node)
    }

    /// A device's clock after it receives `seen` (it never goes back).
    public static func received(_ seen: HLC, into last: HLC?, node: String) -> HLC {
        guard let last else { return HLC(millis: seen.millis, counter: seen.counter, node: node) }
        return max(last, HLC(millis: seen.millis, counter: seen.counter, node: node))
    }

    /// A new device's name: 16 random lowercase hex digits.
    public static func newNode() -> String {
        var g = SystemRandomNumberGenerator()
        let n = g.next() as UInt64
        let s = String(n, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
