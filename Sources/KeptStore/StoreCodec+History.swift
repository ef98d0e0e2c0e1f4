// The undo history in the store file (docs/STORE.md, "The undo history"): the newest steps of
// undo and redo, so a later session can still undo (R-TASK-1). A task inside a step is written
// and read exactly as in the tasks list.

import KeptRules
import KeptDomain
import KeptFiles

extension StoreCodec {
    /// The steps a store keeps: the newest `Journal.storedSteps`, and fewer when they would hold
    /// more than `Journal.storedChanges` changed items (a large bulk edit).
    package static func storedSteps(_ steps: [JournalStep]) -> ArraySlice<JournalStep> {
        var total = 0
        var first = steps.count
        while first > 0, steps.count - first < Journal.storedSteps {
            let n = steps[first - 1].changes.count
            guard total + n <= Journal.storedChanges else { break }
            total += n
            first -= 1
        }
        return steps[first...]
    }

    /// `{"undo": [STEP…], "redo": [STEP…]}`, one step per line.
    package static func appendHistory(_ j: Journal, to out: inout [UInt8]) {
        func steps(_ name: String, _ list: ArraySlice<JournalStep>, last: Bool) {
            out.append(contentsOf: Array("\n    ".utf8))
            JSONWriter.appendString(name, to: &out)
            out.append(contentsOf: Array(": [".utf8))
            for (k, s) in list.enumerated() {
                out.append(contentsOf: Array((k == 0 ? "\n      " : ",\n      ").utf8))
                JSONWriter.append(stepValue(s), to: &out, pretty: false, indent: 0, level: 0)
            }
            out.append(contentsOf: Array((list.isEmpty ? "]" : "\n    ]").utf8))
            if !last { out.append(UInt8(ascii: ",")) }
        }
        out.append(UInt8(ascii: "{"))
        steps("undo", storedSteps(j.undoStack), last: false)
        steps("redo", storedSteps(j.redoStack), last: true)
        out.append(contentsOf: Array("\n  }".utf8))
    }

    package static func stepValue(_ s: JournalStep) -> JSONValue {
        .object(JSONObject([("summary", .string(s.summary)), ("changes", .array(s.changes.map(changeValue)))]))
    }

    package static func changeValue(_ c: Change) -> JSONValue {
        func pair(_ kind: String, _ b: JSONValue, _ a: JSONValue) -> JSONValue {
            .object(JSONObject([("kind", .string(kind)), ("before", b), ("after", a)]))
        }
        switch c {
        case .task(let b, let a):
            return pair("task", b.map { .object(TaskJSON.record($0)) } ?? .null, a.map { .object(TaskJSON.record($0)) } ?? .null)
        case .project(let b, let a):
            return pair("project", b.map { .object(projectObject($0)) } ?? .null, a.map { .object(projectObject($0)) } ?? .null)
        case .area(let b, let a):
            return pair("area", b.map { .object(areaObject($0)) } ?? .null, a.map { .object(areaObject($0)) } ?? .null)
        case .settings(let b, let a):
            return pair("settings", .object(settingsObject(b)), .object(settingsObject(a)))
        case .filters(let b, let a):
            return pair("filters", .array(b.map { .object(filterObject($0)) }), .array(a.map { .object(filterObject($0)) }))
        case .plan(let b, let a):
            return pair("plan", b.map(planValue) ?? .null, a.map(planValue) ?? .null)
        case .calendars(let b, let a):
            return pair("calendars", calendarsValue(b), calendarsValue(a))
        }
    }

    /// `{"madeAt": INSTANT, "day": DATE, "top3": [ID…]}`.
    package static func planValue(_ p: PlanSnapshot) -> JSONValue {
        var o = JSONObject([
            ("madeAt", .string(TimeText.isoInstant(p.madeAt, in: .utc))),
            ("day", .string(p.day.iso)),
            ("top3", .array(p.top3.map { .number(JSONNumber($0)) })),
        ])
        for (k, v) in p.extra.members where o[k] == nil { o[k] = v }
        return .object(o)
    }

    package static func planSnapshot(_ v: JSONValue) throws(HistoryError) -> PlanSnapshot {
        guard case .object(let o) = v else { throw HistoryError(message: "a plan is an object") }
        guard case .string(let m)? = o["madeAt"], let madeAt = TimeText.parseISOInstant(m) else {
            throw HistoryError(message: "a plan needs 'madeAt', an instant")
        }
        guard case .string(let d)? = o["day"], let day = CivilDate.parseISO(Array(d.utf8)) else {
            throw HistoryError(message: "a plan needs 'day', a date like 2026-06-15")
        }
        var top3: [Int] = []
        if let t = o["top3"] {
            guard case .array(let ids) = t else { throw HistoryError(message: "a plan's 'top3' is a list of task ids") }
            for x in ids {
                guard case .number(let n) = x, let id = n.int, id >= 1, id <= Store.maxID else {
                    throw HistoryError(message: "a plan's 'top3' is a list of task ids")
                }
                top3.append(id)
            }
        }
        guard top3.count <= 3 else { throw HistoryError(message: "a plan has at most 3 Top 3 picks") }
        var extra = JSONObject()
        for (k, x) in o.members where !["madeAt", "day", "top3"].contains(k) { extra[k] = x }
        return PlanSnapshot(madeAt: madeAt, day: day, top3: top3, extra: extra)
    }

    /// A project's record, in `projects` and in the history alike.
    package static func projectObject(_ p: Project) -> JSONObject {
        var o = JSONObject([("name", .string(p.name))])
        if p.uid != Project.uid(named: p.name) { o["uid"] = .string(p.uid.description) }
        if p.archived { o["archived"] = .bool(true) }
        if !p.statuses.isEmpty { o["statuses"] = .array(p.statuses.map { .string($0) }) }
        return merge(o, p.extra)
    }

    /// A project's own statuses: non-empty names, none built in, none twice.
    package static func projectStatuses(_ v: JSONValue) -> [String]? {
        guard case .array(let items) = v else { return nil }
        var out: [String] = []
        for item in items {
            guard case .string(let n) = item, !n.trimmedSpaces.isEmpty, !TaskStatus.reserved.contains(n.lowercased()),
                  !out.contains(where: { $0.lowercased() == n.lowercased() }) else { return nil }
            out.append(n)
        }
        return out
    }

    /// A saved filter's record, in `filters` and in the history alike.
    package static func filterObject(_ f: SavedFilter) -> JSONObject {
        var o = JSONObject([("name", .string(f.name))])
        if f.uid != SavedFilter.uid(named: f.name) { o["uid"] = .string(f.uid.description) }
        o["filter"] = .string(f.filter)
        o["starred"] = .bool(f.starred)
        return merge(o, f.extra)
    }

    /// The `uid` of a project, area or saved filter as a record gives it: absent, the one its
    /// name derives (every item before sync, and every item never renamed, so such records keep
    /// their bytes); present, it must read as a uid, or nil: an item whose identity does not read
    /// is refused, never taken for the one its name gives.
    package static func itemUID(_ v: JSONValue?, named derived: TaskUID) -> TaskUID? {
        guard let v else { return derived }
        guard case .string(let s) = v else { return nil }
        return TaskUID(s)
    }

    // MARK: reading

    /// Reads the history; a step that cannot be read makes the store unreadable, like any other
    /// record, so it is reported and never silently dropped (R-STORE-3).
    package static func decodeHistory(_ r: inout JSONReader) throws(JSONError) -> Journal {
        r.skipWhitespace()
        let at = r.offset
        let v = try r.readValue()
        func fail(_ m: String) -> JSONError { r.error("the undo history: \(m)", at: at) }
        guard case .object(let o) = v else { throw fail("'history' is an object") }
        var j = Journal()
        for (name, push) in [("undo", true), ("redo", false)] {
            guard let list = o[name] else { continue }
            guard case .array(let steps) = list else { throw fail("'\(name)' is a list") }
            for sv in steps {
                do throws(HistoryError) {
                    let s = try step(sv)
                    if push { j.pushUndo(s) } else { j.pushRedo(s) }
                } catch {
                    throw fail(error.message)
                }
            }
        }
        return j
    }

    package struct HistoryError: Error {
        package let message: String
    }

    package static func step(_ v: JSONValue) throws(HistoryError) -> JournalStep {
        guard case .string(let summary)? = v["summary"], case .array(let cs)? = v["changes"] else {
            throw HistoryError(message: "a step needs a 'summary' and 'changes'")
        }
        var changes: [Change] = []
        for c in cs {
            guard case .string(let kind)? = c["kind"], let b = c["before"], let a = c["after"] else {
                throw HistoryError(message: "a change needs a 'kind', 'before' and 'after'")
            }
            switch kind {
            case "task": changes.append(.task(before: try optional(b, task), after: try optional(a, task)))
            case "project": changes.append(.project(before: try optional(b, project), after: try optional(a, project)))
            case "area": changes.append(.area(before: try optional(b, area), after: try optional(a, area)))
            case "settings": changes.append(.settings(before: try settings(b), after: try settings(a)))
            case "filters": changes.append(.filters(before: try filters(b), after: try filters(a)))
            case "plan": changes.append(.plan(before: try optional(b, planSnapshot), after: try optional(a, planSnapshot)))
            case "calendars": changes.append(.calendars(before: try calendars(b), after: try calendars(a)))
            default: throw HistoryError(message: "unknown change kind '\(kind)'")
            }
        }
        return JournalStep(summary: summary, changes: changes)
    }

    package static func optional<T>(_ v: JSONValue, _ read: (JSONValue) throws(HistoryError) -> T) throws(HistoryError) -> T? {
        if v.isNull { return nil }
        return try read(v)
    }

    /// Reads a value with the store's own reader, so a task in the history is checked exactly
    /// as one in the tasks list.
    package static func reread<T>(_ v: JSONValue, _ read: (inout JSONReader) throws(JSONError) -> T) throws(HistoryError) -> T {
        var bytes: [UInt8] = []
        JSONWriter.append(v, to: &bytes, pretty: false, indent: 0, level: 0)
        var r = JSONReader(bytes: bytes)
        r.uniqueKeys = true
        do throws(JSONError) {
            return try read(&r)
        } catch {
            throw HistoryError(message: error.message)
        }
    }

    package static func task(_ v: JSONValue) throws(HistoryError) -> Task {
        guard case .object = v else { throw HistoryError(message: "a task is an object") }
        return try reread(v) { (r: inout JSONReader) throws(JSONError) in try decodeTask(&r) }
    }

    package static func settings(_ v: JSONValue) throws(HistoryError) -> Settings {
        guard case .object = v else { throw HistoryError(message: "settings are an object") }
        return try reread(v) { (r: inout JSONReader) throws(JSONError) in try decodeSettings(&r) }
    }

    package static func project(_ v: JSONValue) throws(HistoryError) -> Project {
        guard case .object(let o) = v, case .string(let n)? = o["name"], !n.isEmpty else { throw HistoryError(message: "a project needs a 'name'") }
        var p = Project(name: n)
        guard let uid = itemUID(o["uid"], named: p.uid) else { throw HistoryError(message: "a project's 'uid' is a UUID") }
        p.uid = uid
        if case .bool(let a)? = o["archived"] { p.archived = a }
        if let v = o["statuses"] {
            guard let list = projectStatuses(v) else { throw HistoryError(message: "a project's 'statuses' is a list of names") }
            p.statuses = list
        }
        for (k, x) in o.members where !["name", "uid", "archived", "statuses"].contains(k) { p.extra[k] = x }
        return p
    }

    package static func area(_ v: JSONValue) throws(HistoryError) -> Area {
        guard case .object(let o) = v, case .string(let n)? = o["name"], !n.isEmpty else { throw HistoryError(message: "an area needs a 'name'") }
        var a = Area(name: n)
        guard let uid = itemUID(o["uid"], named: a.uid) else { throw HistoryError(message: "an area's 'uid' is a UUID") }
        a.uid = uid
        for (k, x) in o.members where k != "name" && k != "uid" { a.extra[k] = x }
        return a
    }

    /// The connected calendars as the store keeps them: `[{"name", "file", "path", "hidden"}…]`.
    package static func calendarsValue(_ cs: [CalendarConnection]) -> JSONValue {
        .array(cs.map { c in
            .object(JSONObject([("name", .string(c.name)), ("file", .string(c.file)), ("path", .string(c.path)), ("hidden", .bool(c.hidden))]))
        })
    }

    package static func calendars(_ v: JSONValue) throws(HistoryError) -> [CalendarConnection] {
        guard case .array(let list) = v else { throw HistoryError(message: "calendars are a list") }
        var out: [CalendarConnection] = []
        for c in list {
            guard case .object(let o) = c, case .string(let n)? = o["name"], case .string(let p)? = o["path"] else {
                throw HistoryError(message: "a calendar needs a 'name' and a 'path'")
            }
            var file = p
            if case .string(let f)? = o["file"] { file = f }
            var hidden = false
            if let h = o["hidden"] {
                guard case .bool(let b) = h else { throw HistoryError(message: "a calendar's 'hidden' is true or false") }
                hidden = b
            }
            guard !n.isEmpty, !out.contains(where: { $0.name.lowercased() == n.lowercased() }) else {
                throw HistoryError(message: "a calendar's name is not empty and is its own")
            }
            out.append(CalendarConnection(name: n, file: file, path: p, hidden: hidden))
        }
        return out
    }

    package static func filters(_ v: JSONValue) throws(HistoryError) -> [SavedFilter] {
        guard case .array(let list) = v else { throw HistoryError(message: "filters are a list") }
        var out: [SavedFilter] = []
        for f in list {
            guard case .object(let o) = f, case .string(let n)? = o["name"], case .string(let text)? = o["filter"] else {
                throw HistoryError(message: "a saved filter needs a 'name' and a 'filter'")
            }
            var s = SavedFilter(name: n, filter: text)
            guard let uid = itemUID(o["uid"], named: s.uid) else { throw HistoryError(message: "a saved filter's 'uid' is a UUID") }
            s.uid = uid
            if case .bool(let b)? = o["starred"] { s.starred = b }
            for (k, x) in o.members where !["name", "uid", "filter", "starred"].contains(k) { s.extra[k] = x }
            out.append(s)
        }
        return out
    }
}
