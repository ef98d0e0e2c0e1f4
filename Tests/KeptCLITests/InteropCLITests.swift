// kept import and kept export on the command line (docs/INTEROP.md): a file in, the store
// written; a dry run writes nothing; standard input and output with `-`; a malformed file exits
// 1 with its place and leaves the store as it was.

import Foundation
import XCTest

final class InteropCLITests: XCTestCase {
    func testImportAndExportFromTheCommandLine() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-interop-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = dir.appendingPathComponent("s.json").path
        let tw = """
        [
        {"uuid":"0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e","description":"Pay rent","status":"pending","entry":"20260601T080000Z","modified":"20260602T080000Z","due":"20260630T220000Z"},
        {"uuid":"1c8f6d2f-4a2b-4d3c-8e5f-6a7b8c9d0e1f","description":"Call mom","status":"pending","entry":"20260601T080000Z"}
        ]
        """
        let clock = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]
        var r = try Kept.run(["import", "-", "--as", "tw", "--store", store, "--dry-run"] + clock, stdin: Data(tw.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Would import - (Taskwarrior JSON): 2 added"), r.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: store), "a dry run writes nothing")
        r = try Kept.run(["import", "-", "--as", "tw", "--store", store] + clock, stdin: Data(tw.utf8))
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("Imported - (Taskwarrior JSON): 2 added, 0 changed, 0 skipped"), r.stdout)
        r = try Kept.run(["export", "-", "--as", "ics", "--store", store, "Pay", "rent"] + clock)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("BEGIN:VCALENDAR\r\n"), "CRLF line ends on standard output")
        XCTAssertTrue(r.stdout.contains("UID:0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e\r\n"))
        XCTAssertFalse(r.stdout.contains("Call mom"), "the words after the file are the export's filter")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bad = dir.appendingPathComponent("bad.tw.json")
        try Data("[\n{\"description\": \"A\"},\n{\"description\": \"B\",}\n]\n".utf8).write(to: bad)
        r = try Kept.run(["import", bad.path, "--store", store] + clock)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("E0603"), r.stderr)
        XCTAssertTrue(r.stderr.contains("line 3, column 20"), r.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: store)), before, "a refused file leaves the store as it was")
        // Without --store the import goes to the user's store (R-HOME-1): refused, it leaves
        // none behind.
        let data = dir.appendingPathComponent("data")
        r = try Kept.run(["import", bad.path] + clock, environment: ["XDG_DATA_HOME": data.path])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("E0603"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("kept/tasks.db").path), "a refused import leaves no store")
    }
}
