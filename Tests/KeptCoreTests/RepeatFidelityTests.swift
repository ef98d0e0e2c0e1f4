// Issue 33's reproducers of the repeat engine, with RFC 5545's and RFC 7529's answers: a
// timed series starts at its start's moment (R-REP-11), `from DATE TIME` (R-REP-12).

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RepeatFidelityTests: XCTestCase, SessionTesting {
    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func session(_ now: String = "2026-06-15T09:00") -> Session {
        Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: now) ?? CivilDateTime(date: .earliest, time: .midnight)),
                defaultZone: Self.berlin)
    }

    func rule(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> RepeatRule? {
        switch RepeatRule.fromRRULE(text) {
        case .success(var r):
            r.weekStart = r.weekStart ?? .monday
            return r
        case .failure(let e):
            XCTFail("\(text): \(e)", file: file, line: line)
            return nil
        }
    }

    func day(_ s: String) -> CivilDate { CivilDate(iso: s) ?? .earliest }
    func time(_ s: String) -> WallTime? { CivilDateTime(iso: "2000-01-01T" + s)?.time }
    func texts(_ ds: [Due]) -> [String] { ds.map { RepeatExtras.text($0) } }

    /// R-REP-11 (issue 33, item 9): RFC 5545's DTSTART is the first instance; COUNT counts from it.
    func testATimedDailyRuleHasNothingBeforeItsStart() throws {
        let r = try XCTUnwrap(rule("FREQ=DAILY;BYMINUTE=0,10,20,30,40,50;BYSETPOS=-2,3;INTERVAL=5;COUNT=5"))
        let start = time("15:40")
        XCTAssertEqual(texts(r.occurrences(anchor: day("2024-10-23"), time: start, limit: 10, start: start)),
                       ["2024-10-23T15:40", "2024-10-28T15:20", "2024-10-28T15:40", "2024-11-02T15:20", "2024-11-02T15:40"])
        // The series of a task: its anchor's time is its start, for each next occurrence too.
        let spec = RepeatSpec(rule: r, anchor: day("2024-10-23"), anchorTime: start)
        XCTAssertEqual(texts(spec.occurrences(limit: 10, time: start, weekStart: .monday, zone: Self.berlin)),
                       ["2024-10-23T15:40", "2024-10-28T15:20", "2024-10-28T15:40", "2024-11-02T15:20", "2024-11-02T15:40"])
        // Every day, weekly and monthly: COUNT counts from the start, by each counting path.
        let cases: [(String, String, String, [String])] = [
            ("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0;COUNT=3", "2026-06-20", "13:00", ["2026-06-20T17:00", "2026-06-21T09:00", "2026-06-21T17:00"]),
            ("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9,17;BYMINUTE=0;COUNT=3", "2026-06-15", "10:00",
             ["2026-06-15T17:00", "2026-06-17T09:00", "2026-06-17T17:00"]),
            ("FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=9,17;BYMINUTE=0;COUNT=3", "2026-07-01", "12:00",
             ["2026-07-01T17:00", "2026-07-15T09:00", "2026-07-15T17:00"]),
            ("FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=1;BYHOUR=9,17;BYMINUTE=0;COUNT=3", "2026-07-01", "12:00",
             ["2026-07-01T17:00", "2027-07-01T09:00", "2027-07-01T17:00"]),
        ]
        for (text, anchor, at, want) in cases {
            let r = try XCTUnwrap(rule(text))
            var spec = RepeatSpec(rule: r, anchor: day(anchor), anchorTime: time(at))
            spec.anchorTime = time(at)
            XCTAssertEqual(texts(spec.occurrences(limit: 10, time: time(at), weekStart: .monday, zone: Self.berlin)), want, text)
            // The next occurrence after the last is none: COUNT is spent.
            if let last = want.last.flatMap({ CivilDateTime(iso: $0) }) {
                XCTAssertNil(spec.nextOccurrence(after: last, time: time(at), weekStart: .monday, zone: Self.berlin), text)
            }
        }
    }

    /// R-REP-12 (issue 33, item 10): `from DATE TIME` for an hourly rule, a rule without times
    /// and a rule with times; canonical words that parse back.
    func testFromADateAndATime() throws {
        let s = session()
        XCTAssertEqual(lines(s, "repeat FREQ=HOURLY;COUNT=3 from 2024-10-23 3:40pm").suffix(3),
                       ["Wed Oct 23, 2024 4:40 PM", "Wed Oct 23, 2024 5:40 PM", "(the series ends here)"])
        XCTAssertEqual(lines(s, "repeat every day from 2026-06-20 9am next 2").suffix(2), ["Sat Jun 20, 2026 9 AM", "Sun Jun 21, 2026 9 AM"])
        guard case .success(let (r, used)) = RepeatRule.parse("every day at 9am and 5pm from 2026-06-20 1pm for 3 times") else {
            return XCTFail("not read")
        }
        XCTAssertEqual(used, 12)
        XCTAssertEqual(r.fromTime, time("13:00"))
        XCTAssertEqual(r.text(anchor: nil), "Every day at 9am and 5pm from 2026-06-20 1pm for 3 times")
        guard case .success(let (back, _)) = RepeatRule.parse(r.text(anchor: nil)) else { return XCTFail("words do not read back") }
        XCTAssertEqual(back, r)
        guard case .success(let rr) = RepeatRule.fromText("FREQ=HOURLY;COUNT=3 from 2024-10-23 3:40pm") else { return XCTFail("RRULE text") }
        XCTAssertEqual(rr.fromTime, time("15:40"))
        XCTAssertFalse(run(s, "add Walk every day from jun 20 7:30am").failed)
        XCTAssertEqual(s.store.task(1)?.due, Due(date: day("2026-06-20"), time: time("07:30")))
    }

    /// R-DAY-6 (issue 33, item 13): at the second 01:30 of 2026-11-01 in New York (06:30 UTC),
    /// `1:45am` is tomorrow's: today's 01:45 is its first instant (05:45 UTC), which has passed.
    func testATimeInTheRepeatedHourWhoseFirstInstantPassedIsTomorrow() throws {
        let ny = try XCTUnwrap(Zone(identifier: "America/New_York"))
        let wall = try XCTUnwrap(CivilDateTime(iso: "2026-11-01T01:30"))
        let second = try XCTUnwrap(TimeText.parseISOInstant("2026-11-01T06:30:00Z"))
        let first = ny.instant(for: wall)
        XCTAssertEqual(first.seconds + 3600, second.seconds, "the wall reading's first instant is an hour before the second")
        func due(_ phrase: String, at instant: Instant) -> String? {
            let ctx = DateContext(now: wall, today: wall.date, settings: Settings(), zone: ny, instant: instant)
            guard case .success(let (r, _)) = DatePhrase.resolve([phrase], in: ctx) else { return nil }
            return RepeatExtras.text(r.due)
        }
        XCTAssertEqual(due("1:45am", at: second), "2026-11-02T01:45")
        XCTAssertEqual(due("1:45am", at: first), "2026-11-01T01:45", "at the first 01:30, 01:45 is still ahead")
        XCTAssertEqual(due("2am", at: second), "2026-11-01T02:00")
        XCTAssertEqual(due("1:15am", at: second), "2026-11-02T01:15")
    }

    /// R-REP-13 (issue 33, item 8): RFC 7529's SKIP for day 366, days from the end, FORWARD;
    /// the RRULE Kept writes keeps RSCALE and SKIP, and reads back as the same rule.
    func testSkipMovesEveryMissingDay() throws {
        let cases: [(String, String, String?, [String])] = [
            ("RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=366;SKIP=BACKWARD;COUNT=9", "2012-12-31", "12:00",
             (2012...2020).map { "\($0)-12-31T12:00" }),
            ("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=-31;COUNT=12;SKIP=BACKWARD", "2015-01-01", nil,
             ["2015-01-01", "2015-01-31", "2015-03-01", "2015-03-31", "2015-05-01", "2015-05-31", "2015-07-01", "2015-08-01",
              "2015-08-31", "2015-10-01", "2015-10-31", "2015-12-01"]),
            ("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=FORWARD;COUNT=6", "2015-01-31", nil,
             ["2015-01-31", "2015-03-01", "2015-03-31", "2015-05-01", "2015-05-31", "2015-07-01"]),
            ("RSCALE=GREGORIAN;FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;SKIP=FORWARD;COUNT=5", "2016-02-29", nil,
             ["2016-02-29", "2017-03-01", "2018-03-01", "2019-03-01", "2020-02-29"]),
            ("RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=-366;SKIP=BACKWARD;COUNT=4", "2012-01-01", nil,
             ["2012-01-01", "2012-12-31", "2013-12-31", "2014-12-31"]),
            ("RSCALE=GREGORIAN;FREQ=YEARLY;BYYEARDAY=366;SKIP=FORWARD;COUNT=3", "2012-12-31", nil,
             ["2012-12-31", "2014-01-01", "2015-01-01"]),
            // RFC 5545 alone (OMIT): the days that do not exist are none.
            ("FREQ=YEARLY;BYYEARDAY=366;COUNT=3", "2012-12-31", nil, ["2012-12-31", "2016-12-31", "2020-12-31"]),
            ("FREQ=MONTHLY;BYMONTHDAY=-31;COUNT=3", "2015-01-01", nil, ["2015-01-01", "2015-03-01", "2015-05-01"]),
        ]
        for (text, anchor, at, want) in cases {
            let r = try XCTUnwrap(rule(text))
            XCTAssertEqual(texts(r.occurrences(anchor: day(anchor), time: at.flatMap(time), limit: 20, start: at.flatMap(time))), want, text)
            // Its COUNT is spent at the last date, by the count the next occurrence checks.
            if let last = want.last {
                let moment = CivilDateTime(iso: last.count == 10 ? last + "T23:59" : last) ?? CivilDateTime(date: .earliest, time: .midnight)
                XCTAssertNil(r.nextOccurrence(after: moment, anchor: day(anchor), time: at.flatMap(time), start: at.flatMap(time)), text)
            }
            let written = try r.rrule(anchor: day(anchor)).get()
            XCTAssertEqual(written.contains("RSCALE=GREGORIAN"), text.contains("RSCALE"), written)
            let back = try XCTUnwrap(rule(written))
            XCTAssertEqual(texts(back.occurrences(anchor: day(anchor), time: at.flatMap(time), limit: 20, start: at.flatMap(time))), want, written)
            XCTAssertEqual(back.skip, r.skip, written)
        }
        // A SKIP moving a day out of its period with what the walk does not hold is refused.
        guard case .failure(let e) = RepeatRule.fromRRULE("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;BYSETPOS=1;SKIP=FORWARD") else {
            return XCTFail("read")
        }
        XCTAssertEqual(Catalog.code(e), .E0220)
        // The dates of a stored FORWARD rule, the next occurrence of a task, after a skip.
        let s = session()
        XCTAssertFalse(run(s, "add Pay @2026-07-31").failed)
        XCTAssertFalse(run(s, "set 1 repeat RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=FORWARD").failed)
        XCTAssertFalse(run(s, "skip next 1").failed)
        XCTAssertFalse(run(s, "skip next 1").failed)
        XCTAssertEqual(s.store.task(1)?.due, Due(date: day("2026-10-01")), "September 31st is October 1st")
    }
}
