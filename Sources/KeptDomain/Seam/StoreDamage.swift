// One damaged item of a store, as a read, `kept check` or `kept convert --salvage` names it: the
// table (or part of the JSON file), the row's key, and what is wrong.

import KeptRules

/// A damaged part of a store.
public struct StoreDamage: Sendable, Equatable, CustomStringConvertible {
    /// The table (`tasks`, `history`, `tombstones`, …) or `the database` for SQLite's own structure.
    public var table: String
    /// The row: `id 2`, a uid, `step 14`; nil for the table or the file as a whole.
    public var key: String?
    public var reason: String

    public init(table: String, key: String?, reason: String) {
        self.table = table
        self.key = key
        self.reason = reason
    }

    public var description: String {
        if let key { return "\(table) \(key): \(reason)" }
        return "\(table): \(reason)"
    }
}
