// The merge rules of docs/SYNC.md ("Merging"), written a second time, in memory and apart from
// the PostgreSQL functions: the domain's tests sync through it, and the convergence test runs
// it beside the real server as its oracle, fed the same pushes in the same order. It shares no
// code with `kept.push` (PL/pgSQL); only the rules.

import XCTest
@testable import KeptRules
@testable import KeptDomain

final class MemoryServer: SyncServer {
    struct Row: Equatable {
        var fields: [String: JSONValue] = [:]
        var clocks: [String: HLC] = [:]
        var deleted: HLC?
        var version: Int64 = 0
    }

    var account = "alice"
    var rows: [SyncKey: Row] = [:]
    var latest: Int64 = 0
    var answers: [String: PushOutcome] = [:]
    /// While true, every call fails as a server that cannot be reached.
    var offline = false
    /// While true, a push is applied but its answer is lost (the client sees offline).
    var loseAnswers = false
    var readOnly = false
    var maxFieldBytes = 65_536
    /// How many pushes and pulls it served.
    var pushes = 0

    func push(_ changes: [OutgoingChange]) -> Result<[PushResult], SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        pushes += 1
        var out: [PushResult] = []
        for c in changes {
            if let a = answers[c.changeID] {
                // The answer recorded, with the item as it is now (the one recorded may be old).
                var again = a
                if case .refused(let why, _) = a { again = .refused(why, current: item(c.key)) }
                out.append(PushResult(changeID: c.changeID, outcome: again, duplicate: true))
                continue
            }
            let outcome = merge(c)
            answers[c.changeID] = outcome
            out.append(PushResult(changeID: c.changeID, outcome: outcome, duplicate: false))
        }
        if loseAnswers { return .failure(.offline("the answer was lost")) }
        return .success(out)
    }

    func item(_ key: SyncKey) -> PulledItem? {
        guard let r = rows[key] else { return nil }
        return PulledItem(key: key, fields: JSONObject(r.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
                          clocks: r.clocks, deleted: r.deleted, version: r.version)
    }

    /// One change by the rules: a delete wins over edits; an edit of a deleted item is refused
    /// unless it brings the item back later than the delete; per field, the later stamp wins.
    func merge(_ c: OutgoingChange) -> PushOutcome {
        if readOnly { return .refused(.readOnly, current: item(c.key)) }
        for (f, v) in c.values.members where c.clocks[f] != nil && JSONWriter.compact(v).utf8.count > maxFieldBytes {
            return .refused(.tooLarge(field: f, limit: maxFieldBytes), current: item(c.key))
        }
        var row = rows[c.key] ?? Row()
        let before = rows[c.key]
        if let d = row.deleted {
            if let r = c.restored, r > d {
                row.deleted = nil
            } else if c.deleted == nil {
                return .refused(.deletedElsewhere, current: item(c.key))
            }
        }
        if let d = c.deleted, c.restored.map({ d > $0 }) ?? true {
            row.deleted = max(row.deleted ?? d, d)
        }
        for (f, h) in c.clocks where row.clocks[f].map({ h > $0 }) ?? true {
            row.fields[f] = c.values[f] ?? .null
            row.clocks[f] = h
        }
        if before.map({ $0.fields != row.fields || $0.clocks != row.clocks || $0.deleted != row.deleted }) ?? true {
            latest += 1
            row.version = latest
            rows[c.key] = row
        }
        return .applied
    }

    func pull(after v: Int64, limit: Int) -> Result<[PulledItem], SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        let items = rows.filter { $0.value.version > v }.sorted { $0.value.version < $1.value.version }.prefix(limit)
        return .success(items.compactMap { item($0.key) })
    }

    func version() -> Result<Int64, SyncFailure> {
        offline ? .failure(.offline("connection refused")) : .success(latest)
    }

    /// Live items, in the server's key order.
    var liveKeys: [SyncKey] {
        rows.filter { $0.value.deleted == nil }.map(\.key).sorted(by: SyncListing.keyOrder)
    }

    /// Set to make `list` fail after this many more calls (a connection dropped mid-pull).
    var listCallsLeft: Int? = nil

    func head(recent limit: Int) -> Result<SyncHead, SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        let live = rows.filter { $0.value.deleted == nil }
        let recent = live.sorted { $0.value.version > $1.value.version }.prefix(max(0, limit)).compactMap { item($0.key) }
        return .success(SyncHead(version: latest, live: live.count, recent: recent))
    }

    func list(after key: SyncKey?, limit: Int) -> Result<[PulledItem], SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        if let n = listCallsLeft {
            if n <= 0 { return .failure(.offline("the connection dropped")) }
            listCallsLeft = n - 1
        }
        let keys = liveKeys.filter { k in key.map { SyncListing.keyOrder($0, k) } ?? true }.prefix(max(0, limit))
        return .success(keys.compactMap { item($0) })
    }

    func summary() -> Result<SyncSummary, SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        let s = SyncSummary.of(liveKeys)
        return .success(SyncSummary(version: latest, count: s.count, checksum: s.checksum))
    }

    func items(_ narrowing: TaskNarrowing) -> Result<SyncItems, SyncFailure> {
        if offline { return .failure(.offline("connection refused")) }
        var tasks: [SyncKey: JSONObject] = [:]
        for k in liveKeys where k.kind == .task { tasks[k] = rows[k].map { JSONObject($0.fields.map { ($0.key, $0.value) }) } }
        let chosen = narrowing.select(tasks)
        let keys = liveKeys.filter { $0.kind != .task || chosen.contains($0) }
        // Ranks among all live tasks, given for the tasks returned.
        let all = SyncItems.ranks(liveKeys.compactMap { k in rows[k].map { KeyVersion(k, $0.version) } })
        let ranks = all.filter { keys.contains($0.key) }
        return .success(SyncItems(version: latest, items: keys.compactMap { item($0) }, ranks: ranks))
    }

    func close() {}

    /// The living items of one kind, by key, fields without their empty ones.
    func living(_ kind: SyncKind) -> [String: [String: JSONValue]] {
        var out: [String: [String: JSONValue]] = [:]
        for (k, r) in rows where k.kind == kind && r.deleted == nil { out[k.id] = r.fields.filter { !$0.value.isNull } }
        return out
    }
}
