// A large import into an empty SQLite store is a bulk load (SQLiteStore+BulkLoad): the store
// it makes is the JSON store's import of the same file, task for task and line for line of its
// export; a refused file leaves every table as it was, the journal back to its WAL; beside
// another connection the load keeps the WAL and still holds one transaction. (A process killed
// in the middle of a bulk load: KeptCLITests/StoreWriteTests.)
// covers: R-STORE-1, R-STORE-2

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class SQLiteBulkLoadTests: XCTestCase, SessionTesting {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-bulk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let nine = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    func session(_ backend: any StoreBackend) -> Session {
        Session(engine: Engine(store: backend, clock: .wall(Self.nine), defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc, uids: .seeded(7)))
    }

    /// A Taskwarrior export of `n` varied records (statuses, projects in two cases, tags,
    /// priorities, dues with and without a time, waits, ends, annotations, repeats, subtasks
    /// by `depends`, fields Kept has no place for, text that needs escaping), the same for the
    /// same `salt`; `edit` changes every third record's title and its `modified`.
    static func twFile(_ n: Int, salt: UInt64 = 1, edit: Bool = false) -> String {
        var seed: UInt64 = 20_260_615 &+ salt
        func next(_ m: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(m))
        }
        func uuid(_ k: Int) -> String { String(format: "%08x-1111-4000-8000-%012x", k, k &* 7_919) }
        let projects = ["Home", "home", "Work.Admin", "Garden", "Ünïcode", nil, nil]
        let tags = ["next", "Errand", "phone", "b\u{e9}b\u{e9}", "x-y"]
        var rows: [String] = []
        for k in 0..<n {
            var f: [String] = ["\"uuid\":\"\(uuid(k))\""]
            let changed = edit && k % 3 == 0
            var title = "Task \(k) \(["call", "Write \\\"quoted\\\"", "tab\\tand\\nline", "caf\u{e9} \u{2615}", "plain words here"][next(5)])"
            if changed { title += " (changed)" }
            f.append("\"description\":\"\(title)\"")
            let status = ["pending", "pending", "pending", "pending", "completed", "deleted", "waiting"][next(7)]
            f.append("\"status\":\"\(status)\"")
            let day = 1 + next(28), month = 1 + next(12)
            f.append(String(format: "\"entry\":\"2025%02d%02dT%02d%02d00Z\"", month, day, next(24), next(60)))
            f.append(String(format: "\"modified\":\"%@%02d%02dT120000Z\"", changed ? "2026" : "2025", month, day))
            if status == "completed" || status == "deleted" { f.append(String(format: "\"end\":\"2026%02d%02dT100000Z\"", 1 + next(5), day)) }
            if status == "waiting" { f.append("\"wait\":\"20260701T080000Z\"") }
            if let p = projects[next(projects.count)] { f.append("\"project\":\"\(p)\"") }
            let t = (0..<next(4)).map { _ in "\"\(tags[next(tags.count)])\"" }
            if !t.isEmpty { f.append("\"tags\":[\(Set(t).sorted().joined(separator: ","))]") }
            if let p = ["H", "M", "L", nil, nil][next(5)] { f.append("\"priority\":\"\(p)\"") }
            if next(2) == 0 { f.append(String(format: "\"due\":\"2026%02d%02dT%02d%@Z\"", 1 + next(12), 1 + next(28), next(24), next(2) == 0 ? "0000" : "3000")) }
            if next(10) == 0 { f.append("\"annotations\":[{\"entry\":\"20260102T030400Z\",\"description\":\"note \(k)\"}]") }
            if next(25) == 0, status == "pending" { f.append("\"recur\":\"weekly\"") }
            if k > 10, next(12) == 0 { f.append("\"depends\":[\"\(uuid(k - 1 - next(10)))\"]") }
            if next(8) == 0 { f.append("\"udaSize\":\"\(next(100))\",\"urgency\":\(next(20)).5") }
            rows.append("{" + f.joined(separator: ",") + "}")
        }
        return "[\n" + rows.joined(separator: ",\n") + "\n]\n"
    }

    /// Every table of the database, its rows in key order, and the schema itself: what a
    /// refused import must leave exactly as it was.
    static func dump(_ db: SQLiteDatabase) throws -> [String] {
        var out: [String] = []
        var tables: [String] = []
        let st = try db.statement("SELECT name, type, coalesce(sql, '') FROM sqlite_schema ORDER BY name")
        while try st.step() {
            out.append("\(st.text(0) ?? "") \(st.text(1) ?? ""): \(st.text(2) ?? "")")
            if st.text(1) == "table" { tables.append(st.text(0) ?? "") }
        }
        st.reset()
        for t in tables {
            var cols: [String] = []
            let info = try db.statement("SELECT name FROM pragma_table_info(?1)")
            info.bind(1, t)
            while try info.step() { cols.append(info.text(0) ?? "") }
            info.reset()
            let rows = try db.statement("SELECT " + cols.map { "quote(\"\($0)\")" }.joined(separator: " || '|' || ") + " FROM \"\(t)\" ORDER BY 1")
            while try rows.step() { out.append("\(t): \(rows.text(0) ?? "")") }
            rows.reset()
        }
        return out
    }

    /// The bulk load makes the JSON store's store: the same tasks, projects and next id, the
    /// same export line for line in both formats; and a second import of an edited file, which
    /// merges by uid into the store that now holds tasks (no bulk load), keeps them the same.
    func testABulkImportMakesTheStoreTheJSONStoresImportMakes() throws {
        let file = path("tasks.tw.json")
        try Self.twFile(6_000).write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertGreaterThanOrEqual(try Data(contentsOf: URL(fileURLWithPath: file)).count / 300, SQLiteStore.bulkRows, "the file is a bulk load")
        let db = try SQLiteStore.open(path("s.db")).get()
        let json = try JSONStore.open(path("s.json")).get()
        let (sq, js) = (session(db), session(json))
        var loaded = false
        let first = lines(sq, "import \(file)")
        XCTAssertEqual(first, lines(js, "import \(file)"))
        XCTAssertEqual(first.first, "Imported \(file) (Taskwarrior JSON): 5173 added, 0 changed, 827 skipped (827 deleted in the file)")
        XCTAssertFalse(db.indexesDropped)
        XCTAssertEqual(try db.db.text("PRAGMA journal_mode"), "wal", "back to the WAL after the load")
        XCTAssertEqual(try db.db.text("PRAGMA integrity_check"), "ok")
        func same(_ what: String) throws {
            let fresh = try SQLiteStore.open(path("s.db"), readOnly: true).get()
            defer { fresh.close() }
            XCTAssertEqual(fresh.tasks.count, json.tasks.count, what)
            for (a, b) in zip(fresh.tasks, json.tasks) where a != b { return XCTFail("\(what): task \(a.id) differs: \(a) \(b)") }
            XCTAssertEqual(fresh.projects, json.projects, what)
            XCTAssertEqual(fresh.nextID, json.nextID, what)
            // The load counted the kinds itself (its rows' insert trigger dropped): the counts
            // are the rows', and the trigger is back for the writes after it.
            XCTAssertNil(try fresh.db.text("""
                SELECT 'kind ' || coalesce(c.kind, k.kind) FROM (SELECT kind, count(*) AS n FROM tasks GROUP BY kind) AS c \
                FULL JOIN (SELECT kind, n FROM task_kinds WHERE n != 0) AS k ON c.kind = k.kind \
                WHERE c.n IS NOT k.n LIMIT 1
                """), what)
            XCTAssertEqual(try fresh.db.text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name = 'tasks_kind_insert'"), "tasks_kind_insert", what)
            for (format, ext) in [("taskwarrior", "tw.json"), ("jsonl", "jsonl")] {
                XCTAssertFalse(run(sq, "export \(path("a." + ext)) as \(format)").failed)
                XCTAssertFalse(run(js, "export \(path("b." + ext)) as \(format)").failed)
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("a." + ext))), try Data(contentsOf: URL(fileURLWithPath: path("b." + ext))), "\(what): export as \(format)")
            }
            for q in ["count status:any", "list +next limit 5", "count project:home", "plan limit 3", "count overdue"] {
                XCTAssertEqual(lines(sq, q), lines(js, q), "\(what): \(q)")
            }
            loaded = true
        }
        try same("after the bulk load")
        XCTAssertTrue(loaded)
        let edited = path("edited.tw.json")
        try Self.twFile(6_000, edit: true).write(toFile: edited, atomically: true, encoding: .utf8)
        let second = lines(sq, "import \(edited)")
        XCTAssertEqual(second, lines(js, "import \(edited)"))
        XCTAssertEqual(second.first?.contains("changed"), true, "\(second)")
        try same("after the merge by uid")
        XCTAssertEqual(lines(sq, "undo"), lines(js, "undo"))
        try same("after undo of the merge")
    }

    /// A record refused near the end of a bulk load: every table and the schema as they were
    /// (the history, a tombstone and the settings of the store before it included), the
    /// journal back to the WAL, no journal file left; then the good file loads.
    func testARefusedBulkLoadLeavesEveryTableAsItWas() throws {
        let db = try SQLiteStore.open(path("s.db")).get()
        let s = session(db)
        for stmt in ["add One #x", "delete 1", "set week-start sunday", "project add Spare"] { XCTAssertFalse(run(s, stmt).failed, stmt) }
        XCTAssertEqual(db.taskCount, 0)
        let before = try Self.dump(db.db)
        // Record 5,500 of 6,000 (line 5,502) has a status Kept cannot take without a project.
        var rows = Self.twFile(6_000).components(separatedBy: "\n")
        rows[5_501] = "{\"description\":\"Bad\",\"status\":\"sleeping\"},"
        try rows.joined(separator: "\n").write(toFile: path("bad.tw.json"), atomically: true, encoding: .utf8)
        let out = lines(s, "import \(path("bad.tw.json"))")
        XCTAssertEqual(out.first?.hasPrefix("! E0604"), true, "\(out)")
        XCTAssertEqual(out.first?.contains("line 5502"), true, "\(out)")
        XCTAssertEqual(try Self.dump(db.db), before)
        XCTAssertEqual(try db.db.text("PRAGMA journal_mode"), "wal")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("s.db-journal")))
        let other = try SQLiteStore.open(path("s.db")).get()
        XCTAssertEqual(try Self.dump(other.db), before, "as another connection reads it")
        other.close()
        try Self.twFile(6_000).write(toFile: path("good.tw.json"), atomically: true, encoding: .utf8)
        XCTAssertEqual(lines(s, "import \(path("good.tw.json"))").first?.contains("5173 added"), true)
        XCTAssertEqual(try SQLiteStore.open(path("s.db")).get().taskCount, 5_173)
        XCTAssertEqual(lines(s, "undo").first?.hasPrefix("Undid import"), true)
        XCTAssertEqual(try db.db.text("PRAGMA integrity_check"), "ok")
    }

    /// Another connection has the store open: the load keeps the WAL (SQLite refuses the
    /// switch), still drops and remakes the indexes in its one transaction, and the other
    /// connection reads the store before the commit as it was, and after it whole.
    func testABulkLoadBesideAnotherConnectionKeepsTheWAL() throws {
        let db = try SQLiteStore.open(path("s.db")).get()
        let other = try SQLiteStore.open(path("s.db")).get()
        XCTAssertEqual(other.taskCount, 0)
        try Self.twFile(6_000).write(toFile: path("t.tw.json"), atomically: true, encoding: .utf8)
        XCTAssertNoThrow(try db.prepareToWrite().get())
        db.reserveTasks(20_000)
        XCTAssertTrue(db.indexesDropped)
        XCTAssertEqual(db.bulk?.journal, false, "the WAL stays while another connection has the file open")
        XCTAssertEqual(other.taskCount, 0)
        db.rollback()
        XCTAssertNil(db.bulk)
        let s = session(db)
        XCTAssertEqual(lines(s, "import \(path("t.tw.json"))").first?.contains("5173 added"), true)
        XCTAssertEqual(try db.db.text("PRAGMA journal_mode"), "wal")
        XCTAssertTrue(other.changedElsewhere())
        XCTAssertNoThrow(try other.reload().get())
        XCTAssertEqual(other.taskCount, 5_173)
        XCTAssertEqual(try other.db.text("PRAGMA integrity_check"), "ok")
        other.close()
    }

    /// Alone on the file, the load has a rollback journal while it runs (the rows written once,
    /// into the file), and a small import or one into a store that holds tasks is no bulk load.
    func testABulkLoadAloneUsesARollbackJournal() throws {
        let db = try SQLiteStore.open(path("s.db")).get()
        XCTAssertNoThrow(try db.prepareToWrite().get())
        db.reserveTasks(SQLiteStore.bulkRows - 1)
        XCTAssertNil(db.bulk, "too small")
        db.reserveTasks(20_000)
        XCTAssertEqual(db.bulk?.journal, true)
        XCTAssertEqual(try db.db.text("PRAGMA journal_mode"), "delete")
        XCTAssertTrue(db.indexesDropped)
        db.rollback()
        XCTAssertEqual(try db.db.text("PRAGMA journal_mode"), "wal")
        let s = session(db)
        XCTAssertFalse(run(s, "add Here").failed)
        XCTAssertNoThrow(try db.prepareToWrite().get())
        db.reserveTasks(20_000)
        XCTAssertNil(db.bulk, "the store holds a task")
        db.rollback()
    }
}
