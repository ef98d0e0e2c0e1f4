// The real clock, for sessions that have not frozen time (R-DAY-1).
// Only the front ends should create one; the engine receives a Clock.

import Foundation

/// The machine's clock, to the second.
public struct SystemClock: Clock {
    /// The system clock.
    public init() {}

    /// The current instant, rounded down to the second.
    public func now() -> Instant {
        Instant(Date())
    }
}
