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
        /// Repeat texts and rules by their bytes, and each pair of them to its frequency column
        /// value: most stores repeat a few rules.
        var rules = ByteInterner()
        var frequencies: [Int: Int8] = [:]
        var ruleCount: Int32 = 0
        let ds: Int

        init(reserving n: Int, dayStart: WallTime) {
            index = TaskIndex(reserving: n, dayStart: dayStart)
            ds = dayStart.minuteOfDay
        }

        /// The id of a name, and for a status (kind 2) its StatusKind's raw value.
        @inline(__always)
        mutating func intern(_ ref: JSONStringRef, _ kind: UInt8, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) -> (id: Int32, aux: UInt8) {
            if !ref.escaped, let found = names.find(b, ref.start, ref.count, kind) { return found }
            let id = index.intern(r.string(ref), kind)
            let aux: UInt8 = kind != 2 ? 0 : (r.text(ref, is: "open") ? StatusKind.open : (r.text(ref, is: "done") ? StatusKind.done
                : (r.text(ref, is: "archived") ? StatusKind.archived : StatusKind.other))).rawValue
            if !ref.escaped { names.insert(b, ref.start, ref.count, kind, id, aux: aux) }
            return (id, aux)
        }

        mutating func append(_ t: TaskRecord, _ r: JSONReader) {
            r.bytes.withUnsafeBufferPointer { b in append(t, b, r) }
        }

        private mutating func append(_ t: TaskRecord, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) {
            for g in t.tags { index.tagIDs.append(intern(g, 0, b, r).id) }
            index.tagStart.append(Int32(index.tagIDs.count))
            for n in t.notes { index.noteIDs.append(intern(n, 0, b, r).id) }
            index.noteStart.append(Int32(index.noteIDs.count))
            index.project.append(t.project.map { intern($0, 0, b, r).id } ?? -1)
            index.area.append(t.area.map { intern($0, 1, b, r).id } ?? -1)
            if let s = t.status {
                let (id, kind) = intern(s, 2, b, r)
                index.statusKind.append(StatusKind.of(raw: kind))
                index.statusID.append(id)
            } else {
                index.statusKind.append(.open)
                let id = index.intern("open", 2)
                index.statusID.append(id)
            }
            index.priority.append(UInt8(t.priority.rawValue))
            index.appendDue(t.due, ds)
            let freq: Int8 = t.hasRepeat ? frequency(t, b, r) : -1
            index.repeatFreq.append(freq)
            index.estimate.append(t.estimate.map { Int32(clamping: $0.minutes) } ?? -1)
            index.created.append(t.createdAt.seconds)
            // Only a change the creation and completion do not already tell (docs/STORE.md: a
            // record without `modifiedAt` changed last at the later of the two).
            if let m = t.modifiedAt, m.seconds != TaskIndex.impliedModified(t.createdAt.seconds, t.completedAt?.seconds) {
                index.modifiedRows.append(Int32(index.count))
                index.modifiedSeconds.append(m.seconds)
            }
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

        /// The frequency column value of a record's repeat, as the Task's RepeatSpec reads it:
        /// worked out once for each pair of text and rule spelled alike.
        mutating func frequency(_ t: TaskRecord, _ b: UnsafeBufferPointer<UInt8>, _ r: JSONReader) -> Int8 {
            var key: Int? = nil
            if !t.repeatText.escaped, t.repeatRRULE?.escaped != true {
                let text = ruleID(t.repeatText, 0, b)
                let rule = t.repeatRRULE.map { ruleID($0, 1, b) } ?? -1
                key = Int(text) << 32 | Int(UInt32(bitPattern: rule))
            }
            if let key, let f = frequencies[key] { return f }
            let text = r.string(t.repeatText)
            let spec = RepeatSpec(text: text, rrule: t.repeatRRULE.map { r.string($0) }, anchor: nil)
            let f = spec.rule?.frequency.code ?? 4
            if let key { frequencies[key] = f }
            return f
        }

        /// A number for the bytes of a repeat's text (kind 0) or rule (kind 1).
        mutating func ruleID(_ ref: JSONStringRef, _ kind: UInt8, _ b: UnsafeBufferPointer<UInt8>) -> Int32 {
            if let found = rules.find(b, ref.start, ref.count, kind) { return found.id }
            ruleCount += 1
            rules.insert(b, ref.start, ref.count, kind, ruleCount)
            return ruleCount
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
        TaskIndex.append(&modifiedRows, o.modifiedRows) { $0 + rowBase }
        modifiedSeconds += o.modifiedSeconds
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
