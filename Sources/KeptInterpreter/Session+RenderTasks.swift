// The render stage of showing tasks: `show ID [FIELD]`, with the text of each field.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// `show ID`: the task's details; `show ID FIELD`: one field's text.
    package func renderShow(_ t: Task, _ field: TaskField?) -> CommandOutput {
        let txt = text
        guard let f = field else {
            return out(detail(t, txt), json: TaskJSON.value(t, zone: zone))
        }
        let value = fieldText(t, f, txt)
        let json: JSONValue
        switch f {
        // Fields outside the task shape of docs/OUTPUT.md.
        case .description: json = t.description.map { .string($0) } ?? .null
        case .goal: json = t.goal.map { .string($0) } ?? .null
        case .start: json = TaskJSON.due(t.start)
        default:
            if case .object(let o) = TaskJSON.value(t, zone: zone) { json = o[TaskJSON.key(for: f)] ?? .null } else { json = .null }
        }
        return out([value], json: .object(JSONObject([(f.rawValue, json)])))
    }

    package func fieldText(_ t: Task, _ f: TaskField, _ txt: TaskText) -> String {
        switch f {
        case .id: return String(t.id)
        case .uid: return t.uid.description
        case .title: return t.title
        case .status: return statusText(t)
        case .due: return t.due.map(txt.longDue) ?? "none"
        case .start: return t.start.map(txt.longDue) ?? "none"
        case .priority: return t.priority.name
        case .project: return t.project ?? "none"
        case .area: return t.area ?? "none"
        case .tags: return t.tags.isEmpty ? "none" : t.tags.map { "#" + $0 }.joined(separator: " ")
        case .notes: return t.notes.isEmpty ? "none" : t.notes.map { "[[\($0)]]" }.joined(separator: " ")
        case .description: return t.description ?? "none"
        case .repeat: return t.repeatRule.map { r in ([r.text] + repeatDateRows(t, txt).map { "\($0.0) \($0.1)" }).joined(separator: " · ") } ?? "never"
        case .estimate: return t.estimate.map { "\($0.minutes)m" } ?? "none"
        case .created: return txt.instant(t.createdAt, in: zone)
        case .modified: return txt.instant(t.modifiedAt, in: zone)
        case .completed: return t.completedAt.map { txt.instant($0, in: zone) } ?? "not completed"
        case .parent: return t.parent.map(String.init) ?? "none"
        case .goal: return t.goal ?? "none"
        case .steps: return t.steps.isEmpty ? "none" : "\(t.steps.filter(\.done).count)/\(t.steps.count)"
        case .reminders: return remindersText(t)
        }
    }

    /// The lines of `show ID`: a heading, then the fields that hold something (R-VIEW-5: nothing
    /// is reported as a zero).
    package func detail(_ t: Task, _ txt: TaskText) -> [String] {
        var rows: [(String, String)] = [("status", statusText(t))]
        if let d = t.due { rows.append(("due", txt.longDue(d))) }
        if let d = t.start { rows.append(("start", txt.longDue(d))) }
        if t.priority != .none { rows.append(("priority", t.priority.name)) }
        if let p = t.project { rows.append(("project", p)) }
        if let a = t.area { rows.append(("area", a)) }
        if !t.tags.isEmpty { rows.append(("tags", fieldText(t, .tags, txt))) }
        if !t.notes.isEmpty { rows.append(("notes", fieldText(t, .notes, txt))) }
        if let r = t.repeatRule { rows.append(("repeat", r.text)) }
        rows += repeatDateRows(t, txt)
        if let e = t.estimate { rows.append(("estimate", "\(e.minutes)m")) }
        if let p = t.parent { rows.append(("parent", String(p))) }
        if !t.steps.isEmpty { rows.append(("steps", fieldText(t, .steps, txt))) }
        if !t.reminders.isEmpty { rows.append(("reminders", remindersText(t))) }
        if let d = t.description { rows.append(("description", d)) }
        if let g = t.goal { rows.append(("goal", g)) }
        if !t.comments.isEmpty { rows.append(("comments", String(t.comments.count))) }
        rows.append(("created", txt.instant(t.createdAt, in: zone)))
        if let c = t.completedAt { rows.append(("completed", txt.instant(c, in: zone))) }
        if t.modifiedAt != t.createdAt { rows.append(("modified", txt.instant(t.modifiedAt, in: zone))) }
        rows.append(("uid", t.uid.description))
        let w = rows.map { $0.0.count }.max() ?? 0
        return ["\(t.id) · \(t.title)"] + rows.map { "  " + $0.0 + String(repeating: " ", count: w - $0.0.count) + "  " + $0.1 }
    }
}
