// A calendar's recurrence set read as one series (docs/INTEROP.md, "Repeats"; issue 33, items
// 1–7): each case a small calendar, imported, and its dues walked with `skip next`; the
// expected dues are RFC 5545's (and recurring-ical-events', Tests/differential/interop_peers.py).

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class ICalendarSeriesTests: XCTestCase, SessionTesting {
    static let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    static let now = CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 15) ?? .earliest, time: WallTime(hour: 9, minute: 0) ?? .midnight)

    func session() -> Session {
        Session(store: JSONStore(memory: Store()), clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(7))
    }

    /// A calendar of these lines, imported into a new session: the session and the report's lines.
    func imported(_ ics: [String]) throws -> (Session, [String]) {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//x//EN"] + ics + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        let path = NSTemporaryDirectory() + "kept-series-\(UUID().uuidString).ics"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        let s = session()
        let out = lines(s, "import \(path)")
        return (s, out)
    }

    /// Task 1's due, then its next `n` dues, each by `skip next 1`, as `2026-07-06T10:00` or `2026-07-06`.
    func dues(_ s: Session, _ n: Int) -> [String] {
        func text() -> String { s.store.task(1)?.due.map { RepeatExtras.text($0) } ?? "-" }
        var out = [text()]
        for _ in 0..<n {
            XCTAssertFalse(run(s, "skip next 1").failed)
            out.append(text())
        }
        return out
    }

    static let berlin = "TZID=Europe/Berlin"

    /// R-IO-4: an EXDATE may take out DTSTART itself; the task is due on the first occurrence left.
    func testAnExdateOnDTSTARTMovesTheFirstDue() throws {
        let (s, _) = try imported(["BEGIN:VTODO", "UID:i1", "SUMMARY:one", "DTSTART;\(Self.berlin):20260706T100000",
                                   "DUE;\(Self.berlin):20260706T100000", "RRULE:FREQ=WEEKLY", "EXDATE;\(Self.berlin):20260706T100000", "END:VTODO"])
        XCTAssertEqual(dues(s, 2), ["2026-07-13T10:00", "2026-07-20T10:00", "2026-07-27T10:00"])
    }

    /// R-IO-5: an RDATE set without an RRULE is DTSTART and its dates; an RDATE of a PERIOD is
    /// its start, and the period is kept and named.
    func testRDATEAloneAndAsAPeriod() throws {
        let (s, report) = try imported(["BEGIN:VTODO", "UID:i2", "SUMMARY:two", "DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260701",
                                        "RDATE;VALUE=DATE:20260708,20260715", "END:VTODO"])
        XCTAssertEqual(report.count, 1, "\(report)")
        XCTAssertEqual(dues(s, 2), ["2026-07-01", "2026-07-08", "2026-07-15"])
        XCTAssertTrue(run(s, "skip next 1").failed, "the series has no fourth date")
        let (p, preport) = try imported(["BEGIN:VTODO", "UID:i2b", "SUMMARY:twob", "DTSTART;\(Self.berlin):20260701T100000",
                                         "DUE;\(Self.berlin):20260701T100000", "RRULE:FREQ=WEEKLY", "RDATE;VALUE=PERIOD:20260703T100000Z/PT1H", "END:VTODO"])
        XCTAssertEqual(preport.last, "Kept without a Kept field, in each task's \"icalendar\" field: RDATE;VALUE=PERIOD (1)")
        XCTAssertEqual(dues(p, 2), ["2026-07-01T10:00", "2026-07-03T13:00", "2026-07-08T10:00"], "a VTODO's period ends on its due")
    }

    /// R-IO-6: a Windows TZID is its CLDR zone; a VTIMEZONE of one offset is that offset; a
    /// TZID no zone is known for is named in the report.
    func testWindowsAndUnknownTZIDs() throws {
        let vtz = ["BEGIN:VTIMEZONE", "TZID:Pacific Standard Time", "BEGIN:STANDARD", "DTSTART:16010101T020000", "TZOFFSETFROM:-0700",
                   "TZOFFSETTO:-0800", "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11", "END:STANDARD", "BEGIN:DAYLIGHT", "DTSTART:16010101T020000",
                   "TZOFFSETFROM:-0800", "TZOFFSETTO:-0700", "RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE"]
        let (s, report) = try imported(vtz + ["BEGIN:VTODO", "UID:i3", "SUMMARY:three", "DUE;TZID=Pacific Standard Time:20260702T100000", "END:VTODO"])
        XCTAssertEqual(report.count, 1, "\(report)")
        XCTAssertEqual(dues(s, 0), ["2026-07-02T19:00"], "Los Angeles 10:00 PDT is Berlin 19:00")
        let fixed = ["BEGIN:VTIMEZONE", "TZID:Somewhere", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0530",
                     "TZOFFSETTO:+0530", "END:STANDARD", "END:VTIMEZONE"]
        let (f, _) = try imported(fixed + ["BEGIN:VTODO", "UID:i3b", "SUMMARY:x", "DUE;TZID=Somewhere:20260702T100000", "END:VTODO"])
        XCTAssertEqual(dues(f, 0), ["2026-07-02T06:30"])
        let (u, ureport) = try imported(["BEGIN:VTODO", "UID:i3c", "SUMMARY:x", "DUE;TZID=Nowhere Time:20260702T100000", "END:VTODO"])
        XCTAssertEqual(ureport.last, "Kept without a Kept field, in each task's \"icalendar\" field: TZID (1)")
        XCTAssertEqual(u.store.task(1)?.extra["icalendar"]?.objectValue?["unknown-tzid"], .array([.string("Nowhere Time")]))
        // Los Angeles and Berlin change their clocks a week apart: a daily 10:00 there is 18:00
        // and then 19:00 here, which one series on Berlin's wall clock cannot be; said.
        let (d, dreport) = try imported(vtz + ["BEGIN:VTODO", "UID:i3d", "SUMMARY:x", "DTSTART;TZID=Pacific Standard Time:20261029T100000",
                                               "DUE;TZID=Pacific Standard Time:20261029T100000", "RRULE:FREQ=DAILY;COUNT=7", "END:VTODO"])
        XCTAssertEqual(dreport.last, "Kept without a Kept field, in each task's \"icalendar\" field: TZID (1)")
        XCTAssertEqual(d.store.task(1)?.extra["icalendar"]?.objectValue?["series-zone"], .string("America/Los_Angeles"))
        let (j, jreport) = try imported(vtz + ["BEGIN:VTODO", "UID:i3e", "SUMMARY:x", "DTSTART;TZID=Pacific Standard Time:20260701T100000",
                                               "DUE;TZID=Pacific Standard Time:20260701T100000", "RRULE:FREQ=DAILY;COUNT=7", "END:VTODO"])
        XCTAssertEqual(jreport.count, 1, "\(jreport)")
        XCTAssertEqual(dues(j, 1), ["2026-07-01T19:00", "2026-07-02T19:00"])
    }

    /// R-IO-7: an RDATE at another time of day is that one occurrence; the series keeps its time.
    func testAnRDATEAtAnotherTimeKeepsTheSeriesTime() throws {
        let (s, _) = try imported(["BEGIN:VTODO", "UID:i4", "SUMMARY:four", "DTSTART;\(Self.berlin):20260701T140000", "DUE;\(Self.berlin):20260701T140000",
                                   "RRULE:FREQ=DAILY;INTERVAL=2", "RDATE;\(Self.berlin):20260704T110000", "END:VTODO"])
        XCTAssertEqual(dues(s, 4), ["2026-07-01T14:00", "2026-07-03T14:00", "2026-07-04T11:00", "2026-07-05T14:00", "2026-07-07T14:00"])
    }

    /// R-IO-8: a VTODO's dues are DTSTART's series moved by DUE − DTSTART; a start keeps its distance.
    func testDuesAreDTSTARTsSeriesMovedByTheDue() throws {
        let (s, _) = try imported(["BEGIN:VTODO", "UID:i5", "SUMMARY:five", "DTSTART;VALUE=DATE:20260501", "DUE;VALUE=DATE:20260515",
                                   "RRULE:FREQ=MONTHLY", "END:VTODO"])
        XCTAssertEqual(s.store.task(1)?.start, Due(date: CivilDate(year: 2026, month: 5, day: 1) ?? .earliest))
        XCTAssertEqual(dues(s, 2), ["2026-05-15", "2026-06-15", "2026-07-15"])
        // A rule whose days do not come from its anchor cannot be moved: the series stays on
        // DTSTART's dates, and the report names DUE.
        let (w, report) = try imported(["BEGIN:VTODO", "UID:i5b", "SUMMARY:x", "DTSTART;VALUE=DATE:20260706", "DUE;VALUE=DATE:20260708",
                                        "RRULE:FREQ=MONTHLY;BYDAY=1MO", "END:VTODO"])
        XCTAssertEqual(report.last, "Kept without a Kept field, in each task's \"icalendar\" field: DUE (1)")
        XCTAssertEqual(dues(w, 0), ["2026-07-08"])
    }

    /// R-IO-9: a second RRULE (undefined in RFC 5545) is kept and named; the first is the series.
    func testASecondRRULEIsKeptAndNamed() throws {
        let (s, report) = try imported(["BEGIN:VTODO", "UID:i6", "SUMMARY:six", "DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260701",
                                        "RRULE:FREQ=WEEKLY", "RRULE:FREQ=MONTHLY", "END:VTODO"])
        XCTAssertEqual(report.last, "Kept without a Kept field, in each task's \"icalendar\" field: RRULE (1)")
        XCTAssertEqual(s.store.task(1)?.extra["icalendar"]?.objectValue?["properties"], .array([.string("RRULE:FREQ=MONTHLY")]))
        XCTAssertEqual(dues(s, 1), ["2026-07-01", "2026-07-08"])
        // A second RRULE with an end adds its dates, as recurring-ical-events reads the set.
        let (f, freport) = try imported(["BEGIN:VTODO", "UID:i6b", "SUMMARY:six", "DTSTART;VALUE=DATE:20260701", "DUE;VALUE=DATE:20260701",
                                         "RRULE:FREQ=WEEKLY;COUNT=3", "RRULE:FREQ=MONTHLY;COUNT=2;BYMONTHDAY=3", "END:VTODO"])
        XCTAssertEqual(freport.count, 1, "\(freport)")
        XCTAssertEqual(dues(f, 3), ["2026-07-01", "2026-07-03", "2026-07-08", "2026-07-15"])
        XCTAssertTrue(run(f, "skip next 1").failed == false)
        XCTAssertEqual(f.store.task(1)?.due?.date.iso, "2026-08-03")
    }

    /// R-IO-10: overrides, before or after their series: a cancelled occurrence is an EXDATE, a
    /// moved one an EXDATE and an RDATE; one that changes more is kept and named; one whose
    /// series is not in the file is counted as not read.
    func testOverridesAreApplied() throws {
        let (s, report) = try imported([
            "BEGIN:VTODO", "UID:i7", "RECURRENCE-ID;\(Self.berlin):20260708T100000", "DTSTART;\(Self.berlin):20260709T150000",
            "DUE;\(Self.berlin):20260709T150000", "SUMMARY:seven", "END:VTODO",
            "BEGIN:VTODO", "UID:i7", "SUMMARY:seven", "DTSTART;\(Self.berlin):20260701T100000", "DUE;\(Self.berlin):20260701T100000",
            "RRULE:FREQ=WEEKLY", "END:VTODO",
            "BEGIN:VTODO", "UID:i7", "RECURRENCE-ID;\(Self.berlin):20260701T100000", "STATUS:CANCELLED", "END:VTODO",
            "BEGIN:VTODO", "UID:i7", "RECURRENCE-ID;\(Self.berlin):20260715T100000", "DTSTART;\(Self.berlin):20260715T100000", "SUMMARY:renamed", "END:VTODO",
            "BEGIN:VTODO", "UID:other", "RECURRENCE-ID:20260701T100000", "SUMMARY:x", "END:VTODO",
        ])
        XCTAssertEqual(report, ["Imported \(report.first?.split(separator: " ")[1] ?? "") (iCalendar): 1 added, 0 changed, 0 skipped",
                                "Kept without a Kept field, in each task's \"icalendar\" field: RECURRENCE-ID (1)",
                                "1 not read: an occurrence changed on its own (RECURRENCE-ID) of a series not in the file"])
        XCTAssertEqual(dues(s, 2), ["2026-07-09T15:00", "2026-07-15T10:00", "2026-07-22T10:00"])
    }
}
