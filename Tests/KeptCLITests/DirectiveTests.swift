// Transcript directives and selection through the real `kept test` (docs/SCRIPTS.md): `@skip`
// and `@xfail` for one command, a case or the file, with their reasons in the summary and an
// unexpected pass failing; `@unordered` as a multiset by a maximum matching; `@format json`
// compared as values; `-k`, `PATH:LINE`, `--fail-fast` and `--max-failures`.

import Foundation
import XCTest

final class DirectiveTests: XCTestCase {
    /// Runs `kept test ARGS FILE` on one script written to a temporary folder.
    func test(_ text: String, _ args: [String] = [], name: String = "t.kept") throws -> (KeptRun, String) {
        let dir = try TempDir()
        addTeardownBlock { dir.cleanUp() }
        let file = try dir.write(name, text)
        return (try Kept.run(["test"] + args + [file]), file)
    }

    /// `@skip` right above a command skips it; standing alone (a blank line after it) before the
    /// file's first command it skips the file, after `@case` the case. Skipped commands do not
    /// run (their blocks would fail), are counted, and each reason is a line of the summary.
    func testSkipCoversCommandCaseAndFile() throws {
        let (r, file) = try test("""
        > add Pay rent
        Added 1 · Pay rent

        @skip "not in this version"
        > frobnicate 3
        Frobnicated

        @case "slow"
        @skip too slow for CI

        > add A
        wrong

        > list
        wrong

        @case "fast"
        > list
        All 1 task
        1  Pay rent

        """)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "ok      \(file) (2 passed, 0 failed, 3 skipped)",
            "skipped \(file):5: not in this version",
            "skipped \(file):9 (case \"slow\"): too slow for CI",
            "2 passed, 0 failed, 0 errors, 3 skipped",
        ], r.summary)

        let (whole, wfile) = try test("""
        # needs a later version
        @skip "the SQLite backend"

        > frobnicate
        nope

        @case "a"
        > frobnicate
        nope

        """)
        XCTAssertEqual(whole.status, 0, whole.summary)
        XCTAssertEqual(whole.stdoutLines, [
            "ok      \(wfile) (0 passed, 0 failed, 2 skipped)",
            "skipped \(wfile): the SQLite backend",
            "0 passed, 0 failed, 0 errors, 2 skipped",
        ], whole.summary)
    }

    /// `@xfail` above a command: it runs, its failure is expected (exit 0, `1 xfailed`, the
    /// reason in the summary, no diff); when it passes that is a failure (XPASS, exit 1).
    func testXfailOfACommand() throws {
        let (r, file) = try test("> add Pay rent\nAdded 1 · Pay rent\n\n@xfail \"month-end bug\"\n> show 1 title\nPay the rent\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "ok      \(file) (1 passed, 0 failed, 1 xfailed)",
            "xfail   \(file):5: month-end bug",
            "1 passed, 0 failed, 0 errors, 0 skipped, 1 xfailed",
        ], r.summary)

        let (pass, pfile) = try test("> add Pay rent\nAdded 1 · Pay rent\n\n@xfail \"month-end bug\"\n> show 1 title\nPay rent\n")
        XCTAssertEqual(pass.status, 1, pass.summary)
        XCTAssertEqual(pass.stdoutLines, [
            "XPASS \(pfile):5",
            "> show 1 title",
            "its output matched, but '@xfail' expects it to fail: month-end bug",
            "FAIL    \(pfile) (1 passed, 1 failed)",
            "1 passed, 1 failed, 0 errors, 0 skipped",
        ], pass.summary)
    }

    /// `@xfail` of a case or the file expects a failure somewhere in it: a failing command is
    /// xfailed, the others pass; a case or file in which every command passed is one failure
    /// (XPASS). `--update` leaves expected failures alone. A mark standing alone after the first
    /// command of its scope is an error of the file (E0506).
    func testXfailOfACaseAndTheFile() throws {
        let text = """
        > add Pay rent
        Added 1 · Pay rent

        @case "broken"
        @xfail "repeats of the 31st"

        > show 1 title
        Pay the rent

        > list
        All 1 task
        1  Pay rent

        @case "fixed"
        @xfail "was broken"

        > show 1 title
        Pay rent

        """
        let (r, file) = try test(text, ["--update"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "XPASS \(file):15 (case \"fixed\")",
            "every command of the case passed, but '@xfail' expects one to fail: was broken",
            "FAIL    \(file) (3 passed, 1 failed, 1 xfailed)",
            "xfail   \(file):5 (case \"broken\"): repeats of the 31st",
            "3 passed, 1 failed, 0 errors, 0 skipped, 1 xfailed",
        ], r.summary)
        XCTAssertEqual(try String(contentsOfFile: file, encoding: .utf8), text, "--update never rewrites an expected failure")

        let (f, ffile) = try test("@xfail \"the whole file\"\n\n> add Pay rent\nAdded 1 · Pay rent\n")
        XCTAssertEqual(f.status, 1, f.summary)
        XCTAssertEqual(f.stdoutLines.first, "XPASS \(ffile):1", f.summary)
        XCTAssertEqual(f.stdoutLines.last, "1 passed, 1 failed, 0 errors, 0 skipped", f.summary)

        let (late, lfile) = try test("> add Pay rent\nAdded 1 · Pay rent\n\n@xfail \"late\"\n")
        XCTAssertEqual(late.status, 2, late.summary)
        XCTAssertTrue(late.stdoutLines.first?.hasPrefix("\(lfile):4:1: error[E0506]: '@xfail' stands alone after the file's first command") ?? false, late.summary)
        XCTAssertEqual(late.stdoutLines.suffix(2), ["error   \(lfile)", "0 passed, 0 failed, 1 errors, 0 skipped"], late.summary)
    }

    /// `@unordered` matches rows as a multiset with a maximum bipartite matching: a pattern line
    /// written first may not take the line only a literal matches (first-fit fails this), two
    /// patterns that can only take one row do not both match, and a row no line takes fails
    /// unless `...` takes it.
    func testUnorderedIsAMaximumMatching() throws {
        let setup = "> add Pay rent\nAdded 1 · Pay rent\n\n> add Buy milk\nAdded 2 · Buy milk\n\n"
        // `* (glob)` first-fit would take "All 2 tasks", which the literal line needs.
        let (r, _) = try test(setup + "@unordered\n> list\n* (glob)\n\\d  Buy milk (re)\nAll 2 tasks\n")
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "3 passed, 0 failed, 0 errors, 0 skipped", r.summary)
        // Patterns before the literal they would steal from, and in the other order.
        let (p, _) = try test(setup + "@unordered\n> list\n?  * (glob)\n1  Pay rent\nAll 2 tasks\n")
        XCTAssertEqual(p.status, 0, p.summary)

        let (twice, _) = try test(setup + "@unordered\n> list\nAll 2 tasks\n1  * (glob)\n1  * (glob)\n")
        XCTAssertEqual(twice.status, 1, twice.summary)
        XCTAssertTrue(twice.stdoutLines.contains("--- expected (in any order)"), twice.summary)
        XCTAssertTrue(twice.stdoutLines.contains("+2  Buy milk"), twice.summary)
        let (left, _) = try test(setup + "@unordered\n> list\n2  Buy milk\nAll 2 tasks\n")
        XCTAssertEqual(left.status, 1, left.summary)
        XCTAssertTrue(left.stdoutLines.contains("+1  Pay rent"), left.summary)
        let (any, _) = try test(setup + "@unordered\n> list\n2  Buy milk\n...\n")
        XCTAssertEqual(any.status, 0, any.summary)
    }

    /// `@format json` compares each expected value as data: key order and white space (even a
    /// value pretty-printed over several lines) do not matter, a string may be a ` (re)` or
    /// ` (glob)` pattern, `...` stands for any lines; a different value still fails.
    func testFormatJSONComparesStructurally() throws {
        let (r, _) = try test("""
        > add Pay rent @2026-06-16 3pm
        Added 1 · Pay rent · Tomorrow 3 PM

        @format json
        > show 1 due
        {
          "due": { "time": "15:00", "date": "2026-06-16" }
        }

        @format json
        > show 1
        {"title": "Pay rent", "id": 1, "uid": "[0-9a-f-]{36} (re)", "status": "open", "due": {"date": "2026-06-16", "time": "15:00"},
         "priority": "none", "project": null, "area": null, "tags": [], "notes": [], "repeat": null, "estimate": null,
         "heldUntil": null, "completedAt": null, "createdAt": "2026-06-15T*+02:00 (glob)", "modifiedAt": "2026-06-15T09:00:00+02:00",
         "parent": null, "steps": [], "reminders": []}

        @format json
        > show 9
        ...

        """)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.last, "4 passed, 0 failed, 0 errors, 0 skipped", r.summary)

        for wrong in ["{\"due\": {\"time\": \"15:00\", \"date\": \"2026-06-17\"}}", "{\"due\": {\"time\": \"15:00\"}}",
                      "{\"due\": {\"time\": \"15:00\", \"date\": \"2026-06-16\", \"zone\": null}}",
                      "{\"due\": {\"time\": \"1? (glob)\", \"date\": \"2026-06-16\"}}", "[{\"due\": null}]"] {
            let (f, _) = try test("> add Pay rent @2026-06-16 3pm\nAdded 1 · Pay rent · Tomorrow 3 PM\n\n@format json\n> show 1 due\n\(wrong)\n")
            XCTAssertEqual(f.status, 1, "\(wrong) must not match\n\(f.summary)")
        }
    }

    /// Two scripts for the selection tests: a case that passes, a case that fails, and a file
    /// that fails twice.
    func selectionFolder() throws -> TempDir {
        let dir = try TempDir()
        addTeardownBlock { dir.cleanUp() }
        try dir.write("a.kept", """
        > add Pay rent
        Added 1 · Pay rent

        @case "list them"
        > list
        All 1 task
        1  Pay rent

        @case "count them"
        > count
        wrong

        > add Buy milk
        Added 2 · Buy milk

        """)
        try dir.write("b.kept", "> add Buy milk\nwrong\n\n> list\nwrong\n")
        return dir
    }

    /// `-k` picks by a part of `path::case` (ignoring case; `*` makes it a glob), and the lines
    /// before the first case still run to set up the state; a `-k` that picks nothing is an
    /// error (E0508, exit 2).
    func testKSelectsByPathAndCase() throws {
        let dir = try selectionFolder()
        let r = try Kept.run(["test", "-k", "LIST", dir.url.path])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, ["ok      \(dir.path("a.kept")) (1 passed, 0 failed)",
                                       "1 passed, 0 failed, 0 errors, 0 skipped, 5 deselected"], r.summary)
        let g = try Kept.run(["test", "-k", "a.kept::*them", dir.url.path])
        XCTAssertEqual(g.status, 1, g.summary)
        XCTAssertEqual(g.stdoutLines.last, "2 passed, 1 failed, 0 errors, 0 skipped, 3 deselected", g.summary)
        let b = try Kept.run(["test", "-k", "b.kept", dir.url.path])
        XCTAssertEqual(b.stdoutLines.last, "0 passed, 2 failed, 0 errors, 0 skipped, 4 deselected", b.summary)
        let none = try Kept.run(["test", "-k", "nothing", dir.url.path])
        XCTAssertEqual(none.status, 2, none.summary)
        XCTAssertTrue(none.stdoutLines.first?.hasPrefix("error[E0508]: no command matches -k nothing") ?? false, none.summary)
    }

    /// `PATH:LINE` runs the command whose `> ` line or expected block holds the line, or every
    /// command of the case whose `@case` line it is; a line in neither is E0507 (exit 2).
    func testPathLineSelectsACommandOrACase() throws {
        let dir = try selectionFolder()
        let a = dir.path("a.kept")
        let one = try Kept.run(["test", "\(a):6"])
        XCTAssertEqual(one.status, 0, one.summary)
        XCTAssertEqual(one.stdoutLines.last, "1 passed, 0 failed, 0 errors, 0 skipped, 3 deselected", one.summary)
        let later = try Kept.run(["test", "\(a):13"])   // `add Buy milk`: it needs the state `count` left
        XCTAssertEqual(later.status, 0, later.summary)
        XCTAssertEqual(later.stdoutLines.last, "1 passed, 0 failed, 0 errors, 0 skipped, 3 deselected", later.summary)
        let wholeCase = try Kept.run(["test", "\(a):9"])
        XCTAssertEqual(wholeCase.status, 1, wholeCase.summary)
        XCTAssertEqual(wholeCase.stdoutLines.first, "FAIL \(a):10 (case \"count them\")", wholeCase.summary)
        XCTAssertEqual(wholeCase.stdoutLines.last, "1 passed, 1 failed, 0 errors, 0 skipped, 2 deselected", wholeCase.summary)
        let blank = try Kept.run(["test", "\(a):3"])
        XCTAssertEqual(blank.status, 2, blank.summary)
        XCTAssertTrue(blank.stdoutLines.first?.hasPrefix("error[E0507]: no command or case at \(a):3") ?? false, blank.summary)
        let past = try Kept.run(["test", "\(a):99"])
        XCTAssertTrue(past.stdoutLines.first?.hasPrefix("error[E0507]: '\(a)' has 15 lines, not 99") ?? false, past.summary)
    }

    /// `--fail-fast` stops at the first failure: the rest of that script and the scripts after
    /// it do not run, and the summary says so; `--max-failures 2` goes on into the next script.
    func testFailFastAndMaxFailures() throws {
        let dir = try selectionFolder()
        for jobs in ["1", "2"] {
            let r = try Kept.run(["test", "--fail-fast", "-j", jobs, dir.url.path])
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertEqual(r.stdoutLines.filter { $0.hasPrefix("FAIL \(dir.url.path)") }, ["FAIL \(dir.path("a.kept")):10 (case \"count them\")"], r.summary)
            XCTAssertEqual(r.stdoutLines.suffix(3), ["FAIL    \(dir.path("a.kept")) (2 passed, 1 failed)",
                                                     "stopped after 1 failure (--fail-fast): 1 script not run",
                                                     "2 passed, 1 failed, 0 errors, 0 skipped"], r.summary)
        }
        let two = try Kept.run(["test", "--max-failures", "2", dir.url.path])
        XCTAssertEqual(two.status, 1, two.summary)
        XCTAssertEqual(two.stdoutLines.filter { $0.hasPrefix("FAIL \(dir.url.path)") }.count, 2, two.summary)
        XCTAssertEqual(two.stdoutLines.last, "3 passed, 2 failed, 0 errors, 0 skipped", two.summary)
        let bad = try Kept.run(["test", "--max-failures", "0", dir.url.path])
        XCTAssertEqual(bad.status, 64, bad.summary)
    }
}
