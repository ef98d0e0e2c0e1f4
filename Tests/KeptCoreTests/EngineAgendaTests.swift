// The agenda and the plan's openings as the engine answers them (docs/AGENDA.md), with no
// statement parsed: typed days, entries in order, and events passed in as values.

import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore

final class EngineAgendaTests: XCTestCase {
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func engine(at iso: String = "2026-06-15T09:00") -> Engine {
        Engine(store: JSONStore(memory: Store()),
               clock: .wall(CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
               defaultZone: berlin, uids: .seeded(7))
    }

    func date(_ iso: String) -> CivilDate { CivilDate(iso: iso) ?? CivilDate(dayNumber: 0) }

    func instant(_ iso: String) -> Instant {
        berlin.instant(for: CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
    }

    @discardableResult
    func add(_ e: Engine, _ title: String, due: String? = nil, at time: String? = nil, every rule: String? = nil, tags: [String] = []) throws -> Task {
        var d = TaskDraft(title: title)
        if let due { d.due = Due(date: date(due), time: time.flatMap { WallTime(iso: $0) }) }
        if let rule, case .success(let (r, _)) = RepeatRule.parse(rule) { d.repeatRule = r }
        d.tags = tags
        return try e.add(d)
    }

    func agenda(_ e: Engine, from: String = "2026-06-15", days: Int = 7, filter: FilterExpr? = nil, events: [CalendarEvent] = []) throws -> Agenda {
        try e.agenda(AgendaRequest(first: date(from), days: days, filter: filter), events: events)
    }

    func titles(_ es: [AgendaEntry]) -> [String] {
        es.map { e in
            switch e.what {
            case .task(let t): return t.title
            case .upcoming(let t): return t.title + "*"
            case .event(let ev): return "@" + ev.title
            }
        }
    }

    /// R-AGENDA-1: a timed task is a moment at its time, never a block; tasks close together
    /// each keep their own entry; events sit among them in time order.
    func testMomentsInTimeOrder() throws {
        let e = engine()
        try add(e, "Gym", due: "2026-06-17", at: "10:15")
        try add(e, "Dentist", due: "2026-06-17", at: "10:15")
        try add(e, "Mail", due: "2026-06-17", at: "10:20")
        let standup = CalendarEvent(calendar: "Work", uid: "s1", title: "Standup",
                                    when: .timed(start: instant("2026-06-17T10:00"), end: instant("2026-06-17T11:00")))
        let a = try agenda(e, events: [standup])
        let wed = try XCTUnwrap(a.days.first { $0.date == date("2026-06-17") })
        XCTAssertEqual(titles(wed.timed), ["@Standup", "Gym", "Dentist", "Mail"])
        XCTAssertEqual(wed.timed.map(\.at), [instant("2026-06-17T10:00"), instant("2026-06-17T10:15"), instant("2026-06-17T10:15"), instant("2026-06-17T10:20")])
        XCTAssertTrue(wed.dueThisDay.isEmpty)
    }

    /// R-AGENDA-2: a dated task without a time never lands at midnight: it sits under Due
    /// this day, with the day's all-day events.
    func testDueThisDay() throws {
        let e = engine()
        try add(e, "Pay rent", due: "2026-06-16")
        let holiday = CalendarEvent(calendar: "Home", uid: nil, title: "Holiday", when: .allDay(first: date("2026-06-16"), last: date("2026-06-17")))
        let a = try agenda(e, events: [holiday])
        XCTAssertEqual(titles(a.days[1].dueThisDay), ["Pay rent", "@Holiday"])
        XCTAssertEqual(titles(a.days[2].dueThisDay), ["@Holiday"])
        XCTAssertTrue(a.days[1].timed.isEmpty)
        XCTAssertNil(a.days[1].dueThisDay[0].at)
    }

    /// R-AGENDA-3: open tasks due before today are carried into today's Overdue group until
    /// done; a task due earlier today at a time stays at its moment.
    func testCarriedOverdue() throws {
        let e = engine()
        let late = try add(e, "Late", due: "2026-06-10")
        try add(e, "Early call", due: "2026-06-15", at: "08:00")
        var a = try agenda(e)
        XCTAssertEqual(a.days[0].overdue.map(\.title), ["Late"])
        XCTAssertEqual(titles(a.days[0].timed), ["Early call"])
        // Not on a range without today.
        a = try agenda(e, from: "2026-06-16")
        XCTAssertTrue(a.days.allSatisfy { $0.overdue.isEmpty })
        _ = try e.complete(.task(late.id))
        a = try agenda(e)
        XCTAssertTrue(a.days[0].overdue.isEmpty)
        XCTAssertEqual(a.days[0].done.map(\.title), ["Late"])
    }

    /// R-AGENDA-3: a long Overdue group lists its first ten by due and counts them all; a
    /// filter's left-out count includes the carried tasks it hides.
    func testOverdueGroupLimit() throws {
        let e = engine()
        for k in 1...12 { try add(e, "Late \(k)", due: "2026-06-\(String(format: "%02d", k))", tags: k == 12 ? ["last"] : []) }
        var a = try agenda(e, days: 1)
        XCTAssertEqual(a.days[0].overdueCount, 12)
        XCTAssertEqual(a.days[0].overdue.map(\.title), (1...10).map { "Late \($0)" })
        a = try agenda(e, days: 1, filter: .term(.tag("last")))
        XCTAssertEqual(a.days[0].overdue.map(\.title), ["Late 12"])
        XCTAssertEqual(a.leftOut, 11)
    }

    /// R-AGENDA-4: the later occurrences of a repeating task show on their days, marked
    /// upcoming, with the dates completing would make; nothing is written. A repeating task
    /// carried as overdue waits: completing it makes its next occurrence.
    func testUpcomingOccurrences() throws {
        let e = engine()
        let t = try add(e, "Stretch", due: "2026-06-15", at: "18:00", every: "every day")
        let late = try add(e, "Review", due: "2026-06-10", every: "every week")
        let before = e.store.snapshot()
        let a = try agenda(e, days: 3)
        XCTAssertEqual(titles(a.days[0].timed), ["Stretch"])
        XCTAssertEqual(titles(a.days[1].timed), ["Stretch*"])
        XCTAssertEqual(titles(a.days[2].timed), ["Stretch*"])
        XCTAssertEqual(a.days[1].timed.first?.task?.due, Due(date: date("2026-06-16"), time: WallTime(iso: "18:00")))
        XCTAssertEqual(a.days[0].overdue.map(\.id), [late.id])
        XCTAssertFalse(a.days.contains { $0.dueThisDay.contains { $0.task?.title == "Review" } })
        XCTAssertEqual(e.store.snapshot().tasks, before.tasks)
        // Completing makes what the agenda showed.
        guard case .done(let c) = try e.complete(.task(t.id)) else { return XCTFail("not completed") }
        XCTAssertEqual(c.next?.due, a.days[1].timed.first?.task?.due)
        // An agenda that starts later reads the series of a task due before it.
        let later = try agenda(e, from: "2026-06-18", days: 2)
        XCTAssertEqual(titles(later.days[0].timed), ["Stretch*"])
        XCTAssertEqual(titles(later.days[1].timed), ["Stretch*"])
    }

    /// R-AGENDA-4: a series far ahead is found from its own dates: the same dates as walking
    /// it occurrence by occurrence, and a far agenda still shows them.
    func testUpcomingFarAhead() throws {
        let e = engine()
        let t = try add(e, "Gym", due: "2026-06-15", at: "18:30", every: "every mon and thu")
        let fc = e.filterContext
        let first = date("2027-03-01").dayNumber, last = date("2027-03-31").dayNumber
        let walked = e.upcoming(t, through: last, fc).filter { ($0.due.map(fc.day) ?? 0) >= first }
        let jumped = e.upcoming(t, from: first, through: last, fc)
        XCTAssertEqual(jumped.map(\.due), walked.map(\.due))
        XCTAssertEqual(jumped.count, 9)
        let a = try agenda(e, from: "2028-01-03", days: 1)
        XCTAssertEqual(titles(a.days[0].timed), ["Gym*"])
    }

    /// R-AGENDA-5: a held task keeps its day, and carries its hold.
    func testHeld() throws {
        let e = engine()
        let t = try add(e, "Pay rent", due: "2026-06-15")
        _ = try e.notToday(.task(t.id))
        let a = try agenda(e, days: 1)
        XCTAssertEqual(a.days[0].dueThisDay.first?.task?.heldUntil, date("2026-06-16"))
    }

    /// R-AGENDA-6: what was done today ends today, and only today.
    func testDoneToday() throws {
        let e = engine()
        let t = try add(e, "Pack", due: "2026-06-17")
        _ = try e.complete(.task(t.id))
        let a = try agenda(e, days: 3)
        XCTAssertEqual(a.days[0].done.map(\.title), ["Pack"])
        XCTAssertTrue(a.days[2].isEmpty)
    }

    /// R-AGENDA-7: the day start decides a timed task's day; a time the spring gap skips is
    /// placed at the instant it happens; in the autumn's repeated hour the first is meant.
    func testDayStartAndDST() throws {
        var e = engine()
        _ = try e.set(setting: "day-start", to: "04:00")
        try add(e, "Night feed", due: "2026-06-16", at: "01:30")
        var a = try agenda(e, days: 2)
        XCTAssertEqual(titles(a.days[0].timed), ["Night feed"])
        e = engine(at: "2026-03-28T10:00")
        try add(e, "Backup", due: "2026-03-28", at: "02:30", every: "every day")
        a = try agenda(e, from: "2026-03-29", days: 1)
        XCTAssertEqual(a.days[0].timed.first?.at, instant("2026-03-29T03:30"))
        e = engine(at: "2026-10-24T10:00")
        try add(e, "Check", due: "2026-10-25", at: "02:30")
        a = try agenda(e, from: "2026-10-25", days: 1)
        XCTAssertEqual(a.days[0].timed.first?.at.map { berlin.offset(at: $0) }, 7200)
    }

    /// R-AGENDA-8: a filter keeps some tasks; the agenda counts truly what it left out, and
    /// an empty agenda says it is empty.
    func testFilterAndEmpty() throws {
        let e = engine()
        try add(e, "Call", due: "2026-06-15", at: "16:00", tags: ["phone"])
        try add(e, "Gym", due: "2026-06-17")
        try add(e, "Far", due: "2026-07-30")
        var a = try agenda(e, days: 3, filter: .term(.tag("phone")))
        XCTAssertEqual(a.leftOut, 1)
        XCTAssertFalse(a.isEmpty)
        a = try agenda(e, days: 3, filter: .term(.tag("none")))
        XCTAssertTrue(a.isEmpty)
        XCTAssertEqual(a.leftOut, 2)
        a = try agenda(e, from: "2026-06-20", days: 2)
        XCTAssertTrue(a.isEmpty)
        XCTAssertEqual(a.leftOut, 0)
    }

    /// R-AGENDA-10: an event meets every day it overlaps: an overnight one shows on both,
    /// from the second day's start.
    func testOvernightEvent() throws {
        let e = engine()
        let train = CalendarEvent(calendar: "Trips", uid: "t", title: "Night train",
                                  when: .timed(start: instant("2026-06-15T22:00"), end: instant("2026-06-16T06:00")))
        let a = try agenda(e, days: 3, events: [train])
        XCTAssertEqual(titles(a.days[0].timed), ["@Night train"])
        XCTAssertEqual(titles(a.days[1].timed), ["@Night train"])
        XCTAssertEqual(a.days[1].timed.first?.at, instant("2026-06-16T00:00"))
        XCTAssertTrue(a.days[2].timed.isEmpty)
        // One that began before the first day shows from its start; one of no length on its
        // day; one after the last day nowhere.
        let late = CalendarEvent(calendar: "Home", uid: "l", title: "Late party",
                                 when: .timed(start: instant("2026-06-14T20:00"), end: instant("2026-06-15T01:00")))
        let tick = CalendarEvent(calendar: "Home", uid: "p", title: "Tick", when: .timed(start: instant("2026-06-16T12:00"), end: instant("2026-06-16T12:00")))
        let after = CalendarEvent(calendar: "Home", uid: "x", title: "After", when: .timed(start: instant("2026-06-20T12:00"), end: instant("2026-06-20T13:00")))
        let b = try agenda(e, days: 2, events: [late, tick, after])
        XCTAssertEqual(titles(b.days[0].timed), ["@Late party"])
        XCTAssertEqual(b.days[0].timed.first?.at, instant("2026-06-15T00:00"))
        XCTAssertEqual(titles(b.days[1].timed), ["@Tick"])
    }

    /// R-AGENDA-9: openings are the free stretches from now to the day's end between events
    /// and timed tasks that fit a pick's estimate (30 minutes without one), with the full
    /// hours inside a long stretch; nothing is written.
    func testOpenings() throws {
        let e = engine()
        let pick = try add(e, "Write", due: "2026-06-15")
        try add(e, "Call", due: "2026-06-15", at: "12:00")
        let meeting = CalendarEvent(calendar: "Work", uid: "m", title: "Meeting",
                                    when: .timed(start: instant("2026-06-15T09:20"), end: instant("2026-06-15T10:00")))
        let before = e.store.snapshot()
        let o = e.openings(per: 24, events: [meeting])
        XCTAssertEqual(o.free.first, FreeStretch(start: instant("2026-06-15T09:00"), end: instant("2026-06-15T09:20")))
        XCTAssertEqual(o.free[1], FreeStretch(start: instant("2026-06-15T10:00"), end: instant("2026-06-15T12:00")))
        let p = try XCTUnwrap(o.picks.first { $0.task.id == pick.id })
        XCTAssertEqual(p.minutes, 30)
        // 9:00–9:20 is too short; 10:00–12:00 is long: 10:00 and the full hour 11:00.
        XCTAssertEqual(Array(p.starts.prefix(3)), [instant("2026-06-15T10:00"), instant("2026-06-15T11:00"), instant("2026-06-15T12:30")])
        XCTAssertEqual(e.store.snapshot().plan, before.plan)
        XCTAssertNil(e.store.plan)
        XCTAssertEqual(e.store.snapshot().tasks, before.tasks)
    }

    /// R-AGENDA-9, R-AGENDA-7: full hours are hours of real time on the clock: the hour the
    /// spring skips is not offered, the autumn's repeated hour is offered twice.
    func testOpeningsOnDSTNights() throws {
        var e = engine(at: "2026-03-29T01:00")
        try add(e, "Write", due: "2026-03-29")
        var p = try XCTUnwrap(e.openings(per: 4, events: []).picks.first)
        XCTAssertEqual(p.starts.map { TimeText.isoInstant($0, in: berlin) },
                       ["2026-03-29T01:00:00+01:00", "2026-03-29T03:00:00+02:00", "2026-03-29T04:00:00+02:00", "2026-03-29T05:00:00+02:00"])
        e = engine(at: "2026-10-25T01:00")
        try add(e, "Write", due: "2026-10-25")
        p = try XCTUnwrap(e.openings(per: 4, events: []).picks.first)
        XCTAssertEqual(p.starts.map { TimeText.isoInstant($0, in: berlin) },
                       ["2026-10-25T01:00:00+02:00", "2026-10-25T02:00:00+02:00", "2026-10-25T02:00:00+01:00", "2026-10-25T03:00:00+01:00"])
    }
}
