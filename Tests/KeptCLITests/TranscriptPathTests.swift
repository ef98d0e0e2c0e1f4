// `kept test` reads a transcript's file names against the transcript's folder, as `@store`
// is read (docs/SCRIPTS.md), so a transcript passes from any working folder (issue 32).

import Foundation
import XCTest

final class TranscriptPathTests: XCTestCase {
    /// R-IO-1: `import FILE` and `export FILE` in a transcript resolve against its folder, from
    /// the folder above it, from a sibling folder and from inside it.
    func testImportAndExportResolveAgainstTheTranscriptsFolder() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try FileManager.default.createDirectory(atPath: dir.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.path("other"), withIntermediateDirectories: true)
_ = try dir.write("sub/tasks.csv", "TYPE,CONTENT\ntask,Water the plants\n")
_ = try dir.write("sub/t.kept", """
        > import tasks.csv
        Imported tasks.csv (CSV): 1 added, 0 changed, 0 skipped

        > export out.jsonl as jsonl
        Exported 1 task to out.jsonl (JSON Lines)

        > import out.jsonl dry-run
        Would import out.jsonl (JSON Lines): 0 added, 0 changed, 1 skipped (1 same)
        skip 1 · Water the plants · same · line 1

        """)
        for (cwd, path) in [(dir.url, "sub/t.kept"), (dir.url.appendingPathComponent("other"), "../sub/t.kept"),
                            (dir.url.appendingPathComponent("sub"), "t.kept")] {
            try? FileManager.default.removeItem(atPath: dir.path("sub/out.jsonl"))
            let r = try Kept.run(["test", path], cwd: cwd)
            XCTAssertEqual(r.status, 0, "\(path) from \(cwd.path): " + r.summary)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.path("sub/out.jsonl")), path)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("out.jsonl")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("other/out.jsonl")))
    }

    /// R-IO-1: the repository's interop transcript passes from a folder outside the repository.
    func testTheInteropTranscriptPassesFromAnotherFolder() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let transcript = Kept.packageRoot.appendingPathComponent("examples/interop.kept").path
        let r = try Kept.run(["test", transcript], cwd: dir.url)
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdout.contains(" 0 failed"), r.summary)
    }
}
