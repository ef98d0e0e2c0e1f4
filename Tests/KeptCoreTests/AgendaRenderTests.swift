// The agenda as a session renders it, with events passed to the engine as values (the
// connected-calendars seam returns none here): their text lines and the JSON shape agreed for
// them (docs/AGENDA.md, "JSON").

import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore
@testable import KeptSyntax
@testable import KeptInterpreter

final class AgendaRenderTests: XCTestCase, SessionTesting {
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func session(_ format: OutputFormat = .text) -> Session {
        Session(store: JSONStore(memory: Store()),
                clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                defaultZone: berlin, format: format)
    }

    func instant(_ iso: String) -> Instant {
        berlin.instant(for: CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
    }

    var events: [CalendarEvent] {
        [CalendarEvent(calendar: "Work", uid: "s1", title: "Standup", when: .timed(start: instant("2026-06-15T09:30"), end: instant("2026-06-15T09:45"))),
         CalendarEvent(calendar: "Trips", uid: nil, title: "Night train", when: .timed(start: instant("2026-06-15T22:00"), end: instant("2026-06-16T06:00"))),
         CalendarEvent(calendar: "Home", uid: "h", title: "Holiday", when: .allDay(first: CivilDate(iso: "2026-06-16") ?? CivilDate(dayNumber: 0),
                                                                              last: CivilDate(iso: "2026-06-16") ?? CivilDate(dayNumber: 0)), location: "Lake")]
    }

    func agenda(_ s: Session) throws -> CommandOutput {
        let a = try s.engine.agenda(AgendaRequest(first: s.today, days: 2), events: events)
        return s.renderAgenda(a)
    }

    /// R-AGENDA-1, R-AGENDA-2, R-AGENDA-10: events among the tasks, in time order; an all-day
    /// one under Due this day; an overnight one on both days.
    func testEventsInText() throws {
        let s = session()
        run(s, "add Call the bank @today 9:30am")
        XCTAssertEqual(try agenda(s).lines, [
            "Agenda · Mon Jun 15 – Tue Jun 16",
            "Mon Jun 15 · Today",
            "  9:30 AM  1  Call the bank",
            "  9:30 AM  Standup · until 9:45 AM · Work",
            "  10 PM    Night train · until Tue Jun 16 6 AM · Trips",
            "Tue Jun 16 · Tomorrow",
            "  Due this day",
            "    Holiday · all day · Home · Lake",
            "  12 AM    Night train · since Mon Jun 15 10 PM · until 6 AM · Trips",
        ])
    }

    /// The agreed JSON of an event: type, calendar, uid (null when none), title, then start and
    /// end with the account zone's offset, or allDay with first and last.
    func testEventsInJSON() throws {
        let s = session(.json)
        let line = try XCTUnwrap(try agenda(s).lines.first)
        let v = try JSONParser.parse(line)
        guard case .object(let o) = v, case .array(let days)? = o["days"], case .object(let d0)? = days.first,
              case .array(let timed)? = d0["timed"], case .object(let standup)? = timed.first,
              days.count == 2, case .object(let d1) = days[1], case .array(let dated)? = d1["dueThisDay"], case .object(let holiday)? = dated.first,
              case .array(let timed1)? = d1["timed"], case .object(let train)? = timed1.first else {
            return XCTFail("not the agenda's shape: \(line)")
        }
        XCTAssertEqual(standup["type"], .string("event"))
        XCTAssertEqual(standup["calendar"], .string("Work"))
        XCTAssertEqual(standup["uid"], .string("s1"))
        XCTAssertEqual(standup["start"], .string("2026-06-15T09:30:00+02:00"))
        XCTAssertEqual(standup["end"], .string("2026-06-15T09:45:00+02:00"))
        XCTAssertNil(standup["allDay"])
        XCTAssertEqual(holiday["allDay"], .bool(true))
        XCTAssertEqual(holiday["first"], .string("2026-06-16"))
        XCTAssertEqual(holiday["last"], .string("2026-06-16"))
        XCTAssertNil(holiday["start"])
        // The overnight one is under both days, with its own start.
        XCTAssertEqual(train["uid"], .null)
        XCTAssertEqual(train["start"], .string("2026-06-15T22:00:00+02:00"))
    }
}
