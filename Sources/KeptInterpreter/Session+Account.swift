// Queries on the server (`kept run --account`, docs/SYNC.md "Queries on the server"): which
// tasks a script's statements can need, so SQL narrows on an indexed column (open work) and
// the compiled filter decides; and the statements such a run refuses, because the store is the
// account's items read for this run, never a device of the account.

import KeptRules
import KeptDomain
import KeptSyntax

extension Session {
    /// The tasks these statements can need. Open work only when every statement is a list or a
    /// count whose filter looks at open work alone and at no other task (no status, no deleted
    /// tasks, no parent, subtask or dependency), or a list without a filter; otherwise every
    /// task. Bound on this session's saved filters and clock, as the statements will be.
    public func narrowing(for statements: [Statement]) -> TaskNarrowing {
        func open(_ e: FilterExpr?) -> Bool {
            guard let e else { return true }
            return !e.namesStatus && !e.looksAtDeleted && !e.anyTerm { t in
                switch t {
                case .hasSubtasks, .isSubtask, .blocked, .blocking, .parent: return true
                default: return false
                }
            }
        }
        for s in statements {
            switch resolveQuery(s) {
            case .success(.count(let e))?:
                // `count` alone counts every task.
                guard let e, open(e) else { return .none }
            case .success(.list(_, let sections, _, let stop))?:
                guard stop == nil else { return .none }
                for section in sections {
                    guard case .tasks(let e) = section.request, open(e) else { return .none }
                }
            case .success(.parseFilter)?:
                continue
            default:
                return .none
            }
        }
        return .openWork
    }

    /// E0349 for a statement that would change the account's items, which a query on the server
    /// only reads (a plan's picks are the device's own: made in memory and dropped).
    func refusedOnAccount(_ s: Statement) -> Diagnostic? {
        if case .plan = s.kind { return nil }
        guard s.kind.mayChange else { return nil }
        return Catalog.accountOnlyReads(range: s.keywordRange, file: s.source.file)
    }
}
