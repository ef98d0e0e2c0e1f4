// Connected calendars (docs/AGENDA.md, "Connected calendars"; R-CAL-1 … R-CAL-8): the
// connections in the store through the change path, on both backends, and the events read from
// their files. The comparison with recurring-ical-events is Tests/differential/agenda_peer.py.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class CalendarTests: XCTestCase, SessionTesting {
    var dir: URL!
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-cal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// Writes a calendar of these lines (CRLF, inside VCALENDAR) and returns its path.
    @discardableResult
    func write(_ name: String, _ lines: [String]) throws -> String {
        let text = (["BEGIN:VCALENDAR", "VERSION:2.0"] + lines + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    func event(_ props: [String]) -> [String] { ["BEGIN:VEVENT"] + props + ["END:VEVENT"] }

    static let nine = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    func session(_ backend: any StoreBackend = JSONStore(memory: Store())) -> Session {
        let s = Session(engine: Engine(store: backend, clock: .wall(Self.nine), defaultZone: berlin, uids: .seeded(3)), commits: .eachStatement)
        s.fileBase = dir.path
        return s
    }

    func day(_ iso: String) -> CivilDate { CivilDate(iso: iso) ?? CivilDate(dayNumber: 0) }

    /// The events of days first…last as `title start–end` lines in Berlin wall time.
    func agenda(_ s: Session, _ first: String, _ last: String) -> [String] {
        s.connectedEvents(first: day(first), last: day(last)).events.map(describe)
    }

    func describe(_ e: CalendarEvent) -> String {
        switch e.when {
        case .allDay(let f, let l): return "\(e.title) \(f.iso)…\(l.iso) [\(e.calendar)]"
        case .timed(let a, let b):
            return "\(e.title) \(TimeText.isoInstant(a, in: berlin))–\(TimeText.isoInstant(b, in: berlin)) [\(e.calendar)]"
        }
    }

    func events(_ lines: [String], _ first: String, _ last: String) throws -> [String] {
        let p = try write("x.ics", lines)
        return try CalendarEvents.read(path: p, zone: berlin).events(calendar: "x", first: day(first), last: day(last), zone: berlin).map(describe)
    }

    /// R-CAL-1: a connection is kept in the store through the one change path (undo and redo
    /// take it back and make it again), on the JSON and the SQLite backend alike, and reads
    /// back from the file; its events are never tasks.
    func testConnectionIsStoredAndUndone() throws {
        try write("work.ics", event(["UID:a", "SUMMARY:Standup", "DTSTART:20260615T073000Z", "DURATION:PT15M"]))
        for sqlite in [false, true] {
            let file = path(sqlite ? "s.db" : "s.json")
            let backend: any StoreBackend = sqlite ? try SQLiteStore.open(file).get() : try JSONStore.open(file).get()
            let s = session(backend)
            XCTAssertEqual(lines(s, "calendar connect Work work.ics"), ["Connected calendar Work · work.ics · 1 event"])
            XCTAssertEqual(s.store.calendars.map(\.name), ["Work"])
            XCTAssertEqual(s.store.calendars.first?.path, path("work.ics"), "a relative file is found from the file base")
            XCTAssertEqual(s.store.taskCount, 0, "events are never tasks")
            XCTAssertEqual(lines(s, "calendar hide Work"), ["Hid calendar Work"])
            XCTAssertEqual(lines(s, "undo"), ["Undid calendar hide Work"])
            XCTAssertEqual(s.store.calendars.first?.hidden, false)
            XCTAssertEqual(lines(s, "redo").count, 1)
            XCTAssertEqual(s.store.calendars.first?.hidden, true)
            let again: any StoreBackend = sqlite ? try SQLiteStore.open(file).get() : try JSONStore.open(file).get()
            XCTAssertEqual(again.calendars, [CalendarConnection(name: "Work", file: "work.ics", path: path("work.ics"), hidden: true)], "committed and read back")
            XCTAssertEqual(lines(session(again), "calendar list"), ["Work  work.ics  hidden  1 event"])
        }
    }

    /// R-CAL-1, R-CAL-6: a file that does not read is refused at connect with its line, and
    /// nothing is connected; a name is its own; an unknown name has a did-you-mean.
    func testConnectRefusals() throws {
        try write("bad.ics", event(["SUMMARY:Half", "DTSTART:2026-06-15"]))
        try write("ok.ics", event(["SUMMARY:Fine", "DTSTART;VALUE=DATE:20260615"]))
        let s = session()
        let bad = lines(s, "calendar connect Bad bad.ics")
        XCTAssertEqual(bad.count, 1)
        XCTAssertTrue(bad[0].hasPrefix("! E0612 could not read the calendar 'bad.ics': line 5:"), bad[0])
        XCTAssertEqual(lines(s, "calendar connect Gone missing.ics").first?.hasPrefix("! E0612"), true)
        XCTAssertTrue(s.store.calendars.isEmpty)
        XCTAssertEqual(lines(s, "calendar connect Home ok.ics"), ["Connected calendar Home · ok.ics · 1 event"])
        XCTAssertEqual(lines(s, "calendar connect home ok.ics"), ["! E0351 a calendar named 'home' is connected already"])
        XCTAssertEqual(lines(s, "calendar hide Hom"), ["! E0350 no calendar named 'Hom'"])
        XCTAssertEqual(lines(s, "calendar disconnect Home"), ["Disconnected calendar Home · ok.ics"])
        XCTAssertEqual(lines(s, "calendar list"), ["No connected calendars"])
    }

    /// R-CAL-2: DTSTART with DTEND, DURATION or neither (a date lasts a day, a date-time an
    /// instant), TZID by IANA name, VTIMEZONE and Windows name, UTC and floating times.
    func testStartsEndsAndZones() throws {
        let got = try events([
            "BEGIN:VTIMEZONE", "TZID:Office", "X-LIC-LOCATION:America/New_York", "END:VTIMEZONE",
            "BEGIN:VTIMEZONE", "TZID:Fixed", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0530", "TZOFFSETTO:+0530",
            "END:STANDARD", "END:VTIMEZONE",
        ] + event(["SUMMARY:A", "DTSTART;TZID=Office:20260615T090000", "DTEND;TZID=Office:20260615T100000"])
          + event(["SUMMARY:B", "DTSTART:20260615T080000Z", "DURATION:PT30M"])
          + event(["SUMMARY:C", "DTSTART:20260615T180000"])
          + event(["SUMMARY:D", "DTSTART;VALUE=DATE:20260616"])
          + event(["SUMMARY:E", "DTSTART;TZID=W. Europe Standard Time:20260616T120000", "DURATION:P1DT1H"])
          + event(["SUMMARY:F", "DTSTART;TZID=Fixed:20260616T100000"]), "2026-06-15", "2026-06-16")
        XCTAssertEqual(got, [
            "B 2026-06-15T10:00:00+02:00–2026-06-15T10:30:00+02:00 [x]",
            "A 2026-06-15T15:00:00+02:00–2026-06-15T16:00:00+02:00 [x]",
            "C 2026-06-15T18:00:00+02:00–2026-06-15T18:00:00+02:00 [x]",
            "D 2026-06-16…2026-06-16 [x]",
            "F 2026-06-16T06:30:00+02:00–2026-06-16T06:30:00+02:00 [x]",
            "E 2026-06-16T12:00:00+02:00–2026-06-17T13:00:00+02:00 [x]",
        ])
    }

    /// R-CAL-2: content lines as RFC 5545 writes them: folded, quoted parameters, names in any
    /// case, properties the events never use (with a `:` inside quotes) passed over; a line
    /// without a `:` is refused with its line.
    func testContentLines() throws {
        let got = try events(event(["UID:f", "SUMMARY:A long title folded", " over two lines\\, with a comma",
                                    "ATTENDEE;CN=\"Doe: Jane\";ROLE=REQ-PARTICIPANT:mailto:jane@example.com",
                                    "dtstart;tzid=\"Europe/Berlin\":20260615T100000", "DESCRIPTION:anything", "DTSTAMP:20260101T000000Z"]),
                             "2026-06-15", "2026-06-15")
        XCTAssertEqual(got, ["A long title foldedover two lines, with a comma 2026-06-15T10:00:00+02:00–2026-06-15T10:00:00+02:00 [x]"])
        let p = try write("bad.ics", event(["SUMMARY:x", "DTSTART:20260615T100000", "NOCOLONHERE"]))
        XCTAssertThrowsError(try CalendarEvents.read(path: p, zone: berlin)) { e in
            XCTAssertEqual((e as? ImportError)?.line, 6)
        }
    }

    /// R-CAL-2: RRULE with BY* parts, EXDATE, RDATE (a date-time and a PERIOD), an override
    /// that moves and retitles one occurrence, a cancelled one, and a cancelled event.
    func testRecurrenceSet() throws {
        let got = try events(event([
            "UID:s", "SUMMARY:Standup", "DTSTART;TZID=Europe/Berlin:20250106T093000", "DTEND;TZID=Europe/Berlin:20250106T094500",
            "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR", "EXDATE;TZID=Europe/Berlin:20260617T093000",
            "RDATE;TZID=Europe/Berlin:20260616T093000", "RDATE;VALUE=PERIOD:20260620T080000Z/PT2H",
        ]) + event(["UID:s", "RECURRENCE-ID;TZID=Europe/Berlin:20260619T093000", "SUMMARY:Moved", "DTSTART;TZID=Europe/Berlin:20260619T110000",
                    "DTEND;TZID=Europe/Berlin:20260619T113000"])
          + event(["UID:s", "RECURRENCE-ID:20260615T073000Z", "STATUS:CANCELLED", "DTSTART:20260615T073000Z"])
          + event(["UID:m", "SUMMARY:Monthly", "DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"])
          + event(["UID:c", "SUMMARY:Called off", "STATUS:CANCELLED", "DTSTART:20260615T100000Z"]), "2026-06-15", "2026-06-30")
        XCTAssertEqual(got, [
            "Standup 2026-06-16T09:30:00+02:00–2026-06-16T09:45:00+02:00 [x]",
            "Moved 2026-06-19T11:00:00+02:00–2026-06-19T11:30:00+02:00 [x]",
            "Standup 2026-06-20T10:00:00+02:00–2026-06-20T12:00:00+02:00 [x]",
            "Standup 2026-06-22T09:30:00+02:00–2026-06-22T09:45:00+02:00 [x]",
            "Standup 2026-06-24T09:30:00+02:00–2026-06-24T09:45:00+02:00 [x]",
            "Standup 2026-06-26T09:30:00+02:00–2026-06-26T09:45:00+02:00 [x]",
            "Standup 2026-06-29T09:30:00+02:00–2026-06-29T09:45:00+02:00 [x]",
            "Monthly 2026-06-30…2026-06-30 [x]",
        ])
    }

    /// R-CAL-2: a daily series from 1990 is found on the asked days without a walk from its
    /// start, and a minutely one is bounded.
    func testOldAndDenseSeriesAreFast() throws {
        let p = try write("old.ics", event(["SUMMARY:Daily", "DTSTART;TZID=Europe/Berlin:19900101T080000", "RRULE:FREQ=DAILY"])
                                   + event(["SUMMARY:Tick", "DTSTART:20260101T000000Z", "RRULE:FREQ=MINUTELY;INTERVAL=5"]))
        let cal = try CalendarEvents.read(path: p, zone: berlin)
        let start = Instant(Date())
        let got = cal.events(calendar: "x", first: day("2026-06-15"), last: day("2026-06-21"), zone: berlin)
        XCTAssertEqual(got.filter { $0.title == "Daily" }.count, 7)
        XCTAssertEqual(got.filter { $0.title == "Tick" }.count, 7 * 288)
        XCTAssertLessThan(start.seconds(until: Instant(Date())), 5)
    }

    /// R-CAL-3: a hidden calendar's events leave the agenda and come back with `show`.
    func testHiddenCalendar() throws {
        try write("home.ics", event(["UID:d", "SUMMARY:Dinner", "DTSTART;TZID=Europe/Berlin:20260615T190000", "DURATION:PT2H"]))
        let s = session()
        run(s, "calendar connect Home home.ics")
        XCTAssertEqual(agenda(s, "2026-06-15", "2026-06-15"), ["Dinner 2026-06-15T19:00:00+02:00–2026-06-15T21:00:00+02:00 [Home]"])
        XCTAssertEqual(lines(s, "calendar hide Home"), ["Hid calendar Home"])
        XCTAssertEqual(agenda(s, "2026-06-15", "2026-06-15"), [])
        XCTAssertEqual(lines(s, "calendar show Home"), ["Showed calendar Home"])
        XCTAssertEqual(agenda(s, "2026-06-15", "2026-06-15").count, 1)
    }

    /// R-CAL-4: the same meeting on two calendars shows once, by UID and start, else by title
    /// and start; with `merge-meetings off` both show.
    func testMergedMeetings() throws {
        try write("work.ics", event(["UID:sync", "SUMMARY:Team sync", "DTSTART:20260615T120000Z", "DURATION:PT1H"])
                            + event(["SUMMARY:Dinner", "DTSTART;TZID=Europe/Berlin:20260615T190000", "DURATION:PT2H"]))
        try write("home.ics", event(["UID:sync", "SUMMARY:Sync (copy)", "DTSTART;TZID=Europe/Berlin:20260615T140000", "DURATION:PT1H"])
                            + event(["SUMMARY:Dinner", "DTSTART;TZID=Europe/Berlin:20260615T190000", "DURATION:PT90M"])
                            + event(["UID:other", "SUMMARY:Team sync", "DTSTART:20260616T120000Z", "DURATION:PT1H"]))
        let s = session()
        run(s, "calendar connect Work work.ics")
        run(s, "calendar connect Home home.ics")
        XCTAssertEqual(agenda(s, "2026-06-15", "2026-06-16"), [
            "Team sync 2026-06-15T14:00:00+02:00–2026-06-15T15:00:00+02:00 [Work]",
            "Dinner 2026-06-15T19:00:00+02:00–2026-06-15T21:00:00+02:00 [Work]",
            "Team sync 2026-06-16T14:00:00+02:00–2026-06-16T15:00:00+02:00 [Home]",
        ])
        XCTAssertFalse(run(s, "set merge-meetings off").failed)
        XCTAssertEqual(agenda(s, "2026-06-15", "2026-06-15").count, 4)
        XCTAssertFalse(run(s, "set merge-meetings maybe").diagnostics.isEmpty)
    }

    /// R-CAL-5: an overnight event meets both its days, a multi-day all-day event each of its
    /// days; an event that ends at midnight does not meet the next day.
    func testOvernightAndAllDay() throws {
        let lines = event(["SUMMARY:Night", "DTSTART;TZID=Europe/Berlin:20260615T220000", "DTEND;TZID=Europe/Berlin:20260616T020000"])
            + event(["SUMMARY:Trip", "DTSTART;VALUE=DATE:20260614", "DTEND;VALUE=DATE:20260617"])
            + event(["SUMMARY:Late", "DTSTART;TZID=Europe/Berlin:20260614T230000", "DTEND;TZID=Europe/Berlin:20260615T000000"])
        XCTAssertEqual(try events(lines, "2026-06-16", "2026-06-16"), [
            "Trip 2026-06-14…2026-06-16 [x]",
            "Night 2026-06-15T22:00:00+02:00–2026-06-16T02:00:00+02:00 [x]",
        ])
        XCTAssertEqual(try events(lines, "2026-06-15", "2026-06-15").count, 2, "Late ends at midnight: not on the 15th")
    }

    /// R-CAL-6: a file that stops reading gives a warning naming its line at agenda time, and
    /// the other calendars' events still show; `calendar list` says the problem.
    func testUnreadableAtAgendaTime() throws {
        try write("a.ics", event(["SUMMARY:Fine", "DTSTART;TZID=Europe/Berlin:20260615T100000"]))
        try write("b.ics", event(["SUMMARY:Soon broken", "DTSTART;TZID=Europe/Berlin:20260615T110000"]))
        let s = session()
        run(s, "calendar connect A a.ics")
        run(s, "calendar connect B b.ics")
        try write("b.ics", event(["SUMMARY:Broken", "DTSTART;TZID=Europe/Berlin:yesterday"]))
        let r = s.connectedEvents(first: day("2026-06-15"), last: day("2026-06-15"))
        XCTAssertEqual(r.events.map(\.title), ["Fine"])
        XCTAssertEqual(r.problems.map(\.code), [.E0612])
        XCTAssertEqual(r.problems.first?.severity, .warning)
        XCTAssertEqual(r.problems.first?.message.hasPrefix("calendar B: could not read 'b.ics': line 5:"), true, r.problems.first?.message ?? "")
        let list = lines(s, "calendar list")
        XCTAssertEqual(list.first, "A  a.ics  shown   1 event")
        XCTAssertEqual(list.last?.hasPrefix("B  b.ics  shown   E0612: calendar B: could not read 'b.ics': line 5:"), true, list.last ?? "")
    }

    /// R-CAL-7: connections stay on the device: their changes queue nothing for sync.
    func testConnectionsDoNotSync() throws {
        try write("a.ics", event(["SUMMARY:Fine", "DTSTART;VALUE=DATE:20260615"]))
        let s = session()
        run(s, "calendar connect A a.ics")
        XCTAssertTrue(s.engine.syncKeys(touchedBy: .calendars(before: [], after: s.store.calendars)).isEmpty)
    }

    /// R-CAL-8: DST nights in the account zone: a start in the hour the clocks skip is read
    /// with the offset before the gap (RFC 5545: 02:30 is 03:30 summer time); a start in the
    /// repeated hour is its first; a DURATION's hours are elapsed time across the change.
    func testDSTNights() throws {
        let got = try events(event(["SUMMARY:Skipped", "DTSTART;TZID=Europe/Berlin:20270328T023000", "DURATION:PT1H"])
                             + event(["SUMMARY:Repeated", "DTSTART;TZID=Europe/Berlin:20261025T023000", "DURATION:PT1H"])
                             + event(["SUMMARY:Night shift", "DTSTART;TZID=Europe/Berlin:20261024T230000", "DURATION:PT5H"])
                             + event(["SUMMARY:Spring shift", "DTSTART;TZID=Europe/Berlin:20270327T230000", "DTEND;TZID=Europe/Berlin:20270328T040000"]),
                             "2026-10-24", "2027-03-28")
        XCTAssertEqual(got, [
            "Night shift 2026-10-24T23:00:00+02:00–2026-10-25T03:00:00+01:00 [x]",
            "Repeated 2026-10-25T02:30:00+02:00–2026-10-25T02:30:00+01:00 [x]",
            "Spring shift 2027-03-27T23:00:00+01:00–2027-03-28T04:00:00+02:00 [x]",
            "Skipped 2027-03-28T03:30:00+02:00–2027-03-28T04:30:00+02:00 [x]",
        ])
    }
}
