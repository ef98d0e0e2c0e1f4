// Sessions and backends on one store file: a session that commits after each statement reads
// what another wrote before its next statement; a commit whose store moved under it writes
// nothing, fails with E0323, reads the store again and names the statement to run again; a run
// that commits at its end writes all or nothing.
// covers: R-STORE-2, R-STORE-3

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class StoreCommitTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-commit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func session(_ path: String, commits: CommitPolicy = .eachStatement) throws -> Session {
        let store = try JSONStore.open(path).get()
        let e = Engine(store: store, clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                       defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc)
        return Session(engine: e, commits: commits)
    }

    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    func titles(_ path: String) throws -> [String] {
        guard case .success(.store(let s)) = StoreFile.load(path) else { throw CocoaError(.fileReadCorruptFile) }
        return s.tasks.map(\.title)
    }

    /// Two sessions on one file see each other's changes at their next statement.
    func testSessionsSeeEachOther() throws {
        let path = dir.appendingPathComponent("s.json").path
        let a = try session(path), b = try session(path)
        XCTAssertEqual(run(a, "add first").lines, ["Added 1 · first"])
        XCTAssertEqual(run(b, "count").lines, ["All 1 task"], "b read the store again before the statement")
        XCTAssertEqual(run(b, "add second").lines, ["Added 2 · second"])
        XCTAssertEqual(run(a, "list").lines, ["All 2 tasks", "1  first", "2  second"])
        XCTAssertEqual(run(a, "complete 2").lines, ["Completed 2 · second"])
        XCTAssertEqual(try titles(path), ["first", "second"])
        XCTAssertEqual(run(b, "show 2 status").lines, ["done"])
    }

    /// Two backends on one file: the second commit of the same version is refused and writes
    /// nothing, whatever it changed.
    func testSecondCommitOfOneVersionIsRefused() throws {
        let path = dir.appendingPathComponent("b.json").path
        let a = try JSONStore.open(path).get(), b = try JSONStore.open(path).get()
        a.apply(.item(.task(before: nil, after: Task(id: 1, title: "from a", createdAt: Instant(seconds: 0)))))
        b.apply(.item(.task(before: nil, after: Task(id: 1, title: "from b", createdAt: Instant(seconds: 0)))))
        XCTAssertNoThrow(try a.commit().get())
        XCTAssertFalse(a.changedElsewhere())
        XCTAssertTrue(b.changedElsewhere())
        guard case .failure(.conflict) = b.commit() else { return XCTFail("b's commit must be refused") }
        XCTAssertEqual(try titles(path), ["from a"])
        XCTAssertTrue(b.hasPending, "b's changes are kept until it rolls back or reads again")
        XCTAssertNoThrow(try b.reload().get())
        XCTAssertEqual(b.tasks(.all).map(\.title), ["from a"])
        b.apply(.item(.task(before: nil, after: Task(id: 2, title: "b again", createdAt: Instant(seconds: 0)))))
        XCTAssertNoThrow(try b.commit().get())
        XCTAssertEqual(try titles(path), ["from a", "b again"])
    }

    /// A conflict between the session's read and its commit (a writer that got in between, as
    /// a backend that writes first shows): E0323 at the statement, nothing of it written, the
    /// store read again with the other writer's change, and a help line with what to run.
    func testConflictIsReportedAndTheStoreReadAgain() throws {
        let path = dir.appendingPathComponent("c.json").path
        let a = try session(path)
        XCTAssertEqual(run(a, "add first").lines, ["Added 1 · first"])
        let inner = try JSONStore.open(path).get()
        let racing = WatchedBackend(inner)
        racing.beforeCommit = {
            // Another process writes just before this one commits.
            let other = try? JSONStore.open(path).get()
            other?.apply(.item(.task(before: nil, after: Task(id: 7, title: "theirs", createdAt: Instant(seconds: 0)))))
            _ = other?.commit()
        }
        a.replaceStore(racing)
        let r = run(a, "add mine")
        XCTAssertTrue(r.lines.isEmpty)
        let d = try XCTUnwrap(r.diagnostics.first)
        XCTAssertEqual(d.code, .E0323)
        XCTAssertEqual(d.help, "run 'add mine' again")
        XCTAssertEqual(try titles(path), ["first", "theirs"], "nothing of the refused statement was written")
        XCTAssertEqual(a.store.tasks(.all).map(\.title), ["first", "theirs"], "the session has the other writer's change")
        XCTAssertEqual(DiagnosticRenderer(style: .short).render(d).prefix(19), "t:1:1: error[E0323]")
    }

    /// A rollback puts back exactly what was committed: tasks added, changed and removed, ids,
    /// tombstones, the plan and the history.
    func testRollbackPutsBackWhatWasCommitted() throws {
        let e = Engine(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                       defaultZone: .utc)
        _ = try e.add(TaskDraft(title: "A"))
        _ = try e.add(TaskDraft(title: "B"))
        XCTAssertNoThrow(try e.commit().get())
        let before = StoreCodec.encode(e.store.snapshot())
        _ = try e.complete(.task(1))
        _ = try e.delete(.task(2))
        _ = try e.add(TaskDraft(title: "C"))
        _ = e.top3()
        _ = try e.set(setting: "clock", to: "24h")
        XCTAssertTrue(e.store.hasPending)
        e.rollback()
        XCTAssertFalse(e.store.hasPending)
        XCTAssertEqual(String(decoding: StoreCodec.encode(e.store.snapshot()), as: UTF8.self), String(decoding: before, as: UTF8.self))
        XCTAssertEqual(e.store.nextID, 3)
    }

    /// A session that commits at its end writes everything at once, or nothing.
    func testAtEndCommitsAllOrNothing() throws {
        let path = dir.appendingPathComponent("e.json").path
        let s = try session(path, commits: .atEnd)
        _ = run(s, "add one")
        _ = run(s, "add two")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "nothing before the end")
        XCTAssertNil(s.finish(failed: 0, keepGoing: false))
        XCTAssertEqual(try titles(path), ["one", "two"])
        let t = try session(path, commits: .atEnd)
        _ = run(t, "add three")
        let d = try XCTUnwrap(t.finish(failed: 1, keepGoing: false))
        XCTAssertEqual(d.code, .E0326)
        XCTAssertEqual(try titles(path), ["one", "two"])
    }
}
