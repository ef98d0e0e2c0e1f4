// The grammar of repeat rules (Grammar/kept.ebnf, the repeat_rule productions) over words. It
// decides where an `every …` phrase ends and what rule it says; each parse function quotes
// its production.

/// Why words do not make a repeat rule: which word, and what is wrong with it. The catalog
/// words each reason and gives it its code (Catalog+Rules).
public struct RepeatRuleError: Error, Sendable, Equatable {
    /// What is wrong with the words.
    public enum Reason: Sendable, Equatable {
        /// No rule; `example` when the words are offered one.
        case notARule(example: Bool)
        /// The words do not start with `every`.
        case noEvery
        /// The nth of some days with several times of day.
        case nthWithTimes
        /// A quarter's day counted neither from its start nor its end.
        case quarterDay
        /// An interval outside 1...`Limits.repeatInterval`.
        case intervalRange(refused: Bool)
        /// An interval past `Limits.largestNumber`.
        case intervalTooLarge(String, refused: Bool)
        /// No period where one is needed: right after `every` (a weekday or a period would
        /// do), or after an amount (`every 3 …`, `every other …`).
        case expectedPeriod(afterAmount: Bool)
        case expectedDayOfMonth
        /// The nth of different days in one rule.
        case mixedNth
        /// Days of the month, nth weekdays and the nth of some days together.
        case mixedDayKinds
        case dayOfMonthRange
        case expectedTimeAfterTo
        /// `from 5pm to 9am`.
        case timesBackwards
        /// Times of day that are not every hour given with every minute given.
        case timesNotAGrid([WallTime])
        /// `at` in an hourly or minutely rule.
        case hourlyWithTimes
        case expectedTimeAfterAt
        /// `from` or `until` without a date after it.
        case expectedDateAfter(String)
        /// A relative `from` or `until` with no clock to resolve it against.
        case needsNow
        /// A `from` or `until` date that does not resolve.
        case date(DatePhraseError)
    }

    public var word: Int
    public var reason: Reason
    /// The nearest rules Kept reads, whole, for words that are not one (R-CAP-9):
    /// `every last friday` → `every month on the last friday`. Empty when none is near.
    public var suggestions: [String] = []

    public init(word: Int, _ reason: Reason) {
        self.word = word
        self.reason = reason
    }

    /// Words that are a repeat with a value out of its range (`every 5000 days`) or a number
    /// past the limits: quick add reports them rather than keep the words as title text.
    public var refused: Bool {
        switch reason {
        case .intervalRange(let r), .intervalTooLarge(_, let r): return r
        case .date: return true
        default: return false
        }
    }

    /// Times of day that one rule cannot hold.
    public var timesCannotBeOne: Bool {
        switch reason {
        case .nthWithTimes, .timesNotAGrid: return true
        default: return false
        }
    }
}

/// Parses `every …` phrases.
public struct RepeatRuleParser {
    package let words: [String]
    package let classes: [DateWord]
    package var pos = 0
    package var failure: RepeatRuleError?

    package init(words: [String]) {
        self.words = words.map { w in
            var x = w.lowercased()
            if x.count > 1, x.hasSuffix(",") { x.removeLast() }
            return x
        }
        self.classes = DatePhrase.classify(self.words)
    }

    /// Parses the longest rule at the start of `words` (the first being `every`).
    public static func parse(_ words: [String]) -> Result<(RepeatRule, used: Int), RepeatRuleError> {
        var p = RepeatRuleParser(words: words)
        if let r = p.parseRepeatRule() { return .success((r, p.pos)) }
        return .failure(p.failure ?? RepeatRuleError(word: 0, .notARule(example: true)))
    }

    package var peek: String { pos < words.count ? words[pos] : "" }
    package func word(_ k: Int) -> String { pos + k < words.count ? words[pos + k] : "" }
    package func cls(_ k: Int) -> DateWord { pos + k < classes.count ? classes[pos + k] : .other }

    package mutating func fail(_ reason: RepeatRuleError.Reason) {
        if failure == nil || pos >= (failure?.word ?? 0) { failure = RepeatRuleError(word: pos, reason) }
    }

    /// repeat_rule ::= "every" repeat_body { repeat_modifier } ;
    package mutating func parseRepeatRule() -> RepeatRule? {
        guard peek == "every" else { fail(.noEvery); return nil }
        pos += 1
        guard var rule = parseRepeatBody() else { return nil }
        while true {
            let save = pos
            if !parseRepeatModifier(&rule) { pos = save; break }
        }
        if failure?.timesCannotBeOne == true { return nil }
        // Kept's words: a yearly day without a month is in the anchor's month.
        if rule.frequency == .yearly, rule.hasDayParts, rule.monthMask == 0 { rule.monthFromAnchor = true }
        if !rule.setPositions.isEmpty, rule.hourMask.nonzeroBitCount * rule.minuteMask.nonzeroBitCount > 1 {
            fail(.nthWithTimes)
            return nil
        }
        return rule
    }

    /// repeat_body ::= "day" | "weekday" | "weekend" | "last" "weekday" | weekday_list [ "the" day_list ] | "other" weekday_list | "fortnight" [ "on" period_day ] | [ NUMBER | "other" ] PERIOD [ "on" period_day ] | "quarter" [ "on" period_day ] | [ NUMBER | "other" ] CLOCK_UNIT [ time_range ] ;
    package mutating func parseRepeatBody() -> RepeatRule? {
        let start = pos
        switch peek {
        case "day":
            pos += 1
            return RepeatRule(frequency: .daily)
        case "weekday", "weekdays":
            pos += 1
            var r = RepeatRule(frequency: .weekly)
            r.weekdayMask = RepeatRule.workdayMask
            return r
        case "weekend", "weekends":
            pos += 1
            var r = RepeatRule(frequency: .weekly)
            r.weekdayMask = RepeatRule.weekendMask
            return r
        case "last" where word(1) == "weekday":
            pos += 2
            var r = RepeatRule(frequency: .monthly)
            r.weekdayMask = RepeatRule.workdayMask
            r.setPositions = [-1]
            return r
        case "quarter":
            pos += 1
            var r = RepeatRule(frequency: .monthly, interval: 3)
            guard peek == "on" else { return r }
            let save = pos
            pos += 1
            r.interval = 1
            guard parsePeriodDay(&r) else { pos = save; r.interval = 3; return r }
            let signs = RepeatRuleParser.signs(r)
            guard signs != 0 else {
                fail(.quarterDay)
                return nil
            }
            r.monthMask = signs > 0 ? 0b0_0100_1001_0010 : 0b1_0010_0100_1000
            return r
        case "fortnight":
            // R-CAP-9: a fortnight is two weeks, and says nothing else.
            pos += 1
            var r = RepeatRule(frequency: .weekly, interval: 2)
            if peek == "on" {
                let save = pos
                pos += 1
                if !parsePeriodDay(&r) { pos = save }
            }
            return r
        default:
            break
        }
        if let days = parseWeekdayList() {
            var r = RepeatRule(frequency: .weekly)
            r.weekdays = days
            // `every friday the 13th`: the days of the month that fall on those weekdays.
            if peek == "the" {
                let save = pos
                pos += 1
                var m = RepeatRule(frequency: .monthly)
                m.weekdays = days
                if parseDayList(&m), m.nthWeekdays.isEmpty, m.setPositions.isEmpty, m.monthDayMask | m.monthDayFromEndMask != 0 {
                    return m
                }
                pos = save
            }
            return r
        }
        var n = 1
        // Out of range only before a period word: `every 5000 meters` is no repeat at all.
        let period = ["day", "days", "week", "weeks", "month", "months", "year", "years"].contains(word(1))
        if case .number(let k, _) = cls(0) {
            guard k >= 1, k <= Limits.repeatInterval else {
                fail(.intervalRange(refused: period))
                return nil
            }
            n = k
            pos += 1
        } else if case .tooLarge = cls(0) {
            fail(.intervalTooLarge(peek, refused: period))
            return nil
        } else if peek == "other" {
            n = 2
            pos += 1
            // R-CAP-9: `every other friday` is every two weeks on Friday.
            if let days = parseWeekdayList() {
                var r = RepeatRule(frequency: .weekly, interval: 2)
                r.weekdays = days
                return r
            }
        }
        let amount = pos > start
        if case .unit(let u) = cls(0), u == .hour || u == .minute {
            pos += 1
            let save = pos
            if peek == "from", let times = parseTimeRange(step: u == .hour ? n * 60 : n) {
                var r = RepeatRule(frequency: .daily)
                guard setTimes(times, &r) else { return nil }
                return r
            }
            pos = save
            return RepeatRule(frequency: u == .hour ? .hourly : .minutely, interval: n)
        }
        let freq: RepeatRule.Frequency
        switch peek {
        case "day", "days": freq = .daily
        case "week", "weeks": freq = .weekly
        case "month", "months": freq = .monthly
        case "year", "years": freq = .yearly
        default:
            fail(.expectedPeriod(afterAmount: amount))
            return nil
        }
        pos += 1
        var r = RepeatRule(frequency: freq, interval: n)
        if peek == "on" {
            let save = pos
            pos += 1
            if !parsePeriodDay(&r) { pos = save }
        }
        return r
    }

    /// weekday_list ::= WEEKDAY { [ "," ] [ "and" ] WEEKDAY } ;
    package mutating func parseWeekdayList() -> [Weekday]? {
        func weekday(_ w: String, _ c: DateWord) -> Weekday? {
            if case .weekday(let d) = c { return d }
            // Plurals: `every mondays`.
            if w.hasSuffix("s"), case .weekday(let d)? = DatePhrase.classify([String(w.dropLast())]).first { return d }
            return nil
        }
        guard let first = weekday(peek, cls(0)) else { return nil }
        pos += 1
        var days: Set<Weekday> = [first]
        while true {
            var k = 0
            if word(0) == "and" { k = 1 }
            guard let d = weekday(word(k), cls(k)) else { break }
            days.insert(d)
            pos += k + 1
        }
        return days.sorted()
    }

    /// period_day ::= weekday_list | "every" weekday_list | "the" day_list [ "of" month_list ] | MONTH day_number ;
    package mutating func parsePeriodDay(_ r: inout RepeatRule) -> Bool {
        if r.frequency == .weekly, let days = parseWeekdayList() {
            r.weekdays = days
            return true
        }
        guard r.frequency == .monthly || r.frequency == .yearly else { return false }
        if peek == "every" {
            let save = pos
            pos += 1
            if let days = parseWeekdayList() {
                r.weekdays = days
                parseOfMonths(&r)
                return true
            }
            pos = save
            return false
        }
        if r.frequency == .yearly, case .month(let m) = cls(0) {
            switch cls(1) {
            case .number(let d, let digits) where digits <= 2 && d >= 1 && d <= DatePhrase.maxDay(m):
                r.month = m; r.monthDay = .day(d); pos += 2; return true
            case .ordinal(let d) where d <= DatePhrase.maxDay(m):
                r.month = m; r.monthDay = .day(d); pos += 2; return true
            default:
                fail(.expectedDayOfMonth)
                return false
            }
        }
        guard peek == "the" else { return false }
        pos += 1
        guard parseDayList(&r) else { return false }
        parseOfMonths(&r)
        return true
    }

    /// In a yearly rule, `of MONTH` after the day: `every year on the last friday of november`.
    package mutating func parseOfMonths(_ r: inout RepeatRule) {
        guard r.frequency == .yearly, word(0) == "of" else { return }
        let save = pos
        pos += 1
        guard let months = parseMonthList() else { pos = save; return }
        r.monthMask = months
    }

    /// What one item of a day list says.
    package enum DayItem {
        case monthDay(Int)
        case nth(Int, Weekday)
        case position(Int, UInt8)
    }

    /// day_list ::= day_item { [ "," ] [ "and" ] [ "the" ] day_item } ;
    package mutating func parseDayList(_ r: inout RepeatRule) -> Bool {
        guard let first = parseDayItem() else { return false }
        var items = [first]
        while true {
            let save = pos
            if peek == "and" { pos += 1 }
            if peek == "the" { pos += 1 }
            guard let item = parseDayItem() else { pos = save; break }
            items.append(item)
        }
        var md: UInt32 = 0, mdEnd: UInt32 = 0
        var nth: Set<RepeatRule.NthWeekday> = []
        var positions: Set<Int> = []
        var mask: UInt8? = nil
        for item in items {
            switch item {
            case .monthDay(let d):
                if d > 0 { md |= UInt32(1) << UInt32(d) } else { mdEnd |= UInt32(1) << UInt32(-d) }
            case .nth(let n, let wd):
                nth.insert(RepeatRule.NthWeekday(n, wd))
            case .position(let p, let m):
                if let x = mask, x != m {
                    fail(.mixedNth)
                    return false
                }
                mask = m
                positions.insert(p)
            }
        }
        let kinds = (md | mdEnd != 0 ? 1 : 0) + (nth.isEmpty ? 0 : 1) + (positions.isEmpty ? 0 : 1)
        guard kinds == 1 else {
            fail(.mixedDayKinds)
            return false
        }
        r.monthDayMask = md
        r.monthDayFromEndMask = mdEnd
        r.nthWeekdays = nth.sorted()
        if let m = mask {
            r.weekdayMask = m
            r.setPositions = positions.sorted()
        }
        return true
    }

    /// day_item ::= ( ORDINAL | NUMBER | ORDINAL_WORD ) [ "to" "last" ] [ "day" | WEEKDAY | "weekday" | "weekend" "day" | "of" weekday_list ] ;
    package mutating func parseDayItem() -> DayItem? {
        let start = pos
        let ordinals = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]
        var n: Int
        var spelled = false
        switch cls(0) {
        case .ordinal(let d), .number(let d, _):
            guard d >= 1, d <= 31 else { fail(.dayOfMonthRange); return nil }
            n = d
        default:
            guard let k = ordinals[peek] else { return nil }
            n = k
            spelled = true
        }
        pos += 1
        if n > 0, word(0) == "to", word(1) == "last" {
            n = -n
            pos += 2
        }
        let counted = spelled || n < 0
        // What is counted: a weekday, days, weekdays, weekend days, or a list of weekdays.
        if case .weekday(let wd) = cls(0) {
            if abs(n) <= 5 {
                pos += 1
                return .nth(n, wd)
            }
            // `the 6th tuesday`: no month has one; the 6th alone, which leaves the weekday over.
            guard !counted else { pos = start; return nil }
            return .monthDay(n)
        }
        switch peek {
        case "day":
            pos += 1
            return .monthDay(n)
        case "weekday":
            pos += 1
            return .position(n, RepeatRule.workdayMask)
        case "weekend" where word(1) == "day":
            pos += 2
            return .position(n, RepeatRule.weekendMask)
        case "of":
            let save = pos
            pos += 1
            if let days = parseWeekdayList() { return .position(n, RepeatRule.mask(of: days)) }
            pos = save
        default:
            break
        }
        // A bare ordinal is a day of the month (`the 15th`); `last` or `3rd to last` alone says nothing.
        guard !counted else { pos = start; return nil }
        return .monthDay(n)
    }

    /// month_list ::= MONTH { [ "," ] [ "and" ] MONTH } ;
    package mutating func parseMonthList() -> UInt16? {
        guard case .month(let first) = cls(0) else { return nil }
        pos += 1
        var mask = UInt16(1) << UInt16(first)
        while true {
            let k = word(0) == "and" ? 1 : 0
            guard case .month(let m) = cls(k) else { break }
            mask |= UInt16(1) << UInt16(m)
            pos += k + 1
        }
        return mask
    }

    /// time_range ::= "from" time_of_day "to" time_of_day ;
    package mutating func parseTimeRange(step: Int) -> [WallTime]? {
        guard peek == "from" else { return nil }
        let save = pos
        pos += 1
        guard let from = timeOfDay(), word(0) == "to" else { pos = save; return nil }
        pos += 1
        guard let to = timeOfDay() else { fail(.expectedTimeAfterTo); pos = save; return nil }
        guard to >= from, step >= 1 else {
            fail(.timesBackwards)
            pos = save
            return nil
        }
        var out: [WallTime] = []
        var t = from.minuteOfDay
        while t <= to.minuteOfDay, let w = WallTime(minuteOfDay: t) {
            out.append(w)
            t += step
        }
        return out
    }

    /// One time of day (`9am`, `5:30pm`, `17:00`, `noon`), as the date phrases read it.
    package mutating func timeOfDay() -> WallTime? {
        let rest = pos < classes.count ? Array(classes[pos...].prefix(2)) : []
        var p = DatePhraseParser(words: rest)
        guard let t = p.parseTimeOfDay(), case .time(let w) = t else { return nil }
        pos += p.pos
        return w
    }

    /// time_list ::= time_of_day { [ "," ] [ "and" ] time_of_day } ;
    package mutating func parseTimeList() -> [WallTime]? {
        guard let first = timeOfDay() else { return nil }
        var out = [first]
        while true {
            let save = pos
            if peek == "and" { pos += 1 }
            guard let t = timeOfDay() else { pos = save; break }
            out.append(t)
        }
        return out
    }

    /// The times of day as BYHOUR × BYMINUTE: every hour with every minute, so `9am and 5pm`
    /// is a rule and `9am and 5:30pm` is not.
    package mutating func setTimes(_ times: [WallTime], _ r: inout RepeatRule) -> Bool {
        let hours = times.reduce(UInt32(0)) { $0 | UInt32(1) << UInt32($1.hour) }
        let minutes = times.reduce(UInt64(0)) { $0 | UInt64(1) << UInt64($1.minute) }
        let distinct = Set(times.map(\.minuteOfDay)).count
        guard hours.nonzeroBitCount * minutes.nonzeroBitCount == distinct else {
            let all = RepeatRule.bits(hours).flatMap { h in RepeatRule.bits(minutes).map { WallTime(unchecked: h * 60 + $0) } }
            fail(.timesNotAGrid(all))
            return false
        }
        r.hourMask = hours
        r.minuteMask = minutes
        return true
    }

    /// repeat_modifier ::= "at" time_list | "every" [ NUMBER | "other" ] CLOCK_UNIT time_range | "in" month_list | "from" date_phrase | "until" date_phrase | "for" NUMBER "times" | "after" "completion" | "skipping" "missing" "days" ;
    package mutating func parseRepeatModifier(_ r: inout RepeatRule) -> Bool {
        switch peek {
        case "at":
            pos += 1
            guard r.frequency != .hourly, r.frequency != .minutely else { fail(.hourlyWithTimes); return false }
            guard let times = parseTimeList() else { fail(.expectedTimeAfterAt); return false }
            return setTimes(times, &r)
        case "every":
            guard r.frequency != .hourly, r.frequency != .minutely, r.hourMask == 0 else { return false }
            pos += 1
            var n = 1
            if case .number(let k, _) = cls(0), k >= 1, k <= 1440 { n = k; pos += 1 } else if peek == "other" { n = 2; pos += 1 }
            guard case .unit(let u) = cls(0), u == .hour || u == .minute else { return false }
            pos += 1
            guard let times = parseTimeRange(step: u == .hour ? n * 60 : n) else { return false }
            return setTimes(times, &r)
        case "in":
            guard r.monthMask == 0, !r.monthFromAnchor else { return false }
            pos += 1
            guard let months = parseMonthList() else { return false }
            r.monthMask = months
            return true
        case "from", "until":
            let isFrom = peek == "from"
            // Only a day: `until 2026-12-31 at 9am` ends the date before `at`.
            var dp = DatePhraseParser(words: Array(classes[(pos + 1)...].prefix(6)))
            guard let day = dp.parseDayRef() else {
                fail(.expectedDateAfter(peek))
                return false
            }
            let spec = DateSpec(day: day)
            let used = dp.pos
            // The date is resolved later against the session's now; keep it as a spec.
            if case .date(let d)? = spec.day {
                if isFrom { r.from = d } else { r.until = d }
            } else if case .monthDay(let m, let d, let y?)? = spec.day, let date = CivilDate(year: y, month: m, day: d) {
                if isFrom { r.from = date } else { r.until = date }
            } else {
                pendingDates.append((isFrom, spec))
            }
            pos += 1 + used
            // `from DATE TIME`: the series starts at that moment.
            if isFrom, let t = timeOfDay() { r.fromTime = t }
            return true
        case "for":
            guard case .number(let n, _) = cls(1), n >= 1, word(2) == "times" || word(2) == "time" else { return false }
            r.count = n
            pos += 3
            return true
        case "after":
            guard word(1) == "completion" else { return false }
            r.afterCompletion = true
            pos += 2
            return true
        case "skipping":
            guard word(1) == "missing", word(2) == "days" else { return false }
            r.skipMissing = true
            pos += 3
            return true
        default:
            return false
        }
    }

    /// Relative dates of `from`/`until` (`until next month`), resolved by the caller.
    package var pendingDates: [(Bool, DateSpec)] = []
}

extension RepeatRule {
    /// Parses a whole rule from text; relative `from`/`until` dates resolve against `ctx`.
    public static func parse(_ text: String, in ctx: DateContext? = nil) -> Result<(RepeatRule, used: Int), RepeatRuleError> {
        parse(words: text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init), in: ctx)
    }

    public static func parse(words: [String], in ctx: DateContext? = nil) -> Result<(RepeatRule, used: Int), RepeatRuleError> {
        var p = RepeatRuleParser(words: words)
        guard var r = p.parseRepeatRule() else {
            return .failure(p.failure ?? RepeatRuleError(word: 0, .notARule(example: false)))
        }
        for (isFrom, spec) in p.pendingDates {
            guard let ctx else {
                return .failure(RepeatRuleError(word: 0, .needsNow))
            }
            switch DatePhrase.resolve(spec, in: ctx) {
            case .success(let res):
                if isFrom { r.from = res.due.date } else { r.until = res.due.date }
            case .failure(let e):
                return .failure(RepeatRuleError(word: 0, .date(e)))
            }
        }
        return .success((r, p.pos))
    }
}
