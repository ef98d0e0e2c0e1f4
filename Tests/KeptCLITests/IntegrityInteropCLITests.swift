// Issue 28's import, store-identity and text reproducers through the real binary: exit codes,
// what reaches stdout and stderr, and what is left on disk. The engine's cases are in
// KeptCoreTests/IntegrityInteropTests.

import Foundation
import XCTest

final class IntegrityInteropCLITests: XCTestCase {
    static let bom = Data([0xEF, 0xBB, 0xBF])

    /// F10: the Taskwarrior file ended `kept import` with SIGILL (exit 132). It is
    /// E0604 at the value, exit 1, and the store is not written.
    func testAnEstimateOf1e19IsACodedRefusal() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("t.tw.json", "[{\"uuid\":\"3e065567-25cc-4ac6-a655-94046de63f0a\",\"description\":\"x\",\"status\":\"pending\",\"estimate\":1e19}]")
        let r = try Kept.run(["import", file, "--store", dir.path("s.json")] + Kept.clock)
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0604]"), r.summary)
        XCTAssertTrue(r.stderr.contains("line 1, column 97"), r.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("s.json")), "nothing was written")
    }

    /// F4: with task 2's uid set to task 1's, `kept convert c.json c.db` reported 2 tasks and
    /// the new store counted 1. The store is refused (E0308, exit 2) naming both ids and the
    /// uid, by `convert` and by `run`, and no database is made.
    func testAJSONStoreWithOneUIDTwiceIsRefusedNotConverted() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("c.json")
        let made = try Kept.run(["run", "--store", store, "--write", "-e", "add one", "-e", "add two"] + Kept.clock)
        XCTAssertEqual(made.status, 0, made.summary)
        var text = try dir.readText("c.json")
        // Each task's uid, once (the undo history holds them again).
        var uids: [String] = []
        for m in text.matches(of: /"uid":"([0-9a-f-]{36})"/) where !uids.contains(String(m.output.1)) { uids.append(String(m.output.1)) }
        XCTAssertEqual(uids.count, 2)
        text = text.replacingOccurrences(of: uids[1], with: uids[0])
        try dir.write("c.json", text)
        let before = try dir.read("c.json")
        let c = try Kept.run(["convert", store, dir.path("c.db")])
        XCTAssertEqual(c.reason, .exit, c.summary)
        XCTAssertEqual(c.status, 2, c.summary)
        XCTAssertTrue(c.stderr.contains("error[E0308]"), c.summary)
        XCTAssertTrue(c.stderr.contains("c.json"), c.summary)
        XCTAssertTrue(c.stderr.contains("tasks 1 and 2 have the same uid \(uids[0])"), c.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("c.db")), "no database was made")
        let run = try Kept.run(["run", "--store", store, "--write", "-e", "count status:any"] + Kept.clock)
        XCTAssertEqual(run.status, 2, run.summary)
        XCTAssertTrue(run.stderr.contains("a uid names one task"), run.summary)
        XCTAssertEqual(try dir.read("c.json"), before, "the store is left as it was")
    }

    /// A script, a transcript and piped input that start with a UTF-8 BOM (as Notepad saves
    /// them) failed with E0101 on a character no one could see; the BOM is skipped.
    func testABOMBeforeAScriptOrATranscriptIsSkipped() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let script = try dir.write("plain.kept", Self.bom + Data("add Pay rent\nlist\n".utf8))
        let r = try Kept.run(["run", script] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, ["Added 1 · Pay rent", "All 1 task", "1  Pay rent"], r.summary)
        let transcript = try dir.write("t.kept", Self.bom + Data("> add Pay rent\nAdded 1 · Pay rent\n".utf8))
        let t = try Kept.run(["test", transcript])
        XCTAssertEqual(t.status, 0, t.summary)
        let stdin = try Kept.run(["run", "-"] + Kept.clock, stdin: Self.bom + Data("add Pay rent\n".utf8))
        XCTAssertEqual(stdin.status, 0, stdin.summary)
        XCTAssertEqual(stdin.stdoutLines, ["Added 1 · Pay rent"], stdin.summary)
        let piped = try Kept.run(["repl"] + Kept.clock, stdin: Self.bom + Data("> add Pay rent\nAdded 1 · Pay rent\n".utf8))
        XCTAssertEqual(piped.status, 0, piped.summary)
        XCTAssertEqual(piped.stdoutLines, ["Added 1 · Pay rent"], piped.summary)
        // Only at the very start: one before a later line is still that line's.
        let later = try dir.write("later.kept", Data("add a\n".utf8) + Self.bom + Data("add b\n".utf8))
        let l = try Kept.run(["run", later] + Kept.clock)
        XCTAssertEqual(l.status, 1, l.summary)
        XCTAssertTrue(l.stderr.contains("later.kept:2:1"), l.summary)
    }

    /// `list limit -1` printed "Nothing matches"; it is E0102 with the caret under `-1`.
    func testListLimitMinusOneIsAnError() throws {
        let r = try Kept.run(["run", "--errors", "rich", "-e", "add a", "-e", "list limit -1"] + Kept.clock)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines, ["Added 1 · a"], r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0102]: expected a whole number of rows after 'limit'"), r.summary)
        XCTAssertTrue(r.stderr.contains(" 1 | list limit -1\n   |            ^^ found '-1'"), r.summary)
    }

    /// A title with a right-to-left override is listed with the escape, and exported as it is.
    func testAnOverrideInATitleIsEscapedInTextOnly() throws {
        let r = try Kept.run(["run", "-e", "add Invoice \u{202E}fdp.exe", "-e", "list", "-e", "export - as jsonl"] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(Array(r.stdoutLines.prefix(3)), ["Added 1 · Invoice \\u202efdp.exe", "All 1 task", "1  Invoice \\u202efdp.exe"], r.summary)
        XCTAssertFalse(r.stdoutLines.prefix(3).joined().unicodeScalars.contains("\u{202E}"), r.summary)
        XCTAssertTrue(r.stdoutLines.last?.contains("\"title\":\"Invoice \u{202E}fdp.exe\"") ?? false, r.summary)
    }

    /// An import whose records are each other's parents says so.
    func testAParentLoopOfAnImportIsReported() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let a = "3e065567-25cc-4ac6-a655-94046de63f0a", b = "1c8f6d2f-4a2b-4d3c-8e5f-6a7b8c9d0e1f"
        let file = try dir.write("loop.jsonl", "{\"uid\":\"\(a)\",\"title\":\"A\",\"parentUid\":\"\(b)\"}\n{\"uid\":\"\(b)\",\"title\":\"B\",\"parentUid\":\"\(a)\"}\n")
        let r = try Kept.run(["import", file, "--store", dir.path("s.json")] + Kept.clock)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdoutLines.contains("Parent left out, it would make a loop of subtasks: 1 · A under 2 · line 1"), r.summary)
    }
}
