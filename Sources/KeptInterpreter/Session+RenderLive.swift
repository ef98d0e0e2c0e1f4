// Live sync's side of the session (docs/SYNC.md, "Live"): a live front end (the REPL on a linked
// store, `kept sync --watch`) runs the `sync` statement through `run`, so the store commits as
// for any statement, and learns from this file what that sync did and which of the tasks the
// last listing showed another device changed; and what it says about it, in text or JSON.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A task as a listing or `show` showed it: enough to name it after another device changed it,
/// or deleted it.
package struct ShownTask: Sendable, Equatable {
    package var uid: TaskUID
    package var id: Int
    package var title: String
}

/// What a live front end learns from the statements a session runs.
package struct LiveObservation {
    /// Whether `shown` is kept: only a live front end asks, so other runs pay nothing.
    package var keepsShown = false
    /// The tasks the last `list` or `show` statement showed, in order.
    package var shown: [ShownTask] = []
    /// What the last sync statement did, when it succeeded.
    package var lastSync: SyncReport?
}

/// What one live sync did.
package enum LiveSyncResult {
    /// It synced: what it sent and took in, and the shown tasks another device changed.
    case synced(SyncReport, shown: [ShownTask])
    /// It failed, as the `sync` statement reports it; `syncOffline` is set when the server could
    /// not be reached (the changes wait).
    case failed(CommandOutput)
}

extension Session {
    /// Notes what a statement did that a live front end needs: the tasks a listing or `show`
    /// put on the screen, and a sync's report. Called with every outcome, before it is rendered.
    package func observe(_ a: Acted) {
        switch a {
        case .sync(.synced(_, .success(let r))):
            live.lastSync = r
        case .shown(let t, _) where live.keepsShown:
            live.shown = [ShownTask(uid: t.uid, id: t.id, title: t.title)]
        case .query(.listed(_, _, let found, _, _, _)) where live.keepsShown:
            var shown: [ShownTask] = []
            for section in found {
                switch section {
                case .view(_, let v):
                    for t in v.tasks + v.done { shown.append(ShownTask(uid: t.uid, id: t.id, title: t.title)) }
                case .tasks(_, let ordered, _, _):
                    for t in ordered { shown.append(ShownTask(uid: t.uid, id: t.id, title: t.title)) }
                case .deleted:
                    break
                }
            }
            live.shown = shown
        default:
            break
        }
    }

    /// One sync of a linked store, as the `sync` statement runs it (committed after, or rolled
    /// back on a failure). The shown tasks it changed are said here, so a statement that names
    /// one later does not say so again (R-SYNC-8).
    package func liveSync() -> LiveSyncResult {
        live.lastSync = nil
        let out = run(StatementSource(file: SourceFile(name: "live sync", text: "sync")))
        // A sync that changed nothing here (or failed before it did) leaves the write lock the
        // statement took before it ran: another process may write the store until the next sync.
        if !store.hasPending { _ = engine.commit() }
        guard !out.failed, let report = live.lastSync else { return .failed(out) }
        live.lastSync = nil
        var changed: [ShownTask] = []
        for s in live.shown where report.refreshed.contains(s.uid) {
            // As it is now; a task deleted on another device keeps the words it was shown with.
            if let t = store.task(uid: s.uid) {
                changed.append(ShownTask(uid: s.uid, id: t.id, title: t.title))
            } else {
                changed.append(s)
            }
        }
        refreshed.subtract(changed.map(\.uid))
        return .synced(report, shown: changed)
    }

    // MARK: what a live front end says

    /// What the REPL says after a sync took in another device's changes, above its prompt: how
    /// many came, the refusals, and each shown task that changed (R-SYNC-8). In JSON one object.
    package func liveReceived(_ r: SyncReport, shown: [ShownTask], recovered: Bool) -> [String] {
        guard format == .text else { return [JSONWriter.compact(liveJSON("synced", r, shown: shown))] }
        var lines: [String] = []
        if recovered { lines.append("↻ Back online" + (r.sent > 0 ? ": sent \(Session.changes(r.sent))" : "")) }
        if r.received > 0 { lines.append("↻ \(Session.changes(r.received)) from another device") }
        if !r.refused.isEmpty { lines.append("↻ \(Session.changes(r.refused.count)) refused (see sync review)") }
        for s in shown { lines.append("\(s.id) · \(s.title) · \(Session.refreshedNote)") }
        return lines.map(DisplayText.escaped)
    }

    /// What `kept sync --watch` says after a sync that did something: the `sync` statement's
    /// lines, or in JSON its object as a live event.
    package func liveSynced(_ r: SyncReport) -> [String] {
        guard format == .text else { return [JSONWriter.compact(liveJSON("synced", r, shown: []))] }
        guard let link = store.sync.link else { return [] }
        return syncLines(link, r).map(DisplayText.escaped)
    }

    /// Said once when a live sync finds the server gone: the changes wait, and when Kept tries.
    package func liveOffline(waiting: Int, message: String, prompt: Bool) -> [String] {
        guard format == .text else {
            return [JSONWriter.compact(.object(JSONObject([
                ("live", .string("offline")), ("waiting", .number(JSONNumber(waiting))), ("message", .string(message)),
            ])))]
        }
        let waits = waiting == 0 ? "nothing waits to be sent" : "\(Session.changes(waiting)) \(waiting == 1 ? "waits" : "wait") here"
        let line = "Offline: \(waits); Kept tries again every 10 s and as soon as the server answers"
        return [DisplayText.escaped(prompt ? "↻ " + line : line)]
    }

    /// Said once for a live sync that failed otherwise (a login refused, no schema…): the
    /// diagnostic's code and words; Kept keeps trying.
    package func liveFailed(_ d: Diagnostic, prompt: Bool) -> [String] {
        guard format == .text else {
            return [JSONWriter.compact(.object(JSONObject([
                ("live", .string("failed")), ("code", .string(d.code.rawValue)), ("message", .string(d.message)),
            ])))]
        }
        let line = "Sync failed (\(d.code.rawValue)): \(d.message); Kept tries again every 10 s"
        return [DisplayText.escaped(prompt ? "↻ " + line : line)]
    }

    /// `{"live": KIND, "sent", "received", "refused", "version", "refreshed", "shown"}`: the sync
    /// statement's object, named as an event, with the ids of the shown tasks that changed.
    package func liveJSON(_ kind: String, _ r: SyncReport, shown: [ShownTask]) -> JSONValue {
        var pairs: [(String, JSONValue)] = [("live", .string(kind))]
        if case .object(let o) = syncJSON(r) { pairs += o.members.map { ($0.key, $0.value) } }
        pairs.append(("shown", .array(shown.map { .number(JSONNumber($0.id)) })))
        return .object(JSONObject(pairs))
    }
}
