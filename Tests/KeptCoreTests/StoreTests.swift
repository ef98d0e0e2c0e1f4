// The store file: a round trip keeps every field this version does not know (R-STORE-1), writes
// are atomic, and a store that cannot be read is reported with its line and column (R-STORE-2).

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class StoreTests: XCTestCase {
    static let sample = """
    {
      "format": "kept-store",
      "version": 1,
      "nextId": 9,
      "settings": {"day-start": "04:00", "clock": "24h", "theme": "dark"},
      "projects": [{"name": "Home", "color": "#3366ff"}],
      "areas": [{"name": "Work", "icon": "briefcase"}],
      "filters": [{"name": "Errands", "filter": "#errand", "starred": true, "order": 3}],
      "tasks": [
        {"id": 2, "title": "Pay rent", "status": "open", "due": {"date": "2026-06-15", "time": "15:00"}, "priority": "high",
         "project": "Home", "tags": ["money"], "createdAt": "2026-06-01T08:00:00Z", "syncedFrom": "phone", "nested": {"a": [1, 2.50]}},
        {"id": 5, "title": "Water plants", "status": "done", "completedAt": "2026-06-14T17:00:00+02:00", "createdAt": "2026-06-10T09:00:00Z",
         "estimate": {"minutes": 10, "source": "suggested"}, "steps": [{"title": "balcony", "done": true}]}
      ],
      "sync": {"device": "laptop", "revision": 42}
    }
    """

    func decode(_ s: String) -> Result<Store, JSONError> { StoreCodec.decode(Array(s.utf8)) }

    func testDecodeKnownFields() throws {
        let s = try decode(Self.sample).get()
        XCTAssertEqual(s.tasks.map(\.id), [2, 5])
        XCTAssertEqual(s.nextID, 9)
        XCTAssertEqual(s.settings.day.dayStart.iso, "04:00")
        XCTAssertEqual(s.settings.day.hourCycle, .h24)
        let t = try XCTUnwrap(s.task(2))
        XCTAssertEqual(t.due, Due(date: try XCTUnwrap(CivilDate(iso: "2026-06-15")), time: WallTime(hour: 15, minute: 0)))
        XCTAssertEqual(t.priority, .high)
        XCTAssertEqual(t.tags, ["money"])
        let done = try XCTUnwrap(s.task(5))
        XCTAssertEqual(done.status, .done)
        XCTAssertEqual(done.completedAt, TimeText.parseISOInstant("2026-06-14T15:00:00Z"))
        XCTAssertEqual(done.estimate, Estimate(minutes: 10, source: .suggested))
        XCTAssertEqual(done.steps, [Step(title: "balcony", done: true)])
    }

    /// R-STORE-1: unknown fields at every level survive decode → change → encode → decode.
    func testUnknownFieldsSurviveAChange() throws {
        var s = try decode(Self.sample).get()
        var t = try XCTUnwrap(s.task(2))
        t.title = "Pay the rent"
        s.put(t)
        let id = s.takeID()
        s.put(Task(id: id, title: "New", createdAt: Instant(seconds: 0)))
        let bytes = StoreCodec.encode(s)
        let back = try JSONParser.parse(bytes)
        let original = try JSONParser.parse(Self.sample)
        XCTAssertEqual(back["sync"], original["sync"])
        XCTAssertEqual(back["settings"]?["theme"], .string("dark"))
        XCTAssertEqual(back["projects"]?.arrayValue?.first?["color"], .string("#3366ff"))
        XCTAssertEqual(back["areas"]?.arrayValue?.first?["icon"], .string("briefcase"))
        XCTAssertEqual(back["filters"]?.arrayValue?.first?["order"], .number(JSONNumber(3)))
        let task2 = try XCTUnwrap(back["tasks"]?.arrayValue?.first)
        XCTAssertEqual(task2["title"], .string("Pay the rent"))
        XCTAssertEqual(task2["syncedFrom"], .string("phone"))
        // Numbers keep their text: 2.50 stays 2.50.
        XCTAssertEqual(task2["nested"], original["tasks"]?.arrayValue?.first?["nested"])
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("2.50"))
        let again = try decode(String(decoding: bytes, as: UTF8.self)).get()
        XCTAssertEqual(again.tasks.count, 3)
        XCTAssertEqual(again.nextID, 10)
        // A second round trip gives the same bytes.
        XCTAssertEqual(StoreCodec.encode(again), bytes)
    }

    func testEmptyStoreRoundTrip() throws {
        let bytes = StoreCodec.encode(Store())
        let s = try decode(String(decoding: bytes, as: UTF8.self)).get()
        XCTAssertTrue(s.tasks.isEmpty)
        XCTAssertEqual(s.nextID, 1)
        XCTAssertTrue(try decode("{}").get().tasks.isEmpty)
    }

    /// Unreadable stores: each error names a line and column inside the file.
    func testErrorsCarryPositions() {
        let table: [(String, String, Int, Int, String)] = [
            ("st-01", "{\n  \"tasks\": [\n    {\"id\": 1, \"title\": \"a\",}\n  ]\n}", 3, 27, "trailing comma"),
            ("st-02", "{\"tasks\": [{\"title\": \"no id\"}]}", 1, 12, "needs an 'id'"),
            ("st-03", "{\"tasks\": [{\"id\": 1, \"title\": \"a\", \"due\": {\"date\": \"2026-02-30\"}}]}", 1, 43, "a due needs a 'date'"),
            ("st-04", "{\"version\": 7}", 1, 13, "store version 7"),
            ("st-05", "{\"tasks\": [{\"id\": 1, \"title\": \"a\"}, {\"id\": 1, \"title\": \"b\"}]}", 1, 37, "two tasks have id 1"),
            ("st-06", "[1, 2]", 1, 1, "a store is a JSON object"),
            ("st-07", "{\"format\": \"other\"}", 1, 12, "'format' is 'other'"),
            ("st-08", "{\"tasks\": [{\"id\": 1, \"title\": \"a\", \"priority\": \"huge\"}]}", 1, 48, "'huge' is not a priority"),
            ("st-09", "{\"settings\": {\"clock\": \"13h\"}}", 1, 24, "'13h' is not a value"),
            ("st-10", "{\"tasks\": [{\"id\": 1, \"title\": \"a\", \"createdAt\": \"yesterday\"}]}", 1, 49, "not an instant"),
            ("st-11", "", 1, 1, "JSON object"),
        ]
        for (id, text, line, column, words) in table {
            switch decode(text) {
            case .success: XCTFail("\(id): decoded")
            case .failure(let e):
                XCTAssertEqual(e.line, line, "\(id): \(e)")
                XCTAssertEqual(e.column, column, "\(id): \(e)")
                XCTAssertTrue(e.message.contains(words), "\(id): \(e.message)")
            }
        }
    }

    func tempDir() throws -> String {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("kept-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: d) }
        return d.path
    }

    /// R-STORE-2: a save replaces the file whole and leaves no temporary file behind.
    func testAtomicSave() throws {
        let dir = try tempDir()
        let path = "\(dir)/store.json"
        try Self.sample.write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o600)
        guard case .success(.store(var s)) = StoreFile.load(path) else { return XCTFail("load") }
        s.put(Task(id: s.takeID(), title: "Added", createdAt: Instant(seconds: 0)))
        guard case .success = StoreFile.save(s, to: path) else { return XCTFail("save") }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        XCTAssertEqual(names, ["store.json"], "a temporary file was left behind")
        let attrs = try FileManager.default.attributesOfItem(atPath: path)
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o600, "the permission bits changed")
        guard case .success(.store(let back)) = StoreFile.load(path) else { return XCTFail("reload") }
        XCTAssertEqual(back.tasks.last?.title, "Added")
    }

    func testSaveIntoAMissingFolderFails() {
        let r = StoreFile.save(Store(), to: "/nonexistent-kept-dir/x/store.json")
        guard case .failure(let e) = r else { return XCTFail("saved") }
        XCTAssertEqual(Catalog.store(e).code, .E0307)
    }

    /// A missing file is an empty store; a broken one is a diagnostic that points into it.
    func testLoadMissingAndBroken() throws {
        let dir = try tempDir()
        guard case .success(.missing(let s)) = StoreFile.load("\(dir)/none.json") else { return XCTFail("missing") }
        XCTAssertTrue(s.tasks.isEmpty)
        let bad = "\(dir)/bad.json"
        try "{\n  \"tasks\": [,]\n}\n".write(toFile: bad, atomically: false, encoding: .utf8)
        guard case .failure(let p) = StoreFile.load(bad) else { return XCTFail("broken store loaded") }
        let d = Catalog.store(p)
        XCTAssertEqual(d.code, .E0308)
        XCTAssertEqual(d.location?.line, 2)
        XCTAssertEqual(d.location?.column, 13)
        XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d).contains(" 2 |   \"tasks\": [,]"))
        guard case .failure(let dd) = StoreFile.load(dir) else { return XCTFail("a folder loaded") }
        XCTAssertEqual(Catalog.store(dd).code, .E0308)
    }
}
