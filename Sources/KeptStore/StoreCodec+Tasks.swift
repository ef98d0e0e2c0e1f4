// Reading the tasks list of a store file into unbuilt records and their filter columns, on two
// threads for a large store. The second thread starts at a guess: the first record that begins a
// line after the middle of the list (a line break is never inside a JSON string). The guess is
// taken only if the first thread, reading on from the start, arrives exactly there at the start
// of an element; otherwise the first thread reads on to the end and the guess is dropped. So the
// result, and the first error reported, are the same as reading in one pass.

import KeptRules
import KeptDomain
import KeptFiles

import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension StoreCodec {
    /// Records and offsets of a run of the tasks list (the ids are the index's `ids` column).
    package struct TaskRun: Sendable {
        package var loader: TaskIndex.RecordLoader
        package var offsets: [Int] = []
        package var inOrder = true
        /// The ids read, once they are out of order (in order, a repeat can only be the last id).
        package var seen: Set<Int>? = nil
        /// Each uid a record holds, with its row in this run, in the file's order: two tasks
        /// with one uid would be one task to everything that finds tasks by uid (an import,
        /// `convert` into SQLite, whose key it is), so the list is refused at the second
        /// (StoreCodec+UIDs). Appended to a list reserved for the run: no allocation a record.
        package var uids: [(uid: TaskUID, row: Int)] = []
        /// Rows of records without a uid (a store written before uids). Their uids are derived
        /// from the title, a hash a byte that such a store's load would feel, so they are
        /// worked out only when the list holds uids as well.
        package var derivedRows: [Int] = []
        package var error: JSONError? = nil
        /// Where the reader stopped: after the closing `]` for the run that ends the list.
        package var end = 0
        package var depth = 0

        /// `n` records; `uidsOf` of them read by this run (the first half's run keeps the
        /// columns of both halves, but its own uids only).
        package init(reserving n: Int, uidsOf own: Int? = nil, dayStart: WallTime) {
            loader = TaskIndex.RecordLoader(reserving: n, dayStart: dayStart)
            offsets.reserveCapacity(n)
            uids.reserveCapacity(max(0, own ?? n))
        }

        /// Reads the record at the reader's position and keeps its columns.
        package mutating func read(_ r: inout JSONReader, _ record: inout TaskRecord) throws(JSONError) {
            let start = r.offset
            // The fast path reads a record in the shape kept writes; any other goes through the
            // general reader, which also makes every error.
            if let end = r.bytes.withUnsafeBufferPointer({ StoreCodec.readTaskFast($0, start, into: &record) }) {
                r.position = end
            } else {
                try StoreCodec.readTask(&r, into: &record, keep: false)
            }
            // A repeated id is refused at its record, as one pass from the start meets it, before
            // any later error of the file.
            if let last = loader.index.ids.last, record.id <= last {
                if record.id == last { throw r.error("two tasks have id \(record.id)", at: start) }
                if seen == nil { seen = Set(loader.index.ids) }
                inOrder = false
            }
            if seen != nil, seen?.insert(record.id).inserted == false { throw r.error("two tasks have id \(record.id)", at: start) }
            if let uid = record.uid { uids.append((uid, offsets.count)) } else { derivedRows.append(offsets.count) }
            offsets.append(start)
            loader.append(record, r)
            // A repeat that reads as no rule (frequency 4) is refused here as the eager load
            // refuses it, at the same place.
            if record.hasRepeat, loader.index.repeatFreq.last == 4 { throw StoreCodec.unreadableRepeat(record, r) }
        }
    }

    /// A store this large (bytes left in the list) is read on two threads.
    package static let parallelThreshold = 1 << 21

    /// Reads and checks the records of the tasks list (its `[` consumed), keeping their filter
    /// columns and offsets but building no Task.
    package static func deferredTasks(_ r: inout JSONReader, dayStart: WallTime, parallelAt: Int) throws(JSONError) -> DeferredTasks {
        let left = r.bytes.count - r.offset
        let perTask = recordLength(r.bytes, from: r.offset)
        var head = TaskRun(reserving: 0, dayStart: dayStart)
        var tail: TaskRun? = nil
        var split = Int.max
        do throws(JSONError) {
            if left >= parallelAt, Cores.online() >= 2, let guess = recordLineStart(r.bytes, from: r.offset + left / 2) {
                split = guess
                let bytes = r.bytes
                let depth = r.depth
                let textStart = r.textStart
                let box = Mutex<TaskRun?>(nil)
                let group = DispatchGroup()
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    let run = readTail(bytes, from: guess, textStart: textStart, depth: depth, dayStart: dayStart, reserving: (bytes.count - guess) / perTask)
                    box.withLock { $0 = run }
                }
                defer { group.wait() }
                // Made once the second thread is away: reserving the columns maps their pages.
                head = TaskRun(reserving: left / perTask, uidsOf: (guess - r.offset) / perTask, dayStart: dayStart)
                var record = TaskRecord()
                var atGuess = false
                while try r.nextElement() {
                    r.skipWhitespace()
                    if r.offset == split {
                        atGuess = true
                        break
                    }
                    // Past the guess without meeting it: it fell inside a record, so read on alone.
                    if r.offset > split { split = Int.max }
                    try head.read(&r, &record)
                }
                group.wait()
                if atGuess {
                    tail = box.withLock { $0 }
                    // A second half that failed is read again by the first thread, on from the
                    // guess, so the error reported is the first of one pass (a repeated id before
                    // it, for one).
                    if tail?.error != nil {
                        tail = nil
                        try head.read(&r, &record)
                        while try r.nextElement() {
                            r.skipWhitespace()
                            try head.read(&r, &record)
                        }
                    }
                }
            } else {
                head = TaskRun(reserving: left / perTask, dayStart: dayStart)
                var record = TaskRecord()
                while try r.nextElement() {
                    r.skipWhitespace()
                    try head.read(&r, &record)
                }
            }
        } catch {
            // One pass would have stopped at a uid repeated before this error.
            if let u = uidRepeat([UIDSegment(entries: head.uids, base: 0)], derived: head.derivedRows, head, r), u.offset < error.offset { throw u }
            throw error
        }
        var segments = [UIDSegment(entries: head.uids, base: 0)]
        var derived = head.derivedRows
        if let t = tail {
            let base = head.offsets.count
            segments.append(UIDSegment(entries: t.uids, base: base))
            derived += t.derivedRows.map { $0 + base }
            r.position = t.end
            r.depth = t.depth
            head.append(t)
        }
        let uidRepeat = self.uidRepeat(segments, derived: derived, head, r)
        if !head.inOrder {
            var seen = Set<Int>()
            seen.reserveCapacity(head.loader.index.ids.count)
            for (k, id) in head.loader.index.ids.enumerated() where !seen.insert(id).inserted {
                // Whichever repeat comes first in the file, as one pass meets it.
                if let u = uidRepeat, u.offset < head.offsets[k] { throw u }
                throw r.error("two tasks have id \(id)", at: head.offsets[k])
            }
        }
        if let u = uidRepeat { throw u }
        var index = head.loader.index
        index.text = r.bytes // the spans of unescaped text point into the file
        return DeferredTasks(bytes: r.bytes, offsets: head.offsets, ids: index.ids, index: index, inOrder: head.inOrder)
    }

    /// Reads records from `start` (the `{` of one) to the end of the list, on its own reader.
    package static func readTail(_ bytes: [UInt8], from start: Int, textStart: Int, depth: Int, dayStart: WallTime, reserving n: Int) -> TaskRun {
        var run = TaskRun(reserving: n, dayStart: dayStart)
        var r = JSONReader(bytes: bytes, from: start, textStart: textStart)
        r.uniqueKeys = true
        r.depth = depth
        var record = TaskRecord()
        do throws(JSONError) {
            repeat {
                r.skipWhitespace()
                try run.read(&r, &record)
            } while try r.nextElement()
        } catch {
            run.error = error
        }
        run.end = r.position
        run.depth = r.depth
        return run
    }

    /// About how many bytes a record takes, for reserving the columns (which are mapped whole):
    /// the mean length of the lines in the first 32 KB from `from` (kept writes a record a line),
    /// less an eighth for records longer than these; 256 without eight lines to go on.
    package static func recordLength(_ bytes: [UInt8], from: Int) -> Int {
        bytes.withUnsafeBufferPointer { b in
            let start = max(0, min(from, b.count))
            let end = min(b.count, start + (32 << 10))
            var lines = 0
            for k in start..<end where b[k] == 0x0A { lines += 1 }
            guard lines >= 8 else { return 256 }
            return max(64, (end - start) / lines * 7 / 8)
        }
    }

    /// The offset of the first `{` that starts a line at or after `from`, or nil.
    package static func recordLineStart(_ bytes: [UInt8], from: Int) -> Int? {
        bytes.withUnsafeBufferPointer { b in
            var k = from
            while k < b.count {
                if b[k] == 0x0A {
                    var j = k + 1
                    while j < b.count, b[j] == 0x20 || b[j] == 0x09 || b[j] == 0x0D { j += 1 }
                    if j < b.count, b[j] == UInt8(ascii: "{") { return j }
                    k = j
                } else {
                    k += 1
                }
            }
            return nil
        }
    }
}

extension StoreCodec.TaskRun {
    /// Appends a later run, which follows this one in the file.
    package mutating func append(_ t: StoreCodec.TaskRun) {
        if inOrder, !t.inOrder { inOrder = false }
        if inOrder, let a = loader.index.ids.last, let b = t.loader.index.ids.first, b <= a { inOrder = false }
        offsets += t.offsets
        loader.index.append(t.loader.index)
    }
}
