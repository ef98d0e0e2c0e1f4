// A repeat's own dates on the domain API, with no statement parsed: skip (EXDATE), unskip,
// addDate (RDATE) and removeAddedDate, the task moving with its open occurrence, completion
// through the dates, the typed errors, one undo step each, the dates exported and read back as
// iCalendar, and the defaults a rule takes on entering the engine (docs/REPEATS.md).
// covers: R-REP-2, R-REP-3, R-REP-4, R-REP-5, R-REP-6, R-REP-10, R-TASK-1, R-TASK-5

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class EngineRepeatDatesTests: XCTestCase {
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func engine(at iso: String = "2026-06-15T09:00") -> Engine {
        Engine(store: JSONStore(memory: Store()), clock: .wall(Self.moment(iso)), defaultZone: berlin, uids: .seeded(16))
    }

    static func moment(_ iso: String) -> CivilDateTime {
        CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)
    }

    func at(_ e: Engine, _ iso: String) { e.clock = .wall(Self.moment(iso)) }

    static func day(_ iso: String) -> CivilDate { CivilDate(iso: iso) ?? CivilDate(dayNumber: 0) }

    /// `2026-06-17` or `2026-06-17T09:00`.
    static func due(_ s: String) -> Due {
        let parts = s.split(separator: "T").map(String.init)
        return Due(date: day(parts[0]), time: parts.count > 1 ? WallTime(iso: parts[1]) : nil)
    }

    static func text(_ d: Due?) -> String { d.map { $0.date.iso + ($0.time.map { "T" + $0.iso } ?? "") } ?? "none" }

    /// A task from a rule's words, due `due`.
    func add(_ e: Engine, _ title: String, _ words: String, due: String) throws -> Task {
        guard case .success(let (r, used)) = RepeatRule.parse(words), used == words.split(separator: " ").count else {
            throw XCTSkip("not a rule: \(words)")
        }
        var d = TaskDraft(title: title)
        d.due = Self.due(due)
        d.repeatRule = r
        return try e.add(d)
    }

    func change(_ o: Outcome<RepeatDateChange>, file: StaticString = #filePath, line: UInt = #line) -> RepeatDateChange? {
        guard case .done(let c) = o else {
            XCTFail("expected a change, got \(o)", file: file, line: line)
            return nil
        }
        return c
    }

    func problem(_ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line) -> RepeatDateProblem? {
        do {
            _ = try body()
            XCTFail("expected a RepeatDateProblem", file: file, line: line)
        } catch let DomainError.repeatDate(_, p) {
            return p
        } catch {
            XCTFail("expected a RepeatDateProblem, got \(error)", file: file, line: line)
        }
        return nil
    }

    func exdates(_ e: Engine, _ id: Int) -> [String] { e.task(id)?.repeatRule?.exceptions.map { Self.text($0) } ?? [] }
    func rdates(_ e: Engine, _ id: Int) -> [String] { e.task(id)?.repeatRule?.additions.map { Self.text($0) } ?? [] }

    /// R-REP-5: skipping the open occurrence takes out its day (EXDATE) and moves the task to
    /// the next occurrence, keeping its time; a start keeps its distance and a reminder moves
    /// with it, new (not Past due). One step: undo puts it all back.
    func testSkipNextMovesTheTaskWithItsReminders() throws {
        let e = engine()
        var t = try add(e, "Water the plants", "every wednesday", due: "2026-06-17T18:00")
        _ = try e.remind(.task(t.id), at: .at(Self.due("2026-06-17T17:30")))
        t = try XCTUnwrap(e.task(t.id))
        var st = t
        st.start = Self.due("2026-06-16")
        _ = try e.set(.start(st.start), on: .task(t.id))
        let before = try XCTUnwrap(e.task(t.id))
        let c = try XCTUnwrap(change(try e.skip(.task(t.id), .next)))
        XCTAssertEqual(Self.text(c.date), "2026-06-17", "a series of one occurrence a day takes out the day")
        XCTAssertEqual(Self.text(c.movedFrom), "2026-06-17T18:00")
        let a = try XCTUnwrap(e.task(t.id))
        XCTAssertEqual(Self.text(a.due), "2026-06-24T18:00", "the next Wednesday, at the task's time")
        XCTAssertEqual(Self.text(a.start), "2026-06-23", "the start keeps its day before the due")
        XCTAssertEqual(a.reminders.map(\.at.iso), ["2026-06-24T17:30"])
        XCTAssertEqual(a.reminders.map(\.pastDue), [false])
        XCTAssertEqual(exdates(e, t.id), ["2026-06-17"])
        XCTAssertEqual(a.uid, t.uid, "the same task, now the next occurrence")
        // R-TASK-1: one step.
        XCTAssertEqual(try e.undo(1).map(\.summary), ["skip \(t.id) · Water the plants"])
        XCTAssertEqual(e.task(t.id), before)
        _ = try e.redo(1)
        XCTAssertEqual(Self.text(e.task(t.id)?.due), "2026-06-24T18:00")
    }

    /// R-REP-3 for a skip: the task lands on the first occurrence still ahead (today's day for a
    /// series of whole days, after now for a timed one), not on another missed one.
    func testSkipNextOfAnOverdueTaskLandsAhead() throws {
        let e = engine(at: "2026-06-15T12:00")
        let daily = try add(e, "Stretch", "every day", due: "2026-06-10")
        XCTAssertEqual(Self.text(change(try e.skip(.task(daily.id), .next))?.task.due), "2026-06-15", "today's occurrence has not passed")
        XCTAssertEqual(exdates(e, daily.id), ["2026-06-10"], "only the skipped one is taken out")
        let timed = try add(e, "Pills", "every day at 9am and 9pm", due: "2026-06-14T21:00")
        XCTAssertEqual(Self.text(change(try e.skip(.task(timed.id), .next))?.task.due), "2026-06-15T21:00", "9am today has passed")
        XCTAssertEqual(exdates(e, timed.id), ["2026-06-14T21:00"], "several a day: the occurrence itself")
    }

    /// Several occurrences a day: skipping the 9am one makes the task the 5pm one; a day without
    /// a time takes out every occurrence of that day.
    func testSkipInATimedSeries() throws {
        let e = engine(at: "2026-06-15T07:00")
        let t = try add(e, "Check in", "every day at 9am and 5pm", due: "2026-06-15T09:00")
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .next))?.task.due), "2026-06-15T17:00")
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .on(Self.due("2026-06-16"))))?.date), "2026-06-16")
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .on(Self.due("2026-06-15"))))?.task.due), "2026-06-17T09:00",
                       "the whole of the open occurrence's day, then past the skipped 16th")
        XCTAssertEqual(exdates(e, t.id), ["2026-06-15", "2026-06-16"], "the day replaces its 9am")
        // Completion goes through them too (R-REP-2): the 17th at 9am, then 5pm.
        let c = try XCTUnwrap({ if case .done(let c) = try e.complete(.task(t.id)) { return c } else { return nil } }())
        XCTAssertEqual(Self.text(c.next?.due), "2026-06-17T17:00")
        XCTAssertEqual(c.next?.repeatRule?.exceptions, e.task(t.id)?.repeatRule?.exceptions, "the next occurrence keeps the dates")
    }

    /// A later date: taken out, the task stays; twice changes nothing; one that is not a date
    /// of the series, before the open one, or with a time for a series of whole days is refused.
    func testSkipADate() throws {
        let e = engine()
        let t = try add(e, "Water the plants", "every wednesday", due: "2026-06-17")
        let c = try XCTUnwrap(change(try e.skip(.task(t.id), .on(Self.due("2026-07-01")))))
        XCTAssertNil(c.movedFrom)
        XCTAssertEqual(Self.text(c.task.due), "2026-06-17")
        guard case .unchanged = try e.skip(.task(t.id), .on(Self.due("2026-07-01"))) else { return XCTFail("skipped twice") }
        XCTAssertEqual(problem { try e.skip(.task(t.id), .on(Self.due("2026-07-02"))) },
                       .notAnOccurrence(Self.due("2026-07-02"), near: [Self.due("2026-06-24"), Self.due("2026-07-08"), Self.due("2026-07-15")]),
                       "its dates around it, without the skipped Jul 1")
        XCTAssertEqual(problem { try e.skip(.task(t.id), .on(Self.due("2026-06-10"))) }, .passed(Self.due("2026-06-10"), open: Self.due("2026-06-17")))
        XCTAssertEqual(problem { try e.skip(.task(t.id), .on(Self.due("2026-06-24T09:00"))) }, .timeDoesNotFit(Self.due("2026-06-24T09:00"), timed: false))
        XCTAssertEqual(exdates(e, t.id), ["2026-07-01"], "a refusal changes nothing")
        // The open occurrence by its date is `next`.
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .on(Self.due("2026-06-17"))))?.task.due), "2026-06-24")
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .next))?.task.due), "2026-07-08", "past the skipped Jul 1")
    }

    /// Unskip gives an occurrence back; one before the open occurrence (not passed) is the open
    /// one again. A date not skipped is refused with the skipped ones listed.
    func testUnskip() throws {
        let e = engine()
        let t = try add(e, "Water the plants", "every wednesday", due: "2026-06-17")
        _ = try e.skip(.task(t.id), .next)
        _ = try e.skip(.task(t.id), .on(Self.due("2026-07-01")))
        XCTAssertEqual(problem { try e.unskip(.task(t.id), Self.due("2026-06-24")) },
                       .notListed(Self.due("2026-06-24"), added: false, listed: [Self.due("2026-06-17"), Self.due("2026-07-01")]))
        let later = try XCTUnwrap(change(try e.unskip(.task(t.id), Self.due("2026-07-01"))))
        XCTAssertNil(later.movedFrom)
        XCTAssertEqual(Self.text(later.task.due), "2026-06-24")
        let back = try XCTUnwrap(change(try e.unskip(.task(t.id), Self.due("2026-06-17"))))
        XCTAssertEqual(Self.text(back.task.due), "2026-06-17", "the given-back occurrence comes first")
        XCTAssertEqual(exdates(e, t.id), [])
        // Given back after it passed: the task stays where it is.
        _ = try e.skip(.task(t.id), .next)
        at(e, "2026-06-18T09:00")
        XCTAssertNil(change(try e.unskip(.task(t.id), Self.due("2026-06-17")))?.movedFrom)
        XCTAssertEqual(Self.text(e.task(t.id)?.due), "2026-06-24")
    }

    /// addDate (RDATE): one before the open occurrence is the open one; completion takes the
    /// added date and then the rule's (R-REP-2, R-REP-3); a date the rule has, a passed one, or a
    /// day without a time for a series of several times a day is refused.
    func testAddDate() throws {
        let e = engine()
        let t = try add(e, "Water the plants", "every wednesday", due: "2026-06-17")
        let c = try XCTUnwrap(change(try e.addDate(.task(t.id), Self.due("2026-06-20"))))
        XCTAssertNil(c.movedFrom, "after the open occurrence")
        guard case .unchanged = try e.addDate(.task(t.id), Self.due("2026-06-20")) else { return XCTFail("added twice") }
        XCTAssertEqual(problem { try e.addDate(.task(t.id), Self.due("2026-06-24")) }, .alreadyAnOccurrence(Self.due("2026-06-24"), skipped: false))
        _ = try e.skip(.task(t.id), .on(Self.due("2026-07-01")))
        XCTAssertEqual(problem { try e.addDate(.task(t.id), Self.due("2026-07-01")) }, .alreadyAnOccurrence(Self.due("2026-07-01"), skipped: true))
        XCTAssertEqual(problem { try e.addDate(.task(t.id), Self.due("2026-06-14")) }, .passed(Self.due("2026-06-14"), open: Self.due("2026-06-17")))
        let early = try XCTUnwrap(change(try e.addDate(.task(t.id), Self.due("2026-06-16"))))
        XCTAssertEqual(Self.text(early.movedFrom), "2026-06-17")
        XCTAssertEqual(Self.text(early.task.due), "2026-06-16")
        XCTAssertEqual(rdates(e, t.id), ["2026-06-16", "2026-06-20"])
        // Completing walks the dates: the 17th, the added 20th, the 24th, past the skipped Jul 1.
        var id = t.id
        var seen: [String] = []
        for _ in 0..<4 {
            guard case .done(let done) = try e.complete(.task(id)), let n = done.next else { return XCTFail("no next occurrence") }
            seen.append(Self.text(n.due))
            id = n.id
            at(e, (n.due?.date.iso ?? "") + "T08:00")
        }
        XCTAssertEqual(seen, ["2026-06-17", "2026-06-20", "2026-06-24", "2026-07-08"])
        // Times: a series of one time a day gives an added day that time; of several, it needs one.
        let one = try add(e, "Call", "every monday at 9am", due: "2026-07-13T09:00")
        XCTAssertEqual(Self.text(change(try e.addDate(.task(one.id), Self.due("2026-07-15")))?.date), "2026-07-15T09:00")
        let two = try add(e, "Check", "every day at 9am and 5pm", due: "2026-07-13T09:00")
        XCTAssertEqual(problem { try e.addDate(.task(two.id), Self.due("2026-07-15")) }, .timeDoesNotFit(Self.due("2026-07-15"), timed: true))
        XCTAssertEqual(Self.text(change(try e.addDate(.task(two.id), Self.due("2026-07-15T20:00")))?.date), "2026-07-15T20:00")
    }

    /// `after completion` starts the series again from the completion day, and the dates taken
    /// out and added still count (R-REP-3).
    func testAfterCompletionKeepsTheDates() throws {
        let e = engine()
        let t = try add(e, "Descale", "every 3 days after completion", due: "2026-06-15")
        _ = try e.skip(.task(t.id), .on(Self.due("2026-06-18")))
        guard case .done(let c) = try e.complete(.task(t.id)), let n = c.next else { return XCTFail("no next occurrence") }
        XCTAssertEqual(Self.text(n.due), "2026-06-21", "Jun 18 is taken out: the next of the restarted series")
        _ = try e.addDate(.task(n.id), Self.due("2026-06-19"))
        XCTAssertEqual(Self.text(e.task(n.id)?.due), "2026-06-19", "an added date before the open one is the open one")
        at(e, "2026-06-19T10:00")
        guard case .done(let c2) = try e.complete(.task(n.id)) else { return XCTFail("not completed") }
        XCTAssertEqual(Self.text(c2.next?.due), "2026-06-22", "three days from the completion")
    }

    /// removeAddedDate: the task that stood for the added date moves to the next occurrence; a
    /// date not added is refused with the added ones listed.
    func testRemoveAddedDate() throws {
        let e = engine()
        let t = try add(e, "Water the plants", "every wednesday", due: "2026-06-17")
        _ = try e.addDate(.task(t.id), Self.due("2026-06-16"))
        _ = try e.addDate(.task(t.id), Self.due("2026-06-20"))
        XCTAssertEqual(problem { try e.removeAddedDate(.task(t.id), Self.due("2026-06-21")) },
                       .notListed(Self.due("2026-06-21"), added: true, listed: [Self.due("2026-06-16"), Self.due("2026-06-20")]))
        XCTAssertNil(change(try e.removeAddedDate(.task(t.id), Self.due("2026-06-20")))?.movedFrom)
        let c = try XCTUnwrap(change(try e.removeAddedDate(.task(t.id), Self.due("2026-06-16"))))
        XCTAssertEqual(Self.text(c.task.due), "2026-06-17")
        XCTAssertEqual(rdates(e, t.id), [])
    }

    /// The typed errors of the task itself: no repeat, no due date, not open (E0310), and a
    /// series that ends at the skipped occurrence (COUNT).
    func testErrorsOfTheTask() throws {
        let e = engine()
        let plain = try e.add(TaskDraft(title: "Plain"))
        XCTAssertEqual(problem { try e.skip(.task(plain.id), .next) }, .notRepeating(hasRepeat: false))
        let t = try add(e, "Twice", "every day for 2 times", due: "2026-06-15")
        _ = try e.reschedule(.task(t.id), to: nil)
        XCTAssertEqual(problem { try e.skip(.task(t.id), .next) }, .notRepeating(hasRepeat: true))
        _ = try e.reschedule(.task(t.id), to: Self.due("2026-06-15"))
        XCTAssertEqual(Self.text(change(try e.skip(.task(t.id), .next))?.task.due), "2026-06-16")
        XCTAssertEqual(problem { try e.skip(.task(t.id), .next) }, .seriesEnds(after: Self.due("2026-06-16")), "COUNT counts the skipped one")
        _ = try e.complete(.task(t.id))
        XCTAssertThrowsError(try e.addDate(.task(t.id), Self.due("2026-06-20"))) {
            XCTAssertEqual($0 as? DomainError, .wrongState(.notOpen(t.id, what: .rdate)))
        }
    }

    /// R-TASK-5: over a selection, one step; a task without a repeat is skipped with its reason.
    func testBulkSkip() throws {
        let e = engine()
        let a = try add(e, "Gym", "every tuesday and thursday", due: "2026-06-16")
        let b = try add(e, "Run", "every day", due: "2026-06-16")
        let c = try e.add(TaskDraft(title: "Other"))
        guard case .bulk(let r) = try e.skip(.tasks([a.id, b.id, c.id], label: "where #health"), .next) else { return XCTFail("not a bulk") }
        XCTAssertEqual(r.done.map { Self.text($0.task.due) }, ["2026-06-18", "2026-06-17"])
        XCTAssertEqual(r.skipped.map(\.task.id), [c.id])
        XCTAssertEqual(r.skipped.first?.error, .repeatDate(c, .notRepeating(hasRepeat: false)))
        XCTAssertEqual(try e.undo(1).map(\.summary), ["skip where #health · 2 tasks"])
        XCTAssertEqual(Self.text(e.task(a.id)?.due), "2026-06-16")
    }

    /// The dates go out and come back as iCalendar does (EXDATE and RDATE lines), and a timed
    /// series' skipped day as each of its occurrences.
    func testICalendarOfTheDates() throws {
        let e = engine()
        let t = try add(e, "Check in", "every day at 9am", due: "2026-06-15T09:00")
        _ = try e.skip(.task(t.id), .next)
        _ = try e.addDate(.task(t.id), Self.due("2026-06-20T18:00"))
        let spec = try XCTUnwrap(e.task(t.id)?.repeatRule)
        let ics = try spec.icalendar(zone: berlin, weekStart: .monday).get()
        XCTAssertEqual(ics, """
            DTSTART;TZID=Europe/Berlin:20260615T090000
            RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0
            EXDATE;TZID=Europe/Berlin:20260615T090000
            RDATE;TZID=Europe/Berlin:20260620T180000
            """)
        let back = try RepeatSpec.fromICalendar(ics, zone: berlin).get()
        XCTAssertEqual(back.occurrences(limit: 5, time: nil, weekStart: .monday, zone: berlin),
                       spec.occurrences(limit: 5, time: nil, weekStart: .monday, zone: berlin))
        XCTAssertEqual(back.additions, spec.additions)
    }

    /// The one place a rule takes its defaults (RepeatRule.admitted): an RRULE counts weeks from
    /// its WKST or Monday and reads an UNTIL at the last second of a day as that day; words take
    /// the account's week start as it is now; admitting twice changes nothing.
    func testRuleDefaultsOnEntering() throws {
        let e = engine()
        _ = try e.set(setting: "week-start", to: "sunday")
        let rr = try RepeatRule.fromRRULE("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;UNTIL=20260620T215959Z").get()
        XCTAssertNil(rr.weekStart)
        let admitted = e.admit(rr, from: .rrule)
        XCTAssertEqual(admitted.weekStart, .monday, "RFC 5545's default, whatever the account's")
        XCTAssertEqual(admitted.end, .date(Self.day("2026-06-20")), "the last second of Jun 20 in Berlin")
        XCTAssertEqual(e.admit(admitted, from: .words), admitted, "admitted twice: unchanged")
        let words = try RepeatRule.parse("every 2 weeks on tuesday and sunday").get().0
        XCTAssertEqual(e.admit(words, from: .words).weekStart, .sunday)
        // A draft's rule (capture's words) is admitted as words when it lands on a task.
        let t = try add(e, "Review", "every 2 weeks on tuesday and sunday", due: "2026-06-16")
        XCTAssertEqual(t.repeatRule?.rule?.weekStart, .sunday)
        _ = try e.set(setting: "week-start", to: "monday")
        XCTAssertEqual(e.task(t.id)?.repeatRule?.rule?.weekStart, .sunday, "a later week start changes no series")
    }
}
