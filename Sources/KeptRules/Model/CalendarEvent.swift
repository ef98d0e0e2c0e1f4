// One event of a connected calendar, as the agenda shows it (docs/AGENDA.md). Connected
// calendars are read-only: an event is never a task and is never written to the store.

/// An event of a connected calendar, one occurrence of it, already expanded from its series.
public struct CalendarEvent: Sendable, Equatable {
    /// When an event happens.
    public enum When: Sendable, Equatable {
        /// An all-day event on the days `first` through `last` (both included).
        case allDay(first: CivilDate, last: CivilDate)
        /// A timed event from `start` up to `end` (`end >= start`); an overnight event meets
        /// every day its span touches.
        case timed(start: Instant, end: Instant)
    }

    /// The name of the connection it comes from (`calendar connect NAME …`).
    public var calendar: String
    /// The event's UID, when its file gives one.
    public var uid: String?
    /// Its SUMMARY, or an empty string.
    public var title: String
    public var when: When
    /// Its LOCATION, when given.
    public var location: String?

    public init(calendar: String, uid: String?, title: String, when: When, location: String? = nil) {
        self.calendar = calendar
        self.uid = uid
        self.title = title
        self.when = when
        self.location = location
    }
}
