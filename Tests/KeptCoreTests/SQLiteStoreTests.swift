// The SQLite backend: the same rules through it as through the JSON store, counts in SQL that
// agree with the columns, other processes' commits read before a statement, and files that are
// not Kept stores (another program's database, a newer schema, a damaged file) refused and
// never written.
// covers: R-STORE-1, R-STORE-2, R-FIL-1

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class SQLiteStoreTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-sqlite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let nine = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    func session(_ backend: any StoreBackend, commits: CommitPolicy = .eachStatement, seed: UInt64 = 3) -> Session {
        Session(engine: Engine(store: backend, clock: .wall(Self.nine), defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc, uids: .seeded(seed)),
                commits: commits)
    }

    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    static let script = [
        "project add Home", "add Pay rent @jan 31 every month on the 31st +Home #bills !high", "add Call mom @tomorrow 3pm #phone",
        "add Plan the trip @fri", "subtask 3 Book flights", "subtask 3 Find a hotel", "remind 2 tomorrow morning", "complete 1",
        "set 4 estimate 10m", "tag 2 #family", "not today 2", "plan", "delete 3", "undo", "filter Calls = #phone", "set clock 24h",
        "step 7 add Passport", "complete 8", "reopen 8", "project rename Home to House", "duplicate 2", "undo", "redo",
    ]

    /// The same statements give the same output and the same store through SQLite as through
    /// the JSON store in memory, and the database reads back as that store.
    func testSameRulesAsTheJSONStore() throws {
        let db = try SQLiteStore.open(path("s.db")).get()
        let a = session(db), b = session(JSONStore(memory: Store()))
        for line in Self.script {
            let x = run(a, line), y = run(b, line)
            XCTAssertEqual(x.lines, y.lines, line)
            XCTAssertEqual(x.diagnostics.map(\.message), y.diagnostics.map(\.message), line)
        }
        XCTAssertEqual(String(decoding: StoreCodec.encode(db.snapshot()), as: UTF8.self),
                       String(decoding: StoreCodec.encode(b.store.snapshot()), as: UTF8.self))
        let again = try SQLiteStore.open(path("s.db")).get()
        XCTAssertEqual(String(decoding: StoreCodec.encode(again.snapshot()), as: UTF8.self),
                       String(decoding: StoreCodec.encode(b.store.snapshot()), as: UTF8.self), "what was committed reads back")
        XCTAssertEqual(again.history.undoStack.map(\.summary), b.journal.undoStack.map(\.summary))
    }

    /// A statement reads only what it needs: completing a task reads it and its rules' tasks,
    /// never every record.
    func testOneChangeReadsOneTask() throws {
        let db = try SQLiteStore.open(path("one.db")).get()
        let s = session(db)
        for k in 1...50 { XCTAssertFalse(run(s, "add Task \(k) @today").failed) }
        XCTAssertFalse(db.hasFullView)
        XCTAssertEqual(run(s, "complete 7").lines, ["Completed 7 · Task 7"])
        XCTAssertEqual(run(s, "count overdue").lines, ["Nothing matches these filters (0 of 49)"])
        XCTAssertEqual(run(s, "show 7 status").lines, ["done"])
        XCTAssertFalse(db.hasFullView, "complete, count and show read no full view")
        _ = run(s, "list has subtasks")
        XCTAssertTrue(db.hasFullView, "a term that looks at other tasks reads every record")
    }

    /// Lists, the plan and `where` read only the rows a filter may match (SQL narrows, the
    /// compiled filter decides; docs/STORE.md, "A statement reads what it needs").
    func testNarrowedReadsReadNoFullView() throws {
        let db = try SQLiteStore.open(path("narrow.db")).get()
        let s = session(db)
        for k in 1...30 { XCTAssertFalse(run(s, "add Task \(k) #t\(k % 3) @today").failed) }
        XCTAssertEqual(run(s, "list #t1 order by id desc limit 2").lines.count, 3)
        XCTAssertEqual(run(s, "list #t2 and task limit 1").lines.count, 2)
        XCTAssertFalse(run(s, "complete where #t0 and task").failed)
        XCTAssertEqual(run(s, "count #t0").lines, ["Nothing matches these filters (0 of 20)"])
        XCTAssertFalse(run(s, "plan limit 3").failed)
        XCTAssertFalse(db.hasFullView, "list, where and plan read no full view")
        // Since the change (the complete), the limited plan read its candidates only, this list
        // 10 rows and `why` (the whole plan) 20: as many as the store holds. A session that
        // goes on reading reads every record once, and answers from memory until a task changes.
        XCTAssertEqual(run(s, "list #t1").lines.count, 11)
        XCTAssertFalse(db.hasFullView)
        XCTAssertFalse(run(s, "why 2").failed)
        XCTAssertFalse(db.hasFullView)
        XCTAssertFalse(run(s, "why 2").failed)
        XCTAssertTrue(db.hasFullView)
        XCTAssertFalse(run(s, "complete 2").failed)
        XCTAssertFalse(db.hasFullView, "a change drops the full view")
        XCTAssertEqual(run(s, "list #t2 and task limit 1").lines.count, 2)
        XCTAssertFalse(db.hasFullView, "and narrowed reads start again")
    }

    /// A limited list asked not to count its matches (`countAll: false`, what a list's head
    /// needs) reads its rows without the count of every match: `matched` is then the rows up to
    /// the limit, at least one when any task matches (a limit of 0 too), and 0 when none does;
    /// asked to count, it is every match. The rows are the same either way, and the JSON
    /// store's (the general path, which always counts).
    func testALimitedListCountsOnlyWhenAsked() throws {
        let db = try SQLiteStore.open(path("limited.db")).get()
        let s = session(db), j = session(JSONStore(memory: Store()))
        // More tasks than the reads below take together, so each read is narrowed (a session
        // that has read as many rows as the store holds reads them all once).
        for k in 1...400 {
            let line = "add Task \(k) #t\(k % 3) @\(k % 4 == 0 ? "yesterday" : "tomorrow")"
            XCTAssertFalse(run(s, line).failed)
            XCTAssertFalse(run(j, line).failed)
        }
        let overdue = FilterExpr.term(.overdue)
        let none = FilterExpr.and([.term(.overdue), .term(.tag("t9"))])
        for (expr, limit, all, upTo) in [(overdue, 5, 100, 5), (overdue, 140, 100, 100), (overdue, 0, 100, 1), (none, 5, 0, 0), (none, 0, 0, 0)] {
            let counted = try s.engine.select(expr, order: [(.due, false)], limit: limit)
            let uncounted = try s.engine.select(expr, order: [(.due, false)], limit: limit, countAll: false)
            let general = try j.engine.select(expr, order: [(.due, false)], limit: limit, countAll: false)
            XCTAssertEqual(counted.matched, all, "\(expr) limit \(limit)")
            XCTAssertEqual(uncounted.matched, upTo, "\(expr) limit \(limit)")
            XCTAssertEqual(general.matched, all, "the general path counts: \(expr) limit \(limit)")
            XCTAssertEqual(counted.ordered.map(\.title), uncounted.ordered.map(\.title))
            XCTAssertEqual(general.ordered.map(\.title), uncounted.ordered.map(\.title))
            XCTAssertEqual(counted.total, general.total)
        }
        XCTAssertFalse(db.hasFullView, "each read was narrowed")
        // A filter with a term that has no column (words) reads every open task once, and
        // decides on them there: not a second time for the list's limit.
        let before = db.narrowedRows
        let words = try s.engine.select(.term(.words(["task"])), order: [(.due, false)], limit: 3, countAll: false)
        XCTAssertEqual(words.matched, 400)
        XCTAssertEqual(words.ordered.map(\.title), try j.engine.select(.term(.words(["task"])), order: [(.due, false)], limit: 3).ordered.map(\.title))
        XCTAssertEqual(db.narrowedRows - before, 400, "one read of the open tasks")
        XCTAssertFalse(db.hasFullView, "and no second read of every task")
        XCTAssertEqual(run(s, "list overdue and #t9 limit 0").lines, run(j, "list overdue and #t9 limit 0").lines)
        XCTAssertEqual(run(s, "list overdue limit 0").lines, run(j, "list overdue limit 0").lines)
    }

    /// A narrowed read whose condition widens (words, notes, a repeat) decides on its rows
    /// chunk by chunk as it reads them and holds only the matches; the answers are the JSON
    /// store's, in many chunks (7 records each here) as in one. A pattern (whose budget is the
    /// statement's) is read whole.
    func testAWideningReadHoldsOnlyItsMatches() throws {
        let db = try SQLiteStore.open(path("kept.db")).get()
        db.keptChunk = 7
        let s = session(db), j = session(JSONStore(memory: Store()))
        let words = ["milk", "bread", "Crème brûlée", "call MOM", "tea"]
        for k in 1...120 {
            var line = "add \(words[k % 5]) \(k) #t\(k % 3)"
            if k % 4 == 0 { line += " @yesterday" }
            if k % 9 == 0 { line += " every week" }
            for x in [s, j] { XCTAssertFalse(run(x, line).failed, line) }
            if k % 6 == 0 { for x in [s, j] { XCTAssertFalse(run(x, "comment \(k) creme \(k)").failed) } }
        }
        let statements = ["list milk", "count milk", "list creme", "count brulee and #t1", "list mom order by due limit 3",
                          "list milk or overdue limit 5", "list not milk and #t2 limit 4", "count repeating", "list repeating and tea",
                          "list creme order by title limit 2", "complete where milk and #t0", "list milk status:any", "undo", "count milk"]
        for q in statements { XCTAssertEqual(run(s, q).lines, run(j, q).lines, q) }
        // Each on a new connection, which has read nothing yet (a connection that has read as
        // many rows as the store holds reads them all once).
        let fc = s.engine.filterContext
        func held(_ e: FilterExpr) throws -> Int? {
            let fresh = try SQLiteStore.open(path("kept.db"), readOnly: true).get()
            defer { fresh.close() }
            fresh.keptChunk = 7
            return fresh.narrowedColumns(NarrowRequest(expr: e, dayStart: s.engine.store.settings.day.dayStart), fc)?.index.count
        }
        XCTAssertEqual(try held(.term(.words(["milk"]))), 24, "the matches of 120 open tasks")
        XCTAssertEqual(try held(.and([.term(.words(["milk"])), .term(.tag("t1"))])), 8, "what the tag's column leaves, then the words")
        XCTAssertEqual(try held(.term(.regex(field: .title, try RegexPattern("milk")))), 120, "a pattern's read is whole")
    }

    /// Counts in SQL agree with the columns: random stores and random filters of the terms SQL
    /// answers, at several clocks and day starts, among them the DST nights of Berlin (a due
    /// moved by the gap) and New York (now in the repeated hour, given as an instant).
    func testSQLCountsAgreeWithTheColumns() throws {
        var rng = SplitMix(seed: 20_260_615)
        let tags = ["errand", "phone", "Über", "deep", "work", "workshop"], projects = ["Home", "Work", "Ärger"]
        let clocks: [(SessionClock, String, String)] = [
            (.wall(Self.nine), "Europe/Berlin", "2026-06-15"),
            (.instant(TimeText.parseISOInstant("2026-03-29T01:15:00Z") ?? .epoch), "Europe/Berlin", "2026-03-29"),
            (.instant(TimeText.parseISOInstant("2026-11-01T06:30:00Z") ?? .epoch), "America/New_York", "2026-11-01"),
        ]
        for round in 0..<6 {
            let (clock, zoneName, night) = clocks[round % 3 == 0 ? 0 : (round % 3)]
            let db = try SQLiteStore.open(path("c\(round).db")).get()
            let e = Engine(store: db, clock: clock, defaultZone: Zone(identifier: zoneName) ?? .utc)
            for p in projects { _ = try e.addProject(p) }
            if round % 2 == 1 { _ = try e.set(setting: "day-start", to: "04:00") }
            let base = CivilDate(iso: night)?.dayNumber ?? 0
            var ids: [Int] = []
            for k in 0..<120 {
                var d = TaskDraft(title: "t\(k)")
                let day = Int(rng.next() % 20) - 10
                if rng.next() % 5 != 0 {
                    // Half the timed dues on the night itself, in its small hours.
                    let near = rng.next() % 2 == 0
                    d.due = Due(date: CivilDate(dayNumber: base + (near ? Int(rng.next() % 2) : day)),
                                time: rng.next() % 2 == 0 ? nil : WallTime(hour: near ? Int(rng.next() % 5) : Int(rng.next() % 24),
                                                                              minute: [0, 15, 30, 45, 59][Int(rng.next() % 5)]))
                }
                d.priority = Priority(rawValue: Int(rng.next() % 5))
                if rng.next() % 2 == 0 { d.project = projects[Int(rng.next() % 3)] }
                d.tags = tags.filter { _ in rng.next() % 3 == 0 }
                if !ids.isEmpty, rng.next() % 4 == 0 { d.parent = ids[Int(rng.next() % UInt64(ids.count))] }
                let t = try e.add(d)
                ids.append(t.id)
                switch rng.next() % 7 {
                case 0: _ = try e.complete(.task(t.id))
                case 1: _ = try e.archive(.task(t.id))
                case 2: _ = try e.set(.estimate(Estimate(minutes: Int(rng.next() % 60) + 1)), on: .task(t.id))
                case 3: _ = try e.set(.area(["Home", "home  ", "Garden"][Int(rng.next() % 3)]), on: .task(t.id))
                case 4: _ = try? e.remind(.task(t.id), at: .at(Due(date: CivilDate(dayNumber: base + 2), time: WallTime(hour: 9, minute: 0))))
                default: break
                }
            }
            if let open = e.store.tasks(.all).first(where: \.isOpen) { _ = try e.notToday(.task(open.id)) }
            XCTAssertNoThrow(try e.commit().get())
            let fc = e.filterContext
            let t = fc.today
            let terms: [FilterTerm] = [
                .overdue, .noDue, .hasDue, .hasTime, .status(.open), .status(.done), .status(.archived), .status(.any), .doneToday, .held,
                .tag("errand"), .tag("über"), .project("home"), .project("ärger"), .area("HOME"), .area("garden"),
                .priority(.greaterOrEqual, .high), .priority(.less, .medium), .window(DayWindow(start: t, end: t + 7)),
                .window(DayWindow(start: t, end: t + 1)), .window(DayWindow(start: t - 1, end: t + 2)),
                .due(.less, day: t + 2), .due(.lessOrEqual, day: t), .due(.greater, day: t), .due(.greaterOrEqual, day: t - 1),
                .due(.equal, day: t), .estimate(.lessOrEqual, minutes: 15), .instant(.created, .greater, Instant(seconds: 0)),
                .instant(.modified, .greaterOrEqual, fc.todayStart), .instant(.completed, .less, fc.now),
                .instantIn(.completed, DayWindow(start: t, end: t + 1)), .instantIn(.created, DayWindow(start: t - 7, end: Int.max)),
                .tagPattern("work*"), .tagPattern("*o*"), .tagPattern("*"), .tagPattern("*shop"),
                .hasSubtasks, .isSubtask, .blocked, .blocking, .hasReminder, .hasEstimate, .parent(ids[3]),
            ]
            for k in 0..<300 {
                var expr = FilterExpr.term(terms[Int(rng.next() % UInt64(terms.count))])
                for _ in 0..<Int(rng.next() % 3) {
                    let other = FilterExpr.term(terms[Int(rng.next() % UInt64(terms.count))])
                    switch rng.next() % 3 {
                    case 0: expr = .and([expr, other])
                    case 1: expr = .or([expr, other])
                    default: expr = .not(.and([expr, other]))
                    }
                }
                let sql = try XCTUnwrap(db.count(expr, fc), "round \(round) case \(k): no SQL for \(expr)")
                let (rows, total) = try e.selectRows(expr)
                XCTAssertEqual(sql.matched, rows.count, "round \(round) case \(k): \(expr)")
                XCTAssertEqual(sql.total, total, "round \(round) case \(k): the scope of \(expr)")
            }
            XCTAssertNil(db.count(.term(.words(["t1"])), fc), "words have no column")
            XCTAssertNil(db.count(.term(.tagPattern("w*k")), fc), "a * inside a pattern is the columns'")
            XCTAssertNil(db.count(.term(.hasNotes), fc), "notes have no column")
        }
    }

    /// Two connections on one database: one's commit is read by the other before its next
    /// statement; a writer waits for the other's lock instead of failing.
    func testTwoSessionsSeeEachOther() throws {
        let a = session(try SQLiteStore.open(path("two.db")).get())
        let b = session(try SQLiteStore.open(path("two.db")).get(), seed: 4)
        XCTAssertEqual(run(a, "add first").lines, ["Added 1 · first"])
        XCTAssertEqual(run(b, "count").lines, ["All 1 task"])
        XCTAssertEqual(run(b, "add second").lines, ["Added 2 · second"])
        XCTAssertEqual(run(a, "list").lines, ["All 2 tasks", "1  first", "2  second"])
        XCTAssertEqual(run(a, "complete 2").lines, ["Completed 2 · second"])
        XCTAssertEqual(run(b, "show 2 status").lines, ["done"])
        XCTAssertEqual(run(b, "undo").lines, ["Undid complete 2 · second"], "the history is the store's, shared")
    }

    /// A new task whose uid the store already holds is refused, never written over the other.
    func testAUIDIsNeverReplacedByANewTask() throws {
        let a = session(try SQLiteStore.open(path("uid.db")).get(), seed: 9)
        let b = session(try SQLiteStore.open(path("uid.db")).get(), seed: 9)
        XCTAssertEqual(run(a, "add first").lines, ["Added 1 · first"])
        let r = run(b, "add second")
        XCTAssertEqual(r.diagnostics.first?.code, .E0307, "the same uid again: \(r.lines)")
        XCTAssertEqual(run(a, "list").lines, ["All 1 task", "1  first"])
    }

    /// Files that are not Kept stores are refused, with a code, and left as they were.
    func testNotAKeptStoreIsRefused() throws {
        // Another program's database.
        let other = path("other.db")
        let odb = try SQLiteDatabase.open(other, create: true).get()
        try odb.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hi')")
        let before = try Data(contentsOf: URL(fileURLWithPath: other))
        guard case .failure(.unreadable(let d)) = SQLiteStore.open(other) else { return XCTFail("another program's database opened") }
        XCTAssertEqual(Catalog.store(d).code, .E0327)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: other)), before)
        // A newer schema.
        let newer = path("newer.db")
        _ = try SQLiteStore.open(newer).get()
        let ndb = try SQLiteDatabase.open(newer, create: false).get()
        try ndb.exec("PRAGMA user_version = 99")
        guard case .failure(.unreadable(let n)) = SQLiteStore.open(newer) else { return XCTFail("a newer schema opened") }
        XCTAssertEqual(Catalog.store(n).code, .E0328)
        // A damaged file: the header of a database, pages of noise.
        let good = try SQLiteStore.open(path("good.db")).get()
        let e = Engine(store: good, clock: .wall(Self.nine), defaultZone: .utc)
        for k in 0..<200 { _ = try e.add(TaskDraft(title: "task \(k) with a title long enough to fill pages")) }
        XCTAssertNoThrow(try e.commit().get())
        _ = try good.db.exec("PRAGMA wal_checkpoint(TRUNCATE)")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path("good.db")))
        XCTAssertGreaterThan(bytes.count, 8192)
        for k in 4096..<min(bytes.count, 20_000) where k % 7 == 0 { bytes[k] = 0xA5 }
        let bad = path("bad.db")
        try bytes.write(to: URL(fileURLWithPath: bad))
        guard case .failure(.unreadable(let b)) = SQLiteStore.open(bad) else { return XCTFail("a damaged database opened") }
        XCTAssertEqual(Catalog.store(b).code, .E0327)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: bad)), bytes, "never written")
    }

    /// A store of an older schema is brought up to date in one transaction; a new file is 0600.
    func testNewFileAndSchemaVersion() throws {
        let p = path("v.db")
        let s = try SQLiteStore.open(p).get()
        XCTAssertEqual(try s.db.integer("PRAGMA user_version"), SQLiteStore.schemaVersion)
        XCTAssertEqual(try s.db.integer("PRAGMA application_id"), SQLiteStore.applicationID)
        XCTAssertEqual(try s.db.text("PRAGMA journal_mode"), "wal")
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: p)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
        XCTAssertEqual(s.filters.map(\.name), SavedFilter.presets.map(\.name), "a new store has the presets")
    }
}
