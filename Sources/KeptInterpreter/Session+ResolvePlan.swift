// The resolve stage of the plan statements (R-PLAN-1…7, docs/PLAN.md): plan, plan by date,
// plan refresh, explain plan, why, not today, back and top3. A plan's filter is bound, its
// limit read, and a task reference looked up; a pick of `top3 replace` among the picks first.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A plan statement, resolved. (`PlanRequest` is the parser's: the words of `plan`.)
package enum PlanningRequest {
    /// The Smart plan, filtered, with this many rows (nil: all); `explain` adds the scores.
    case plan(FilterExpr?, limit: Int?, explain: Bool)
    /// `plan by date`: the date order.
    case byDate(FilterExpr?, limit: Int?)
    /// `plan refresh`: score again now and pick a new Top 3.
    case refresh
    case why(Task)
    case notToday(Selection)
    case back(Task)
    case top3
    case changeTop3
    case addToTop3(Task)
    case replaceInTop3(Task, with: Task)
}

extension Session {
    /// The request of a plan statement, or nil when the statement is not one.
    package func resolvePlanning(_ s: Statement) -> Result<PlanningRequest, Diagnostic>? {
        switch s.kind {
        case .plan(let r):
            if r.refresh { return .success(.refresh) }
            return bindFilter(r.filter, s).map { expr in
                // `explain plan` prints the whole plan unless told a limit; `plan` the first rows.
                let limit = r.limit == Int.max ? nil : (r.limit ?? (r.explain ? nil : Session.planRows))
                return r.order == .byDate ? .byDate(expr, limit: limit) : .plan(expr, limit: limit, explain: r.explain)
            }
        case .why(let ref): return resolve(ref, s, scope: .open).map(PlanningRequest.why)
        case .notToday(let t): return selection(t, s).map(PlanningRequest.notToday)
        case .back(let ref): return resolve(ref, s, scope: .open).map(PlanningRequest.back)
        case .top3(let edit):
            switch edit {
            case .show: return .success(.top3)
            case .change: return .success(.changeTop3)
            case .add(let ref): return resolve(ref, s, scope: .open).map(PlanningRequest.addToTop3)
            case .replace(let oldRef, let newRef):
                // The picks as the plan would seat them, without storing a snapshot yet.
                let picks = engine.planView(nil, limit: 0, persist: false).plan.top3.map(\.id)
                return resolvePick(oldRef, s, picks: picks).flatMap { old in
                    resolve(newRef, s, scope: .open).map { .replaceInTop3(old, with: $0) }
                }
            }
        default: return nil
        }
    }
}
