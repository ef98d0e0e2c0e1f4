// An IANA time zone: turns instants into wall-clock date-times and back (R-DAY-1).
// Offsets come from Foundation's TimeZone; the gap and overlap rules of docs/CAPTURE.md are applied here.

import Foundation

/// An IANA time zone such as "Europe/Berlin", backed by Foundation's `TimeZone`.
///
/// Two zones are equal when their identifiers are; copies share one offset cache.
public struct Zone: Sendable, Hashable, CustomStringConvertible {
    /// The name the zone was created with, e.g. "Europe/Berlin" or "UTC".
    public let identifier: String
    package let cache: ZoneOffsetCache

    /// The zone named `identifier`, or nil when the name is unknown. "UTC" works.
    public init?(identifier: String) {
        guard let cache = ZoneOffsetCache.shared(for: identifier) else { return nil }
        self.identifier = identifier
        self.cache = cache
    }

    /// A zone from a Foundation time zone, named by its identifier.
    public init(_ timeZone: TimeZone) {
        self.identifier = timeZone.identifier
        self.cache = ZoneOffsetCache.shared(for: timeZone.identifier) ?? ZoneOffsetCache(timeZone: timeZone)
    }

    private init(identifier: String, cache: ZoneOffsetCache) {
        self.identifier = identifier
        self.cache = cache
    }

    /// Coordinated Universal Time, named "UTC".
    public static let utc = Zone(
        identifier: "UTC",
        cache: ZoneOffsetCache.shared(for: "UTC") ?? ZoneOffsetCache(timeZone: TimeZone(secondsFromGMT: 0) ?? .current)
    )

    /// The machine's zone; only for a session that has not fixed one (R-DAY-1). Tests never use it.
    public static var system: Zone { Zone(TimeZone.current) }

    /// The underlying Foundation zone.
    public var timeZone: TimeZone { cache.timeZone }

    /// The identifier.
    public var description: String { identifier }

    /// Seconds east of UTC at `instant` (+7200 for Berlin in summer).
    public func offset(at instant: Instant) -> Int {
        cache.offset(atSeconds: instant.clampedSeconds)
    }

    /// The wall-clock date and time at `instant`, seconds dropped.
    public func local(at instant: Instant) -> CivilDateTime {
        let (dayNumber, secondOfDay) = localParts(at: instant)
        return CivilDateTime(date: CivilDate(dayNumber: dayNumber), time: WallTime(unchecked: secondOfDay / 60))
    }

    /// The local day number and second of the day at `instant`, for printers that keep the seconds.
    package func localParts(at instant: Instant) -> (dayNumber: Int, secondOfDay: Int) {
        let seconds = instant.clampedSeconds
        let local = seconds + cache.offset(atSeconds: seconds)
        let dayNumber = CalendarMath.floorDivide(local, CalendarMath.secondsPerDay)
        return (dayNumber, local - dayNumber * CalendarMath.secondsPerDay)
    }

    /// The instant a wall-clock time means here, with how it was found: exact, moved past a gap, or the first of two.
    public func resolve(_ local: CivilDateTime) -> ZoneResolution {
        let wall = local.secondsAsUTC
        // Real zones never change offset twice within two days, so the offsets a day either side
        // are the only candidates; each is checked against the zone rather than trusted.
        let before = cache.offset(atSeconds: wall - CalendarMath.secondsPerDay)
        let after = cache.offset(atSeconds: wall + CalendarMath.secondsPerDay)
        let larger = max(before, after)
        let smaller = min(before, after)
        let largerFits = cache.offset(atSeconds: wall - larger) == larger
        let smallerFits = before != after && cache.offset(atSeconds: wall - smaller) == smaller

        switch (largerFits, smallerFits) {
        case (true, true):
            // The wall time happens twice: take the first, which is the one under the larger offset.
            return ZoneResolution(instant: instant(wall - larger), wall: local, kind: .repeated)
        case (true, false):
            return ZoneResolution(instant: instant(wall - larger), wall: local, kind: .exact)
        case (false, true):
            return ZoneResolution(instant: instant(wall - smaller), wall: local, kind: .exact)
        case (false, false):
            let moved: Instant
            if before < after {
                // A gap: reading the wall time with the offset from before the gap lands just as far
                // past the transition as the time was past its start, i.e. it moves forward by the gap.
                moved = instant(wall - before)
            } else {
                // No candidate fits and the clock did not jump forward: data no real zone has.
                // Settle on the offset that the first guess leads to rather than fail.
                moved = instant(wall - cache.offset(atSeconds: wall - cache.offset(atSeconds: wall)))
            }
            let shown = self.local(at: moved)
            if shown == local {
                return ZoneResolution(instant: moved, wall: local, kind: .exact)
            }
            return ZoneResolution(instant: moved, wall: shown, kind: .skipped(minutes: local.minutes(until: shown)))
        }
    }

    /// The instant a wall-clock time means here, following `resolve`.
    public func instant(for local: CivilDateTime) -> Instant {
        resolve(local).instant
    }

    private func instant(_ seconds: Int) -> Instant {
        Instant(seconds: Int64(seconds))
    }

    /// Equal when the identifiers are.
    public static func == (lhs: Zone, rhs: Zone) -> Bool {
        lhs.identifier == rhs.identifier
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
    }
}
