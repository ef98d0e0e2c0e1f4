// PathPolicy (issue 28, F6): which paths a transcript `kept test` runs may open. Each case is a
// path in a scratch tree, relative to the tree, and whether a policy confined to `tree/in` (and
// `tree/extra` where a case says) allows it; `..`, links out, dangling links and folder names
// that only begin like an allowed one are the traps.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class PathPolicyTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("kept-policy-\(UUID().uuidString)")
        root = base.resolvingSymlinksInPath().path
        let fm = FileManager.default
        for d in ["in/sub", "out", "inside-not", "extra"] {
            try fm.createDirectory(atPath: "\(root)/\(d)", withIntermediateDirectories: true)
        }
        for f in ["in/a.csv", "in/sub/b.csv", "out/secret.csv", "inside-not/c.csv", "extra/d.csv"] {
            fm.createFile(atPath: "\(root)/\(f)", contents: Data("x\n".utf8))
        }
        try fm.createSymbolicLink(atPath: "\(root)/in/to-secret.csv", withDestinationPath: "\(root)/out/secret.csv")
        try fm.createSymbolicLink(atPath: "\(root)/in/to-sibling.csv", withDestinationPath: "sub/b.csv")
        try fm.createSymbolicLink(atPath: "\(root)/in/dangling-out.jsonl", withDestinationPath: "\(root)/out/new.jsonl")
        try fm.createSymbolicLink(atPath: "\(root)/in/dangling-in.jsonl", withDestinationPath: "new-here.jsonl")
        try fm.createSymbolicLink(atPath: "\(root)/in/out-dir", withDestinationPath: "\(root)/out")
        try fm.createSymbolicLink(atPath: "\(root)/link-to-in", withDestinationPath: "\(root)/in")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: root)
    }

    func testConfinedPaths() {
        let policy = PathPolicy.confined(to: ["\(root)/in"])
        let wide = PathPolicy.confined(to: ["\(root)/in", "\(root)/extra"])
        let table: [(String, String, PathPolicy, Bool)] = [
            ("pp-01", "in/a.csv", policy, true),
            ("pp-02", "in/sub/b.csv", policy, true),
            ("pp-03", "in/new.jsonl", policy, true),             // not there yet: its folder decides
            ("pp-04", "in", policy, true),                       // the folder itself
            ("pp-05", "out/secret.csv", policy, false),
            ("pp-06", "in/../out/secret.csv", policy, false),    // .. climbs out
            ("pp-07", "in/sub/../../out/new.jsonl", policy, false),
            ("pp-08", "in/sub/../a.csv", policy, true),          // .. that stays inside
            ("pp-09", "in/to-secret.csv", policy, false),        // a link inside that leads out
            ("pp-10", "in/to-sibling.csv", policy, true),        // a link that stays inside
            ("pp-11", "in/dangling-out.jsonl", policy, false),   // a write would create out/new.jsonl
            ("pp-12", "in/dangling-in.jsonl", policy, true),
            ("pp-13", "in/out-dir/secret.csv", policy, false),   // a linked folder inside that leads out
            ("pp-14", "in/out-dir/new.jsonl", policy, false),
            ("pp-15", "inside-not/c.csv", PathPolicy.confined(to: ["\(root)/in"]), false),
            ("pp-16", "link-to-in/a.csv", policy, true),         // another way into the folder
            ("pp-17", "extra/d.csv", policy, false),
            ("pp-18", "extra/d.csv", wide, true),                // --allow-path
            ("pp-19", "in/missing/x.jsonl", policy, true),       // a folder not there: it fails when opened
            ("pp-20", "in/missing/../../out/x.jsonl", policy, false),
            ("pp-21", "/etc/passwd", policy, false),
            ("pp-22", "-", policy, true),                        // standard input or output
        ]
        for (id, path, p, allowed) in table {
            let full = path == "-" || path.hasPrefix("/") ? path : "\(root)/\(path)"
            XCTAssertEqual(p.refusal(full) == nil, allowed, "\(id): \(path)")
        }
    }

    /// A relative path is from the working folder, as import and export read it.
    func testARelativePathIsFromTheWorkingFolder() throws {
        let saved = FileManager.default.currentDirectoryPath
        defer { FileManager.default.changeCurrentDirectoryPath(saved) }
        XCTAssertTrue(FileManager.default.changeCurrentDirectoryPath("\(root)/in/sub"))
        let policy = PathPolicy.confined(to: ["\(root)/in"])
        XCTAssertNil(policy.refusal("b.csv"))
        XCTAssertNil(policy.refusal("../a.csv"))
        let r = policy.refusal("../../out/secret.csv")
        XCTAssertEqual(r?.resolved, "\(root)/out/secret.csv")
    }

    /// Unrestricted allows anything; a folder that does not exist allows nothing; `/` all.
    func testUnrestrictedAndEdgeFolders() {
        XCTAssertNil(PathPolicy.unrestricted.refusal("/etc/passwd"))
        XCTAssertNotNil(PathPolicy.confined(to: ["\(root)/none"]).refusal("\(root)/none/x.csv"))
        XCTAssertNotNil(PathPolicy.confined(to: []).refusal("\(root)/in/a.csv"))
        XCTAssertNil(PathPolicy.confined(to: ["/"]).refusal("\(root)/out/secret.csv"))
    }

    /// The session checks the policy where import and export open their files: E0337 at the
    /// file argument, and nothing read or written.
    func testTheSessionRefusesOutsidePaths() throws {
        let session = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(date: CivilDate(dayNumber: 20619), time: .midnight)), defaultZone: Zone.utc)
        session.pathPolicy = .confined(to: ["\(root)/in"])
        let file = SourceFile(name: "t.kept", text: "> export \(root)/out/x.jsonl\n> import \(root)/out/secret.csv\n")
        let t = Transcript(file: file)
        XCTAssertEqual(t.commands.count, 2)
        for c in t.commands {
            let d = session.run(c.statement).diagnostics.first
            XCTAssertEqual(d?.code, .E0337, c.statement.text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(root)/out/x.jsonl"))
        XCTAssertEqual(session.copy().pathPolicy, session.pathPolicy, "each @case keeps the policy")
    }
}
