// Date phrases of the simple kinds: `today`, `tomorrow`, `yesterday`, ISO dates and date-times,
// and a time after a date or alone. Pure: the same words at the same now give the same date
// (R-CAP-3). The full phrase table of LANGUAGE.md grows here.

/// What a date phrase resolves against.
public struct DateContext: Sendable {
    /// Now, as a wall-clock reading in the account zone.
    public var now: CivilDateTime
    /// The account's today, after the day start (R-DAY-2).
    public var today: CivilDate
    public var settings: Settings
    /// The account zone, for wall-clock times that a DST change skips.
    public var zone: Zone

    public init(now: CivilDateTime, today: CivilDate, settings: Settings, zone: Zone) {
        self.now = now
        self.today = today
        self.settings = settings
        self.zone = zone
    }
}

/// A resolved phrase: the due it sets and the rule that decided it, for `explain`.
public struct ResolvedDate: Sendable, Equatable {
    public var due: Due
    public var rule: String
}

/// Why a phrase did not resolve.
public struct DatePhraseError: Error, Sendable {
    /// Which word (index into the words given) is at fault.
    public var word: Int
    public var message: String
    public var help: String?
    public var impossible: Bool
}

/// Parses and resolves date phrases.
public enum DatePhrase {
    /// The words a date phrase may start with, for suggestions and completion.
    public static let dayWords = ["today", "tomorrow", "yesterday"]
    public static let timeWords = ["noon", "midnight"]

    /// Resolves the longest phrase at the start of `words`; `used` says how many words it took.
    public static func resolve(_ words: [String], in ctx: DateContext) -> Result<(ResolvedDate, used: Int), DatePhraseError> {
        guard let first = words.first else {
            return .failure(DatePhraseError(word: 0, message: "a date is missing", help: "for example: today, tomorrow 15:00, 2026-06-15", impossible: false))
        }
        let w = first.lowercased()
        var date: CivilDate? = nil
        var rule = ""
        var time: WallTime? = nil
        switch w {
        case "today":
            date = ctx.today
            rule = "today is the account day at now"
        case "tomorrow":
            date = ctx.today.adding(days: 1)
            rule = "tomorrow is the day after the account day"
        case "yesterday":
            date = ctx.today.adding(days: -1)
            rule = "yesterday is the day before the account day"
        default:
            let b = Array(w.utf8)
            if let d = CivilDate.parseISO(b) {
                date = d
                rule = "an ISO date is that day"
            } else if let t = isoDateTime(b) {
                date = t.date
                time = t.time
                rule = "an ISO date-time is that day at that time"
            } else if let t = parseTime(w, ctx) {
                // A time alone: today if still ahead, else tomorrow (R-CAP-3).
                let ahead = t > ctx.now.time || ctx.today < ctx.now.date
                let d = ahead ? ctx.today : ctx.today.adding(days: 1)
                let wall = ctx.zone.resolve(CivilDateTime(date: d, time: t)).wall
                return .success((ResolvedDate(due: Due(date: wall.date, time: wall.time),
                                              rule: ahead ? "a time alone is today while it is still ahead"
                                                          : "a time alone that has passed today is tomorrow"), 1))
            } else if looksLikeISODate(b) {
                return .failure(DatePhraseError(word: 0, message: "'\(first)' is not a date that exists",
                                                help: nil, impossible: true))
            } else {
                return .failure(DatePhraseError(word: 0, message: "'\(first)' is not a date or time",
                                                help: Suggestion.help(w, in: dayWords + timeWords), impossible: false))
            }
        }
        guard let day = date else {
            return .failure(DatePhraseError(word: 0, message: "'\(first)' is not a date or time", help: nil, impossible: false))
        }
        var used = 1
        if time == nil, words.count > used {
            var k = used
            if words[k].lowercased() == "at", words.count > k + 1 { k += 1 }
            if let t = parseTime(words[k].lowercased(), ctx) {
                time = t
                used = k + 1
            }
        }
        if let t = time {
            // A wall-clock time in a DST gap moves forward by the gap (LANGUAGE.md).
            let r = ctx.zone.resolve(CivilDateTime(date: day, time: t))
            if case .skipped(let minutes) = r.kind {
                rule += "; \(t.iso) does not exist that day, so it moves forward \(minutes) minutes to \(r.wall.time.iso)"
                return .success((ResolvedDate(due: Due(date: r.wall.date, time: r.wall.time), rule: rule), used))
            }
        }
        return .success((ResolvedDate(due: Due(date: day, time: time), rule: rule), used))
    }

    /// `2026-06-15T15:00`.
    static func isoDateTime(_ b: [UInt8]) -> CivilDateTime? {
        guard b.count >= 16, b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let d = CivilDate.parseISO(b[0..<10]), let t = WallTime.parseISO(Array(b[11...])) else { return nil }
        return CivilDateTime(date: d, time: t)
    }

    /// True for `dddd-dd-dd`, so `2026-02-30` is reported as impossible rather than unknown.
    static func looksLikeISODate(_ b: [UInt8]) -> Bool {
        guard b.count == 10 else { return false }
        for (k, c) in b.enumerated() {
            if k == 4 || k == 7 { if c != UInt8(ascii: "-") { return false } }
            else if c < UInt8(ascii: "0") || c > UInt8(ascii: "9") { return false }
        }
        return true
    }

    /// `15:00`, `9:30`, `3pm`, `3:30pm`, `noon`, `midnight`.
    public static func parseTime(_ w: String, _ ctx: DateContext? = nil) -> WallTime? {
        switch w {
        case "noon": return .noon
        case "midnight": return .midnight
        default: break
        }
        var b = Array(w.utf8)
        var meridiem: UInt8? = nil
        if b.count >= 3, b[b.count - 1] == UInt8(ascii: "m"),
           b[b.count - 2] == UInt8(ascii: "a") || b[b.count - 2] == UInt8(ascii: "p") {
            meridiem = b[b.count - 2]
            b.removeLast(2)
        }
        var hour = 0
        var minute = 0
        var k = 0
        var digits = 0
        while k < b.count, b[k] >= 0x30, b[k] <= 0x39, digits < 2 {
            hour = hour * 10 + Int(b[k] - 0x30)
            k += 1
            digits += 1
        }
        guard digits > 0 else { return nil }
        if k < b.count {
            guard b[k] == UInt8(ascii: ":"), b.count - k == 3 else { return nil }
            for j in (k + 1)..<b.count {
                guard b[j] >= 0x30, b[j] <= 0x39 else { return nil }
                minute = minute * 10 + Int(b[j] - 0x30)
            }
        } else if meridiem == nil {
            // A bare number is not a time: `3` could be anything.
            return nil
        }
        if let m = meridiem {
            guard hour >= 1, hour <= 12 else { return nil }
            if m == UInt8(ascii: "a") { hour = hour == 12 ? 0 : hour } else { hour = hour == 12 ? 12 : hour + 12 }
        }
        return WallTime(hour: hour, minute: minute)
    }
}
