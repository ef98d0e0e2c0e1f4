// Names interned straight from the bytes of a store file, for the column loader: a name that
// repeats (a project, a tag, a status) costs a hash and a compare of two words, not a String.

import KeptRules
import KeptDomain
import KeptFiles

/// A hash table from (kind, bytes) to an interned id and a byte of the caller's, owning copies
/// of the bytes it was given. Keys of up to 16 bytes are held and compared as two little-endian
/// words; longer ones compare their first 16 bytes so, then the rest. Every byte of a key goes
/// into its hash, which is mixed to the last bit, so names that share a long prefix (say
/// `invoice-2026-0001`, `invoice-2026-0002`…) still spread over the table.
package struct ByteInterner {
    package init() {}

    private struct Slot {
        var hash: UInt64 = 0
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        /// Where the bytes past the 16th are in `rest`.
        var start = 0
        /// -1 marks an empty slot.
        var length: Int32 = -1
        var kind: UInt8 = 0
        var aux: UInt8 = 0
        var id: Int32 = 0
    }

    private var slots = [Slot](repeating: Slot(), count: 256)
    private var rest: [UInt8] = []
    private var used = 0
    /// The longest run of slots an insert walked past (for the tests).
    private(set) var longestProbe = 0

    @inline(__always)
    private static func hash(_ w0: UInt64, _ w1: UInt64, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int, _ kind: UInt8) -> UInt64 {
        var h = (w0 ^ UInt64(truncatingIfNeeded: n) << 48 ^ UInt64(kind) << 40) &* 0x9E37_79B9_7F4A_7C15
        h = (h ^ h >> 29 ^ w1) &* 0xBF58_476D_1CE4_E5B9
        if n > 16 {
            // The bytes past the 16th, eight at a time.
            var k = start + 16
            let end = start + n
            while k < end {
                let (x, _) = ByteWords.words(b, k, min(8, end - k))
                h = (h ^ h >> 29 ^ x) &* 0x94D0_49BB_1331_11EB
                k += 8
            }
        }
        // The finaliser of MurmurHash3: every input bit reaches every output bit.
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ h >> 33
    }

    /// The id and byte stored for the `n` bytes at `start` of `b`, or nil.
    @inline(__always)
    package func find(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int, _ kind: UInt8) -> (id: Int32, aux: UInt8)? {
        let (w0, w1) = ByteWords.words(b, start, min(n, 16))
        let h = ByteInterner.hash(w0, w1, b, start, n, kind)
        return slots.withUnsafeBufferPointer { s in
            let mask = s.count - 1
            var k = Int(truncatingIfNeeded: h) & mask
            while s[k].length >= 0 {
                let slot = s[k]
                if slot.hash == h, slot.w0 == w0, slot.w1 == w1, Int(slot.length) == n, slot.kind == kind,
                   n <= 16 || restEqual(slot.start, b, start + 16, n - 16) {
                    return (slot.id, slot.aux)
                }
                k = (k + 1) & mask
            }
            return nil
        }
    }

    private func restEqual(_ at: Int, _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Bool {
        guard start >= 0, start + n <= b.count, at + n <= rest.count else { return false }
        return rest.withUnsafeBufferPointer { r in
            var j = 0
            while j < n {
                if r[at + j] != b[start + j] { return false }
                j += 1
            }
            return true
        }
    }

    /// Adds the `n` bytes at `start` of `b` (not already there) with their id and byte.
    package mutating func insert(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int, _ kind: UInt8, _ id: Int32, aux: UInt8 = 0) {
        guard start >= 0, n >= 0, n <= Int(Int32.max), start + n <= b.count else { return }
        if (used + 1) * 2 > slots.count { grow() }
        let (w0, w1) = ByteWords.words(b, start, min(n, 16))
        let h = ByteInterner.hash(w0, w1, b, start, n, kind)
        var slot = Slot(hash: h, w0: w0, w1: w1, start: rest.count, length: Int32(n), kind: kind, aux: aux, id: id)
        if n > 16 { rest.append(contentsOf: UnsafeBufferPointer(rebasing: b[(start + 16)..<(start + n)])) } else { slot.start = 0 }
        place(slot)
        used += 1
    }

    private mutating func place(_ slot: Slot) {
        let mask = slots.count - 1
        var k = Int(truncatingIfNeeded: slot.hash) & mask
        var walked = 0
        while slots[k].length >= 0 {
            k = (k + 1) & mask
            walked += 1
        }
        longestProbe = max(longestProbe, walked)
        slots[k] = slot
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot](repeating: Slot(), count: old.count * 2)
        for slot in old where slot.length >= 0 { place(slot) }
    }
}
