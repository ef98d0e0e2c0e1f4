// kept-bench filter: compiled filter evaluation over 1,000,000 tasks in memory, on one core.
// The tasks are the peers' generated store repeated to a million.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

func filterMain(_ args: [String]) {
    let seconds = args.count > 3 ? Double(args[3]) ?? 3 : 3
    guard case .success(let loaded) = StoreFile.load(args[2]) else { fail("cannot load \(args[2])") }
    let base: Store
    switch loaded {
    case .store(let s), .missing(let s): base = s
    }
    guard !base.tasks.isEmpty else { fail("no tasks in \(args[2])") }
    var tasks: [Task] = []
    tasks.reserveCapacity(1_000_000)
    var id = 1
    while tasks.count < 1_000_000 {
        for t in base.tasks where tasks.count < 1_000_000 {
            var x = t
            x.id = id
            id += 1
            tasks.append(x)
        }
    }
    guard let zone = Zone(identifier: "Europe/Berlin"), let now = CivilDateTime(iso: "2026-06-15T09:00") else { fail("zone") }
    let settings = base.settings
    let ctx = DateContext(now: now, today: settings.day.today(at: now), settings: settings, zone: zone)
    let filters = [
        ("tag and window", "#haslest @next 7 days"),
        ("three-way or", "#plesio | #haslest | +Ruqua"),
        ("word search", "review budget"),
        ("regex", "title ~ /(review|fix) .*(budget|report)/i"),
        ("overdue", "overdue"),
        ("tag and due", "#haslest due <= eow"),
    ]
    print("kept filter evaluation over \(tasks.count) tasks in memory, one core, best pass of \(Int(seconds)) s")
    for (name, text) in filters {
        let fc = FilterContext(ctx, now: zone.instant(for: now))
        let scope = FilterScope(projects: base.projects.map(\.name), saved: [], dates: ctx, clock: fc)
        guard case .success(let expr) = FilterBinder.bind(text, name: name, scope: scope) else { fail("filter \(text) does not parse") }
        // The index is built once per store; the filter compiled once per query.
        let index = TaskIndex(tasks, dayStart: settings.day.dayStart, withText: CompiledFilter.needsText(expr),
                              withSearch: CompiledFilter.needsSearch(expr))
        let compiled = CompiledFilter(expr, index: index, context: fc)
        var matched = 0
        let scratch = RegexScratch() // one thread's match data, as CompiledFilter.rows keeps it
        let r = measure(tasks.count, seconds: seconds) {
            var n = 0
            for i in 0..<index.count where compiled.matches(i, in: index, scratch: scratch) { n += 1 }
            matched = n
            return 0
        }
        print(name.padding(toLength: 16, withPad: " ", startingAt: 0) + "  " + text.padding(toLength: 46, withPad: " ", startingAt: 0)
              + String(Int(r.perSecond.rounded())).leftPad(12) + " tasks/s  matched \(matched)")
    }
}
