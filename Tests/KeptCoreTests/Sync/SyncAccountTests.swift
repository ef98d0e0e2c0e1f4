// The server's schema and accounts: init made once and found current after, a newer or foreign
// schema refused, accounts made as login roles with an account row, and row-level security
// keeping one account's rows from another, through Kept and through psql itself.
// covers: R-SYNC-10, R-SYNC-11

import Foundation
import XCTest
import KeptRules
import KeptDomain
import KeptSync

final class SyncAccountTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start { c in
            let first = Accounts.initialize(c.conninfo(user: "postgres"))
            guard case .success(let r) = first, r.from == nil, r.to == 2 else { throw ClusterError(description: "init: \(first)") }
            for (name, ro) in [("alice", false), ("bob", false), ("rita", true)] {
                let made = Accounts.create(name: name, readOnly: ro, password: nil, conninfo: c.conninfo(user: "postgres"))
                guard case .success = made else { throw ClusterError(description: "create \(name): \(made)") }
            }
        }
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    // MARK: init

    func testInitIsIdempotent() throws {
        let c = try Self.slot.require()
        let again = try ok(Accounts.initialize(c.conninfo(user: "postgres")))
        XCTAssertEqual(again, SchemaReport(from: 2, to: 2))
        XCTAssertTrue(again.alreadyCurrent)
        XCTAssertEqual(try c.superuserSQL("SELECT schema_version, max_field_bytes FROM kept.meta"), "2|65536\n")
        // Every account table holds its rows to the role's own, the owner too.
        let rls = try c.superuserSQL("""
            SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class
            WHERE relnamespace = 'kept'::regnamespace AND relkind = 'r' ORDER BY relname
            """)
        XCTAssertEqual(rls, "accounts|t|t\nitems|t|t\nmeta|f|f\npushes|t|t\n")
        XCTAssertEqual(try c.superuserSQL("SELECT count(*) FROM pg_roles WHERE rolname LIKE 'kept%' AND rolbypassrls"), "0\n")
    }

    func testInitRefusesANewerSchema() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("UPDATE kept.meta SET schema_version = 3")
        defer { _ = try? c.superuserSQL("UPDATE kept.meta SET schema_version = 2") }
        guard case .schema(let words) = try failure(Accounts.initialize(c.conninfo(user: "postgres"))) else { return XCTFail("not a schema failure") }
        XCTAssertTrue(words.contains("version 3"), words)
        XCTAssertEqual(try c.superuserSQL("SELECT schema_version FROM kept.meta"), "3\n", "a refused init changes nothing")
        guard case .schema = try failure(PostgresServer.connect(c.conninfo(user: "alice"))) else { return XCTFail("connect took a newer schema") }
        guard case .failure(.schema) = try failure(Accounts.create(name: "newer", readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres"))) else {
            return XCTFail("create took a newer schema")
        }
    }

    func testInitRefusesASchemaItDidNotMake() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE DATABASE other")
        try c.superuserSQL("CREATE SCHEMA kept", database: "other")
        try c.superuserSQL("CREATE TABLE kept.mine (x int)", database: "other")
        guard case .schema(let words) = try failure(Accounts.initialize(c.conninfo(user: "postgres", database: "other"))) else {
            return XCTFail("init used a foreign schema")
        }
        XCTAssertTrue(words.contains("did not make"), words)
        // An empty schema of that name is taken.
        try c.superuserSQL("CREATE DATABASE third")
        try c.superuserSQL("CREATE SCHEMA kept", database: "third")
        XCTAssertEqual(try ok(Accounts.initialize(c.conninfo(user: "postgres", database: "third"))), SchemaReport(from: nil, to: 2))
    }

    func testTwoInitsAtOnceMakeOneSchema() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE DATABASE twice")
        let info = c.conninfo(user: "postgres", database: "twice")
        nonisolated(unsafe) var reports: [Result<SchemaReport, SyncFailure>?] = [nil, nil]
        DispatchQueue.concurrentPerform(iterations: 2) { k in reports[k] = Accounts.initialize(info) }
        let got = reports.compactMap { r -> SchemaReport? in if case .success(let x)? = r { return x }; return nil }
        XCTAssertEqual(got.count, 2, "\(reports)")
        XCTAssertEqual(Set(got.map(\.from)), [nil, 2])
    }

    // MARK: create

    func testCreateMakesALoginRoleAndItsAccount() throws {
        let c = try Self.slot.require()
        let made = try ok(Accounts.create(name: "carol", readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres")))
        XCTAssertEqual(made, AccountReport(name: "carol", readOnly: false, passwordSet: false))
        let role = try c.superuserSQL("""
            SELECT rolcanlogin, rolsuper, rolcreatedb, rolcreaterole, rolbypassrls,
                   pg_has_role('carol', 'kept_writer', 'MEMBER'), pg_has_role('carol', 'kept_reader', 'MEMBER')
            FROM pg_roles WHERE rolname = 'carol'
            """)
        XCTAssertEqual(role, "t|f|f|f|f|t|f\n")
        XCTAssertEqual(try c.superuserSQL("SELECT name, version FROM kept.accounts WHERE name = 'carol'"), "carol|0\n")
        // The moment's grants are gone: the account may not insert account rows.
        XCTAssertEqual(try c.superuserSQL("SELECT has_table_privilege('carol', 'kept.accounts', 'INSERT')"), "f\n")
        let server = try ok(PostgresServer.connect(c.conninfo(user: "carol")))
        XCTAssertEqual(server.account, "carol")
        XCTAssertEqual(try ok(server.version()), 0)

        XCTAssertEqual(try failure(Accounts.create(name: "carol", readOnly: true, password: nil, conninfo: c.conninfo(user: "postgres"))), .exists("carol"))
        XCTAssertEqual(try failure(Accounts.create(name: "kept_writer", readOnly: true, password: nil, conninfo: c.conninfo(user: "postgres"))),
                       .invalidName("kept_writer", .reserved))
    }

    func testAReadOnlyAccountIsAReader() throws {
        let c = try Self.slot.require()
        XCTAssertEqual(try c.superuserSQL("SELECT pg_has_role('rita', 'kept_reader', 'MEMBER'), pg_has_role('rita', 'kept_writer', 'MEMBER')"), "t|f\n")
        XCTAssertEqual(try c.superuserSQL("SELECT has_table_privilege('rita', 'kept.items', 'INSERT'), has_table_privilege('rita', 'kept.pushes', 'INSERT')"), "f|f\n")
    }

    func testNamesAreQuotedNeverSpliced() throws {
        let c = try Self.slot.require()
        let odd = #"we"ird 'name'; DROP TABLE kept.items; --"#
        XCTAssertLessThanOrEqual(odd.utf8.count, Accounts.nameLimit)
        _ = try ok(Accounts.create(name: odd, readOnly: false, password: nil, conninfo: c.conninfo(user: "postgres")))
        XCTAssertEqual(try c.superuserSQL("SELECT count(*) FROM kept.items WHERE false"), "0\n", "kept.items is still there")
        let server = try ok(PostgresServer.connect(c.conninfo(quotedUser: odd)))
        XCTAssertEqual(server.account, odd)
        let r = try ok(server.push([change(.task, "t1", [("title", "x")], id: "odd-1", at: stamp(1))]))
        XCTAssertEqual(r.map(\.outcome), [.applied])
    }

    func testBadNamesAreRefusedBeforeTheServer() {
        let info = "host=/nonexistent port=1 dbname=kept user=postgres"
        XCTAssertEqual(Accounts.create(name: "", readOnly: false, password: nil, conninfo: info).failureValue, .invalidName("", .empty))
        XCTAssertEqual(Accounts.create(name: "pg_sneaky", readOnly: false, password: nil, conninfo: info).failureValue, .invalidName("pg_sneaky", .reserved))
        let long = String(repeating: "é", count: 32)
        XCTAssertEqual(Accounts.create(name: long, readOnly: false, password: nil, conninfo: info).failureValue, .invalidName(long, .tooLong(limit: 63)))
        XCTAssertEqual(Accounts.create(name: "a\u{0}b", readOnly: false, password: nil, conninfo: info).failureValue, .invalidName("a\u{0}b", .nul))
        XCTAssertEqual(Accounts.create(name: "ok", readOnly: false, password: "", conninfo: info).failureValue, .emptyPassword)
    }

    func testAPasswordLogsIn() throws {
        let c = try Self.slot.require()
        let secret = #"s3cr'et\pw"#
        let made = try ok(Accounts.create(name: "dora", readOnly: false, password: secret, conninfo: c.conninfo(user: "postgres")))
        XCTAssertTrue(made.passwordSet)
        try c.superuserSQL("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'kept_pw') THEN CREATE ROLE kept_pw; END IF; END $$")
        try c.superuserSQL("GRANT kept_pw TO dora")
        // The server keeps a SCRAM verifier, not the password.
        let stored = try c.superuserSQL("SELECT rolpassword FROM pg_authid WHERE rolname = 'dora'")
        XCTAssertTrue(stored.hasPrefix("SCRAM-SHA-256$"), stored)
        XCTAssertFalse(stored.contains(secret))

        let base = c.conninfo(user: "dora")
        let server = try ok(PostgresServer.connect(base + " password=" + #"'s3cr\'et\\pw'"#))
        XCTAssertEqual(server.account, "dora")

        let wrong = "hunter2-wrong"
        let refused = try failure(PostgresServer.connect(base + " password=" + wrong))
        guard case .login(let words) = refused else { return XCTFail("a wrong password is not a login failure: \(refused)") }
        XCTAssertFalse("\(refused)".contains(wrong), words)
        guard case .login = try failure(PostgresServer.connect(base)) else { return XCTFail("no password is not a login failure") }
    }

    func testARoleWithCreateRoleThatOwnsTheSchemaRunsInitAndCreate() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE ROLE keeper LOGIN CREATEROLE")
        try c.superuserSQL("CREATE DATABASE owned OWNER keeper")
        let admin = c.conninfo(user: "keeper", database: "owned")
        XCTAssertEqual(try ok(Accounts.initialize(admin)), SchemaReport(from: nil, to: 2))
        _ = try ok(Accounts.create(name: "olga", readOnly: false, password: nil, conninfo: admin))
        XCTAssertEqual(try c.superuserSQL("SELECT name FROM kept.accounts", database: "owned"), "olga\n")
        // The membership that let keeper insert as olga lasted only the transaction.
        XCTAssertEqual(try c.superuserSQL("SELECT pg_has_role('keeper', 'olga', 'MEMBER')"), "f\n")
        let olga = try ok(PostgresServer.connect(c.conninfo(user: "olga", database: "owned")))
        XCTAssertEqual(try ok(olga.push([change(.task, "k", [("title", "x")], at: stamp(1))])).map(\.outcome), [.applied])
        // The owner is held to the policies too: it sees no account's items.
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.items", user: "keeper", database: "owned").stdout, "0\n")
    }

    // MARK: accounts that are not

    func testARoleWithoutAnAccountIsNoAccount() throws {
        let c = try Self.slot.require()
        try c.superuserSQL("CREATE ROLE eve LOGIN")
        XCTAssertEqual(try failure(PostgresServer.connect(c.conninfo(user: "eve"))), .noAccount("eve"))
        // A writer whose account row is gone.
        try c.superuserSQL("CREATE ROLE fred LOGIN IN ROLE kept_writer")
        XCTAssertEqual(try failure(PostgresServer.connect(c.conninfo(user: "fred"))), .noAccount("fred"))
        // And if it calls push anyway, the server names the missing account.
        let pg = try ok(PGConnection.connect(c.conninfo(user: "fred")))
        let e = try failure(pg.exec("SELECT kept.push('[]')"))
        XCTAssertEqual(e.sqlstate, "KA001")
    }

    // MARK: row-level security

    func testAnAccountSeesAndChangesOnlyItsOwnItems() throws {
        let c = try Self.slot.require()
        let alice = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        let bob = try ok(PostgresServer.connect(c.conninfo(user: "bob")))
        _ = try ok(alice.push([change(.task, "rls-1", [("title", "alice's")], at: stamp(1))]))
        XCTAssertNotNil(try alice.item(.task, "rls-1"))
        XCTAssertNil(try bob.item(.task, "rls-1"))
        // Bob's item of the same key is his own; alice's stays hers.
        _ = try ok(bob.push([change(.task, "rls-1", [("title", "bob's")], at: stamp(9))]))
        XCTAssertEqual(try alice.item(.task, "rls-1")?.field("title"), "alice's")
        XCTAssertEqual(try bob.item(.task, "rls-1")?.field("title"), "bob's")

        // Through psql as bob, past Kept's functions.
        let before = try c.superuserSQL("SELECT fields::text, version FROM kept.items WHERE account = 'alice' AND key = 'rls-1'")
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.items WHERE account = 'alice'", user: "bob").stdout, "0\n")
        XCTAssertEqual(c.psql("SELECT name FROM kept.accounts ORDER BY name", user: "bob").stdout, "bob\n")
        XCTAssertEqual(c.psql("SELECT count(*) FROM kept.pushes WHERE account <> 'bob'", user: "bob").stdout, "0\n")
        let update = c.psql("UPDATE kept.items SET fields = '{}' WHERE account = 'alice'", user: "bob")
        XCTAssertEqual(update.status, 0, update.stderr)
        let counted = c.psql("WITH u AS (UPDATE kept.items SET fields = '{}' WHERE account = 'alice' RETURNING 1) SELECT count(*) FROM u", user: "bob")
        XCTAssertEqual(counted.stdout, "0\n", counted.stderr)
        let accountUpdate = c.psql("WITH u AS (UPDATE kept.accounts SET version = 0 WHERE name = 'alice' RETURNING 1) SELECT count(*) FROM u", user: "bob")
        XCTAssertEqual(accountUpdate.stdout, "0\n", accountUpdate.stderr)
        // No account may delete (the grants give none), and none of alice's rows would be seen.
        let delete = c.psql("DELETE FROM kept.items WHERE account = 'alice'", user: "bob")
        XCTAssertNotEqual(delete.status, 0)
        XCTAssertTrue(delete.stderr.contains("permission denied"), delete.stderr)
        let insert = c.psql("INSERT INTO kept.items (account, kind, key, version) VALUES ('alice', 'task', 'planted', 999999)", user: "bob")
        XCTAssertNotEqual(insert.status, 0)
        XCTAssertTrue(insert.stderr.contains("row-level security"), insert.stderr)
        let steal = c.psql("UPDATE kept.items SET account = 'alice' WHERE account = 'bob'", user: "bob")
        XCTAssertNotEqual(steal.status, 0, "moving a row to another account is refused")
        XCTAssertEqual(try c.superuserSQL("SELECT fields::text, version FROM kept.items WHERE account = 'alice' AND key = 'rls-1'"), before)
        XCTAssertEqual(try c.superuserSQL("SELECT count(*) FROM kept.items WHERE key = 'planted'"), "0\n")
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
