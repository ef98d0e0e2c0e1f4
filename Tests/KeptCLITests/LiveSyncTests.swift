// Live sync's driver (docs/SYNC.md, "Live") on a server and a listener of the test's own: the
// backoff between tries, the channel's thread (it reconnects, and wakes the main thread on a
// notification and on every change of its state), and the main thread's polls while the channel
// is down, every 10 s on an injected clock, with an offline server said once. The REPL and
// `kept sync --watch` on a real PostgreSQL are SyncLiveFrontEndProcessTests (KeptCoreTests).
// covers: R-SYNC-18

import Foundation
@testable import KeptCLI
import KeptRules
import KeptDomain
import KeptStore
import KeptSyntax
import KeptInterpreter
import XCTest

/// A server that takes every change, has nothing to send, counts its pulls, and can go away.
final class CountingServer: SyncServer {
    let account = "alice"
    var pulls = 0
    var offline = false
    private var failure: SyncFailure { .offline("connection refused") }

    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        if offline { return .failure(failure) }
        return .success(changes.map { PushResult(changeID: $0.changeID, outcome: .applied, duplicate: false) })
    }

    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        if offline { return .failure(failure) }
        pulls += 1
        return .success([])
    }

    func version() -> Result<Int64, SyncFailure> { offline ? .failure(failure) : .success(0) }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> {
        offline ? .failure(failure) : .success(SyncHead(version: 0, live: 0, recent: []))
    }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> { offline ? .failure(failure) : .success([]) }
    func summary() -> Result<SyncSummary, SyncFailure> {
        offline ? .failure(failure) : .success(SyncSummary(version: 0, count: 0, checksum: 0))
    }
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> {
        offline ? .failure(failure) : .success(SyncItems(version: 0, items: []))
    }
    func close() {}
}

/// A listener whose answers the test queues; with none queued it waits a moment and hears nothing.
final class ScriptedListener: SyncListener, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Result<Bool, SyncFailure>] = []
    private(set) var closed = false

    func answer(_ r: Result<Bool, SyncFailure>) {
        lock.lock()
        answers.append(r)
        lock.unlock()
    }

    func wait(timeout: Double) -> Result<Bool, SyncFailure> {
        lock.lock()
        if !answers.isEmpty {
            defer { lock.unlock() }
            return answers.removeFirst()
        }
        lock.unlock()
        usleep(2_000)
        return .success(false)
    }

    func close() {
        lock.lock()
        closed = true
        lock.unlock()
    }
}

/// Connections to one CountingServer (from the main thread), and listeners (from the channel's
/// thread) that fail `failures` times before each one that holds.
final class LiveConnector: SyncConnector, @unchecked Sendable {
    let server = CountingServer()
    private let lock = NSLock()
    private var failuresLeft: Int
    private var _listeners: [ScriptedListener] = []
    private var _listens = 0

    init(failures: Int = 0) { failuresLeft = failures }

    var listeners: [ScriptedListener] {
        lock.lock()
        defer { lock.unlock() }
        return _listeners
    }

    /// Makes the next `n` listens fail.
    func fail(next n: Int) {
        lock.lock()
        failuresLeft = n
        lock.unlock()
    }

    func connect(_ s: String) -> Result<any SyncServer, SyncFailure> {
        server.offline ? .failure(.offline("connection refused")) : .success(server)
    }

    func withoutPassword(_ s: String) -> String? { s }
    func initialize(_ s: String) -> Result<SchemaReport, SyncFailure> { .success(SchemaReport(from: nil, to: 1)) }
    func createAccount(_ name: String, readOnly: Bool, password: String?, server: String) -> Result<Void, SyncFailure> { .success(()) }

    func listen(_ s: String) -> Result<any SyncListener, SyncFailure> {
        lock.lock()
        defer { lock.unlock() }
        _listens += 1
        if failuresLeft > 0 {
            failuresLeft -= 1
            return .failure(.offline("connection refused"))
        }
        let l = ScriptedListener()
        _listeners.append(l)
        return .success(l)
    }
}

final class LiveSyncTests: XCTestCase {
    /// Waits up to `seconds` for `condition`, looking every few milliseconds.
    func eventually(_ what: String, within seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: () -> Bool) {
        let until = Date(timeIntervalSinceNow: seconds)
        while !condition() {
            if Date() > until { return XCTFail("not within \(seconds) s: \(what)", file: file, line: line) }
            usleep(2_000)
        }
    }

    /// A sleeper that records the delay and does not wait it, so ten seconds of backoff take none.
    static let noSleep: @Sendable (Double, LiveChannel) -> Void = { _, _ in usleep(500) }

    /// A linked session over a store in memory, as the REPL has it.
    func linkedSession(_ c: LiveConnector) throws -> Session {
        let e = Engine(store: JSONStore(memory: Store()), clock: .instant(Instant(seconds: 1_772_442_000)),
                       defaultZone: Zone.utc, uids: .seeded(7))
        let s = Session(engine: e, commits: .eachStatement)
        s.syncConnector = c
        let r = s.run(StatementSource(file: SourceFile(name: "t", text: "account link \"host=test\"")))
        XCTAssertFalse(r.failed, "\(r.diagnostics.map(\.message))")
        return s
    }

    // live-1: 0.5 s, doubling, capped at 10 s; from the start again after a connection held.
    func testBackoffDoublesUpToTenSeconds() {
        var b = Backoff()
        XCTAssertEqual((0..<8).map { _ in b.delay() }, [0.5, 1, 2, 4, 8, 10, 10, 10])
        b.reset()
        XCTAssertEqual(b.delay(), 0.5)
    }

    // live-2: listens that fail are tried again after each delay of the backoff; once one holds
    // the channel is up and the main thread is woken (to sync what it missed).
    func testTheChannelReconnectsWithBackoff() {
        let c = LiveConnector(failures: 6)
        let wakes = WakePipe()
        let channel = LiveChannel(connector: c, server: "host=test", wakes: wakes, waitTimeout: 0.01, sleeper: Self.noSleep)
        channel.start()
        defer { channel.stop(wait: 2) }
        eventually("the channel is up") { channel.isUp }
        XCTAssertEqual(channel.delays, [0.5, 1, 2, 4, 8, 10])
        XCTAssertTrue(wakes.drain(), "down, then up: the main thread was woken")

        // The connection drops (its keep-alive got no answer): down, the listener closed, and a
        // new one after the first delay again (and the second, as the first try fails).
        c.fail(next: 1)
        c.listeners.last?.answer(.failure(.offline("no answer to the keep-alive")))
        eventually("a new listener holds") { c.listeners.count == 2 && channel.isUp }
        XCTAssertEqual(channel.delays, [0.5, 1, 2, 4, 8, 10, 0.5, 1])
        XCTAssertTrue(c.listeners[0].closed)
    }

    // live-3: a notification wakes the main thread; nothing wakes it while nothing comes.
    func testANotificationWakesTheMainThread() {
        let c = LiveConnector()
        let wakes = WakePipe()
        let channel = LiveChannel(connector: c, server: "host=test", wakes: wakes, waitTimeout: 0.01, sleeper: Self.noSleep)
        channel.start()
        defer { channel.stop(wait: 2) }
        eventually("the channel is up") { channel.isUp }
        wakes.drain()
        usleep(50_000)
        XCTAssertFalse(wakes.drain(), "nothing came")
        c.listeners.first?.answer(.success(true))
        eventually("woken") { wakes.drain() }
    }

    // live-4: stopped, the thread ends within one wait of its listener, and closes it.
    func testStoppingEndsTheThread() {
        let c = LiveConnector()
        let channel = LiveChannel(connector: c, server: "host=test", wakes: WakePipe(), waitTimeout: 0.01, sleeper: Self.noSleep)
        channel.start()
        eventually("the channel is up") { channel.isUp }
        channel.stop(wait: 2)
        XCTAssertEqual(c.listeners.first?.closed, true)
    }

    // live-5: while the channel is down the store syncs every 10 s (on the injected clock), not
    // before; while it is up only a wake makes it sync.
    func testPollsEveryTenSecondsWhileTheChannelIsDown() throws {
        let c = LiveConnector(failures: Int.max)
        let session = try linkedSession(c)
        var now = 100.0
        // The channel's thread tries once and then waits for the stop: it stays down.
        let live = try XCTUnwrap(LiveSync(session: session, connector: c, voice: .prompt, clock: { now }, channel: { c, s, w in
            LiveChannel(connector: c, server: s, wakes: w, waitTimeout: 0.01, sleeper: { _, ch in
                while !ch.stopped { usleep(1_000) }
            })
        }))
        defer { live.stop() }
        eventually("the channel is down") {
            if case .down = live.channel.state { return true }
            return false
        }
        live.wakes.drain()
        let pulls = c.server.pulls
        XCTAssertEqual(live.timeout(), 0, "never synced: due at once")
        XCTAssertEqual(live.wokeOrTimedOut(), [])
        XCTAssertEqual(c.server.pulls, pulls + 1)
        now += 5
        XCTAssertEqual(live.timeout(), 5)
        now += 4.9
        XCTAssertEqual(live.wokeOrTimedOut(), [], "not due yet")
        XCTAssertEqual(c.server.pulls, pulls + 1)
        now += 0.1
        XCTAssertEqual(live.timeout(), 0)
        _ = live.wokeOrTimedOut()
        XCTAssertEqual(c.server.pulls, pulls + 2, "polled at 10 s")
        XCTAssertEqual(live.timeout(), 10)
    }

    func testWhileTheChannelIsUpOnlyAWakeSyncs() throws {
        let c = LiveConnector()
        let session = try linkedSession(c)
        var now = 100.0
        let live = try XCTUnwrap(LiveSync(session: session, connector: c, voice: .prompt, clock: { now }, channel: { c, s, w in
            LiveChannel(connector: c, server: s, wakes: w, waitTimeout: 0.01, sleeper: Self.noSleep)
        }))
        defer { live.stop() }
        eventually("the channel is up") { live.channel.isUp }
        let pulls = c.server.pulls
        _ = live.wokeOrTimedOut()
        XCTAssertEqual(c.server.pulls, pulls + 1, "the wake of the channel coming up")
        XCTAssertNil(live.timeout(), "up: no poll")
        now += 60
        XCTAssertEqual(live.wokeOrTimedOut(), [])
        XCTAssertEqual(c.server.pulls, pulls + 1, "a minute without a wake: no sync")
        c.listeners.first?.answer(.success(true))
        eventually("woken and synced") {
            _ = live.wokeOrTimedOut()
            return c.server.pulls == pulls + 2
        }
    }

    // live-6: offline is said once, not at every poll; the changes wait; back online is said
    // with what went.
    func testOfflineIsSaidOnce() throws {
        let c = LiveConnector(failures: Int.max)
        let session = try linkedSession(c)
        var now = 100.0
        let live = try XCTUnwrap(LiveSync(session: session, connector: c, voice: .prompt, clock: { now }, channel: { c, s, w in
            LiveChannel(connector: c, server: s, wakes: w, waitTimeout: 0.01, sleeper: { _, ch in
                while !ch.stopped { usleep(1_000) }
            })
        }))
        defer { live.stop() }
        XCTAssertFalse(session.run(StatementSource(file: SourceFile(name: "t", text: "add Call mom"))).failed)
        c.server.offline = true
        XCTAssertEqual(live.sync(), ["↻ Offline: 1 change waits here; Kept tries again every 10 s and as soon as the server answers"])
        XCTAssertFalse(live.online)
        now += 10
        XCTAssertEqual(live.sync(), [], "said once")
        now += 10
        XCTAssertEqual(live.wokeOrTimedOut(), [])
        XCTAssertEqual(session.engine.syncStatus.waiting, 1, "the change waits")
        c.server.offline = false
        now += 10
        XCTAssertEqual(live.wokeOrTimedOut(), ["↻ Back online: sent 1 change"])
        XCTAssertEqual(session.engine.syncStatus.waiting, 0)
        XCTAssertTrue(live.online)
    }

    // live-7: a watch says each sync that did something, as `kept sync` does, and nothing else.
    func testAWatchSaysEachSyncThatDidSomething() throws {
        let c = LiveConnector(failures: Int.max)
        let session = try linkedSession(c)
        let live = try XCTUnwrap(LiveSync(session: session, connector: c, voice: .log, clock: { 0 }, channel: { c, s, w in
            LiveChannel(connector: c, server: s, wakes: w, waitTimeout: 0.01, sleeper: { _, ch in
                while !ch.stopped { usleep(1_000) }
            })
        }))
        defer { live.stop() }
        XCTAssertEqual(live.sync(), [])
        XCTAssertFalse(session.run(StatementSource(file: SourceFile(name: "t", text: "add Call mom"))).failed)
        XCTAssertEqual(live.sync(), ["Synced with alice: sent 1, received 0."])
        c.server.offline = true
        XCTAssertEqual(live.sync(), ["Offline: nothing waits to be sent; Kept tries again every 10 s and as soon as the server answers"])
        c.server.offline = false
        XCTAssertEqual(live.sync(), ["Synced with alice: sent 0, received 0."], "back: said once")
        XCTAssertEqual(live.sync(), [])
    }

    // live-8: a store that is not linked has no live sync, and no thread.
    func testAnUnlinkedStoreHasNoLiveSync() {
        let e = Engine(store: JSONStore(memory: Store()), clock: .instant(Instant(seconds: 1_772_442_000)), defaultZone: Zone.utc)
        let s = Session(engine: e, commits: .eachStatement)
        XCTAssertNil(LiveSync(session: s, connector: LiveConnector(), voice: .prompt))
    }

    // live-9: `--watch` is a flag of `kept sync` alone, and not with `status`.
    func testWatchOnTheCommandLine() {
        guard case .success(.syncWatch(let o)) = CommandLineOptions.parse(["sync", "--watch", "--store", "s.db"]) else {
            return XCTFail("kept sync --watch does not parse")
        }
        XCTAssertEqual(o.store, "s.db")
        guard case .failure(let e) = CommandLineOptions.parse(["sync", "status", "--watch", "--store", "s.db"]) else {
            return XCTFail("status with --watch parsed")
        }
        XCTAssertTrue(e.message.contains("--watch"), e.message)
        guard case .failure = CommandLineOptions.parse(["run", "--watch"]) else { return XCTFail("run took --watch") }
    }
}
