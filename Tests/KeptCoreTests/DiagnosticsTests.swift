// Diagnostics are tested through their rendered text, in both forms (docs/LANGUAGE.md
// "Errors"), plus the catalog's code ranges and the did-you-mean distance.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class DiagnosticsTests: XCTestCase {
    func diagnostic(_ text: String, name: String = "morning.kept") -> Diagnostic? {
        let file = SourceFile(name: name, text: text)
        let t = Transcript(file: file)
        guard let c = t.commands.first else { return nil }
        let session = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                              defaultZone: Zone.utc)
        return session.run(c.statement).diagnostics.first
    }

    /// The rich form of docs/LANGUAGE.md: header, arrow with file:line:col, the source line as
    /// written in the file (with its `> `), the caret under the range with its label, and the help.
    func testRichFormPointsIntoTheTranscriptLine() throws {
        let d = try XCTUnwrap(diagnostic("# morning\n\n> lsit #errand\n"))
        let text = DiagnosticRenderer(style: .rich).render(d)
        XCTAssertEqual(text, """
        error[E0101]: unknown command 'lsit'
          --> morning.kept:3:3
           |
         3 | > lsit #errand
           |   ^^^^ not a command
           |
           = help: did you mean 'list'?
        """)
    }

    func testShortFormIsOneLine() throws {
        let d = try XCTUnwrap(diagnostic("> lsit #errand\n"))
        XCTAssertEqual(DiagnosticRenderer(style: .short).render(d),
                       "morning.kept:1:3: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?")
    }

    /// A continuation line keeps its file offsets: the caret lands on line 2 under the word.
    func testContinuationLinesKeepTheirColumns() throws {
        let d = try XCTUnwrap(diagnostic("> undo 1\n... 2\n"))
        XCTAssertEqual(d.code, .E0103)
        let loc = try XCTUnwrap(d.location)
        XCTAssertEqual(loc.line, 2)
        XCTAssertEqual(loc.column, 5)
        XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d).contains(" 2 | ... 2\n   |     ^"))
    }

    /// Columns count characters, not bytes: "ü" is one column; a title that matches no task is E0305.
    func testColumnsCountScalars() throws {
        let d = try XCTUnwrap(diagnostic("> set \"Müsli kaufen\" priorty high\n"))
        XCTAssertEqual(d.code, .E0305)
        let file = SourceFile(name: "x", text: "> ü frob")
        XCTAssertEqual(file.lineColumn(of: 5).column, 5)
    }

    /// An unclosed quote is a lexical error at the quote, with a help.
    func testUnterminatedString() throws {
        let d = try XCTUnwrap(diagnostic("> add \"Pay rent\n"))
        XCTAssertEqual(d.code, .E0001)
        XCTAssertEqual(DiagnosticRenderer(style: .short).render(d),
                       "morning.kept:1:7: error[E0001]: unterminated string; help: add a closing '\"'")
    }

    /// A caret into a very long line (a one-line store of megabytes) is drawn in a window.
    func testLongLinesAreWindowed() {
        let long = String(repeating: "a", count: 5000) + "X" + String(repeating: "b", count: 5000)
        let file = SourceFile(name: "big.json", text: long)
        let d = Diagnostic(code: .E0308, message: "could not read the store: boom", file: file,
                           range: SourceRange(start: 5000, end: 5001), label: "here")
        let lines = DiagnosticRenderer(style: .rich).render(d).split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.allSatisfy { $0.count < 130 }, "a rendered line is too long")
        let src = try? XCTUnwrap(lines.first { $0.contains("X") })
        let caret = try? XCTUnwrap(lines.first { $0.contains("^") })
        if let src, let caret {
            let xIndex = src.firstIndex(of: "X").map { src.distance(from: src.startIndex, to: $0) }
            let cIndex = caret.firstIndex(of: "^").map { caret.distance(from: caret.startIndex, to: $0) }
            XCTAssertEqual(xIndex, cIndex, "the caret is not under the character")
        }
    }

    func testColourOnlyWhenAsked() throws {
        let d = try XCTUnwrap(diagnostic("> lsit\n"))
        XCTAssertFalse(DiagnosticRenderer(style: .rich, color: false).render(d).contains("\u{1B}["))
        XCTAssertTrue(DiagnosticRenderer(style: .rich, color: true).render(d).contains("\u{1B}[1;31m"))
    }

    /// Codes are unique and sit in the ranges of docs/LANGUAGE.md ("Errors").
    func testCatalogCodesAreUniqueAndInRange() {
        var seen = Set<String>()
        for e in Catalog.entries {
            let code = e.code.rawValue
            XCTAssertTrue(seen.insert(code).inserted, "\(code) appears twice")
            XCTAssertEqual(code.count, 5)
            XCTAssertTrue(code.hasPrefix("E0") || code.hasPrefix("W0"), code)
            XCTAssertEqual(e.code.severity, code.hasPrefix("W") ? .warning : .error, code)
            XCTAssertFalse(e.summary.hasSuffix("."), "\(code): messages have no final period")
            XCTAssertEqual(e.summary, e.summary.lowercased().replacingOccurrences(of: "utf-8", with: "UTF-8"), "\(code): lowercase")
        }
        XCTAssertEqual(Catalog.entries.map(\.code.rawValue), Catalog.entries.map(\.code.rawValue).sorted(), "the catalog is in code order")
    }

    /// The catalog's files: the only sources that make a diagnostic or change one's code or
    /// message, and, with `DiagnosticCode.swift`, the only ones that name a code.
    static let catalogFiles: Set<String> = [
        "KeptSyntax/Diagnostics/Catalog.swift", "KeptSyntax/Diagnostics/Catalog+Rules.swift",
        "KeptInterpreter/Catalog+Layers.swift", "KeptInterpreter/Catalog+Domain.swift",
    ]

    /// Every way a source can make a diagnostic or change what it says, by line: a call of its
    /// initializer (`Diagnostic(`, `Diagnostic.init(`, `.init(code:`), a code as a value
    /// (`.E0301`) or as a string (`"E0301"`), and an assignment to a diagnostic's code,
    /// severity or message (`d.message = …`; a type's own `self.message` is not one).
    static func diagnosticMakers(_ source: String, codesAllowed: Bool = false) -> [String] {
        var patterns = [#"(?<![A-Za-z0-9_.])Diagnostic(\.init)?\("#, #"(?<!Diagnostic)\.init\(code:"#,
                        #"(?<!self)\.(code|severity|message)\s*(=(?!=)|\+=)"#]
        if !codesAllowed { patterns += [#"\.[EW]0[0-9]{3}\b"#, #""[EW]0[0-9]{3}""#] }
        let res = patterns.compactMap { try? NSRegularExpression(pattern: $0) }
        var out: [String] = []
        for (k, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw) as NSString
            for re in res {
                for m in re.matches(in: line as String, range: NSRange(location: 0, length: line.length)) {
                    out.append("\(k + 1): \(line.substring(with: m.range))")
                }
            }
        }
        return out
    }

    /// Every diagnostic is made in the catalog (`Catalog.swift`; `Catalog+Rules.swift` for the
    /// rules' errors; `Catalog+Layers.swift` and
    /// `Catalog+Domain.swift` for the values of the layers the syntax does not see): no other
    /// source builds one, names a code, or edits a diagnostic's code or message, so each code
    /// is one row and each message is written once.
    func testEveryDiagnosticComesFromTheCatalog() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let en = FileManager.default.enumerator(atPath: sources.path)
        var outside: [String] = []
        var inCatalog = 0
        var seen: Set<String> = []
        while let rel = en?.nextObject() as? String {
            guard rel.hasSuffix(".swift") else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(rel), encoding: .utf8)
            if Self.catalogFiles.contains(rel) {
                seen.insert(rel)
                inCatalog += Self.diagnosticMakers(text).count
            } else {
                // The type's own file and the codes' enum name codes; nothing else may.
                let codes = rel == "KeptSyntax/Diagnostics/DiagnosticCode.swift"
                outside += Self.diagnosticMakers(text, codesAllowed: codes).map { "\(rel):\($0)" }
            }
        }
        XCTAssertEqual(seen, Self.catalogFiles, "every catalog file is there")
        XCTAssertGreaterThan(inCatalog, 150, "the catalog makes its diagnostics")
        XCTAssertEqual(outside, [], "diagnostics made, coded or edited outside the catalog")
    }

    /// The guard can fail: each way of making or changing a diagnostic is found in a planted
    /// source, and what only looks like one is not.
    func testAPlantedDiagnosticIsFound() {
        let planted = """
            let a = Diagnostic(code: code, message: "made here")
            let b = Diagnostic.init(code: code, message: "and here")
            let c: Diagnostic = .init(code: code, message: "and here")
            d.message = "edited here"
            d.code = other
            d.message += "!"
            if d.code == .E0208 { print("E0208") }
            self.message = message
            let e = Catalog.noTask(1, range: r, file: f)
            let same = d.code == other
            func stateDiagnostic(_ p: StateProblem) {}
            """
        XCTAssertEqual(Self.diagnosticMakers(planted), [
            "1: Diagnostic(", "2: Diagnostic.init(", "3: .init(code:", "4: .message =", "5: .code =", "6: .message +=",
            "7: .E0208", "7: \"E0208\"",
        ])
        XCTAssertEqual(Self.diagnosticMakers(planted, codesAllowed: true).count, 6)
    }

    /// Where a source takes a token as a parameter, by line: a name, a colon and `Token` or
    /// `TokenKind`, alone, optional, in an array or `inout`. Only the parser holds tokens.
    static func tokenParameters(_ source: String) -> [String] {
        let re = try? NSRegularExpression(pattern: #"\b\w+\s*:\s*(inout\s+)?\[?\s*(KeptSyntax\.)?Token(Kind)?\b"#)
        var out: [String] = []
        for (k, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw) as NSString
            for m in re?.matches(in: line as String, range: NSRange(location: 0, length: line.length)) ?? [] {
                out.append("\(k + 1): \(line.substring(with: m.range))")
            }
        }
        return out
    }

    /// The catalog takes values (text, a range, the file), never a token: no file named
    /// `Catalog*.swift`, in any layer, has a parameter of type `Token`.
    func testTheCatalogTakesNoToken() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let en = FileManager.default.enumerator(atPath: sources.path)
        var files = 0
        var found: [String] = []
        while let rel = en?.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            guard name.hasPrefix("Catalog"), name.hasSuffix(".swift") else { continue }
            files += 1
            let text = try String(contentsOf: sources.appendingPathComponent(rel), encoding: .utf8)
            found += Self.tokenParameters(text).map { "\(rel):\($0)" }
        }
        XCTAssertGreaterThanOrEqual(files, Self.catalogFiles.count, "the catalog's files were found")
        XCTAssertEqual(found, [], "the catalog takes a token")
    }

    /// The guard can fail: a token parameter is found in a planted source, in each way it can
    /// be written, and a word that only holds "Token" is not.
    func testAPlantedTokenParameterIsFound() {
        let planted = """
            package static func unknownCommand(_ t: Token, file: SourceFile) -> Diagnostic {
            static func expected(_ what: String, at t: Token?, file: SourceFile) -> Diagnostic {
            static func many(_ ts: [Token], kind: TokenKind, into x: inout Token) {}
            static func qualified(t:KeptSyntax.Token) {}
            static func tooManyTokens(file: SourceFile, range: SourceRange) -> Diagnostic {
            case .statementTokens: return code
            // The parser reads a Token; the catalog its text.
            static func tokenish(_ t: TokenRange, n: Tokens) {}
            """
        XCTAssertEqual(Self.tokenParameters(planted), [
            "1: t: Token", "2: t: Token", "3: ts: [Token", "3: kind: TokenKind", "3: x: inout Token", "4: t:KeptSyntax.Token",
        ])
    }

    /// A did-you-mean is a fix-it: the range of the misspelled word and the word to put there.
    /// The help a renderer prints (the REPL's too) is the fix-it's title, and the fix made
    /// gives a statement that reads.
    func testDidYouMeanIsAFixIt() throws {
        let session = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                              defaultZone: Zone.utc)
        for setup in ["project add Home", "add Pay rent"] {
            XCTAssertFalse(session.run(StatementSource(file: SourceFile(name: "t", text: setup))).failed, setup)
        }
        let cases: [(String, String, String)] = [
            ("lsit", "did you mean 'list'?", "list"),
            ("show 1 titel", "did you mean 'title'?", "show 1 title"),
            ("set wek-start monday", "did you mean 'week-start'?", "set week-start monday"),
            ("add Pay rent +Hme", "did you mean 'Home'?", "add Pay rent +Home"),
            ("add Pay rent !hgh", "did you mean '!high'?", "add Pay rent !high"),
            ("add Pay rent @tomor dentist", "did you mean '@tomorrow'?", "add Pay rent @tomorrow dentist"),
            ("add Pay rent @frdiay", "did you mean 'friday'?", "add Pay rent @friday"),
            ("move 1 to tomorow", "did you mean 'tomorrow'?", "move 1 to tomorrow"),
            ("project archiv Home", "did you mean 'archive'?", "project archive Home"),
        ]
        for (line, title, fixed) in cases {
            let d = try XCTUnwrap(session.run(StatementSource(file: SourceFile(name: "t", text: line))).diagnostics.first, line)
            XCTAssertEqual(d.fixIts.map(\.title), [title], line)
            XCTAssertEqual(d.help, title, "\(line): the help is the fix-it's title")
            XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d).hasSuffix("= help: \(title)"), line)
            XCTAssertEqual(d.fixIts.first?.applied(to: line), fixed, line)
        }
        // No near word: no fix-it, and the help says where to look.
        let far = try XCTUnwrap(session.run(StatementSource(file: SourceFile(name: "t", text: "frobnicate"))).diagnostics.first)
        XCTAssertEqual(far.fixIts, [])
        XCTAssertEqual(far.help, "'help' lists the commands")
        // A word that would need quotes where the typed one has none is said, not offered.
        let file = SourceFile(name: "t", text: "list +HomeOffice")
        let m = Catalog.didYouMean("HomeOffice", in: ["Home Office"], at: SourceRange(start: 5, end: 16), file: file, sign: "+")
        XCTAssertEqual(m.fixIts, [])
        XCTAssertEqual(m.help, "did you mean '+Home Office'?")
        // Inside quotes it is offered, the quotes kept.
        let quoted = SourceFile(name: "t", text: "list +\"HomeOffice\"")
        let q = Catalog.didYouMean("HomeOffice", in: ["Home Office"], at: SourceRange(start: 6, end: 18), file: quoted, sign: "+")
        XCTAssertEqual(q.fixIts.first?.applied(to: "list +\"HomeOffice\""), "list +\"Home Office\"")
    }

    func testSuggestions() {
        let table: [(String, String, [String], String?)] = [
            ("sug-01", "lsit", ["list", "add"], "list"),
            ("sug-02", "tommorow", ["today", "tomorrow", "yesterday"], "tomorrow"),
            ("sug-03", "priorty", ["priority", "project"], "priority"),
            ("sug-04", "frobnicate", ["list", "add", "show"], nil),
            ("sug-05", "LIST", ["list"], "list"),
            ("sug-06", "ad", ["add", "all"], "add"),
            ("sug-07", "x", ["list"], nil),
        ]
        for (id, word, cands, want) in table {
            let got = Suggestion.nearest(word, in: cands)
            // An exact match (only case differs) is returned as the spelling to use.
            XCTAssertEqual(got, want, id)
        }
        XCTAssertEqual(Suggestion.distance("abcd", "abdc"), 1, "a swap is one edit")
    }
}
