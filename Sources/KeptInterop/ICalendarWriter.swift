// Tasks as an iCalendar file (RFC 5545; docs/INTEROP.md, "iCalendar"): one VCALENDAR with the
// account zone's VTIMEZONE and a VTODO a task. A repeating task's DTSTART is its current
// occurrence with the RRULE from there (COUNT less the occurrences before it), so a reader
// expands the same dates Kept does; what iCalendar has no property for rides in X-KEPT-
// properties, and properties Kept read from another calendar go back as they came.

import KeptRules
import KeptDomain
import KeptFiles

package enum ICalendarWriter {
    package struct Context {
        package var zone: Zone
        package var weekStart: Weekday
        package var now: Instant
        package var parentUID: (Int) -> TaskUID?

        package init(zone: Zone, weekStart: Weekday, now: Instant, parentUID: @escaping (Int) -> TaskUID?) {
            self.zone = zone
            self.weekStart = weekStart
            self.now = now
            self.parentUID = parentUID
        }
    }

    package static let priorities: [Priority: Int] = [.critical: 1, .high: 3, .medium: 5, .low: 7]

    package static func write(_ tasks: [Task], _ cx: Context, to out: inout [UInt8]) {
        var lines = [ContentLine("BEGIN", "VCALENDAR"), ContentLine("VERSION", "2.0"),
                     ContentLine("PRODID", "-//Kept//Kept 0.1//EN"), ContentLine("CALSCALE", "GREGORIAN")]
        if tasks.contains(where: { $0.due?.time != nil || $0.start?.time != nil || $0.repeatRule?.rule?.isTimed == true }) {
            lines += VTimezone.lines(cx.zone, year: cx.zone.local(at: cx.now).date.year)
        }
        for l in lines { l.append(to: &out) }
        for t in tasks { for l in vtodo(t, cx) { l.append(to: &out) } }
        ContentLine("END", "VCALENDAR").append(to: &out)
    }

    /// DATE or DATE-TIME in the account zone.
    package static func value(_ name: String, _ d: Due, _ cx: Context, timed: Bool? = nil) -> ContentLine {
        if timed ?? (d.time != nil) {
            return ContentLine(name, InteropValues.compactWall(d.date, d.time ?? .midnight), params: [("TZID", cx.zone.identifier)])
        }
        return ContentLine(name, InteropValues.compactDate(d.date), params: [("VALUE", "DATE")])
    }

    package static func utc(_ name: String, _ i: Instant) -> ContentLine { ContentLine(name, InteropValues.compactUTC(i)) }

    package static func json(_ v: JSONValue) -> String { ContentLine.escape(JSONWriter.compact(v)) }

    package static func vtodo(_ t: Task, _ cx: Context) -> [ContentLine] {
        let kept = InteropValues.kept(t, .icalendar)
        var l = [ContentLine("BEGIN", "VTODO"), ContentLine("UID", kept["uid"]?.stringValue ?? t.uid.description),
                 utc("DTSTAMP", cx.now), utc("CREATED", t.createdAt), utc("LAST-MODIFIED", t.modifiedAt),
                 ContentLine("SUMMARY", ContentLine.escape(t.title))]
        if let d = t.description { l.append(ContentLine("DESCRIPTION", ContentLine.escape(d))) }
        var startKept = false
        if let spec = t.anchoredRepeat, let due = t.due, case .success(let text) = spec.icalendar(zone: cx.zone, weekStart: cx.weekStart, dueTime: due.time) {
            let lines = text.split(separator: "\n").map(String.init)
            let timed = lines.first?.contains("T") == true && lines.first?.contains("VALUE=DATE:") == false
            l.append(value("DTSTART", Due(date: due.date, time: timed ? (due.time ?? spec.anchorTime ?? .midnight) : nil), cx, timed: timed))
            for raw in lines.dropFirst() {
                guard case .success(var c) = ContentLine.parse(raw, line: 0) else { continue }
                if c.name == "RRULE" { c.value = rebased(c.value, spec, due, cx) }
                l.append(c)
            }
            l.append(ContentLine("X-KEPT-REPEAT", json(.object(InteropValues.repeatObject(t.repeatRule ?? spec, due: due)))))
            startKept = t.start != nil
        } else {
            if let spec = t.anchoredRepeat { l.append(ContentLine("X-KEPT-REPEAT", json(.object(InteropValues.repeatObject(spec, due: t.due))))) }
            if let s = t.start {
                // DTSTART and DUE share a value type and DTSTART comes first (RFC 5545 3.8.2.3).
                if let d = t.due, (d.time == nil) != (s.time == nil) || (s.date, s.time ?? .midnight) >= (d.date, d.time ?? .midnight) {
                    startKept = true
                } else {
                    l.append(value("DTSTART", s, cx))
                }
            }
            if let d = t.due { l.append(value("DUE", d, cx)) }
        }
        if startKept, let s = t.start { l.append(ContentLine("X-KEPT-START", RepeatExtras.text(s))) }
        if let p = priorities[t.priority] { l.append(ContentLine("PRIORITY", String(p))) }
        if !t.tags.isEmpty { l.append(ContentLine("CATEGORIES", t.tags.map(ContentLine.escape).joined(separator: ","))) }
        switch t.status {
        case .done: l.append(ContentLine("STATUS", "COMPLETED"))
        case .archived: l.append(ContentLine("STATUS", "CANCELLED"))
        default:
            l.append(ContentLine("STATUS", "NEEDS-ACTION"))
            if t.status != .open { l.append(ContentLine("X-KEPT-STATUS", ContentLine.escape(t.status.rawValue))) }
        }
        if let c = t.completedAt { l.append(utc("COMPLETED", c)) }
        if t.status == .done {
            l.append(ContentLine("PERCENT-COMPLETE", "100"))
        } else if !t.steps.isEmpty {
            l.append(ContentLine("PERCENT-COMPLETE", String(100 * t.steps.filter(\.done).count / t.steps.count)))
        }
        if let p = t.parent, let u = cx.parentUID(p) { l.append(ContentLine("RELATED-TO", u.description, params: [("RELTYPE", "PARENT")])) }
        if let p = t.project { l.append(ContentLine("X-KEPT-PROJECT", ContentLine.escape(p))) }
        if let a = t.area { l.append(ContentLine("X-KEPT-AREA", ContentLine.escape(a))) }
        for n in t.notes { l.append(ContentLine("X-KEPT-NOTE", ContentLine.escape(n))) }
        if let g = t.goal { l.append(ContentLine("X-KEPT-GOAL", ContentLine.escape(g))) }
        for s in t.steps { l.append(ContentLine("X-KEPT-STEP", ContentLine.escape(s.title), params: [("X-DONE", s.done ? "TRUE" : "FALSE")])) }
        if let e = t.estimate { l.append(ContentLine("X-KEPT-ESTIMATE", String(e.minutes), params: e.source == .suggested ? [("X-SOURCE", "SUGGESTED")] : [])) }
        if let h = t.heldUntil { l.append(ContentLine("X-KEPT-HELD-UNTIL", InteropValues.compactDate(h), params: [("VALUE", "DATE")])) }
        if let n = t.notTodayOn { l.append(ContentLine("X-KEPT-NOT-TODAY-ON", InteropValues.compactDate(n), params: [("VALUE", "DATE")])) }
        for c in t.comments { l.append(ContentLine("X-KEPT-COMMENT", json(c))) }
        for (k, v) in t.extra.members where k != InteropFormat.icalendar.extraKey {
            l.append(ContentLine("X-KEPT-FIELD", json(v), params: [("X-KEY", k)]))
        }
        // Properties of another calendar, as they came.
        for p in kept["properties"]?.arrayValue ?? [] {
            if let s = p.stringValue, case .success(let c) = ContentLine.parse(s, line: 0) { l.append(c) }
        }
        for r in t.reminders {
            l.append(ContentLine("BEGIN", "VALARM"))
            l.append(ContentLine("ACTION", "DISPLAY"))
            l.append(ContentLine("DESCRIPTION", ContentLine.escape(t.title)))
            l.append(ContentLine("TRIGGER", InteropValues.compactUTC(cx.zone.instant(for: r.at)), params: [("VALUE", "DATE-TIME")]))
            if r.pastDue { l.append(ContentLine("X-KEPT-PAST-DUE", "TRUE")) }
            if !r.extra.members.isEmpty { l.append(ContentLine("X-KEPT-FIELD", json(.object(r.extra)), params: [("X-KEY", "reminder")])) }
            l.append(ContentLine("END", "VALARM"))
        }
        l.append(ContentLine("END", "VTODO"))
        return l
    }

    /// The RRULE from the current occurrence: COUNT less the occurrences before it.
    package static func rebased(_ rrule: String, _ spec: RepeatSpec, _ due: Due, _ cx: Context) -> String {
        guard let rule = spec.rule, let n = rule.count, let anchor = spec.anchor else { return rrule }
        let occ = rule.occurrences(anchor: anchor, time: spec.anchorTime ?? due.time, limit: n, weekStart: cx.weekStart, zone: cx.zone,
                                   start: spec.anchorTime)
        let before = occ.filter { ($0.date, $0.time ?? .midnight) < (due.date, due.time ?? .midnight) }.count
        let left = max(1, n - before)
        return rrule.split(separator: ";").map { $0.hasPrefix("COUNT=") ? "COUNT=\(left)" : String($0) }.joined(separator: ";")
    }
}
