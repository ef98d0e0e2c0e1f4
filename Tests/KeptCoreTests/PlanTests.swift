// The plan (R-PLAN-1…7) through Session, as every front end drives it: the urgency score and
// its terms, the sections and their tie-breaks, the snapshot across a day change, Not today
// holds across week boundaries and a 04:00 day start, Top 3 changes, and a property test over
// random stores (seeded, so every run checks the same stores).

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class PlanTests: XCTestCase, SessionTesting {
    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    static func wall(_ iso: String) -> CivilDateTime {
        CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)
    }

    /// A session at Monday 2026-06-15 09:00 Europe/Berlin.
    func session(_ store: Store = Store(), at iso: String = "2026-06-15T09:00") -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(Self.wall(iso)), defaultZone: Self.berlin)
    }

    func setup(_ s: Session, _ ls: [String]) {
        for l in ls { XCTAssertFalse(run(s, l).failed, l + ": " + lines(s, l).joined(separator: "\n")) }
    }

    /// The ids printed under a heading of `plan` output, up to the next heading.
    func section(_ out: [String], _ name: String) -> [Int] {
        guard let k = out.firstIndex(of: name) else { return [] }
        var ids: [Int] = []
        for line in out[(k + 1)...] {
            guard line.hasPrefix("  ") else { break }
            if let id = Int(line.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") { ids.append(id) }
        }
        return ids
    }

    // MARK: R-PLAN-4 the score

    /// R-PLAN-4: the due curve keeps rising for overdue work and keeps falling for later
    /// dates, so distant days never tie (Taskwarrior clamps at 7 days overdue and 14 ahead).
    func testDueCurveNeverFlattens() {
        let u = Urgency(weights: UrgencyWeights(), today: 1000, asOf: 0)
        let days = [-365, -100, -30, -8, -7, -1, 0, 1, 7, 14, 15, 30, 120, 365]
        let values = days.map { u.dueValue(1000 + $0) }
        for k in 1..<values.count { XCTAssertGreaterThan(values[k - 1], values[k], "day \(days[k - 1]) vs \(days[k])") }
        XCTAssertEqual(u.dueValue(1000), 1)
        XCTAssertEqual(u.dueValue(1007), 0.5)
        XCTAssertEqual(u.dueValue(999), 1.25)
        XCTAssertEqual(u.dueValue(984), 2)
    }

    /// R-PLAN-4: a task without a due date has an explicit place: as if due urgency.no-due
    /// days ahead (14), so it ranks above a task due in a month and below one due in a week.
    func testNoDueHasAnExplicitPlace() {
        let s = session()
        setup(s, ["add Month @2026-07-15", "add Undated", "add Week @2026-06-22"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [3, 2, 1])
        setup(s, ["set urgency.no-due 60", "plan refresh"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [3, 1, 2])
    }

    /// R-PLAN-4: the score is the sum of its terms, each term a value times its weight, and
    /// every weight is a setting.
    func testScoreIsTheSumOfItsTermsAndWeightsAreSettings() {
        var x = UrgencyInput()
        x.priority = 3
        x.dueDay = 995
        x.dueHasTime = true
        x.createdSeconds = 0
        x.hasGoal = true
        x.blocked = true
        x.hasReminderToday = true
        let u = Urgency(weights: UrgencyWeights(), today: 1000, asOf: 100 * 86_400)
        let terms = u.terms(x)
        XCTAssertEqual(terms.map(\.name), ["due", "priority", "time-today", "reminder-today", "age", "goal", "blocked"])
        XCTAssertEqual(terms.reduce(0) { $0 + $1.points }, u.score(x))
        let s = session()
        setup(s, ["add A !high", "add B @today"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [2, 1])
        setup(s, ["set urgency.priority.high 20"])
        XCTAssertEqual(lines(s, "set urgency.priority.high"), ["20"])
        // A weight takes effect at once: it is the user's change, not the clock's.
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [1, 2])
        XCTAssertEqual(lines(s, "set urgency.due abc"), ["! E0202 'abc' is not a value of 'urgency.due'"])
        XCTAssertEqual(lines(s, "set urgency.age-days 0"), ["! E0202 '0' is not a value of 'urgency.age-days'"])
    }

    /// R-PLAN-4: a goal link and a due time today raise a task; an open subtask sinks it.
    func testGoalTimeTodayAndBlocked() {
        let s = session()
        setup(s, ["add Plain", "add Goal", "set 2 goal Run a marathon", "add Parent", "subtask 3 Child"])
        let out = lines(s, "explain plan")
        XCTAssertEqual(section(out, "Top 3"), [2, 1, 4])
        XCTAssertEqual(section(out, "All other tasks"), [3])
        let why = lines(s, "why 3")
        XCTAssertTrue(why.contains { $0.hasPrefix("  blocked ") && $0.contains("1.00 × -5 = -5.0") }, why.joined(separator: "\n"))
    }

    /// R-PLAN-4: a reminder on the plan's day raises a task (`urgency.reminder-today`),
    /// whatever its time; one tomorrow does not; with a 04:00 day start a 02:00 reminder after
    /// midnight still belongs to today. The same from a loaded store, whose plan runs on columns.
    func testReminderToday() {
        let s = session()
        setup(s, ["add Plain", "add Reminded", "add Tomorrow", "add Late", "remind 2 today 8pm", "remind 3 tomorrow 9am",
                  "set day-start 04:00", "remind 4 2026-06-16 02:00"])
        for session in [s, self.session(StoreLoadTests.reloaded(s.store.snapshot()))] {
            let why = lines(session, "why 2")
            XCTAssertTrue(why.contains("  reminder-today  1.00 × 2 = 2.0"), why.joined(separator: "\n"))
            XCTAssertTrue(lines(session, "why 3").contains("  reminder-today  0.00 × 2 = 0.0"))
            XCTAssertTrue(lines(session, "why 4").contains("  reminder-today  1.00 × 2 = 2.0"))
            XCTAssertEqual(section(lines(session, "explain plan"), "Top 3"), [2, 4, 1])
        }
        setup(s, ["set urgency.reminder-today 0", "plan refresh"])
        XCTAssertEqual(section(lines(s, "explain plan"), "Top 3"), [1, 2, 3])
    }

    /// R-PLAN-4: urgency and the words High and Critical are printed only at the detailed
    /// row level.
    func testUrgencyIsNotPrintedUnlessDetailed() {
        let s = session()
        setup(s, ["add Pay rent !critical @today"])
        let plain = lines(s, "plan")
        XCTAssertFalse(plain.joined().contains("Critical"))
        XCTAssertFalse(plain.joined().contains("urgency"))
        setup(s, ["set row-detail detailed"])
        XCTAssertEqual(lines(s, "plan").last, "  1  Pay rent  Today  Critical  urgency 21.0")
    }

    // MARK: R-PLAN-1 … R-PLAN-3 the sections

    /// R-PLAN-2: Top 3, Quick wins and All other tasks, each open task once; "All tasks" when
    /// the first two are empty.
    func testSectionsAndTheirHeadings() {
        let s = session()
        XCTAssertEqual(lines(s, "plan"), ["Smart follows your plan · updated 9 AM", "No open tasks"])
        setup(s, ["add A @today", "add B @tomorrow", "add C @wed", "add D", "set 4 estimate 10m", "add E", "add F", "complete 6"])
        let out = lines(s, "plan")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 9 AM")
        XCTAssertEqual(section(out, "Top 3"), [1, 2, 3])
        XCTAssertEqual(section(out, "Quick wins"), [4])
        XCTAssertEqual(section(out, "All other tasks"), [5])
        // With every task held, Top 3 and Quick wins are empty.
        setup(s, ["not today where open"])
        let held = lines(s, "plan")
        XCTAssertEqual(section(held, "All tasks"), [1, 2, 3, 4, 5])
        XCTAssertFalse(held.contains("Top 3"))
    }

    /// R-PLAN-2: ties break on due, then creation, then id, so the same store always gives
    /// the same plan.
    func testTiesBreakOnDueThenCreationThenID() {
        var st = Store()
        let created = Instant(seconds: 1_781_000_000)
        func task(_ id: Int, _ due: Due?, _ c: Instant) -> Task {
            var t = Task(id: id, title: "T\(id)", createdAt: c)
            t.due = due
            return t
        }
        // Same score: no due, same age, but ids and creation differ.
        let day = CivilDate(iso: "2026-06-15") ?? CivilDate(dayNumber: 0)
        st = Store(tasks: [task(1, nil, Instant(seconds: created.seconds + 60)), task(2, nil, created), task(3, nil, created),
                           task(4, Due(date: day, time: WallTime(hour: 9, minute: 0)), created), task(5, Due(date: day), created)])
        var weights = UrgencyWeights()
        weights.timeToday = 0
        weights.age = 0
        st.settings.urgency = weights
        let s = session(st)
        let out = lines(s, "plan limit all")
        // 4 and 5 tie on score (due today, time counts 0): the timed due first.
        XCTAssertEqual(section(out, "Top 3"), [4, 5, 2])
        XCTAssertEqual(section(out, "All other tasks"), [3, 1])
        XCTAssertEqual(lines(session(st), "plan limit all"), out)
    }

    /// R-PLAN-1: `plan by date` is the date order, overdue first and no due last.
    func testPlanByDate() {
        let s = session()
        setup(s, ["add Later @2026-07-01", "add None", "add Overdue @2026-06-10", "add Today 3pm @today 3pm", "add Today @today"])
        XCTAssertEqual(lines(s, "plan by date"), [
            "By date · 5 tasks",
            "  3  Overdue    Overdue 5d",
            "  4  Today 3pm  Today 3 PM",
            "  5  Today      Today",
            "  1  Later      Wed Jul 1",
            "  2  None",
        ])
    }

    /// R-PLAN-3: Quick wins hold user-set estimates at or under the threshold (a setting,
    /// 15m), never a suggested one, and never a Top 3 pick.
    func testQuickWinsOnlyUserEstimatesUnderTheThreshold() {
        let s = session()
        setup(s, ["add A @today", "add B @today", "add C @today", "add Short", "set 4 estimate 15m",
                  "add Suggested", "set 5 estimate 5m suggested", "add Long", "set 6 estimate 16m", "add Picked @today", "set 7 estimate 5m"])
        var out = lines(s, "plan")
        XCTAssertEqual(section(out, "Top 3"), [1, 2, 3])
        XCTAssertEqual(section(out, "Quick wins"), [7, 4])
        XCTAssertEqual(section(out, "All other tasks"), [5, 6])
        setup(s, ["set quick-wins 20m"])
        out = lines(s, "plan")
        XCTAssertEqual(section(out, "Quick wins"), [7, 4, 6])
    }

    /// R-PLAN-2: `plan FILTER` plans only the matching tasks, with its own Top 3.
    func testPlanFilter() {
        let s = session()
        setup(s, ["add A #work @today", "add B @today", "add C #work", "add D #work @tomorrow", "add E #work @2026-07-30"])
        let out = lines(s, "plan #work")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 9 AM · 4 of 5 tasks · 1 filter on")
        XCTAssertEqual(section(out, "Top 3"), [1, 4, 3])
        XCTAssertEqual(section(out, "All other tasks"), [5])
        XCTAssertEqual(lines(s, "plan #nothing"), ["Smart follows your plan · updated 9 AM · 0 of 5 tasks · 1 filter on", "Nothing matches these filters"])
    }

    /// R-PLAN-2: the rest is cut at 20 rows (or `limit N`) with how many more; the order is the same.
    func testLimit() {
        let s = session()
        setup(s, (1...30).map { "add T\($0) @2026-07-\($0 < 10 ? "0" : "")\($0)" })
        let out = lines(s, "plan")
        XCTAssertEqual(section(out, "All other tasks"), Array(4...23))
        XCTAssertEqual(out.last, "  … 7 more (plan limit N shows more)")
        XCTAssertEqual(section(lines(s, "plan limit 2"), "All other tasks"), [4, 5])
        XCTAssertEqual(section(lines(s, "plan limit all"), "All other tasks"), Array(4...30))
        // `explain plan` prints the whole plan (R-PLAN-4, issue 7: "the whole plan with scores").
        let explained = lines(s, "explain plan")
        XCTAssertEqual(section(explained, "All other tasks"), Array(4...30))
        XCTAssertFalse(explained.contains { $0.contains("more (plan limit") }, explained.joined(separator: "\n"))
        XCTAssertEqual(section(lines(s, "explain plan limit 2"), "All other tasks"), [4, 5])
        XCTAssertEqual(lines(s, "explain plan by date"), ["! E0102 expected a filter or 'limit' after 'explain plan'"])
        XCTAssertEqual(lines(s, "plan limit 0"), ["! E0401 a plan limit is a whole number from 1, or all"])
        XCTAssertEqual(lines(s, "plan limit"), ["! E0401 a plan limit is a whole number from 1, or all"])
    }

    // MARK: R-PLAN-5 the plan holds still

    /// R-PLAN-5: a plan is a snapshot with the time it was made; completing and capturing move
    /// rows, but the Top 3 picks and the scores wait for the day to change or `plan refresh`.
    func testSnapshotHoldsUntilTheDayChanges() {
        let s = session(at: "2026-06-15T07:42")
        setup(s, ["add A @tomorrow", "add B @wed", "add C @thu", "add D @fri"])
        var out = lines(s, "plan")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 7:42 AM")
        XCTAssertEqual(section(out, "Top 3"), [1, 2, 3])
        let why = lines(s, "why 4")
        // Later the same day: a new urgent task shows, but not in Top 3; a completed task leaves.
        s.clock = .wall(Self.wall("2026-06-15T23:30"))
        setup(s, ["add Urgent !critical @yesterday", "complete 4"])
        out = lines(s, "plan")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 7:42 AM")
        XCTAssertEqual(section(out, "Top 3"), [1, 2, 3])
        XCTAssertEqual(section(out, "All other tasks"), [5])
        setup(s, ["reopen 4"])
        XCTAssertEqual(lines(s, "why 4")[1..<8], why[1..<8], "scores are taken as of the plan's time")
        // R-PLAN-8: `why` on the new task that outscores a pick names the held snapshot, the pick
        // it outscores and how to pick again.
        let urgent = lines(s, "why 5")
        XCTAssertTrue(urgent.contains { $0.hasPrefix("Top 3 pick 3 · C scores ") && $0.hasSuffix(": Top 3 was picked at 7:42 AM and is held for the day") }, "\(urgent)")
        XCTAssertEqual(urgent.last, "plan of 7:42 AM · Top 3 held until the next day starts · 'plan refresh' picks again")
        XCTAssertFalse(lines(s, "why 1").contains { $0.hasPrefix("Top 3 pick") }, "a pick outscores no pick")
        setup(s, ["plan refresh"])
        XCTAssertFalse(lines(s, "why 5").contains { $0.hasPrefix("Top 3 pick") }, "picked again: task 5 is a pick")
        // The next day: a new plan.
        s.clock = .wall(Self.wall("2026-06-16T08:05"))
        out = lines(s, "plan")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 8:05 AM")
        XCTAssertEqual(section(out, "Top 3"), [5, 1, 2])
    }

    /// R-PLAN-5: with a day start of 04:00, 01:30 still belongs to the plan's day.
    func testSnapshotFollowsTheDayStart() {
        let s = session(at: "2026-06-15T22:00")
        setup(s, ["set day-start 04:00", "add A @tomorrow", "plan"])
        s.clock = .wall(Self.wall("2026-06-16T01:30"))
        XCTAssertEqual(lines(s, "plan").first, "Smart follows your plan · updated 10 PM")
        s.clock = .wall(Self.wall("2026-06-16T04:00"))
        XCTAssertEqual(lines(s, "plan").first, "Smart follows your plan · updated 4 AM")
    }

    /// R-PLAN-5: `plan refresh` scores again now and picks a new Top 3; undo brings back the
    /// plan it replaced.
    func testPlanRefreshAndUndo() {
        let s = session(at: "2026-06-15T07:42")
        setup(s, ["add A @tomorrow", "add B @wed", "add C @thu", "plan"])
        s.clock = .wall(Self.wall("2026-06-15T11:15"))
        setup(s, ["add Urgent !critical @yesterday"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [1, 2, 3])
        let out = lines(s, "plan refresh")
        XCTAssertEqual(out.first, "Smart follows your plan · updated 11:15 AM")
        XCTAssertEqual(section(out, "Top 3"), [4, 1, 2])
        XCTAssertEqual(lines(s, "undo"), ["Undid plan refresh"])
        XCTAssertEqual(lines(s, "plan").first, "Smart follows your plan · updated 7:42 AM")
    }

    /// R-PLAN-5: the plan is stored with the tasks; an old store without it loads.
    func testPlanIsStored() throws {
        let s = session()
        setup(s, ["add A @today", "add B", "plan", "not today 2"])
        let bytes = StoreCodec.encode(s.store.snapshot())
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("\"plan\": {\"madeAt\":\"2026-06-15T07:00:00+00:00\",\"day\":\"2026-06-15\",\"top3\":[1]}"), text)
        XCTAssertTrue(text.contains("\"heldUntil\":\"2026-06-16\",\"notTodayOn\":\"2026-06-15\""), text)
        for deferred in [true, false] {
            guard case .success(let back) = StoreCodec.decode(bytes, deferTasks: deferred) else { return XCTFail("decode") }
            XCTAssertEqual(back.plan, s.store.plan)
            XCTAssertEqual(back.task(2)?.notTodayOn, CivilDate(iso: "2026-06-15"))
            XCTAssertEqual(lines(session(back), "plan"), lines(s, "plan"))
        }
        let old = Array("{\"format\": \"kept-store\", \"version\": 1, \"tasks\": [{\"id\": 1, \"title\": \"A\", \"createdAt\": \"2026-06-01T08:00:00Z\"}]}".utf8)
        guard case .success(let o) = StoreCodec.decode(old) else { return XCTFail("an old store loads") }
        XCTAssertNil(o.plan)
        // R-STORE-1: a key of the plan this version does not know is kept, also when a new
        // plan is made (a refresh, or the next day's).
        let device = Array("{\"format\": \"kept-store\", \"version\": 1, \"plan\": {\"madeAt\": \"2026-06-15T07:00:00+00:00\", \"day\": \"2026-06-15\", \"top3\": [1], \"device\": \"phone\"}, \"tasks\": [{\"id\": 1, \"title\": \"A\", \"createdAt\": \"2026-06-01T08:00:00Z\"}]}".utf8)
        for deferred in [true, false] {
            guard case .success(let d) = StoreCodec.decode(device, deferTasks: deferred) else { return XCTFail("decode") }
            XCTAssertTrue(String(decoding: StoreCodec.encode(d), as: UTF8.self).contains("\"device\":\"phone\""))
            for (at, step) in [("2026-06-15T09:00", "plan refresh"), ("2026-06-16T09:00", "plan")] {
                let later = session(d, at: at)
                setup(later, [step])
                XCTAssertTrue(String(decoding: StoreCodec.encode(later.store.snapshot()), as: UTF8.self).contains("\"device\":\"phone\""), step)
            }
        }
        let bad = Array("{\"format\": \"kept-store\", \"version\": 1, \"plan\": {\"madeAt\": \"soon\"}, \"tasks\": []}".utf8)
        guard case .failure(let e) = StoreCodec.decode(bad) else { return XCTFail("a bad plan is refused") }
        XCTAssertTrue(e.message.contains("the plan"), e.message)
    }

    // MARK: R-PLAN-6 Not today

    /// R-PLAN-6: a hold's end across week boundaries and a 04:00 day start: the next day for a
    /// first Not today, seven days for a second within a rolling week.
    func testHoldLengths() {
        let table: [(String, String, String?, String)] = [
            // (case, today, last Not today, back on)
            ("hold-01", "2026-06-15", nil, "2026-06-16"),
            ("hold-02", "2026-06-21", nil, "2026-06-22"),              // Sunday: back Monday, the next week
            ("hold-03", "2026-06-16", "2026-06-15", "2026-06-23"),     // second, the next day
            ("hold-04", "2026-06-23", "2026-06-21", "2026-06-30"),     // Sunday, then Tuesday of the next week
            ("hold-05", "2026-06-21", "2026-06-15", "2026-06-28"),     // six days after: still within a week
            ("hold-06", "2026-06-22", "2026-06-15", "2026-06-23"),     // seven days after: a first again
            ("hold-07", "2026-06-15", "2026-06-15", "2026-06-22"),     // twice on one day
            ("hold-08", "2026-12-31", "2026-12-28", "2027-01-07"),     // across a year
        ]
        for (id, today, last, back) in table {
            let t = CivilDate(iso: today) ?? CivilDate(dayNumber: 0)
            XCTAssertEqual(Holds.end(today: t, lastNotToday: last.flatMap { CivilDate(iso: $0) }), CivilDate(iso: back), id)
        }
    }

    /// R-PLAN-6: Not today holds a task out of Top 3 and Quick wins until the next day start
    /// (04:00 here), shows `Back …`, never moves the due date, and `back` ends it early.
    func testNotTodayAndBack() {
        let s = session(at: "2026-06-16T01:30")
        setup(s, ["set day-start 04:00", "add A @today", "add B @tomorrow", "add C", "add D", "set 4 estimate 5m"])
        // 01:30 on Jun 16 is still Jun 15.
        XCTAssertEqual(lines(s, "not today 1"), ["Not today 1 · A · Back Jun 16", "Top 3", "  2  B  Tomorrow", "  3  C", "  4  D"])
        XCTAssertEqual(lines(s, "not today 4"), ["Not today 4 · D · Back Jun 16", "Top 3", "  2  B  Tomorrow", "  3  C"])
        let out = lines(s, "plan")
        XCTAssertEqual(section(out, "Top 3"), [2, 3])
        XCTAssertEqual(section(out, "Quick wins"), [])
        // One layout for the whole plan (R-VIEW-8): the date column is as wide as Top 3's "Tomorrow".
        XCTAssertTrue(out.contains("  1  A  Today     Back Jun 16"), out.joined(separator: "\n"))
        XCTAssertEqual(lines(s, "show 1 due"), ["Mon Jun 15, 2026"])
        XCTAssertEqual(lines(s, "back 4"), ["Back 4 · D · Not today ended · in Top 3", "Top 3", "  2  B  Tomorrow", "  3  C", "  4  D"])
        // 03:59 is still the held day; at 04:00 the hold is over.
        s.clock = .wall(Self.wall("2026-06-16T03:59"))
        XCTAssertEqual(lines(s, "count held"), ["1 of 4"])
        s.clock = .wall(Self.wall("2026-06-16T04:00"))
        XCTAssertEqual(lines(s, "count held"), ["Nothing matches these filters (0 of 4)"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [1, 2, 3])
        // A second Not today within a week holds for seven days; undo takes it back.
        XCTAssertEqual(lines(s, "not today 1").first, "Not today 1 · A · Back Jun 23 · a second Not today within a week holds it for 7 days")
        XCTAssertEqual(lines(s, "undo"), ["Undid not today 1 · A"])
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [1, 2, 3])
        setup(s, ["complete 3"])
        XCTAssertEqual(lines(s, "not today 3"), ["! E0310 task 3 is not open"])
    }

    // MARK: R-PLAN-7 a new Top 3

    /// R-PLAN-7: change and replace show the new picks at once; a full Top 3 asks which pick
    /// a task replaces; a pick finished today keeps its seat.
    func testTop3ChangeReplaceAndAdd() {
        let s = session()
        setup(s, ["add A @today", "add B @tomorrow", "add C @wed", "add D @thu", "add E @fri", "add F"])
        XCTAssertEqual(lines(s, "top3"), ["Top 3", "  1  A  Today", "  2  B  Tomorrow", "  3  C  Wed Jun 17"])
        XCTAssertEqual(lines(s, "top3 change"), ["Top 3", "  4  D  Thu Jun 18", "  5  E  Fri Jun 19", "  6  F"])
        XCTAssertEqual(lines(s, "top3 replace 6 with 1"), ["Top 3", "  4  D  Thu Jun 18", "  5  E  Fri Jun 19", "  1  A  Today"])
        XCTAssertEqual(lines(s, "top3 replace 2 with 3"), ["! E0404 task 2 is not a Top 3 pick"])
        XCTAssertEqual(lines(s, "top3 replace 4 with 1"), ["! E0406 task 1 is already a Top 3 pick"])
        XCTAssertEqual(lines(s, "top3 add 2"), ["! E0403 Top 3 is full: which pick does 2 replace?"])
        setup(s, ["complete 4"])
        XCTAssertEqual(lines(s, "top3"), ["Top 3", "  4  D  Thu Jun 18  done", "  5  E  Fri Jun 19", "  1  A  Today"])
        setup(s, ["delete 5"])
        XCTAssertEqual(lines(s, "top3"), ["Top 3", "  4  D  Thu Jun 18  done", "  1  A  Today", "  2  B  Tomorrow"])
        XCTAssertEqual(lines(s, "undo"), ["Undid delete 5 · E (back as 7)"])
        setup(s, ["not today 7"])
        XCTAssertEqual(lines(s, "top3 add 7"), ["! E0405 task 7 is held by Not today until Tue Jun 16"])
        // Undo of the replace brings back the picks it replaced, 4, 5 and 6, with 5 under its
        // new id 7 (it was deleted and restored since): the seats are as they were.
        XCTAssertEqual(lines(s, "undo 3").count, 3)
        XCTAssertEqual(lines(s, "top3"), ["Top 3", "  4  D  Thu Jun 18", "  7  E  Fri Jun 19", "  6  F"])
    }

    /// R-TASK-1 with R-PLAN-7: deleting or archiving a Top 3 pick frees its seat in the same
    /// undo step, so undo gives the seat back (under the restored task's new id, R-TASK-3),
    /// and redo takes it again.
    func testUndoGivesAPickItsSeatBack() {
        let s = session()
        setup(s, ["add A", "add B", "add C", "add D", "set 4 priority critical"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 1, 2])
        setup(s, ["delete 2"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 1, 3])
        XCTAssertEqual(lines(s, "undo"), ["Undid delete 2 · B (back as 5)"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 1, 5])
        setup(s, ["archive 1"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 5, 3])
        setup(s, ["undo"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 1, 5])
        setup(s, ["redo"])
        XCTAssertEqual(section(lines(s, "top3"), "Top 3"), [4, 5, 3])
        // A later session undoes it too: the plan change is in the stored history.
        let back = session(StoreLoadTests.reloaded(s.store.snapshot()))
        setup(back, ["undo"])
        XCTAssertEqual(section(lines(back, "top3"), "Top 3"), [4, 1, 5])
    }

    // MARK: why and explain plan

    /// `why ID` prints every term, the section and the tasks above and below.
    func testWhy() {
        let s = session()
        setup(s, ["add Pay rent @yesterday !high", "add Water the plants", "set 2 estimate 10m", "add Read"])
        XCTAssertEqual(lines(s, "why 2"), [
            "2 · Water the plants · Top 3, seat 2 of 3 · score 4.0",
            "  due             0.33 × 12 = 4.0  (no due date: ranks as if due in 14 days)",
            "  priority        0.00 × 0 = 0.0",
            "  time-today      0.00 × 3 = 0.0",
            "  reminder-today  0.00 × 2 = 0.0",
            "  age             0.00 × 2 = 0.0",
            "  goal            0.00 × 3 = 0.0",
            "  blocked         0.00 × -5 = 0.0",
            "above: 1 · Pay rent (score 21.0)",
            "below: 3 · Read (score 4.0)",
            "plan of 9 AM · Top 3 held until the next day starts · 'plan refresh' picks again",
        ])
        XCTAssertEqual(lines(s, "why 9"), ["! E0301 no task with id 9"])
        setup(s, ["complete 3"])
        XCTAssertEqual(lines(s, "why 3"), ["! E0402 task 3 is not in the plan"])
    }

    /// The best k of a stream are the first k of the whole sorted, whether they are kept in
    /// order as they come (small k) or collected and sorted once (large k), in both orders.
    func testTopRowsAreTheFirstOfTheSortedRows() {
        var rng = Seeded(state: 11)
        let all = (0..<5000).map { i in
            PlanRow(row: i, score: Double(Int.random(in: 0...40, using: &rng)), dueKey: Int64.random(in: 0...50, using: &rng),
                    created: Int64.random(in: 0...50, using: &rng), id: i + 1)
        }
        for byDate in [false, true] {
            let sorted = all.sorted(by: byDate ? PlanRow.byDate : PlanRow.before)
            for k in [0, 1, 3, 20, TopRows.insertLimit, TopRows.insertLimit + 1, 3000, 5000, Int.max] {
                var top = TopRows(k, byDate: byDate)
                for r in all { top.offer(r) }
                XCTAssertEqual(top.rows, Array(sorted.prefix(k)), "k \(k), by date \(byDate)")
            }
        }
    }

    // MARK: the property test

    /// A small seeded generator (SplitMix64), so every run checks the same stores.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
    }

    static func randomStore(_ rng: inout Seeded, count: Int) -> Store {
        let base = CivilDate(iso: "2026-06-15") ?? CivilDate(dayNumber: 0)
        var tasks: [Task] = []
        for id in 1...count {
            var t = Task(id: id, title: "T\(id)", createdAt: Instant(seconds: 1_780_000_000 + Int64.random(in: 0...3_000_000, using: &rng)))
            if Bool.random(using: &rng) {
                t.due = Due(date: base.adding(days: Int.random(in: -40...60, using: &rng)),
                            time: Int.random(in: 0...3, using: &rng) == 0 ? WallTime(hour: Int.random(in: 0...23, using: &rng), minute: 0) : nil)
            }
            t.priority = Priority(rawValue: Int.random(in: 0...4, using: &rng)) ?? .none
            switch Int.random(in: 0...9, using: &rng) {
            case 0: t.status = .done; t.completedAt = Instant(seconds: 1_781_500_000)
            case 1: t.status = .archived
            case 2: t.status = TaskStatus(rawValue: "waiting")
            default: break
            }
            if Int.random(in: 0...2, using: &rng) == 0 {
                t.estimate = Estimate(minutes: Int.random(in: 0...40, using: &rng), source: Bool.random(using: &rng) ? .user : .suggested)
            }
            if Int.random(in: 0...4, using: &rng) == 0 { t.heldUntil = base.adding(days: Int.random(in: -2...3, using: &rng)) }
            if Int.random(in: 0...5, using: &rng) == 0, id > 1 { t.parent = Int.random(in: 1..<id, using: &rng) }
            if Int.random(in: 0...6, using: &rng) == 0 { t.goal = "G" }
            tasks.append(t)
        }
        var s = Store(tasks: tasks)
        if Bool.random(using: &rng) {
            s.plan = PlanSnapshot(madeAt: Instant(seconds: 1_781_506_800), day: base,
                                  top3: (0..<Int.random(in: 0...3, using: &rng)).map { _ in Int.random(in: 1...count, using: &rng) })
            if let p = s.plan {
                var seen = Set<Int>()
                s.plan?.top3 = p.top3.filter { seen.insert($0).inserted }
            }
        }
        return s
    }

    /// R-PLAN-2, R-PLAN-3, R-PLAN-6: over random stores, every open task is in exactly one
    /// section; Top 3 holds at most three and never a held task; Quick wins hold only
    /// user-set estimates at or under the threshold; each section is in the Smart order; the
    /// plan is the same when made again, from the columns of a loaded store, and cut by a limit.
    func testOnceOnlyOverRandomStores() throws {
        var rng = Seeded(state: 20260615)
        let today = CivilDate(iso: "2026-06-15") ?? CivilDate(dayNumber: 0)
        for round in 0..<60 {
            let store = Self.randomStore(&rng, count: Int.random(in: 1...120, using: &rng))
            let s = session(store)
            let v = s.planView(nil, limit: nil)
            let p = v.plan
            let open = Set(store.tasks.filter(\.isOpen).map(\.id))
            let openTop = p.top3.filter { store.task($0.id)?.isOpen == true }
            let all = openTop.map(\.id) + p.quickWins.map(\.id) + p.rest.map(\.id)
            XCTAssertEqual(all.count, open.count, "round \(round): each open task once")
            XCTAssertEqual(Set(all), open, "round \(round)")
            XCTAssertLessThanOrEqual(p.top3.count, 3)
            XCTAssertEqual(Set(p.top3.map(\.id)).count, p.top3.count)
            XCTAssertEqual(p.top3.count, min(3, p.top3.count + p.quickWins.count + p.rest.filter { !Holds.isHeld(store.task($0.id)?.heldUntil, today: today) }.count),
                           "round \(round): a free seat is always filled")
            for r in p.top3 {
                let t = try XCTUnwrap(store.task(r.id))
                XCTAssertFalse(t.isOpen && Holds.isHeld(t.heldUntil, today: today), "round \(round): Top 3 never holds a held task")
            }
            for r in p.quickWins {
                let t = try XCTUnwrap(store.task(r.id))
                XCTAssertEqual(t.estimate?.source, .user, "round \(round)")
                XCTAssertLessThanOrEqual(t.estimate?.minutes ?? Int.max, 15, "round \(round)")
                XCTAssertFalse(Holds.isHeld(t.heldUntil, today: today), "round \(round)")
            }
            for rows in [p.quickWins, p.rest] {
                for k in rows.indices.dropFirst() { XCTAssertTrue(PlanRow.before(rows[k - 1], rows[k]), "round \(round): in order") }
            }
            // The same plan again, cut by a limit, and from a loaded (column) store.
            let again = s.planView(nil, limit: nil).plan
            XCTAssertEqual(again.top3.map(\.id), p.top3.map(\.id))
            let cut = s.planView(nil, limit: 5).plan
            XCTAssertEqual(cut.rest.map(\.id), Array(p.rest.prefix(5).map(\.id)))
            XCTAssertEqual(cut.quickWins.map(\.id), Array(p.quickWins.prefix(5).map(\.id)))
            guard case .success(let loaded) = StoreCodec.decode(StoreCodec.encode(s.store.snapshot())) else { return XCTFail("decode") }
            let lp = session(loaded).planView(nil, limit: nil).plan
            XCTAssertEqual(lp.top3.map(\.id), p.top3.map(\.id), "round \(round)")
            XCTAssertEqual(lp.rest.map(\.id), p.rest.map(\.id), "round \(round)")
            XCTAssertEqual(lp.quickWins.map(\.id), p.quickWins.map(\.id), "round \(round)")
        }
    }

    // MARK: the audit of issue 7

    /// The morning store of examples/plan.kept, at Monday 2026-06-15 07:42.
    func morning(dayStart: String? = nil) -> Session {
        let s = session(at: "2026-06-08T18:00")
        setup(s, (dayStart.map { ["set day-start " + $0] } ?? []) + [
            "add Pay rent @2026-06-14 !high", "add Call the dentist @2026-06-15 3pm", "add File taxes @2026-06-19",
            "add Renew passport @2026-07-01", "add Water the plants", "set 5 estimate 10m", "add Read the contract !critical @2026-06-16",
            "add Tidy the garage", "set 7 estimate 2h", "add Reply to Anna", "set 8 estimate 5m suggested",
        ])
        s.clock = .wall(Self.wall("2026-06-15T07:42"))
        return s
    }

    /// R-PLAN-7: `top3 replace "TITLE" with ID` finds the pick by its title even when another
    /// open task has the same title; two picks of one title are ambiguous, with candidates, and
    /// change nothing.
    func testTop3ReplaceFindsThePickByTitle() {
        let s = morning()
        XCTAssertEqual(section(lines(s, "plan"), "Top 3"), [1, 6, 2])
        setup(s, ["add Pay rent"])
        XCTAssertEqual(lines(s, "top3 replace \"Pay rent\" with 3"),
                       ["Top 3", "  3  File taxes         Fri Jun 19", "  6  Read the contract  Tomorrow", "  2  Call the dentist   Today 3 PM"])
        setup(s, ["undo", "set 6 title Pay rent"])
        let plan = s.store.plan
        let r = run(s, "top3 replace \"Pay rent\" with 3")
        XCTAssertEqual(r.diagnostics.map(\.code), [.E0306])
        XCTAssertEqual(r.diagnostics.first?.message, "2 Top 3 picks are titled \"Pay rent\"")
        XCTAssertEqual(r.diagnostics.first?.notes.count, 2)
        XCTAssertEqual(s.store.plan, plan)
        XCTAssertEqual(lines(s, "top3 replace \"Nope\" with 3"), ["! E0305 no open task titled \"Nope\""])
    }

    /// R-PLAN-5, R-PLAN-6, R-PLAN-7: an error of a plan statement has a code, a location and
    /// changes nothing: not the tasks, and not the day's snapshot either (none is made by a
    /// statement that failed).
    func testPlanErrorsChangeNothing() {
        let s = morning()
        setup(s, ["add Pay rent"])
        let before = Snapshot(s.store.snapshot())
        for bad in ["not today 999", "not today \"Pay rent\"", "top3 add 999", "top3 replace 999 with 1", "top3 replace 1 with 999",
                    "top3 replace 1 with 1", "back 999", "why 999", "why \"Pay rent\"", "plan (due:", "plan (foo:bar)", "plan limit 0",
                    "plan limit 99999999999999999999", "plan by date limit -1", "explain plan limit", "why", "why abc", "not today",
                    "top3 frob", "top3 replace 1", "top3 replace 1 with"] {
            let r = run(s, bad)
            XCTAssertTrue(r.failed, bad)
            for d in r.diagnostics {
                XCTAssertNotNil(Catalog.summary(of: d.code.rawValue), bad)
                XCTAssertNotNil(d.range, "\(bad): \(d.code) has a location")
            }
            XCTAssertNil(s.store.plan, "\(bad) made no snapshot")
            XCTAssertEqual(Snapshot(s.store.snapshot()), before, bad)
        }
        // `back` on a task that is neither held nor free to seat changes nothing.
        setup(s, ["plan"])
        let plan = s.store.plan
        let r = run(s, "back 3")
        XCTAssertFalse(r.changed)
        XCTAssertEqual(r.lines.first, "Back 3 · File taxes")
        XCTAssertEqual(s.store.plan, plan)
        XCTAssertEqual(lines(s, "undo"), ["Undid add 9 · Pay rent"], "back made no undo step")
    }

    /// R-PLAN-6: hold lengths through the statements, with a day start of 04:00 and across a
    /// week boundary: a Not today at 02:00 on Monday belongs to Sunday and ends at 04:00 on
    /// Monday; a second one within the rolling week holds seven days from its account day.
    func testHoldLengthsAcrossAWeekWithDayStart0400() {
        let s = morning(dayStart: "04:00")
        // Monday Jun 22, 02:00 is still Sunday Jun 21.
        s.clock = .wall(Self.wall("2026-06-22T02:00"))
        XCTAssertEqual(lines(s, "not today 4").first, "Not today 4 · Renew passport · Back Jun 22")
        s.clock = .wall(Self.wall("2026-06-22T03:59"))
        XCTAssertEqual(lines(s, "count held"), ["1 of 8"])
        s.clock = .wall(Self.wall("2026-06-22T04:00"))
        XCTAssertEqual(lines(s, "count held"), ["Nothing matches these filters (0 of 8)"])
        // Tuesday Jun 23 of the next week: a second within a week, back Tuesday Jun 30.
        s.clock = .wall(Self.wall("2026-06-23T09:00"))
        XCTAssertEqual(lines(s, "not today 4").first,
                       "Not today 4 · Renew passport · Back Jun 30 · a second Not today within a week holds it for 7 days")
        XCTAssertEqual(lines(s, "show 4 due"), ["Wed Jul 1, 2026"])
        // Seven days after the last one (Tuesday Jun 30, 03:00 is still Monday Jun 29: six days).
        s.clock = .wall(Self.wall("2026-06-30T03:00"))
        XCTAssertEqual(lines(s, "not today 4").first,
                       "Not today 4 · Renew passport · Back Jul 6 · a second Not today within a week holds it for 7 days")
        // Monday Jul 6 at 04:00 is seven days on: a first again, back the next day.
        s.clock = .wall(Self.wall("2026-07-06T04:00"))
        XCTAssertEqual(lines(s, "not today 4").first, "Not today 4 · Renew passport · Back Jul 7")
    }

    /// R-PLAN-2, R-PLAN-6: `plan FILTER` over random stores: each matching open task once, no
    /// other task, and its Top 3 never holds a held task.
    func testFilteredPlanOnceOnlyOverRandomStores() throws {
        var rng = Seeded(state: 7)
        let today = CivilDate(iso: "2026-06-15") ?? CivilDate(dayNumber: 0)
        for round in 0..<30 {
            let store = Self.randomStore(&rng, count: Int.random(in: 1...80, using: &rng))
            let s = session(store)
            for filter in ["has due", "no due", "priority >= high", "held", "estimate <= 15m"] {
                let out = lines(s, "plan " + filter + " limit all")
                let ids = section(out, "Top 3") + section(out, "Quick wins") + section(out, "All other tasks") + section(out, "All tasks")
                let expected = lines(s, "list " + filter + " limit 100000").dropFirst().compactMap {
                    Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
                }
                XCTAssertEqual(ids.count, Set(ids).count, "round \(round) \(filter): each task once")
                XCTAssertEqual(Set(ids), Set(expected), "round \(round) \(filter): only the matching open tasks")
                for id in section(out, "Top 3") {
                    XCTAssertFalse(Holds.isHeld(store.task(id)?.heldUntil, today: today), "round \(round) \(filter): Top 3 never holds a held task")
                }
            }
        }
    }

    /// R-PLAN-1…7: every plan command's `help` example runs without an error on the morning store
    /// (with 7 made a pick, as the examples run in help order on examples/home.store.json find it).
    func testPlanHelpExamplesRun() {
        for kw in [Keyword.plan, .why, .not, .back, .top3] {
            let s = morning()
            setup(s, ["plan", "top3 replace 1 with 7"])
            let r = run(s, kw.example)
            XCTAssertFalse(r.failed, "help \(kw.rawValue): '\(kw.example)': \(r.diagnostics.map(\.message))")
        }
    }
}
