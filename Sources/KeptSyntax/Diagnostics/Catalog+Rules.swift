// The catalog's words for the errors of the rules (KeptRules): a date phrase, a repeat's words,
// an RRULE, a capture line, and the limits. The rules say what is wrong as typed cases; only
// here does each get its code, its message, its label and its help.

import KeptRules

extension Catalog {
    // MARK: limits

    /// The code of the error past a limit (docs/LIMITS.md).
    public static func code(_ limit: Limit.Kind) -> DiagnosticCode {
        switch limit {
        case .statementSize: return .E0004
        case .scriptSize: return .E0005
        case .statementTokens: return .E0006
        case .numbers: return .E0007
        case .filterNesting: return .E0008
        case .years: return .E0225
        case .regexSteps, .regexTime: return .E0226
        case .taskIDs: return .E0227
        case .storeSize: return .E0228
        case .importSize: return .E0601
        case .storeNesting: return .E0308
        case .repeatPreview: return .E0209
        case .repeatInterval: return .E0210
        case .readNesting: return .E0504
        }
    }

    /// The words of a number past `Limits.largestNumber`.
    package static func numberTooLargeText(_ text: String) -> String {
        "'\(text.count > 24 ? String(text.prefix(20)) + "…" : text)' is larger than \(Limits.grouped(Limits.largestNumber)), the largest number Kept reads"
    }

    // MARK: date phrases

    /// The code of a date phrase's error: a limit's, E0205 for a date that does not exist, else E0203.
    package static func code(_ e: DatePhraseError) -> DiagnosticCode {
        e.limit.map(code) ?? (e.impossible ? .E0205 : .E0203)
    }

    package static func message(_ e: DatePhraseError) -> String {
        switch e.reason {
        case .missing: return "a date is missing"
        case .doesNotExist(let w):
            let what = w.contains(":") || w.lowercased().hasSuffix("m") ? "time" : "date"
            return "'\(w)' is not a \(what) that exists"
        case .wordDoesNotExist(let w): return "'\(w)' is not a date or time that exists"
        case .notADate(let w): return "'\(w)' is not a date or time"
        case .notADateOrTime: return "not a date or time"
        case .numberTooLarge(let w): return numberTooLargeText(w)
        case .yearPastCalendar(let w): return "'\(w)' is after 9999-12-31, the last day of the calendar"
        case .outOfCalendar(let after):
            return after ? "that date is after 9999-12-31, the last day of the calendar" : "that date is before 0001-01-01, the first day of the calendar"
        case .ambiguousHour(let h): return "'at \(h)' could be \(h) AM or \(h) PM"
        case .notAnHour(let h, let pm): return "\(h) \(pm ? "pm" : "am") is not a time"
        case .bareNumberAfterDay(let h):
            return h >= 1 && h <= 12 ? "'\(h)' after a date could be \(h) AM or \(h) PM" : "'\(h)' after a date could be a time (\(h):00) or title text"
        case .noSuchDay(let m, let dd, let y):
            let name = m >= 1 && m <= 12 ? TimeText.monthShort(m) : String(m)
            return y.map { "\(name) \(dd) \($0) is not a date that exists" } ?? "\(name) \(dd) is not a date that exists"
        case .noSuchDayOfMonth(let dd): return "the \(DatePhrase.ordinal(dd)) is not a day of any month"
        case .notASlashDate(let a, let b, let y, let mdy):
            let order = mdy ? "month/day (date-order mdy)" : "day/month (date-order dmy)"
            return "\(a)/\(b)\(y.map { "/\($0)" } ?? "") is not a date as \(order)"
        case .expected(.timeAfterAt): return "expected a time after 'at'"
        case .expected(.afterNext): return "expected a weekday, week, month or year after 'next'"
        case .expected(.afterEndOf): return "expected week, month or year after 'end of'"
        case .expected(.dayAfterMonth): return "expected a day after the month"
        case .expected(.amountAfterIn): return "expected an amount of time after 'in'"
        }
    }

    /// The help of a date phrase's error without a completion.
    package static func reasonHelp(_ e: DatePhraseError) -> String? {
        let example = "for example: today, fri 3pm, may 17, in 2 weeks"
        switch e.reason {
        case .missing: return example
        case .notADate(let w): return didYouMean(Suggestion.nearest(w.lowercased(), in: DateVocabulary.spelled)) ?? example
        case .numberTooLarge: return "numbers go from 0 to \(Limits.grouped(Limits.largestNumber))"
        case .yearPastCalendar, .outOfCalendar: return "dates go from 0001-01-01 to 9999-12-31"
        case .ambiguousHour(let h): return "write at \(h)am or at \(h)pm"
        case .doesNotExist(let w) where w.lowercased().hasSuffix("am") || w.lowercased().hasSuffix("pm"):
            return "hours with am or pm go from 1 to 12"
        case .doesNotExist(let w) where w.contains(":"): return "a time of day goes from 00:00 to 23:59"
        case .notAnHour: return "hours with am or pm go from 1 to 12"
        case .bareNumberAfterDay(let h):
            let time = h >= 1 && h <= 12 ? "\(h)am or \(h)pm" : "at \(h) or \(h):00"
            return "write \(time) for a time, or \\\(h) to keep the number in the title"
        case .noSuchDay(let m, let dd, let y?) where m == 2 && dd == 29: return "\(y) is not a leap year"
        case .notASlashDate(_, _, _, let mdy):
            return mdy ? "set date-order dmy to read it as day/month" : "set date-order mdy to read it as month/day"
        case .expected(.timeAfterAt): return "for example: at 9, at 3pm, at 15:30"
        case .expected(.afterNext): return "for example: next fri, next week, next month"
        case .expected(.dayAfterMonth): return "for example: may 17"
        case .expected(.amountAfterIn): return "for example: in 3 days, in 2 weeks, in an hour"
        default: return nil
        }
    }

    /// The phrase an `@` phrase's first word completes to, offered where the reason has no
    /// better help than an example.
    package static func completion(_ e: DatePhraseError) -> String? {
        guard let comp = e.completion, e.word == 0 else { return nil }
        let base = reasonHelp(e)
        return base == nil || base?.hasPrefix("for example") == true ? comp : nil
    }

    /// The did-you-mean of a date phrase's error whose first word stands at `range`: the
    /// completion of an `@` phrase, or the date word nearest a first word that is none.
    package static func dateFix(_ e: DatePhraseError, range: SourceRange, file: SourceFile) -> DidYouMean {
        if let comp = completion(e) {
            return DidYouMean(fixIts: [FixIt(title: "did you mean '@\(comp)'?", range: range, replacement: comp)])
        }
        if case .notADate(let w) = e.reason, e.word == 0 {
            return didYouMean(w.lowercased(), in: DateVocabulary.spelled, at: range, file: file)
        }
        return DidYouMean()
    }

    package static func help(_ e: DatePhraseError) -> String? {
        completion(e).map { "did you mean '@\($0)'?" } ?? reasonHelp(e)
    }

    /// The label under the words: what is wrong with them.
    package static func label(_ e: DatePhraseError) -> String {
        switch e.limit {
        case .numbers: return "too large"
        case .years: return "outside the calendar"
        default:
            if case .doesNotExist = e.reason, message(e).hasSuffix("time that exists") { return "no such time" }
            if case .bareNumberAfterDay = e.reason { return "an hour, or title text?" }
            return e.impossible ? "no such day" : "not a date phrase"
        }
    }

    /// A date phrase's error at the words it is about.
    package static func datePhrase(_ e: DatePhraseError, range: SourceRange, file: SourceFile) -> Diagnostic {
        let m = dateFix(e, range: range, file: file)
        return Diagnostic(code: code(e), message: message(e), file: file, range: range, label: label(e),
                          help: m.help(else: reasonHelp(e)), fixIts: m.fixIts)
    }

    /// Words that are not a whole date phrase where one is needed.
    package static func wholeDate(_ e: DatePhraseError, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: e.impossible ? .E0205 : .E0203, message: message(e), file: file, range: range,
                   label: e.impossible ? "no such day" : "not a date phrase", help: help(e))
    }

    /// A date phrase error at the words of a filter; `help` when the error has none.
    package static func dateInFilter(_ e: DatePhraseError, range: SourceRange, file: SourceFile, label: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: code(e), message: message(e), file: file, range: range, label: label, help: self.help(e) ?? help)
    }

    // MARK: repeat rules

    /// The code of a repeat's words that do not read: E0210, E0218 for times of day one rule
    /// cannot hold, or a limit's.
    package static func code(_ e: RepeatRuleError) -> DiagnosticCode {
        switch e.reason {
        case .nthWithTimes, .timesNotAGrid: return .E0218
        case .intervalTooLarge(_, refused: true): return .E0007
        case .date(let d): return d.limit.map(code) ?? .E0210
        default: return .E0210
        }
    }

    package static func message(_ e: RepeatRuleError) -> String {
        switch e.reason {
        case .notARule: return "not a repeat rule"
        case .noEvery: return "a repeat starts with 'every'"
        case .nthWithTimes: return "a rule on the nth of some days has one time of day"
        case .quarterDay: return "a quarter's day is counted from its start (the 1st) or its end (the last day)"
        case .intervalRange: return "an interval is from 1 to \(Limits.grouped(Limits.repeatInterval))"
        case .intervalTooLarge(let w, _):
            return numberTooLargeText(w) + "; an interval is from 1 to \(Limits.grouped(Limits.repeatInterval))"
        case .expectedPeriod(let afterAmount):
            return afterAmount ? "expected day, week, month, year, hour or minute after the amount"
                : "expected a weekday, day, week, month, quarter or year after 'every'"
        case .expectedDayOfMonth: return "expected a day of that month"
        case .mixedNth: return "the nth of different days in one rule"
        case .mixedDayKinds: return "days of the month, nth weekdays and the nth of some days are separate rules"
        case .dayOfMonthRange: return "a day of the month is from 1 to 31"
        case .expectedTimeAfterTo: return "expected a time after 'to'"
        case .timesBackwards: return "the times run from the earlier to the later"
        case .timesNotAGrid(let times):
            return "these times cannot be one rule: its times are every hour given with every minute given (\(RepeatRule.list(times.map(RepeatRule.timeWord))))"
        case .hourlyWithTimes: return "an hourly rule takes its times from the anchor"
        case .expectedTimeAfterAt: return "expected a time after 'at'"
        case .expectedDateAfter(let w): return "expected a date after '\(w)'"
        case .needsNow: return "a relative date in a repeat needs a now"
        case .date(let d): return message(d)
        }
    }

    package static func help(_ e: RepeatRuleError) -> String? {
        if let s = suggestion(e) { return s }
        switch e.reason {
        case .notARule(let example): return example ? "for example: every day, every monday, every 2 weeks" : nil
        case .nthWithTimes: return "RFC 5545 counts the nth over the day's times too; make one task for each time"
        case .intervalRange: return "for example: every 3 days, every 2 weeks"
        case .expectedPeriod: return "for example: every 3 days, every 2 weeks, every month on the 15th"
        case .mixedNth: return "for example: the 1st weekday, the last weekend day"
        case .mixedDayKinds: return "for example: the 1st and 15th, the 2nd tuesday, the last weekday"
        case .expectedTimeAfterTo, .timesBackwards: return "for example: from 9am to 5pm"
        case .timesNotAGrid: return "give times that share their minutes (at 9am and 5pm), or make one task for each time"
        case .expectedTimeAfterAt: return "for example: at 9am"
        case .expectedDateAfter: return "for example: from 2026-06-15, until dec 31"
        case .needsNow: return "write the date as 2026-06-15"
        case .date(let d): return help(d)
        default: return nil
        }
    }

    /// The did-you-mean of words that are no rule: the nearest rules Kept reads (R-CAP-9).
    package static func suggestion(_ e: RepeatRuleError) -> String? {
        guard let first = e.suggestions.first else { return nil }
        let rest = e.suggestions.dropFirst().map { " or '\($0)'" }.joined()
        return "did you mean '\(first)'\(rest)?"
    }

    /// Words of `repeat`, `set ID repeat` or `rrule` that are not a rule.
    package static func badRepeat(_ e: RepeatRuleError, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: code(e), message: message(e), file: file, range: range, label: "not a repeat rule",
                   help: help(e) ?? "for example: every day, every mon and thu, every month on the 31st")
    }

    // MARK: RRULE

    /// The code of an RRULE that does not read, or of a rule no RRULE says.
    package static func code(_ e: RRULEError) -> DiagnosticCode {
        switch e {
        case .notNameValue, .badFrequency, .unknownPart, .notARepeatProperty, .noRRULELine, .noDTSTARTLine, .notAnRRULE, .wordsAfterRRULE:
            return .E0210
        case .afterCompletion, .unreadableRepeat: return .E0211
        case .partTwice, .itemOutOfRange, .badInterval, .skipWithoutRSCALE, .badSkip, .badWeekStart, .badCount, .badWeekday,
             .tooManyOfAWeekday, .badUntil, .notNameColonValue, .badDateValue:
            return .E0215
        case .weekNumberNotYearly, .yearDayNotAllowed, .monthDayInWeekly, .setPositionAlone, .countAndUntil, .numberedWeekday,
             .numberedWeekdayWithWeekNumber:
            return .E0216
        case .intervalPastLimit: return code(.repeatInterval)
        case .dateUntilOfTimedRule: return .E0217
        case .noDates: return .E0219
        case .secondly, .calendar, .skipForward, .bySecond: return .E0220
        }
    }

    package static func message(_ e: RRULEError) -> String {
        switch e {
        case .notNameValue(let part): return "'\(part)' is not NAME=VALUE"
        case .badFrequency: return "FREQ must be DAILY, WEEKLY, MONTHLY, YEARLY, HOURLY or MINUTELY"
        case .unknownPart(let name): return "\(name) is not supported by Kept's rules"
        case .notARepeatProperty(let name): return "\(name) is not a property of a repeat (DTSTART, RRULE, EXDATE, RDATE)"
        case .noRRULELine: return "a repeat needs its RRULE line"
        case .noDTSTARTLine: return "a repeat needs its DTSTART line"
        case .notAnRRULE: return "not an RRULE"
        case .wordsAfterRRULE: return "unexpected words after the RRULE"
        case .afterCompletion: return "'after completion' counts from the day a task is done, which an RRULE cannot say"
        case .unreadableRepeat: return "the repeat could not be read"
        case .partTwice(let name): return "\(name) appears twice"
        case .itemOutOfRange(let name, let value, let item, let range, let zero):
            return "\(name)=\(value): '\(item)' is not \(zero ? "" : "a non-zero ")value from \(range.lowerBound) to \(range.upperBound)"
        case .badInterval: return "INTERVAL must be from 1 to 1000"
        case .intervalPastLimit(let n): return "INTERVAL=\(n.count > 24 ? String(n.prefix(20)) + "…" : n) is past \(Limits.grouped(Limits.repeatInterval)), the largest interval Kept holds"
        case .skipWithoutRSCALE: return "SKIP goes with RSCALE (RFC 7529)"
        case .badSkip: return "SKIP must be OMIT, BACKWARD or FORWARD"
        case .badWeekStart(let w): return "WKST=\(w) is not a weekday (MO … SU)"
        case .badCount: return "COUNT must be a whole number from 1"
        case .badWeekday(let v, let item): return "BYDAY=\(v): '\(item)' is not a weekday like MO, 2TU or -1FR"
        case .tooManyOfAWeekday(let item, let inMonth):
            return inMonth ? "BYDAY=\(item): a month has at most five of a weekday" : "BYDAY=\(item): a year has at most 53 of a weekday"
        case .badUntil(let u): return "UNTIL=\(u) is not a date like 20261231 or a date-time like 20261231T235959Z"
        case .notNameColonValue(let line): return "'\(line)' is not NAME:VALUE"
        case .badDateValue(let name, let item): return "\(name): '\(item)' is not a date like 20260701 or a date-time like 20260701T090000"
        case .weekNumberNotYearly: return "BYWEEKNO is only for yearly rules (RFC 5545)"
        case .yearDayNotAllowed: return "BYYEARDAY is not for daily, weekly or monthly rules (RFC 5545)"
        case .monthDayInWeekly: return "BYMONTHDAY is not for weekly rules (RFC 5545)"
        case .setPositionAlone: return "BYSETPOS goes with another BY part (RFC 5545)"
        case .countAndUntil: return "COUNT and UNTIL cannot both end a rule (RFC 5545)"
        case .numberedWeekday(let item): return "BYDAY=\(item): a numbered weekday is only for monthly and yearly rules (RFC 5545)"
        case .numberedWeekdayWithWeekNumber(let item): return "BYDAY=\(item) with BYWEEKNO: a numbered weekday of a week number is ambiguous"
        case .dateUntilOfTimedRule(let u): return "UNTIL=\(u) is a date, but the rule has times of day: write the last moment, like \(u)T235959Z"
        case .noDates: return "this rule has no dates: no month it allows has the day it asks for"
        case .secondly: return "FREQ=SECONDLY is not supported: Kept's times are to the minute"
        case .calendar(let rs): return "RSCALE=\(rs) is not supported: Kept's calendar is the Gregorian one"
        case .skipForward: return "a SKIP that moves a missing day out of its month or year goes with days of the month or year, not with ordinal weekdays, BYWEEKNO or BYSETPOS"
        case .bySecond(let v): return "BYSECOND=\(v) is not supported: Kept's times are to the minute"
        }
    }

    /// An RRULE of `repeat` or `rrule` that does not read.
    package static func badRRULE(_ e: RRULEError, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: code(e), message: message(e), file: file, range: range, label: "not an RRULE Kept reads")
    }

    /// A rule that no RRULE can say.
    package static func noRRULE(_ rule: String, _ e: RRULEError, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0211, message: "'\(rule)' cannot be written as an RRULE", file: file, range: range,
                   label: "no RRULE says this", notes: [message(e)])
    }

    // MARK: capture

    package static func code(_ e: CaptureError) -> DiagnosticCode {
        switch e.reason {
        case .secondDue, .startNotOneDate: return .E0203
        case .date(let d), .startDate(let d): return code(d)
        case .repeat(let r): return code(r)
        case .priority, .parentNotAnID: return .E0209
        case .noTitle: return .E0208
        }
    }

    package static func message(_ e: CaptureError) -> String {
        switch e.reason {
        case .secondDue: return "a task takes one due date"
        case .date(let d), .startDate(let d): return message(d)
        case .repeat(let r): return message(r)
        case .priority(let word): return "'!\(word)' is not a priority"
        case .startNotOneDate(let value): return "'\(value)' is not one date"
        case .parentNotAnID(let value): return "'\(value)' is not a task id"
        case .noTitle: return "the task has no title"
        }
    }

    package static func label(_ e: CaptureError) -> String {
        switch e.reason {
        case .secondDue: return "a second date"
        case .date(let d): return label(d)
        case .repeat: return "not a repeat Kept makes"
        case .priority: return "expected !low, !medium, !high, !critical or !1 to !4"
        case .startDate, .startNotOneDate: return "not a start date"
        case .parentNotAnID: return "expected the id of the parent task"
        case .noTitle: return "only tokens here"
        }
    }

    /// The did-you-mean of a capture error whose words are at `range`.
    package static func fix(_ e: CaptureError, range: SourceRange, file: SourceFile?) -> DidYouMean {
        switch e.reason {
        case .date(let d):
            guard let file else { return DidYouMean(help: help(d)) }
            return dateFix(d, range: range, file: file)
        case .priority(let word):
            // The range holds `!word`; the fix replaces the word.
            return didYouMean(word, in: ["low", "medium", "med", "high", "critical", "urgent"], at: range, file: file, sign: "!")
        default: return DidYouMean()
        }
    }

    package static func help(_ e: CaptureError) -> String? {
        let fallback: String?
        switch e.reason {
        case .secondDue: fallback = "keep one '@' date"
        case .date(let d), .startDate(let d): fallback = help(d)
        case .repeat(let r):
            if let s = suggestion(r) { fallback = s + " (write \\every to keep the words in the title)" }
            else { fallback = help(r) ?? "write \\every to keep the words in the title" }
        case .priority(let word): fallback = "write \\!\(word) to keep it as text"
        case .startNotOneDate: fallback = "quote a phrase of several words: start:\"next fri\""
        case .parentNotAnID: fallback = nil
        case .noTitle: fallback = "write a title, or escape a token with '\\' to keep it as text"
        }
        let m = fix(e, range: SourceRange(start: e.start, end: e.end), file: nil)
        return m.fixIts.first?.title ?? m.help ?? fallback
    }

    /// R-CAP-10: a slash date that reads in either order, read month/day (the `date-order`
    /// in effect) in a zone where day/month is usual; asked once a session.
    package static func dateOrderUnset(_ slash: String, read date: CivilDate, zone: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .W0003, message: "'\(slash)' was read as month/day (\(TimeText.monthShort(date.month)) \(date.day)), but in \(zone) dates are usually day/month",
                          file: file, range: range, label: "month/day or day/month?",
                          help: "set date-order dmy to read it as day/month, or set date-order mdy to keep month/day; \(date.iso) reads one way only")
    }

    /// A capture line's error at its words: `line` is where the line starts in the file.
    package static func capture(_ e: CaptureError, lineStart: Int, file: SourceFile) -> Diagnostic {
        let r = SourceRange(start: lineStart + e.start, end: lineStart + e.end)
        let m = fix(e, range: r, file: file)
        return Diagnostic(code: code(e), message: message(e), file: file, range: r, label: label(e),
                          help: m.help(else: help(e)), fixIts: m.fixIts)
    }
}
