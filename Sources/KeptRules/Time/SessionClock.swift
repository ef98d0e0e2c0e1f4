// Where a session's now comes from: the injected clock, or a reading a script fixed.

/// Where the session's now comes from (R-DAY-1).
public enum SessionClock: Sendable {
    /// The injected clock (the system clock outside tests).
    case clock(any Clock)
    /// A wall-clock reading fixed by `now 2026-06-15 09:00`: it stays 09:00 when the zone changes.
    case wall(CivilDateTime)
    /// An instant fixed by `now 2026-06-15T07:00:00Z`.
    case instant(Instant)
}
