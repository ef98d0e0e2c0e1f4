// The views, sort orders, due groups and `why` as the engine answers them, with no statement
// parsed: typed tasks in order, and typed errors (docs/ARCHITECTURE.md, "The domain API").
// covers: R-VIEW-1, R-VIEW-2, R-VIEW-4, R-PLAN-2, R-PLAN-4

import Foundation
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

    /// R-VIEW-1 with a limit on a store that narrows (SQLite): each part of a view reads its
    /// first rows in the view's order and counts the rest, and the view is the whole view's
    /// first rows with the whole view's count, in every order and at every limit; the first
    /// such read reads no record of a task it does not list.
    func testALimitedViewIsTheWholeViewsFirstRows() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-views-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try SQLiteStore.open(dir.appendingPathComponent("v.db").path).get()
        let e = Engine(store: db, clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                       defaultZone: berlin, uids: .seeded(7))
        var seed: UInt64 = 34
        func next(_ m: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(m))
        }
        for k in 0..<400 {
            let day = next(5) == 0 ? nil : String(format: "2026-06-%02d", 8 + next(16))
            let time = next(2) == 0 ? String(format: "%02d:%02d", next(24), 15 * next(4)) : nil
            _ = try add(e, "Task \(k)", due: day, at: day == nil ? nil : time, priority: [Priority.high, .medium, .low, nil][next(4)])
        }
        for k in stride(from: 3, to: 400, by: 9) { _ = try e.complete(.task(k)) }
        XCTAssertNoThrow(try db.commit().get())
        // Since the last change, the store has read no row; All with a limit reads its three.
        XCTAssertEqual(db.narrowedRows, 0)
        let first = e.view(.all, order: [], limit: 3)
        XCTAssertEqual(first.tasks.count, 3)
        XCTAssertEqual(db.narrowedRows, 3, "a limited view reads its parts' first rows, not every open task")
        XCTAssertFalse(db.hasFullView)
        for v in [ListView.today, .next7, .tomorrow, .all, .doneToday, .archived] {
            for order: KeptRules.SortOrder in [[], [(.priority, true)], [(.created, false)], [(.title, false)], [(.due, true)]] {
                let whole = e.view(v, order: order, limit: nil)
                for n in [0, 1, 2, 5, 50, 1_000] {
                    let limited = e.view(v, order: order, limit: n)
                    XCTAssertEqual(limited.tasks.map(\.id), Array(whole.tasks.prefix(n)).map(\.id), "\(v) \(order) limit \(n)")
                    XCTAssertEqual(limited.count, whole.count, "\(v) \(order) limit \(n)")
                    XCTAssertEqual(limited.done.map(\.id), whole.done.map(\.id), "\(v) \(order) limit \(n)")
                }
            }
        }
    }

    /// R-PLAN-1 on the API: `planByDate` is the plan's own By date order (`PlanRow.byDate` over
    /// the whole plan's rows: the due minute, a date-only due at its day's end, no due last,
    /// then creation, then id), the first `limit` rows and the count of all, on the JSON store
    /// and on SQLite (where it is a list whose order and limit go into SQL), with a filter too.
    func testPlanByDateIsThePlansDateOrder() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-bydate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try SQLiteStore.open(dir.appendingPathComponent("d.db").path).get()
        for backend in [JSONStore(memory: Store()), db] as [any StoreBackend] {
            let e = Engine(store: backend, clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                           defaultZone: berlin, uids: .seeded(7))
            var seed: UInt64 = 1_205
            func next(_ m: Int) -> Int {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((seed >> 33) % UInt64(m))
            }
            for k in 0..<300 {
                // Few clocks and few dues, so dues and creations tie.
                at(e, String(format: "2026-06-%02dT%02d:00", 1 + next(3), 8 + next(2)))
                let day = next(6) == 0 ? nil : String(format: "2026-06-%02d", 12 + next(6))
                let time = next(3) == 0 ? ["00:00", "09:00", "23:59"][next(3)] : nil
                _ = try add(e, "Task \(k)", due: day, at: day == nil ? nil : time, priority: [Priority.high, nil][next(2)])
            }
            at(e, "2026-06-15T09:00")
            for k in stride(from: 5, to: 300, by: 11) { _ = try e.complete(.task(k)) }
            if let db = backend as? SQLiteStore {
                XCTAssertNoThrow(try db.commit().get())
                // On SQLite the limited By date order reads only the rows it prints.
                XCTAssertEqual(db.narrowedRows, 0)
                XCTAssertEqual(try e.planByDate(nil, limit: 5).tasks.count, 5)
                XCTAssertEqual(db.narrowedRows, 5, "the rows printed, not every open task")
            }
            for expr in [nil, FilterExpr.term(.priority(.equal, .high))] {
                let v = e.planView(expr, limit: nil, persist: false)
                let expected = v.input.rows.map { PlanRow(v.input.index, row: $0) }.sorted(by: PlanRow.byDate).map(\.id)
                XCTAssertGreaterThan(expected.count, 100)
                for limit in [nil, 0, 1, 7, 120, 1_000] {
                    let r = try e.planByDate(expr, limit: limit)
                    XCTAssertEqual(r.tasks.map(\.id), Array(expected.prefix(limit ?? Int.max)), "\(backend) \(String(describing: expr)) limit \(String(describing: limit))")
                    XCTAssertEqual(r.count, expected.count)
                    XCTAssertEqual(r.total, v.total)
                }
            }
        }
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
