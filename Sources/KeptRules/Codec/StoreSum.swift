// The checksum of a store's records (docs/STORE.md, "Checksums"): XXH64, a published
// non-cryptographic 64-bit hash, fast enough to check every record a statement reads. It finds
// damage (a flipped bit, a torn write, a page of another file), not forgery.

/// XXH64 of bytes given in one piece or in several (`update` as often as needed, then `value`).
public struct StoreSum: Sendable {
    package static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    package static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    package static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    package static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    package static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private let seed: UInt64
    private var v1: UInt64, v2: UInt64, v3: UInt64, v4: UInt64
    /// Bytes not yet folded in: fewer than one 32-byte stripe.
    private var tail: [UInt8] = []
    private var length: UInt64 = 0

    public init(seed: UInt64 = 0) {
        self.seed = seed
        v1 = seed &+ StoreSum.p1 &+ StoreSum.p2
        v2 = seed &+ StoreSum.p2
        v3 = seed
        v4 = seed &- StoreSum.p1
    }

    /// The sum of one buffer, without a copy of any of it.
    public static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        var s = StoreSum(seed: seed)
        var k = 0
        while bytes.count - k >= 32 {
            s.stripe(from: bytes, at: k)
            k += 32
        }
        s.length = UInt64(bytes.count)
        return s.digest(UnsafeRawBufferPointer(rebasing: bytes[k...]))
    }

    public static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    /// A row's checksum as its column holds it: the record's bytes, seeded with the row's key
    /// (a task's id, a list's position, a history step's number), so a record moved to another
    /// row is caught too.
    package static func row(_ bytes: UnsafeRawBufferPointer, key: Int64) -> Int64 {
        Int64(bitPattern: of(bytes, seed: UInt64(bitPattern: key)))
    }

    package static func row(_ text: String, key: Int64) -> Int64 {
        var t = text
        return t.withUTF8 { row(UnsafeRawBufferPointer($0), key: key) }
    }

    /// The key of a row keyed by a name (the meta table): the sum of the name.
    package static func key(_ name: String) -> Int64 { row(name, key: 0) }

    @inline(__always) package static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        let a = acc &+ input &* p2
        return ((a << 31) | (a >> 33)) &* p1
    }

    @inline(__always) package static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    @inline(__always) package static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) package static func word(_ b: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: b.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    /// Folds more bytes in.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var k = 0
        if !tail.isEmpty {
            let take = min(32 - tail.count, bytes.count)
            tail.append(contentsOf: bytes[0..<take])
            k = take
            guard tail.count == 32 else { return }
            tail.withUnsafeBytes { stripe(from: $0, at: 0) }
            tail.removeAll(keepingCapacity: true)
        }
        while bytes.count - k >= 32 {
            stripe(from: bytes, at: k)
            k += 32
        }
        if k < bytes.count { tail.append(contentsOf: bytes[k...]) }
    }

    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    @inline(__always) private mutating func stripe(from b: UnsafeRawBufferPointer, at k: Int) {
        v1 = StoreSum.round(v1, StoreSum.word(b, k))
        v2 = StoreSum.round(v2, StoreSum.word(b, k + 8))
        v3 = StoreSum.round(v3, StoreSum.word(b, k + 16))
        v4 = StoreSum.round(v4, StoreSum.word(b, k + 24))
    }

    /// The sum of everything folded in so far.
    public var value: UInt64 { tail.withUnsafeBytes { digest($0) } }

    /// The final steps, with the bytes after the last whole stripe.
    private func digest(_ b: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64
        if length >= 32 {
            h = StoreSum.rotl(v1, 1) &+ StoreSum.rotl(v2, 7) &+ StoreSum.rotl(v3, 12) &+ StoreSum.rotl(v4, 18)
            h = StoreSum.merge(h, v1)
            h = StoreSum.merge(h, v2)
            h = StoreSum.merge(h, v3)
            h = StoreSum.merge(h, v4)
        } else {
            h = seed &+ StoreSum.p5
        }
        h &+= length
        var k = 0
        while b.count - k >= 8 {
            h ^= StoreSum.round(0, StoreSum.word(b, k))
            h = StoreSum.rotl(h, 27) &* StoreSum.p1 &+ StoreSum.p4
            k += 8
        }
        if b.count - k >= 4 {
            h ^= UInt64(UInt32(littleEndian: b.loadUnaligned(fromByteOffset: k, as: UInt32.self))) &* StoreSum.p1
            h = StoreSum.rotl(h, 23) &* StoreSum.p2 &+ StoreSum.p3
            k += 4
        }
        while k < b.count {
            h ^= UInt64(b[k]) &* StoreSum.p5
            h = StoreSum.rotl(h, 11) &* StoreSum.p1
            k += 1
        }
        h ^= h >> 33
        h &*= StoreSum.p2
        h ^= h >> 29
        h &*= StoreSum.p3
        h ^= h >> 32
        return h
    }

    /// The sum as the JSON store writes it: sixteen lowercase hex digits.
    public static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}

/// What a JSON store file's checksum said of the bytes before it.
public enum StoreChecksum: Sendable, Equatable {
    /// The file has none: written by hand, or by a Kept before checksums.
    case absent
    /// The bytes are the ones Kept wrote.
    case matches
    /// The bytes changed after Kept wrote them: edited by hand, merged, or damaged.
    case differs
}
