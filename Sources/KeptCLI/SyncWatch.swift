// `kept sync --watch --store FILE` (docs/SYNC.md, "Live"): keeps a linked store in sync in the
// foreground until interrupted. It syncs at the start, whenever the account's channel says
// another device changed something, every 10 s while the channel is down, and when another
// process wrote the store (looked at about every second, so a `kept add --store FILE` in another
// shell goes to the server within about a second). One line per sync that did something.
// SIGINT or SIGTERM stops it after the step under way, with exit 0: every sync commits or rolls
// back whole, so the outbox is intact either way. A server that cannot be reached, at the start
// too, is waited for; any other failure at the start ends the watch as `kept sync` would.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by the SIGINT and SIGTERM handlers; the write end of a pipe they also write to, so a
/// signal ends the watch's wait at once.
nonisolated(unsafe) private var stopSeen: sig_atomic_t = 0
nonisolated(unsafe) private var stopWakeWrite: Int32 = -1

enum SyncWatch {
    /// How often the store file is looked at for another process's changes.
    static let fileCheckInterval = 1.0

    static func run(_ o: SessionOptions, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        let session: Session
        switch SessionFactory.make(o, testMode: false, commits: .eachStatement) {
        case .success(let s): session = s
        case .failure(let f): return KeptMain.report(f, format: o.format, out: out, err: err, renderer: renderer)
        }
        defer { session.store.close() }
        for n in session.store.notices { err.line(renderer.render(Catalog.store(n))) }
        guard let live = LiveSync(session: session, connector: session.syncConnector, voice: .log) else {
            // Not linked, or no way to a server: the `sync` statement says which.
            return SyncVerbs.sync(session, status: false, out: out, err: err, renderer: renderer)
        }
        defer { live.stop() }
        let stop = WakePipe()
        trapStop(stop)
        if o.format == .text, let link = session.store.sync.link {
            err.line("kept: watching \(o.store ?? "the store") for \(link.account) on \(Session.serverWords(link.server)); Ctrl-C stops")
            err.flush()
        }

        // The first sync: offline is waited out; anything else would not mend by waiting, and
        // is reported as `kept sync` reports it.
        let first = live.sync()
        if let failed = live.failedOutput, failed.syncOffline == nil {
            for d in failed.diagnostics { SyncVerbs.report(d, o.format, out: out, err: err, renderer: renderer) }
            return session.store.readFailure != nil ? 2 : 1
        }
        say(first, out)
        while stopSeen == 0 {
            let wait = min(live.timeout() ?? fileCheckInterval, fileCheckInterval)
            var fds = [pollfd(fd: live.wakes.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stop.readEnd, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 2, pollMilliseconds(wait))
            if stopSeen != 0 { break }
            let woke = live.wakes.drain()
            // Another process's change is looked for only while the server answers; offline,
            // the next poll takes it with the rest.
            if woke || live.due || (live.online && session.store.changedElsewhere()) {
                say(live.sync(), out)
            }
        }
        out.flush()
        return 0
    }

    static func say(_ lines: [String], _ out: OutputStream) {
        guard !lines.isEmpty else { return }
        out.lines(lines)
        out.flush()
    }

    /// SIGINT and SIGTERM stop the watch after the step under way. The handler resets itself
    /// (SA_RESETHAND): a second Ctrl-C ends the process at once, as a stuck connection may
    /// need, and even then a commit is whole or not there.
    static func trapStop(_ pipe: WakePipe) {
        stopWakeWrite = pipe.writeEnd
        for sig in [SIGINT, SIGTERM] {
            var sa = sigaction()
            sa.__sigaction_handler.sa_handler = { _ in
                stopSeen = 1
                if stopWakeWrite >= 0 {
                    var b: UInt8 = 1
                    _ = write(stopWakeWrite, &b, 1)
                }
            }
            sigemptyset(&sa.sa_mask)
            sa.sa_flags = SA_RESTART | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigaction(sig, &sa, nil)
        }
        // A parent may have started us with them blocked (the mask is inherited across exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
