// What is left of a deleted task: its uid and when it went, so an import or a later sync can
// tell "deleted here" from "never seen here" (docs/STORE.md, "Tombstones").

/// A deleted task's uid and the instant it was deleted.
public struct Tombstone: Sendable, Equatable {
    public var uid: TaskUID
    public var deletedAt: Instant

    public init(uid: TaskUID, deletedAt: Instant) {
        self.uid = uid
        self.deletedAt = deletedAt
    }

    /// How many a store keeps; past it the oldest go first (a sync older than that many
    /// deletes sees the rest as never seen, which it can ask about).
    public static let limit = 10_000
}
