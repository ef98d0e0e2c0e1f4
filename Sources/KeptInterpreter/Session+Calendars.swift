// The events of the connected calendars (docs/AGENDA.md), for `agenda` and `plan openings`.

import KeptRules
import KeptDomain
import KeptSyntax

extension Session {
    /// The events of the store's connected calendars that are not hidden and that meet any
    /// of the days `first` through `last` (days in the account zone), with duplicates across
    /// calendars merged when the setting asks for it, in start order. A calendar file that
    /// cannot be read gives a diagnostic in `problems` (naming its line), and the other
    /// calendars' events are still returned.
    ///
    /// The seam the agenda is built on; reading the connections fills it in.
    package func connectedEvents(first: CivilDate, last: CivilDate) -> (events: [CalendarEvent], problems: [Diagnostic]) {
        ([], [])
    }
}
