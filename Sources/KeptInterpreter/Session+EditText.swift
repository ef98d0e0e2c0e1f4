// `kept edit ID` (docs/LANGUAGE.md, "Your store"): a task as text, one `field: value` line a
// field, and the text the editor gave back read as `set ID FIELD VALUE` reads each value and
// applied as one undoable step through `Engine.edit` (R-HOME-4). Only the lines the user
// changed are applied; a field another process changed meanwhile stops the edit.

import KeptRules
import KeptDomain
import KeptSyntax

extension Session {
    /// A task as the text `kept edit` opens.
    public struct EditableTask: Sendable {
        public let id: Int
        public let text: String
        /// Each field's value as the text shows it.
        let values: [(TaskField?, String, String)]
    }

    /// The fields the text holds, in the order they are applied (the project before the
    /// status, which is checked against the project's own statuses); `tags` is the one list.
    static let editedFields: [(String, TaskField?)] = [
        ("title", .title), ("due", .due), ("start", .start), ("priority", .priority), ("project", .project),
        ("status", .status), ("area", .area), ("estimate", .estimate), ("repeat", .repeat), ("parent", .parent),
        ("tags", nil), ("description", .description), ("goal", .goal),
    ]

    /// Each field of a task as an edit line's value: what `set ID FIELD VALUE` reads back.
    func editValues(_ t: Task) -> [(TaskField?, String, String)] {
        func due(_ d: Due?) -> String {
            guard let d else { return "" }
            return d.time.map { "\(d.date.iso) \($0.iso)" } ?? d.date.iso
        }
        return Session.editedFields.map { name, f in
            let v: String
            switch f {
            case .title?: v = t.title
            case .due?: v = due(t.due)
            case .start?: v = due(t.start)
            case .priority?: v = t.priority == .none ? "" : t.priority.name.lowercased()
            case .project?: v = t.project ?? ""
            case .status?: v = statusText(t)
            case .area?: v = t.area ?? ""
            case .estimate?: v = t.estimate.map { "\($0.minutes)m" + ($0.source == .user ? "" : " \($0.source.rawValue)") } ?? ""
            case .repeat?: v = t.repeatRule?.text ?? ""
            case .parent?: v = t.parent.map(String.init) ?? ""
            case .description?: v = t.description ?? ""
            case .goal?: v = t.goal ?? ""
            default: v = t.tags.joined(separator: " ")
            }
            return (f, name, v)
        }
    }

    /// The text of a task for `kept edit`; `at` is where the id was given, for the error.
    public func editable(_ id: Int, at range: SourceRange, in file: SourceFile) -> Result<EditableTask, Diagnostic> {
        guard let t = engine.task(id) else { return .failure(Catalog.domain(.noTask(id), range: range, file: file, text: text)) }
        let values = editValues(t)
        var lines = [
            "# kept edit \(t.id) · \(DisplayText.escaped(t.title))",
            "# Change values, save and quit: the changes are one step, and 'kept undo' takes it back.",
            "# A value reads as 'set \(t.id) FIELD VALUE' reads it; an empty value clears the field.",
            "# tags: names with spaces between. Lines starting with # are ignored.",
        ]
        for (_, name, v) in values { lines.append("\(name): \(v)") }
        return .success(EditableTask(id: t.id, text: lines.joined(separator: "\n") + "\n", values: values))
    }

    /// Applies the text the editor gave back as one step, and commits it as a statement would.
    public func applyEdit(_ e: EditableTask, edited file: SourceFile) -> CommandOutput {
        let whole = StatementSource(file: file, range: SourceRange(start: 0, end: file.bytes.count))
        // What another process wrote while the editor was open is read first, under the lock.
        if commits == .eachStatement, !store.hasPending, store.changedElsewhere() { _ = store.reload() }
        if commits != .never, case .failure(let err) = store.prepareToWrite() {
            return CommandOutput(diagnostics: [Catalog.store(err, at: .locking, statement: whole)])
        }
        // The lines as edited: field name → value and where the value is.
        var edited: [String: (String, SourceRange)] = [:]
        var offset = 0
        for raw in file.bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let start = offset
            offset += raw.count + 1
            var line = String(decoding: raw, as: UTF8.self)
            if line.hasSuffix("\r") { line.removeLast() }
            let body = line.trimmedSpaces
            if body.isEmpty || body.hasPrefix("#") { continue }
            let lead = line.prefix { $0 == " " || $0 == "\t" }.utf8.count
            guard let colon = body.firstIndex(of: ":") else {
                return .error(Catalog.editText(.notFieldValue, range: SourceRange(start: start + lead, end: start + lead + body.utf8.count), file: file))
            }
            let name = String(body[..<colon]).trimmedSpaces.lowercased()
            let nameRange = SourceRange(start: start + lead, end: start + lead + String(body[..<colon]).trimmedSpaces.utf8.count)
            let value = String(body[body.index(after: colon)...]).trimmedSpaces
            let valueEnd = start + lead + body.utf8.count
            let valueRange = SourceRange(start: valueEnd - value.utf8.count, end: valueEnd)
            guard Session.editedFields.contains(where: { $0.0 == name }) else {
                let names = Session.editedFields.map(\.0)
                if TaskField(rawValue: name) != nil {
                    return .error(Catalog.fieldNotSettable(name, range: nameRange, file: file, settable: names))
                }
                return .error(Catalog.unknownField(name, range: nameRange, file: file, candidates: names))
            }
            guard edited[name] == nil else { return .error(Catalog.editText(.repeated(name), range: nameRange, file: file)) }
            edited[name] = (value, valueRange)
        }
        guard let now = engine.task(e.id) else {
            return .error(Catalog.domain(.noTask(e.id), range: SourceRange(start: 0, end: 0), file: file, text: text))
        }
        let current = editValues(now)
        var values: [FieldValue] = []
        var addTags: [String] = [], removeTags: [String] = []
        var changed: [String] = []
        var clashes: [String] = []
        for ((f, name, before), (_, _, stored)) in zip(e.values, current) {
            guard let (after, range) = edited[name], after != before else { continue }
            // The diff of the user's text is applied to the task as it is now; a field another
            // process changed too is not overwritten without a word.
            if stored != before {
                clashes.append(name)
                continue
            }
            changed.append(name)
            guard let f else {
                let old = Set(before.split(separator: " ").map { $0.lowercased() })
                let new = after.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }
                let newKeys = Set(new.map { $0.lowercased() })
                addTags = new.filter { !old.contains($0.lowercased()) }
                removeTags = before.split(separator: " ").map(String.init).filter { !newKeys.contains($0.lowercased()) }
                continue
            }
            let words = after.isEmpty ? "none" : after
            switch fieldValue(f, TextArg(text: words, range: range), file: file) {
            case .success(let v): values.append(v)
            case .failure(let d): return .error(d)
            }
        }
        if !clashes.isEmpty {
            return .error(Catalog.editText(.changedElsewhere(clashes), file: file))
        }
        guard !changed.isEmpty else {
            return out(["No change · \(now.id) · \(DisplayText.escaped(now.title))"], json: .object(JSONObject([("unchanged", TaskJSON.value(now, zone: zone))])))
        }
        let result: CommandOutput
        do {
            switch try engine.edit(e.id, values, addTags: addTags, removeTags: removeTags) {
            case .done(let t), .unchanged(let t):
                result = out(["Edited \(t.id) · \(DisplayText.escaped(t.title)) · " + changed.joined(separator: ", ")],
                             json: .object(JSONObject([("edited", TaskJSON.value(t, zone: zone)),
                                                       ("fields", .array(changed.map { .string($0) }))])))
            case .bulk:
                result = CommandOutput()
            }
        } catch {
            let range = changed.first.flatMap { edited[$0]?.1 } ?? SourceRange(start: 0, end: 0)
            if store.hasPending { engine.rollback() }
            return .error(Catalog.domain(error, range: range, file: file, text: text))
        }
        guard commits == .eachStatement, store.hasPending else { return result }
        if case .failure(let err) = engine.commit() {
            engine.rollback()
            let reread = store.reload()
            return CommandOutput(diagnostics: [Catalog.store(err, at: .commit(reread: reread.isSuccess), statement: whole)])
        }
        return result
    }
}
