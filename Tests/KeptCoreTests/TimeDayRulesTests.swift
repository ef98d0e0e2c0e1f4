// Table tests for DayRules: day start (R-DAY-2), week start (R-DAY-5), and the injected Clock (R-DAY-1).
// All inputs are fixed date-times and named zones; nothing reads the real date.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TimeDayRulesTests: XCTestCase {

    private func date(_ text: String, _ id: String) throws -> CivilDate {
        try XCTUnwrap(CivilDate(iso: text), "\(id): bad fixture date \(text)")
    }

    private func time(_ text: String, _ id: String) throws -> WallTime {
        try XCTUnwrap(WallTime(iso: text), "\(id): bad fixture time \(text)")
    }

    private func dateTime(_ text: String, _ id: String) throws -> CivilDateTime {
        try XCTUnwrap(CivilDateTime(iso: text), "\(id): bad fixture date-time \(text)")
    }

    func testDefaults() {
        let rules = DayRules()
        XCTAssertEqual(rules.dayStart, .midnight, "rules-01")
        XCTAssertEqual(rules.weekStart, .monday, "rules-02")
        XCTAssertEqual(rules.hourCycle, .h12, "rules-03")
        XCTAssertEqual(DayRules.standard, rules, "rules-04")
        XCTAssertEqual(HourCycle(rawValue: "24h"), .h24, "rules-05")
        XCTAssertEqual(HourCycle.h12.rawValue, "12h", "rules-06")
    }

    func testTodayFollowsDayStart() throws {
        // R-DAY-2: with a 04:00 day start, 01:30 still belongs to yesterday.
        let cases: [(String, String, String, String)] = [
            ("ds-01", "00:00", "2026-06-16T01:30", "2026-06-16"),
            ("ds-02", "04:00", "2026-06-16T01:30", "2026-06-15"),
            ("ds-03", "04:00", "2026-06-16T04:00", "2026-06-16"),
            ("ds-04", "04:00", "2026-06-16T03:59", "2026-06-15"),
            ("ds-05", "04:00", "2026-07-01T01:30", "2026-06-30"),
            ("ds-06", "04:00", "2026-01-01T01:30", "2025-12-31"),
            ("ds-07", "00:00", "2026-01-01T00:00", "2026-01-01"),
            ("ds-08", "00:00", "2025-12-31T23:59", "2025-12-31"),
            ("ds-09", "04:00", "2024-03-01T02:00", "2024-02-29"),
            ("ds-10", "04:00", "2026-03-01T02:00", "2026-02-28"),
            ("ds-11", "04:00", "2026-06-16T23:59", "2026-06-16"),
            ("ds-12", "04:00", "2026-06-16T00:00", "2026-06-15"),
        ]
        for (id, start, at, expected) in cases {
            let rules = DayRules(dayStart: try time(start, id))
            XCTAssertEqual(rules.today(at: try dateTime(at, id)).iso, expected, id)
        }
    }

    func testTodayAtAnInstantInAZone() throws {
        let berlin = try XCTUnwrap(Zone(identifier: "Europe/Berlin"), "ds-z-01")
        let rules = DayRules(dayStart: try time("04:00", "ds-z-01"))
        // 23:30Z on Jun 15 is 01:30 on Jun 16 in Berlin: still Jun 15 with a 04:00 day start.
        let lateNight = try XCTUnwrap(TimeText.parseISOInstant("2026-06-15T23:30:00Z"), "ds-z-01")
        XCTAssertEqual(rules.today(at: lateNight, in: berlin).iso, "2026-06-15", "ds-z-01")
        XCTAssertEqual(DayRules().today(at: lateNight, in: berlin).iso, "2026-06-16", "ds-z-02")
        XCTAssertEqual(DayRules().today(at: lateNight, in: .utc).iso, "2026-06-15", "ds-z-03")
    }

    func testStartOfDay() throws {
        let berlin = try XCTUnwrap(Zone(identifier: "Europe/Berlin"), "ds-s-01")
        let rules = DayRules(dayStart: try time("04:00", "ds-s-01"))
        XCTAssertEqual(rules.start(of: try date("2026-06-15", "ds-s-01")).iso, "2026-06-15T04:00", "ds-s-01")
        XCTAssertEqual(rules.start(of: try date("2026-06-15", "ds-s-02"), in: berlin),
                       TimeText.parseISOInstant("2026-06-15T02:00:00Z"), "ds-s-02")
        // A day start inside the spring gap moves forward with it.
        let gapStart = DayRules(dayStart: try time("02:30", "ds-s-03"))
        XCTAssertEqual(gapStart.start(of: try date("2026-03-29", "ds-s-03"), in: berlin),
                       TimeText.parseISOInstant("2026-03-29T01:30:00Z"), "ds-s-03")
    }

    func testWeekBoundaries() throws {
        // R-DAY-5: weeks start on Monday unless the setting says Sunday.
        let cases: [(String, Weekday, String, String, String)] = [
            ("wk-01", .monday, "2026-06-15", "2026-06-15", "2026-06-21"),
            ("wk-02", .monday, "2026-06-21", "2026-06-15", "2026-06-21"),
            ("wk-03", .sunday, "2026-06-21", "2026-06-21", "2026-06-27"),
            ("wk-04", .sunday, "2026-06-20", "2026-06-14", "2026-06-20"),
            ("wk-05", .monday, "2026-07-01", "2026-06-29", "2026-07-05"),
            ("wk-06", .sunday, "2026-07-01", "2026-06-28", "2026-07-04"),
            ("wk-07", .monday, "2026-01-01", "2025-12-29", "2026-01-04"),
            ("wk-08", .sunday, "2026-01-01", "2025-12-28", "2026-01-03"),
            ("wk-09", .monday, "2026-12-31", "2026-12-28", "2027-01-03"),
            ("wk-10", .sunday, "2027-01-02", "2026-12-27", "2027-01-02"),
            ("wk-11", .monday, "2024-03-01", "2024-02-26", "2024-03-03"),
            ("wk-12", .sunday, "2024-02-29", "2024-02-25", "2024-03-02"),
            ("wk-13", .monday, "2026-06-16", "2026-06-15", "2026-06-21"),
        ]
        for (id, weekStart, day, start, end) in cases {
            let rules = DayRules(weekStart: weekStart)
            let d = try date(day, id)
            XCTAssertEqual(rules.startOfWeek(containing: d).iso, start, "\(id): start")
            XCTAssertEqual(rules.endOfWeek(containing: d).iso, end, "\(id): end")
            XCTAssertEqual(rules.startOfWeek(containing: d).weekday, weekStart, "\(id): weekday")
        }
    }

    func testFixedClockIsInjected() {
        let frozen = Instant(seconds: 1_781_506_800)
        let clock: any Clock = FixedClock(frozen)
        XCTAssertEqual(clock.now(), frozen, "clock-01")
        XCTAssertEqual(clock.now(), clock.now(), "clock-02")
    }

    func testSystemClockAgreesWithFoundation() {
        // Compares two readings of the same real clock; asserts nothing about which date it is.
        let before = Int64(Date().timeIntervalSince1970.rounded(.down))
        let now = SystemClock().now().seconds
        let after = Int64(Date().timeIntervalSince1970.rounded(.down))
        XCTAssertTrue(before <= now && now <= after, "clock-03")
    }
}
