// Years left out without a walk agree with the walk (R-REP-1, RFC 5545 rules): YearSkip says a
// year cannot hold an occurrence only when none of its days both meets the day parts (the
// month masks of the plain expansion) and is reached by the INTERVAL (DayPhase); `skipYears`
// leaves out exactly the run of such years. For random day-stream rules (BYMONTH, BYMONTHDAY,
// plain BYDAY, hourly and minutely INTERVALs whose reached days repeat every few weeks) and
// monthly rules with BYDAY ordinals, every answer is compared with the days themselves. The
// BYYEARDAY walk, which leaves out the years whose values the INTERVAL cannot reach by Jan 1's
// residue, and the monthly walk, which leaves out years by YearSkip, find the first occurrence
// a plain scan of the rule's days finds.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RecurrenceYearSkipTests: XCTestCase {
    /// Whether year y has a day the rule's month masks allow and the phase admits.
    private func hasDay(_ e: Expansion, _ phase: DayPhase, year y: Int) -> Bool {
        var c = MonthCursor(year: y, month: 1)
        var memo = MonthMaskMemo()
        for _ in 0..<12 {
            var m = e.monthMask(c, &memo)
            while m != 0 {
                if phase.admits(c.base + m.trailingZeroBitCount) { return true }
                m &= m - 1
            }
            c.advance()
        }
        return false
    }

    func testYearsLeftOutHaveNoDay() {
        let dice = RuleDice(seed: 19_970_805)
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        var years = 0, empty = 0, skippedRuns = 0, words = 0
        for round in 0..<400 {
            let f = ["DAILY", "HOURLY", "MINUTELY", "MONTHLY"][pick(4)]
            let intervals = f == "DAILY" ? [1, 2, 5, 7, 40, 64, 100] : f == "HOURLY" ? [5, 25, 49, 100, 1000]
                : f == "MINUTELY" ? [7, 45, 1000, 6000] : [1]
            var parts = ["FREQ=" + f, "INTERVAL=\(intervals[pick(intervals.count)])"]
            if pick(2) == 0 { parts.append(dice.months(3)) }
            if pick(4) != 0 { parts.append(dice.monthDays(3)) }
            if f == "MONTHLY" {
                parts.append("BYDAY=" + (0..<(1 + pick(2))).map { _ in "\([1, 2, 4, 5, -1, -5][pick(6)])" + codes[pick(7)] }.joined(separator: ","))
            } else if pick(3) != 0 {
                parts.append(dice.weekdays(2))
            }
            if f == "HOURLY" || f == "MINUTELY" { parts.append("BYHOUR=" + some(1 + pick(3)) { pick(24) }) }
            if f == "MINUTELY" { parts.append("BYMINUTE=" + some(1 + pick(2)) { pick(60) }) }
            let text = parts.joined(separator: ";")
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { continue }
            let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
            let anchor = CivilDate(dayNumber: 18_000 + pick(4000))
            let e = rule.expansion(anchor: anchor, time: WallTime(minuteOfDay: pick(1440)), weekStart: .monday)
            let phase = e.dayPhase()
            if e.nthWeekdays.isEmpty, e.yearDays.isEmpty { words += 1 }
            var skip = YearSkip(phase, months: e.streamMonths)
            var memo = MonthMaskMemo()
            let label = "round \(round): \(text) from \(anchor.iso)"
            let first = 1990 + pick(200)
            var has: [Bool] = []
            for y in first..<(first + 60) {
                let c = MonthCursor(year: y, month: 1)
                let want = hasDay(e, phase, year: y)
                has.append(want)
                XCTAssertEqual(skip.mayHave(e, base: c.base, jan1Weekday: c.firstWeekday, leap: c.leap, memo: &memo), want, label + " year \(y)")
                years += 1
                if !want { empty += 1 }
            }
            // From each of a few Januaries, the run left out is the run of years without a day.
            for _ in 0..<4 {
                let i = pick(40)
                var c = MonthCursor(year: first + i, month: 1)
                var fresh = YearSkip(phase, months: e.streamMonths)
                let most = 1 + pick(20)
                let got = fresh.skipYears(e, &c, end: Int.max, most: most, memo: &memo)
                var want = 0
                while want < most, !has[i + want] { want += 1 }
                XCTAssertEqual(got, want, label + " from \(first + i), at most \(most)")
                XCTAssertEqual(c.base, MonthCursor(year: first + i + want, month: 1).base, label + " the January reached")
                XCTAssertEqual(c.firstWeekday, MonthCursor(year: first + i + want, month: 1).firstWeekday, label + " its weekday")
                if want > 1 { skippedRuns += 1 }
            }
        }
        XCTAssertGreaterThan(years, 15_000)
        XCTAssertGreaterThan(empty, 3000, "years without a day")
        XCTAssertGreaterThan(skippedRuns, 100, "runs of several years left out")
        XCTAssertGreaterThan(words, 200, "rules whose year types come from the day words")
    }

    func testYearSkippingWalksFindWhatTheScanFinds() {
        let dice = RuleDice(seed: 20_261_203)
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        var compared = 0, far = 0, monthly = 0
        for round in 0..<1100 {
            let f = ["DAILY", "HOURLY", "MINUTELY", "MONTHLY"][pick(4)]
            let intervals = f == "DAILY" ? [1, 3, 5, 40, 64, 100] : f == "HOURLY" ? [5, 25, 49, 100]
                : f == "MINUTELY" ? [7, 45, 1000, 6000] : [1, 2, 3, 4, 6, 12]
            let n = intervals[pick(intervals.count)]
            var parts = ["FREQ=" + f, "INTERVAL=\(n)"]
            if f == "MONTHLY" {
                // Rare days: a fifth or a last weekday in one or two months, with BYMONTHDAY.
                parts.append(dice.months(2))
                parts.append("BYDAY=" + "\([5, -5, 4, -1][pick(4)])" + codes[pick(7)])
                if pick(2) == 0 { parts.append("BYMONTHDAY=" + some(1 + pick(2)) { 22 + pick(10) }) }
            } else {
                parts.append("BYYEARDAY=" + some(1 + pick(3)) { (1 + pick(366)) * (pick(2) == 0 ? 1 : -1) })
                if pick(6) == 0 { parts.append(dice.months(6)) }
                if pick(2) == 0 { parts.append(dice.weekdays(3)) }
            }
            if f != "DAILY" { parts.append("BYHOUR=" + some(1 + pick(3)) { pick(24) }) }
            if f == "MINUTELY" { parts.append("BYMINUTE=" + some(1 + pick(2)) { pick(60) }) }
            let text = parts.joined(separator: ";")
            guard let ahead = checkWalk(text, monthly: f == "MONTHLY" ? n : 0, dice: dice, round: round,
                                        walks: { f == "MONTHLY" || $0.walksYearDays }) else { continue }
            compared += 1
            if f == "MONTHLY" { monthly += 1 }
            if ahead > 3650 { far += 1 }
        }
        XCTAssertGreaterThan(compared, 150)
        XCTAssertGreaterThan(monthly, 60, "monthly rules")
        XCTAssertGreaterThan(far, 30, "first occurrences more than ten years ahead")
    }

    /// One rule's walk (`first(atOrAfter:)`) against the scan, from a random anchor and k, when
    /// `walks` says the walk under test serves it: the days from k to the first occurrence when
    /// the scan found one (nil when not compared).
    private func checkWalk(_ text: String, monthly n: Int, dice: RuleDice, round: Int, walks: (Expansion) -> Bool) -> Int? {
        let pick = dice.pick
        guard case .success(let r) = RepeatRule.fromRRULE(text) else { return nil }
        let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
        let anchor = CivilDate(dayNumber: 18_000 + pick(4000))
        let e = rule.expansion(anchor: anchor, time: WallTime(minuteOfDay: pick(1440)), weekStart: .monday)
        guard walks(e) else { return nil }
        let k = max(e.startKey, (e.anchorDay + pick(3000)) * OccurrenceKey.minutesPerDay + pick(1440))
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        let years = 300
        let (want, scanEnd) = scanFirst(e, atOrAfter: k, monthly: n, anchor: anchor, years: years)
        let got = e.first(atOrAfter: k)
        let label = "round \(round): \(text) from \(anchor.iso) at or after day \(kDay)"
        if let want {
            XCTAssertEqual(got, want, label)
            return floorDiv(want, OccurrenceKey.minutesPerDay) - kDay
        }
        if let got { XCTAssertGreaterThanOrEqual(floorDiv(got, OccurrenceKey.minutesPerDay), scanEnd, label + ": none in \(years) years") }
        return nil
    }

    /// The first occurrence at or after k by a scan of every day the month masks allow
    /// (BYYEARDAY among them), in order, for `years` years; a monthly rule's (`monthly`: its
    /// INTERVAL) months of the series (every n-th from the anchor's) whole. Also the day number
    /// where the scan stopped.
    private func scanFirst(_ e: borrowing Expansion, atOrAfter k: OccurrenceKey, monthly n: Int, anchor: CivilDate, years: Int) -> (OccurrenceKey?, Int) {
        let kDay = floorDiv(k, OccurrenceKey.minutesPerDay)
        var c = MonthCursor(containing: kDay)
        var memo = MonthMaskMemo()
        for _ in 0..<(12 * years) {
            var m = e.monthMask(c, &memo)
            if n > 0 {
                if (c.year * 12 + c.month - anchor.year * 12 - anchor.month) % n == 0, m != 0,
                   let key = e.first(in: DaySet(mask: m), base: c.base, atOrAfter: k) {
                    return (key, c.base)
                }
                m = 0
            }
            while m != 0 {
                let d = c.base + m.trailingZeroBitCount
                m &= m - 1
                if d >= kDay, let key = e.firstOnDay(d, atOrAfter: k) { return (key, c.base) }
            }
            c.advance()
        }
        return (nil, c.base)
    }

    /// The day-stream walk over months (BYMONTHDAY and BYDAY, no BYYEARDAY), which leaves out
    /// whole years from the first January after six months without an occurrence, finds what
    /// the scan finds: rare days (a weekday on one or two month days) with an INTERVAL that
    /// reaches few of them, so that the first one is often decades ahead.
    func testDayStreamWalkFindsWhatTheScanFinds() {
        let dice = RuleDice(seed: 20_261_204)
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        var compared = 0, far = 0
        for round in 0..<800 {
            let f = ["DAILY", "HOURLY", "MINUTELY"][pick(3)]
            let intervals = f == "DAILY" ? [1, 3, 5, 7, 40, 64] : f == "HOURLY" ? [5, 25, 49, 100] : [7, 45, 1000, 6000]
            let n = intervals[pick(intervals.count)]
            var parts = ["FREQ=" + f, "INTERVAL=\(n)"]
            if pick(3) == 0 { parts.append(dice.months(3)) }
            parts.append(dice.monthDays(2))
            parts.append("BYDAY=" + codes[pick(7)])
            if f != "DAILY" { parts.append("BYHOUR=" + some(1 + pick(2)) { pick(24) }) }
            if f == "MINUTELY" { parts.append("BYMINUTE=" + some(1 + pick(2)) { pick(60) }) }
            let text = parts.joined(separator: ";")
            guard let ahead = checkWalk(text, monthly: 0, dice: dice, round: round, walks: { !$0.walksYearDays }) else { continue }
            compared += 1
            if ahead > 3650 { far += 1 }
        }
        XCTAssertGreaterThan(compared, 300)
        XCTAssertGreaterThan(far, 30, "first occurrences more than ten years ahead")
    }
}
