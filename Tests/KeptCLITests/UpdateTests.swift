// `kept test --update` through the real binary: it keeps what still matches (patterns, `...`,
// JSON in any layout, `@unordered` rows), changes only the lines that differ, escapes output that
// would read as syntax as `.record` does, and the file it writes passes; `-i` asks per block
// (y/n/a/q) and `KEPT_UPDATE=1` is `--update`.

import Foundation
@testable import KeptCLI
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter
import XCTest

final class UpdateTests: XCTestCase {
    /// A transcript with every construct, five of its blocks wrong: `--update` rewrites exactly
    /// the lines that differ (the diff of the file is those lines and nothing else), every
    /// pattern line survives as written, and the next run passes.
    func testUpdateKeepsWhatStillMatches() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let before = """
        # every construct --update has to keep
        > add Pay rent @fri
        Added 1 · Pay rent · Fri Jun 19 (re)

        > add Buy milk #errand
        Added 2 · Buy milk · #errand

        > add Call mum
        Added 3 · Call the mum

        > list
        All 3 tasks
        1  Pay rent * (glob)
        ...

        > list
        All 4 tasks
        1  Pay rent * (glob)
        ...
        3  Call mum

        @unordered
        > list
        3  Call mum
        ? * (glob)
        All 3 tasks
        2  Buy milk  #errand
        9  Nothing

        @format json
        > show 2 tags
        {
          "tags": ["errand"]
        }

        @format json
        > show 2 title
        { "title": "Buy bread" }

        > show 9
        ! E0301 no task with id 9

        > project add "> odd"
        Added project > odd

        > project add "... more"
        Added project ... more

        > projects
        nothing

        """
        let file = try dir.write("every.kept", before)
        let first = try Kept.run(["test", "--update", file])
        XCTAssertEqual(first.status, 0, first.summary)
        XCTAssertEqual(first.stdoutLines.suffix(2), ["updated 5 expected blocks", "7 passed, 5 failed, 0 errors, 0 skipped"], first.summary)
        var expected = before
        for (old, new) in [("Added 3 · Call the mum", "Added 3 · Call mum"),
                           ("All 4 tasks", "All 3 tasks"),
                           ("2  Buy milk  #errand\n9  Nothing", "2  Buy milk"),
                           ("{ \"title\": \"Buy bread\" }", "{\"title\":\"Buy milk\"}"),
                           // Output that would read as a command or a continuation is matched
                           // literally, as `.record` writes it.
                           ("> projects\nnothing", "> projects\n\\Q> odd\\E (re)\n\\Q... more\\E (re)")] {
            XCTAssertNotNil(expected.range(of: old), old)
            expected = expected.replacingOccurrences(of: old, with: new)
        }
        let after = try dir.readText("every.kept")
        XCTAssertEqual(after, expected)
        for pattern in ["Added 1 · Pay rent · Fri Jun 19 (re)", "1  Pay rent * (glob)\n...\n\n", "...\n3  Call mum",
                        "? * (glob)", "{\n  \"tags\": [\"errand\"]\n}", "! E0301 no task with id 9"] {
            XCTAssertTrue(after.contains(pattern), "\(pattern) should survive --update")
        }
        let next = try Kept.run(["test", file])
        XCTAssertEqual(next.status, 0, next.summary + "\n" + after)
        XCTAssertEqual(next.stdoutLines.last, "12 passed, 0 failed, 0 errors, 0 skipped", next.summary)
        // Nothing left to update: the file stays byte for byte.
        XCTAssertEqual(try Kept.run(["test", "--update", file]).status, 0)
        XCTAssertEqual(try dir.readText("every.kept"), after)
    }

    static let threeWrong = "> add A\nwrong\n\n> add B\nwrong\n\n> add C\nwrong\n"

    /// `-i` asks for each failing block: `n` keeps it, an unknown answer asks again, `y` takes
    /// the new block, `q` keeps this and every block after; `a` takes this and every one after.
    /// The exit is 1 while a failure was left as it was.
    func testInteractiveUpdateAsksPerBlock() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("i.kept", Self.threeWrong)
        let r = try Kept.run(["test", "-i", file], stdin: Data("n\nmaybe\ny\nq\n".utf8))
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stdoutLines.filter { $0.hasPrefix("update the block") }, [
            "update the block of \(file):1? [y]es, [n]o, [a]ll, [q]uit: n",
            "update the block of \(file):4? [y]es, [n]o, [a]ll, [q]uit: maybe",
            "update the block of \(file):4? [y]es, [n]o, [a]ll, [q]uit: y",
            "update the block of \(file):7? [y]es, [n]o, [a]ll, [q]uit: q",
        ], r.summary)
        XCTAssertTrue(r.stdoutLines.contains("answer y, n, a or q"), r.summary)
        XCTAssertEqual(try dir.readText("i.kept"), "> add A\nwrong\n\n> add B\nAdded 2 · B\n\n> add C\nwrong\n")

        try dir.write("i.kept", Self.threeWrong)
        let all = try Kept.run(["test", "-i", file], stdin: Data("a\n".utf8))
        XCTAssertEqual(all.status, 0, all.summary)
        XCTAssertEqual(all.stdoutLines.filter { $0.hasPrefix("update the block") }.count, 1, all.summary)
        XCTAssertEqual(try Kept.run(["test", file]).status, 0)
        // The end of input is `q`.
        try dir.write("i.kept", Self.threeWrong)
        XCTAssertEqual(try Kept.run(["test", "-i", file]).status, 1)
        XCTAssertEqual(try dir.readText("i.kept"), Self.threeWrong)
    }

    /// `KEPT_UPDATE=1` is `--update`; another value is not; `--update=yes` is a usage error.
    func testKeptUpdateEnvironment() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let file = try dir.write("e.kept", Self.threeWrong)
        XCTAssertEqual(try Kept.run(["test", file], environment: ["KEPT_UPDATE": "0"]).status, 1)
        XCTAssertEqual(try dir.readText("e.kept"), Self.threeWrong)
        let bad = try Kept.run(["test", "--update=yes", file])
        XCTAssertEqual(bad.status, 64, bad.summary)
        XCTAssertEqual(try dir.readText("e.kept"), Self.threeWrong)
        let r = try Kept.run(["test", file], environment: ["KEPT_UPDATE": "1"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(try Kept.run(["test", file]).status, 0)
    }

    /// Every output line that would read as syntax is written so the next run reads it back as
    /// that one expected line and it matches: a command (`> x`, `>`), a continuation (`... x`),
    /// `...`, an error (`! E0301 x`), a blank-looking line, an empty line; plain lines and lines
    /// that only end like a pattern stay as they are.
    func testEscapedLinesReadBackAsThemselves() {
        let tricky = ["> x", ">", "... more", "...", "! E0301 no task", "   ", "\t", "", "plain", "a (re)", "b * (glob)", "\\Q\\E"]
        for line in tricky {
            let written = Recorder.expectedLine(line)
            let text = "> list\n\(written)\n\n> count\n"
            let t = Transcript(file: SourceFile(name: "t.kept", text: text))
            XCTAssertEqual(t.diagnostics.count, 0, "\(line) written as \(written)")
            XCTAssertEqual(t.commands.map(\.expected), [[written], []], "\(line) written as \(written)")
            XCTAssertTrue(ExpectedOutput([written]).matches([line], unordered: false), "\(line) written as \(written)")
            if ["plain", "a (re)", "b * (glob)"].contains(line) { XCTAssertEqual(written, line) }
        }
    }
}
