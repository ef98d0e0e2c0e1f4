// The sync state and the items' uids in both backends (docs/STORE.md, "Sync"): what a commit
// writes is what a reopen reads, a rollback takes sync changes back with the rest, a queued
// entry is one row however long the outbox, a damaged sync record is reported and never read
// as less, `kept convert` carries it all across, and a store from before sync keeps its bytes.
// covers: R-STORE-1, R-STORE-4

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptSyntax
@testable import KeptInterpreter

final class SyncStoreTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-syncstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func bytes(_ file: String) -> Data { (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }

    func text(_ file: String) -> String { String(decoding: bytes(file), as: UTF8.self) }

    func write(_ file: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: file)) }

    /// The two backends, each test run through both.
    enum Backend: String, CaseIterable {
        case json, sqlite

        var file: String { self == .json ? "s.json" : "s.db" }
    }

    func open(_ kind: Backend, _ file: String) throws -> any StoreBackend {
        switch kind {
        case .json: return try JSONStore.open(file).get()
        case .sqlite: return try SQLiteStore.open(file).get()
        }
    }

    /// Runs SQL on a database file from outside Kept, as a careless user or a bad disk would.
    func sql(_ file: String, _ statement: String) throws {
        guard case .success(let db) = SQLiteDatabase.open(file, create: false) else { return XCTFail("cannot open \(file)") }
        try db.exec(statement)
        db.close()
    }

    static let nine = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    func session(_ backend: any StoreBackend, seed: UInt64 = 3) -> Session {
        Session(engine: Engine(store: backend, clock: .wall(Self.nine), defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc, uids: .seeded(seed)),
                commits: .eachStatement)
    }

    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    // MARK: sync values

    static let node = "3f2a9c01b2d4e5f6"

    static func stamp(_ ms: Int64, _ counter: Int = 0) -> HLC { HLC(millis: ms, counter: counter, node: node) }

    static let taskUID = "0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e"

    static func entry(_ kind: SyncKind, _ id: String, seq: Int, deleted: Bool = false) -> OutboxEntry {
        OutboxEntry(changeID: "c-\(kind.rawValue)-\(id)-\(seq)", key: SyncKey(kind, id),
                    fields: ["title": stamp(1_764_806_400_000 + Int64(seq)), "due": stamp(1_764_806_400_000, seq)],
                    deleted: deleted ? stamp(1_764_806_500_000) : nil, seq: seq)
    }

    static func review(_ changeID: String, _ refusal: Refusal) -> ReviewEntry {
        let change = OutgoingChange(changeID: changeID, key: SyncKey(.task, taskUID), values: JSONObject([("title", .string("Pay \"rent\""))]),
                                    clocks: ["title": stamp(1_764_806_400_000)], deleted: nil, restored: stamp(1_764_806_450_000),
                                    label: "Pay rent")
        return ReviewEntry(change: change, refusal: refusal, refusedAt: Instant(seconds: 1_764_806_460),
                           record: JSONObject([("title", .string("Pay \"rent\"")), ("status", .string("open"))]))
    }

    static let link = SyncLink(server: "host=db.example port=5432 dbname=kept", account: "ana", device: node)

    /// A link, a clock, a cursor, four outbox entries (one of them a delete) and two refused
    /// changes.
    static let changes: [SyncChange] = [
        .link(link), .clock(stamp(1_764_806_400_000, 3)), .cursor(41),
        .queue(entry(.task, taskUID, seq: 1)), .queue(entry(.project, "5d2c0000-0000-4000-8000-000000000001", seq: 2)),
        .queue(entry(.setting, "day-start", seq: 3)), .queue(entry(.filter, "5d2c0000-0000-4000-8000-000000000002", seq: 4, deleted: true)),
        .park(review("r-1", .tooLarge(field: "description", limit: 65_536))), .park(review("r-2", .deletedElsewhere)),
    ]

    static var state: SyncState {
        var s = SyncState()
        for c in changes { s.apply(c) }
        return s
    }

    /// Applies sync changes through the store's one change path and commits them.
    func commit(_ b: any StoreBackend, _ changes: [SyncChange], file: StaticString = #filePath, line: UInt = #line) {
        for c in changes { b.apply(.sync(c)) }
        if case .failure(let e) = b.commit() { XCTFail("commit: \(e)", file: file, line: line) }
    }

    // MARK: round trip

    /// R-STORE-1: the link, the clock, the cursor, the outbox and the review written by a commit
    /// are what the store reads when opened again, in both backends; a second commit after the
    /// reopen changes exactly what it changed.
    func testTheSyncStateSurvivesCommitAndReopen() throws {
        for kind in Backend.allCases {
            let file = path(kind.file)
            let b = try open(kind, file)
            XCTAssertEqual(b.sync, SyncState(), "\(kind): a new store never synced")
            commit(b, Self.changes)
            XCTAssertEqual(b.sync, Self.state, "\(kind)")
            b.close()
            let again = try open(kind, file)
            XCTAssertEqual(again.sync, Self.state, "\(kind): read back whole")
            XCTAssertEqual(again.sync.queue.map(\.seq), [1, 2, 3, 4], "\(kind): in the order they are sent")
            XCTAssertEqual(again.sync.review.map(\.change.changeID), ["r-1", "r-2"], "\(kind): oldest first")
            XCTAssertNil(again.readFailure)
            commit(again, [.queue(Self.entry(.area, "5d2c0000-0000-4000-8000-000000000003", seq: 5)), .dequeue(SyncKey(.task, Self.taskUID)),
                           .unpark("r-1"), .cursor(57), .clock(Self.stamp(1_764_806_900_000))])
            var want = Self.state
            for c: SyncChange in [.queue(Self.entry(.area, "5d2c0000-0000-4000-8000-000000000003", seq: 5)), .dequeue(SyncKey(.task, Self.taskUID)),
                                  .unpark("r-1"), .cursor(57), .clock(Self.stamp(1_764_806_900_000))] { want.apply(c) }
            again.close()
            let third = try open(kind, file)
            XCTAssertEqual(third.sync, want, "\(kind)")
            // Unlinking keeps the clock (it never goes back) and the review, as the state does.
            commit(third, [.link(nil)])
            third.close()
            let fourth = try open(kind, file)
            XCTAssertNil(fourth.sync.link, "\(kind)")
            XCTAssertEqual(fourth.sync.outbox.count, 0, "\(kind)")
            XCTAssertEqual(fourth.sync.cursor, 0, "\(kind)")
            XCTAssertEqual(fourth.sync.clock, Self.stamp(1_764_806_900_000), "\(kind)")
            XCTAssertEqual(fourth.sync.review.map(\.change.changeID), ["r-2"], "\(kind)")
            fourth.close()
        }
    }

    /// The JSON file holds the state under `syncState`, after the history, one entry a line,
    /// inside what its checksum covers; a store that never synced has no such key.
    func testTheJSONFileWritesTheSyncStateWhereItsChecksumCoversIt() throws {
        let file = path("s.json")
        let b = try JSONStore.open(file).get()
        XCTAssertFalse(run(session(b), "add one").failed)
        XCTAssertFalse(text(file).contains("syncState"), "a store that never synced has no sync key")
        commit(b, Self.changes)
        let t = text(file)
        let keys = t.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { String($0.dropFirst(3).prefix { $0 != "\"" }) }
        XCTAssertEqual(keys, ["format", "version", "revision", "nextId", "settings", "projects", "areas", "filters", "tasks", "history", "syncState", "checksum"])
        XCTAssertTrue(t.contains("\n    \"outbox\": [\n      {\"change\":\"c-task-"), t)
        XCTAssertEqual(try JSONStore.open(file).get().store.checksum, .matches)
        // The loader reads it the same whichever way it reads the tasks.
        for deferTasks in [true, false] {
            XCTAssertEqual(try StoreCodec.decode(Array(bytes(file)), deferTasks: deferTasks, parallelAt: 1).get().sync, Self.state)
        }
        // Written in pieces, it is the same bytes.
        let s = b.snapshot()
        XCTAssertEqual(StoreCodec.encodePieces(s).reduce([], +), StoreCodec.encode(s))
    }

    /// A long outbox is cut into pieces as the task list is, and joined they are the bytes of
    /// one writing.
    func testALongOutboxIsWrittenInPieces() throws {
        var s = Store()
        for k in 1...20_000 { s.apply(.sync(.queue(Self.entry(.task, "id-\(k)", seq: k)))) }
        let pieces = StoreCodec.encodePieces(s)
        XCTAssertGreaterThan(pieces.count, 2)
        XCTAssertTrue(pieces.allSatisfy { $0.count <= StoreCodec.pieceBytes })
        let joined = pieces.reduce([], +)
        XCTAssertEqual(joined, StoreCodec.encode(s))
        XCTAssertEqual(try StoreCodec.decode(joined).get().sync, s.sync)
        XCTAssertEqual(try StoreCodec.decode(joined).get().checksum, .matches)
    }

    // MARK: rollback

    /// A rollback takes back the sync changes applied since the last commit, with the rest of
    /// the statement's changes, in both backends: in memory, and in what the store holds.
    func testARollbackDropsTheSyncChangesApplied() throws {
        for kind in Backend.allCases {
            let file = path(kind.file)
            let b = try open(kind, file)
            commit(b, Self.changes)
            let tasks = b.taskCount
            for c: SyncChange in [.queue(Self.entry(.task, "later", seq: 9)), .dequeue(SyncKey(.task, Self.taskUID)), .cursor(99),
                                  .clock(Self.stamp(1_764_807_000_000)), .park(Self.review("r-3", .readOnly)), .unpark("r-1"), .link(nil)] {
                b.apply(.sync(c))
            }
            b.apply(.nextID(50))
            XCTAssertNotEqual(b.sync, Self.state)
            b.rollback()
            XCTAssertEqual(b.sync, Self.state, "\(kind): back to what was committed")
            XCTAssertEqual(b.taskCount, tasks)
            XCTAssertEqual(b.nextID, 1)
            // Nothing of it reached the file.
            b.close()
            XCTAssertEqual(try open(kind, file).sync, Self.state, "\(kind)")
        }
    }

    /// SQLite: a rollback keeps the state it committed rather than read the outbox again, but
    /// not once another process committed: then it reads what that one wrote.
    func testASQLiteRollbackReadsWhatAnotherProcessCommitted() throws {
        let file = path("two.db")
        let a = try SQLiteStore.open(file).get()
        let b = try SQLiteStore.open(file).get()
        commit(a, Self.changes)
        XCTAssertTrue(b.changedElsewhere())
        XCTAssertNoThrow(try b.reload().get())
        XCTAssertEqual(b.sync, Self.state)
        commit(a, [.queue(Self.entry(.task, "from-a", seq: 5))])
        // b changes without announcing it first: the change is refused as a conflict, and its
        // rollback reads what a committed.
        b.apply(.sync(.cursor(77)))
        if case .success = b.commit() { XCTFail("a change made on a stale read is refused") }
        b.rollback()
        XCTAssertEqual(b.sync.outbox[SyncKey(.task, "from-a")]?.seq, 5)
        XCTAssertEqual(b.sync.cursor, 41)
        a.close()
        b.close()
    }

    // MARK: one row among many

    /// SQLite: with 100,000 entries queued, queuing one more writes one row and taking one
    /// away deletes one row; the outbox is never written again whole. The JSON store adds and
    /// removes just that entry among the others.
    func testQueueAndDequeueChangeOneRowAmongMany() throws {
        let file = path("many.db")
        let db = try SQLiteStore.open(file).get()
        commit(db, (1...100_000).map { .queue(Self.entry(.task, "t-\($0)", seq: $0)) })
        func changes() throws -> Int64 { try XCTUnwrap(try db.db.integer("SELECT total_changes()")) }
        let before = try changes()
        commit(db, [.queue(Self.entry(.project, "p-1", seq: 100_001))])
        XCTAssertEqual(try changes() - before, 1, "one row written")
        commit(db, [.dequeue(SyncKey(.task, "t-500"))])
        XCTAssertEqual(try changes() - before, 2, "one row deleted")
        // Queued again, an item's entry replaces its row.
        commit(db, [.queue(Self.entry(.task, "t-7", seq: 100_002))])
        XCTAssertEqual(try changes() - before, 3)
        XCTAssertEqual(try db.db.integer("SELECT count(*) FROM sync_outbox"), 100_000)
        db.close()
        let again = try SQLiteStore.open(file).get()
        XCTAssertEqual(again.sync.outbox.count, 100_000)
        XCTAssertNil(again.sync.outbox[SyncKey(.task, "t-500")])
        XCTAssertEqual(again.sync.outbox[SyncKey(.project, "p-1")]?.seq, 100_001)
        XCTAssertEqual(again.sync.outbox[SyncKey(.task, "t-7")]?.seq, 100_002)
        XCTAssertEqual(again.sync.queue.last?.key, SyncKey(.task, "t-7"))
        XCTAssertEqual(again.sync.nextSeq, 100_003)
        again.close()

        let jfile = path("many.json")
        let j = try JSONStore.open(jfile).get()
        commit(j, (1...2_000).map { .queue(Self.entry(.task, "t-\($0)", seq: $0)) })
        // The entries' lines, without the comma that says whether another follows.
        func entries() -> Set<String> {
            Set(text(jfile).split(separator: "\n").filter { $0.contains("\"change\"") }.map { String($0.hasSuffix(",") ? $0.dropLast() : $0) })
        }
        let lines = entries()
        commit(j, [.queue(Self.entry(.project, "p-1", seq: 2_001)), .dequeue(SyncKey(.task, "t-500"))])
        let after = entries()
        XCTAssertEqual(lines.subtracting(after).count, 1)
        XCTAssertEqual(after.subtracting(lines).count, 1)
        XCTAssertEqual(try JSONStore.open(jfile).get().sync, j.sync)
    }

    // MARK: damage

    /// A SQLite store with the sync state of `changes`, closed.
    func makeSyncedDB(_ name: String) throws -> String {
        let file = path(name)
        let db = try SQLiteStore.open(file).get()
        XCTAssertFalse(run(session(db), "add one").failed)
        commit(db, Self.changes)
        db.close()
        return file
    }

    /// R-STORE-4: a sync row whose record changed without its checksum (or that moved to
    /// another row) is damage naming the table and the row: a statement on the store fails with
    /// E0332, a writer opening it writes nothing, and `kept check` lists every one.
    func testADamagedSQLiteSyncRowIsReportedNotReadAsLess() throws {
        let cases: [(String, String, StoreDamage)] = [
            ("outbox", "UPDATE sync_outbox SET record = replace(record, '\"seq\":2', '\"seq\":7') WHERE kind = 'project'",
             StoreDamage(table: "sync_outbox", key: "row project:5d2c0000-0000-4000-8000-000000000001", reason: SQLiteStore.sumFails)),
            ("moved", "UPDATE sync_outbox SET id = 'elsewhere' WHERE kind = 'setting'",
             StoreDamage(table: "sync_outbox", key: "row setting:elsewhere", reason: SQLiteStore.sumFails)),
            ("review", "UPDATE sync_review SET record = replace(record, 'Pay rent', 'Pay rant') WHERE seq = 2",
             StoreDamage(table: "sync_review", key: "row seq 2", reason: SQLiteStore.sumFails)),
            ("clock", "UPDATE sync_meta SET value = replace(value, '0003', '0004') WHERE key = 'clock'",
             StoreDamage(table: "sync_meta", key: "clock", reason: "its value does not match its checksum")),
            ("link", "UPDATE sync_meta SET checksum = NULL WHERE key = 'link'",
             StoreDamage(table: "sync_meta", key: "link", reason: "its value does not match its checksum")),
        ]
        for (name, change, want) in cases {
            let file = try makeSyncedDB("\(name).db")
            try sql(file, change)
            let db = try SQLiteStore.open(file, readOnly: true).get()
            XCTAssertEqual(db.damage, [want], name)
            let s = session(db)
            let out = run(s, "list")
            XCTAssertTrue(out.failed, name)
            XCTAssertEqual(out.lines, [], "\(name): no answer from part of the store")
            XCTAssertEqual(out.diagnostics.first?.code, .E0332, name)
            XCTAssertTrue(out.diagnostics.first?.message.contains(want.table) ?? false, out.diagnostics.first?.message ?? "")
            XCTAssertEqual(db.checkAll(), [want], "\(name): kept check names it")
            db.close()
            // A writer learns of it before anything is written.
            let before = bytes(file)
            switch SQLiteStore.open(file) {
            case .success(let w):
                w.close()
                XCTFail("\(name): a small damaged store is refused when opened for writing")
            case .failure(let e): XCTAssertEqual(Catalog.store(e).code, .E0332, name)
            }
            XCTAssertEqual(bytes(file), before, "\(name): the store is left byte for byte")
        }
        // A record that reads but names another seq than its row is damage too (its checksum
        // made over it, as a Kept with a bug would write it).
        let file = try makeSyncedDB("seq.db")
        try sql(file, "UPDATE sync_outbox SET seq = 8 WHERE kind = 'task'")
        let db = try SQLiteStore.open(file, readOnly: true).get()
        XCTAssertEqual(db.damage, [StoreDamage(table: "sync_outbox", key: "row task:\(Self.taskUID)", reason: "its record is for task:\(Self.taskUID), seq 1")])
        db.close()
    }

    /// R-STORE-4: a JSON file whose sync state does not read is unreadable (E0308) with the part
    /// that does not read named; nothing of it is dropped, and nothing is written.
    func testADamagedJSONSyncStateMakesTheStoreUnreadable() throws {
        let file = path("s.json")
        let b = try JSONStore.open(file).get()
        commit(b, Self.changes)
        let good = text(file)
        let cases: [(String, String, String)] = [
            ("\"seq\":2,", "\"seq\":\"two\",", "outbox entry 2 does not read"),
            ("\"outbox\": [", "\"outbox\": 5, \"x\": [", "'outbox' is a list"),
            ("\"cursor\": 41", "\"cursor\": -1", "'cursor' is a whole number from 0"),
            ("\"clock\": \"1764806400000-0003-", "\"clock\": \"176480640000-0003-", "'clock' is a stamp"),
            ("\"reason\":\"deleted\"", "\"reason\":\"gone\"", "review entry 2 does not read"),
            ("\"review\": [", "\"review\": {}, \"y\": [", "'review' is a list"),
            ("\"device\":\"\(Self.node)\"", "\"device\":\"Laptop\"", "the link needs"),
        ]
        for (from, to, message) in cases {
            XCTAssertTrue(good.contains(from), from)
            try write(file, good.replacingOccurrences(of: from, with: to))
            let before = bytes(file)
            switch JSONStore.open(file) {
            case .success: XCTFail("\(to): a sync state that does not read is refused")
            case .failure(let e):
                let d = Catalog.store(e)
                XCTAssertEqual(d.code, .E0308, to)
                XCTAssertTrue(d.message.contains("the sync state: \(message)"), d.message)
            }
            XCTAssertEqual(bytes(file), before)
        }
        // Two entries for one item would be read as one: refused instead.
        let lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let k = try XCTUnwrap(lines.firstIndex { $0.contains("\"change\":\"c-task-") })
        var twice = lines
        // Not the last entry: its line ends with the comma before the next.
        twice.insert(lines[k], at: k)
        try write(file, twice.joined(separator: "\n"))
        switch JSONStore.open(file) {
        case .success: XCTFail("two entries for one item are refused")
        case .failure(let e): XCTAssertTrue(Catalog.store(e).message.contains("outbox entries 1 and 2 are both for task:\(Self.taskUID)"), Catalog.store(e).message)
        }
        // A sync state that reads is read whole, whatever its checksum says (W0002).
        try write(file, good.replacingOccurrences(of: "\"cursor\": 41", with: "\"cursor\": 42"))
        let edited = try JSONStore.open(file).get()
        XCTAssertEqual(edited.sync.cursor, 42)
        XCTAssertEqual(edited.notices.map { Catalog.store($0).code }, [.W0002])
    }

    // MARK: uids

    /// A renamed project and saved filter keep their uids through a commit and a reopen in both
    /// backends, and so does the history: undo after the reopen gives the old name back with the
    /// same uid. Only a uid that is not its name's is written.
    func testARenamedProjectAndFilterKeepTheirUIDs() throws {
        let home = Project.uid(named: "Home"), calls = SavedFilter.uid(named: "Calls")
        for kind in Backend.allCases {
            let file = path(kind.file)
            let b = try open(kind, file)
            let s = session(b)
            for line in ["project add Home", "filter Calls = #phone", "project rename Home to House", "filter rename Calls to Phone"] {
                XCTAssertFalse(run(s, line).failed, "\(kind): \(line)")
            }
            b.close()
            let again = try open(kind, file)
            XCTAssertEqual(again.projects.map(\.name), ["House"])
            XCTAssertEqual(again.projects.first?.uid, home, "\(kind)")
            XCTAssertEqual(again.filters.last?.name, "Phone")
            XCTAssertEqual(again.filters.last?.uid, calls, "\(kind)")
            XCTAssertEqual(again.filters.dropLast().map(\.uid), SavedFilter.presets.map(\.uid), "\(kind): the presets' uids are their names'")
            let t = session(again, seed: 4)
            XCTAssertFalse(run(t, "undo").failed)
            XCTAssertFalse(run(t, "undo").failed)
            XCTAssertEqual(again.projects.first?.name, "Home")
            XCTAssertEqual(again.projects.first?.uid, home)
            XCTAssertFalse(run(t, "redo").failed)
            again.close()
            let third = try open(kind, file)
            XCTAssertEqual(third.projects.first?.name, "House")
            XCTAssertEqual(third.projects.first?.uid, home, "\(kind): through the history's records too")
            third.close()
        }
        let t = text(path("s.json"))
        XCTAssertTrue(t.contains("{\"name\":\"House\",\"uid\":\"\(home)\"}"), t)
        XCTAssertTrue(t.contains("{\"name\":\"Phone\",\"uid\":\"\(calls)\",\"filter\":\"#phone\",\"starred\":false}"), t)
        XCTAssertFalse(t.contains("{\"name\":\"Overdue\",\"uid\""), "a uid that is its name's is not written")
    }

    /// A project's, area's or saved filter's `uid` must read as a uid, in the lists and in the
    /// history alike: a record whose identity does not read is refused, not given its name's.
    func testAUIDThatDoesNotReadMakesTheStoreUnreadable() throws {
        let file = path("u.json")
        let cases: [(String, String)] = [
            (#""projects": [{"name": "Home", "uid": "not-a-uid"}]"#, "a project's 'uid' is a UUID"),
            (#""areas": [{"name": "Home", "uid": 7}]"#, "an area's 'uid' is a UUID"),
            (#""filters": [{"name": "Calls", "filter": "no due", "uid": null}]"#, "a saved filter's 'uid' is a UUID"),
            (#""history": {"undo": [{"summary": "x", "changes": [{"kind": "area", "before": null, "after": {"name": "A", "uid": "x"}}]}]}"#,
             "an area's 'uid' is a UUID"),
        ]
        for (member, message) in cases {
            try write(file, "{\"format\": \"kept-store\", \"version\": 1, \(member), \"tasks\": []}")
            switch JSONStore.open(file) {
            case .success: XCTFail("\(member): refused")
            case .failure(let e):
                XCTAssertEqual(Catalog.store(e).code, .E0308)
                XCTAssertTrue(Catalog.store(e).message.contains(message), Catalog.store(e).message)
            }
        }
        // Present and readable, any case: read, and written lowercase.
        let upper = "5D2C0000-0000-4000-8000-00000000000A"
        try write(file, "{\"format\": \"kept-store\", \"version\": 1, \"areas\": [{\"name\": \"Home\", \"uid\": \"\(upper)\", \"color\": \"red\"}], \"tasks\": []}")
        let s = try JSONStore.open(file).get()
        XCTAssertEqual(s.areas.first?.uid.description, upper.lowercased())
        XCTAssertEqual(s.areas.first?.extra["color"], .string("red"), "other keys are kept (R-STORE-1)")
        XCTAssertEqual(StoreCodec.areaObject(s.areas[0]).keys, ["name", "uid", "color"])
    }

    // MARK: convert

    /// `kept convert` JSON to SQLite to JSON keeps the sync state, the items' uids (a renamed
    /// project, an area of its own uid, a renamed filter) and everything else: the last file is
    /// the first one's bytes (but for the revision, which counts one file's writes).
    func testConvertKeepsTheSyncStateAndTheUIDs() throws {
        let first = path("a.json")
        let b = try JSONStore.open(first).get()
        let s = session(b)
        for line in ["project add Home", "add Pay rent +Home", "filter Calls = #phone", "project rename Home to House", "filter rename Calls to Phone"] {
            XCTAssertFalse(run(s, line).failed, line)
        }
        var area = Area(name: "Garden")
        area.uid = TaskUID("5d2c0000-0000-4000-8000-00000000000b") ?? area.uid
        b.apply(.item(.area(before: nil, after: area)))
        commit(b, Self.changes)
        let db = path("b.db"), last = path("c.json")
        XCTAssertNoThrow(try StoreKind.sqlite.write(b.snapshot(), to: db).get())
        let middle = try StoreCheck.openForReading(db).get()
        XCTAssertEqual(middle.sync, Self.state)
        XCTAssertEqual(middle.areas, [area])
        XCTAssertNoThrow(try StoreKind.json.write(middle.snapshot(), to: last).get())
        middle.close()
        let back = try JSONStore.open(last).get()
        XCTAssertEqual(back.sync, Self.state)
        XCTAssertEqual(back.projects.map(\.uid), [Project.uid(named: "Home")])
        XCTAssertEqual(back.filters.last?.uid, SavedFilter.uid(named: "Calls"))
        XCTAssertEqual(back.areas, [area])
        var x = try JSONStore.open(first).get().snapshot(), y = back.snapshot()
        x.revision = 0
        y.revision = 0
        XCTAssertEqual(String(decoding: StoreCodec.encode(x), as: UTF8.self), String(decoding: StoreCodec.encode(y), as: UTF8.self))
        // A copy in memory carries it too (`.save`, `kept run` without --write).
        let sqlite = try SQLiteStore.open(db).get()
        XCTAssertEqual(sqlite.copyInMemory().sync, Self.state)
        sqlite.close()
    }

    // MARK: stores from before

    /// R-STORE-1: a JSON store written before uids and sync (no `uid` on its projects, areas and
    /// saved filters, no sync state, a history with project and filter changes) reads and is
    /// written back byte for byte, its items with their names' uids. The file was written by
    /// the Kept before this change.
    func testAStoreFromBeforeSyncIsWrittenBackByteForByte() throws {
        let file = path("old.json")
        try write(file, Self.oldStore)
        let b = try JSONStore.open(file).get()
        XCTAssertEqual(b.store.checksum, .matches)
        XCTAssertEqual(b.sync, SyncState())
        XCTAssertEqual(b.projects.map(\.uid), b.projects.map { Project.uid(named: $0.name) })
        XCTAssertEqual(b.filters.map(\.uid), b.filters.map { SavedFilter.uid(named: $0.name) })
        XCTAssertEqual(String(decoding: StoreCodec.encode(b.snapshot()), as: UTF8.self), Self.oldStore)
        // Through SQLite and back, too.
        XCTAssertNoThrow(try StoreKind.sqlite.write(b.snapshot(), to: path("old.db")).get())
        let db = try SQLiteStore.open(path("old.db")).get()
        // A database keeps no revision: that counts a JSON file's writes.
        var s = db.snapshot()
        s.revision = b.store.revision
        XCTAssertEqual(String(decoding: StoreCodec.encode(s), as: UTF8.self), Self.oldStore)
        db.close()
    }

    /// A SQLite store of schema 2 (before sync) reads for `kept check` and `convert` as a store
    /// that never synced, with nothing written; opened by a writer it is brought to the current
    /// schema (4) and syncs; a store of a newer schema than that is refused.
    func testASchemaTwoStoreIsMigratedAndANewerOneRefused() throws {
        let file = path("v2.db")
        let db = try SQLiteStore.open(file).get()
        XCTAssertFalse(run(session(db), "project add Home").failed)
        XCTAssertFalse(run(session(db, seed: 4), "add one +Home").failed)
        let want = String(decoding: StoreCodec.encode(db.snapshot()), as: UTF8.self)
        db.close()
        XCTAssertEqual(SQLiteStore.schemaVersion, 4)
        try sql(file, StoreDamageTests.backToThree)
        try sql(file, "DROP TABLE sync_meta; DROP TABLE sync_outbox; DROP TABLE sync_review; PRAGMA user_version = 2")
        let before = bytes(file)
        let old = try SQLiteStore.open(file, readOnly: true).get()
        XCTAssertEqual(old.sync, SyncState())
        XCTAssertEqual(old.checkAll(), [])
        XCTAssertEqual(String(decoding: StoreCodec.encode(old.snapshot()), as: UTF8.self), want)
        old.close()
        XCTAssertEqual(bytes(file), before, "read only, never written")
        let migrated = try SQLiteStore.open(file).get()
        XCTAssertEqual(try migrated.db.integer("PRAGMA user_version"), 4)
        XCTAssertEqual(String(decoding: StoreCodec.encode(migrated.snapshot()), as: UTF8.self), want)
        commit(migrated, Self.changes)
        migrated.close()
        let again = try SQLiteStore.open(file, readOnly: true).get()
        XCTAssertEqual(again.sync, Self.state)
        XCTAssertEqual(again.checkAll(), [])
        again.close()
        try sql(file, "PRAGMA user_version = 5")
        switch SQLiteStore.open(file) {
        case .success(let s):
            s.close()
            XCTFail("a newer schema is refused")
        case .failure(let e): XCTAssertEqual(Catalog.store(e).code, .E0328)
        }
    }

    /// Written by the Kept before item uids and sync (`kept run --write` of `project add Home`,
    /// `add Pay rent +Home @tomorrow`, `filter Calls = #phone`, `project rename Home to House`,
    /// `filter rename Calls to Phone`, `star Phone`, `add Call mom`, `delete 2`).
    static let oldStore = """
    {
      "format": "kept-store",
      "version": 1,
      "revision": 1,
      "nextId": 3,
      "settings": {
        "day-start": "00:00",
        "week-start": "monday",
        "clock": "12h",
        "date-order": "mdy",
        "next-weekday": "coming",
        "morning": "09:00",
        "afternoon": "15:00",
        "evening": "18:00",
        "tonight": "20:00"
      },
      "projects": [
        {"name":"House"}
      ],
      "areas": [],
      "filters": [
        {"name":"Overdue","filter":"overdue","starred":false},
        {"name":"High Priority","filter":"priority >= high","starred":false},
        {"name":"Due This Week","filter":"@this week","starred":false},
        {"name":"Repeating","filter":"repeating","starred":false},
        {"name":"No Due Date","filter":"no due","starred":false},
        {"name":"Phone","filter":"#phone","starred":true}
      ],
      "tasks": [
        {"id":1,"uid":"a6d86ee0-8be1-4ae0-8d3a-66fd3fde1cf3","title":"Pay rent","status":"open","due":{"date":"2026-06-16","time":null},"project":"House","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"}
      ],
      "tombstones": [
        {"uid":"0dbf922e-6c0a-4f18-bc01-898bc5fc6386","deletedAt":"2026-06-15T09:00:00+00:00"}
      ],
      "history": {
        "undo": [
          {"summary":"project add Home","changes":[{"kind":"project","before":null,"after":{"name":"Home"}}]},
          {"summary":"add 1 · Pay rent","changes":[{"kind":"task","before":null,"after":{"id":1,"uid":"a6d86ee0-8be1-4ae0-8d3a-66fd3fde1cf3","title":"Pay rent","status":"open","due":{"date":"2026-06-16","time":null},"project":"Home","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"}}]},
          {"summary":"filter Calls = #phone","changes":[{"kind":"filters","before":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false}],"after":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false},{"name":"Calls","filter":"#phone","starred":false}]}]},
          {"summary":"project rename Home to House","changes":[{"kind":"project","before":{"name":"Home"},"after":{"name":"House"}},{"kind":"task","before":{"id":1,"uid":"a6d86ee0-8be1-4ae0-8d3a-66fd3fde1cf3","title":"Pay rent","status":"open","due":{"date":"2026-06-16","time":null},"project":"Home","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"},"after":{"id":1,"uid":"a6d86ee0-8be1-4ae0-8d3a-66fd3fde1cf3","title":"Pay rent","status":"open","due":{"date":"2026-06-16","time":null},"project":"House","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"}}]},
          {"summary":"filter rename Calls to Phone","changes":[{"kind":"filters","before":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false},{"name":"Calls","filter":"#phone","starred":false}],"after":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false},{"name":"Phone","filter":"#phone","starred":false}]}]},
          {"summary":"filter star Phone","changes":[{"kind":"filters","before":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false},{"name":"Phone","filter":"#phone","starred":false}],"after":[{"name":"Overdue","filter":"overdue","starred":false},{"name":"High Priority","filter":"priority >= high","starred":false},{"name":"Due This Week","filter":"@this week","starred":false},{"name":"Repeating","filter":"repeating","starred":false},{"name":"No Due Date","filter":"no due","starred":false},{"name":"Phone","filter":"#phone","starred":true}]}]},
          {"summary":"add 2 · Call mom","changes":[{"kind":"task","before":null,"after":{"id":2,"uid":"0dbf922e-6c0a-4f18-bc01-898bc5fc6386","title":"Call mom","status":"open","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"}}]},
          {"summary":"delete 2 · Call mom","changes":[{"kind":"task","before":{"id":2,"uid":"0dbf922e-6c0a-4f18-bc01-898bc5fc6386","title":"Call mom","status":"open","createdAt":"2026-06-15T09:00:00+00:00","modifiedAt":"2026-06-15T09:00:00+00:00"},"after":null}]}
        ],
        "redo": []
      },
      "checksum": "xxh64:f415b0830de21d95"
    }

    """
}
