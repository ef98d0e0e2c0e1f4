// Live changes on PostgreSQL (docs/SYNC.md, "Live changes"): a session of its own that LISTENs
// on the account's channel, which `kept.push` notifies at commit, and keeps itself alive with a
// `SELECT 1` after 5 s of quiet, so that a connection gone silent is noticed within 10 s.

import KeptDomain

/// A listener on one account's channel. No thread of its own: `wait` runs on the caller's
/// thread, one caller at a time.
public final class PostgresListener: SyncListener {
    private var connection: PGConnection?
    /// The account's channel (`kept.channel()`): a secret, since any role may LISTEN on any name.
    private let channel: String
    /// The role the server knows the connection as.
    public let account: String

    private let clock = ContinuousClock()
    /// When the server last sent something: a notification, a keep-alive's answer, any byte.
    private var heard: ContinuousClock.Instant
    /// When the keep-alive now unanswered was sent (nil: none is).
    private var probeSent: ContinuousClock.Instant?

    /// How long a connection may stay quiet before it is asked to answer.
    static let quietLimit: Duration = .seconds(5)
    /// How long the keep-alive's answer may take: together, a connection quiet for 10 s fails.
    static let answerLimit: Duration = .seconds(5)

    private init(connection: PGConnection, channel: String, account: String) {
        self.connection = connection
        self.channel = channel
        self.account = account
        self.heard = ContinuousClock().now
    }

    deinit { close() }

    /// Connects as the account `conninfo` logs in as, and listens on its channel. A
    /// notification sent before this returns is not heard: a front end listens first, then
    /// pulls.
    public static func connect(_ conninfo: String) -> Result<PostgresListener, SyncFailure> {
        let c: PGConnection
        switch PGConnection.connect(conninfo) {
        case .success(let x): c = x
        case .failure(let e): return .failure(SyncFailure(e))
        }
        let account: String
        switch PostgresServer.account(on: c) {
        case .success(let name): account = name
        case .failure(let f): return .failure(f)
        }
        let channel: String
        switch c.exec("SELECT kept.channel()") {
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        case .success(let r):
            guard let name = r.scalar else { return .failure(.noAccount(account)) }
            channel = name
        }
        // LISTEN takes a name, not a parameter: libpq quotes it.
        let quoted: String
        switch c.quotedIdentifier(channel) {
        case .success(let q): quoted = q
        case .failure(let e): return .failure(SyncFailure(e, account: account))
        }
        if case .failure(let e) = c.exec("LISTEN " + quoted) { return .failure(SyncFailure(e, account: account)) }
        return .success(PostgresListener(connection: c, channel: channel, account: account))
    }

    /// Waits at most `timeout` seconds for a notification of the account's channel. True as
    /// soon as one came (every one that came is taken: one sync covers them all); false when
    /// the time ran out. Fails as offline, and ends the session, when the connection ended or
    /// left its keep-alive unanswered; a later call fails at once.
    public func wait(timeout: Double) -> Result<Bool, SyncFailure> {
        guard let c = connection else { return .failure(.offline("the listener's connection was closed")) }
        // A day at most: the milliseconds given to poll stay far from overflowing.
        let seconds = timeout.isNaN ? 0 : min(max(timeout, 0), 86_400)
        let deadline = clock.now.advanced(by: .milliseconds(Int64(seconds * 1000)))
        var readable = true
        while true {
            if readable, let e = c.consumeInput() { return fail(e.message) }
            if probeSent != nil {
                switch c.answer() {
                case .pending: break
                case .done:
                    probeSent = nil
                    heard = clock.now
                case .failed(let e): return fail(e.message)
                }
            }
            if c.notifications().contains(where: { $0.channel == channel }) {
                heard = clock.now
                return .success(true)
            }
            let now = clock.now
            if let sent = probeSent {
                if now - sent >= Self.answerLimit {
                    return fail("the server did not answer a keep-alive within \(Self.answerLimit) (quiet since \(now - heard))")
                }
            } else if now - heard >= Self.quietLimit {
                if let e = c.send("SELECT 1") { return fail(e.message) }
                probeSent = now
            }
            if now >= deadline { return .success(false) }
            let next = min(deadline, probeSent.map { $0 + Self.answerLimit } ?? heard + Self.quietLimit)
            switch c.waitForInput(milliseconds: Self.milliseconds(until: next, from: clock.now)) {
            case .failure(let e): return fail(e.message)
            case .success(let r):
                readable = r
                if r { heard = clock.now }
            }
        }
    }

    /// Ends the session (and with it the LISTEN).
    public func close() {
        connection?.close()
        connection = nil
    }

    /// The session is over: every later call fails at once, until a new listener connects.
    private func fail(_ why: String) -> Result<Bool, SyncFailure> {
        close()
        return .failure(.offline(why))
    }

    /// Whole milliseconds from `now` to `instant`, rounded up so a wait never ends just short.
    private static func milliseconds(until instant: ContinuousClock.Instant, from now: ContinuousClock.Instant) -> Int32 {
        let left = now.duration(to: instant)
        if left <= .zero { return 0 }
        let (s, atto) = left.components
        return Int32(clamping: s * 1000 + (atto + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
