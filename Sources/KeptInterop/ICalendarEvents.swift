// The events of a connected calendar (docs/AGENDA.md, "Connected calendars"): a file's VEVENTs
// read as series, and the occurrences of those series that meet some days. Reading is
// RFC 5545's: DTSTART with DTEND or DURATION (a DATE start lasts a day without either, a
// DATE-TIME start an instant), TZID by IANA name, by a VTIMEZONE's X-LIC-LOCATION or single
// offset, or by Windows name (WindowsZones), UTC and floating times (the account's wall clock),
// the recurrence set DTSTART + RRULE + RDATE (dates, date-times and periods) − EXDATE through
// Kept's RFC 5545 engine, RECURRENCE-ID overrides, and STATUS:CANCELLED. The events are never
// tasks: nothing here writes.
//
// A rule's occurrences are found from the first day asked, never walked from DTSTART: the
// engine finds the next occurrence after any moment (RepeatRule+Occurrences).

import KeptRules
import KeptDomain
import KeptFiles

import Foundation

/// A calendar file, read: its events as series, ready to be expanded on days.
public struct CalendarEvents: Sendable {
    /// The start of an event or of one of its occurrences.
    package enum Start: Sendable, Equatable {
        /// A whole day (VALUE=DATE).
        case day(CivilDate)
        /// A wall time in a zone (the TZID's, UTC, or the account's for a floating time), with
        /// the seconds past its minute.
        case wall(CivilDateTime, Zone, second: Int)
    }

    /// How long an event lasts.
    package struct Length: Sendable, Equatable {
        /// Days on the calendar (nominal: a DST night does not change them).
        package var days = 0
        /// Minutes on the wall clock of the start's zone (DTEND in the start's zone).
        package var wallMinutes = 0
        /// Seconds of elapsed time (a DURATION's time part, or a DTEND in another zone).
        package var seconds: Int64 = 0
    }

    /// One instance as a file gives it: an override (RECURRENCE-ID), an RDATE period, or DTSTART.
    package struct Instance: Sendable {
        package var start: Start
        package var length: Length
        package var title: String
        package var location: String?
    }

    /// A VEVENT and everything that changes its occurrences.
    package struct Series: Sendable {
        package var uid: String?
        package var title = ""
        package var location: String?
        package var line: Int
        package var start: Start
        package var length = Length()
        package var rule: RepeatRule?
        /// RDATEs: a start, with a length of its own for a PERIOD.
        package var additions: [(Start, Length?)] = []
        /// EXDATE keys (`key(_:)`), and the days of EXDATEs given as dates in a timed series.
        package var exceptions: Set<Int64> = []
        package var exceptionDays: Set<Int> = []
        /// Overrides by the key of the occurrence they replace; nil for a cancelled one.
        package var overrides: [Int64: Instance?] = [:]
        package var cancelled = false
    }

    package var series: [Series] = []
    /// How many events the file holds (series and single events, not counting overrides).
    public var count: Int { series.count }
    /// The file's TZIDs no zone is known for (read as the account's wall clock).
    public private(set) var unknownZones: [String] = []

    package init() {}

    // MARK: reading

    /// Reads a calendar file. `zone` is the account's: floating times are its wall clock.
    public static func read(_ input: ByteInput, zone: Zone) throws(ImportError) -> CalendarEvents {
        var lines = EventLines(input)
        var stack: [String] = []
        var sawCalendar = false
        var events: [[ContentLine]] = []
        var eventLines: [Int] = []
        var current: [ContentLine]? = nil
        var zones: [String: Zone] = [:]
        var vtzID: String? = nil
        var vtzOffsets: Set<Int> = []
        while let c = try lines.next() {
            let n = c.line
            if c.name == "BEGIN" {
                let what = c.value.uppercased().trimmedSpaces
                if stack.isEmpty {
                    guard what == "VCALENDAR" else { throw ImportError(.notStartingWithVCALENDAR, line: n, column: 1) }
                    sawCalendar = true
                }
                stack.append(what)
                if stack.count == 2, what == "VEVENT" {
                    current = []
                    eventLines.append(n)
                }
                continue
            }
            if c.name == "END" {
                let what = c.value.uppercased().trimmedSpaces
                guard let top = stack.last, top == what else { throw ImportError(.endMismatch(what, open: stack.last), line: n, column: 1) }
                stack.removeLast()
                if stack.count == 1, what == "VEVENT", let e = current {
                    events.append(e)
                    current = nil
                } else if stack.count == 1, what == "VTIMEZONE" {
                    if let id = vtzID, zones[id] == nil, Zone(identifier: id) == nil, vtzOffsets.count == 1, let o = vtzOffsets.first {
                        zones[id] = Zone.fixed(seconds: o)
                    }
                    vtzID = nil
                    vtzOffsets = []
                }
                continue
            }
            guard !stack.isEmpty else { throw ImportError(.outsideCalendar(c.name), line: n, column: 1) }
            if stack.count == 2, current != nil {
                current?.append(c)
            } else if stack.count >= 2, stack[1] == "VTIMEZONE" {
                switch c.name {
                case "TZID" where stack.count == 2: vtzID = c.value.trimmedSpaces
                case "X-LIC-LOCATION":
                    if let id = vtzID, let z = Zone(identifier: c.value.trimmedSpaces) { zones[id] = z }
                case "TZOFFSETTO":
                    if let o = ICalendarReader.offsetSeconds(c.value) { vtzOffsets.insert(o) }
                default: break
                }
            }
        }
        if let open = stack.last { throw ImportError(.endsInside(open), line: 0) }
        if !sawCalendar { throw ImportError(.noCalendar, line: 1, column: 1) }
        var out = CalendarEvents()
        var reader = EventReader(zone: zone, zones: zones)
        var overrides: [(String, [ContentLine])] = []
        var byUID: [String: Int] = [:]
        for (k, props) in events.enumerated() {
            let uid = props.first { $0.name == "UID" }?.value.trimmedSpaces
            if props.contains(where: { $0.name == "RECURRENCE-ID" }) {
                if let u = uid { overrides.append((u, props)) }
                continue
            }
            let s = try reader.series(props, line: eventLines[k])
            if let u = uid, byUID[u] == nil { byUID[u] = out.series.count }
            out.series.append(s)
        }
        for (uid, props) in overrides {
            if let k = byUID[uid] {
                try reader.override(props, into: &out.series[k])
            } else {
                // An override whose series the file lacks is an event of its own.
                var s = try reader.series(props.filter { $0.name != "RECURRENCE-ID" }, line: props.first?.line ?? 0)
                s.line = props.first?.line ?? 0
                out.series.append(s)
            }
        }
        out.unknownZones = reader.unknown
        return out
    }

    /// A path as the connection keeps it: a relative one made absolute from the working folder,
    /// so the agenda finds the file from any folder later.
    public static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let cwd = getcwd(nil, 0) else { return path }
        defer { free(cwd) }
        let base = String(cString: cwd)
        let rel = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        return base == "/" ? "/" + rel : base + "/" + rel
    }

    /// Reads a file by path (the import size limit applies).
    public static func read(path: String, zone: Zone) throws(ImportError) -> CalendarEvents {
        switch ByteInput.open(path) {
        case .success(let input): return try read(input, zone: zone)
        case .failure(let e): throw e
        }
    }

    // MARK: occurrences

    /// The occurrences that meet the account days `first` through `last` (midnight to midnight
    /// in `zone`), in start order (or the file's order when not `sorted`), named for the
    /// connection `calendar`.
    public func events(calendar: String, first: CivilDate, last: CivilDate, zone: Zone, sorted: Bool = true) -> [CalendarEvent] {
        let from = zone.instant(for: CivilDateTime(date: first, time: .midnight))
        let until = zone.instant(for: CivilDateTime(date: last.adding(days: 1), time: .midnight))
        var out: [CalendarEvent] = []
        for s in series {
            CalendarEvents.expand(s, from: from, until: until, first: first, last: last, zone: zone) { inst in
                out.append(CalendarEvent(calendar: calendar, uid: s.uid, title: inst.title, when: inst.when, location: inst.location))
            }
        }
        if sorted { CalendarEvents.sort(&out, zone) }
        return out
    }

    /// Sorts events in start order in `zone` (an all-day event at its first day's midnight,
    /// before timed ones that start then), then by title, then calendar; each key made once.
    public static func sort(_ events: inout [CalendarEvent], _ zone: Zone) {
        let keyed = events.map { e -> ((Int64, Int), CalendarEvent) in
            switch e.when {
            case .allDay(let f, _): return ((zone.instant(for: CivilDateTime(date: f, time: .midnight)).seconds, 0), e)
            case .timed(let s, _): return ((s.seconds, 1), e)
            }
        }
        events = keyed.sorted { a, b in
            if a.0 != b.0 { return a.0 < b.0 }
            if a.1.title != b.1.title { return a.1.title < b.1.title }
            return a.1.calendar < b.1.calendar
        }.map(\.1)
    }

    /// The most occurrences one series gives for one request (a minutely rule over 60 days).
    package static let occurrenceLimit = 20_000

    struct Placed {
        var when: CalendarEvent.When
        var title: String
        var location: String?
    }

    /// Calls `emit` for each occurrence of a series that meets the window.
    static func expand(_ s: Series, from: Instant, until: Instant, first: CivilDate, last: CivilDate, zone: Zone, _ emit: (Placed) -> Void) {
        // A single event far from the days is passed over on its date alone, with no zone
        // arithmetic (most of a large calendar's events are single and long past).
        if s.rule == nil, s.additions.isEmpty, s.overrides.isEmpty {
            let day: CivilDate
            switch s.start {
            case .day(let d): day = d
            case .wall(let w, _, _): day = w.date
            }
            let span = s.length.days + (s.length.wallMinutes + Int(s.length.seconds / 60)) / 1440 + 2
            if day.dayNumber > last.dayNumber + 2 || day.dayNumber + span < first.dayNumber - 2 { return }
        }
        var seen: Set<Int64> = []
        func place(_ start: Start, _ length: Length, title: String, location: String?) {
            guard let w = when(start, length) else { return }
            switch w {
            case .allDay(let f, let l): if l < first || f > last { return }
            case .timed(let a, let b):
                if a >= until { return }
                if b < from || (b == from && a < from) { return }
            }
            emit(Placed(when: w, title: title, location: location))
        }
        func occurrence(_ start: Start, _ length: Length?) {
            let k = key(start)
            guard seen.insert(k).inserted else { return }
            if let o = s.overrides[k] {
                if let inst = o { place(inst.start, inst.length, title: inst.title, location: inst.location) }
                return
            }
            // A cancelled event has no occurrences but those its overrides give back.
            if s.cancelled || s.exceptions.contains(k) { return }
            if case .wall(let w, _, _) = start, s.exceptionDays.contains(w.date.dayNumber) { return }
            place(start, length ?? s.length, title: s.title, location: s.location)
        }
        // An RDATE PERIOD at DTSTART's own time gives that instance its length.
        for (start, length) in s.additions where length != nil { occurrence(start, length) }
        // DTSTART is the first instance (RFC 5545 section 3.8.5.3).
        occurrence(s.start, nil)
        if let rule = s.rule {
            // The rule's occurrences from a little before the window (an event that started
            // earlier may still last into it) to a day past it, on the series' wall clock.
            let span = Int64(s.length.days) * 86_400 + Int64(s.length.wallMinutes) * 60 + s.length.seconds
            let weekStart = rule.weekStart ?? .monday
            switch s.start {
            case .day(let d):
                let lead = Int(span / 86_400) + 1
                var after = CivilDateTime(date: first.adding(days: -lead - 1), time: RepeatSpec.lastMinute)
                let end = last.adding(days: 1)
                var n = 0
                while n < occurrenceLimit,
                      let o = rule.nextOccurrence(after: after, anchor: d, time: nil, weekStart: weekStart, zone: nil), o.date <= end {
                    occurrence(.day(o.date), nil)
                    after = CivilDateTime(date: o.date, time: RepeatSpec.lastMinute)
                    n += 1
                }
            case .wall(let w, let z, let second):
                var after = z.local(at: from.adding(seconds: -span - 2 * 86_400))
                let end = z.local(at: until.adding(seconds: 2 * 86_400))
                var n = 0
                while n < occurrenceLimit,
                      let o = rule.nextOccurrence(after: after, anchor: w.date, time: w.time, weekStart: weekStart, zone: z, start: w.time),
                      let t = o.time {
                    let at = CivilDateTime(date: o.date, time: t)
                    if end < at { break }
                    occurrence(.wall(at, z, second: second), nil)
                    after = at
                    n += 1
                }
            }
        }
        for (start, length) in s.additions where length == nil { occurrence(start, nil) }
        // Overrides of occurrences the series does not have are instances of their own.
        for (k, o) in s.overrides where !seen.contains(k) {
            if let inst = o { place(inst.start, inst.length, title: inst.title, location: inst.location) }
        }
    }

    /// The key an occurrence is known by: its instant's seconds for a timed start, its day
    /// number for a whole day.
    package static func key(_ s: Start) -> Int64 {
        switch s {
        case .day(let d): return Int64(d.dayNumber)
        case .wall(let w, let z, let second): return z.instant(for: w).seconds + Int64(second)
        }
    }

    /// When an instance happens, or nil when its end is before its start.
    package static func when(_ s: Start, _ l: Length) -> CalendarEvent.When? {
        switch s {
        case .day(let d):
            let days = l.days + (l.wallMinutes + Int(l.seconds / 60)) / 1440
            return .allDay(first: d, last: d.adding(days: max(days, 1) - 1))
        case .wall(let w, let z, let second):
            let start = z.instant(for: w).adding(seconds: Int64(second))
            let endWall = w.adding(days: l.days).adding(minutes: l.wallMinutes)
            let end = z.instant(for: endWall).adding(seconds: Int64(second) + l.seconds)
            return .timed(start: start, end: max(start, end))
        }
    }
}

/// A calendar file's unfolded content lines, read on their bytes: only the properties the
/// events are made of become `ContentLine`s; the others (DTSTAMP, DESCRIPTION, ATTENDEE…) are
/// passed over with no copy when well-formed. A line the fast path does not take (quotes, a
/// malformed one) goes through `ContentLine.parse`, which makes every error.
struct EventLines {
    var lines: LineReader
    var cur: [UInt8] = []
    var curLine = 0
    var have = false
    var done = false

    init(_ input: ByteInput) { lines = LineReader(input) }

    /// The properties the events are made of (and the components' and zones' own).
    static let names = ["BEGIN", "END", "UID", "SUMMARY", "LOCATION", "STATUS", "DTSTART", "DTEND", "DURATION", "RRULE",
                        "RDATE", "EXDATE", "RECURRENCE-ID", "TZID", "X-LIC-LOCATION", "TZOFFSETTO"]
    static let nameBytes: [[UInt8]] = names.map { Array($0.utf8) }

    mutating func next() throws(ImportError) -> ContentLine? {
        while !done {
            guard let l = try lines.next() else {
                done = true
                if have {
                    have = false
                    if let c = try EventLines.line(cur, curLine) { return c }
                }
                return nil
            }
            if let f = l.first, f == 0x20 || f == 0x09, have {
                cur.append(contentsOf: l.dropFirst())
                continue
            }
            var out: ContentLine? = nil
            if have { out = try EventLines.line(cur, curLine) }
            cur.removeAll(keepingCapacity: true)
            cur.append(contentsOf: l)
            curLine = lines.line
            have = !l.isEmpty
            if let c = out { return c }
        }
        return nil
    }

    /// One unfolded line: a property the events use, or nil for one they never use.
    static func line(_ b: [UInt8], _ n: Int) throws(ImportError) -> ContentLine? {
        func general() throws(ImportError) -> ContentLine {
            guard let s = String(validating: b, as: UTF8.self) else { throw .notUTF8(n) }
            switch ContentLine.parse(s, line: n) {
            case .success(let c): return c
            case .failure(let e): throw e
            }
        }
        var k = 0
        while k < b.count, k <= 24 {
            let c = b[k]
            if c == 0x3A || c == 0x3B { break }
            guard (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D else { return try general() }
            k += 1
        }
        guard k > 0, k < b.count, b[k] == 0x3A || b[k] == 0x3B else { return try general() }
        var which = -1
        for (i, name) in nameBytes.enumerated() where name.count == k {
            var same = true
            for j in 0..<k where (b[j] >= 0x61 && b[j] <= 0x7A ? b[j] - 0x20 : b[j]) != name[j] {
                same = false
                break
            }
            if same { which = i; break }
        }
        guard which >= 0 else {
            // Unused: well-formed enough when a `:` follows.
            var j = k
            while j < b.count, b[j] != 0x3A { j += 1 }
            return j < b.count ? nil : try general()
        }
        // Parameters without quotes, then the value; anything else the general reader takes.
        var cl = ContentLine(names[which], "")
        cl.line = n
        var p = k
        while p < b.count, b[p] == 0x3B {
            let ns = p + 1
            var q = ns
            while q < b.count, b[q] != 0x3D, b[q] != 0x3A, b[q] != 0x3B, b[q] != 0x22 { q += 1 }
            guard q > ns, q < b.count, b[q] == 0x3D else { return try general() }
            let vs = q + 1
            var r = vs
            while r < b.count, b[r] != 0x3A, b[r] != 0x3B, b[r] != 0x22 { r += 1 }
            guard r < b.count, b[r] != 0x22 else { return try general() }
            guard let pn = String(validating: b[ns..<q], as: UTF8.self), let pv = String(validating: b[vs..<r], as: UTF8.self) else { throw .notUTF8(n) }
            cl.params.append((pn.uppercased(), pv))
            p = r
        }
        guard p < b.count, b[p] == 0x3A else { return try general() }
        guard let v = String(validating: b[(p + 1)...], as: UTF8.self) else { throw .notUTF8(n) }
        cl.value = v
        return cl
    }
}

/// Reads a VEVENT's properties into a series.
struct EventReader {
    let zone: Zone
    let zones: [String: Zone]
    var unknown: [String] = []
    var rules = RRULECache()
    /// TZIDs looked up so far: a file names few zones, on many lines.
    var known: [String: Zone?] = [:]

    /// The zone of a TZID, or nil (said once in `unknown`).
    mutating func zone(_ tzid: String) -> Zone? {
        if let z = known[tzid] { return z }
        let z = lookUp(tzid)
        known[tzid] = .some(z)
        return z
    }

    mutating func lookUp(_ tzid: String) -> Zone? {
        var id = tzid.trimmedSpaces
        if id.hasPrefix("/") { id.removeFirst() }
        if let z = Zone(identifier: id) ?? zones[id] ?? WindowsZones.iana(id).flatMap({ Zone(identifier: $0) }) { return z }
        if !unknown.contains(id) { unknown.append(id) }
        return nil
    }

    /// A DATE or DATE-TIME value of a property (one item of a list).
    mutating func start(_ c: ContentLine, _ value: String) throws(ImportError) -> CalendarEvents.Start {
        guard let s = ICalendarStamp(value.trimmedSpaces) else { throw ImportError(.value(c.name, value, not: .icalDue), line: c.line) }
        guard let t = s.time else { return .day(s.date) }
        let wall = CivilDateTime(date: s.date, time: t)
        if s.utc { return .wall(wall, .utc, second: s.second) }
        if let id = c.param("TZID"), let z = zone(id) { return .wall(wall, z, second: s.second) }
        return .wall(wall, zone, second: s.second)
    }

    /// A DURATION value (RFC 5545 section 3.3.6): weeks and days nominal, the time part exact.
    static func duration(_ text: String) -> CalendarEvents.Length? {
        var b = Array(text.trimmedSpaces.uppercased().utf8)[...]
        var sign = 1
        if b.first == UInt8(ascii: "-") { sign = -1; b = b.dropFirst() } else if b.first == UInt8(ascii: "+") { b = b.dropFirst() }
        guard b.first == UInt8(ascii: "P") else { return nil }
        b = b.dropFirst()
        var l = CalendarEvents.Length()
        var n = 0, inTime = false, any = false
        for c in b {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                n = n * 10 + Int(c - 48)
                guard n < 100_000_000 else { return nil }
            case UInt8(ascii: "T"): inTime = true
            case UInt8(ascii: "W") where !inTime: l.days += n * 7; n = 0; any = true
            case UInt8(ascii: "D") where !inTime: l.days += n; n = 0; any = true
            case UInt8(ascii: "H") where inTime: l.seconds += Int64(n) * 3600; n = 0; any = true
            case UInt8(ascii: "M") where inTime: l.seconds += Int64(n) * 60; n = 0; any = true
            case UInt8(ascii: "S") where inTime: l.seconds += Int64(n); n = 0; any = true
            default: return nil
            }
        }
        guard any, l.days <= 100_000 else { return nil }
        if sign < 0 { return CalendarEvents.Length() }
        return l
    }

    /// The length from a start to an end: whole days between dates; on one zone's wall clock
    /// between two times of it; elapsed seconds between times of two zones.
    static func length(from a: CalendarEvents.Start, to b: CalendarEvents.Start) -> CalendarEvents.Length {
        var l = CalendarEvents.Length()
        switch (a, b) {
        case (.day(let x), .day(let y)): l.days = max(0, x.days(until: y))
        case (.day(let x), .wall(let w, _, _)): l.days = max(0, x.days(until: w.date))
        case (.wall(let x, let zx, let sx), .wall(let y, let zy, let sy)):
            if zx == zy {
                l.wallMinutes = max(0, x.minutes(until: y))
                l.seconds = Int64(sy - sx)
            } else {
                l.seconds = max(0, zx.instant(for: x).seconds(until: zy.instant(for: y)) + Int64(sy - sx))
            }
        case (.wall, .day(let y)):
            if case .wall(let x, _, _) = a { l.wallMinutes = max(0, x.minutes(until: CivilDateTime(date: y, time: .midnight))) }
        }
        return l
    }

    /// The parts of an event every component has: start, length, title, location, status.
    mutating func instance(_ props: [ContentLine], line: Int) throws(ImportError) -> (CalendarEvents.Instance, cancelled: Bool)? {
        guard let ds = props.first(where: { $0.name == "DTSTART" }) else { return nil }
        let start = try self.start(ds, ds.value)
        var length = CalendarEvents.Length()
        if case .day = start { length.days = 1 }
        if let de = props.first(where: { $0.name == "DTEND" }) {
            length = EventReader.length(from: start, to: try self.start(de, de.value))
        } else if let du = props.first(where: { $0.name == "DURATION" }) {
            guard let l = EventReader.duration(du.value) else { throw ImportError(.value("DURATION", du.value, not: .minutes), line: du.line) }
            length = l
        }
        var inst = CalendarEvents.Instance(start: start, length: length, title: "", location: nil)
        var cancelled = false
        for c in props {
            switch c.name {
            case "SUMMARY": inst.title = ContentLine.unescape(c.value)
            case "LOCATION": inst.location = ContentLine.unescape(c.value)
            case "STATUS": cancelled = c.value.trimmedSpaces.uppercased() == "CANCELLED"
            default: break
            }
        }
        return (inst, cancelled)
    }

    /// A VEVENT as a series.
    mutating func series(_ props: [ContentLine], line: Int) throws(ImportError) -> CalendarEvents.Series {
        guard let (inst, cancelled) = try instance(props, line: line) else {
            throw ImportError(.value("VEVENT", "", not: .icalDue), line: line)
        }
        var s = CalendarEvents.Series(uid: props.first { $0.name == "UID" }?.value.trimmedSpaces, title: inst.title, location: inst.location,
                                      line: line, start: inst.start, length: inst.length)
        s.cancelled = cancelled
        for c in props {
            switch c.name {
            case "RRULE" where s.rule == nil:
                switch rules.rule(c.value.trimmedSpaces) {
                case .success(var r):
                    r.weekStart = r.weekStart ?? .monday
                    s.rule = r
                case .failure(let e) where e.keptCannotHold:
                    // A rule Kept cannot hold (SECONDLY, BYSECOND): DTSTART alone, as said in docs/AGENDA.md.
                    break
                case .failure(let e):
                    throw ImportError(.malformedRepeat(c.value, e), line: c.line)
                }
            case "RDATE":
                let period = c.param("VALUE")?.uppercased() == "PERIOD"
                for v in c.value.split(separator: ",") {
                    let parts = v.split(separator: "/", maxSplits: 1)
                    let begin = try start(c, String(parts.first ?? v))
                    var length: CalendarEvents.Length? = nil
                    if period || parts.count == 2, parts.count == 2 {
                        let second = String(parts[1])
                        if let l = EventReader.duration(second) {
                            length = l
                        } else {
                            length = EventReader.length(from: begin, to: try start(c, second))
                        }
                    }
                    s.additions.append((align(begin, to: s.start), length))
                }
            case "EXDATE":
                for v in c.value.split(separator: ",") {
                    let x = try start(c, String(v))
                    switch (x, s.start) {
                    case (.day(let d), .wall): s.exceptionDays.insert(d.dayNumber)
                    default: s.exceptions.insert(CalendarEvents.key(align(x, to: s.start)))
                    }
                }
            default: break
            }
        }
        return s
    }

    /// A date or time of a series' recurrence set in the series' own form: a date-time of a
    /// series of days is its day; a date of a timed series is that day at DTSTART's time.
    func align(_ x: CalendarEvents.Start, to base: CalendarEvents.Start) -> CalendarEvents.Start {
        switch (x, base) {
        case (.wall(let w, let z, _), .day):
            return .day(z == zone ? w.date : zone.local(at: z.instant(for: w)).date)
        case (.day(let d), .wall(let w, let z, let second)):
            return .wall(CivilDateTime(date: d, time: w.time), z, second: second)
        default:
            return x
        }
    }

    /// An override (RECURRENCE-ID) applied to its series: the occurrence it names replaced by
    /// it, or taken out when it is cancelled.
    mutating func override(_ props: [ContentLine], into s: inout CalendarEvents.Series) throws(ImportError) {
        guard let rid = props.first(where: { $0.name == "RECURRENCE-ID" }) else { return }
        let k = CalendarEvents.key(align(try start(rid, rid.value), to: s.start))
        var with = props
        if !with.contains(where: { $0.name == "DTSTART" }) {
            var d = rid
            d.name = "DTSTART"
            with.append(d)
        }
        // An override without DTEND or DURATION keeps its series' length.
        let ownEnd = props.contains { $0.name == "DTEND" || $0.name == "DURATION" }
        guard var (inst, cancelled) = try instance(with, line: rid.line) else { return }
        if !ownEnd { inst.length = s.length }
        if !props.contains(where: { $0.name == "SUMMARY" }) { inst.title = s.title }
        if !props.contains(where: { $0.name == "LOCATION" }) { inst.location = s.location }
        s.overrides[k] = cancelled ? .some(nil) : .some(inst)
    }
}

extension Zone {
    /// A zone of one fixed offset (a VTIMEZONE without daylight time).
    package static func fixed(seconds: Int) -> Zone? {
        TimeZone(secondsFromGMT: seconds).map { Zone($0) }
    }
}
