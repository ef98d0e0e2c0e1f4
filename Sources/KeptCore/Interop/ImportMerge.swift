// How a record meets the task the store holds under its uid (docs/INTEROP.md, "Identity"):
// the fields the record holds replace the task's, the others stay; the format's own extra key
// is merged key by key. Also the uid and tombstone lookups an import needs, which a JSON store
// answers from a table built once and a SQLite store from its indexes.

extension ImportedTask {
    /// `existing` with the fields this record holds; its id, uid and modification stay.
    func merged(into existing: Task) -> Task {
        var t = existing
        let f = fields
        let n = task
        if f.contains(.title) { t.title = n.title }
        if f.contains(.status) { t.status = n.status }
        if f.contains(.due) { t.due = n.due }
        if f.contains(.start) { t.start = n.start }
        if f.contains(.priority) { t.priority = n.priority }
        if f.contains(.project) { t.project = n.project }
        if f.contains(.area) { t.area = n.area }
        if f.contains(.tags) { t.tags = n.tags }
        if f.contains(.notes) { t.notes = n.notes }
        if f.contains(.description) { t.description = n.description }
        if f.contains(.repeat), !RepeatSpec.same(t.repeatRule, n.repeatRule) { t.repeatRule = n.repeatRule }
        if f.contains(.estimate) { t.estimate = n.estimate }
        if f.contains(.completed) { t.completedAt = n.completedAt }
        if f.contains(.created) { t.createdAt = n.createdAt }
        if f.contains(.parent) { t.parent = n.parent }
        if f.contains(.goal) { t.goal = n.goal }
        if f.contains(.steps) { t.steps = n.steps }
        if f.contains(.reminders) { t.reminders = n.reminders }
        if f.contains(.comments) { t.comments = n.comments }
        if f.contains(.held) {
            t.heldUntil = n.heldUntil
            t.notTodayOn = n.notTodayOn
        }
        for (k, v) in n.extra.members { t.extra[k] = v }
        return t
    }
}

extension RepeatSpec {
    /// The same repeat as a user reads it: words, RRULE, anchor and exceptions (two specs
    /// read from words and from an RRULE may hold the rule differently).
    static func same(_ a: RepeatSpec?, _ b: RepeatSpec?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        if a == b { return true }
        return a.text == b.text && a.rrule == b.rrule && a.anchor == b.anchor && a.anchorTime == b.anchorTime
            && a.exceptions == b.exceptions && a.additions == b.additions && a.rule?.weekStart ?? .monday == b.rule?.weekStart ?? .monday
    }
}

extension Task {
    /// The names of the fields that differ between two versions of a task, for the report.
    func changedFields(to b: Task) -> [String] {
        let a = self
        var out: [String] = []
        func check(_ name: String, _ same: Bool) { if !same { out.append(name) } }
        check("title", a.title == b.title)
        check("status", a.status == b.status)
        check("due", a.due == b.due)
        check("start", a.start == b.start)
        check("priority", a.priority == b.priority)
        check("project", a.project == b.project)
        check("area", a.area == b.area)
        check("tags", a.tags == b.tags)
        check("notes", a.notes == b.notes)
        check("description", a.description == b.description)
        check("repeat", RepeatSpec.same(a.repeatRule, b.repeatRule))
        check("estimate", a.estimate == b.estimate)
        check("completed", a.completedAt == b.completedAt)
        check("created", a.createdAt == b.createdAt)
        check("parent", a.parent == b.parent)
        check("goal", a.goal == b.goal)
        check("steps", a.steps == b.steps)
        check("reminders", a.reminders == b.reminders)
        check("comments", a.comments == b.comments)
        check("held", a.heldUntil == b.heldUntil && a.notTodayOn == b.notTodayOn)
        check("kept fields", a.extra == b.extra)
        return out
    }

    /// Equal in everything but the modification time.
    func sameContent(as b: Task) -> Bool {
        var x = b
        x.modifiedAt = modifiedAt
        return self == x
    }
}

/// The uids a store holds and the ones it deleted, as an import asks for them.
struct UIDLookup {
    private var ids: [TaskUID: Int]?
    private var tombs: [TaskUID: Instant]?
    /// Uids this import added, with their new ids.
    private var added: [TaskUID: Int] = [:]
    let store: any StoreBackend

    init(_ store: any StoreBackend) {
        self.store = store
        // A JSON store holds everything in memory: one table, not a scan a record.
        if let j = store as? JSONStore {
            var m: [TaskUID: Int] = [:]
            m.reserveCapacity(j.taskCount)
            for t in j.store.tasks { m[t.uid] = t.id }
            ids = m
            var d: [TaskUID: Instant] = [:]
            for t in j.store.tombstones { d[t.uid] = t.deletedAt }
            tombs = d
        }
    }

    /// The id of the task with a uid: one this import added, or one the store holds.
    func id(of uid: TaskUID) -> Int? {
        if let k = added[uid] { return k }
        if let ids { return ids[uid] }
        return store.task(uid: uid)?.id
    }

    func task(uid: TaskUID) -> Task? {
        if let ids {
            if ids.isEmpty { return nil }
            guard let k = ids[uid] else { return nil }
            return store.task(k)
        }
        return store.task(uid: uid)
    }

    func deletedAt(_ uid: TaskUID) -> Instant? {
        if let tombs { return tombs.isEmpty ? nil : tombs[uid] }
        return store.tombstone(uid: uid)?.deletedAt
    }

    mutating func noteAdded(_ uid: TaskUID, id: Int) { added[uid] = id }
}
