// The reproducers of the store damage report, through the real binary (docs/STORE.md, "Damage",
// "Checking a store", "Copying and restoring a store"): a damaged SQLite row, a copy taken after
// kept exits, another database's -wal, an empty file, a missing source, salvage, check, backup.
// covers: R-STORE-2, R-STORE-4

import Foundation
import XCTest

final class StoreIntegrityCLITests: XCTestCase {
    /// sqlite3 as a user would run it on the file.
    func sqlite(_ file: String, _ statement: String) throws {
        let r = try Kept.runProgram(["sqlite3", file, statement])
        XCTAssertEqual(r.status, 0, r.output)
    }

    func bytes(_ file: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }

    /// F1: `update tasks set record='{' where id=2`: the run and convert fail with E0332 naming
    /// the store and the row, exit 2; convert writes nothing; `--salvage` copies the two sound tasks
    /// and names the third; check lists it.
    func testADamagedRowIsNeverAnEmptyStore() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let a = dir.path("a.db")
        XCTAssertEqual(try Kept.run(["run", "--store", a, "--write", "-e", "add one", "-e", "add two", "-e", "add three"]).status, 0)
        try sqlite(a, "update tasks set record='{' where id=2")
        let r = try Kept.run(["run", "--store", a, "-e", "count status:any", "-e", "list status:any"])
        XCTAssertEqual(r.status, 2, r.summary)
        // A store this small is checked whole when opened: refused before any statement runs.
        XCTAssertEqual(r.stdoutLines, [], "nothing is answered from part of the store")
        XCTAssertTrue(r.stderr.contains("error[E0332]") && r.stderr.contains("tasks row id 2") && r.stderr.contains("a.db"), r.stderr)
        let c = try Kept.run(["convert", a, dir.path("a.json")])
        XCTAssertEqual(c.status, 2, c.summary)
        XCTAssertTrue(c.stderr.contains("E0332"), c.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("a.json")), "nothing is written from a damaged store")
        let s = try Kept.run(["convert", "--salvage", a, dir.path("s.json")])
        XCTAssertEqual(s.status, 0, s.summary)
        XCTAssertEqual(s.stdoutLines, ["Salvaged \(a) to \(dir.path("s.json")) (JSON) · 2 tasks · 1 damaged item left out:",
                                       "  tasks row id 2: its record does not match its checksum"])
        let check = try Kept.run(["check", a])
        XCTAssertEqual(check.status, 2, check.summary)
        XCTAssertEqual(check.stdoutLines, ["\(a) (SQLite) is damaged · 2 tasks sound · 1 damaged item:",
                                           "  tasks row id 2: its record does not match its checksum"])
        let undo = try Kept.run(["run", "--store", a, "--write", "-e", "undo"])
        XCTAssertEqual(undo.status, 2, "nothing is written to a store found damaged: \(undo.summary)")
    }

    /// F2: after kept exits the file holds everything: a copy of it alone reads every task, and
    /// no -wal is left.
    func testACopyTakenAfterKeptExitsHasEverything() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let b = dir.path("b.db")
        XCTAssertEqual(try Kept.run(["run", "--store", b, "--write", "-e", "add important"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: b + "-wal"))
        try FileManager.default.copyItem(atPath: b, toPath: dir.path("c.db"))
        XCTAssertEqual(try Kept.run(["run", "--store", dir.path("c.db"), "-e", "count status:any"]).stdoutLines, ["1 of 1"])
    }

    /// F3: a good store with another database's -wal beside it is refused with E0333 and stays
    /// byte for byte, the -wal too; with the -wal moved away it opens.
    func testAnotherDatabasesWALIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let g = dir.path("g.db")
        let script = try dir.write("adds.kept", (1...200).map { "add task \($0) with a title long enough to fill pages\n" }.joined())
        XCTAssertEqual(try Kept.run(["run", "--store", g, "--write", script]).status, 0)
        let other = dir.path("other.db")
        // The other database keeps its -wal while sqlite3 runs; a copy is taken from inside.
        let r = try Kept.runProgram(["sqlite3", other, "pragma journal_mode=wal;", "create table t(x);",
                                     "insert into t values (randomblob(5000));", ".shell cp \(other)-wal \(g)-wal"])
        XCTAssertEqual(r.status, 0, r.output)
        let before = bytes(g), wal = bytes(g + "-wal")
        XCTAssertGreaterThan(wal.count, 0)
        let w = try Kept.run(["run", "--store", g, "--write", "-e", "add z"])
        XCTAssertEqual(w.status, 2, w.summary)
        XCTAssertTrue(w.stderr.contains("error[E0333]"), w.stderr)
        XCTAssertEqual(bytes(g), before)
        XCTAssertEqual(bytes(g + "-wal"), wal)
        try FileManager.default.removeItem(atPath: g + "-wal")
        XCTAssertEqual(try Kept.run(["run", "--store", g, "-e", "count"]).stdoutLines, ["All 200 tasks"])
    }

    /// A 0-byte `.db` is a store that lost its bytes: refused, not taken as new.
    func testAnEmptyDatabaseFileIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let e = try dir.write("e.db", Data())
        let r = try Kept.run(["run", "--store", e, "--write", "-e", "add x"])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("E0327") && r.stderr.contains("empty"), r.stderr)
        XCTAssertEqual(bytes(e).count, 0)
    }

    /// `kept convert does-not-exist.json out.db` is an error, not "0 tasks".
    func testConvertOfAMissingStoreIsAnError() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let r = try Kept.run(["convert", dir.path("does-not-exist.json"), dir.path("out.db")])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("E0308") && r.stderr.contains("does-not-exist.json"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out.db")))
    }

    /// `kept backup` copies a SQLite store with the backup API and a JSON store whole; the copy
    /// checks sound; an existing target is never replaced.
    func testBackupAndCheck() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        for name in ["s.db", "s.json"] {
            let store = dir.path(name)
            XCTAssertEqual(try Kept.run(["run", "--store", store, "--write", "-e", "add one", "-e", "add two"]).status, 0)
            let copy = dir.path("copy-" + name)
            let b = try Kept.run(["backup", store, copy])
            XCTAssertEqual(b.status, 0, b.summary)
            XCTAssertEqual(try Kept.run(["check", copy]).status, 0)
            XCTAssertEqual(try Kept.run(["run", "--store", copy, "-e", "count"]).stdoutLines, ["All 2 tasks"])
            let again = try Kept.run(["backup", store, copy])
            XCTAssertEqual(again.status, 64, again.summary)
        }
        let missing = try Kept.run(["check", dir.path("nothing.db")])
        XCTAssertEqual(missing.status, 2)
    }

    /// A JSON store edited after Kept wrote it reads as it is, with W0002 once on standard error
    /// (in JSON too); check says so with exit 1.
    func testAnEditedJSONStoreIsSaidOnce() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let j = dir.path("j.json")
        XCTAssertEqual(try Kept.run(["run", "--store", j, "--write", "-e", "add one"]).status, 0)
        let text = String(decoding: bytes(j), as: UTF8.self).replacingOccurrences(of: "\"one\"", with: "\"won\"")
        try Data(text.utf8).write(to: URL(fileURLWithPath: j))
        let r = try Kept.run(["run", "--store", j, "-e", "list", "-e", "count"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stderr.components(separatedBy: "warning[W0002]").count, 2, r.stderr)
        XCTAssertEqual(r.stdoutLines, ["All 1 task", "1  won", "All 1 task"])
        // In JSON the notice stays on standard error: stdout keeps one object per statement.
        let json = try Kept.run(["run", "--store", j, "--format", "json", "-e", "count", "-e", "count"])
        XCTAssertEqual(json.stdoutLines, [#"{"count":1,"total":1}"#, #"{"count":1,"total":1}"#])
        XCTAssertTrue(json.stderr.contains("W0002"), json.stderr)
        XCTAssertEqual(try Kept.run(["check", j]).status, 1)
    }
}
