// COUNT counted agrees with COUNT walked (R-REP-1, RFC 5545 rules): the next occurrence of a
// rule with COUNT counts the occurrences before it by whole periods (months by their bits,
// weeks by multiplying, years a day stream's INTERVAL cannot reach left out), while the list
// of a series' dates walks it one occurrence at a time. For random general RRULEs (every BY
// part, BYSETPOS, WKST, times of day, HOURLY and MINUTELY) the two must say the same: the next
// occurrence after each date of the list is the list's next date, and after the COUNT-th none.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RecurrenceCountTests: XCTestCase {
    func testCountingAgreesWithTheWalk() {
        let dice = RuleDice(seed: 5545)
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        let freqs = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"]
        var checked = 0, rules = 0
        for round in 0..<1200 {
            let f = freqs[pick(freqs.count)]
            var parts = ["FREQ=" + f]
            let intervals = f == "HOURLY" ? [1, 2, 5, 25] : f == "MINUTELY" ? [1, 7, 45, 360] : [1, 1, 2, 3, 5]
            let n = intervals[pick(intervals.count)]
            if n > 1 { parts.append("INTERVAL=\(n)") }
            if pick(3) == 0 { parts.append(dice.months(3)) }
            if f == "YEARLY", pick(4) == 0 { parts.append("BYWEEKNO=" + some(1 + pick(2)) { (1 + pick(53)) * (pick(2) == 0 ? 1 : -1) }) }
            if f != "MONTHLY", f != "WEEKLY", pick(6) == 0 { parts.append("BYYEARDAY=" + some(1 + pick(3)) { (1 + pick(366)) * (pick(2) == 0 ? 1 : -1) }) }
            if f != "WEEKLY", pick(3) == 0 { parts.append(dice.monthDays(3)) }
            if f == "MONTHLY" || f == "YEARLY", pick(4) == 0 {
                parts.append("BYDAY=" + (0..<(1 + pick(2))).map { _ in "\([1, 2, 3, 4, 5, -1, -2][pick(7)])" + codes[pick(7)] }.joined(separator: ","))
            } else if pick(2) == 0 {
                parts.append(dice.weekdays(3))
            }
            if f != "HOURLY", f != "MINUTELY" || pick(2) == 0, pick(3) == 0 { parts.append("BYHOUR=" + some(1 + pick(3)) { pick(24) }) }
            if pick(3) == 0 { parts.append("BYMINUTE=" + some(1 + pick(3)) { pick(60) }) }
            if f != "MINUTELY", pick(4) == 0 { parts.append("BYSETPOS=" + some(1 + pick(2)) { [1, 2, 3, -1, -2][pick(5)] }) }
            if pick(3) == 0 { parts.append("WKST=" + codes[pick(7)]) }
            parts.append("COUNT=\(1 + pick(40))")
            let text = parts.joined(separator: ";")
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { continue }
            let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
            let anchor = CivilDate(dayNumber: 19_000 + pick(4000))
            let time = f == "HOURLY" || f == "MINUTELY" ? WallTime(minuteOfDay: pick(1440)) : nil
            let all = rule.occurrences(anchor: anchor, time: time, limit: 60)
            rules += 1
            func at(_ d: Due) -> CivilDateTime { CivilDateTime(date: d.date, time: d.time ?? .midnight) }
            func next(_ after: CivilDateTime) -> Due? { rule.nextOccurrence(after: after, anchor: anchor, time: time) }
            let label = "round \(round): \(text) from \(anchor.iso)"
            if let first = all.first {
                XCTAssertEqual(next(CivilDateTime(date: anchor.adding(days: -1), time: .midnight)), first, label + " before the anchor")
            }
            // The first dates, the last ones (where COUNT ends the series) and some between.
            var picks = Set(0..<min(all.count, 4))
            picks.formUnion(max(0, all.count - 3)..<all.count)
            for _ in 0..<3 where !all.isEmpty { picks.insert(pick(all.count)) }
            for i in picks.sorted() {
                let want: Due? = i + 1 < all.count ? all[i + 1] : nil
                XCTAssertEqual(next(at(all[i])), want, label + " after #\(i) \(all[i].date.iso)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(rules, 900)
        XCTAssertGreaterThan(checked, 5000)
    }

    /// COUNT counted over whole months on plain integers (WholeMonthCounter) agrees with the
    /// walk (R-REP-1): day-stream rules whose days change month to month (BYMONTHDAY with BYDAY,
    /// BYMONTH, an INTERVAL that is not a whole number of months, hourly and minutely INTERVALs
    /// whose days' counts differ by residue) and weekly rules with BYMONTH, with a COUNT that takes years, so that the next
    /// occurrence after a late date counts many months, and COUNT is reached inside them.
    func testCountingWholeMonthsAgreesWithTheWalk() {
        let dice = RuleDice(seed: 20_261_202)
        let pick = dice.pick, some = dice.some
        var checked = 0, rules = 0, long = 0, weekly = 0
        for round in 0..<300 {
            let f = ["DAILY", "HOURLY", "MINUTELY", "WEEKLY"][pick(4)]
            let intervals = f == "DAILY" ? [1, 2, 3, 5, 7, 10, 40, 64] : f == "HOURLY" ? [1, 5, 7, 25, 49, 100]
                : f == "WEEKLY" ? [1, 2, 3, 9] : [7, 45, 360, 1000]
            var parts = ["FREQ=" + f, "INTERVAL=\(intervals[pick(intervals.count)])"]
            if f == "WEEKLY" || pick(2) == 0 { parts.append(dice.months(4)) }
            if f != "WEEKLY", pick(4) != 0 { parts.append(dice.monthDays(3)) }
            if pick(2) == 0 { parts.append(dice.weekdays(3)) }
            if f != "DAILY" || pick(2) == 0 { parts.append("BYHOUR=" + some(1 + pick(4)) { pick(24) }) }
            if f == "MINUTELY" || pick(3) == 0 { parts.append("BYMINUTE=" + some(1 + pick(3)) { pick(60) }) }
            parts.append("COUNT=\(20 + pick(120))")
            let text = parts.joined(separator: ";")
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { continue }
            let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
            let anchor = CivilDate(dayNumber: 18_000 + pick(4000))
            let time = f == "DAILY" ? nil : WallTime(minuteOfDay: pick(1440))
            let all = rule.occurrences(anchor: anchor, time: time, limit: 140)
            rules += 1
            if f == "WEEKLY" { weekly += 1 }
            func at(_ d: Due) -> CivilDateTime { CivilDateTime(date: d.date, time: d.time ?? .midnight) }
            let label = "round \(round): \(text) from \(anchor.iso)"
            if let last = all.last, last.date.dayNumber - anchor.dayNumber > 365 { long += 1 }
            var picks = Set(max(0, all.count - 4)..<all.count)
            for _ in 0..<4 where !all.isEmpty { picks.insert(pick(all.count)) }
            for i in picks.sorted() {
                let want: Due? = i + 1 < all.count ? all[i + 1] : nil
                XCTAssertEqual(rule.nextOccurrence(after: at(all[i]), anchor: anchor, time: time), want, label + " after #\(i) \(all[i].date.iso)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(rules, 250)
        XCTAssertGreaterThan(weekly, 50)
        XCTAssertGreaterThan(long, 100, "series that take more than a year")
        XCTAssertGreaterThan(checked, 1500)
    }

    /// A monthly rule's whole months counted by their kind (first weekday and length, each kind's
    /// count found once) agree with the walk (R-REP-1): BYMONTHDAY, plain and ordinal BYDAY,
    /// BYMONTH, BYSETPOS and times of day, every month or every few, with a COUNT that takes
    /// years and dates late in the series (leap years' Februaries among the months counted).
    func testCountingWholeMonthsOfMonthlyRulesAgreesWithTheWalk() {
        let dice = RuleDice(seed: 20_261_204)
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        var checked = 0, long = 0
        for round in 0..<300 {
            var parts = ["FREQ=MONTHLY", "INTERVAL=\([1, 1, 1, 2, 3][pick(5)])"]
            if pick(3) == 0 { parts.append(dice.months(6)) }
            // Month ends often: a count that ends on a month's last day, with several times a day.
            if pick(2) == 0 { parts.append("BYMONTHDAY=" + some(1 + pick(3)) { pick(2) == 0 ? -(1 + pick(3)) : 1 + pick(31) }) }
            if pick(2) == 0 {
                parts.append("BYDAY=" + (0..<(1 + pick(2))).map { _ in "\([1, 2, 4, 5, -1, -2][pick(6)])" + codes[pick(7)] }.joined(separator: ","))
            } else if pick(2) == 0 {
                parts.append(dice.weekdays(3))
            }
            if pick(2) == 0 { parts.append("BYHOUR=" + some(2 + pick(2)) { pick(24) }) }
            if pick(4) == 0 { parts.append("BYSETPOS=" + some(1 + pick(2)) { [1, 2, -1, -2][pick(4)] }) }
            parts.append("COUNT=\(20 + pick(100))")
            let text = parts.joined(separator: ";")
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { continue }
            let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
            let anchor = CivilDate(dayNumber: 18_000 + pick(4000))
            let all = rule.occurrences(anchor: anchor, time: nil, limit: 120)
            if let last = all.last, last.date.dayNumber - anchor.dayNumber > 1461 { long += 1 }
            var picks = Set(max(0, all.count - 3)..<all.count)
            for _ in 0..<3 where !all.isEmpty { picks.insert(pick(all.count)) }
            for i in picks.sorted() {
                let want: Due? = i + 1 < all.count ? all[i + 1] : nil
                let after = CivilDateTime(date: all[i].date, time: all[i].time ?? .midnight)
                XCTAssertEqual(rule.nextOccurrence(after: after, anchor: anchor), want, "round \(round): \(text) from \(anchor.iso) after #\(i)")
                checked += 1
            }
        }
        XCTAssertGreaterThan(long, 60, "series that take more than four years")
        XCTAssertGreaterThan(checked, 600)
    }

    /// The next occurrence's search stops at UNTIL's day (R-REP-1): a rule whose next day is
    /// years ahead (2028-04-10), past UNTIL, has none; an instant UNTIL still takes an occurrence
    /// whose wall day comes after UNTIL's UTC date, in the next month (03:00 in Tokyo on Jul 1
    /// is 18:00Z on Jun 30).
    func testTheSearchStopsAtUntil() throws {
        guard let now = CivilDateTime(iso: "2026-06-15T09:00"), let anchor = CivilDate(iso: "2026-06-10") else { return XCTFail("dates") }
        guard case .success(let far) = RepeatRule.fromRRULE("FREQ=MINUTELY;INTERVAL=7;BYYEARDAY=101;BYDAY=MO,WE,FR;BYHOUR=1,11,18,19") else { return XCTFail("far") }
        XCTAssertNotNil(far.nextOccurrence(after: now, anchor: anchor), "the series goes on without UNTIL")
        guard case .success(let ended) = RepeatRule.fromRRULE("FREQ=MINUTELY;INTERVAL=7;BYYEARDAY=101;BYDAY=MO,WE,FR;BYHOUR=1,11,18,19;UNTIL=20280301T000000") else { return XCTFail("ended") }
        XCTAssertNil(ended.nextOccurrence(after: now, anchor: anchor))
        let tokyo = try XCTUnwrap(Zone(identifier: "Asia/Tokyo"))
        guard case .success(let r) = RepeatRule.fromRRULE("FREQ=DAILY;BYDAY=WE;BYHOUR=3;BYMINUTE=0;UNTIL=20260630T200000Z"),
              let lastDay = CivilDateTime(iso: "2026-06-30T09:00") else { return XCTFail("utc") }
        let next = r.nextOccurrence(after: lastDay, anchor: anchor, zone: tokyo)
        XCTAssertEqual(next?.date.iso, "2026-07-01")
        XCTAssertEqual(next?.time?.minuteOfDay, 180)
        guard let later = CivilDateTime(iso: "2026-07-01T03:00") else { return XCTFail("later") }
        XCTAssertNil(r.nextOccurrence(after: later, anchor: anchor, zone: tokyo))
    }
}

/// The random parts of the rules the two tests make: seeded, so a failure repeats.
final class RuleDice {
    static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    private var rng: SplitMix

    init(seed: UInt64) { rng = SplitMix(seed: seed) }

    func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }

    /// Up to `n` distinct values, sorted and joined with commas.
    func some(_ n: Int, from values: () -> Int) -> String {
        Array(Set((0..<n).map { _ in values() })).sorted().map(String.init).joined(separator: ",")
    }

    /// `BYMONTH=` with 1 to `most` months.
    func months(_ most: Int) -> String { "BYMONTH=" + some(1 + pick(most)) { 1 + pick(12) } }

    /// `BYMONTHDAY=` with 1 to `most` days, a third of them counted from the month's end.
    func monthDays(_ most: Int) -> String { "BYMONTHDAY=" + some(1 + pick(most)) { (1 + pick(31)) * (pick(3) == 0 ? -1 : 1) } }

    /// `BYDAY=` with 1 to `most` weekdays.
    func weekdays(_ most: Int) -> String {
        "BYDAY=" + Array(Set((0..<(1 + pick(most))).map { _ in pick(7) })).sorted().map { RuleDice.codes[$0] }.joined(separator: ",")
    }
}
