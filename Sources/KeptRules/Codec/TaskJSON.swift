// A task as JSON, in the two places it appears: the `--format json` shape of docs/OUTPUT.md (every
// key always present) and the store record (defaults left out, unknown fields written back).

/// Encodes tasks as JSON.
public enum TaskJSON {
    /// The JSON key of a field in the output shape.
    public static func key(for f: TaskField) -> String {
        switch f {
        case .created: return "createdAt"
        case .modified: return "modifiedAt"
        case .completed: return "completedAt"
        default: return f.rawValue
        }
    }

    package static func due(_ d: Due?) -> JSONValue {
        guard let d else { return .null }
        return .object(JSONObject([("date", .string(d.date.iso)), ("time", d.time.map { .string($0.iso) } ?? .null)]))
    }

    package static func str(_ s: String?) -> JSONValue { s.map { .string($0) } ?? .null }

    package static func steps(_ s: [Step]) -> JSONValue {
        .array(s.map { .object(JSONObject([("title", .string($0.title)), ("done", .bool($0.done))])) })
    }

    /// A reminder in the output shape: its wall-clock time and whether it is Past due.
    package static func reminder(_ r: Reminder) -> JSONValue {
        .object(JSONObject([("at", .string(r.at.iso)), ("pastDue", .bool(r.pastDue))]))
    }

    /// The output shape (docs/OUTPUT.md): instants with the account zone's offset.
    public static func value(_ t: Task, zone: Zone) -> JSONValue {
        .object(JSONObject([
            ("id", .number(JSONNumber(t.id))),
            ("uid", .string(t.uid.description)),
            ("title", .string(t.title)),
            ("status", .string(t.status.rawValue)),
            ("due", due(t.due)),
            ("priority", .string(t.priority.name)),
            ("project", str(t.project)),
            ("area", str(t.area)),
            ("tags", .array(t.tags.map { .string($0) })),
            ("notes", .array(t.notes.map { .string($0) })),
            ("repeat", t.repeatRule.map { r in
                .object(JSONObject([("text", .string(r.text)), ("rrule", str(r.rrule)),
                                    ("exdate", .array(r.exceptions.map { .string(RepeatExtras.text($0)) })),
                                    ("rdate", .array(r.additions.map { .string(RepeatExtras.text($0)) }))]))
            } ?? .null),
            ("estimate", t.estimate.map { .object(JSONObject([("minutes", .number(JSONNumber($0.minutes))), ("source", .string($0.source.rawValue))])) } ?? .null),
            ("heldUntil", str(t.heldUntil?.iso)),
            ("completedAt", str(t.completedAt.map { TimeText.isoInstant($0, in: zone) })),
            ("createdAt", .string(TimeText.isoInstant(t.createdAt, in: zone))),
            ("modifiedAt", .string(TimeText.isoInstant(t.modifiedAt, in: zone))),
            ("parent", t.parent.map { .number(JSONNumber($0)) } ?? .null),
            ("steps", steps(t.steps)),
            ("reminders", .array(t.reminders.map(reminder))),
        ]))
    }

    /// A reminder's store record: `at`, `pastDue` when set, then the keys this version does not know.
    public static func reminderObject(_ r: Reminder) -> JSONObject {
        var o = JSONObject([("at", .string(r.at.iso))])
        if r.pastDue { o["pastDue"] = .bool(true) }
        for (k, v) in r.extra.members where o[k] == nil { o[k] = v }
        return o
    }
}
