// Fuzz target: a store file. Read eagerly, deferred, and deferred on two threads, the three
// must agree: all refuse it at the same place, or all read the same store. A store that reads
// must write and read back to the same bytes, with a checksum that matches them (what Kept writes
// is what it reads).

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStore(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = bytes(data, size)
    let eager = StoreCodec.decode(input, deferTasks: false, parallelAt: Int.max)
    let deferred = StoreCodec.decode(input, deferTasks: true, parallelAt: Int.max)
    // From 64 bytes of tasks on, the list is read on two threads.
    let parallel = StoreCodec.decode(input, deferTasks: true, parallelAt: 64)
    func outcome(_ r: Result<Store, JSONError>) -> String {
        switch r {
        case .success(let s): return "ok " + String(decoding: StoreCodec.encode(s), as: UTF8.self)
        case .failure(let e): return "error \(e.offset): \(e.message)"
        }
    }
    let a = outcome(eager), b = outcome(deferred), c = outcome(parallel)
    if a != b { violated("eager and deferred loads disagree:\n\(a)\n\(b)") }
    if b != c { violated("one and two threads disagree:\n\(b)\n\(c)") }
    guard case .success(let s) = eager else { return 0 }
    // Every task builds from the deferred store, one at a time and all at once.
    if case .success(let d) = deferred {
        if d.taskCount != s.tasks.count { violated("\(d.taskCount) tasks deferred, \(s.tasks.count) built") }
        for k in 0..<d.taskCount where d.task(atRow: k)?.id != s.tasks[k].id { violated("row \(k) builds another task") }
    }
    let written = StoreCodec.encode(s)
    guard case .success(let back) = StoreCodec.decode(written) else { violated("a written store does not read back:\n\(String(decoding: written, as: UTF8.self))") }
    // What Kept writes carries the checksum of its own bytes.
    if back.checksum != .matches { violated("a written store's checksum does not match its bytes") }
    let again = StoreCodec.encode(back)
    if again != written { violated("a store does not write back the same:\n\(String(decoding: written, as: UTF8.self))\n\(String(decoding: again, as: UTF8.self))") }
    // A session on it runs a query, a plan and a change.
    let session = Session(store: JSONStore(memory: back), clock: .wall(fuzzNow), defaultZone: fuzzZone)
    for line in ["list", "count status:any", "plan", "reminders", "add x @tomorrow", "undo"] {
        _ = session.run(StatementSource(file: SourceFile(name: "fuzz", text: line)))
    }
    return 0
}
