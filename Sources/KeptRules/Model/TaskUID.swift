// A task's identity beyond its display id: an RFC 4122 UUID (version 4, lowercase when written)
// that never changes, so an import or a later sync can tell one task from another whatever
// its id in a store (docs/STORE.md, "Identity").

/// A task's uid: 128 bits, kept as two words so a store of a million tasks allocates nothing
/// for them; written as `8-4-4-4-12` lowercase hex.
public struct TaskUID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hi: UInt64
    public let lo: UInt64

    public init(hi: UInt64, lo: UInt64) {
        self.hi = hi
        self.lo = lo
    }

    /// 128 bits made a version 4, variant 1 UUID (RFC 4122 section 4.4).
    package init(bits hi: UInt64, _ lo: UInt64) {
        self.hi = (hi & ~0xF000) | 0x4000
        self.lo = (lo & ~(0xC000_0000_0000_0000 as UInt64)) | 0x8000_0000_0000_0000
    }

    public static func < (a: TaskUID, b: TaskUID) -> Bool { (a.hi, a.lo) < (b.hi, b.lo) }

    /// The uid of a task that a store written before uids holds: derived from what the record
    /// says of the task (id, creation instant, title), so it reads the same on every load until
    /// the store is next written, which records it (docs/STORE.md).
    public static func derived(id: Int, createdAt: Instant, title: String) -> TaskUID {
        derived(id: id, createdAt: createdAt, titleBytes: title.utf8)
    }

    /// The same from the title's UTF-8 bytes, as a store file holds them (the loader checks a
    /// store's uids without building a title).
    package static func derived(id: Int, createdAt: Instant, titleBytes: some Sequence<UInt8>) -> TaskUID {
        // The id and the instant are mixed before the first byte is: XORed in directly, ids 1
        // and 2 with titles "a…" and "b…" (the same after their first letter) met the same value.
        var a: UInt64 = mix(0x243F_6A88_85A3_08D3 ^ UInt64(bitPattern: Int64(id)))
        var b: UInt64 = mix(0x1319_8A2E_0370_7344 ^ UInt64(bitPattern: createdAt.seconds))
        for byte in titleBytes {
            a = mix(a ^ UInt64(byte))
            b = mix(b &+ a)
        }
        return TaskUID(bits: mix(a ^ b), mix(b ^ 0x9E37_79B9_7F4A_7C15))
    }

    /// The uid of an item known by its name (a project, an area, a saved filter) or of a made
    /// occurrence (by its series and date): the same on every device that makes it, so two
    /// devices that make one item independently make one item (docs/SYNC.md, "Identity").
    public static func named(_ kind: String, _ name: String) -> TaskUID {
        var a: UInt64 = mix(0x4528_21E6_38D0_1377)
        var b: UInt64 = mix(0xBE54_66CF_34E9_0C6C)
        for byte in kind.utf8 + [0x1F] + name.utf8 {
            a = mix(a ^ UInt64(byte))
            b = mix(b &+ a)
        }
        return TaskUID(bits: mix(a ^ b), mix(b ^ 0x9E37_79B9_7F4A_7C15))
    }

    /// SplitMix64's finaliser: every input bit reaches every output bit.
    package static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `0b7e5c1e-…`: 36 lowercase characters.
    public var description: String {
        // Written straight into the string's storage: a store writes one for every row.
        String(unsafeUninitializedCapacity: 36) { out in
            var k = 0
            forEachByte { b in
                out[k] = b
                k += 1
            }
            return k
        }
    }

    /// The 36 bytes of `description`, one at a time (writers append them without a string).
    @inline(__always)
    package func forEachByte(_ body: (UInt8) -> Void) {
        for n in 0..<32 {
            if n == 8 || n == 12 || n == 16 || n == 20 { body(UInt8(ascii: "-")) }
            let nibble = ((n < 16 ? hi : lo) >> UInt64(60 - 4 * (n % 16))) & 0xF
            body(nibble < 10 ? 0x30 + UInt8(nibble) : 0x57 + UInt8(nibble))
        }
    }

    /// Reads `8-4-4-4-12` hex (either case) from bytes; nil for anything else.
    public static func parse<C: Collection>(_ bytes: C) -> TaskUID? where C.Element == UInt8 {
        if let u = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0) }) { return u }
        guard bytes.count == 36 else { return nil }
        return Array(bytes).withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// The same from contiguous bytes, by index: the one reader of the form.
    package static func parse(buffer b: UnsafeBufferPointer<UInt8>) -> TaskUID? {
        guard b.count == 36, b[8] == UInt8(ascii: "-"), b[13] == UInt8(ascii: "-"), b[18] == UInt8(ascii: "-"), b[23] == UInt8(ascii: "-") else { return nil }
        func hex(_ from: Int, _ to: Int, into n: inout UInt64) -> Bool {
            for k in from..<to {
                let c = b[k]
                if c &- 0x30 < 10 {
                    n = n << 4 | UInt64(c &- 0x30)
                } else if (c | 0x20) &- 0x61 < 6 {
                    // 0x20 folds A-F onto a-f; no other byte lands in a-f.
                    n = n << 4 | UInt64((c | 0x20) &- 0x61 + 10)
                } else {
                    return false
                }
            }
            return true
        }
        var hi: UInt64 = 0
        var lo: UInt64 = 0
        guard hex(0, 8, into: &hi), hex(9, 13, into: &hi), hex(14, 18, into: &hi),
              hex(19, 23, into: &lo), hex(24, 36, into: &lo) else { return nil }
        return TaskUID(hi: hi, lo: lo)
    }

    public init?(_ text: String) {
        guard let u = TaskUID.parse(Array(text.utf8)) else { return nil }
        self = u
    }
}

/// Where new uids come from: the system's random numbers, or a seeded sequence so that a
/// transcript under `kept test` prints the same uids on every run.
public struct UIDSource: Sendable {
    private var state: UInt64?

    /// Random uids (RFC 4122 version 4) from the system's generator.
    public static var random: UIDSource { UIDSource(state: nil) }

    /// The same uids in the same order for the same seed.
    public static func seeded(_ seed: UInt64) -> UIDSource { UIDSource(state: seed) }

    public mutating func next() -> TaskUID {
        guard var s = state else {
            var g = SystemRandomNumberGenerator()
            return TaskUID(bits: g.next(), g.next())
        }
        s &+= 0x9E37_79B9_7F4A_7C15
        let a = TaskUID.mix(s)
        s &+= 0x9E37_79B9_7F4A_7C15
        let b = TaskUID.mix(s)
        state = s
        return TaskUID(bits: a, b)
    }
}
