// The resolve stage of sync (docs/SYNC.md, "Using sync"): which server a statement reaches,
// through the connector the front end set, and the link the store holds. A connection string
// is read here and its password taken out; only that form is ever kept (R-SYNC-9).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A sync or account statement, resolved.
package enum SyncRequest {
    /// One sync with the account the store is linked to.
    case sync(SyncLink, any SyncConnector)
    case status
    case review
    /// A refused change by its number in `sync review` (from 1).
    case retry(Int)
    case discard(Int)
    /// `account`: the link, if any.
    case account
    /// `account link`: the connection string as written (to connect with, never kept) and
    /// without its password (what the store keeps).
    case link(conninfo: String, stripped: String, any SyncConnector)
}

extension Session {
    /// The request of `sync …` or `account …`, or nil for another statement.
    package func resolveSync(_ s: Statement) -> Result<SyncRequest, Diagnostic>? {
        let file = s.source.file
        switch s.kind {
        case .sync(.sync):
            guard let c = syncConnector else { return .failure(Catalog.syncUnavailable(range: s.keywordRange, file: file)) }
            // Not linked is said before anything reaches a server.
            guard let link = engine.syncStatus.link else { return .failure(Catalog.sync(.notLinked, range: s.keywordRange, file: file)) }
            return .success(.sync(link, c))
        case .sync(.status): return .success(.status)
        case .sync(.review): return .success(.review)
        case .sync(.retry(let n, _)): return .success(.retry(n))
        case .sync(.discard(let n, _)): return .success(.discard(n))
        case .account(nil): return .success(.account)
        case .account(let arg?):
            guard let c = syncConnector else { return .failure(Catalog.syncUnavailable(range: s.keywordRange, file: file)) }
            guard let stripped = c.withoutPassword(arg.text) else { return .failure(Catalog.badConnectionString(range: arg.range, file: file)) }
            // A linked store is said so before a connection is made for nothing.
            if let l = engine.syncStatus.link {
                return .failure(Catalog.sync(.alreadyLinked(account: l.account), range: s.keywordRange, file: file))
            }
            return .success(.link(conninfo: arg.text, stripped: stripped, c))
        default: return nil
        }
    }
}
