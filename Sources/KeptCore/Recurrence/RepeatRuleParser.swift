// The grammar of repeat rules (Grammar/kept.ebnf, the repeat_rule productions) over words. It
// decides where an `every …` phrase ends and what rule it says; each parse function quotes
// its production.

/// Why words do not make a repeat rule.
public struct RepeatRuleError: Error, Sendable, Equatable {
    public var word: Int
    public var message: String
    public var help: String?
    /// Set when the words are a repeat with a value out of its range (`every 5000 days`,
    /// E0210) or a number past the limits (E0007): quick add reports it rather than keep the
    /// words as title text.
    public var outOfRange: String? = nil
}

/// Parses `every …` phrases.
public struct RepeatRuleParser {
    let words: [String]
    let classes: [DateWord]
    var pos = 0
    var failure: RepeatRuleError?

    init(words: [String]) {
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
        return .failure(p.failure ?? RepeatRuleError(word: 0, message: "not a repeat rule", help: "for example: every day, every monday, every 2 weeks"))
    }

    var peek: String { pos < words.count ? words[pos] : "" }
    func word(_ k: Int) -> String { pos + k < words.count ? words[pos + k] : "" }
    func cls(_ k: Int) -> DateWord { pos + k < classes.count ? classes[pos + k] : .other }

    mutating func fail(_ m: String, _ help: String? = nil, outOfRange: String? = nil) {
        if failure == nil || pos >= (failure?.word ?? 0) { failure = RepeatRuleError(word: pos, message: m, help: help, outOfRange: outOfRange) }
    }

    /// repeat_rule ::= "every" repeat_body { repeat_modifier } ;
    mutating func parseRepeatRule() -> RepeatRule? {
        guard peek == "every" else { fail("a repeat starts with 'every'"); return nil }
        pos += 1
        guard var rule = parseRepeatBody() else { return nil }
        while true {
            let save = pos
            if !parseRepeatModifier(&rule) { pos = save; break }
        }
        return rule
    }

    /// repeat_body ::= "day" | "weekday" | "weekend" | weekday_list | [ NUMBER | "other" ] PERIOD [ "on" period_day ] ;
    mutating func parseRepeatBody() -> RepeatRule? {
        switch peek {
        case "day":
            pos += 1
            return RepeatRule(frequency: .daily)
        case "weekday", "weekdays":
            pos += 1
            var r = RepeatRule(frequency: .weekly)
            r.weekdays = RepeatRule.workdays
            return r
        case "weekend", "weekends":
            pos += 1
            var r = RepeatRule(frequency: .weekly)
            r.weekdays = RepeatRule.weekend
            return r
        default:
            break
        }
        if let days = parseWeekdayList() {
            var r = RepeatRule(frequency: .weekly)
            r.weekdays = days
            return r
        }
        var n = 1
        // Out of range only before a period word: `every 5000 meters` is no repeat at all.
        let period = ["day", "days", "week", "weeks", "month", "months", "year", "years"].contains(word(1))
        if case .number(let k, _) = cls(0) {
            guard k >= 1, k <= Limits.repeatInterval else {
                fail("an interval is from 1 to \(Limits.grouped(Limits.repeatInterval))", "for example: every 3 days, every 2 weeks",
                     outOfRange: period ? "E0210" : nil)
                return nil
            }
            n = k
            pos += 1
        } else if case .tooLarge = cls(0) {
            fail(Catalog.numberTooLargeMessage(peek) + "; an interval is from 1 to \(Limits.grouped(Limits.repeatInterval))",
                 outOfRange: period ? "E0007" : nil)
            return nil
        } else if peek == "other" {
            n = 2
            pos += 1
        }
        let freq: RepeatRule.Frequency
        switch peek {
        case "day", "days": freq = .daily
        case "week", "weeks": freq = .weekly
        case "month", "months": freq = .monthly
        case "year", "years": freq = .yearly
        default:
            fail("expected day, week, month or year", "for example: every 3 days, every 2 weeks, every month on the 15th")
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
    mutating func parseWeekdayList() -> [Weekday]? {
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

    /// period_day ::= weekday_list | "the" ( ORDINAL | NUMBER | "last" "day" | ORDINAL_WORD WEEKDAY | "last" WEEKDAY ) [ "of" MONTH ] | MONTH day_number ;
    mutating func parsePeriodDay(_ r: inout RepeatRule) -> Bool {
        if r.frequency == .weekly, let days = parseWeekdayList() {
            r.weekdays = days
            return true
        }
        if r.frequency == .yearly, case .month(let m) = cls(0) {
            switch cls(1) {
            case .number(let d, let digits) where digits <= 2 && d >= 1 && d <= DatePhrase.maxDay(m):
                r.month = m; r.monthDay = .day(d); pos += 2; return true
            case .ordinal(let d) where d <= DatePhrase.maxDay(m):
                r.month = m; r.monthDay = .day(d); pos += 2; return true
            default:
                fail("expected a day of that month")
                return false
            }
        }
        guard r.frequency == .monthly || r.frequency == .yearly, peek == "the" else { return false }
        pos += 1
        switch cls(0) {
        case .ordinal(let d), .number(let d, _):
            guard d >= 1, d <= 31 else { fail("a day of the month is from 1 to 31"); return false }
            if case .weekday(let wd) = cls(1), d <= 5 {
                r.monthDay = .weekday(d, wd); pos += 2; parseOfMonth(&r); return true
            }
            r.monthDay = .day(d)
            pos += 1
            parseOfMonth(&r)
            return true
        default:
            break
        }
        let ordinals = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]
        if let n = ordinals[peek] {
            if case .weekday(let wd) = cls(1) {
                r.monthDay = .weekday(n, wd); pos += 2; parseOfMonth(&r); return true
            }
            if n == -1, word(1) == "day" {
                r.monthDay = .last; pos += 2; parseOfMonth(&r); return true
            }
        }
        fail("expected a day like the 15th, the last day or the 2nd tuesday")
        return false
    }

    /// In a yearly rule, `of MONTH` after the day: `every year on the last friday of november`.
    mutating func parseOfMonth(_ r: inout RepeatRule) {
        guard r.frequency == .yearly, word(0) == "of", case .month(let m) = cls(1) else { return }
        r.month = m
        pos += 2
    }

    /// repeat_modifier ::= "at" TIME | "from" date_phrase | "until" date_phrase | "for" NUMBER "times" | "after" "completion" | "skipping" "missing" "days" ;
    mutating func parseRepeatModifier(_ r: inout RepeatRule) -> Bool {
        switch peek {
        case "at":
            let rest = Array(classes[(pos + 1)...].prefix(2))
            var p = DatePhraseParser(words: rest)
            guard let t = p.parseTimeOfDay(), case .time(let w) = t else { fail("expected a time after 'at'", "for example: at 9am"); return false }
            r.time = w
            pos += 1 + p.pos
            return true
        case "from", "until":
            let isFrom = peek == "from"
            // Only a day: `until 2026-12-31 at 9am` ends the date before `at`.
            var dp = DatePhraseParser(words: Array(classes[(pos + 1)...].prefix(6)))
            guard let day = dp.parseDayRef() else {
                fail("expected a date after '\(peek)'", "for example: from 2026-06-15, until dec 31")
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
    var pendingDates: [(Bool, DateSpec)] = []
}

extension RepeatRule {
    /// Parses a whole rule from text; relative `from`/`until` dates resolve against `ctx`.
    public static func parse(_ text: String, in ctx: DateContext? = nil) -> Result<(RepeatRule, used: Int), RepeatRuleError> {
        parse(words: text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init), in: ctx)
    }

    public static func parse(words: [String], in ctx: DateContext? = nil) -> Result<(RepeatRule, used: Int), RepeatRuleError> {
        var p = RepeatRuleParser(words: words)
        guard var r = p.parseRepeatRule() else {
            return .failure(p.failure ?? RepeatRuleError(word: 0, message: "not a repeat rule"))
        }
        for (isFrom, spec) in p.pendingDates {
            guard let ctx else {
                return .failure(RepeatRuleError(word: 0, message: "a relative date in a repeat needs a now", help: "write the date as 2026-06-15"))
            }
            switch DatePhrase.resolve(spec, in: ctx) {
            case .success(let res):
                if isFrom { r.from = res.due.date } else { r.until = res.due.date }
            case .failure(let e):
                return .failure(RepeatRuleError(word: 0, message: e.message, help: e.help, outOfRange: e.limit ?? "E0210"))
            }
        }
        return .success((r, p.pos))
    }
}
