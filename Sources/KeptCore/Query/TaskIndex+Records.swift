// Columns straight from a store file's task records, with no Task built: names are interned by
// their bytes, so a name that repeats costs a hash and a compare, not a String. The store
// loader uses this so that a read-only query on a large store never builds its tasks.

extension TaskIndex {
    /// An empty index to append records to.
    init(reserving n: Int, dayStart: WallTime) {
        count = 0
        self.dayStart = dayStart
        hasText = true
        reserveColumns(n)
        textSpans.reserveCapacity(4 * n)
        tagStart.append(0)
        noteStart.append(0)
    }

    /// Builds the columns of records one at a time.
    struct RecordLoader {
        var index: TaskIndex
        var names = ByteInterner()
        /// Repeat texts to their frequency column value: most stores repeat a few rules.
        var frequencies: [String: Int8] = [:]
        let ds: Int

        init(reserving n: Int, dayStart: WallTime) {
            index = TaskIndex(reserving: n, dayStart: dayStart)
            ds = dayStart.minuteOfDay
        }

        mutating func intern(_ ref: JSONStringRef, _ kind: UInt8, _ r: JSONReader) -> Int32 {
            if !ref.escaped, let id = r.bytes.withUnsafeBufferPointer({ names.find(UnsafeBufferPointer(rebasing: $0[ref.start..<ref.end]), kind) }) {
                return id
            }
            let id = index.intern(r.string(ref), kind)
            if !ref.escaped {
                r.bytes.withUnsafeBufferPointer { names.insert(UnsafeBufferPointer(rebasing: $0[ref.start..<ref.end]), kind, id) }
            }
            return id
        }

        mutating func append(_ t: TaskRecord, _ r: JSONReader) {
            for g in t.tags {
                let id = intern(g, 0, r)
                index.tagIDs.append(id)
            }
            index.tagStart.append(Int32(index.tagIDs.count))
            for n in t.notes {
                let id = intern(n, 0, r)
                index.noteIDs.append(id)
            }
            index.noteStart.append(Int32(index.noteIDs.count))
            let project = t.project.map { intern($0, 0, r) } ?? -1
            index.project.append(project)
            let area = t.area.map { intern($0, 1, r) } ?? -1
            index.area.append(area)
            if let s = t.status {
                let kind: UInt8 = r.text(s, is: "open") ? 0 : (r.text(s, is: "done") ? 1 : (r.text(s, is: "archived") ? 2 : 3))
                let id = intern(s, 2, r)
                index.statusKind.append(kind)
                index.statusID.append(id)
            } else {
                index.statusKind.append(0)
                let id = index.intern("open", 2)
                index.statusID.append(id)
            }
            index.priority.append(UInt8(t.priority.rawValue))
            index.appendDue(t.due, ds)
            let freq: Int8 = t.hasRepeat ? frequency(t, r) : -1
            index.repeatFreq.append(freq)
            index.estimate.append(t.estimate.map { Int32(clamping: $0.minutes) } ?? -1)
            index.created.append(t.createdAt.seconds)
            index.completed.append(t.completedAt?.seconds ?? Int64.min)
            index.held.append(t.heldUntil.map { Int32($0.dayNumber) } ?? TaskIndex.none)
            index.ids.append(t.id)
            index.userEstimate.append(t.estimate.map { $0.source == .user ? Int32(clamping: $0.minutes) : -1 } ?? -1)
            index.hasGoal.append(t.goal != nil)
            index.parent.append(t.parent ?? 0)
            for rem in t.reminders {
                index.reminderRows.append(Int32(index.count))
                index.reminderMinutes.append(TaskIndex.civilMinute(rem.at))
            }
            span(t.title, r)
            span(t.description ?? .empty, r)
            index.count += 1
        }

        /// Where a string's text is: in the file itself, or decoded when it has escapes.
        mutating func span(_ ref: JSONStringRef, _ r: JSONReader) {
            if ref.escaped {
                index.textSpans.append(-1 - index.decoded.count)
                r.appendText(ref, to: &index.decoded)
                index.textSpans.append(-1 - index.decoded.count)
            } else {
                index.textSpans.append(ref.start)
                index.textSpans.append(ref.end)
            }
        }

        /// The frequency column value of a record's repeat, as the Task's RepeatSpec reads it.
        mutating func frequency(_ t: TaskRecord, _ r: JSONReader) -> Int8 {
            let text = r.string(t.repeatText)
            let key = t.repeatRRULE.map { text + "\u{0}" + r.string($0) } ?? text
            if let f = frequencies[key] { return f }
            let spec = RepeatSpec(text: text, rrule: t.repeatRRULE.map { r.string($0) }, anchor: nil)
            let f: Int8
            switch spec.rule?.frequency {
            case .daily?: f = 0
            case .weekly?: f = 1
            case .monthly?: f = 2
            case .yearly?: f = 3
            case nil: f = 4
            }
            frequencies[key] = f
            return f
        }
    }
}

/// A hash table from (kind, bytes) to an interned id, owning copies of the bytes it was given.
struct ByteInterner {
    private var keys: [UInt8] = []
    /// Per slot: key start in `keys`, key length, kind and id; length -1 marks an empty slot.
    private var starts: [Int] = Array(repeating: 0, count: 256)
    private var lengths: [Int32] = Array(repeating: -1, count: 256)
    private var kinds: [UInt8] = Array(repeating: 0, count: 256)
    private var ids: [Int32] = Array(repeating: 0, count: 256)
    private var used = 0

    @inline(__always)
    static func hash(_ b: UnsafeBufferPointer<UInt8>, _ kind: UInt8) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325 ^ UInt64(kind)
        for x in b { h = (h ^ UInt64(x)) &* 0x100000001b3 }
        return h
    }

    func find(_ b: UnsafeBufferPointer<UInt8>, _ kind: UInt8) -> Int32? {
        let mask = lengths.count - 1
        var slot = Int(truncatingIfNeeded: ByteInterner.hash(b, kind)) & mask
        while lengths[slot] >= 0 {
            if Int(lengths[slot]) == b.count, kinds[slot] == kind, equal(slot, b) { return ids[slot] }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func equal(_ slot: Int, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let s = starts[slot]
        return keys.withUnsafeBufferPointer { k in
            var j = 0
            while j < b.count {
                if k[s + j] != b[j] { return false }
                j += 1
            }
            return true
        }
    }

    mutating func insert(_ b: UnsafeBufferPointer<UInt8>, _ kind: UInt8, _ id: Int32) {
        if (used + 1) * 2 > lengths.count { grow() }
        let start = keys.count
        keys.append(contentsOf: b)
        place(start, Int32(b.count), kind, id, ByteInterner.hash(b, kind))
        used += 1
    }

    private mutating func place(_ start: Int, _ length: Int32, _ kind: UInt8, _ id: Int32, _ h: UInt64) {
        let mask = lengths.count - 1
        var slot = Int(truncatingIfNeeded: h) & mask
        while lengths[slot] >= 0 { slot = (slot + 1) & mask }
        starts[slot] = start
        lengths[slot] = length
        kinds[slot] = kind
        ids[slot] = id
    }

    private mutating func grow() {
        let old = (starts, lengths, kinds, ids)
        let n = lengths.count * 2
        starts = Array(repeating: 0, count: n)
        lengths = Array(repeating: -1, count: n)
        kinds = Array(repeating: 0, count: n)
        ids = Array(repeating: 0, count: n)
        for slot in 0..<old.1.count where old.1[slot] >= 0 {
            let s = old.0[slot]
            let l = Int(old.1[slot])
            let h = keys.withUnsafeBufferPointer { ByteInterner.hash(UnsafeBufferPointer(rebasing: $0[s..<(s + l)]), old.2[slot]) }
            place(s, old.1[slot], old.2[slot], old.3[slot], h)
        }
    }
}

extension TaskIndex {
    /// Appends the columns of another index built from later records, mapping its name ids
    /// into this index's names.
    mutating func append(_ o: TaskIndex) {
        var remap = [Int32](repeating: -1, count: o.names.count)
        for (name, id) in o.names { remap[Int(id)] = intern(name) }
        for (spelling, id) in o.spelled where spelled[spelling] == nil { spelled[spelling] = remap[Int(id)] }
        let tagBase = Int32(tagIDs.count)
        let noteBase = Int32(noteIDs.count)
        let decodedBase = decoded.count
        let rowBase = Int32(count)
        // Whole columns at a time: name ids through the remap, offsets moved by a base.
        remap.withUnsafeBufferPointer { m in
            let map = { (id: Int32) -> Int32 in id >= 0 && Int(id) < m.count ? m[Int(id)] : id }
            TaskIndex.append(&tagIDs, o.tagIDs, map)
            TaskIndex.append(&noteIDs, o.noteIDs, map)
            TaskIndex.append(&project, o.project, map)
            TaskIndex.append(&area, o.area, map)
            TaskIndex.append(&statusID, o.statusID, map)
        }
        TaskIndex.append(&tagStart, o.tagStart.dropFirst()) { $0 + tagBase }
        TaskIndex.append(&noteStart, o.noteStart.dropFirst()) { $0 + noteBase }
        statusKind += o.statusKind
        priority += o.priority
        dueDay += o.dueDay
        dueDate += o.dueDate
        dueMinute += o.dueMinute
        repeatFreq += o.repeatFreq
        estimate += o.estimate
        created += o.created
        completed += o.completed
        held += o.held
        ids += o.ids
        userEstimate += o.userEstimate
        hasGoal += o.hasGoal
        parent += o.parent
        TaskIndex.append(&reminderRows, o.reminderRows) { $0 + rowBase }
        reminderMinutes += o.reminderMinutes
        // Both runs point into the same file; only decoded spans move.
        TaskIndex.append(&textSpans, o.textSpans) { $0 >= 0 ? $0 : $0 - decodedBase }
        decoded += o.decoded
        count += o.count
    }

    /// Appends `src` mapped through `f`, written in one pass into the grown column.
    @inline(__always)
    static func append<T: FixedWidthInteger, C: Collection<T>>(_ dst: inout [T], _ src: C, _ f: (T) -> T) {
        let n = src.count
        guard n > 0 else { return }
        let at = dst.count
        dst.append(contentsOf: repeatElement(0, count: n))
        dst.withUnsafeMutableBufferPointer { d in
            var k = at
            for x in src {
                d[k] = f(x)
                k += 1
            }
        }
    }

}
