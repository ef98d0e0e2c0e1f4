// The connection to the server: a server gone is "offline" and one back is used again, a wrong
// or malformed connection string fails without ever showing its password, and a link keeps a
// connection string with the password taken out.
// covers: R-SYNC-6, R-SYNC-9

import Foundation
import XCTest
import KeptRules
import KeptDomain
import KeptSync

final class SyncConnectionTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start { c in
            guard case .success = Accounts.initialize(c.conninfo(user: "postgres")) else { throw ClusterError(description: "init failed") }
            let made = Accounts.create(name: "alice", readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres"))
            guard case .success = made else { throw ClusterError(description: "create alice: \(made)") }
        }
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    func testAStoppedServerIsOfflineAndARestartedOneWorks() throws {
        let c = try Self.slot.require()
        let s = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        _ = try ok(s.push([change(.task, "off1", [("title", "before")], at: stamp(1))]))
        c.stopNow()
        var restarted = false
        defer { if !restarted { _ = try? c.restart() } }

        let pushed = try failure(s.push([change(.task, "off2", [("title", "while down")], at: stamp(2))]))
        guard case .offline = pushed else { return XCTFail("push: \(pushed)") }
        guard case .offline = try failure(s.pull(after: 0, limit: 10)) else { return XCTFail("pull") }
        guard case .offline = try failure(s.version()) else { return XCTFail("version") }
        guard case .offline = try failure(PostgresServer.connect(c.conninfo(user: "alice"))) else { return XCTFail("connect") }
        guard case .offline = try failure(Accounts.initialize(c.conninfo(user: "postgres"))) else { return XCTFail("init") }

        try c.restart()
        restarted = true
        // The same server object connects again on its next call.
        let r = try ok(s.push([change(.task, "off2", [("title", "after")], at: stamp(3))]))
        XCTAssertEqual(r.map(\.outcome), [.applied])
        XCTAssertEqual(try s.all().map(\.key.id).sorted(), ["off1", "off2"])
    }

    func testAServerShutDownUnderAnOpenConnectionIsOffline() throws {
        let c = try Self.slot.require()
        let s = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        // An administrator ends the connection (SQLSTATE 57P01 on the next call).
        try c.superuserSQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'alice'")
        guard case .offline = try failure(s.version()) else { return XCTFail("a terminated connection is not offline") }
        XCTAssertNoThrow(try ok(s.version()))
    }

    func testNoPasswordAppearsInAnError() throws {
        let c = try Self.slot.require()
        let secret = "hunter2SECRET"
        let encoded = "hunter2%53ECRET"
        let infos = [
            // Malformed: libpq's words may quote the string.
            "postgresql://alice:\(secret)@[::1/kept",
            "postgresql://alice:\(encoded)@[::1/kept",
            "postgresql://alice@localhost/kept?password=\(secret)&bogus=%zz",
            "host=\(c.socketDir) password=\(secret) bogus",
            "host=\(c.socketDir) password='\(secret)",
            "host=\(c.socketDir) password=\(secret) nosuchoption=1",
            "host=\(c.socketDir) password = '\(secret)' sslmode=nonsense",
            // Well-formed, but nothing answers or the database is not there.
            "host=\(c.socketDir) port=1 dbname=kept user=alice password=\(secret)",
            "host=\(c.socketDir) port=\(c.port) dbname=nosuchdb user=alice password=\(secret)",
            "postgresql://alice:\(secret)@%2Fnonexistent/kept",
        ]
        for info in infos {
            var texts: [String] = []
            texts.append("\(try failure(PostgresServer.connect(info)))")
            texts.append("\(try failure(Accounts.initialize(info)))")
            texts.append("\(try failure(Accounts.create(name: "zed", readOnly: false, password: nil, conninfo: info)))")
            if case .failure(let e) = PGConnection.connect(info) { texts.append(e.message) }
            for t in texts {
                XCTAssertFalse(t.contains(secret) || t.contains(encoded), "\(info) → \(t)")
            }
        }
    }

    func testAMalformedConnectionStringIsNotOffline() throws {
        let e = try failure(PGConnection.connect("host=/tmp bogus"))
        XCTAssertEqual(e.kind, .badConninfo)
        XCTAssertEqual(try failure(PGConnection.connect("kept\u{0}host=elsewhere")).kind, .badConninfo)
        guard case .server = try failure(PostgresServer.connect("host=/tmp bogus")) else { return XCTFail() }
    }

    func testAQuietServerIsOfflineAfterTheTimeout() throws {
        // A listening socket that never answers: the connection waits, then gives up.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-quiet-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent(".s.PGSQL.5999").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (k, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[k] = b }
        }
        let bound = withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(fd, 4), 0)
        let start = Date()
        let e = try failure(PGConnection.connect("host=\(dir.path) port=5999 dbname=kept user=alice connect_timeout=2"))
        XCTAssertEqual(e.kind, .offline)
        let took = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(took, 1.5)
        XCTAssertLessThan(took, 10)
    }

    func testWithoutPassword() throws {
        XCTAssertEqual(PGConnection.withoutPassword("host=/run/pg port=5432 user=ann password=secret dbname='my db'"),
                       "user='ann' dbname='my db' host='/run/pg' port='5432'")
        XCTAssertEqual(PGConnection.withoutPassword("postgresql://ann:s%40cret@db.example:5433/kept?sslmode=require"),
                       "user='ann' dbname='kept' host='db.example' port='5433' sslmode='require'")
        XCTAssertEqual(PGConnection.withoutPassword(#"user='o\'brien' dbname='back\\slash' password='x'"#),
                       #"user='o\'brien' dbname='back\\slash'"#)
        XCTAssertEqual(PGConnection.withoutPassword("kept"), "dbname='kept'")
        XCTAssertEqual(PGConnection.withoutPassword(""), "")
        XCTAssertNil(PGConnection.withoutPassword("host=x bogus"))
        XCTAssertNil(PGConnection.withoutPassword("nosuchoption=1"))
        XCTAssertNil(PGConnection.withoutPassword("postgresql://a:b@[::1/kept"))
    }

    func testAStringWithoutItsPasswordConnectsTheSame() throws {
        let c = try Self.slot.require()
        let bare = try XCTUnwrap(PGConnection.withoutPassword(c.conninfo(user: "alice") + " password=unused"))
        let s = try ok(PostgresServer.connect(bare))
        XCTAssertEqual(s.account, "alice")
    }

    func testANULNeverReachesLibpq() throws {
        let c = try Self.slot.require()
        let pg = try ok(PGConnection.connect(c.conninfo(user: "alice")))
        let e = try failure(pg.exec("SELECT $1::text", params: ["a\u{0}b"]))
        XCTAssertEqual(e.sqlstate, "22021")
        XCTAssertEqual(try ok(pg.exec("SELECT $1::text, $2::text IS NULL", params: ["a'b", nil])).rows, [["a'b", "t"]])
    }
}
