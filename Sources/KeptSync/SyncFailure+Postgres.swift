// How PostgreSQL's errors reach the engine: each as the `SyncFailure` that says what a user can
// do about it (wait, fix the login, run `kept account init`, ask for an account).

import KeptDomain

extension SyncFailure {
    /// The failure of a statement or a connection; `account` names the role, when known.
    init(_ e: PGError, account: String? = nil) {
        switch e.kind {
        case .offline: self = .offline(e.message)
        case .login: self = .login(e.message)
        case .badConninfo: self = .server("the connection string does not read: \(e.message)")
        case .server:
            switch e.sqlstate {
            case Schema.noAccountState: self = .noAccount(account ?? e.message)
            // No schema, table or function of that name: a database never initialised, or
            // made by an older Kept.
            case "3F000", "42P01", "42883": self = .schema(e.message)
            default: self = .server(e.sqlstate.map { "\(e.message) (SQLSTATE \($0))" } ?? e.message)
            }
        }
    }

    /// The schema is missing, or is not this build's.
    static func schema(found: Schema.Found) -> SyncFailure? {
        switch found {
        case .none: return .schema("the database has no Kept schema (`kept account init` makes it)")
        case .foreign: return .schema("the database has a schema named kept that Kept did not make")
        case .version(nil): return .schema("the Kept schema has no version in kept.meta")
        case .version(let v?) where v > Schema.version:
            return .schema("the database's Kept schema is version \(v); this kept knows versions up to \(Schema.version)")
        case .version(let v?) where v < Schema.version:
            return .schema("the database's Kept schema is version \(v); `kept account init` brings it to \(Schema.version)")
        case .version: return nil
        }
    }
}
