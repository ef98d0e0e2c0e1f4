// The sync state's records as JSON (docs/STORE.md, "Sync"): both backends write these, the
// JSON file under its `syncState` key and SQLite a row each. A record that does not read is nil,
// and the backend reports it as damage; it is never read as less.

import KeptRules

extension SyncLink {
    public var json: JSONValue {
        .object(JSONObject([("server", .string(server)), ("account", .string(account)), ("device", .string(device))]))
    }

    public init?(json: JSONValue) {
        guard let o = json.objectValue, let s = o["server"]?.stringValue, let a = o["account"]?.stringValue,
              let d = o["device"]?.stringValue, HLC(HLC.zero(node: d).description) != nil else { return nil }
        self.init(server: s, account: a, device: d)
    }
}

extension SyncKey {
    init?(kind: JSONValue?, id: JSONValue?) {
        guard let k = kind?.stringValue.flatMap(SyncKind.init(rawValue:)), let i = id?.stringValue, !i.isEmpty else { return nil }
        self.init(k, i)
    }
}

private func clocksJSON(_ c: [String: HLC]) -> JSONValue {
    .object(JSONObject(c.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value.description)) }))
}

private func readClocks(_ v: JSONValue?) -> [String: HLC]? {
    guard let o = v?.objectValue else { return nil }
    var out: [String: HLC] = [:]
    for (k, v) in o.members {
        guard let s = v.stringValue, let h = HLC(s) else { return nil }
        out[k] = h
    }
    return out
}

/// An optional stamp: absent or null is none; anything else must read.
private func stamp(_ v: JSONValue?) -> HLC?? {
    guard let v, !v.isNull else { return .some(nil) }
    guard let s = v.stringValue, let h = HLC(s) else { return nil }
    return .some(h)
}

extension OutboxEntry {
    public var json: JSONValue {
        var o = JSONObject([("change", .string(changeID)), ("kind", .string(key.kind.rawValue)), ("id", .string(key.id)),
                            ("seq", .number(JSONNumber(seq))), ("fields", clocksJSON(fields))])
        if let d = deleted { o["deleted"] = .string(d.description) }
        if let r = restored { o["restored"] = .string(r.description) }
        if let v = values { o["values"] = .object(v) }
        return .object(o)
    }

    public init?(json: JSONValue) {
        guard let o = json.objectValue, let c = o["change"]?.stringValue, let key = SyncKey(kind: o["kind"], id: o["id"]),
              let seq = o["seq"]?.numberValue?.int, let f = readClocks(o["fields"]),
              let d = stamp(o["deleted"]), let r = stamp(o["restored"]) else { return nil }
        self.init(changeID: c, key: key, fields: f, deleted: d, restored: r, seq: seq)
        if let v = o["values"], !v.isNull {
            guard let x = v.objectValue else { return nil }
            values = x
        }
    }
}

extension OutgoingChange {
    /// The change as a push sends it and a review keeps it (docs/SYNC.md, "Push").
    public var json: JSONValue {
        var o = JSONObject([("id", .string(changeID)), ("kind", .string(key.kind.rawValue)), ("key", .string(key.id)),
                            ("fields", .object(values)), ("clocks", clocksJSON(clocks))])
        o["deleted"] = deleted.map { .string($0.description) } ?? .null
        o["restored"] = restored.map { .string($0.description) } ?? .null
        o["label"] = .string(label)
        return .object(o)
    }

    public init?(json: JSONValue) {
        guard let o = json.objectValue, let c = o["id"]?.stringValue, let key = SyncKey(kind: o["kind"], id: o["key"]),
              let values = o["fields"]?.objectValue, let cl = readClocks(o["clocks"]),
              let d = stamp(o["deleted"]), let r = stamp(o["restored"]) else { return nil }
        guard let label = o["label"]?.stringValue else { return nil }
        self.init(changeID: c, key: key, values: values, clocks: cl, deleted: d, restored: r, label: label)
    }
}

extension Refusal {
    public var json: JSONValue {
        var o = JSONObject([("reason", .string(code))])
        switch self {
        case .tooLarge(let f, let n):
            o["field"] = .string(f)
            o["limit"] = .number(JSONNumber(n))
        case .invalid(let why): o["detail"] = .string(why)
        case .deletedElsewhere, .readOnly: break
        }
        return .object(o)
    }

    public init?(json: JSONValue) {
        guard let o = json.objectValue, let code = o["reason"]?.stringValue else { return nil }
        switch code {
        case "deleted": self = .deletedElsewhere
        case "read-only": self = .readOnly
        case "too-large":
            guard let f = o["field"]?.stringValue, let n = o["limit"]?.numberValue?.int else { return nil }
            self = .tooLarge(field: f, limit: n)
        case "invalid":
            guard let d = o["detail"]?.stringValue else { return nil }
            self = .invalid(d)
        default: return nil
        }
    }
}

extension ReviewEntry {
    public var json: JSONValue {
        var o = JSONObject([("change", change.json), ("refusal", refusal.json),
                            ("refusedAt", .string(TimeText.isoInstant(refusedAt, in: .utc)))])
        if let r = record { o["record"] = .object(r) }
        return .object(o)
    }

    public init?(json: JSONValue) {
        guard let o = json.objectValue, let c = o["change"].flatMap(OutgoingChange.init(json:)),
              let r = o["refusal"].flatMap(Refusal.init(json:)),
              let at = o["refusedAt"]?.stringValue.flatMap({ TimeText.parseISOInstant($0) }) else { return nil }
        var record: JSONObject? = nil
        if let v = o["record"], !v.isNull {
            guard let x = v.objectValue else { return nil }
            record = x
        }
        self.init(change: c, refusal: r, refusedAt: at, record: record)
    }
}

extension SyncState {
    /// The whole state as one object (the JSON file's `syncState` key); nil for a store never
    /// linked, which has nothing of it.
    public var json: JSONValue? {
        guard self != SyncState() else { return nil }
        var o = JSONObject()
        o["link"] = link?.json ?? .null
        o["clock"] = clock.map { .string($0.description) } ?? .null
        o["cursor"] = .number(JSONNumber(Int(cursor)))
        o["outbox"] = .array(queue.map(\.json))
        o["review"] = .array(review.map(\.json))
        if let l = listing { o["listing"] = l.json }
        return .object(o)
    }

    /// Reads the object `json` wrote; nil when any part does not read.
    public init?(json: JSONValue) {
        guard let o = json.objectValue else { return nil }
        self.init()
        if let l = o["link"], !l.isNull {
            guard let link = SyncLink(json: l) else { return nil }
            self.link = link
        }
        guard let c = stamp(o["clock"]), let cur = o["cursor"]?.numberValue?.int, cur >= 0 else { return nil }
        clock = c
        cursor = Int64(cur)
        // Both lists must be lists, and an item has one entry: anything else is not read as less.
        guard let entries = o["outbox"]?.arrayValue, let refused = o["review"]?.arrayValue else { return nil }
        for e in entries {
            guard let x = OutboxEntry(json: e), outbox[x.key] == nil else { return nil }
            apply(.queue(x))
        }
        for r in refused {
            guard let x = ReviewEntry(json: r) else { return nil }
            review.append(x)
        }
        if let l = o["listing"], !l.isNull {
            guard let x = SyncListing(json: l) else { return nil }
            listing = x
        }
    }
}

extension SyncListing {
    /// A key as "kind:id" (SyncKey.description).
    static func keyJSON(_ k: SyncKey) -> JSONValue { .string(k.description) }

    static func key(_ v: JSONValue?) -> SyncKey? {
        guard let s = v?.stringValue, let colon = s.firstIndex(of: ":"), let kind = SyncKind(rawValue: String(s[..<colon])) else { return nil }
        let id = String(s[s.index(after: colon)...])
        return id.isEmpty ? nil : SyncKey(kind, id)
    }

    /// The listing as the store keeps it (the JSON file's `syncState.listing`, SQLite's
    /// `sync_meta` row `listing`).
    public var json: JSONValue {
        .object(JSONObject([
            ("version", .number(JSONNumber(Int(version)))), ("total", .number(JSONNumber(total))),
            ("recent", .array(recent.map(SyncListing.keyJSON))), ("after", after.map(SyncListing.keyJSON) ?? .null),
            ("listed", .number(JSONNumber(listed))), ("paged", .bool(paged)), ("absent", .array(absent.map(SyncListing.keyJSON))),
        ]))
    }

    /// Reads what `json` wrote; nil when any part does not read.
    public init?(json: JSONValue) {
        guard let o = json.objectValue, let v = o["version"]?.numberValue?.int, v >= 0, let t = o["total"]?.numberValue?.int, t >= 0,
              let r = o["recent"]?.arrayValue, let n = o["listed"]?.numberValue?.int, n >= 0, let p = o["paged"]?.boolValue,
              let a = o["absent"]?.arrayValue else { return nil }
        var after: SyncKey? = nil
        if let x = o["after"], !x.isNull {
            guard let k = SyncListing.key(x) else { return nil }
            after = k
        }
        var recent: [SyncKey] = []
        for x in r {
            guard let k = SyncListing.key(x) else { return nil }
            recent.append(k)
        }
        var absent: [SyncKey] = []
        for x in a {
            guard let k = SyncListing.key(x) else { return nil }
            absent.append(k)
        }
        self.init(version: Int64(v), total: t, recent: recent, after: after, listed: n, paged: p, absent: absent)
    }
}
