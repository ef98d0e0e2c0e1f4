// The injected source of "now" (R-DAY-1): the engine never reads the system clock directly.
// Test mode and scripts that say `now …` use FixedClock; everything else uses SystemClock.

/// A source of the current instant.
///
/// Shadows the standard library's `Clock`: in code that imports KeptCore, `Clock` means this one
/// (the standard one stays reachable as `Swift.Clock`).
public protocol Clock: Sendable {
    /// The current instant.
    func now() -> Instant
    /// Milliseconds since 1970 (UTC), for sync's clock (docs/SYNC.md, "Clocks"): a clock that
    /// knows only seconds gives the start of its second.
    func nowMillis() -> Int64
}

extension Clock {
    public func nowMillis() -> Int64 {
        let (ms, overflow) = now().seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (ms < 0 ? Int64.min : Int64.max) : ms
    }
}
