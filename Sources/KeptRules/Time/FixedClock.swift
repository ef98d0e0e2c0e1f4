// A frozen clock: `now 2026-06-15 09:00` in a script, test mode, and every test (R-DAY-1).
// Results are reproducible because nothing reads the real time.

/// A clock that always answers the same instant.
public struct FixedClock: Clock {
    /// The instant it answers.
    public let instant: Instant

    /// A clock stopped at `instant`.
    public init(_ instant: Instant) {
        self.instant = instant
    }

    /// Always `instant`.
    public func now() -> Instant {
        instant
    }
}
