// Sync (docs/SYNC.md): the outbox, filled by the change path, and one sync, which sends it and
// takes in what the account's other devices changed. The server decides every merge; the
// engine keeps what it refuses (`sync review`), and removes an item only on a deletion the
// server confirms, never because it has not seen one yet.

import KeptRules

/// Why a sync statement could not do what it was asked.
public enum SyncProblem: Error, Sendable, Equatable {
    /// The store is linked to no account.
    case notLinked
    /// The store is linked already (to this account).
    case alreadyLinked(account: String)
    /// No refused change has this number (there are `count`).
    case noRefusedChange(Int, count: Int)
    /// The server could not be used; the outbox is as it was (with `waiting` changes).
    case failed(SyncFailure, waiting: Int)
    /// A page of a first pull could not be committed (what came before it is kept).
    case notWritten(StoreError)

    public static func == (a: SyncProblem, b: SyncProblem) -> Bool {
        switch (a, b) {
        case (.notLinked, .notLinked): return true
        case (.alreadyLinked(let x), .alreadyLinked(let y)): return x == y
        case (.noRefusedChange(let n, let c), .noRefusedChange(let m, let d)): return n == m && c == d
        case (.failed(let f, let w), .failed(let g, let v)): return f == g && w == v
        // Store errors carry no equality of their own: the same case with the same words.
        case (.notWritten(let x), .notWritten(let y)): return String(describing: x) == String(describing: y)
        default: return false
        }
    }
}

/// What one sync did.
public struct SyncReport: Sendable, Equatable {
    /// Changes the server took.
    public var sent = 0
    /// Changes it refused this time, now in `sync review`.
    public var refused: [ReviewEntry] = []
    /// Items that came from the server and changed this store.
    public var received = 0
    /// Tasks of this store that another device changed or deleted (by uid).
    public var refreshed: Set<TaskUID> = []
    /// The account's version this store has now.
    public var version: Int64 = 0
    /// Items removed because the complete list, confirmed by the server, did not hold them.
    public var removedAbsent = 0
    /// The server's count and checksum did not confirm a first pull's list: nothing was
    /// removed for being absent.
    public var unconfirmed = false

    public init() {}
}

/// Where a linked store stands.
public struct SyncStatus: Sendable, Equatable {
    public var link: SyncLink?
    public var waiting: Int
    public var refused: Int
    public var cursor: Int64
    /// A first pull under way: the items here, of how many.
    public var loading: (received: Int, total: Int)?

    public static func == (a: SyncStatus, b: SyncStatus) -> Bool {
        a.link == b.link && a.waiting == b.waiting && a.refused == b.refused && a.cursor == b.cursor
            && a.loading?.received == b.loading?.received && a.loading?.total == b.loading?.total
    }
}

extension Engine {
    /// How many changes go to the server in one push (one transaction).
    public static let pushBatch = 1_000
    /// How many items one pull asks for.
    public static let pullPage = 20_000

    public var syncStatus: SyncStatus {
        let s = store.sync
        return SyncStatus(link: s.link, waiting: s.outbox.count, refused: s.review.count, cursor: s.cursor, loading: loading)
    }

    // MARK: the outbox, filled by the change path

    /// An item's fields as the store holds it now, for every item a change touches (nil: not
    /// there). Read before and after the change is applied; the difference is what is queued.
    package func syncFields(touchedBy c: Change) -> [SyncKey: [String: JSONValue]?] {
        let uidOf: (Int) -> TaskUID? = { [store] in store.task($0)?.uid }
        var out: [SyncKey: [String: JSONValue]?] = [:]
        switch c {
        case .task(let b, let a):
            for uid in Set([b?.uid, a?.uid].compactMap { $0 }) {
                out[SyncKey(.task, uid.description)] = store.task(uid: uid).map { SyncFields.fields(.task($0), uidOf: uidOf) }
            }
        case .project(let b, let a):
            for uid in Set([b?.uid, a?.uid].compactMap { $0 }) {
                out[SyncKey(.project, uid.description)] = store.projects.first { $0.uid == uid }.map { SyncFields.fields(.project($0), uidOf: uidOf) }
            }
        case .area(let b, let a):
            for uid in Set([b?.uid, a?.uid].compactMap { $0 }) {
                out[SyncKey(.area, uid.description)] = store.areas.first { $0.uid == uid }.map { SyncFields.fields(.area($0), uidOf: uidOf) }
            }
        case .settings:
            for (k, v) in SyncFields.settings(store.settings) { out[SyncKey(.setting, k)] = ["value": v] }
            for spec in Settings.specs where out[SyncKey(.setting, spec.key)] == nil { out[SyncKey(.setting, spec.key)] = .some(nil) }
        case .filters(let b, let a):
            for f in b + a { out[SyncKey(.filter, f.uid.description)] = .some(nil) }
            for (k, f) in store.filters.enumerated() { out[SyncKey(.filter, f.uid.description)] = SyncFields.fields(.filter(f, position: k), uidOf: uidOf) }
        case .plan, .calendars:
            break
        }
        return out
    }

    /// The items a change touches, by key (what `syncFields(touchedBy:)` reads).
    package func syncKeys(touchedBy c: Change) -> [SyncKey] {
        switch c {
        case .task(let b, let a): return Set([b?.uid, a?.uid].compactMap { $0 }).map { SyncKey(.task, $0.description) }
        case .project(let b, let a): return Set([b?.uid, a?.uid].compactMap { $0 }).map { SyncKey(.project, $0.description) }
        case .area(let b, let a): return Set([b?.uid, a?.uid].compactMap { $0 }).map { SyncKey(.area, $0.description) }
        case .settings(let b, let a):
            return Set(Settings.specs.map(\.key) + b.extra.keys + a.extra.keys).map { SyncKey(.setting, $0) }
        case .filters(let b, let a): return Set((b + a + store.filters).map(\.uid)).map { SyncKey(.filter, $0.description) }
        case .plan, .calendars: return []
        }
    }

    /// Queues what changed between two readings of the same items.
    package func queue(before: [SyncKey: [String: JSONValue]?], after: [SyncKey: [String: JSONValue]?]) {
        guard let link = store.sync.link else { return }
        for key in Set(before.keys).union(after.keys).sorted() {
            let b = before[key] ?? nil
            let a = after[key] ?? nil
            if b == nil, a == nil { continue }
            let changed = SyncFields.changed(b, a)
            if b != nil, a != nil, changed.isEmpty { continue }
            // A made occurrence (R-SYNC-7) carries the zero stamp: another device that made the
            // same one, changed it, completed it or deleted it outweighs it field by field, and a
            // refusal of it is no change to review. Its fields are the series', not the user's.
            let made = b == nil && key.kind == .task && making?.description == key.id
            let h = made ? HLC.zero(node: link.device) : stamp(link)
            var e = store.sync.outbox[key] ?? OutboxEntry(changeID: "", key: key, seq: store.sync.nextSeq)
            e.changeID = Engine.newChangeID(link)
            if a == nil {
                // A delete keeps the edits queued before it, with their values as they were:
                // they go with the delete, so a restore brings them back.
                e.deleted = h
                e.restored = nil
                e.values = JSONObject(e.fields.keys.sorted().map { ($0, b?[$0] ?? .null) })
            } else {
                // Every item made here is there now, even one deleted before: a creation
                // brings back what a delete took (undo of a delete, a made occurrence again).
                if b == nil {
                    e.restored = h
                    e.deleted = nil
                    e.values = nil
                }
                for f in changed { e.fields[f] = h }
            }
            store.apply(.sync(.queue(e)))
        }
    }

    /// The device's next stamp; the clock is kept in the store with the change.
    package func stamp(_ link: SyncLink) -> HLC {
        let h = HLC.tick(after: store.sync.clock, now: nowMillis, node: link.device)
        store.apply(.sync(.clock(h)))
        return h
    }

    /// The wall time sync's clock reads: the injected clock's milliseconds where it has them.
    var nowMillis: Int64 {
        if case .clock(let c) = clock { return c.nowMillis() }
        return HLC.millis(of: now)
    }

    /// A change id no other device makes: the device, then 128 random bits (never the seeded
    /// uids of a transcript, which two devices would share).
    static func newChangeID(_ link: SyncLink) -> String {
        var r = UIDSource.random
        return link.device + "-" + r.next().description
    }

    // MARK: linking

    /// Links the store to an account and queues everything it holds, so the first sync sends
    /// it. Tasks carry the time of their last change; everything else the zero stamp, so an
    /// account's own projects, filters and settings win over a new device's (docs/SYNC.md,
    /// "Linking").
    public func link(_ link: SyncLink) throws(SyncProblem) {
        if let l = store.sync.link { throw .alreadyLinked(account: l.account) }
        apply(.sync(.link(link)))
        let uidOf: (Int) -> TaskUID? = { [store] in store.task($0)?.uid }
        var seq = store.sync.nextSeq
        var latest = HLC.zero(node: link.device)
        func put(_ item: SyncItem, at h: HLC) {
            let f = SyncFields.fields(item, uidOf: uidOf)
            let e = OutboxEntry(changeID: Engine.newChangeID(link), key: item.key, fields: f.mapValues { _ in h }, restored: h, seq: seq)
            seq += 1
            store.apply(.sync(.queue(e)))
            latest = max(latest, h)
        }
        let zero = HLC.zero(node: link.device)
        for t in store.tasks(.all) { put(.task(t), at: HLC(millis: HLC.millis(of: t.modifiedAt), counter: 0, node: link.device)) }
        for p in store.projects { put(.project(p), at: zero) }
        for a in store.areas { put(.area(a), at: zero) }
        for (k, f) in store.filters.enumerated() { put(.filter(f, position: k), at: zero) }
        let standard = SyncFields.settings(Settings())
        for (k, v) in SyncFields.settings(store.settings) where standard[k] != v { put(.setting(k, v), at: zero) }
        // The clock starts at the latest stamp queued, or now.
        let h = HLC.tick(after: latest, now: nowMillis, node: link.device)
        store.apply(.sync(.clock(h)))
    }

    // MARK: one sync

    /// Sends the outbox, then takes in what changed on the server since the last pull. A
    /// failure leaves the outbox as it was (what a finished push took is taken: pushes are
    /// idempotent, and the next sync sends the rest). `checkpoint` makes what is applied so
    /// far durable: a first pull calls it after each page (a front end that commits at the
    /// end of a run, or never, passes nothing).
    public func sync(with server: any SyncServer,
                     checkpoint: () -> Result<Void, StoreError> = { .success(()) }) throws(SyncProblem) -> SyncReport {
        guard store.sync.link != nil else { throw .notLinked }
        var report = SyncReport()
        let queue = store.sync.queue
        var k = 0
        while k < queue.count {
            let batch = Array(queue[k..<min(k + Engine.pushBatch, queue.count)])
            k += batch.count
            var sent: [(change: OutgoingChange, record: JSONObject?)] = []
            for e in batch {
                if let c = outgoing(e) { sent.append(c) } else { apply(.sync(.dequeue(e.key))) }
            }
            guard !sent.isEmpty else { continue }
            let results: [PushResult]
            switch server.push(sent.map(\.change)) {
            case .success(let r): results = r
            case .failure(let f): throw .failed(f, waiting: store.sync.outbox.count)
            }
            guard results.count == sent.count else {
                throw .failed(.badRow("the server answered \(results.count) of \(sent.count) changes"), waiting: store.sync.outbox.count)
            }
            for (s, r) in zip(sent, results) {
                // A change queued again since it was read stays for the next push.
                if store.sync.outbox[s.change.key]?.changeID == s.change.changeID { apply(.sync(.dequeue(s.change.key))) }
                switch r.outcome {
                case .applied:
                    report.sent += 1
                case .refused(let why, let current):
                    // What only a new store's link sent (the zero stamp) is the account's to
                    // decide: a refusal of it is no change of the user's to review.
                    let linkOnly = s.change.clocks.values.allSatisfy { $0.millis == 0 } && (s.change.restored?.millis ?? 0) == 0
                    if !linkOnly {
                        let entry = ReviewEntry(change: s.change, refusal: why, refusedAt: now, record: s.record)
                        apply(.sync(.park(entry)))
                        report.refused.append(entry)
                    }
                    // This store takes the server's version of the item, so it holds what the
                    // account holds; the change waits in review.
                    if let current {
                        var fixups: [TaskUID: JSONObject] = [:]
                        if try takeIn(current, &report, &fixups) { report.received += 1 }
                        try fix(fixups, &report)
                    }
                }
            }
        }
        try firstPull(from: server, &report, checkpoint: checkpoint)
        try pull(from: server, &report)
        try confirmListing(with: server, &report)
        report.version = store.sync.cursor
        return report
    }

    /// The change an entry sends, with the item's whole record for a review; nil when the item
    /// is gone without a delete (a change taken back).
    func outgoing(_ e: OutboxEntry) -> (change: OutgoingChange, record: JSONObject?)? {
        let uidOf: (Int) -> TaskUID? = { [store] in store.task($0)?.uid }
        guard let item = currentItem(e.key) else {
            guard let d = e.deleted else { return nil }
            var values = JSONObject()
            for f in e.fields.keys.sorted() { values[f] = e.values?[f] ?? .null }
            return (OutgoingChange(changeID: e.changeID, key: e.key, values: values, clocks: e.fields, deleted: d, restored: nil,
                                   label: ""), nil)
        }
        let all = SyncFields.fields(item, uidOf: uidOf)
        var values = JSONObject()
        for f in e.fields.keys.sorted() { values[f] = all[f] ?? .null }
        let record = JSONObject(all.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        return (OutgoingChange(changeID: e.changeID, key: e.key, values: values, clocks: e.fields, deleted: nil, restored: e.restored,
                               label: item.label), record)
    }

    /// An item of this store by its key.
    func currentItem(_ key: SyncKey) -> SyncItem? {
        switch key.kind {
        case .task: return TaskUID(key.id).flatMap { store.task(uid: $0) }.map { .task($0) }
        case .project: return store.projects.first { $0.uid.description == key.id }.map { .project($0) }
        case .area: return store.areas.first { $0.uid.description == key.id }.map { .area($0) }
        case .filter:
            guard let k = store.filters.firstIndex(where: { $0.uid.description == key.id }) else { return nil }
            return .filter(store.filters[k], position: k)
        case .setting:
            return SyncFields.settings(store.settings)[key.id].map { .setting(key.id, $0) }
        }
    }

    /// Takes in every item changed on the server after the cursor, a page at a time.
    func pull(from server: any SyncServer, _ report: inout SyncReport) throws(SyncProblem) {
        var fixups: [TaskUID: JSONObject] = [:]
        let start = store.sync.cursor
        while true {
            let items: [PulledItem]
            switch server.pull(after: store.sync.cursor, limit: Engine.pullPage) {
            case .success(let i): items = i
            case .failure(let f):
                // What came is kept, but pulled again next time: a subtask that came before
                // its parent gets its parent then.
                if !fixups.isEmpty { apply(.sync(.cursor(start))) }
                throw .failed(f, waiting: store.sync.outbox.count)
            }
            // The cursor is written once a page (a row of the store's sync state, rewritten at
            // every item, cost as much as taking the item in), and as far as the items taken
            // when one fails.
            var cursor = store.sync.cursor
            do throws(SyncProblem) {
                for item in items where item.version > cursor {
                    if try takeIn(item, &report, &fixups) { report.received += 1 }
                    cursor = item.version
                }
            } catch {
                if cursor != store.sync.cursor { apply(.sync(.cursor(cursor))) }
                throw error
            }
            if cursor != store.sync.cursor { apply(.sync(.cursor(cursor))) }
            if items.count < Engine.pullPage { break }
        }
        try fix(fixups, &report)
        report.version = store.sync.cursor
    }

    /// Sets the parents and made occurrences that named tasks not here when they came.
    func fix(_ fixups: [TaskUID: JSONObject], _ report: inout SyncReport) throws(SyncProblem) {
        for (uid, fields) in fixups.sorted(by: { $0.key < $1.key }) {
            guard let t = store.task(uid: uid) else { continue }
            let record = SyncFields.taskRecord(fields, uid: uid, id: t.id, local: t, idOf: { [store] in store.task(uid: $0)?.id })
            guard let again = store.task(record: record) else { throw .failed(.badRow("task \(uid)"), waiting: store.sync.outbox.count) }
            if again != t { applyTaken(.task(before: t, after: again)) }
        }
    }

    /// Takes one item from the server into this store, past the outbox (it is the server's
    /// version, not a change of this device's). True when the store changed.
    func takeIn(_ item: PulledItem, _ report: inout SyncReport, _ fixups: inout [TaskUID: JSONObject]) throws(SyncProblem) -> Bool {
        if let l = store.sync.link, let seen = item.latest {
            // Most stamps pulled are older than this device's clock, which then stays as it is.
            let clock = HLC.received(seen, into: store.sync.clock, node: l.device)
            if clock != store.sync.clock { store.apply(.sync(.clock(clock))) }
        }
        let waiting = store.sync.outbox.count
        func bad() -> SyncProblem { .failed(.badRow("\(item.key.kind.rawValue) \(item.key.id)"), waiting: waiting) }
        let gone = item.deleted != nil
        switch item.key.kind {
        case .task:
            guard let uid = TaskUID(item.key.id) else { throw bad() }
            let local = store.task(uid: uid)
            if gone {
                guard let local else { return false }
                applyTaken(.task(before: local, after: nil))
                report.refreshed.insert(uid)
                return true
            }
            let id: Int
            if let local { id = local.id } else {
                guard hasIDs(1) else { throw .failed(.server("this store has no ids left"), waiting: waiting) }
                id = store.nextID
                store.apply(.nextID(id + 1))
            }
            let idOf: (TaskUID) -> Int? = { [store] in store.task(uid: $0)?.id }
            let record = SyncFields.taskRecord(item.fields, uid: uid, id: id, local: local, idOf: idOf)
            guard let t = store.task(record: record) else { throw bad() }
            if record["parent"] == nil, !(item.fields["parent"]?.isNull ?? true) { fixups[uid] = item.fields }
            guard t != local else { return false }
            applyTaken(.task(before: local, after: t))
            if local != nil { report.refreshed.insert(uid) }
            return true
        case .project:
            guard let uid = TaskUID(item.key.id) else { throw bad() }
            let local = store.projects.first { $0.uid == uid }
            let p: Project?
            if gone { p = nil } else {
                guard let x = SyncFields.project(item.fields, uid: uid) else { throw bad() }
                p = x
            }
            guard p != local else { return false }
            applyTaken(.project(before: local, after: p))
            return true
        case .area:
            guard let uid = TaskUID(item.key.id) else { throw bad() }
            let local = store.areas.first { $0.uid == uid }
            let a: Area?
            if gone { a = nil } else {
                guard let x = SyncFields.area(item.fields, uid: uid) else { throw bad() }
                a = x
            }
            guard a != local else { return false }
            applyTaken(.area(before: local, after: a))
            return true
        case .filter:
            guard let uid = TaskUID(item.key.id) else { throw bad() }
            let before = store.filters
            var after = before.filter { $0.uid != uid }
            if !gone {
                guard let (f, place) = SyncFields.filter(item.fields, uid: uid) else { throw bad() }
                after.insert(f, at: max(0, min(place, after.count)))
            }
            guard after != before else { return false }
            applyTaken(.filters(before: before, after: after))
            return true
        case .setting:
            let before = store.settings
            var after = before
            let value = gone ? nil : item.fields["value"].flatMap { $0.isNull ? nil : $0 }
            if let spec = Settings.spec(item.key.id) {
                let text = value?.stringValue ?? spec.get(Settings())
                // A value this version does not take leaves the setting as it is.
                if !(spec.key == "zone" && text.isEmpty) { _ = after.set(spec.key, to: text) } else { after.zone = nil }
            } else {
                after.extra[item.key.id] = value
            }
            guard after != before else { return false }
            applyTaken(.settings(before: before, after: after))
            return true
        }
    }

    /// Applies a change taken from the server: through the store's change path, with the
    /// tombstones a delete leaves, but not into the outbox or the undo history.
    func applyTaken(_ c: Change) {
        apply(.item(c), queue: false)
    }

    // MARK: review

    /// Puts a refused change back as a change of this device's (numbered from 1, oldest
    /// first): the item as it was sent comes back, whole, and goes with the next sync as this
    /// device's newest choice, bringing back an item another device deleted.
    public func retryRefused(_ n: Int) throws(SyncProblem) -> ReviewEntry {
        guard let link = store.sync.link else { throw .notLinked }
        let review = store.sync.review
        guard n >= 1, n <= review.count else { throw .noRefusedChange(n, count: review.count) }
        let entry = review[n - 1]
        apply(.sync(.unpark(entry.change.changeID)))
        let key = entry.change.key
        let was = currentItem(key)
        if entry.change.deleted != nil {
            if let was { removeItem(was) }
        } else if let record = entry.record {
            put(record, key: key)
        }
        let h = stamp(link)
        var e = store.sync.outbox[key] ?? OutboxEntry(changeID: "", key: key, seq: store.sync.nextSeq)
        e.changeID = Engine.newChangeID(link)
        if entry.change.deleted != nil {
            e.deleted = h
            e.restored = nil
            e.fields = [:]
        } else if let now = syncFields(key: key).value {
            let whole = was == nil || entry.refusal == .deletedElsewhere
            if whole { e.restored = h }
            for f in whole ? Array(now.keys) : Array(entry.change.clocks.keys) { e.fields[f] = h }
        }
        store.apply(.sync(.queue(e)))
        return entry
    }

    /// Drops a refused change for good.
    public func discardRefused(_ n: Int) throws(SyncProblem) -> ReviewEntry {
        let review = store.sync.review
        guard n >= 1, n <= review.count else { throw .noRefusedChange(n, count: review.count) }
        apply(.sync(.unpark(review[n - 1].change.changeID)))
        return review[n - 1]
    }

    func syncFields(key: SyncKey) -> (key: SyncKey, value: [String: JSONValue]?) {
        let uidOf: (Int) -> TaskUID? = { [store] in store.task($0)?.uid }
        return (key, currentItem(key).map { SyncFields.fields($0, uidOf: uidOf) })
    }

    func removeItem(_ item: SyncItem) {
        switch item {
        case .task(let t): apply(.item(.task(before: t, after: nil)), queue: false)
        case .project(let p): apply(.item(.project(before: p, after: nil)), queue: false)
        case .area(let a): apply(.item(.area(before: a, after: nil)), queue: false)
        case .filter(let f, _): apply(.item(.filters(before: store.filters, after: store.filters.filter { $0.uid != f.uid })), queue: false)
        case .setting: break
        }
    }

    /// Puts an item from its fields (a review's record) in place of what is here.
    func put(_ record: JSONObject, key: SyncKey) {
        let item = PulledItem(key: key, fields: record, clocks: [:], deleted: nil, version: 0)
        var report = SyncReport()
        var fixups: [TaskUID: JSONObject] = [:]
        do throws(SyncProblem) {
            _ = try takeIn(item, &report, &fixups)
            try fix(fixups, &report)
        } catch {
            // A record this device wrote itself reads; one that does not stays in the outbox
            // as its fields, and the next sync sends what the store holds.
        }
    }
}
