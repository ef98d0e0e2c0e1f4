// The front ends' way to a PostgreSQL server (the domain's `SyncConnector`): `kept sync`,
// `kept account` and the `sync` statements reach the server through this one value.

import KeptDomain

/// Connections, the schema and accounts on PostgreSQL.
public struct PostgresConnector: SyncConnector {
    public init() {}

    public func connect(_ server: String) -> Result<any SyncServer, SyncFailure> {
        PostgresServer.connect(server).map { $0 }
    }

    public func withoutPassword(_ server: String) -> String? {
        PGConnection.withoutPassword(server)
    }

    public func initialize(_ server: String) -> Result<SchemaReport, SyncFailure> {
        Accounts.initialize(server)
    }

    public func createAccount(_ name: String, readOnly: Bool, password: String?, server: String) -> Result<Void, SyncFailure> {
        switch Accounts.create(name: name, readOnly: readOnly, password: password, conninfo: server) {
        case .success: return .success(())
        case .failure(.failure(let f)): return .failure(f)
        case .failure(.exists(let n)): return .failure(.server("a role named \(n) exists already"))
        case .failure(.emptyPassword): return .failure(.server("the password is empty"))
        case .failure(.invalidName(let n, let why)):
            let words: String
            switch why {
            case .empty: words = "an account needs a name"
            case .tooLong(let limit): words = "'\(n)' is longer than the \(limit) bytes a role's name may have"
            case .reserved: words = "'\(n)' is a name PostgreSQL or Kept keeps for itself"
            case .nul: words = "a name cannot hold a NUL character"
            }
            return .failure(.server(words))
        }
    }

    public func listen(_ server: String) -> Result<any SyncListener, SyncFailure> {
        PostgresListener.connect(server).map { $0 }
    }
}
