// The grammar of date phrases (Grammar/kept.ebnf, the date_phrase productions) over classified
// words. It decides where a phrase ends (`@may 17 dentist` stops after 17) and what it says;
// DatePhrase+Resolve turns what it says into a date. Each parse function quotes its production.

/// Why words do not make a date phrase: which word, and what is wrong with it. The catalog
/// words each reason and gives it its code (Catalog+Rules).
public struct DatePhraseError: Error, Sendable, Equatable {
    /// What is wrong with the words.
    public enum Reason: Sendable, Equatable {
        /// No words at all.
        case missing
        /// The first word has the shape of a date or time but impossible values (`25:00`).
        case doesNotExist(String)
        /// A later word with the shape of a date or time but impossible values (`the 32nd`).
        case wordDoesNotExist(String)
        /// A first word that is no date word.
        case notADate(String)
        /// Words that say no date or time.
        case notADateOrTime
        /// A number past `Limits.largestNumber`.
        case numberTooLarge(String)
        /// A year past the calendar's last (`10000-01-01`).
        case yearPastCalendar(String)
        /// A date the words name past 9999-12-31 (`after`), or before 0001-01-01.
        case outOfCalendar(after: Bool)
        /// `at 3`: an hour from 1 to 7 without am or pm.
        case ambiguousHour(Int)
        /// `13 pm`: an hour that am or pm does not take.
        case notAnHour(Int, pm: Bool)
        /// `@fri 7`: a bare number after a day, which could be an hour or title text (R-CAP-8).
        case bareNumberAfterDay(Int)
        /// A month and day no year has (`feb 30`), or the 29th of February in a common year.
        case noSuchDay(month: Int, day: Int, year: Int?)
        /// `the 31st` when no month has it.
        case noSuchDayOfMonth(Int)
        /// `31/31`: no date in the account's order (`monthFirst` for month/day).
        case notASlashDate(Int, Int, year: Int?, monthFirst: Bool)
        /// A word the grammar needs is missing after another.
        case expected(Expectation)
    }

    /// What the grammar expected where the words stopped.
    public enum Expectation: Sendable, Equatable {
        case timeAfterAt, afterNext, afterEndOf, dayAfterMonth, amountAfterIn
    }

    /// The index of the word at fault, among the words given.
    public var word: Int
    public var reason: Reason
    /// The phrase an unfinished first word completes to (`tomorrow` for `tommorow`'s `tom`),
    /// offered as a did-you-mean where the reason has no better help.
    public var completion: String?

    public init(word: Int, _ reason: Reason, completion: String? = nil) {
        self.word = word
        self.reason = reason
        self.completion = completion
    }

    /// A date that does not exist (`feb 30`, a date past the calendar), as opposed to words
    /// that are not a date.
    public var impossible: Bool {
        switch reason {
        case .doesNotExist, .wordDoesNotExist, .yearPastCalendar, .outOfCalendar, .noSuchDay, .noSuchDayOfMonth, .notASlashDate: return true
        default: return false
        }
    }

    /// The limit the words went past (the numbers, the years), when that is why.
    public var limit: Limit.Kind? {
        switch reason {
        case .numberTooLarge: return .numbers
        case .yearPastCalendar, .outOfCalendar: return .years
        default: return nil
        }
    }

    /// A date the words name that lies outside 0001-01-01...9999-12-31.
    package static func outOfCalendar(_ word: Int = 0, after: Bool = true) -> DatePhraseError {
        DatePhraseError(word: word, .outOfCalendar(after: after))
    }
}

/// A parser over the classified words of one phrase.
public struct DatePhraseParser {
    package let words: [DateWord]
    package var pos = 0
    /// The furthest error seen, reported when no reading of the words works.
    package var failure: DatePhraseError? = nil

    public init(words: [DateWord]) {
        self.words = words
    }

    package var peek: DateWord { pos < words.count ? words[pos] : .other }

    package func at(_ k: Int) -> DateWord { pos + k < words.count ? words[pos + k] : .other }

    package func isKeyword(_ k: DateKeyword, _ offset: Int = 0) -> Bool {
        if case .keyword(let w) = at(offset) { return w == k }
        return false
    }

    package mutating func fail(_ reason: DatePhraseError.Reason, at word: Int? = nil) {
        let w = word ?? pos
        if failure == nil || w >= (failure?.word ?? 0) {
            failure = DatePhraseError(word: w, reason)
        }
    }

    /// Parses the longest phrase at the start of the words; returns it and how many words it used.
    public static func parse(_ words: [DateWord]) -> Result<(DateSpec, used: Int), DatePhraseError> {
        var p = DatePhraseParser(words: words)
        if let spec = p.parseDatePhrase() { return .success((spec, p.pos)) }
        return .failure(p.failure ?? DatePhraseError(word: 0, .notADateOrTime))
    }

    /// date_phrase ::= relative_time | time_part [ [ "on" ] day_ref ] | day_ref [ time_part ] ;
    package mutating func parseDatePhrase() -> DateSpec? {
        let start = pos
        if let m = parseRelativeTime() { return DateSpec(minutesFromNow: m) }
        pos = start
        if case .isoDateTime(let dt) = peek {
            pos += 1
            return DateSpec(dateTime: dt)
        }
        if let t = parseTimePart() {
            let afterTime = pos
            if isKeyword(.on) { pos += 1 }
            if let d = parseDayRef() { return DateSpec(day: d, time: t) }
            pos = afterTime
            return DateSpec(time: t)
        }
        pos = start
        guard let d = parseDayRef() else { return nil }
        let afterDay = pos
        if let t = parseTimePart() { return DateSpec(day: d, time: t) }
        pos = afterDay
        return DateSpec(day: d)
    }

    /// relative_time ::= "in" ( "a" "hour" | NUMBER CLOCK_UNIT | CLOCK_DURATION ) | NUMBER CLOCK_UNIT "from" "now" ;
    package mutating func parseRelativeTime() -> Int? {
        func minutes(_ n: Int, _ u: TimeUnit) -> Int? {
            switch u {
            case .minute: return n
            case .hour: return n * 60
            default: return nil
            }
        }
        if isKeyword(.in) {
            switch at(1) {
            case .keyword(.a):
                if case .unit(.hour) = at(2) { pos += 3; return 60 }
            case .number(let n, _):
                if case .unit(let u) = at(2), let m = minutes(n, u) { pos += 3; return m }
            case .duration(let n, let u):
                if let m = minutes(n, u) { pos += 2; return m }
            default: break
            }
            return nil
        }
        if case .number(let n, _) = peek, case .unit(let u) = at(1), let m = minutes(n, u), isKeyword(.from, 2), isKeyword(.now, 3) {
            pos += 4
            return m
        }
        return nil
    }

    /// time_part ::= [ "at" ] time_of_day | "at" NUMBER | "this" NAMED_TIME ;
    package mutating func parseTimePart() -> TimeRef? {
        let start = pos
        if isKeyword(.this), case .named(let n) = at(1) {
            pos += 2
            return .named(n, today: true)
        }
        if isKeyword(.at) {
            pos += 1
            if case .number(let h, let digits) = peek, digits <= 2 {
                if case .meridiem = at(1) {
                    // `at 3 pm`: time_of_day reads it.
                } else {
                    pos += 1
                    return .bareHour(h)
                }
            }
            if let t = parseTimeOfDay() { return t }
            fail(.expected(.timeAfterAt))
            pos = start
            return nil
        }
        return parseTimeOfDay()
    }

    /// time_of_day ::= TIME | NUMBER MERIDIEM | NAMED_TIME ;
    package mutating func parseTimeOfDay() -> TimeRef? {
        switch peek {
        case .time(let t):
            pos += 1
            return .time(t)
        case .number(let h, let digits) where digits <= 2:
            if case .meridiem(let pm) = at(1) {
                guard case .time(let t) = DateVocabulary.meridiemTime(h, 0, pm: pm) else {
                    fail(.notAnHour(h, pm: pm))
                    return nil
                }
                pos += 2
                return .time(t)
            }
            return nil
        case .named(let n):
            pos += 1
            return .named(n, today: n == .tonight)
        default:
            return nil
        }
    }

    /// day_ref ::= REL_DAY | weekday_ref | period_ref | month_day | NUMERIC_DATE | relative_day ;
    package mutating func parseDayRef() -> DayRef? {
        let start = pos
        switch peek {
        case .relativeDay(let n):
            pos += 1
            return .relative(n)
        case .isoDate(let d):
            pos += 1
            return .date(d)
        case .slash(let a, let b, let y):
            pos += 1
            return .slash(a, b, year: y)
        case .dotted(let d, let m, let y):
            pos += 1
            return .monthDay(month: m, day: d, year: y)
        default:
            break
        }
        if let w = parseWeekdayRef() { return w }
        pos = start
        if let p = parsePeriodRef() { return p }
        pos = start
        if let m = parseMonthDay() { return m }
        pos = start
        if let r = parseRelativeDay() { return r }
        pos = start
        return nil
    }

    /// weekday_ref ::= [ "this" | "next" | "on" ] WEEKDAY [ "next" "week" ] ;
    package mutating func parseWeekdayRef() -> DayRef? {
        var mode = WeekdayMode.coming
        if isKeyword(.this) { mode = .this; pos += 1 }
        else if isKeyword(.next) { mode = .next; pos += 1 }
        else if isKeyword(.on) { pos += 1 }
        guard case .weekday(let d) = peek else { return nil }
        pos += 1
        if mode == .coming, isKeyword(.next), isKeyword(.week, 1) {
            pos += 2
            mode = .nextWeek
        }
        return .weekday(d, mode)
    }

    /// period_ref ::= "next" ( "week" | "month" | "year" ) | "end" "of" [ "the" ] ( "week" | "month" | "year" )
    ///   | "eow" | "eom" | "eoy" | [ "this" | "next" ] "weekend" ;
    package mutating func parsePeriodRef() -> DayRef? {
        func period(_ w: DateWord) -> TimeUnit? {
            switch w {
            case .keyword(.week): return .week
            case .keyword(.month): return .month
            case .keyword(.year): return .year
            default: return nil
            }
        }
        switch peek {
        case .keyword(.eow): pos += 1; return .endOf(.week)
        case .keyword(.eom): pos += 1; return .endOf(.month)
        case .keyword(.eoy): pos += 1; return .endOf(.year)
        case .keyword(.weekend): pos += 1; return .weekend(next: false)
        case .keyword(.next):
            if let u = period(at(1)) { pos += 2; return .nextPeriod(u) }
            if isKeyword(.weekend, 1) { pos += 2; return .weekend(next: true) }
            fail(.expected(.afterNext), at: pos + 1)
            return nil
        case .keyword(.this):
            if isKeyword(.weekend, 1) { pos += 2; return .weekend(next: false) }
            return nil
        case .keyword(.end):
            guard isKeyword(.of, 1) else { return nil }
            var k = 2
            if isKeyword(.the, 2) { k = 3 }
            guard let u = period(at(k)) else {
                fail(.expected(.afterEndOf), at: pos + k)
                return nil
            }
            pos += k + 1
            return .endOf(u)
        default:
            return nil
        }
    }

    /// month_day ::= MONTH day_number [ YEAR ] | day_number [ "of" ] MONTH [ YEAR ] | "the" ORDINAL ;
    package mutating func parseMonthDay() -> DayRef? {
        func year(_ w: DateWord) -> Int? {
            if case .number(let y, 4) = w { return y }
            return nil
        }
        if case .month(let m) = peek {
            guard let d = parseDayNumber(at(1)) else {
                fail(.expected(.dayAfterMonth), at: pos + 1)
                return nil
            }
            pos += 2
            if let y = year(peek) { pos += 1; return .monthDay(month: m, day: d, year: y) }
            return .monthDay(month: m, day: d, year: nil)
        }
        if let d = parseDayNumber(peek) {
            var k = 1
            if isKeyword(.of, 1) { k = 2 }
            guard case .month(let m) = at(k) else { return nil }
            pos += k + 1
            if let y = year(peek) { pos += 1; return .monthDay(month: m, day: d, year: y) }
            return .monthDay(month: m, day: d, year: nil)
        }
        if isKeyword(.the), case .ordinal(let d) = at(1) {
            pos += 2
            return .dayOfMonth(d)
        }
        return nil
    }

    /// day_number ::= NUMBER | ORDINAL ;
    package func parseDayNumber(_ w: DateWord) -> Int? {
        switch w {
        case .number(let n, let digits) where digits <= 2: return n
        case .ordinal(let n): return n
        default: return nil
        }
    }

    /// relative_day ::= "in" ( NUMBER | "a" ) DATE_UNIT | "in" DATE_DURATION | NUMBER DATE_UNIT "from" "now" ;
    package mutating func parseRelativeDay() -> DayRef? {
        func dateUnit(_ w: DateWord) -> TimeUnit? {
            switch w {
            case .unit(let u) where u.isCalendar: return u
            case .keyword(.week): return .week
            case .keyword(.month): return .month
            case .keyword(.year): return .year
            default: return nil
            }
        }
        if isKeyword(.in) {
            switch at(1) {
            case .number(let n, _):
                if let u = dateUnit(at(2)) { pos += 3; return .inDays(n, u) }
            case .keyword(.a):
                if let u = dateUnit(at(2)) { pos += 3; return .inDays(1, u) }
            case .duration(let n, let u) where u.isCalendar:
                pos += 2
                return .inDays(n, u)
            default: break
            }
            fail(.expected(.amountAfterIn), at: pos + 1)
            return nil
        }
        if case .number(let n, _) = peek, let u = dateUnit(at(1)), isKeyword(.from, 2), isKeyword(.now, 3) {
            pos += 4
            return .inDays(n, u)
        }
        return nil
    }
}

extension DatePhraseParser {
    /// The words just after a day without a time that say a time Kept will not guess (R-CAP-7,
    /// R-CAP-8): an impossible time (`tomorrow 25:00`, `fri 13pm`, `tomorrow at 25:00`, `fri 13
    /// pm`) or, when `bareNumbers`, a bare number that could be an hour (`fri 7`). Nil when the
    /// phrase has its time or the next words are no time at all. `used` is how many of
    /// `words` the phrase took; `text` gives a word as written, asked for only on an error.
    public static func timeAfterDay(_ spec: DateSpec, _ words: [DateWord], used: Int, bareNumbers: Bool,
                                    text: (Int) -> String) -> DatePhraseError? {
        guard spec.day != nil, spec.time == nil, spec.minutesFromNow == nil, spec.dateTime == nil else { return nil }
        func at(_ k: Int) -> DateWord { k < words.count ? words[k] : .other }
        var k = used
        let afterAt: Bool
        if case .keyword(.at) = at(k) { k += 1; afterAt = true } else { afterAt = false }
        switch at(k) {
        case .impossible:
            return DatePhraseError(word: k, .doesNotExist(text(k)))
        case .number(let h, let digits) where digits <= 2:
            if case .meridiem(let pm) = at(k + 1) {
                return h >= 1 && h <= 12 ? nil : DatePhraseError(word: k, .notAnHour(h, pm: pm))
            }
            // `tomorrow at 5` is the parser's (the phrase took it); here only a number alone.
            guard bareNumbers, !afterAt, h <= 23 else { return nil }
            return DatePhraseError(word: k, .bareNumberAfterDay(h))
        default:
            return nil
        }
    }
}

extension Result {
    /// The error, when there is one.
    package var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
