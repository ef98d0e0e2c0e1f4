// MD5 (RFC 1321), for one job: the checksum sync compares with PostgreSQL's `md5()` to confirm
// that a store holds an account's complete list (docs/SYNC.md, "The first pull"). Not for
// anything that needs a secure hash.

public enum MD5 {
    /// The 16 bytes of the digest of `message`.
    public static func digest(_ message: [UInt8]) -> [UInt8] {
        var a0: UInt32 = 0x6745_2301
        var b0: UInt32 = 0xefcd_ab89
        var c0: UInt32 = 0x98ba_dcfe
        var d0: UInt32 = 0x1032_5476

        var bytes = message
        let bitLength = UInt64(message.count) &* 8
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(k)))) }

        var m = [UInt32](repeating: 0, count: 16)
        var chunk = 0
        while chunk < bytes.count {
            for k in 0..<16 {
                let j = chunk + 4 * k
                m[k] = UInt32(bytes[j]) | UInt32(bytes[j + 1]) << 8 | UInt32(bytes[j + 2]) << 16 | UInt32(bytes[j + 3]) << 24
            }
            var a = a0, b = b0, c = c0, d = d0
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16:
                    f = (b & c) | (~b & d)
                    g = i
                case 16..<32:
                    f = (d & b) | (~d & c)
                    g = (5 &* i &+ 1) % 16
                case 32..<48:
                    f = b ^ c ^ d
                    g = (3 &* i &+ 5) % 16
                default:
                    f = c ^ (b | ~d)
                    g = (7 &* i) % 16
                }
                f = f &+ a &+ sines[i] &+ m[g]
                a = d
                d = c
                c = b
                let s = shifts[i]
                b = b &+ (f << s | f >> (32 - s))
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
            chunk += 64
        }
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for w in [a0, b0, c0, d0] {
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: w >> (8 * UInt32(k)))) }
        }
        return out
    }

    /// The digest as 32 lowercase hex digits (PostgreSQL's `md5()` text).
    public static func hex(_ message: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in digest(message) {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The per-round shift amounts.
    static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
        5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
        6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]

    /// floor(2^32 * |sin(i + 1)|), the RFC's table T.
    static let sines: [UInt32] = (0..<64).map { i in
        let v = (Double(i + 1).sin).magnitude * 4_294_967_296
        return UInt32(v.rounded(.down))
    }
}

private extension Double {
    var sin: Double {
        #if canImport(Glibc)
        return Glibc.sin(self)
        #else
        return Darwin.sin(self)
        #endif
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
