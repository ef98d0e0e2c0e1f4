// Not today (R-PLAN-6): how long a hold lasts. Days are account days (R-DAY-2), so with a day
// start of 04:00 a hold made at 01:30 ends at 04:00 the same night.

/// The hold rules of Not today.
public enum Holds {
    /// A second Not today counts when the first was this many days ago or fewer (a rolling
    /// week, not the calendar week: Sunday then Tuesday is a second one).
    public static let window = 6
    /// The hold of a second Not today within the window.
    public static let longHold = 7

    /// The day a task comes back after a Not today on `today`, given the day of its last one:
    /// the next day, or seven days on for a second within a week. The due date is untouched.
    public static func end(today: CivilDate, lastNotToday: CivilDate?) -> CivilDate {
        if let last = lastNotToday, last <= today, last.days(until: today) <= window {
            return today.adding(days: longHold)
        }
        return today.adding(days: 1)
    }

    /// Whether a hold keeps a task out of Top 3 and Quick wins on `today`.
    public static func isHeld(_ until: CivilDate?, today: CivilDate) -> Bool {
        guard let u = until else { return false }
        return u > today
    }
}
