// The first pull of an account (docs/SYNC.md, "The first pull"): a new device shows the 50
// items edited last at once, then lists the rest in key order a page at a time, committing
// each page, so a pull cut short by a drop or a kill goes on from where it stopped. While the
// listing runs, counts and views say the store is loading. An item of this store the listing
// did not hold is removed only after the server confirms the complete list: a count and a
// checksum at one version, equal to what this store holds without it. Changes still waiting to
// be sent are never removed for being absent.

import KeptRules

extension Engine {
    /// How many of the items edited last a first pull takes before the rest.
    public static let firstRecent = 50
    /// How many items one page of a first pull lists (each page is committed).
    public static let listPage = 500

    /// Where a first pull stands: nil when none is under way, or its pages are all here.
    public var loading: (received: Int, total: Int)? {
        guard let l = store.sync.listing, !l.paged else { return nil }
        return (l.received, l.total)
    }

    /// Lists the account's items when the store has pulled nothing yet, or goes on with a
    /// listing a sync before did not finish. After it, the cursor is the version the listing
    /// began at, and the pull that follows brings what changed since.
    func firstPull(from server: any SyncServer, _ report: inout SyncReport, checkpoint: () -> Result<Void, StoreError>) throws(SyncProblem) {
        if store.sync.listing == nil {
            guard store.sync.cursor == 0 else { return }
            let head: SyncHead
            switch server.head(recent: Engine.firstRecent) {
            case .success(let h): head = h
            case .failure(let f): throw .failed(f, waiting: store.sync.outbox.count)
            }
            // An empty account has nothing to list: the pull from version 0 is the whole of it.
            guard head.version > 0, head.live > 0 else { return }
            var fixups: [TaskUID: JSONObject] = [:]
            for item in head.recent where item.deleted == nil {
                if try takeIn(item, &report, &fixups) { report.received += 1 }
            }
            try fix(fixups, &report)
            apply(.sync(.listing(SyncListing(version: head.version, total: head.live, recent: head.recent.map(\.key)))))
            try commitPage(checkpoint)
        }
        guard var listing = store.sync.listing, !listing.paged else { return }

        // The items of this store the pages pass over, in the server's order: an item the
        // server did not list in its range is absent from the account (or was added here and
        // not sent yet, which the outbox protects).
        // Changes kept for review are the user's to decide: their items are never absent.
        let reviewed = Set(store.sync.review.map(\.change.key))
        let here = localKeys().filter { k in listing.after.map { SyncListing.keyOrder($0, k) } ?? true }
            .sorted(by: SyncListing.keyOrder)
        var next = 0
        while !listing.paged {
            let page: [PulledItem]
            switch server.list(after: listing.after, limit: Engine.listPage) {
            case .success(let p): page = p
            case .failure(let f): throw .failed(f, waiting: store.sync.outbox.count)
            }
            var fixups: [TaskUID: JSONObject] = [:]
            var listed = Set<SyncKey>()
            for item in page where item.deleted == nil {
                listed.insert(item.key)
                if try takeIn(item, &report, &fixups) { report.received += 1 }
            }
            try fix(fixups, &report)
            let last = page.last?.key
            let done = page.count < Engine.listPage
            while next < here.count, done || last.map({ !SyncListing.keyOrder($0, here[next]) }) ?? true {
                let k = here[next]
                next += 1
                if !listed.contains(k), store.sync.outbox[k] == nil, !reviewed.contains(k) { listing.absent.append(k) }
            }
            listing.after = last ?? listing.after
            listing.listed += page.count
            if done {
                listing.paged = true
                apply(.sync(.cursor(listing.version)))
            }
            apply(.sync(.listing(listing)))
            try commitPage(checkpoint)
        }
    }

    /// After the listing and the pull that follows it: asks the server for its count and
    /// checksum, and when they equal this store's without the absent items, removes those.
    /// Otherwise nothing is removed: a listing the server does not confirm leaves every item
    /// here (the next sync's pull still brings every deletion as it is made).
    func confirmListing(with server: any SyncServer, _ report: inout SyncReport) throws(SyncProblem) {
        guard let listing = store.sync.listing, listing.paged else { return }
        // Changes waiting to be sent make the store differ from the server's list: the check
        // waits for a sync whose push took them all.
        guard store.sync.outbox.isEmpty else { return }
        for _ in 0..<3 {
            let summary: SyncSummary
            switch server.summary() {
            case .success(let s): summary = s
            case .failure(let f): throw .failed(f, waiting: store.sync.outbox.count)
            }
            if summary.version != store.sync.cursor {
                // Something changed since the pull: take it in, then ask again.
                try pull(from: server, &report)
                continue
            }
            let absent = Set(listing.absent)
            let mine = SyncSummary.of(localKeys().filter { !absent.contains($0) })
            if mine.count == summary.count, mine.checksum == summary.checksum {
                for k in listing.absent.sorted(by: SyncListing.keyOrder) where store.sync.outbox[k] == nil {
                    guard let item = currentItem(k) else { continue }
                    if case .task(let t) = item { report.refreshed.insert(t.uid) }
                    removeItem(item)
                    report.received += 1
                    report.removedAbsent += 1
                }
            } else {
                report.unconfirmed = true
            }
            apply(.sync(.listing(nil)))
            return
        }
        // The account kept changing under the check: it runs again at the next sync.
    }

    /// Every item of this store that syncs by being listed (settings are not).
    func localKeys() -> [SyncKey] {
        var out: [SyncKey] = []
        out.reserveCapacity(store.taskCount + store.projects.count + store.areas.count + store.filters.count)
        for u in store.taskUIDs() { out.append(SyncKey(.task, u.description)) }
        for p in store.projects { out.append(SyncKey(.project, p.uid.description)) }
        for a in store.areas { out.append(SyncKey(.area, a.uid.description)) }
        for f in store.filters { out.append(SyncKey(.filter, f.uid.description)) }
        return out
    }

    /// Makes a page durable, where the front end commits as it goes.
    func commitPage(_ checkpoint: () -> Result<Void, StoreError>) throws(SyncProblem) {
        if case .failure(let e) = checkpoint() { throw .notWritten(e) }
    }
}
