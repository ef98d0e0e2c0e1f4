// The server's reading functions of schema version 2 (docs/SYNC.md, "The server"): the head,
// the list in key order, the summary and the items of a query agree with the in-memory oracle
// fed the same pushes; at 100,000 items the pull, the head and the list read through their
// indexes, and a push finds items by the primary key even on a new table; a version 1 schema
// migrates keeping its items; and pushes of different accounts never wait for each other.
// covers: R-SYNC-13, R-SYNC-17

import Foundation
import XCTest
import KeptRules
@testable import KeptDomain
@testable import KeptSync

final class SyncServerScaleTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start { c in
            let first = Accounts.initialize(c.conninfo(user: "postgres"))
            guard case .success(let r) = first, r.from == nil, r.to == 2 else { throw ClusterError(description: "init: \(first)") }
            for name in ["alice", "bob", "carol", "scale", "crowd", "ann", "ben"] {
                let made = Accounts.create(name: name, readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres"))
                guard case .success = made else { throw ClusterError(description: "create \(name): \(made)") }
            }
        }
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    // MARK: agreement with the oracle

    /// Keys whose byte order differs from an alphabet's: case, accents, digits, other scripts.
    static let keys = ["a", "B", "Z", "e", "é", "ä1", "task-10", "task-9", "Ω", "日本", "z z", "A"]

    /// Two rounds of changes: everything made, then edits, deletes, a restore, and an edit of
    /// a deleted item (refused).
    static func rounds() -> [[OutgoingChange]] {
        let statuses = ["pending", "waiting", "completed"]
        let projects = ["Home", "Work", #"Ho"me\"#]
        var first: [OutgoingChange] = []
        for (k, key) in keys.enumerated() {
            first.append(change(.task, key, [("title", .string("task \(key)")), ("status", .string(statuses[k % 3])),
                                              ("project", .string(projects[k % 3]))], at: stamp(Int64(k))))
        }
        first.append(change(.project, "Home", [("name", .string("Home"))], at: stamp(20)))
        first.append(change(.project, "Work", [("name", .string("Work"))], at: stamp(21)))
        first.append(change(.area, "Life", [("name", .string("Life"))], at: stamp(22)))
        first.append(change(.filter, "soon", [("name", .string("soon")), ("filter", .string("due:week"))], at: stamp(23)))
        first.append(change(.setting, "week.start", [("value", .string("monday"))], at: stamp(24)))
        first.append(change(.setting, "zone", [("value", .string("UTC"))], at: stamp(25)))
        let second: [OutgoingChange] = [
            change(.task, "a", [("status", .string("completed"))], at: stamp(100)),
            change(.task, "B", [], deleted: stamp(101)),
            change(.task, "日本", [], deleted: stamp(102)),
            change(.area, "Life", [], deleted: stamp(103)),
            change(.setting, "zone", [], deleted: stamp(104)),
            change(.task, "日本", [("title", .string("back"))], at: stamp(105), restored: stamp(105)),
            change(.task, "B", [("title", .string("edited after the delete"))], at: stamp(106)),
            change(.task, "Ω", [("status", .null)], at: stamp(107)),
            change(.task, "e", [("title", .string("same stamp, changes nothing"))], at: stamp(3)),
        ]
        return [first, second]
    }

    func testHeadListSummaryAndItemsAgreeWithTheOracle() throws {
        let c = try Self.slot.require()
        let pg = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        // Another account's items, which no answer may hold.
        let bob = try ok(PostgresServer.connect(c.conninfo(user: "bob")))
        _ = try ok(bob.push(Self.keys.map { change(.task, $0, [("title", .string("bob's"))], at: stamp(1)) }))

        let memory = MemoryServer()
        for round in Self.rounds() {
            let got = try ok(pg.push(round))
            let expected = try ok(memory.push(round))
            XCTAssertEqual(got.map(\.outcome.isApplied), expected.map(\.outcome.isApplied))
        }
        XCTAssertEqual(try ok(pg.version()), memory.latest)

        for n in [0, 1, 5, 1000] {
            XCTAssertEqual(try ok(pg.head(recent: n)), try ok(memory.head(recent: n)), "head(recent: \(n))")
        }
        let head = try ok(pg.head(recent: 3))
        XCTAssertEqual(head.live, memory.liveKeys.count)
        XCTAssertEqual(head.recent.map(\.version), head.recent.map(\.version).sorted(by: >))

        // Paged in threes, each page as the oracle's, together every live item in key order.
        var after: SyncKey?
        var listed: [PulledItem] = []
        while true {
            let page = try ok(pg.list(after: after, limit: 3))
            XCTAssertEqual(page, try ok(memory.list(after: after, limit: 3)), "after \(String(describing: after))")
            guard let last = page.last else { break }
            listed += page
            after = last.key
        }
        XCTAssertEqual(listed.map(\.key), memory.liveKeys)
        XCTAssertTrue(listed.allSatisfy { $0.deleted == nil })
        XCTAssertEqual(try ok(pg.list(after: nil, limit: 0)), [])
        XCTAssertEqual(try ok(pg.list(after: SyncKey(.task, "\u{10FFFF}"), limit: 10)), [])

        let summary = try ok(pg.summary())
        XCTAssertEqual(summary, try ok(memory.summary()))
        let swift = SyncSummary.of(listed.map(\.key))
        XCTAssertEqual(summary.count, swift.count)
        XCTAssertEqual(summary.checksum, swift.checksum)
        XCTAssertEqual(summary.count, listed.filter { $0.key.kind != .setting }.count)
        XCTAssertNotEqual(summary.checksum, 0)

        let narrowings: [TaskNarrowing] = [
            .none,
            TaskNarrowing(statuses: ["pending"]),
            TaskNarrowing(statuses: ["pending", "waiting"]),
            TaskNarrowing(statuses: []),
            TaskNarrowing(project: "Home"),
            TaskNarrowing(project: #"Ho"me\"#),
            TaskNarrowing(statuses: ["completed"], project: "Work"),
            TaskNarrowing(statuses: [#"a "quoted", {braced} \ status"#, "NULL"]),
        ]
        for n in narrowings {
            XCTAssertEqual(try ok(pg.items(n)), try ok(memory.items(n)), "\(n)")
        }
        let pending = try ok(pg.items(TaskNarrowing(statuses: ["pending"])))
        XCTAssertEqual(pending.items.filter { $0.key.kind == .task }.map(\.key.id).sorted(), ["e", "task-10", "日本"])
    }

    func testAnEmptyAccount() throws {
        let c = try Self.slot.require()
        let pg = try ok(PostgresServer.connect(c.conninfo(user: "carol")))
        XCTAssertEqual(try ok(pg.head(recent: 50)), SyncHead(version: 0, live: 0, recent: []))
        XCTAssertEqual(try ok(pg.list(after: nil, limit: 50)), [])
        XCTAssertEqual(try ok(pg.summary()), SyncSummary(version: 0, count: 0, checksum: 0))
        XCTAssertEqual(try ok(pg.items(.none)), SyncItems(version: 0, items: []))
    }

    func testARoleWithoutAnAccountReadsNothing() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE ROLE stray LOGIN IN ROLE kept_writer")
        // Connecting refuses it; the functions themselves answer with no row for it.
        guard case .noAccount = try failure(PostgresServer.connect(c.conninfo(user: "stray"))) else { return XCTFail("stray connected") }
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.head(5)", user: "stray").stdout, "0\n")
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.summary()", user: "stray").stdout, "0\n")
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.items(NULL, NULL, true)", user: "stray").stdout, "0\n")
    }

    // MARK: at 100,000 items

    func testEachFunctionReadsThroughAnIndexAtScale() throws {
        let c = try Self.slot.require()
        // 100,000 tasks of `scale` (1% pending, 500 projects), 20 projects, and 20,000 items of
        // another account, written directly: the plans are what this test is about.
        try c.superuserSQL("""
            INSERT INTO kept.items (account, kind, key, fields, clocks, version)
            SELECT 'scale', 'task', 'k' || lpad(g::text, 6, '0'),
                   jsonb_build_object('title', 't' || g, 'status', CASE WHEN g % 100 = 0 THEN 'pending' ELSE 'completed' END,
                                      'project', 'p' || (g % 500)),
                   '{}', g
            FROM generate_series(1, 100000) g;
            INSERT INTO kept.items (account, kind, key, fields, clocks, version)
            SELECT 'scale', 'project', 'p' || g, '{}', '{}', 100000 + g FROM generate_series(1, 20) g;
            UPDATE kept.accounts SET version = 100020 WHERE name = 'scale';
            INSERT INTO kept.items (account, kind, key, fields, clocks, version)
            SELECT 'crowd', 'task', 'k' || lpad(g::text, 6, '0'), '{"status": "pending"}', '{}', g FROM generate_series(1, 20000) g;
            UPDATE kept.accounts SET version = 20000 WHERE name = 'crowd';
            """)
        try c.superuserSQL("VACUUM ANALYZE kept.items")

        // What each nested statement did, as auto_explain reports it to the client.
        func plan(_ call: String) throws -> String {
            let r = c.psql("""
                LOAD 'auto_explain';
                SET auto_explain.log_min_duration = 0;
                SET auto_explain.log_nested_statements = on;
                SET auto_explain.log_analyze = on;
                SET auto_explain.log_buffers = on;
                SET auto_explain.log_level = notice;
                SET ROLE scale;
                SELECT count(*) FROM \(call);
                """, user: "postgres")
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr
        }
        /// The shared buffers the function's own statement touched (its plan comes first),
        /// found in memory or read.
        func buffers(_ plan: String) -> Int {
            guard let line = plan.split(separator: "\n").first(where: { $0.contains("Buffers: shared ") }) else { return Int.max }
            return line.split(separator: "=").dropFirst().reduce(0) { $0 + (Int($1.prefix { $0.isNumber }) ?? 0) }
        }

        for call in ["kept.list(NULL, NULL, 100)", "kept.list('task', 'k050000', 100)"] {
            let p = try plan(call)
            XCTAssertTrue(p.contains("Index Scan using items_live_keys"), p)
            XCTAssertFalse(p.contains("Sort"), p)
            XCTAssertFalse(p.contains("Rows Removed by Filter"), p)
            XCTAssertTrue(p.contains("actual time") && p.contains("rows=100 loops=1"), p)
            XCTAssertLessThan(buffers(p), 50, "a page of 100 reads a few pages of the index and table\n\(p)")
        }
        XCTAssertTrue(try plan("kept.list('task', 'k050000', 100)").contains("ROW((kind)::text, (key)::text) > ROW("))

        // A narrowed query tests status and project on the account's task rows (no index: see
        // Schema's version 2); what it spares is sending and reading the other tasks' fields.
        let pending = try plan("kept.items('{pending}', NULL, true)")
        XCTAssertTrue(pending.contains("COALESCE((fields ->> 'status'::text), ''::text) = ANY ('{pending}'::text[])"), pending)
        let recent = try plan("kept.head(50)")
        XCTAssertTrue(recent.contains("Index Scan Backward using items_account_version"), recent)

        // Through Kept, with the figures.
        let pg = try ok(PostgresServer.connect(c.conninfo(user: "scale")))
        let clock = ContinuousClock()
        var head: SyncHead?
        let headTime = try clock.measure { head = try ok(pg.head(recent: 50)) }
        XCTAssertEqual(head?.version, 100_020)
        XCTAssertEqual(head?.live, 100_020)
        XCTAssertEqual(head?.recent.count, 50)
        XCTAssertEqual(head?.recent.first?.key, SyncKey(.project, "p20"))
        var listed = 0
        var after: SyncKey?
        var pages = 0
        let listTime = try clock.measure {
            while true {
                let page = try ok(pg.list(after: after, limit: 500))
                guard let last = page.last else { break }
                listed += page.count
                after = last.key
                pages += 1
            }
        }
        XCTAssertEqual(listed, 100_020)
        var summary: SyncSummary?
        let summaryTime = try clock.measure { summary = try ok(pg.summary()) }
        let keys = (1...100_000).map { SyncKey(.task, "k" + String(repeating: "0", count: 6 - String($0).count) + String($0)) }
            + (1...20).map { SyncKey(.project, "p\($0)") }
        let swift = SyncSummary.of(keys)
        XCTAssertEqual(summary, SyncSummary(version: 100_020, count: swift.count, checksum: swift.checksum))
        var narrowed: SyncItems?
        let itemsTime = try clock.measure { narrowed = try ok(pg.items(TaskNarrowing(statuses: ["pending"]))) }
        XCTAssertEqual(narrowed?.items.count, 1_020)
        print("scale: head(50) \(headTime), list of 100,020 in \(pages) pages of 500 \(listTime), summary \(summaryTime), items(pending) \(itemsTime)")
    }

    // MARK: the push's plan

    /// A push finds each item it merges by the primary key, in the plan it makes on a new,
    /// empty table and keeps for the session (generic: `Schema.findsByIndex`). On a new table
    /// `items_account_version`, by the account alone, costs the same, and version 2's status
    /// columns once tipped the choice to it: every change of a whole push of 100,000 tasks read
    /// the account's items (91 s against 18.7 s).
    func testAPushFindsItemsByThePrimaryKeyOnANewTable() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE DATABASE fresh")
        XCTAssertEqual(try ok(Accounts.initialize(c.conninfo(user: "postgres", database: "fresh"))), SchemaReport(from: nil, to: 2))
        try c.superuserSQL("INSERT INTO kept.accounts (name) VALUES ('carol')", database: "fresh")
        let r = c.psql("""
            SET ROLE carol;
            SET plan_cache_mode = force_generic_plan;
            PREPARE find(text, text, text) AS SELECT * FROM kept.items i WHERE i.account = $1 AND i.kind = $2 AND i.key = $3 FOR UPDATE;
            EXPLAIN EXECUTE find('carol', 'task', 'x');
            """, user: "postgres", database: "fresh")
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("Index Scan using items_pkey"), r.stdout)
        XCTAssertTrue(r.stdout.contains("Index Cond: ((account = $1) AND (kind = $2) AND (key = $3))"), r.stdout)
    }

    // MARK: migration

    func testVersion1MigratesKeepingItsItems() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE DATABASE old")
        let admin = c.conninfo(user: "postgres", database: "old")
        XCTAssertEqual(try ok(Accounts.initialize(admin, upTo: 1)), SchemaReport(from: nil, to: 1))
        XCTAssertEqual(try c.superuserSQL("SELECT schema_version FROM kept.meta", database: "old"), "1\n")
        // Accounts as version 1 had them (the roles are the cluster's, made in setUp).
        try c.superuserSQL("INSERT INTO kept.accounts (name) VALUES ('alice'), ('bob')", database: "old")
        let alice = try ok(PGConnection.connect(c.conninfo(user: "alice", database: "old")))
        let changes = Self.rounds()[0]
        _ = try ok(alice.exec("SELECT kept.push($1::jsonb)", params: [JSONWriter.compact(.array(changes.map(\.json)))]))
        let pull = "SELECT kind, key, fields, clocks, deleted, version FROM kept.pull(0, 1000)"
        let before = try ok(alice.exec(pull)).rows
        XCTAssertEqual(before.count, changes.count)
        guard case .schema(let words) = try failure(PostgresServer.connect(c.conninfo(user: "alice", database: "old"))) else {
            return XCTFail("a version 1 schema was used")
        }
        XCTAssertTrue(words.contains("brings it to 2"), words)

        XCTAssertEqual(try ok(Accounts.initialize(admin)), SchemaReport(from: 1, to: 2))
        XCTAssertEqual(try c.superuserSQL("SELECT schema_version FROM kept.meta", database: "old"), "2\n")
        XCTAssertEqual(try ok(alice.exec(pull)).rows, before)
        // Each account got a channel of its own.
        XCTAssertEqual(try c.superuserSQL("SELECT count(DISTINCT channel), count(*), bool_and(channel ~ '^kept_[0-9a-f]{32}$') FROM kept.accounts",
                                          database: "old"), "2|2|t\n")
        let pg = try ok(PostgresServer.connect(c.conninfo(user: "alice", database: "old")))
        XCTAssertEqual(try ok(pg.head(recent: 100)).live, changes.count)
        XCTAssertEqual(try ok(pg.summary()).count, changes.filter { $0.key.kind != .setting }.count)
        XCTAssertEqual(try ok(pg.list(after: nil, limit: 100)).count, changes.count)
        // The push of version 2 replaced version 1's: it notifies.
        let l = try ok(PostgresListener.connect(c.conninfo(user: "alice", database: "old")))
        _ = try ok(pg.push([change(.task, "after-migration", [("title", .string("new"))], at: stamp(500))]))
        XCTAssertEqual(try ok(l.wait(timeout: 5)), true)
        XCTAssertEqual(try ok(Accounts.initialize(admin)), SchemaReport(from: 2, to: 2))
    }

    // MARK: one lock per account

    func testPushesOfDifferentAccountsNeverWaitForEachOther() throws {
        let c = try Self.slot.require()
        // Ann's push in a transaction left open: it holds her account's row.
        let held = try ok(PGConnection.connect(c.conninfo(user: "ann")))
        _ = try ok(held.exec("BEGIN"))
        let first = [change(.task, "lock-held", [("title", .string("held"))], at: stamp(1_000))]
        _ = try ok(held.exec("SELECT kept.push($1::jsonb)", params: [JSONWriter.compact(.array(first.map(\.json)))]))

        // Ben's push goes through at once.
        let ben = try ok(PostgresServer.connect(c.conninfo(user: "ben")))
        let clock = ContinuousClock()
        let start = clock.now
        let r = try ok(ben.push([change(.task, "lock-free", [("title", .string("free"))], at: stamp(1_001))]))
        let benTook = clock.now - start
        XCTAssertEqual(r.map(\.outcome), [.applied])
        XCTAssertLessThan(benTook, .seconds(2), "ben's push waited for ann's lock")

        // Ann's second push, from another connection, waits for the first to commit.
        let done = Finished()
        let info = c.conninfo(user: "ann")
        Thread.detachNewThread {
            let outcome: String
            switch PostgresServer.connect(info) {
            case .failure(let f): outcome = "connect: \(f)"
            case .success(let s):
                switch s.push([change(.task, "lock-waits", [("title", .string("second"))], at: stamp(1_002))]) {
                case .failure(let f): outcome = "push: \(f)"
                case .success(let r): outcome = r.map(\.outcome) == [.applied] ? "applied" : "\(r)"
                }
            }
            done.finish(outcome)
        }
        XCTAssertNil(done.wait(seconds: 1.5), "ann's second push did not wait for her first")
        let commit = clock.now
        _ = try ok(held.exec("COMMIT"))
        XCTAssertEqual(done.wait(seconds: 10), "applied")
        let waited = clock.now - commit
        XCTAssertLessThan(waited, .seconds(5))
        print("lock: ben's push while ann's was held \(benTook); ann's second push ended \(waited) after her first committed")
        // In the order they committed.
        let ann = try ok(PostgresServer.connect(c.conninfo(user: "ann")))
        let versions = Dictionary(uniqueKeysWithValues: try ann.all().map { ($0.key.id, $0.version) })
        XCTAssertLessThan(try XCTUnwrap(versions["lock-held"]), try XCTUnwrap(versions["lock-waits"]))
    }
}

/// The end of work on another thread, and what it said.
final class Finished: @unchecked Sendable {
    private let condition = NSCondition()
    private var outcome: String?

    func finish(_ text: String) {
        condition.lock()
        outcome = text
        condition.broadcast()
        condition.unlock()
    }

    /// What the work said, or nil when it has not ended within `seconds`.
    func wait(seconds: Double) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil {
            if !condition.wait(until: deadline) { break }
        }
        return outcome
    }
}

extension PushOutcome {
    var isApplied: Bool { self == .applied }
}
