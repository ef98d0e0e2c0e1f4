// Zone.minutes(before:) against the definition, minute by minute: a wall-clock reading is in the
// set exactly when Zone.resolve puts it before the instant. Around the DST nights of
// Europe/Berlin and America/New_York, and zones whose changes are odd (half an hour, a skipped
// day, a change at midnight).

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class MinuteSetTests: XCTestCase {
    /// Each case: a zone and an instant near one of its changes; every instant from 3 hours
    /// before to 3 hours after, every 17 minutes (and the change's second itself), is checked
    /// against every reading within a day and a half.
    func testMinutesBeforeAnInstantAreTheReadingsResolvedBeforeIt() throws {
        let cases: [(String, String, String)] = [
            ("mset-01", "Europe/Berlin", "2026-03-29T01:00:00Z"),       // 02:00 → 03:00
            ("mset-02", "Europe/Berlin", "2026-10-25T01:00:00Z"),       // 03:00 → 02:00
            ("mset-03", "America/New_York", "2026-03-08T07:00:00Z"),    // 02:00 → 03:00
            ("mset-04", "America/New_York", "2026-11-01T06:00:00Z"),    // 02:00 → 01:00
            ("mset-05", "Australia/Lord_Howe", "2026-04-04T15:00:00Z"), // half an hour back
            ("mset-06", "Pacific/Apia", "2011-12-30T10:00:00Z"),        // Dec 30, 2011 never happened
            ("mset-07", "America/Santiago", "2026-04-05T03:00:00Z"),    // at midnight, back
            ("mset-08", "America/Santiago", "2026-09-06T04:00:00Z"),    // at midnight, forward
            ("mset-09", "UTC", "2026-06-15T07:00:00Z"),
        ]
        for (id, name, at) in cases {
            let z = try XCTUnwrap(Zone(identifier: name), id)
            let change = try XCTUnwrap(TimeText.parseISOInstant(at), id)
            var bs = stride(from: -180 * 60, through: 180 * 60, by: 17 * 60).map { change.adding(seconds: Int64($0)) }
            bs += [change, change.adding(seconds: -1), change.adding(seconds: 30)]
            for b in bs {
                let set = z.minutes(before: b)
                let x = Zone.civilMinute(z.local(at: b))
                var wrong: [Int64] = []
                for w in (x - 2160)...(x + 2160) where set.contains(w) != (z.seconds(atCivilMinute: w) < b.seconds) { wrong.append(w) }
                XCTAssertEqual(wrong.count, 0, "\(id) \(name) at \(b): wrong for minutes \(wrong.prefix(5)) (set \(set.ranges))")
                // Far readings go by their order.
                XCTAssertTrue(set.contains(x - 10 * 1440), "\(id): ten days before")
                XCTAssertFalse(set.contains(x + 10 * 1440), "\(id): ten days after")
            }
        }
    }

    /// The cases: a due at the first 01:45 has passed at the second 01:30 (New York); a
    /// due at 02:30, moved by the gap to 03:30, has not passed at 03:15 (Berlin).
    func testTheRepeatedAndTheSkippedHour() throws {
        let ny = try XCTUnwrap(Zone(identifier: "America/New_York"))
        let secondHalfPastOne = try XCTUnwrap(TimeText.parseISOInstant("2026-11-01T06:30:00Z"))
        let due145 = Zone.civilMinute(try XCTUnwrap(CivilDateTime(iso: "2026-11-01T01:45")))
        XCTAssertTrue(ny.minutes(before: secondHalfPastOne).contains(due145), "mset-10: the first 01:45 is 45 minutes past")
        let berlin = try XCTUnwrap(Zone(identifier: "Europe/Berlin"))
        let quarterPastThree = try XCTUnwrap(TimeText.parseISOInstant("2026-03-29T01:15:00Z"))
        let due230 = Zone.civilMinute(try XCTUnwrap(CivilDateTime(iso: "2026-03-29T02:30")))
        let due305 = Zone.civilMinute(try XCTUnwrap(CivilDateTime(iso: "2026-03-29T03:05")))
        let set = berlin.minutes(before: quarterPastThree)
        XCTAssertFalse(set.contains(due230), "mset-11: 02:30 is 03:30 CEST, not yet")
        XCTAssertTrue(set.contains(due305), "mset-12: 03:05 CEST has passed")
        XCTAssertEqual(set.ranges.count, 2, "mset-13: two ranges on the night of the gap")
    }

    func testSetAlgebra() {
        let a = MinuteSet([0..<10, 20..<30])
        XCTAssertEqual(a.subtracting(MinuteSet([5..<25])).ranges, [0..<5, 25..<30], "mset-20")
        XCTAssertEqual(MinuteSet([0..<5, 5..<9, 3..<4]).ranges, [0..<9], "mset-21")
        XCTAssertEqual(MinuteSet.below(7).subtracting(.below(3)).ranges, [3..<7], "mset-22")
        XCTAssertFalse(MinuteSet.empty.contains(0), "mset-23")
        XCTAssertTrue(MinuteSet.all.contains(Int64.min), "mset-24")
    }
}
