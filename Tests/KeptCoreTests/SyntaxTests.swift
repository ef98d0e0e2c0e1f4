// The lexer, the statement parser and the transcript reader: tokens with byte ranges, one tree
// or one diagnostic per statement, and scripts split into commands and expected blocks.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class SyntaxTests: XCTestCase {
    func tokens(_ text: String) -> [Token] {
        let f = SourceFile(name: "t", text: text)
        var l = Lexer(file: f, statement: StatementSource(file: f))
        return l.tokenize()
    }

    func parse(_ text: String) -> (Statement?, [Diagnostic]) {
        Parser.parse(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    func testLexerTable() {
        let table: [(String, String, [String])] = [
            ("lex-01", "list", ["word:list", "end:"]),
            ("lex-02", "show 12 due", ["word:show", "number:12", "word:due", "end:"]),
            ("lex-03", "set \"Call mom\" title \"Ring \\\"Mum\\\"\"", ["word:set", "string:Call mom", "word:title", "string:Ring \"Mum\"", "end:"]),
            ("lex-04", "due<=fri", ["word:due", "punct:<=", "word:fri", "end:"]),
            ("lex-05", "a\\ b", ["word:a b", "end:"]),
            ("lex-06", "  \t ", ["end:"]),
            ("lex-07", "(#a|#b),c", ["punct:(", "word:#a", "punct:|", "word:#b", "punct:)", "punct:,", "word:c", "end:"]),
            ("lex-08", "2026-06-15 15:00", ["word:2026-06-15", "word:15:00", "end:"]),
            ("lex-09", "café ünï", ["word:café", "word:ünï", "end:"]),
            // A pattern after `~` is one token, to where a word would end after its closing `/`.
            ("lex-10", "title ~ /a, b)/i,c", ["word:title", "punct:~", "pattern1:/a, b)/i", "punct:,", "word:c", "end:"]),
            ("lex-11", "title ~/a|b/ix|c", ["word:title", "punct:~", "pattern2:/a|b/ix", "punct:|", "word:c", "end:"]),
            ("lex-12", "~ /a\\/b/ d", ["punct:~", "pattern0:/a\\/b/", "word:d", "end:"]),
            ("lex-13", "title ~ /a, b", ["word:title", "punct:~", "unclosed:/a", "punct:,", "word:b", "end:"]),
            ("lex-14", "a /b/ ~\t/c/", ["word:a", "word:/b/", "punct:~", "word:/c/", "end:"]),
            ("lex-15", "add Fix ~ /\"/ now", ["word:add", "word:Fix", "punct:~", "pattern0:/\"/", "word:now", "end:"]),
        ]
        for (id, input, want) in table {
            let got = tokens(input).map { t -> String in
                let k: String
                switch t.kind {
                case .word: k = "word"
                case .number: k = "number"
                case .string: k = "string"
                case .punct: k = "punct"
                case .pattern(let flags): k = "pattern\(flags)"
                case .unclosedPattern: k = "unclosed"
                case .end: k = "end"
                }
                return "\(k):\(t.text)"
            }
            XCTAssertEqual(got, want, id)
        }
    }

    /// Filters and list clauses are read in one pass, a pattern being one token: a `,`, `)` or
    /// clause word inside it is the pattern's, and a part ends at the first comma or clause
    /// outside parentheses.
    func testPatternsAreOneTokenForTheParser() throws {
        guard case .list(.success(let c))? = parse("list title ~ /a order by, (b)/i, (x, y) limit 3 order by title").0?.kind else {
            return XCTFail("list with a pattern")
        }
        XCTAssertEqual(c.parts.map(\.text), ["title ~ /a order by, (b)/i", "(x, y)"])
        guard case .success(let f)? = c.parts.first?.filter?.parsed, case .term(let t) = f.syntax, case .regex(_, _, let at) = t.kind else {
            return XCTFail("the first part is a pattern")
        }
        XCTAssertEqual(at, SourceRange(start: 13, end: 30), "the pattern's literal, without its flags")
        if case .failure(let d)? = c.parts.last?.filter?.parsed { XCTAssertEqual(d.message, "unexpected ',' in a filter") } else { XCTFail("(x, y)") }
        XCTAssertEqual(c.limit, 3)
        XCTAssertEqual(c.order.map { $0.key }, [.title])
        // A bounded target's parenthesis is found past one inside a pattern.
        guard case .setField(.filter(let bf), _, let v)? = parse("set where (title ~ /a[)]b/) priority high").0?.kind else {
            return XCTFail("set where (…)")
        }
        XCTAssertEqual(v.text, "high")
        if case .failure(let d) = bf.parsed { XCTFail(d.message) }
        // An unclosed pattern leaves the comma list as it was: the error is its part's.
        guard case .list(.success(let u))? = parse("list title ~ /a, overdue").0?.kind else { return XCTFail("unclosed") }
        XCTAssertEqual(u.parts.map(\.text), ["title ~ /a", "overdue"])
        if case .failure(let d)? = u.parts.first?.filter?.parsed {
            XCTAssertEqual(d.code, .E0001)
            XCTAssertEqual(d.range, SourceRange(start: 13, end: 14))
        } else {
            XCTFail("an unclosed pattern is an error")
        }
        // Elsewhere a comma outside parentheses is refused before any other error of the filter.
        guard case .count(let cf?)? = parse("count title ~ /a/q, b").0?.kind, case .failure(let e) = cf.parsed else {
            return XCTFail("count with a comma")
        }
        XCTAssertEqual(e.code, .E0233)
        XCTAssertEqual(e.range, SourceRange(start: 18, end: 19))
    }

    /// Ranges are UTF-8 byte offsets into the file.
    func testTokenRangesAreBytes() {
        let t = tokens("add Müsli @today")
        XCTAssertEqual(t[1].range, SourceRange(start: 4, end: 10))
        XCTAssertEqual(t[2].range, SourceRange(start: 11, end: 17))
    }

    func testParserAcceptsEveryStatementKind() {
        let table: [(String, String, Keyword)] = [
            ("par-01", "now", .now), ("par-02", "now 2026-06-15 09:00", .now), ("par-03", "zone Europe/Berlin", .zone),
            ("par-04", "set", .set), ("par-05", "set clock 24h", .set), ("par-06", "set 3 due tomorrow", .set),
            ("par-07", "add Pay rent @today", .add), ("par-08", "show 1", .show), ("par-09", "show \"Pay rent\" due", .show),
            ("par-10", "list", .list), ("par-11", "complete 1", .complete), ("par-12", "reopen \"Pay rent\"", .reopen),
            ("par-13", "delete 2", .delete), ("par-14", "undo", .undo), ("par-15", "undo 3", .undo), ("par-16", "redo 2", .redo),
            ("par-17", "project add Home Stuff", .project), ("par-18", "help", .help), ("par-19", "help add", .help),
            ("par-20", "LIST", .list),
        ]
        for (id, text, kw) in table {
            let (s, d) = parse(text)
            XCTAssertEqual(s?.keyword, kw, "\(id): \(d.map(\.message))")
            XCTAssertTrue(d.isEmpty, id)
        }
        if case .projectAdd(let name)? = parse("project add Home Stuff").0?.kind {
            XCTAssertEqual(name.text, "Home Stuff")
        } else {
            XCTFail("project add")
        }
        if case .undo(let n)? = parse("undo 3").0?.kind { XCTAssertEqual(n, 3) } else { XCTFail("undo 3") }
        if case .setField(.task(let ref), let f, let v)? = parse("set \"Pay rent\" title \"Pay the rent\"").0?.kind {
            XCTAssertEqual(ref, .title("Pay rent", SourceRange(start: 4, end: 14)))
            XCTAssertEqual(f.text, "title")
            XCTAssertEqual(v.text, "Pay the rent")
        } else {
            XCTFail("set field")
        }
    }

    func testParserErrors() {
        let table: [(String, String, String, Int)] = [
            ("perr-01", "frobnicate 3", "E0101", 0),
            ("perr-02", "lsit", "E0101", 0),
            ("perr-03", "complete", "E0102", 8),
            ("perr-04", "complete one", "E0102", 9),
            ("perr-05", "complete 1 2", "E0103", 11),
            ("perr-06", "undo zero", "E0102", 5),
            ("perr-07", "undo 0", "E0102", 5),
            ("perr-08", "project frob A B", "E0104", 8),
            ("perr-09", "project", "E0102", 7),
            ("perr-10", "add", "E0102", 3),
            ("perr-11", "list \"x", "E0001", 5),
            ("perr-12", "show", "E0102", 4),
            ("perr-13", "all", "E0101", 0),
            ("perr-14", "complete 99999999999999999999999", "E0102", 9),
            ("perr-15", "zone A B", "E0103", 7),
            ("perr-16", "project rename A B", "E0102", 18),
            ("perr-17", "archive where", "E0107", 8),
            ("perr-18", "set where #errand priority high", "E0102", 10),
            ("perr-19", "tag where (#a", "E0106", 10),
            ("perr-20", "set where () priority high", "E0107", 4),
            ("perr-21", "step 1 frob 2", "E0104", 7),
            ("perr-22", "step 1 check x", "E0102", 13),
            ("perr-23", "move 1 today", "E0102", 7),
            ("perr-24", "tag 1", "E0102", 5),
            ("perr-25", "project delete Home move-to", "E0102", 27),
            ("perr-26", "complete where", "E0107", 9),
        ]
        for (id, text, code, col) in table {
            let (s, d) = parse(text)
            XCTAssertNil(s, id)
            XCTAssertEqual(d.first?.code.rawValue, code, id)
            XCTAssertEqual(d.first?.range?.start, col, id)
        }
        XCTAssertEqual(parse("lsit").1.first?.help, "did you mean 'list'?")
        XCTAssertEqual(parse("project ad Home").1.first?.help, "did you mean 'add'?")
    }

    func testBlankStatementIsNothing() {
        let (s, d) = parse("   ")
        XCTAssertNil(s)
        XCTAssertTrue(d.isEmpty)
    }

    func testTranscriptBlocks() {
        let text = """
        # a comment
        > now 2026-06-15 09:00
        > add Pay rent
        ... @today
        Added 1 · Pay rent · Today

        @format json
        > show 1 due
        {"due":{"date":"2026-06-15","time":null}}
        <BLANKLINE>

        @case "second"
        > list
        ...
        """
        let t = Transcript(file: SourceFile(name: "t.kept", text: text))
        XCTAssertTrue(t.isTranscript)
        XCTAssertTrue(t.diagnostics.isEmpty)
        let cs = t.commands
        XCTAssertEqual(cs.count, 4)
        XCTAssertEqual(cs[0].expected, [])
        XCTAssertEqual(cs[1].statement.text, "add Pay rent @today")
        XCTAssertEqual(cs[1].line, 3)
        XCTAssertEqual(cs[1].expected, ["Added 1 · Pay rent · Today"])
        XCTAssertEqual(cs[1].expectedLines, 5..<6)
        XCTAssertEqual(cs[2].modifiers.map(\.name), ["format"])
        XCTAssertEqual(cs[2].expected.count, 2)
        XCTAssertEqual(cs[3].caseName, "second")
        XCTAssertEqual(cs[3].expected, ["..."])
        XCTAssertEqual(t.directives.map(\.name), ["case"])
    }

    func testPlainScriptAndStrayLines() {
        let plain = Transcript(file: SourceFile(name: "p", text: "# setup\nadd A\n\nlist\n"))
        XCTAssertFalse(plain.isTranscript)
        XCTAssertEqual(plain.commands.map(\.statement.text), ["add A", "list"])
        let stray = Transcript(file: SourceFile(name: "s", text: "> list\nNo open tasks\n\nthis is prose\n"))
        XCTAssertEqual(stray.diagnostics.first?.code, .E0002)
        XCTAssertEqual(stray.diagnostics.first?.location?.line, 4)
    }

    /// The one reader of script lines: a file (which knows it is a transcript) and input read
    /// as it comes (a plain script until its first `> ` line) classify lines alike.
    func testTranscriptReaderClassifiesLines() {
        let lines = ["# c", "@format json", "> add A", "... @today", "Added 1", "... not a continuation",
                     "", "> list", "> count", "All 1", "", "@yes", "> delete where #x", "", "prose"]
        var file = TranscriptReader(transcript: true)
        var piped = TranscriptReader.discovering()
        let kinds = lines.map { file.read($0.utf8) }
        XCTAssertEqual(kinds, [.comment, .directive, .command(prefix: 2), .continuation, .expected, .expected,
                               .blank, .command(prefix: 2), .command(prefix: 2), .expected, .blank, .directive,
                               .command(prefix: 2), .blank, .stray])
        XCTAssertEqual(lines.map { piped.read($0.utf8) }, kinds)
        // Before its first `> `, input read as it comes is a plain script.
        var plain = TranscriptReader.discovering()
        XCTAssertEqual(["list", "... more", "# c", "> count", "text"].map { plain.read($0.utf8) },
                       [.command(prefix: 0), .continuation, .comment, .command(prefix: 2), .expected])
        XCTAssertTrue(plain.isTranscript)
    }
}
