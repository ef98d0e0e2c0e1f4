// Account administration on the server (docs/SYNC.md, "The server"): `kept account init` makes
// or migrates the schema, `kept account create` makes a login role and its account row. Both are
// run by a superuser, or by a role with CREATEROLE that owns the schema.

import KeptDomain

/// What `Accounts.create` made.
public struct AccountReport: Sendable, Equatable {
    public var name: String
    /// A member of `kept_reader` rather than `kept_writer`.
    public var readOnly: Bool
    /// The role was given a password (otherwise it logs in as `pg_hba.conf` allows).
    public var passwordSet: Bool

    public init(name: String, readOnly: Bool, passwordSet: Bool) {
        self.name = name
        self.readOnly = readOnly
        self.passwordSet = passwordSet
    }
}

/// Why an account was not made.
public enum AccountError: Error, Sendable, Equatable {
    /// The name cannot be a role's.
    case invalidName(String, NameProblem)
    /// A role of that name exists already (an account, a group, or a role Kept did not make).
    case exists(String)
    /// The password given is empty (PostgreSQL would take it for none, and libpq never sends one).
    case emptyPassword
    /// The server, the connection or the schema failed.
    case failure(SyncFailure)

    public enum NameProblem: Sendable, Equatable {
        case empty
        /// Longer than PostgreSQL keeps a name (it would cut it, and the role and its
        /// account row would differ).
        case tooLong(limit: Int)
        /// `pg_…`, `public`, `none` and the `kept_…` groups are PostgreSQL's or Kept's own.
        case reserved
        /// A NUL character, which no name holds.
        case nul
    }
}

/// Making the schema and the accounts.
public enum Accounts {
    /// The longest role name PostgreSQL keeps, in bytes (NAMEDATALEN - 1).
    public static let nameLimit = 63

    /// Makes the Kept schema in the database `conninfo` names, or brings it to this build's
    /// version, in one transaction; a second run finds it current. A schema newer than this
    /// build knows, or a schema `kept` that is not Kept's, is refused and left as it is.
    public static func initialize(_ conninfo: String) -> Result<SchemaReport, SyncFailure> {
        initialize(conninfo, upTo: Schema.version)
    }

    /// Makes or migrates the schema up to `target` (the tests make an older version, to
    /// migrate it).
    static func initialize(_ conninfo: String, upTo target: Int) -> Result<SchemaReport, SyncFailure> {
        let c: PGConnection
        switch PGConnection.connect(conninfo) {
        case .success(let x): c = x
        case .failure(let e): return .failure(SyncFailure(e))
        }
        defer { c.close() }
        return transaction(c, { SyncFailure($0) }) { () -> Result<SchemaReport, SyncFailure> in
            // Two inits at once: the second waits here, then finds the first one's schema.
            if case .failure(let e) = c.exec("SELECT pg_advisory_xact_lock($1::bigint)", params: [Schema.initLock]) {
                return .failure(SyncFailure(e))
            }
            // Titles are UTF-8 text; a database in another encoding would refuse some of them.
            switch c.exec("SELECT pg_catalog.pg_encoding_to_char(encoding) FROM pg_catalog.pg_database WHERE datname = current_database()") {
            case .failure(let e): return .failure(SyncFailure(e))
            case .success(let r) where r.scalar != "UTF8":
                return .failure(.schema("the database's encoding is \(r.scalar ?? "unknown"), not UTF8"))
            case .success: break
            }
            let from: Int?
            switch Schema.found(on: c) {
            case .failure(let e): return .failure(SyncFailure(e))
            case .success(.none): from = nil
            case .success(let f):
                guard case .version(let v?) = f, v <= Schema.version else {
                    return .failure(SyncFailure.schema(found: f) ?? .schema("the Kept schema does not read"))
                }
                from = v
            }
            let to = max(from ?? 0, target)
            for m in Schema.migrations where m.version > (from ?? 0) && m.version <= to {
                for sql in m.statements {
                    if case .failure(let e) = c.exec(sql) { return .failure(SyncFailure(e)) }
                }
            }
            if from != to,
               case .failure(let e) = c.exec("UPDATE kept.meta SET schema_version = $1::int", params: [String(to)]) {
                return .failure(SyncFailure(e))
            }
            return .success(SchemaReport(from: from, to: to))
        }
    }

    /// Makes the login role `name` (never a superuser, never able to create roles or databases
    /// or pass row-level security), a member of `kept_writer`, or of `kept_reader` when
    /// `readOnly`, and its row in `kept.accounts`, in one transaction. A password is sent
    /// only as the verifier libpq makes of it.
    public static func create(name: String, readOnly: Bool, password: String?, conninfo: String) -> Result<AccountReport, AccountError> {
        if let problem = nameProblem(name) { return .failure(.invalidName(name, problem)) }
        if password?.isEmpty == true { return .failure(.emptyPassword) }
        let c: PGConnection
        switch PGConnection.connect(conninfo) {
        case .success(let x): c = x
        case .failure(let e): return .failure(.failure(SyncFailure(e)))
        }
        defer { c.close() }
        switch Schema.found(on: c) {
        case .failure(let e): return .failure(.failure(SyncFailure(e)))
        case .success(let f):
            if let bad = SyncFailure.schema(found: f) { return .failure(.failure(bad)) }
        }
        var verifier: String?
        if let password {
            switch c.passwordVerifier(password, role: name) {
            case .success(let v): verifier = v
            case .failure(let e): return .failure(.failure(SyncFailure(e)))
            }
        }
        let group = readOnly ? "kept_reader" : "kept_writer"
        return transaction(c, { .failure(SyncFailure($0)) }) { () -> Result<AccountReport, AccountError> in
            func run(_ template: String, _ args: [String?]) -> AccountError? {
                if case .failure(let e) = ddl(c, template, args) { return .failure(SyncFailure(e)) }
                return nil
            }
            switch c.exec("SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user") {
            case .failure(let e): return .failure(.failure(SyncFailure(e)))
            case .success(let r):
                let superuser = r.scalar == "t"
                switch c.exec("SELECT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = $1)", params: [name]) {
                case .failure(let e): return .failure(.failure(SyncFailure(e)))
                case .success(let r) where r.scalar == "t": return .failure(.exists(name))
                case .success: break
                }
                let login = verifier == nil
                    ? "CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOREPLICATION IN ROLE %I"
                    : "CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOREPLICATION IN ROLE %I PASSWORD %L"
                if let e = run(login, [name, group] + (verifier.map { [$0] } ?? [])) { return .failure(e) }
                // The account row is inserted as the new role, because FORCE ROW LEVEL SECURITY
                // holds the schema's owner to `name = current_user` too. The role may insert
                // only for that moment, and a creator that is not a superuser is made a member
                // of it only for that moment (SET ROLE needs the membership).
                if !superuser, let e = run("GRANT %I TO %I", [name, nil]) { return .failure(e) }
                if let e = run("GRANT INSERT ON kept.accounts TO %I", [name]) { return .failure(e) }
                if let e = run("SET LOCAL ROLE %I", [name]) { return .failure(e) }
                if case .failure(let e) = c.exec("INSERT INTO kept.accounts DEFAULT VALUES") { return .failure(.failure(SyncFailure(e))) }
                if case .failure(let e) = c.exec("RESET ROLE") { return .failure(.failure(SyncFailure(e))) }
                if let e = run("REVOKE INSERT ON kept.accounts FROM %I", [name]) { return .failure(e) }
                if !superuser, let e = run("REVOKE %I FROM %I", [name, nil]) { return .failure(e) }
                return .success(AccountReport(name: name, readOnly: readOnly, passwordSet: verifier != nil))
            }
        }
    }

    /// Why `name` cannot be an account's role; nil when it can.
    public static func nameProblem(_ name: String) -> AccountError.NameProblem? {
        if name.isEmpty { return .empty }
        if name.utf8.contains(0) { return .nul }
        if name.utf8.count > nameLimit { return .tooLong(limit: nameLimit) }
        let lower = name.lowercased()
        if lower.hasPrefix("pg_") || ["public", "none", "kept_writer", "kept_reader"].contains(lower) { return .reserved }
        return nil
    }

    /// Runs one statement of data definition whose names and literals PostgreSQL quotes itself:
    /// `format` puts each argument in as `%I` (an identifier) or `%L` (a literal), so a name is
    /// never spliced by Kept. A nil argument stands for `current_user`.
    static func ddl(_ c: PGConnection, _ template: String, _ args: [String?]) -> Result<PGRows, PGError> {
        var params: [String?] = [template]
        var slots: [String] = []
        for a in args {
            if let a {
                params.append(a)
                slots.append("$\(params.count)::text")
            } else {
                slots.append("current_user::text")
            }
        }
        let sql = "SELECT pg_catalog.format($1::text" + slots.map { ", " + $0 }.joined() + ")"
        switch c.exec(sql, params: params) {
        case .failure(let e): return .failure(e)
        case .success(let r):
            guard let statement = r.scalar else { return .failure(PGError(kind: .server, sqlstate: nil, message: "format gave no statement")) }
            return c.exec(statement)
        }
    }

    /// Runs `body` between BEGIN and COMMIT; a failure rolls back, and so does a failed COMMIT.
    static func transaction<T, E: Error>(_ c: PGConnection, _ wrap: (PGError) -> E, _ body: () -> Result<T, E>) -> Result<T, E> {
        if case .failure(let e) = c.exec("BEGIN") { return .failure(wrap(e)) }
        let r = body()
        switch r {
        case .success:
            if case .failure(let e) = c.exec("COMMIT") { return .failure(wrap(e)) }
        case .failure:
            _ = c.exec("ROLLBACK")
        }
        return r
    }
}
