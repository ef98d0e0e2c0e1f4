// Rows by uid, for the store loader's check that a uid names one task (docs/STORE.md,
// "Identity"; StoreCodec+UIDs): an open-addressing table keyed by the uid's hash, one probe
// into a flat array an insert in the usual case, without a Dictionary's uniqueness test a
// mutation. The hash is Swift's Hasher, seeded per process, so a file cannot be made of uids
// that all land in one slot.

import KeptRules
import KeptDomain
import KeptFiles

/// Rows by uid, for the store loader.
package struct UIDTable: Sendable {
    /// Each slot: the hash's high 32 bits (a tag, to skip most other uids without reading them)
    /// and the entry's index plus one in the low 32 bits; 0 is an empty slot.
    private var slots: [UInt64]
    /// Each uid with its row, in the order inserted (the file's order, for the loader).
    private(set) var entries: [(uid: TaskUID, row: Int)] = []
    private var mask: Int

    /// A table for about `n` uids; it grows past them.
    package init(reserving n: Int) {
        var size = 16
        while size < max(n, 8) * 2 { size <<= 1 }
        slots = [UInt64](repeating: 0, count: size)
        mask = size - 1
        entries.reserveCapacity(max(n, 0))
    }

    package var count: Int { entries.count }

    /// Adds a uid and its row; the row that has it already, or nil.
    package mutating func insert(_ u: TaskUID, row: Int) -> Int? {
        let h = UInt64(bitPattern: Int64(u.hashValue))
        if let k = find(u, h) { return entries[k].row }
        // Entries are counted in 32 bits: a store of 1 GiB holds far fewer records.
        guard entries.count < Int(UInt32.max) - 1 else { return nil }
        if (entries.count + 1) * 2 > slots.count { grow() }
        place(h, entries.count)
        entries.append((u, row))
        return nil
    }

    /// The row of a uid, or nil.
    package func row(of u: TaskUID) -> Int? {
        find(u, UInt64(bitPattern: Int64(u.hashValue))).map { entries[$0].row }
    }

    /// The index of a uid's entry.
    private func find(_ u: TaskUID, _ h: UInt64) -> Int? {
        let tag = h >> 32
        var k = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[k]
            if s == 0 { return nil }
            if s >> 32 == tag {
                let e = Int(s & 0xFFFF_FFFF) - 1
                if entries[e].uid == u { return e }
            }
            k = (k + 1) & mask
        }
    }

    private mutating func place(_ h: UInt64, _ entry: Int) {
        var k = Int(truncatingIfNeeded: h) & mask
        while slots[k] != 0 { k = (k + 1) & mask }
        slots[k] = (h >> 32) << 32 | UInt64(entry + 1)
    }

    /// Twice the slots, every entry placed again.
    private mutating func grow() {
        slots = [UInt64](repeating: 0, count: slots.count * 2)
        mask = slots.count - 1
        for (k, e) in entries.enumerated() { place(UInt64(bitPattern: Int64(e.uid.hashValue)), k) }
    }
}
