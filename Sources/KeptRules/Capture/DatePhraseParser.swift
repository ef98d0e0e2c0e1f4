// The grammar of date phrases (Grammar/kept.ebnf, the date_phrase productions) over classified
// words. It decides where a phrase ends (`@may 17 dentist` stops after 17) and what it says;
// DatePhrase+Resolve turns what it says into a date. Each parse function quotes its production.

/// Why words do not make a date phrase: which word, and what would fix it.
public struct DatePhraseError: Error, Sendable, Equatable {
    /// The index of the word at fault, among the words given.
    public var word: Int
    public var message: String
    public var help: String?
    /// A date that does not exist (`feb 30`), as opposed to words that are not a date.
    public var impossible: Bool
    /// The code of a limit the words went past (E0007, E0225), when that is why.
    public var limit: DiagnosticCode?

    public init(word: Int, message: String, help: String? = nil, impossible: Bool = false, limit: DiagnosticCode? = nil) {
        self.word = word
        self.message = message
        self.help = help
        self.impossible = impossible
        self.limit = limit
    }

    /// The catalog code: a limit's, E0205 for a date that does not exist, else E0203.
    public var code: DiagnosticCode { limit ?? (impossible ? .E0205 : .E0203) }

    /// The label under the words: what is wrong with them.
    public var label: String {
        switch limit {
        case .E0007: return "too large"
        case .E0225: return "outside the calendar"
        default: return impossible ? "no such day" : "not a date phrase"
        }
    }

    /// A date the words name that lies outside 0001-01-01...9999-12-31 (E0225).
    package static func outOfCalendar(_ word: Int = 0, after: Bool = true) -> DatePhraseError {
        DatePhraseError(word: word, message: after ? "that date is after 9999-12-31, the last day of the calendar"
                            : "that date is before 0001-01-01, the first day of the calendar",
                        help: "dates go from 0001-01-01 to 9999-12-31", impossible: true, limit: .E0225)
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

    package mutating func fail(_ message: String, at word: Int? = nil, help: String? = nil) {
        let w = word ?? pos
        if failure == nil || w >= (failure?.word ?? 0) {
            failure = DatePhraseError(word: w, message: message, help: help)
        }
    }

    /// Parses the longest phrase at the start of the words; returns it and how many words it used.
    public static func parse(_ words: [DateWord]) -> Result<(DateSpec, used: Int), DatePhraseError> {
        var p = DatePhraseParser(words: words)
        if let spec = p.parseDatePhrase() { return .success((spec, p.pos)) }
        return .failure(p.failure ?? DatePhraseError(word: 0, message: "not a date or time"))
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
            fail("expected a time after 'at'", help: "for example: at 9, at 3pm, at 15:30")
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
                    fail("\(h) \(pm ? "pm" : "am") is not a time", help: "hours with am or pm go from 1 to 12")
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
            fail("expected a weekday, week, month or year after 'next'", at: pos + 1, help: "for example: next fri, next week, next month")
            return nil
        case .keyword(.this):
            if isKeyword(.weekend, 1) { pos += 2; return .weekend(next: false) }
            return nil
        case .keyword(.end):
            guard isKeyword(.of, 1) else { return nil }
            var k = 2
            if isKeyword(.the, 2) { k = 3 }
            guard let u = period(at(k)) else {
                fail("expected week, month or year after 'end of'", at: pos + k)
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
                fail("expected a day after the month", at: pos + 1, help: "for example: may 17")
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
            fail("expected an amount of time after 'in'", at: pos + 1, help: "for example: in 3 days, in 2 weeks, in an hour")
            return nil
        }
        if case .number(let n, _) = peek, let u = dateUnit(at(1)), isKeyword(.from, 2), isKeyword(.now, 3) {
            pos += 4
            return .inDays(n, u)
        }
        return nil
    }
}

extension Result {
    /// The error, when there is one.
    package var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
