// Taskwarrior's JSON (`task export`, 2.6 and 3.x) read as tasks (docs/INTEROP.md, "Taskwarrior").
// uuid, description, status, project, tags, priority, due, scheduled, entry, modified, end,
// annotations and the UDAs `estimate` and `rrule` have Kept fields; everything else (depends,
// wait, until, mask, imask, parent, other UDAs) is kept under the task's "taskwarrior" key
// and counted in the report. A recurring template is folded into its pending occurrence, which
// carries the repeat; a template without one is the task.

import KeptRules
import KeptDomain
import KeptFiles

/// Reads a Taskwarrior export.
public struct TaskwarriorReader: ImportSource {
    public let format = InteropFormat.taskwarrior
    public var estimatedRecords: Int { stream.input.size / 300 }
    package var stream: JSONArrayStream
    package let zone: Zone
    /// Records of recurring series, held until the end of the file: templates by uuid, and
    /// the occurrences that name them.
    package var templates: [TaskUID: ImportedTask] = [:]
    package var templateOrder: [TaskUID] = []
    package var children: [ImportedTask] = []
    package var tail: [ImportedTask]? = nil
    package var rrules = RRULECache()
    /// Whether records of the usual shape are read by the fast path (TaskwarriorFastRecord);
    /// off, every record is read by the general reader (the tests compare the two).
    package let fast: Bool

    public init(_ input: ByteInput, zone: Zone) {
        self.init(input, zone: zone, fast: true)
    }

    package init(_ input: ByteInput, zone: Zone, fast: Bool) {
        stream = JSONArrayStream(input)
        self.zone = zone
        self.fast = fast
    }

    public mutating func next() throws(ImportError) -> ImportedTask? {
        if tail == nil {
            let z = zone
            let f = fast
            while let (rec, line) = try stream.next({ (r: inout JSONReader) throws(JSONError) -> TaskwarriorRecord in
                try TaskwarriorRecord.read(&r, zone: z, fast: f)
            }, fault: { $0.fault }) {
                let t = try rec.task(line: line, zone: zone, rrules: &rrules)
                if rec.isTemplate {
                    if templates[t.task.uid] == nil { templateOrder.append(t.task.uid) }
                    var open = t
                    open.task.status = .open
                    templates[t.task.uid] = open
                } else if rec.parent != nil {
                    children.append(t)
                } else {
                    return t
                }
            }
            tail = foldSeries()
        }
        return tail?.popLast()
    }

    /// Each template's pending occurrence with the earliest due carries the repeat; the others
    /// keep theirs only as the record's. A template no pending occurrence names is a task.
    package mutating func foldSeries() -> [ImportedTask] {
        var out: [ImportedTask] = []
        var carried: Set<TaskUID> = []
        let pending = children.enumerated().filter { $0.element.task.isOpen && !$0.element.deleted }
            .sorted { ($0.element.task.due.map { ($0.date, $0.time ?? .midnight) } ?? (CivilDate.latest, .midnight)) < ($1.element.task.due.map { ($0.date, $0.time ?? .midnight) } ?? (CivilDate.latest, .midnight)) }
        var keeps: Set<Int> = []
        for (k, c) in pending {
            guard let p = c.taskwarriorParent, !carried.contains(p) else { continue }
            carried.insert(p)
            keeps.insert(k)
        }
        for (k, var c) in children.enumerated() {
            if !keeps.contains(k) {
                c.task.repeatRule = nil
            } else if c.task.repeatRule == nil, let p = c.taskwarriorParent, let tpl = templates[p] {
                c.task.repeatRule = tpl.task.repeatRule.map { spec in
                    var s = spec
                    s.anchor = c.task.due?.date ?? spec.anchor
                    return s
                }
            }
            out.append(c)
        }
        for u in templateOrder where !carried.contains(u) {
            if let t = templates[u] { out.append(t) }
        }
        return out.reversed()
    }
}

extension ImportedTask {
    package var taskwarriorParent: TaskUID? {
        guard case .string(let s)? = task.extra[InteropFormat.taskwarrior.extraKey]?.objectValue?["parent"] else { return nil }
        return TaskUID(s)
    }
}

/// One Taskwarrior task as read, before it is a Kept task.
package struct TaskwarriorRecord {
    package var uuid: TaskUID?
    package var description: String?
    package var status: String?
    package var project: String?
    package var tags: [String] = []
    package var priority: String?
    package var due: Instant?
    package var scheduled: Instant?
    package var entry: Instant?
    package var modified: Instant?
    package var end: Instant?
    package var annotations: [(entry: Instant?, text: String)] = []
    package var estimate: Int?
    package var rrule: String?
    package var recur: String?
    package var until: Instant?
    package var parent: String?
    package var isTemplate: Bool { status == "recurring" }
    /// Everything else, as written.
    package var other = JSONObject()
    /// The first value JSON allows and Taskwarrior's format does not, or a missing description:
    /// the record is read to its end and refused there for this, not as JSON that is not
    /// well-formed. The fast path gives up on any such value, so
    /// only the general reader sets it.
    package var fault: JSONValueFault? = nil

    package static func read(_ r: inout JSONReader, zone: Zone, fast: Bool = true) throws(JSONError) -> TaskwarriorRecord {
        if fast {
            let at = r.position
            if let (rec, end) = r.bytes.withUnsafeBufferPointer({ TaskwarriorRecord.fast($0, from: at) }) {
                r.position = end
                return rec
            }
        }
        var t = TaskwarriorRecord()
        let at = r.offset
        try r.beginObject()
        func refuse(_ field: String, _ what: ImportError.Expected, at offset: Int) {
            if t.fault == nil { t.fault = JSONValueFault(problem: .field(field, not: what), offset: offset) }
        }
        // A value of the wrong type (`"tags":5`) is the format's error at the value (a field fault,
        // "'tags' is not a list of strings"), never "not valid JSON": the JSON is well-formed.
        func wrong(_ r: inout JSONReader, _ name: String, _ what: ImportError.Expected) throws(JSONError) {
            let start = r.offset
            try r.skipValue()
            refuse(name, what, at: start)
        }
        func text(_ r: inout JSONReader, _ name: String) throws(JSONError) -> String? {
            r.skipWhitespace()
            switch r.peekKind() {
            case .string?: return try r.readString()
            case .null?: _ = r.isNull(); return nil
            default: try wrong(&r, name, .string); return nil
            }
        }
        func date(_ r: inout JSONReader, _ name: String) throws(JSONError) -> Instant? {
            r.skipWhitespace()
            let start = r.offset
            guard r.peekKind() == .string || r.peekKind() == .null else { try wrong(&r, name, .taskwarriorDate); return nil }
            guard let ref = try r.readStringRefOrNull() else { return nil }
            guard let i = r.withText(ref, { t in t.withUnsafeBufferPointer { InteropValues.instant($0) } }) else {
                refuse(name, .taskwarriorDate, at: start)
                return nil
            }
            return i
        }
        while let k = try r.nextKeyRef() {
            if r.text(k, is: "uuid") {
                let start = r.offset
                let ref = try r.readStringRef()
                if let u = r.withText(ref, { t in t.withUnsafeBufferPointer { TaskUID.parse($0) } }) { t.uuid = u } else { refuse("uuid", .uuid, at: start) }
            } else if r.text(k, is: "description") { t.description = try text(&r, "description") }
            else if r.text(k, is: "status") { t.status = try text(&r, "status") }
            else if r.text(k, is: "project") { t.project = try text(&r, "project") }
            else if r.text(k, is: "tags") {
                // 2.6 writes a list; a string of comma-separated tags is read too.
                r.skipWhitespace()
                if r.peekKind() == .string {
                    t.tags = (try r.readString()).split(separator: ",").map(String.init)
                } else if r.peekKind() == .array {
                    try r.beginArray()
                    while try r.nextElement() {
                        r.skipWhitespace()
                        if r.peekKind() == .string { t.tags.append(try r.readString()) } else { try wrong(&r, "tags", .strings) }
                    }
                } else if !r.isNull() {
                    try wrong(&r, "tags", .strings)
                }
            }
            else if r.text(k, is: "priority") { t.priority = try text(&r, "priority") }
            else if r.text(k, is: "due") { t.due = try date(&r, "due") }
            else if r.text(k, is: "scheduled") { t.scheduled = try date(&r, "scheduled") }
            else if r.text(k, is: "entry") { t.entry = try date(&r, "entry") }
            else if r.text(k, is: "modified") { t.modified = try date(&r, "modified") }
            else if r.text(k, is: "end") { t.end = try date(&r, "end") }
            else if r.text(k, is: "annotations") {
                r.skipWhitespace()
                if r.peekKind() == .array {
                    try r.beginArray()
                    while try r.nextElement() {
                        r.skipWhitespace()
                        guard r.peekKind() == .object else { try wrong(&r, "annotations", .list); continue }
                        try r.beginObject()
                        var e: Instant? = nil
                        var d = ""
                        while let ak = try r.nextKeyRef() {
                            if r.text(ak, is: "entry") { e = try date(&r, "entry") }
                            else if r.text(ak, is: "description") { d = try text(&r, "annotations") ?? "" }
                            else { try r.skipValue() }
                        }
                        t.annotations.append((e, d))
                    }
                } else if !r.isNull() {
                    try wrong(&r, "annotations", .list)
                }
            }
            else if r.text(k, is: "estimate") {
                // A numeric UDA: a number, or the same written as a string: Taskwarrior writes an
                // undeclared UDA back as a string ("30.000000"), a duration UDA as ISO 8601
                // ("PT30M"). Anything out of the range (1e19, -5, "99999999999") is refused,
                // never converted: Int(Double) of a value past Int's range stops the process.
                r.skipWhitespace()
                let start = r.offset
                let minutes: Int?
                if r.peekKind() == .string {
                    minutes = TaskwarriorRecord.minutes(text: try r.readString())
                } else if r.isNull() {
                    continue
                } else if r.peekKind() == .number {
                    minutes = TaskwarriorRecord.minutes(try r.readNumber())
                } else {
                    try r.skipValue()
                    minutes = nil
                }
                if let m = minutes { t.estimate = m } else { refuse("estimate", .taskwarriorMinutes, at: start) }
            }
            else if r.text(k, is: "rrule") { t.rrule = try text(&r, "rrule") }
            else if r.text(k, is: "recur") { t.recur = try text(&r, "recur"); t.other["recur"] = t.recur.map { .string($0) } }
            else if r.text(k, is: "until") { t.until = try date(&r, "until"); t.other["until"] = t.until.map { .string(InteropValues.compactUTC($0)) } }
            else if r.text(k, is: "parent") { t.parent = try text(&r, "parent"); t.other["parent"] = t.parent.map { .string($0) } }
            else if r.text(k, is: "id") || r.text(k, is: "urgency") {
                // Working numbers Taskwarrior computes at each run: not data.
                try r.skipValue()
            } else {
                t.other[r.string(k)] = try r.readValue()
            }
        }
        if t.description == nil, t.fault == nil {
            t.fault = JSONValueFault(problem: .noDescription, offset: at)
        }
        return t
    }

    /// A number of minutes from 0 to 1,000,000, a fraction rounded; nil for anything else.
    package static func minutes(_ n: JSONNumber) -> Int? {
        if let v = n.int { return minutes(v) }
        // Compared as a Double before it is converted, so the conversion cannot trap.
        guard let d = n.double?.rounded(), d >= 0, d <= 1_000_000 else { return nil }
        return Int(d)
    }

    package static func minutes(_ v: Int) -> Int? { v >= 0 && v <= 1_000_000 ? v : nil }

    /// Minutes written as a string: a JSON number ("30", "30.000000", "1.5e1"), or an ISO 8601
    /// duration of Taskwarrior's duration UDAs ("PT30M", "PT1H30M", "P1DT2H"; seconds rounded).
    package static func minutes(text: String) -> Int? {
        let b = Array(text.utf8)
        guard !b.isEmpty, b.count <= 40 else { return nil }
        if b[0] == UInt8(ascii: "P") { return isoDuration(b) }
        var r = JSONReader(bytes: b)
        guard let n = try? r.readNumber(), (try? r.finish()) != nil else { return nil }
        return minutes(n)
    }

    /// `P[nW][nD][T[nH][nM][nS]]` in minutes, 0 to 1,000,000; nil for anything else.
    package static func isoDuration(_ b: [UInt8]) -> Int? {
        var seconds = 0
        var n = -1
        var inTime = false
        var any = false
        for c in b.dropFirst() {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                // At most 9 digits, so the arithmetic below stays far inside Int.
                guard n < 100_000_000 else { return nil }
                n = max(n, 0) * 10 + Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "T"):
                guard !inTime, n < 0 else { return nil }
                inTime = true
            default:
                guard n >= 0 else { return nil }
                let unit: Int
                switch (c, inTime) {
                case (UInt8(ascii: "W"), false): unit = 7 * 86_400
                case (UInt8(ascii: "D"), false): unit = 86_400
                case (UInt8(ascii: "H"), true): unit = 3_600
                case (UInt8(ascii: "M"), true): unit = 60
                case (UInt8(ascii: "S"), true): unit = 1
                default: return nil
                }
                seconds += n * unit
                guard seconds <= 60_000_000 else { return nil }
                n = -1
                any = true
            }
        }
        guard any, n < 0 else { return nil }
        return minutes((seconds + 30) / 60)
    }

    package static let priorities: [String: Priority] = ["H": .high, "M": .medium, "L": .low, "U": .critical]

    /// The Kept task.
    package func task(line: Int, zone: Zone, rrules: inout RRULECache) throws(ImportError) -> ImportedTask {
        func local(_ i: Instant) -> Due {
            let l = zone.local(at: i)
            // Taskwarrior has no date-only due: a due at local midnight is a day.
            return l.time == .midnight ? Due(date: l.date) : Due(date: l.date, time: l.time)
        }
        let created = entry ?? modified ?? Instant.epoch
        var t = Task(id: 0, title: description ?? "", createdAt: created, uid: uuid ?? TaskUID(hi: 0, lo: 0))
        // The record holds the task only at the end (moved in, not copied).
        var r = ImportedTask(task: Task(id: 0, title: "", createdAt: .epoch, uid: TaskUID(hi: 0, lo: 0)), hasUID: uuid != nil, fields: [.title, .status, .due, .start, .priority, .project, .tags,
                                                                    .description, .repeat, .estimate, .completed, .created, .comments],
                             line: line)
        if entry == nil { r.fields.remove(.created) }
        var kept = other
        switch status ?? "pending" {
        case "pending", "recurring": t.status = .open
        case "waiting": t.status = TaskStatus(rawValue: "waiting")
        case "completed": t.status = .done
        case "deleted": r.deleted = true
        default:
            throw ImportError(.notATaskwarriorStatus(status ?? ""), line: line)
        }
        // Kept's own status, when Kept wrote the file.
        if case .string(let s)? = kept["keptstatus"] {
            t.status = TaskStatus(rawValue: s.lowercased())
            kept["keptstatus"] = nil
        }
        t.project = project
        t.tags = tags
        if let p = priority, !p.isEmpty {
            if let k = TaskwarriorRecord.priorities[p] { t.priority = k } else { kept["priority"] = .string(p) }
        }
        t.due = due.map(local)
        t.start = scheduled.map(local)
        if t.status == .done || r.deleted { t.completedAt = end }
        if let m = modified {
            t.modifiedAt = max(m, r.deleted ? (end ?? m) : m)
            r.hasModified = true
        }
        if r.deleted, let e = end, !r.hasModified {
            t.modifiedAt = e
            r.hasModified = true
        }
        if let e = estimate { t.estimate = Estimate(minutes: e) }
        // The annotation made with the task is its description; later ones are comments,
        // gathered and given to the task once (appending one at a time to its copy-on-write
        // details copies them each time).
        var comments: [JSONValue] = []
        for a in annotations {
            if a.entry == nil || a.entry == entry, t.description == nil {
                t.description = a.text
            } else {
                var c = JSONObject([("text", .string(a.text))])
                if let at = a.entry { c["at"] = .string(TimeText.isoInstant(at, in: .utc)) }
                comments.append(.object(c))
            }
        }
        if !comments.isEmpty { t.comments = comments }
        if case .string(let s)? = kept["keptrepeat"] {
            kept["keptrepeat"] = nil
            var jr = JSONReader(bytes: Array(s.utf8))
            if let o = (try? jr.readValue())?.objectValue, let spec = InteropValues.repeatSpec(o, due: t.due),
               (o["rrule"]?.stringValue ?? o["text"]?.stringValue) == rrule {
                t.repeatRule = spec
            }
        }
        if t.repeatRule != nil {
        } else if let rr = rrule, !RepeatRule.saysFREQ(rr) {
            // Kept's words for a rule no RRULE says (`after completion`).
            let spec = RepeatSpec(text: rr, anchor: t.due?.date)
            guard spec.rule != nil else { throw ImportError(.notARepeat(rr), line: line) }
            t.repeatRule = spec
        } else if let rr = rrule {
            switch InteropValues.repeatSpec(rrule: rr, anchor: t.due, line: line, cache: &rrules) {
            case .success(let s)?: t.repeatRule = s
            case .failure(let e)?: throw e
            case nil: kept["rrule"] = .string(rr)
            }
        } else if let rc = recur {
            if let w = TaskwarriorRecur.words(rc), t.due != nil {
                var spec = RepeatSpec(text: w, anchor: t.due?.date)
                if let u = until, var rule = spec.rule {
                    rule.end = .date(zone.local(at: u.adding(seconds: -1)).date)
                    spec = RepeatSpec(rule: rule, anchor: t.due?.date ?? zone.local(at: u).date)
                }
                t.repeatRule = spec.rule == nil ? nil : spec
            }
        }
        if t.repeatRule != nil {
            kept["recur"] = nil
            kept["until"] = nil
        }
        if !kept.members.isEmpty {
            t.extra[InteropFormat.taskwarrior.extraKey] = .object(kept)
            r.unmapped = kept.members.map(\.key)
        }
        swap(&r.task, &t)
        return r
    }
}
