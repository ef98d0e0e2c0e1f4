// Live changes (docs/SYNC.md, "Live changes"): a listener hears a push of its account soon
// after it commits, and nothing for a push that changed nothing, was rolled back, or was
// another account's; the channel is the account's secret; a stopped server fails the listener
// at once, and a backend that goes silent is noticed by the keep-alive within 10 seconds.

import Foundation
import XCTest
import KeptRules
@testable import KeptDomain
@testable import KeptSync

final class SyncLiveTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start { c in
            guard case .success = Accounts.initialize(c.conninfo(user: "postgres")) else { throw ClusterError(description: "init failed") }
            for name in ["alice", "bob", "carol", "sleepy", "stopper"] {
                let made = Accounts.create(name: name, readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres"))
                guard case .success = made else { throw ClusterError(description: "create \(name): \(made)") }
            }
            let reader = Accounts.create(name: "rita", readOnly: true, password: nil, conninfo: c.conninfo(user: "postgres"))
            guard case .success = reader else { throw ClusterError(description: "create rita: \(reader)") }
        }
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    private func listener(_ c: PostgresCluster, _ user: String) throws -> any SyncListener {
        try ok(PostgresConnector().listen(c.conninfo(user: user)))
    }

    private func task(_ key: String, _ title: String, at ms: Int64) -> OutgoingChange {
        change(.task, key, [("title", .string(title))], at: stamp(ms))
    }

    // MARK: what is heard

    func testAPushIsHeardSoonAfterItCommits() throws {
        let c = try Self.slot.require()
        let l = try listener(c, "alice")
        let s = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        XCTAssertEqual(try ok(l.wait(timeout: 0.2)), false, "nothing was pushed yet")

        let clock = ContinuousClock()
        var delays: [Duration] = []
        for k in 0..<20 {
            _ = try ok(s.push([task("heard-\(k)", "change \(k)", at: Int64(k))]))
            let pushed = clock.now
            XCTAssertEqual(try ok(l.wait(timeout: 5)), true, "push \(k) was not heard")
            delays.append(clock.now - pushed)
        }
        delays.sort()
        print("live: a push heard \(delays[delays.count / 2]) (median), \(delays[delays.count - 1]) (max) after it returned, over \(delays.count)")
        XCTAssertLessThan(delays[delays.count - 1], .milliseconds(500))

        // Three pushes before the listener looks: a wake takes every notification come by
        // then (the server may send them one by one), and once all three are in, it is quiet.
        for k in 0..<3 { _ = try ok(s.push([task("burst-\(k)", "burst", at: 100 + Int64(k))])) }
        var wakes = 0
        while try ok(l.wait(timeout: wakes == 0 ? 5 : 0.3)) {
            wakes += 1
            if wakes > 3 { break }
        }
        XCTAssertTrue((1...3).contains(wakes), "\(wakes) wakes for three pushes")
        l.close()
        guard case .offline = try failure(l.wait(timeout: 0)) else { return XCTFail("a closed listener waited") }
    }

    func testThePayloadIsTheVersion() throws {
        let c = try Self.slot.require()
        let raw = try ok(PGConnection.connect(c.conninfo(user: "carol")))
        let channel = try XCTUnwrap(try ok(raw.exec("SELECT kept.channel()")).scalar)
        XCTAssertTrue(channel.hasPrefix("kept_") && channel.count == 37, channel)
        _ = try ok(raw.exec("LISTEN " + (try ok(raw.quotedIdentifier(channel)))))
        let s = try ok(PostgresServer.connect(c.conninfo(user: "carol")))
        _ = try ok(s.push([task("p1", "one", at: 1), task("p2", "two", at: 1)]))
        var got: [(channel: String, payload: String)] = []
        let deadline = Date().addingTimeInterval(5)
        while got.isEmpty, Date() < deadline {
            _ = try ok(raw.waitForInput(milliseconds: 100))
            XCTAssertNil(raw.consumeInput())
            got += raw.notifications()
        }
        XCTAssertEqual(got.map(\.channel), [channel])
        XCTAssertEqual(got.map(\.payload), [String(try ok(s.version()))])
        XCTAssertEqual(got.first?.payload, "2")
    }

    func testNothingIsHeardForAPushThatChangedNothingOrWasRolledBack() throws {
        let c = try Self.slot.require()
        let s = try ok(PostgresServer.connect(c.conninfo(user: "bob")))
        let first = task("same", "once", at: 10)
        _ = try ok(s.push([first]))
        let l = try listener(c, "bob")

        // Sent again (a duplicate id), and the same values at the same stamp under a new id.
        _ = try ok(s.push([first]))
        _ = try ok(s.push([task("same", "once", at: 10)]))
        // A refusal changes nothing either.
        _ = try ok(s.push([change(.task, "bad", [("title", .string("x"))])]))
        XCTAssertEqual(try ok(l.wait(timeout: 1)), false, "a push that changed nothing was heard")

        // Inside a transaction: nothing until it commits, and nothing when it rolls back.
        let tx = try ok(PGConnection.connect(c.conninfo(user: "bob")))
        let body = JSONWriter.compact(.array([task("tx", "in a transaction", at: 20)].map(\.json)))
        _ = try ok(tx.exec("BEGIN"))
        _ = try ok(tx.exec("SELECT kept.push($1::jsonb)", params: [body]))
        XCTAssertEqual(try ok(l.wait(timeout: 0.5)), false, "heard before the commit")
        _ = try ok(tx.exec("ROLLBACK"))
        XCTAssertEqual(try ok(l.wait(timeout: 1)), false, "a rolled back push was heard")
        _ = try ok(tx.exec("BEGIN"))
        _ = try ok(tx.exec("SELECT kept.push($1::jsonb)", params: [body]))
        XCTAssertEqual(try ok(l.wait(timeout: 0.5)), false, "heard before the commit")
        _ = try ok(tx.exec("COMMIT"))
        XCTAssertEqual(try ok(l.wait(timeout: 5)), true, "a committed push was not heard")
    }

    func testAnotherAccountsPushIsNotHeard() throws {
        let c = try Self.slot.require()
        let l = try listener(c, "alice")
        let bob = try ok(PostgresServer.connect(c.conninfo(user: "bob")))
        _ = try ok(bob.push([task("bobs", "bob's", at: 30)]))
        XCTAssertEqual(try ok(l.wait(timeout: 1)), false, "alice heard bob's push")
        // A reader listens too; its own pushes are refused, change nothing, and are not heard.
        let r = try listener(c, "rita")
        let rita = try ok(PostgresServer.connect(c.conninfo(user: "rita")))
        _ = try ok(rita.push([task("ritas", "refused", at: 31)]))
        XCTAssertEqual(try ok(r.wait(timeout: 0.5)), false)
    }

    func testTheChannelIsTheAccountsSecret() throws {
        let c = try Self.slot.require()
        // Bob reads only his own channel, and may not change it.
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.accounts", user: "bob").stdout, "1\n")
        let bobs = c.psql("SELECT channel FROM kept.accounts", user: "bob").stdout
        XCTAssertEqual(bobs, c.psql("SELECT kept.channel()", user: "bob").stdout)
        let update = c.psql("UPDATE kept.accounts SET channel = 'kept_00000000000000000000000000000000'", user: "bob")
        XCTAssertNotEqual(update.status, 0)
        XCTAssertTrue(update.stderr.contains("permission denied"), update.stderr)
        // Every account's differs.
        XCTAssertEqual(try c.superuserSQL("SELECT count(DISTINCT channel) = count(*) FROM kept.accounts"), "t\n")
        // A role outside Kept's groups reads no channel.
        try c.superuserSQL("CREATE ROLE outsider LOGIN")
        XCTAssertNotEqual(c.psql("SELECT kept.channel()", user: "outsider").status, 0)
        guard case .noAccount = try failure(PostgresConnector().listen(c.conninfo(user: "outsider"))) else {
            return XCTFail("an outsider listened")
        }
    }

    // MARK: a connection that ends or goes quiet

    func testAStoppedServerFailsTheListenerAtOnce() throws {
        let c = try Self.slot.require()
        let l = Shared(try listener(c, "stopper"))
        let done = Finished()
        let clock = ContinuousClock()
        let started = Shared(clock.now)
        Thread.detachNewThread {
            let r = l.value.wait(timeout: 30)
            done.finish("\(r) after \(clock.now - started.value)")
        }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertNil(done.wait(seconds: 0), "the listener returned before anything happened")
        var restarted = false
        defer { if !restarted { _ = try? c.restart() } }
        let stopping = clock.now
        started.value = stopping
        try c.stopFast()
        let stopTook = clock.now - stopping
        let said = try XCTUnwrap(done.wait(seconds: 3), "the listener did not fail within 3 s of the stop")
        XCTAssertTrue(said.hasPrefix("failure(KeptDomain.SyncFailure.offline("), said)
        print("live: pg_ctl stop -m fast took \(stopTook); the listener said \(said)")
        guard case .offline = try failure(l.value.wait(timeout: 0)) else { return XCTFail("a failed listener waited") }

        try c.restart()
        restarted = true
        let again = try listener(c, "stopper")
        let s = try ok(PostgresServer.connect(c.conninfo(user: "stopper")))
        _ = try ok(s.push([task("after", "restart", at: 40)]))
        XCTAssertEqual(try ok(again.wait(timeout: 5)), true)
    }

    func testASilentBackendIsNoticedWithinTenSeconds() throws {
        let c = try Self.slot.require()
        let l = try listener(c, "sleepy")
        // A healthy connection stays up past a keep-alive (sent after 5 s of quiet).
        XCTAssertEqual(try ok(l.wait(timeout: 7)), false)
        let pidText = try c.superuserSQL("SELECT pid FROM pg_stat_activity WHERE usename = 'sleepy'")
        let pid = try XCTUnwrap(Int32(pidText.trimmingCharacters(in: .whitespacesAndNewlines)), "one backend of sleepy: \(pidText)")
        // The backend stops without a word: its socket stays open and nothing answers.
        XCTAssertEqual(kill(pid, SIGSTOP), 0)
        defer { kill(pid, SIGCONT) }
        let clock = ContinuousClock()
        let stopped = clock.now
        var outcome: Result<Bool, SyncFailure> = .success(false)
        while case .success = outcome, clock.now - stopped < .seconds(20) {
            outcome = l.wait(timeout: 1)
        }
        let noticed = clock.now - stopped
        print("live: a SIGSTOPped backend was noticed \(noticed) after it stopped")
        guard case .failure(.offline(let why)) = outcome else { return XCTFail("not noticed in 20 s: \(outcome)") }
        XCTAssertTrue(why.contains("keep-alive"), why)
        XCTAssertLessThanOrEqual(noticed, .seconds(11))
    }

    func testTCPKeepAlivesAreSetUnlessTheStringSetsThem() throws {
        let c = try Self.slot.require()
        let plain = try ok(PGConnection.connect(c.conninfo(user: "alice")))
        XCTAssertEqual(plain.option("keepalives"), "1")
        XCTAssertEqual(plain.option("keepalives_idle"), "10")
        XCTAssertEqual(plain.option("keepalives_interval"), "5")
        XCTAssertEqual(plain.option("keepalives_count"), "3")
        XCTAssertEqual(plain.option("tcp_user_timeout"), "30000")
        let given = try ok(PGConnection.connect(c.conninfo(user: "alice") + " keepalives_idle=60 tcp_user_timeout=0"))
        XCTAssertEqual(given.option("keepalives_idle"), "60")
        XCTAssertEqual(given.option("tcp_user_timeout"), "0")
        XCTAssertEqual(given.option("keepalives_interval"), "5")
    }

    func testAnIdentifierIsQuotedByLibpq() throws {
        let c = try Self.slot.require()
        let pg = try ok(PGConnection.connect(c.conninfo(user: "alice")))
        XCTAssertEqual(try ok(pg.quotedIdentifier("kept_abc")), #""kept_abc""#)
        XCTAssertEqual(try ok(pg.quotedIdentifier(#"a"b; LISTEN x"#)), #""a""b; LISTEN x""#)
        XCTAssertEqual(try failure(pg.quotedIdentifier("a\u{0}b")).sqlstate, "22021")
    }
}

/// A value handed to another thread, which the test reads only after that thread is done
/// with it or while it only waits.
final class Shared<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
