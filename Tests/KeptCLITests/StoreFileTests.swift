// The store file through the real binary (docs/STORE.md): unknown fields survive a write
// (R-STORE-1), `kept run` writes only with --write, and a store that cannot be read is reported
// with its line and column (E0308, exit 2) and never written (R-STORE-2).

import Foundation
import XCTest

final class StoreFileTests: XCTestCase {
    /// A store with fields this version does not know: at the top level (`sync`), in
    /// `settings` (`theme`), in a project (`color`), an area (`icon`), a saved filter
    /// (`sharedWith`) and a task (`syncedFrom`, and a nested `meta` value).
    static let storeWithUnknownFields = """
    {
      "format": "kept-store",
      "version": 1,
      "nextId": 2,
      "settings": {"clock": "24h", "theme": "dark"},
      "projects": [{"name": "Home", "color": "#3366ff"}],
      "areas": [{"name": "Life", "icon": "leaf"}],
      "filters": [{"name": "Errands", "filter": "#errand", "starred": false, "sharedWith": ["ana"]}],
      "tasks": [
        {"id": 1, "title": "Pay rent", "status": "open", "project": "Home", "createdAt": "2026-06-01T08:00:00Z", "syncedFrom": "phone", "meta": {"a": [1, 2.5, null, true], "b": "x"}}
      ],
      "sync": {"device": "laptop", "revision": 42}
    }

    """

    static func json(_ data: Data, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let v = try JSONSerialization.jsonObject(with: data)
        guard let o = v as? [String: Any] else {
            XCTFail("the store is not a JSON object", file: file, line: line)
            throw CocoaError(.propertyListReadCorrupt)
        }
        return o
    }

    /// R-STORE-1: `--write` with an add and a complete writes the new task and task 1 as done,
    /// and every unknown field, at every level, is still there with its value.
    func testWriteKeepsUnknownFields() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("home.store.json", Self.storeWithUnknownFields)
        let r = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add Another", "-e", "complete 1"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, ["Added 2 · Another", "Completed 1 · Pay rent"], r.summary)

        let o = try Self.json(try dir.read("home.store.json"))
        XCTAssertEqual(o["format"] as? String, "kept-store")
        XCTAssertEqual(o["version"] as? Int, 1)
        XCTAssertEqual(o["nextId"] as? Int, 3)
        // Top level.
        let sync = o["sync"] as? [String: Any]
        XCTAssertEqual(sync?["device"] as? String, "laptop")
        XCTAssertEqual(sync?["revision"] as? Int, 42)
        // Settings: the unknown key and the known value it was written with.
        let settings = o["settings"] as? [String: Any]
        XCTAssertEqual(settings?["theme"] as? String, "dark")
        XCTAssertEqual(settings?["clock"] as? String, "24h")
        // Project, area, filter.
        let projects = o["projects"] as? [[String: Any]]
        XCTAssertEqual(projects?.count, 1)
        XCTAssertEqual(projects?.first?["name"] as? String, "Home")
        XCTAssertEqual(projects?.first?["color"] as? String, "#3366ff")
        let areas = o["areas"] as? [[String: Any]]
        XCTAssertEqual(areas?.first?["name"] as? String, "Life")
        XCTAssertEqual(areas?.first?["icon"] as? String, "leaf")
        let filters = o["filters"] as? [[String: Any]]
        XCTAssertEqual(filters?.first?["name"] as? String, "Errands")
        XCTAssertEqual(filters?.first?["sharedWith"] as? [String], ["ana"])
        // Tasks: 1 done with its unknown fields, 2 new.
        let tasks = try XCTUnwrap(o["tasks"] as? [[String: Any]])
        XCTAssertEqual(tasks.count, 2)
        let t1 = try XCTUnwrap(tasks.first { $0["id"] as? Int == 1 })
        XCTAssertEqual(t1["title"] as? String, "Pay rent")
        XCTAssertEqual(t1["status"] as? String, "done")
        XCTAssertEqual(t1["completedAt"] as? String, "2026-06-15T07:00:00+00:00", "09:00 Berlin is 07:00 UTC")
        XCTAssertEqual(t1["project"] as? String, "Home")
        XCTAssertEqual(t1["syncedFrom"] as? String, "phone")
        let meta = try XCTUnwrap(t1["meta"] as? [String: Any])
        XCTAssertEqual(meta["b"] as? String, "x")
        let a = try XCTUnwrap(meta["a"] as? [Any])
        XCTAssertEqual(a.count, 4)
        XCTAssertEqual(a[0] as? Int, 1)
        XCTAssertEqual(a[1] as? Double, 2.5)
        XCTAssertTrue(a[2] is NSNull)
        XCTAssertEqual(a[3] as? Bool, true)
        let t2 = try XCTUnwrap(tasks.first { $0["id"] as? Int == 2 })
        XCTAssertEqual(t2["title"] as? String, "Another")
        XCTAssertEqual(t2["status"] as? String, "open")
        XCTAssertEqual(t2["createdAt"] as? String, "2026-06-15T07:00:00+00:00")

        // No temporary file is left next to the store (R-STORE-2 writes through `.NAME.tmp-PID`);
        // the lock file beside it is the store's own and stays.
        XCTAssertEqual(try dir.listing(), [".home.store.json.lock", "home.store.json"])

        // What was written reads back: a second session sees both tasks.
        let again = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "show 1 status", "-e", "list"])
        XCTAssertEqual(again.status, 0, again.summary)
        XCTAssertEqual(again.stdoutLines, ["done", "All 1 task", "2  Another"], again.summary)
    }

    /// A second write over a store Kept wrote itself still keeps the unknown fields, and ids
    /// are never reused: add then delete task 3 leaves `nextId` at 4 (STORE.md `nextId`).
    func testRewriteIsStable() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", Self.storeWithUnknownFields)
        let r1 = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add Another"])
        XCTAssertEqual(r1.status, 0, r1.summary)
        let afterFirst = try dir.read("s.json")
        let r2 = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add Third", "-e", "delete 3"])
        XCTAssertEqual(r2.status, 0, r2.summary)
        let o1 = try Self.json(afterFirst)
        let o2 = try Self.json(try dir.read("s.json"))
        XCTAssertEqual(o2["nextId"] as? Int, 4, "ids are never reused, even after a delete")
        XCTAssertEqual((o2["tasks"] as? [[String: Any]])?.count, 2)
        XCTAssertEqual((o2["sync"] as? [String: Any])?["revision"] as? Int, 42)
        XCTAssertEqual((o1["settings"] as? [String: Any])?["theme"] as? String, "dark")
        XCTAssertEqual((o2["settings"] as? [String: Any])?["theme"] as? String, "dark")
    }

    /// R-TASK-1: the undo history is kept in the store, so a later `kept run --write` can undo
    /// what an earlier one did, a delete with its subtask included (R-TASK-3).
    func testALaterSessionCanUndo() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", Self.storeWithUnknownFields)
        let r1 = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "subtask 1 Find the form", "-e", "delete 1"])
        XCTAssertEqual(r1.status, 0, r1.summary)
        XCTAssertEqual(r1.stdoutLines, ["Added 2 · Find the form", "Deleted 1 · Pay rent with 1 subtask"], r1.summary)
        let r2 = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "undo", "-e", "show 4 parent"])
        XCTAssertEqual(r2.status, 0, r2.summary)
        XCTAssertEqual(r2.stdoutLines, ["Undid delete 1 · Pay rent (back as 3 and 4)", "3"], r2.summary)
        let o = try Self.json(try dir.read("s.json"))
        XCTAssertEqual(((o["history"] as? [String: Any])?["redo"] as? [Any])?.count, 1)
        XCTAssertEqual((o["sync"] as? [String: Any])?["revision"] as? Int, 42)
    }

    /// R-STORE-3: repeated edits to one task fold into its final version in the store (one
    /// record, the last title and priority, the unknown fields kept), and a change that cannot
    /// be applied is reported with its code and reason, never dropped silently: the run exits 1
    /// and, with --keep-going, the store holds exactly what the applied changes made.
    func testRepeatedEditsFoldAndRefusedChangesAreReported() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", Self.storeWithUnknownFields)
        let r = try Kept.run(["run", "--store", store, "--write", "--keep-going", "--errors", "short"] + Kept.clock + [
            "-e", "set 1 title Pay the rent", "-e", "set 1 priority high", "-e", "set 1 title Pay rent in full",
            "-e", "set 1 priority low", "-e", "set 7 title Nothing here", "-e", "move 1 to overdue",
        ])
        XCTAssertEqual(r.status, 1, r.summary)
        let errors = r.stderr.split(separator: "\n")
        XCTAssertEqual(errors.count, 2, r.summary)
        XCTAssertTrue(errors[0].contains("error[E0301]: no task with id 7"), r.summary)
        XCTAssertTrue(errors[1].contains("error[E0312]"), r.summary)
        let o = try Self.json(try dir.read("s.json"))
        let tasks = try XCTUnwrap(o["tasks"] as? [[String: Any]])
        XCTAssertEqual(tasks.count, 1)
        XCTAssertEqual(tasks[0]["title"] as? String, "Pay rent in full")
        XCTAssertEqual(tasks[0]["priority"] as? String, "low")
        XCTAssertEqual(tasks[0]["syncedFrom"] as? String, "phone")
        XCTAssertNil(tasks[0]["due"])
        // Each applied edit is its own undo step; the refused ones left none.
        XCTAssertEqual(((o["history"] as? [String: Any])?["undo"] as? [Any])?.count, 4)
    }

    /// Without --write the store file is byte-identical afterwards, even when statements change
    /// the store in the session (and the output shows the change happened).
    func testNoWriteLeavesFileUntouched() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", Self.storeWithUnknownFields)
        let before = try dir.read("s.json")
        let r = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "add Another", "-e", "complete 1", "-e", "set clock 12h"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.prefix(2), ["Added 2 · Another", "Completed 1 · Pay rent"], r.summary)
        XCTAssertEqual(try dir.read("s.json"), before)
        XCTAssertEqual(try dir.listing(), ["s.json"])
    }

    /// A missing store file is an empty store; without --write it is not created.
    func testMissingStoreIsEmptyAndNotCreated() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let r = try Kept.run(["run", "--store", dir.path("new.json")] + Kept.clock + ["-e", "list", "-e", "add First"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines, ["No open tasks", "Added 1 · First"], r.summary)
        XCTAssertEqual(try dir.listing(), [])
    }

    /// R-STORE-2: a store with a syntax error (a trailing comma at the end of line 3, column 15)
    /// is reported as E0308 with that line and column, exit 2, and it is not written even with
    /// --write; no statement runs.
    func testSyntaxErrorInStore() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let text = "{\n  \"format\": \"kept-store\",\n  \"version\": 1,\n}\n"
        let store = try dir.write("bad.json", text)
        let before = try dir.read("bad.json")

        let r = try Kept.run(["run", "--store", store] + Kept.clock + ["--errors", "short", "-e", "list"])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stdout, "", r.summary)
        XCTAssertEqual(r.stderr, "\(store):3:15: error[E0308]: could not read the store: trailing comma before '}'\n", r.summary)

        let w = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["--errors", "rich", "-e", "add x"])
        XCTAssertEqual(w.status, 2, w.summary)
        XCTAssertEqual(w.stdout, "", w.summary)
        XCTAssertTrue(w.stderr.contains("error[E0308]"), w.summary)
        XCTAssertTrue(w.stderr.contains("  --> \(store):3:15"), w.summary)
        XCTAssertTrue(w.stderr.contains(" 3 |   \"version\": 1,"), w.summary)
        XCTAssertEqual(try dir.read("bad.json"), before)
        XCTAssertEqual(try dir.listing(), ["bad.json"])
    }

    /// A store of a newer format version is refused (E0308, exit 2), not rewritten.
    func testNewerVersionIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let text = "{\"format\": \"kept-store\", \"version\": 2, \"tasks\": []}\n"
        let store = try dir.write("v2.json", text)
        let r = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add x"])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("E0308"), r.summary)
        XCTAssertEqual(try dir.readText("v2.json"), text)
    }

    /// The file keeps its permission bits across a write (STORE.md).
    func testWriteKeepsPermissions() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("s.json", Self.storeWithUnknownFields)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store)
        let r = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add Another"])
        XCTAssertEqual(r.status, 0, r.summary)
        let perms = try FileManager.default.attributesOfItem(atPath: store)[.posixPermissions] as? Int
        XCTAssertEqual(perms, 0o600)
    }

    /// "No input crashes the interpreter or damages the store": a store whose `nextId` is the
    /// largest integer reads (or is refused with E0308), and `add` then fails with an error, not
    /// a crash (the next id does not exist); the file is not written. Either exit 1 (the add
    /// failed) or 2 (the store was refused) is fine; a signal is not.
    func testLargestNextIdDoesNotCrash() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let text = "{\"nextId\": 9223372036854775807, \"tasks\": [{\"id\": 1, \"title\": \"a\"}]}\n"
        let store = try dir.write("max.json", text)
        let r = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["--errors", "short", "-e", "add x", "-e", "list"])
        XCTAssertEqual(r.reason, .exit, "kept crashed: \(r.summary.prefix(600))")
        XCTAssertTrue([1, 2].contains(r.status), r.summary)
        XCTAssertEqual(try dir.readText("max.json"), text)
    }

    /// The same for a task whose id is the largest integer and no `nextId`: the next id would be
    /// one past it. Loading must not crash, and neither must `add`.
    func testLargestTaskIdDoesNotCrash() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let text = "{\"tasks\": [{\"id\": 9223372036854775807, \"title\": \"a\"}]}\n"
        let store = try dir.write("max.json", text)
        let list = try Kept.run(["run", "--store", store] + Kept.clock + ["--errors", "short", "-e", "list"])
        XCTAssertEqual(list.reason, .exit, "kept crashed: \(list.summary.prefix(600))")
        XCTAssertTrue([0, 2].contains(list.status), list.summary)
        let add = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["--errors", "short", "-e", "add x"])
        XCTAssertEqual(add.reason, .exit, "kept crashed: \(add.summary.prefix(600))")
        XCTAssertTrue([1, 2].contains(add.status), add.summary)
        XCTAssertEqual(try dir.readText("max.json"), text)
    }
}
