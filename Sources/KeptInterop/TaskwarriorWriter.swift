// Tasks as Taskwarrior's JSON (docs/INTEROP.md, "Taskwarrior"), one task a line in a list, as
// `task export` writes and `task import` reads. An open repeating task whose rule Taskwarrior
// can say is a recurring template and its pending occurrence; every repeat also goes out in
// the `rrule` attribute, which Kept reads back exactly. Kept's own statuses other than open
// and done ride in `keptstatus`.

import KeptRules
import KeptDomain
import KeptFiles

package enum TaskwarriorWriter {
    package static let priorities: [Priority: String] = [.high: "H", .medium: "M", .low: "L", .critical: "U"]

    package static func write(_ tasks: [Task], zone: Zone, to out: inout [UInt8]) {
        out.append(contentsOf: Array("[\n".utf8))
        var first = true
        func emit(_ o: JSONObject) {
            if !first { out.append(contentsOf: Array(",\n".utf8)) }
            first = false
            JSONWriter.append(.object(o), to: &out, pretty: false, indent: 0, level: 0)
        }
        for t in tasks {
            let (task, template) = records(t, zone: zone)
            if let template { emit(template) }
            emit(task)
        }
        out.append(contentsOf: Array((first ? "]\n" : "\n]\n").utf8))
    }

    package static func stamp(_ d: Due, zone: Zone) -> String {
        InteropValues.compactUTC(zone.instant(for: CivilDateTime(date: d.date, time: d.time ?? .midnight)))
    }

    /// A task's record, and the template of its series when it has one.
    package static func records(_ t: Task, zone: Zone) -> (JSONObject, JSONObject?) {
        var o = JSONObject()
        o.members.reserveCapacity(16)
        var kept = InteropValues.kept(t, .taskwarrior)
        o.members.append(("uuid", .string(t.uid.description)))
        o.members.append(("description", .string(t.title)))
        let status: String
        switch t.status {
        case .open: status = "pending"
        case .done, .archived: status = "completed"
        default: status = "pending"
        }
        o.members.append(("status", .string(status)))
        if t.status != .open, t.status != .done { o.members.append(("keptstatus", .string(t.status.rawValue))) }
        o.members.append(("entry", .string(InteropValues.compactUTC(t.createdAt))))
        o.members.append(("modified", .string(InteropValues.compactUTC(t.modifiedAt))))
        if status == "completed" { o.members.append(("end", .string(InteropValues.compactUTC(t.completedAt ?? t.modifiedAt)))) }
        if let p = t.project { o.members.append(("project", .string(p))) }
        if !t.tags.isEmpty { o.members.append(("tags", .array(t.tags.map { .string($0) }))) }
        if let p = priorities[t.priority] { o.members.append(("priority", .string(p))) }
        if let d = t.due { o.members.append(("due", .string(stamp(d, zone: zone)))) }
        if let s = t.start { o.members.append(("scheduled", .string(stamp(s, zone: zone)))) }
        var notes: [JSONValue] = []
        if let d = t.description {
            notes.append(.object(JSONObject([("entry", .string(InteropValues.compactUTC(t.createdAt))), ("description", .string(d))])))
        }
        for c in t.comments {
            guard let text = c.objectValue?["text"]?.stringValue else { continue }
            var at = c.objectValue?["at"]?.stringValue.flatMap { TimeText.parseISOInstant($0) } ?? t.modifiedAt
            // The description's annotation is the one made with the task.
            if at == t.createdAt { at = at.adding(seconds: 1) }
            notes.append(.object(JSONObject([("entry", .string(InteropValues.compactUTC(at))), ("description", .string(text))])))
        }
        if !notes.isEmpty { o.members.append(("annotations", .array(notes))) }
        if let e = t.estimate { o.members.append(("estimate", .number(JSONNumber(e.minutes)))) }
        var template: JSONObject? = nil
        if let spec = t.anchoredRepeat {
            let rr = spec.storedRRULE ?? spec.rrule ?? spec.text
            o.members.append(("rrule", .string(rr)))
            // Kept's own repeat, exactly as the store holds it, while `rrule` is unchanged.
            o.members.append(("keptrepeat", .string(JSONWriter.compact(.object(InteropValues.repeatObject(t.repeatRule ?? spec, due: t.due))))))
            kept["rrule"] = nil
            if t.isOpen, let period = TaskwarriorRecur.period(spec, due: t.due) {
                let tuid = kept["parent"]?.stringValue.flatMap(TaskUID.init) ?? TaskUID(bits: TaskUID.mix(t.uid.hi ^ 0x7477), TaskUID.mix(t.uid.lo ^ 0x7265))
                var tpl = JSONObject()
                tpl.members = o.members.filter { ["description", "entry", "modified", "project", "tags", "priority", "due", "rrule"].contains($0.key) }
                tpl.members.insert(("uuid", .string(tuid.description)), at: 0)
                tpl.members.append(("status", .string("recurring")))
                tpl.members.append(("recur", .string(period)))
                tpl.members.append(("mask", .string("-")))
                template = tpl
                o.members.append(("recur", .string(period)))
                o.members.append(("parent", .string(tuid.description)))
                o.members.append(("imask", .number(JSONNumber(0))))
                for k in ["recur", "parent", "imask", "mask"] { kept[k] = nil }
            }
        }
        for (k, v) in kept.members where o[k] == nil { o.members.append((k, v)) }
        return (o, template)
    }
}
