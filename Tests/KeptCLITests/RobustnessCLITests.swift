// Issue 20 through the real binary: the reproducers that need a process, a device, a pipe or the
// command line's own bytes (`cli-…` cases); the engine's are in KeptCoreTests/RobustnessTests.

import Foundation
import XCTest
@testable import KeptCLI
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

final class RobustnessCLITests: XCTestCase {
    /// cli-01: the overflow reproducers are coded errors, exit 1, and the run goes on to the
    /// next command (one used to end the process with SIGILL).
    func testOverflowsAreErrorsAndTheRunGoesOn() throws {
        let r = try Kept.run(["run"] + Kept.clock + [
            "-e", "date 1.1.99999999999999999999", "-e", "add x @1/1/99999999999999999999",
            "-e", "list estimate < 99999999999999999999m", "-e", "count created > -2000000000000000000w", "-e", "add still here",
        ])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdout, "Added 1 · still here\n", r.summary)
        XCTAssertEqual(r.stderrLines.dropLast().map { String($0.split(separator: " ")[1].prefix(12)) },
                       ["error[E0225]", "error[E0225]", "error[E0007]", "error[E0007]"], r.summary)
        XCTAssertEqual(r.stderrLines.last, Kept.noStoreNote, "the run had no store to write (R-HOME-2)")
    }

    /// cli-02: one such transcript no longer ends a whole `kept test` run: the other files get
    /// their report.
    func testATranscriptWithAnOverflowDoesNotEndTheRun() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try dir.write("a.kept", "> date 1.1.99999999999999999999\nFri Jan 1, 2027\n")
        try dir.write("b.kept", "> add x\nAdded 1 · x\n")
        let r = try Kept.run(["test", "-j", "2", dir.url.path])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stdout.contains("+! E0225 '1.1.99999999999999999999' is after 9999-12-31, the last day of the calendar"), r.summary)
        XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix("ok") && $0.contains("b.kept") }, r.summary)
    }

    /// cli-03: `kept run /dev/zero` and `--store /dev/zero` stop at once (they grew past 3.5 GB).
    func testDevicesAreRefusedUnread() throws {
        let a = try Kept.run(["run", "/dev/zero"], timeout: 10)
        XCTAssertFalse(a.timedOut, a.summary)
        XCTAssertEqual(a.status, 2, a.summary)
        XCTAssertEqual(a.stderr, "error[E0309]: could not read '/dev/zero': it is a device, not a file\n", a.summary)
        let b = try Kept.run(["run", "--store", "/dev/zero", "-e", "list"], timeout: 10)
        XCTAssertFalse(b.timedOut, b.summary)
        XCTAssertEqual(b.status, 2, b.summary)
        XCTAssertTrue(b.stderr.hasPrefix("error[E0228]: could not read the store '/dev/zero': it is a device, not a file"), b.summary)
    }

    /// cli-04: piped REPL input past the statement size is unreadable input (exit 2), its rest
    /// dropped as it comes: `kept repl < /dev/zero` ends.
    func testAnEndlessLineEndsTheRepl() throws {
        let (status, err) = try Kept.shell("exec \"$0\" repl < /dev/zero")
        XCTAssertEqual(status, 2)
        XCTAssertTrue(err.contains("error[E0004]: a line is longer than 1,048,576 bytes"), err)
    }

    /// cli-05: a script past the script size is E0005, and nothing of it runs.
    func testAScriptPastTheLimitIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        var big = Data("add first\n".utf8)
        big.append(Data(repeating: 0x61, count: Limits.scriptBytes))
        let path = try dir.write("big.kept", big)
        let r = try Kept.run(["run", path])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertTrue(r.stderr.hasPrefix("error[E0005]: '\(path)' is larger than 67,108,864 bytes, the script size limit"), r.summary)
    }

    /// cli-06: invalid UTF-8 given with `-e` gets E0003 as a script does (it was stored as U+FFFD).
    func testInvalidUTF8WithDashEIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("s.json")
        let (status, err) = try Kept.shell("exec \"$0\" run --store \"$1\" --write -e \"$(printf 'add caf\\351')\" -e 'add ok'", [store])
        XCTAssertEqual(status, 2)
        XCTAssertEqual(err, "-e:1:8: error[E0003]: the source is not valid UTF-8\n")
        let written = try dir.readText("s.json")
        XCTAssertFalse(written.contains("\u{FFFD}"), written)
        XCTAssertTrue(written.contains(#""title":"ok""#), written)
        // The command line keeps each -e argument's bytes by its place.
        if case .success(.run(_, let sources)) = CommandLineOptions.parse(["run", "-e", "x", "-e", "y"], raw: [Array("run".utf8), Array("-e".utf8), [0x78], Array("-e".utf8), [0xFF]]) {
            XCTAssertEqual(sources, [.expression("x", bytes: [0x78]), .expression("y", bytes: [0xFF])])
        } else {
            XCTFail("parse")
        }
    }

    /// cli-07: a store whose titles send escape sequences prints them escaped.
    func testAStoreCannotDriveTheTerminal() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", #"{"tasks": [{"id": 1, "title": "\u001b]0;owned\u0007\u001b[2J"}]}"#)
        let r = try Kept.run(["run", "--store", store, "-e", "list"])
        XCTAssertEqual(r.stdout, "All 1 task\n1  \\e]0;owned\\u0007\\e[2J\n", r.summary)
        XCTAssertFalse(r.stdoutData.contains(0x1B), r.summary)
        let j = try Kept.run(["run", "--store", store, "--format", "json", "-e", "show 1 title"])
        XCTAssertTrue(j.stdout.contains(#"\u001b]0;owned\u0007\u001b[2J"#), j.summary)
    }

    /// cli-08: the regex reproducer over a store on two threads stops with its error.
    func testTheBacktrackingQueryStops() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let tasks = (1...20_010).map { #"{"id":\#($0),"title":"Quiocogriox gro lunch teawas plan braiwedrix kitchen","status":"open","createdAt":"2026-06-01T08:00:00Z"}"# }
        let store = try dir.write("s.json", "{\"tasks\": [\n" + tasks.joined(separator: ",\n") + "\n]}\n")
        let r = try Kept.run(["run", "--store", store, "-e", #"count status:any title ~ /^(\w+\s?)*\d$/"#], timeout: 30)
        XCTAssertFalse(r.timedOut, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.hasPrefix(#"-e:1:26: error[E0226]: the pattern /^(\w+\s?)*\d$/ ran past its budget"#), r.summary)
    }

    /// cli-10: the live colouring parses the line as it is typed, character by character: no
    /// prefix of the reproducers may crash it (the REPL died mid-line).
    func testLiveColouringSurvivesEveryPrefix() {
        let session = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(date: .earliest, time: .midnight)), defaultZone: .utc)
        let h = CaptureHighlighter(session: session)
        for line in ["add x @1/1/99999999999999999999", "add x @in 9999999999 days", "capture x in 99999999999999999999 days",
                     "add x every 99999999999999999999 days", "parse x @99999999999999999999m", "add x start:1.1.99999999999999"] {
            let b = Array(line.utf8)
            for n in 0...b.count { _ = h.highlight(Array(b[..<n]), cursor: n) }
        }
    }

    /// cli-09: a transcript block of 100,000 lines with `...`, and a glob of 100,000 characters,
    /// match without recursion (they reached the stack's end).
    func testLongBlocksMatchWithoutRecursion() {
        let actual = (0..<100_000).map { "line \($0)" }
        XCTAssertTrue(ExpectedOutput(["line 0", "..."] + actual.suffix(2)).matches(actual, unordered: false), "cli-09")
        XCTAssertTrue(ExpectedOutput(actual).matches(actual, unordered: false), "cli-09")
        XCTAssertFalse(ExpectedOutput(["...", "line 5", "..."] + ["missing"]).matches(actual, unordered: false), "cli-09")
        let long = String(repeating: "ab", count: 50_000)
        XCTAssertTrue(ExpectedLine.glob(Array(("*" + String(repeating: "a?", count: 50_000)).unicodeScalars), Array(long.unicodeScalars)))
        XCTAssertFalse(ExpectedLine.glob(Array((String(repeating: "*a", count: 2_000) + "c").unicodeScalars), Array(long.unicodeScalars)))
        // The glob rules as before: `*` any run, `?` one character, `\` escapes.
        for (p, s, want) in [("a*c", "abbbc", true), ("a?c", "abc", true), ("a?c", "ac", false), (#"a\*c"#, "a*c", true), (#"a\*c"#, "abc", false),
                             ("*", "", true), ("", "", true), ("", "a", false), ("**b", "ab", true), (#"x\"#, #"x\"#, true)] {
            XCTAssertEqual(ExpectedLine.glob(Array(p.unicodeScalars), Array(s.unicodeScalars)), want, "\(p) ~ \(s)")
        }
    }
}
