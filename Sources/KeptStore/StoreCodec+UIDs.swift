// A uid names one task (docs/STORE.md, "Identity"): the store loader refuses a list in which two
// records have one uid, at the second of them, as one pass from the start meets it. The runs
// that read the list (one or two threads) only collect each record's uid and row; the check
// runs once over what they collected. A table of every uid is probed at random once a record,
// a cache miss each that a large store's load feels; here a bitmap that fits in the cache (8
// bits a uid) passes each uid once in the file's order, and only those whose bit was met
// before (about one in nine, and every repeat) go into a table.

import KeptRules
import KeptDomain
import KeptFiles

extension StoreCodec {
    /// Uids read by one run, in the file's order, each with its row in the run; `base` is the
    /// run's first row in the whole list.
    package struct UIDSegment {
        package var entries: [(uid: TaskUID, row: Int)]
        package var base: Int
    }

    /// The first record in the file whose uid an earlier record has (its own, or one derived
    /// for a record without one): the error one pass would meet there, or nil. `derived` are the
    /// rows of records without a uid; `run` has the offsets and ids of every row.
    package static func uidRepeat(_ segments: [UIDSegment], derived: [Int], _ run: TaskRun, _ r: JSONReader) -> JSONError? {
        let own = heldUIDRepeat(segments)
        guard let d = derivedUIDRepeat(derived, segments, run, r) else { return own.map { $0.error(run, r) } }
        guard let o = own, o.second < d.second else { return d.error(run, r) }
        return o.error(run, r)
    }

    /// Two rows with one uid, the later one where the error is.
    package struct UIDPair {
        package var uid: TaskUID
        package var first: Int
        package var second: Int

        package func error(_ run: TaskRun, _ r: JSONReader) -> JSONError {
            let ids = run.loader.index.ids
            return StoreCodec.sameUID(uid, first: ids[first], second: ids[second], r, at: run.offsets[second])
        }
    }

    /// A bit of a bitmap of 2^bits for a uid. Not seeded: a file made to put every uid on one
    /// bit only sends them all to the table, which is seeded.
    @inline(__always)
    package static func uidBit(_ u: TaskUID, _ bits: Int) -> Int {
        var x = u.hi ^ (u.lo &* 0x9E37_79B9_7F4A_7C15)
        x ^= x >> 29
        x &*= 0xBF58_476D_1CE4_E5B9
        x ^= x >> 32
        return Int(truncatingIfNeeded: x >> UInt64(64 - bits))
    }

    /// The first repeat among the uids records hold.
    package static func heldUIDRepeat(_ segments: [UIDSegment]) -> UIDPair? {
        let count = segments.reduce(0) { $0 + $1.entries.count }
        guard count >= 2 else { return nil }
        var bits = 10
        while 1 << bits < count * 8 { bits += 1 }
        // First pass: a uid whose bit is set already may repeat an earlier one; its bit is
        // marked in a second bitmap.
        var seen = [UInt64](repeating: 0, count: 1 << (bits - 6))
        var suspect = [UInt64](repeating: 0, count: 1 << (bits - 6))
        var suspects = 0
        for s in segments {
            for e in s.entries {
                let b = uidBit(e.uid, bits)
                let (w, m) = (b >> 6, UInt64(1) << UInt64(b & 63))
                if seen[w] & m != 0 {
                    suspect[w] |= m
                    suspects += 1
                } else {
                    seen[w] |= m
                }
            }
        }
        guard suspects > 0 else { return nil }
        // Second pass: every uid on a marked bit, in the file's order, into a table; the first
        // one met again is the first repeat of one pass.
        var table = UIDTable(reserving: suspects * 2)
        for s in segments {
            for e in s.entries {
                let b = uidBit(e.uid, bits)
                guard suspect[b >> 6] & (UInt64(1) << UInt64(b & 63)) != 0 else { continue }
                if let earlier = table.insert(e.uid, row: s.base + e.row) { return UIDPair(uid: e.uid, first: earlier, second: s.base + e.row) }
            }
        }
        return nil
    }

    /// The first repeat of a uid records hold and one derived for a record without one (a
    /// hand-edited store has both kinds; one written before uids has no held uid, and two
    /// derived uids never agree, since ids do not). Those records are read again, only then.
    package static func derivedUIDRepeat(_ rows: [Int], _ segments: [UIDSegment], _ run: TaskRun, _ r: JSONReader) -> UIDPair? {
        let count = segments.reduce(0) { $0 + $1.entries.count }
        guard !rows.isEmpty, count > 0 else { return nil }
        var held = UIDTable(reserving: count)
        for s in segments {
            for e in s.entries { _ = held.insert(e.uid, row: s.base + e.row) }
        }
        var reader = JSONReader(bytes: r.bytes, from: 0, textStart: r.textStart)
        var record = TaskRecord()
        var best: UIDPair? = nil
        for d in rows where d < run.offsets.count {
            reader.position = run.offsets[d]
            // Read once already, so this does not fail; a record that did is not compared.
            do throws(JSONError) { try readTask(&reader, into: &record, keep: false) } catch { continue }
            let u = reader.withText(record.title) { TaskUID.derived(id: record.id, createdAt: record.createdAt, titleBytes: $0) }
            guard let e = held.row(of: u) else { continue }
            let pair = UIDPair(uid: u, first: min(e, d), second: max(e, d))
            if pair.second < best?.second ?? Int.max { best = pair }
        }
        return best
    }

    /// Two tasks with one uid, refused at the second.
    package static func sameUID(_ uid: TaskUID, first: Int, second: Int, _ r: JSONReader, at offset: Int) -> JSONError {
        r.error("tasks \(first) and \(second) have the same uid \(uid); a uid names one task", at: offset)
    }
}
