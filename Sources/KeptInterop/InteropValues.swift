// Values every format reads and writes the same way: instants and dues in ISO 8601 and in
// iCalendar's and Taskwarrior's compact form (20260615T070000Z), repeats from an RRULE, and
// the extra object a format keeps what Kept has no field for in (docs/INTEROP.md).

import KeptRules
import KeptDomain
import KeptFiles

/// Reading and writing the values of import and export files.
package enum InteropValues {
    /// `20260615T070000Z`: a UTC instant in the compact form (Taskwarrior, iCalendar).
    package static func compactUTC(_ i: Instant) -> String {
        let l = Zone.utc.local(at: i)
        return compactDate(l.date) + "T" + two(l.time.hour) + two(l.time.minute) + two(Int(((i.seconds % 60) + 60) % 60)) + "Z"
    }

    package static func compactDate(_ d: CivilDate) -> String {
        let y = String(d.year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + two(d.month) + two(d.day)
    }

    package static func compactWall(_ d: CivilDate, _ t: WallTime) -> String {
        compactDate(d) + "T" + two(t.hour) + two(t.minute) + "00"
    }

    package static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// An instant in either form: `20260615T070000Z` or ISO 8601 with an offset.
    package static func instant(_ bytes: some Collection<UInt8>) -> Instant? {
        if bytes.count == 16, let i = compactUTC(bytes) { return i }
        return TimeText.parseISOInstant(bytes)
    }

    /// `20260615T070000Z`, read from its bytes in one pass without allocating (an import reads
    /// several a record).
    package static func compactUTC(_ b: some Collection<UInt8>) -> Instant? {
        if let i = b.withContiguousStorageIfAvailable({ compactUTC(buffer: $0) }) { return i }
        guard b.count == 16 else { return nil }
        return Array(b).withUnsafeBufferPointer { compactUTC(buffer: $0) }
    }

    /// The same from contiguous bytes, by index: the one reader of the form.
    package static func compactUTC(buffer b: UnsafeBufferPointer<UInt8>) -> Instant? {
        guard b.count == 16, let p = b.baseAddress, p[8] == UInt8(ascii: "T"), p[15] == UInt8(ascii: "Z") else { return nil }
        // Fourteen digits at fixed places, each checked; a date that does not exist (Feb 30,
        // month 13, year 0) is refused by CivilDate.
        var bad: UInt8 = 0
        @inline(__always) func digit(_ k: Int) -> Int {
            let d = p[k] &- 0x30
            bad |= d > 9 ? 1 : 0
            return Int(d)
        }
        let year = digit(0) * 1_000 + digit(1) * 100 + digit(2) * 10 + digit(3)
        let month = digit(4) * 10 + digit(5), day = digit(6) * 10 + digit(7)
        let hour = digit(9) * 10 + digit(10), minute = digit(11) * 10 + digit(12), second = digit(13) * 10 + digit(14)
        guard bad == 0, let d = CivilDate(year: year, month: month, day: day), hour <= 23, minute <= 59, second <= 60 else { return nil }
        return Instant(seconds: Int64(d.dayNumber) * 86_400 + Int64(hour * 3_600 + minute * 60 + min(second, 59)))
    }

    /// A due written as a day (`2026-06-15`), a wall time (`2026-06-15T09:00`) or an instant
    /// (with an offset or `Z`), which is read as the account zone's wall time.
    package static func due(_ s: String, zone: Zone) -> Due? {
        let b = Array(s.utf8)
        if let d = CivilDate.parseISO(b) { return Due(date: d) }
        if let i = instant(b) {
            let l = zone.local(at: i)
            return Due(date: l.date, time: l.time)
        }
        if let w = CivilDateTime.parseISO(b) { return Due(date: w.date, time: w.time) }
        return nil
    }

    /// A due as an ISO string: the day, or the wall time with the zone's offset at it.
    package static func dueText(_ d: Due, zone: Zone) -> String {
        guard let t = d.time else { return d.date.iso }
        return TimeText.isoInstant(zone.instant(for: CivilDateTime(date: d.date, time: t)), in: zone)
    }

    /// A repeat read from an RRULE: the spec, nil with the reason when Kept cannot hold the
    /// rule (it is then kept as the record's), or an error for a malformed one.
    package static func repeatSpec(rrule: String, anchor: Due?, line: Int) -> Result<RepeatSpec, ImportError>? {
        var none = RRULECache(limit: 0)
        return repeatSpec(rrule: rrule, anchor: anchor, line: line, cache: &none)
    }

    /// The same, each distinct RRULE read once (a file of many repeating tasks says few).
    package static func repeatSpec(rrule: String, anchor: Due?, line: Int, cache: inout RRULECache) -> Result<RepeatSpec, ImportError>? {
        switch cache.rule(rrule) {
        case .success(var r):
            r.weekStart = r.weekStart ?? .monday
            guard let a = anchor else { return nil }
            return .success(RepeatSpec(rule: r, anchor: a.date, anchorTime: a.time))
        case .failure(let e) where e.keptCannotHold:
            return nil
        case .failure(let e):
            return .failure(ImportError(.malformedRepeat(rrule, e), line: line))
        }
    }

    /// The object a format keeps what Kept has no field for in, with one more member.
    package static func keep(_ key: String, _ value: JSONValue, in t: inout Task, format: InteropFormat) {
        var o = t.extra[format.extraKey]?.objectValue ?? JSONObject()
        o[key] = value
        t.extra[format.extraKey] = .object(o)
    }

    /// What a format kept of a task before (on export, written back).
    package static func kept(_ t: Task, _ format: InteropFormat) -> JSONObject {
        t.extra[format.extraKey]?.objectValue ?? JSONObject()
    }
}

/// RRULEs read so far and what each reads as, up to `limit` distinct ones.
package struct RRULECache {
    package var limit: Int
    package var rules: [String: Result<RepeatRule, RRULEError>] = [:]

    package init(limit: Int = 256) { self.limit = limit }

    package mutating func rule(_ text: String) -> Result<RepeatRule, RRULEError> {
        if let r = rules[text] { return r }
        let r = RepeatRule.fromRRULE(text)
        if rules.count < limit { rules[text] = r }
        return r
    }
}

extension InteropValues {
    /// A repeat as the store writes it (`text`, `rrule`, `anchor`, `wkst`, `exdate`, `rdate`),
    /// the anchor left out when it is the due's day.
    package static func repeatObject(_ r: RepeatSpec, due: Due?) -> JSONObject {
        // The words and RRULE as stored (the store keeps them so), the canonical ones for a
        // repeat never stored.
        var ro = JSONObject([("text", .string(r.storedText.isEmpty ? r.text : r.storedText))])
        if let rr = r.storedRRULE ?? r.rrule { ro["rrule"] = .string(rr) }
        if let a = r.anchor { ro["anchor"] = .string(RepeatExtras.text(Due(date: a, time: r.anchorTime))) }
        if let w = r.weekStartToStore, let c = RepeatRule.codes[w] { ro["wkst"] = .string(c) }
        if !r.exceptions.isEmpty { ro["exdate"] = .array(r.exceptions.map { .string(RepeatExtras.text($0)) }) }
        if !r.additions.isEmpty { ro["rdate"] = .array(r.additions.map { .string(RepeatExtras.text($0)) }) }
        return ro
    }

    /// A repeat from that shape; nil when its rule cannot be read.
    package static func repeatSpec(_ ro: JSONObject, due: Due?) -> RepeatSpec? {
        let text = ro["text"]?.stringValue ?? ro["rrule"]?.stringValue ?? ""
        let anchor = ro["anchor"]?.stringValue.flatMap { RepeatExtras.due(Array($0.utf8)) }
        // Without an anchor the series is anchored on the due, as in the store.
        var spec = RepeatSpec(text: text, rrule: ro["rrule"]?.stringValue, anchor: anchor?.date,
                              anchorTime: anchor?.time, weekStart: ro["wkst"]?.stringValue.flatMap { RepeatExtras.weekday(Array($0.utf8)) })
        guard spec.rule != nil else { return nil }
        spec.exceptions = (ro["exdate"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { RepeatExtras.due(Array($0.utf8)) } }
        spec.additions = (ro["rdate"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap { RepeatExtras.due(Array($0.utf8)) } }
        return spec
    }
}

extension Task {
    /// The task's repeat with its anchor: a stored repeat without one is anchored on the due
    /// (docs/STORE.md), which a writer says out loud.
    package var anchoredRepeat: RepeatSpec? {
        guard var r = repeatRule else { return nil }
        if r.anchor == nil, let d = due {
            r.anchor = d.date
            if r.rule?.dependsOnAnchorTime == true, r.anchorTime == nil { r.anchorTime = d.time }
        }
        return r
    }
}
