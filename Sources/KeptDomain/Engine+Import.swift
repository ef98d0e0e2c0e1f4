// Importing tasks (docs/INTEROP.md): records from a reader, matched by uid against the store,
// applied as one undo step through the one change path (Engine.apply). The newer of a record
// and the store wins: a record older than the task's last change here, or than its deletion
// here, is skipped; a task the store does not hold is added (and one deleted in the file is
// not). A record the reader refuses refuses the whole file: what was applied is taken back, and
// the store is as it was. An import that adds more than a step holds (Journal.heldAdds) is no
// undo step. Nothing here reads a file; the readers in Interop/ do.

import KeptRules

extension Engine {
    /// Imports every record of `source` as one step (a dry run changes nothing and says what
    /// the import would do).
    public func importTasks<S: ImportSource>(_ source: inout S, options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportReport {
        var run = ImportRun(engine: self, format: source.format, options: options)
        run.reserve(source.estimatedRecords)
        do {
            while let r = try source.next() { try run.take(r) }
            try run.finish()
        } catch {
            run.takeBack()
            throw error
        }
        return run.report
    }

    /// Imports records already read.
    public func importTasks(_ tasks: [ImportedTask], format: InteropFormat = .jsonLines,
                            options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportReport {
        var list = ImportList(tasks, format: format)
        return try importTasks(&list, options: options)
    }
}

/// One import as it runs.
package struct ImportRun {
    package let engine: Engine
    package let options: ImportOptions
    package var report: ImportReport
    package var lookup: UIDLookup
    /// Uids met in this file with the id each has now, so one named twice is refused.
    package var seen: [TaskUID: Int] = [:]
    package var step = Engine.StepChanges()
    /// Set once the import adds more than a step holds (options.heldAdds): its adds are no
    /// longer kept in the step (they are the ids from firstID on), and it will not be undoable.
    package var tooLarge = false
    package var addsHeld = 0
    /// Changes of the step's history that are not task items (tombstones taken away), to take
    /// back on an error.
    package var untombstoned: [Tombstone] = []
    package let firstID: Int
    package var nextID: Int
    package let now: Instant
    /// Projects by lowercased name: what the store holds, and what this import makes.
    package var projects: [String: Project] = [:]
    package var newProjects: [String] = []
    /// Children whose parent comes later in the file: (child id, parent uid, line, title).
    package var pendingParents: [(Int, TaskUID, Int, String)] = []
    /// The project of the record before, by its name as written: most files run in streaks.
    package var lastProject: (name: String, project: Project)?
    /// The project's name in the store for each name as a record wrote it.
    package var projectNames: [String: String] = [:]

    package init(engine: Engine, format: InteropFormat, options: ImportOptions) {
        self.engine = engine
        self.options = options
        report = ImportReport(format: format, dryRun: options.dryRun)
        lookup = UIDLookup(engine.store)
        firstID = engine.store.nextID
        nextID = firstID
        now = engine.now
        for p in engine.store.projects { projects[p.name.lowercased()] = p }
    }

    package mutating func reserve(_ n: Int) {
        guard n > 0 else { return }
        let n = min(n, 10_000_000)
        seen.reserveCapacity(n)
        if !options.dryRun {
            // The adds a step holds and room for the projects made (growing a step of large
            // changes would hold two copies at once).
            step.changes.reserveCapacity(min(n, options.heldAdds) + 256)
            engine.store.reserveTasks(n)
        }
    }

    /// A uid met in the file, refused the second time.
    package mutating func mark(_ r: ImportedTask, _ id: Int) throws(ImportError) {
        guard r.hasUID else { return }
        guard seen.updateValue(id, forKey: r.task.uid) == nil else {
            throw ImportError(.uidTwice(r.task.uid), line: r.line)
        }
    }

    /// A change of the step, through the engine's change path. The record's own modifiedAt is
    /// kept (the newer side wins by it), so changes are not stamped now as a user's edit is.
    package mutating func apply(_ c: Change) {
        guard !options.dryRun else { return }
        engine.apply(.item(c))
        if case .task(.none, _?) = c {
            guard !tooLarge else { return }
            addsHeld += 1
            if addsHeld > options.heldAdds {
                // More than a step holds: the adds leave the step, which a refused file no longer
                // needs (they are the ids from firstID on) and undo will not have.
                tooLarge = true
                step.changes = step.changes.filter { if case .task(.none, _?) = $0 { return false }; return true }
                return
            }
        }
        step.changes.append(c)
    }

    package mutating func note(_ r: ImportedTask, _ action: ImportReport.Action, id: Int?, fields: [String] = [], reason: ImportReport.SkipReason? = nil) {
        switch action {
        case .add: report.added += 1
        case .change: report.changed += 1
        case .delete: report.deleted += 1
        case .skip: report.skipped[reason ?? .same, default: 0] += 1
        }
        for u in r.unmapped where action != .skip { report.unmapped[u, default: 0] += 1 }
        guard options.listItems else { return }
        report.items.append(ImportReport.Item(action: action, id: id, uid: r.task.uid, title: r.task.title, line: r.line,
                                              fields: fields, reason: reason))
    }

    /// One record.
    package mutating func take(_ r: consuming ImportedTask) throws(ImportError) {
        r.task.title = ImportRun.oneLine(r.task.title)
        if let f = r.task.title.utf8.first, let l = r.task.title.utf8.last, f == 0x20 || l == 0x20 { r.task.title = r.task.title.trimmedSpaces }
        guard !r.task.title.isEmpty else {
            throw ImportError(.noTitle, line: r.line)
        }
        if !r.hasModified { r.task.modifiedAt = now }
        try project(for: &r)
        let existing = r.hasUID ? lookup.task(uid: r.task.uid) : nil
        if let e = existing {
            try mark(r, e.id)
            if r.hasModified, e.modifiedAt > r.task.modifiedAt { return note(r, .skip, id: e.id, reason: .newerHere) }
            if r.deleted { return remove(e, r) }
            var m = r.merged(into: e)
            if r.fields.contains(.parent) {
                m.parent = parent(of: r, id: e.id, title: m.title)
                // A parent the store already has under this task would close a loop: reported,
                // and the task keeps the parent it had.
                if let k = m.parent, ImportRun.makesLoop(m, engine.store) {
                    report.parentLoops.append(ImportReport.ParentLoop(id: e.id, title: m.title, parent: k, line: r.line))
                    m.parent = e.parent
                }
            }
            if m.sameContent(as: e) { return note(r, .skip, id: e.id, reason: .same) }
            m.modifiedAt = r.task.modifiedAt
            m.pristine = false
            apply(.task(before: e, after: m))
            return note(r, .change, id: e.id, fields: e.changedFields(to: m))
        }
        // Marked with the id an add gives it (one lookup); a skip marks it with none (0).
        try mark(r, nextID)
        if r.deleted {
            if r.hasUID { seen[r.task.uid] = 0 }
            return note(r, .skip, id: nil, reason: .deletedInFile)
        }
        if r.hasUID, let gone = lookup.deletedAt(r.task.uid) {
            guard r.hasModified, r.task.modifiedAt > gone else {
                seen[r.task.uid] = 0
                return note(r, .skip, id: nil, reason: .deletedHere)
            }
            if !options.dryRun {
                engine.apply(.untombstone(r.task.uid))
                untombstoned.append(Tombstone(uid: r.task.uid, deletedAt: gone))
            }
        }
        // The task is moved out of the record, not copied; the report's line names it below.
        var t = Task(id: 0, title: "", createdAt: .epoch, uid: TaskUID(hi: 0, lo: 0))
        swap(&t, &r.task)
        if !r.hasUID, t.uid == TaskUID(hi: 0, lo: 0) { t.uid = engine.uids.next() }
        t.id = nextID
        nextID += 1
        t.pristine = false
        t.nextOccurrence = nil
        // A record that does not say when the task was made: made now, by this import.
        if !r.fields.contains(.created) { t.createdAt = now }
        t.parent = r.fields.contains(.parent) ? parent(of: r, id: t.id, title: t.title) : nil
        if t.due == nil, let rule = t.repeatRule?.rule {
            // A repeat needs a due (R-REP-7): the first occurrence on or after today.
            let spec = t.repeatRule
            engine.attach(rule, to: &t)
            t.repeatRule?.exceptions = spec?.exceptions ?? []
            t.repeatRule?.additions = spec?.additions ?? []
        }
        if !r.hasUID { lookup.noteAdded(t.uid, id: t.id) }
        let id = t.id
        r.task.uid = t.uid
        r.task.title = t.title
        apply(.task(before: nil, after: consume t))
        note(r, .add, id: id)
    }

    /// A task the file says was deleted: it leaves the store with a tombstone, and its
    /// subtasks stay without it.
    package mutating func remove(_ e: Task, _ r: ImportedTask) {
        for c in engine.children(of: e.id) {
            var a = c
            a.parent = nil
            apply(.task(before: c, after: a))
        }
        apply(.task(before: e, after: nil))
        // Deleted when the file says, not now: a later import compares its records with this.
        if !options.dryRun { engine.apply(.tombstone(Tombstone(uid: e.uid, deletedAt: r.task.modifiedAt))) }
        note(r, .delete, id: e.id)
    }

    /// The parent's id, when the file or the store holds it; otherwise looked for again at
    /// the end of the file.
    package mutating func parent(of r: ImportedTask, id: Int, title: String) -> Int? {
        guard let p = r.parentUID else { return nil }
        if let k = seen[p] ?? lookup.id(of: p), k != 0, k != id { return k }
        pendingParents.append((id, p, r.line, title))
        return nil
    }

    /// The task's project, made when the store has none by that name; a status of its own is
    /// added to the project's statuses.
    package mutating func project(for r: inout ImportedTask) throws(ImportError) {
        let status = r.task.status
        let custom = !TaskStatus.builtIn.contains(status.rawValue)
        guard let name = r.task.project else {
            if custom {
                // A status of open work needs a project that has it; without one it is kept.
                r.task.extra[report.format.extraKey] = .object(ImportRun.adding("status", .string(status.rawValue), to: r.task.extra[report.format.extraKey]))
                r.task.status = .open
                r.unmapped.append("status")
            }
            return
        }
        if !custom, let last = lastProject, last.name == name {
            r.task.project = last.project.name
            return
        }
        // A project met before, by its name as written: no case folding or comparing.
        if !custom, let known = projectNames[name] {
            r.task.project = known
            return
        }
        defer { if let p = projects[name.lowercased()] { projectNames[name] = p.name } }
        let key = name.lowercased()
        defer { if let p = projects[key] { lastProject = (name, p) } }
        var p = projects[key] ?? Project(name: name)
        let before = projects[key]
        if before == nil { newProjects.append(name) }
        if custom, !p.statuses.contains(where: { $0.lowercased() == status.rawValue }) {
            guard !TaskStatus.reserved.contains(status.rawValue), status.rawValue.count <= 40 else {
                throw ImportError(.cannotBeAStatus(status.rawValue), line: r.line)
            }
            p.statuses.append(status.rawValue)
        }
        r.task.project = p.name
        if before != p {
            projects[key] = p
            if !options.dryRun {
                engine.apply(.item(.project(before: before, after: p)))
                step.changes.append(.project(before: before, after: p))
            }
        }
    }

    /// After the last record: parents named before their child, the next id, the step.
    package mutating func finish() throws(ImportError) {
        var unresolved = 0
        for (child, p, line, title) in pendingParents {
            let found = seen[p] ?? lookup.id(of: p)
            guard let k = found, k != 0 else {
                if found == nil { unresolved += 1 }
                continue
            }
            // Never silently: a parent that would close a loop is reported with both tasks.
            let loop = ImportReport.ParentLoop(id: child, title: title, parent: k, line: line)
            if k == child {
                report.parentLoops.append(loop)
                continue
            }
            // A dry run adds nothing, so a loop through tasks of the file is not seen in it.
            guard !options.dryRun, let c = engine.store.task(child) else { continue }
            var a = c
            a.parent = k
            guard !ImportRun.makesLoop(a, engine.store) else {
                report.parentLoops.append(loop)
                continue
            }
            apply(.task(before: c, after: a))
        }
        if unresolved > 0 { report.notes.append("\(unresolved == 1 ? "1 parent" : "\(unresolved) parents") not in the file or the store: kept as the record's RELATED-TO") }
        report.projectsAdded = newProjects
        guard !options.dryRun else { return }
        if nextID != firstID { engine.apply(.nextID(nextID)) }
        let n = report.added + report.changed + report.deleted
        guard !tooLarge else {
            // Not a step: the steps before it are dropped too, since undoing one of them over
            // what the import changed would not put back what was there.
            while !engine.store.history.undoStack.isEmpty { engine.apply(.history(.popUndo)) }
            while !engine.store.history.redoStack.isEmpty { engine.apply(.history(.popRedo)) }
            report.undoable = false
            report.notes.append("not undoable: more than \(options.heldAdds) tasks added in one step; the undo history before it is cleared")
            return
        }
        engine.record(step, summary: "import \(options.name) · \(n == 1 ? "1 task" : "\(n) tasks")")
    }

    /// Takes back what was applied, newest first, through the change path: a task this import
    /// added leaves no tombstone (it was never the store's), one it deleted comes back without
    /// its tombstone, and a tombstone it took away is put back.
    package mutating func takeBack() {
        guard !options.dryRun else { return }
        while let c = step.changes.popLast() {
            engine.apply(.item(c.inverted))
            if case .task(.none, let a?) = c { engine.apply(.untombstone(a.uid)) }
        }
        if tooLarge {
            // The adds the step no longer holds: every id this import gave out.
            for id in (firstID..<nextID).reversed() {
                guard let t = engine.store.task(id) else { continue }
                engine.apply(.item(.task(before: t, after: nil)))
                engine.apply(.untombstone(t.uid))
            }
        }
        for t in untombstoned { engine.apply(.tombstone(t)) }
        if engine.store.nextID != firstID { engine.apply(.nextID(firstID)) }
    }

    package static func makesLoop(_ t: Task, _ store: any StoreBackend) -> Bool {
        var seen: Set<Int> = [t.id]
        var p = t.parent
        while let id = p {
            guard seen.insert(id).inserted else { return true }
            p = store.task(id)?.parent
        }
        return false
    }

    /// A title on one line: line breaks and tabs become spaces (Kept's titles are one line).
    package static func oneLine(_ s: String) -> String {
        let control = { (b: UInt8) in b < 0x20 || b == 0x7F }
        guard s.utf8.withContiguousStorageIfAvailable({ $0.contains(where: control) }) ?? s.utf8.contains(where: control) else { return s }
        let parts = s.split(whereSeparator: { $0.isNewline || $0 == "\t" || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) })
        return parts.joined(separator: " ").trimmedSpaces
    }

    package static func adding(_ key: String, _ v: JSONValue, to o: JSONValue?) -> JSONObject {
        var obj: JSONObject
        if case .object(let x)? = o { obj = x } else { obj = JSONObject() }
        obj[key] = v
        return obj
    }
}
