// The injected source of "now" (R-DAY-1): the engine never reads the system clock directly.
// Test mode and scripts that say `now …` use FixedClock; everything else uses SystemClock.

/// A source of the current instant.
///
/// Shadows the standard library's `Clock`: in code that imports KeptCore, `Clock` means this one
/// (the standard one stays reachable as `Swift.Clock`).
public protocol Clock: Sendable {
    /// The current instant.
    func now() -> Instant
}
