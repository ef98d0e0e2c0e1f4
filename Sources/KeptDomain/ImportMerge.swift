// How a record meets the task the store holds under its uid (docs/INTEROP.md, "Identity"):
// the fields the record holds replace the task's, the others stay; the format's own extra key
// is merged key by key. Also the uid and tombstone lookups an import needs, which a JSON store
// answers from a table built once and a SQLite store from its indexes.

import KeptRules

/// The fields an import can change, each once: its name in the report, how a record's value
/// replaces the task's, and whether two versions agree on it.
package struct ImportField {
    package let field: ImportFields
    package let name: String
    package let copy: (inout Task, Task) -> Void
    package let same: (Task, Task) -> Bool

    package init<V: Equatable>(_ field: ImportFields, _ name: String, _ path: WritableKeyPath<Task, V>) {
        self.field = field
        self.name = name
        copy = { $0[keyPath: path] = $1[keyPath: path] }
        same = { $0[keyPath: path] == $1[keyPath: path] }
    }

    package init(_ field: ImportFields, _ name: String, copy: @escaping (inout Task, Task) -> Void, same: @escaping (Task, Task) -> Bool) {
        self.field = field
        self.name = name
        self.copy = copy
        self.same = same
    }

    nonisolated(unsafe) static let all: [ImportField] = [
        ImportField(.title, "title", \.title), ImportField(.status, "status", \.status), ImportField(.due, "due", \.due),
        ImportField(.start, "start", \.start), ImportField(.priority, "priority", \.priority), ImportField(.project, "project", \.project),
        ImportField(.area, "area", \.area), ImportField(.tags, "tags", \.tags), ImportField(.notes, "notes", \.notes),
        ImportField(.description, "description", \.description),
        // Two specs read from words and from an RRULE may hold one rule differently.
        ImportField(.repeat, "repeat", copy: { a, b in if !RepeatSpec.same(a.repeatRule, b.repeatRule) { a.repeatRule = b.repeatRule } },
                    same: { RepeatSpec.same($0.repeatRule, $1.repeatRule) }),
        ImportField(.estimate, "estimate", \.estimate), ImportField(.completed, "completed", \.completedAt),
        ImportField(.created, "created", \.createdAt), ImportField(.parent, "parent", \.parent), ImportField(.goal, "goal", \.goal),
        ImportField(.steps, "steps", \.steps), ImportField(.reminders, "reminders", \.reminders), ImportField(.comments, "comments", \.comments),
        ImportField(.held, "held", copy: { $0.heldUntil = $1.heldUntil; $0.notTodayOn = $1.notTodayOn },
                    same: { $0.heldUntil == $1.heldUntil && $0.notTodayOn == $1.notTodayOn }),
    ]
}

extension ImportedTask {
    /// `existing` with the fields this record holds; its id, uid and modification stay, and
    /// the record's kept fields are merged key by key.
    package func merged(into existing: Task) -> Task {
        var t = existing
        for f in ImportField.all where fields.contains(f.field) { f.copy(&t, task) }
        for (k, v) in task.extra.members { t.extra[k] = v }
        return t
    }
}

extension RepeatSpec {
    /// The same repeat as a user reads it: words, RRULE, anchor and exceptions.
    package static func same(_ a: RepeatSpec?, _ b: RepeatSpec?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if a == b { return true }
        return a.text == b.text && a.rrule == b.rrule && a.anchor == b.anchor && a.anchorTime == b.anchorTime
            && a.exceptions == b.exceptions && a.additions == b.additions && a.rule?.weekStart ?? .monday == b.rule?.weekStart ?? .monday
    }
}

extension Task {
    /// The names of the fields that differ between two versions of a task, for the report.
    package func changedFields(to b: Task) -> [String] {
        ImportField.all.filter { !$0.same(self, b) }.map(\.name) + (extra == b.extra ? [] : ["kept fields"])
    }

    /// Equal in everything but the modification time.
    package func sameContent(as b: Task) -> Bool {
        var x = b
        x.modifiedAt = modifiedAt
        return self == x
    }
}

/// The uids a store holds and the ones it deleted, as an import asks for them.
package struct UIDLookup {
    private var ids: [TaskUID: Int]?
    /// A SQLite store's tombstones (at most Tombstone.limit), read once instead of once a new
    /// record; a JSON store's are a table already.
    private var tombs: [TaskUID: Instant]?
    /// Uids this import added, with their new ids.
    private var added: [TaskUID: Int] = [:]
    package let store: any StoreBackend

    package init(_ store: any StoreBackend) {
        self.store = store
        // A store held in memory gives one table, not a scan a record.
        if let m = store.uidTable() {
            ids = m
        } else if store.taskCount == 0 {
            // Nothing to match: no question a record.
            ids = [:]
        }
        // A uid comes once in a file (a second is refused), so what this import tombstones is never asked.
        tombs = store.tombstoneTable()
    }

    /// The id of the task with a uid: one this import added, or one the store holds.
    package func id(of uid: TaskUID) -> Int? {
        if let k = added[uid] { return k }
        if let ids { return ids[uid] }
        return store.task(uid: uid)?.id
    }

    package func task(uid: TaskUID) -> Task? {
        if let ids {
            if ids.isEmpty { return nil }
            guard let k = ids[uid] else { return nil }
            return store.task(k)
        }
        return store.task(uid: uid)
    }

    package func deletedAt(_ uid: TaskUID) -> Instant? {
        if let tombs { return tombs.isEmpty ? nil : tombs[uid] }
        return store.tombstone(uid: uid)?.deletedAt
    }

    package mutating func noteAdded(_ uid: TaskUID, id: Int) { added[uid] = id }
}
