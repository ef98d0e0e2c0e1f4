// Queries on the server (`kept run --account`, docs/SYNC.md "Queries on the server"): the
// account's items, read at one snapshot, taken into a store held in memory in the order a new
// device's first pull takes them (the 50 edited last, then key order), so the ids and every
// answer are those of a store synced from nothing. The statements then run on it as on any
// store: one semantics.

import KeptRules

extension Engine {
    /// Takes an account's items into this (empty, unlinked) store, as a first pull would: a
    /// task takes its rank as its id (the tasks a narrowing left out keep their numbers), or
    /// the next id in the first pull's order where the server gave no ranks.
    public func takeAll(_ items: SyncItems) throws(SyncProblem) {
        let live = items.items.filter { $0.deleted == nil }
        let ranks = items.ranks.isEmpty ? SyncItems.ranks(live.map { KeyVersion($0.key, $0.version) }) : items.ranks
        let tasks = live.filter { $0.key.kind == .task }.sorted { (ranks[$0.key] ?? Int.max) < (ranks[$1.key] ?? Int.max) }
        var report = SyncReport()
        var fixups: [TaskUID: JSONObject] = [:]
        for item in SyncItems.firstPullOrder(live) where item.key.kind != .task { _ = try takeIn(item, &report, &fixups) }
        for item in tasks {
            // Ranks rise, so the next id only ever moves on.
            if let r = ranks[item.key], r > store.nextID { store.apply(.nextID(r)) }
            _ = try takeIn(item, &report, &fixups)
        }
        try fix(fixups, &report)
        if let top = ranks.values.max(), top + 1 > store.nextID { store.apply(.nextID(top + 1)) }
    }
}
