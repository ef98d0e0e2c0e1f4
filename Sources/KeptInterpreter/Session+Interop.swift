// import and export (docs/INTEROP.md): resolve the file and its format, hand a reader to the
// engine (one undo step) or the chosen tasks to a writer, and render the report.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// The format a statement names, or its file's name says.
    package func interopFormat(_ file: TextArg, _ given: TextArg?, _ s: Statement) -> Result<InteropFormat, Diagnostic> {
        if let g = given {
            guard let f = InteropFormat(name: g.text) else { return .failure(Catalog.unknownFormat(g.text, range: g.range, file: s.source.file)) }
            return .success(f)
        }
        guard let f = InteropFormat(fileName: file.text) else { return .failure(Catalog.formatNotKnown(file.text, range: file.range, file: s.source.file)) }
        return .success(f)
    }

    package func runImport(_ s: Statement, _ req: ImportRequest) -> CommandOutput {
        let format: InteropFormat
        switch interopFormat(req.file, req.format, s) {
        case .success(let f): format = f
        case .failure(let d): return .error(d)
        }
        if req.events, format != .icalendar { return .error(Catalog.eventsNotICalendar(format, range: req.file.range, file: s.source.file)) }
        if let r = pathPolicy.refusal(req.file.text) { return .error(Catalog.pathOutsideAllowed(r, range: req.file.range, file: s.source.file)) }
        let input: ByteInput
        switch ByteInput.open(req.file.text) {
        case .success(let i): input = i
        case .failure(let e): return .error(Catalog.importRefused(e, path: req.file.text, range: req.file.range, file: s.source.file))
        }
        let options = Importing.options(dryRun: req.dryRun, file: req.file.text)
        var skipped: [String: Int] = [:]
        let result: Result<ImportReport, ImportError>
        do throws(ImportError) {
            switch format {
            case .taskwarrior:
                result = .success(try run(TaskwarriorReader(input, zone: zone), options))
            case .jsonLines:
                result = .success(try run(JSONLinesReader(input, zone: zone), options))
            case .icalendar:
                var src = ICalendarReader(input, zone: zone, weekStart: weekStart, events: req.events)
                result = .success(try engine.importTasks(&src, options: options))
                skipped = src.skipped
            case .csv:
                let e = engine
                var src = CSVReader(input, context: dateContext, newUID: { e.uids.next() })
                result = .success(try engine.importTasks(&src, options: options))
            }
        } catch {
            result = .failure(error)
        }
        switch result {
        case .failure(let e):
            return .error(Catalog.importRefused(e, path: req.file.text, range: req.file.range, file: s.source.file))
        case .success(var report):
            for (what, n) in skipped.sorted(by: { $0.key < $1.key }) {
                let name = what.hasPrefix("V") ? "\(what == "VEVENT" ? "event" : what)\(n == 1 ? "" : "s")" : what
                report.notes.append(what == "VEVENT" ? "\(n) \(name) not read ('import … events' reads them as tasks)" : "\(n) not read: \(name)")
            }
            return importOutput(report, req.file.text)
        }
    }

    package func run<S: ImportSource>(_ source: S, _ options: ImportOptions) throws(ImportError) -> ImportReport {
        try Importing.run(source, into: engine, options: options)
    }

    package func importOutput(_ r: ImportReport, _ path: String) -> CommandOutput {
        let skips = ImportReport.SkipReason.allCases.compactMap { k in r.skipped[k].map { "\($0) \(k.rawValue)" } }
        var head = "\(r.dryRun ? "Would import" : "Imported") \(path) (\(r.format.title)): \(r.added) added, \(r.changed) changed"
        if r.deleted > 0 { head += ", \(r.deleted) deleted" }
        head += ", \(r.skippedCount) skipped" + (skips.isEmpty ? "" : " (" + skips.joined(separator: ", ") + ")")
        var lines = [head]
        if !r.projectsAdded.isEmpty { lines.append("Projects added: " + r.projectsAdded.joined(separator: ", ")) }
        if !r.unmapped.isEmpty {
            let names = r.unmapped.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value))" }
            let whereKept = r.format == .jsonLines ? "as the task's own fields" : "in each task's \"\(r.format.extraKey)\" field"
            lines.append("Kept without a Kept field, \(whereKept): " + names.joined(separator: ", "))
        }
        for l in r.parentLoops {
            lines.append("Parent left out, it would make a loop of subtasks: \(l.id) · \(l.title) under \(l.parent) · line \(l.line)")
        }
        lines += r.notes
        for it in r.items {
            var l = it.action.rawValue + (it.id.map { " \($0)" } ?? "") + " · " + it.title
            if !it.fields.isEmpty { l += " (" + it.fields.joined(separator: ", ") + ")" }
            if let why = it.reason { l += " · " + why.rawValue }
            lines.append(l + " · line \(it.line)")
        }
        let counts = JSONObject(ImportReport.SkipReason.allCases.map { ($0.rawValue, JSONValue.number(JSONNumber(r.skipped[$0] ?? 0))) })
        var o = JSONObject([
            ("file", .string(path)), ("format", .string(r.format.rawValue)), ("dryRun", .bool(r.dryRun)),
            ("added", .number(JSONNumber(r.added))), ("changed", .number(JSONNumber(r.changed))),
            ("deleted", .number(JSONNumber(r.deleted))), ("skipped", .number(JSONNumber(r.skippedCount))),
            ("skips", .object(counts)),
            ("unmapped", .object(JSONObject(r.unmapped.sorted { $0.key < $1.key }.map { ($0.key, .number(JSONNumber($0.value))) }))),
            ("projectsAdded", .array(r.projectsAdded.map { .string($0) })),
            ("parentLoops", .array(r.parentLoops.map { l in
                .object(JSONObject([("id", .number(JSONNumber(l.id))), ("title", .string(l.title)), ("parent", .number(JSONNumber(l.parent))),
                                    ("line", .number(JSONNumber(l.line)))]))
            })),
            ("notes", .array(r.notes.map { .string($0) })), ("undoable", .bool(r.undoable)),
        ])
        if r.dryRun {
            o["tasks"] = .array(r.items.map { it in
                .object(JSONObject([("action", .string(it.action.rawValue)), ("id", it.id.map { .number(JSONNumber($0)) } ?? .null),
                                    ("uid", .string(it.uid.description)), ("title", .string(it.title)), ("line", .number(JSONNumber(it.line))),
                                    ("fields", .array(it.fields.map { .string($0) })), ("reason", it.reason.map { .string($0.rawValue) } ?? .null)]))
            })
        }
        return out(lines, json: .object(JSONObject([("import", .object(o))])), changed: !r.dryRun && r.added + r.changed + r.deleted > 0)
    }

    package func runExport(_ s: Statement, _ req: ExportRequest) -> CommandOutput {
        let format: InteropFormat
        switch interopFormat(req.file, req.format, s) {
        case .success(let f): format = f
        case .failure(let d): return .error(d)
        }
        // Checked before anything is made: an export never writes into a device or a pipe,
        // never replaces a folder, and never destroys the store it reads (issue 28, F7, F8).
        if let r = pathPolicy.refusal(req.file.text) { return .error(Catalog.pathOutsideAllowed(r, range: req.file.range, file: s.source.file)) }
        let target = ExportTarget(req.file.text)
        if req.file.text != "-", let r = target.refusal(openStore: store.location) {
            return .error(Catalog.exportTargetRefused(req.file.text, refusal: r, range: req.file.range, file: s.source.file))
        }
        var tasks: [Task]
        if let f = req.filter {
            switch bindFilter(f, s) {
            case .success(let e):
                do throws(RegexBudgetError) { tasks = try select(e).matched } catch { return .error(regexBudgetError(error, s)) }
            case .failure(let d): return .error(d)
            }
        } else {
            tasks = store.tasks
        }
        var left = 0
        if format == .csv {
            // Todoist's CSV holds open work, parents before their subtasks.
            let open = tasks.filter(\.isOpen)
            left = tasks.count - open.count
            tasks = Session.treeOrder(open)
        }
        let st = store
        var bytes: [UInt8] = []
        let zone = self.zone
        switch format {
        case .taskwarrior: TaskwarriorWriter.write(tasks, zone: zone, to: &bytes)
        case .jsonLines: JSONLinesWriter.write(tasks, parentUID: { st.task($0)?.uid }, zone: zone, to: &bytes)
        case .icalendar:
            ICalendarWriter.write(tasks, .init(zone: zone, weekStart: weekStart, now: now, parentUID: { st.task($0)?.uid }), to: &bytes)
        case .csv:
            let e = engine
            CSVWriter.write(tasks, depth: { e.depth($0) }, zone: zone, to: &bytes)
        }
        if req.file.text == "-" && self.format == .json {
            // One JSON object per statement: the file's text is a field of it.
            return out([], json: .object(JSONObject([("export", .object(JSONObject([
                ("file", .string("-")), ("format", .string(format.rawValue)), ("tasks", .number(JSONNumber(tasks.count))),
                ("leftOut", .number(JSONNumber(left))), ("content", .string(String(decoding: bytes, as: UTF8.self))),
            ])))])))
        }
        if req.file.text == "-" {
            var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            if lines.last == "" { lines.removeLast() }
            var o = CommandOutput(lines: lines)
            o.verbatim = true
            return o
        }
        // Through a symlink to the file it names: the link stays a link (docs/INTEROP.md).
        if case .failure(let e) = target.write(bytes) {
            return .error(Catalog.exportFailed(req.file.text, reason: e.reason, range: req.file.range, file: s.source.file))
        }
        var line = "Exported \(Session.tasks(tasks.count)) to \(req.file.text) (\(format.title))"
        if left > 0 { line += "; \(left) done or archived left out (CSV holds open tasks)" }
        return out([line], json: .object(JSONObject([("export", .object(JSONObject([
            ("file", .string(req.file.text)), ("format", .string(format.rawValue)), ("tasks", .number(JSONNumber(tasks.count))),
            ("leftOut", .number(JSONNumber(left))),
        ])))])))
    }

    /// Parents before their subtasks, each level in id order.
    package static func treeOrder(_ tasks: [Task]) -> [Task] {
        let ids = Set(tasks.map(\.id))
        var kids: [Int: [Task]] = [:]
        var roots: [Task] = []
        for t in tasks {
            if let p = t.parent, ids.contains(p) { kids[p, default: []].append(t) } else { roots.append(t) }
        }
        var out: [Task] = []
        var seen: Set<Int> = []
        func visit(_ t: Task) {
            guard seen.insert(t.id).inserted else { return }
            out.append(t)
            for c in kids[t.id] ?? [] { visit(c) }
        }
        for r in roots { visit(r) }
        for t in tasks where !seen.contains(t.id) { out.append(t) }
        return out
    }
}
