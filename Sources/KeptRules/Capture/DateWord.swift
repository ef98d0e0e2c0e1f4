// The words of date phrases, classified from their bytes. A phrase is parsed over these
// classes, so the grammar never looks at text and capture stays fast (no String per word).

/// A time unit of `in 3 days`, `2 weeks from now`, `in 90 minutes`.
public enum TimeUnit: Sendable, Equatable {
    case minute, hour, day, week, month, year

    /// True for the units that give a date (days and longer), false for those that give a time.
    package var isCalendar: Bool { self != .minute && self != .hour }
}

/// A named time of day; its hour is a setting (docs/CAPTURE.md).
public enum NamedTime: String, Sendable, Equatable, CaseIterable {
    case morning, afternoon, evening, tonight
}

/// The keywords of date phrases.
public enum DateKeyword: Sendable, Equatable {
    case this, next, `in`, at, on, the, of, end, a, from, now, eow, eom, eoy, weekend, week, month, year
}

/// What one word of a date phrase is.
public enum DateWord: Sendable, Equatable {
    /// `yesterday` (-1), `today` (0), `tomorrow` (1).
    case relativeDay(Int)
    case weekday(Weekday)
    case month(Int)
    /// `17th`, `1st`, `22nd`.
    case ordinal(Int)
    /// Digits only; `digits` tells a year (4) from a day.
    case number(Int, digits: Int)
    case isoDate(CivilDate)
    case isoDateTime(CivilDateTime)
    /// `5/17` or `5/17/2027`: the two parts as written; the `date-order` setting reads them.
    case slash(Int, Int, year: Int?)
    /// `28.11.` or `28.11.2026`: always day then month.
    case dotted(day: Int, month: Int, year: Int?)
    case time(WallTime)
    /// `am`/`pm` standing alone after a number (`3 pm`).
    case meridiem(pm: Bool)
    case named(NamedTime)
    /// `90m`, `2h`, `3d`, `2w`, `1mo`, `1y`.
    case duration(Int, TimeUnit)
    case unit(TimeUnit)
    case keyword(DateKeyword)
    /// `2026-02-30`, `25:00`, `13pm`: the shape of a date or time with impossible values.
    case impossible
    /// Digits past `Limits.largestNumber` (`9999999999`, `99999999999m`): refused, never wrapped.
    case tooLarge
    /// The shape of a date with a year of five digits or more (`1.1.99999`, `12345-01-01`).
    case outOfCalendar
    case other
}

/// Up to 16 lowercased bytes of a word packed into two integers: an exact dictionary key.
package struct WordKey: Hashable {
    package var a: UInt64
    package var b: UInt64

    package init?(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) {
        guard to - from <= 16, to > from else { return nil }
        var a: UInt64 = 0
        var b: UInt64 = 0
        var k = 0
        var i = from
        while i < to {
            var c = bytes[i]
            if c >= 0x41, c <= 0x5A { c |= 0x20 }
            if k < 8 { a |= UInt64(c) << (8 * UInt64(k)) } else { b |= UInt64(c) << (8 * UInt64(k - 8)) }
            k += 1
            i += 1
        }
        self.a = a
        self.b = b
    }

    package init?(_ s: String) {
        let u = Array(s.utf8)
        guard let k = u.withUnsafeBufferPointer({ WordKey($0, from: 0, to: u.count) }) else { return nil }
        self = k
    }
}

/// Classifies words.
public enum DateVocabulary {
    /// Every spelled date word with its class, in the order completion offers them.
    public static let words: [(String, DateWord)] = {
        var w: [(String, DateWord)] = [
            ("today", .relativeDay(0)), ("tomorrow", .relativeDay(1)), ("yesterday", .relativeDay(-1)),
            ("tonight", .named(.tonight)), ("morning", .named(.morning)), ("afternoon", .named(.afternoon)),
            ("evening", .named(.evening)), ("noon", .time(.noon)), ("midnight", .time(.midnight)),
            ("next", .keyword(.next)), ("this", .keyword(.this)), ("in", .keyword(.in)), ("at", .keyword(.at)),
            ("on", .keyword(.on)), ("the", .keyword(.the)), ("of", .keyword(.of)), ("end", .keyword(.end)),
            ("a", .keyword(.a)), ("an", .keyword(.a)), ("from", .keyword(.from)), ("now", .keyword(.now)),
            ("eow", .keyword(.eow)), ("eom", .keyword(.eom)), ("eoy", .keyword(.eoy)), ("weekend", .keyword(.weekend)),
            ("week", .keyword(.week)), ("month", .keyword(.month)), ("year", .keyword(.year)),
            ("am", .meridiem(pm: false)), ("pm", .meridiem(pm: true)),
        ]
        for d in Weekday.allCases { w.append((d.name.lowercased(), .weekday(d))) }
        let weekdayAbbreviations: [(String, Weekday)] = [
            ("mon", .monday), ("tue", .tuesday), ("tues", .tuesday), ("wed", .wednesday), ("weds", .wednesday),
            ("thu", .thursday), ("thur", .thursday), ("thurs", .thursday), ("fri", .friday), ("sat", .saturday), ("sun", .sunday),
        ]
        for (s, d) in weekdayAbbreviations { w.append((s, .weekday(d))) }
        let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                      "october", "november", "december"]
        for (k, m) in months.enumerated() {
            w.append((m, .month(k + 1)))
            if m.count > 3 { w.append((String(m.prefix(3)), .month(k + 1))) }
        }
        w.append(("sept", .month(9)))
        let units: [(String, TimeUnit)] = [
            ("minute", .minute), ("minutes", .minute), ("min", .minute), ("mins", .minute),
            ("hour", .hour), ("hours", .hour), ("hr", .hour), ("hrs", .hour),
            ("day", .day), ("days", .day), ("weeks", .week), ("months", .month), ("years", .year),
        ]
        for (s, u) in units { w.append((s, .unit(u))) }
        return w
    }()

    /// An open-addressing table over the packed words: a multiply-shift hash and linear
    /// probing, cheaper than a Dictionary's keyed hash on this hot path.
    package struct Table {
        package static let bits = 9
        package var keys: [WordKey?]
        package var values: [DateWord]

        package init(_ entries: [(String, DateWord)]) {
            keys = Array(repeating: nil, count: 1 << Table.bits)
            values = Array(repeating: .other, count: 1 << Table.bits)
            for (s, w) in entries {
                guard let k = WordKey(s) else { continue }
                var i = Table.slot(k)
                while let existing = keys[i], existing != k { i = (i + 1) & ((1 << Table.bits) - 1) }
                keys[i] = k
                values[i] = w
            }
        }

        @inline(__always)
        package static func slot(_ k: WordKey) -> Int {
            Int(truncatingIfNeeded: ((k.a ^ (k.b &* 0x632B_E59B_D9B4_E019)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
        }

        @inline(__always)
        package func lookup(_ k: WordKey) -> DateWord? {
            var i = Table.slot(k)
            while let existing = keys[i] {
                if existing == k { return values[i] }
                i = (i + 1) & ((1 << Table.bits) - 1)
            }
            return nil
        }
    }

    package static let table = Table(words)

    /// The spelled words a misspelling is compared with.
    public static let spelled: [String] = words.map(\.0).filter { $0.count > 2 }

    /// The class of the bytes `from..<to`; a trailing comma is not part of the word.
    package static func classify(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> DateWord {
        var end = to
        if end - from > 1, b[end - 1] == UInt8(ascii: ",") { end -= 1 }
        guard end > from else { return .other }
        let c0 = b[from]
        if c0 >= 0x30, c0 <= 0x39 { return numeric(b, from: from, to: end) }
        if let k = WordKey(b, from: from, to: end), let w = table.lookup(k) { return w }
        return .other
    }

    package static func digit(_ c: UInt8) -> Int? { c >= 0x30 && c <= 0x39 ? Int(c - 0x30) : nil }

    /// Words that start with a digit: numbers, ordinals, dates, times, durations.
    package static func numeric(_ b: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> DateWord {
        var i = from
        var n = 0
        var digits = 0
        while i < to, let d = digit(b[i]) {
            if digits < 9 { n = n * 10 + d }
            digits += 1
            i += 1
        }
        // Nine digits at most are read (Limits.largestNumber); more are too large, whatever follows.
        if i == to { return digits <= 9 ? .number(n, digits: digits) : .tooLarge }
        let rest = to - i
        func lower(_ k: Int) -> UInt8 { let c = b[i + k]; return c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        let c = lower(0)
        // 12345-06-15: an ISO date past the calendar's last year.
        if c == UInt8(ascii: "-"), digits > 4, rest == 6, b[i + 3] == UInt8(ascii: "-"),
           digit(b[i + 1]) != nil, digit(b[i + 2]) != nil, digit(b[i + 4]) != nil, digit(b[i + 5]) != nil {
            return .outOfCalendar
        }
        // 2026-06-15 and 2026-06-15T15:00
        if c == UInt8(ascii: "-"), digits == 4 {
            let len = to - from
            guard len >= 10, b[from + 7] == UInt8(ascii: "-") else { return .other }
            guard let m1 = digit(b[from + 5]), let m2 = digit(b[from + 6]), let d1 = digit(b[from + 8]), let d2 = digit(b[from + 9]) else { return .other }
            guard let date = CivilDate(year: n, month: m1 * 10 + m2, day: d1 * 10 + d2) else { return .impossible }
            if len == 10 { return .isoDate(date) }
            guard len == 16, b[from + 10] == UInt8(ascii: "T") || b[from + 10] == UInt8(ascii: "t"),
                  b[from + 13] == UInt8(ascii: ":"),
                  let h1 = digit(b[from + 11]), let h2 = digit(b[from + 12]), let n1 = digit(b[from + 14]), let n2 = digit(b[from + 15])
            else { return .other }
            guard let t = WallTime(hour: h1 * 10 + h2, minute: n1 * 10 + n2) else { return .impossible }
            return .isoDateTime(CivilDateTime(date: date, time: t))
        }
        // 15:00, 3:30pm
        if c == UInt8(ascii: ":"), digits <= 2, rest >= 3 {
            guard let m1 = digit(b[i + 1]), let m2 = digit(b[i + 2]) else { return .other }
            let minute = m1 * 10 + m2
            if rest == 3 {
                guard let t = WallTime(hour: n, minute: minute) else { return .impossible }
                return .time(t)
            }
            if rest == 5, lower(4) == UInt8(ascii: "m"), lower(3) == UInt8(ascii: "a") || lower(3) == UInt8(ascii: "p") {
                return meridiemTime(n, minute, pm: lower(3) == UInt8(ascii: "p"))
            }
            return .other
        }
        // 3pm, 11am
        if rest == 2, lower(1) == UInt8(ascii: "m"), c == UInt8(ascii: "a") || c == UInt8(ascii: "p"), digits <= 2 {
            return meridiemTime(n, 0, pm: c == UInt8(ascii: "p"))
        }
        // 17th, 1st, 2nd, 3rd
        if rest == 2, digits <= 2 {
            let c1 = lower(1)
            let suffix = (c, c1)
            let ok = suffix == (UInt8(ascii: "s"), UInt8(ascii: "t")) || suffix == (UInt8(ascii: "n"), UInt8(ascii: "d"))
                || suffix == (UInt8(ascii: "r"), UInt8(ascii: "d")) || suffix == (UInt8(ascii: "t"), UInt8(ascii: "h"))
            if ok {
                guard n >= 1, n <= 31 else { return .impossible }
                return .ordinal(n)
            }
        }
        // 90m, 2h, 3d, 2w, 1mo, 1y
        if digits > 9 {
            switch (rest, c) {
            case (1, UInt8(ascii: "m")), (1, UInt8(ascii: "h")), (1, UInt8(ascii: "d")), (1, UInt8(ascii: "w")), (1, UInt8(ascii: "y")):
                return .tooLarge
            case (2, UInt8(ascii: "m")) where lower(1) == UInt8(ascii: "o"):
                return .tooLarge
            default:
                break
            }
        }
        if digits <= 9 {
            if rest == 1 {
                switch c {
                case UInt8(ascii: "m"): return .duration(n, .minute)
                case UInt8(ascii: "h"): return .duration(n, .hour)
                case UInt8(ascii: "d"): return .duration(n, .day)
                case UInt8(ascii: "w"): return .duration(n, .week)
                case UInt8(ascii: "y"): return .duration(n, .year)
                default: break
                }
            }
            if rest == 2, c == UInt8(ascii: "m"), lower(1) == UInt8(ascii: "o") { return .duration(n, .month) }
        }
        // 5/17, 5/17/2027, 28.11., 28.11.2026
        if c == UInt8(ascii: "/") || c == UInt8(ascii: "."), digits <= 2 {
            let sep = c
            var j = i + 1
            var m = 0
            var md = 0
            // Digits past the second (or the fourth of a year) are counted, not added up.
            while j < to, let d = digit(b[j]) { if md < 2 { m = m * 10 + d }; md += 1; j += 1 }
            guard md >= 1, md <= 2 else { return .other }
            var year: Int? = nil
            if j < to {
                guard b[j] == sep else { return .other }
                j += 1
                var y = 0
                var yd = 0
                while j < to, let d = digit(b[j]) { if yd < 4 { y = y * 10 + d }; yd += 1; j += 1 }
                guard j == to else { return .other }
                if yd > 4 { return .outOfCalendar }
                if yd == 4 { year = y } else if yd == 2 { year = 2000 + y } else if !(yd == 0 && sep == UInt8(ascii: ".")) { return .other }
            } else if sep == UInt8(ascii: ".") {
                // `28.11` without the final dot reads as a decimal number, not a date.
                return .other
            }
            return sep == UInt8(ascii: "/") ? .slash(n, m, year: year) : .dotted(day: n, month: m, year: year)
        }
        return .other
    }

    package static func meridiemTime(_ h: Int, _ m: Int, pm: Bool) -> DateWord {
        guard h >= 1, h <= 12, m < 60 else { return .impossible }
        let hour = pm ? (h == 12 ? 12 : h + 12) : (h == 12 ? 0 : h)
        guard let t = WallTime(hour: hour, minute: m) else { return .impossible }
        return .time(t)
    }
}
