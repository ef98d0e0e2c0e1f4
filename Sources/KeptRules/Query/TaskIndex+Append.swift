// Building an index a record at a time: an empty one with room, and the columns of a later
// index appended (the loader reads a large file in two halves, one a thread).

extension TaskIndex {
    /// An empty index to append records to.
    package init(reserving n: Int, dayStart: WallTime) {
        count = 0
        self.dayStart = dayStart
        hasText = true
        reserveColumns(n)
        textSpans.reserveCapacity(4 * n)
        tagStart.append(0)
        noteStart.append(0)
    }

    /// Appends the columns of another index built from later records, mapping its name ids
    /// into this index's names.
    package mutating func append(_ o: TaskIndex) {
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
    package static func append<T: FixedWidthInteger, C: Collection<T>>(_ dst: inout [T], _ src: C, _ f: (T) -> T) {
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
