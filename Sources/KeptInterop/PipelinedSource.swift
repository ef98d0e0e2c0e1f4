// A reader on a thread of its own: a large file is parsed ahead while the engine applies the
// records already read, in batches, in file order. An error of the reader reaches the engine
// after every record before it, as it would without the thread; the engine stopping early
// (a refused record) stops the reader.

import KeptRules
import KeptDomain
import KeptFiles

import Dispatch
import Synchronization

/// Records of another source, read ahead on a second thread.
public final class PipelinedSource<S: ImportSource>: ImportSource {
    public let format: InteropFormat
    public let estimatedRecords: Int
    /// The source, touched only by the reading thread once it has started.
    package final class Holder: @unchecked Sendable {
        package var source: S
        package init(_ s: S) { source = s }
    }

    package struct State {
        package var batches: [[ImportedTask]] = []
        package var failure: ImportError?
        package var finished = false
        package var cancelled = false
    }

    /// What the two threads share: the batches, and semaphores for batches ready to take and
    /// room for more (at most `depth` ahead).
    package final class Shared: Sendable {
        package let state = Mutex(State())
        package let ready = DispatchSemaphore(value: 0)
        package let room = DispatchSemaphore(value: PipelinedSource.depth)
    }

    package let shared = Shared()
    package let group = DispatchGroup()
    package var current: [ImportedTask] = []
    package static var depth: Int { 8 }
    package static var batch: Int { 512 }

    public init(_ source: S) {
        format = source.format
        estimatedRecords = source.estimatedRecords
        let holder = Holder(source)
        let shared = self.shared
        DispatchQueue.global(qos: .userInitiated).async(group: group) {
            var out: [ImportedTask] = []
            out.reserveCapacity(PipelinedSource.batch)
            func hand(_ last: Bool, _ failure: ImportError?) -> Bool {
                shared.room.wait()
                let go = shared.state.withLock { st -> Bool in
                    if !out.isEmpty { st.batches.append(out) }
                    if last { st.finished = true; st.failure = failure }
                    return !st.cancelled
                }
                out = []
                out.reserveCapacity(PipelinedSource.batch)
                shared.ready.signal()
                return go
            }
            do throws(ImportError) {
                while let r = try holder.source.next() {
                    // Moved in: a copy would retain each of the task's strings and arrays.
                    out.append(consume r)
                    if out.count == PipelinedSource.batch, !hand(false, nil) { return }
                }
                _ = hand(true, nil)
            } catch {
                _ = hand(true, error)
            }
        }
    }

    deinit {
        shared.state.withLock { $0.cancelled = true }
        for _ in 0..<PipelinedSource.depth { shared.room.signal() }
        group.wait()
    }

    public func next() throws(ImportError) -> ImportedTask? {
        // A batch is taken last record first, so each is moved out of it, not copied.
        while current.isEmpty {
            var batch: [ImportedTask]? = nil
            let (done, failure) = shared.state.withLock { st -> (Bool, ImportError?) in
                if !st.batches.isEmpty {
                    batch = st.batches.removeFirst()
                    return (false, nil)
                }
                return (st.finished, st.failure)
            }
            if batch != nil {
                shared.room.signal()
                // Taken out of the optional, so `current` is its only owner and is reversed
                // in place rather than copied.
                current = batch.take() ?? []
                current.reverse()
                continue
            }
            if done {
                if let f = failure { throw f }
                return nil
            }
            shared.ready.wait()
        }
        return current.popLast()
    }
}
