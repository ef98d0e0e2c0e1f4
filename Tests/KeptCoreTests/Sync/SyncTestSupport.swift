// What the sync tests share: one cluster per test class (started in the class's setUp, stopped
// in its tearDown whatever the tests did), stamps, changes, and results unwrapped into failures.

import Foundation
import XCTest
import KeptRules
import KeptDomain
import KeptSync

/// The cluster of one test class. A class whose cluster did not start fails every test with
/// the reason (PostgreSQL missing: run `make deps`).
final class ClusterSlot: @unchecked Sendable {
    private(set) var cluster: PostgresCluster?
    private var failure: String?

    /// Starts the cluster, runs `prepare` on it, and keeps the first error.
    func start(_ prepare: (PostgresCluster) throws -> Void = { _ in }) {
        do {
            let c = try PostgresCluster.start()
            cluster = c
            try prepare(c)
        } catch {
            failure = "\(error)"
        }
    }

    /// Starts the cluster with the Kept schema and these accounts (writers, no password).
    func start(accounts: [String]) {
        start { c in
            let admin = c.conninfo(user: "postgres")
            guard case .success = Accounts.initialize(admin) else { throw ClusterError(description: "init failed") }
            for a in accounts {
                guard case .success = Accounts.create(name: a, readOnly: false, password: nil, conninfo: admin) else {
                    throw ClusterError(description: "create \(a) failed")
                }
            }
        }
    }

    func stop() {
        cluster?.stop()
        cluster = nil
    }

    /// The running cluster, or a failed test.
    func require(file: StaticString = #filePath, line: UInt = #line) throws -> PostgresCluster {
        if let failure {
            XCTFail(failure, file: file, line: line)
            throw ClusterError(description: failure)
        }
        guard let c = cluster else {
            XCTFail("the test cluster is not running", file: file, line: line)
            throw ClusterError(description: "no cluster")
        }
        return c
    }
}

/// A stamp `ms` milliseconds after a fixed moment, of device `node`.
func stamp(_ ms: Int64, _ node: String = "aaaa", counter: Int = 0) -> HLC {
    HLC(millis: 1_780_000_000_000 + ms, counter: counter, node: node)
}

/// A change of `fields`, every one stamped `at`.
func change(_ kind: SyncKind, _ key: String, _ fields: [(String, JSONValue)] = [], id: String = UUID().uuidString,
            at: HLC? = nil, deleted: HLC? = nil, restored: HLC? = nil, label: String = "") -> OutgoingChange {
    var clocks: [String: HLC] = [:]
    if let at { for (k, _) in fields { clocks[k] = at } }
    return OutgoingChange(changeID: id, key: SyncKey(kind, key), values: JSONObject(fields), clocks: clocks,
                          deleted: deleted, restored: restored, label: label)
}

/// The success of `r`, or a failed test that says what failed.
func ok<T, E: Error>(_ r: Result<T, E>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
    switch r {
    case .success(let v): return v
    case .failure(let e):
        XCTFail("expected success, got \(e)", file: file, line: line)
        throw e
    }
}

/// The failure of `r`, or a failed test.
func failure<T, E: Error>(_ r: Result<T, E>, file: StaticString = #filePath, line: UInt = #line) throws -> E {
    switch r {
    case .success(let v):
        XCTFail("expected a failure, got \(v)", file: file, line: line)
        throw ClusterError(description: "unexpected success")
    case .failure(let e): return e
    }
}

extension PulledItem {
    /// A field's value (nil when the item has no such field).
    func field(_ name: String) -> JSONValue? { fields[name] }
}

extension PostgresServer {
    /// Every item of the account after `version`, pulled in one call.
    func all(after version: Int64 = 0) throws -> [PulledItem] { try ok(pull(after: version, limit: 100_000)) }

    /// The account's item `key`, as a pull returns it.
    func item(_ kind: SyncKind, _ key: String) throws -> PulledItem? {
        try all().first { $0.key == SyncKey(kind, key) }
    }
}
