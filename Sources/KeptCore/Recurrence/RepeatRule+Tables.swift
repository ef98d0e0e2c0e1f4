// A rule's tables: what the walks look up that depends on the rule's parts alone, not on the
// anchor (but for the months of a yearly rule in Kept's words, which come from the anchor: the
// tables are made for January). The month masks by first weekday and length (MonthMaskMemo),
// for daily, hourly and minutely rules the year types' residues (YearSkip) and BYYEARDAY
// values (YearDayTypes), and for yearly rules the days of each year type are made once, when a
// rule is read (`withTables()`: the RRULE reader and the words' parser), so that a next
// occurrence starts from them instead of making them again call after call.
// A table keeps the parts it was made from, and an Expansion takes it only when the day parts
// it derives are the same; the months, and the phase's period, are checked where the year
// skips, BYYEARDAY values and year sets are read. So a rule changed after it was read (its
// parts are public) misses what no longer fits and computes that as before, with the same
// answers. Rules with the same parts share one table.

import Synchronization

/// The tables of one rule, shared by every copy of it (immutable once made).
final class RuleTables: Sendable {
    /// The parts the tables were made from (with day parts, an Expansion derives the same day
    /// parts from them), and what the Expansion derived of the month end and the months.
    let key: Key
    let clamp: Bool
    let months: UInt16
    /// The month masks of all 28 kinds of month.
    let masks: MonthMaskMemo
    /// Daily, hourly and minutely rules: YearSkip with every year type's residues known, for the
    /// phase period `skip.period` and the months `skip.months`.
    let skip: YearSkip?
    /// Daily, hourly and minutely rules with BYYEARDAY: every year type's values, for `months`.
    let yearDayTypes: YearDayTypes?
    /// Yearly rules whose year is its months (no BYYEARDAY, BYWEEKNO or ordinals in the year):
    /// every year type's days, for `months` (not an optional: reading one set of an optional
    /// would copy all 14).
    let yearSets: InlineArray<14, DaySet>
    let hasYearSets: Bool

    /// The parts of a rule its tables depend on: rules with the same share one RuleTables.
    struct Key: Hashable {
        let frequency: RepeatRule.Frequency
        let interval: Int
        let months: UInt16
        let monthFromAnchor: Bool
        let monthDays: UInt32
        let monthDaysFromEnd: UInt32
        let weekdays: UInt8
        let nthWeekdays: [RepeatRule.NthWeekday]
        let yearDays: [Int]
        let weekNo: UInt64
        let weekNoFromEnd: UInt64
        let skip: RepeatRule.Skip

        init(_ r: borrowing RepeatRule) {
            (frequency, interval, months, monthFromAnchor) = (r.frequency, r.interval, r.monthMask, r.monthFromAnchor)
            (monthDays, monthDaysFromEnd, weekdays, nthWeekdays) = (r.monthDayMask, r.monthDayFromEndMask, r.weekdayMask, r.nthWeekdays)
            (yearDays, weekNo, weekNoFromEnd, skip) = (r.yearDays, r.weekNoMask, r.weekNoFromEndMask, r.skip)
        }
    }

    /// The tables made so far, one for each distinct Key, at most `most` of them (about 1.3 KB
    /// each): the peers' 100,000 rules are 54 distinct ones, and one table for each keeps the
    /// tables in cache, where one for each task would be cold at every call. A table is never
    /// freed, so rules and walks hold it without counting references.
    private static let made = Mutex<[Key: RuleTables]>([:])
    static let most = 4096

    /// How many distinct rules have tables (for tests).
    static var count: Int { made.withLock { $0.count } }

    /// The tables of a rule with day parts (without them the anchor gives the day, and the
    /// masks would depend on it), shared with every rule of the same parts; nil for the others,
    /// and once `most` distinct rules have tables.
    static func make(_ rule: RepeatRule) -> RuleTables? {
        guard rule.hasDayParts else { return nil }
        let key = Key(rule)
        if let t = made.withLock({ $0[key] }) { return t }
        guard let t = unregistered(rule, key: key) else { return nil }
        return made.withLock { tables -> RuleTables? in
            if let other = tables[key] { return other }
            guard tables.count < most else { return nil }
            tables[key] = t
            return t
        }
    }

    /// The tables of a rule with day parts, outside the registry (the caller keeps them alive).
    static func unregistered(_ rule: RepeatRule, key: Key? = nil) -> RuleTables? {
        guard rule.hasDayParts, let anchor = CivilDate(year: 2001, month: 1, day: 1) else { return nil }
        return RuleTables(Expansion(rule, anchor: anchor, time: nil, weekStart: rule.weekStart ?? .monday), key: key ?? Key(rule))
    }

    private init(_ e: Expansion, key: Key) {
        self.key = key
        clamp = e.clamp
        months = e.months
        var memo = MonthMaskMemo()
        memo.fill(e)
        masks = memo
        switch e.frequency {
        case .daily, .hourly, .minutely:
            let p = e.dayPeriod
            var s = YearSkip(p > 1 && p <= 64 ? DayPhase(period: p, residues: 1) : .none, months: e.streamMonths)
            s.fill(e, memo: &memo)
            skip = s
            if e.walksYearDays {
                var t = YearDayTypes()
                t.fill(e, memo: &memo)
                yearDayTypes = t
            } else {
                yearDayTypes = nil
            }
        case .weekly, .monthly, .yearly:
            skip = nil
            yearDayTypes = nil
        }
        var sets = InlineArray<14, DaySet>(repeating: DaySet())
        hasYearSets = e.frequency == .yearly && e.yearIsItsMonths
        if hasYearSets {
            for t in 0..<14 { sets[t] = e.yearSet(YearInfo(Expansion.yearOfType[t]), &memo) }
        }
        yearSets = sets
    }

    /// Whether the tables were made from these parts.
    @inline(__always) func fits(monthDays md: UInt32, fromEnd mdEnd: UInt32, weekdays wd: UInt8, clamp c: Bool,
                                _ rule: borrowing RepeatRule) -> Bool {
        key.monthDays == md && key.monthDaysFromEnd == mdEnd && key.weekdays == wd && clamp == c
            && (key.nthWeekdays.isEmpty && rule.nthWeekdays.isEmpty || key.nthWeekdays == rule.nthWeekdays)
            && (key.yearDays.isEmpty && rule.yearDays.isEmpty || key.yearDays == rule.yearDays)
    }
}

/// A rule's tables as a part of the rule that equality ignores (they follow from its parts),
/// held without a reference count: every table lives as long as the process (RuleTables.made).
struct RuleTablesRef: @unchecked Sendable, Equatable {
    var table: Unmanaged<RuleTables>?

    static func == (a: RuleTablesRef, b: RuleTablesRef) -> Bool { true }
}

extension RepeatRule {
    /// The rule with its tables made (the readers return rules this way).
    public func withTables() -> RepeatRule {
        var r = self
        r.tables = RuleTablesRef(table: RuleTables.make(self).map { Unmanaged.passUnretained($0) })
        return r
    }

    /// The rule with tables of its own, outside the registry, kept alive by `owner` for as long
    /// as the rule is used (tests: the registry may be full, and walks hold tables without
    /// counting references).
    func withOwnTables(_ owner: inout [RuleTables]) -> RepeatRule {
        guard let t = RuleTables.unregistered(self) else { return self }
        owner.append(t)
        var r = self
        r.tables = RuleTablesRef(table: Unmanaged.passUnretained(t))
        return r
    }

    /// Whether the rule carries tables (for tests).
    var hasTables: Bool { tables.table != nil }
}

extension Expansion {
    /// A walk's memo of month masks: the rule's table when it has one.
    @inline(__always) var maskMemo: MonthMaskMemo { withTables { $0.masks } ?? MonthMaskMemo() }

    /// body on the rule's tables, when it has them (held without a reference count: every
    /// table lives as long as the process).
    @inline(__always) func withTables<R>(_ body: (RuleTables) -> R?) -> R? {
        guard let u = tables else { return nil }
        return u._withUnsafeGuaranteedRef { body($0) }
    }

    /// `dayParts`, from the rule's table when it has one.
    @inline(__always) func madeDayParts(firstWeekday w1: Int, length len: Int) -> UInt32 {
        withTables { $0.masks.made(firstWeekday: w1, length: len) } ?? dayParts(firstWeekday: w1, length: len)
    }

    /// A walk's year skip for `phase` and `months`: the rule's table when it was made for them.
    @inline(__always) func yearSkip(_ phase: DayPhase, months: UInt16) -> YearSkip {
        let s = YearSkip(phase, months: months)
        return withTables { t in t.skip.flatMap { $0.period == s.period && $0.months == months ? s.adopting($0) : nil } } ?? s
    }

    /// A yearly rule's days of year y, from the rule's table when it has them.
    @inline(__always) func madeYearSet(_ y: YearInfo) -> DaySet? {
        withTables { t in t.hasYearSets && t.months == months ? t.yearSets[y.type] : nil }
    }

    /// A year of each type (YearInfo.type), from 2001 on.
    static let yearOfType: [Int] = {
        var out = [Int](repeating: 0, count: 14)
        var found = 0
        var y = 2001
        while found < 14 {
            let info = YearInfo(y)
            if out[info.type] == 0 {
                out[info.type] = y
                found += 1
            }
            y += 1
        }
        return out
    }()

    /// A walk's BYYEARDAY values by year type: the rule's table when it has one.
    @inline(__always) var yearDayTypes: YearDayTypes {
        withTables { t in t.months == months ? t.yearDayTypes : nil } ?? YearDayTypes()
    }
}
