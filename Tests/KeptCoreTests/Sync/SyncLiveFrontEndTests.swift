// Live sync through the session (docs/SYNC.md, "Live"), each session a device on one in-memory
// account (MemoryConnector): a live sync is the `sync` statement, committed as any statement;
// it reports what came, and which of the tasks the last listing or `show` showed another device
// changed, once; what the REPL and `kept sync --watch` say of it, in text and JSON.
// covers: R-SYNC-8, R-SYNC-18

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class SyncLiveFrontEndTests: XCTestCase, SessionTesting {
    let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    static let server = "host=test user=alice"

    /// A linked device over a store in memory, committing after each statement, as the REPL.
    func device(_ c: MemoryConnector, seed: UInt64, format: OutputFormat = .text) -> Session {
        let at = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)
        let e = Engine(store: JSONStore(memory: Store()), clock: .wall(at), defaultZone: zone, uids: .seeded(seed))
        let s = Session(engine: e, format: format, commits: .eachStatement)
        s.syncConnector = c
        let r = run(s, "account link \"\(Self.server)\"")
        XCTAssertFalse(r.failed, r.diagnostics.map(\.message).joined())
        s.live.keepsShown = true
        return s
    }

    func later(_ s: Session, minutes: Int) {
        if case .wall(let w) = s.clock { s.clock = .wall(w.adding(minutes: minutes)) }
    }

    func synced(_ s: Session, file: StaticString = #filePath, line: UInt = #line) throws -> (SyncReport, [ShownTask]) {
        switch s.liveSync() {
        case .synced(let r, let shown): return (r, shown)
        case .failed(let out):
            XCTFail("the live sync failed: \(out.diagnostics.map(\.message))", file: file, line: line)
            throw XCTSkip("failed")
        }
    }

    // R-SYNC-8: a task the last listing showed, changed on another device, is named once with
    // the note; one that was not shown is not, and keeps the note for a statement naming it.
    func testAShownTaskChangedElsewhereIsNamedOnce() throws {
        let c = MemoryConnector()
        let a = device(c, seed: 1)
        let b = device(c, seed: 2)
        run(a, "add Water the plants")
        run(a, "add Pay rent")
        XCTAssertFalse(run(a, "sync").failed)
        var (r, shown) = try synced(b)
        XCTAssertEqual(r.received, 2)
        XCTAssertEqual(shown, [], "nothing was shown yet")
        XCTAssertEqual(b.liveReceived(r, shown: shown, recovered: false), ["↻ 2 changes from another device"])

        XCTAssertTrue(lines(b, "list").joined(separator: "\n").contains("Water the plants"))
        XCTAssertEqual(b.live.shown.map(\.title).sorted(), ["Pay rent", "Water the plants"])
        later(a, minutes: 5)
        run(a, "set 1 title \"Water the plants twice\"")
        XCTAssertFalse(run(a, "sync").failed)
        (r, shown) = try synced(b)
        XCTAssertEqual(r.received, 1)
        XCTAssertEqual(shown.map(\.title), ["Water the plants twice"])
        XCTAssertEqual(b.liveReceived(r, shown: shown, recovered: false),
                       ["↻ 1 change from another device", "\(shown[0].id) · Water the plants twice · \(Session.refreshedNote)"])
        // Said already: a statement naming it says nothing more.
        XCTAssertEqual(lines(b, "show \(shown[0].id) title"), ["Water the plants twice"])

        // `show` replaces what was shown; a change of a task not shown is only counted, and the
        // note waits for the statement that names it.
        let rent = try XCTUnwrap(b.store.tasks.first { $0.title == "Pay rent" })
        let plants = shown[0].id
        XCTAssertEqual(lines(b, "show \(plants) title"), ["Water the plants twice"])
        later(a, minutes: 5)
        run(a, "complete 2")
        XCTAssertFalse(run(a, "sync").failed)
        (r, shown) = try synced(b)
        XCTAssertEqual(r.received, 1)
        XCTAssertEqual(shown, [])
        XCTAssertEqual(b.liveReceived(r, shown: shown, recovered: false), ["↻ 1 change from another device"])
        XCTAssertEqual(lines(b, "show \(rent.id) status"), ["done", Session.refreshedNote])
    }

    // A task shown and then deleted on another device is named with the words it was shown with.
    func testAShownTaskDeletedElsewhereKeepsItsWords() throws {
        let c = MemoryConnector()
        let a = device(c, seed: 1)
        let b = device(c, seed: 2)
        run(a, "add Renew passport")
        XCTAssertFalse(run(a, "sync").failed)
        _ = try synced(b)
        let task = try XCTUnwrap(b.store.tasks.first)
        XCTAssertFalse(run(b, "show \(task.id)").failed)
        later(a, minutes: 5)
        run(a, "delete 1")
        XCTAssertFalse(run(a, "sync").failed)
        let (r, shown) = try synced(b)
        XCTAssertEqual(shown, [ShownTask(uid: task.uid, id: task.id, title: "Renew passport")])
        XCTAssertNil(b.store.task(uid: task.uid), "deleted here too")
        XCTAssertEqual(r.received, 1)
    }

    // The live sync is the statement: committed, its own changes pushed, nothing printed by it.
    func testALiveSyncPushesAndCommits() throws {
        let c = MemoryConnector()
        let a = device(c, seed: 1)
        run(a, "add Call mom")
        XCTAssertEqual(a.engine.syncStatus.waiting, 1)
        let (r, shown) = try synced(a)
        XCTAssertEqual(r.sent, 1)
        XCTAssertEqual(r.received, 0)
        XCTAssertEqual(shown, [])
        XCTAssertEqual(a.engine.syncStatus.waiting, 0)
        XCTAssertFalse(a.store.hasPending, "committed as a statement is")
        XCTAssertEqual(a.liveSynced(r), ["Synced with alice: sent 1, received 0."])
    }

    // Offline: the statement's failure, marked offline with what waits; nothing is lost.
    func testAnOfflineLiveSyncKeepsTheQueue() throws {
        let c = MemoryConnector()
        let a = device(c, seed: 1)
        run(a, "add Call mom")
        c.server(Self.server).offline = true
        guard case .failed(let out) = a.liveSync() else { return XCTFail("an offline server synced") }
        XCTAssertEqual(out.syncOffline, 1)
        XCTAssertEqual(a.engine.syncStatus.waiting, 1)
        XCTAssertEqual(a.liveOffline(waiting: 1, message: "m", prompt: true),
                       ["↻ Offline: 1 change waits here; Kept tries again every 10 s and as soon as the server answers"])
        c.server(Self.server).offline = false
        let (r, _) = try synced(a)
        XCTAssertEqual(r.sent, 1)
        XCTAssertEqual(a.liveReceived(r, shown: [], recovered: true), ["↻ Back online: sent 1 change"])
    }

    // JSON: one object an event, the sync statement's fields with the event's name and the
    // shown tasks that changed.
    func testJSONEventsAreOneObjectEach() throws {
        let c = MemoryConnector()
        let a = device(c, seed: 1)
        let b = device(c, seed: 2, format: .json)
        run(a, "add Water the plants")
        XCTAssertFalse(run(a, "sync").failed)
        _ = try synced(b)
        XCTAssertFalse(run(b, "list").failed)
        later(a, minutes: 5)
        run(a, "set 1 priority high")
        XCTAssertFalse(run(a, "sync").failed)
        let (r, shown) = try synced(b)
        let id = try XCTUnwrap(shown.first?.id)
        let out = b.liveReceived(r, shown: shown, recovered: false)
        XCTAssertEqual(out.count, 1)
        XCTAssertEqual(out[0], #"{"live":"synced","sent":0,"received":1,"refused":[],"version":\#(r.version),"refreshed":[\#(id)],"shown":[\#(id)]}"#)
        XCTAssertEqual(b.liveOffline(waiting: 2, message: "offline", prompt: true), [#"{"live":"offline","waiting":2,"message":"offline"}"#])
    }
}
