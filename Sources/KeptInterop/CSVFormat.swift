// CSV with a header row, in the columns of Todoist's import template (docs/INTEROP.md, "CSV"):
// TYPE, CONTENT, DESCRIPTION, PRIORITY, INDENT, AUTHOR, RESPONSIBLE, DATE, DATE_LANG, TIMEZONE,
// DURATION, DURATION_UNIT. DATE is read by Kept's own date phrases and repeat words (what they
// cannot read is kept); INDENT makes subtasks; a `note` row is a comment of the task above.
// Fields follow RFC 4180: quoted with double quotes, which a field doubles, across lines.

import KeptRules
import KeptDomain
import KeptFiles

/// Reads Todoist-style CSV.
public struct CSVReader: ImportSource {
    public let format = InteropFormat.csv
    public var estimatedRecords: Int { lines.input.size / 80 }
    package var lines: LineReader
    package let context: DateContext
    package let newUID: () -> TaskUID
    package var header: [String] = []
    /// The last task at each indent, for subtasks and notes.
    package var parents: [TaskUID] = []
    package var held: ImportedTask?
    /// The notes of the held task, given to it once when it goes: appending to a task's
    /// comments one at a time copies them each time (they sit in its copy-on-write details).
    package var heldNotes: [JSONValue] = []
    package var section: String?

    public init(_ input: ByteInput, context: DateContext, newUID: @escaping () -> TaskUID) {
        lines = LineReader(input)
        self.context = context
        self.newUID = newUID
    }

    /// One record: its fields with the column each starts at, and the line it starts on.
    package mutating func record() throws(ImportError) -> ([(String, Int)], Int)? {
        guard let first = try lines.next() else { return nil }
        let startLine = lines.line
        var chars = Array(try utf8Line(first, line: startLine))
        var fields: [(String, Int)] = []
        var cur = ""
        var col = 1, fieldCol = 1
        var inQuote = false, wasQuoted = false
        var k = 0
        while true {
            if k == chars.count {
                // Inside a quote at the end of the line: the field goes on on the next line.
                guard inQuote else { break }
                guard let more = try lines.next() else {
                    throw ImportError(.quoteNotClosed, line: startLine, column: fieldCol)
                }
                cur.append("\n")
                chars += Array(try utf8Line(more, line: lines.line))
                continue
            }
            let c = chars[k]
            k += 1
            if inQuote {
                if c == "\"" {
                    if k < chars.count, chars[k] == "\"" { cur.append("\""); k += 1; col += 1 } else { inQuote = false }
                } else { cur.append(c) }
            } else if c == "\"" {
                guard cur.isEmpty, !wasQuoted else {
                    throw ImportError(.quoteInUnquotedField, line: startLine, column: col)
                }
                inQuote = true
                wasQuoted = true
            } else if c == "," {
                fields.append((cur, fieldCol))
                cur = ""
                wasQuoted = false
                fieldCol = col + 1
            } else {
                if wasQuoted, c != " " { throw ImportError(.textAfterQuotedField, line: startLine, column: col) }
                cur.append(c)
            }
            col += 1
        }
        fields.append((cur, fieldCol))
        return (fields, startLine)
    }

    public mutating func next() throws(ImportError) -> ImportedTask? {
        if header.isEmpty {
            guard let (h, n) = try record() else { return nil }
            header = h.map { $0.0.trimmedSpaces.uppercased() }
            guard header.contains("CONTENT") else {
                throw ImportError(.noContentColumn, line: n, column: 1)
            }
        }
        while let (row, n) = try record() {
            if row.count == 1, row[0].0.trimmedSpaces.isEmpty { continue }
            guard row.count <= header.count else {
                throw ImportError(.fieldCount(row.count, header: header.count), line: n, column: row[header.count].1)
            }
            var f: [String: (String, Int)] = [:]
            for (k, v) in row.enumerated() { f[header[k]] = v }
            let type = (f["TYPE"]?.0 ?? "task").trimmedSpaces.lowercased()
            switch type {
            case "task", "":
                let (t, indent) = try task(f, line: n)
                parents = Array(parents.prefix(indent - 1)) + [t.task.uid]
                if let h = takeHeld() {
                    held = t
                    return h
                }
                held = t
            case "note":
                guard held != nil else { continue }
                var c = JSONObject([("text", .string(f["CONTENT"]?.0 ?? ""))])
                c["at"] = .string(TimeText.isoInstant(context.zone.instant(for: context.now), in: .utc))
                heldNotes.append(.object(c))
            case "section":
                section = f["CONTENT"]?.0
            default:
                continue
            }
        }
        return takeHeld()
    }

    /// The held task with its notes as comments; nil after it.
    package mutating func takeHeld() -> ImportedTask? {
        guard var h = held else { return nil }
        held = nil
        if !heldNotes.isEmpty {
            h.task.comments += heldNotes
            h.fields.insert(.comments)
            heldNotes.removeAll()
        }
        return h
    }

    package func task(_ f: [String: (String, Int)], line: Int) throws(ImportError) -> (ImportedTask, Int) {
        let content = (f["CONTENT"]?.0 ?? "").trimmedSpaces
        var t = Task(id: 0, title: content, createdAt: context.zone.instant(for: context.now), uid: newUID())
        var r = ImportedTask(task: t, hasUID: false, fields: [.title, .description, .priority, .due, .repeat, .parent, .estimate], line: line)
        if let d = f["DESCRIPTION"]?.0, !d.isEmpty { t.description = d }
        if let (p, col) = f["PRIORITY"], !p.trimmedSpaces.isEmpty {
            guard let n = Int(p.trimmedSpaces), (1...4).contains(n) else {
                throw ImportError(.value("PRIORITY", p, not: .todoistPriority), line: line, column: col)
            }
            t.priority = [.none, .medium, .high, .critical][n - 1]
        }
        var indent = 1
        if let (s, col) = f["INDENT"], !s.trimmedSpaces.isEmpty {
            guard let n = Int(s.trimmedSpaces), (1...20).contains(n) else { throw ImportError(.value("INDENT", s, not: .indent), line: line, column: col) }
            indent = n
        }
        if indent > 1, indent - 2 < parents.count { r.parentUID = parents[indent - 2] }
        var kept = JSONObject()
        if let (date, _) = f["DATE"], !date.trimmedSpaces.isEmpty {
            let lang = (f["DATE_LANG"]?.0 ?? "en").trimmedSpaces.lowercased()
            if lang.isEmpty || lang == "en", let (due, rule) = CSVReader.date(date.trimmedSpaces, context) {
                t.due = due
                if let rule { t.repeatRule = RepeatSpec(rule: rule, anchor: due?.date ?? context.today, anchorTime: due?.time) }
                if let z = f["TIMEZONE"]?.0.trimmedSpaces, let zone = Zone(identifier: z), zone != context.zone, let d = t.due, let tm = d.time {
                    let l = context.zone.local(at: zone.instant(for: CivilDateTime(date: d.date, time: tm)))
                    t.due = Due(date: l.date, time: l.time)
                }
            } else {
                kept["DATE"] = .string(date)
                if !lang.isEmpty { kept["DATE_LANG"] = .string(lang) }
                r.unmapped.append("DATE")
            }
        }
        if let (d, col) = f["DURATION"], !d.trimmedSpaces.isEmpty {
            let unit = (f["DURATION_UNIT"]?.0 ?? "minute").trimmedSpaces.lowercased()
            guard let n = Int(d.trimmedSpaces), n >= 0, n <= 100_000 else { throw ImportError(.value("DURATION", d, not: .wholeNumber), line: line, column: col) }
            t.estimate = Estimate(minutes: unit.hasPrefix("day") ? n * 1440 : n)
        }
        for (k, v) in f where !v.0.isEmpty && !["TYPE", "CONTENT", "DESCRIPTION", "PRIORITY", "INDENT", "DATE", "DATE_LANG", "TIMEZONE", "DURATION", "DURATION_UNIT"].contains(k) {
            kept[k] = .string(v.0)
            r.unmapped.append(k)
        }
        if let s = section {
            kept["SECTION"] = .string(s)
            r.unmapped.append("SECTION")
        }
        if !kept.members.isEmpty {
            kept.members.sort { $0.key < $1.key }
            t.extra[InteropFormat.csv.extraKey] = .object(kept)
        }
        r.task = t
        return (r, indent)
    }

    /// A Todoist DATE through Kept's capture: a date phrase, a repeat, or both; nil when Kept
    /// cannot read it.
    package static func date(_ s: String, _ cx: DateContext) -> (Due?, RepeatRule?)? {
        let line = s.lowercased().hasPrefix("every") ? "t " + s : "t @" + s
        guard case .success(let d) = QuickAdd.parse(line, in: cx), d.title == "t", d.due != nil || d.repeatRule != nil else { return nil }
        return (d.due, d.repeatRule)
    }

}

/// Writes Todoist-style CSV.
package enum CSVWriter {
    package static let header = ["TYPE", "CONTENT", "DESCRIPTION", "PRIORITY", "INDENT", "AUTHOR", "RESPONSIBLE", "DATE", "DATE_LANG", "TIMEZONE", "DURATION", "DURATION_UNIT"]
    package static let priorities: [Priority: String] = [.critical: "4", .high: "3", .medium: "2", .low: "1", .none: "1"]

    package static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return s }
        return "\"" + s.replacingAll("\"", "\"\"") + "\""
    }

    /// Open tasks, each parent before its subtasks (INDENT); returns how many were left out.
    package static func write(_ tasks: [Task], depth: (Task) -> Int, zone: Zone, to out: inout [UInt8]) {
        func row(_ cells: [String]) {
            out.append(contentsOf: Array((cells.map(field).joined(separator: ",") + "\r\n").utf8))
        }
        row(header)
        for t in tasks {
            var date = ""
            if let spec = t.anchoredRepeat {
                date = spec.text
                if let a = spec.anchor, !date.contains(" from ") { date += " from " + a.iso }
                if let tm = t.due?.time, spec.rule?.isTimed != true { date += " at " + tm.iso }
            } else if let d = t.due {
                date = d.date.iso + (d.time.map { " " + $0.iso } ?? "")
            }
            let kept = InteropValues.kept(t, .csv)
            row(["task", t.title, t.description ?? "", priorities[t.priority] ?? "1", String(depth(t) + 1),
                 kept["AUTHOR"]?.stringValue ?? "", kept["RESPONSIBLE"]?.stringValue ?? "", date, date.isEmpty ? "" : "en", zone.identifier,
                 t.estimate.map { String($0.minutes) } ?? "", t.estimate == nil ? "" : "minute"])
            for c in t.comments {
                if let text = c.objectValue?["text"]?.stringValue { row(["note", text, "", "", "", "", "", "", "", "", "", ""]) }
            }
        }
    }
}

extension String {
    package func replacingAll(_ a: Character, _ b: String) -> String {
        var out = ""
        for c in self { if c == a { out += b } else { out.append(c) } }
        return out
    }
}
