// `kept-bench plan STORE.json [ROUNDS]`: the Smart plan in process (best of ROUNDS): decoding
// the store into columns, then `plan` on it (score every open task, Top 3, Quick wins and the
// first 20 other tasks, the printed rows built), and `count overdue` on the same store.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

func planMain(_ args: [String]) {
    let rounds = args.count > 3 ? Int(args[3]) ?? 5 : 5
    guard case .success(let bytes) = Files.readBytes(args[2]) else { fail("cannot read \(args[2])") }
    guard let zone = Zone(identifier: "Europe/Berlin"), let now = CivilDateTime(iso: "2026-06-15T09:00") else { fail("zone") }
    var best = (decode: 1e9, plan: 1e9, count: 1e9)
    var lines = 0
    for _ in 0..<rounds {
        let t0 = monotonic()
        guard case .success(let store) = StoreCodec.decode(bytes) else { fail("cannot decode \(args[2])") }
        let t1 = monotonic()
        let s = Session(store: JSONStore(memory: store), clock: .wall(now), defaultZone: zone)
        let out = s.run(StatementSource(file: SourceFile(name: "bench", text: "plan")))
        let t2 = monotonic()
        _ = s.run(StatementSource(file: SourceFile(name: "bench", text: "count overdue")))
        let t3 = monotonic()
        lines = out.lines.count
        best = (min(best.decode, t1 - t0), min(best.plan, t2 - t1), min(best.count, t3 - t2))
    }
    func ms(_ s: Double) -> String { String(format: "%7.1f ms", s * 1000) }
    print("decode \(ms(best.decode))  (into columns, tasks unbuilt)")
    print("plan   \(ms(best.plan))  (\(lines) lines printed)")
    print("count  \(ms(best.count))  (count overdue)")
}
