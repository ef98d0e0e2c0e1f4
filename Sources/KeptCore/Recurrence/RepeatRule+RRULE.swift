// RFC 5545 RRULE out and in. An exported rule gives the same dates in a strict engine: a
// month-end day becomes BYMONTHDAY=28,…,d;BYSETPOS=-1, since a plain BYMONTHDAY=31 skips short
// months. A rule RRULE cannot say (`after completion`) is refused, not exported as another.

/// Why a rule cannot be written as an RRULE, or an RRULE not read.
public struct RRULEError: Error, Sendable, Equatable {
    public var message: String
}

extension RepeatRule {
    static let codes: [Weekday: String] = [.monday: "MO", .tuesday: "TU", .wednesday: "WE", .thursday: "TH",
                                           .friday: "FR", .saturday: "SA", .sunday: "SU"]

    /// BYMONTHDAY (and BYSETPOS) for a day that may not exist in every month.
    static func monthDayParts(_ d: Int, maxInMonth: Int = 28, skip: Bool = false) -> [String] {
        if d <= maxInMonth || skip { return ["BYMONTHDAY=\(d)"] }
        return ["BYMONTHDAY=" + (28...d).map(String.init).joined(separator: ","), "BYSETPOS=-1"]
    }

    /// The RRULE for this rule, anchored at `anchor` (its implicit day, weekday and month).
    public func rrule(anchor: CivilDate, weekStart: Weekday = .monday) -> Result<String, RRULEError> {
        guard !afterCompletion else {
            return .failure(RRULEError(message: "'after completion' counts from the day a task is done, which an RRULE cannot say"))
        }
        var parts = ["FREQ=" + frequency.rawValue.uppercased()]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        switch frequency {
        case .daily:
            break
        case .weekly:
            let ds = days(anchor: anchor)
            parts.append("BYDAY=" + ds.compactMap { RepeatRule.codes[$0] }.joined(separator: ","))
            if weekStart != .monday, interval > 1, let c = RepeatRule.codes[weekStart] { parts.append("WKST=" + c) }
        case .monthly:
            switch monthDay ?? .day(anchor.day) {
            case .day(let d): parts += RepeatRule.monthDayParts(d, skip: skipMissing)
            case .last: parts.append("BYMONTHDAY=-1")
            case .weekday(let n, let wd): parts.append("BYDAY=\(n)\(RepeatRule.codes[wd] ?? "")")
            }
        case .yearly:
            let m = month ?? anchor.month
            parts.append("BYMONTH=\(m)")
            switch monthDay ?? .day(anchor.day) {
            case .day(let d): parts += RepeatRule.monthDayParts(d, maxInMonth: m == 2 ? 28 : DatePhrase.maxDay(m), skip: skipMissing)
            case .last: parts.append("BYMONTHDAY=-1")
            case .weekday(let n, let wd): parts.append("BYDAY=\(n)\(RepeatRule.codes[wd] ?? "")")
            }
        }
        if let t = time { parts += ["BYHOUR=\(t.hour)", "BYMINUTE=\(t.minute)"] }
        if let c = count { parts.append("COUNT=\(c)") }
        if let u = until {
            let digits = u.iso.replacingOccurrences(of: "-", with: "")
            parts.append("UNTIL=" + digits)
        }
        return .success(parts.joined(separator: ";"))
    }

    /// Reads an RRULE (`FREQ=MONTHLY;BYDAY=-1FR`), with or without an `RRULE:` prefix.
    public static func fromRRULE(_ text: String) -> Result<RepeatRule, RRULEError> {
        var t = text
        if t.uppercased().hasPrefix("RRULE:") { t = String(t.dropFirst(6)) }
        var fields: [String: String] = [:]
        for part in t.split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { return .failure(RRULEError(message: "'\(part)' is not NAME=VALUE")) }
            fields[kv[0].uppercased()] = kv[1].uppercased()
        }
        guard let f = fields.removeValue(forKey: "FREQ"), let freq = Frequency(rawValue: f.lowercased()) else {
            return .failure(RRULEError(message: "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY"))
        }
        var r = RepeatRule(frequency: freq)
        if let i = fields.removeValue(forKey: "INTERVAL") {
            guard let n = Int(i), n >= 1, n <= 1000 else { return .failure(RRULEError(message: "INTERVAL must be from 1 to 1000")) }
            r.interval = n
        }
        let byCode = Dictionary(uniqueKeysWithValues: codes.map { ($1, $0) })
        if let bd = fields.removeValue(forKey: "BYDAY") {
            for item in bd.split(separator: ",") {
                let code = String(item.suffix(2))
                guard let wd = byCode[code] else { return .failure(RRULEError(message: "'\(item)' is not a BYDAY value")) }
                let ord = item.dropLast(2)
                if ord.isEmpty {
                    r.weekdays.append(wd)
                } else {
                    guard let n = Int(ord), n == -1 || (1...5).contains(n), freq == .monthly || freq == .yearly, r.monthDay == nil else {
                        return .failure(RRULEError(message: "'\(item)' is not supported: an ordinal weekday is one, from 1 to 5 or -1, in a monthly or yearly rule"))
                    }
                    r.monthDay = .weekday(n, wd)
                }
            }
            r.weekdays = Array(Set(r.weekdays)).sorted()
            if !r.weekdays.isEmpty, freq != .weekly {
                return .failure(RRULEError(message: "BYDAY without an ordinal is supported in weekly rules only"))
            }
        }
        if let m = fields.removeValue(forKey: "BYMONTH") {
            guard freq == .yearly, let n = Int(m), (1...12).contains(n) else { return .failure(RRULEError(message: "BYMONTH is one month, in a yearly rule")) }
            r.month = n
        }
        let setpos = fields.removeValue(forKey: "BYSETPOS")
        if let md = fields.removeValue(forKey: "BYMONTHDAY") {
            let days = md.split(separator: ",").compactMap { Int($0) }
            guard freq == .monthly || freq == .yearly else { return .failure(RRULEError(message: "BYMONTHDAY is for monthly and yearly rules")) }
            if days == [-1] {
                r.monthDay = .last
            } else if days.count == 1, let d = days.first, (1...31).contains(d), setpos == nil {
                guard d <= (r.month.map(DatePhrase.maxDay) ?? 31) else {
                    return .failure(RRULEError(message: "BYMONTHDAY=\(d) is not a day of that month"))
                }
                r.monthDay = .day(d)
                // RFC 5545: a month without that day has no occurrence.
                if d > (r.month.map { $0 == 2 ? 28 : DatePhrase.maxDay($0) } ?? 28) { r.skipMissing = true }
            } else if let last = days.last, (28...31).contains(last), days == Array(28...last), setpos == "-1" {
                // The range is checked first: BYMONTHDAY=28,999999999999 must not make a list that long.
                r.monthDay = .day(last)
            } else {
                return .failure(RRULEError(message: "BYMONTHDAY=\(md) is not a form Kept's rules can say"))
            }
        } else if setpos != nil {
            return .failure(RRULEError(message: "BYSETPOS is supported only with BYMONTHDAY=28,...,d"))
        } else if (freq == .monthly || freq == .yearly), r.monthDay == nil {
            // RFC 5545: the day comes from DTSTART, and a month (or year) without it is skipped.
            r.skipMissing = true
        }
        // RFC 5545: a yearly day without BYMONTH is that day in every month, or the nth weekday
        // of the year; neither is a rule Kept says, so it is refused rather than misread.
        if freq == .yearly, r.monthDay != nil, r.month == nil {
            return .failure(RRULEError(message: "a yearly BYDAY or BYMONTHDAY without BYMONTH is not supported (add BYMONTH)"))
        }
        if let c = fields.removeValue(forKey: "COUNT") {
            guard let n = Int(c), n >= 1 else { return .failure(RRULEError(message: "COUNT must be a whole number from 1")) }
            r.count = n
        }
        if let u = fields.removeValue(forKey: "UNTIL") {
            let digits = Array(u.prefix(8).utf8)
            guard digits.count == 8, let y = Int(String(decoding: digits[0..<4], as: UTF8.self)),
                  let m = Int(String(decoding: digits[4..<6], as: UTF8.self)), let d = Int(String(decoding: digits[6..<8], as: UTF8.self)),
                  let date = CivilDate(year: y, month: m, day: d) else {
                return .failure(RRULEError(message: "UNTIL must be a date like 20261231"))
            }
            r.until = date
        }
        if let h = fields.removeValue(forKey: "BYHOUR") {
            let mi = fields.removeValue(forKey: "BYMINUTE") ?? "0"
            guard let hh = Int(h), let mm = Int(mi), let t = WallTime(hour: hh, minute: mm) else {
                return .failure(RRULEError(message: "BYHOUR and BYMINUTE must be one time of day"))
            }
            r.time = t
        }
        if fields.removeValue(forKey: "WKST") != nil, freq != .weekly {
            // WKST matters only to weekly rules with an interval; accepted and ignored elsewhere.
        }
        if let unknown = fields.keys.sorted().first {
            return .failure(RRULEError(message: "\(unknown) is not supported by Kept's rules"))
        }
        return .success(r)
    }
}
