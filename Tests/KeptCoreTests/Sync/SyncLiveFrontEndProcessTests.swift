// Live sync in the front ends, on a real PostgreSQL, with the built `kept` run as processes
// (docs/SYNC.md, "Live"): two piped REPLs on two SQLite stores of one account, where each of 100
// changes made in one shows in the other within a second (median and maximum printed), with the
// note on a shown task; `kept sync --watch` across a server stopped and started again, losing
// nothing; and a watch interrupted with changes queued, which leaves them for the next sync.
// covers: R-SYNC-6, R-SYNC-8, R-SYNC-18

import Foundation
import XCTest
@testable import KeptSync

/// A `kept` process whose standard input the test writes and whose standard output it reads as
/// it comes, each line with the moment it was read.
final class KeptChild {
    let pid: pid_t
    private var input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    /// Every line read so far, with when it was read (monotonic seconds).
    private(set) var lines: [(text: String, at: Double)] = []
    /// How many lines `expect` has looked past.
    private var mark = 0
    private(set) var status: Int32?
    let errorFile: String

    init(_ args: [String], errorFile: String) throws {
        var inPipe: [Int32] = [-1, -1]
        var outPipe: [Int32] = [-1, -1]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else { throw ClusterError(description: "no pipe") }
        // Not inherited by any other child (another REPL, a server): a child holding this one's
        // input open would keep it from ever reading its end.
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        for fd in inPipe + outPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        let program = SyncFaultTests.keptBinary
        let argv = ([program] + args).map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        for k in env.keys where k.hasPrefix("PG") { env[k] = nil }
        env["NO_COLOR"] = "1"
        env["TERM"] = "dumb"
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, nil, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else {
            close(inPipe[1])
            close(outPipe[0])
            throw ClusterError(description: "cannot run \(program): \(String(cString: strerror(rc)))")
        }
        self.pid = pid
        input = inPipe[1]
        output = outPipe[0]
        self.errorFile = errorFile
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            _ = finish(timeout: 5)
        }
        endInput()
        close(output)
    }

    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Writes one line to its standard input; the moment it was written.
    @discardableResult
    func send(_ line: String) -> Double {
        let bytes = Array((line + "\n").utf8)
        var off = 0
        while input >= 0, off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        return KeptChild.now()
    }

    /// Ends its standard input.
    func endInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// Reads what is there, waiting at most `timeout` seconds for the first byte.
    private func pump(_ timeout: Double) {
        var p = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(max(0, timeout) * 1000)) > 0 else { return }
        let at = KeptChild.now()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(output, &chunk, chunk.count)
            if n <= 0 { break }
            pending += chunk[0..<n]
        }
        while let nl = pending.firstIndex(of: 0x0A) {
            lines.append((String(decoding: pending[..<nl], as: UTF8.self), at))
            pending.removeSubrange(...nl)
        }
    }

    /// The first line after the mark that `match` accepts, within `timeout` seconds; the mark
    /// moves past it. Nil when none came.
    func expect(within timeout: Double = 5, _ match: (String) -> Bool) -> (text: String, at: Double)? {
        let until = KeptChild.now() + timeout
        while true {
            if let k = lines[mark...].firstIndex(where: { match($0.text) }) {
                mark = k + 1
                return lines[k]
            }
            let left = until - KeptChild.now()
            if left <= 0 { return nil }
            pump(min(left, 0.05))
        }
    }

    /// Reads for `seconds` (what comes meanwhile is kept) and moves the mark to the end.
    func settle(_ seconds: Double) {
        let until = KeptChild.now() + seconds
        while KeptChild.now() < until { pump(until - KeptChild.now()) }
        mark = lines.count
    }

    /// Waits for the process to end: its exit code (128 + the signal when killed), or nil.
    func finish(timeout: Double) -> Int32? {
        let until = KeptChild.now() + timeout
        while KeptChild.now() < until {
            pump(0.01)
            var st: Int32 = 0
            let r = waitpid(pid, &st, WNOHANG)
            if r == pid {
                pump(0)
                status = (st & 0x7F) == 0 ? (st >> 8) & 0xFF : 128 + (st & 0x7F)
                return status
            }
            if r < 0, errno != EINTR { return nil }
        }
        return nil
    }

    var everything: String {
        lines.map(\.text).joined(separator: "\n") + "\n--- stderr\n" + ((try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? "")
    }
}

final class SyncLiveFrontEndProcessTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start(accounts: ["repls", "terminal", "watched", "interrupted"])
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
        super.tearDown()
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// `kept ARGS` to its end: its status and what it printed.
    func kept(_ args: [String]) throws -> (status: Int32, out: String) {
        let child = try KeptChild(args, errorFile: path("err-\(UUID().uuidString)"))
        child.endInput()
        let status = child.finish(timeout: 30) ?? -1
        return (status, child.everything)
    }

    func keptOK(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let r = try kept(args)
        XCTAssertEqual(r.status, 0, "kept \(args.joined(separator: " ")): \(r.out)", file: file, line: line)
    }

    /// A store's tasks as other devices must hold them: every exported field but the local id,
    /// by uid.
    func state(_ store: String) throws -> [String: String] {
        let out = path("export-\(UUID().uuidString).jsonl")
        try keptOK(["export", out, "--store", store, "--as", "jsonl"])
        var tasks: [String: String] = [:]
        for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n") {
            guard let data = line.data(using: .utf8),
                  var record = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let uid = record["uid"] as? String else { continue }
            record["id"] = nil
            let normal = try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys])
            tasks[uid] = String(decoding: normal, as: UTF8.self)
        }
        return tasks
    }

    /// The titles of a state's tasks.
    func titles(_ state: [String: String]) -> Set<String> {
        Set(state.values.compactMap { text in
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?["title"] as? String
        })
    }

    func median(_ xs: [Double]) -> Double {
        let s = xs.sorted()
        return s.isEmpty ? 0 : s[s.count / 2]
    }

    // R-SYNC-8: two piped REPLs on two stores of one account. Each of 100 changes made in A (adds,
    // edits, completions) shows in B within a second of A's line being written; an edited task
    // B's listing showed gets the note; afterwards both stores hold the same tasks.
    func testTwoPipedREPLsSeeEachOthersChangesWithinASecond() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "repls")
        let a = path("a.db"), b = path("b.db")
        var seed = ["run", "--store", a, "--write"]
        for k in 1...70 { seed += ["-e", "add Task \(k)"] }
        try keptOK(seed)
        try keptOK(["account", "link", conninfo, "--store", a])
        try keptOK(["account", "link", conninfo, "--store", b])
        XCTAssertEqual(try state(a).count, 70)
        XCTAssertEqual(try state(b), try state(a), "B took A's tasks when it linked")

        let replA = try KeptChild(["repl", "--store", a, "--errors", "short"], errorFile: path("a.err"))
        let replB = try KeptChild(["repl", "--store", b, "--errors", "short"], errorFile: path("b.err"))
        // B shows every task, so an edit in A is one it showed.
        replB.send("list")
        XCTAssertNotNil(replB.expect { $0.hasPrefix("All 70 tasks") }, replB.everything)
        // One change first, unmeasured: both REPLs have synced and listen once B has it.
        replA.send("add Warm-up")
        var warm = false
        for _ in 0..<50 where !warm {
            replB.send("count")
            warm = replB.expect(within: 0.2, { $0 == "All 71 tasks" }) != nil
        }
        XCTAssertTrue(warm, "the warm-up never came: \(replB.everything)")
        replB.settle(0.3)

        var delays: [Double] = []
        for k in 0..<100 {
            let line: String
            var note: String? = nil
            switch k % 3 {
            case 0:
                line = "add New task \(k)"
            case 1:
                // Tasks 1 to 34, each edited once. B has its own ids for them: the note is
                // known by its words.
                let id = k / 3 + 1
                line = "set \(id) title \"Edited \(k)\""
                note = " · Edited \(k) · This changed on another device. Kept refreshed it."
            default:
                // Tasks 70 down to 38, each completed once.
                let id = 70 - k / 3
                line = "complete \(id)"
                note = " · Task \(id) · This changed on another device. Kept refreshed it."
            }
            let written = replA.send(line)
            guard let seen = replB.expect(within: 5, { $0.hasPrefix("↻ ") }) else {
                XCTFail("change \(k) (\(line)) never showed in B:\n\(replB.everything)\n--- A\n\(replA.everything)")
                break
            }
            XCTAssertEqual(seen.text, "↻ 1 change from another device", "change \(k): \(line)")
            delays.append(seen.at - written)
            if let note {
                XCTAssertNotNil(replB.expect(within: 1, { $0.hasSuffix(note) }), "change \(k): no note '\(note)':\n\(replB.everything)")
            }
        }
        let ms = delays.map { $0 * 1000 }
        print(String(format: "live REPLs: a change in A seen in B after %.1f ms (median), %.1f ms (max), over %d changes",
                     median(ms), ms.max() ?? 0, ms.count))
        XCTAssertEqual(delays.count, 100)
        XCTAssertLessThanOrEqual(delays.max() ?? 99, 1.0, "every change within a second")

        replA.endInput()
        replB.endInput()
        XCTAssertEqual(replA.finish(timeout: 10), 0, replA.everything)
        XCTAssertEqual(replB.finish(timeout: 10), 0, replB.everything)
        let stateA = try state(a)
        XCTAssertEqual(stateA.count, 70 + 1 + 34)
        XCTAssertEqual(try state(b), stateA, "B holds what A holds")
    }

    // R-SYNC-8: on a terminal, what another device changed is said above the prompt while a
    // line is typed, and the prompt and the half-typed line are drawn again below it, the
    // typing going on where it was.
    func testATerminalREPLSaysChangesAboveThePrompt() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "terminal")
        let a = path("ta.db"), b = path("tb.db")
        try keptOK(["run", "--store", a, "--write", "-e", "add Buy milk"])
        try keptOK(["account", "link", conninfo, "--store", a])
        try keptOK(["account", "link", conninfo, "--store", b])

        // A pseudo-terminal, kept's standard streams (readline needs no controlling terminal:
        // nothing here types Ctrl-C).
        let (master, name) = try Self.pseudoTerminal()
        defer { close(master) }
        var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, name, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let program = SyncFaultTests.keptBinary
        let args: [String] = [program, "repl", "--store", b]
        let argv = args.map { strdup($0) } + [nil]
        var env = ProcessInfo.processInfo.environment
        for k in env.keys where k.hasPrefix("PG") { env[k] = nil }
        env["TERM"] = "xterm"
        env["NO_COLOR"] = "1"
        env["KEPT_HISTFILE"] = path("history")
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { throw ClusterError(description: "cannot run kept") }
        defer {
            // Killed unless it ended (an ended child's pid is not ours to signal any more).
            var st: Int32 = 0
            if waitpid(pid, &st, WNOHANG) == 0 {
                kill(pid, SIGKILL)
                waitpid(pid, &st, 0)
            }
        }
        var screen: [UInt8] = []
        func type(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) } }
        /// Reads until `text` shows after `from`; where it ends, or nil after `within` seconds.
        func expect(_ text: String, after from: Int = 0, within: Double = 5) -> Int? {
            let until = KeptChild.now() + within
            let want = Array(text.utf8)
            while true {
                if from <= screen.count - want.count {
                    for k in from...(screen.count - want.count) where Array(screen[k..<(k + want.count)]) == want { return k + want.count }
                }
                if KeptChild.now() > until { return nil }
                var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 50) > 0 {
                    var chunk = [UInt8](repeating: 0, count: 4096)
                    let n = read(master, &chunk, chunk.count)
                    if n > 0 { screen += chunk[0..<n] }
                }
            }
        }
        let shown = { String(decoding: screen, as: UTF8.self) }
        guard let banner = expect("synced live with terminal") else { return XCTFail("no banner: \(shown())") }
        type("show 1\r")
        guard let listed = expect("Buy milk", after: banner) else { return XCTFail("no show: \(shown())") }
        guard let prompt = expect("kept> ", after: listed) else { return XCTFail("no prompt: \(shown())") }
        type("add Call m")
        guard let typed = expect("add Call m", after: prompt) else { return XCTFail("not echoed: \(shown())") }

        try keptOK(["run", "--store", a, "--write", "-e", "set 1 title \"Buy oat milk\""])
        try keptOK(["sync", "--store", a])
        guard let note = expect("↻ 1 change from another device\r\n1 · Buy oat milk · This changed on another device. Kept refreshed it.\r\n",
                                after: typed) else {
            return XCTFail("no note above the prompt: \(shown())")
        }
        XCTAssertNotNil(expect("kept> add Call m", after: note), "the prompt and the line drawn again: \(shown())")
        type("om\r")
        guard let added = expect("Added 2 · Call mom", after: note) else { return XCTFail("the typing went on: \(shown())") }
        // The new task is pushed at once; the prompt is back when the push is done. Ctrl-D is
        // typed at the prompt, as a person types it: one typed while the statement still ran
        // reached a terminal readline had handed back to the line discipline, which took it as
        // its own end of file, and the REPL never saw it (1 run in 5 to 8 failed so).
        XCTAssertNotNil(expect("kept> ", after: added, within: 20), "the prompt after the push: \(shown())")
        // Ctrl-D ends it; the terminal is read meanwhile, so its output never blocks it.
        type("\u{04}")
        var st: Int32 = 0
        var ended = false
        let until = KeptChild.now() + 5
        while !ended, KeptChild.now() < until {
            ended = waitpid(pid, &st, WNOHANG) == pid
            var chunk = [UInt8](repeating: 0, count: 4096)
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if !ended, poll(&p, 1, 50) > 0, read(master, &chunk, chunk.count) <= 0 { usleep(10_000) }
        }
        XCTAssertTrue(ended, "Ctrl-D ends it: \(shown())")
        XCTAssertEqual(st, 0, "with exit 0: \(shown())")
    }

    /// A pseudo-terminal's controlling end and the path of the other. glibc declares these
    /// calls only for _XOPEN_SOURCE, which Swift's Glibc module leaves out: they are looked up.
    static func pseudoTerminal() throws -> (Int32, String) {
        typealias Open = @convention(c) (Int32) -> Int32
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        let libc = dlopen(nil, RTLD_NOW)
        func find<T>(_ name: String, _ type: T.Type) -> T? { dlsym(libc, name).map { unsafeBitCast($0, to: T.self) } }
        guard let open = find("posix_openpt", Open.self), let grant = find("grantpt", Call.self),
              let unlock = find("unlockpt", Call.self), let name = find("ptsname_r", Name.self) else {
            throw ClusterError(description: "no pseudo-terminal calls in libc")
        }
        let master = open(O_RDWR | O_NOCTTY)
        var path = [CChar](repeating: 0, count: 128)
        guard master >= 0, grant(master) == 0, unlock(master) == 0, name(master, &path, path.count) == 0 else {
            throw ClusterError(description: "no pseudo-terminal")
        }
        // Kept by no child: the terminal's other end sees it hang up when the test ends.
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        return (master, String(cString: path))
    }

    // R-SYNC-6: the server stops under a watch and starts again on its socket. What another
    // device pushed before the stop and after the start, and what was added here while it was
    // down, ends up on both sides; nothing is lost.
    func testAWatchOutlivesAServerRestart() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "watched")
        let w = path("w.db"), other = path("other.db")
        try keptOK(["account", "link", conninfo, "--store", w])
        try keptOK(["account", "link", conninfo, "--store", other])
        let watch = try KeptChild(["sync", "--watch", "--store", w], errorFile: path("watch.err"))
        defer {
            kill(watch.pid, SIGTERM)
            _ = watch.finish(timeout: 5)
        }
        // The watch is running (its first sync done) once it says so on stderr.
        watch.settle(1)

        // Before the stop: another device's change comes in; a change here goes out within
        // about a second of its commit, without any sync of ours.
        try keptOK(["run", "--store", other, "--write", "-e", "add Before the stop, elsewhere"])
        try keptOK(["sync", "--store", other])
        XCTAssertNotNil(watch.expect { $0.contains("received 1") }, watch.everything)
        let written = KeptChild.now()
        try keptOK(["run", "--store", w, "--write", "-e", "add Before the stop, here"])
        guard let pushed = watch.expect(within: 5, { $0.contains("sent 1") }) else {
            return XCTFail("the watch did not push the change made here:\n\(watch.everything)")
        }
        XCTAssertLessThan(pushed.at - written, 3, "pushed within about a second of its commit")

        // Down: changes made here wait.
        try c.stopFast()
        defer { if !c.running { try? c.restart() } }
        for k in 1...3 { try keptOK(["run", "--store", w, "--write", "-e", "add While it was down \(k)"]) }
        XCTAssertNotNil(watch.expect(within: 12, { $0.hasPrefix("Offline") }), "offline said: \(watch.everything)")

        // Up again: the watch reconnects, sends what waited, and hears the other device again.
        try c.restart()
        XCTAssertNotNil(watch.expect(within: 15, { $0.contains("sent 3") }), "sent after the restart: \(watch.everything)")
        try keptOK(["run", "--store", other, "--write", "-e", "add After the restart, elsewhere"])
        try keptOK(["sync", "--store", other])
        XCTAssertNotNil(watch.expect(within: 5, { $0.contains("received 1") }), watch.everything)

        kill(watch.pid, SIGINT)
        XCTAssertEqual(watch.finish(timeout: 5), 0, watch.everything)
        try keptOK(["sync", "--store", other])
        let here = try state(w)
        XCTAssertEqual(titles(here), ["Before the stop, elsewhere", "Before the stop, here", "While it was down 1", "While it was down 2",
                        "While it was down 3", "After the restart, elsewhere"])
        XCTAssertEqual(try state(other), here, "both sides hold the same")
    }

    // R-SYNC-6: a watch started while the server is down waits for it; Ctrl-C stops it with
    // changes queued: exit 0, the outbox as it was, and the next `kept sync` sends it.
    func testInterruptingAWatchKeepsTheQueue() throws {
        let c = try Self.slot.require()
        let conninfo = c.conninfo(user: "interrupted")
        let s = path("i.db")
        try keptOK(["account", "link", conninfo, "--store", s])
        try c.stopFast()
        defer { if !c.running { try? c.restart() } }
        let watch = try KeptChild(["sync", "--watch", "--store", s], errorFile: path("watch.err"))
        XCTAssertNotNil(watch.expect(within: 5, { $0.hasPrefix("Offline") }), watch.everything)
        try keptOK(["run", "--store", s, "--write", "-e", "add Queued one", "-e", "add Queued two"])
        XCTAssertNil(watch.finish(timeout: 1.5), "offline at the start, the watch waits: \(watch.everything)")
        kill(watch.pid, SIGINT)
        XCTAssertEqual(watch.finish(timeout: 5), 0, watch.everything)

        let status = try kept(["sync", "status", "--store", s, "--json"])
        XCTAssertTrue(status.out.contains("\"waiting\":2"), status.out)
        try c.restart()
        let r = try kept(["sync", "--store", s])
        XCTAssertEqual(r.status, 0, r.out)
        XCTAssertTrue(r.out.contains("sent 2"), r.out)
        let onServer = try ok(PostgresServer.connect(conninfo))
        defer { onServer.close() }
        let titles = try ok(onServer.pull(after: 0, limit: 1000)).compactMap { $0.fields["title"]?.stringValue }
        XCTAssertEqual(Set(titles), ["Queued one", "Queued two"])
    }
}
