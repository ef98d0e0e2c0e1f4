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

    /// The machine's clock to the millisecond: two devices' edits in one second are ordered by
    /// when they were made.
    public func nowMillis() -> Int64 {
        let ms = (Date().timeIntervalSince1970 * 1000).rounded(.down)
        return Int64(exactly: ms) ?? 0
    }
}
