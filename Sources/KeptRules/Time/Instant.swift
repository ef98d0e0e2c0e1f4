// A point on the UTC time line, in whole seconds since the Unix epoch.
// Only "now" and "in 90m"-style durations are instant arithmetic; calendar math goes through Zone and CivilDate.

import Foundation

/// A moment in time: whole seconds since 1970-01-01T00:00:00Z.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch, UTC (negative before 1970).
    public let seconds: Int64

    /// 1970-01-01T00:00:00Z.
    public static let epoch = Instant(seconds: 0)

    /// The instant `seconds` seconds after the epoch.
    public init(seconds: Int64) {
        self.seconds = seconds
    }

    /// The instant of a Foundation date, rounded down to the second.
    public init(_ date: Date) {
        let value = date.timeIntervalSince1970.rounded(.down)
        // Int64(exactly:) refuses NaN and out-of-range values instead of trapping.
        if let exact = Int64(exactly: value) {
            self.seconds = exact
        } else {
            self.seconds = value < 0 ? Int64.min : Int64.max
        }
    }

    /// The same moment as a Foundation date.
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The instant `seconds` later (earlier when negative), saturating instead of overflowing.
    public func adding(seconds delta: Int64) -> Instant {
        let (sum, overflow) = seconds.addingReportingOverflow(delta)
        if overflow { return Instant(seconds: delta > 0 ? Int64.max : Int64.min) }
        return Instant(seconds: sum)
    }

    /// The instant `minutes` later: "in 90m" measures elapsed time, not wall-clock fields.
    public func adding(minutes: Int) -> Instant {
        let (delta, overflow) = Int64(minutes).multipliedReportingOverflow(by: 60)
        if overflow { return Instant(seconds: minutes > 0 ? Int64.max : Int64.min) }
        return adding(seconds: delta)
    }

    /// Seconds from this instant to `other`: positive when `other` is later (saturating).
    public func seconds(until other: Instant) -> Int64 {
        let (difference, overflow) = other.seconds.subtractingReportingOverflow(seconds)
        if overflow { return other.seconds > seconds ? Int64.max : Int64.min }
        return difference
    }

    /// The UTC ISO form, "2026-06-15T07:00:00+00:00".
    public var description: String {
        TimeText.isoString(seconds: clampedSeconds, offset: 0)
    }

    /// Orders on the time line.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.seconds < rhs.seconds
    }

    /// The earliest and latest seconds whose local date stays inside CivilDate's years for any real offset.
    ///
    /// Offsets stay under a day, so one day of margin at each end keeps local dates in 0001...9999.
    package static let supportedSeconds: ClosedRange<Int> = {
        let low = CalendarMath.dayNumber(year: 1, month: 1, day: 2) * CalendarMath.secondsPerDay
        let high = CalendarMath.dayNumber(year: 9999, month: 12, day: 31) * CalendarMath.secondsPerDay - 1
        return low...high
    }()

    /// The seconds clamped into `supportedSeconds`, as an Int for the day arithmetic.
    package var clampedSeconds: Int {
        min(max(Int(clamping: seconds), Instant.supportedSeconds.lowerBound), Instant.supportedSeconds.upperBound)
    }
}
