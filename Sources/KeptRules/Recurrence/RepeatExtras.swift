// A stored repeat's parts besides its text, RRULE and anchor date.

/// The parts of a stored repeat besides its text, RRULE and anchor date, each written only
/// where it says something: `"wkst":"SU"` for a rule whose dates need its week start and no
/// stored RRULE carries it, `"anchor":"2026-06-15T09:30"` where the anchor's time matters,
/// `"exdate"` and `"rdate"` lists of dates or wall times.
package struct RepeatExtras: Equatable {
    package var weekStart: Weekday? = nil
    package var anchorTime: WallTime? = nil
    package var exceptions: [Due] = []
    package var additions: [Due] = []

    package init(weekStart: Weekday? = nil, anchorTime: WallTime? = nil, exceptions: [Due] = [], additions: [Due] = []) {
        self.weekStart = weekStart
        self.anchorTime = anchorTime
        self.exceptions = exceptions
        self.additions = additions
    }

    package var isEmpty: Bool { weekStart == nil && anchorTime == nil && exceptions.isEmpty && additions.isEmpty }

    package static let codes: [String: Weekday] = ["MO": .monday, "TU": .tuesday, "WE": .wednesday, "TH": .thursday,
                                           "FR": .friday, "SA": .saturday, "SU": .sunday]

    package static func weekday(_ b: [UInt8]) -> Weekday? { codes[String(decoding: b, as: UTF8.self)] }

    /// "2026-07-01" or "2026-07-01T09:00".
    package static func due(_ b: [UInt8]) -> Due? {
        if let d = CivilDate.parseISO(b) { return Due(date: d) }
        guard let t = CivilDateTime.parseISO(b) else { return nil }
        return Due(date: t.date, time: t.time)
    }

    package static func text(_ d: Due) -> String { d.date.iso + (d.time.map { "T" + $0.iso } ?? "") }
}
