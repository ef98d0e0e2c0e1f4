// A throwaway PostgreSQL cluster for the sync tests: its own folder, a Unix socket in that folder
// and no TCP at all, the database `kept`, and the superuser `postgres`. PostgreSQL's programs
// refuse to run as root, so as root they run as the `postgres` user that Debian's package makes.
// `make test` installs the package (`make deps`); without it the tests fail, they never skip.

import Foundation
import XCTest

/// Why a cluster did not start or a command failed.
struct ClusterError: Error, CustomStringConvertible {
    var description: String
}

/// One cluster, started by `start()` and removed by `stop()`.
final class PostgresCluster: @unchecked Sendable {
    /// The folder of everything: `data/`, `sock/`, `log`.
    let root: URL
    /// PostgreSQL's programs (`initdb`, `pg_ctl`, `psql`).
    let bin: String
    private(set) var port: Int
    private(set) var running = false

    var socketDir: String { root.appendingPathComponent("sock").path }
    var dataDir: String { root.appendingPathComponent("data").path }
    var logFile: String { root.appendingPathComponent("log").path }

    /// Members of this group log in with a password (scram-sha-256); every other role is trusted.
    static let passwordGroup = "kept_pw"

    private init(root: URL, bin: String, port: Int) {
        self.root = root
        self.bin = bin
        self.port = port
    }

    /// The newest `/usr/lib/postgresql/N/bin` that has `initdb`, `pg_ctl` and `psql`.
    static func binaries() -> String? {
        let base = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        let usable = versions.compactMap { v -> (Int, String)? in
            let dir = "\(base)/\(v)/bin"
            guard let n = Int(v), ["initdb", "pg_ctl", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "\(dir)/\($0)") }) else { return nil }
            return (n, dir)
        }
        return usable.max { $0.0 < $1.0 }?.1
    }

    /// Makes and starts a cluster with the database `kept`.
    static func start() throws -> PostgresCluster {
        guard let bin = binaries() else {
            throw ClusterError(description: "PostgreSQL's programs (initdb, pg_ctl, psql) are not under /usr/lib/postgresql/*/bin: run `make deps` (it installs postgresql and libpq-dev), or `make test`, which runs it")
        }
        // A short path: a Unix socket's path may not pass 107 bytes.
        let name = "kept-pg-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let root = URL(fileURLWithPath: "/tmp").appendingPathComponent(name)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sock"), withIntermediateDirectories: true)
        let cluster = PostgresCluster(root: root, bin: bin, port: 0)
        do {
            try cluster.make()
            try cluster.startServer(tries: 4)
            try cluster.superuserSQL("CREATE DATABASE kept", database: "postgres")
        } catch {
            cluster.stopNow()
            cluster.remove()
            throw error
        }
        return cluster
    }

    /// initdb, and a pg_hba.conf that trusts every role but the password group's.
    private func make() throws {
        if getuid() == 0 { try run("/bin/chown", ["-R", "postgres:postgres", root.path]) }
        try asPostgres("\(bin)/initdb", ["-D", dataDir, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
        let hba = """
            local all +\(Self.passwordGroup) scram-sha-256
            local all all trust

            """
        try hba.write(toFile: dataDir + "/pg_hba.conf", atomically: false, encoding: .utf8)
        if getuid() == 0 { try run("/bin/chown", ["postgres:postgres", dataDir + "/pg_hba.conf"]) }
    }

    /// Starts the server on a port no other cluster of this machine uses for its socket name and
    /// shared memory key: a few random ones are tried.
    private func startServer(tries: Int) throws {
        var last: Error?
        for _ in 0..<tries {
            let p = port == 0 ? Int.random(in: 20000..<60000) : port
            do {
                try pgctl(["-D", dataDir, "-l", logFile, "-w", "-t", "60",
                           "-o", "-k \(socketDir) -p \(p) -c listen_addresses='' -c fsync=off", "start"])
                port = p
                running = true
                Self.register(self)
                return
            } catch {
                last = error
                if port != 0 { break }
            }
        }
        throw last ?? ClusterError(description: "pg_ctl start failed")
    }

    /// Starts the server again on its port after `stopNow` (or stops it first).
    func restart() throws {
        if running { try pgctl(["-D", dataDir, "-m", "fast", "-w", "stop"]) }
        running = false
        try startServer(tries: 1)
    }

    /// Stops the server at once, as a crash would (`-m immediate`); the folder stays.
    func stopNow() {
        guard running else { return }
        _ = try? pgctl(["-D", dataDir, "-m", "immediate", "-w", "stop"])
        running = false
        Self.unregister(self)
    }

    /// Stops the server as an administrator would (`-m fast`: every session is told, then
    /// ended); the folder stays, for `restart()`.
    func stopFast() throws {
        guard running else { return }
        try pgctl(["-D", dataDir, "-m", "fast", "-w", "stop"])
        running = false
        Self.unregister(self)
    }

    /// Stops the server (`-m fast`) and removes the folder.
    func stop() {
        if running {
            if (try? pgctl(["-D", dataDir, "-m", "fast", "-w", "stop"])) == nil { stopNow() }
            running = false
            Self.unregister(self)
        }
        remove()
    }

    private func remove() { try? FileManager.default.removeItem(at: root) }

    /// How a role connects: by the socket, with trust unless it is in the password group.
    func conninfo(user: String, database: String = "kept") -> String {
        "host=\(socketDir) port=\(port) dbname=\(database) user=\(user)"
    }

    /// The connection string for a role whose name needs quoting.
    func conninfo(quotedUser user: String) -> String {
        "host=\(socketDir) port=\(port) dbname=kept user='\(user.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'"))'"
    }

    // MARK: running programs

    /// Runs SQL as the superuser through psql; throws with psql's words when it fails.
    @discardableResult
    func superuserSQL(_ sql: String, database: String = "kept") throws -> String {
        let r = psql(sql, user: "postgres", database: database)
        guard r.status == 0 else { throw ClusterError(description: "psql as postgres failed (\(r.status)): \(r.stderr)\nSQL: \(sql)") }
        return r.stdout
    }

    /// Runs SQL through the psql binary as `user`: unaligned, tuples only, stopping at the first error.
    func psql(_ sql: String, user: String, database: String = "kept") -> (status: Int32, stdout: String, stderr: String) {
        let r = try? execute("\(bin)/psql", ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", conninfo(user: user, database: database), "-c", sql])
        return r ?? (-1, "", "psql did not run")
    }

    private func pgctl(_ args: [String]) throws {
        try asPostgres("\(bin)/pg_ctl", args)
    }

    /// Runs a server program as `postgres` when this process is root.
    private func asPostgres(_ program: String, _ args: [String]) throws {
        if getuid() == 0 {
            if FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") {
                try run("/usr/sbin/runuser", ["-u", "postgres", "--", program] + args)
            } else {
                // su hands the arguments after `--` to the shell as $0, $1…
                try run("/bin/su", ["-s", "/bin/sh", "-c", #"exec "$0" "$@""#, "postgres", "--", program] + args)
            }
        } else {
            try run(program, args)
        }
    }

    private func run(_ program: String, _ args: [String]) throws {
        let r = try execute(program, args)
        guard r.status == 0 else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            throw ClusterError(description: "\(program) \(args.joined(separator: " ")) failed (\(r.status)):\n\(r.stdout)\(r.stderr)\n\(log.suffix(2000))")
        }
    }

    /// Runs a program to its end, its output through files so a full pipe never blocks it.
    /// posix_spawn and waitpid rather than Foundation's Process: the server `pg_ctl start`
    /// leaves running inherits the descriptor Process watches for its child's end, and Process
    /// would wait for the server to stop.
    private func execute(_ program: String, _ args: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        var env = ProcessInfo.processInfo.environment
        for k in env.keys where k.hasPrefix("PG") { env[k] = nil }
        env["LC_ALL"] = "C"
        let out = root.appendingPathComponent("out-\(UUID().uuidString)").path
        let err = root.appendingPathComponent("err-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([program] + args).map { strdup($0) } + [nil]
        let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &actions, nil, argv, envp)
        guard rc == 0 else { throw ClusterError(description: "cannot run \(program): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw ClusterError(description: "waitpid failed for \(program)") }
        }
        // WIFEXITED and WEXITSTATUS are macros: the low seven bits are a signal, the next byte the status.
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        let o = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let e = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        return (code, o, e)
    }

    // MARK: a cluster left running by a crashed test run

    nonisolated(unsafe) private static var live: [ObjectIdentifier: PostgresCluster] = [:]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var hooked = false

    /// Remembers a running cluster, so that the process's end stops it even when a class's
    /// tearDown never ran.
    private static func register(_ c: PostgresCluster) {
        lock.lock()
        defer { lock.unlock() }
        live[ObjectIdentifier(c)] = c
        if !hooked {
            hooked = true
            atexit { PostgresCluster.stopAll() }
        }
    }

    private static func unregister(_ c: PostgresCluster) {
        lock.lock()
        defer { lock.unlock() }
        live[ObjectIdentifier(c)] = nil
    }

    private static func stopAll() {
        lock.lock()
        let all = Array(live.values)
        lock.unlock()
        for c in all { c.stop() }
    }
}
