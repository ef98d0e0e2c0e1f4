// Convergence (docs/SYNC.md): three stores of one account, two JSON files and a SQLite
// database, make thousands of seeded random changes at their own clocks, sync at random
// moments, stay offline for stretches, and live through a server restart and a stretch with
// the server down. At the end every store holds what the server holds; the server holds what
// the oracle, MemoryServer (the merge rules written a second time, in Swift), computes from
// the same pushes in the same order; every change sent is on the server, superseded field by
// field by a later one, or in its device's review; and no occurrence of a repeat is doubled.
// A failure prints the seed: `KEPT_SYNC_SEED=N swift test --filter ConvergenceTests` runs it
// again (KEPT_SYNC_OPS sets how many changes).
// covers: R-SYNC-1, R-SYNC-2, R-SYNC-3, R-SYNC-4, R-SYNC-5, R-SYNC-6, R-SYNC-7, R-SYNC-12, R-REP-10

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore
@testable import KeptSync

extension SplitMix: RandomNumberGenerator {}

/// What the server took or refused, and where the oracle disagreed, over every connection.
final class PushLog {
    /// Every change the server answered for the first time, with the device that sent it.
    var sent: [(device: String, change: OutgoingChange, outcome: PushOutcome)] = []
    var mismatches: [String] = []
}

/// The server and the oracle, fed the same pushes in the same order.
final class TeeServer: SyncServer {
    var pg: any SyncServer
    let oracle: MemoryServer
    let log: PushLog
    let device: String

    init(pg: any SyncServer, oracle: MemoryServer, log: PushLog, device: String) {
        self.pg = pg
        self.oracle = oracle
        self.log = log
        self.device = device
    }

    var account: String { pg.account }

    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        let r = pg.push(changes)
        guard case .success(let results) = r else { return r }
        let o = oracle.push(changes)
        guard case .success(let expected) = o, expected.count == results.count else {
            log.mismatches.append("the oracle did not answer a push the server answered")
            return r
        }
        for (k, c) in changes.enumerated() {
            if !Self.same(results[k].outcome, expected[k].outcome) {
                log.mismatches.append("\(c.key): server \(results[k].outcome), oracle \(expected[k].outcome)")
            }
            if !results[k].duplicate { log.sent.append((device, c, results[k].outcome)) }
        }
        return r
    }

    static func same(_ a: PushOutcome, _ b: PushOutcome) -> Bool {
        switch (a, b) {
        case (.applied, .applied): return true
        case (.refused(let x, _), .refused(let y, _)): return x == y
        default: return false
        }
    }

    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> { pg.pull(after: version, limit: limit) }
    func version() -> Result<Int64, SyncFailure> { pg.version() }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> { pg.head(recent: limit) }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> { pg.list(after: key, limit: limit) }
    func summary() -> Result<SyncSummary, SyncFailure> { pg.summary() }
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> { pg.items(narrowing) }

    func close() { pg.close() }
}

final class ConvergenceTests: XCTestCase {
    struct Device {
        var name: String
        var path: String
        var sqlite: Bool
        var engine: Engine
        var offset: Int64
        var offlineUntil = 0
        var server: TeeServer?
    }

    var cluster: PostgresCluster?

    override func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    func open(_ path: String, sqlite: Bool) throws -> any StoreBackend {
        if sqlite { return try SQLiteStore.open(path).get() }
        return try JSONStore.open(path).get()
    }

    func testThreeStoresConverge() throws {
        let env = ProcessInfo.processInfo.environment
        let seed = env["KEPT_SYNC_SEED"].flatMap { UInt64($0) } ?? UInt64(Date().timeIntervalSince1970) % 1_000_000
        let ops = env["KEPT_SYNC_OPS"].flatMap { Int($0) } ?? 2_400
        print("ConvergenceTests: seed \(seed), \(ops) changes (KEPT_SYNC_SEED=\(seed) replays it)")
        let tag = "seed \(seed)"
        var rng = SplitMix(seed: seed)

        let c = try PostgresCluster.start()
        cluster = c
        let admin = c.conninfo(user: "postgres")
        _ = try Accounts.initialize(admin).get()
        _ = try Accounts.create(name: "conv", readOnly: false, password: nil, conninfo: admin).get()
        let conninfo = c.conninfo(user: "conv")
        let oracle = MemoryServer()
        oracle.account = "conv"
        let log = PushLog()

        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-conv-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        // 2026-03-02 09:00 UTC; one device's clock runs five minutes ahead, one two behind.
        let base: Int64 = 1_772_442_000
        var clockNow: Int64 = 0
        var devices: [Device] = []
        for (k, (name, sqlite, offset)) in [("aaaa000000000001", false, Int64(300)), ("bbbb000000000002", false, Int64(-120)),
                                             ("cccc000000000003", true, Int64(0))].enumerated() {
            let path = dir.appendingPathComponent(sqlite ? "\(k).db" : "\(k).json").path
            let e = Engine(store: try open(path, sqlite: sqlite), clock: .instant(Instant(seconds: base + offset)),
                           defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc, uids: .seeded(UInt64(k + 1) &* seed))
            try e.link(SyncLink(server: conninfo, account: "conv", device: name))
            try e.commit().get()
            devices.append(Device(name: name, path: path, sqlite: sqlite, engine: e, offset: offset))
        }

        var serverDown = false
        /// Every field a change of the user's set (nil field: the item was deleted, or made by
        /// a completion), when.
        var intended: [(device: String, key: SyncKey, field: String?, value: JSONValue?, wall: Int64)] = []
        var restarts = 0
        var retried: [(device: String, change: String)] = []
        var discarded: [(device: String, change: String)] = []

        /// One sync of a device; offline is expected while the server is down.
        func sync(_ k: Int, expectOffline: Bool = false) throws {
            if devices[k].server == nil {
                switch PostgresServer.connect(conninfo) {
                case .success(let s): devices[k].server = TeeServer(pg: s, oracle: oracle, log: log, device: devices[k].name)
                case .failure(.offline):
                    XCTAssertTrue(serverDown || expectOffline, "\(tag): connect offline with the server up")
                    return
                case .failure(let f): return XCTFail("\(tag): connect: \(f)")
                }
            }
            guard let s = devices[k].server else { return }
            let e = devices[k].engine
            let waiting = e.store.sync.outbox.count
            let review = e.store.sync.review.count
            do {
                _ = try e.sync(with: s)
                try e.commit().get()
                XCTAssertFalse(serverDown, "\(tag): a sync with the server down")
            } catch SyncProblem.failed(.offline, let n) {
                // An outage is not a refusal: nothing queued went, nothing was refused.
                e.rollback()
                XCTAssertLessThanOrEqual(n, waiting, "\(tag)")
                XCTAssertEqual(e.store.sync.outbox.count, waiting, "\(tag)")
                XCTAssertEqual(e.store.sync.review.count, review, "\(tag)")
                s.close()
                devices[k].server = nil
                XCTAssertTrue(serverDown || expectOffline, "\(tag): offline with the server up")
            }
        }

        func pick<T>(_ xs: [T]) -> T? { xs.isEmpty ? nil : xs[Int.random(in: 0..<xs.count, using: &rng)] }
        let tagNames = ["home", "work", "phone", "errand", "a", "b"]

        for i in 0..<ops {
            clockNow += Int64.random(in: 1...90, using: &rng)
            let k = Int.random(in: 0..<devices.count, using: &rng)
            let e = devices[k].engine
            e.clock = .instant(Instant(seconds: base + clockNow + devices[k].offset))
            let before = Self.snapshot(e)
            let openTasks = e.store.tasks(.all).filter(\.isOpen)
            let any = e.store.tasks(.all)
            let roll = Int.random(in: 0..<100, using: &rng)
            do {
                switch roll {
                case 0..<22:
                    var d = TaskDraft(title: "t\(i)")
                    d.tags = tagNames.filter { _ in Int.random(in: 0..<4, using: &rng) == 0 }
                    if Int.random(in: 0..<2, using: &rng) == 0 { d.due = Due(date: CivilDate(iso: "2026-03-02").map { $0.adding(days: Int.random(in: -5...20, using: &rng)) } ?? CivilDate(dayNumber: 0)) }
                    if Int.random(in: 0..<6, using: &rng) == 0 { d.repeatRule = RepeatRule(frequency: Bool.random(using: &rng) ? .daily : .weekly) }
                    if Int.random(in: 0..<5, using: &rng) == 0, let p = pick(e.store.projects.filter { !$0.archived }) { d.project = p.name }
                    _ = try e.add(d)
                case 22..<34:
                    if let t = pick(any) { _ = try e.set(.title("t\(i) was \(t.id)"), on: .task(t.id)) }
                case 34..<42:
                    if let t = pick(any) { _ = try e.set(.priority(pick([.none, .low, .medium, .high]) ?? .none), on: .task(t.id)) }
                case 42..<48:
                    if let t = pick(openTasks) {
                        let due = Bool.random(using: &rng) ? nil : CivilDate(iso: "2026-03-10").map { Due(date: $0.adding(days: Int.random(in: 0...9, using: &rng))) }
                        _ = try e.set(.due(due), on: .task(t.id))
                    }
                case 48..<60:
                    if let t = pick(any), let name = pick(tagNames) { _ = try e.tag(.task(t.id), [name], add: Bool.random(using: &rng)) }
                case 60..<70:
                    if let t = pick(openTasks) { _ = try e.complete(.task(t.id)) }
                case 70..<76:
                    if let t = pick(any) { _ = try e.delete(.task(t.id)) }
                case 76..<81:
                    _ = try e.undo(1)
                case 81..<84:
                    _ = try e.addProject("P\(i)")
                case 84..<86:
                    if let p = pick(e.store.projects) { _ = try e.renameProject(p.name, to: "P\(i) was \(p.name.prefix(8))") }
                case 86..<89:
                    _ = try e.defineFilter("F\(i % 40)", "#\(pick(tagNames) ?? "a")")
                case 89..<91:
                    if let f = pick(e.store.filters) { _ = try e.renameFilter(f.name, to: "F\(i) r") }
                case 91..<93:
                    if let f = pick(e.store.filters) { _ = try e.deleteFilter(f.name) }
                case 93..<95:
                    _ = try e.set(setting: pick(["day-start", "morning", "evening"]) ?? "day-start", to: pick(["03:00", "04:00", "05:30", "06:00"]) ?? "04:00")
                default:
                    // A look at the review: retry or drop a refused change now and then.
                    if !e.store.sync.review.isEmpty {
                        let n = Int.random(in: 1...e.store.sync.review.count, using: &rng)
                        if Bool.random(using: &rng) {
                            let r = try e.retryRefused(n)
                            retried.append((devices[k].name, r.change.changeID))
                        } else {
                            let r = try e.discardRefused(n)
                            discarded.append((devices[k].name, r.change.changeID))
                        }
                    }
                }
            } catch {
                // A change the rules refuse (nothing to undo, a name taken) changes nothing.
            }
            try e.commit().get()
            // What the user did, field by field, as this test sees it (not as the outbox does).
            let after = Self.snapshot(e)
            let wall = HLC.millis(of: Instant(seconds: base + clockNow + devices[k].offset))
            for key in Set(before.keys).union(after.keys) where before[key] != after[key] {
                let b = before[key] ?? [:], a = after[key] ?? [:]
                if after[key] == nil { intended.append((devices[k].name, key, nil, nil, wall)); continue }
                // An occurrence a completion made: its fields are the series', and it is sent as
                // a make that any change elsewhere outweighs (R-SYNC-7). It reaches the server.
                if before[key] == nil, (60..<70).contains(roll) { intended.append((devices[k].name, key, nil, nil, wall)); continue }
                for f in Set(b.keys).union(a.keys) where (b[f] ?? .null) != (a[f] ?? .null) {
                    if SyncFields.isElement(f), (b[f] ?? .null).isNull == (a[f] ?? .null).isNull { continue }
                    intended.append((devices[k].name, key, f, a[f] ?? .null, wall))
                }
            }

            // Offline stretches, a stretch with the server down, a restart, app restarts.
            if devices[k].offlineUntil <= i, Int.random(in: 0..<60, using: &rng) == 0 { devices[k].offlineUntil = i + Int.random(in: 20...200, using: &rng) }
            if i == ops / 3 {
                c.stopNow()
                serverDown = true
            }
            if i == ops / 3 + 40 {
                try c.restart()
                serverDown = false
                restarts += 1
            }
            if i == (2 * ops) / 3 {
                try c.restart()
                restarts += 1
                // The connections broke: the next sync of each finds it out and connects again.
            }
            if Int.random(in: 0..<150, using: &rng) == 0 {
                devices[k].engine.store.close()
                let again = try self.open(devices[k].path, sqlite: devices[k].sqlite)
                devices[k].engine.replaceStore(again)
            }
            if devices[k].offlineUntil <= i, Int.random(in: 0..<6, using: &rng) == 0 {
                try sync(k, expectOffline: true)
            }
        }
        XCTAssertEqual(restarts, 2)

        // Everyone online: two rounds bring every store to the server's state.
        for _ in 0..<3 { for k in devices.indices { try sync(k, expectOffline: true) } }
        for k in devices.indices { try sync(k) }

        let server = try PostgresServer.connect(conninfo).get()
        defer { server.close() }
        let rows = try server.pull(after: 0, limit: 1_000_000).get()
        XCTAssertGreaterThan(rows.count, 100, tag)

        let refusals = log.sent.filter { if case .refused = $0.outcome { return true }; return false }.count
        print("ConvergenceTests: \(rows.count) items on the server, \(log.sent.count) changes sent, \(refusals) refused, "
              + "\(retried.count) retried, \(discarded.count) discarded, reviews \(devices.map { $0.engine.store.sync.review.count })")
        XCTAssertGreaterThan(refusals, 0, "\(tag): no change was refused, so the review went untested")

        // The server agrees with the oracle.
        XCTAssertEqual(log.mismatches, [], tag)
        var serverRows: [SyncKey: PulledItem] = [:]
        for r in rows { serverRows[r.key] = r }
        XCTAssertEqual(Set(serverRows.keys), Set(oracle.rows.keys), tag)
        for (key, row) in oracle.rows {
            guard let s = serverRows[key] else { continue }
            XCTAssertEqual(s.deleted, row.deleted, "\(tag): \(key) deleted")
            XCTAssertEqual(Self.canonical(s.fields), Self.canonical(JSONObject(row.fields.map { ($0.key, $0.value) })), "\(tag): \(key) fields")
            XCTAssertEqual(s.clocks, row.clocks, "\(tag): \(key) clocks")
        }

        // Every store holds the server's living items, field by field.
        for d in devices {
            let e = d.engine
            XCTAssertTrue(e.store.sync.outbox.isEmpty, "\(tag): \(d.name) has changes waiting")
            let uidOf: (Int) -> TaskUID? = { e.store.task($0)?.uid }
            var local: [SyncKey: [String: JSONValue]] = [:]
            for t in e.store.tasks(.all) { local[SyncKey(.task, t.uid.description)] = SyncFields.fields(.task(t), uidOf: uidOf) }
            for p in e.store.projects { local[SyncKey(.project, p.uid.description)] = SyncFields.fields(.project(p), uidOf: uidOf) }
            for a in e.store.areas { local[SyncKey(.area, a.uid.description)] = SyncFields.fields(.area(a), uidOf: uidOf) }
            for (n, f) in e.store.filters.enumerated() { local[SyncKey(.filter, f.uid.description)] = SyncFields.fields(.filter(f, position: n), uidOf: uidOf) }
            let standard = SyncFields.settings(Settings())
            for (key, v) in SyncFields.settings(e.store.settings) {
                // A setting the account never set is the default everywhere.
                if serverRows[SyncKey(.setting, key)] == nil { XCTAssertEqual(v, standard[key], "\(tag): \(d.name) setting \(key)") }
                else { local[SyncKey(.setting, key)] = ["value": v] }
            }
            let living = serverRows.filter { $0.value.deleted == nil }
            XCTAssertEqual(Set(local.keys), Set(living.keys), "\(tag): \(d.name) holds other items than the server")
            for (key, fields) in local {
                guard let s = living[key] else { continue }
                XCTAssertEqual(Self.comparable(fields), Self.comparable(s.fields), "\(tag): \(d.name) \(key)")
            }
            // No occurrence is doubled: one open task per series title and date. (A done one may
            // share its date with the next: another device moved its date meanwhile.)
            var seen: [String: Task] = [:]
            for t in e.store.tasks(.all) where t.repeatRule != nil && t.isOpen {
                let k = "\(t.title)|\(t.due.map { RepeatExtras.text($0) } ?? "")"
                if let o = seen[k] {
                    XCTFail("\(tag): \(d.name) doubles \(t.title): \(o.uid) \(o.status) \(o.createdAt) and \(t.uid) \(t.status) \(t.createdAt)")
                }
                seen[k] = t
            }
        }

        // Every change the user made is on the server, or superseded field by field by a later
        // one (a stamp after it), or its item is deleted (a delete wins; an edit of an item
        // deleted elsewhere is refused and reviewed).
        var lost: [String] = []
        // A change of an item the server refused from that device went to its review, where
        // the test retried or dropped it.
        let refusedHere = Set(log.sent.compactMap { s -> String? in
            if case .refused = s.outcome { return "\(s.device)|\(s.change.key)" }
            return nil
        })
        for x in intended where !refusedHere.contains("\(x.device)|\(x.key)") {
            guard let row = serverRows[x.key] else {
                lost.append("\(x.device) \(x.key) never reached the server")
                continue
            }
            guard row.deleted == nil, let f = x.field else { continue }
            let now = row.fields[f] ?? .null
            let same = SyncFields.isElement(f) ? now.isNull == (x.value ?? .null).isNull : Self.canonical(now) == Self.canonical(x.value ?? .null)
            if same { continue }
            if let h = row.clocks[f], h > HLC(millis: x.wall, counter: 0, node: "") { continue }
            lost.append("\(x.device) \(x.key).\(f) = \(x.value.map(Self.canonical) ?? "-") at \(x.wall), server \(Self.canonical(now)) \(row.clocks[f]?.description ?? "no clock")")
        }
        XCTAssertEqual(lost.count, 0, "\(tag): changes lost: \(lost.prefix(5))")
        print("ConvergenceTests: \(intended.count) changes of fields checked")

        // Every change sent is on the server, superseded field by field, or in review.
        let reviews = Dictionary(devices.map { ($0.name, Set($0.engine.store.sync.review.map(\.change.changeID))) }, uniquingKeysWith: { a, _ in a })
        let handled = Set((retried + discarded).map { "\($0.device)|\($0.change)" })
        do {
            for (device, change, outcome) in log.sent {
                switch outcome {
                case .refused:
                    XCTAssertTrue((reviews[device] ?? []).contains(change.changeID) || handled.contains("\(device)|\(change.changeID)")
                                  || change.clocks.values.allSatisfy { $0.millis == 0 },
                                  "\(tag): a refused change of \(device) is neither in review nor retried nor discarded")
                case .applied:
                    guard let row = serverRows[change.key] else { XCTFail("\(tag): \(change.key) is not on the server"); continue }
                    if row.deleted != nil { continue }
                    for (f, h) in change.clocks {
                        guard let now = row.clocks[f] else { XCTFail("\(tag): \(change.key).\(f) lost"); continue }
                        XCTAssertGreaterThanOrEqual(now, h, "\(tag): \(change.key).\(f) went back")
                        if now == h { XCTAssertEqual(Self.canonical(row.fields[f] ?? .null), Self.canonical(change.values[f] ?? .null), "\(tag): \(change.key).\(f)") }
                    }
                }
            }
        }
        for d in devices { d.server?.close(); d.engine.store.close() }
    }

    /// Every item of a store as fields (a filter's place left out: each store keeps its order).
    static func snapshot(_ e: Engine) -> [SyncKey: [String: JSONValue]] {
        let uidOf: (Int) -> TaskUID? = { e.store.task($0)?.uid }
        var out: [SyncKey: [String: JSONValue]] = [:]
        for t in e.store.tasks(.all) { out[SyncKey(.task, t.uid.description)] = SyncFields.fields(.task(t), uidOf: uidOf) }
        for p in e.store.projects { out[SyncKey(.project, p.uid.description)] = SyncFields.fields(.project(p), uidOf: uidOf) }
        for f in e.store.filters {
            var x = SyncFields.fields(.filter(f, position: 0), uidOf: uidOf)
            x["position"] = nil
            out[SyncKey(.filter, f.uid.description)] = x
        }
        for (k, v) in SyncFields.settings(e.store.settings) { out[SyncKey(.setting, k)] = ["value": v] }
        return out
    }

    /// A value with every object's keys sorted (jsonb keeps its own order).
    static func canonical(_ v: JSONValue) -> String {
        func sort(_ v: JSONValue) -> JSONValue {
            switch v {
            case .object(let o): return .object(JSONObject(o.members.sorted { $0.key < $1.key }.map { ($0.key, sort($0.value)) }))
            case .array(let a): return .array(a.map(sort))
            default: return v
            }
        }
        return JSONWriter.compact(sort(v))
    }

    static func canonical(_ o: JSONObject) -> String { canonical(.object(o)) }

    /// Fields as a store and the server can both say them: empty ones left out, a set's
    /// elements by presence (their places are for order), a filter's place left out (each
    /// store keeps its own order of the list).
    static func comparable(_ f: [String: JSONValue]) -> [String: String] {
        var out: [String: String] = [:]
        for (k, v) in f where !v.isNull && k != "position" { out[k] = SyncFields.isElement(k) ? "here" : canonical(v) }
        return out
    }

    static func comparable(_ o: JSONObject) -> [String: String] {
        comparable(Dictionary(o.members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, b in b }))
    }
}
