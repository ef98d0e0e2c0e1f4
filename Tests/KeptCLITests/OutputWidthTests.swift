// Output that fits (docs/OUTPUT.md, "Width and colour"): display width by grapheme cluster,
// checked against Python's unicodedata over every assigned scalar; titles cut to a width;
// every row of a listing fitting any width; colour only on a terminal or with --color always;
// pretty JSON; the REPL's .width and .mode json pretty; `@width` in a transcript; and the
// pseudo-terminal driver Tests/pty/width_pty.py.

import Foundation
import XCTest
@testable import KeptCLI
import KeptRules
import KeptSyntax
import KeptInterpreter

final class OutputWidthTests: XCTestCase {
    /// R-VIEW-7: the columns of East Asian wide and fullwidth characters, emoji, ZWJ
    /// sequences, flags, variation selectors and combining marks.
    func testDisplayWidths() {
        let cases: [(String, Int)] = [
            ("abc", 3), ("日本語", 6), ("ｶﾀｶﾅ", 4), ("Ａ", 2), ("한국어", 6), ("🎉", 2), ("👨‍👩‍👧", 2),
            ("e\u{301}", 1), ("Cafe\u{301}", 4), ("❤", 1), ("❤️", 2), ("🇩🇪", 2), ("\u{200D}", 0),
            ("\u{FE0F}", 0), ("…", 1), ("↻ Every week", 12), ("", 0), ("a\u{1B}b", 2),
            ("か\u{3099}", 2), ("ｶﾞ", 2), ("कि", 2), ("👍🏽", 2), ("日本 e\u{301} 🎉", 9), ("\u{1100}\u{1161}\u{11A8}", 2),
        ]
        for (s, w) in cases {
            XCTAssertEqual(DisplayWidth.of(s), w, "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// R-VIEW-7: a cut keeps whole clusters, ends in `…`, fits the width, and falls at a word
    /// boundary when one is near.
    func testTruncation() {
        XCTAssertEqual(DisplayWidth.truncated("Pay rent", to: 20), "Pay rent")
        XCTAssertEqual(DisplayWidth.truncated("Write the yearly report", to: 12), "Write the…")
        XCTAssertEqual(DisplayWidth.truncated("Write the yearly report", to: 10), "Write the…")
        XCTAssertEqual(DisplayWidth.truncated("Supercalifragilistic", to: 8), "Supercal…".dropLast(2) + "…")
        XCTAssertEqual(DisplayWidth.truncated("日本語のタイトル", to: 7), "日本語…")
        XCTAssertEqual(DisplayWidth.truncated("日本語のタイトル", to: 6), "日本…")
        XCTAssertEqual(DisplayWidth.truncated("👨‍👩‍👧👨‍👩‍👧", to: 3), "👨‍👩‍👧…")
        XCTAssertEqual(DisplayWidth.truncated("abc", to: 1), "…")
        XCTAssertEqual(DisplayWidth.truncated("abc", to: 0), "")
        for s in ["Write the yearly report", "日本語のタイトル", "Party 🎉 planning", "Cafe\u{301} cre\u{300}me"] {
            for w in 1...30 { XCTAssertLessThanOrEqual(DisplayWidth.of(DisplayWidth.truncated(s, to: w)), w, "\(s) at \(w)") }
        }
    }

    /// R-VIEW-7: Kept's table of wide scalars is East Asian Width W and F, as Python's
    /// unicodedata (an independent source) has them, for every scalar it knows.
    func testWideTableMatchesUnicodeData() throws {
        var wide: [String] = []
        var start: UInt32? = nil
        for v in UInt32(0)...0x10FFFF {
            let w = DisplayWidth.isWide(v)
            if w, start == nil { start = v }
            if !w, let s = start { wide.append("\(s) \(v - 1)"); start = nil }
        }
        if let s = start { wide.append("\(s) 1114111") }
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let table = try dir.write("wide.txt", wide.joined(separator: "\n") + "\n")
        let script = try dir.write("check.py", """
        import sys, unicodedata
        rs = [tuple(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
        import bisect
        starts = [a for a, b in rs]
        def ours(v):
            k = bisect.bisect_right(starts, v) - 1
            return k >= 0 and rs[k][0] <= v <= rs[k][1]
        bad = []
        for v in range(0x110000):
            if 0xD800 <= v <= 0xDFFF: continue
            c = chr(v)
            if unicodedata.category(c) == "Cn": continue
            if (unicodedata.east_asian_width(c) in ("W", "F")) != ours(v): bad.append(hex(v))
        print(len(bad), " ".join(bad[:20]))
        sys.exit(1 if bad else 0)
        """)
        let r = try Kept.runProgram(["python3", script, table])
        XCTAssertEqual(r.status, 0, r.output)
    }

    func run(_ args: [String], env: [String: String] = [:]) throws -> KeptRun {
        try Kept.run(["run"] + Kept.clock + args, environment: env)
    }

    static let adds = ["-e", "add 日本語のタイトル @today", "-e", "add Party 🎉 planning @yesterday !high",
                       "-e", "add Call mum @tomorrow every week !critical",
                       "-e", "add " + String(repeating: "Long title words ", count: 12) + "@fri", "-e", "add Plain"]

    /// R-VIEW-7: at every width from 20 to 140, every row of list, plan and list group by due
    /// fits, and the dates of a listing start in one column.
    func testEveryRowFitsEveryWidth() throws {
        for w in stride(from: 20, through: 140, by: 7) {
            let r = try run(["--width", String(w)] + Self.adds + ["-e", "list", "-e", "plan", "-e", "list group by due"])
            XCTAssertEqual(r.status, 0, r.stderr)
            // The listings, after what `add` printed (a summary, not a listing).
            for line in r.stdout.split(separator: "\n") where !line.hasPrefix("Added ") {
                XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), w, "at \(w): \(line)")
            }
            XCTAssertTrue(r.stdout.contains("…"), "nothing cut at \(w)")
        }
        // No width: nothing cut, the long title whole.
        let r = try run(Self.adds + ["-e", "list"])
        XCTAssertFalse(r.stdout.contains("…"))
        XCTAssertTrue(r.stdout.contains(String(repeating: "Long title words ", count: 12).trimmingCharacters(in: .whitespaces) + "  Fri Jun 19"))
    }

    /// R-VIEW-7: `--width` takes a number from 20, auto or none; $COLUMNS sets the width.
    func testWidthOptionAndColumns() throws {
        XCTAssertEqual(try run(["--width", "10", "-e", "list"]).status, 64)
        XCTAssertEqual(try run(["--width", "wide", "-e", "list"]).status, 64)
        let cols = try run(Self.adds + ["-e", "list"], env: ["COLUMNS": "40"])
        XCTAssertTrue(cols.stdout.split(separator: "\n").filter { !$0.hasPrefix("Added ") }.allSatisfy { DisplayWidth.of(String($0)) <= 40 }, cols.stdout)
        XCTAssertTrue(cols.stdout.contains("…"))
        let none = try run(["--width", "none"] + Self.adds + ["-e", "list"], env: ["COLUMNS": "40"])
        XCTAssertFalse(none.stdout.contains("…"), none.stdout)
    }

    /// R-VIEW-10: colour only with --color always when output is not a terminal; never in
    /// JSON; overdue red, today yellow, the repeat mark cyan, High bold, Critical bold magenta.
    func testColourOnlyWhenAsked() throws {
        let plain = try run(Self.adds + ["-e", "list"], env: ["NO_COLOR": "", "TERM": "xterm"])
        XCTAssertFalse(plain.stdout.contains("\u{1B}"), "colour into a pipe")
        let forced = try run(["--color", "always"] + Self.adds + ["-e", "list"])
        XCTAssertTrue(forced.stdout.contains("\u{1B}[31mOverdue 1d\u{1B}[0m"), forced.stdout)
        XCTAssertTrue(forced.stdout.contains("\u{1B}[33mToday\u{1B}[0m"), forced.stdout)
        XCTAssertTrue(forced.stdout.contains("\u{1B}[36m↻ Every Tuesday\u{1B}[0m"), forced.stdout)
        XCTAssertTrue(forced.stdout.contains("\u{1B}[1mParty 🎉 planning\u{1B}[0m"), forced.stdout)
        XCTAssertTrue(forced.stdout.contains("\u{1B}[1;35mCall mum\u{1B}[0m"), forced.stdout)
        // The same text without its colour: colour never moves a column.
        let stripped = forced.stdout.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        let never = try run(["--color", "never"] + Self.adds + ["-e", "list"])
        XCTAssertEqual(stripped, never.stdout)
        // The Top 3 that `not today` prints is coloured, not escaped.
        let held = try run(["--color", "always", "-e", "add A @today", "-e", "add B @yesterday", "-e", "not today 1"])
        XCTAssertTrue(held.stdout.contains("  2  B  \u{1B}[31mOverdue 1d\u{1B}[0m\n"), held.stdout)
        XCTAssertFalse(held.stdout.contains("\\e["), held.stdout)
        let json = try run(["--color", "always", "--format", "json"] + Self.adds + ["-e", "list"])
        XCTAssertFalse(json.stdout.contains("\u{1B}"))
    }

    /// R-VIEW-10: a title's own escape characters stay escaped in a coloured listing.
    func testColourKeepsTitlesEscaped() {
        XCTAssertEqual(Session.escapedKeepingColor("\u{1B}[31mOverdue\u{1B}[0m a\u{1B}]0;x\u{7}"), "\u{1B}[31mOverdue\u{1B}[0m a\\e]0;x\\u0007")
        XCTAssertEqual(Session.escapedKeepingColor("plain"), "plain")
    }

    /// `--pretty`: each JSON object indented over several lines, still one object a statement.
    func testPrettyJSON() throws {
        let r = try run(["--format", "json", "--pretty", "-e", "add Pay rent @today", "-e", "count"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("{\n  \"added\": {\n"), r.stdout)
        XCTAssertTrue(r.stdout.hasSuffix("{\n  \"count\": 1,\n  \"total\": 1\n}\n"), r.stdout)
        let compact = try run(["--format", "json", "-e", "count"])
        XCTAssertEqual(compact.stdout, "{\"count\":0,\"total\":0}\n")
    }

    /// The REPL: `.width N|none|auto` and `.mode json pretty`, and their errors (E0502).
    func testREPLWidthAndPrettyMode() throws {
        let input = """
        add \(String(repeating: "Long title words ", count: 6))@today
        .width 30
        list
        .width
        .width none
        list
        .mode json pretty
        count
        .mode
        .mode text pretty

        """
        let r = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data(input.utf8))
        let out = r.stdout
        // At 30 columns the title keeps its 20, cut at a word.
        XCTAssertTrue(out.contains("1  Long title words…     Today\n"), out)
        XCTAssertTrue(out.contains("width 30\n"), out)
        XCTAssertTrue(out.contains("1  Long title words Long title words Long title words Long title words Long title words Long title words  Today\n"), out)
        XCTAssertTrue(out.contains("{\n  \"count\": 1,\n  \"total\": 1\n}\n"), out)
        XCTAssertTrue(out.contains("{\n  \"mode\": \"json\",\n  \"pretty\": true\n}\n"), out)
        // In JSON mode the error is a JSON object on stdout.
        XCTAssertTrue(out.contains("'.mode' takes text, json or json pretty, not 'text pretty'"), out)
        let bad = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data(".width 5\n".utf8))
        XCTAssertTrue(bad.stderr.contains("error[E0502]: '.width' takes a number of columns from 20, auto or none, not '5'"), bad.stderr)
    }

    /// `.record` writes a listing's width as `@width N` and leaves colour out, so the
    /// transcript replays under `kept test` (no width, no colour) with the same rows.
    func testRecordKeepsTheWidthAndDropsColour() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let rec = dir.url.appendingPathComponent("r.kept").path
        let input = """
        add Write the yearly report for the garden club @yesterday every week
        .width 40
        list
        .width none
        list
        .record \(rec)

        """
        let r = try Kept.run(["repl", "--color", "always"] + Kept.clock, stdin: Data(input.utf8))
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdout.contains("\u{1B}[31mOverdue 1d\u{1B}[0m"), r.stdout)
        let text = try String(contentsOfFile: rec, encoding: .utf8)
        XCTAssertFalse(text.contains("\u{1B}"), text)
        XCTAssertTrue(text.contains("@width 40\n> list\nAll 1 task\n1  Write the yearly…     Overdue 1d  ↻…\n"), text)
        XCTAssertEqual(text.components(separatedBy: "@width").count, 2, text)
        let replay = try Kept.run(["test", rec])
        XCTAssertEqual(replay.status, 0, replay.summary)
    }

    /// `@width N` in a transcript sets the next command's width; a bad one is E0105.
    func testWidthDirective() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let good = try dir.write("good.kept", """
        > add Write the yearly report for the garden club @today
        Added 1 · Write the yearly report for the garden club · Today

        @width 30
        > list
        All 1 task
        1  Write the yearly…     Today

        > list
        All 1 task
        1  Write the yearly report for the garden club  Today

        """)
        let ok = try Kept.run(["test", good])
        XCTAssertEqual(ok.status, 0, ok.stdout + ok.stderr)
        let bad = try dir.write("bad.kept", "@width 5\n> list\nNo open tasks\n")
        let r = try Kept.run(["test", bad])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue((r.stdout + r.stderr).contains("'@width' takes a number of columns from 20 or none, not '5'"), r.stdout + r.stderr)
    }

    /// R-VIEW-7, R-VIEW-8, R-VIEW-10 in a pseudo-terminal 60 and 120 columns wide, measured by
    /// unicodedata: Tests/pty/width_pty.py.
    func testListingsFitAPseudoTerminal() throws {
        try Kept.runDriver("Tests/pty/width_pty.py")
    }
}
