// A task's repeat as iCalendar writes a recurring component's dates (RFC 5545 section 3.8.5):
// DTSTART, RRULE, EXDATE and RDATE, one property a line. DTSTART is the series' first
// occurrence (a strict engine counts it as the first instance); a timed series writes its
// date-times with the account's zone as TZID, and an exception of a whole day in a timed
// series as each of that day's occurrences. Reading takes DTSTART, a UTC (`Z`) or other-zone
// time as the account's wall time, and the same four properties.

extension RepeatSpec {
    /// The iCalendar lines of this repeat, or why it has none (`after completion`).
    public func icalendar(zone: Zone, weekStart: Weekday, dueTime: WallTime? = nil) -> Result<String, RRULEError> {
        guard let rule, let anchor else { return .failure(.unreadableRepeat) }
        let time = occurrenceTime(dueTime: dueTime)
        let rr: String
        switch rule.rrule(anchor: anchor, weekStart: weekStart, zone: zone, dueTime: time) {
        case .success(let x): rr = x
        case .failure(let e): return .failure(e)
        }
        let timed = rule.hasTimes(dueTime: time)
        let first = rule.firstOccurrence(atOrAfter: CivilDateTime(date: anchor, time: .midnight), anchor: anchor, time: time, weekStart: weekStart,
                                         start: anchorTime)
            ?? Due(date: anchor, time: timed ? (time ?? .midnight) : nil)
        var lines = [RepeatSpec.property("DTSTART", [first], timed: timed, zone: zone), "RRULE:" + rr]
        // A whole day taken out of a timed series: each of its occurrences.
        var out: [Due] = []
        for e in exceptions {
            if timed, e.time == nil {
                out += RepeatSpec.occurrences(of: rule, on: e.date, anchor: anchor, time: time, weekStart: weekStart, zone: zone, start: anchorTime)
            } else {
                out.append(e)
            }
        }
        for (name, values) in [("EXDATE", out), ("RDATE", additions)] where !values.isEmpty {
            let dated = values.filter { $0.time == nil }, timedValues = values.filter { $0.time != nil }
            if !dated.isEmpty { lines.append(RepeatSpec.property(name, dated, timed: false, zone: zone)) }
            if !timedValues.isEmpty { lines.append(RepeatSpec.property(name, timedValues, timed: true, zone: zone)) }
        }
        return .success(lines.joined(separator: "\n"))
    }

    /// The occurrences of a rule on one day.
    package static func occurrences(of rule: RepeatRule, on day: CivilDate, anchor: CivilDate, time: WallTime?, weekStart: Weekday, zone: Zone,
                                    start: WallTime? = nil) -> [Due] {
        var out: [Due] = []
        var from = RepeatSpec.firstMoment(day)
        while let d = rule.nextOccurrence(after: from, anchor: anchor, time: time, weekStart: weekStart, zone: zone, start: start), d.date == day,
              out.count < 1440 {
            out.append(d)
            from = RepeatSpec.moment(d)
        }
        return out
    }

    /// `NAME;VALUE=DATE:20260701,20260801` or `NAME;TZID=Europe/Berlin:20260701T090000`.
    package static func property(_ name: String, _ values: [Due], timed: Bool, zone: Zone) -> String {
        func digits(_ d: CivilDate) -> String { d.iso.replacingOccurrences(of: "-", with: "") }
        if !timed { return name + ";VALUE=DATE:" + values.map { digits($0.date) }.joined(separator: ",") }
        let stamps = values.map { v -> String in
            let t = v.time ?? .midnight
            return digits(v.date) + "T" + (t.hour < 10 ? "0" : "") + "\(t.hour)" + (t.minute < 10 ? "0" : "") + "\(t.minute)00"
        }
        return name + ";TZID=" + zone.identifier + ":" + stamps.joined(separator: ",")
    }

    /// Reads DTSTART, RRULE, EXDATE and RDATE lines (other properties are refused). Times in
    /// UTC or in another zone are read as wall times in `zone`.
    public static func fromICalendar(_ text: String, zone: Zone) -> Result<RepeatSpec, RRULEError> {
        var start: Due? = nil
        var rule: RepeatRule? = nil
        var exdates: [Due] = []
        var rdates: [Due] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            guard let colon = line.firstIndex(of: ":") else { return .failure(.notNameColonValue(line)) }
            let head = line[..<colon].split(separator: ";").map(String.init)
            let value = String(line[line.index(after: colon)...])
            let name = head.first?.uppercased() ?? ""
            let params = head.dropFirst().map { $0.uppercased() }
            let tzid = head.dropFirst().first { $0.uppercased().hasPrefix("TZID=") }.map { String($0.dropFirst(5)) }
            switch name {
            case "RRULE":
                switch RepeatRule.fromRRULE(value) {
                case .success(let r):
                    // An RRULE's defaults (RFC 5545's Monday): the account's week start is not asked.
                    rule = r.admitted(from: .rrule, weekStart: .monday, zone: zone)
                case .failure(let e): return .failure(e)
                }
            case "DTSTART", "EXDATE", "RDATE":
                var values: [Due] = []
                for item in value.split(separator: ",") {
                    guard let d = readValue(String(item), dateOnly: params.contains("VALUE=DATE"), tzid: tzid, zone: zone) else {
                        return .failure(.badDateValue(property: name, item: String(item)))
                    }
                    values.append(d)
                }
                if name == "DTSTART" { start = values.first } else if name == "EXDATE" { exdates += values } else { rdates += values }
            default:
                return .failure(.notARepeatProperty(name))
            }
        }
        guard let rule else { return .failure(.noRRULELine) }
        guard let start else { return .failure(.noDTSTARTLine) }
        var spec = RepeatSpec(rule: rule, anchor: start.date, anchorTime: start.time)
        spec.exceptions = exdates
        spec.additions = rdates
        return .success(spec)
    }

    /// One value: `20260701` (a day), `20260701T090000` (a wall time, in TZID or floating) or
    /// `20260701T070000Z` (UTC).
    package static func readValue(_ s: String, dateOnly: Bool, tzid: String?, zone: Zone) -> Due? {
        guard let v = ICalendarStamp(s) else { return nil }
        guard let t = v.time else { return Due(date: v.date) }
        guard !dateOnly else { return nil }
        var from: Zone? = nil
        if v.utc {
            from = .utc
        } else if let id = tzid, id != zone.identifier {
            guard let z = Zone(identifier: id) else { return nil }
            from = z
        }
        guard let other = from else { return Due(date: v.date, time: t) }
        let local = zone.local(at: other.instant(for: CivilDateTime(date: v.date, time: t)))
        return Due(date: local.date, time: local.time)
    }
}
