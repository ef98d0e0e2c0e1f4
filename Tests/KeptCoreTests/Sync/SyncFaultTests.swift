// Sync when things go wrong (docs/SYNC.md, "Failures"), on a real PostgreSQL: a client killed
// during its push a hundred times, the server stopped during a sync, an answer lost, a refused
// change across a restart, and two devices completing one repeating task offline. Afterwards
// nothing is lost and nothing is doubled.
// covers: R-SYNC-5, R-SYNC-6, R-SYNC-7, R-SYNC-13, R-REP-10

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore
@testable import KeptSync

/// A server whose answers to pushes are lost after it applied them.
final class LosingServer: SyncServer {
    let inner: any SyncServer
    init(_ inner: any SyncServer) { self.inner = inner }
    var account: String { inner.account }
    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        _ = inner.push(changes)
        return .failure(.offline("the connection broke before the answer came"))
    }
    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> { inner.pull(after: version, limit: limit) }
    func version() -> Result<Int64, SyncFailure> { inner.version() }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> { inner.head(recent: limit) }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> { inner.list(after: key, limit: limit) }
    func summary() -> Result<SyncSummary, SyncFailure> { inner.summary() }
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> { inner.items(narrowing) }
    func close() { inner.close() }
}

final class SyncFaultTests: XCTestCase {
    static let slot = ClusterSlot()
    static let accounts = ["faults", "kills", "repeats", "refusals", "stops", "bulk"]

    override class func setUp() {
        super.setUp()
        slot.start(accounts: accounts)
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-faults-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    let zone = Zone(identifier: "Europe/Berlin") ?? .utc

    func engine(_ path: String, sqlite: Bool = false, at seconds: Int64 = 1_772_442_000, seed: UInt64 = 1) throws -> Engine {
        let backend: any StoreBackend = sqlite ? try SQLiteStore.open(path).get() : try JSONStore.open(path).get()
        return Engine(store: backend, clock: .instant(Instant(seconds: seconds)), defaultZone: zone, uids: .seeded(seed))
    }

    func link(_ e: Engine, _ conninfo: String, _ device: String) throws {
        let s = try ok(PostgresServer.connect(conninfo))
        try e.link(SyncLink(server: conninfo, account: s.account, device: device))
        try e.commit().get()
        s.close()
    }

    /// One sync as the front ends run it: committed, or rolled back on a failure.
    @discardableResult
    func sync(_ e: Engine, _ s: any SyncServer) throws -> Result<SyncReport, SyncProblem> {
        do {
            let r = try e.sync(with: s)
            try e.commit().get()
            return .success(r)
        } catch let p as SyncProblem {
            e.rollback()
            return .failure(p)
        }
    }

    func serverTasks(_ conninfo: String) throws -> [PulledItem] {
        let s = try ok(PostgresServer.connect(conninfo))
        defer { s.close() }
        return try ok(s.pull(after: 0, limit: 1_000_000)).filter { $0.key.kind == .task && $0.deleted == nil }
    }

    // MARK: the server stopped during a sync

    // R-SYNC-6: the server stops while a sync sends thousands of changes: the sync is offline,
    // nothing is refused, the outbox is as it was, and the next sync sends everything once.
    func testTheServerStoppedDuringASync() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "stops")
        let e = try engine(dir.appendingPathComponent("s.db").path, sqlite: true)
        try link(e, conninfo, "5555000000000001")
        let n = 6_000
        _ = try e.perform("add \(n)") { (step: inout Engine.StepChanges) throws(DomainError) in
            var changes: [Change] = []
            for i in 0..<n { changes.append(.task(before: nil, after: try e.newTask(title: "task \(i)"))) }
            e.stage(changes, into: &step)
        }
        try e.commit().get()
        let waiting = e.store.sync.outbox.count
        XCTAssertGreaterThanOrEqual(waiting, n)
        let s = try ok(PostgresServer.connect(conninfo))
        defer { s.close() }
        // Stop the server once the first batch is in (a second connection watches the version).
        final class Watch: @unchecked Sendable {
            let server: PostgresServer
            let cluster: PostgresCluster
            init(_ s: PostgresServer, _ c: PostgresCluster) { server = s; cluster = c }
        }
        let watch = Watch(try ok(PostgresServer.connect(conninfo)), c)
        let stopper = Thread {
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, ((try? watch.server.version().get()) ?? 0) == 0 { usleep(1_000) }
            watch.server.close()
            watch.cluster.stopNow()
        }
        stopper.start()
        let r = try sync(e, s)
        while !stopper.isFinished { usleep(10_000) }
        guard case .failure(.failed(.offline, _)) = r else {
            try c.restart()
            return XCTFail("the sync was not offline: \(r)")
        }
        XCTAssertEqual(e.store.sync.outbox.count, waiting, "the outbox is as it was")
        XCTAssertTrue(e.store.sync.review.isEmpty, "an outage refuses nothing")
        try c.restart()
        guard case .success(let done) = try sync(e, s) else { return XCTFail("the sync after the restart failed") }
        XCTAssertEqual(done.refused.count, 0)
        XCTAssertTrue(e.store.sync.outbox.isEmpty)
        let tasks = try serverTasks(conninfo)
        XCTAssertEqual(tasks.count, n)
        XCTAssertEqual(Set(tasks.map { $0.fields["title"]?.stringValue ?? "" }).count, n, "each task once")
        e.store.close()
    }

    // MARK: a lost answer

    // R-SYNC-6: a push the server applied whose answer was lost is recognised when it is sent
    // again: nothing is applied twice.
    func testALostAnswer() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "faults")
        let e = try engine(dir.appendingPathComponent("s.json").path)
        try link(e, conninfo, "1111000000000001")
        for t in ["Pay rent", "Call mom", "Book flights"] { _ = try e.add(TaskDraft(title: t)) }
        try e.commit().get()
        let s = try ok(PostgresServer.connect(conninfo))
        defer { s.close() }
        let lossy = LosingServer(s)
        let queued = e.store.sync.outbox.count
        XCTAssertGreaterThanOrEqual(queued, 3, "the three tasks and what the link queued")
        guard case .failure(.failed(.offline, let waiting)) = try sync(e, lossy) else { return XCTFail("a lost answer is offline") }
        XCTAssertEqual(waiting, queued)
        XCTAssertEqual(e.store.sync.outbox.count, queued)
        let v = try ok(s.version())
        XCTAssertEqual(try serverTasks(conninfo).count, 3, "the server applied the push")
        guard case .success(let r) = try sync(e, s) else { return XCTFail("the sync again failed") }
        XCTAssertEqual(r.sent, queued)
        XCTAssertEqual(try ok(s.version()), v, "the changes sent again were recognised, not applied again")
        XCTAssertTrue(e.store.sync.outbox.isEmpty)
    }

    // MARK: a refusal across a restart

    // R-SYNC-5: a refused change stays in review across a restart of the program, does not
    // hold back the changes after it, and goes once retried.
    func testARefusalSurvivesARestartAndBlocksNothing() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "refusals")
        let path = dir.appendingPathComponent("s.db").path
        var e = try engine(path, sqlite: true)
        try link(e, conninfo, "2222000000000001")
        _ = try c.superuserSQL("UPDATE kept.meta SET max_field_bytes = 120")
        defer { _ = try? c.superuserSQL("UPDATE kept.meta SET max_field_bytes = 65536") }
        let long = String(repeating: "A title too long for this server ", count: 5)
        _ = try e.add(TaskDraft(title: long))
        _ = try e.add(TaskDraft(title: "Short one"))
        try e.commit().get()
        let s = try ok(PostgresServer.connect(conninfo))
        defer { s.close() }
        guard case .success(let r) = try sync(e, s) else { return XCTFail("sync failed") }
        XCTAssertEqual(r.refused.map(\.refusal), [.tooLarge(field: "title", limit: 120)])
        XCTAssertEqual(Set(try serverTasks(conninfo).compactMap { $0.fields["title"]?.stringValue }), ["Short one"])

        // The program restarts.
        e.store.close()
        e = try engine(path, sqlite: true, at: 1_772_442_600, seed: 2)
        XCTAssertEqual(e.store.sync.review.count, 1)
        XCTAssertEqual(e.store.sync.review.first?.change.label, long)
        _ = try e.add(TaskDraft(title: "After the restart"))
        try e.commit().get()
        guard case .success(let r2) = try sync(e, s) else { return XCTFail("sync failed") }
        XCTAssertEqual(r2.sent, 1, "the change after the refused one goes")
        XCTAssertEqual(e.store.sync.review.count, 1, "the refused one waits in review")
        XCTAssertEqual(Set(try serverTasks(conninfo).compactMap { $0.fields["title"]?.stringValue }), ["Short one", "After the restart"])

        _ = try c.superuserSQL("UPDATE kept.meta SET max_field_bytes = 65536")
        _ = try e.retryRefused(1)
        try e.commit().get()
        guard case .success(let r3) = try sync(e, s) else { return XCTFail("sync failed") }
        XCTAssertEqual(r3.refused.count, 0)
        XCTAssertTrue(e.store.sync.review.isEmpty)
        XCTAssertEqual(try serverTasks(conninfo).count, 3)
        e.store.close()
    }

    // MARK: repeats

    // R-SYNC-7, R-REP-10: two devices complete one repeating task offline; after sync there is
    // one next occurrence, on both and on the server.
    func testTwoDevicesCompleteOneRepeatOffline() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "repeats")
        let a = try engine(dir.appendingPathComponent("a.json").path, seed: 1)
        let b = try engine(dir.appendingPathComponent("b.db").path, sqlite: true, seed: 2)
        try link(a, conninfo, "aaaa000000000001")
        try link(b, conninfo, "bbbb000000000002")
        let s = try ok(PostgresServer.connect(conninfo))
        defer { s.close() }
        var d = TaskDraft(title: "Water the plants")
        d.due = CivilDate(iso: "2026-03-02").map { Due(date: $0) }
        d.repeatRule = RepeatRule(frequency: .weekly)
        let t = try a.add(d)
        try a.commit().get()
        try sync(a, s)
        try sync(b, s)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        a.clock = .instant(Instant(seconds: 1_772_445_600))
        b.clock = .instant(Instant(seconds: 1_772_449_200))
        _ = try a.complete(.task(t.id))
        _ = try b.complete(.task(tb.id))
        try a.commit().get()
        try b.commit().get()
        try sync(a, s)
        try sync(b, s)
        try sync(a, s)
        for e in [a, b] {
            let open = e.store.tasks(.all).filter { $0.title == "Water the plants" && $0.isOpen }
            XCTAssertEqual(open.count, 1, "one next occurrence")
            XCTAssertEqual(open.first?.due?.date.iso, "2026-03-09")
        }
        XCTAssertEqual(try serverTasks(conninfo).count, 2, "the done occurrence and one next")
        b.store.close()
    }

    // MARK: a client killed during its push

    /// The built `kept` (KEPT_BIN, or .build/debug/kept under the package).
    static var keptBinary: String {
        if let b = ProcessInfo.processInfo.environment["KEPT_BIN"] { return b }
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/kept").path
    }

    /// Starts `kept ARGS`, output to files; its pid.
    func spawn(_ args: [String], out: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, out + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let program = Self.keptBinary
        let argv = ([program] + args).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        for k in env.keys where k.hasPrefix("PG") { env[k] = nil }
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard rc == 0 else { throw ClusterError(description: "cannot run \(program): \(String(cString: strerror(rc)))") }
        return pid
    }

    func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 { if errno != EINTR { return -1 } }
        // Exited: its code; killed: 128 + the signal.
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    func run(_ args: [String]) throws -> (status: Int32, out: String) {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)").path
        let pid = try spawn(args, out: out)
        let status = wait(pid)
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: out + ".err", encoding: .utf8)) ?? ""
        return (status, text + err)
    }

    // R-SYNC-6: `kept sync` killed (SIGKILL) at a random moment of its push, 100 times, on a
    // JSON store and on a SQLite one; each time the store opens, and in the end everything is on
    // the server once, with its last values, and nothing is left waiting.
    func testAClientKilledDuringItsPush() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "kills")
        var rng = SplitMix(seed: 30)
        let stores = [dir.appendingPathComponent("k.json").path, dir.appendingPathComponent("k.db").path]
        for s in stores {
            let l = try run(["account", "link", conninfo, "--store", s])
            XCTAssertEqual(l.status, 0, l.out)
        }
        var killedDuring = 0
        for round in 0..<100 {
            let store = stores[round % 2]
            // A batch of changes: adds, and an edit of an earlier task.
            var args = ["run", "--store", store, "--write", "--now", "2026-03-02T10:00", "--zone", "Europe/Berlin"]
            for k in 0..<40 { args += ["-e", "add r\(round) k\(k) #batch\(round % 3)"] }
            if round >= 2 { args += ["-e", "set 1 title \"first, edited in round \(round)\""] }
            let r = try run(args)
            XCTAssertEqual(r.status, 0, r.out)

            let out = dir.appendingPathComponent("sync-\(round)").path
            let pid = try spawn(["sync", "--store", store], out: out)
            usleep(UInt32.random(in: 5_000...60_000, using: &rng))
            kill(pid, SIGKILL)
            if wait(pid) == 128 + SIGKILL { killedDuring += 1 }
            // The store opens, whatever instant the kill came at.
            let status = try run(["sync", "status", "--store", store, "--json"])
            XCTAssertEqual(status.status, 0, "round \(round): \(status.out)")
        }
        XCTAssertGreaterThan(killedDuring, 50, "most kills land while the sync runs")
        // Twice round, so each store has the other's tasks too.
        for s in stores + stores {
            let r = try run(["sync", "--store", s])
            XCTAssertEqual(r.status, 0, r.out)
            let st = try run(["sync", "status", "--store", s, "--json"])
            XCTAssertTrue(st.out.contains("\"waiting\":0"), st.out)
            XCTAssertTrue(st.out.contains("\"refused\":0"), st.out)
        }
        // Every add is on the server once, and the last edit of each store's first task.
        let onServer = try serverTasks(conninfo).compactMap { $0.fields["title"]?.stringValue }
        XCTAssertEqual(onServer.count, 100 * 40, "every add once, nothing doubled")
        XCTAssertEqual(Set(onServer).count, 100 * 40)
        XCTAssertEqual(onServer.filter { $0 == "first, edited in round 98" }.count, 1, "the JSON store's last edit")
        XCTAssertEqual(onServer.filter { $0 == "first, edited in round 99" }.count, 1, "the SQLite store's last edit")
        for s in stores {
            let n = try run(["run", "--store", s, "-e", "count"])
            XCTAssertTrue(n.out.contains("\(100 * 40)"), "\(s): \(n.out)")
        }
    }

    // MARK: a first pull killed

    // R-SYNC-13: the first pull of 100,000 tasks killed (SIGKILL) at a random moment, 20 times,
    // each on a new SQLite store: the store opens, says it is loading while it holds part of the
    // account, and the next sync goes on and ends with exactly the server's tasks.
    func testAFirstPullKilledGoesOnWhereItStopped() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "bulk")
        let tasks = 100_000
        // The account, written as pushes would leave it: uids, fields with their clocks, one
        // version each.
        _ = try c.superuserSQL("""
            INSERT INTO kept.items (account, kind, key, fields, clocks, version)
            SELECT 'bulk', 'task', md5('bulk' || g)::uuid::text,
                   jsonb_build_object('title', 'Task ' || g, 'status', CASE WHEN g % 10 = 0 THEN 'done' ELSE 'open' END,
                                      'createdAt', '2026-03-01T09:00:00Z', 'modifiedAt', '2026-03-01T09:00:00Z'),
                   jsonb_build_object('title', '1772442000000-0000-aaaa', 'status', '1772442000000-0000-aaaa',
                                      'createdAt', '1772442000000-0000-aaaa', 'modifiedAt', '1772442000000-0000-aaaa'),
                   g
            FROM generate_series(1, \(tasks)) g;
            UPDATE kept.accounts SET version = \(tasks) WHERE name = 'bulk';
            """)
        _ = try c.superuserSQL("VACUUM ANALYZE kept.items")
        let expected = Dictionary(uniqueKeysWithValues: try serverTasks(conninfo).map { ($0.key.id, $0.fields["title"]?.stringValue ?? "") })
        XCTAssertEqual(expected.count, tasks)

        var picks = SplitMix(seed: 32)
        /// The store's tasks as uid → title, read in this process: every uid, and the titles of
        /// 200 of them picked at random (each a query).
        func held(_ path: String) throws -> [String: String] {
            let store = try SQLiteStore.open(path).get()
            defer { store.close() }
            let uids = store.taskUIDs()
            var out = Dictionary(uniqueKeysWithValues: uids.map { ($0.description, "") })
            for u in uids.shuffled(using: &picks).prefix(200) { out[u.description] = store.task(uid: u)?.title }
            return out
        }
        func sameAsServer(_ h: [String: String], _ round: String) {
            XCTAssertEqual(Set(h.keys), Set(expected.keys), round)
            for (u, title) in h where !title.isEmpty { XCTAssertEqual(title, expected[u], "\(round): \(u)") }
            XCTAssertEqual(h.values.filter { !$0.isEmpty }.count, 200, round)
        }


        // One whole first pull, timed, to spread the kills over its length.
        let clock = ContinuousClock()
        let first = dir.appendingPathComponent("whole.db").path
        var whole: (status: Int32, out: String) = (0, "")
        let length = try clock.measure { whole = try run(["account", "link", conninfo, "--store", first]) }
        XCTAssertEqual(whole.status, 0, whole.out)
        sameAsServer(try held(first), "the whole pull")
        let ms = Int(length.components.seconds * 1000 + length.components.attoseconds / 1_000_000_000_000_000)
        print("first pull of \(tasks) tasks (debug build, SQLite): \(ms) ms")

        var rng = SplitMix(seed: 31)
        var sawLoading = 0
        var killedDuring = 0
        for round in 0..<20 {
            let store = dir.appendingPathComponent("fp-\(round).db").path
            let out = dir.appendingPathComponent("fp-\(round)").path
            let pid = try spawn(["account", "link", conninfo, "--store", store], out: out)
            usleep(UInt32(Int.random(in: ms / 20...ms * 19 / 20, using: &rng)) * 1000)
            kill(pid, SIGKILL)
            if wait(pid) == 128 + SIGKILL { killedDuring += 1 }
            // The store opens, whatever instant the kill came at.
            let status = try run(["sync", "status", "--store", store, "--json"])
            XCTAssertEqual(status.status, 0, "round \(round): \(status.out)")
            if status.out.contains("\"loading\"") {
                sawLoading += 1
                let count = try run(["run", "--store", store, "-e", "count status:any"])
                XCTAssertTrue(count.out.contains("loading: ") && count.out.contains(" of 100,005"), "round \(round): \(count.out)")
            }
            // Linked already: a sync goes on; killed before the link was written: link again.
            let again = status.out.contains("\"linked\":true")
                ? try run(["sync", "--store", store]) : try run(["account", "link", conninfo, "--store", store])
            XCTAssertEqual(again.status, 0, "round \(round): \(again.out)")
            let done = try run(["run", "--store", store, "-e", "count status:any"])
            XCTAssertFalse(done.out.contains("loading"), "round \(round): \(done.out)")
            sameAsServer(try held(store), "round \(round)")
        }
        XCTAssertGreaterThan(killedDuring, 15, "the kills land while the first pull runs")
        XCTAssertGreaterThan(sawLoading, 10, "most kills leave a store part way, which says it is loading")
    }
}
