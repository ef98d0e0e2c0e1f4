// iCalendar read as tasks (RFC 5545; docs/INTEROP.md, "iCalendar"): each VTODO (and each
// VEVENT when asked) is a task. Times with a TZID are read in that zone (an IANA name, or the
// one a VTIMEZONE names in X-LIC-LOCATION), UTC and floating times as the account zone's wall
// clock. Properties Kept has no field for are kept as they came and written back on export.

import KeptRules
import KeptDomain
import KeptFiles

import Foundation

/// Reads an iCalendar file.
public struct ICalendarReader: ImportSource {
    public let format = InteropFormat.icalendar
    public var estimatedRecords: Int { lines.lines.input.size / 400 }
    package var lines: UnfoldingReader
    package let zone: Zone
    /// Read VEVENTs as tasks too.
    package let events: Bool
    /// The account's week start, which Kept's RRULE of a rule in words says.
    package let weekStart: Weekday
    package var stack: [String] = []
    package var sawCalendar = false
    /// TZIDs of the file's VTIMEZONEs that name an IANA zone.
    package var zones: [String: Zone] = [:]
    package var vtimezoneID: String?
    package var vtimezoneOffsets: Set<Int> = []
    /// Components held to the end of the file (the first series and all after it, in the
    /// file's order), and the overrides of single occurrences (RECURRENCE-ID) by the UID of
    /// their series.
    package var held: [Component] = []
    package var heldNext = 0
    package var overrides: [String: [Component]] = [:]
    /// Components skipped, by name, for the report.
    public private(set) var skipped: [String: Int] = [:]

    public init(_ input: ByteInput, zone: Zone, weekStart: Weekday = .monday, events: Bool = false) {
        lines = UnfoldingReader(input)
        self.zone = zone
        self.weekStart = weekStart
        self.events = events
    }

    package struct Component {
        package var name: String
        package var line: Int
        package var props: [ContentLine] = []
        package var alarms: [[ContentLine]] = []
        /// The file's overrides of single occurrences of this series (RECURRENCE-ID).
        package var overrides: [Component] = []
    }

    public mutating func next() throws(ImportError) -> ImportedTask? {
        var current: Component? = nil
        var alarm: [ContentLine]? = nil
        while let (text, n) = try lines.next() {
            let c: ContentLine
            switch ContentLine.parse(text, line: n) {
            case .success(let x): c = x
            case .failure(let e): throw e
            }
            if c.name == "BEGIN" {
                let what = c.value.uppercased()
                if stack.isEmpty {
                    guard what == "VCALENDAR" else { throw ImportError(.notStartingWithVCALENDAR, line: n, column: 1) }
                    sawCalendar = true
                }
                stack.append(what)
                if stack.count == 2, what == "VTODO" || (events && what == "VEVENT") { current = Component(name: what, line: n) }
                else if current != nil, what == "VALARM" { alarm = [] }
                continue
            }
            if c.name == "END" {
                let what = c.value.uppercased()
                guard let top = stack.last, top == what else {
                    throw ImportError(.endMismatch(what, open: stack.last), line: n, column: 1)
                }
                stack.removeLast()
                if what == "VALARM", let a = alarm {
                    current?.alarms.append(a)
                    alarm = nil
                } else if stack.count == 1, let comp = current, comp.name == what {
                    current = nil
                    // A series and the overrides of its occurrences may come in any order: the
                    // series waits for the end of the file, where its overrides are applied.
                    let uid = comp.props.first { $0.name == "UID" }?.value.trimmedSpaces
                    if comp.props.contains(where: { $0.name == "RECURRENCE-ID" }) {
                        if let u = uid { overrides[u, default: []].append(comp) } else { skipped[ICalendarReader.lostOverride, default: 0] += 1 }
                        continue
                    }
                    // From the first series on, the file's components wait too, to keep their order.
                    if !held.isEmpty || (uid != nil && comp.props.contains(where: { $0.name == "RRULE" || $0.name == "RDATE" })) {
                        held.append(comp)
                        continue
                    }
                    return try task(comp)
                } else if stack.count == 1 {
                    if what != "VTIMEZONE" { skipped[what, default: 0] += 1 }
                }
                if what == "VTIMEZONE" {
                    // A zone of one offset is that offset, whatever its name.
                    if let id = vtimezoneID, zone(id) == nil, vtimezoneOffsets.count == 1, let o = vtimezoneOffsets.first,
                       let tz = TimeZone(secondsFromGMT: o) {
                        zones[id] = Zone(tz)
                    }
                    vtimezoneID = nil
                }
                continue
            }
            guard !stack.isEmpty else { throw ImportError(.outsideCalendar(c.name), line: n, column: 1) }
            if alarm != nil { alarm?.append(c) }
            else if current != nil { current?.props.append(c) }
            else if stack.count >= 2, stack[1] == "VTIMEZONE" {
                if c.name == "TZID" { vtimezoneID = c.value; vtimezoneOffsets = [] }
                if c.name == "X-LIC-LOCATION", let id = vtimezoneID, let z = Zone(identifier: c.value) { zones[id] = z }
                if c.name == "TZOFFSETTO", let o = ICalendarReader.offsetSeconds(c.value) { vtimezoneOffsets.insert(o) }
            }
        }
        if let open = stack.last { throw ImportError(.endsInside(open), line: 0) }
        if !sawCalendar { throw ImportError(.noCalendar, line: 1, column: 1) }
        if heldNext < held.count {
            var comp = held[heldNext]
            held[heldNext] = Component(name: "", line: 0)
            heldNext += 1
            if let u = comp.props.first(where: { $0.name == "UID" })?.value.trimmedSpaces,
               comp.props.contains(where: { $0.name == "RRULE" || $0.name == "RDATE" }), let os = overrides.removeValue(forKey: u) {
                comp.overrides = os
            }
            return try task(comp)
        }
        for (_, os) in overrides { skipped[ICalendarReader.lostOverride, default: 0] += os.count }
        overrides = [:]
        return nil
    }

    /// The report's words for an override whose series the file does not have.
    static let lostOverride = "an occurrence changed on its own (RECURRENCE-ID) of a series not in the file"


    /// The zone of a TZID: an IANA name, one a VTIMEZONE of the file names (X-LIC-LOCATION,
    /// or the one offset of a VTIMEZONE without daylight time), or a Windows name (R-IO-6).
    package func zone(_ tzid: String?) -> Zone? {
        guard var id = tzid else { return nil }
        if id.hasPrefix("/") { id.removeFirst() }
        return Zone(identifier: id) ?? zones[id] ?? WindowsZones.iana(id.trimmedSpaces).flatMap { Zone(identifier: $0) }
    }

    /// The zone whose wall clock a DTSTART or DUE is on: its TZID's, UTC for a time in `Z`,
    /// nil for a floating time or a date (the account's wall clock).
    package func seriesZone(_ c: ContentLine) -> Zone? {
        if let id = c.param("TZID") { return zone(id) }
        return c.value.trimmedSpaces.uppercased().hasSuffix("Z") ? .utc : nil
    }

    /// `+0200`, `-0800`, `+053000` as seconds east of UTC.
    package static func offsetSeconds(_ s: String) -> Int? {
        let b = Array(s.trimmedSpaces.utf8)
        guard b.count == 5 || b.count == 7, b[0] == UInt8(ascii: "+") || b[0] == UInt8(ascii: "-"),
              b.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func two(_ i: Int) -> Int { Int(b[i] - 48) * 10 + Int(b[i + 1] - 48) }
        let v = two(1) * 3600 + two(3) * 60 + (b.count == 7 ? two(5) : 0)
        return b[0] == UInt8(ascii: "-") ? -v : v
    }

    /// A DATE, DATE-TIME (TZID, UTC or floating) as a due in the account zone.
    package func due(_ c: ContentLine) throws(ImportError) -> Due {
        let bad = ImportError(.value(c.name, c.value, not: .icalDue), line: c.line)
        guard let s = ICalendarStamp(c.value.trimmedSpaces) else { throw bad }
        guard let t = s.time else { return Due(date: s.date) }
        let wall = CivilDateTime(date: s.date, time: t)
        if s.utc {
            let l = zone.local(at: Zone.utc.instant(for: wall))
            return Due(date: l.date, time: l.time)
        }
        if let z = zone(c.param("TZID")), z != zone {
            let l = zone.local(at: z.instant(for: wall))
            return Due(date: l.date, time: l.time)
        }
        return Due(date: s.date, time: t)
    }

    package func instant(_ c: ContentLine) throws(ImportError) -> Instant {
        guard let s = ICalendarStamp(c.value.trimmedSpaces) else {
            throw ImportError(.value(c.name, c.value, not: .icalInstant), line: c.line)
        }
        let wall = CivilDateTime(date: s.date, time: s.time ?? .midnight)
        if s.utc { return Zone.utc.instant(for: wall).adding(seconds: Int64(s.second)) }
        return (zone(c.param("TZID")) ?? zone).instant(for: wall)
    }

    /// The uid of a UID or RELATED-TO value: itself when it is a UUID, else one derived from it.
    package static func uid(_ s: String) -> TaskUID {
        if let u = TaskUID(s.trimmedSpaces) { return u }
        var a: UInt64 = 0x6963_616C_5549_4400
        var b: UInt64 = 0x4B45_5054_0000_0001
        for byte in s.utf8 {
            a = TaskUID.mix(a ^ UInt64(byte))
            b = TaskUID.mix(b &+ a)
        }
        return TaskUID(bits: TaskUID.mix(a ^ b), TaskUID.mix(b ^ 0x9E37_79B9_7F4A_7C15))
    }

    package func task(_ comp: Component) throws(ImportError) -> ImportedTask {
        var t = Task(id: 0, title: "", createdAt: Instant.epoch, uid: TaskUID(hi: 0, lo: 0))
        var r = ImportedTask(task: t, hasUID: false, fields: [.title, .status, .due, .start, .priority, .tags, .description,
                                                              .repeat, .completed, .parent, .reminders], line: comp.line)
        var kept = JSONObject()
        var other: [JSONValue] = []
        var start: Due? = nil, due: Due? = nil, keptStart: Due? = nil
        // The zone of the series' first date, when it names one.
        var sourceZone: Zone? = nil
        var rruleLines: [ContentLine] = []
        var keptRepeat: JSONObject? = nil
        var percent: Int? = nil
        var status: String? = nil
        var created: Instant? = nil
        // Lists that may be long (a line each) are gathered here and given to the task once:
        // appending to a task's steps, notes, comments or reminders one at a time copies them
        // each time, since they sit in its copy-on-write details (100,000 steps took minutes).
        var notes: [String] = [], steps: [Step] = [], comments: [JSONValue] = [], reminders: [Reminder] = []
        func fail(_ c: ContentLine, _ what: ImportError.Expected) -> ImportError { ImportError(.value(c.name, c.value, not: what), line: c.line) }
        for c in comp.props {
            let text = ContentLine.unescape(c.value)
            switch c.name {
            case "UID":
                t.uid = ICalendarReader.uid(c.value)
                r.hasUID = true
                if TaskUID(c.value.trimmedSpaces) == nil { kept["uid"] = .string(c.value) }
            case "SUMMARY": t.title = text
            case "DESCRIPTION": t.description = text
            case "DUE":
                due = try self.due(c)
                if start == nil { sourceZone = seriesZone(c) }
            case "DTSTART":
                start = try self.due(c)
                sourceZone = seriesZone(c)
            case "PRIORITY":
                guard let p = Int(c.value.trimmedSpaces), (0...9).contains(p) else { throw fail(c, .icalPriority) }
                t.priority = p == 0 ? .none : p == 1 ? .critical : p <= 4 ? .high : p == 5 ? .medium : .low
            case "CATEGORIES": t.tags += ContentLine.list(c.value)
            case "STATUS": status = c.value.uppercased().trimmedSpaces
            case "COMPLETED": t.completedAt = try instant(c)
            case "PERCENT-COMPLETE":
                guard let p = Int(c.value.trimmedSpaces), (0...100).contains(p) else { throw fail(c, .percentage) }
                percent = p
            case "CREATED": created = try instant(c)
            case "LAST-MODIFIED":
                t.modifiedAt = try instant(c)
                r.hasModified = true
            case "DTSTAMP": break
            case "RELATED-TO":
                let kind = c.param("RELTYPE")?.uppercased() ?? "PARENT"
                if kind == "PARENT" { r.parentUID = ICalendarReader.uid(c.value) } else { other.append(.string(ICalendarReader.raw(c))) }
            case "RRULE", "EXDATE", "RDATE": rruleLines.append(c)
            case "X-KEPT-PROJECT": t.project = text; r.fields.insert(.project)
            case "X-KEPT-AREA": t.area = text; r.fields.insert(.area)
            case "X-KEPT-NOTE": notes.append(text); r.fields.insert(.notes)
            case "X-KEPT-GOAL": t.goal = text; r.fields.insert(.goal)
            case "X-KEPT-STATUS": t.status = TaskStatus(rawValue: text.lowercased())
            case "X-KEPT-STEP":
                steps.append(Step(title: text, done: c.param("X-DONE")?.uppercased() == "TRUE"))
                r.fields.insert(.steps)
            case "X-KEPT-ESTIMATE":
                guard let m = Int(c.value.trimmedSpaces), m >= 0, m <= 1_000_000 else { throw fail(c, .minutes) }
                t.estimate = Estimate(minutes: m, source: c.param("X-SOURCE")?.uppercased() == "SUGGESTED" ? .suggested : .user)
                r.fields.insert(.estimate)
            case "X-KEPT-HELD-UNTIL": t.heldUntil = try self.due(c).date; r.fields.insert(.held)
            case "X-KEPT-NOT-TODAY-ON": t.notTodayOn = try self.due(c).date; r.fields.insert(.held)
            case "X-KEPT-START":
                guard let d = RepeatExtras.due(Array(c.value.utf8)) else { throw fail(c, .isoDate) }
                keptStart = d
            case "X-KEPT-REPEAT":
                var jr = JSONReader(bytes: Array(text.utf8))
                guard let v = try? jr.readValue(), let o = v.objectValue else { throw fail(c, .keptRepeat) }
                keptRepeat = o
            case "X-KEPT-COMMENT":
                var jr = JSONReader(bytes: Array(text.utf8))
                guard let v = try? jr.readValue() else { throw fail(c, .keptComment) }
                comments.append(v)
                r.fields.insert(.comments)
            case "X-KEPT-FIELD":
                var jr = JSONReader(bytes: Array(text.utf8))
                guard let key = c.param("X-KEY"), let v = try? jr.readValue() else { throw fail(c, .keptField) }
                t.extra[key] = v
            default:
                other.append(.string(ICalendarReader.raw(c)))
                r.unmapped.append(c.name)
            }
        }
        // R-IO-6: a TZID no zone is known for is read as the account's wall clock, and said.
        var unknown: [JSONValue] = []
        for c in comp.props {
            if let id = c.param("TZID"), zone(id) == nil, !unknown.contains(.string(id)) {
                unknown.append(.string(id))
                r.unmapped.append("TZID")
            }
        }
        if !unknown.isEmpty { kept["unknown-tzid"] = .array(unknown) }
        t.notes += notes
        t.steps += steps
        t.comments += comments
        if comp.name == "VEVENT" { r.fields.remove(.reminders) }
        switch status {
        case "COMPLETED"?: t.status = .done
        case "CANCELLED"?: t.status = .archived
        case nil where percent == 100: t.status = .done
        default: break
        }
        if t.status == .done, t.completedAt == nil { t.completedAt = t.modifiedAt }
        if let p = percent, p != 100, p != 0, t.steps.isEmpty { kept["percent"] = .number(JSONNumber(p)) }
        // The repeat: Kept's own when the RRULE is still the one Kept wrote, else the file's.
        let base = due ?? start
        let rrule = rruleLines.first { $0.name == "RRULE" }
        if let ko = keptRepeat, comp.overrides.isEmpty, let spec = InteropValues.repeatSpec(ko, due: base) {
            func noCount(_ s: String) -> String { s.split(separator: ";").filter { !$0.hasPrefix("COUNT=") }.joined(separator: ";") }
            // The RRULE Kept wrote for this repeat (ICalendarWriter), to see whether another
            // program changed the file's.
            var anchored = spec
            if anchored.anchor == nil { anchored.anchor = base?.date }
            var written: String? = nil
            if case .success(let text) = anchored.icalendar(zone: zone, weekStart: weekStart, dueTime: base?.time) {
                written = text.split(separator: "\n").first { $0.hasPrefix("RRULE:") }.map { String($0.dropFirst(6)) }
            }
            let same = rrule.map { noCount($0.value) == written.map(noCount) } ?? (written == nil)
            if same { t.repeatRule = spec }
        }
        if t.repeatRule != nil {
            // Kept's own series is on its DTSTART (the current occurrence, as Kept writes it).
            t.due = due ?? start
            t.start = keptStart ?? (due != nil ? start : nil)
        } else if !rruleLines.isEmpty || !comp.overrides.isEmpty {
            if let s = try series(rruleLines, overrides: comp.overrides, master: comp.props, start: start, due: due,
                                  sourceZone: sourceZone, record: &r, other: &other, kept: &kept) {
                t.repeatRule = s.spec
                t.due = s.due
                t.start = keptStart ?? s.start
            } else {
                t.due = comp.name == "VEVENT" ? (start ?? due) : due
                t.start = keptStart ?? (comp.name == "VEVENT" ? nil : start)
            }
        } else {
            t.due = comp.name == "VEVENT" ? (start ?? due) : due
            t.start = keptStart ?? (comp.name == "VEVENT" ? nil : start)
        }
        for a in comp.alarms { if let rem = try reminder(a, due: t.due, start: start) { reminders.append(rem) } else { other.append(.array(a.map { .string(ICalendarReader.raw($0)) })) } }
        reminders.sort { $0.at < $1.at }
        t.reminders = reminders
        if !t.reminders.isEmpty || !comp.alarms.isEmpty { r.fields.insert(.reminders) }
        if !other.isEmpty { kept["properties"] = .array(other.compactMap { $0.stringValue.map { .string($0) } }) }
        if other.contains(where: { $0.arrayValue != nil }) { r.unmapped.append("VALARM") }
        if !kept.members.isEmpty { t.extra[InteropFormat.icalendar.extraKey] = .object(kept) }
        t.createdAt = created ?? (r.hasModified ? t.modifiedAt : Instant.epoch)
        if created != nil { r.fields.insert(.created) }
        if !r.hasUID { t.uid = TaskUID(hi: 0, lo: 0) }
        r.task = t
        return r
    }

    /// A VALARM as a reminder: an absolute trigger, or one relative to the due (or start).
    package func reminder(_ a: [ContentLine], due: Due?, start: Due?) throws(ImportError) -> Reminder? {
        guard let trig = a.first(where: { $0.name == "TRIGGER" }) else { return nil }
        var rem: Reminder
        if trig.param("VALUE")?.uppercased() == "DATE-TIME" {
            let d = try self.due(trig)
            rem = Reminder(at: CivilDateTime(date: d.date, time: d.time ?? .midnight))
        } else {
            let relStart = trig.param("RELATED")?.uppercased() == "START"
            guard let base = relStart ? (start ?? due) : (due ?? start), let minutes = ICalendarReader.durationMinutes(trig.value) else { return nil }
            rem = Reminder(at: CivilDateTime(date: base.date, time: base.time ?? .midnight).adding(minutes: minutes))
        }
        rem.pastDue = a.contains { $0.name == "X-KEPT-PAST-DUE" && $0.value.uppercased() == "TRUE" }
        if let f = a.first(where: { $0.name == "X-KEPT-FIELD" }) {
            var jr = JSONReader(bytes: Array(ContentLine.unescape(f.value).utf8))
            if let o = (try? jr.readValue())?.objectValue { rem.extra = o }
        }
        return rem
    }

    /// `-PT15M`, `P1D`, `-P1DT2H`: minutes, negative before; nil past a billion minutes (the
    /// alarm is then kept as it came), so that no run of parts can overflow the sum.
    package static func durationMinutes(_ s: String) -> Int? {
        var b = Array(s.trimmedSpaces.uppercased().utf8)[...]
        var sign = 1
        if b.first == UInt8(ascii: "-") { sign = -1; b = b.dropFirst() } else if b.first == UInt8(ascii: "+") { b = b.dropFirst() }
        guard b.first == UInt8(ascii: "P") else { return nil }
        b = b.dropFirst()
        var total = 0, n = 0, inTime = false, any = false
        for c in b {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                n = n * 10 + Int(c - 48)
                guard n < 1_000_000 else { return nil }
            case UInt8(ascii: "T"): inTime = true
            case UInt8(ascii: "W"): total += n * 10080; n = 0; any = true
            case UInt8(ascii: "D"): total += n * 1440; n = 0; any = true
            case UInt8(ascii: "H") where inTime: total += n * 60; n = 0; any = true
            case UInt8(ascii: "M") where inTime: total += n; n = 0; any = true
            case UInt8(ascii: "S") where inTime: total += n / 60; n = 0; any = true
            default: return nil
            }
            // Each part is below 10^6 × 10080, so the sum checked here never overflows.
            guard total <= 1_000_000_000 else { return nil }
        }
        return any ? sign * total : nil
    }

    /// A content line as it came, for the properties Kept keeps.
    package static func raw(_ c: ContentLine) -> String {
        var out: [UInt8] = []
        c.append(to: &out, fold: false)
        return String(decoding: out, as: UTF8.self)
    }
}
