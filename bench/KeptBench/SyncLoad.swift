// `kept-bench sync-load`: many accounts on one PostgreSQL server (issue 31), with
// bench/sync_load.sh making the server. Two steps, each one JSON line of figures on stdout:
//
//   kept-bench sync-load seed SUPER BASE ACCOUNTS TASKS [NOTIFY]
//     SUPER is a superuser's connection string, BASE the server's without a user (each account
//     logs in as BASE plus `user=NAME`). Initialises the schema, then makes the accounts
//     load0000… and their tasks. The first account goes through Kept's own paths:
//     `Accounts.create`, and a store of TASKS tasks linked to it and pushed (one push). The
//     others are made by SQL as the superuser, as that account's copy: each a login role with
//     the same attributes and membership, an account row at the same version, and the same
//     rows in `kept.items` and `kept.pushes`, with each task's uid made the account's own.
//     Then checks that a copy is what Kept made: the roles' attributes and privileges equal,
//     and one account pulled through PostgresServer into a new store holds the template's
//     tasks, field for field. NOTIFY (`in-push`, `none`, `after`: NotifyMode) may move the
//     schema's notification out of the push, on this throwaway server, to measure its cost.
//
//   kept-bench sync-load run BASE CLIENTS SECONDS FIRST [SEED [SUPER [NOTIFY]]]
//     CLIENTS concurrent clients, each a thread with its own connection and its own Engine on
//     an in-memory store, on the accounts from number FIRST on: the first half of the clients
//     alone on an account each, the rest in pairs (two devices of one account; an odd one out
//     alone). Each client pulls its account, then, all together, for SECONDS makes random
//     changes (add; edit the title, priority or due; complete; delete) and syncs after each
//     one, timing each sync (push and pull). Afterwards every client syncs twice more, and
//     each account is read from the server (`kept.pull` from 0): every client's store must
//     hold exactly the server's live tasks, field for field, and every field a client set
//     (its last value and stamp) must be on the server, or a later stamp from the other
//     device, or refused and kept for review. Exit 1 otherwise.
//
// With SUPER (a superuser's connection string) a run also samples, ten times a second, what the
// clients' backends wait for (pg_stat_activity) and which of them another account's backend
// blocks (pg_blocking_pids), reads the WAL written (pg_current_wal_lsn) and, with the server's
// track_functions on, the mean time of a call of each of Kept's functions.
//
// Server CPU is read from /proc: the postmaster's utime and stime, those of every process it
// forked (backends, the writer, autovacuum…), and cutime/cstime for those that exited and
// were reaped, before and after the timed part.

import Foundation
import KeptRules
import KeptDomain
import KeptStore
import KeptSync

// MARK: - entry

func syncLoadMain(_ args: [String]) {
    let usage = "usage: kept-bench sync-load seed SUPER BASE ACCOUNTS TASKS [NOTIFY] | kept-bench sync-load run BASE CLIENTS SECONDS FIRST [SEED [SUPER [NOTIFY]]]"
        + " (NOTIFY: in-push, none or after)"
    guard args.count >= 3 else { fail(usage) }
    switch args[2] {
    case "seed":
        guard args.count >= 7, let accounts = Int(args[5]), let tasks = Int(args[6]), accounts >= 2, accounts <= 10_000, tasks > 0 else {
            fail(usage)
        }
        guard let notify = NotifyMode(rawValue: args.count >= 8 ? args[7] : "in-push") else { fail(usage) }
        loadSeed(superConn: args[3], base: args[4], accounts: accounts, tasks: tasks, notify: notify)
    case "run":
        guard args.count >= 7, let clients = Int(args[4]), let seconds = Double(args[5]), let first = Int(args[6]),
              clients > 0, seconds > 0, first >= 0 else { fail(usage) }
        let seed = args.count >= 8 ? UInt64(args[7]) ?? 31 : 31
        guard let notify = NotifyMode(rawValue: args.count >= 10 ? args[9] : "in-push") else { fail(usage) }
        let ok = loadRun(base: args[3], clients: clients, seconds: seconds, first: first, seed: seed,
                         superConn: args.count >= 9 ? args[8] : nil, notify: notify)
        if !ok { exit(1) }
    default:
        fail(usage)
    }
}

/// The name of account number `k`.
func loadAccount(_ k: Int) -> String { "load" + String(format: "%04d", k) }

/// The connection string of an account: the server's, then its user (a later keyword wins).
func loadConn(_ base: String, _ account: String) -> String { base + " user=" + account }

func pgExec(_ c: PGConnection, _ sql: String, _ params: [String?] = []) -> PGRows {
    switch c.exec(sql, params: params) {
    case .success(let r): return r
    case .failure(let e): fail("SQL failed (\(e.sqlstate ?? "-")): \(e.message)\n  in: \(sql.prefix(200))")
    }
}

/// Seconds with three decimals, and seconds as milliseconds with `digits` decimals.
func secondsText(_ x: Double) -> String { String(format: "%.3f", x) }
func millisecondsText(_ x: Double, digits: Int = 2) -> String { String(format: "%.\(digits)f", x * 1000) }

/// A field map without its nulls, each value as compact JSON text: the server keeps an
/// emptied field as null, a store has no such field.
func normalised(_ fields: [String: JSONValue]) -> [String: String] {
    var out: [String: String] = [:]
    for (k, v) in fields where !v.isNull { out[k] = JSONWriter.compact(v) }
    return out
}

func taskFields(_ e: Engine, _ t: KeptRules.Task) -> [String: JSONValue] {
    SyncFields.fields(.task(t), uidOf: { [store = e.store] in store.task($0)?.uid })
}

/// A small seeded generator (SplitMix64): each client's choices are the same from run to run.
struct LoadRandom {
    var state: UInt64
    mutating func next(_ n: Int) -> Int {
        guard n > 0 else { return 0 }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(n))
    }
}

// MARK: - where a push notifies

/// Where a push's notification is sent: as the schema makes it, or, as an experiment on the
/// throwaway server (never Kept's own schema), not at all or after the push. PostgreSQL holds
/// a notifying transaction's commit under one lock for the whole cluster until its commit
/// record is on disk, so that notifications are queued in commit order
/// (docs/SYNC.md, "At scale").
enum NotifyMode: String {
    /// `kept.push` notifies in its own transaction, as schema version 2 makes it.
    case inPush = "in-push"
    /// `kept.push` made again without its `pg_notify`: a push without live changes.
    case none
    /// `kept.push` without it, and the client calls `kept_bench.notify()` after each push
    /// that changed something: a transaction of its own, whose commit does not wait for the
    /// disk (a notification does not outlive a crash anyway).
    case after

    /// The text `kept.push` notifies with (Schema.swift, version 2).
    static let notifyStatement = "PERFORM pg_notify(v_channel, v_version::text);"

    /// Makes the server's push as this mode wants it; false when the push notifies nothing to
    /// begin with (schema version 1).
    func prepare(_ sup: PGConnection) -> Bool {
        let definition = "SELECT pg_catalog.pg_get_functiondef('kept.push(jsonb)'::regprocedure)"
        guard (pgExec(sup, definition).scalar ?? "").contains("pg_notify(") else { return false }
        if self == .inPush { return true }
        // CREATE OR REPLACE keeps the function's owner and grants.
        _ = pgExec(sup, "SELECT set_config('kept_load.notify', $1, false)", [Self.notifyStatement])
        _ = pgExec(sup, """
            DO $strip$
            BEGIN
              EXECUTE replace(pg_catalog.pg_get_functiondef('kept.push(jsonb)'::regprocedure),
                              current_setting('kept_load.notify'), '');
            END
            $strip$
            """)
        guard !(pgExec(sup, definition).scalar ?? "pg_notify(").contains("pg_notify(") else {
            fail("kept.push notifies otherwise than with \(Self.notifyStatement): sync-load cannot move its notification")
        }
        if self == .after {
            _ = pgExec(sup, "CREATE SCHEMA kept_bench")
            _ = pgExec(sup, "GRANT USAGE ON SCHEMA kept_bench TO kept_writer")
            _ = pgExec(sup, """
                CREATE FUNCTION kept_bench.notify() RETURNS void
                LANGUAGE plpgsql VOLATILE SECURITY INVOKER SET search_path = pg_catalog, pg_temp
                AS $notify$
                BEGIN
                  PERFORM set_config('synchronous_commit', 'off', true);
                  PERFORM pg_notify(kept.channel(), kept.version()::text);
                END
                $notify$
                """)
        }
        return true
    }
}

// MARK: - seed

func loadSeed(superConn: String, base: String, accounts: Int, tasks: Int, notify: NotifyMode) {
    let t0 = monotonic()
    switch Accounts.initialize(superConn) {
    case .success: break
    case .failure(let f): fail("init: \(f)")
    }
    let sup: PGConnection
    switch PGConnection.connect(superConn) {
    case .success(let c): sup = c
    case .failure(let e): fail("cannot connect as the superuser: \(e.message)")
    }
    defer { sup.close() }
    let template = loadAccount(0)
    let pushNotified = notify.prepare(sup)

    // 1. The template account, as `kept account create` makes it.
    let tc0 = monotonic()
    switch Accounts.create(name: template, readOnly: false, password: nil, conninfo: superConn) {
    case .success: break
    case .failure(let e): fail("create \(template): \(e)")
    }
    let createOne = monotonic() - tc0

    // 2. Its tasks, through the engine: a store of TASKS tasks with a spread of fields, linked,
    //    and one sync (a push of every task, then the pull of them back).
    let zone = Zone.utc
    let engine = Engine(store: JSONStore(memory: Store()), clock: .clock(SystemClock()), defaultZone: zone)
    var rng = LoadRandom(state: 2026)
    let tags = ["home", "work", "errands", "calls", "reading"]
    guard let day0 = CivilDate(year: 2026, month: 6, day: 1) else { fail("date") }
    do {
        _ = try engine.perform("load add") { (step: inout Engine.StepChanges) throws(DomainError) in
            var changes: [Change] = []
            changes.reserveCapacity(tasks)
            engine.store.reserveTasks(tasks)
            for i in 0..<tasks {
                var t = try engine.newTask(title: "task \(i)")
                t.status = .open
                if i % 3 == 0 { t.due = Due(date: day0.adding(days: rng.next(120))) }
                if i % 4 == 0 { t.priority = Priority.allCases[rng.next(Priority.allCases.count)] }
                if i % 5 == 0 { t.tags = [tags[rng.next(tags.count)]] }
                if i % 7 == 0 { t.description = "notes for task \(i)" }
                changes.append(.task(before: nil, after: t))
            }
            engine.stage(changes, into: &step)
        }
    } catch {
        fail("add: \(error)")
    }
    _ = engine.commit()
    let tp0 = monotonic()
    let server: PostgresServer
    switch PostgresServer.connect(loadConn(base, template)) {
    case .success(let s): server = s
    case .failure(let f): fail("connect \(template): \(f)")
    }
    do { try engine.link(SyncLink(server: loadConn(base, template), account: template, device: HLC.newNode())) } catch { fail("link: \(error)") }
    let pushed: SyncReport
    do { pushed = try engine.sync(with: server) } catch { fail("sync: \(error)") }
    server.close()
    let templatePush = monotonic() - tp0
    guard pushed.sent >= tasks else { fail("the template sent \(pushed.sent) of \(tasks)") }

    // 3. The other accounts, by SQL as the superuser. The count goes in as a setting of the
    //    transaction, so nothing is spliced into the statements.
    let tr0 = monotonic()
    _ = pgExec(sup, "BEGIN")
    _ = pgExec(sup, "SELECT set_config('kept_load.accounts', $1, true), set_config('kept_load.template', $2, true)",
               [String(accounts), template])
    _ = pgExec(sup, """
        DO $load$
        DECLARE
          n int := current_setting('kept_load.accounts')::int;
        BEGIN
          FOR k IN 1 .. n - 1 LOOP
            EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS NOREPLICATION IN ROLE kept_writer',
                           'load' || lpad(k::text, 4, '0'));
          END LOOP;
        END
        $load$
        """)
    _ = pgExec(sup, """
        INSERT INTO kept.accounts (name, version)
        SELECT 'load' || lpad(k::text, 4, '0'), t.version
        FROM generate_series(1, $1::int - 1) k, kept.accounts t
        WHERE t.name = $2
        """, [String(accounts), template])
    _ = pgExec(sup, "COMMIT")
    let roles = monotonic() - tr0

    // Items and pushes, a hundred accounts a statement. A task's key becomes a uid of the
    // account's own (a version 4 UUID from the MD5 of account and key); the fields, clocks,
    // deletion and version are the template's, as its push left them.
    let ti0 = monotonic()
    var copied = 0
    var from = 1
    while from < accounts {
        let to = min(accounts - 1, from + 99)
        let r = pgExec(sup, """
            INSERT INTO kept.items (account, kind, key, fields, clocks, deleted, version)
            SELECT a.name, i.kind,
                   CASE WHEN i.kind = 'task'
                        THEN substr(h.h, 1, 8) || '-' || substr(h.h, 9, 4) || '-4' || substr(h.h, 14, 3) || '-8'
                             || substr(h.h, 18, 3) || '-' || substr(h.h, 21, 12)
                        ELSE i.key END,
                   i.fields, i.clocks, i.deleted, i.version
            FROM generate_series($2::int, $3::int) k
            CROSS JOIN LATERAL (SELECT 'load' || lpad(k::text, 4, '0') AS name) a
            CROSS JOIN kept.items i
            CROSS JOIN LATERAL (SELECT md5(a.name || '/' || i.key) AS h) h
            WHERE i.account = $1
            """, [template, String(from), String(to)])
        copied += r.affected
        from = to + 1
    }
    let items = monotonic() - ti0
    let tq0 = monotonic()
    from = 1
    while from < accounts {
        let to = min(accounts - 1, from + 99)
        _ = pgExec(sup, """
            INSERT INTO kept.pushes (account, change_id, result)
            SELECT 'load' || lpad(k::text, 4, '0'), p.change_id, p.result
            FROM generate_series($2::int, $3::int) k CROSS JOIN kept.pushes p
            WHERE p.account = $1
            """, [template, String(from), String(to)])
        from = to + 1
    }
    let pushes = monotonic() - tq0
    // As autovacuum would in time: the planner's statistics, the visibility map.
    let tv0 = monotonic()
    _ = pgExec(sup, "VACUUM ANALYZE kept.items")
    _ = pgExec(sup, "VACUUM ANALYZE kept.pushes")
    _ = pgExec(sup, "VACUUM ANALYZE kept.accounts")
    let vacuum = monotonic() - tv0
    let seedSeconds = monotonic() - t0

    // 4. The checks: a copied role is what `create` made, and a copied account reads as the
    //    template's tasks.
    let last = loadAccount(accounts - 1)
    let roleQuery = """
        SELECT r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin, r.rolreplication, r.rolbypassrls,
               r.rolconnlimit, r.rolpassword IS NULL, r.rolvaliduntil,
               (SELECT string_agg(g.rolname || ':' || m.admin_option, ',' ORDER BY g.rolname)
                FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid),
               (SELECT string_agg(t || '.' || p || '=' || has_table_privilege(r.oid, t, p), ',' ORDER BY t, p)
                FROM unnest(ARRAY['kept.items', 'kept.pushes', 'kept.accounts', 'kept.meta']) t,
                     unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE']) p),
               (SELECT count(*) FROM kept.items i WHERE i.account = r.rolname),
               (SELECT count(*) FROM kept.pushes p WHERE p.account = r.rolname),
               (SELECT a.version FROM kept.accounts a WHERE a.name = r.rolname)
        FROM pg_catalog.pg_authid r WHERE r.rolname = $1
        """
    let a = pgExec(sup, roleQuery, [template]).rows
    let b = pgExec(sup, roleQuery, [last]).rows
    guard a.count == 1, a == b else { fail("the copied account \(last) differs from \(template): \(a) against \(b)") }
    let total = pgExec(sup, "SELECT count(*) FROM kept.items").scalar ?? "?"

    let fresh = Engine(store: JSONStore(memory: Store()), clock: .clock(SystemClock()), defaultZone: zone)
    let check: PostgresServer
    switch PostgresServer.connect(loadConn(base, last)) {
    case .success(let s): check = s
    case .failure(let f): fail("connect \(last): \(f)")
    }
    let tf0 = monotonic()
    do {
        try fresh.link(SyncLink(server: loadConn(base, last), account: last, device: HLC.newNode()))
        _ = try fresh.sync(with: check)
    } catch {
        fail("the first pull of \(last): \(error)")
    }
    let firstPull = monotonic() - tf0
    check.close()
    guard fresh.store.taskCount == tasks else { fail("\(last) pulled \(fresh.store.taskCount) of \(tasks) tasks") }
    var byTitle: [String: [String: String]] = [:]
    for t in engine.store.tasks(.all) { byTitle[t.title] = normalised(taskFields(engine, t)) }
    var differ = 0
    for t in fresh.store.tasks(.all) where byTitle[t.title] != normalised(taskFields(fresh, t)) { differ += 1 }
    guard differ == 0 else { fail("\(differ) tasks of \(last) differ from the template's") }

    let schema = pgExec(sup, "SELECT schema_version FROM kept.meta").scalar ?? "?"
    print("{\"step\": \"seed\", \"schema\": \(schema), \"notify\": \"\(pushNotified ? notify.rawValue : "none (the schema's push does not notify)")\", "
          + "\"accounts\": \(accounts), \"tasks_per_account\": \(tasks), \"items_on_server\": \(total), "
          + "\"seed_s\": \(secondsText(seedSeconds)), \"create_first_account_s\": \(secondsText(createOne)), "
          + "\"template_link_push_pull_s\": \(secondsText(templatePush)), \"roles_and_rows_s\": \(secondsText(roles)), \"copy_items_s\": \(secondsText(items)), "
          + "\"copied_items\": \(copied), \"copy_pushes_s\": \(secondsText(pushes)), \"vacuum_analyze_s\": \(secondsText(vacuum)), "
          + "\"through_engine_estimate_s\": \(Int((createOne + templatePush) * Double(accounts))), "
          + "\"check\": \"\(last) has \(template)'s role, privileges and counts; its first pull (\(secondsText(firstPull)) s) holds \(tasks) tasks equal to the template's\"}")
}

// MARK: - server CPU

/// CPU seconds of the cluster: the postmaster and every process it forked, alive or reaped.
func serverCPU(postmaster: Int32) -> Double {
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    var ticks: Int64 = 0
    // The reaped children's time moves into the postmaster's cutime/cstime when it waits for
    // them; the postmaster is read after its children, so a child that ends in between is
    // counted twice rather than not at all (the samples are taken with the clients' backends
    // alive, and they end only after the last sample).
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return 0 }
    func stat(_ pid: String) -> [Int64]? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"), let text = String(data: data, encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt
        // cmajflt utime stime cutime cstime…
        let rest = text[text.index(after: close)...].split(separator: " ")
        guard rest.count > 14 else { return nil }
        return [Int64(rest[1]) ?? -1, Int64(rest[11]) ?? 0, Int64(rest[12]) ?? 0, Int64(rest[13]) ?? 0, Int64(rest[14]) ?? 0]
    }
    for e in entries where e.first?.isNumber == true && e != String(postmaster) {
        guard let s = stat(e), s[0] == Int64(postmaster) else { continue }
        ticks += s[1] + s[2]
    }
    if let p = stat(String(postmaster)) { ticks += p[1] + p[2] + p[3] + p[4] }
    return Double(ticks) / tick
}

/// The whole machine's CPU seconds from /proc/stat: busy (every process, this one and the
/// server's too) and waiting for the disk (iowait), summed over the cores.
func machineCPU() -> (busy: Double, iowait: Double) {
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    guard let data = FileManager.default.contents(atPath: "/proc/stat"), let text = String(data: data, encoding: .utf8),
          let line = text.split(separator: "\n").first else { return (0, 0) }
    // cpu user nice system idle iowait irq softirq steal…
    let v = line.split(separator: " ").dropFirst().compactMap { Double($0) }
    guard v.count >= 8 else { return (0, 0) }
    return ((v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / tick, v[4] / tick)
}

/// This process's CPU seconds, user and system.
func ownCPU() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_utime.tv_sec) + Double(u.ru_utime.tv_usec) / 1e6 + Double(u.ru_stime.tv_sec) + Double(u.ru_stime.tv_usec) / 1e6
}

/// The postmaster's pid: the parent of this connection's backend.
func postmasterPID(_ conninfo: String) -> Int32 {
    let c: PGConnection
    switch PGConnection.connect(conninfo) {
    case .success(let x): c = x
    case .failure(let e): fail("cannot connect: \(e.message)")
    }
    defer { c.close() }
    guard let backend = pgExec(c, "SELECT pg_backend_pid()").scalar,
          let data = FileManager.default.contents(atPath: "/proc/\(backend)/stat"), let text = String(data: data, encoding: .utf8),
          let close = text.lastIndex(of: ")") else { fail("the server's processes are not readable here (is it on this machine?)") }
    let rest = text[text.index(after: close)...].split(separator: " ")
    guard rest.count > 2, let ppid = Int32(rest[1]) else { fail("cannot read the backend's parent") }
    return ppid
}

// MARK: - run

/// The server, counting its calls and timing them.
final class CountingServer: SyncServer {
    let inner: PostgresServer
    var pushes = 0, pulls = 0
    var pushSeconds: [Double] = [], pullSeconds: [Double] = []

    init(_ inner: PostgresServer) { self.inner = inner }

    var account: String { inner.account }
    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        let t = monotonic()
        defer { pushSeconds.append(monotonic() - t); pushes += 1 }
        return inner.push(changes)
    }
    func pull(after version: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        let t = monotonic()
        defer { pullSeconds.append(monotonic() - t); pulls += 1 }
        return inner.pull(after: version, limit: limit)
    }
    func version() -> Result<Int64, SyncFailure> { inner.version() }
    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> { pulls += 1; return inner.head(recent: limit) }
    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> { pulls += 1; return inner.list(after: key, limit: limit) }
    func summary() -> Result<SyncSummary, SyncFailure> { pulls += 1; return inner.summary() }
    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> { inner.items(narrowing) }
    func close() { inner.close() }
}

/// What a client last set on one item: each field's stamp and value, and its delete.
struct Expected {
    var fields: [String: (stamp: HLC, value: JSONValue)] = [:]
    var deleted: HLC?
}

/// One client: a device of one account, used by one thread at a time (its own while the load
/// runs, the main thread's before and after).
final class LoadClient: @unchecked Sendable {
    let number: Int
    let account: String
    let engine: Engine
    let server: CountingServer
    var device: String { engine.store.sync.link?.device ?? "" }
    var partner: LoadClient?
    var rng: LoadRandom
    var expected: [SyncKey: Expected] = [:]
    var latencies: [Double] = []
    var made = 0, unchanged = 0, sent = 0, received = 0, refused = 0, declined = 0
    var firstPull = 0.0
    var problem: String?

    /// In NOTIFY mode `after`, the second connection that notifies after each push.
    let notifier: PGConnection?
    var notifies = 0

    init(number: Int, account: String, base: String, seed: UInt64, notifyAfter: Bool) {
        self.number = number
        self.account = account
        if notifyAfter {
            switch PGConnection.connect(loadConn(base, account)) {
            case .success(let c): notifier = c
            case .failure(let e): fail("connect \(account): \(e.message)")
            }
        } else {
            notifier = nil
        }
        engine = Engine(store: JSONStore(memory: Store()), clock: .clock(SystemClock()), defaultZone: .utc)
        switch PostgresServer.connect(loadConn(base, account)) {
        case .success(let s): server = CountingServer(s)
        case .failure(let f): fail("connect \(account): \(f)")
        }
        rng = LoadRandom(state: seed &* 1_000_003 &+ UInt64(number))
        do { try engine.link(SyncLink(server: loadConn(base, account), account: account, device: HLC.newNode())) } catch { fail("link: \(error)") }
    }

    func sync() throws(SyncProblem) {
        let r = try engine.sync(with: server)
        if let n = notifier, r.sent > 0 {
            // The push committed; its notification goes in a transaction of its own.
            if case .failure(let e) = n.exec("SELECT kept_bench.notify()") { throw .failed(.server(e.message), waiting: 0) }
            notifies += 1
        }
        sent += r.sent
        received += r.received
        refused += r.refused.count
        _ = engine.commit()
    }

    /// One random change, as a user makes them: a new task, an edit of the title, priority or
    /// due, a completion or a delete. A client that shares its account edits, half the time,
    /// one of its first 20 tasks, which its partner edits too: merges on the same items.
    func change(_ k: Int) {
        let e = engine
        let n = e.store.taskCount
        let r = rng.next(100)
        func pick() -> KeptRules.Task? {
            let row = partner != nil && rng.next(2) == 0 ? rng.next(min(n, 20)) : rng.next(n)
            return e.store.task(atRow: row)
        }
        do {
            if r < 15 || n == 0 {
                _ = try e.add(TaskDraft(title: "new \(number).\(k)"))
            } else if let t = pick() {
                switch r {
                case 15..<40:
                    _ = try e.set(.title("title \(number).\(k)"), on: .task(t.id))
                case 40..<60:
                    var p = Priority.allCases[rng.next(Priority.allCases.count)]
                    if p == t.priority { p = p == .high ? .low : .high }
                    _ = try e.set(.priority(p), on: .task(t.id))
                case 60..<75:
                    let day = CivilDate(year: 2026, month: 1 + rng.next(12), day: 1 + rng.next(28))
                    _ = try e.set(.due(rng.next(5) == 0 ? nil : day.map { Due(date: $0) }), on: .task(t.id))
                case 75..<90:
                    if t.isOpen {
                        _ = try e.complete(.task(t.id))
                    } else {
                        _ = try e.set(.title("title \(number).\(k)"), on: .task(t.id))
                    }
                default:
                    _ = try e.delete(.task(t.id))
                }
            }
        } catch {
            // A change the engine declines (none is expected) is counted, not synced.
            declined += 1
            return
        }
        _ = e.commit()
        // An edit to the value a field had already (a due cleared that was not set) changes
        // nothing and queues nothing.
        if e.store.sync.outbox.isEmpty { unchanged += 1 } else { made += 1 }
        track()
    }

    /// Records the stamp and value of every field now waiting to be sent: the last this device
    /// set, which must reach the server.
    func track() {
        let e = engine
        for entry in e.store.sync.outbox.values {
            var x = expected[entry.key] ?? Expected()
            var values: [String: JSONValue] = [:]
            if let d = entry.deleted {
                x.deleted = max(x.deleted ?? d, d)
                for (f, v) in entry.values?.members ?? [] { values[f] = v }
            } else if entry.key.kind == .task, let uid = TaskUID(entry.key.id), let t = e.store.task(uid: uid) {
                values = taskFields(e, t)
            }
            for (f, h) in entry.fields where x.fields[f].map({ $0.stamp < h }) ?? true {
                x.fields[f] = (h, values[f] ?? .null)
            }
            expected[entry.key] = x
        }
    }
}

/// Lets every thread start the load at once.
final class LoadGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting = 0
    private var open = false
    private var finished = 0

    func arrive() {
        condition.lock()
        waiting += 1
        condition.broadcast()
        while !open { condition.wait() }
        condition.unlock()
    }
    func waitForAll(_ n: Int) {
        condition.lock()
        while waiting < n { condition.wait() }
        condition.unlock()
    }
    func release() {
        condition.lock()
        open = true
        condition.broadcast()
        condition.unlock()
    }
    func done() {
        condition.lock()
        finished += 1
        condition.broadcast()
        condition.unlock()
    }
    func waitDone(_ n: Int) {
        condition.lock()
        while finished < n { condition.wait() }
        condition.unlock()
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let k = Int((Double(sorted.count - 1) * p).rounded())
    return sorted[max(0, min(sorted.count - 1, k))]
}

func loadRun(base: String, clients: Int, seconds: Double, first: Int, seed: UInt64, superConn: String?, notify: NotifyMode) -> Bool {
    // Accounts: the first half of the clients alone, the rest two to an account.
    let alone = clients / 2
    var plan: [Int] = []
    for k in 0..<clients {
        plan.append(k < alone ? first + k : first + alone + (k - alone) / 2)
    }
    let accountsUsed = Set(plan).count
    let pairs = clients - accountsUsed
    let postmaster = postmasterPID(loadConn(base, loadAccount(first)))

    let list = plan.enumerated().map {
        LoadClient(number: $0.offset, account: loadAccount($0.element), base: base, seed: seed, notifyAfter: notify == .after)
    }
    for k in stride(from: alone, to: clients - 1, by: 2) where plan[k] == plan[k + 1] {
        list[k].partner = list[k + 1]
        list[k + 1].partner = list[k]
    }

    let gate = LoadGate()
    let deadline = LoadDeadline()
    for c in list {
        let thread = Thread {
            // The first pull of the whole account, all clients at once.
            let t = monotonic()
            do { try c.sync() } catch { c.problem = "first pull: \(error)" }
            c.firstPull = monotonic() - t
            gate.arrive()
            var k = 0
            while c.problem == nil, monotonic() < deadline.at {
                c.change(k)
                k += 1
                let s = monotonic()
                do { try c.sync() } catch { c.problem = "sync: \(error)" }
                c.latencies.append(monotonic() - s)
            }
            gate.done()
        }
        thread.stackSize = 1 << 22
        thread.start()
    }
    gate.waitForAll(clients)
    // Every thread waits at the gate: the counts start again for the timed part.
    for c in list {
        c.server.pushes = 0
        c.server.pulls = 0
        c.server.pushSeconds = []
        c.server.pullSeconds = []
        c.sent = 0
        c.received = 0
        c.refused = 0
        c.notifies = 0
    }
    let sampler = superConn.flatMap { WaitSampler($0) }
    let lsn0 = sampler?.walLSN()
    let functions0 = sampler?.functionTimes() ?? [:]
    sampler?.start()
    let cpu0 = serverCPU(postmaster: postmaster)
    let own0 = ownCPU()
    let machine0 = machineCPU()
    let start = monotonic()
    deadline.at = start + seconds
    gate.release()
    gate.waitDone(clients)
    let elapsed = monotonic() - start
    let cpu = serverCPU(postmaster: postmaster) - cpu0
    let own = ownCPU() - own0
    let machine1 = machineCPU()
    // What the rest of the machine used meanwhile (other programs, other builds).
    let others = max(0, machine1.busy - machine0.busy - cpu - own)
    let iowait = machine1.iowait - machine0.iowait
    sampler?.stop()
    var walBytes = 0.0
    if let s = sampler, let a = lsn0, let b = s.walLSN() { walBytes = s.walBytes(from: a, to: b) }

    let problems = list.compactMap { c in c.problem.map { "client \(c.number) (\(c.account)): \($0)" } }
    for p in problems { FileHandle.standardError.write(Data((p + "\n").utf8)) }

    let loadPulls = list.reduce(0) { $0 + $1.server.pulls }
    let loadPushes = list.reduce(0) { $0 + $1.server.pushes }
    let loadSent = list.reduce(0) { $0 + $1.sent }
    let loadReceived = list.reduce(0) { $0 + $1.received }
    let refused = list.reduce(0) { $0 + $1.refused }
    let syncs = list.reduce(0) { $0 + $1.latencies.count }
    let pushLatency = list.flatMap(\.server.pushSeconds).sorted()
    let pullLatency = list.flatMap(\.server.pullSeconds).sorted()
    // Everything settles: each client syncs twice, so a pair's last changes reach both.
    var settleProblems: [String] = []
    for _ in 0..<2 {
        for c in list {
            do { try c.sync() } catch { settleProblems.append("client \(c.number): settle: \(error)") }
        }
    }

    // The clients' backends end, and report what their functions took.
    for c in list {
        c.server.close()
        c.notifier?.close()
    }
    usleep(500_000)
    var functionsJSON = ""
    if let s = sampler {
        let functions1 = s.functionTimes()
        functionsJSON = functions1.keys.sorted().compactMap { name -> String? in
            guard let b = functions1[name] else { return nil }
            let a = functions0[name] ?? (0, 0)
            let calls = b.calls - a.calls
            guard calls > 0 else { return nil }
            return "\"\(name)\": {\"calls\": \(Int(calls)), \"mean_ms\": \(String(format: "%.3f", (b.ms - a.ms) / calls))}"
        }.joined(separator: ", ")
    }

    // The checks, account by account, against the server's rows read from version 0.
    var unequal = 0, lost = 0, superseded = 0, refusedKept = 0, fieldsChecked = 0, deletesChecked = 0
    var examples: [String] = []
    func note(_ s: String) { if examples.count < 10 { examples.append(s) } }
    var byAccount: [String: [LoadClient]] = [:]
    for c in list { byAccount[c.account, default: []].append(c) }
    for (account, members) in byAccount.sorted(by: { $0.key < $1.key }) {
        let reader: PostgresServer
        switch PostgresServer.connect(loadConn(base, account)) {
        case .success(let s): reader = s
        case .failure(let f): fail("connect \(account): \(f)")
        }
        var rows: [SyncKey: PulledItem] = [:]
        var after: Int64 = 0
        while true {
            switch reader.pull(after: after, limit: 50_000) {
            case .failure(let f): fail("pull \(account): \(f)")
            case .success(let items):
                for i in items { rows[i.key] = i; after = max(after, i.version) }
                if items.count < 50_000 { break }
                continue
            }
            break
        }
        reader.close()
        let live = rows.values.filter { $0.deleted == nil && $0.key.kind == .task }
        var server: [String: [String: String]] = [:]
        for i in live {
            var f: [String: JSONValue] = [:]
            for (k, v) in i.fields.members { f[k] = v }
            server[i.key.id] = normalised(f)
        }
        for c in members {
            var mine: [String: [String: String]] = [:]
            for t in c.engine.store.tasks(.all) { mine[t.uid.description] = normalised(taskFields(c.engine, t)) }
            if mine != server {
                unequal += 1
                let missing = Set(server.keys).subtracting(mine.keys).count
                let extra = Set(mine.keys).subtracting(server.keys).count
                let differing = Set(server.keys).intersection(mine.keys).filter { server[$0] != mine[$0] }
                note("client \(c.number) (\(account)) differs from the server: \(missing) missing, \(extra) extra, \(differing.count) differing"
                     + (differing.first.map { k in ", e.g. \(k): \(mine[k] ?? [:]) against \(server[k] ?? [:])" } ?? ""))
            }
            let reviewedFields = Set(c.engine.store.sync.review.flatMap { r in r.change.clocks.map { "\(r.change.key)|\($0.key)|\($0.value)" } })
            for (key, x) in c.expected {
                guard let row = rows[key] else {
                    lost += 1
                    note("client \(c.number): \(key) is not on the server")
                    continue
                }
                if let d = x.deleted {
                    deletesChecked += 1
                    if (row.deleted.map { $0 < d }) ?? true {
                        lost += 1
                        note("client \(c.number): its delete of \(key) is not on the server")
                    }
                }
                for (f, want) in x.fields {
                    fieldsChecked += 1
                    let have = row.clocks[f]
                    if have == want.stamp {
                        let a = want.value.isNull ? "null" : JSONWriter.compact(want.value)
                        let b = row.fields[f].map { $0.isNull ? "null" : JSONWriter.compact($0) } ?? "null"
                        if a != b {
                            lost += 1
                            note("client \(c.number): \(key) \(f) is \(b) on the server at its stamp, not \(a)")
                        }
                    } else if let h = have, want.stamp < h, let p = c.partner, h.node == p.device {
                        superseded += 1
                    } else if reviewedFields.contains("\(key)|\(f)|\(want.stamp)") {
                        refusedKept += 1
                    } else {
                        lost += 1
                        note("client \(c.number): \(key) \(f) set at \(want.stamp) is \(have.map { "at \($0)" } ?? "absent") on the server")
                    }
                }
            }
        }
    }

    let all = list.flatMap(\.latencies).sorted()
    let firsts = list.map(\.firstPull).sorted()
    let made = list.reduce(0) { $0 + $1.made }
    let declined = list.reduce(0) { $0 + $1.declined }
    let unchanged = list.reduce(0) { $0 + $1.unchanged }
    let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
    let notifies = list.reduce(0) { $0 + $1.notifies }
    print("{\"step\": \"run\", \"notify\": \"\(notify.rawValue)\", \"clients\": \(clients), \"accounts\": \(accountsUsed), \"pairs\": \(pairs), "
          + "\"duration_s\": \(secondsText(elapsed)), \"syncs\": \(syncs), \"pushes\": \(loadPushes), \"pulls\": \(loadPulls), "
          + "\"changes_made\": \(made), \"notifies_after\": \(notifies), \"changes_sent\": \(loadSent), \"changes_received\": \(loadReceived), \"refused\": \(refused), \"declined\": \(declined), \"unchanged\": \(unchanged), "
          + "\"syncs_per_s\": \(String(format: "%.1f", Double(syncs) / elapsed)), "
          + "\"sync_p50_ms\": \(millisecondsText(percentile(all, 0.5))), \"sync_p99_ms\": \(millisecondsText(percentile(all, 0.99))), "
          + "\"sync_max_ms\": \(millisecondsText(all.last ?? 0, digits: 1)), \"push_call_p50_ms\": \(millisecondsText(percentile(pushLatency, 0.5))), \"pull_call_p50_ms\": \(millisecondsText(percentile(pullLatency, 0.5))), "
          + "\"first_pull_median_ms\": \(millisecondsText(percentile(firsts, 0.5), digits: 1)), \"first_pull_max_ms\": \(millisecondsText(firsts.last ?? 0, digits: 1)), "
          + "\"server_cpu_s\": \(String(format: "%.1f", cpu)), \"server_cpu_pct\": \(String(format: "%.0f", cpu / elapsed / cores * 100)), "
          + "\"server_cpu_ms_per_sync\": \(String(format: "%.3f", syncs > 0 ? cpu / Double(syncs) * 1000 : 0)), "
          + "\"client_cpu_s\": \(String(format: "%.1f", own)), \"client_cpu_pct\": \(String(format: "%.0f", own / elapsed / cores * 100)), "
          + "\"others_cpu_pct\": \(String(format: "%.0f", others / elapsed / cores * 100)), "
          + "\"iowait_pct\": \(String(format: "%.0f", iowait / elapsed / cores * 100)), "
          + "\"cores\": \(Int(cores)), \"equal\": \"\(clients - unequal) of \(clients)\", \"fields_checked\": \(fieldsChecked), "
          + "\"deletes_checked\": \(deletesChecked), \"superseded_by_partner\": \(superseded), \"refused_kept_for_review\": \(refusedKept), "
          + (sampler.map { s in
              "\"waits\": \(s.json), \"wait_samples\": \(s.samples), \"blocked_by_same_account\": \(s.blockedBySameAccount), "
              + "\"blocked_by_other_account\": \(s.blockedByOtherAccount), "
              + "\"blocked_by_other_account_waiting_for\": {\(s.otherAccountEvents.sorted { $0.value > $1.value }.map { "\"\($0.key)\": \($0.value)" }.joined(separator: ", "))}, "
              + "\"wal_bytes_per_sync\": \(syncs > 0 ? Int(walBytes) / syncs : 0), "
              + "\"functions\": {\(functionsJSON)}, "
          } ?? "")
          + "\"lost\": \(lost)}")
    if let ex = sampler?.otherAccountExample { FileHandle.standardError.write(Data(("  blocked by another account: \(ex)\n").utf8)) }
    sampler?.close()
    for e in examples { FileHandle.standardError.write(Data(("  " + e + "\n").utf8)) }
    for p in settleProblems { FileHandle.standardError.write(Data((p + "\n").utf8)) }
    return lost == 0 && unequal == 0 && problems.isEmpty && settleProblems.isEmpty
}

/// What the clients' backends were doing, sampled while the load runs: each active backend
/// in each sample counted under its wait event ("CPU" when it waits for none: running, or
/// ready to run), and the blocked ones by whether a backend of the same account or of
/// another blocks them.
final class WaitSampler: @unchecked Sendable {
    private let connection: PGConnection
    private let condition = NSCondition()
    private var stopping = false
    private var stopped = false
    var samples = 0
    var events: [String: Int] = [:]
    var blockedBySameAccount = 0
    var blockedByOtherAccount = 0
    /// The backends another account's blocked, by what they waited for.
    var otherAccountEvents: [String: Int] = [:]
    var otherAccountExample: String?

    init?(_ conninfo: String) {
        guard case .success(let c) = PGConnection.connect(conninfo) else { return nil }
        connection = c
    }

    func walLSN() -> String? {
        if case .success(let r) = connection.exec("SELECT pg_current_wal_lsn()::text") { return r.scalar }
        return nil
    }

    func walBytes(from a: String, to b: String) -> Double {
        if case .success(let r) = connection.exec("SELECT pg_wal_lsn_diff($2::pg_lsn, $1::pg_lsn)", params: [a, b]) {
            return Double(r.scalar ?? "") ?? 0
        }
        return 0
    }

    func start() {
        let t = Thread { [self] in
            while true {
                condition.lock()
                let stop = stopping
                condition.unlock()
                if stop { break }
                sample()
                usleep(100_000)
            }
            condition.lock()
            stopped = true
            condition.broadcast()
            condition.unlock()
        }
        t.start()
    }

    func stop() {
        condition.lock()
        stopping = true
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func sample() {
        let q = """
            SELECT coalesce(a.wait_event_type || ':' || a.wait_event, 'CPU'),
                   (SELECT count(*) FROM unnest(pg_blocking_pids(a.pid)) b JOIN pg_stat_activity s ON s.pid = b WHERE s.usename = a.usename),
                   (SELECT string_agg(s.usename || ' ' || left(s.query, 40), '; ') FROM unnest(pg_blocking_pids(a.pid)) b
                      JOIN pg_stat_activity s ON s.pid = b WHERE s.usename <> a.usename)
            FROM pg_stat_activity a
            WHERE a.backend_type = 'client backend' AND a.state = 'active' AND a.pid <> pg_backend_pid() AND a.usename LIKE 'load%'
            """
        guard case .success(let r) = connection.exec(q) else { return }
        samples += 1
        for row in r.rows where row.count == 3 {
            events[row[0] ?? "?", default: 0] += 1
            if let n = row[1].flatMap({ Int($0) }), n > 0 { blockedBySameAccount += 1 }
            if let other = row[2] {
                blockedByOtherAccount += 1
                otherAccountEvents[row[0] ?? "?", default: 0] += 1
                if otherAccountExample == nil { otherAccountExample = other }
            }
        }
    }

    /// The wait events, most frequent first, as shares of every active backend seen.
    var json: String {
        let total = max(1, events.values.reduce(0, +))
        let top = events.sorted { $0.value > $1.value }.prefix(6)
        let parts = top.map { "\"\($0.key)\": \(String(format: "%.2f", Double($0.value) / Double(total)))" }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    /// The calls of each of Kept's functions and the milliseconds spent in them, as the
    /// server counts them (track_functions; a backend reports its counts when it goes idle
    /// or ends).
    func functionTimes() -> [String: (calls: Double, ms: Double)] {
        var out: [String: (calls: Double, ms: Double)] = [:]
        guard case .success(let r) = connection.exec(
            "SELECT funcname, calls, total_time FROM pg_stat_user_functions WHERE schemaname = 'kept'") else { return out }
        for row in r.rows where row.count == 3 {
            guard let name = row[0], let calls = row[1].flatMap({ Double($0) }), let ms = row[2].flatMap({ Double($0) }) else { continue }
            out[name] = (calls, ms)
        }
        return out
    }

    func close() { connection.close() }
}

/// When the load stops, set once before the threads are let go.
final class LoadDeadline: @unchecked Sendable {
    var at = Double.infinity
}
