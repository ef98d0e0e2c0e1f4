// The command line of the real `kept` binary: diagnostics in their rich and short forms
// (docs/LANGUAGE.md "Errors"), exit codes and usage errors (docs/LANGUAGE.md "The command
// line": 0 ok, 1 a command failed, 2 unreadable script or store, 64 usage), and that a bad
// statement does not stop the ones after it.

import Foundation
import XCTest

final class CLITests: XCTestCase {
    static let usageLine = "usage: kept [repl] [--store FILE] [--now ISO] [--zone TZ] [--format text|json [--pretty]] [--errors rich|short] [--color WHEN] [--width N] [--yes]"

    // MARK: - Diagnostics

    /// The rich form of an error: `error[CODE]: message`, the `-->` location, the source line,
    /// a caret line under the whole offending word, and a `= help:` line; exit 1.
    func testRichErrorShowsSourceLineCaretAndHelp() throws {
        let r = try Kept.run(["run"] + Kept.clock + ["--errors", "rich", "-e", "frobnicate 3"])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        let lines = r.stderrLines
        XCTAssertEqual(lines, [
            "error[E0101]: unknown command 'frobnicate'",
            "  --> -e:1:1",
            "   |",
            " 1 | frobnicate 3",
            "   | ^^^^^^^^^^ not a command",
            "   |",
            "   = help: 'help' lists the commands",
        ], r.summary)
        // The parts the brief names, independently of the exact layout above.
        XCTAssertTrue(lines.contains { $0.hasPrefix("error[E0101]") })
        XCTAssertTrue(lines.contains { $0.hasSuffix("| frobnicate 3") })
        XCTAssertTrue(lines.contains { $0.contains("| ^^^^^^^^^^ ") && !$0.contains("^^^^^^^^^^^") })
        XCTAssertTrue(lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("= help:") })
    }

    /// The short form (the default when stderr is not a terminal, and `--errors short`) is one
    /// line: `file:line:col: error[CODE]: message; help: …`, with the did-you-mean suggestion.
    func testShortErrorIsOneLineWithSuggestion() throws {
        let expected = "-e:1:1: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?"
        for extra in [["--errors", "short"], []] {
            let r = try Kept.run(["run"] + Kept.clock + extra + ["-e", "lsit"])
            XCTAssertEqual(r.reason, .exit, r.summary)
            XCTAssertEqual(r.status, 1, r.summary)
            XCTAssertEqual(r.stdout, "", r.summary)
            XCTAssertEqual(r.stderr, expected + "\n", "with \(extra): \(r.summary)")
        }
    }

    /// The column of a short diagnostic is the 1-based column of the offending word, counting
    /// from the start of its line in the script (here after two spaces of indentation).
    func testShortErrorColumnInScript() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let script = try dir.write("indent.kept", "add A\n  lsit 2\n")
        let r = try Kept.run(["run"] + Kept.clock + ["--errors", "short", script])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdout, "Added 1 · A\n", r.summary)
        XCTAssertEqual(r.stderr, "\(script):2:3: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?\n\(Kept.noStoreNote)\n", r.summary)
    }

    // MARK: - Exit codes and usage

    /// `kept --version` prints the version and exits 0 (also `-V`).
    func testVersion() throws {
        for flag in ["--version", "-V"] {
            let r = try Kept.run([flag])
            XCTAssertEqual(r.status, 0, r.summary)
            XCTAssertEqual(r.stdout, "kept 0.1.0\n", r.summary)
            XCTAssertEqual(r.stderr, "", r.summary)
        }
    }

    /// `kept --help` exits 0, prints the usage to stdout (with `kept run` and `kept test`) and
    /// the options, nothing to stderr.
    func testHelp() throws {
        let r = try Kept.run(["--help"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stderr, "", r.summary)
        XCTAssertEqual(r.stdoutLines.first, "Kept: the rules engine of a personal planner, as a small language.", r.summary)
        XCTAssertTrue(r.stdout.contains(Self.usageLine), r.summary)
        XCTAssertTrue(r.stdout.contains("       kept run [--store FILE | --account CONNINFO]"), r.summary)
        XCTAssertTrue(r.stdout.contains("       kept test [-k PATTERN]... [--update [-i]]"), r.summary)
        XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix("  --write ") }, r.summary)
        XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix("  --yes, -y ") }, r.summary)
    }

    /// An unknown verb is a usage error: exit 64, the message and the usage on stderr, nothing
    /// on stdout.
    func testUnknownVerbIsUsageError() throws {
        let r = try Kept.run(["frob"])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: unknown command 'frob'", r.summary)
        XCTAssertTrue(r.stderrLines.contains(Self.usageLine), r.summary)
        XCTAssertEqual(r.stderrLines.last, "'kept --help' explains the options", r.summary)
    }

    /// A close verb gets a did-you-mean: `kept rnu` → `did you mean 'run'?`, exit 64.
    func testMisspelledVerbSuggestsRun() throws {
        let r = try Kept.run(["rnu"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: unknown command 'rnu'; did you mean 'run'?", r.summary)
    }

    /// `--format xml` is refused before anything runs (exit 64, stdin is not read).
    func testBadFormatIsUsageError() throws {
        let r = try Kept.run(["run", "--format", "xml"], stdin: Data("add Nope\n".utf8))
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: --format takes text or json, not 'xml'", r.summary)
        XCTAssertTrue(r.stderrLines.contains(Self.usageLine), r.summary)
    }

    /// An unknown zone on the command line is a usage error (exit 64), not a statement error.
    func testBadZoneIsUsageError() throws {
        let r = try Kept.run(["run", "--now", "2026-06-15T09:00", "--zone", "Nowhere/City", "-e", "list"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: --zone takes an IANA zone like Europe/Berlin, not 'Nowhere/City'", r.summary)
        XCTAssertTrue(r.stderrLines.contains(Self.usageLine), r.summary)
    }

    /// A `--now` that is not a date-time is a usage error too (exit 64).
    func testBadNowIsUsageError() throws {
        let r = try Kept.run(["run", "--now", "yesterday-ish", "--zone", "Europe/Berlin", "-e", "list"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderrLines.first,
                       "kept: --now takes a date-time like 2026-06-15T09:00 or 2026-06-15T07:00:00Z, not 'yesterday-ish'", r.summary)
    }

    /// `kept test` with no path is a usage error (exit 64).
    func testTestWithoutPathIsUsageError() throws {
        let r = try Kept.run(["test"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: 'kept test' needs at least one script or folder", r.summary)
        XCTAssertTrue(r.stderrLines.contains(Self.usageLine), r.summary)
    }

    /// A flag that takes no value is set by its name alone: `--write=false`, `--update=no` or
    /// `--yes=no` is a usage error (exit 64) before anything runs, never read as set.
    func testBooleanFlagsTakeNoValue() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let store = tmp.path("s.json")
        let script = try tmp.write("t.kept", "> add A\nAdded 1 · B\n")
        let cases: [[String]] = [
            ["run", "--store", store, "--write=false", "-e", "add A"],
            ["run", "--store", store, "--write", "--keep-going=no", "-e", "add A"],
            ["run", "--echo=no", "-e", "list"], ["run", "--bail=0", "-e", "list"], ["run", "--yes=no", "-e", "list"],
            ["repl", "--yes=no"], ["repl", "--help=x"],
            ["test", "--update=no", script], ["test", "--bless=no", script], ["test", "--yes=false", script],
        ]
        for args in cases {
            let r = try Kept.run(args, stdin: Data("add Piped\n".utf8))
            let flag = args.first { $0.contains("=") }!
            let name = String(flag[..<flag.firstIndex(of: "=")!])
            XCTAssertEqual(r.status, 64, "\(args): \(r.summary)")
            XCTAssertEqual(r.stdout, "", "\(args): \(r.summary)")
            XCTAssertTrue(r.stderrLines.first?.hasPrefix("kept: \(name) takes no value (not ") ?? false, "\(args): \(r.summary)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: store), "nothing was written")
        XCTAssertEqual(try tmp.readText("t.kept"), "> add A\nAdded 1 · B\n", "--update=no rewrote nothing")
    }

    /// Options of one verb are refused on another: `--write` belongs to `run`, not `test`.
    func testWriteIsNotAnOptionOfTest() throws {
        let r = try Kept.run(["test", "--write", "x.kept"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: unknown option '--write' for 'kept test'; --write is an option of 'kept run'", r.summary)
    }

    /// A flag that needs a value and has none is a usage error.
    func testMissingOptionValueIsUsageError() throws {
        let r = try Kept.run(["run", "-e"])
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stderrLines.first, "kept: -e needs a value", r.summary)
    }

    /// `kept help add` explains one command of the language: its usage and an example, exit 0.
    func testHelpForCommand() throws {
        let r = try Kept.run(["help", "add"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stderr, "", r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "add: file a task from a quick-add line",
            "usage:   add TITLE [@DATE] [every RULE] [!PRIORITY] [+PROJECT] [#TAG]... [[[NOTE]]]...",
            "example: add Call the dentist @tomorrow 3pm every 6 months +Home #phone !high",
        ], r.summary)
    }

    /// `kept help frobnicate` names the unknown command on stderr and exits non-zero (64).
    func testHelpForUnknownCommand() throws {
        let r = try Kept.run(["help", "frobnicate"])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertNotEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.status, 64, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0101]: unknown command 'frobnicate'"), r.summary)
    }

    /// A script that does not exist makes `kept run` exit 2 (could not be read), not 1.
    func testMissingScriptExitsTwo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let r = try Kept.run(["run"] + Kept.clock + [dir.path("nope.kept")])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains(dir.path("nope.kept")), r.summary)
    }

    /// A script that is not UTF-8 is refused as a whole (exit 2) and none of it runs.
    func testInvalidUTF8ScriptExitsTwo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let script = try dir.write("bad.kept", Data("add A\nadd B \u{00}".utf8) + Data([0xFF, 0xFE, 0x0A]))
        let r = try Kept.run(["run"] + Kept.clock + [script])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertTrue(r.stderr.hasPrefix("\(script):2:"), r.summary)
    }

    // MARK: - A bad statement does not stop the run

    /// With several `-e`, a failing one is reported and the next still runs; the run exits 1.
    func testBadExpressionThenGoodOneStillRuns() throws {
        let r = try Kept.run(["run"] + Kept.clock + ["--errors", "short", "-e", "lsit", "-e", "add Pay rent"])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdout, "Added 1 · Pay rent\n", r.summary)
        XCTAssertEqual(r.stderr, "-e:1:1: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?\n\(Kept.noStoreNote)\n", r.summary)
    }

    /// A plain script (one command per line, no `> `) with two bad lines among good ones: every
    /// good command's output appears in order, both errors are reported with file:line:col,
    /// and the run exits 1.
    func testPlainScriptWithTwoBadLines() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let script = try dir.write("plain.kept", """
        # a plain script: a comment, then one command per line
        add Pay rent
        frobnicate 3
        add Call mom @tomorrow

        list
          lsit 2
        complete 1

        """)
        let r = try Kept.run(["run"] + Kept.clock + ["--errors", "short", script])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "Added 1 · Pay rent",
            "Added 2 · Call mom · Tomorrow",
            "All 2 tasks",
            "1  Pay rent",
            "2  Call mom  Tomorrow",
            "Completed 1 · Pay rent",
        ], r.summary)
        XCTAssertEqual(r.stderrLines, [
            "\(script):3:1: error[E0101]: unknown command 'frobnicate'; help: 'help' lists the commands",
            "\(script):7:3: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?",
            Kept.noStoreNote,
        ], r.summary)
    }

    /// The same continue-after-error rule for a transcript fed on stdin, with locations named
    /// `<stdin>`.
    func testStdinTranscriptContinuesAfterError() throws {
        let input = """
        > add Pay rent
        > show 7
        > add Buy milk
        > list

        """
        let r = try Kept.run(["run"] + Kept.clock + ["--errors", "short"], stdin: Data(input.utf8))
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines, [
            "Added 1 · Pay rent",
            "Added 2 · Buy milk",
            "All 2 tasks",
            "1  Pay rent",
            "2  Buy milk",
        ], r.summary)
        XCTAssertEqual(r.stderrLines, [
            "<stdin>:2:8: error[E0301]: no task with id 7; help: 'list' shows the open tasks with their ids",
            Kept.noStoreNote,
        ], r.summary)
    }

    /// A run where every statement succeeds exits 0 and writes no error on stderr: only the
    /// note that a run without a store wrote nothing (R-HOME-2).
    func testCleanRunExitsZero() throws {
        let r = try Kept.run(["run"] + Kept.clock + ["-e", "add Pay rent @tomorrow 15:00", "-e", "show 1 due"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stderrLines, [Kept.noStoreNote], r.summary)
        XCTAssertEqual(r.stdoutLines, ["Added 1 · Pay rent · Tomorrow 3 PM", "Tue Jun 16, 2026 3 PM"], r.summary)
    }
}
