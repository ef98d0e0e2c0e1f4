// The render stage of import and export (docs/INTEROP.md): an import's report, an export's
// line, or its file's text when it goes to the output; a file that could not be read or
// written is an error at the file's name.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What an export made: how many tasks it wrote, how many a CSV left out, its bytes, and
/// why its file could not be written (nil when it was, or when it goes to the output).
package struct Exported {
    package var format: InteropFormat
    package var tasks: Int
    package var left: Int
    package var bytes: [UInt8]
    package var failure: String?
}

/// What an import or export did.
package enum InteropOutcome {
    /// An import's report, with what an iCalendar file held that was not read, or why it failed.
    case imported(Result<ImportReport, ImportError>, skipped: [String: Int])
    /// An export, or the pattern of its filter past its budget.
    case exported(Result<Exported, RegexBudgetError>)
}

extension Session {
    /// The output of an import or export.
    package func render(_ o: InteropOutcome, _ s: Statement) -> CommandOutput {
        switch (o, s.kind) {
        case (.imported(let result, let skipped), .importFile(let req)):
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
        case (.exported(let result), .exportFile(let req)):
            switch result {
            case .failure(let e): return .error(regexBudgetError(e, s))
            case .success(let x): return renderExport(x, req, s)
            }
        default: return CommandOutput()
        }
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

    /// An export's line, or its file's text when it goes to the output (`-`).
    package func renderExport(_ x: Exported, _ req: ExportRequest, _ s: Statement) -> CommandOutput {
        let (format, bytes, left) = (x.format, x.bytes, x.left)
        if req.file.text == "-" && self.format == .json {
            // One JSON object per statement: the file's text is a field of it.
            return out([], json: .object(JSONObject([("export", .object(JSONObject([
                ("file", .string("-")), ("format", .string(format.rawValue)), ("tasks", .number(JSONNumber(x.tasks))),
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
        if let reason = x.failure {
            return .error(Catalog.exportFailed(req.file.text, reason: reason, range: req.file.range, file: s.source.file))
        }
        var line = "Exported \(Session.tasks(x.tasks)) to \(req.file.text) (\(format.title))"
        if left > 0 { line += "; \(left) done or archived left out (CSV holds open tasks)" }
        return out([line], json: .object(JSONObject([("export", .object(JSONObject([
            ("file", .string(req.file.text)), ("format", .string(format.rawValue)), ("tasks", .number(JSONNumber(x.tasks))),
            ("leftOut", .number(JSONNumber(left))),
        ])))])))
    }
}
