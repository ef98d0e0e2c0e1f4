// `kept-bench load STORE.json [ROUNDS]`: the parts of loading a store, each timed on its own
// (best of ROUNDS): reading the file, decoding it into a Store, and building the column index.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

func loadMain(_ args: [String]) {
    let rounds = args.count > 3 ? Int(args[3]) ?? 5 : 5
    var best = (read: 1e9, decode: 1e9, index: 1e9, skip: 1e9)
    var oneThread = 1e9
    var n = 0
    for _ in 0..<rounds {
        let t0 = monotonic()
        guard case .success(let bytes) = Files.readBytes(args[2]) else { fail("cannot read \(args[2])") }
        let t1 = monotonic()
        guard case .success(let store) = StoreCodec.decode(bytes) else { fail("cannot decode \(args[2])") }
        let t2 = monotonic()
        let index = TaskIndex(store.tasks, dayStart: store.settings.day.dayStart, withText: true, withSearch: false)
        let t3 = monotonic()
        var r = JSONReader(bytes: bytes)
        do throws(JSONError) { try r.skipValue() } catch { fail("skip") }
        let t4 = monotonic()
        best.skip = min(best.skip, t4 - t3)
        guard case .success = StoreCodec.decode(bytes, deferTasks: true, parallelAt: Int.max) else { fail("cannot decode \(args[2])") }
        oneThread = min(oneThread, monotonic() - t4)
        n = index.count
        best = (min(best.read, t1 - t0), min(best.decode, t2 - t1), min(best.index, t3 - t2), best.skip)
    }
    func ms(_ s: Double) -> String { String(format: "%7.1f ms", s * 1000) }
    print("tasks   \(n)")
    print("read   \(ms(best.read))")
    print("decode \(ms(best.decode))  (records checked into columns, tasks deferred; one thread: \(ms(oneThread)))")
    print("index  \(ms(best.index))  (with text columns)")
    print("skim   \(ms(best.skip))  (JSONReader.skipValue over the file: the reader's floor)")
}

/// `kept-bench records STORE.json [ROUNDS]`: only the one-thread record pass, ROUNDS times, for
/// a profiler to look at; prints the best round.
func recordsMain(_ args: [String]) {
    let rounds = args.count > 3 ? Int(args[3]) ?? 20 : 20
    guard case .success(let bytes) = Files.readBytes(args[2]) else { fail("cannot read \(args[2])") }
    var best = 1e9
    for _ in 0..<rounds {
        let t0 = monotonic()
        guard case .success = StoreCodec.decode(bytes, deferTasks: true, parallelAt: Int.max) else { fail("cannot decode \(args[2])") }
        best = min(best, monotonic() - t0)
    }
    print(String(format: "records, one thread: %.1f ms (best of %d)", best * 1000, rounds))
}
