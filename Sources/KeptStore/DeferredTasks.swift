// The tasks of a loaded store file before they are built. Loading reads and checks every record
// (so a broken store is refused at once, whatever runs next) and keeps the filter columns, the
// file's bytes and where each record starts. A read-only query runs on the columns and builds
// only the tasks it prints; the first change, or anything that walks all tasks, builds them all.

import KeptRules
import KeptDomain
import KeptFiles

import Synchronization

/// Checked, unbuilt task records of a store file, in id order.
public final class DeferredTasks: UnbuiltTasks {
    package let bytes: [UInt8]
    /// The byte offset of each record, in id order.
    package let offsets: [Int]
    public let ids: [Int]
    /// The filter columns, with titles and descriptions.
    public let index: TaskIndex
    /// Whether the file had the records in id order (a Store takes them unbuilt only then).
    package let inOrder: Bool
    private let built = Mutex<[Task]?>(nil)

    package init(bytes: [UInt8], offsets: [Int], ids: [Int], index: TaskIndex, inOrder: Bool) {
        self.inOrder = inOrder
        self.bytes = bytes
        self.offsets = offsets
        self.ids = ids
        self.index = index
    }

    /// Every task, built once.
    public var tasks: [Task] {
        built.withLock { cached in
            if let c = cached { return c }
            var out: [Task] = []
            out.reserveCapacity(offsets.count)
            var r = JSONReader(bytes: bytes, from: 0)
            r.uniqueKeys = true
            var record = TaskRecord()
            for k in offsets.indices {
                if let t = build(k, &r, &record) { out.append(t) }
            }
            cached = out
            return out
        }
    }

    /// One task, built alone unless all are built already.
    public func task(atRow k: Int) -> Task? {
        guard k >= 0, k < offsets.count else { return nil }
        if let all = built.withLock({ $0 }) { return all[k] }
        var r = JSONReader(bytes: bytes, from: 0)
        r.uniqueKeys = true
        var record = TaskRecord()
        return build(k, &r, &record)
    }

    /// Re-reads record k; loading checked it, so this does not fail.
    private func build(_ k: Int, _ r: inout JSONReader, _ record: inout TaskRecord) -> Task? {
        r.position = offsets[k]
        do throws(JSONError) {
            try StoreCodec.readTask(&r, into: &record, keep: true)
        } catch {
            return nil
        }
        return StoreCodec.task(record, r)
    }
}
