// A task's store record: the shape the store file writes for a task (docs/STORE.md), and the
// one sync sends field by field (docs/SYNC.md, "Fields"). Both backends and sync share it.

extension TaskJSON {
    /// A repeat's store record. The words and RRULE as they were stored (or made, for a new
    /// rule): a store read and written keeps them, canonical or not; output shows the canonical
    /// words (R-REP-9).
    public static func repeatRecord(_ r: RepeatSpec) -> JSONValue {
        var ro = JSONObject([("text", .string(r.storedText))])
        if let rr = r.storedRRULE { ro["rrule"] = .string(rr) }
        if let a = r.anchor { ro["anchor"] = .string(RepeatExtras.text(Due(date: a, time: r.anchorTime))) }
        if let w = r.weekStartToStore, let c = RepeatRule.codes[w] { ro["wkst"] = .string(c) }
        if !r.exceptions.isEmpty { ro["exdate"] = .array(r.exceptions.map { .string(RepeatExtras.text($0)) }) }
        if !r.additions.isEmpty { ro["rdate"] = .array(r.additions.map { .string(RepeatExtras.text($0)) }) }
        return .object(ro)
    }

    /// A task's store record: defaults are left out to keep the file small.
    public static func record(_ t: Task) -> JSONObject {
        var o = JSONObject()
        o.members.reserveCapacity(12 + t.extra.count)
        o.members.append(("id", .number(JSONNumber(t.id))))
        o.members.append(("uid", .string(t.uid.description)))
        o.members.append(("title", .string(t.title)))
        o.members.append(("status", .string(t.status.rawValue)))
        if let d = t.due { o.members.append(("due", due(d))) }
        if let d = t.start { o.members.append(("start", due(d))) }
        if t.priority != .none { o.members.append(("priority", .string(t.priority.name))) }
        if let p = t.project { o.members.append(("project", .string(p))) }
        if let a = t.area { o.members.append(("area", .string(a))) }
        if !t.tags.isEmpty { o.members.append(("tags", .array(t.tags.map { .string($0) }))) }
        if !t.notes.isEmpty { o.members.append(("notes", .array(t.notes.map { .string($0) }))) }
        if let d = t.description { o.members.append(("description", .string(d))) }
        if let r = t.repeatRule { o.members.append(("repeat", repeatRecord(r))) }
        if let e = t.estimate {
            o.members.append(("estimate", .object(JSONObject([("minutes", .number(JSONNumber(e.minutes))), ("source", .string(e.source.rawValue))]))))
        }
        if let h = t.heldUntil { o.members.append(("heldUntil", .string(h.iso))) }
        if let d = t.notTodayOn { o.members.append(("notTodayOn", .string(d.iso))) }
        if let c = t.completedAt { o.members.append(("completedAt", .string(TimeText.isoInstant(c, in: .utc)))) }
        o.members.append(("createdAt", .string(TimeText.isoInstant(t.createdAt, in: .utc))))
        o.members.append(("modifiedAt", .string(TimeText.isoInstant(t.modifiedAt, in: .utc))))
        if let p = t.parent { o.members.append(("parent", .number(JSONNumber(p)))) }
        if let n = t.nextOccurrence { o.members.append(("nextOccurrence", .number(JSONNumber(n)))) }
        if t.pristine { o.members.append(("pristine", .bool(true))) }
        if let g = t.goal { o.members.append(("goal", .string(g))) }
        if !t.steps.isEmpty { o.members.append(("steps", steps(t.steps))) }
        if !t.reminders.isEmpty { o.members.append(("reminders", .array(t.reminders.map { .object(reminderObject($0)) }))) }
        if !t.comments.isEmpty { o.members.append(("comments", .array(t.comments))) }
        for (k, v) in t.extra.members { o.members.append((k, v)) }
        return o
    }
}
