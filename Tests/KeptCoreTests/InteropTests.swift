// Import and export (docs/INTEROP.md): the engine's import operation on typed records (identity
// by uid, the newer side wins, tombstones, one undo step, a refused file changes nothing), and
// each format's reader and writer on small files, malformed ones included.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class InteropTests: XCTestCase, SessionTesting {
    static let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    static let now = CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 15) ?? .earliest, time: WallTime(hour: 9, minute: 0) ?? .midnight)

    func session(_ store: Store = Store()) -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(7))
    }

    func record(_ title: String, uid: String? = nil, line: Int = 1, modified: String? = nil, fields: ImportFields = [.title, .priority]) -> ImportedTask {
        var t = Task(id: 0, title: title, createdAt: Instant(seconds: 1_780_000_000), uid: uid.flatMap(TaskUID.init) ?? TaskUID(hi: 0, lo: 0))
        t.priority = .high
        var r = ImportedTask(task: t, hasUID: uid != nil, fields: fields, line: line)
        if let m = modified, let i = TimeText.parseISOInstant(m) {
            r.task.modifiedAt = i
            r.hasModified = true
        }
        return r
    }

    static let u1 = "0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e"
    static let u2 = "1c8f6d2f-4a2b-4d3c-8e5f-6a7b8c9d0e1f"


    // MARK: the engine

    func testAnImportAddsAndThenMatchesByUID() throws {
        let s = session()
        let e = s.engine
        var r = try e.importTasks([record("Pay rent", uid: Self.u1), record("Call mom")])
        XCTAssertEqual(r.added, 2)
        XCTAssertEqual(s.store.taskCount, 2)
        XCTAssertEqual(s.store.task(uid: TaskUID(Self.u1) ?? TaskUID(hi: 0, lo: 0))?.title, "Pay rent")
        // The same uid again updates the task instead of adding a second one; a record without
        // a uid is always new.
        var again = record("Pay the rent", uid: Self.u1, fields: [.title])
        again.task.priority = .low
        r = try e.importTasks([again, record("Call mom")])
        XCTAssertEqual(r.added, 1)
        XCTAssertEqual(r.changed, 1)
        XCTAssertEqual(s.store.taskCount, 3)
        let t = try XCTUnwrap(s.store.task(uid: TaskUID(Self.u1) ?? TaskUID(hi: 0, lo: 0)))
        XCTAssertEqual(t.title, "Pay the rent")
        // A field the record does not hold stays as the store had it.
        XCTAssertEqual(t.priority, .high)
        // Nothing new: skipped as the same.
        r = try e.importTasks([again])
        XCTAssertEqual(r.skipped[.same], 1)
        XCTAssertEqual(r.changed, 0)
    }

    func testTheNewerSideWins() throws {
        let s = session()
        let e = s.engine
        _ = try e.importTasks([record("A", uid: Self.u1, modified: "2026-06-10T00:00:00Z")])
        var r = try e.importTasks([record("A older", uid: Self.u1, modified: "2026-06-01T00:00:00Z", fields: [.title])])
        XCTAssertEqual(r.skipped[.newerHere], 1)
        XCTAssertEqual(s.store.tasks.first?.title, "A")
        r = try e.importTasks([record("A newer", uid: Self.u1, modified: "2026-06-12T00:00:00Z", fields: [.title])])
        XCTAssertEqual(r.changed, 1)
        XCTAssertEqual(s.store.tasks.first?.title, "A newer")
        XCTAssertEqual(s.store.tasks.first.map { TimeText.isoInstant($0.modifiedAt, in: .utc) }, "2026-06-12T00:00:00+00:00",
                       "an imported task carries its record's modification")
    }

    func testTombstonesAreRespected() throws {
        let s = session()
        let e = s.engine
        _ = try e.importTasks([record("Gone", uid: Self.u1, modified: "2026-06-01T00:00:00Z")])
        XCTAssertFalse(run(s, "delete 1").failed)
        // Deleted here after the record's last change: skipped.
        var r = try e.importTasks([record("Gone", uid: Self.u1, modified: "2026-06-01T00:00:00Z")])
        XCTAssertEqual(r.skipped[.deletedHere], 1)
        XCTAssertEqual(s.store.taskCount, 0)
        // Without a modification time the deletion here wins too.
        r = try e.importTasks([record("Gone", uid: Self.u1)])
        XCTAssertEqual(r.skipped[.deletedHere], 1)
        // Changed elsewhere after the delete: back, with its uid, and the tombstone goes.
        r = try e.importTasks([record("Gone", uid: Self.u1, modified: "2026-07-01T00:00:00Z")])
        XCTAssertEqual(r.added, 1)
        XCTAssertNil(s.store.tombstone(uid: TaskUID(Self.u1) ?? TaskUID(hi: 0, lo: 0)))
        // A record deleted in the file deletes the task here, leaving a tombstone.
        var del = record("Gone", uid: Self.u1, modified: "2026-07-02T00:00:00Z")
        del.deleted = true
        r = try e.importTasks([del])
        XCTAssertEqual(r.deleted, 1)
        XCTAssertEqual(s.store.taskCount, 0)
        XCTAssertNotNil(s.store.tombstone(uid: TaskUID(Self.u1) ?? TaskUID(hi: 0, lo: 0)))
        var other = record("Never here", uid: Self.u2)
        other.deleted = true
        r = try e.importTasks([other])
        XCTAssertEqual(r.skipped[.deletedInFile], 1)
    }

    /// R-TASK-1: an import is one undo step, and redo makes it again.
    func testAnImportIsOneUndoStep() throws {
        let s = session()
        XCTAssertFalse(run(s, "add Before").failed)
        let before = s.store.snapshot().tasks
        var a = record("A", uid: Self.u1)
        a.task.project = "Home"
        a.fields.insert(.project)
        _ = try s.engine.importTasks([a, record("B", uid: Self.u2), record("C")], options: ImportOptions(name: "x.tw.json"))
        XCTAssertEqual(s.store.taskCount, 4)
        XCTAssertEqual(s.store.projects.map(\.name), ["Home"])
        XCTAssertEqual(s.journal.undoStack.last?.summary, "import x.tw.json · 3 tasks")
        XCTAssertEqual(lines(s, "undo"), ["Undid import x.tw.json · 3 tasks"])
        XCTAssertEqual(s.store.snapshot().tasks, before)
        XCTAssertEqual(s.store.projects.count, 0)
        XCTAssertFalse(run(s, "redo").failed)
        XCTAssertEqual(s.store.taskCount, 4)
    }

    func testADryRunChangesNothingAndListsEveryRecord() throws {
        let s = session()
        _ = try s.engine.importTasks([record("A", uid: Self.u1)])
        let before = s.store.snapshot()
        let r = try s.engine.importTasks([record("A2", uid: Self.u1, fields: [.title]), record("B")], options: ImportOptions(dryRun: true))
        XCTAssertEqual(r.added, 1)
        XCTAssertEqual(r.changed, 1)
        XCTAssertEqual(r.items.map(\.action), [.change, .add])
        XCTAssertEqual(r.items.first?.fields, ["title"])
        XCTAssertEqual(s.store.snapshot().tasks, before.tasks)
        XCTAssertEqual(s.journal.undoStack.count, 1)
        XCTAssertEqual(s.store.nextID, before.nextID)
    }

    /// A refused record refuses the whole file: what was applied is taken back.
    func testARefusedFileChangesNothing() throws {
        let s = session()
        XCTAssertFalse(run(s, "add Before").failed)
        let before = s.store.snapshot()
        for (id, bad, code) in [("imp-dup", record("A again", uid: Self.u1, line: 3), "E0608"), ("imp-title", record("  ", line: 3), "E0607")] {
            var list = ImportList([record("A", uid: Self.u1, line: 1), record("B", line: 2), bad])
            XCTAssertThrowsError(try s.engine.importTasks(&list), id) { e in
                XCTAssertEqual((e as? ImportError)?.code.rawValue, code, id)
                XCTAssertEqual((e as? ImportError)?.line, 3, id)
            }
            XCTAssertEqual(s.store.snapshot().tasks, before.tasks, id)
            XCTAssertEqual(s.store.nextID, before.nextID, id)
            XCTAssertEqual(s.store.snapshot().tombstones.count, 0, "\(id): taking back an add leaves no tombstone")
            XCTAssertEqual(s.journal.undoStack.count, 1, id)
        }
    }

    /// A refused file that had deleted a task, brought one back from its tombstone and added
    /// one is taken back through the change path on either backend: the same tasks, the same
    /// tombstones (none for the task it added, the old one for the task it brought back).
    func testARefusedFileTakesBackDeletesAndTombstonesOnEitherBackend() throws {
        let path = NSTemporaryDirectory() + "kept-refused-\(ProcessInfo.processInfo.processIdentifier).db"
        addTeardownBlock { for x in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + x) } }
        let db = try SQLiteStore.open(path).get()
        let u3 = "2d9a7e3a-5b3c-4e4d-9f6a-7b8c9d0e1f2a"
        for (name, s) in [("json", session()), ("sqlite", Session(engine: Engine(store: db, clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(5))))] {
            _ = try s.engine.importTasks([record("Keep", uid: Self.u1, modified: "2026-06-01T00:00:00Z"),
                                          record("Gone", uid: Self.u2, modified: "2026-06-01T00:00:00Z")])
            XCTAssertFalse(run(s, "delete 2").failed, name)
            let before = s.store.snapshot()
            XCTAssertEqual(before.tombstones.map(\.uid.description), [Self.u2], name)
            var del = record("Keep", uid: Self.u1, line: 1, modified: "2026-07-01T00:00:00Z")
            del.deleted = true
            var list = ImportList([del, record("Gone", uid: Self.u2, line: 2, modified: "2026-07-01T00:00:00Z"),
                                   record("New", uid: u3, line: 3), record(" ", line: 4)])
            XCTAssertThrowsError(try s.engine.importTasks(&list), name) { e in XCTAssertEqual((e as? ImportError)?.code.rawValue, "E0607", name) }
            let after = s.store.snapshot()
            XCTAssertEqual(after.tasks, before.tasks, name)
            XCTAssertEqual(after.tombstones, before.tombstones, name)
            XCTAssertEqual(after.nextID, before.nextID, name)
            XCTAssertEqual(after.history.undoStack.count, before.history.undoStack.count, name)
            // The tombstone decides, on either backend: older than the deletion is skipped,
            // newer comes back and takes it away.
            var r = try s.engine.importTasks([record("Gone", uid: Self.u2, modified: "2020-01-01T00:00:00Z")])
            XCTAssertEqual(r.skipped[.deletedHere], 1, name)
            r = try s.engine.importTasks([record("Gone", uid: Self.u2, modified: "2026-07-01T00:00:00Z")])
            XCTAssertEqual(r.added, 1, name)
            XCTAssertEqual(s.store.snapshot().tombstones.count, 0, name)
        }
    }

    /// An import that adds more tasks than one undo step holds (Journal.heldAdds, made small
    /// here) is made but is no step, and the history before it is cleared; refused, it still
    /// changes nothing, on either backend, though its step no longer holds what it added.
    func testAnImportLargerThanAStepHoldsIsMadeButNotUndoable() throws {
        let path = NSTemporaryDirectory() + "kept-held-\(ProcessInfo.processInfo.processIdentifier).db"
        addTeardownBlock { for x in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + x) } }
        let db = try SQLiteStore.open(path).get()
        var options = ImportOptions(name: "big")
        options.heldAdds = 3
        for (name, s) in [("json", session()), ("sqlite", Session(engine: Engine(store: db, clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(5))))] {
            XCTAssertFalse(run(s, "add Before").failed, name)
            let before = s.store.snapshot()
            var a = record("A", uid: Self.u1, line: 1)
            a.task.project = "Home"
            a.fields.insert(.project)
            let five = [a, record("B", uid: Self.u2, line: 2), record("C", line: 3), record("D", line: 4), record("E", line: 5)]
            var bad = ImportList(five + [record("", line: 6)])
            XCTAssertThrowsError(try s.engine.importTasks(&bad, options: options), name)
            let after = s.store.snapshot()
            XCTAssertEqual(after.tasks, before.tasks, name)
            XCTAssertEqual(after.tombstones, before.tombstones, "\(name): the adds taken back leave no tombstones")
            XCTAssertEqual(after.projects.count, 0, name)
            XCTAssertEqual(after.nextID, before.nextID, name)
            XCTAssertEqual(after.history.undoStack.count, 1, name)
            let r = try s.engine.importTasks(five, options: options)
            XCTAssertEqual(r.added, 5, name)
            XCTAssertFalse(r.undoable, name)
            XCTAssertNoThrow(try s.engine.commit().get(), name)
            XCTAssertEqual(r.notes.last, "not undoable: more than 3 tasks added in one step; the undo history before it is cleared", name)
            XCTAssertEqual(s.store.taskCount, 6, name)
            XCTAssertEqual(s.store.history.undoStack.count, 0, "\(name): the step before it is gone too")
            let undo = lines(s, "undo")
            XCTAssertTrue(undo.first?.contains("E03") ?? false, "\(name): nothing to undo: \(undo)")
            XCTAssertEqual(s.store.taskCount, 6, name)
            // At the bound it is one step.
            let t = session()
            var fits = options
            fits.heldAdds = 5
            XCTAssertTrue(try t.engine.importTasks(five, options: fits).undoable, name)
            XCTAssertEqual(t.store.history.undoStack.count, 1, name)
        }
    }

    func testParentsByUIDWhereverTheyAre() throws {
        let s = session()
        var child = record("Child", uid: Self.u2)
        child.parentUID = TaskUID(Self.u1)
        child.fields.insert(.parent)
        _ = try s.engine.importTasks([child, record("Parent", uid: Self.u1)])
        let c = try XCTUnwrap(s.store.tasks.first { $0.title == "Child" })
        XCTAssertEqual(c.parent, s.store.tasks.first { $0.title == "Parent" }?.id)
    }

    // MARK: Taskwarrior

    static let twFile = """
    [
    {"id":0,"uuid":"\(u1)","description":"Pay rent","status":"pending","entry":"20260601T080000Z","modified":"20260602T080000Z","project":"Home","tags":["bills","money"],"priority":"H","due":"20260630T220000Z","annotations":[{"entry":"20260601T080000Z","description":"The landlord's account"},{"entry":"20260603T100000Z","description":"asked about the new rate"}],"urgency":8.1,"depends":"\(u2)","wait":"20260620T000000Z","estimate":30},
    {"uuid":"\(u2)","description":"Water the plants","status":"completed","entry":"20260601T080000Z","modified":"20260605T080000Z","end":"20260605T080000Z","priority":"U","due":"20260605T070000Z"},
    {"uuid":"2d9a7e3a-5b3c-4e4d-9f6a-7b8c9d0e1f2a","description":"Standup","status":"recurring","recur":"weekly","mask":"-","due":"20260615T070000Z","entry":"20260601T080000Z"},
    {"uuid":"3e0b8f4b-6c4d-4f5e-a07b-8c9d0e1f2a3b","description":"Standup","status":"pending","parent":"2d9a7e3a-5b3c-4e4d-9f6a-7b8c9d0e1f2a","imask":0,"recur":"weekly","due":"20260615T070000Z","entry":"20260601T080000Z"},
    {"uuid":"4f1c905c-7d5e-4a6f-b18c-9d0e1f2a3b4c","description":"Old","status":"deleted","entry":"20260601T080000Z","end":"20260602T080000Z"}
    ]
    """

    func testTaskwarriorFields() throws {
        var src = TaskwarriorReader(try input(Self.twFile, "tw"), zone: Self.zone)
        let recs = try all(&src)
        XCTAssertEqual(recs.count, 4, "the template is folded into its pending occurrence")
        let rent = try XCTUnwrap(recs.first { $0.task.title == "Pay rent" })
        XCTAssertEqual(rent.task.uid.description, Self.u1)
        XCTAssertEqual(rent.task.project, "Home")
        XCTAssertEqual(rent.task.tags, ["bills", "money"])
        XCTAssertEqual(rent.task.priority, .high)
        XCTAssertEqual(rent.task.due, Due(date: CivilDate(year: 2026, month: 7, day: 1) ?? .earliest), "local midnight is a day")
        XCTAssertEqual(rent.task.description, "The landlord's account")
        XCTAssertEqual(rent.task.comments.first?.objectValue?["text"]?.stringValue, "asked about the new rate")
        XCTAssertEqual(rent.task.estimate?.minutes, 30)
        XCTAssertEqual(Set(rent.unmapped), ["depends", "wait"])
        XCTAssertEqual(rent.task.extra["taskwarrior"]?.objectValue?["depends"]?.stringValue, Self.u2)
        XCTAssertNil(rent.task.extra["taskwarrior"]?.objectValue?["urgency"], "urgency and id are Taskwarrior's working numbers")
        let plants = try XCTUnwrap(recs.first { $0.task.title == "Water the plants" })
        XCTAssertEqual(plants.task.status, .done)
        XCTAssertEqual(plants.task.priority, .critical, "U is the peers' urgent")
        XCTAssertEqual(plants.task.due, Due(date: CivilDate(year: 2026, month: 6, day: 5) ?? .earliest, time: WallTime(hour: 9, minute: 0)))
        let standup = try XCTUnwrap(recs.first { $0.task.title == "Standup" })
        XCTAssertEqual(standup.task.repeatRule?.text, "Every Monday")
        XCTAssertEqual(standup.task.uid.description, "3e0b8f4b-6c4d-4f5e-a07b-8c9d0e1f2a3b")
        XCTAssertTrue(try XCTUnwrap(recs.first { $0.task.title == "Old" }).deleted)
    }

    func testTaskwarriorRecurPeriods() {
        let table: [(String, String, String?)] = [
            ("tw-r1", "daily", "every day"), ("tw-r2", "3d", "every 3 days"), ("tw-r3", "weekly", "every week"),
            ("tw-r4", "2w", "every 2 weeks"), ("tw-r5", "biweekly", "every 2 weeks"), ("tw-r6", "weekdays", "every weekday"),
            ("tw-r7", "monthly", "every month"), ("tw-r8", "2mo", "every 2 months"), ("tw-r9", "quarterly", "every quarter"),
            ("tw-r10", "yearly", "every year"), ("tw-r11", "P1W", "every week"), ("tw-r12", "2h", nil), ("tw-r13", "fortnight", "every 2 weeks"),
        ]
        for (id, tw, words) in table { XCTAssertEqual(TaskwarriorRecur.words(tw), words, id) }
    }

    func testMalformedTaskwarriorIsRefusedWithItsPlace() throws {
        let cases: [(String, String, String, Int, Int?)] = [
            ("tw-bad-1", "[\n{\"uuid\":\"\(Self.u1)\",\"description\":\"A\"},\n{\"description\": \"B\",}\n]", "E0603", 3, 20),
            ("tw-bad-2", "[\n{\"description\":\"A\",\"status\":\"sleeping\"}\n]", "E0604", 2, nil),
            ("tw-bad-3", "[\n{\"description\":\"A\",\"due\":\"tomorrow\"}\n]", "E0604", 2, 26),
            ("tw-bad-4", "[\n{\"description\":\"A\"}", "E0603", 2, nil),
            ("tw-bad-5", "[\n{\"status\":\"pending\"}\n]", "E0607", 2, 1),
            ("tw-bad-6", "{\"description\":\"A\"} x", "E0603", 1, 21),
        ]
        for (id, text, code, line, col) in cases {
            var src = TaskwarriorReader(try input(text, id), zone: Self.zone)
            let e = importError(&src)
            XCTAssertEqual(e?.code.rawValue, code, "\(id): \(e?.message ?? "no error")")
            XCTAssertEqual(e?.line, line, "\(id): \(e?.message ?? "")")
            if let col { XCTAssertEqual(e?.column, col, "\(id): \(e?.message ?? "")") }
        }
    }

    /// A file of one long line (no line feeds, as `json.dump` writes): the stream cuts what it
    /// has read inside the line, so its buffer stays within a few chunks and each byte is looked
    /// at a bounded number of times (it kept the whole file and scanned back to its start after
    /// each record: 31 MB took more than ten minutes); an error deep in the line still has its
    /// column, in scalars.
    func testAFileOfOneLongLineIsReadInBoundedBuffer() throws {
        let n = 40_000
        var records: [String] = []
        for k in 0..<n {
            let u = String(format: "%08x-0000-4000-8000-%012x", k, k)
            records.append("{\"uuid\":\"\(u)\",\"description\":\"Tâche \(k) ☕ with a longer title\",\"status\":\"pending\",\"entry\":\"20260601T080000Z\"}")
        }
        let good = "[" + records.joined(separator: ",") + "]"
        XCTAssertGreaterThan(good.utf8.count, 4 * ByteInput.chunk)
        var stream = JSONArrayStream(try input(good, "one-line"))
        var count = 0
        var biggest = 0
        while let (_, line) = try stream.next({ (r: inout JSONReader) throws(JSONError) -> Int in try r.skipValue(); return 0 }) {
            count += 1
            biggest = max(biggest, stream.buf.count)
            XCTAssertEqual(line, 1)
        }
        XCTAssertEqual(count, n)
        XCTAssertLessThanOrEqual(biggest, 4 * ByteInput.chunk, "the buffer holds a few chunks, not the file")
        // A bad value in the 39,000th record: line 1, and its column counted in scalars.
        var bad = records
        bad[38_999] = bad[38_999].replacingOccurrences(of: "\"status\":\"pending\"", with: "\"status\":pending")
        let text = "[" + bad.joined(separator: ",") + "]"
        guard let at = text.range(of: "\"status\":pending") else { return XCTFail("no bad record") }
        let column = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: at.lowerBound) + 10
        var src = TaskwarriorReader(try input(text, "one-line-bad"), zone: Self.zone)
        let e = importError(&src)
        XCTAssertEqual(e?.code, .E0603, e?.message ?? "no error")
        XCTAssertEqual(e?.line, 1)
        XCTAssertEqual(e?.column, column, e?.message ?? "")
    }

    func testTaskwarriorExportHasTheTemplateOfARepeatItCanSay() throws {
        let s = session()
        XCTAssertFalse(run(s, "project add Work").failed)
        XCTAssertFalse(run(s, "add Standup every monday @2026-06-15 +Work !high").failed)
        XCTAssertFalse(run(s, "add Rent every month on the last friday @2026-06-26").failed)
        let out = lines(s, "export - as tw")
        XCTAssertEqual(out.first, "[")
        let recs = out.dropFirst().dropLast().map { l -> JSONObject in
            var r = JSONReader(bytes: Array((l.hasSuffix(",") ? String(l.dropLast()) : l).utf8))
            return (try? r.readValue())?.objectValue ?? JSONObject()
        }
        guard recs.count == 3 else { return XCTFail("\(out)") }
        XCTAssertEqual(recs[0]["status"]?.stringValue, "recurring")
        XCTAssertEqual(recs[0]["recur"]?.stringValue, "weekly")
        XCTAssertEqual(recs[1]["parent"]?.stringValue, recs[0]["uuid"]?.stringValue)
        XCTAssertEqual(recs[1]["priority"]?.stringValue, "H")
        XCTAssertEqual(recs[1]["due"]?.stringValue, "20260614T220000Z")
        XCTAssertNil(recs[2]["recur"], "Taskwarrior has no period for the last friday")
        XCTAssertEqual(recs[2]["rrule"]?.stringValue, "FREQ=MONTHLY;BYDAY=-1FR")
    }

    // MARK: iCalendar

    func testContentLinesFoldEscapeAndUnfold() throws {
        let long = ContentLine("SUMMARY", ContentLine.escape(String(repeating: "Ünïcödé, text; with \\ and\nbreaks ", count: 4)))
        var bytes: [UInt8] = []
        long.append(to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("\r\n"))
        for l in text.components(separatedBy: "\r\n") {
            XCTAssertLessThanOrEqual(l.utf8.count, 75, "a line of at most 75 octets")
            XCTAssertNotNil(String(validating: Array(l.utf8), as: UTF8.self), "no character is cut")
        }
        var reader = UnfoldingReader(try input(text, "fold"))
        let (back, _) = try XCTUnwrap(try reader.next())
        guard case .success(let c) = ContentLine.parse(back, line: 1) else { return XCTFail("does not parse") }
        XCTAssertEqual(ContentLine.unescape(c.value), String(repeating: "Ünïcödé, text; with \\ and\nbreaks ", count: 4))
        XCTAssertEqual(ContentLine.list("a\\,b,c , d"), ["a,b", "c", "d"])
        guard case .success(let p) = ContentLine.parse("DTSTART;TZID=\"America/New_York\";VALUE=DATE-TIME:20260615T090000", line: 1) else { return XCTFail() }
        XCTAssertEqual(p.param("TZID"), "America/New_York")
    }

    /// PRIORITY both ways (docs/INTEROP.md): 1 critical, 2-4 high, 5 medium, 6-9 low, 0 none.
    func testPriorityBothWays() throws {
        for (p, want) in [(0, Priority.none), (1, .critical), (2, .high), (3, .high), (4, .high), (5, .medium), (6, .low), (9, .low)] {
            let cal = "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:x\r\nSUMMARY:t\r\nPRIORITY:\(p)\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            var src = ICalendarReader(try input(cal, "p\(p)"), zone: Self.zone)
            XCTAssertEqual(try all(&src).first?.task.priority, want, "PRIORITY \(p)")
        }
        XCTAssertEqual(ICalendarWriter.priorities, [.critical: 1, .high: 3, .medium: 5, .low: 7])
    }

    static let ics = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Other//EN\r
    BEGIN:VTODO\r
    UID:todo-1@example.com\r
    SUMMARY:Call the\r
      dentist\r
    DESCRIPTION:Ask about\\nthe bill\\, please\r
    DUE;TZID=America/New_York:20260616T090000\r
    DTSTART;VALUE=DATE:20260615\r
    CATEGORIES:phone,health\r
    LOCATION:Main street 1\r
    STATUS:NEEDS-ACTION\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    TRIGGER:-PT30M\r
    END:VALARM\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:todo-2@example.com\r
    SUMMARY:Pay rent\r
    DTSTART;VALUE=DATE:20260131\r
    RRULE:FREQ=MONTHLY;BYMONTHDAY=-1\r
    RELATED-TO;RELTYPE=PARENT:todo-1@example.com\r
    STATUS:COMPLETED\r
    COMPLETED:20260201T100000Z\r
    END:VTODO\r
    BEGIN:VEVENT\r
    UID:ev-1\r
    SUMMARY:Board meeting\r
    DTSTART:20260617T120000Z\r
    END:VEVENT\r
    END:VCALENDAR\r
    """

    func testICalendarFields() throws {
        var src = ICalendarReader(try input(Self.ics, "ics"), zone: Self.zone)
        let recs = try all(&src)
        XCTAssertEqual(recs.count, 2, "a VEVENT is read only when asked")
        XCTAssertEqual(src.skipped["VEVENT"], 1)
        let a = recs[0].task
        XCTAssertEqual(a.title, "Call the dentist")
        XCTAssertEqual(a.description, "Ask about\nthe bill, please")
        XCTAssertEqual(a.due, Due(date: CivilDate(year: 2026, month: 6, day: 16) ?? .earliest, time: WallTime(hour: 15, minute: 0)), "New York 9:00 is Berlin 15:00")
        XCTAssertEqual(a.start, Due(date: CivilDate(year: 2026, month: 6, day: 15) ?? .earliest))
        XCTAssertEqual(a.tags, ["phone", "health"])
        XCTAssertEqual(a.reminders.first?.at.iso, "2026-06-16T14:30")
        XCTAssertEqual(a.uid, ICalendarReader.uid("todo-1@example.com"), "a UID that is no UUID gives a uid of its own")
        XCTAssertEqual(a.extra["icalendar"]?.objectValue?["uid"]?.stringValue, "todo-1@example.com")
        XCTAssertEqual(a.extra["icalendar"]?.objectValue?["properties"]?.arrayValue?.first?.stringValue, "LOCATION:Main street 1")
        XCTAssertEqual(recs[0].unmapped, ["LOCATION"])
        let b = recs[1]
        XCTAssertEqual(b.task.status, .done)
        XCTAssertEqual(b.task.repeatRule?.rrule, "FREQ=MONTHLY;BYMONTHDAY=-1")
        XCTAssertEqual(b.parentUID, a.uid)
        var ev = ICalendarReader(try input(Self.ics, "ics-ev"), zone: Self.zone, events: true)
        let withEvents = try all(&ev)
        XCTAssertEqual(withEvents.last?.task.title, "Board meeting")
        XCTAssertEqual(withEvents.last?.task.due?.time, WallTime(hour: 14, minute: 0))
    }

    func testMalformedICalendarIsRefusedWithItsPlace() throws {
        let cases: [(String, String, Int, Int?)] = [
            ("ics-bad-1", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY Call\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", 3, 8),
            ("ics-bad-2", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", 4, 1),
            ("ics-bad-3", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\n", 0, nil),
            ("ics-bad-4", "SUMMARY:x\r\n", 1, 1),
            ("ics-bad-5", "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nDTSTART;TZID=Europe/Berlin;X:20260615\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", 3, 29),
        ]
        for (id, text, line, col) in cases {
            var src = ICalendarReader(try input(text, id), zone: Self.zone)
            let e = importError(&src)
            XCTAssertEqual(e?.code.rawValue, "E0605", "\(id): \(e?.message ?? "no error")")
            XCTAssertEqual(e?.line, line, "\(id): \(e?.message ?? "")")
            if let col { XCTAssertEqual(e?.column, col, "\(id): \(e?.message ?? "")") }
        }
        var bad = ICalendarReader(try input("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nDUE:2026-06-15\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", "ics-bad-6"), zone: Self.zone)
        XCTAssertEqual(importError(&bad)?.code.rawValue, "E0604")
    }

    /// Export, then import into a new store: every field iCalendar holds comes back.
    func testICalendarRoundTrip() throws {
        let s = session()
        for stmt in ["project add Home", "add Call the dentist @tomorrow 3pm +Home #phone !high [[Trip plan]]",
                     "set 1 description \"one, two; three\\nfour\"", "step 1 add Pack", "step 1 check 1", "remind 1 tomorrow morning",
                     "comment 1 \"called, left a message\"", "set 1 estimate 15m", "subtask 1 Book the flights @fri",
                     "add Water every 2 days at 8am", "add Rent every month on the 31st @2026-07-31", "add Stretch every day after completion",
                     "add Old @2026-06-01", "archive 6", "add Review +Home status:waiting"] {
            XCTAssertFalse(run(s, stmt).failed, stmt)
        }
        let text = lines(s, "export - as ics").joined(separator: "\n")
        let t = session()
        var src = ICalendarReader(try input(text, "rt"), zone: Self.zone)
        _ = try t.engine.importTasks(&src)
        func key(_ s: Session) -> [String: Task] {
            var m: [String: Task] = [:]
            for var x in s.store.tasks {
                x.id = 0
                x.parent = x.parent.flatMap { s.store.task($0)?.uid.hi }.map { Int(truncatingIfNeeded: $0) }
                x.nextOccurrence = nil
                x.pristine = false
                if var r = x.repeatRule, r.anchor == nil { r.anchor = x.due?.date; x.repeatRule = r }
                m[x.uid.description] = x
            }
            return m
        }
        let a = key(s), b = key(t)
        XCTAssertEqual(Set(a.keys), Set(b.keys))
        for (u, x) in a {
            guard let y = b[u] else { continue }
            XCTAssertEqual(x.changedFields(to: y), [], "\(x.title)")
        }
    }

    // MARK: CSV and JSON Lines

    func testTodoistCSV() throws {
        let csv = [
            "TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE",
            "section,Errands,,,,,,,,",
            #"task,Buy milk,"2 liters, ""fresh""",4,1,Anna,,tomorrow 3pm,en,Europe/Berlin"#,
            "task,Check the date,,1,2,,,every monday,en,",
            "note,Remember the bag,,,,,,,,",
            "task,\"Two\nlines\",,2,1,,,nächsten Montag,de,",
        ].joined(separator: "\r\n") + "\r\n"
        let s = session()
        let e = s.engine
        var src = CSVReader(try input(csv, "csv"), context: s.dateContext, newUID: { e.uids.next() })
        let recs = try all(&src)
        XCTAssertEqual(recs.map(\.task.title), ["Buy milk", "Check the date", "Two\nlines"])
        XCTAssertEqual(recs[0].task.description, "2 liters, \"fresh\"")
        XCTAssertEqual(recs[0].task.priority, .critical, "Todoist's 4 is p1")
        XCTAssertEqual(recs[0].task.due, Due(date: CivilDate(year: 2026, month: 6, day: 16) ?? .earliest, time: WallTime(hour: 15, minute: 0)))
        XCTAssertEqual(recs[0].task.extra["csv"]?.objectValue?["AUTHOR"]?.stringValue, "Anna")
        XCTAssertEqual(recs[0].task.extra["csv"]?.objectValue?["SECTION"]?.stringValue, "Errands")
        XCTAssertEqual(recs[1].task.repeatRule?.text, "Every Monday")
        XCTAssertEqual(recs[1].parentUID, recs[0].task.uid, "INDENT 2 is a subtask of the task above")
        XCTAssertEqual(recs[1].task.comments.first?.objectValue?["text"]?.stringValue, "Remember the bag")
        XCTAssertEqual(recs[2].task.extra["csv"]?.objectValue?["DATE"]?.stringValue, "nächsten Montag", "a date Kept cannot read is kept")
        XCTAssertEqual(recs[2].unmapped, ["DATE", "SECTION"], "a section of Todoist is kept on the tasks under it")
        let r = try e.importTasks(recs)
        XCTAssertEqual(r.added, 3)
        XCTAssertEqual(s.store.tasks.first { $0.title == "Two lines" }?.title, "Two lines", "a title is one line")
    }

    func testMalformedCSVIsRefusedWithItsPlace() throws {
        let cases: [(String, String, Int, Int?)] = [
            ("csv-bad-1", "TYPE,CONTENT\ntask,\"open quote\n", 2, nil),
            ("csv-bad-2", "TYPE,CONTENT\ntask,a,b\n", 2, 8),
            ("csv-bad-3", "TYPE,NAME\ntask,a\n", 1, 1),
            ("csv-bad-4", "TYPE,CONTENT\ntask,a\"b\n", 2, 7),
        ]
        let s = session()
        for (id, text, line, col) in cases {
            var src = CSVReader(try input(text, id), context: s.dateContext, newUID: { TaskUID(hi: 1, lo: 1) })
            let e = importError(&src)
            XCTAssertEqual(e?.code.rawValue, "E0606", "\(id): \(e?.message ?? "no error")")
            XCTAssertEqual(e?.line, line, "\(id): \(e?.message ?? "")")
            if let col { XCTAssertEqual(e?.column, col, "\(id): \(e?.message ?? "")") }
        }
        var bad = CSVReader(try input("CONTENT,PRIORITY\na,7\n", "csv-bad-5"), context: s.dateContext, newUID: { TaskUID(hi: 1, lo: 1) })
        XCTAssertEqual(importError(&bad)?.code.rawValue, "E0604")
    }

    func testJSONLinesOfTheGenerator() throws {
        let line = #"{"id":1,"title":"Pay rent","project":"Home","tags":["bills"],"priority":"urgent","due":"2026-06-30T15:00:00+02:00","dueHasTime":true,"repeat":{"text":"every month on the 30th","rrule":"FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"},"status":"completed","completedAt":"2026-06-01T10:00:00Z","estimateMinutes":30,"description":"Rent","createdAt":"2026-05-01T10:00:00Z","mood":"fine"}"#
        var src = JSONLinesReader(try input(line + "\n\n{\"title\": 3}\n", "jsonl"), zone: Self.zone)
        let r = try XCTUnwrap(try src.next())
        XCTAssertEqual(r.task.title, "Pay rent")
        XCTAssertEqual(r.task.priority, .critical)
        XCTAssertEqual(r.task.status, .done)
        XCTAssertEqual(r.task.due, Due(date: CivilDate(year: 2026, month: 6, day: 30) ?? .earliest, time: WallTime(hour: 15, minute: 0)))
        XCTAssertEqual(r.task.repeatRule?.text, "Every month on the 30th")
        XCTAssertEqual(r.task.estimate?.minutes, 30)
        XCTAssertEqual(r.task.extra["mood"]?.stringValue, "fine", "an unknown key is kept as the task's own")
        XCTAssertFalse(r.hasUID)
        XCTAssertThrowsError(try src.next()) { e in
            XCTAssertEqual((e as? ImportError)?.code.rawValue, "E0604")
            XCTAssertEqual((e as? ImportError)?.line, 3)
        }
        var bad = JSONLinesReader(try input("{\"title\": \"a\"}\n{\"title\" \"b\"}\n", "jsonl-bad"), zone: Self.zone)
        let e = importError(&bad)
        XCTAssertEqual(e?.code.rawValue, "E0603")
        XCTAssertEqual(e?.line, 2)
        XCTAssertEqual(e?.column, 10)
    }

    // MARK: statements

    func testStatementsAndTheirErrors() throws {
        let s = session()
        XCTAssertEqual(lines(s, "import nowhere.ics").first?.hasPrefix("! E0601 could not import 'nowhere.ics'"), true)
        XCTAssertEqual(lines(s, "import tasks.txt").first, "! E0602 the name 'tasks.txt' does not say the file's format")
        XCTAssertEqual(lines(s, "import - as xml").first, "! E0602 'xml' is not a format Kept reads or writes")
        XCTAssertEqual(lines(s, "import x.json events").first, "! E0610 'events' reads an iCalendar file's VEVENTs; this file is Taskwarrior JSON")
        XCTAssertEqual(lines(s, "import x.json dry-run wat").first, "! E0103 unexpected 'wat' after a complete 'import' statement")
        XCTAssertFalse(run(s, "add Pay rent +Home").failed == false && false)
        let path = NSTemporaryDirectory() + "kept-export-\(ProcessInfo.processInfo.processIdentifier).jsonl"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertFalse(run(s, "add Pay rent").failed)
        XCTAssertEqual(lines(s, "export \(path)"), ["Exported 1 task to \(path) (JSON Lines)"])
        let t = session()
        XCTAssertEqual(lines(t, "import \(path) dry-run"), ["Would import \(path) (JSON Lines): 1 added, 0 changed, 0 skipped", "add 1 · Pay rent · line 1"])
        XCTAssertEqual(t.store.taskCount, 0)
        XCTAssertEqual(lines(t, "import \(path)"), ["Imported \(path) (JSON Lines): 1 added, 0 changed, 0 skipped"])
        XCTAssertEqual(lines(t, "import \(path)"), ["Imported \(path) (JSON Lines): 0 added, 0 changed, 1 skipped (1 same)"])
    }

    /// A Taskwarrior file of 6,000 pending tasks (`fields` of each), as lines, with the record
    /// on line 5,502 made bad (a status Taskwarrior has not); and the good file.
    static func bigFile(_ fields: (Int) -> String) -> (bad: [String], good: String) {
        var rows = ["["]
        for k in 0..<6_000 {
            let u = String(format: "%08x-0000-4000-8000-%012x", k, k)
            rows.append("{\"uuid\":\"\(u)\",\(fields(k)),\"status\":\"pending\",\"entry\":\"20260601T080000Z\"}" + (k < 5_999 ? "," : ""))
        }
        rows.append("]")
        let good = rows.joined(separator: "\n")
        rows[5_501] = "{\"description\":\"Bad\",\"status\":\"sleeping\"},"
        return (rows, good)
    }

    /// A large file is read ahead on a second thread; a record refused near its end still
    /// refuses all of it, and the store is as it was.
    func testALargeFileReadAheadIsStillOneTransaction() throws {
        let (rows, good) = Self.bigFile { k in "\"description\":\"Task \(k)\"" }
        let path = NSTemporaryDirectory() + "kept-big-\(ProcessInfo.processInfo.processIdentifier)"
        addTeardownBlock { for p in [path + ".tw.json", path + "-good.tw.json"] { try? FileManager.default.removeItem(atPath: p) } }
        try rows.joined(separator: "\n").write(toFile: path + ".tw.json", atomically: true, encoding: .utf8)
        try good.write(toFile: path + "-good.tw.json", atomically: true, encoding: .utf8)
        let s = session()
        XCTAssertFalse(run(s, "add Before").failed)
        let before = s.store.snapshot().tasks
        let out = lines(s, "import \(path).tw.json")
        XCTAssertEqual(out.first?.hasPrefix("! E0604 could not import"), true, "\(out)")
        XCTAssertEqual(out.first?.contains("line 5502"), true, "\(out)")
        XCTAssertEqual(s.store.snapshot().tasks, before)
        XCTAssertEqual(s.store.nextID, 2)
        XCTAssertEqual(lines(s, "import \(path)-good.tw.json").first, "Imported \(path)-good.tw.json (Taskwarrior JSON): 6000 added, 0 changed, 0 skipped")
        XCTAssertEqual(s.store.taskCount, 6_001)
        XCTAssertEqual(s.store.tasks.last?.title, "Task 5999", "in file order")
    }

    /// Into a SQLite store through the same change path: committed with the statement, and one
    /// undo step.
    func testAnImportIntoSQLite() throws {
        let path = NSTemporaryDirectory() + "kept-import-\(ProcessInfo.processInfo.processIdentifier).db"
        addTeardownBlock { for x in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + x) } }
        let db = try SQLiteStore.open(path).get()
        let s = Session(engine: Engine(store: db, clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(3)))
        let file = NSTemporaryDirectory() + "kept-sq-\(ProcessInfo.processInfo.processIdentifier).tw.json"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        try Self.twFile.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(lines(s, "import \(file)").first?.hasPrefix("Imported"), true)
        XCTAssertEqual(try SQLiteStore.open(path).get().taskCount, 3, "committed, as another connection sees")
        XCTAssertEqual(lines(s, "import \(file)").first, "Imported \(file) (Taskwarrior JSON): 0 added, 0 changed, 4 skipped (3 same, 1 deleted in the file)")
        XCTAssertEqual(lines(s, "undo").first?.hasPrefix("Undid import"), true)
        XCTAssertEqual(try SQLiteStore.open(path).get().taskCount, 0)
    }

    /// The store's task writer makes the bytes of the record object, whatever the task holds.
    func testTheTaskWriterWritesTheRecordsBytes() throws {
        let s = session()
        for stmt in ["project add Home", "add Call the dentist @tomorrow 3pm +Home #phone !high [[Trip plan]]",
                     "set 1 description \"quote \\\" tab\tand ü\"", "step 1 add Pack", "remind 1 tomorrow morning", "comment 1 hi",
                     "subtask 1 Book @fri", "add Water every 2 days at 8am", "add Old @2026-06-01", "archive 4", "add Done",
                     "complete 5", "not today 1", "set 1 goal Health", "set 2 estimate 15m", "add x every day", "complete 6"] {
            XCTAssertFalse(run(s, stmt).failed, stmt)
        }
        var tasks = s.store.tasks
        var odd = Task(id: 99, title: "Odd \u{1} \"keys\"", createdAt: Instant(seconds: -62_135_596_800), uid: TaskUID(hi: 1, lo: 2))
        odd.extra["zeta"] = .array([.null, .bool(true)])
        odd.completedAt = Instant(seconds: 253_402_300_799)
        tasks.append(odd)
        for t in tasks {
            var a: [UInt8] = []
            StoreCodec.appendTaskRecord(t, to: &a)
            var b: [UInt8] = []
            JSONWriter.append(.object(TaskJSON.record(t)), to: &b, pretty: false, indent: 0, level: 0)
            XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self), t.title)
        }
    }


    /// The same on random tasks: every field set or not, strings with every kind of byte to
    /// escape at every place, long ones, extreme numbers and instants.
    func testTheTaskWriterWritesTheRecordsBytesOfRandomTasks() throws {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "\"", "\\", "\n", "\u{1}", "\u{1F}", "é", "😀", " ", "/", "\t", "abcdefgh"]
        func text(_ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
        }
        func maybe() -> Bool { Bool.random(using: &rng) }
        func day() -> CivilDate { CivilDate(dayNumber: Int.random(in: -800_000...3_000_000, using: &rng)) }
        func due() -> Due { Due(date: day(), time: maybe() ? WallTime(minuteOfDay: Int.random(in: 0..<1_440, using: &rng)) : nil) }
        let instants: [Int64] = [-62_135_596_800, 0, 1, 86_399, 1_781_000_000, 253_402_300_799, .max, .min]
        for k in 0..<2_000 {
            var t = Task(id: [0, 1, 9, 10, 99_999, Int.max, Int.random(in: 0...1_000_000, using: &rng)][k % 7], title: text(k % 50 == 0 ? 3_000 : 30),
                         createdAt: Instant(seconds: instants[k % instants.count]), uid: TaskUID(hi: .random(in: 0 ... .max, using: &rng), lo: .random(in: 0 ... .max, using: &rng)))
            t.modifiedAt = Instant(seconds: Int64.random(in: -70_000_000_000...300_000_000_000, using: &rng))
            if maybe() { t.status = [.open, .done, .archived, TaskStatus(rawValue: "waiting"), TaskStatus(rawValue: text(8))][k % 5] }
            if maybe() { t.due = due() }
            if maybe() { t.start = due() }
            t.priority = Priority.allCases[k % Priority.allCases.count]
            if maybe() { t.project = text(12) }
            if maybe() { t.area = text(12) }
            if maybe() { t.tags = (0..<Int.random(in: 1...4, using: &rng)).map { _ in text(8) } }
            if maybe() { t.notes = (0..<Int.random(in: 1...3, using: &rng)).map { _ in text(8) } }
            if maybe() { t.description = text(k % 100 == 0 ? 20_000 : 60) }
            if k % 9 == 0 { t.repeatRule = RepeatSpec(text: "every 2 days", anchor: day()) }
            if maybe() { t.estimate = Estimate(minutes: Int.random(in: 0...100_000, using: &rng), source: maybe() ? .user : .suggested) }
            if maybe() { t.heldUntil = day() }
            if maybe() { t.notTodayOn = day() }
            if maybe() { t.completedAt = Instant(seconds: instants[Int.random(in: 0..<instants.count, using: &rng)]) }
            if maybe() { t.parent = Int.random(in: -5...1_000, using: &rng) }
            if maybe() { t.nextOccurrence = Int.random(in: 0...1_000, using: &rng) }
            t.pristine = maybe()
            if maybe() { t.goal = text(10) }
            if k % 5 == 0 { t.steps = [Step(title: text(6), done: maybe())] }
            if k % 7 == 0 { t.comments = [.string(text(6))] }
            if k % 4 == 0 { t.extra[text(5)] = .array([.null, .bool(true), .string(text(5))]) }
            var a: [UInt8] = []
            StoreCodec.appendTaskRecord(t, to: &a)
            var b: [UInt8] = []
            JSONWriter.append(.object(TaskJSON.record(t)), to: &b, pretty: false, indent: 0, level: 0)
            XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self), "task \(k)")
            if a != b { break }
        }
    }

    /// The same when the room first made is too small: the cursor refuses every write that
    /// does not fit, and the writer takes the record back and writes it again into more room,
    /// from none for the fixed parts up to enough, with a room kept from record to record.
    func testTheTaskWriterWritesTheRecordsBytesInTooLittleRoom() throws {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", "\"", "\\", "\n", "\u{1}", "é", "😀", "abcdefgh"]
        func text(_ most: Int) -> String {
            (0..<Int.random(in: 0...most, using: &rng)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined()
        }
        var kept: [UInt8] = []
        for k in 0..<600 {
            var t = Task(id: [0, Int.max, Int.min, -7][k % 4], title: text(20), createdAt: Instant(seconds: [Int64.min, .max, 0][k % 3]),
                         uid: TaskUID(hi: .random(in: 0 ... .max, using: &rng), lo: .random(in: 0 ... .max, using: &rng)))
            if k % 2 == 0 { t.due = Due(date: CivilDate(dayNumber: Int.random(in: -800_000...3_000_000, using: &rng)), time: WallTime(minuteOfDay: k % 1_440)) }
            if k % 3 == 0 { t.start = Due(date: CivilDate(dayNumber: k * 97), time: nil) }
            t.priority = Priority.allCases[k % Priority.allCases.count]
            if k % 5 == 0 { t.project = text(6); t.area = text(6); t.goal = text(6); t.description = text(40) }
            if k % 4 == 1 { t.tags = [text(5), text(5)]; t.notes = [text(5)] }
            if k % 6 == 0 { t.repeatRule = RepeatSpec(text: "every 2 days", anchor: CivilDate(dayNumber: k)) }
            if k % 7 == 0 { t.estimate = Estimate(minutes: Int.max, source: .suggested) }
            if k % 2 == 1 { t.heldUntil = CivilDate(dayNumber: -k); t.notTodayOn = CivilDate(dayNumber: k); t.completedAt = Instant(seconds: .max) }
            if k % 3 == 1 { t.parent = Int.min; t.nextOccurrence = Int.max; t.pristine = true }
            if k % 8 == 0 { t.steps = [Step(title: text(4))]; t.extra[text(3)] = .string(text(3)) }
            var b: [UInt8] = []
            JSONWriter.append(.object(TaskJSON.record(t)), to: &b, pretty: false, indent: 0, level: 0)
            for fixed in [0, 1, 37, 200] {
                var room: [UInt8] = []
                var a: [UInt8] = [0x5B]
                StoreCodec.appendTaskRecord(t, to: &a, room: &room, fixedBytes: fixed)
                XCTAssertEqual(String(decoding: a.dropFirst(), as: UTF8.self), String(decoding: b, as: UTF8.self), "task \(k), room \(fixed)")
                XCTAssertEqual(a.first, 0x5B, "what was there before stays")
            }
            var a: [UInt8] = []
            StoreCodec.appendTaskRecord(t, to: &a, room: &kept, fixedBytes: 0)
            XCTAssertEqual(a, b, "task \(k), room kept")
            if a != b { break }
        }
    }


    /// The compact UTC form (`20260615T070000Z`) is read in one pass over its bytes: the same
    /// instant as its ISO 8601 spelling, and nil for anything that is not that form.
    func testTheCompactInstantReaderAgreesWithTheISOReader() {
        var seed: UInt64 = 20_260_615
        for _ in 0..<3_000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let i = Instant(seconds: Int64(seed >> 33) % 8_000_000_000 - 1_000_000_000)
            let compact = InteropValues.compactUTC(i)
            XCTAssertEqual(InteropValues.instant(Array(compact.utf8)), i, compact)
            XCTAssertEqual(InteropValues.instant(Array(compact.utf8)[...]), TimeText.parseISOInstant(TimeText.isoInstant(i, in: .utc)), compact)
        }
        XCTAssertEqual(InteropValues.compactUTC(Array("20261231T235960Z".utf8)), InteropValues.compactUTC(Array("20261231T235959Z".utf8)), "a leap second is the second before")
        XCTAssertEqual(InteropValues.compactUTC(Array("20240229T120000Z".utf8)), TimeText.parseISOInstant("2024-02-29T12:00:00Z"))
        XCTAssertEqual(InteropValues.compactUTC(Array("00010101T000000Z".utf8)), Instant(seconds: -62_135_596_800))
        for bad in ["20261301T000000Z", "20260230T000000Z", "20260615T240000Z", "20260615T126000Z", "20260615T120061Z", "2026061xT070000Z",
                    "20260615 070000Z", "20260615T070000", "20260615T070000z", "20260615T0700000Z", "",
                    "00000101T000000Z", "20260001T000000Z", "20260600T000000Z", "20250229T000000Z", "2026:615T070000Z", "20260615T07/000Z"] {
            XCTAssertNil(InteropValues.compactUTC(Array(bad.utf8)), bad)
        }
    }

    /// A large import into an empty SQLite store drops the secondary indexes and makes them
    /// after the rows, in its one transaction: committed, they are all there and agree with
    /// the rows; refused, the store is as it was, indexes included; into a store that holds a
    /// task, nothing is dropped.
    func testABulkImportIntoSQLiteKeepsItsIndexesAndItsOneTransaction() throws {
        let base = NSTemporaryDirectory() + "kept-bulk-\(ProcessInfo.processInfo.processIdentifier)"
        addTeardownBlock { for x in ["", "-wal", "-shm", ".tw.json", "-good.tw.json"] { try? FileManager.default.removeItem(atPath: base + ".db" + x); try? FileManager.default.removeItem(atPath: base + x) } }
        let pad = String(repeating: "long words ", count: 20)
        let (rows, good) = Self.bigFile { k in "\"description\":\"Task \(k) \(pad)\",\"project\":\"P\(k % 5)\",\"due\":\"20260701T0\(k % 10)0000Z\"" }
        try rows.joined(separator: "\n").write(toFile: base + ".tw.json", atomically: true, encoding: .utf8)
        try good.write(toFile: base + "-good.tw.json", atomically: true, encoding: .utf8)
        XCTAssertGreaterThanOrEqual(good.utf8.count / 300, SQLiteStore.bulkRows, "the file is a bulk load")
        let db = try SQLiteStore.open(base + ".db").get()
        func indexes() throws -> String { try XCTUnwrap(try db.db.text("SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name)")) }
        let all = SQLiteStore.taskIndexes.map(\.name).sorted().joined(separator: " ")
        XCTAssertEqual(try indexes(), all)
        // The drop itself, and a rollback of it.
        XCTAssertNoThrow(try db.prepareToWrite().get())
        db.reserveTasks(100_000)
        XCTAssertTrue(db.indexesDropped)
        XCTAssertEqual(try db.db.text("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%'"), String(SQLiteStore.keptByBulkLoads.count),
                       "all but the indexes a bulk load keeps")
        db.rollback()
        XCTAssertEqual(try indexes(), all)
        let s = Session(engine: Engine(store: db, clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(3)))
        XCTAssertEqual(lines(s, "import \(base).tw.json").first?.contains("line 5502"), true)
        XCTAssertEqual(db.taskCount, 0)
        XCTAssertEqual(try indexes(), all, "the rollback takes back the drop")
        XCTAssertFalse(db.indexesDropped)
        XCTAssertEqual(lines(s, "import \(base)-good.tw.json").first, "Imported \(base)-good.tw.json (Taskwarrior JSON): 6000 added, 0 changed, 0 skipped")
        XCTAssertEqual(try indexes(), all)
        XCTAssertEqual(try db.db.text("PRAGMA integrity_check"), "ok")
        let other = try SQLiteStore.open(base + ".db").get()
        XCTAssertEqual(other.taskCount, 6_000, "committed, as another connection sees")
        XCTAssertEqual(other.tasks(.project("P3")).count, 1_200)
        XCTAssertEqual(lines(s, "count project:P3"), ["1200 of 6000"])
        // Into a store that holds tasks, the indexes stay.
        db.reserveTasks(100_000)
        XCTAssertFalse(db.indexesDropped)
        XCTAssertEqual(lines(s, "undo").first?.hasPrefix("Undid import"), true)
        XCTAssertEqual(try SQLiteStore.open(base + ".db").get().taskCount, 0)
        XCTAssertEqual(try indexes(), all)
    }
}
