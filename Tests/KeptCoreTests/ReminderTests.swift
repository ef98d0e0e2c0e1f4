// Reminders through Session (R-TASK-7): the presets and picked times with the clock and zone
// injected, cancelling and restoring with the task's state, Past due, the nearest 60, DST, and
// the stored form.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class ReminderTests: XCTestCase, SessionTesting {
    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func session(at wall: String, store: Store = Store()) -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(CivilDateTime(iso: wall) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                defaultZone: Self.berlin)
    }

    func at(_ s: Session, _ id: Int) -> [String] {
        s.store.task(id)?.reminders.map { $0.at.iso + ($0.pastDue ? " past due" : "") } ?? ["no task"]
    }

    /// R-TASK-7: each preset and picked times, at a now with minutes (Wed 2026-06-17 09:20).
    func testPresetsAndPickedTimes() {
        let table: [(String, String, String)] = [
            ("rem-01", "later today", "2026-06-17T13:00"),       // +3h = 12:20, rounded up to the hour
            ("rem-02", "in an hour", "2026-06-17T10:20"),
            ("rem-03", "this evening", "2026-06-17T18:00"),
            ("rem-04", "tomorrow morning", "2026-06-18T09:00"),
            ("rem-05", "tomorrow", "2026-06-18T09:00"),
            ("rem-06", "next week", "2026-06-22T09:00"),         // the first day of next week, in the morning
            ("rem-07", "in 1 month", "2026-07-17T09:00"),
            ("rem-08", "in a month", "2026-07-17T09:00"),
            ("rem-09", "fri 9am", "2026-06-19T09:00"),
            ("rem-10", "fri", "2026-06-19T09:00"),               // a day without a time rings in the morning
            ("rem-11", "2026-07-01 14:30", "2026-07-01T14:30"),
            ("rem-12", "3pm", "2026-06-17T15:00"),
            ("rem-13", "Later  Today", "2026-06-17T13:00"),
            ("rem-14", "in 90m", "2026-06-17T10:50"),
        ]
        for (id, phrase, expected) in table {
            let s = session(at: "2026-06-17T09:20")
            run(s, "add Call the bank")
            let r = run(s, "remind 1 \(phrase)")
            XCTAssertFalse(r.failed, "\(id): \(r.diagnostics.map(\.message))")
            XCTAssertEqual(at(s, 1), [expected], id)
        }
    }

    /// R-TASK-7: a preset that would land in the past, or outside today, is refused with its
    /// code, a caret, and a store left as it was.
    func testTimesThatCannotRingAreRefused() throws {
        let s = session(at: "2026-06-17T22:10")
        run(s, "add Call the bank")
        let before = Snapshot(s.store.snapshot())
        XCTAssertEqual(lines(s, "remind 1 later today"), ["! E0316 it is too late for 'later today'"])
        XCTAssertEqual(lines(s, "remind 1 this evening"), ["! E0316 Today 6 PM has passed"])
        XCTAssertEqual(lines(s, "remind 1 yesterday 9am"), ["! E0316 Tue Jun 16 9 AM has passed"])
        XCTAssertEqual(lines(s, "remind 1 soonish"), ["! E0315 'soonish' is not a reminder time"])
        XCTAssertEqual(lines(s, "remind 1 feb 30"), ["! E0205 Feb 30 is not a date that exists"])
        XCTAssertEqual(lines(s, "remind 1"), ["! E0102 expected a reminder time after 'remind 1'"])
        XCTAssertEqual(lines(s, "unremind 1 1"), ["! E0317 task 1 has no reminder 1"])
        XCTAssertEqual(lines(s, "unremind 1 first"), ["! E0102 expected a reminder number or 'all' after 'unremind 1'"])
        XCTAssertEqual(lines(s, "remind 9 tomorrow"), ["! E0301 no task with id 9"])
        XCTAssertEqual(Snapshot(s.store.snapshot()), before)
        let d = try XCTUnwrap(run(s, "remind 1 this evening").diagnostics.first)
        XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d).contains("^^^^^^^^^^^^"))
        // With a day start of 04:00, the day of 23:30 ends at 04:00 the next morning (R-DAY-2).
        let late = session(at: "2026-06-17T23:30")
        setup(late, ["add Read"])
        XCTAssertEqual(lines(late, "remind 1 later today"), ["! E0316 it is too late for 'later today'"])
        setup(late, ["set day-start 04:00", "remind 1 later today"])
        XCTAssertEqual(at(late, 1), ["2026-06-18T03:00"])
        late.clock = .wall(CivilDateTime(iso: "2026-06-18T00:30") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
        XCTAssertEqual(lines(late, "remind 1 later today"), ["! E0316 it is too late for 'later today'"])
    }

    func setup(_ s: Session, _ ls: [String]) {
        for l in ls { XCTAssertFalse(run(s, l).failed, l) }
    }

    /// R-TASK-7: completing cancels, reopening restores; a reminder whose time passed while its
    /// task was completed is Past due, one that rang before the completion is sent.
    func testCompletingCancelsAndReopeningRestores() {
        let s = session(at: "2026-06-17T09:00")
        setup(s, ["add Call the bank @today", "remind 1 9:30", "remind 1 11am", "remind 1 tomorrow"])
        XCTAssertEqual(lines(s, "reminders"), ["Scheduled: 3 reminders", "  Today 9:30 AM  1 · Call the bank",
                                               "  Today 11 AM    1 · Call the bank", "  Tomorrow 9 AM  1 · Call the bank"])
        s.clock = .wall(CivilDateTime(iso: "2026-06-17T10:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
        setup(s, ["complete 1"])
        XCTAssertEqual(lines(s, "show 1 reminders"), ["Today 9:30 AM · cancelled, Today 11 AM · cancelled, Tomorrow 9 AM · cancelled"])
        XCTAssertEqual(lines(s, "reminders"), ["No reminders scheduled"])
        XCTAssertEqual(lines(s, "remind 1 tomorrow"), ["! E0310 task 1 is completed; its reminders are cancelled"])
        s.clock = .wall(CivilDateTime(iso: "2026-06-17T12:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
        setup(s, ["reopen 1"])
        XCTAssertEqual(at(s, 1), ["2026-06-17T09:30", "2026-06-17T11:00 past due", "2026-06-18T09:00"])
        XCTAssertEqual(lines(s, "show 1 reminders"), ["Today 9:30 AM · sent, Today 11 AM · Past due, Tomorrow 9 AM"])
        XCTAssertEqual(lines(s, "reminders"), ["Past due", "  Today 11 AM    1 · Call the bank",
                                               "Scheduled: 1 reminder", "  Tomorrow 9 AM  1 · Call the bank"])
        // Undoing the reopen puts the completed task back as it was; redo restores again.
        setup(s, ["undo"])
        XCTAssertEqual(at(s, 1), ["2026-06-17T09:30", "2026-06-17T11:00", "2026-06-18T09:00"])
        setup(s, ["redo", "unremind 1 2"])
        XCTAssertEqual(at(s, 1), ["2026-06-17T09:30", "2026-06-18T09:00"])
    }

    /// R-TASK-7, R-TASK-1: undoing a delete or a completion later brings the reminders back,
    /// and those that passed meanwhile are Past due.
    func testUndoOfDeleteAndCompleteRestoresReminders() {
        let s = session(at: "2026-06-17T09:00")
        setup(s, ["add Call the bank", "add Water plants", "remind 1 10am", "remind 1 tomorrow", "remind 2 10am",
                  "delete 1", "complete 2"])
        XCTAssertEqual(lines(s, "reminders"), ["No reminders scheduled"])
        s.clock = .wall(CivilDateTime(iso: "2026-06-17T11:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
        XCTAssertEqual(lines(s, "undo 2"), ["Undid complete 2 · Water plants", "Undid delete 1 · Call the bank (back as 3)"])
        XCTAssertEqual(lines(s, "reminders"), ["Past due", "  Today 10 AM    2 · Water plants", "  Today 10 AM    3 · Call the bank",
                                               "Scheduled: 1 reminder", "  Tomorrow 9 AM  3 · Call the bank"])
        XCTAssertEqual(lines(s, "redo 2"), ["Redid delete 1 · Call the bank", "Redid complete 2 · Water plants"])
        XCTAssertEqual(s.store.task(2)?.status, .done)
        XCTAssertNil(s.store.task(3))
    }

    /// R-TASK-7: only the nearest 60 upcoming reminders are scheduled; ties go by task id, then
    /// by the reminder's order on its task.
    func testOnlyTheNearest60AreScheduled() throws {
        let s = session(at: "2026-06-17T09:00")
        for k in 0..<13 { setup(s, ["add T\(k)"]) }
        for k in 1...13 {
            for h in ["10am", "11am", "noon", "1pm", "2pm"] { setup(s, ["remind \(14 - k) \(h)"]) }
        }
        let out = lines(s, "reminders")
        XCTAssertEqual(out.first, "Scheduled: 60 reminders, the nearest 60")
        XCTAssertEqual(out.last, "  5 more, scheduled as nearer ones pass")
        XCTAssertEqual(out.count, 62)
        XCTAssertEqual(out[1], "  Today 10 AM  1 · T0")
        XCTAssertEqual(out[2], "  Today 10 AM  2 · T1")
        XCTAssertEqual(out[60], "  Today 2 PM   8 · T7")
        XCTAssertEqual(lines(s, "show 13 reminders"),
                       ["Today 10 AM, Today 11 AM, Today 12 PM, Today 1 PM, Today 2 PM · not yet scheduled"])
        // Completing a task frees its seats for the next ones.
        setup(s, ["complete 1"])
        XCTAssertEqual(lines(s, "reminders").last, "  Today 2 PM   13 · T12")
    }

    /// R-DAY-3, R-TASK-7: a reminder is a wall-clock time; a 9:00 reminder across the DST change
    /// stays 9:00, and "in an hour" and "later today" count real time over the change.
    func testRemindersAreWallClockAcrossDST() {
        let s = session(at: "2026-03-28T09:00")
        setup(s, ["add Gym", "remind 1 mar 30 9am"])
        XCTAssertEqual(at(s, 1), ["2026-03-30T09:00"])
        XCTAssertEqual(s.zone.instant(for: CivilDateTime(iso: "2026-03-30T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)).seconds % 3600, 0)
        let night = session(at: "2026-03-29T01:30")
        setup(night, ["add Sleep", "remind 1 in an hour", "remind 1 later today"])
        // 01:30 + 1h of real time is 03:30 after the clocks skip 02:00-03:00; + 3h is 05:30,
        // rounded up to 06:00.
        XCTAssertEqual(at(night, 1), ["2026-03-29T03:30", "2026-03-29T06:00"])
    }

    /// The stored form: reminders with unknown keys round-trip; a store without reminders
    /// loads; a bad reminder is refused on every load path.
    func testStoredForm() throws {
        let s = session(at: "2026-06-17T09:00")
        setup(s, ["add Call the bank", "remind 1 tomorrow"])
        var t = try XCTUnwrap(s.store.task(1))
        t.reminders[0].extra["via"] = .string("watch")
        t.reminders.append(Reminder(at: try XCTUnwrap(CivilDateTime(iso: "2026-06-16T08:00")), pastDue: true))
        s.commit("fixture", [.task(before: s.store.task(1), after: t)])
        let bytes = StoreCodec.encode(s.store.snapshot())
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(#""reminders":[{"at":"2026-06-18T09:00","via":"watch"},{"at":"2026-06-16T08:00","pastDue":true}]"#), text)
        let back = try StoreCodec.decode(bytes).get()
        XCTAssertEqual(back.task(1), t)
        XCTAssertEqual(StoreCodec.encode(back), bytes)
        let old = Array(#"{"tasks": [{"id": 1, "title": "Old"}]}"#.utf8)
        XCTAssertEqual(try StoreCodec.decode(old).get().task(1)?.reminders, [])
        for bad in [#"[{"when": "2026-06-18T09:00"}]"#, #"[{"at": "tomorrow"}]"#, #"[{"at": "2026-06-18T09:00", "pastDue": "yes"}]"#, #"[1]"#] {
            let b = Array(#"{"tasks": [{"id": 1, "title": "Old", "reminders": \#(bad)}]}"#.utf8)
            for deferred in [false, true] {
                guard case .failure = StoreCodec.decode(b, deferTasks: deferred, parallelAt: Int.max) else { return XCTFail("accepted \(bad)") }
            }
        }
        // A repeated key is refused on both load paths, at the second key (issue 20: keeping
        // the last list dropped the first on the next write).
        let twice = Array(#"{"tasks": [{"id": 1, "title": "A", "reminders": [{"at": "2026-06-18T09:00"}], "reminders": [{"at": "2026-06-19T10:00"}]}]}"#.utf8)
        for deferred in [false, true] {
            guard case .failure(let e) = StoreCodec.decode(twice, deferTasks: deferred, parallelAt: Int.max) else {
                return XCTFail("a repeated 'reminders' is refused (deferred \(deferred))")
            }
            XCTAssertEqual(e.message, "the key 'reminders' appears twice in one object")
            XCTAssertEqual(e.line, 1)
            XCTAssertEqual(e.column, 79)
        }
    }
}
