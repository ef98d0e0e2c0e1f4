// A bulk delete asks first (R-TASK-5): the engine reports what it would delete, and each front
// end decides. `kept run` and `kept test` refuse it (E0318) unless `--yes` or `@yes` confirmed
// it; the REPL asks "Delete N tasks …? [y/N]" through its line editor.

import Foundation
import XCTest

final class ConfirmationTests: XCTestCase {
    static let setup = ["-e", "add Buy milk #errand", "-e", "subtask 1 Find the bag", "-e", "add Post the letter #errand", "-e", "add Read"]

    /// R-TASK-5: `kept run` without --yes refuses a bulk delete with E0318, lists what it would
    /// delete, exits 1 and leaves the store file as it was; with --yes it deletes.
    func testRunRefusesABulkDeleteWithoutYes() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", #"{"tasks": []}"#)
        let r0 = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + Self.setup)
        XCTAssertEqual(r0.status, 0, r0.summary)
        let before = try dir.read("s.json")
        let r1 = try Kept.run(["run", "--store", store, "--write", "--errors", "rich"] + Kept.clock + ["-e", "delete where #errand", "-e", "count"])
        XCTAssertEqual(r1.status, 1, r1.summary)
        XCTAssertEqual(r1.stdoutLines, ["All 4 tasks"], r1.summary)
        XCTAssertEqual(r1.stderrLines.first, "error[E0318]: 'delete where #errand' would delete 2 tasks and 1 subtask", r1.summary)
        XCTAssertTrue(r1.stderr.contains("^^^^^^^ these tasks would be deleted"), r1.summary)
        XCTAssertTrue(r1.stderr.contains("= note: would delete: 1 · Buy milk"), r1.summary)
        XCTAssertTrue(r1.stderr.contains("pass --yes to 'kept run'"), r1.summary)
        XCTAssertEqual(try dir.read("s.json"), before, "a refused bulk delete leaves the store as it was")
        // A single delete and a bulk delete that matches nothing need no confirmation.
        let r2 = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "delete 4", "-e", "delete where #nothing"])
        XCTAssertEqual(r2.status, 0, r2.summary)
        let r3 = try Kept.run(["run", "--store", store, "--write", "--yes"] + Kept.clock + ["-e", "delete where #errand", "-e", "count"])
        XCTAssertEqual(r3.status, 0, r3.summary)
        XCTAssertEqual(r3.stdoutLines, ["Deleted 2 tasks where #errand:", "  1 · Buy milk with 1 subtask", "  3 · Post the letter", "All 1 task"], r3.summary)
    }

    /// The JSON form of the refusal is the usual error object.
    func testRunRefusalInJSON() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + ["-e", "add Milk #errand", "-e", "delete where #errand"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines.last.map { $0.hasPrefix(#"{"error":{"code":"E0318","#) }, true, r.summary)
    }

    /// R-TASK-5: input piped into the REPL is a script, read as `kept run` reads it, so a bulk
    /// delete there is refused without --yes, exactly as `kept run` refuses it; with --yes it
    /// runs. (On a terminal the REPL asks through readline: Tests/pty/repl_pty.py answers no,
    /// then yes, and checks the recording replays with `@yes`.)
    func testPipedREPLInputNeedsYesAsAScriptDoes() throws {
        // The refusal is an error, so piped input stops there (issue 8), after printing what
        // kept run prints up to it.
        let script = "add Milk #errand\nadd Stamps #errand\ndelete where #errand\n"
        let repl = try Kept.run(["repl"] + Kept.clock, stdin: Data((script + "count\n").utf8))
        let run = try Kept.run(["run"] + Kept.clock, stdin: Data(script.utf8))
        XCTAssertEqual(repl.status, 1, repl.summary)
        XCTAssertEqual(repl.stdout, run.stdout, repl.summary)
        // Each ends with its own note that it had no store to write (R-HOME-2, R-HOME-3).
        XCTAssertEqual(repl.stderrLines.dropLast(), run.stderrLines.dropLast(), repl.summary)
        XCTAssertEqual(repl.stderrLines.last, REPLTests.pipedNoStoreNote, repl.summary)
        XCTAssertEqual(run.stderrLines.last, Kept.noStoreNote, run.summary)
        XCTAssertEqual(repl.stdoutLines.last, "Added 2 · Stamps · #errand", repl.summary)
        XCTAssertTrue(repl.stderr.contains("E0318"), repl.summary)
        let yes = try Kept.run(["repl", "--yes"] + Kept.clock, stdin: Data("add Milk #errand\ndelete where #errand\ncount\n".utf8))
        XCTAssertEqual(yes.stdoutLines, ["Added 1 · Milk · #errand", "Deleted 1 task where #errand:", "  1 · Milk", "All 0 tasks"], yes.summary)
    }

    /// `kept test`: a transcript expects the refusal, or confirms one command with `@yes`;
    /// `kept test --yes` confirms them all.
    func testTranscriptsConfirmWithYes() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let script = """
        > add Milk #errand
        Added 1 · Milk · #errand
        > delete where #errand
        ! E0318 'delete where #errand' would delete 1 task

        @yes
        > delete where #errand
        Deleted 1 task where #errand:
          1 · Milk

        """
        let file = try dir.write("bulk.kept", script)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "3 passed, 0 failed, 0 errors, 0 skipped", r.summary)
        // With --yes the first delete goes through, so neither expectation after it holds.
        let all = try Kept.run(["test", "--yes", file])
        XCTAssertEqual(all.status, 1, all.summary)
        XCTAssertEqual(all.stdoutLines.last, "1 passed, 2 failed, 0 errors, 0 skipped", all.summary)
        // `kept run` reads @yes in a transcript the same way.
        let run = try Kept.run(["run"] + Kept.clock + [file])
        XCTAssertEqual(run.status, 1, run.summary)
        XCTAssertEqual(run.stdoutLines, ["Added 1 · Milk · #errand", "Deleted 1 task where #errand:", "  1 · Milk"], run.summary)
    }
}
