// Connected calendars (docs/AGENDA.md, "Connected calendars"): the `calendar …` statement in
// its stages (resolve: the file found and read; act: the engine's one change; render), and the
// events of the shown calendars for `agenda` and `plan openings`, duplicates merged.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A `calendar …` statement, resolved.
package enum CalendarRequest {
    /// A connection to a file that reads, with its count of events.
    case connect(CalendarConnection, events: Int)
    case list
    case show(String, shown: Bool)
    case disconnect(String)
}

/// What a `calendar …` statement did.
package enum CalendarOutcome {
    case connected(CalendarConnection, events: Int)
    /// Each connection, with its count of events or why its file does not read.
    case listed([(CalendarConnection, Result<Int, Diagnostic>)])
    case shown(CalendarConnection, changed: Bool)
    case disconnected(CalendarConnection)
}

extension Session {
    /// The events of the store's connected calendars that are not hidden and that meet any
    /// of the days `first` through `last` (days in the account zone), with duplicates across
    /// calendars merged when the setting asks for it, in start order. A calendar file that
    /// cannot be read gives a diagnostic in `problems` (naming its line), and the other
    /// calendars' events are still returned.
    ///
    /// The seam the agenda is built on; reading the connections fills it in.
    package func connectedEvents(first: CivilDate, last: CivilDate) -> (events: [CalendarEvent], problems: [Diagnostic]) {
        var events: [CalendarEvent] = []
        var problems: [Diagnostic] = []
        for c in store.calendars where !c.hidden {
            switch readCalendar(c) {
            case .success(let file): events += file.events(calendar: c.name, first: first, last: last, zone: zone, sorted: false)
            case .failure(let d): problems.append(d)
            }
        }
        // Merged in the order the calendars were connected (the first one's copy stays), then sorted.
        if store.settings.mergeMeetings { events = Session.merged(events) }
        CalendarEvents.sort(&events, zone)
        return (events, problems)
    }

    /// R-CAL-4: one meeting on several calendars shows once: events of other calendars with
    /// the same UID and start, or (when either has no UID) the same title and start, are one;
    /// the copy of the calendar connected first is kept (`events` come in that order).
    package static func merged(_ events: [CalendarEvent]) -> [CalendarEvent] {
        struct Key: Hashable {
            var text: String
            var kind: Int
            var start: Int64
            var end: Int64
        }
        func key(_ e: CalendarEvent, _ text: String) -> Key {
            switch e.when {
            case .allDay(let f, let l): return Key(text: text, kind: 0, start: Int64(f.dayNumber), end: Int64(l.dayNumber))
            case .timed(let s, _): return Key(text: text, kind: 1, start: s.seconds, end: 0)
            }
        }
        var byUID: [Key: String] = [:]
        var byTitle: [Key: (calendar: String, uid: String?)] = [:]
        var out: [CalendarEvent] = []
        out.reserveCapacity(events.count)
        for e in events {
            if let u = e.uid, let cal = byUID[key(e, u)], cal != e.calendar { continue }
            let t = key(e, e.title)
            // The same title and start on another calendar, unless both have UIDs and they differ.
            if let seen = byTitle[t], seen.calendar != e.calendar, e.uid == nil || seen.uid == nil || seen.uid == e.uid { continue }
            if let u = e.uid, byUID[key(e, u)] == nil { byUID[key(e, u)] = e.calendar }
            if byTitle[t] == nil { byTitle[t] = (e.calendar, e.uid) }
            out.append(e)
        }
        return out
    }

    /// A connection's file, read; an unreadable one as a warning naming its line.
    package func readCalendar(_ c: CalendarConnection) -> Result<CalendarEvents, Diagnostic> {
        // A relative path (a store made by hand) is found as `import`'s files are.
        let path = c.path.hasPrefix("/") ? c.path : filePath(c.path)
        if pathPolicy.refusal(path) != nil {
            let e = ImportError(.unreadable(name: c.file, .system("outside the folders this transcript may use")), line: 0)
            return .failure(Catalog.calendarUnreadable(e, name: c.name, path: c.file))
        }
        do throws(ImportError) {
            return .success(try CalendarEvents.read(path: path, zone: zone))
        } catch {
            return .failure(Catalog.calendarUnreadable(Session.named(error, c.file), name: c.name, path: c.file))
        }
    }

    /// A file's error naming the file as the statement wrote it, not where it was looked for.
    package static func named(_ e: ImportError, _ written: String) -> ImportError {
        guard case .unreadable(_, let why) = e.problem else { return e }
        var x = e
        x.problem = .unreadable(name: written, why)
        return x
    }

    // MARK: the statement

    /// The request of a `calendar …` statement, or nil for another statement.
    package func resolveCalendar(_ s: Statement) -> Result<CalendarRequest, Diagnostic>? {
        guard case .calendar(let c) = s.kind else { return nil }
        switch c {
        case .list: return .success(.list)
        case .hide(let n): return .success(.show(n.text, shown: false))
        case .show(let n): return .success(.show(n.text, shown: true))
        case .disconnect(let n): return .success(.disconnect(n.text))
        case .connect(let name, let f):
            // R-CAL-1: a relative file is found as import's are; the file must read now.
            let path = filePath(f.text)
            if let r = pathPolicy.refusal(path) {
                return .failure(Catalog.pathOutsideAllowed(r, range: f.range, file: s.source.file, written: f.text))
            }
            if store.calendars.contains(where: { $0.name.lowercased() == name.text.lowercased() }) {
                return .failure(Catalog.calendarExists(name.text, range: name.range, file: s.source.file))
            }
            do throws(ImportError) {
                let read = try CalendarEvents.read(path: path, zone: zone)
                let conn = CalendarConnection(name: name.text, file: f.text, path: CalendarEvents.absolute(path))
                return .success(.connect(conn, events: read.count))
            } catch {
                return .failure(Catalog.calendarUnreadable(Session.named(error, f.text), name: nil, path: f.text, range: f.range, file: s.source.file))
            }
        }
    }

    /// One engine call for a `calendar …` request.
    package func act(_ r: CalendarRequest) throws(DomainError) -> CalendarOutcome {
        switch r {
        case .connect(let c, let n): return .connected(try engine.connectCalendar(c), events: n)
        case .list: return .listed(store.calendars.map { c in (c, readCalendar(c).map(\.count)) })
        case .show(let name, let shown):
            let r = try engine.showCalendar(name, shown: shown)
            return .shown(r.calendar, changed: r.changed)
        case .disconnect(let name): return .disconnected(try engine.disconnectCalendar(name))
        }
    }

    package func calendarJSON(_ c: CalendarConnection) -> JSONObject {
        JSONObject([("name", .string(c.name)), ("file", .string(c.file)), ("hidden", .bool(c.hidden))])
    }

    /// The output of a `calendar …` statement.
    package func render(_ o: CalendarOutcome) -> CommandOutput {
        func events(_ n: Int) -> String { n == 1 ? "1 event" : "\(n) events" }
        switch o {
        case .connected(let c, let n):
            var j = calendarJSON(c)
            j["events"] = .number(JSONNumber(n))
            return out(["Connected calendar \(c.name) · \(c.file) · \(events(n))"], json: .object(JSONObject([("calendar", .object(j))])), changed: true)
        case .listed(let list):
            guard !list.isEmpty else {
                return out(["No connected calendars"], json: .object(JSONObject([("calendars", .array([]))])))
            }
            let wn = list.map { $0.0.name.count }.max() ?? 0
            let wf = list.map { $0.0.file.count }.max() ?? 0
            var lines: [String] = []
            var json: [JSONValue] = []
            for (c, r) in list {
                var j = calendarJSON(c)
                let what: String
                switch r {
                case .success(let n):
                    what = events(n)
                    j["events"] = .number(JSONNumber(n))
                    j["problem"] = .null
                case .failure(let d):
                    what = "\(d.code): " + d.message
                    j["events"] = .null
                    j["problem"] = .object(JSONObject([("code", .string(d.code.rawValue)), ("message", .string(d.message))]))
                }
                lines.append(c.name.padding(wn) + "  " + c.file.padding(wf) + "  " + (c.hidden ? "hidden" : "shown ") + "  " + what)
                json.append(.object(j))
            }
            return out(lines, json: .object(JSONObject([("calendars", .array(json))])))
        case .shown(let c, let changed):
            let word = c.hidden ? "hidden" : "shown"
            guard changed else { return out(["Calendar \(c.name) is \(word) already"], json: .object(JSONObject([("calendar", .object(calendarJSON(c)))]))) }
            return out(["\(c.hidden ? "Hid" : "Showed") calendar \(c.name)"], json: .object(JSONObject([("calendar", .object(calendarJSON(c)))])), changed: true)
        case .disconnected(let c):
            return out(["Disconnected calendar \(c.name) · \(c.file)"], json: .object(JSONObject([("calendar", .object(calendarJSON(c)))])), changed: true)
        }
    }

    /// The diagnostic of a `calendar …` statement's engine error, at the name it is about.
    package func calendarError(_ e: DomainError, _ s: Statement) -> Diagnostic {
        guard case .calendar(let c) = s.kind else { return diagnostic(e, s, at: s.keywordRange) }
        switch c {
        case .connect(let n, _), .hide(let n), .show(let n), .disconnect(let n): return diagnostic(e, s, at: n.range)
        case .list: return diagnostic(e, s, at: s.keywordRange)
        }
    }
}
