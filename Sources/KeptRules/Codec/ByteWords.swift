// Up to 16 bytes of a buffer as two little-endian words: how the store loader compares a key or
// a name with one or two integer compares, and how the JSON reader hashes a key. Inlinable, so
// the loader in KeptStore compiles them into its loops as it did when both were one module.

/// Bytes as words.
public enum ByteWords {
    /// Two loaded words with the bytes past the first `n` (0...16) cleared.
    @inlinable @inline(__always)
    package static func masked(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> (UInt64, UInt64) {
        let m0: UInt64 = n >= 8 ? ~0 : (1 << (8 * UInt64(n))) - 1
        let m1: UInt64 = n >= 16 ? ~0 : (n <= 8 ? 0 : (1 << (8 * UInt64(n - 8))) - 1)
        return (w0 & m0, w1 & m1)
    }

    /// Up to 16 bytes from `start` as two words, zero past `n`.
    @inlinable @inline(__always)
    package static func words(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> (UInt64, UInt64) {
        // Two unaligned loads when 16 bytes are there (a key is always followed by more of the
        // record), masked to the key's length; byte by byte near the end of the buffer.
        if n <= 16, start >= 0, start + 16 <= b.count, let base = b.baseAddress {
            let raw = UnsafeRawPointer(base + start)
            let a = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let c = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            return masked(a, c, n)
        }
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        var k = 0
        while k < n, start + k < b.count {
            let x = UInt64(b[start + k])
            if k < 8 { w0 |= x << (8 * UInt64(k)) } else { w1 |= x << (8 * UInt64(k - 8)) }
            k += 1
        }
        return (w0, w1)
    }
}
