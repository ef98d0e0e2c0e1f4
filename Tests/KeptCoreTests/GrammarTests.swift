// The grammar file is the source of truth: every Syntax production of Grammar/kept.ebnf has a
// parse function that quotes it exactly on its first doc line, and every quoted production is in
// the grammar. A production missing or different on either side fails this test.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class GrammarTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ rel: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(rel), encoding: .utf8)
    }

    /// Collapses white space, so a production may be wrapped differently in the two places.
    static func normal(_ s: String) -> String {
        s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
    }

    /// The productions of one part of the grammar file: name → text from `name ::=` to `;`.
    static func productions(_ grammar: String, part: String) -> [String: String] {
        // The parts are marked by comments `(* ---------- Syntax ---------- *)`.
        let parts = grammar.components(separatedBy: "(* ---------- ")
        guard var section = parts.first(where: { $0.hasPrefix(part + " ") }) else { return [:] }
        // Drop comments: they may contain '::=' or ';'.
        while let open = section.range(of: "(*"), let close = section.range(of: "*)", range: open.upperBound..<section.endIndex) {
            section.replaceSubrange(open.lowerBound..<close.upperBound, with: " ")
        }
        var out: [String: String] = [:]
        var current = ""
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            current += " " + line
            if line.trimmingCharacters(in: .whitespaces).hasSuffix(";") {
                let p = normal(current)
                if let r = p.range(of: " ::= ") {
                    out[String(p[..<r.lowerBound])] = p
                }
                current = ""
            }
        }
        return out
    }

    /// The productions quoted by parse functions: the doc lines before each `func parseX`.
    static func quoted(_ source: String) -> [(function: String, production: String)] {
        var out: [(String, String)] = []
        var doc: [String] = []
        for raw in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("///") {
                doc.append(String(line.dropFirst(3)))
                continue
            }
            if let r = line.range(of: "func parse"), let paren = line.range(of: "(", range: r.upperBound..<line.endIndex) {
                let name = "parse" + line[r.upperBound..<paren.lowerBound]
                // The production is the doc comment's first sentence, up to its ';'.
                var prod = ""
                for d in doc {
                    prod += " " + d
                    if d.trimmingCharacters(in: .whitespaces).hasSuffix(";") { break }
                }
                if prod.contains("::=") { out.append((name, normal(prod))) }
            }
            doc = []
        }
        return out
    }

    /// `add_stmt` → `parseAddStmt`.
    static func functionName(_ production: String) -> String {
        "parse" + production.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    func testEveryProductionHasItsParseFunction() throws {
        let grammar = Self.productions(try Self.read("Grammar/kept.ebnf"), part: "Syntax")
        XCTAssertGreaterThan(grammar.count, 10, "the Syntax part of the grammar was not found")
        // Parse functions live in the parser and in the modules that own a sub-language.
        let sources = try ["Sources/KeptSyntax/Parser.swift", "Sources/KeptSyntax/Parser+Actions.swift",
                       "Sources/KeptSyntax/Parser+Reminders.swift",
                       "Sources/KeptSyntax/Parser+RepeatDates.swift",
                       "Sources/KeptSyntax/Parser+Plan.swift",
                       "Sources/KeptSyntax/Parser+Interop.swift",
                       "Sources/KeptSyntax/Parser+Sync.swift",
                       "Sources/KeptSyntax/Parser+Calendars.swift",
                       "Sources/KeptRules/Capture/DatePhraseParser.swift",
                       "Sources/KeptRules/Recurrence/RepeatRuleParser.swift",
                       "Sources/KeptSyntax/Filters/FilterParser.swift", "Sources/KeptSyntax/Filters/FilterParser+Values.swift",
                       "Sources/KeptSyntax/Filters/ListClauses.swift"].map(Self.read)
        let quotes = sources.flatMap(Self.quoted)
        let byFunction = Dictionary(quotes.map { ($0.function, $0.production) }, uniquingKeysWith: { a, _ in a })
        for (name, text) in grammar.sorted(by: { $0.key < $1.key }) {
            let fn = Self.functionName(name)
            guard let q = byFunction[fn] else {
                XCTFail("grammar production '\(name)' has no \(fn)() quoting it")
                continue
            }
            XCTAssertEqual(q, text, "\(fn)() quotes a production that differs from Grammar/kept.ebnf")
        }
        for (fn, text) in quotes {
            guard let r = text.range(of: " ::= ") else { continue }
            let name = String(text[..<r.lowerBound])
            XCTAssertNotNil(grammar[name], "\(fn)() quotes '\(name)', which Grammar/kept.ebnf does not have")
            XCTAssertEqual(Self.functionName(name), fn, "\(fn)() should be named after its production '\(name)'")
        }
    }

    /// Every command keyword is a terminal of the grammar, so `help`, completion and the
    /// grammar cannot drift apart.
    func testEveryCommandKeywordIsInTheGrammar() throws {
        let grammar = try Self.read("Grammar/kept.ebnf")
        for kw in Keyword.commands {
            XCTAssertTrue(grammar.contains("\"\(kw.rawValue)\""), "command '\(kw.rawValue)' is not a terminal of the grammar")
            XCTAssertFalse(kw.summary.isEmpty, "command '\(kw.rawValue)' has no summary for help")
            XCTAssertFalse(kw.example.isEmpty, "command '\(kw.rawValue)' has no example for help")
        }
    }

    /// The checker itself must notice a drift: a changed quote and a missing production.
    func testTheCheckerSeesADrift() {
        let g = """
        (* ---------- Syntax ---------- *)
        a_stmt ::= "a" NUMBER ;
        b_stmt ::= "b" ;
        (* ---------- Lexical ---------- *)
        """
        let grammar = Self.productions(g, part: "Syntax")
        XCTAssertEqual(grammar["a_stmt"], "a_stmt ::= \"a\" NUMBER ;")
        let src = """
            /// a_stmt ::= "a" [ NUMBER ] ;
            mutating func parseAStmt() {}
        """
        let q = Self.quoted(src)
        XCTAssertEqual(q.count, 1)
        XCTAssertNotEqual(q.first?.production, grammar["a_stmt"])
        XCTAssertNil(Self.quoted(src).first { $0.function == "parseBStmt" })
    }
}
