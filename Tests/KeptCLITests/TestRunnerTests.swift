// `kept test`, the transcript runner (docs/SCRIPTS.md): failures print FAIL
// file:line and a unified diff, the last line counts passed/failed/skipped, `--update` rewrites
// the failing blocks, expected blocks take (re), (glob), `...`, <BLANKLINE> and `! CODE`
// lines, `@case` starts each case from the setup state, and a malformed transcript exits 2.
// Test mode freezes the clock (Mon 2026-06-15 09:00 Europe/Berlin) when a script sets none; the
// scripts here still set `now` and `zone` where a date matters.

import Foundation
import XCTest

final class TestRunnerTests: XCTestCase {
    /// A wrong expectation fails: exit 1, `FAIL FILE:LINE` (the line of the `> `), the command,
    /// a `--- expected` / `+++ actual` unified diff, and `0 passed, 1 failed, 0 errors, 0 skipped` as the last line.
    /// `--update` then writes the actual output into the file (exit 0), after which the same
    /// file passes with `1 passed, 0 failed, …`.
    func testFailureDiffThenUpdateThenPass() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let original = """
        # the rent, misspelled on purpose
        > add Pay rent
        Added 1 · Pay the rent

        """
        let file = try dir.write("wrong.kept", original)

        let r1 = try Kept.run(["test", file])
        XCTAssertEqual(r1.reason, .exit, r1.summary)
        XCTAssertEqual(r1.status, 1, r1.summary)
        XCTAssertEqual(r1.stdoutLines, [
            "FAIL \(file):2",
            "> add Pay rent",
            "--- expected",
            "+++ actual",
            "@@ -1,1 +1,1 @@",
            "-Added 1 · Pay the rent",
            "+Added 1 · Pay rent",
            "FAIL    \(file) (0 passed, 1 failed)",
            "0 passed, 1 failed, 0 errors, 0 skipped",
        ], r1.summary)
        XCTAssertEqual(try dir.readText("wrong.kept"), original, "kept test without --update must not touch the file")

        let r2 = try Kept.run(["test", "--update", file])
        XCTAssertEqual(r2.status, 0, r2.summary)
        XCTAssertTrue(r2.stdoutLines.contains("updated 1 expected block"), r2.summary)
        XCTAssertEqual(try dir.readText("wrong.kept"), """
        # the rent, misspelled on purpose
        > add Pay rent
        Added 1 · Pay rent

        """)

        let r3 = try Kept.run(["test", file])
        XCTAssertEqual(r3.status, 0, r3.summary)
        XCTAssertEqual(r3.stdoutLines.last, "1 passed, 0 failed, 0 errors, 0 skipped", r3.summary)
        XCTAssertEqual(r3.stdoutLines, ["ok      \(file) (1 passed, 0 failed)", "1 passed, 0 failed, 0 errors, 0 skipped"], r3.summary)
    }

    /// The FAIL header names the case of a failing command inside `@case`.
    func testFailureNamesItsCase() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("case-fail.kept", """
        @case "first"
        > add Buy milk
        Added 1 · Buy bread

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines.first, "FAIL \(file):2 (case \"first\")", r.summary)
        XCTAssertEqual(r.stdoutLines.last, "0 passed, 1 failed, 0 errors, 0 skipped", r.summary)
    }

    /// Every kind of expected line passes when it should: ` (re)` (PCRE2, whole line),
    /// ` (glob)`, `...` for any number of lines, `<BLANKLINE>` for an empty line, `! E0301` (any
    /// message of that code) and `! E0301 no task with id 9` (code and message).
    func testExpectedLinePatternsPass() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("patterns.kept", """
        > now 2026-06-15 09:00
        > zone Europe/Berlin
        > add Pay rent @tomorrow 15:00
        Added \\d+ · Pay rent · Tomorrow [0-9] PM (re)

        > add Call mom
        Added ? · Call * (glob)

        > show 1
        1 · Pay rent
        ...
          created  Mon Jun 15, 2026 9 AM
          uid      ????????-????-4???-????-???????????? (glob)

        > help
        Commands:
        ...
        <BLANKLINE>
        'help COMMAND' explains one; 'help settings' lists the settings; 'help errors' the error codes.

        > show 9
        ! E0301

        > complete 9
        ! E0301 no task with id 9

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, ["ok      \(file) (8 passed, 0 failed)", "8 passed, 0 failed, 0 errors, 0 skipped"], r.summary)
    }

    /// Each pattern kind also fails when it should, so the passes above mean something: a
    /// regex that does not match the whole line, a glob with a wrong literal part, a wrong
    /// error code, a wrong message, a missing <BLANKLINE>, and `...` cannot make up for a
    /// missing last line. Six failures, counted exactly.
    func testExpectedLinePatternsFail() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("patterns-fail.kept", """
        > add Pay rent
        Added \\d+ · Pay (re)

        > add Call mom
        Added ? · Phone * (glob)

        > show 9
        ! E0302

        > complete 9
        ! E0301 no task with id 8

        > help
        Commands:
        ...
        'help COMMAND' explains one; 'help settings' lists the settings; 'help errors' the error codes.
        <BLANKLINE>

        > show 1
        1 · Pay rent
        ...
          created  Tue Jun 16, 2026 9 AM

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "0 passed, 6 failed, 0 errors, 0 skipped", r.summary)
        for line in [1, 4, 7, 10, 13, 19] {
            XCTAssertTrue(r.stdoutLines.contains("FAIL \(file):\(line)"), "no FAIL for line \(line): \(r.summary)")
        }
    }

    /// `@case` cases are independent: each starts from the state of the lines before the first
    /// case, so a task added in case one is absent in case two, and ids restart from the setup's
    /// next id.
    func testCasesStartFromSetupState() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("cases.kept", """
        > add Setup task
        Added 1 · Setup task

        @case "one"
        > add Only in one
        Added 2 · Only in one

        > list
        All 2 tasks
        1  Setup task
        2  Only in one

        @case "two"
        > list
        All 1 task
        1  Setup task

        > add Second
        Added 2 · Second

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "5 passed, 0 failed, 0 errors, 0 skipped", r.summary)
    }

    /// `@skip reason` skips the next command: it is not run, not failed, its reason is a line of
    /// the summary, and it is counted in the last line as `1 skipped` (its expected block would
    /// fail if it ran).
    func testSkipIsCounted() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("skip.kept", """
        > add Pay rent
        Added 1 · Pay rent

        @skip not in this version
        > frobnicate 3
        Frobnicated

        > list
        All 1 task
        1  Pay rent

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "ok      \(file) (2 passed, 0 failed, 1 skipped)",
            "skipped \(file):5: not in this version",
            "2 passed, 0 failed, 0 errors, 1 skipped",
        ], r.summary)
    }

    /// `@format json` switches only the next command to JSON; an error in JSON mode is the
    /// error object as an output line, naming its file (here by a glob: the path varies).
    func testFormatJSONDirective() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("json.kept", """
        @format json
        > show 9
        {"error":{"code":"E0301","message":"no task with id 9","file":"*json.kept (glob)","line":2,"column":8,"help":"'list' shows the open tasks with their ids"}}

        > show 9
        ! E0301 no task with id 9

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "2 passed, 0 failed, 0 errors, 0 skipped", r.summary)
    }

    /// An unknown directive makes the script broken: exit 2, `error[E0105]` with its location,
    /// and nothing of the script runs (no passes counted).
    func testUnknownDirectiveExitsTwo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("frob.kept", """
        > add Pay rent
        Added 1 · Pay rent

        @frob
        > list
        All 1 task
        1  Pay rent

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "\(file):4:1: error[E0105]: unknown directive '@frob'",
            "ERROR   \(file)",
            "error   \(file)",
            "0 passed, 0 failed, 1 errors, 0 skipped",
        ], r.summary)
    }

    /// A line of text outside any block (after the blank line that ends one) is malformed:
    /// exit 2 with E0002 at that line.
    func testStrayLineExitsTwo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("stray.kept", """
        > add Pay rent
        Added 1 · Pay rent

        this line belongs to nothing
        > list

        """)
        let r = try Kept.run(["test", file])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stdoutLines.first?.hasPrefix("\(file):4:1: error[E0002]: line outside any command block") ?? false, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "0 passed, 0 failed, 1 errors, 0 skipped", r.summary)
        // `kept run` refuses the same transcript with the same diagnostic and exit 2.
        let run = try Kept.run(["run"] + Kept.clock + ["--errors", "short", file])
        XCTAssertEqual(run.status, 2, run.summary)
        XCTAssertEqual(run.stdout, "", run.summary)
        XCTAssertTrue(run.stderr.hasPrefix("\(file):4:1: error[E0002]"), run.summary)
    }

    /// A folder is searched recursively for `.kept` files (other files ignored), scripts are
    /// reported in sorted order, and the totals add up over all of them; one failing script
    /// makes the whole run exit 1.
    func testFolderOfScripts() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try FileManager.default.createDirectory(at: dir.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try dir.write("b.kept", "> add B\nAdded 1 · B\n")
        try dir.write("sub/a.kept", "> add A\nAdded 1 · A\n\n> list\nAll 1 task\n1  A\n")
        try dir.write("c.kept", "> add C\nAdded 1 · not C\n")
        try dir.write("notes.txt", "> add Ignored\nAdded 1 · wrong\n")
        let r = try Kept.run(["test", "-j", "2", dir.url.path])
        XCTAssertEqual(r.status, 1, r.summary)
        let statusLines = r.stdoutLines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("FAIL ") && $0.hasSuffix(")") }
        XCTAssertEqual(statusLines, [
            "ok      \(dir.path("b.kept")) (1 passed, 0 failed)",
            "FAIL    \(dir.path("c.kept")) (0 passed, 1 failed)",
            "ok      \(dir.path("sub/a.kept")) (2 passed, 0 failed)",
        ], r.summary)
        XCTAssertEqual(r.stdoutLines.last, "3 passed, 1 failed, 0 errors, 0 skipped", r.summary)
    }

    /// A path with no scripts is an error (E0309, exit 2).
    func testPathWithoutScriptsExitsTwo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let r = try Kept.run(["test", dir.path("missing")])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stderr, "error[E0309]: no .kept scripts at '\(dir.path("missing"))'\n", r.summary)
        XCTAssertEqual(r.stdoutLines.last, "0 passed, 0 failed, 1 errors, 0 skipped", r.summary)
    }

    /// `--update` must produce a file that then passes. Output that holds a line break (a
    /// description set with `\\n`, which the lexer turns into a newline) has to survive the
    /// round trip: after `--update`, `kept test` on the same file must exit 0.
    func testUpdateRoundTripsMultilineOutput() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("multiline.kept", """
        > add Call mom
        Added 1 · Call mom

        > set 1 description "first\\n\\nthird"

        """)
        let r1 = try Kept.run(["test", "--update", file])
        XCTAssertEqual(r1.status, 0, r1.summary)
        let r2 = try Kept.run(["test", file])
        let now = try dir.readText("multiline.kept")
        XCTAssertEqual(r2.status, 0, "after --update the transcript should pass; file now:\n\(now)\n\(r2.summary)")
        XCTAssertEqual(r2.stdoutLines.last, "2 passed, 0 failed, 0 errors, 0 skipped", r2.summary)
    }

    /// `--report junit` read back by xml.etree, `--report tap` by a strict line check, a report
    /// on stdout beside the human output on stderr, the progress line, and `-j 1` and `-j 2` on
    /// examples/ giving the same reports (their wall times printed): Tests/runner/reports.py.
    func testReportsReadBack() throws {
        try Kept.runDriver("Tests/runner/reports.py")
    }

    /// A script's result (and its TAP points) is printed as soon as it and those before it are
    /// done: the first script's line arrives while the second waits for its store on a named
    /// pipe, with -j 1 and -j 2 (Tests/runner/streaming.py).
    func testResultsStreamAsEachScriptFinishes() throws {
        try Kept.runDriver("Tests/runner/streaming.py")
    }
}
