// Date phrases resolved against now, the zone, the day start and the week start (docs/CAPTURE.md's
// table). Pure: the same words at the same now give the same date (R-CAP-3). The rule that
// decided is kept in words for `explain date`, and only built when asked for.

/// What a date phrase resolves against.
public struct DateContext: Sendable {
    /// Now, as a wall-clock reading in the account zone.
    public var now: CivilDateTime
    /// The account's today, after the day start (R-DAY-2).
    public var today: CivilDate
    public var settings: Settings
    /// The account zone, for wall-clock times that a DST change skips.
    public var zone: Zone
    /// Now as an instant: during a repeated hour the wall reading alone does not say which.
    public var nowInstant: Instant

    public init(now: CivilDateTime, today: CivilDate, settings: Settings, zone: Zone, instant: Instant? = nil) {
        self.now = now
        self.today = today
        self.settings = settings
        self.zone = zone
        self.nowInstant = instant ?? zone.instant(for: now)
    }
}

/// A resolved phrase: the due it sets and, when asked for, the rule that decided it.
public struct ResolvedDate: Sendable, Equatable {
    public var due: Due
    public var rule: String
    /// A slash date that reads as a date in either order (`3/4`), its day and month: read by the
    /// `date-order` setting, and worth a question where the zone suggests the other (R-CAP-10).
    public var ambiguousSlash: String? = nil
}

/// Parses and resolves date phrases.
public enum DatePhrase {
    /// Classifies words given as strings (the hot paths classify bytes in place).
    public static func classify(_ words: [String]) -> [DateWord] {
        words.map { w in
            let u = Array(w.utf8)
            return u.withUnsafeBufferPointer { DateVocabulary.classify($0, from: 0, to: u.count) }
        }
    }

    /// Resolves the longest phrase at the start of `words`; `used` says how many words it took.
    public static func resolve(_ words: [String], in ctx: DateContext, explain: Bool = false) -> Result<(ResolvedDate, used: Int), DatePhraseError> {
        let classes = classify(words)
        switch parse(classes, words: words) {
        case .failure(let e): return .failure(e)
        case .success(let (spec, used)):
            return resolve(spec, in: ctx, explain: explain).map { ($0, used) }
        }
    }

    /// Parses classified words; a first word that is not a date word gets a did-you-mean.
    public static func parse(_ classes: [DateWord], words: [String]) -> Result<(DateSpec, used: Int), DatePhraseError> {
        guard let first = classes.first else {
            return .failure(DatePhraseError(word: 0, .missing))
        }
        if case .impossible = first {
            return .failure(DatePhraseError(word: 0, .doesNotExist(words.first ?? "")))
        }
        if let e = limitError(classes, words: words, upTo: 0) { return .failure(e) }
        switch DatePhraseParser.parse(classes) {
        case .success(let r):
            // R-CAP-7: an impossible time after a day is refused, not left over.
            if let e = DatePhraseParser.timeAfterDay(r.0, classes, used: r.used, bareNumbers: false, text: { $0 < words.count ? words[$0] : "" }) {
                return .failure(e)
            }
            return .success(r)
        case .failure(var e):
            // A number or a year past the limits where the phrase stopped (`in 9999999999 days`).
            if let l = limitError(classes, words: words, upTo: e.word + 1) { return .failure(l) }
            // A word with the shape of a date or time but impossible values (`the 32nd`).
            if let k = classes.firstIndex(of: .impossible), k <= e.word + 1 {
                let w = k < words.count ? words[k] : ""
                return .failure(DatePhraseError(word: k, .wordDoesNotExist(w)))
            }
            if e.word == 0 || !(e.word < words.count) {
                let w = words.first ?? ""
                if case .other = first {
                    e = DatePhraseError(word: 0, .notADate(w))
                }
            }
            return .failure(e)
        }
    }

    /// The error of the first word up to `upTo` that is a number or a year past the limits.
    package static func limitError(_ classes: [DateWord], words: [String], upTo last: Int) -> DatePhraseError? {
        var k = 0
        while k <= last, k < classes.count {
            let w = k < words.count ? words[k] : ""
            switch classes[k] {
            case .tooLarge:
                return DatePhraseError(word: k, .numberTooLarge(w))
            case .outOfCalendar:
                return DatePhraseError(word: k, .yearPastCalendar(w))
            default:
                k += 1
            }
        }
        return nil
    }

    /// Turns a parsed phrase into a due.
    public static func resolve(_ spec: DateSpec, in ctx: DateContext, explain: Bool = false) -> Result<ResolvedDate, DatePhraseError> {
        var rule = ""
        if let m = spec.minutesFromNow {
            // Elapsed time from the instant now is (the second 01:30 of a repeated hour is not the first).
            let instant = ctx.nowInstant.adding(minutes: m)
            // `in 999999999 hours` is past the calendar: refused, not clamped to its last day.
            guard Instant.supportedSeconds.contains(Int(clamping: instant.seconds)) else { return .failure(.outOfCalendar()) }
            let l = ctx.zone.local(at: instant)
            note(&rule, explain, "\(m) minutes after now (\(TimeText.time(ctx.now.time, .h24)))")
            return .success(ResolvedDate(due: Due(date: l.date, time: l.time), rule: rule))
        }
        if let dt = spec.dateTime {
            note(&rule, explain, "an ISO date-time is that day at that time")
            return .success(wall(dt, ctx, explain: explain, rule: rule))
        }
        var time: WallTime? = nil
        if let t = spec.time {
            switch t {
            case .time(let w): time = w
            case .named(let n, _):
                time = namedTime(n, ctx.settings)
                note(&rule, explain, "'\(n.rawValue)' is \(time.map { $0.iso } ?? "") (setting '\(n.rawValue)')")
            case .bareHour(let h):
                guard h == 0 || (h >= 8 && h <= 23) else {
                    return .failure(DatePhraseError(word: 0, .ambiguousHour(h)))
                }
                time = WallTime(hour: h, minute: 0)
                note(&rule, explain, "'at \(h)' is \(h):00 on the 24-hour clock (hours 1 to 7 need am or pm)")
            }
        }
        guard let dayRef = spec.day else {
            guard let t = time else {
                return .failure(DatePhraseError(word: 0, .notADateOrTime))
            }
            if case .named(_, let today)? = spec.time, today {
                note(&rule, explain, "'\(spec.time.map(describe) ?? "")' is today's")
                return .success(wall(CivilDateTime(date: ctx.today, time: t), ctx, explain: explain, rule: rule))
            }
            // R-CAP-3: a time alone is today while it is still ahead, else tomorrow. Ahead as an
            // instant: in the repeated hour a wall time is its first instant (R-DAY-3), which
            // may have passed although the wall clock has not reached it (01:45 at the second 01:30).
            let ahead = t > ctx.now.time && ctx.zone.instant(for: CivilDateTime(date: ctx.now.date, time: t)) > ctx.nowInstant
            guard let d = ahead ? ctx.now.date : ctx.now.date.addingChecked(days: 1) else { return .failure(.outOfCalendar()) }
            note(&rule, explain, ahead ? "a time alone is today while it is still ahead" : "a time alone that has passed today is tomorrow")
            return .success(wall(CivilDateTime(date: d, time: t), ctx, explain: explain, rule: rule))
        }
        switch day(dayRef, ctx, explain: explain) {
        case .failure(let e): return .failure(e)
        case .success(let (d, why)):
            if explain { rule = rule.isEmpty ? why : why + "; " + rule }
            var r = time.map { wall(CivilDateTime(date: d, time: $0), ctx, explain: explain, rule: rule) } ?? ResolvedDate(due: Due(date: d), rule: rule)
            if case .slash(let a, let b, _) = dayRef, a != b, a >= 1, a <= 12, b >= 1, b <= 12 { r.ambiguousSlash = "\(a)/\(b)" }
            return .success(r)
        }
    }

    /// Adds a sentence to the rule, building it only when an explanation was asked for.
    @inline(__always)
    package static func note(_ rule: inout String, _ explain: Bool, _ s: @autoclosure () -> String) {
        if explain { rule += rule.isEmpty ? s() : "; " + s() }
    }

    package static func describe(_ t: TimeRef) -> String {
        switch t {
        case .time(let w): return w.iso
        case .named(let n, let today): return (today && n != .tonight ? "this " : "") + n.rawValue
        case .bareHour(let h): return "at \(h)"
        }
    }

    package static func namedTime(_ n: NamedTime, _ s: Settings) -> WallTime {
        switch n {
        case .morning: return s.morning
        case .afternoon: return s.afternoon
        case .evening: return s.evening
        case .tonight: return s.tonight
        }
    }

    /// A date with a time, moved forward out of a DST gap (docs/CAPTURE.md).
    package static func wall(_ dt: CivilDateTime, _ ctx: DateContext, explain: Bool, rule: String) -> ResolvedDate {
        let r = ctx.zone.resolve(dt)
        var rule = rule
        if case .skipped(let minutes) = r.kind {
            if explain {
                rule += (rule.isEmpty ? "" : "; ") + "\(dt.time.iso) does not exist on \(dt.date.iso) in \(ctx.zone.identifier), so it moves forward \(minutes) minutes to \(r.wall.time.iso)"
            }
            return ResolvedDate(due: Due(date: r.wall.date, time: r.wall.time), rule: rule)
        }
        if case .repeated = r.kind, explain {
            rule += (rule.isEmpty ? "" : "; ") + "\(dt.time.iso) happens twice on \(dt.date.iso) in \(ctx.zone.identifier); the first is meant"
        }
        return ResolvedDate(due: Due(date: dt.date, time: dt.time), rule: rule)
    }

    package static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                             "october", "november", "december"]

    /// The day a day reference means, with the rule in words when `explain` is set.
    package static func day(_ ref: DayRef, _ ctx: DateContext, explain: Bool) -> Result<(CivilDate, String), DatePhraseError> {
        let today = ctx.today
        let rules = ctx.settings.day
        // Every date is worked out with checked arithmetic: one past 9999-12-31 (or before
        // 0001-01-01) is refused (docs/LIMITS.md), never clamped to the calendar's end.
        func ok(_ d: CivilDate?, _ why: @autoclosure () -> String) -> Result<(CivilDate, String), DatePhraseError> {
            guard let d else { return .failure(.outOfCalendar()) }
            return .success((d, explain ? why() : ""))
        }
        switch ref {
        case .relative(let n):
            return ok(today.addingChecked(days: n), "\(n == 0 ? "today" : (n == 1 ? "tomorrow" : "yesterday")) is counted from the account day \(today.iso) (day starts \(rules.dayStart.iso))")
        case .date(let d):
            return ok(d, "an ISO date is that day")
        case .weekday(let wd, var mode):
            if mode == .next { mode = ctx.settings.nextWeekday == .coming ? .coming : .nextWeek }
            let weekStart = rules.startOfWeek(containing: today)
            let inWeek = rules.weekStart.days(until: wd)
            switch mode {
            case .coming, .next:
                var delta = today.weekday.days(until: wd)
                if delta == 0 { delta = 7 }
                let d = today.addingChecked(days: delta)
                return ok(d, (delta == 7
                    ? "\(wd.shortName.lowercased()) is the first \(wd.name) strictly after today; today is a \(wd.name), so it is next week's"
                    : "\(wd.shortName.lowercased()) is the first \(wd.name) strictly after today (\(TimeText.shortDate(today)))")
                    + (ref == .weekday(wd, .next) ? "; 'next' means the coming one (setting next-weekday coming)" : ""))
            case .this:
                return ok(weekStart.addingChecked(days: inWeek), "this \(wd.shortName.lowercased()) is the \(wd.name) of the current week, which starts \(TimeText.shortDate(weekStart)) (week-start \(rules.weekStart.name.lowercased()))")
            case .nextWeek:
                guard let nw = weekStart.addingChecked(days: 7) else { return .failure(.outOfCalendar()) }
                return ok(nw.addingChecked(days: inWeek), "the \(wd.name) of next week, which starts \(TimeText.shortDate(nw))"
                    + (ref == .weekday(wd, .next) ? " (setting next-weekday following-week)" : ""))
            }
        case .nextPeriod(let u):
            switch u {
            case .week:
                guard let d = rules.startOfWeek(containing: today).addingChecked(days: 7) else { return .failure(.outOfCalendar()) }
                return ok(d, "next week starts \(TimeText.shortDate(d)) (week-start \(rules.weekStart.name.lowercased()))")
            case .month:
                return ok(today.firstOfMonth.addingChecked(months: 1), "next month starts on its 1st")
            default:
                return ok(today.firstOfYear.addingChecked(years: 1), "next year starts on Jan 1")
            }
        case .endOf(let u):
            switch u {
            case .week:
                return ok(rules.startOfWeek(containing: today).addingChecked(days: 6), "the last day of the current week (week-start \(rules.weekStart.name.lowercased()))")
            case .month:
                return ok(today.lastOfMonth, "the last day of the current month")
            default:
                return ok(today.lastOfYear, "the last day of the current year")
            }
        case .weekend(let next):
            var delta = today.weekday.days(until: .saturday)
            if today.weekday == .sunday { delta = -1 }
            if next { delta += 7 }
            return ok(today.addingChecked(days: delta), next ? "next weekend starts the Saturday after this weekend's" : "this weekend starts on its Saturday (today, if today is in it)")
        case .monthDay(let m, let dd, let y):
            let name = m >= 1 && m <= 12 ? TimeText.monthShort(m) : String(m)
            guard m >= 1, m <= 12, dd >= 1, dd <= 31, dd <= maxDay(m) else {
                return .failure(DatePhraseError(word: 0, .noSuchDay(month: m, day: dd, year: nil)))
            }
            if let y {
                guard let d = CivilDate(year: y, month: m, day: dd) else {
                    return .failure(DatePhraseError(word: 0, .noSuchDay(month: m, day: dd, year: y)))
                }
                return ok(d, "a day with its year is that day")
            }
            // The next such day that is not in the past; Feb 29 waits for a leap year.
            var year = today.year
            for _ in 0..<9 {
                if year > Limits.lastYear { return .failure(.outOfCalendar()) }
                if let d = CivilDate(year: year, month: m, day: dd), d >= today {
                    return ok(d, "\(name) \(dd) is the next \(name.prefix(1).uppercased() + name.dropFirst()) \(dd) that is not in the past")
                }
                year += 1
            }
            return .failure(DatePhraseError(word: 0, .noSuchDay(month: m, day: dd, year: nil)))
        case .dayOfMonth(let dd):
            var first = today.firstOfMonth
            for _ in 0..<13 {
                if let d = CivilDate(year: first.year, month: first.month, day: dd), d >= today {
                    return ok(d, "the \(ordinal(dd)) is the next \(ordinal(dd)) of a month that is not in the past")
                }
                guard let next = first.addingChecked(months: 1) else { return .failure(.outOfCalendar()) }
                first = next
            }
            return .failure(DatePhraseError(word: 0, .noSuchDayOfMonth(dd)))
        case .slash(let a, let b, let y):
            let mdy = ctx.settings.dateOrder == .mdy
            let (m, dd) = mdy ? (a, b) : (b, a)
            let order = mdy ? "month/day (date-order mdy)" : "day/month (date-order dmy)"
            switch day(.monthDay(month: m, day: dd, year: y), ctx, explain: explain) {
            case .success(let (d, why)): return ok(d, "\(a)/\(b) reads as \(order); " + why)
            case .failure:
                return .failure(DatePhraseError(word: 0, .notASlashDate(a, b, year: y, monthFirst: mdy)))
            }
        case .inDays(let n, let u):
            // n ≤ Limits.largestNumber (the classifier reads no more), so 7 * n cannot overflow.
            switch u {
            case .week: return ok(today.addingChecked(days: 7 * n), "\(n) week\(n == 1 ? "" : "s") after today")
            case .month: return ok(today.addingChecked(months: n), "\(n) month\(n == 1 ? "" : "s") after today, clamped to the month's end")
            case .year: return ok(today.addingChecked(years: n), "\(n) year\(n == 1 ? "" : "s") after today")
            default: return ok(today.addingChecked(days: n), "\(n) day\(n == 1 ? "" : "s") after today")
            }
        }
    }

    /// The most days a month ever has (Feb 29 in leap years).
    package static func maxDay(_ m: Int) -> Int {
        switch m {
        case 2: return 29
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func ordinal(_ n: Int) -> String {
        let suffix: String
        if (11...13).contains(n % 100) { suffix = "th" } else {
            switch n % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(n)\(suffix)"
    }
}
