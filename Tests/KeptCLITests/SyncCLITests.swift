// Sync on the command line (docs/SYNC.md, "Statements and commands"): `kept sync`, `kept
// account init|create|link`, and exit code 3 for a sync that could not reach its server. The
// program runs in this process with a connector of the test's own (KeptMain.syncConnector, the
// one place the program takes one from); the built binary, which has none yet, says sync is not
// available.
// covers: R-SYNC-6, R-SYNC-9, R-SYNC-16

import Foundation
@testable import KeptCLI
import KeptRules
import KeptDomain
import KeptStore
import KeptSyntax
import KeptInterpreter
import XCTest

/// A server that takes every change and has nothing to send back, and can go away.
final class TakingServer: SyncServer {
    let account: String
    var taken: [OutgoingChange] = []
    var offline = false
    init(account: String) { self.account = account }

    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        taken += changes
        return .success(changes.map { PushResult(changeID: $0.changeID, outcome: .applied, duplicate: false) })
    }

    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        offline ? .failure(.offline("connection refused")) : .success([])
    }

    func version() -> Result<Int64, SyncFailure> { offline ? .failure(.offline("connection refused")) : .success(0) }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        let live = folded(.none).filter { $0.deleted == nil }
        return .success(SyncHead(version: Int64(taken.count), live: live.count,
                                 recent: Array(live.sorted { $0.version > $1.version }.prefix(limit))))
    }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        let live = folded(.none).filter { i in i.deleted == nil && (key.map { SyncListing.keyOrder($0, i.key) } ?? true) }
        return .success(Array(live.sorted { SyncListing.keyOrder($0.key, $1.key) }.prefix(limit)))
    }
    func summary() -> Result<SyncSummary, SyncFailure> {
        offline ? .failure(.offline("connection refused")) : .success(SyncSummary(version: 0, count: 0, checksum: 0))
    }
    /// What `items` was asked for, in order.
    var narrowings: [TaskNarrowing] = []

    /// The items taken, each change folded into its item field by field (the changes of these
    /// tests never conflict), narrowed as asked.
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        narrowings.append(narrowing)
        let live = folded(.none).filter { $0.deleted == nil }
        return .success(SyncItems(version: Int64(taken.count), items: folded(narrowing), ranks: SyncItems.ranks(live.map { KeyVersion($0.key, $0.version) })))
    }

    func folded(_ narrowing: TaskNarrowing) -> [PulledItem] {
        var items: [SyncKey: PulledItem] = [:]
        for (k, c) in taken.enumerated() {
            var item = items[c.key] ?? PulledItem(key: c.key, fields: JSONObject(), clocks: [:], deleted: nil, version: 0)
            for (f, v) in c.values.members { item.fields[f] = v }
            for (f, h) in c.clocks { item.clocks[f] = h }
            item.deleted = c.deleted
            item.version = Int64(k + 1)
            items[c.key] = item
        }
        let chosen = narrowing.select(Dictionary(uniqueKeysWithValues: items.values.filter { $0.key.kind == .task && $0.deleted == nil }
            .map { ($0.key, $0.fields) }))
        return items.values.filter { $0.key.kind != .task || chosen.contains($0.key) }.sorted { $0.version < $1.version }
    }
    func close() {}
}

/// Connections to one TakingServer; after `connections` of them the server cannot be reached.
final class TakingConnector: SyncConnector, @unchecked Sendable {
    let server = TakingServer(account: "alice")
    var connections = Int.max
    var asked: [String] = []
    var created: [(String, Bool, String?)] = []

    func connect(_ s: String) -> Result<any SyncServer, SyncFailure> {
        asked.append(s)
        guard connections > 0 else { return .failure(.offline("connection refused")) }
        connections -= 1
        return .success(server)
    }

    func withoutPassword(_ s: String) -> String? {
        guard !s.contains("???") else { return nil }
        return s.split(separator: " ").filter { !$0.hasPrefix("password=") }.joined(separator: " ")
    }

    func initialize(_ s: String) -> Result<SchemaReport, SyncFailure> { .success(SchemaReport(from: nil, to: 1)) }

    func createAccount(_ name: String, readOnly: Bool, password: String?, server: String) -> Result<Void, SyncFailure> {
        created.append((name, readOnly, password))
        return .success(())
    }

    func listen(_ s: String) -> Result<any SyncListener, SyncFailure> { .failure(.offline("connection refused")) }
}

final class SyncCLITests: XCTestCase {
    var dir: TempDir!

    override func setUpWithError() throws { dir = try TempDir() }

    /// The connector the program starts with (PostgreSQL's), put back after each test.
    let programs = KeptMain.syncConnector

    override func tearDown() {
        KeptMain.syncConnector = programs
        dir.cleanUp()
    }

    /// `kept ARGS` in this process: its exit code, stdout and stderr lines.
    func kept(_ args: [String], password: String? = nil) -> (status: Int32, out: [String], err: [String]) {
        let out = OutputStream(fd: 1), err = OutputStream(fd: 2)
        out.captured = []
        err.captured = []
        let status = KeptMain.main(args, out: out, err: err, password: { password })
        return (status, out.captured ?? [], err.captured ?? [])
    }

    static let clock = ["--now", "2026-06-15T09:00", "--zone", "Europe/Berlin"]

    // R-SYNC-16: `kept run --account` answers as a store synced from nothing; SQL is asked for
    // open work only where every statement looks at open work alone; a change is refused.
    func testQueriesOnTheAccount() throws {
        let c = TakingConnector()
        KeptMain.syncConnector = c
        let a = dir.path("a.json")
        let made = kept(["run", "--store", a, "--write"] + Self.clock + [
            "-e", "account link \"host=test user=alice\"", "-e", "add Call mom #phone due:tomorrow", "-e", "add Pay rent #home",
            "-e", "add Water the plants #home", "-e", "complete 2", "-e", "add Sub of one", "-e", "sync",
        ])
        XCTAssertEqual(made.status, 0, "\(made)")
        // A second device, synced from nothing.
        let b = dir.path("b.json")
        let linked = kept(["run", "--store", b, "--write"] + Self.clock + ["-e", "account link \"host=test user=alice\""])
        XCTAssertEqual(linked.status, 0, "\(linked)")

        for statement in ["list", "list #home", "count #home", "count", "list status:any", "list done", "count #phone or #home"] {
            c.server.narrowings = []
            let here = kept(["run", "--store", b] + Self.clock + ["-e", statement])
            let there = kept(["run", "--account", "host=test user=alice"] + Self.clock + ["-e", statement])
            XCTAssertEqual(there.status, 0, "\(statement): \(there)")
            XCTAssertEqual(there.out, here.out, statement)
            let open = !["count", "list status:any", "list done"].contains(statement)
            XCTAssertEqual(c.server.narrowings.last, open ? .openWork : TaskNarrowing.none, statement)
        }
        let refused = kept(["run", "--account", "host=test user=alice", "--errors", "short"] + Self.clock + ["-e", "add Nope"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.err.joined().contains("E0349"), "\(refused)")
        let both = kept(["run", "--account", "host=test", "--store", b, "-e", "list"])
        XCTAssertEqual(both.status, 64)
    }

    // R-SYNC-6: a run whose only failure is a sync that could not reach its server exits 3, and
    // with --write its changes are written: they wait in the outbox.
    func testAnOfflineSyncInARunExitsThreeAndWrites() throws {
        let c = TakingConnector()
        c.connections = 1
        KeptMain.syncConnector = c
        let store = dir.path("s.json")
        let r = kept(["run", "--store", store, "--write", "--errors", "short"] + Self.clock
                     + ["-e", "account link \"host=test user=alice\"", "-e", "add Call mom", "-e", "sync", "-e", "count"])
        XCTAssertEqual(r.status, 3, "\(r)")
        XCTAssertEqual(r.out.last, "All 1 task")
        XCTAssertEqual(r.err.count, 1, "\(r.err)")
        XCTAssertTrue(r.err[0].contains("error[E0342]: offline, 1 change waiting"), r.err[0])
        let written = try String(contentsOfFile: store, encoding: .utf8)
        XCTAssertTrue(written.contains("Call mom"), "the run was written")

        // Another failure makes it 1, and the run writes nothing (E0326) as ever.
        c.connections = 0
        let f = kept(["run", "--store", store, "--write", "--errors", "short"] + Self.clock + ["-e", "add Two", "-e", "sync", "-e", "show 99"])
        XCTAssertEqual(f.status, 1, "\(f)")
        XCTAssertFalse(try String(contentsOfFile: store, encoding: .utf8).contains("Two"))
    }

    // R-SYNC-6: `kept sync` offline exits 3; with --json it prints one object that says so.
    func testKeptSyncOffline() throws {
        let c = TakingConnector()
        KeptMain.syncConnector = c
        let session = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                              defaultZone: .utc)
        session.syncConnector = c
        XCTAssertFalse(session.run(StatementSource(file: SourceFile(name: "t", text: "account link \"host=test\""))).failed)
        _ = session.run(StatementSource(file: SourceFile(name: "t", text: "add Pay rent")))
        c.server.offline = true
        let out = OutputStream(fd: 1), err = OutputStream(fd: 2)
        out.captured = []
        err.captured = []
        session.format = .json
        let renderer = DiagnosticRenderer(style: .short)
        XCTAssertEqual(SyncVerbs.sync(session, status: false, out: out, err: err, renderer: renderer), 3)
        XCTAssertEqual(out.captured, [#"{"offline":true,"waiting":1,"message":"offline, 1 change waiting: the sync server could not be reached (connection refused)"}"#])
        XCTAssertEqual(err.captured, [])
        session.format = .text
        out.captured = []
        XCTAssertEqual(SyncVerbs.sync(session, status: false, out: out, err: err, renderer: renderer), 3)
        XCTAssertEqual(err.captured?.first?.hasPrefix("kept sync:1:1: error[E0342]: offline, 1 change waiting"), true, "\(err.captured ?? [])")
        c.server.offline = false
        out.captured = []
        XCTAssertEqual(SyncVerbs.sync(session, status: false, out: out, err: err, renderer: renderer), 0)
        XCTAssertEqual(out.captured, ["Synced with alice: sent 1, received 0."])
        out.captured = []
        XCTAssertEqual(SyncVerbs.sync(session, status: true, out: out, err: err, renderer: renderer), 0)
        XCTAssertEqual(out.captured?.first, "Linked to alice")
    }

    // R-SYNC-9: `kept account link` with a password: linked, and the password is nowhere in
    // what it printed or wrote. `kept account create --password-stdin` hands the password to
    // the server and never prints it.
    func testAccountVerbsNeverShowAPassword() throws {
        let c = TakingConnector()
        KeptMain.syncConnector = c
        let store = dir.path("s.json")
        let link = kept(["account", "link", "host=test password=hunter2", "--store", store, "--errors", "rich"])
        XCTAssertEqual(link.status, 0, "\(link)")
        XCTAssertEqual(link.out.count, 2)
        XCTAssertTrue(link.out[0].hasPrefix("Linked this store to alice on host=test as device "), link.out[0])
        XCTAssertEqual(link.out[1], "Synced with alice: sent 5, received 0.")
        XCTAssertEqual(c.asked, ["host=test password=hunter2"])
        let bad = kept(["account", "link", "host=test password=hunter2 ???", "--store", store, "--errors", "rich"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.err.joined().contains("E0348"), "\(bad)")
        let written = try String(contentsOfFile: store, encoding: .utf8)
        for text in link.out + link.err + bad.out + bad.err + [written] { XCTAssertFalse(text.contains("hunter2"), text) }

        let made = kept(["account", "create", "bob", "--read-only", "--password-stdin", "--server", "host=test password=adminpw"], password: "s3cret")
        XCTAssertEqual(made.status, 0, "\(made)")
        XCTAssertEqual(made.out, ["Made the read-only account bob on host=test, its login with the password given"])
        XCTAssertEqual(c.created.first?.0, "bob")
        XCTAssertEqual(c.created.first?.2, "s3cret")
        XCTAssertFalse((made.out + made.err).joined().contains("s3cret"))
        XCTAssertFalse((made.out + made.err).joined().contains("adminpw"))
        XCTAssertEqual(kept(["account", "create", "carol", "--password-stdin"], password: "").status, 64)
        let json = kept(["account", "init", "--json"])
        XCTAssertEqual(json.out, [#"{"schema":{"server":"","from":null,"to":1}}"#])
        XCTAssertEqual(kept(["account", "init"]).out, ["Made the kept schema on the server of the PG* variables (version 1)"])
    }

    // R-SYNC-9: an `account link` statement is masked in an echo, a rich error, a recording and
    // the test runner's report, though the binary finds no server there (offline, exit 3).
    func testTheBinaryShowsAStatementWithAPasswordMasked() throws {
        let stmt = "account link \"host=/x password=hunter2\""
        let echo = try Kept.run(["run", "--echo", "--errors", "rich", "-e", stmt])
        XCTAssertEqual(echo.status, 3, echo.summary)
        XCTAssertEqual(echo.stdoutLines.first, "> account link \"******* ****************\"")
        XCTAssertTrue(echo.stderr.contains("1 | account link \"******* ****************\""), echo.summary)
        let record = dir.path("r.kept")
        let repl = try Kept.run(["repl"], stdin: Data(".bail off\n\(stmt)\n.record \(record)\n".utf8))
        let recorded = try String(contentsOfFile: record, encoding: .utf8)
        XCTAssertTrue(recorded.contains("> account link \"******* ****************\""), recorded)
        let script = try dir.write("t.kept", "> \(stmt)\nLinked\n")
        let test = try Kept.run(["test", script, "--report", "tap", "-"])
        XCTAssertEqual(test.status, 1, test.summary)
        XCTAssertTrue((test.stdout + test.stderr).contains("****"), test.summary)
        for text in [echo.stdout, echo.stderr, repl.stdout, repl.stderr, recorded, test.stdout, test.stderr] {
            XCTAssertFalse(text.contains("hunter2"), text)
        }
    }

    /// The built binary reaches PostgreSQL: a store linked to no account says so; a server that
    /// is not there is offline; the command line's own mistakes are usage errors.
    func testTheBinaryWithoutAServer() throws {
        let store = dir.path("s.json")
        let r = try Kept.run(["sync", "--store", store, "--errors", "short"])
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stderrLines.first?.hasPrefix("kept sync:1:1: error[E0339]: this store is linked to no account"), true, r.summary)
        let status = try Kept.run(["sync", "status", "--store", store, "--json"])
        XCTAssertEqual(status.stdoutLines, [#"{"linked":false,"account":null,"server":null,"device":null,"waiting":0,"refused":0,"version":0}"#])
        let init_ = try Kept.run(["account", "init", "--server", "host=/nonexistent-kept-socket port=1"])
        XCTAssertEqual(init_.status, 1, init_.summary)
        XCTAssertEqual(init_.stderrLines.first?.hasPrefix("error[E0342]: offline"), true, init_.summary)
        // Without --store, sync works on the user's store (R-HOME-1): here there is none yet.
        let home = try Kept.run(["sync"])
        XCTAssertEqual(home.status, 1, home.summary)
        XCTAssertEqual(home.stderrLines.first?.hasPrefix("kept: there is no store at "), true, home.summary)
        for bad in [["sync", "now", "--store", store], ["account"], ["account", "create"],
                    ["account", "init", "--read-only"], ["account", "link", "host=x", "--store", store, "--server", "y"]] {
            let u = try Kept.run(bad)
            XCTAssertEqual(u.status, 64, "\(bad): \(u.summary)")
        }
    }
}
