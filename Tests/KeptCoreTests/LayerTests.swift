// The layers the compiler keeps (docs/ARCHITECTURE.md, "Layers"): Package.swift's graph of
// targets, the table in ARCHITECTURE.md and every source file's imports must agree, the graph
// must keep its walls, and the layers below the interpreter must name no diagnostic code.
// SwiftPM alone does not hold the imports: on Linux every module is built into one folder, so
// an undeclared `import` can compile when the module happens to be built first. This test
// reads the files instead.

import Foundation
import XCTest

final class LayerTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The modules every target may import beside its declared dependencies.
    static let system: Set<String> = ["Foundation", "Glibc", "Darwin", "Dispatch", "Synchronization"]

    /// The library's layers, bottom up.
    static let layers = ["KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSync", "KeptSyntax", "KeptInterpreter"]

    /// The walls: for each layer, the Kept targets it must never depend on, directly or through
    /// another. These are the review's findings made into rules.
    static let walls: [String: Set<String>] = [
        // The rules are values and computations: no I/O, no store, no language, no engine.
        "KeptRules": ["KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSync", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        "KeptFiles": ["KeptDomain", "KeptStore", "KeptInterop", "KeptSync", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        // The engine sees a store only through its seam, a server only through `SyncServer`,
        // and never a token or a diagnostic.
        "KeptDomain": ["KeptFiles", "KeptStore", "KeptInterop", "KeptSync", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        // Store and Interop see the domain only through its protocols, and not each other.
        "KeptStore": ["KeptInterop", "KeptSync", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        "KeptInterop": ["KeptStore", "KeptSync", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        // The sync server is a seam's implementation too: no store backend, no language.
        "KeptSync": ["KeptStore", "KeptSyntax", "KeptInterpreter", "KeptCLI"],
        "KeptSyntax": ["KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSync", "KeptInterpreter", "KeptCLI"],
        // The interpreter picks no backend: the front end does.
        "KeptInterpreter": ["KeptStore", "KeptCLI"],
    ]

    /// The layers below the interpreter: they know no diagnostic, so no source of theirs names
    /// `DiagnosticCode` or a code, in code or in a comment. Their errors are typed values the
    /// catalog words and codes (`Catalog+Rules`, `Catalog+Layers`).
    static let codeless = ["KeptRules", "KeptFiles", "KeptDomain", "KeptStore", "KeptInterop", "KeptSync"]

    /// Targets a layer must not import itself, though a layer it uses may.
    static let directWalls: [String: Set<String>] = [
        // The interpreter opens no files: Interop reads and writes them for it.
        "KeptInterpreter": ["KeptFiles"],
    ]

    // MARK: reading the three sources

    /// Each target of Package.swift with the targets and C modules it depends on.
    static func packageGraph(_ text: String) -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        let pattern = #"\.(?:target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?"#
        guard let re = try? NSRegularExpression(pattern: pattern) else { return [:] }
        let ns = text as NSString
        for m in re.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: m.range(at: 1))
            var deps: Set<String> = []
            if m.range(at: 2).location != NSNotFound {
                for part in ns.substring(with: m.range(at: 2)).split(separator: ",") {
                    let d = part.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if !d.isEmpty { deps.insert(d) }
                }
            }
            graph[name] = deps
        }
        return graph
    }

    /// The rows of ARCHITECTURE.md's layer table: `| `KeptStore` | `KeptRules`, `KeptDomain` | … |`.
    static func documentedGraph(_ text: String) -> [String: Set<String>] {
        var graph: [String: Set<String>] = [:]
        guard let start = text.range(of: "## Layers") else { return [:] }
        for line in text[start.upperBound...].split(separator: "\n") {
            if line.hasPrefix("## ") { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, cells[1].hasPrefix("`Kept") else { continue }
            let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let deps = cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
            graph[name] = Set(deps.filter { !$0.isEmpty && $0 != "—" })
        }
        return graph
    }

    /// The modules a Swift source imports (`import X`, `@testable import X`, `@preconcurrency import X`).
    static func imports(_ source: String) -> [(module: String, line: Int)] {
        var out: [(String, Int)] = []
        for (k, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words = raw.split(separator: " ").map(String.init)
            while let w = words.first, w.hasPrefix("@") { words.removeFirst() }
            guard words.count >= 2, words[0] == "import" else { continue }
            var module = words[1]
            // `import struct Foo.Bar`, `import Foo.Bar`
            if ["struct", "class", "enum", "protocol", "func", "var", "let", "typealias"].contains(module), words.count >= 3 { module = words[2] }
            out.append((String(module.split(separator: ".")[0]), k + 1))
        }
        return out
    }

    /// Every Kept target that `target` reaches through `graph`, itself left out.
    static func reach(_ target: String, _ graph: [String: Set<String>]) -> Set<String> {
        var seen: Set<String> = []
        var todo = Array(graph[target] ?? [])
        while let t = todo.popLast() {
            guard seen.insert(t).inserted else { continue }
            todo += graph[t] ?? []
        }
        return seen
    }

    /// What is wrong with a graph: a broken wall, or a cycle.
    static func wallProblems(_ graph: [String: Set<String>]) -> [String] {
        var problems: [String] = []
        for (layer, banned) in walls.sorted(by: { $0.key < $1.key }) {
            let reached = reach(layer, graph)
            if reached.contains(layer) { problems.append("\(layer) depends on itself through a cycle") }
            for b in banned.sorted() where reached.contains(b) { problems.append("\(layer) depends on \(b)") }
        }
        for (layer, banned) in directWalls.sorted(by: { $0.key < $1.key }) {
            for b in banned.sorted() where graph[layer]?.contains(b) == true { problems.append("\(layer) imports \(b)") }
        }
        return problems
    }

    /// Each import of a file under Sources/<target>/ that its target does not declare.
    static func importProblems(target: String, file: String, source: String, graph: [String: Set<String>]) -> [String] {
        let allowed = (graph[target] ?? []).union(system)
        return imports(source).filter { !allowed.contains($0.module) }.map { "\(file):\($0.line): \(target) imports \($0.module), which Package.swift does not give it" }
    }

    /// Each mention of `DiagnosticCode` or of a code (`E0301`, `W0002`) in a source, by line.
    static func codeMentions(file: String, source: String) -> [String] {
        guard let re = try? NSRegularExpression(pattern: #"DiagnosticCode|\b[EW]0[0-9]{3}\b"#) else { return ["no pattern"] }
        var out: [String] = []
        for (k, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw) as NSString
            for m in re.matches(in: line as String, range: NSRange(location: 0, length: line.length)) {
                out.append("\(file):\(k + 1): \(line.substring(with: m.range))")
            }
        }
        return out
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    // MARK: the tests

    func testPackageKeepsTheWalls() throws {
        let graph = Self.packageGraph(try text("Package.swift"))
        for layer in Self.layers { XCTAssertNotNil(graph[layer], "Package.swift has no target \(layer)") }
        XCTAssertEqual(Self.wallProblems(graph), [])
        // Only the interpreter, the front end and the tools above it depend on the syntax.
        let onSyntax = graph.filter { $0.value.contains("KeptSyntax") }.map(\.key).sorted()
        XCTAssertEqual(onSyntax, ["KeptCLI", "KeptCLITests", "KeptCoreTests", "KeptInterpreter", "kept-bench"])
    }

    func testArchitectureDrawsThePackageGraph() throws {
        let package = Self.packageGraph(try text("Package.swift"))
        let drawn = Self.documentedGraph(try text("docs/ARCHITECTURE.md"))
        XCTAssertEqual(Set(drawn.keys), Set(Self.layers + ["KeptCLI"]), "ARCHITECTURE.md's layer table names every layer and the CLI")
        for (name, deps) in drawn {
            XCTAssertEqual(deps, package[name], "ARCHITECTURE.md and Package.swift differ on \(name)")
        }
    }

    func testSourcesImportOnlyWhatTheirTargetDeclares() throws {
        let graph = Self.packageGraph(try text("Package.swift"))
        var problems: [String] = []
        var files = 0
        for target in Self.layers + ["KeptCLI", "kept"] {
            let dir = Self.root.appendingPathComponent("Sources/\(target)")
            guard let walk = FileManager.default.enumerator(atPath: dir.path) else { problems.append("no folder for \(target)"); continue }
            for case let rel as String in walk where rel.hasSuffix(".swift") {
                let source = try String(contentsOf: dir.appendingPathComponent(rel), encoding: .utf8)
                problems += Self.importProblems(target: target, file: "Sources/\(target)/\(rel)", source: source, graph: graph)
                files += 1
            }
        }
        XCTAssertGreaterThan(files, 200)
        XCTAssertEqual(problems, [])
        // Nothing is left in the old single target.
        XCTAssertFalse(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/KeptCore").path))
    }

    /// No source of the layers below the interpreter mentions a diagnostic code: the codes live
    /// in the catalog (`Catalog*.swift`) and `DiagnosticCode.swift`, both in KeptSyntax.
    func testLowerLayersKnowNoDiagnosticCode() throws {
        var problems: [String] = []
        var files = 0
        for target in Self.codeless {
            let dir = Self.root.appendingPathComponent("Sources/\(target)")
            guard let walk = FileManager.default.enumerator(atPath: dir.path) else { problems.append("no folder for \(target)"); continue }
            for case let rel as String in walk where rel.hasSuffix(".swift") {
                let source = try String(contentsOf: dir.appendingPathComponent(rel), encoding: .utf8)
                problems += Self.codeMentions(file: "Sources/\(target)/\(rel)", source: source)
                files += 1
            }
        }
        XCTAssertGreaterThan(files, 100)
        XCTAssertEqual(problems, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent("Sources/KeptSyntax/Diagnostics/DiagnosticCode.swift").path))
    }

    /// The check can fail: a planted code in a comment and a planted `DiagnosticCode` are found,
    /// and a hexadecimal number that looks like one is not.
    func testAPlantedCodeIsFound() {
        let planted = "/// Refused with E0301, or W0002.\nstruct Refusal { let code: DiagnosticCode }\nlet mask = 0xE0301\n"
        XCTAssertEqual(Self.codeMentions(file: "Sources/KeptDomain/Planted.swift", source: planted),
                       ["Sources/KeptDomain/Planted.swift:1: E0301", "Sources/KeptDomain/Planted.swift:1: W0002",
                        "Sources/KeptDomain/Planted.swift:2: DiagnosticCode"])
    }

    /// The checks can fail: a planted import across a wall, and a planted dependency, are found.
    func testAPlantedCrossingIsFound() throws {
        let package = try text("Package.swift")
        let graph = Self.packageGraph(package)
        // The interpreter's type used from the store.
        let planted = "import KeptRules\nimport KeptDomain\n@testable import KeptInterpreter\n\nfunc f(_ s: Session) {}\n"
        XCTAssertEqual(Self.importProblems(target: "KeptStore", file: "Sources/KeptStore/Planted.swift", source: planted, graph: graph),
                       ["Sources/KeptStore/Planted.swift:3: KeptStore imports KeptInterpreter, which Package.swift does not give it"])
        // The same crossing declared in Package.swift instead.
        var crossed = graph
        crossed["KeptStore", default: []].insert("KeptInterpreter")
        XCTAssertTrue(Self.wallProblems(crossed).contains("KeptStore depends on KeptInterpreter"), "\(Self.wallProblems(crossed))")
        // A wall broken two steps away: the domain reaching the store through the rules.
        var indirect = graph
        indirect["KeptRules", default: []].insert("KeptStore")
        XCTAssertTrue(Self.wallProblems(indirect).contains("KeptDomain depends on KeptStore"))
        XCTAssertTrue(Self.wallProblems(indirect).contains { $0.contains("cycle") })
        // The sync server reaching a store backend.
        var syncing = graph
        syncing["KeptSync", default: []].insert("KeptStore")
        XCTAssertEqual(Self.wallProblems(syncing), ["KeptSync depends on KeptStore"])
        XCTAssertEqual(graph["KeptSync"], ["KeptRules", "KeptDomain", "CLibPQ"])
        // A direct wall: the interpreter opening files itself.
        var opening = graph
        opening["KeptInterpreter", default: []].insert("KeptFiles")
        XCTAssertEqual(Self.wallProblems(opening), ["KeptInterpreter imports KeptFiles"])
        // The parser reads what the file says, dependencies and all.
        XCTAssertEqual(graph["KeptDomain"], ["KeptRules"])
        XCTAssertEqual(graph["KeptStore"], ["KeptRules", "KeptDomain", "KeptFiles", "CSQLite"])
    }
}
