// JSON Lines (docs/INTEROP.md, "JSON Lines"): one task object a line, the neutral format of the
// peers' task generator (title, project, tags, priority, due, dueHasTime, repeat, status,
// completedAt, estimateMinutes, description, createdAt), with Kept's other fields under their
// store names and a task's uid, so a store survives a trip through it. A key this version does
// not know is kept on the task as it is, like an unknown key of the store.

import KeptRules
import KeptDomain
import KeptFiles

/// Reads JSON Lines.
public struct JSONLinesReader: ImportSource {
    public let format = InteropFormat.jsonLines
    public var estimatedRecords: Int { lines.input.size / 300 }
    package var lines: LineReader
    package let zone: Zone

    public init(_ input: ByteInput, zone: Zone) {
        lines = LineReader(input)
        self.zone = zone
    }

    public mutating func next() throws(ImportError) -> ImportedTask? {
        while let raw = try lines.next() {
            let n = lines.line
            guard raw.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            var r = JSONReader(bytes: Array(raw))
            let v: JSONValue
            do {
                v = try r.readValue()
                try r.finish()
            } catch {
                throw ImportError(.lineNotJSON(n, error), line: n, column: error.column)
            }
            guard case .object(let o) = v else {
                throw ImportError(.lineNotObject(n), line: n, column: 1)
            }
            return try JSONLinesReader.task(o, line: n, zone: zone)
        }
        return nil
    }

    package static func bad(_ key: String, _ what: ImportError.Expected, _ line: Int) -> ImportError {
        ImportError(.field(key, not: what), line: line)
    }

    package static func task(_ o: JSONObject, line: Int, zone: Zone) throws(ImportError) -> ImportedTask {
        func str(_ k: String) throws(ImportError) -> String? {
            guard let v = o[k], !v.isNull else { return nil }
            guard let s = v.stringValue else { throw bad(k, .string, line) }
            return s
        }
        func strings(_ k: String) throws(ImportError) -> [String] {
            guard let v = o[k], !v.isNull else { return [] }
            guard let a = v.arrayValue else { throw bad(k, .strings, line) }
            var out: [String] = []
            for x in a {
                guard let s = x.stringValue else { throw bad(k, .strings, line) }
                out.append(s)
            }
            return out
        }
        func instant(_ k: String) throws(ImportError) -> Instant? {
            guard let s = try str(k) else { return nil }
            guard let i = InteropValues.instant(Array(s.utf8)) else { throw bad(k, .instant, line) }
            return i
        }
        func due(_ k: String) throws(ImportError) -> Due? {
            guard let s = try str(k) else { return nil }
            guard let d = InteropValues.due(s, zone: zone) else { throw bad(k, .dueWithOffset, line) }
            return d
        }
        func date(_ k: String) throws(ImportError) -> CivilDate? {
            guard let s = try str(k) else { return nil }
            guard let d = CivilDate(iso: s) else { throw bad(k, .isoDate, line) }
            return d
        }
        guard let title = try str("title") else {
            throw ImportError(.noTitleInLine, line: line)
        }
        let created = try instant("createdAt")
        var t = Task(id: 0, title: title, createdAt: created ?? Instant.epoch, uid: TaskUID(hi: 0, lo: 0))
        var f: ImportFields = [.title]
        var r = ImportedTask(task: t, hasUID: false, fields: [], line: line)
        if let u = try str("uid") {
            guard let uid = TaskUID(u) else { throw bad("uid", .uuidLike, line) }
            t.uid = uid
            r.hasUID = true
        }
        if created != nil { f.insert(.created) }
        var repeatObject: JSONObject? = nil
        for (k, v) in o.members {
            switch k {
            case "title", "uid", "createdAt", "id", "dueHasTime":
                break
            case "status":
                guard let s = v.stringValue else { throw bad(k, .status, line) }
                switch s.lowercased() {
                case "pending", "open": t.status = .open
                case "completed", "done": t.status = .done
                case "deleted": r.deleted = true
                default: t.status = TaskStatus(rawValue: s.lowercased())
                }
                f.insert(.status)
            case "project": t.project = try str(k); f.insert(.project)
            case "area": t.area = try str(k); f.insert(.area)
            case "tags": t.tags = try strings(k); f.insert(.tags)
            case "notes": t.notes = try strings(k); f.insert(.notes)
            case "description": t.description = try str(k); f.insert(.description)
            case "goal": t.goal = try str(k); f.insert(.goal)
            case "priority":
                let p = try str(k) ?? "none"
                guard let pr = p == "urgent" ? Priority.critical : Priority(word: p) else { throw bad(k, .priorityWord, line) }
                t.priority = pr
                f.insert(.priority)
            case "due": t.due = try due(k); f.insert(.due)
            case "start": t.start = try due(k); f.insert(.start)
            case "completedAt": t.completedAt = try instant(k); f.insert(.completed)
            case "modifiedAt":
                if let m = try instant(k) {
                    t.modifiedAt = m
                    r.hasModified = true
                }
            case "estimateMinutes", "estimate":
                if v.isNull { t.estimate = nil } else if let n = v.numberValue?.int, n >= 0, n <= 1_000_000 {
                    t.estimate = Estimate(minutes: n)
                } else if let e = v.objectValue, let n = e["minutes"]?.numberValue?.int, n >= 0, n <= 1_000_000 {
                    t.estimate = Estimate(minutes: n, source: e["source"]?.stringValue == "suggested" ? .suggested : .user)
                } else { throw bad(k, .minutes, line) }
                f.insert(.estimate)
            case "heldUntil": t.heldUntil = try date(k); f.insert(.held)
            case "notTodayOn": t.notTodayOn = try date(k); f.insert(.held)
            case "parentUid":
                if let s = try str(k) {
                    guard let p = TaskUID(s) else { throw bad(k, .uuid, line) }
                    r.parentUID = p
                }
                f.insert(.parent)
            case "steps":
                guard let a = v.arrayValue else { throw bad(k, .steps, line) }
                var steps: [Step] = []
                for s in a {
                    guard let title = s.objectValue?["title"]?.stringValue else { throw bad(k, .stepObjects, line) }
                    steps.append(Step(title: title, done: s.objectValue?["done"]?.boolValue ?? false))
                }
                t.steps = steps
                f.insert(.steps)
            case "reminders":
                guard let a = v.arrayValue else { throw bad(k, .reminders, line) }
                var rs: [Reminder] = []
                for x in a {
                    guard let at = x.objectValue?["at"]?.stringValue.flatMap(CivilDateTime.init(iso:)) else {
                        throw bad(k, .reminderObjects, line)
                    }
                    rs.append(Reminder(at: at, pastDue: x.objectValue?["pastDue"]?.boolValue ?? false))
                }
                t.reminders = rs.sorted { $0.at < $1.at }
                f.insert(.reminders)
            case "comments":
                guard let a = v.arrayValue else { throw bad(k, .list, line) }
                t.comments = a
                f.insert(.comments)
            case "repeat":
                f.insert(.repeat)
                guard let ro = v.objectValue else {
                    guard v.isNull else { throw bad(k, .repeatObject, line) }
                    continue
                }
                repeatObject = ro
            default:
                // Kept as it is, like an unknown key of the store (R-STORE-1).
                t.extra[k] = v
                r.unmapped.append(k)
            }
        }
        if let ro = repeatObject {
            guard let spec = InteropValues.repeatSpec(ro, due: t.due) else { throw bad("repeat", .readableRepeat, line) }
            t.repeatRule = spec
        }
        if created == nil { t.createdAt = t.modifiedAt }
        r.task = t
        r.fields = f
        return r
    }
}

/// Writes JSON Lines.
package enum JSONLinesWriter {
    package static func write(_ tasks: [Task], parentUID: (Int) -> TaskUID?, zone: Zone, to out: inout [UInt8]) {
        for t in tasks {
            var o = JSONObject()
            o.members.reserveCapacity(20)
            o.members.append(("id", .number(JSONNumber(t.id))))
            o.members.append(("uid", .string(t.uid.description)))
            o.members.append(("title", .string(t.title)))
            o.members.append(("project", t.project.map { .string($0) } ?? .null))
            o.members.append(("tags", .array(t.tags.map { .string($0) })))
            o.members.append(("priority", .string(t.priority == .critical ? "urgent" : t.priority.name)))
            o.members.append(("due", t.due.map { .string(InteropValues.dueText($0, zone: zone)) } ?? .null))
            o.members.append(("dueHasTime", .bool(t.due?.time != nil)))
            if let r = t.repeatRule {
                o.members.append(("repeat", .object(InteropValues.repeatObject(r, due: t.due))))
            } else {
                o.members.append(("repeat", .null))
            }
            let status: String
            switch t.status {
            case .open: status = "pending"
            case .done: status = "completed"
            default: status = t.status.rawValue
            }
            o.members.append(("status", .string(status)))
            o.members.append(("completedAt", t.completedAt.map { .string(TimeText.isoInstant($0, in: .utc)) } ?? .null))
            if let e = t.estimate, e.source == .suggested {
                o.members.append(("estimate", .object(JSONObject([("minutes", .number(JSONNumber(e.minutes))), ("source", .string("suggested"))]))))
            } else {
                o.members.append(("estimateMinutes", t.estimate.map { .number(JSONNumber($0.minutes)) } ?? .null))
            }
            o.members.append(("description", t.description.map { .string($0) } ?? .null))
            o.members.append(("createdAt", .string(TimeText.isoInstant(t.createdAt, in: .utc))))
            o.members.append(("modifiedAt", .string(TimeText.isoInstant(t.modifiedAt, in: .utc))))
            if let s = t.start { o.members.append(("start", .string(InteropValues.dueText(s, zone: zone)))) }
            if let a = t.area { o.members.append(("area", .string(a))) }
            if !t.notes.isEmpty { o.members.append(("notes", .array(t.notes.map { .string($0) }))) }
            if let g = t.goal { o.members.append(("goal", .string(g))) }
            if let h = t.heldUntil { o.members.append(("heldUntil", .string(h.iso))) }
            if let n = t.notTodayOn { o.members.append(("notTodayOn", .string(n.iso))) }
            if let p = t.parent, let u = parentUID(p) { o.members.append(("parentUid", .string(u.description))) }
            if !t.steps.isEmpty { o.members.append(("steps", TaskJSON.steps(t.steps))) }
            if !t.reminders.isEmpty { o.members.append(("reminders", .array(t.reminders.map { .object(TaskJSON.reminderObject($0)) }))) }
            if !t.comments.isEmpty { o.members.append(("comments", .array(t.comments))) }
            for (k, v) in t.extra.members where o[k] == nil { o.members.append((k, v)) }
            JSONWriter.append(.object(o), to: &out, pretty: false, indent: 0, level: 0)
            out.append(0x0A)
        }
    }
}
