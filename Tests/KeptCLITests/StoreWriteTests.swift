// Data is never lost (R-STORE-2), through the real binary: writers side by side on one JSON
// store lose no change silently, `kept run --write` is one transaction, a process killed
// mid-write leaves a store that opens and holds a prefix of its changes, and the REPL reads
// what another process wrote before its next statement.
// covers: R-STORE-1, R-STORE-2, R-STORE-3

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter
import Synchronization
import XCTest

final class StoreWriteTests: XCTestCase {
    static func json(_ d: Data) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: d) as? [String: Any])
    }

    static func titles(_ store: String) throws -> [String] {
        let o = try json(try Data(contentsOf: URL(fileURLWithPath: store)))
        return (o["tasks"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
    }

    /// The 1-based input lines that failed with `code` in short-form errors (`<stdin>:L:C: error[CODE]`).
    static func failedLines(_ stderr: String, code: String) -> Set<Int> {
        var out = Set<Int>()
        for l in stderr.split(separator: "\n") where l.contains("error[\(code)]") {
            let parts = l.split(separator: ":")
            if parts.count > 2, let n = Int(parts[1]) { out.insert(n) }
        }
        return out
    }

    /// Four REPLs piped 250 adds each into one store at once: every add is in the store or was
    /// reported with E0323, never both, never neither: 1,000 in all.
    func testFourWritersLoseNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("shared.json")
        let per = 250
        let box = Mutex<[KeptRun?]>([KeptRun?](repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { p in
            let script = ".bail off\n" + (0..<per).map { "add w\(p)-\($0)" }.joined(separator: "\n") + "\n"
            let r = try? Kept.run(["repl", "--store", store, "--errors", "short"] + Kept.clock, stdin: Data(script.utf8), timeout: 300)
            box.withLock { $0[p] = r }
        }
        let results = box.withLock { $0 }
        let stored = Set(try Self.titles(store))
        var inStore = 0, reported = 0
        for p in 0..<4 {
            let r = try XCTUnwrap(results[p], "writer \(p) did not run")
            XCTAssertEqual(r.reason, .exit, r.summary)
            let failed = Self.failedLines(r.stderr, code: "E0323")
            // Nothing else went wrong: every error line is a conflict.
            XCTAssertEqual(r.stderrLines.filter { $0.contains("error[") }.count, failed.count, r.summary)
            for k in 0..<per {
                let title = "w\(p)-\(k)"
                let isStored = stored.contains(title)
                let isReported = failed.contains(k + 2) // line 1 is `.bail off`
                XCTAssertTrue(isStored != isReported, "\(title): stored \(isStored), reported \(isReported)")
                if isStored { inStore += 1 }
                if isReported { reported += 1 }
            }
        }
        XCTAssertEqual(inStore + reported, 4 * per)
        XCTAssertEqual(stored.count, inStore, "no task twice, none from elsewhere")
        // The store reads back whole, with every id once.
        let back = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "count"])
        XCTAssertEqual(back.stdoutLines, ["All \(inStore) tasks"], back.summary)
    }

    /// The issue's first finding: `kept run --write` loops side by side. Each run is one
    /// process that reads, adds and commits; a run whose store moved under it writes nothing and
    /// says so (E0323, exit 1).
    func testRunLoopsLoseNothing() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("loops.json")
        let per = 15
        let box = Mutex<[[Bool?]]>([[Bool?]](repeating: [Bool?](repeating: nil, count: per), count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { p in
            for k in 0..<per {
                let r = try? Kept.run(["run", "--store", store, "--write", "--errors", "short"] + Kept.clock + ["-e", "add r\(p)-\(k)"], timeout: 60)
                var ok: Bool? = nil
                if let r, r.reason == .exit {
                    if r.status == 0, r.stderr.isEmpty { ok = true }
                    if r.status == 1, r.stderr.contains("error[E0323]") { ok = false }
                }
                box.withLock { $0[p][k] = ok }
            }
        }
        let outcomes = box.withLock { $0 }
        let stored = Set(try Self.titles(store))
        for p in 0..<4 {
            for k in 0..<per {
                let o = try XCTUnwrap(outcomes[p][k], "r\(p)-\(k) neither succeeded nor was refused with E0323")
                XCTAssertEqual(stored.contains("r\(p)-\(k)"), o, "r\(p)-\(k)")
            }
        }
    }

    /// `kept run --write` is one transaction: a failing statement in the middle leaves the store
    /// byte-identical, and the last line says nothing was written; `--keep-going` writes what
    /// succeeded; `--bail` stops at the first error.
    func testRunWriteIsOneTransaction() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("t.json")
        let setup = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add Keep me"])
        XCTAssertEqual(setup.status, 0, setup.summary)
        let before = try dir.read("t.json")
        let failed = try Kept.run(["run", "--store", store, "--write", "--errors", "short"] + Kept.clock + ["-e", "add A", "-e", "show 999", "-e", "add B"])
        XCTAssertEqual(failed.status, 1, failed.summary)
        XCTAssertEqual(failed.stdoutLines, ["Added 2 · A", "Added 3 · B"], failed.summary)
        XCTAssertTrue(failed.stderrLines.first?.contains("error[E0301]") ?? false, failed.summary)
        XCTAssertTrue(failed.stderrLines.last?.contains("error[E0326]: nothing was written to '\(store)': 1 statement failed") ?? false, failed.summary)
        XCTAssertEqual(try dir.read("t.json"), before, "byte-identical")

        let bailed = try Kept.run(["run", "--store", store, "--write", "--bail", "--errors", "short"] + Kept.clock + ["-e", "add A", "-e", "show 999", "-e", "add B"])
        XCTAssertEqual(bailed.status, 1, bailed.summary)
        XCTAssertEqual(bailed.stdoutLines, ["Added 2 · A"], "stopped at the error")
        XCTAssertEqual(try dir.read("t.json"), before)

        let kept = try Kept.run(["run", "--store", store, "--write", "--keep-going", "--errors", "short"] + Kept.clock + ["-e", "add A", "-e", "show 999", "-e", "add B"])
        XCTAssertEqual(kept.status, 1, kept.summary)
        XCTAssertEqual(try Self.titles(store), ["Keep me", "A", "B"])
        XCTAssertFalse(kept.stderr.contains("E0326"), kept.summary)

        // A run that succeeds writes once, at its end, with every statement's change.
        let ok = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "complete 1", "-e", "add C"])
        XCTAssertEqual(ok.status, 0, ok.summary)
        XCTAssertEqual(try Self.titles(store), ["Keep me", "A", "B", "C"])
        let o = try Self.json(try dir.read("t.json"))
        XCTAssertEqual(o["revision"] as? Int, 3, "three runs wrote it")
    }

    /// Identity in the file: every task has a lowercase version 4 uid and a modifiedAt; a store
    /// written before uids gets them on its first write, the same ones it showed before.
    func testUIDsAreWrittenAndStable() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let old = """
        {"format": "kept-store", "version": 1, "nextId": 3, "tasks": [
          {"id": 1, "title": "Old one", "status": "open", "createdAt": "2026-06-01T08:00:00Z"},
          {"id": 2, "title": "Done one", "status": "done", "createdAt": "2026-06-01T08:00:00Z", "completedAt": "2026-06-02T08:00:00Z"}
        ]}
        """
        let store = try dir.write("old.json", old)
        let shown = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "show 1 uid", "-e", "show 2 uid"])
        XCTAssertEqual(shown.status, 0, shown.summary)
        XCTAssertEqual(try dir.readText("old.json"), old, "reading never writes")
        let again = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "show 1 uid", "-e", "show 2 uid"])
        XCTAssertEqual(again.stdoutLines, shown.stdoutLines, "the same uids until the first write")
        let w = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add New"])
        XCTAssertEqual(w.status, 0, w.summary)
        let tasks = try XCTUnwrap(try Self.json(try dir.read("old.json"))["tasks"] as? [[String: Any]])
        let uids = tasks.compactMap { $0["uid"] as? String }
        XCTAssertEqual(uids.count, 3)
        XCTAssertEqual(Array(uids.prefix(2)), shown.stdoutLines, "the first write records the uids shown before")
        let v4 = try NSRegularExpression(pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        for u in uids { XCTAssertEqual(v4.numberOfMatches(in: u, range: NSRange(u.startIndex..., in: u)), 1, u) }
        XCTAssertEqual(Set(uids).count, 3)
        XCTAssertEqual(tasks[0]["modifiedAt"] as? String, "2026-06-01T08:00:00+00:00")
        XCTAssertEqual(tasks[1]["modifiedAt"] as? String, "2026-06-02T08:00:00+00:00", "the later of creation and completion")
        // A delete leaves a tombstone with the uid; undo takes it away again.
        let d = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "delete 1"])
        XCTAssertEqual(d.status, 0, d.summary)
        let tombs = try XCTUnwrap(try Self.json(try dir.read("old.json"))["tombstones"] as? [[String: Any]])
        XCTAssertEqual(tombs.first?["uid"] as? String, uids[0])
        XCTAssertEqual(tombs.first?["deletedAt"] as? String, "2026-06-15T07:00:00+00:00")
        let u = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "undo", "-e", "show 4 uid"])
        XCTAssertEqual(u.stdoutLines, ["Undid delete 1 · Old one (back as 4)", uids[0]], u.summary)
        XCTAssertNil(try Self.json(try dir.read("old.json"))["tombstones"])
    }

    /// SIGKILL at a random moment of a script of 1,000 changes, 100 times for each backend: the
    /// store opens every time and holds a prefix of the changes, in order (R-STORE-2).
    func testKilledWriterLeavesAStoreThatOpens() throws {
        try killRounds(store: "k.json", rounds: 100)
        try killRounds(store: "k.db", rounds: 100)
    }

    func killRounds(store name: String, rounds: Int) throws {
        let bin = try Kept.requireBinary()
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path(name)
        var rng = SystemRandomNumberGenerator()
        let script = ".bail off\n" + (0..<1000).map { "add k-\($0)" }.joined(separator: "\n") + "\n"
        let input = try dir.write("in.kept", script)
        var prefixes: [Int] = []
        for round in 0..<rounds {
            for f in [store, store + "-wal", store + "-shm"] { try? FileManager.default.removeItem(atPath: f) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: bin)
            p.arguments = ["repl", "--store", store] + Kept.clock
            p.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 5_000...300_000, using: &rng))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            guard FileManager.default.fileExists(atPath: store) else {
                prefixes.append(0)
                continue
            }
            let titles: [String]
            switch StoreKind.open(store) {
            case .success(let s): titles = s.tasks(.all).map(\.title)
            case .failure(let e): return XCTFail("\(name) round \(round): the store must open: \(e)")
            }
            XCTAssertEqual(titles, (0..<titles.count).map { "k-\($0)" }, "\(name) round \(round): a prefix, in order")
            prefixes.append(titles.count)
        }
        XCTAssertTrue(prefixes.contains { $0 > 0 }, "\(name): some rounds got changes in before the kill: \(prefixes)")
        guard name.hasSuffix(".json") else { return }
        // A stray temp file of a dead writer goes at the next write; the store's lock stays.
        try dir.write(".k.json.tmp-999999", "half a store")
        let w = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add after"])
        XCTAssertEqual(w.status, 0, w.summary)
        XCTAssertEqual(try dir.listing().filter { $0.hasPrefix(".k.json") }, [".k.json.lock"])
    }

    /// SIGKILL at a random moment of a bulk import (20,000 Taskwarrior records into a new SQLite
    /// store, SQLiteStore+BulkLoad), 12 times: the store opens every time, sound, holding none of
    /// the records or all of them; a kill during the load leaves SQLite's rollback journal,
    /// which the next open takes back (one killed before SQLite wrote its header is not needed,
    /// and SQLite reads past it).
    func testKilledBulkImportLeavesNothingOrEverything() throws {
        let bin = try Kept.requireBinary()
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let rows = (0..<20_000).map { k in
            "{\"uuid\":\"\(String(format: "%08x-2222-4000-8000-%012x", k, k))\",\"description\":\"Task \(k) with a few words\",\"status\":\"pending\",\"entry\":\"20260601T080000Z\",\"project\":\"P\(k % 7)\"}"
        }
        let file = try dir.write("t.tw.json", "[\n" + rows.joined(separator: ",\n") + "\n]\n")
        let store = dir.path("k.db")
        let files = [store, store + "-wal", store + "-shm", store + "-journal"]
        let t0 = Date()
        let whole = try Kept.run(["import", file, "--store", store] + Kept.clock, timeout: 120)
        XCTAssertEqual(whole.status, 0, whole.summary)
        let full = Date().timeIntervalSince(t0)
        var rng = SystemRandomNumberGenerator()
        var counts: [Int] = [], journals = 0
        for round in 0..<12 {
            for f in files { try? FileManager.default.removeItem(atPath: f) }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: bin)
            p.arguments = ["import", file, "--store", store] + Kept.clock
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32(Double.random(in: 0.02...max(0.05, full * 1.1), using: &rng) * 1_000_000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if FileManager.default.fileExists(atPath: store + "-journal") { journals += 1 }
            guard FileManager.default.fileExists(atPath: store) else {
                counts.append(0)
                continue
            }
            switch SQLiteStore.open(store) {
            case .success(let db):
                XCTAssertEqual(try db.db.text("PRAGMA integrity_check"), "ok", "round \(round)")
                XCTAssertEqual(try db.db.text("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name LIKE 'tasks_%'"), String(SQLiteStore.taskIndexes.count), "round \(round): the indexes")
                XCTAssertTrue([0, 20_000].contains(db.taskCount), "round \(round): \(db.taskCount) tasks, not none or all")
                counts.append(db.taskCount)
                db.close()
            case .failure(let e):
                return XCTFail("round \(round): the store must open: \(e)")
            }
            // What is left of a journal is one SQLite does not need: a kill before SQLite
            // wrote the journal's header leaves it zero, and SQLite then takes it for no
            // journal (nothing of the load reached the file).
            let w = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add after"])
            XCTAssertEqual(w.status, 0, w.summary)
            if let j = FileManager.default.contents(atPath: store + "-journal") {
                XCTAssertEqual(Array(j.prefix(8)), [UInt8](repeating: 0, count: min(8, j.count)), "round \(round): a journal left is not needed")
            }
        }
        XCTAssertGreaterThan(journals, 0, "some kills fell in the load: \(counts), whole import \(full) s")
    }

    /// Four REPLs piped 250 adds each into one SQLite store at once: writers queue for the lock,
    /// so every add is there and none failed.
    func testFourSQLiteWritersQueue() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("shared.db")
        let per = 250
        let box = Mutex<[KeptRun?]>([KeptRun?](repeating: nil, count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { p in
            let script = (0..<per).map { "add s\(p)-\($0)" }.joined(separator: "\n") + "\n"
            let r = try? Kept.run(["repl", "--store", store, "--errors", "short"] + Kept.clock, stdin: Data(script.utf8), timeout: 300)
            box.withLock { $0[p] = r }
        }
        for (p, r) in box.withLock({ $0 }).enumerated() {
            let r = try XCTUnwrap(r, "writer \(p)")
            XCTAssertEqual(r.status, 0, r.summary)
            XCTAssertEqual(r.stderr, "", r.summary)
        }
        let titles = try XCTUnwrap(try? StoreKind.open(store).get()).tasks(.all).map(\.title)
        XCTAssertEqual(Set(titles), Set((0..<4).flatMap { p in (0..<per).map { "s\(p)-\($0)" } }))
        XCTAssertEqual(titles.count, 4 * per, "each once")
    }

    /// A store that is read-only, or whose folder is, is refused before anything is written,
    /// naming which one.
    func testReadOnlyIsRefused() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = dir.path("r.json")
        XCTAssertEqual(try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "add first"]).status, 0)
        // Read-only: refused, named, and the file is as it was.
        chmod(store, 0o444)
        defer { chmod(store, 0o644) }
        let before = try dir.read("r.json")
        let ro = try Kept.run(["run", "--store", store, "--write", "--errors", "short"] + Kept.clock + ["-e", "add fourth"])
        XCTAssertEqual(ro.status, 1, ro.summary)
        XCTAssertTrue(ro.stderr.contains("error[E0325]: the store '\(store)' is read-only"), ro.summary)
        XCTAssertEqual(try dir.read("r.json"), before)
        chmod(store, 0o644)
        chmod(dir.url.path, 0o555)
        defer { chmod(dir.url.path, 0o755) }
        let rf = try Kept.run(["run", "--store", store, "--write", "--errors", "short"] + Kept.clock + ["-e", "add fifth"])
        XCTAssertEqual(rf.status, 1, rf.summary)
        XCTAssertTrue(rf.stderr.contains("error[E0325]: the folder '\(dir.url.path)' of the store cannot be written"), rf.summary)
        XCTAssertEqual(try dir.read("r.json"), before)
    }

    /// A symlinked store is written through to its target; the link stays a link.
    func testSymlinkIsWrittenThrough() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        try FileManager.default.createDirectory(atPath: dir.path("real"), withIntermediateDirectories: true)
        let target = dir.path("real/store.json")
        XCTAssertEqual(try Kept.run(["run", "--store", target, "--write"] + Kept.clock + ["-e", "add one"]).status, 0)
        let link = dir.path("link.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/store.json")
        let w = try Kept.run(["run", "--store", link, "--write"] + Kept.clock + ["-e", "add two"])
        XCTAssertEqual(w.status, 0, w.summary)
        let attrs = try FileManager.default.attributesOfItem(atPath: link)
        XCTAssertEqual(attrs[.type] as? FileAttributeType, .typeSymbolicLink)
        XCTAssertEqual(try Self.titles(target), ["one", "two"])
        // A new store is the user's own: 0600.
        let fresh = dir.path("fresh.json")
        XCTAssertEqual(try Kept.run(["run", "--store", fresh, "--write"] + Kept.clock + ["-e", "add x"]).status, 0)
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: fresh)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o600)
        let lockMode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: dir.path(".fresh.json.lock"))[.posixPermissions] as? Int)
        XCTAssertEqual(lockMode, 0o600)
    }
}
