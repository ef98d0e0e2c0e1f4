// A connected calendar (docs/AGENDA.md, "Connected calendars"): a name for an iCalendar file
// the agenda reads its events from, shown or hidden. The store keeps the connection, never the
// events; connections stay on the device (a path names a file of this machine) and do not sync.

/// A connection to a calendar file.
public struct CalendarConnection: Sendable, Equatable {
    /// The name the user gave it, unique in a store without regard to case.
    public var name: String
    /// The file as the statement wrote it, for what Kept prints.
    public var file: String
    /// Where the file is read from: `file` resolved when it was connected.
    public var path: String
    /// Hidden: the agenda leaves its events out (R-CAL-3).
    public var hidden = false

    public init(name: String, file: String, path: String, hidden: Bool = false) {
        self.name = name
        self.file = file
        self.path = path
        self.hidden = hidden
    }
}
