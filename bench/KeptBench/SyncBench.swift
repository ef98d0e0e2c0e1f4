// `kept-bench sync CONNINFO N [ROUNDS] [DIR]`: sync through a PostgreSQL server, in one process,
// as the peer's figures are taken (../shared/bench/peers/tc_sync_bench.py, TaskChampion in one
// Python process). Store A (SQLite) gets N tasks and pushes them all; a new store B makes its
// first pull; then one edit on A is pushed by A and pulled by B, ROUNDS times (median); then A
// and B edit one task offline (different fields, and the same field) and both sync twice. One
// JSON line of figures on stdout, as the peer prints its own. CONNINFO names an account made
// for this run (bench/sync_bench.sh makes the server and the account). Without DIR the stores
// go in a temporary folder, removed at the end; with DIR they stay there as a.db and b.db, and
// the line names the edited task's id in each (a_id, b_id), for timing whole processes on them.

import Foundation
import KeptRules
import KeptDomain
import KeptStore
import KeptSync

/// The server, with the time spent in its calls (the network round trip, the server's work, and
/// PostgresServer's writing and reading of their JSON), so that with the stores' commits a
/// figure splits into the server, the commit and the engine.
final class TimedServer: SyncServer {
    let inner: PostgresServer
    var pushSeconds = 0.0, pullSeconds = 0.0, pushes = 0, pulls = 0

    init(_ inner: PostgresServer) { self.inner = inner }

    var account: String { inner.account }
    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        let t = monotonic()
        defer { pushSeconds += monotonic() - t; pushes += 1 }
        return inner.push(changes)
    }
    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        let t = monotonic()
        defer { pullSeconds += monotonic() - t; pulls += 1 }
        return inner.pull(after: version, limit: limit)
    }
    func version() -> Result<Int64, SyncFailure> { inner.version() }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> {
        let t = monotonic()
        defer { pullSeconds += monotonic() - t; pulls += 1 }
        return inner.head(recent: limit)
    }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> {
        let t = monotonic()
        defer { pullSeconds += monotonic() - t; pulls += 1 }
        return inner.list(after: key, limit: limit)
    }
    func summary() -> Result<SyncSummary, SyncFailure> {
        let t = monotonic()
        defer { pullSeconds += monotonic() - t; pulls += 1 }
        return inner.summary()
    }
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> { inner.items(narrowing) }
    func close() { inner.close() }
}

/// Where the time of a phase went: in the server's calls, in the store's commit, and the rest
/// (the engine: reading the outbox, making the changes, taking in what came).
struct Split {
    var push = 0.0, pull = 0.0, commit = 0.0, total = 0.0

    var json: String {
        let f = { (x: Double) in String(format: "%.1f", x * 1000) }
        return "{\"server_push_ms\": \(f(push)), \"server_pull_ms\": \(f(pull)), \"commit_ms\": \(f(commit)), \"engine_ms\": \(f(total - push - pull - commit))}"
    }
}

func syncMain(_ args: [String]) {
    guard args.count >= 4, let n = Int(args[3]), n > 0 else { fail("usage: kept-bench sync CONNINFO N [ROUNDS] [DIR]") }
    let conninfo = args[2]
    let rounds = max(1, args.count >= 5 ? Int(args[4]) ?? 20 : 20)
    // With DIR the stores stay there (a.db, b.db), for the whole-process figures after this run.
    let keep = args.count >= 6
    let dir = keep ? args[5] : FileManager.default.temporaryDirectory.appendingPathComponent("kept-sync-bench-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    let clock = SystemClock()

    func store(_ name: String) -> Engine {
        let path = dir + "/" + name + ".db"
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        switch SQLiteStore.open(path) {
        case .success(let s): return Engine(store: s, clock: .clock(clock), defaultZone: zone)
        case .failure(let e): fail("cannot open \(path): \(e)")
        }
    }
    func connect() -> TimedServer {
        switch PostgresServer.connect(conninfo) {
        case .success(let s): return TimedServer(s)
        case .failure(let f): fail("cannot reach the server: \(f)")
        }
    }
    var commitSeconds = 0.0
    func sync(_ e: Engine, _ s: TimedServer) -> SyncReport {
        do {
            let r = try e.sync(with: s)
            let t = monotonic()
            if case .failure(let f) = e.commit() { fail("commit: \(f)") }
            commitSeconds += monotonic() - t
            return r
        } catch {
            fail("sync: \(error)")
        }
    }
    func check<T>(_ r: Result<T, StoreError>) -> T {
        switch r {
        case .success(let x): return x
        case .failure(let e): fail("\(e)")
        }
    }

    // A: N tasks in one step, as an import makes them, committed.
    let a = store("a")
    let t0 = monotonic()
    do {
        _ = try a.perform("bench add") { (step: inout Engine.StepChanges) throws(DomainError) in
            var changes: [Change] = []
            changes.reserveCapacity(n)
            a.store.reserveTasks(n)
            for i in 0..<n {
                var t = try a.newTask(title: "task \(i)")
                t.status = .open
                changes.append(.task(before: nil, after: t))
            }
            a.stage(changes, into: &step)
        }
    } catch {
        fail("add: \(error)")
    }
    check(a.commit())
    let t1 = monotonic()
    let sa = connect()
    let sb = connect()
    // The servers' and the commits' time so far, to split a phase by.
    func mark() -> Split {
        Split(push: sa.pushSeconds + sb.pushSeconds, pull: sa.pullSeconds + sb.pullSeconds, commit: commitSeconds, total: monotonic())
    }
    func since(_ m: Split) -> Split {
        let n = mark()
        return Split(push: n.push - m.push, pull: n.pull - m.pull, commit: n.commit - m.commit, total: n.total - m.total)
    }
    let tc = monotonic()
    do { try a.link(SyncLink(server: conninfo, account: sa.account, device: HLC.newNode())) } catch { fail("link: \(error)") }
    let tl = monotonic()
    let mp = mark()
    let pushed = sync(a, sa)
    let pushSplit = since(mp)
    let t2 = monotonic()
    guard pushed.sent >= n else { fail("A sent \(pushed.sent) of \(n)") }

    // B: a new store's first pull.
    let b = store("b")
    let t3 = monotonic()
    let mb = mark()
    do { try b.link(SyncLink(server: conninfo, account: sb.account, device: HLC.newNode())) } catch { fail("link: \(error)") }
    _ = sync(b, sb)
    let pullSplit = since(mb)
    let t4 = monotonic()
    guard b.store.taskCount == n else { fail("B holds \(b.store.taskCount) of \(n)") }

    // One change on A, pushed by A and pulled by B.
    guard let first = a.store.task(atRow: 0) else { fail("A is empty") }
    var trips: [Double] = []
    var tripSplits: [Split] = []
    for r in 0..<rounds {
        do { _ = try a.set(.title("edit \(r)"), on: .task(first.id)) } catch { fail("edit: \(error)") }
        check(a.commit())
        let s = monotonic()
        let m = mark()
        _ = sync(a, sa)
        let got = sync(b, sb)
        trips.append(monotonic() - s)
        tripSplits.append(since(m))
        guard got.received == 1, b.store.task(uid: first.uid)?.title == "edit \(r)" else { fail("B did not get edit \(r)") }
    }
    trips.sort()
    let tripSplit = tripSplits.sorted { $0.total < $1.total }[tripSplits.count / 2]

    // The same task edited offline on both: different fields, and the same field. B edits in
    // the next second, so B's title is the later one: the engine's clock (Instant) reads whole
    // seconds, so the stamps of edits within one second differ only in their counters and
    // devices, which order them as the devices happen to have counted, not as they came.
    guard let tb = b.store.task(uid: first.uid) else { fail("B lost the task") }
    do {
        _ = try a.set(.title("from A"), on: .task(first.id))
        _ = try a.set(.priority(.high), on: .task(first.id))
        check(a.commit())
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        usleep(UInt32((1_000_000_000 - wall.tv_nsec) / 1_000 + 10_000))
        _ = try b.set(.title("from B"), on: .task(tb.id))
        _ = try b.tag(.task(tb.id), ["fromb"], add: true)
        check(b.commit())
    } catch {
        fail("offline edits: \(error)")
    }
    for (e, s) in [(a, sa), (b, sb), (a, sa), (b, sb)] { _ = sync(e, s) }
    func outcome(_ e: Engine) -> [String] {
        guard let t = e.store.task(uid: first.uid) else { return [] }
        return [t.title, t.priority.name, t.tags.joined(separator: " ")]
    }
    let oa = outcome(a).map { "\"\($0)\"" }.joined(separator: ", ")
    let ob = outcome(b).map { "\"\($0)\"" }.joined(separator: ", ")
    sa.close()
    sb.close()
    a.store.close()
    b.store.close()
    if !keep { try? FileManager.default.removeItem(atPath: dir) }

    func r3(_ x: Double) -> String { String(format: "%.3f", x) }
    func ms(_ x: Double) -> String { String(format: "%.1f", x * 1000) }
    // push_all_s is the link (queueing every task) and the sync that sends them, as one
    // `account link` does; link_s and connect_s say how much of it is not the push itself.
    print("{\"tasks\": \(n), \"create_s\": \(r3(t1 - t0)), \"push_all_s\": \(r3(t2 - tc)), \"link_s\": \(r3(tl - tc)), "
          + "\"connect_s\": \(r3(tc - t1)), \"first_pull_new_store_s\": \(r3(t4 - t3)), "
          + "\"one_change_push_pull_ms\": \(ms(trips[trips.count / 2])), \"one_change_min_ms\": \(ms(trips.first ?? 0)), "
          + "\"one_change_max_ms\": \(ms(trips.last ?? 0)), \"rounds\": \(rounds), "
          + "\"a_id\": \(first.id), \"b_id\": \(tb.id), "
          + "\"split_push_all\": \(pushSplit.json), \"split_first_pull\": \(pullSplit.json), \"split_one_change\": \(tripSplit.json), "
          + "\"concurrent_edit\": {\"A\": [\(oa)], \"B\": [\(ob)]}}")
}
