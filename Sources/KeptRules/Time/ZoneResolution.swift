// What a wall-clock time resolved to in a zone, and whether DST bent it (docs/CAPTURE.md, date phrases).
// `explain date` can say why 02:30 became 03:30 from `kind`.

/// The result of `Zone.resolve`: the instant, the wall time actually used, and how it was found.
public struct ZoneResolution: Sendable, Equatable {
    /// How the wall time related to the zone's clock.
    public enum Kind: Sendable, Equatable {
        /// The wall time exists exactly once.
        case exact
        /// The wall time fell in a DST gap and moved forward by `minutes`, the length of the gap.
        ///
        /// `minutes` is the difference between the asked and the shown wall time, so it matches what
        /// is printed even for historical offsets with seconds (where it can be 0).
        case skipped(minutes: Int)
        /// The wall time exists twice (clocks went back); the first, earlier instant was taken.
        case repeated
    }

    /// The instant chosen.
    public let instant: Instant
    /// The wall time that instant shows; differs from the input only when `kind` is `.skipped`.
    public let wall: CivilDateTime
    /// How it was found.
    public let kind: Kind

    /// A resolution from its parts.
    public init(instant: Instant, wall: CivilDateTime, kind: Kind) {
        self.instant = instant
        self.wall = wall
        self.kind = kind
    }
}
