// A damaged store is reported, never read as less (docs/STORE.md, "Damage"): the checksum of
// every SQLite row, reads that name what is damaged and fail the statement, writes refused after
// damage is seen, a -wal that does not belong refused before anything is written, an empty file
// refused, and the JSON file's checksum.
// covers: R-STORE-2, R-STORE-4

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class StoreDamageTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-damage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    static let nine = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    /// Each session's uids come from a seed of its own: a second session on the same store must
    /// not make the first one's uids again.
    var seed: UInt64 = 5

    func session(_ backend: any StoreBackend, commits: CommitPolicy = .eachStatement) -> Session {
        seed += 1
        return Session(engine: Engine(store: backend, clock: .wall(Self.nine), defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc,
                                      uids: .seeded(seed)), commits: commits)
    }

    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    /// Runs SQL on a database file from outside Kept, as a careless user or a bad disk would.
    func sql(_ file: String, _ statement: String) throws {
        guard case .success(let db) = SQLiteDatabase.open(file, create: false) else { return XCTFail("cannot open \(file)") }
        try db.exec(statement)
        db.close()
    }

    func bytes(_ file: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }

    /// A store of three tasks, one done, with an undo history, closed.
    func makeStore(_ name: String) throws -> String {
        let p = path(name)
        let db = try SQLiteStore.open(p).get()
        let s = session(db)
        for line in ["project add Home", "add one", "add two @tomorrow", "add three +Home", "complete 1"] { XCTAssertFalse(run(s, line).failed, line) }
        db.close()
        return p
    }

    /// XXH64 as published (the reference implementation's values), in one piece and in pieces.
    func testTheChecksumIsXXH64() {
        let cases: [(String, UInt64, UInt64)] = [
            ("", 0, 0xEF46_DB37_51D8_E999), ("a", 0, 0xD24E_C4F1_A98C_6E5B), ("abc", 0, 0x44BC_2CF5_AD77_0999),
            ("", 7, 0x95F0_626F_6F0A_4409), ("abc", 7, 0x9E75_5206_1566_76D7),
            (String(repeating: "x", count: 31), 0, 0x60DD_0D01_083B_99F0), (String(repeating: "x", count: 32), 0, 0xE2DF_261F_C2EC_30EB),
            (String(repeating: "x", count: 33), 0, 0xB3FA_465F_5542_08A6),
        ]
        for (text, seed, want) in cases {
            XCTAssertEqual(StoreSum.of(Array(text.utf8), seed: seed), want, "\(text.count) bytes, seed \(seed)")
        }
        let hundred = (0..<100).map { UInt8($0) }
        XCTAssertEqual(StoreSum.of(hundred), 0x6AC1_E580_3216_6597)
        for cut in [0, 1, 7, 31, 32, 33, 64, 99, 100] {
            var s = StoreSum()
            s.update(Array(hundred[..<cut]))
            s.update(Array(hundred[cut...]))
            XCTAssertEqual(s.value, 0x6AC1_E580_3216_6597, "split at \(cut)")
        }
    }

    /// F1: a damaged record fails the statement that reads it with E0332 naming the store, the
    /// table and the row; a count that needs no record still answers; nothing is written after.
    func testADamagedRecordIsReportedNotReadAsEmpty() throws {
        let p = try makeStore("a.db")
        try sql(p, "UPDATE tasks SET record = '{' WHERE id = 2")
        let db = try SQLiteStore.open(p, readOnly: true).get()
        let s = session(db, commits: .never)
        XCTAssertEqual(run(s, "count status:any").lines, ["3 of 3"])
        let list = run(s, "list status:any")
        XCTAssertTrue(list.failed)
        XCTAssertEqual(list.lines, [], "no answer from part of the store")
        XCTAssertEqual(list.diagnostics.first?.code, .E0332)
        XCTAssertTrue(list.diagnostics.first?.message.contains("tasks row id 2") ?? false, list.diagnostics.first?.message ?? "")
        XCTAssertTrue(list.diagnostics.first?.message.contains(p) ?? false)
        XCTAssertTrue(run(s, "show 1").failed, "every statement after the damage fails")
        XCTAssertEqual(db.damage.map(\.table), ["tasks"])
        db.close()
    }

    /// A record whose bytes changed inside an intact page (which SQLite cannot see) fails its
    /// checksum: one changed letter of a title.
    func testAChangedTitleFailsItsChecksum() throws {
        let p = try makeStore("b.db")
        try sql(p, "UPDATE tasks SET record = replace(record, '\"two\"', '\"twx\"') WHERE id = 2")
        let db = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertNil(db.task(2))
        XCTAssertEqual(db.damage, [StoreDamage(table: "tasks", key: "row id 2", reason: "its record does not match its checksum")])
        XCTAssertNotNil(db.readFailure)
        db.close()
        // A writer opening the store learns of it before it writes anything.
        let before = bytes(p)
        switch SQLiteStore.open(p) {
        case .success: XCTFail("a small damaged store is refused when opened for writing")
        case .failure(let e): XCTAssertEqual(Catalog.store(e).code, .E0332)
        }
        XCTAssertEqual(bytes(p), before, "the store is left byte for byte")
    }

    /// One damaged history row is named; it does not make undo say there is nothing to undo.
    func testADamagedHistoryStepIsNamed() throws {
        let p = try makeStore("h.db")
        try sql(p, "UPDATE history SET step = replace(step, 'three', 'thre3') WHERE seq = 4")
        let db = try SQLiteStore.open(p, readOnly: true).get()
        let s = session(db, commits: .never)
        let undo = run(s, "undo")
        XCTAssertTrue(undo.failed)
        XCTAssertEqual(undo.diagnostics.first?.code, .E0332)
        XCTAssertEqual(db.damage.first?.table, "history")
        XCTAssertEqual(db.damage.first?.key, nil)
        XCTAssertTrue(db.damage.first?.reason.hasPrefix("step 4:") ?? false, db.damage.first?.reason ?? "")
        db.close()
    }

    /// The settings, saved filters and tombstones are checked the same way.
    func testSmallTablesAreChecked() throws {
        let p = try makeStore("m.db")
        try sql(p, "UPDATE filters SET record = replace(record, '>=', '<=') WHERE pos = 1")
        switch SQLiteStore.open(p, readOnly: true) {
        case .success: XCTFail("a changed saved filter is damage")
        case .failure(let e):
            let d = Catalog.store(e)
            XCTAssertEqual(d.code, .E0327)
            XCTAssertTrue(d.message.contains("filters row 1"), d.message)
        }
        let q = try makeStore("t.db")
        let db = try SQLiteStore.open(q).get()
        XCTAssertFalse(run(session(db), "delete 2").failed)
        db.close()
        try sql(q, "UPDATE tombstones SET deleted_at = '2020-01-01T00:00:00+00:00'")
        let again = try SQLiteStore.open(q, readOnly: true).get()
        XCTAssertEqual(again.tombstones.count, 0)
        XCTAssertEqual(again.damage.first?.table, "tombstones")
        again.close()
    }

    /// `kept check` finds every kind of damage at once: a record, a lookup column and SQLite's
    /// own structure; a sound store has none.
    func testCheckListsEveryDamagedItem() throws {
        let p = try makeStore("c.db")
        let sound = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertEqual(sound.checkAll(), [])
        sound.close()
        try sql(p, "UPDATE tasks SET record = replace(record, 'one', 'onx') WHERE id = 1; UPDATE tasks SET kind = 5 WHERE id = 3")
        let db = try SQLiteStore.open(p, readOnly: true).get()
        let found = db.checkAll()
        db.close()
        XCTAssertTrue(found.contains(StoreDamage(table: "tasks", key: "row id 1", reason: "its record does not match its checksum")), "\(found)")
        XCTAssertTrue(found.contains(StoreDamage(table: "tasks", key: "row id 3", reason: "its kind column is not what its record says")), "\(found)")
    }

    /// A store opened for reading is never written, even by what a write would do.
    func testAStoreOpenedForReadingIsNeverWritten() throws {
        let p = try makeStore("r.db")
        let before = bytes(p)
        let db = try SQLiteStore.open(p, readOnly: true).get()
        let s = session(db)
        XCTAssertTrue(run(s, "add four").failed)
        db.close()
        XCTAssertEqual(bytes(p), before)
    }

    /// F2: closing checkpoints the -wal into the file, so a copy of the file alone holds
    /// everything that was committed.
    func testClosingLeavesEverythingInTheFile() throws {
        let p = try makeStore("w.db")
        XCTAssertFalse(FileManager.default.fileExists(atPath: p + "-wal"))
        try FileManager.default.copyItem(atPath: p, toPath: path("copy.db"))
        let copy = try SQLiteStore.open(path("copy.db"), readOnly: true).get()
        XCTAssertEqual(copy.taskCount, 3)
        copy.close()
    }

    /// F3: a -wal of another database, or one left from before a copy was put back, is refused
    /// before anything opens the store for writing, and the store stays byte for byte.
    func testAForeignWALIsRefused() throws {
        let p = try makeStore("g.db")
        for k in 4...60 {
            let db = try SQLiteStore.open(p).get()
            XCTAssertFalse(run(session(db), "add task \(k) with a longer title to fill pages").failed)
            db.close()
        }
        // Another program's database, with a -wal held open.
        let other = path("other.db")
        guard case .success(let o) = SQLiteDatabase.open(other, create: true) else { return XCTFail() }
        _ = try o.text("PRAGMA journal_mode=WAL")
        try o.exec("CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(3000));")
        try FileManager.default.copyItem(atPath: other + "-wal", toPath: p + "-wal")
        o.close()
        let before = bytes(p)
        switch SQLiteStore.open(p) {
        case .success: XCTFail("another database's -wal is refused")
        case .failure(let e): XCTAssertEqual(Catalog.store(e).code, .E0333)
        }
        XCTAssertEqual(bytes(p), before)
        XCTAssertTrue(FileManager.default.fileExists(atPath: p + "-wal"), "the -wal is left for the user")
        try FileManager.default.removeItem(atPath: p + "-wal")
        XCTAssertNoThrow(try SQLiteStore.open(p).get().close())
    }

    /// An old -shm beside a store (another database's) is only an index that the first
    /// connection makes again: the store reads as it is and writes as usual.
    func testAnOldSHMDoesNoHarm() throws {
        let p = try makeStore("s.db")
        let other = path("other2.db")
        guard case .success(let o) = SQLiteDatabase.open(other, create: true) else { return XCTFail() }
        _ = try o.text("PRAGMA journal_mode=WAL")
        try o.exec("CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(3000));")
        try FileManager.default.copyItem(atPath: other + "-shm", toPath: p + "-shm")
        o.close()
        let db = try SQLiteStore.open(p).get()
        XCTAssertEqual(db.tasks(.all).map(\.title), ["one", "two", "three"])
        XCTAssertFalse(run(session(db), "add four").failed)
        db.close()
        let again = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertEqual(again.checkAll(), [])
        XCTAssertEqual(again.taskCount, 4)
        again.close()
    }

    /// A -wal that is not a write-ahead log at all is refused too.
    func testAWALThatIsNotALogIsRefused() throws {
        let p = try makeStore("n.db")
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: p + "-wal"))
        let before = bytes(p)
        if case .success = SQLiteStore.open(p) { XCTFail("garbage beside the store is refused") }
        XCTAssertEqual(bytes(p), before)
    }

    /// An empty file is a store that lost its bytes, not a new store.
    func testAnEmptyFileIsRefused() throws {
        let p = path("empty.db")
        FileManager.default.createFile(atPath: p, contents: Data())
        switch SQLiteStore.open(p) {
        case .success: XCTFail("an empty file is refused")
        case .failure(let e): XCTAssertEqual(Catalog.store(e).code, .E0327)
        }
        XCTAssertEqual(bytes(p).count, 0)
    }

    /// A new store appears whole: no moment shows an empty file at its path.
    func testANewStoreHasItsSchemaWhenItAppears() throws {
        let p = path("new.db")
        let db = try SQLiteStore.open(p).get()
        db.close()
        let made = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertEqual(made.taskCount, 0)
        made.close()
        let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".new-") }
        XCTAssertEqual(left, [], "no temporary file is left")
    }

    /// A version-1 store (no checksums) is migrated, each record read first; one with a record
    /// that does not read is refused and left as it was.
    func testVersionOneIsMigratedOnlyWhenEveryRecordReads() throws {
        let p = try makeStore("v1.db")
        // Back to version 1: the checksum columns go, and the sync tables of version 3.
        for t in ["tasks", "meta", "projects", "areas", "filters", "history", "tombstones"] {
            try sql(p, "ALTER TABLE \(t) DROP COLUMN checksum")
        }
        try sql(p, "DROP TABLE sync_meta; DROP TABLE sync_outbox; DROP TABLE sync_review")
        try sql(p, StoreDamageTests.backToThree)
        try sql(p, "PRAGMA user_version = 1")
        let old = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertEqual(old.tasks(.all).count, 3, "a version-1 store reads without checksums")
        old.close()
        let copy = path("v1-bad.db")
        try FileManager.default.copyItem(atPath: p, toPath: copy)
        let migrated = try SQLiteStore.open(p).get()
        XCTAssertEqual(migrated.tasks(.all).count, 3)
        XCTAssertNil(migrated.readFailure)
        migrated.close()
        try sql(copy, "UPDATE tasks SET record = '{\"id\": 2' WHERE id = 2")
        let before = bytes(copy)
        if case .success = SQLiteStore.open(copy) { XCTFail("a record that does not read stops the migration") }
        XCTAssertEqual(bytes(copy), before)
    }

    /// What version 4 added, taken away again (a version-3 file, as the Kept before it wrote).
    static let backToThree = (SQLiteStore.planIndexes.map { "DROP INDEX \($0.name);" }
        + ["DROP TRIGGER tasks_kind_insert;", "DROP TRIGGER tasks_kind_delete;", "DROP TRIGGER tasks_kind_update;", "DROP TABLE task_kinds;"]
        + ["DROP INDEX tasks_project;", "CREATE INDEX tasks_project ON tasks (project_key) WHERE project_key IS NOT NULL;"]
        + ["ALTER TABLE tasks DROP COLUMN goal;", "ALTER TABLE tasks DROP COLUMN user_estimate;", "PRAGMA user_version = 3;"]).joined(separator: " ")

    /// Schema 4 (issue 34): a version-3 store read only plans from its records, and `kept
    /// check` finds it whole; opened by a writer, it gets the plan's columns, filled from the
    /// records by the one function of a row's columns, in the migration's transaction, and its
    /// plan is the JSON store's, limited (the candidates) or whole.
    /// R-STORE-1, R-PLAN-3
    func testASchemaThreeStoreGetsThePlanColumns() throws {
        let p = path("v3.db")
        let json = JSONStore(memory: Store())
        let a = session(json)
        for line in ["add one @yesterday !high", "add two @today 3pm", "add three", "add four @2026-06-12 !critical", "set 3 estimate 10m",
                     "set 4 estimate 5m", "set 2 goal Ship it", "subtask 1 Part", "not today 4", "add five @2026-06-06"] {
            XCTAssertFalse(run(a, line).failed, line)
        }
        // A suggested estimate is no quick win, and no user estimate in its column.
        var store = json.snapshot()
        if var t = store.task(5) {
            t.estimate = Estimate(minutes: 5, source: .suggested)
            store.put(t)
        }
        XCTAssertNil(SQLiteStore.make(p, holding: store))
        try sql(p, StoreDamageTests.backToThree)
        let old = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertFalse(old.hasPlanColumns)
        XCTAssertEqual(old.checkAll(), [])
        let want = [run(session(JSONStore(memory: store)), "plan limit 1").lines, run(session(JSONStore(memory: store)), "plan").lines]
        XCTAssertEqual(run(session(old), "plan limit 1").lines, want[0], "a version-3 file read as it is")
        old.close()
        let migrated = try SQLiteStore.open(p).get()
        XCTAssertEqual(try migrated.db.integer("PRAGMA user_version"), 4)
        XCTAssertTrue(migrated.hasPlanColumns)
        let st = try migrated.db.statement("SELECT id, goal, user_estimate FROM tasks ORDER BY id")
        var got: [String] = []
        while try st.step() { got.append("\(st.int(0)) \(st.int(1)) \(st.isNull(2) ? "-" : String(st.int(2)))") }
        st.reset()
        XCTAssertEqual(got, ["1 0 -", "2 1 -", "3 0 10", "4 0 5", "5 0 -", "6 0 -"])
        for (name, _) in SQLiteStore.planIndexes {
            XCTAssertEqual(try migrated.db.integer("SELECT count(*) FROM sqlite_schema WHERE name = '\(name)'"), 1, name)
        }
        XCTAssertEqual(migrated.checkAll(), [])
        XCTAssertEqual(try migrated.db.integer("SELECT n FROM task_kinds WHERE kind = 0"), 6, "the kept counts, filled")
        let project = SQLiteStore.taskIndexes.first { $0.name == "tasks_project" }?.create
        XCTAssertEqual(try migrated.db.text("SELECT sql FROM sqlite_schema WHERE name = 'tasks_project'").map { $0 + ";" }, project,
                       "an index of an older definition is made again")
        XCTAssertEqual(run(session(migrated), "plan limit 1").lines, want[0])
        XCTAssertEqual(run(session(migrated), "plan").lines, want[1])
        // The counts follow every write; counts that do not match the rows are damage.
        XCTAssertFalse(run(session(migrated), "complete 3").failed)
        XCTAssertFalse(run(session(migrated), "add six").failed)
        XCTAssertFalse(run(session(migrated), "delete 6").failed)
        XCTAssertEqual(try migrated.db.integer("SELECT n FROM task_kinds WHERE kind = 0"), 5)
        XCTAssertEqual(try migrated.db.integer("SELECT n FROM task_kinds WHERE kind = 1"), 1)
        XCTAssertEqual(migrated.checkAll(), [])
        migrated.close()
        try sql(p, "UPDATE task_kinds SET n = 7 WHERE kind = 0")
        let counted = try SQLiteStore.open(p, readOnly: true).get()
        XCTAssertEqual(counted.checkAll().count, 1, "a kept count that is not the rows' is named")
        counted.close()
    }

    /// Backup: a copy as of one moment, a single file with no -wal, that reads as the store.
    func testBackupIsACompleteCopy() throws {
        let p = try makeStore("k.db")
        let db = try SQLiteStore.open(p).get()
        let b = path("k-backup.db")
        XCTAssertNoThrow(try db.backup(to: b).get())
        if case .success = db.backup(to: b) { XCTFail("a backup never replaces a file") }
        db.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: b + "-wal"))
        let copy = try SQLiteStore.open(b, readOnly: true).get()
        XCTAssertEqual(copy.checkAll(), [])
        XCTAssertEqual(copy.tasks(.all).map(\.title), ["one", "two", "three"])
        XCTAssertEqual(copy.history.undoStack.count, 5)
        copy.close()
    }

    /// The JSON file ends with the checksum of its bytes: as written it matches, a changed
    /// letter or a member added after it is read as it is with the notice W0002, and the next
    /// write gives it a new checksum. A file without one (hand-made) reads without a word.
    func testTheJSONChecksum() throws {
        let p = path("j.json")
        let db = try JSONStore.open(p).get()
        XCTAssertFalse(run(session(db), "add one").failed)
        XCTAssertEqual(try JSONStore.open(p).get().store.checksum, .matches)
        var text = String(decoding: bytes(p), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"one\"", with: "\"onx\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        let edited = try JSONStore.open(p).get()
        XCTAssertEqual(edited.store.checksum, .differs)
        XCTAssertEqual(edited.notices.map { Catalog.store($0).code }, [.W0002])
        let s = session(edited)
        XCTAssertEqual(run(s, "list").lines.last, "1  onx", "read as it is now")
        XCTAssertFalse(run(s, "add two").failed)
        XCTAssertEqual(edited.notices.map { Catalog.store($0).code }, [], "written again, it matches")
        XCTAssertEqual(try JSONStore.open(p).get().store.checksum, .matches)
        let after = String(decoding: bytes(p), as: UTF8.self).replacingOccurrences(of: "\n}\n", with: ",\n  \"late\": 1\n}\n")
        try Data(after.utf8).write(to: URL(fileURLWithPath: p))
        XCTAssertEqual(try JSONStore.open(p).get().store.checksum, .differs, "a member after the checksum is a change")
        let handMade = path("hand.json")
        try Data(#"{"format": "kept-store", "version": 1, "tasks": []}"#.utf8).write(to: URL(fileURLWithPath: handMade))
        XCTAssertEqual(try JSONStore.open(handMade).get().store.checksum, .absent)
        XCTAssertEqual(try JSONStore.open(handMade).get().notices.map { Catalog.store($0).code }, [])
    }

    /// No `try?` on a store's read path turns a failure into an empty value: the files that
    /// read stores use none at all.
    func testNoTryQuestionMarkOnTheReadPath() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/KeptStore")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("SQLite") || $0.hasPrefix("JSONStore") || $0.hasPrefix("StoreCheck") || $0.hasPrefix("StoreKind") }
        XCTAssertGreaterThanOrEqual(files.count, 7)
        for f in files {
            let text = try String(contentsOf: folder.appendingPathComponent(f), encoding: .utf8)
            for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("try?") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                XCTFail("\(f):\(k + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
    }
}
