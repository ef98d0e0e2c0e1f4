// Fuzz target: a filter, parsed against the small store's saved filters and projects, then
// compiled and run over its columns, eagerly built and as loaded; both must agree.

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

let fuzzFilterContext = FilterContext(fuzzContext, now: fuzzZone.instant(for: fuzzNow))
let fuzzScope = FilterScope(projects: fuzzStore.projects.map(\.name), saved: fuzzStore.filters, dates: fuzzContext, clock: fuzzFilterContext)

/// The same store with every task built (not deferred).
let fuzzBuiltStore = Store(tasks: fuzzStore.tasks)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFilter(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = text(data, size)
    // The syntax alone, then bound: both stages must stand any input.
    if case .success(let p) = FilterParser.parse(input, name: "fuzz") {
        _ = p.syntax.lines(source: p.source, base: 0)
    }
    guard case .success(let expr) = FilterBinder.bind(input, name: "fuzz", scope: fuzzScope) else { return 0 }
    _ = FilterText(context: fuzzFilterContext, hourCycle: .h24).describe(expr)
    var answers: [[Int]] = []
    for store in [fuzzStore, fuzzBuiltStore] {
        let ix = store.columns(dayStart: .midnight, withText: CompiledFilter.needsText(expr), withSearch: CompiledFilter.needsSearch(expr))
        let compiled = CompiledFilter(expr, index: ix, context: fuzzFilterContext)
        do throws(RegexBudgetError) {
            answers.append(try compiled.rows(in: ix).map { ix.ids[$0] })
        } catch {
            // A pattern past its budget: the query fails, which is allowed.
            return 0
        }
    }
    if answers.count == 2, answers[0] != answers[1] { violated("loaded and built stores disagree on \(input.debugDescription): \(answers)") }
    return 0
}
