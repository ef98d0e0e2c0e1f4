// Connected calendars (docs/AGENDA.md, "Connected calendars"): the connections are the store's,
// changed through the one change path like every other change (so undo, redo and commit work as
// for a task); the events are read from their files by the session and never stored.

import KeptRules

extension Engine {
    /// The position of the connection with a name, compared without case.
    package func calendarIndex(_ name: String) throws(DomainError) -> Int {
        guard let k = Engine.position(of: name, in: store.calendars.map(\.name)) else {
            throw .noCalendar(name, known: store.calendars.map(\.name))
        }
        return k
    }

    package func commitCalendars(_ summary: String, _ after: [CalendarConnection]) throws(DomainError) {
        let before = store.calendars
        try perform(summary) { step in stage([.calendars(before: before, after: after)], into: &step) }
    }

    /// R-CAL-1: connects a calendar file under a name no other connection has. The caller has
    /// read the file (a connection is only made to a file that reads).
    public func connectCalendar(_ c: CalendarConnection) throws(DomainError) -> CalendarConnection {
        if Engine.position(of: c.name, in: store.calendars.map(\.name)) != nil { throw .calendarExists(c.name) }
        try commitCalendars("calendar connect \(c.name)", store.calendars + [c])
        return c
    }

    /// R-CAL-3: hides or shows a connection's events; `changed` is false when it was so already.
    public func showCalendar(_ name: String, shown: Bool) throws(DomainError) -> (calendar: CalendarConnection, changed: Bool) {
        let k = try calendarIndex(name)
        var after = store.calendars
        guard after[k].hidden == shown else { return (after[k], false) }
        after[k].hidden = !shown
        try commitCalendars("calendar \(shown ? "show" : "hide") \(after[k].name)", after)
        return (after[k], true)
    }

    /// Removes a connection (its file is left as it is).
    public func disconnectCalendar(_ name: String) throws(DomainError) -> CalendarConnection {
        let k = try calendarIndex(name)
        var after = store.calendars
        let gone = after.remove(at: k)
        try commitCalendars("calendar disconnect \(gone.name)", after)
        return gone
    }
}
