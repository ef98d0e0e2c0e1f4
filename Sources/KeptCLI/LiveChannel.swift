// The notification side of live sync (docs/SYNC.md, "Live"): a thread of its own holds a
// listener on the account's channel and wakes the main thread through a pipe when the account
// changed. It never touches the store or the engine, which are not thread-safe: the main thread
// does every sync. A listener that fails (the connection dropped, or its keep-alive got no
// answer) is closed and made again with backoff, and the channel is down meanwhile, which the
// main thread sees and polls for instead.

import Foundation
import KeptDomain

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe one thread writes a byte to and another polls: the main thread waits on its read end
/// beside standard input, and any thread (or a signal handler) wakes it.
final class WakePipe: @unchecked Sendable {
    /// The end to poll; -1 when no pipe could be made (nothing then wakes the poll early).
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            // Non-blocking both ways: a full pipe already says "wake", and draining never waits.
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Wakes the poller (a wake already pending is enough: a full pipe is ignored).
    func wake() {
        guard writeEnd >= 0 else { return }
        var b: UInt8 = 1
        _ = write(writeEnd, &b, 1)
    }

    /// Takes every pending wake; true when there was one.
    @discardableResult
    func drain() -> Bool {
        guard readEnd >= 0 else { return false }
        var woke = false
        var b = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &b, b.count) > 0 { woke = true }
        return woke
    }
}

/// How long to wait before connecting again after a failure: 0.5 s, doubling, at most 10 s,
/// and from the start again once a connection holds.
struct Backoff: Equatable {
    static let first = 0.5
    static let cap = 10.0
    private(set) var next = Backoff.first

    /// The wait before the next try; each failure doubles the one after it.
    mutating func delay() -> Double {
        let d = next
        next = min(next * 2, Backoff.cap)
        return d
    }

    mutating func reset() { next = Backoff.first }
}

/// The listener's thread and what the main thread may read of it.
final class LiveChannel: @unchecked Sendable {
    /// Where the channel stands, as the main thread sees it.
    enum State: Equatable {
        /// Not connected yet (the first try runs).
        case connecting
        /// Listening: a change of the account wakes the main thread.
        case up
        /// Not listening, since this failure: the main thread polls, the thread tries again.
        case down(SyncFailure)

        func isSameKind(as other: State) -> Bool {
            switch (self, other) {
            case (.connecting, .connecting), (.up, .up), (.down, .down): return true
            default: return false
            }
        }
    }

    let connector: any SyncConnector
    let server: String
    let wakes: WakePipe
    /// How long one `wait` of the listener lasts: how soon the thread sees it should stop.
    let waitTimeout: Double
    /// Sleeps between tries; returns early (false) once the channel is stopped. Tests give
    /// their own, which records the delays rather than waiting them.
    private let sleeper: (@Sendable (Double, LiveChannel) -> Void)?

    private let lock = NSCondition()
    private var _state: State = .connecting
    private var _stopped = false
    private var _finished = false
    /// Every delay the thread waited before trying again, in order (for the tests).
    private var _delays: [Double] = []

    init(connector: any SyncConnector, server: String, wakes: WakePipe, waitTimeout: Double = 1,
         sleeper: (@Sendable (Double, LiveChannel) -> Void)? = nil) {
        self.connector = connector
        self.server = server
        self.wakes = wakes
        self.waitTimeout = waitTimeout
        self.sleeper = sleeper
    }

    var state: State {
        lock.lock()
        defer { lock.unlock() }
        return _state
    }

    var isUp: Bool { state == .up }

    var delays: [Double] {
        lock.lock()
        defer { lock.unlock() }
        return _delays
    }

    var stopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return _stopped
    }

    /// Starts the thread.
    func start() {
        let t = Thread { [self] in
            run()
            lock.lock()
            _finished = true
            lock.broadcast()
            lock.unlock()
        }
        t.name = "kept live sync"
        t.start()
    }

    /// Asks the thread to stop: it does within one `wait` of the listener. Nothing waits for
    /// it; with `wait` the caller does, at most `timeout` seconds.
    func stop(wait timeout: Double = 0) {
        lock.lock()
        _stopped = true
        lock.broadcast()
        if timeout > 0 {
            let until = Date(timeIntervalSinceNow: timeout)
            while !_finished, lock.wait(until: until) {}
        }
        lock.unlock()
    }

    private func set(_ s: State) {
        lock.lock()
        let changed = !_state.isSameKind(as: s)
        _state = s
        lock.unlock()
        // The main thread learns of every change: up, to sync what it may have missed; down,
        // to start polling. Another failure while down (its words may differ) is no change.
        if changed { wakes.wake() }
    }

    /// Waits `seconds` unless the channel is stopped first.
    private func pause(_ seconds: Double) {
        lock.lock()
        _delays.append(seconds)
        lock.unlock()
        if let sleeper {
            sleeper(seconds, self)
            return
        }
        lock.lock()
        let until = Date(timeIntervalSinceNow: seconds)
        while !_stopped, lock.wait(until: until) {}
        lock.unlock()
    }

    /// The thread: listen, wait, and on a failure try again after the next delay.
    func run() {
        var backoff = Backoff()
        while !stopped {
            let listener: any SyncListener
            switch connector.listen(server) {
            case .failure(let f):
                set(.down(f))
                pause(backoff.delay())
                continue
            case .success(let l):
                listener = l
            }
            backoff.reset()
            set(.up)
            while !stopped {
                switch listener.wait(timeout: waitTimeout) {
                case .success(true):
                    wakes.wake()
                case .success(false):
                    continue
                case .failure(let f):
                    set(.down(f))
                }
                if case .down = state { break }
            }
            listener.close()
            if !stopped { pause(backoff.delay()) }
        }
    }
}
