// Live sync's main-thread side (docs/SYNC.md, "Live"), shared by the REPL and `kept sync
// --watch`: it owns the channel's thread and does every sync itself, through the session's
// `sync` statement, so the store commits as for any statement. It syncs when the channel wakes
// it (another device changed the account, or the channel came back), every 10 s while the
// channel is down, and when the front end asks (a local change, a store another process wrote).
// An offline server is said once, not at every poll; the changes wait in the outbox.

import KeptRules
import KeptDomain
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seconds on a clock that never goes back (CLOCK_MONOTONIC), for the waits between polls.
enum MonotonicClock {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// Drives the live sync of one session's linked store.
final class LiveSync {
    /// How often a store syncs while its channel is down (docs/SYNC.md, "Live").
    static let pollInterval = 10.0

    /// Who speaks: the REPL's lines start with `↻` and sit above its prompt; a watch's are a log.
    enum Voice { case prompt, log }

    let session: Session
    let channel: LiveChannel
    let wakes: WakePipe
    let voice: Voice
    private let clock: () -> Double
    /// When the last sync was tried (by `clock`); nil before the first.
    private(set) var lastAttempt: Double?
    /// The last sync failed: what was said of it, so it is said once (nil: it worked).
    private(set) var failure: String?
    /// What the last sync printed as a statement, when it failed.
    private(set) var failedOutput: CommandOutput?
    /// The store the channel is for, by file and link: another store (`.open`) needs its own.
    let storeLocation: String?
    let link: SyncLink

    /// Starts the channel for a session whose store is linked; nil for one that is not, or
    /// when there is no way to a server.
    init?(session: Session, connector: (any SyncConnector)?, voice: Voice, clock: @escaping () -> Double = MonotonicClock.now,
          channel make: ((any SyncConnector, String, WakePipe) -> LiveChannel)? = nil) {
        guard let connector, let link = session.store.sync.link else { return nil }
        self.session = session
        self.voice = voice
        self.clock = clock
        self.link = link
        storeLocation = session.store.location
        wakes = WakePipe()
        channel = make?(connector, link.server, wakes) ?? LiveChannel(connector: connector, server: link.server, wakes: wakes)
        session.live.keepsShown = voice == .prompt
        channel.start()
    }

    deinit { channel.stop() }

    /// Stops the channel's thread (it ends within a second, on its own).
    func stop() {
        channel.stop()
        session.live.keepsShown = false
    }

    /// Whether this driver is for the session's store as it is now.
    var matchesStore: Bool {
        session.store.location == storeLocation && session.store.sync.link == link
    }

    /// How long the front end may wait for input before `due` holds: nil while the channel is
    /// up (a wake is enough), 0 when a poll is due.
    func timeout() -> Double? {
        if channel.isUp, failure == nil, lastAttempt != nil { return nil }
        guard let last = lastAttempt else { return 0 }
        return max(0, last + LiveSync.pollInterval - clock())
    }

    /// A sync is due without a wake: the first one, or a poll while the channel is down (or
    /// the last sync failed).
    var due: Bool { timeout() == 0 }

    /// What the front end does when its wait ended: takes the wakes, and syncs when one came or
    /// a poll is due. Returns the lines to print (none when nothing happened worth saying).
    func wokeOrTimedOut() -> [String] {
        let woke = wakes.drain()
        guard woke || due else { return [] }
        return sync()
    }

    /// Syncs now: after a local change, or when another process changed the store.
    func sync() -> [String] {
        lastAttempt = clock()
        failedOutput = nil
        switch session.liveSync() {
        case .synced(let r, let shown):
            let recovered = failure != nil
            failure = nil
            switch voice {
            case .prompt:
                guard recovered || r.received > 0 || !r.refused.isEmpty || !shown.isEmpty else { return [] }
                return session.liveReceived(r, shown: shown, recovered: recovered)
            case .log:
                guard recovered || r.sent > 0 || r.received > 0 || !r.refused.isEmpty else { return [] }
                return session.liveSynced(r)
            }
        case .failed(let out):
            failedOutput = out
            let d = out.diagnostics.first { $0.severity == .error }
            let said: String
            let lines: [String]
            if let waiting = out.syncOffline {
                said = "offline"
                lines = session.liveOffline(waiting: waiting, message: d?.message ?? "", prompt: voice == .prompt)
            } else if let d {
                said = d.code.rawValue + d.message
                lines = session.liveFailed(d, prompt: voice == .prompt)
            } else {
                said = "failed"
                lines = []
            }
            // Said once, and again only when the failure changes.
            defer { failure = said }
            return failure == said ? [] : lines
        }
    }

    /// Whether the last sync worked.
    var online: Bool { failure == nil && lastAttempt != nil }
}
