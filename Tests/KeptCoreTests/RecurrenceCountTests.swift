// COUNT counted agrees with COUNT walked (R-REP-1, RFC 5545 rules): the next occurrence of a
// rule with COUNT counts the occurrences before it by whole periods (months by their bits,
// weeks by multiplying, years a day stream's INTERVAL cannot reach left out), while the list
// of a series' dates walks it one occurrence at a time. For random general RRULEs (every BY
// part, BYSETPOS, WKST, times of day, HOURLY and MINUTELY) the two must say the same: the next
// occurrence after each date of the list is the list's next date, and after the COUNT-th none.

import XCTest
@testable import KeptCore

final class RecurrenceCountTests: XCTestCase {
    func testCountingAgreesWithTheWalk() {
        var rng = SplitMix(seed: 5545)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func some(_ n: Int, from values: () -> Int) -> String {
            Array(Set((0..<n).map { _ in values() })).sorted().map(String.init).joined(separator: ",")
        }
        let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        let freqs = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"]
        var checked = 0, rules = 0
        for round in 0..<1200 {
            let f = freqs[pick(freqs.count)]
            var parts = ["FREQ=" + f]
            let intervals = f == "HOURLY" ? [1, 2, 5, 25] : f == "MINUTELY" ? [1, 7, 45, 360] : [1, 1, 2, 3, 5]
            let n = intervals[pick(intervals.count)]
            if n > 1 { parts.append("INTERVAL=\(n)") }
            if pick(3) == 0 { parts.append("BYMONTH=" + some(1 + pick(3)) { 1 + pick(12) }) }
            if f == "YEARLY", pick(4) == 0 { parts.append("BYWEEKNO=" + some(1 + pick(2)) { (1 + pick(53)) * (pick(2) == 0 ? 1 : -1) }) }
            if f != "MONTHLY", f != "WEEKLY", pick(6) == 0 { parts.append("BYYEARDAY=" + some(1 + pick(3)) { (1 + pick(366)) * (pick(2) == 0 ? 1 : -1) }) }
            if f != "WEEKLY", pick(3) == 0 { parts.append("BYMONTHDAY=" + some(1 + pick(3)) { (1 + pick(31)) * (pick(3) == 0 ? -1 : 1) }) }
            if f == "MONTHLY" || f == "YEARLY", pick(4) == 0 {
                parts.append("BYDAY=" + (0..<(1 + pick(2))).map { _ in "\([1, 2, 3, 4, 5, -1, -2][pick(7)])" + codes[pick(7)] }.joined(separator: ","))
            } else if pick(2) == 0 {
                parts.append("BYDAY=" + Array(Set((0..<(1 + pick(3))).map { _ in pick(7) })).sorted().map { codes[$0] }.joined(separator: ","))
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
}
