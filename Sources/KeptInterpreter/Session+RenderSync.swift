// The render stage of sync (docs/SYNC.md, "Using sync"): what a sync sent and received, the
// store's link and outbox, the refused changes in words, and the note a statement adds when it
// names a task another device changed (R-SYNC-8). A server's failure is the catalog's (E0338 to
// E0348); an offline one is marked so a front end can exit 3 for it.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What `account link` did: the link it made, and its first sync.
package struct LinkOutcome {
    package var link: SyncLink
    package var sync: Result<SyncReport, SyncProblem>
}

/// What a sync statement did.
package enum SyncOutcome {
    case synced(SyncLink, Result<SyncReport, SyncProblem>)
    case status(SyncStatus)
    case review([ReviewEntry])
    case retried(Int, Result<ReviewEntry, SyncProblem>)
    case discarded(Int, Result<ReviewEntry, SyncProblem>)
    case account(SyncLink?)
    case linked(Result<LinkOutcome, SyncProblem>)
    /// The link could not be committed before its first sync (the REPL): nothing happened.
    case linkNotWritten(StoreError)
}

extension Session {
    /// What a statement that names a task another device changed says, once (R-SYNC-8).
    package static let refreshedNote = "This changed on another device. Kept refreshed it."

    /// The output of a sync statement.
    package func render(_ o: SyncOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .synced(let link, .success(let r)):
            return out(syncLines(link, r), json: syncJSON(r), changed: true)
        case .synced(_, .failure(let p)), .linked(.failure(let p)), .retried(_, .failure(let p)), .discarded(_, .failure(let p)):
            return syncError(p, s)
        case .status(let st):
            return out(statusLines(st), json: statusJSON(st))
        case .review(let entries):
            var lines = ["No refused changes"]
            if !entries.isEmpty {
                let n = entries.count == 1 ? "1 refused change" : "\(entries.count) refused changes"
                lines = ["\(n), oldest first ('sync retry N' sends one again, 'sync discard N' drops it):"]
                let w = String(entries.count).count
                lines += entries.enumerated().map { k, e in
                    "  " + String(repeating: " ", count: w - String(k + 1).count) + "\(k + 1)  " + reviewLine(e)
                }
            }
            return out(lines, json: .object(JSONObject([("review", .array(entries.enumerated().map { reviewJSON($1, number: $0 + 1) }))])))
        case .retried(let n, .success(let e)):
            return out(["Retried refused change \(n) · \(kindAndLabel(e)) · it goes with the next sync"],
                       json: .object(JSONObject([("retried", reviewJSON(e, number: n))])), changed: true)
        case .discarded(let n, .success(let e)):
            return out(["Discarded refused change \(n) · \(kindAndLabel(e))"],
                       json: .object(JSONObject([("discarded", reviewJSON(e, number: n))])), changed: true)
        case .account(let link):
            let line = link.map { "Linked to \($0.account) on \(Session.serverWords($0.server)) as device \($0.device)" }
                ?? Session.notLinked
            return out([line], json: linkJSON(link))
        case .linked(.success(let l)):
            let head = "Linked this store to \(l.link.account) on \(Session.serverWords(l.link.server)) as device \(l.link.device)."
            switch l.sync {
            case .success(let r):
                return out([head] + syncLines(l.link, r),
                           json: .object(JSONObject([("linked", linkJSON(l.link)), ("sync", syncJSON(r))])), changed: true)
            case .failure(let p):
                // The link stays (it was committed first); the sync's failure is the error.
                var o = syncError(p, s)
                if format == .text { o.lines = [head] }
                o.changed = true
                return o
            }
        case .linkNotWritten(let e):
            return .error(Catalog.store(e, at: .commit(reread: false), statement: s.source))
        }
    }

    /// A sync problem at the words it is about: the number of a refused change, or the
    /// statement. An offline one is marked, with how many changes wait.
    package func syncError(_ p: SyncProblem, _ s: Statement) -> CommandOutput {
        var range = s.keywordRange
        if case .noRefusedChange = p {
            if case .sync(.retry(_, let r)) = s.kind { range = r }
            if case .sync(.discard(_, let r)) = s.kind { range = r }
        }
        var o = CommandOutput.error(Catalog.sync(p, range: range, file: s.source.file))
        if case .failed(.offline, let waiting) = p { o.syncOffline = waiting }
        return o
    }

    // MARK: text

    package static let notLinked = "Not linked to an account ('account link \"CONNINFO\"' links this store)"

    /// The stored connection string as it reads (never with a password: the store has none).
    package static func serverWords(_ server: String) -> String {
        server.isEmpty ? "the server of the PG* variables" : server
    }

    package static func changes(_ n: Int) -> String { n == 1 ? "1 change" : "\(n) changes" }

    /// `Synced with alice: sent 3, received 5.`, and the refusals.
    package func syncLines(_ link: SyncLink, _ r: SyncReport) -> [String] {
        var lines = ["Synced with \(link.account): sent \(r.sent), received \(r.received)."]
        if !r.refused.isEmpty { lines.append("\(Session.changes(r.refused.count)) refused (see sync review).") }
        return lines
    }

    package func statusLines(_ st: SyncStatus) -> [String] {
        guard let link = st.link else { return [Session.notLinked] }
        return [
            "Linked to \(link.account)",
            "  server   \(Session.serverWords(link.server))",
            "  device   \(link.device)",
            "  waiting  \(Session.changes(st.waiting))",
            "  refused  \(Session.changes(st.refused))" + (st.refused > 0 ? " (see sync review)" : ""),
            "  version  \(st.cursor)",
        ] + (st.loading.map { ["  loading  \(Session.grouped($0.received)) of \(Session.grouped($0.total)) (the first pull goes on with the next sync)"] } ?? [])
    }

    /// `task Renew passport · title · deleted on another device · Today 9:05 AM`.
    package func reviewLine(_ e: ReviewEntry) -> String {
        let at = text.reminderTime(zone.local(at: e.refusedAt))
        return [kindAndLabel(e), Session.fieldWords(e.change), Session.words(e.refusal), at].joined(separator: " · ")
    }

    package func kindAndLabel(_ e: ReviewEntry) -> String {
        "\(e.change.key.kind.rawValue) \(label(e.change))"
    }

    /// What a refused change is called: as it was sent, else as the store has it now (a
    /// delete sends no label), else its key.
    package func label(_ c: OutgoingChange) -> String {
        if !c.label.isEmpty { return c.label }
        switch c.key.kind {
        case .task: if let t = TaskUID(c.key.id).flatMap({ store.task(uid: $0) }) { return t.title }
        case .project: if let p = store.projects.first(where: { $0.uid.description == c.key.id }) { return p.name }
        case .area: if let a = store.areas.first(where: { $0.uid.description == c.key.id }) { return a.name }
        case .filter: if let f = store.filters.first(where: { $0.uid.description == c.key.id }) { return f.name }
        case .setting: return c.key.id
        }
        return c.key.id
    }

    /// Which fields a change carried, as a user knows them: `title`, `#home`, `[[Trip plan]]`.
    package static func fieldWords(_ c: OutgoingChange) -> String {
        if c.deleted != nil { return "deleted here" }
        if c.restored != nil { return "the whole item" }
        let names = fieldNames(c)
        guard names.count > 4 else { return names.joined(separator: ", ") }
        return names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
    }

    /// The fields of a change but `modifiedAt`, which every edit changes with it.
    package static func fieldNames(_ c: OutgoingChange) -> [String] {
        c.clocks.keys.filter { $0 != "modifiedAt" }.sorted().map { f in
            if f.hasPrefix("tag:") { return "#" + f.dropFirst(4) }
            if f.hasPrefix("note:") { return "[[" + f.dropFirst(5) + "]]" }
            if f.hasPrefix("x:") { return String(f.dropFirst(2)) }
            return f
        }
    }

    /// Why the server refused a change, in words.
    package static func words(_ r: Refusal) -> String {
        switch r {
        case .deletedElsewhere: return "deleted on another device"
        case .tooLarge(let field, let limit): return "a value past the server's limit of \(limit) bytes (\(field))"
        case .readOnly: return "the account may only read"
        case .invalid(let why): return "the server could not read it: \(why)"
        }
    }

    // MARK: JSON

    /// `{"sent","received","refused":[…],"version","refreshed":[ids]}`.
    package func syncJSON(_ r: SyncReport) -> JSONValue {
        let review = store.sync.review
        let first = review.count - r.refused.count + 1
        let ids = r.refreshed.compactMap { store.task(uid: $0)?.id }.sorted()
        return .object(JSONObject([
            ("sent", .number(JSONNumber(r.sent))), ("received", .number(JSONNumber(r.received))),
            ("refused", .array(r.refused.enumerated().map { reviewJSON($1, number: first + $0) })),
            ("version", .number(JSONNumber(validatedText: String(r.version)))), ("refreshed", .array(ids.map { .number(JSONNumber($0)) })),
        ]))
    }

    package func statusJSON(_ st: SyncStatus) -> JSONValue {
        let l = st.link
        return .object(JSONObject([
            ("linked", .bool(l != nil)), ("account", l.map { .string($0.account) } ?? .null), ("server", l.map { .string($0.server) } ?? .null),
            ("device", l.map { .string($0.device) } ?? .null), ("waiting", .number(JSONNumber(st.waiting))),
            ("refused", .number(JSONNumber(st.refused))), ("version", .number(JSONNumber(validatedText: String(st.cursor)))),
        ] + (st.loading.map { [("loading", .object(JSONObject([("received", .number(JSONNumber($0.received))),
                                                                ("total", .number(JSONNumber($0.total)))])))] } ?? [])))
    }

    package func linkJSON(_ l: SyncLink?) -> JSONValue {
        .object(JSONObject([("account", l.map { .string($0.account) } ?? .null), ("server", l.map { .string($0.server) } ?? .null),
                            ("device", l.map { .string($0.device) } ?? .null)]))
    }

    package func reviewJSON(_ e: ReviewEntry, number: Int) -> JSONValue {
        .object(JSONObject([
            ("number", .number(JSONNumber(number))), ("kind", .string(e.change.key.kind.rawValue)), ("key", .string(e.change.key.id)),
            ("label", .string(label(e.change))), ("fields", .array(Session.fieldNames(e.change).map { .string($0) })),
            ("deleted", .bool(e.change.deleted != nil)), ("reason", .string(e.refusal.code)), ("message", .string(Session.words(e.refusal))),
            ("refusedAt", .string(TimeText.isoInstant(e.refusedAt, in: zone))),
        ]))
    }

    // MARK: refreshed tasks (R-SYNC-8)

    /// A statement that named a task another device changed since this session's sync says so,
    /// once, after its output. In JSON the statement keeps its one shape: `sync` lists them.
    package func noteRefreshed(_ o: CommandOutput) -> CommandOutput {
        guard format == .text, !refreshed.isEmpty, !named.isEmpty, !o.failed, o.confirmation == nil, !o.verbatim else { return o }
        let hits = named.filter(refreshed.contains)
        guard !hits.isEmpty else { return o }
        refreshed.subtract(hits)
        var out = o
        out.lines.append(Session.refreshedNote)
        return out
    }
}

extension Session {
    /// What a count or a view adds while a first pull is under way (docs/SYNC.md, "The first
    /// pull"): the number so far is not the account's, so it says it is loading. Text: a last
    /// line `loading: 12,400 of 100,000`; JSON: a `loading` member in the statement's object.
    package func noteLoading(_ o: CommandOutput, _ s: Statement) -> CommandOutput {
        guard let (received, total) = engine.loading, !o.failed, o.confirmation == nil, !o.verbatim else { return o }
        switch s.kind {
        case .list, .count, .plan: break
        default: return o
        }
        var out = o
        if format == .json {
            let loading = JSONValue.object(JSONObject([("received", .number(JSONNumber(received))), ("total", .number(JSONNumber(total)))]))
            guard let last = out.lines.indices.last, case .some(.object(var obj)) = try? JSONParser.parse(out.lines[last]) else { return o }
            obj["loading"] = loading
            out.lines[last] = JSONWriter.compact(.object(obj))
        } else {
            out.lines.append("loading: \(Session.grouped(received)) of \(Session.grouped(total))")
        }
        return out
    }

    /// 12400 as `12,400`.
    package static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}
