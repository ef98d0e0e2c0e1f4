// A connector for the language's tests: one MemoryServer per connection string (without its
// password), so sessions linked to the same string share an account. It reads key=value
// strings and postgresql:// URIs as far as the tests write them, takes a password out as libpq
// would keep it out of a store, and remembers every string it was given to connect with.

import XCTest
@testable import KeptRules
@testable import KeptDomain

final class MemoryConnector: SyncConnector, @unchecked Sendable {
    /// The servers by connection string without password.
    var servers: [String: MemoryServer] = [:]
    /// Strings a connection was asked for, as given (a test checks none was kept).
    var asked: [String] = []
    /// A server that takes the connection, then goes away before the first push.
    var dropAfterConnect = false
    /// What `createAccount` made: name, read-only, password.
    var created: [(name: String, readOnly: Bool, password: String?)] = []
    var initialized: [String] = []

    /// The server behind a string, made on first use.
    func server(_ conninfo: String) -> MemoryServer {
        let key = withoutPassword(conninfo) ?? conninfo
        if let s = servers[key] { return s }
        let s = MemoryServer()
        servers[key] = s
        return s
    }

    func connect(_ server: String) -> Result<any SyncServer, SyncFailure> {
        asked.append(server)
        guard withoutPassword(server) != nil else { return .failure(.login("the connection string does not read")) }
        let s = self.server(server)
        if s.offline { return .failure(.offline("connection refused")) }
        if dropAfterConnect { s.offline = true }
        return .success(s)
    }

    /// `key=value` pairs (the value quoted with '…' when it has spaces) or a URI; nil for
    /// anything else. The password goes: `password=…`, or `:secret@` in a URI.
    func withoutPassword(_ server: String) -> String? {
        if server.hasPrefix("postgresql://") || server.hasPrefix("postgres://") {
            guard let scheme = server.range(of: "://") else { return nil }
            var rest = String(server[scheme.upperBound...])
            if let at = rest.firstIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                rest.removeSubrange(colon..<at)
            }
            return String(server[..<scheme.upperBound]) + rest
        }
        var kept: [String] = []
        for part in server.split(separator: " ") {
            guard let eq = part.firstIndex(of: "="), eq != part.startIndex else { return nil }
            if part[..<eq] == "password" { continue }
            kept.append(String(part))
        }
        return kept.joined(separator: " ")
    }

    func initialize(_ server: String) -> Result<SchemaReport, SyncFailure> {
        if self.server(server).offline { return .failure(.offline("connection refused")) }
        initialized.append(server)
        return .success(SchemaReport(from: nil, to: 1))
    }

    func createAccount(_ name: String, readOnly: Bool, password: String?, server: String) -> Result<Void, SyncFailure> {
        if self.server(server).offline { return .failure(.offline("connection refused")) }
        created.append((name, readOnly, password))
        return .success(())
    }

    func listen(_ server: String) -> Result<any SyncListener, SyncFailure> {
        let s = self.server(server)
        if s.offline { return .failure(.offline("connection refused")) }
        return .success(MemoryListener(server: s))
    }
}

/// Hears a MemoryServer: a change is a version later than the last one it reported.
final class MemoryListener: SyncListener {
    let server: MemoryServer
    var seen: Int64

    init(server: MemoryServer) {
        self.server = server
        self.seen = server.latest
    }

    func wait(timeout: Double) -> Result<Bool, SyncFailure> {
        if server.offline { return .failure(.offline("connection refused")) }
        guard server.latest != seen else { return .success(false) }
        seen = server.latest
        return .success(true)
    }

    func close() {}
}
