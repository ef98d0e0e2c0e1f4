// Items as fields (docs/SYNC.md, "Fields"): what sync sends and merges one by one. A task's
// fields are its store record's keys (TaskJSON.record) but for these: its id and the link to
// the occurrence its completion made stay local, its parent is named by uid, and its tags
// and linked notes are sets whose
// every element is a field of its own (`tag:home`, `note:Trip plan`), so adding `#a` on one
// device and `#b` on another keeps both. Fields this version does not know travel as `x:KEY`.

import KeptRules

/// An item as one value, whatever its kind.
public enum SyncItem: Sendable, Equatable {
    case task(Task)
    case project(Project)
    case area(Area)
    /// A saved filter and its place in the list.
    case filter(SavedFilter, position: Int)
    /// A setting by key, with its value as text (or as written, for one this version does not know).
    case setting(String, JSONValue)

    public var key: SyncKey {
        switch self {
        case .task(let t): return SyncKey(.task, t.uid.description)
        case .project(let p): return SyncKey(.project, p.uid.description)
        case .area(let a): return SyncKey(.area, a.uid.description)
        case .filter(let f, _): return SyncKey(.filter, f.uid.description)
        case .setting(let k, _): return SyncKey(.setting, k)
        }
    }

    /// What `sync review` calls it.
    public var label: String {
        switch self {
        case .task(let t): return t.title
        case .project(let p): return p.name
        case .area(let a): return a.name
        case .filter(let f, _): return f.name
        case .setting(let k, _): return k
        }
    }
}

/// Items to fields and back.
public enum SyncFields {
    /// The set fields' prefixes: an element is present while its field is not null.
    static let setPrefixes = ["tag:", "note:"]

    /// Whether a field is one element of a set (its value is the element's place, for order).
    public static func isElement(_ field: String) -> Bool {
        setPrefixes.contains { field.hasPrefix($0) }
    }

    /// The store record's keys a task's fields are made of; any other key of a record is a
    /// field this version does not know.
    static let taskKeys: Set<String> = [
        "id", "uid", "title", "status", "due", "start", "priority", "project", "area", "tags", "notes", "description", "repeat",
        "estimate", "heldUntil", "notTodayOn", "completedAt", "createdAt", "modifiedAt", "parent", "nextOccurrence",
        "pristine", "goal", "steps", "reminders", "comments",
    ]

    /// An item's fields. `uidOf` names a task of this store by uid (a parent, a made occurrence).
    public static func fields(_ item: SyncItem, uidOf: (Int) -> TaskUID?) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        func extras(_ x: JSONObject) { for (k, v) in x.members { out["x:" + k] = v } }
        switch item {
        case .task(let t):
            let known = Set(t.extra.keys)
            for (k, v) in TaskJSON.record(t).members where !known.contains(k) {
                switch k {
                // The made occurrence's link is this store's bookkeeping for reopening (R-REP-6):
                // the occurrence is made where the completion is, and its uid says which it is.
                case "id", "uid", "nextOccurrence": continue
                case "tags": for (n, tag) in t.tags.enumerated() { out["tag:" + tag] = .number(JSONNumber(n + 1)) }
                case "notes": for (n, note) in t.notes.enumerated() { out["note:" + note] = .number(JSONNumber(n + 1)) }
                case "parent": if let p = t.parent, let u = uidOf(p) { out[k] = .string(u.description) }
                default: out[k] = v
                }
            }
            extras(t.extra)
        case .project(let p):
            out["name"] = .string(p.name)
            if p.archived { out["archived"] = .bool(true) }
            if !p.statuses.isEmpty { out["statuses"] = .array(p.statuses.map { .string($0) }) }
            extras(p.extra)
        case .area(let a):
            out["name"] = .string(a.name)
            extras(a.extra)
        case .filter(let f, let position):
            out["name"] = .string(f.name)
            out["filter"] = .string(f.filter)
            if f.starred { out["starred"] = .bool(true) }
            out["position"] = .number(JSONNumber(position))
            extras(f.extra)
        case .setting(_, let v):
            out["value"] = v
        }
        return out
    }

    /// The fields that differ between two versions of an item (nil: it is not there). A set's
    /// element differs only when it comes or goes: its place is for order, and sending every
    /// element again when one goes would undo another device's removal of one of them.
    public static func changed(_ before: [String: JSONValue]?, _ after: [String: JSONValue]?) -> [String] {
        let b = before ?? [:]
        let a = after ?? [:]
        var out: [String] = []
        for k in Set(b.keys).union(a.keys) {
            let x = b[k] ?? .null
            let y = a[k] ?? .null
            if isElement(k) {
                if x.isNull != y.isNull { out.append(k) }
            } else if x != y {
                out.append(k)
            }
        }
        return out.sorted()
    }

    /// The store record of a task from its fields: the elements of its sets in order (by their
    /// place, then by name), its parent as a local id (`idOf`; one not here yet is left out and
    /// set when it comes). `id` is the task's id in this store, `local` the task as this store
    /// has it, whose link to its made occurrence stays.
    public static func taskRecord(_ fields: JSONObject, uid: TaskUID, id: Int, local: Task? = nil, idOf: (TaskUID) -> Int?) -> JSONObject {
        var o = JSONObject([("id", .number(JSONNumber(id))), ("uid", .string(uid.description))])
        if let n = local?.nextOccurrence { o["nextOccurrence"] = .number(JSONNumber(n)) }
        var sets: [String: [(place: Double, name: String)]] = [:]
        var extras: [(String, JSONValue)] = []
        for (k, v) in fields.members where !v.isNull {
            if let p = setPrefixes.first(where: { k.hasPrefix($0) }) {
                sets[p, default: []].append((v.numberValue?.double ?? 0, String(k.dropFirst(p.count))))
            } else if k.hasPrefix("x:") {
                extras.append((String(k.dropFirst(2)), v))
            } else if k == "parent" {
                if let u = v.stringValue.flatMap(TaskUID.init), let local = idOf(u) { o[k] = .number(JSONNumber(local)) }
            } else if taskKeys.contains(k), k != "id", k != "uid", k != "nextOccurrence" {
                o[k] = v
            }
        }
        for (p, key) in [("tag:", "tags"), ("note:", "notes")] {
            guard let list = sets[p], !list.isEmpty else { continue }
            o[key] = .array(list.sorted { ($0.place, $0.name) < ($1.place, $1.name) }.map { .string($0.name) })
        }
        for (k, v) in extras where o[k] == nil { o[k] = v }
        return o
    }

    /// A project, area or saved filter from its fields; nil when a field it needs does not read.
    public static func project(_ f: JSONObject, uid: TaskUID) -> Project? {
        guard let n = f["name"]?.stringValue, !n.isEmpty else { return nil }
        var p = Project(name: n)
        p.uid = uid
        p.archived = f["archived"]?.boolValue ?? false
        p.statuses = (f["statuses"]?.arrayValue ?? []).compactMap(\.stringValue)
        p.extra = extras(f)
        return p
    }

    public static func area(_ f: JSONObject, uid: TaskUID) -> Area? {
        guard let n = f["name"]?.stringValue, !n.isEmpty else { return nil }
        var a = Area(name: n)
        a.uid = uid
        a.extra = extras(f)
        return a
    }

    public static func filter(_ f: JSONObject, uid: TaskUID) -> (SavedFilter, position: Int)? {
        guard let n = f["name"]?.stringValue, !n.isEmpty, let text = f["filter"]?.stringValue else { return nil }
        var s = SavedFilter(name: n, filter: text)
        s.uid = uid
        s.starred = f["starred"]?.boolValue ?? false
        s.extra = extras(f)
        return (s, f["position"]?.numberValue?.int ?? Int.max)
    }

    static func extras(_ f: JSONObject) -> JSONObject {
        var x = JSONObject()
        for (k, v) in f.members where k.hasPrefix("x:") && !v.isNull { x[String(k.dropFirst(2))] = v }
        return x
    }

    /// The settings as items, by key: every setting's value as text, and those this version
    /// does not know as written.
    public static func settings(_ s: Settings) -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        for spec in Settings.specs {
            let v = spec.get(s)
            if spec.key == "zone", v.isEmpty { continue }
            out[spec.key] = .string(v)
        }
        for (k, v) in s.extra.members { out[k] = v }
        return out
    }
}
