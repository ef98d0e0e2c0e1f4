// A calendar's recurrence set as one Kept series (RFC 5545 section 3.8.5; docs/INTEROP.md,
// "Repeats"): the RRULE, its RDATEs and EXDATEs (an EXDATE may take out DTSTART itself), an
// RDATE set without an RRULE, and the overrides of single occurrences (RECURRENCE-ID). The
// file's series is DTSTART's; a VTODO's dues are that series moved by DUE − DTSTART. What one
// Kept series cannot hold is kept in the task's "icalendar" field and named in the report.

import KeptRules
import KeptDomain
import KeptFiles

extension ICalendarReader {
    /// The series a component's recurrence lines and overrides make, with the task's due and
    /// start on its first occurrence.
    package struct Series {
        package var spec: RepeatSpec
        package var due: Due?
        package var start: Due?
    }

    /// Properties of an override that say which occurrence it is, or its new date, or nothing
    /// a task keeps: the others (a new SUMMARY) cannot be one occurrence's in Kept.
    static let overrideDates: Set<String> = ["UID", "RECURRENCE-ID", "DTSTAMP", "SEQUENCE", "DTSTART", "DUE", "DTEND",
                                             "DURATION", "STATUS", "LAST-MODIFIED", "CREATED"]

    /// The series of a component, or nil when it has none Kept can hold (its lines then kept
    /// and named in the report).
    package func series(_ lines: [ContentLine], overrides: [Component], master: [ContentLine], start: Due?, due: Due?, sourceZone: Zone?,
                        record r: inout ImportedTask, other: inout [JSONValue], kept: inout JSONObject) throws(ImportError) -> Series? {
        let rrules = lines.filter { $0.name == "RRULE" }
        let rdates = lines.filter { $0.name == "RDATE" }
        // RFC 5545 leaves a second RRULE undefined: the first is the series; another with an
        // end adds its dates (as recurring-ical-events reads the set), one without is kept.
        var extra: [Due] = []
        for c in rrules.dropFirst() {
            if let s0 = start ?? due, let dates = finiteDates(c.value, from: s0) {
                extra += dates
            } else {
                other.append(.string(ICalendarReader.raw(c)))
                r.unmapped.append("RRULE")
            }
        }
        func keepAll() {
            for c in lines where !rrules.dropFirst().contains(where: { $0.line == c.line }) {
                other.append(.string(ICalendarReader.raw(c)))
                r.unmapped.append(c.name)
            }
            if !overrides.isEmpty { keepOverrides(overrides, &r, &kept) }
        }
        guard let s0 = start ?? due else { keepAll(); return nil }
        var spec: RepeatSpec
        if let rr = rrules.first {
            switch InteropValues.repeatSpec(rrule: rr.value, anchor: s0, line: rr.line) {
            case .success(let sp)?: spec = sp
            case .failure(let e)?: throw e
            case nil: keepAll(); return nil
            }
        } else if !rdates.isEmpty || !overrides.isEmpty, case .success(var one) = RepeatRule.fromRRULE("FREQ=DAILY;COUNT=1") {
            // An RDATE set alone: DTSTART once, then the dates the RDATEs add.
            one.weekStart = .monday
            spec = RepeatSpec(rule: one, anchor: s0.date, anchorTime: s0.time)
        } else {
            keepAll()
            return nil
        }
        spec.additions += extra
        var periods: [JSONValue] = []
        for c in lines where c.name != "RRULE" {
            let period = c.name == "RDATE" && c.param("VALUE")?.uppercased() == "PERIOD"
            if period { periods.append(.string(ICalendarReader.raw(c))) }
            for v in c.value.split(separator: ",") {
                var one = c
                one.value = String(v)
                if period {
                    // A PERIOD's occurrence starts at its start and ends at its end, which is
                    // a VTODO's due: on DTSTART's series, the due less DUE − DTSTART.
                    let parts = v.split(separator: "/", maxSplits: 1)
                    one.value = String(parts.first ?? v)
                    let begin = try self.due(one)
                    var d = begin
                    if let st = start, let du = due, parts.count == 2 {
                        var end = one
                        end.value = String(parts[1])
                        let until: Due
                        if let m = ICalendarReader.durationMinutes(end.value) {
                            let x = CivilDateTime(date: begin.date, time: begin.time ?? .midnight).adding(minutes: m)
                            until = Due(date: x.date, time: begin.time == nil ? nil : x.time)
                        } else {
                            until = try self.due(end)
                        }
                        d = Shift(from: du, to: st).apply(until)
                    }
                    spec.additions.append(d)
                    continue
                }
                let d = try self.due(one)
                if c.name == "EXDATE" { spec.exceptions.append(d) } else { spec.additions.append(d) }
            }
        }
        if !periods.isEmpty {
            kept["rdate-periods"] = .array(periods)
            r.unmapped.append("RDATE;VALUE=PERIOD")
        }
        try applyOverrides(overrides, master: master, to: &spec, start: start, due: due, &r, &kept)
        let weekStart = spec.rule?.weekStart ?? .monday
        // The dues: DTSTART's series moved by DUE − DTSTART, when the rule anchored on DUE
        // gives just those dates (a rule whose days come from its anchor); else the series
        // stays on DTSTART's dates and the report names DUE.
        var out = spec
        var anchorDue = s0
        var dueOf = Shift(from: s0, to: s0)
        if let st = start, let du = due, st != du {
            let move = Shift(from: st, to: du)
            guard let rule = spec.rule else { return nil }
            var moved = RepeatSpec(rule: rule, anchor: du.date, anchorTime: du.time)
            moved.exceptions = spec.exceptions.map(move.apply)
            moved.additions = spec.additions.map(move.apply)
            let a = spec.occurrences(limit: 64, time: st.time, weekStart: weekStart, zone: zone).map(move.apply)
            let b = moved.occurrences(limit: 64, time: du.time, weekStart: weekStart, zone: zone)
            if a == b {
                out = moved
                anchorDue = du
            } else {
                r.unmapped.append("DUE")
                dueOf = move
            }
        }
        // R-IO-7: an added date at another time of day than the series' keeps the series at
        // its own time, as `rdate` does.
        if let rule = out.rule, !rule.isTimed, let at = anchorDue.time, out.anchorTime == nil,
           out.additions.contains(where: { $0.time != nil && $0.time != at }) {
            out.anchorTime = at
        }
        // R-REP-11: DTSTART is the first instance: a rule with times of its own that has
        // earlier ones on DTSTART's day keeps DTSTART's time as its start.
        if let rule = out.rule, rule.isTimed, out.anchorTime == nil, let t = anchorDue.time, let a = out.anchor,
           let f = RepeatSpec.occurrences(of: rule, on: a, anchor: a, time: t, weekStart: weekStart, zone: zone).first?.time, f < t {
            out.anchorTime = t
        }
        // R-IO-6: a series of another zone's wall clock that the account's wall clock does
        // not give (the two zones change their clocks on other days) is named in the report.
        if let z = sourceZone, z != zone, let t = s0.time, let rule = spec.rule {
            let wall = CivilDateTime(date: s0.date, time: t)
            let there = z.local(at: zone.instant(for: wall))
            let a = RepeatSpec(rule: rule, anchor: there.date, anchorTime: there.time)
                .occurrences(limit: 64, time: there.time, weekStart: weekStart, zone: z)
                .map { o -> Due in
                    let l = zone.local(at: z.instant(for: RepeatSpec.moment(o)))
                    return Due(date: l.date, time: l.time)
                }
            let b = RepeatSpec(rule: rule, anchor: s0.date, anchorTime: t).occurrences(limit: 64, time: t, weekStart: weekStart, zone: zone)
            if a != b {
                r.unmapped.append("TZID")
                kept["series-zone"] = .string(z.identifier)
            }
        }
        // R-IO-4: the task is due on the series' first occurrence, which an EXDATE or an
        // override may have moved off DTSTART.
        let first = out.occurrences(limit: 1, time: anchorDue.time, weekStart: weekStart, zone: zone).first.map(dueOf.apply)
        var series = Series(spec: out, due: due ?? start, start: due != nil ? start : nil)
        if let f = first, let d = series.due, f != d {
            let move = Shift(from: d, to: f)
            series.due = f
            series.start = series.start.map(move.apply)
        }
        return series
    }

    /// The dates of an RRULE with an end (COUNT or UNTIL, at most 1,000 dates) from `start`,
    /// or nil: a rule without an end, one Kept cannot read, or one of more dates.
    func finiteDates(_ rrule: String, from start: Due) -> [Due]? {
        guard case .success(var rule) = RepeatRule.fromRRULE(rrule), rule.count != nil || rule.end != nil else { return nil }
        rule.weekStart = rule.weekStart ?? .monday
        let spec = RepeatSpec(rule: rule, anchor: start.date, anchorTime: start.time)
        let dates = spec.occurrences(limit: 1_001, time: start.time, weekStart: rule.weekStart ?? .monday, zone: zone)
        return dates.count <= 1_000 ? dates : nil
    }

    /// The overrides of single occurrences, applied to the file's series (DTSTART's): a
    /// cancelled occurrence is an EXDATE, a moved one an EXDATE and an RDATE. An override
    /// that changes more than its date, or this and future occurrences, is kept.
    func applyOverrides(_ overrides: [Component], master: [ContentLine], to spec: inout RepeatSpec, start: Due?, due: Due?,
                        _ r: inout ImportedTask, _ kept: inout JSONObject) throws(ImportError) {
        var keep: [Component] = []
        for o in overrides {
            guard let rid = o.props.first(where: { $0.name == "RECURRENCE-ID" }) else { continue }
            if rid.param("RANGE")?.uppercased() == "THISANDFUTURE" {
                keep.append(o)
                continue
            }
            let old = try self.due(rid)
            if o.props.contains(where: { $0.name == "STATUS" && $0.value.uppercased().trimmedSpaces == "CANCELLED" }) {
                spec.exceptions.append(old)
                continue
            }
            var new = old
            if let c = o.props.first(where: { $0.name == "DTSTART" }) {
                new = try self.due(c)
            } else if let c = o.props.first(where: { $0.name == "DUE" }) {
                let d = try self.due(c)
                // The override's due, on DTSTART's series.
                if let st = start, let du = due { new = Shift(from: du, to: st).apply(d) } else { new = d }
            }
            if new != old {
                spec.exceptions.append(old)
                spec.additions.append(new)
            }
            let changes = o.props.contains { p in
                !ICalendarReader.overrideDates.contains(p.name) && !master.contains { $0.name == p.name && $0.value == p.value }
            }
            if changes { keep.append(o) }
        }
        if !keep.isEmpty { keepOverrides(keep, &r, &kept) }
    }

    /// Overrides Kept cannot apply: their lines kept, RECURRENCE-ID named in the report.
    func keepOverrides(_ os: [Component], _ r: inout ImportedTask, _ kept: inout JSONObject) {
        var list = kept["overrides"]?.arrayValue ?? []
        for o in os {
            list.append(.array(o.props.map { .string(ICalendarReader.raw($0)) }))
            r.unmapped.append("RECURRENCE-ID")
        }
        kept["overrides"] = .array(list)
    }
}

/// A move from one due to another, applied to other dues: by the minutes between two times,
/// else by whole days (a day without a time takes the target's time, or keeps none).
struct Shift {
    let from: Due
    let to: Due

    func apply(_ d: Due) -> Due {
        if let a = from.time, let b = to.time, let t = d.time {
            let m = CivilDateTime(date: from.date, time: a).minutes(until: CivilDateTime(date: to.date, time: b))
            let x = CivilDateTime(date: d.date, time: t).adding(minutes: m)
            return Due(date: x.date, time: x.time)
        }
        let days = from.date.days(until: to.date)
        let time: WallTime? = to.time == nil ? nil : (from.time == nil ? to.time : d.time)
        return Due(date: d.date.adding(days: days), time: time)
    }
}
