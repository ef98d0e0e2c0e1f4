// Edits of a task's dates, fields and lists: the date shortcuts (R-TASK-8, R-VIEW-4, R-VIEW-6),
// set FIELD, tags, note links, steps and comments. Values come typed (a Due, a Priority, a
// rule); each is checked once, then the edit runs on one task or on a selection.

import KeptRules

/// A field's new value, as `set ID FIELD VALUE` gives it (nil: none).
public enum FieldValue: Sendable {
    case title(String)
    case description(String?)
    case goal(String?)
    case due(Due?)
    case start(Due?)
    case priority(Priority)
    /// nil stops the series at this occurrence (R-REP-8).
    case repeatRule(RepeatRule?)
    /// A project by name, matched without case.
    case project(String?)
    case area(String?)
    case estimate(Estimate?)
    /// A built-in status of open work, or one of the task's project's own.
    case status(String)
    case parent(Int?)

    public var field: TaskField {
        switch self {
        case .title: return .title
        case .description: return .description
        case .goal: return .goal
        case .due: return .due
        case .start: return .start
        case .priority: return .priority
        case .repeatRule: return .repeat
        case .project: return .project
        case .area: return .area
        case .estimate: return .estimate
        case .status: return .status
        case .parent: return .parent
        }
    }
}

/// A change to a task's checklist; steps are numbered from 1.
public enum StepChange: Sendable {
    case add(String)
    case check(Int)
    case uncheck(Int)
    case remove(Int)
}

extension Engine {
    // MARK: dates

    /// An edit giving each task the due `newDue` says.
    package func dueEdit(_ sel: Selection, _ name: String, _ newDue: (Task) throws(DomainError) -> Due?) throws(DomainError) -> Outcome<Task> {
        try act(sel, name) { (t, step) throws(DomainError) in
            var after = t
            after.due = try newDue(t)
            return self.updated(t, to: after, into: &step)
        }
    }

    /// R-VIEW-6: "Tomorrow" moves the due date one day later and keeps its time; a task without
    /// a due date is due tomorrow.
    public func tomorrow(_ sel: Selection) throws(DomainError) -> Outcome<Task> {
        let tomorrow = today.adding(days: 1)
        return try dueEdit(sel, "tomorrow") { t in
            guard let d = t.due else { return Due(date: tomorrow) }
            return Due(date: d.date.adding(days: 1), time: d.time)
        }
    }

    /// R-TASK-8: the date shortcuts (today, tomorrow, next week, a picked date, clear). A date
    /// without a time keeps the task's time of day, as a move between due groups does.
    public func reschedule(_ sel: Selection, to picked: Due?) throws(DomainError) -> Outcome<Task> {
        try dueEdit(sel, "reschedule") { t in
            guard let p = picked else { return nil }
            return Due(date: p.date, time: p.time ?? t.due?.time)
        }
    }

    /// R-VIEW-4: moving into a due group reschedules and keeps the time of day; a task already in
    /// the group stays as it is; nothing can be moved into Overdue.
    public func move(_ sel: Selection, to group: DueGroup) throws(DomainError) -> Outcome<Task> {
        guard group != .overdue else { throw .cannotMove(.intoOverdue) }
        let fc = filterContext
        let weekEnd = store.settings.day.endOfWeek(containing: today).dayNumber
        let todayN = today.dayNumber
        return try dueEdit(sel, "move to \(group.rawValue)") { (t) throws(DomainError) -> Due? in
            if DueGroup.of(t, fc, weekEnd: weekEnd) == group { return t.due }
            let time = t.due?.time
            switch group {
            case .noDue: return nil
            case .today:
                // Keeping a time that has passed would land in Overdue, so the task becomes
                // all-day today instead.
                if let tm = time, fc.hasPassed(Due(date: CivilDate(dayNumber: todayN), time: tm)) { return Due(date: CivilDate(dayNumber: todayN)) }
                return Due(date: CivilDate(dayNumber: todayN), time: time)
            case .tomorrow: return Due(date: CivilDate(dayNumber: todayN + 1), time: time)
            case .thisWeek:
                guard todayN + 2 <= weekEnd else { throw .cannotMove(.weekEnds(CivilDate(dayNumber: weekEnd))) }
                return Due(date: CivilDate(dayNumber: todayN + 2), time: time)
            case .later: return Due(date: CivilDate(dayNumber: weekEnd + 1), time: time)
            case .overdue: return t.due
            }
        }
    }

    // MARK: fields

    /// `set ID FIELD VALUE` on one task or a selection. What does not depend on the task (the
    /// project, the parent) is checked before any task is touched.
    public func set(_ value: FieldValue, on sel: Selection) throws(DomainError) -> Outcome<Task> {
        let setter = try fieldSetter(value)
        let f = value.field.rawValue
        return try act(sel, "set \(f)", summary: { "set \($0.id) \(f) · \($0.title)" }) { (t, step) throws(DomainError) in
            self.updated(t, to: try setter(t), into: &step)
        }
    }

    package func fieldSetter(_ value: FieldValue) throws(DomainError) -> (Task) throws(DomainError) -> Task {
        func plain(_ change: @escaping (inout Task) -> Void) -> (Task) throws(DomainError) -> Task {
            { t in
                var a = t
                change(&a)
                return a
            }
        }
        switch value {
        case .title(let v):
            guard !v.isEmpty else { throw .emptyTitle }
            guard !v.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { throw .titleNotOneLine(v) }
            return plain { $0.title = v }
        case .description(let v): return plain { $0.description = v }
        case .goal(let v): return plain { $0.goal = v }
        case .due(let d): return plain { $0.due = d }
        case .start(let d): return plain { $0.start = d }
        case .priority(let p): return plain { $0.priority = p }
        case .repeatRule(nil):
            // R-REP-8: this occurrence stops the series; earlier ones are not touched.
            return plain { $0.repeatRule = nil }
        case .repeatRule(let rule?):
            return plain { t in
                t.repeatRule = nil
                self.attach(rule, to: &t)
            }
        case .project(nil): return plain { $0.project = nil }
        case .project(let name?):
            let p = try openProject(name)
            return plain { $0.project = p.name }
        case .area(nil): return plain { $0.area = nil }
        case .area(let v?):
            // R-FIL-6: a known area is written by the name the user gave it; another stays as typed.
            let key = AreaName.key(v)
            let name = store.areas.first { AreaName.key($0.name) == key }?.name ?? v
            return plain { $0.area = name }
        case .estimate(let e): return plain { $0.estimate = e }
        case .status(let v):
            guard v.lowercased() != "done" else { throw .statusDone }
            // A built-in status, or one of the task's project's own, checked task by task.
            return { (t) throws(DomainError) -> Task in
                var a = t
                a.status = try self.status(v, for: t.project)
                return a
            }
        case .parent(nil): return plain { $0.parent = nil }
        case .parent(let pid?):
            _ = try existing(pid)
            return { (t) throws(DomainError) -> Task in
                // A subtask of itself, or of its own subtask, would make a loop.
                if pid == t.id || self.descendants(of: t.id).contains(where: { $0.id == pid }) {
                    throw .parentCycle(child: t.id, parent: pid)
                }
                var a = t
                a.parent = pid
                return a
            }
        }
    }

    // MARK: tags, note links

    /// Adds or removes tags (compared without case; a new tag keeps its spelling).
    public func tag(_ sel: Selection, _ names: [String], add: Bool) throws(DomainError) -> Outcome<Task> {
        var tags: [String] = []
        for n in names {
            // Digits alone stay text in capture (#42), so they are not a tag here either.
            guard !n.isEmpty, !n.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .badTag(n) }
            if !tags.contains(where: { $0.lowercased() == n.lowercased() }) { tags.append(n) }
        }
        return try act(sel, add ? "tag" : "untag") { t, step in
            var a = t
            for n in tags {
                let has = a.tags.contains { $0.lowercased() == n.lowercased() }
                if add, !has { a.tags.append(n) }
                if !add { a.tags.removeAll { $0.lowercased() == n.lowercased() } }
            }
            return self.updated(t, to: a, into: &step)
        }
    }

    /// Links or unlinks notes by title.
    public func link(_ sel: Selection, _ notes: [String], add: Bool) throws(DomainError) -> Outcome<Task> {
        try act(sel, add ? "link" : "unlink") { t, step in
            var a = t
            for n in notes {
                if add, !a.notes.contains(n) { a.notes.append(n) }
                if !add { a.notes.removeAll { $0 == n } }
            }
            return self.updated(t, to: a, into: &step)
        }
    }

    // MARK: steps, comments

    public func step(_ id: Int, _ change: StepChange) throws(DomainError) -> Outcome<Task> {
        try act(.task(id), "step") { (t, step) throws(DomainError) in
            var a = t
            func index(_ n: Int) throws(DomainError) -> Int {
                guard n >= 1, n <= t.steps.count else { throw .noStep(n, of: t) }
                return n - 1
            }
            switch change {
            case .add(let title):
                guard !title.unicodeScalars.contains(where: { $0.value < 0x20 }) else { throw .stepNotOneLine(title) }
                a.steps.append(Step(title: title))
            case .check(let n): a.steps[try index(n)].done = true
            case .uncheck(let n): a.steps[try index(n)].done = false
            case .remove(let n): a.steps.remove(at: try index(n))
            }
            return self.updated(t, to: a, into: &step)
        }
    }

    /// A comment is kept as `{"text", "at"}`, the time it was written, in the store.
    public func comment(_ id: Int, _ text: String) throws(DomainError) -> Outcome<Task> {
        let at = TimeText.isoInstant(now, in: .utc)
        return try act(.task(id), "comment") { t, step in
            var a = t
            a.comments.append(.object(JSONObject([("text", .string(text)), ("at", .string(at))])))
            return self.updated(t, to: a, into: &step)
        }
    }

    // MARK: capture

    /// A draft checked against the store: its project by the name the store gives it (it must
    /// exist and take tasks), its status one of the task's (R-CAP-6), its parent there.
    public func checked(_ draft: TaskDraft, parent: Int? = nil) throws(DomainError) -> TaskDraft {
        var d = draft
        if let name = d.project { d.project = try openProject(name).name }
        if let st = d.status, st != "done" { d.status = try status(st, for: d.project).rawValue }
        if let p = parent ?? d.parent { _ = try existing(p) }
        return d
    }

    /// Files a task drafted from a quick-add line (R-CAP-1), as a subtask of `parent` if given.
    public func add(_ draft: TaskDraft, parent: Int? = nil) throws(DomainError) -> Task {
        let d = try checked(draft, parent: parent)
        var t = try newTask(title: d.title)
        t.due = d.due
        t.start = d.start
        t.priority = d.priority ?? .none
        t.project = d.project
        t.tags = d.tags
        t.notes = d.notes
        if let st = d.status { t.status = TaskStatus(rawValue: st) }
        t.parent = parent ?? d.parent
        if let r = d.repeatRule { attach(r, to: &t) }
        let made = t
        return try perform("add \(t.id) · \(t.title)") { step in
            stage([.task(before: nil, after: made)], into: &step)
            return store.task(made.id) ?? made
        }
    }
}

// MARK: several fields at once

extension Engine {
    /// `kept edit`: several fields and the tags of one task changed as one undoable step
    /// (R-HOME-4). The values are checked and applied in order on the task as the one before
    /// left it; any error takes back the whole edit.
    public func edit(_ id: Int, _ values: [FieldValue], addTags: [String] = [], removeTags: [String] = []) throws(DomainError) -> Outcome<Task> {
        var setters: [(Task) throws(DomainError) -> Task] = []
        for v in values { setters.append(try fieldSetter(v)) }
        for n in addTags + removeTags {
            guard !n.isEmpty, !n.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw .badTag(n) }
        }
        return try act(.task(id), "edit", summary: { "edit \($0.id) · \($0.title)" }) { (t, step) throws(DomainError) in
            var a = t
            for s in setters { a = try s(a) }
            for n in removeTags { a.tags.removeAll { $0.lowercased() == n.lowercased() } }
            for n in addTags where !a.tags.contains(where: { $0.lowercased() == n.lowercased() }) { a.tags.append(n) }
            return self.updated(t, to: a, into: &step)
        }
    }
}
