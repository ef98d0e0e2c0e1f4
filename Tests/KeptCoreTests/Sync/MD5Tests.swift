// MD5 against RFC 1321's test suite: the first pull's checksum must equal PostgreSQL's md5().

import XCTest
@testable import KeptRules
@testable import KeptDomain

final class MD5Tests: XCTestCase {
    func testRFC1321Suite() {
        let cases: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (text, hex) in cases { XCTAssertEqual(MD5.hex(Array(text.utf8)), hex, text) }
    }

    /// A summary's part is the digest's first 8 bytes, big-endian (what the server's SQL reads).
    func testSummaryPart() {
        let hex = MD5.hex(Array("task/x".utf8))
        XCTAssertEqual(SyncSummary.part(SyncKey(.task, "x")), UInt64(hex.prefix(16), radix: 16))
        let s = SyncSummary.of([SyncKey(.task, "x"), SyncKey(.setting, "zone"), SyncKey(.task, "x")])
        XCTAssertEqual(s.count, 2)
        XCTAssertEqual(s.checksum, 0)
    }
}
