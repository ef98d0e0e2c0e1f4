// Table tests for TimeText: 12/24-hour times (R-DAY-4), short and long dates, ISO instants in and out.
// Zones are always named; instants are fixed.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TimeTextTests: XCTestCase {

    func testTimesOnBothClocks() throws {
        // R-DAY-4: "2 PM" or "14:00"; noon uses the same hour format.
        let cases: [(String, String, String, String)] = [
            ("tt-01", "14:00", "2 PM", "14:00"),
            ("tt-02", "14:30", "2:30 PM", "14:30"),
            ("tt-03", "12:00", "12 PM", "12:00"),
            ("tt-04", "00:00", "12 AM", "00:00"),
            ("tt-05", "09:00", "9 AM", "09:00"),
            ("tt-06", "00:30", "12:30 AM", "00:30"),
            ("tt-07", "21:05", "9:05 PM", "21:05"),
            ("tt-08", "09:05", "9:05 AM", "09:05"),
            ("tt-09", "12:59", "12:59 PM", "12:59"),
            ("tt-10", "23:59", "11:59 PM", "23:59"),
            ("tt-11", "11:00", "11 AM", "11:00"),
            ("tt-12", "01:00", "1 AM", "01:00"),
            ("tt-13", "10:10", "10:10 AM", "10:10"),
        ]
        for (id, text, h12, h24) in cases {
            let t = try XCTUnwrap(WallTime(iso: text), id)
            XCTAssertEqual(TimeText.time(t, .h12), h12, "\(id): 12h")
            XCTAssertEqual(TimeText.time(t, .h24), h24, "\(id): 24h")
        }
    }

    func testShortAndLongDates() throws {
        let cases: [(String, String, String, String)] = [
            ("td-01", "2026-02-28", "Sat Feb 28", "Sat Feb 28, 2026"),
            ("td-02", "2026-06-01", "Mon Jun 1", "Mon Jun 1, 2026"),
            ("td-03", "2026-12-31", "Thu Dec 31", "Thu Dec 31, 2026"),
            ("td-04", "2026-06-15", "Mon Jun 15", "Mon Jun 15, 2026"),
            ("td-05", "0001-01-01", "Mon Jan 1", "Mon Jan 1, 0001"),
        ]
        for (id, text, short, long) in cases {
            let d = try XCTUnwrap(CivilDate(iso: text), id)
            XCTAssertEqual(TimeText.shortDate(d), short, "\(id): short")
            XCTAssertEqual(TimeText.longDate(d), long, "\(id): long")
        }
        let at = try XCTUnwrap(CivilDateTime(iso: "2026-02-28T14:00"), "td-06")
        XCTAssertEqual(TimeText.shortDateTime(at, .h12), "Sat Feb 28 2 PM", "td-06")
        XCTAssertEqual(TimeText.shortDateTime(at, .h24), "Sat Feb 28 14:00", "td-07")
    }

    func testMonthNames() {
        XCTAssertEqual((1...12).map(TimeText.monthShort),
                       ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"], "tm-01")
        XCTAssertEqual(TimeText.monthShort(0), "", "tm-02")
        XCTAssertEqual(TimeText.monthShort(13), "", "tm-03")
        XCTAssertEqual(TimeText.monthName(2), "February", "tm-04")
        XCTAssertEqual(TimeText.monthName(-1), "", "tm-05")
    }

    func testISOInstantOutput() throws {
        let cases: [(String, String, Int64, String)] = [
            ("ti-01", "Europe/Berlin", 1_781_506_800, "2026-06-15T09:00:00+02:00"),    // 07:00Z, summer
            ("ti-02", "Europe/Berlin", 1_768_464_000, "2026-01-15T09:00:00+01:00"),    // 08:00Z, winter
            ("ti-03", "America/New_York", 1_781_528_400, "2026-06-15T09:00:00-04:00"), // 13:00Z
            ("ti-04", "America/New_York", 1_768_485_600, "2026-01-15T09:00:00-05:00"), // 14:00Z
            ("ti-05", "UTC", 1_781_506_800, "2026-06-15T07:00:00+00:00"),
            ("ti-06", "Asia/Kolkata", 1_781_506_800, "2026-06-15T12:30:00+05:30"),
            ("ti-07", "America/St_Johns", 1_768_464_000, "2026-01-15T04:30:00-03:30"),
            ("ti-08", "Europe/Berlin", 1_781_506_842, "2026-06-15T09:00:42+02:00"),
            ("ti-09", "UTC", -1, "1969-12-31T23:59:59+00:00"),
            ("ti-10", "Europe/Berlin", 1_792_890_000, "2026-10-25T02:00:00+01:00"),    // 01:00Z, just after fall back
            ("ti-11", "Europe/Berlin", 1_792_889_999, "2026-10-25T02:59:59+02:00"),    // a second before
        ]
        for (id, name, seconds, expected) in cases {
            let zone = try XCTUnwrap(Zone(identifier: name), id)
            XCTAssertEqual(TimeText.isoInstant(Instant(seconds: seconds), in: zone), expected, id)
        }
        XCTAssertEqual(Instant(seconds: 0).description, "1970-01-01T00:00:00+00:00", "ti-12")
    }

    func testISOInstantParsing() {
        let cases: [(String, String, Int64)] = [
            ("tp-01", "2026-06-15T07:00:00Z", 1_781_506_800),
            ("tp-02", "2026-06-15T09:00:00+02:00", 1_781_506_800),
            ("tp-03", "2026-06-15T02:00-05:00", 1_781_506_800),
            ("tp-04", "2026-06-15T07:00Z", 1_781_506_800),
            ("tp-05", "2026-06-15t07:00:00z", 1_781_506_800),
            ("tp-06", "2026-06-15 09:00:00+02:00", 1_781_506_800),
            ("tp-07", "2026-06-15T07:00:00.123Z", 1_781_506_800),
            ("tp-08", "2026-06-15T09:00:00+0200", 1_781_506_800),
            ("tp-09", "2026-06-15T09:00:00+02", 1_781_506_800),
            ("tp-10", "2026-06-15T07:00:00-00:00", 1_781_506_800),
            ("tp-11", "1969-12-31T23:59:59Z", -1),
            ("tp-12", "1970-01-01T00:00:00+00:00", 0),
            ("tp-13", "2026-06-15T12:30:00+05:30", 1_781_506_800),
            ("tp-14", "2026-06-15T07:00:42Z", 1_781_506_842),
            ("tp-15", "2026-06-15T07:53:28+00:53:28", 1_781_506_800),
        ]
        for (id, text, seconds) in cases {
            XCTAssertEqual(TimeText.parseISOInstant(text), Instant(seconds: seconds), id)
        }
    }

    func testISOInstantRejectsGarbage() {
        let bad: [(String, String)] = [
            ("tp-bad-01", ""), ("tp-bad-02", "garbage"), ("tp-bad-03", "2026-06-15"),
            ("tp-bad-04", "2026-06-15T09:00"), ("tp-bad-05", "2026-06-15T09:00:00"),
            ("tp-bad-06", "2026-06-15T25:00:00Z"), ("tp-bad-07", "2026-06-15T09:60Z"),
            ("tp-bad-08", "2026-06-15T09:00:60Z"), ("tp-bad-09", "2026-02-30T09:00:00Z"),
            ("tp-bad-10", "2026-06-15T09:00:00+24:00"), ("tp-bad-11", "2026-06-15T09:00:00+02:60"),
            ("tp-bad-12", "2026-06-15T09:00:00Z "), ("tp-bad-13", "2026-06-15T09:00:00ZZ"),
            ("tp-bad-14", "2026-06-15T9:00:00Z"), ("tp-bad-15", "2026-06-15T09:00:00.Z"),
            ("tp-bad-16", "2026-06-15T09:00:00+2:00"), ("tp-bad-17", "2026-06-15X09:00:00Z"),
            ("tp-bad-18", "2026-06-15T09:00:00+02:00:"), ("tp-bad-19", "2026-06-15T09:00:00+0200:00"),
            ("tp-bad-20", "2026-6-15T09:00:00Z"), ("tp-bad-21", " 2026-06-15T09:00:00Z"),
            ("tp-bad-22", "2026-06-15T09:00:00+"), ("tp-bad-23", "2026-06-15T09Z"),
        ]
        for (id, text) in bad {
            XCTAssertNil(TimeText.parseISOInstant(text), id)
        }
    }

    func testISOInstantRoundTrips() throws {
        // tp-rt-01: every 7h13m over 2025...2027 in each zone, printed then parsed, is the same instant.
        for name in ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata", "Australia/Lord_Howe"] {
            let zone = try XCTUnwrap(Zone(identifier: name), "tp-rt-01")
            var seconds: Int64 = 1_735_689_600
            while seconds < 1_798_761_600 {
                let text = TimeText.isoInstant(Instant(seconds: seconds), in: zone)
                XCTAssertEqual(TimeText.parseISOInstant(text), Instant(seconds: seconds), "tp-rt-01 \(name) \(text)")
                seconds += 7 * 3_600 + 13 * 60
            }
        }
    }

    /// The store's fixed UTC form is read at fixed places: on every string of that length and
    /// shape (valid, out of range, leap days, wrong bytes) it gives what the general reader
    /// gives, or nil and leaves the answer to it; and it takes the valid ones itself.
    func testFixedUTCFormAgreesWithTheGeneralReader() {
        func general(_ t: String) -> Instant? {
            // The general reader alone: a zone designator of +00:00 instead of Z is the same instant.
            TimeText.parseISOInstant(String(t.dropLast()) + "+00:00")
        }
        var cases = ["2026-06-15T07:00:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "0001-01-01T00:00:00Z",
                     "9999-12-31T23:59:59Z", "0000-01-01T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z",
                     "2026-04-31T00:00:00Z", "2026-06-15T24:00:00Z", "2026-06-15T23:60:00Z", "2026-06-15T23:59:60Z",
                     "2026-06-15t07:00:00Z", "2026-06-15T07:00:00z", "2026/06/15T07:00:00Z", "2026-06-1XT07:00:00Z",
                     "2026-06-15T07:00:0:Z", "1900-02-29T12:00:00Z", "2000-02-29T12:00:00Z"]
        var rng = PlanTests.Seeded(state: 20260615)
        let digits = Array("0123456789")
        for _ in 0..<3_000 {
            var c = Array("2026-06-15T07:00:00Z")
            for i in [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18] where Int.random(in: 0..<3, using: &rng) == 0 {
                c[i] = digits.randomElement(using: &rng) ?? "0"
            }
            cases.append(String(c))
        }
        var taken = 0
        for t in cases {
            let bytes = Array(t.utf8)
            let fast = bytes.withUnsafeBufferPointer { TimeText.utcInstant($0) }
            if let fast {
                taken += 1
                XCTAssertEqual(fast, general(t), t)
            }
            XCTAssertEqual(TimeText.parseISOInstant(t), general(t), t)
        }
        XCTAssertNotNil(Array("2024-02-29T23:59:59Z".utf8).withUnsafeBufferPointer { TimeText.utcInstant($0) })
        XCTAssertGreaterThan(taken, 100, "the fixed form takes the valid strings itself")
    }
}
