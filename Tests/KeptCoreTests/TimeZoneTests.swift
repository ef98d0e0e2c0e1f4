// Table tests for Zone on the DST days of Europe/Berlin and America/New_York (and a few odd zones).
// Zones are always named explicitly; the machine's zone is never consulted.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TimeZoneTests: XCTestCase {

    private func zone(_ name: String, _ id: String) throws -> Zone {
        try XCTUnwrap(Zone(identifier: name), "\(id): unknown zone \(name)")
    }

    private func instant(_ text: String, _ id: String) throws -> Instant {
        try XCTUnwrap(TimeText.parseISOInstant(text), "\(id): bad fixture instant \(text)")
    }

    private func local(_ text: String, _ id: String) throws -> CivilDateTime {
        try XCTUnwrap(CivilDateTime(iso: text), "\(id): bad fixture date-time \(text)")
    }

    func testIdentifiers() {
        XCTAssertEqual(Zone(identifier: "UTC")?.identifier, "UTC", "zid-01")
        XCTAssertEqual(Zone(identifier: "Europe/Berlin")?.identifier, "Europe/Berlin", "zid-02")
        XCTAssertNil(Zone(identifier: "Nope/Nowhere"), "zid-03")
        XCTAssertNil(Zone(identifier: ""), "zid-04")
        XCTAssertEqual(Zone.utc.identifier, "UTC", "zid-05")
        XCTAssertEqual(Zone(identifier: "UTC"), Zone.utc, "zid-06")
        XCTAssertNotEqual(Zone(identifier: "Europe/Berlin"), Zone(identifier: "Europe/Paris"), "zid-07")
        XCTAssertEqual(Set([Zone(identifier: "Europe/Berlin"), Zone(identifier: "Europe/Berlin")]).count, 1, "zid-08")
        XCTAssertEqual(Zone.utc.offset(at: Instant(seconds: 1_781_506_800)), 0, "zid-09")
    }

    func testOffsetsEitherSideOfTransitions() throws {
        let cases: [(String, String, String, Int)] = [
            ("off-01", "Europe/Berlin", "2026-03-29T00:59:59Z", 3_600),
            ("off-02", "Europe/Berlin", "2026-03-29T01:00:00Z", 7_200),
            ("off-03", "Europe/Berlin", "2026-10-25T00:59:59Z", 7_200),
            ("off-04", "Europe/Berlin", "2026-10-25T01:00:00Z", 3_600),
            ("off-05", "America/New_York", "2026-03-08T06:59:59Z", -18_000),
            ("off-06", "America/New_York", "2026-03-08T07:00:00Z", -14_400),
            ("off-07", "America/New_York", "2026-11-01T05:59:59Z", -14_400),
            ("off-08", "America/New_York", "2026-11-01T06:00:00Z", -18_000),
            ("off-09", "Europe/Berlin", "2026-06-15T07:00:00Z", 7_200),
            ("off-10", "Europe/Berlin", "2026-01-15T07:00:00Z", 3_600),
            ("off-11", "UTC", "2026-06-15T07:00:00Z", 0),
            ("off-12", "Asia/Tokyo", "2026-06-15T07:00:00Z", 32_400),
            ("off-13", "Asia/Kolkata", "2026-06-15T07:00:00Z", 19_800),
            ("off-14", "Europe/Berlin", "1960-07-01T12:00:00Z", 3_600),
        ]
        for (id, name, at, expected) in cases {
            XCTAssertEqual(try zone(name, id).offset(at: instant(at, id)), expected, id)
        }
    }

    func testResolveOnTransitionDays() throws {
        typealias Kind = ZoneResolution.Kind
        let cases: [(String, String, String, String, String, Kind)] = [
            // id, zone, wall time asked, instant expected (UTC), wall time used, kind
            // Berlin spring forward: 02:00 CET jumps to 03:00 CEST at 01:00Z.
            ("res-01", "Europe/Berlin", "2026-03-29T02:30", "2026-03-29T01:30:00Z", "2026-03-29T03:30", .skipped(minutes: 60)),
            ("res-02", "Europe/Berlin", "2026-03-29T02:00", "2026-03-29T01:00:00Z", "2026-03-29T03:00", .skipped(minutes: 60)),
            ("res-03", "Europe/Berlin", "2026-03-29T02:59", "2026-03-29T01:59:00Z", "2026-03-29T03:59", .skipped(minutes: 60)),
            ("res-04", "Europe/Berlin", "2026-03-29T01:59", "2026-03-29T00:59:00Z", "2026-03-29T01:59", .exact),
            ("res-05", "Europe/Berlin", "2026-03-29T03:00", "2026-03-29T01:00:00Z", "2026-03-29T03:00", .exact),
            ("res-06", "Europe/Berlin", "2026-03-29T09:00", "2026-03-29T07:00:00Z", "2026-03-29T09:00", .exact),
            ("res-07", "Europe/Berlin", "2026-03-28T09:00", "2026-03-28T08:00:00Z", "2026-03-28T09:00", .exact),
            ("res-08", "Europe/Berlin", "2026-03-29T00:00", "2026-03-28T23:00:00Z", "2026-03-29T00:00", .exact),
            // Berlin fall back: 03:00 CEST goes back to 02:00 CET at 01:00Z; 02:00-02:59 happen twice.
            ("res-09", "Europe/Berlin", "2026-10-25T02:30", "2026-10-25T00:30:00Z", "2026-10-25T02:30", .repeated),
            ("res-10", "Europe/Berlin", "2026-10-25T02:00", "2026-10-25T00:00:00Z", "2026-10-25T02:00", .repeated),
            ("res-11", "Europe/Berlin", "2026-10-25T02:59", "2026-10-25T00:59:00Z", "2026-10-25T02:59", .repeated),
            ("res-12", "Europe/Berlin", "2026-10-25T01:59", "2026-10-24T23:59:00Z", "2026-10-25T01:59", .exact),
            ("res-13", "Europe/Berlin", "2026-10-25T03:00", "2026-10-25T02:00:00Z", "2026-10-25T03:00", .exact),
            ("res-14", "Europe/Berlin", "2026-10-25T09:00", "2026-10-25T08:00:00Z", "2026-10-25T09:00", .exact),
            ("res-15", "Europe/Berlin", "2026-10-26T09:00", "2026-10-26T08:00:00Z", "2026-10-26T09:00", .exact),
            // New York spring forward: 02:00 EST jumps to 03:00 EDT at 07:00Z.
            ("res-16", "America/New_York", "2026-03-08T02:30", "2026-03-08T07:30:00Z", "2026-03-08T03:30", .skipped(minutes: 60)),
            ("res-17", "America/New_York", "2026-03-08T01:59", "2026-03-08T06:59:00Z", "2026-03-08T01:59", .exact),
            ("res-18", "America/New_York", "2026-03-08T03:00", "2026-03-08T07:00:00Z", "2026-03-08T03:00", .exact),
            ("res-19", "America/New_York", "2026-03-08T09:00", "2026-03-08T13:00:00Z", "2026-03-08T09:00", .exact),
            // New York fall back: 02:00 EDT goes back to 01:00 EST at 06:00Z; 01:00-01:59 happen twice.
            ("res-20", "America/New_York", "2026-11-01T01:30", "2026-11-01T05:30:00Z", "2026-11-01T01:30", .repeated),
            ("res-21", "America/New_York", "2026-11-01T01:00", "2026-11-01T05:00:00Z", "2026-11-01T01:00", .repeated),
            ("res-22", "America/New_York", "2026-11-01T00:59", "2026-11-01T04:59:00Z", "2026-11-01T00:59", .exact),
            ("res-23", "America/New_York", "2026-11-01T02:00", "2026-11-01T07:00:00Z", "2026-11-01T02:00", .exact),
            ("res-24", "America/New_York", "2026-11-01T09:00", "2026-11-01T14:00:00Z", "2026-11-01T09:00", .exact),
            // Zones without DST resolve everything exactly.
            ("res-25", "UTC", "2026-03-29T02:30", "2026-03-29T02:30:00Z", "2026-03-29T02:30", .exact),
            ("res-26", "Asia/Tokyo", "2026-03-29T02:30", "2026-03-28T17:30:00Z", "2026-03-29T02:30", .exact),
            // Lord Howe moves its clocks by half an hour, so the gap is 30 minutes.
            ("res-27", "Australia/Lord_Howe", "2026-10-04T02:15", "2026-10-03T15:45:00Z", "2026-10-04T02:45", .skipped(minutes: 30)),
            ("res-28", "Australia/Lord_Howe", "2026-04-05T01:45", "2026-04-04T14:45:00Z", "2026-04-05T01:45", .repeated),
            // Samoa skipped all of 2011-12-30 when it crossed the date line.
            ("res-29", "Pacific/Apia", "2011-12-30T12:00", "2011-12-30T22:00:00Z", "2011-12-31T12:00", .skipped(minutes: 1_440)),
        ]
        for (id, name, wall, expectedInstant, expectedWall, expectedKind) in cases {
            let z = try zone(name, id)
            let resolution = z.resolve(try local(wall, id))
            XCTAssertEqual(resolution.instant, try instant(expectedInstant, id), "\(id): instant")
            XCTAssertEqual(resolution.wall.iso, expectedWall, "\(id): wall")
            XCTAssertEqual(resolution.kind, expectedKind, "\(id): kind")
            XCTAssertEqual(z.instant(for: try local(wall, id)), resolution.instant, "\(id): instant(for:)")
            // Whatever was chosen, the zone shows the wall time that was reported.
            XCTAssertEqual(z.local(at: resolution.instant), resolution.wall, "\(id): local(at:)")
        }
    }

    func testLocalAcrossTransitions() throws {
        let cases: [(String, String, String, String)] = [
            ("loc-01", "Europe/Berlin", "2026-03-29T00:59:00Z", "2026-03-29T01:59"),
            ("loc-02", "Europe/Berlin", "2026-03-29T01:00:00Z", "2026-03-29T03:00"),
            ("loc-03", "Europe/Berlin", "2026-10-25T00:30:00Z", "2026-10-25T02:30"),
            ("loc-04", "Europe/Berlin", "2026-10-25T01:30:00Z", "2026-10-25T02:30"),
            ("loc-05", "Europe/Berlin", "2026-10-25T00:59:59Z", "2026-10-25T02:59"),
            ("loc-06", "America/New_York", "2026-03-08T06:59:00Z", "2026-03-08T01:59"),
            ("loc-07", "America/New_York", "2026-03-08T07:00:00Z", "2026-03-08T03:00"),
            ("loc-08", "America/New_York", "2026-11-01T05:30:00Z", "2026-11-01T01:30"),
            ("loc-09", "America/New_York", "2026-11-01T06:30:00Z", "2026-11-01T01:30"),
            ("loc-10", "America/New_York", "2026-11-01T04:00:00Z", "2026-11-01T00:00"),
            ("loc-11", "America/New_York", "2026-01-01T03:00:00Z", "2025-12-31T22:00"),
            ("loc-12", "UTC", "1969-12-31T23:59:59Z", "1969-12-31T23:59"),
            ("loc-13", "Europe/Berlin", "1960-07-01T12:00:00Z", "1960-07-01T13:00"),
            ("loc-14", "Asia/Tokyo", "2026-12-31T15:00:00Z", "2027-01-01T00:00"),
        ]
        for (id, name, at, expected) in cases {
            XCTAssertEqual(try zone(name, id).local(at: instant(at, id)).iso, expected, id)
        }
    }

    func testWallTimesSurviveDSTChanges() throws {
        // R-DAY-3: a 9:00 task stays at 9:00 on each side of every transition.
        let cases: [(String, String, [String])] = [
            ("r-day-3-01", "Europe/Berlin", ["2026-03-28", "2026-03-29", "2026-03-30", "2026-10-24", "2026-10-25", "2026-10-26"]),
            ("r-day-3-02", "America/New_York", ["2026-03-07", "2026-03-08", "2026-03-09", "2026-10-31", "2026-11-01", "2026-11-02"]),
        ]
        for (id, name, days) in cases {
            let z = try zone(name, id)
            for day in days {
                let nine = try local(day + "T09:00", id)
                let resolution = z.resolve(nine)
                XCTAssertEqual(resolution.kind, .exact, "\(id) \(day)")
                XCTAssertEqual(z.local(at: resolution.instant), nine, "\(id) \(day)")
            }
        }
    }

    func testEveryQuarterHourOf2026RoundTrips() throws {
        // zrt-01: local(at:) then resolve gives back the instant, or the earlier twin of a repeated time.
        for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "UTC"] {
            let z = try zone(name, "zrt-01")
            var seconds = try instant("2026-01-01T00:00:00Z", "zrt-01").seconds
            let end = try instant("2027-01-01T00:00:00Z", "zrt-01").seconds
            while seconds < end {
                let at = Instant(seconds: seconds)
                let wall = z.local(at: at)
                let resolution = z.resolve(wall)
                XCTAssertEqual(resolution.wall, wall, "zrt-01 \(name) \(seconds)")
                switch resolution.kind {
                case .exact:
                    XCTAssertEqual(resolution.instant, at, "zrt-01 \(name) \(seconds) exact")
                case .repeated:
                    XCTAssertLessThanOrEqual(resolution.instant, at, "zrt-01 \(name) \(seconds) repeated")
                case .skipped:
                    XCTFail("zrt-01 \(name) \(seconds): a shown wall time cannot be in a gap")
                }
                seconds += 900
            }
        }
    }

    func testCachedOffsetsMatchFoundation() throws {
        // zcache-01: the transition-window cache must agree with TimeZone everywhere, in any query order.
        let names = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Tokyo", "Pacific/Apia",
                     "America/Sao_Paulo", "Africa/Casablanca", "UTC"]
        for name in names {
            let z = try zone(name, "zcache-01")
            let tz = z.timeZone
            // A walk in order over 2020...2030, every 30 minutes.
            var seconds: Int64 = 1_577_836_800
            while seconds < 1_893_456_000 {
                let expected = tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
                XCTAssertEqual(z.offset(at: Instant(seconds: seconds)), expected, "zcache-01 \(name) \(seconds)")
                seconds += 1_800
            }
            // Then jumps back and forth over 1900...2200 from a fixed pseudo-random sequence.
            var state: UInt64 = 0x2545_F491_4F6C_DD1D
            for _ in 0..<20_000 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let seconds = -2_208_988_800 + Int64(state >> 33) % 9_467_280_000
                let expected = tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
                XCTAssertEqual(z.offset(at: Instant(seconds: seconds)), expected, "zcache-02 \(name) \(seconds)")
            }
        }
    }

    func testConcurrentLookupsAgree() throws {
        // zconc-01: copies of one Zone share a locked cache; many threads at once must still get Foundation's answer.
        let z = try zone("America/New_York", "zconc-01")
        let tz = z.timeZone
        let mismatches = Mismatches()
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            for step in 0..<2_000 {
                let seconds = Int64(1_700_000_000 + (worker * 7_919 + step * 104_729) % 400_000_000)
                let expected = tz.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
                if z.offset(at: Instant(seconds: seconds)) != expected { mismatches.add(seconds) }
            }
        }
        XCTAssertEqual(mismatches.all, [], "zconc-01")
    }

    func testExtremeInstantsDoNotTrap() throws {
        let z = try zone("Europe/Berlin", "zext-01")
        XCTAssertEqual(z.local(at: Instant(seconds: Int64.max)).date.year, 9999, "zext-01")
        XCTAssertEqual(z.local(at: Instant(seconds: Int64.min)).date.year, 1, "zext-02")
        XCTAssertEqual(z.resolve(CivilDateTime(date: .earliest, time: .midnight)).wall.date, .earliest, "zext-03")
        XCTAssertEqual(z.resolve(CivilDateTime(date: .latest, time: .midnight)).wall.date, .latest, "zext-04")
    }
}

/// Collects failures from worker threads for one assertion afterwards.
private final class Mismatches: @unchecked Sendable {
    // @unchecked: `seconds` is only touched under `lock`.
    private let lock = NSLock()
    private var seconds: [Int64] = []

    func add(_ value: Int64) {
        lock.lock()
        seconds.append(value)
        lock.unlock()
    }

    var all: [Int64] {
        lock.lock()
        defer { lock.unlock() }
        return seconds
    }
}
