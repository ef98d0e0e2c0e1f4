// Wall-clock readings compared with an instant, without an instant per reading: the civil minutes
// of a zone whose instant (as Zone.resolve gives it: a skipped time moved forward, a repeated one
// the first) comes before a given instant. Near a DST change that set is not one range: in
// Berlin's spring gap, at 03:15 CEST the walls 02:00..<02:15 (moved to 03:00..<03:15) and
// 03:00..<03:15 are before it, 02:15..<03:00 are not. Filters and the SQLite store compare timed
// dues and reminders, held as civil minutes, against such a set (docs/FILTERS.md, "Instants").

/// A set of civil minutes (day number × 1440 + minute of the day), as sorted disjoint ranges.
public struct MinuteSet: Sendable, Equatable {
    /// Sorted, disjoint, non-empty and not touching; `Int64.min` and `Int64.max` stand for no end.
    public private(set) var ranges: [Range<Int64>]

    public init(_ ranges: [Range<Int64>]) {
        self.ranges = MinuteSet.normalized(ranges)
    }

    public static let empty = MinuteSet([])
    public static let all = MinuteSet([Int64.min..<Int64.max])

    /// Every minute before `m`.
    public static func below(_ m: Int64) -> MinuteSet { MinuteSet([Int64.min..<m]) }

    @inline(__always)
    public func contains(_ m: Int64) -> Bool {
        for r in ranges {
            if m < r.lowerBound { return false }
            if m < r.upperBound { return true }
        }
        return false
    }

    /// The minutes in this set and not in `other`.
    public func subtracting(_ other: MinuteSet) -> MinuteSet {
        var out: [Range<Int64>] = []
        for r in ranges {
            var pieces = [r]
            for o in other.ranges {
                pieces = pieces.flatMap { p -> [Range<Int64>] in
                    guard o.lowerBound < p.upperBound, p.lowerBound < o.upperBound else { return [p] }
                    var left: [Range<Int64>] = []
                    if p.lowerBound < o.lowerBound { left.append(p.lowerBound..<o.lowerBound) }
                    if o.upperBound < p.upperBound { left.append(o.upperBound..<p.upperBound) }
                    return left
                }
            }
            out += pieces
        }
        return MinuteSet(out)
    }

    /// The smallest minute past the set, when it ends (for bounding an index scan).
    public var upperBound: Int64? { ranges.last.map(\.upperBound) }

    package static func normalized(_ rs: [Range<Int64>]) -> [Range<Int64>] {
        let sorted = rs.filter { !$0.isEmpty }.sorted { $0.lowerBound < $1.lowerBound }
        var out: [Range<Int64>] = []
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}

extension Zone {
    /// The civil minute of a wall-clock reading.
    @inline(__always)
    package static func civilMinute(_ w: CivilDateTime) -> Int64 {
        Int64(w.date.dayNumber) * 1440 + Int64(w.time.minuteOfDay)
    }

    /// The instant, in seconds, of the wall-clock reading at civil minute `m` (Zone.resolve).
    package func seconds(atCivilMinute m: Int64) -> Int64 {
        let day = CalendarMath.floorDivide(Int(m), 1440)
        let w = CivilDateTime(date: CivilDate(dayNumber: day), time: WallTime(unchecked: Int(m) - day * 1440))
        return instant(for: w).seconds
    }

    /// The wall-clock minutes whose instant comes before `instant`. A real zone changes its
    /// offset at most once in two days and by less than a day, so readings more than three
    /// days from the instant's own are before it or not by their order alone; within those days
    /// the offset `resolve` uses is found piece by piece (it changes once at each DST change,
    /// where the later offset takes over), and each piece's readings are before the instant up
    /// to its own threshold.
    public func minutes(before instant: Instant) -> MinuteSet {
        let b = instant.seconds
        let x = Zone.civilMinute(local(at: instant))
        let span: Int64 = 3 * 1440
        let lo = x - span, hi = x + span
        // offset(w) = wall seconds − instant seconds, for the reading at civil minute w.
        func offset(_ w: Int64) -> Int64 { w * 60 - seconds(atCivilMinute: w) }
        // The pieces [start, next start) of constant offset, found by stepping six hours (less than any two changes apart) and
        // bisecting each change.
        var pieces: [(start: Int64, offset: Int64)] = [(lo, offset(lo))]
        let step: Int64 = 360
        var w = lo
        while w < hi {
            let n = min(w + step, hi)
            let o = offset(n)
            if o != pieces[pieces.count - 1].offset {
                var a = w, c = n  // offset(a) is the piece's, offset(c) is new
                while c - a > 1 {
                    let m = a + (c - a) / 2
                    if offset(m) == o { c = m } else { a = m }
                }
                pieces.append((c, o))
            }
            w = n
        }
        var ranges: [Range<Int64>] = [Int64.min..<lo]
        for (k, p) in pieces.enumerated() {
            let end = k + 1 < pieces.count ? pieces[k + 1].start : hi
            // w*60 − offset < b  ⟺  w < (b + offset) / 60, rounded up.
            let t = Zone.ceilDiv(b + p.offset, 60)
            let top = min(end, t)
            if p.start < top { ranges.append(p.start..<top) }
        }
        return MinuteSet(ranges)
    }

    package static func ceilDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a > 0) == (b > 0)) ? q + 1 : q
    }
}
