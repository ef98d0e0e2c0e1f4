// The views, sort orders, due groups and `why` as the engine answers them, with no statement
// parsed: typed tasks in order, and typed errors (docs/ARCHITECTURE.md, "The domain API").
// covers: R-VIEW-1, R-VIEW-2, R-VIEW-4, R-PLAN-2, R-PLAN-4

import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore

final class EngineViewTests: XCTestCase {
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    /// An engine at 09:00 on Monday 2026-06-15; the week ends on Sunday the 21st.
    func engine(at iso: String = "2026-06-15T09:00") -> Engine {
        Engine(store: JSONStore(memory: Store()),
               clock: .wall(CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
               defaultZone: berlin, uids: .seeded(7))
    }

    func at(_ e: Engine, _ iso: String) {
        e.clock = .wall(CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
    }

    func add(_ e: Engine, _ title: String, due: String? = nil, at time: String? = nil, priority: Priority? = nil) throws -> Task {
        var d = TaskDraft(title: title)
        if let due, let date = CivilDate(iso: due) { d.due = Due(date: date, time: time.flatMap { WallTime(iso: $0) }) }
        d.priority = priority
        return try e.add(d)
    }

    /// A store of every kind of due: overdue, today (all-day and timed), tomorrow, this week,
    /// later and none.
    func fixture(_ e: Engine) throws -> [String: Task] {
        var t: [String: Task] = [:]
        t["later"] = try add(e, "Later", due: "2026-06-25")
        t["late"] = try add(e, "Late", due: "2026-06-10")
        t["today"] = try add(e, "Today", due: "2026-06-15")
        t["evening"] = try add(e, "Evening", due: "2026-06-15", at: "18:00")
        t["tomorrow"] = try add(e, "Tomorrow", due: "2026-06-16")
        t["week"] = try add(e, "Week", due: "2026-06-20")
        t["none"] = try add(e, "None")
        return t
    }

    /// R-VIEW-1: Today and Next 7 days list overdue tasks first, then their window's, by date
    /// (a timed due before an all-day one of the same day); Tomorrow is the next day only; All
    /// is every open task, undated last; a limit keeps the count of the whole view.
    func testViews() throws {
        let e = engine()
        let t = try fixture(e)
        func ids(_ names: [String]) -> [Int] { names.compactMap { t[$0]?.id } }
        let today = e.view(.today, order: [], limit: nil)
        XCTAssertEqual(today.tasks.map(\.id), ids(["late", "evening", "today"]))
        XCTAssertEqual(today.count, 3)
        XCTAssertEqual(e.view(.next7, order: [], limit: nil).tasks.map(\.id), ids(["late", "evening", "today", "tomorrow", "week"]))
        XCTAssertEqual(e.view(.tomorrow, order: [], limit: nil).tasks.map(\.id), ids(["tomorrow"]))
        XCTAssertEqual(e.view(.all, order: [], limit: nil).tasks.map(\.id),
                       ids(["late", "evening", "today", "tomorrow", "week", "later", "none"]))
        let two = e.view(.all, order: [], limit: 2)
        XCTAssertEqual(two.tasks.map(\.id), ids(["late", "evening"]))
        XCTAssertEqual(two.count, 7, "the count is the view's, before its limit")
        // Overdue stays first under another order too.
        XCTAssertEqual(e.view(.today, order: [(.title, false)], limit: nil).tasks.map(\.id), ids(["late", "evening", "today"]))
        // Archived lists archived tasks in creation order.
        _ = try e.archive(.task(try XCTUnwrap(t["later"]).id))
        _ = try e.archive(.task(try XCTUnwrap(t["late"]).id))
        XCTAssertEqual(e.view(.archived, order: [], limit: nil).tasks.map(\.id), ids(["later", "late"]))
    }

    /// R-VIEW-2: what was done since today's day start is Today's and Next 7 days' Done section
    /// and the Done today view; the next day it is gone. Other views have no Done section.
    func testDoneToday() throws {
        let e = engine()
        let t = try fixture(e)
        let week = try XCTUnwrap(t["week"]), today = try XCTUnwrap(t["today"])
        _ = try e.complete(.task(week.id))
        _ = try e.complete(.task(today.id))
        let v = e.view(.today, order: [], limit: nil)
        XCTAssertEqual(v.done.map(\.id), [today.id, week.id], "by date, as the view reads")
        XCTAssertFalse(v.tasks.contains { $0.id == today.id }, "a finished task is no row of Today")
        XCTAssertEqual(e.view(.next7, order: [], limit: nil).done.count, 2)
        XCTAssertEqual(e.view(.doneToday, order: [], limit: nil).tasks.map(\.id), [today.id, week.id], "in creation order")
        XCTAssertEqual(e.view(.doneToday, order: [], limit: nil).done, [])
        XCTAssertEqual(e.view(.all, order: [], limit: nil).done, [])
        at(e, "2026-06-16T09:00")
        XCTAssertEqual(e.view(.today, order: [], limit: nil).done, [])
        XCTAssertEqual(e.view(.doneToday, order: [], limit: nil).tasks, [])
    }

    /// `order by` (docs/FILTERS.md): key by key, ties on id; tasks without a due come last
    /// either way; without keys, creation order.
    func testSortOrder() throws {
        let e = engine()
        let a = try add(e, "banana", due: "2026-06-20", priority: .high)
        let b = try add(e, "Apple", priority: .high)
        let c = try add(e, "cherry", due: "2026-06-18", priority: .low)
        let all = [c, a, b]
        XCTAssertEqual(e.sorted(all, by: []).map(\.id), [a.id, b.id, c.id])
        XCTAssertEqual(e.sorted(all, by: [(.due, false)]).map(\.id), [c.id, a.id, b.id])
        XCTAssertEqual(e.sorted(all, by: [(.due, true)]).map(\.id), [a.id, c.id, b.id], "no due is last, descending too")
        XCTAssertEqual(e.sorted(all, by: [(.title, false)]).map(\.id), [b.id, a.id, c.id], "titles fold case")
        XCTAssertEqual(e.sorted(all, by: [(.priority, true), (.title, true)]).map(\.id), [a.id, b.id, c.id])
        XCTAssertEqual(e.sorted(all, by: [(.id, true)]).map(\.id), [c.id, b.id, a.id])
    }

    /// R-VIEW-4: the due groups in order, empty ones left out, each with its tasks as given;
    /// nothing moves into Overdue, on one task or a selection, and nothing changes.
    func testDueGroups() throws {
        let e = engine()
        let t = try fixture(e)
        let groups = e.dueGroups(e.view(.all, order: [], limit: nil).tasks)
        XCTAssertEqual(groups.map(\.group), [.overdue, .today, .tomorrow, .thisWeek, .later, .noDue])
        XCTAssertEqual(groups[1].tasks.map(\.id), [t["evening"], t["today"]].compactMap { $0?.id })
        XCTAssertEqual(e.dueGroups([try XCTUnwrap(t["week"])]).map(\.group), [.thisWeek])
        let steps = e.store.history.undoStack.count
        let today = try XCTUnwrap(t["today"])
        XCTAssertThrowsError(try e.move(.task(today.id), to: .overdue)) { XCTAssertEqual($0 as? DomainError, .cannotMove(.intoOverdue)) }
        XCTAssertThrowsError(try e.move(.tasks([today.id], label: "where #x"), to: .overdue)) {
            XCTAssertEqual($0 as? DomainError, .cannotMove(.intoOverdue))
        }
        XCTAssertThrowsError(try e.move(.tasks([], label: "where #none"), to: .overdue)) {
            XCTAssertEqual($0 as? DomainError, .cannotMove(.intoOverdue))
        }
        XCTAssertEqual(e.store.history.undoStack.count, steps)
        XCTAssertEqual(e.task(today.id)?.due, today.due)
    }

    /// R-PLAN-2, R-PLAN-4: `why` places an open task in today's plan with its score's terms;
    /// only open tasks are planned (notInPlan), and a missing id is noTask.
    func testWhy() throws {
        let e = engine()
        let t = try fixture(e)
        let late = try XCTUnwrap(t["late"])
        let w = try e.why(late.id)
        XCTAssertEqual(w.task.id, late.id)
        XCTAssertEqual(w.section, .top3)
        XCTAssertEqual(w.position, 1)
        XCTAssertNil(w.above)
        XCTAssertNotNil(w.below?.task)
        XCTAssertEqual(w.score, w.terms.reduce(0) { $0 + $1.points }, accuracy: 1e-9)
        let week = try XCTUnwrap(t["week"])
        _ = try e.complete(.task(week.id))
        let done = try XCTUnwrap(e.task(week.id))
        XCTAssertThrowsError(try e.why(week.id)) { XCTAssertEqual($0 as? DomainError, .notInPlan(done, why: .notOpen)) }
        XCTAssertThrowsError(try e.why(99)) { XCTAssertEqual($0 as? DomainError, .noTask(99)) }
    }
}
