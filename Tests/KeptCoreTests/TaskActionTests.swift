// Task actions through Session, as every front end drives them: each rule of R-TASK, R-VIEW-4
// and R-VIEW-6 by id, undo and redo of every action kind, and errors that change nothing.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TaskActionTests: XCTestCase, SessionTesting {
    /// Wednesday 2026-06-17 09:00, Europe/Berlin: the week still has days after tomorrow.
    static let wednesday9 = CivilDateTime(iso: "2026-06-17T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    func session(_ store: Store = Store()) -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(Self.wednesday9), defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc)
    }

    func setup(_ s: Session, _ ls: [String]) {
        for l in ls { XCTAssertFalse(run(s, l).failed, l) }
    }

    /// R-TASK-1, R-TASK-7: every action kind is undone and redone as one step.
    func testUndoRedoOfEveryActionKind() {
        let base = ["project add Home", "add A @today 8am #errand +Home", "add B @tomorrow #errand", "add C"]
        let table: [(String, [String], String)] = [
            ("act-01", [], "archive 1"),
            ("act-02", ["archive 1"], "unarchive 1"),
            ("act-03", [], "tomorrow 1"),
            ("act-04", [], "reschedule 1 next week"),
            ("act-05", [], "reschedule 1 clear"),
            ("act-06", [], "move 3 to tomorrow"),
            ("act-07", [], "move 1 to later"),
            ("act-08", [], "tag 1 #home shop"),
            ("act-09", [], "untag 1 errand"),
            ("act-10", [], "duplicate 1"),
            ("act-11", [], "set 1 start tomorrow"),
            ("act-12", [], "set 1 area Home"),
            ("act-13", [], "set 1 estimate 15m suggested"),
            ("act-14", [], "set 1 status waiting"),
            ("act-15", [], "set 1 goal run a marathon"),
            ("act-16", [], "set 2 parent 1"),
            ("act-17", [], "step 1 add Pack"),
            ("act-18", ["step 1 add Pack"], "step 1 check 1"),
            ("act-19", ["step 1 add Pack", "step 1 check 1"], "step 1 uncheck 1"),
            ("act-20", ["step 1 add Pack"], "step 1 remove 1"),
            ("act-21", [], "comment 1 \"called\""),
            ("act-22", [], "link 1 [[Trip plan]]"),
            ("act-23", ["link 1 [[Trip plan]]"], "unlink 1 [[Trip plan]]"),
            ("act-24", [], "subtask 1 Buy stamps"),
            ("act-25", [], "archive where #errand"),
            ("act-26", [], "complete where #errand"),
            ("act-27", [], "set where (#errand) priority high"),
            ("act-28", [], "delete where #errand"),
            ("act-29", ["subtask 1 D", "subtask 1 E"], "delete 1"),
            ("act-30", [], "project rename Home to House"),
            ("act-31", [], "project archive Home"),
            ("act-32", [], "project delete Home move-to inbox"),
            ("act-33", ["subtask 1 D"], "project delete Home delete-tasks"),
            ("act-34", ["subtask 1 D"], "complete 4"),
            ("act-35", [], "move where (#errand) to this week"),
            ("act-36", ["complete 3"], "reopen where done"),
            // R-TASK-7: reminders are changes like any other.
            ("act-37", [], "remind 1 tomorrow morning"),
            ("act-38", [], "remind where (#errand) in an hour"),
            ("act-39", ["remind 1 fri 9am", "remind 1 later today"], "unremind 1 2"),
            ("act-40", ["remind 1 fri 9am", "remind 2 next week"], "unremind where (#errand) all"),
            ("act-41", ["remind 1 this evening"], "complete 1"),
            ("act-42", ["remind 1 this evening", "complete 1"], "reopen 1"),
            ("act-43", ["remind 1 this evening"], "delete 1"),
            ("act-44", [], "project statuses Home add \"In review\""),
            ("act-45", ["project statuses Home add Blocked", "set 1 status blocked"], "project statuses Home remove Blocked"),
            ("act-46", ["project statuses Home add Blocked"], "set 1 status blocked"),
        ]
        for (id, more, action) in table {
            let s = session()
            setup(s, base + more)
            assertUndoRedo(s, action, id)
        }
    }

    /// R-TASK-2: undoing a reopen puts back the original completion time, so the task counts as
    /// done today again, rather than completing it now.
    func testUndoReopenRestoresTheCompletionTime() throws {
        let s = session()
        setup(s, ["add A @today", "complete 1"])
        let done = try XCTUnwrap(s.store.task(1)?.completedAt)
        s.clock = .wall(CivilDateTime(iso: "2026-06-17T15:00") ?? Self.wednesday9)
        setup(s, ["reopen 1"])
        XCTAssertNil(s.store.task(1)?.completedAt)
        setup(s, ["undo"])
        XCTAssertEqual(s.store.task(1)?.completedAt, done)
        XCTAssertEqual(s.store.task(1)?.status, .done)
        XCTAssertEqual(lines(s, "count done today"), ["1 of 1"])
    }

    /// R-TASK-3: undoing a delete brings back the task with its subtasks, steps, comments and
    /// note links, under new ids; each subtask names its parent's new id.
    func testUndoDeleteRestoresTheWholeTreeUnderNewIDs() throws {
        let s = session()
        setup(s, ["add Trip @fri [[Trip plan]]", "step 1 add Pack", "comment 1 \"book early\"", "subtask 1 Flights", "subtask 2 Seats"])
        XCTAssertEqual(lines(s, "delete 1"), ["Deleted 1 · Trip with 2 subtasks"])
        XCTAssertTrue(s.store.tasks.isEmpty)
        XCTAssertEqual(lines(s, "undo"), ["Undid delete 1 · Trip (back as 4, 5 and 6)"])
        let trip = try XCTUnwrap(s.store.task(4))
        XCTAssertEqual(trip.title, "Trip")
        XCTAssertEqual(trip.notes, ["Trip plan"])
        XCTAssertEqual(trip.steps, [Step(title: "Pack")])
        XCTAssertEqual(trip.comments.count, 1)
        XCTAssertEqual(s.store.task(5)?.title, "Flights")
        XCTAssertEqual(s.store.task(5)?.parent, 4)
        XCTAssertEqual(s.store.task(6)?.parent, 5)
        XCTAssertEqual(lines(s, "redo"), ["Redid delete 1 · Trip"])
        XCTAssertTrue(s.store.tasks.isEmpty)
    }

    /// R-TASK-4: completing the last open subtask completes the parent, in the same step.
    func testLastSubtaskCompletesTheParent() {
        let s = session()
        setup(s, ["add Trip", "subtask 1 Flights", "subtask 1 Hotel"])
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Flights"])
        XCTAssertEqual(s.store.task(1)?.status, .open)
        XCTAssertEqual(lines(s, "complete 3"), ["Completed 3 · Hotel · completed its parent 1 · Trip"])
        XCTAssertEqual(s.store.task(1)?.status, .done)
        XCTAssertEqual(lines(s, "undo"), ["Undid complete 3 · Hotel"])
        XCTAssertEqual(s.store.task(1)?.status, .open)
        XCTAssertEqual(s.store.task(3)?.status, .open)
    }

    /// R-TASK-5: a bulk action prints what it changed and is one undo step; `where` without a
    /// filter is an error; a task the action does not apply to is skipped with the reason.
    func testBulkActions() {
        let s = session()
        setup(s, ["add Milk #errand", "add Stamps #errand", "add Report", "archive 2"])
        XCTAssertEqual(lines(s, "set where (#errand or archived) priority high"),
                       ["Set priority of 2 tasks where (#errand or archived):", "  1 · Milk: high", "  2 · Stamps: high"])
        XCTAssertEqual(lines(s, "archive where #errand or archived"),
                       ["Archived 1 task where #errand or archived:", "  1 · Milk", "  skipped 2 · Stamps: task 2 is already archived"])
        XCTAssertEqual(lines(s, "undo"), ["Undid archive where #errand or archived · 1 task"])
        XCTAssertEqual(lines(s, "complete where #nothing"), ["Nothing matches where #nothing; nothing changed"])
        XCTAssertEqual(lines(s, "archive where"), ["! E0107 'where' needs a filter"])
        XCTAssertEqual(lines(s, "undo"), ["Undid set priority where (#errand or archived) · 2 tasks"])
        XCTAssertEqual(s.store.tasks.map(\.priority), [.none, .none, .none])
    }

    /// R-TASK-6: a project with tasks is deleted only with a choice for its tasks.
    func testDeletingAProjectWithTasksNeedsAChoice() {
        let s = session()
        setup(s, ["project add Home", "add Paint +Home", "subtask 1 Buy paint", "add Sleep"])
        XCTAssertEqual(lines(s, "project delete Home"), ["! E0314 project 'Home' has 1 task"])
        XCTAssertEqual(s.store.projects.map(\.name), ["Home"])
        XCTAssertEqual(lines(s, "project delete Home move-to inbox"), ["Deleted project Home · 1 task moved to the Inbox"])
        XCTAssertNil(s.store.task(1)?.project)
        setup(s, ["undo"])
        XCTAssertEqual(s.store.task(1)?.project, "Home")
        XCTAssertEqual(lines(s, "project delete Home delete-tasks"), ["Deleted project Home · 2 tasks deleted with it"])
        XCTAssertEqual(s.store.tasks.map(\.title), ["Sleep"])
        XCTAssertEqual(lines(s, "undo"), ["Undid project delete Home (back as 4 and 5)"])
        XCTAssertEqual(s.store.task(5)?.parent, 4)
        XCTAssertEqual(lines(s, "project rename Home to House"), ["Renamed project Home to House · 1 task moved with it"])
        XCTAssertEqual(s.store.task(4)?.project, "House")
        XCTAssertNil(s.store.task(5)?.project)
    }

    /// R-TASK-8: the date shortcuts; a date without a time keeps the task's time.
    func testDateShortcuts() {
        let s = session()
        setup(s, ["add Call @today 6pm"])
        XCTAssertEqual(lines(s, "reschedule 1 tomorrow"), ["Rescheduled 1 · Call · Tomorrow 6 PM"])
        XCTAssertEqual(lines(s, "reschedule 1 today"), ["Rescheduled 1 · Call · Today 6 PM"])
        XCTAssertEqual(lines(s, "reschedule 1 next week"), ["Rescheduled 1 · Call · Mon Jun 22 6 PM"])
        XCTAssertEqual(lines(s, "reschedule 1 2026-07-01 9am"), ["Rescheduled 1 · Call · Wed Jul 1 9 AM"])
        XCTAssertEqual(lines(s, "reschedule 1 clear"), ["Rescheduled 1 · Call · no due date"])
        XCTAssertEqual(lines(s, "reschedule 1 tommorow"), ["! E0203 'tommorow' is not a date or time"])
    }

    /// R-VIEW-6: Tomorrow moves the due one day later, keeping the time.
    func testTomorrowKeepsTheTime() {
        let s = session()
        setup(s, ["add Gym @fri 7am", "add Read"])
        XCTAssertEqual(lines(s, "tomorrow 1"), ["Moved 1 · Gym · Sat Jun 20 7 AM"])
        XCTAssertEqual(lines(s, "tomorrow 2"), ["Moved 2 · Read · Tomorrow"])
    }

    /// R-VIEW-4: moving into a due group keeps the time; nothing moves into Overdue.
    func testMoveIntoDueGroups() {
        let s = session()
        setup(s, ["add Gym @2026-06-10 7pm", "add Read"])
        XCTAssertEqual(lines(s, "move 1 to overdue"), ["! E0312 nothing can be moved into Overdue"])
        XCTAssertEqual(lines(s, "move 1 to today"), ["Moved 1 · Gym · Today 7 PM"])
        XCTAssertEqual(lines(s, "move 1 to tomorrow"), ["Moved 1 · Gym · Tomorrow 7 PM"])
        XCTAssertEqual(lines(s, "move 1 to this week"), ["Moved 1 · Gym · Fri Jun 19 7 PM"])
        XCTAssertEqual(lines(s, "move 1 to this week"), ["Unchanged 1 · Gym"])
        XCTAssertEqual(lines(s, "move 1 to later"), ["Moved 1 · Gym · Mon Jun 22 7 PM"])
        XCTAssertEqual(lines(s, "move 1 to no due date"), ["Moved 1 · Gym · no due date"])
        XCTAssertEqual(lines(s, "move 2 to someday"), ["! E0209 'someday' is not a due group"])
        // A time already past today would be overdue, so the task becomes all-day today.
        setup(s, ["add Early @today 8am", "move 3 to today"])
        XCTAssertEqual(s.store.task(3)?.due?.time, nil)
        s.clock = .wall(CivilDateTime(iso: "2026-06-20T09:00") ?? Self.wednesday9)
        XCTAssertEqual(lines(s, "move 2 to this week"), ["! E0312 this week has no day after tomorrow"])
    }

    /// Every action on a missing or ambiguous task is an error with a code and the candidates,
    /// and changes nothing.
    func testMissingAndAmbiguousTasksChangeNothing() throws {
        let s = session()
        setup(s, ["add Call mom", "add Call mom", "add Pay rent"])
        let before = Snapshot(s.store.snapshot())
        let actions = ["archive", "unarchive", "tomorrow", "reschedule {} today", "move {} to tomorrow", "tag {} #x", "untag {} x",
                       "duplicate", "set {} priority high", "step {} add X", "comment {} hi", "link {} [[N]]", "unlink {} [[N]]",
                       "subtask {} X", "complete", "reopen", "delete"]
        for a in actions {
            for ref in ["9", "\"Call mom\"", "\"Nope\""] {
                let stmt = a.contains("{}") ? a.replacingOccurrences(of: "{}", with: ref) : "\(a) \(ref)"
                let r = run(s, stmt)
                XCTAssertTrue(r.failed, stmt)
                let d = try XCTUnwrap(r.diagnostics.first, stmt)
                XCTAssertTrue([.E0301, .E0305, .E0306].contains(d.code), "\(stmt): \(d.code)")
                XCTAssertNotNil(d.range, stmt)
                XCTAssertEqual(Snapshot(s.store.snapshot()), before, stmt)
            }
        }
        let d = try XCTUnwrap(run(s, "archive \"Call mom\"").diagnostics.first)
        XCTAssertEqual(d.notes, ["candidate: 1 · Call mom", "candidate: 2 · Call mom"])
        XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d).contains("^"))
    }

    /// Fields `set` can change, with their errors.
    func testSetFields() {
        let s = session()
        setup(s, ["add A", "add B"])
        XCTAssertEqual(lines(s, "set 1 estimate 1h30m"), ["Set estimate of 1 · A: 90m"])
        XCTAssertEqual(s.store.task(1)?.estimate, Estimate(minutes: 90, source: .user))
        XCTAssertEqual(lines(s, "set 1 estimate 15m suggested"), ["Set estimate of 1 · A: 15m"])
        XCTAssertEqual(s.store.task(1)?.estimate?.source, .suggested)
        XCTAssertEqual(lines(s, "set 1 estimate soon"), ["! E0209 'soon' is not a value of 'estimate'"])
        XCTAssertEqual(lines(s, "set 1 status done"), ["! E0209 'done' is not a value of 'status'"])
        XCTAssertEqual(lines(s, "set 1 parent 2"), ["Set parent of 1 · A: 2"])
        XCTAssertEqual(lines(s, "set 2 parent 1"), ["! E0313 task 1 cannot be the parent of task 2"])
        XCTAssertEqual(lines(s, "set 2 parent 2"), ["! E0313 task 2 cannot be the parent of task 2"])
        XCTAssertEqual(lines(s, "set 1 parent 7"), ["! E0301 no task with id 7"])
        XCTAssertEqual(lines(s, "set 1 start fri"), ["Set start of 1 · A: Fri Jun 19, 2026"])
        XCTAssertEqual(lines(s, "step 1 check 2"), ["! E0311 task 1 has no step 2"])
    }

    /// The history is kept in the store file, bounded, so a later session can still undo.
    func testHistoryIsKeptInTheStore() throws {
        let s = session()
        setup(s, ["project add Home", "add A +Home", "subtask 1 B", "set clock 24h", "filter Mine = +Home", "delete 1", "undo"])
        let bytes = StoreCodec.encode(s.store.snapshot())
        let back = try StoreCodec.decode(bytes).get()
        XCTAssertEqual(back.history.undoStack.map(\.summary), s.journal.undoStack.map(\.summary))
        XCTAssertEqual(back.history.redoStack.map(\.summary), ["delete 1 · A"])
        XCTAssertEqual(StoreCodec.encode(back), bytes)
        let later = session(back)
        XCTAssertEqual(lines(later, "redo"), ["Redid delete 1 · A"])
        XCTAssertFalse(run(later, "undo 7").failed)
        XCTAssertTrue(later.store.tasks.isEmpty)
        XCTAssertTrue(later.store.projects.isEmpty)
        XCTAssertEqual(later.store.settings.day.hourCycle, .h12)
        // Bounded: the store keeps the newest steps only.
        let many = session()
        for k in 0..<(Journal.storedSteps + 20) { setup(many, ["add T\(k)"]) }
        let kept = try StoreCodec.decode(StoreCodec.encode(many.store.snapshot())).get()
        XCTAssertEqual(kept.history.undoStack.count, Journal.storedSteps)
        XCTAssertEqual(kept.history.undoStack.last?.summary, "add \(Journal.storedSteps + 20) · T\(Journal.storedSteps + 19)")
        // A history that cannot be read makes the store unreadable rather than dropping it.
        let bad = Array("{\"tasks\": [], \"history\": {\"undo\": [{\"summary\": 1}]}}".utf8)
        guard case .failure(let e) = StoreCodec.decode(bad) else { return XCTFail("a bad history was read") }
        XCTAssertTrue(e.message.hasPrefix("the undo history"), e.message)
    }

    /// R-TASK-5 (status), R-CAP-6: a project's own statuses. `set ID status` takes a built-in
    /// status or one of the task's project's; the filter finds it by name in any case; removing
    /// one sets its tasks back to open; each change is one step and bad input changes nothing.
    func testCustomStatusesPerProject() {
        let s = session()
        setup(s, ["project add Home", "add Paint +Home", "add Loose", "project add Work", "add Report +Work"])
        XCTAssertEqual(lines(s, "project statuses Home add \"In review\""), ["Added the status In review to project Home"])
        XCTAssertEqual(lines(s, "project statuses Home add in REVIEW"), ["! E0320 project Home already has the status 'in REVIEW'"])
        XCTAssertEqual(lines(s, "project statuses Home add any"), ["! E0320 project Home already has the status 'any'"])
        XCTAssertEqual(lines(s, "project statuses Home"), ["Home: open, waiting, archived, done · its own: In review"])
        XCTAssertEqual(lines(s, "set 1 status in review"), ["Set status of 1 · Paint: In review"])
        XCTAssertEqual(s.store.task(1)?.status.rawValue, "in review")
        XCTAssertEqual(lines(s, "set 2 status in review"), ["! E0319 'in review' is not a status of a task without a project"])
        XCTAssertEqual(lines(s, "set 3 status in review"), ["! E0319 'in review' is not a status of project Work"])
        XCTAssertEqual(lines(s, "set 2 status waiting"), ["Set status of 2 · Loose: waiting"])
        XCTAssertEqual(lines(s, "count status:\"In Review\""), ["1 of 3"])
        XCTAssertEqual(lines(s, "add Sand +Home status:\"in review\""), ["Added 4 · Sand · +Home"])
        XCTAssertEqual(lines(s, "add Glue status:blocked"), ["! E0319 'blocked' is not a status of a task without a project"])
        XCTAssertEqual(lines(s, "set where (+Home or +Work) status in review"),
                       ["Nothing changed where (+Home or +Work)", "  skipped 3 · Report: 'in review' is not a status of project Work", "  2 tasks already so"])
        XCTAssertEqual(lines(s, "projects"), ["Home  2 open tasks  statuses: In review", "Work  1 open task"])
        XCTAssertEqual(lines(s, "project statuses Home remove \"in review\""), ["Removed the status In review from project Home · 2 tasks back to open"])
        XCTAssertEqual(s.store.task(1)?.status, .open)
        XCTAssertEqual(lines(s, "project statuses Home remove nope"), ["! E0321 project Home has no status 'nope'"])
        setup(s, ["undo"])
        XCTAssertEqual(s.store.project(named: "Home")?.statuses, ["In review"])
        XCTAssertEqual(lines(s, "show 1 status"), ["In review"])
        // Stored with the project, and read back.
        let back = try? StoreCodec.decode(StoreCodec.encode(s.store.snapshot())).get()
        XCTAssertEqual(back?.project(named: "Home")?.statuses, ["In review"])
    }

    /// An archived project takes no new tasks: `add … +P` and `set ID project P` are refused
    /// (E0322) and change nothing.
    func testArchivedProjectsTakeNoTasks() {
        let s = session()
        setup(s, ["project add Old", "add Keep +Old", "project archive Old", "add Loose"])
        let before = Snapshot(s.store.snapshot())
        XCTAssertEqual(lines(s, "add New +Old"), ["! E0322 project Old is archived"])
        XCTAssertEqual(lines(s, "set 2 project Old"), ["! E0322 project Old is archived"])
        XCTAssertEqual(Snapshot(s.store.snapshot()), before)
        XCTAssertEqual(lines(s, "projects"), ["Old  1 open task  archived"])
        setup(s, ["project unarchive Old", "set 2 project Old"])
        XCTAssertEqual(s.store.task(2)?.project, "Old")
    }

    /// Every `help COMMAND` example parses as a statement, and runs without an unknown-command
    /// or syntax error in a session that has a task 1, a project Home and a saved filter.
    func testEveryHelpExampleParsesAndRuns() {
        for kw in Keyword.commands {
            let (stmt, diags) = Parser.parse(StatementSource(file: SourceFile(name: "help", text: kw.example)))
            XCTAssertNotNil(stmt, "help \(kw.rawValue): '\(kw.example)' does not parse: \(diags.map(\.message))")
            XCTAssertEqual(stmt?.keyword, kw, "help \(kw.rawValue): the example runs another command")
            let s = session()
            setup(s, ["project add Home", "add Call the dentist @tomorrow 3pm", "add B #someday", "add C", "complete 3", "filter NAME = #x"])
            let r = run(s, kw.example)
            for d in r.diagnostics {
                XCTAssertFalse(d.code.rawValue.hasPrefix("E00") || d.code.rawValue.hasPrefix("E01"), "help \(kw.rawValue): '\(kw.example)': \(d.code) \(d.message)")
            }
        }
    }
}
