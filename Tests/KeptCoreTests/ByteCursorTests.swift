// ByteCursor (the store's task writer and the JSON writer write through it): no write goes
// past its room. Every write, into a room of every size from none to enough, either fits and
// writes the expected bytes, or touches nothing and marks the cursor overflowed; the bytes
// after the room stay as they were.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class ByteCursorTests: XCTestCase {
    /// One of each write, as `c` takes it.
    static func writeEveryKind(_ c: inout ByteCursor) {
        c.byte(0x7B)
        c.lit("\"key\":")
        c.int(0); c.int(Int.max); c.int(Int.min); c.int(-42)
        c.two(7)
        c.ymd(CivilDate(year: 2026, month: 6, day: 15) ?? .earliest)
        c.quotedDate(CivilDate(year: 12, month: 1, day: 2) ?? .earliest)
        c.quotedInstant(Instant(seconds: 1_781_507_045))
        c.uid(hi: 0x0123_4567_89AB_CDEF, lo: .max)
        c.quoted("plain, \"quoted\" \\ tab\t nul\u{0} bell\u{7} é 😀 and a longer plain run")
        c.quoted("")
        c.escape(0x1F)
        let raw: [UInt8] = Array("raw bytes".utf8)
        raw.withUnsafeBufferPointer { b in if let p = b.baseAddress { c.bytes(p, b.count) } }
    }

    func testNoWriteGoesPastTheRoom() {
        // What every write takes, written into room enough.
        var full: [UInt8] = []
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4_096) { room in
            guard var c = ByteCursor(room) else { return XCTFail("room") }
            Self.writeEveryKind(&c)
            XCTAssertFalse(c.overflowed)
            full = Array(c.written)
        }
        XCTAssertEqual(String(decoding: full, as: UTF8.self),
                       "{\"key\":09223372036854775807-9223372036854775808-42072026-06-15\"0012-01-02\"\"2026-06-15T07:04:05+00:00\"\"01234567-89ab-cdef-ffff-ffffffffffff\""
                       + "\"plain, \\\"quoted\\\" \\\\ tab\\t nul\\u0000 bell\\u0007 é 😀 and a longer plain run\"\"\"\\u001fraw bytes")
        let guardBytes = 64
        for size in 0...(full.count + 8) {
            var buffer = [UInt8](repeating: 0xA5, count: size + guardBytes)
            buffer.withUnsafeMutableBufferPointer { b in
                guard var c = ByteCursor(UnsafeMutableBufferPointer(rebasing: b[0..<size])) else {
                    return XCTAssertEqual(size, 0, "only a room of no bytes has no cursor")
                }
                Self.writeEveryKind(&c)
                XCTAssertEqual(c.overflowed, size < full.count, "room \(size)")
                XCTAssertLessThanOrEqual(c.count, size, "room \(size)")
                if !c.overflowed { XCTAssertEqual(Array(c.written), full, "room \(size)") }
            }
            XCTAssertEqual(Array(buffer[size...]), [UInt8](repeating: 0xA5, count: guardBytes), "room \(size): nothing written past it")
        }
    }

    /// A quoted string never takes more than `quotedBound`, whatever its bytes.
    func testAQuotedStringFitsItsBound() {
        var rng = SystemRandomNumberGenerator()
        for n in 0..<300 {
            let bytes = (0..<n).map { _ in UInt8.random(in: 0...0x7F, using: &rng) }
            let s = String(decoding: bytes, as: UTF8.self)
            var s2 = s
            s2.withUTF8 { utf8 in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ByteCursor.quotedBound(utf8.count)) { room in
                    guard var c = ByteCursor(room) else { return XCTFail("room") }
                    c.quoted(utf8)
                    XCTAssertFalse(c.overflowed, "length \(n)")
                }
            }
            var out: [UInt8] = []
            JSONWriter.appendString(s, to: &out)
            XCTAssertEqual(try JSONParser.parse(out), .string(s))
        }
    }
}
