// Table tests of the filter language (docs/FILTERS.md): terms, predicates, comparisons,
// windows, search, regex, boolean structure, scope and counts, and errors.
// covers: R-FIL-1, R-FIL-3, R-FIL-4, R-VIEW-3, R-DAY-2, R-DAY-5
//
// Every case has a stable id. The expected ids are derived by hand from the fixtures below
// (never from running the code): each fixture lists its tasks with their fields, and each
// case's expectation follows from those fields and the documented semantics.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class FilterTests: XCTestCase {
    // MARK: tables

    /// One filter case: `list FILTER` must show exactly `expected` (ids, any order).
    struct Case {
        let id: String
        let filter: String
        let expected: [Int]
        init(_ id: String, _ filter: String, _ expected: [Int]) {
            self.id = id
            self.filter = filter
            self.expected = expected
        }
    }

    /// One count case: `count FILTER` prints exactly `line` (R-FIL-4).
    struct CountCase {
        let id: String
        let filter: String
        let line: String
        init(_ id: String, _ filter: String, _ line: String) {
            self.id = id
            self.filter = filter
            self.line = line
        }
    }

    /// One error case: `list FILTER` fails with `code` and `message` (and `help` when given).
    struct ErrorCase {
        let id: String
        let filter: String
        let code: String
        let message: String
        let help: String?
        init(_ id: String, _ filter: String, _ code: String, _ message: String, help: String? = nil) {
            self.id = id
            self.filter = filter
            self.code = code
            self.message = message
            self.help = help
        }
    }

    // MARK: helpers

    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    static func wall(_ iso: String) -> CivilDateTime {
        guard let w = CivilDateTime(iso: iso) else { preconditionFailure("bad fixture time \(iso)") }
        return w
    }

    static func date(_ iso: String) -> CivilDate {
        guard let d = CivilDate(iso: iso) else { preconditionFailure("bad fixture date \(iso)") }
        return d
    }

    /// The instant of a Berlin wall-clock reading.
    static func instant(_ iso: String) -> Instant { berlin.instant(for: wall(iso)) }

    func makeSession(now: String) -> Session {
        Session(store: JSONStore(memory: Store()), clock: .wall(Self.wall(now)), defaultZone: Self.berlin)
    }

    @discardableResult
    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    /// Adds a task by capture and returns its id; the fixture must add cleanly.
    @discardableResult
    func add(_ s: Session, _ line: String, file: StaticString = #filePath, lineNo: UInt = #line) -> Int {
        let out = run(s, "add " + line)
        XCTAssertTrue(out.diagnostics.isEmpty, "fixture add failed: \(line): \(out.diagnostics.map { "\($0.code) \($0.message)" })",
                      file: file, line: lineNo)
        return s.store.nextID - 1
    }

    /// Changes fields capture cannot set, as one committed change.
    func edit(_ s: Session, _ id: Int, _ change: (inout Task) -> Void) {
        guard let old = s.store.task(id) else {
            XCTFail("fixture: no task \(id)")
            return
        }
        var new = old
        change(&new)
        s.commit("fixture", [.task(before: old, after: new)])
    }

    func complete(_ s: Session, _ id: Int, at iso: String) {
        edit(s, id) {
            $0.status = .done
            $0.completedAt = Self.instant(iso)
        }
    }

    /// The ids `list FILTER` shows (JSON), or the first error as "CODE message".
    func listIDs(_ s: Session, _ filter: String) -> (ids: [Int], shown: Int, total: Int, count: Int?, error: String?) {
        let saved = s.format
        s.format = .json
        defer { s.format = saved }
        // `list done today`, `list archived` (and the other view names) are views, not filters:
        // the same filter in parentheses is read as a filter.
        let views: Set<String> = ["today", "tomorrow", "next 7 days", "all", "archived", "done today"]
        let words = filter.lowercased().split(separator: " ").joined(separator: " ")
        let body = views.contains(words) ? "(\(filter))" : filter
        let out = run(s, "list " + body)
        if let d = out.diagnostics.first { return ([], 0, 0, nil, "\(d.code) \(d.message)") }
        guard let line = out.lines.first, let v = try? JSONParser.parse(line) else { return ([], 0, 0, nil, "no JSON: \(out.lines)") }
        let ids = (v["tasks"]?.arrayValue ?? []).compactMap { $0["id"]?.numberValue?.int }
        let shown = v["shown"]?.numberValue?.int ?? -1
        let total = v["total"]?.numberValue?.int ?? -1
        let c = run(s, "count " + filter)
        let count = c.lines.first.flatMap { try? JSONParser.parse($0) }?["count"]?.numberValue?.int
        return (ids, shown, total, count, nil)
    }

    /// Failed case ids of this test, printed at the end for the report.
    var failures: [String] = []

    func check(_ s: Session, _ cases: [Case], file: StaticString = #filePath, line: UInt = #line) {
        var seen = Set<String>()
        for c in cases {
            XCTAssertTrue(seen.insert(c.id).inserted, "duplicate case id \(c.id)", file: file, line: line)
            let r = listIDs(s, c.filter)
            let expected = c.expected.sorted()
            if let e = r.error {
                failures.append("\(c.id) `\(c.filter)` expected \(expected) got error \(e)")
                XCTFail("\(c.id) `\(c.filter)`: expected \(expected), got error \(e)", file: file, line: line)
                continue
            }
            let actual = r.ids.sorted()
            if actual != expected {
                failures.append("\(c.id) `\(c.filter)` expected \(expected) got \(actual)")
            }
            XCTAssertEqual(actual, expected, "\(c.id) `\(c.filter)`", file: file, line: line)
            XCTAssertEqual(r.shown, r.ids.count, "\(c.id) `\(c.filter)`: shown", file: file, line: line)
            XCTAssertEqual(r.count, r.ids.count, "\(c.id) `\(c.filter)`: count agrees with list", file: file, line: line)
        }
    }

    func checkCounts(_ s: Session, _ cases: [CountCase], file: StaticString = #filePath, line: UInt = #line) {
        for c in cases {
            let out = run(s, c.filter.isEmpty ? "count" : "count " + c.filter)
            let got = out.lines + out.diagnostics.map { "! \($0.code) \($0.message)" }
            if got != [c.line] { failures.append("\(c.id) `count \(c.filter)` expected \(c.line) got \(got)") }
            XCTAssertEqual(got, [c.line], "\(c.id) `count \(c.filter)`", file: file, line: line)
        }
    }

    func checkErrors(_ s: Session, _ cases: [ErrorCase], file: StaticString = #filePath, line: UInt = #line) {
        for c in cases {
            let out = run(s, "list " + c.filter)
            guard let d = out.diagnostics.first else {
                failures.append("\(c.id) `\(c.filter)` expected \(c.code) got no error: \(out.lines.first ?? "")")
                XCTFail("\(c.id) `\(c.filter)`: expected \(c.code), got no error", file: file, line: line)
                continue
            }
            if d.code.rawValue != c.code || d.message != c.message || (c.help != nil && d.help != c.help) {
                failures.append("\(c.id) `\(c.filter)` expected \(c.code) \(c.message) [\(c.help ?? "-")] got \(d.code) \(d.message) [\(d.help ?? "-")]")
            }
            XCTAssertEqual(d.code.rawValue, c.code, "\(c.id) `\(c.filter)`: code", file: file, line: line)
            XCTAssertEqual(d.message, c.message, "\(c.id) `\(c.filter)`: message", file: file, line: line)
            if let h = c.help { XCTAssertEqual(d.help, h, "\(c.id) `\(c.filter)`: help", file: file, line: line) }
        }
    }

    override func tearDown() {
        if !failures.isEmpty { print("FilterTests failures in \(name):\n  " + failures.joined(separator: "\n  ")) }
        failures = []
        super.tearDown()
    }

    // MARK: fixture A: the main store, Mon 2026-06-15 09:00 Europe/Berlin, default settings

    //  id title              due              proj       tags     prio     status / other
    //   1 Pay rent           06-15            Home       money    high     area "Home"
    //   2 Buy milk           06-15 08:00      Home       errand            estimate 5m
    //   3 Pick up parcel     06-15 18:00                 errand            estimate 15m
    //   4 Draft report       06-12            Work                medium   description "Quarterly numbers\nSend to finance",
    //                                                                      comment {"text":"Ask Zoë about figures"}, created 06-01 10:00
    //   5 Review budget      06-19            Work       money             done 06-15 08:30
    //   6 Call the café      06-16 09:30      Home
    //   7 Read a book        -                                             area "  home ", estimate 30m,
    //                                                                      description "Start with the Café chapter\nthen take notes"
    //   8 Plan the trip      06-22                       travel            [[Trip plan]], steps "Book hotel", "Rent car"
    //   9 Renew passport     06-30                       travel   critical estimate 60m, area "Admin"
    //  10 Water the plants   06-21                                         comment "Use the rain barrel"
    //  11 Brunch with Ann    06-14                       food
    //  12 Late call          06-21 23:59      Two words
    //  13 Early call         06-22 00:00
    //  14 Gym signup         07-01
    //  15 Tax forms          07-31
    //  16 Dentist            08-01
    //  17 Night owl          06-16 01:30
    //  18 Standup            06-17 every day
    //  19 Team review        06-19 every friday
    //  20 Utility bills      06-28 every month
    //  21 Birthday gift      12-25 every year
    //  22 Archived idea      06-01                       someday           archived
    //  23 Waiting on Bob     06-18            Work                low      status waiting (open work)
    //  24 Learn piano        -                           someday           held until 06-20
    //  25 Hold ends          -                                             held until 06-15 (today: not held)
    //  26 Old done           06-10                                high     done 06-14 20:00
    //  27 Eve done           -                                             done 06-14 23:59
    //  28 Boundary done      -                                             done 06-15 00:00
    //  29 Created boundary   -                                             created 06-08 00:00
    //  30 Created before     -                                             created 06-07 23:59
    //  Every other task is created at now (06-15 09:00).

    /// The open tasks of fixture A: every task but the done (5, 26, 27, 28) and archived (22).
    static let openA: Set<Int> = Set(1...30).subtracting([5, 22, 26, 27, 28])
    static let allA: Set<Int> = Set(1...30)

    /// The open tasks of fixture A without `ids`.
    static func openBut(_ ids: Int...) -> [Int] { openA.subtracting(ids).sorted() }

    func fixtureA() -> Session {
        let s = makeSession(now: "2026-06-15T09:00")
        run(s, "project add Home")
        run(s, "project add Work")
        run(s, "project add Two words")
        add(s, "Pay rent @2026-06-15 +Home #money !high")                   // 1
        add(s, "Buy milk @2026-06-15 8am +Home #errand")                    // 2
        add(s, "Pick up parcel @2026-06-15 6pm #errand")                    // 3
        add(s, "Draft report @2026-06-12 +Work !medium")                    // 4
        add(s, "Review budget @2026-06-19 +Work #money")                    // 5
        add(s, "Call the café @2026-06-16 9:30am +Home")                    // 6
        add(s, "Read a book")                                               // 7
        add(s, "Plan the trip @2026-06-22 #travel [[Trip plan]]")           // 8
        add(s, "Renew passport @2026-06-30 #travel !critical")              // 9
        add(s, "Water the plants @2026-06-21")                              // 10
        add(s, "Brunch with Ann @2026-06-14 #food")                         // 11
        add(s, "Late call @2026-06-21 23:59 +\"Two words\"")                // 12
        add(s, "Early call @2026-06-22 00:00")                              // 13
        add(s, "Gym signup @2026-07-01")                                    // 14
        add(s, "Tax forms @2026-07-31")                                     // 15
        add(s, "Dentist @2026-08-01")                                       // 16
        add(s, "Night owl @2026-06-16 1:30am")                              // 17
        add(s, "Standup @2026-06-17 every day")                             // 18
        add(s, "Team review @2026-06-19 every friday")                      // 19
        add(s, "Utility bills @2026-06-28 every month")                     // 20
        add(s, "Birthday gift @2026-12-25 every year")                      // 21
        add(s, "Archived idea @2026-06-01 #someday")                        // 22
        add(s, "Waiting on Bob @2026-06-18 +Work !low")                     // 23
        add(s, "Learn piano #someday")                                      // 24
        add(s, "Hold ends")                                                 // 25
        add(s, "Old done @2026-06-10 !high")                                // 26
        add(s, "Eve done")                                                  // 27
        add(s, "Boundary done")                                             // 28
        add(s, "Created boundary")                                          // 29
        add(s, "Created before")                                            // 30

        edit(s, 1) { $0.area = "Home" }
        edit(s, 2) { $0.estimate = Estimate(minutes: 5) }
        edit(s, 3) { $0.estimate = Estimate(minutes: 15) }
        edit(s, 4) {
            $0.description = "Quarterly numbers\nSend to finance"
            $0.comments = [.object(JSONObject([("text", .string("Ask Zoë about figures"))]))]
            $0.createdAt = Self.instant("2026-06-01T10:00")
        }
        complete(s, 5, at: "2026-06-15T08:30")
        edit(s, 7) {
            $0.area = "  home "
            $0.estimate = Estimate(minutes: 30)
            $0.description = "Start with the Café chapter\nthen take notes"
        }
        edit(s, 8) { $0.steps = [Step(title: "Book hotel"), Step(title: "Rent car")] }
        edit(s, 9) {
            $0.estimate = Estimate(minutes: 60)
            $0.area = "Admin"
        }
        edit(s, 10) { $0.comments = [.string("Use the rain barrel")] }
        edit(s, 22) { $0.status = .archived }
        edit(s, 23) { $0.status = TaskStatus(rawValue: "waiting") }
        edit(s, 24) { $0.heldUntil = Self.date("2026-06-20") }
        edit(s, 25) { $0.heldUntil = Self.date("2026-06-15") }
        complete(s, 26, at: "2026-06-14T20:00")
        complete(s, 27, at: "2026-06-14T23:59")
        complete(s, 28, at: "2026-06-15T00:00")
        edit(s, 29) { $0.createdAt = Self.instant("2026-06-08T00:00") }
        edit(s, 30) { $0.createdAt = Self.instant("2026-06-07T23:59") }
        return s
    }

    func due(_ d: String, _ h: Int? = nil, _ m: Int = 0) -> Due {
        Due(date: Self.date(d), time: h.flatMap { WallTime(hour: $0, minute: m) })
    }

    /// The fixture is what the table above says (capture set the dues, projects, tags and repeats).
    func testFixtureA() {
        let s = fixtureA()
        XCTAssertEqual(s.store.tasks.count, 30)
        let dues: [Int: Due?] = [
            1: due("2026-06-15"), 2: due("2026-06-15", 8), 3: due("2026-06-15", 18), 4: due("2026-06-12"),
            5: due("2026-06-19"), 6: due("2026-06-16", 9, 30), 7: nil, 8: due("2026-06-22"), 9: due("2026-06-30"),
            10: due("2026-06-21"), 11: due("2026-06-14"), 12: due("2026-06-21", 23, 59), 13: due("2026-06-22", 0),
            14: due("2026-07-01"), 15: due("2026-07-31"), 16: due("2026-08-01"), 17: due("2026-06-16", 1, 30),
            18: due("2026-06-17"), 19: due("2026-06-19"), 20: due("2026-06-28"), 21: due("2026-12-25"),
            22: due("2026-06-01"), 23: due("2026-06-18"), 24: nil, 25: nil, 26: due("2026-06-10"), 27: nil, 28: nil,
            29: nil, 30: nil,
        ]
        for (id, d) in dues { XCTAssertEqual(s.store.task(id)?.due, d, "fixture A due of \(id)") }
        XCTAssertEqual(s.store.task(12)?.project, "Two words")
        XCTAssertEqual(s.store.task(1)?.project, "Home")
        XCTAssertEqual(s.store.task(8)?.notes, ["Trip plan"])
        XCTAssertEqual(s.store.task(9)?.priority, .critical)
        XCTAssertEqual(s.store.task(23)?.priority, .low)
        XCTAssertEqual(s.store.task(18)?.repeatRule?.rule?.frequency, .daily)
        XCTAssertEqual(s.store.task(19)?.repeatRule?.rule?.frequency, .weekly)
        XCTAssertEqual(s.store.task(20)?.repeatRule?.rule?.frequency, .monthly)
        XCTAssertEqual(s.store.task(21)?.repeatRule?.rule?.frequency, .yearly)
        XCTAssertEqual(Set(s.store.tasks.filter { $0.repeatRule != nil }.map(\.id)), [18, 19, 20, 21])
        XCTAssertEqual(Set(s.store.tasks.filter(\.isOpen).map(\.id)), Self.openA)
        XCTAssertEqual(s.store.task(11)?.title, "Brunch with Ann")
        XCTAssertEqual(s.store.task(6)?.title, "Call the café")
    }

    // MARK: fixture A cases

    /// Tags, projects, notes and areas (R-FIL-1).
    func testTermsA() {
        let s = fixtureA()
        check(s, [
            Case("A-TAG-01", "#errand", [2, 3]),
            Case("A-TAG-02", "#ERRAND", [2, 3]),
            Case("A-TAG-03", "tag:travel", [8, 9]),
            Case("A-TAG-04", "#money", [1]),                      // 5 is done: open scope
            Case("A-TAG-05", "#someday", [24]),                   // 22 is archived: open scope
            Case("A-TAG-06", "-#someday", Self.openBut(24)),
            Case("A-TAG-07", "#nothing", []),
            Case("A-PRJ-01", "+Home", [1, 2, 6]),
            Case("A-PRJ-02", "+home", [1, 2, 6]),
            Case("A-PRJ-03", "project:Home", [1, 2, 6]),
            Case("A-PRJ-04", "+Work", [4, 23]),                   // 23 is waiting: still open work
            Case("A-PRJ-05", "-+Work", Self.openBut(4, 23)),
            Case("A-PRJ-06", "+\"Two words\"", [12]),
            Case("A-PRJ-07", "project:work", [4, 23]),
            Case("A-NOTE-01", "[[Trip plan]]", [8]),
            Case("A-NOTE-02", "[[trip plan]]", [8]),
            // Areas compare without case or spacing.
            Case("A-AREA-01", "area:Home", [1, 7]),
            Case("A-AREA-02", "area:HOME", [1, 7]),
            Case("A-AREA-03", "area:admin", [9]),
            Case("A-AREA-04", "area:Garden", []),
        ])
    }

    /// Priorities: `!word`, `priority:word`, and comparisons (R-FIL-1).
    func testPrioritiesA() {
        let s = fixtureA()
        check(s, [
            Case("A-PRI-01", "!high", [1]),                       // 26 is high but done
            Case("A-PRI-02", "priority:high", [1]),
            Case("A-PRI-03", "!critical", [9]),
            Case("A-PRI-04", "!urgent", [9]),
            Case("A-PRI-05", "!med", [4]),
            Case("A-PRI-06", "priority >= high", [1, 9]),
            Case("A-PRI-07", "priority > medium", [1, 9]),
            Case("A-PRI-08", "priority = medium", [4]),
            Case("A-PRI-09", "priority >= low", [1, 4, 9, 23]),
            Case("A-PRI-10", "priority < low", Self.openBut(1, 4, 9, 23)),
            Case("A-PRI-11", "!low", [23]),
            Case("A-PRI-12", "priority <= medium and priority >= low", [4, 23]),
        ])
    }

    /// Status terms widen the scope; everything else looks at open tasks only (R-FIL-1, R-FIL-4).
    func testStatusAndScopeA() {
        let s = fixtureA()
        check(s, [
            Case("A-ST-01", "open", Self.openA.sorted()),
            Case("A-ST-02", "done", [5, 26, 27, 28]),
            Case("A-ST-03", "status:done", [5, 26, 27, 28]),
            Case("A-ST-04", "archived", [22]),
            Case("A-ST-05", "status:archived", [22]),
            Case("A-ST-06", "status:waiting", [23]),
            Case("A-ST-07", "status:any", Self.allA.sorted()),
            Case("A-ST-08", "status:open", Self.openA.sorted()),
            // R-DAY-2: done today = finished since today's day start (00:00): 28 at 00:00 is in, 27 at 23:59 is not.
            Case("A-ST-09", "done today", [5, 28]),
            Case("A-ST-10", "status:any #money", [1, 5]),
            Case("A-ST-11", "status:any review", [5, 19]),
            Case("A-ST-12", "done +Work", [5]),
            Case("A-ST-13", "done or archived", [5, 22, 26, 27, 28]),
            Case("A-ST-14", "-done", Self.allA.subtracting([5, 26, 27, 28]).sorted()),
            Case("A-ST-15", "review", [19]),
            Case("A-ST-16", "status:any #someday", [22, 24]),
            // `done @WINDOW` is finished in the window (docs/FILTERS.md), whatever the due: 5
            // (06-15 08:30) and 28 (06-15 00:00) this week; 26 (06-14 20:00) and 27 (06-14 23:59)
            // last week.
            Case("A-ST-17", "done @this week", [5, 28]),
        ])
    }

    /// Predicates (R-FIL-1) and R-VIEW-3: a finished task is never overdue.
    func testPredicatesA() {
        let s = fixtureA()
        check(s, [
            // 2 (08:00 today) has passed; 4 and 11 are before today; 3 (18:00) and 1 (today, no time) are not overdue.
            Case("A-PRED-01", "overdue", [2, 4, 11]),
            Case("A-PRED-02", "@overdue", [2, 4, 11]),
            // R-VIEW-3: 26 (done, due 06-10) and 22 (archived, due 06-01) are never overdue.
            Case("A-PRED-03", "status:any overdue", [2, 4, 11]),
            Case("A-PRED-04", "done overdue", []),
            Case("A-PRED-05", "no due", [7, 24, 25, 29, 30]),
            Case("A-PRED-06", "has due", Self.openBut(7, 24, 25, 29, 30)),
            Case("A-PRED-07", "has time", [2, 3, 6, 12, 13, 17]),
            Case("A-PRED-08", "repeating", [18, 19, 20, 21]),
            Case("A-PRED-09", "repeat:daily", [18]),
            Case("A-PRED-10", "repeat:weekly", [19]),
            Case("A-PRED-11", "repeat:monthly", [20]),
            Case("A-PRED-12", "repeat:yearly", [21]),
            // held: heldUntil after today; 25's hold ends today.
            Case("A-PRED-13", "held", [24]),
            Case("A-PRED-14", "not held", Self.openBut(24)),
            Case("A-PRED-15", "no due -held", [7, 25, 29, 30]),
            Case("A-PRED-16", "overdue or no due", [2, 4, 7, 11, 24, 25, 29, 30]),
        ])
    }

    /// Windows are half-open ranges of account days (R-FIL-1, R-DAY-2, R-DAY-5 with Monday weeks).
    func testWindowsA() {
        let s = fixtureA()
        check(s, [
            Case("A-WIN-01", "@today", [1, 2, 3]),
            Case("A-WIN-02", "@tomorrow", [6, 17]),
            Case("A-WIN-03", "@yesterday", [11]),
            // This week Mon 06-15..Sun 06-21: 10 (last day) and 12 (23:59 on the last day) in; 8, 13 (00:00 the day after) out.
            Case("A-WIN-04", "@this week", [1, 2, 3, 6, 10, 12, 17, 18, 19, 23]),
            // Next week Mon 06-22..Sun 06-28: 13 (00:00 on its first day) and 20 (its last day) in.
            Case("A-WIN-05", "@next week", [8, 13, 20]),
            // June: 9 on 06-30 in, 14 on 07-01 out; 22 (06-01) is archived.
            Case("A-WIN-06", "@this month", [1, 2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 17, 18, 19, 20, 23]),
            // July: 14 (07-01) and 15 (07-31) in, 16 (08-01) out.
            Case("A-WIN-07", "@next month", [14, 15]),
            // Today and the 6 days after: 06-15..06-21.
            Case("A-WIN-08", "@next 7 days", [1, 2, 3, 6, 10, 12, 17, 18, 19, 23]),
            Case("A-WIN-09", "@2026-06-16..2026-06-22", [6, 8, 10, 12, 13, 17, 18, 19, 23]),
            Case("A-WIN-10", "@2026-06-22..2026-06-22", [8, 13]),
            Case("A-WIN-11", "@2026-06-21", [10, 12]),
            Case("A-WIN-12", "@fri", [19]),                       // 5 is due Fri too but done
            Case("A-WIN-13", "@2026-08-01", [16]),
            Case("A-WIN-14", "@jun 30", [9]),
            Case("A-WIN-15", "@2026-07-01..2026-07-31", [14, 15]),
            Case("A-WIN-16", "@2026-06-23..2026-06-29", [20]),
            Case("A-WIN-17", "@this week has time", [2, 3, 6, 12, 17]),
            Case("A-WIN-18", "@this week or @next week", [1, 2, 3, 6, 8, 10, 12, 13, 17, 18, 19, 20, 23]),
            Case("A-WIN-19", "@2026-06-10..2026-06-14", [4, 11]),
        ])
    }

    /// R-DAY-5: the same store with weeks from Sunday.
    func testWeekStartSundayA() {
        let s = fixtureA()
        run(s, "set week-start sunday")
        check(s, [
            // This week Sun 06-14..Sat 06-20: 11 (06-14, first day) in; 10 and 12 (06-21) out.
            Case("A-WK-01", "@this week", [1, 2, 3, 6, 11, 17, 18, 19, 23]),
            // Next week Sun 06-21..Sat 06-27: 10, 12 (first day) in; 20 (06-28, first day after) out.
            Case("A-WK-02", "@next week", [8, 10, 12, 13]),
            Case("A-WK-03", "@next 7 days", [1, 2, 3, 6, 10, 12, 17, 18, 19, 23]),
            // eow is Sat 06-20 with Sunday weeks.
            Case("A-WK-04", "due <= eow", [1, 2, 3, 4, 6, 11, 17, 18, 19, 23]),
        ])
        run(s, "set week-start monday")
        check(s, [
            Case("A-WK-05", "@this week", [1, 2, 3, 6, 10, 12, 17, 18, 19, 23]),
            Case("A-WK-06", "@next week", [8, 13, 20]),
        ])
    }

    /// Comparisons on due, estimate and created (R-FIL-1).
    func testComparisonsA() {
        let s = fixtureA()
        check(s, [
            // Fri is 06-19; a timed due compares by its account day.
            Case("A-DUE-01", "due < fri", [1, 2, 3, 4, 6, 11, 17, 18, 23]),
            Case("A-DUE-02", "due <= fri", [1, 2, 3, 4, 6, 11, 17, 18, 19, 23]),
            Case("A-DUE-03", "due > 2026-06-21", [8, 9, 13, 14, 15, 16, 20, 21]),
            Case("A-DUE-04", "due >= 2026-06-21", [8, 9, 10, 12, 13, 14, 15, 16, 20, 21]),
            Case("A-DUE-05", "due = 2026-06-16", [6, 17]),
            Case("A-DUE-06", "due = today", [1, 2, 3]),
            // eow is Sun 06-21 with Monday weeks.
            Case("A-DUE-07", "due < eow", [1, 2, 3, 4, 6, 11, 17, 18, 19, 23]),
            Case("A-DUE-08", "due <= eow", [1, 2, 3, 4, 6, 10, 11, 12, 17, 18, 19, 23]),
            Case("A-DUE-09", "due < today", [4, 11]),
            Case("A-DUE-10", "due >= 2026-07-01 and due <= 2026-07-31", [14, 15]),
            Case("A-DUE-11", "due > eom", [14, 15, 16, 21]),
            // Estimates: tasks without one never match.
            Case("A-EST-01", "estimate <= 15m", [2, 3]),
            Case("A-EST-02", "estimate < 15m", [2]),
            Case("A-EST-03", "estimate >= 30m", [7, 9]),
            Case("A-EST-04", "estimate > 1h", []),
            Case("A-EST-05", "estimate = 1h", [9]),
            Case("A-EST-06", "estimate >= 0", [2, 3, 7, 9]),
            Case("A-EST-07", "not estimate <= 15m", Self.openBut(2, 3)),
            // -7d is the instant of the day start 7 days before today (06-08 00:00): `>` is
            // strictly after it, `>=` at or after. 29 is created exactly then, 30 a minute
            // before, 4 on 06-01.
            Case("A-CRE-01", "created > -7d", Self.openBut(4, 29, 30)),
            Case("A-CRE-02", "created >= -7d", Self.openBut(4, 30)),
            Case("A-CRE-03", "created < -7d", [4, 30]),
            Case("A-CRE-04", "created > -2w", Self.openA.sorted()),   // 06-01 00:00; 4 is 06-01 10:00
            Case("A-CRE-05", "created < -2w", []),
            Case("A-CRE-06", "created < 2026-06-08", [4, 30]),
            Case("A-CRE-07", "created >= 2026-06-08", Self.openBut(4, 30)),
        ])
    }

    /// R-FIL-3: every word must occur in title, description, steps or comments, case and accents aside.
    func testSearchA() {
        let s = fixtureA()
        check(s, [
            Case("A-SRC-01", "cafe", [6, 7]),                     // 6 title "café", 7 description "Café"
            Case("A-SRC-02", "café", [6, 7]),
            Case("A-SRC-03", "CAFE call", [6]),
            Case("A-SRC-04", "call", [6, 12, 13]),
            Case("A-SRC-05", "search \"the trip\"", [8]),
            Case("A-SRC-06", "\"the trip\"", [8]),
            Case("A-SRC-07", "trip the", [8]),
            Case("A-SRC-08", "hotel", [8]),                       // a step
            Case("A-SRC-09", "rent car", [8]),                    // 1 has "rent" but not "car"
            Case("A-SRC-10", "rent", [1, 8]),
            Case("A-SRC-11", "zoe", [4]),                         // a comment object, "Zoë"
            Case("A-SRC-12", "barrel", [10]),                     // a comment string
            Case("A-SRC-13", "QUARTERLY finance", [4]),           // description lines
            Case("A-SRC-14", "chapter cafe", [7]),
            Case("A-SRC-15", "xyzzy", []),
            Case("A-SRC-16", "search \"Zoë\"", [4]),
            Case("A-SRC-17", "call -cafe", [12, 13]),
            Case("A-SRC-18", "#errand parcel", [3]),
        ])
    }

    /// Regex on title and description (PCRE2, flags i and m).
    func testRegexA() {
        let s = fixtureA()
        check(s, [
            Case("A-RE-01", "title ~ /^(pay|buy)/i", [1, 2]),
            Case("A-RE-02", "title ~ /^(pay|buy)/", []),
            Case("A-RE-03", "title ~ /call$/", [12, 13]),
            Case("A-RE-04", "title ~ /CAFÉ/i", [6]),
            Case("A-RE-05", "description ~ /finance/", [4]),
            Case("A-RE-06", "description ~ /^then/", []),
            Case("A-RE-07", "description ~ /^then/m", [7]),
            Case("A-RE-08", "title ~ /^\\w+ call$/", [12, 13]),
            Case("A-RE-09", "title ~ /(report|passport)$/", [4, 9]),
            Case("A-RE-10", "not title ~ /e/", [2, 11, 13, 14, 15, 17, 18, 20, 21, 23]),  // case-sensitive: "Early call" has no "e"
            Case("A-RE-11", "title ~ /call$/ and has time", [12, 13]),
        ])
    }

    /// Boolean structure: juxtaposition and `and`/`&`, `or`/`|`, `not`/`-`, parentheses; `and`
    /// binds tighter than `or`.
    func testBooleanA() {
        let s = fixtureA()
        check(s, [
            Case("A-BOOL-01", "#errand +Home", [2]),
            Case("A-BOOL-02", "#errand and +Home", [2]),
            Case("A-BOOL-03", "#errand & +Home", [2]),
            Case("A-BOOL-04", "#errand | #travel", [2, 3, 8, 9]),
            Case("A-BOOL-05", "#errand or #travel", [2, 3, 8, 9]),
            Case("A-BOOL-06", "+Home -#money", [2, 6]),
            Case("A-BOOL-07", "not +Home and not +Work", Self.openBut(1, 2, 4, 6, 23)),
            // a or b c = a or (b and c)
            Case("A-BOOL-08", "#travel or #errand +Home", [2, 8, 9]),
            Case("A-BOOL-09", "(#travel or #errand) +Home", [2]),
            Case("A-BOOL-10", "#travel or #errand and !critical", [8, 9]),
            Case("A-BOOL-11", "(#travel or #errand) and !critical", [9]),
            Case("A-BOOL-12", "not (#travel or #errand)", Self.openBut(2, 3, 8, 9)),
            Case("A-BOOL-13", "not #travel or #errand", Self.openBut(8, 9)),
            Case("A-BOOL-14", "(@today or @overdue) and not #errand", [1, 4, 11]),
            Case("A-BOOL-15", "not not #errand", [2, 3]),
            Case("A-BOOL-16", "#errand | #travel & !critical", [2, 3, 9]),
            Case("A-BOOL-17", "has time -@today", [6, 12, 13, 17]),
            Case("A-BOOL-18", "((#errand))", [2, 3]),
            Case("A-BOOL-19", "+Home or +Work or #travel", [1, 2, 4, 6, 8, 9, 23]),
            Case("A-BOOL-20", "not (#travel | #errand) @this week", [1, 6, 10, 12, 17, 18, 19, 23]),
        ])
    }

    /// R-FIL-4: counts report `N of M` where M is the scope (25 open, 30 with a status).
    func testCountsA() {
        let s = fixtureA()
        checkCounts(s, [
            CountCase("A-CNT-01", "#errand", "2 of 25"),
            CountCase("A-CNT-02", "", "All 25 tasks"),
            CountCase("A-CNT-03", "#nothing", "Nothing matches these filters (0 of 25)"),
            CountCase("A-CNT-04", "done", "4 of 30"),
            CountCase("A-CNT-05", "status:any", "30 of 30"),
            CountCase("A-CNT-06", "done overdue", "Nothing matches these filters (0 of 30)"),
            CountCase("A-CNT-07", "done today", "2 of 30"),
            CountCase("A-CNT-08", "overdue", "3 of 25"),
            CountCase("A-CNT-09", "#travel or #errand +Home", "3 of 25"),
        ])
        let list = run(s, "list #errand +Home").lines
        XCTAssertEqual(list.first, "1 of 25 tasks · 2 filters on", "A-CNT-10 list head")
        XCTAssertEqual(run(s, "list #nothing").lines, ["Nothing matches these filters · 25 tasks · 1 filter on"], "A-CNT-11 list head")

        s.format = .json
        XCTAssertEqual(run(s, "count +Home").lines, ["{\"count\":3,\"total\":25}"], "A-JSON-01")
        XCTAssertEqual(run(s, "count archived").lines, ["{\"count\":1,\"total\":30}"], "A-JSON-02")
        XCTAssertEqual(run(s, "count xyzzy").lines, ["{\"count\":0,\"total\":25}"], "A-JSON-03")
        s.format = .text
        let r = listIDs(s, "#travel")
        XCTAssertEqual(r.ids.sorted(), [8, 9], "A-JSON-04 tasks")
        XCTAssertEqual(r.shown, 2, "A-JSON-04 shown")
        XCTAssertEqual(r.total, 25, "A-JSON-04 total")
        let n = listIDs(s, "done today")
        XCTAssertEqual(n.ids.sorted(), [5, 28], "A-JSON-05 tasks")
        XCTAssertEqual(n.total, 30, "A-JSON-05 total")
        let e = listIDs(s, "xyzzy")
        XCTAssertEqual(e.ids, [], "A-JSON-06 tasks")
        XCTAssertEqual(e.shown, 0, "A-JSON-06 shown")
        XCTAssertEqual(e.total, 25, "A-JSON-06 total")
    }

    /// Errors: each with its code and message, and the did-you-mean where there is one.
    func testErrorsA() {
        let s = fixtureA()
        checkErrors(s, [
            ErrorCase("A-ERR-01", "+Hme", "E0206", "unknown project 'Hme'", help: "did you mean 'Home'?"),
            ErrorCase("A-ERR-02", "project:Hom", "E0206", "unknown project 'Hom'", help: "did you mean 'Home'?"),
            ErrorCase("A-ERR-03", "+Garden", "E0206", "unknown project 'Garden'", help: "create it first with 'project add Garden'; a tag is '#Garden' (Taskwarrior's '+Garden')"),
            ErrorCase("A-ERR-04", "priorty >= high", "E0207", "unknown field 'priorty'", help: "did you mean 'priority'?"),
            ErrorCase("A-ERR-05", "estimat < 15m", "E0207", "unknown field 'estimat'", help: "did you mean 'estimate'?"),
            ErrorCase("A-ERR-06", "stauts:done", "E0207", "unknown field 'stauts'", help: "did you mean 'status'?"),
            ErrorCase("A-ERR-07", "(overdue or @today", "E0106", "expected ')' to close '(' at 1:6"),
            ErrorCase("A-ERR-08", "overdue )", "E0106", "unmatched ')'"),
            ErrorCase("A-ERR-09", "@tommorow", "E0203", "'tommorow' is not a date or time", help: "did you mean 'tomorrow'?"),
            ErrorCase("A-ERR-10", "due < blorp", "E0203", "'blorp' is not a date or time"),
            ErrorCase("A-ERR-11", "due < 2026-02-30", "E0205", "'2026-02-30' is not a date that exists"),
            ErrorCase("A-ERR-12", "@2026-06-30..2026-06-01", "E0205", "'2026-06-30..2026-06-01' is not a range of two dates"),
            ErrorCase("A-ERR-13", "@2026-13-01", "E0205", "'2026-13-01' is not a date that exists"),
            ErrorCase("A-ERR-14", "priority >= hgh", "E0209", "'hgh' is not a value of 'priority'", help: "did you mean 'high'?"),
            ErrorCase("A-ERR-15", "!hihg", "E0209", "'!hihg' is not a value of 'priority'", help: "did you mean '!high'?"),
            ErrorCase("A-ERR-16", "repeat:weekley", "E0209", "'weekley' is not a value of 'repeat'", help: "did you mean 'weekly'?"),
            ErrorCase("A-ERR-17", "estimate <= soon", "E0209", "'soon' is not a value of 'estimate'"),
            ErrorCase("A-ERR-18", "title ~ /(/", "E0212", "bad pattern: missing closing parenthesis"),
            ErrorCase("A-ERR-19", "title ~ /a/q", "E0209", "unknown pattern flag 'q'"),
            ErrorCase("A-ERR-20", "priority ~ /x/", "E0209", "'~' matches title or description, not priority"),
            ErrorCase("A-ERR-21", "#errand or", "E0102", "expected a filter after 'or'"),
            ErrorCase("A-ERR-22", "due fri", "E0102", "expected a comparison after 'due'"),
            ErrorCase("A-ERR-23", "priorty:high", "E0207", "unknown field 'priorty'", help: "did you mean 'priority'?"),
            ErrorCase("A-ERR-24", "title ~ /abc", "E0001", "unterminated pattern"),
        ])
    }

    /// R-FIL-7: Taskwarrior's forms in a filter are errors whose help (a fix-it) is Kept's form;
    /// `project:Home` is Kept's own, and `+tag` names the tag's `#` when no project has the name.
    func testTaskwarriorForms() {
        let s = fixtureA()
        let cases: [(String, String, String)] = [
            ("TW-01", "due:today", "@today"),
            ("TW-02", "due:eow", "@eow"),
            ("TW-03", "created:yesterday", "created @yesterday"),
            ("TW-04", "title:milk", "milk"),
            ("TW-05", "entry:today", "created @today"),
            ("TW-06", "estimate:30m", "estimate = 30m"),
            ("TW-07", "tags:errand", "#errand"),
        ]
        for (id, filter, kept) in cases {
            let d = run(s, "list " + filter).diagnostics.first
            XCTAssertEqual(d?.code.rawValue, "E0207", id)
            XCTAssertEqual(d?.fixIts.first?.replacement, kept, id)
            XCTAssertEqual(d?.fixIts.first?.title, "Taskwarrior's '\(filter)' is '\(kept)' in Kept", id)
            // The fix made, the filter runs.
            if let fix = d?.fixIts.first {
                XCTAssertTrue(run(s, fix.applied(to: "list " + filter)).diagnostics.isEmpty, id)
            }
        }
        XCTAssertTrue(run(s, "list project:Home").diagnostics.isEmpty, "TW-08")
        XCTAssertEqual(run(s, "list +next").diagnostics.first?.help,
                       "create it first with 'project add next'; a tag is '#next' (Taskwarrior's '+next')", "TW-09")
        // `project:Garden` is Kept's spelling: no tag help.
        XCTAssertEqual(run(s, "list project:Garden").diagnostics.first?.help, "create it first with 'project add Garden'", "TW-10")
    }

    /// R-FIL-8: `explain FILTER for ID` tries the filter on one task through the evaluator the
    /// query uses, so its verdict is `list`'s on every task of the fixture, for every filter;
    /// each part is shown true or false, a compound's parts under it.
    func testExplainForAgreesWithList() throws {
        let s = fixtureA()
        let filters = ["#errand", "+Home or overdue", "-(#phone or !high) and no due", "done", "@this week and not #errand",
                       "title ~ /call/i", "filter:Overdue", "has estimate or repeating", "status:any and !high", "milk"]
        let ids = s.store.tasks.map(\.id)
        for f in filters {
            let listed = Set(listIDs(s, f).ids)
            let expr = try FilterBinder.bind(f, name: "t", scope: s.filterScope).get()
            for id in ids {
                let trial = try s.engine.trial(expr, on: id)
                XCTAssertEqual(trial.matches, listed.contains(id), "`\(f)` for \(id)")
            }
        }
        let out = run(s, "explain #errand or +Home for 1").lines
        XCTAssertEqual(out.count, 5, "\(out)")
        XCTAssertTrue(out.dropFirst().first?.hasPrefix("  ") ?? false, "\(out)")
        XCTAssertTrue(out.dropFirst(2).allSatisfy { $0.hasPrefix("    true   ") || $0.hasPrefix("    false  ") || $0.hasPrefix("  over ") }, "\(out)")
        XCTAssertEqual(run(s, "explain #errand for 999").diagnostics.first?.code.rawValue, "E0301")
        XCTAssertEqual(run(s, "explain deleted @today for 1").diagnostics.first?.code.rawValue, "E0231")
    }

    // MARK: fixture B: day start 04:00, now Tue 2026-06-16 01:30 (R-DAY-2: today is Mon 06-15)

    //  id  due / other
    //   1  06-16 01:00   account day 06-15, passed
    //   2  06-16 03:59   account day 06-15, not yet
    //   3  06-16 04:00   account day 06-16
    //   4  06-15         today
    //   5  06-16         tomorrow
    //   6  06-14         yesterday, overdue
    //   7  06-15 03:00   account day 06-14, passed
    //   8  -             done 06-15 04:00 (done today: the day began then)
    //   9  -             done 06-15 03:59 (the day before)
    //  10  -             done 06-16 01:00 (done today)
    //  11  -             held until 06-16 (after today: held)
    //  12  -             held until 06-15 (today: not held)
    //  13  -             created 06-08 04:00 (the day start 7 days before today)
    //  14  -             created 06-08 03:59
    //  Open: 1-7, 11-14 (11); all: 14.

    func fixtureB() -> Session {
        let s = makeSession(now: "2026-06-16T01:30")
        run(s, "set day-start 04:00")
        add(s, "One @2026-06-16 1am")          // 1
        add(s, "Two @2026-06-16 3:59am")       // 2
        add(s, "Three @2026-06-16 4am")        // 3
        add(s, "Four @2026-06-15")             // 4
        add(s, "Five @2026-06-16")             // 5
        add(s, "Six @2026-06-14")              // 6
        add(s, "Seven @2026-06-15 3am")        // 7
        add(s, "Eight")                        // 8
        add(s, "Nine")                         // 9
        add(s, "Ten")                          // 10
        add(s, "Eleven")                       // 11
        add(s, "Twelve")                       // 12
        add(s, "Thirteen")                     // 13
        add(s, "Fourteen")                     // 14
        complete(s, 8, at: "2026-06-15T04:00")
        complete(s, 9, at: "2026-06-15T03:59")
        complete(s, 10, at: "2026-06-16T01:00")
        edit(s, 11) { $0.heldUntil = Self.date("2026-06-16") }
        edit(s, 12) { $0.heldUntil = Self.date("2026-06-15") }
        edit(s, 13) { $0.createdAt = Self.instant("2026-06-08T04:00") }
        edit(s, 14) { $0.createdAt = Self.instant("2026-06-08T03:59") }
        return s
    }

    func testFixtureB() {
        let s = fixtureB()
        XCTAssertEqual(s.today, Self.date("2026-06-15"))
        let dues: [Int: Due?] = [1: due("2026-06-16", 1), 2: due("2026-06-16", 3, 59), 3: due("2026-06-16", 4), 4: due("2026-06-15"),
                                 5: due("2026-06-16"), 6: due("2026-06-14"), 7: due("2026-06-15", 3), 8: nil]
        for (id, d) in dues { XCTAssertEqual(s.store.task(id)?.due, d, "fixture B due of \(id)") }
    }

    /// R-DAY-2: with a day start of 04:00, 01:30 still belongs to yesterday, and a timed due
    /// belongs to the account day it falls in.
    func testDayStartB() {
        let s = fixtureB()
        check(s, [
            Case("B-DAY-01", "@today", [1, 2, 4]),
            Case("B-DAY-02", "@tomorrow", [3, 5]),
            Case("B-DAY-03", "@yesterday", [6, 7]),
            Case("B-DAY-04", "overdue", [1, 6, 7]),
            Case("B-DAY-05", "done today", [8, 10]),
            Case("B-DAY-06", "held", [11]),
            Case("B-DAY-07", "due = today", [1, 2, 4]),
            Case("B-DAY-08", "due < tomorrow", [1, 2, 4, 6, 7]),
            Case("B-DAY-09", "@2026-06-15..2026-06-15", [1, 2, 4]),
            Case("B-DAY-10", "@today has time", [1, 2]),
            // The week of Mon 06-15: 7 (06-15 03:00) belongs to Sun 06-14, the week before.
            Case("B-DAY-11", "@this week", [1, 2, 3, 4, 5]),
            Case("B-DAY-12", "created >= -7d", [1, 2, 3, 4, 5, 6, 7, 11, 12, 13]),
            Case("B-DAY-13", "created < -7d", [14]),
            Case("B-DAY-14", "@today -overdue", [2, 4]),
            Case("B-DAY-15", "@2026-06-16", [3, 5]),
            Case("B-DAY-16", "status:any done today or overdue", [1, 6, 7, 8, 10]),
        ])
        checkCounts(s, [
            CountCase("B-CNT-01", "done today", "2 of 14"),
            CountCase("B-CNT-02", "@today", "3 of 11"),
        ])
    }

    // MARK: fixture C: DST in Europe/Berlin (clocks forward 2026-03-29 02:00, back 2026-10-25 03:00)

    //  Spring, now Sun 2026-03-29 12:00:
    //   1 03-29        2 03-29 03:30    3 03-29 23:59    4 03-30 00:00    5 03-28 23:59
    //   6 done 03-29 00:00    7 done 03-28 23:59    8 done 03-29 03:00 (just after the gap)
    func fixtureSpring() -> Session {
        let s = makeSession(now: "2026-03-29T12:00")
        add(s, "Spring one @2026-03-29")            // 1
        add(s, "Spring two @2026-03-29 3:30am")     // 2
        add(s, "Spring three @2026-03-29 11:59pm")  // 3
        add(s, "Spring four @2026-03-30 00:00")     // 4
        add(s, "Spring five @2026-03-28 11:59pm")   // 5
        add(s, "Spring six")                        // 6
        add(s, "Spring seven")                      // 7
        add(s, "Spring eight")                      // 8
        complete(s, 6, at: "2026-03-29T00:00")
        complete(s, 7, at: "2026-03-28T23:59")
        complete(s, 8, at: "2026-03-29T03:00")
        return s
    }

    //  Autumn, now Sun 2026-10-25 12:00:
    //   1 10-25 02:30 (a wall time that happens twice)    2 10-25    3 10-25 23:59    4 10-26 00:00
    //   5 10-24 23:59    6 done 10-25 00:00    7 done 10-24 23:59    8 done 10-25 02:30
    func fixtureAutumn() -> Session {
        let s = makeSession(now: "2026-10-25T12:00")
        add(s, "Autumn one @2026-10-25 2:30am")     // 1
        add(s, "Autumn two @2026-10-25")            // 2
        add(s, "Autumn three @2026-10-25 11:59pm")  // 3
        add(s, "Autumn four @2026-10-26 00:00")     // 4
        add(s, "Autumn five @2026-10-24 11:59pm")   // 5
        add(s, "Autumn six")                        // 6
        add(s, "Autumn seven")                      // 7
        add(s, "Autumn eight")                      // 8
        complete(s, 6, at: "2026-10-25T00:00")
        complete(s, 7, at: "2026-10-24T23:59")
        complete(s, 8, at: "2026-10-25T02:30")
        return s
    }

    func testFixtureDST() {
        let a = fixtureSpring()
        let sd: [Int: Due?] = [1: due("2026-03-29"), 2: due("2026-03-29", 3, 30), 3: due("2026-03-29", 23, 59),
                               4: due("2026-03-30", 0), 5: due("2026-03-28", 23, 59)]
        for (id, d) in sd { XCTAssertEqual(a.store.task(id)?.due, d, "spring due of \(id)") }
        let b = fixtureAutumn()
        let ad: [Int: Due?] = [1: due("2026-10-25", 2, 30), 2: due("2026-10-25"), 3: due("2026-10-25", 23, 59),
                               4: due("2026-10-26", 0), 5: due("2026-10-24", 23, 59)]
        for (id, d) in ad { XCTAssertEqual(b.store.task(id)?.due, d, "autumn due of \(id)") }
    }

    /// DST days are still whole days: windows, overdue and done today (R-DAY-2, R-DAY-5).
    func testDSTSpring() {
        let s = fixtureSpring()
        check(s, [
            Case("C-DST-01", "@today", [1, 2, 3]),
            Case("C-DST-02", "@tomorrow", [4]),
            Case("C-DST-03", "@yesterday", [5]),
            Case("C-DST-04", "overdue", [2, 5]),
            Case("C-DST-05", "done today", [6, 8]),
            // Mon 03-23..Sun 03-29.
            Case("C-DST-06", "@this week", [1, 2, 3, 5]),
            Case("C-DST-07", "@next week", [4]),
            Case("C-DST-08", "@2026-03-29..2026-03-29", [1, 2, 3]),
            Case("C-DST-09", "due = 2026-03-29", [1, 2, 3]),
            Case("C-DST-10", "has time @today", [2, 3]),
        ])
        run(s, "set week-start sunday")
        check(s, [
            // Sun 03-29..Sat 04-04.
            Case("C-DST-11", "@this week", [1, 2, 3, 4]),
            Case("C-DST-12", "@next week", []),
        ])
    }

    func testDSTAutumn() {
        let s = fixtureAutumn()
        check(s, [
            Case("F-DST-01", "@today", [1, 2, 3]),
            Case("F-DST-02", "@tomorrow", [4]),
            Case("F-DST-03", "@yesterday", [5]),
            Case("F-DST-04", "overdue", [1, 5]),
            Case("F-DST-05", "done today", [6, 8]),
            // Mon 10-19..Sun 10-25.
            Case("F-DST-06", "@this week", [1, 2, 3, 5]),
            Case("F-DST-07", "@next week", [4]),
            Case("F-DST-08", "has time @today", [1, 3]),
            Case("F-DST-09", "due = today", [1, 2, 3]),
        ])
        run(s, "set week-start sunday")
        check(s, [
            // Sun 10-25..Sat 10-31.
            Case("F-DST-10", "@this week", [1, 2, 3, 4]),
        ])
        // Before the 02:30 due on the wall clock it is not overdue yet.
        s.clock = .wall(Self.wall("2026-10-25T02:15"))
        check(s, [
            Case("F-DST-11", "overdue", [5]),
            Case("F-DST-12", "@today", [1, 2, 3]),
        ])
        s.clock = .wall(Self.wall("2026-10-25T03:00"))
        check(s, [
            Case("F-DST-13", "overdue", [1, 5]),
        ])
    }

    /// Instants in the hours DST repeats and skips (issue 19): in New York's repeated hour, now
    /// given as an instant (06:30Z, the second 01:30), a due at the first 01:45 has passed 45
    /// minutes ago and one at 02:30 has not; in Berlin's skipped hour a due at 02:30 is moved to
    /// 03:30 and is not overdue at 03:15 (01:15Z). Windows keep their account days.
    func testInstantsOnDSTNights() {
        let ny = Zone(identifier: "America/New_York") ?? .utc
        let s = Session(store: JSONStore(memory: Store()), clock: .wall(Self.wall("2026-10-31T12:00")), defaultZone: ny)
        add(s, "NY first @2026-11-01 1:45am")   // 1
        add(s, "NY early @2026-11-01 1:15am")   // 2
        add(s, "NY later @2026-11-01 2:30am")   // 3
        add(s, "NY noon @2026-11-01 12pm")      // 4
        add(s, "NY day @2026-11-01")            // 5
        s.clock = .instant(TimeText.parseISOInstant("2026-11-01T06:30:00Z") ?? .epoch)
        check(s, [
            Case("DST-I-01", "overdue", [1, 2]),
            Case("DST-I-02", "@today", [1, 2, 3, 4, 5]),
            Case("DST-I-03", "has time not overdue", [3, 4]),
            Case("DST-I-04", "created < -1h", [1, 2, 3, 4, 5]),
        ])
        // The first 01:30 (05:30Z): the 01:45 due is still ahead.
        s.clock = .instant(TimeText.parseISOInstant("2026-11-01T05:30:00Z") ?? .epoch)
        check(s, [Case("DST-I-05", "overdue", [2])])

        let b = makeSession(now: "2026-03-28T12:00")
        add(b, "Berlin handover @2026-03-29 2:30am")  // 1, moved to 03:30
        add(b, "Berlin early @2026-03-29 1:50am")     // 2
        b.clock = .instant(TimeText.parseISOInstant("2026-03-29T01:15:00Z") ?? .epoch)  // 03:15 CEST
        check(b, [
            Case("DST-I-06", "overdue", [2]),
            Case("DST-I-07", "@today", [1, 2]),
            Case("DST-I-08", "due < tomorrow", [1, 2]),
        ])
        b.clock = .instant(TimeText.parseISOInstant("2026-03-29T01:31:00Z") ?? .epoch)  // 03:31 CEST
        check(b, [Case("DST-I-09", "overdue", [1, 2])])
    }

    // MARK: fixture D: date-only and timed dues around now (Mon 2026-06-15 09:00)

    //   1 06-15 08:00    2 06-15 08:59    3 06-15 09:00    4 06-15 18:00    5 06-15
    //   6 06-14          7 06-14 23:59    8 06-15 23:59    9 06-16 00:00   10 06-15 08:00, done
    func fixtureD() -> Session {
        let s = makeSession(now: "2026-06-15T09:00")
        add(s, "D one @2026-06-15 8am")        // 1
        add(s, "D two @2026-06-15 8:59am")     // 2
        add(s, "D three @2026-06-15 9am")      // 3
        add(s, "D four @2026-06-15 6pm")       // 4
        add(s, "D five @2026-06-15")           // 5
        add(s, "D six @2026-06-14")            // 6
        add(s, "D seven @2026-06-14 11:59pm")  // 7
        add(s, "D eight @2026-06-15 11:59pm")  // 8
        add(s, "D nine @2026-06-16 00:00")     // 9
        add(s, "D ten @2026-06-15 8am")        // 10
        complete(s, 10, at: "2026-06-15T08:10")
        return s
    }

    func testFixtureD() {
        let s = fixtureD()
        let dues: [Int: Due?] = [1: due("2026-06-15", 8), 2: due("2026-06-15", 8, 59), 3: due("2026-06-15", 9), 4: due("2026-06-15", 18),
                                 5: due("2026-06-15"), 6: due("2026-06-14"), 7: due("2026-06-14", 23, 59), 8: due("2026-06-15", 23, 59),
                                 9: due("2026-06-16", 0), 10: due("2026-06-15", 8)]
        for (id, d) in dues { XCTAssertEqual(s.store.task(id)?.due, d, "fixture D due of \(id)") }
    }

    /// A date-only due is a whole day; a timed due is overdue once its time has passed; a
    /// finished task never is (R-VIEW-3).
    func testAroundNowD() {
        let s = fixtureD()
        check(s, [
            // 09:00: 08:00 and 08:59 have passed, 09:00 has not passed, today without a time is not overdue.
            Case("D-NOW-01", "overdue", [1, 2, 6, 7]),
            Case("D-NOW-02", "@today", [1, 2, 3, 4, 5, 8]),
            Case("D-NOW-03", "@tomorrow", [9]),
            Case("D-NOW-04", "@yesterday", [6, 7]),
            Case("D-NOW-05", "status:any overdue", [1, 2, 6, 7]),
            Case("D-NOW-06", "status:any @today", [1, 2, 3, 4, 5, 8, 10]),
            Case("D-NOW-07", "@today -overdue", [3, 4, 5, 8]),
            Case("D-NOW-08", "has time -overdue", [3, 4, 8, 9]),
        ])
        s.clock = .wall(Self.wall("2026-06-15T18:00"))
        check(s, [Case("D-NOW-09", "overdue", [1, 2, 3, 6, 7])])
        s.clock = .wall(Self.wall("2026-06-15T18:01"))
        check(s, [Case("D-NOW-10", "overdue", [1, 2, 3, 4, 6, 7])])
        s.clock = .wall(Self.wall("2026-06-15T23:59"))
        check(s, [Case("D-NOW-11", "overdue", [1, 2, 3, 4, 6, 7])])
        // Midnight: the date-only 06-15 and the 23:59 due are now overdue; 06-16 00:00 is now, not passed.
        s.clock = .wall(Self.wall("2026-06-16T00:00"))
        check(s, [
            Case("D-NOW-12", "overdue", [1, 2, 3, 4, 5, 6, 7, 8]),
            Case("D-NOW-13", "@today", [9]),
            Case("D-NOW-14", "@yesterday", [1, 2, 3, 4, 5, 8]),
            Case("D-NOW-15", "status:any overdue", [1, 2, 3, 4, 5, 6, 7, 8]),
        ])
    }
}
