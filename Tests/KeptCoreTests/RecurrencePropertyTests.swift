// The constant-time next occurrence agrees with a plain walk over the calendar, day by day,
// for thousands of random rules and anchors (R-REP-1, R-REP-4): computing must give what
// walking the series gives.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RecurrencePropertyTests: XCTestCase {
    /// Whether a day is an occurrence, judged one day at a time from the rule's definition.
    func matches(_ r: RepeatRule, _ d: CivilDate, anchor: CivilDate, weekStart: Weekday) -> Bool {
        guard d >= anchor else { return false }
        let n = max(1, r.interval)
        switch r.frequency {
        case .daily:
            return anchor.days(until: d) % n == 0
        case .weekly:
            let days = r.weekdays.isEmpty ? [anchor.weekday] : r.weekdays
            guard days.contains(d.weekday) else { return false }
            let a0 = anchor.adding(days: -weekStart.days(until: anchor.weekday))
            let d0 = d.adding(days: -weekStart.days(until: d.weekday))
            return (a0.days(until: d0) / 7) % n == 0
        case .monthly:
            let diff = RepeatRule.monthIndex(d) - RepeatRule.monthIndex(anchor)
            guard diff % n == 0 else { return false }
            return r.date(inMonth: RepeatRule.monthIndex(d), anchor: anchor) == d
        case .yearly:
            guard (d.year - anchor.year) % n == 0, d.month == (r.month ?? anchor.month) else { return false }
            return r.date(inMonth: RepeatRule.monthIndex(d), anchor: anchor) == d
        case .hourly, .minutely:
            // Not generated here: RRULETests walks the times of these rules.
            return false
        }
    }

    func testNextOccurrenceAgreesWithAWalk() {
        var rng = SplitMix(seed: 4242)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let freqs: [RepeatRule.Frequency] = [.daily, .weekly, .monthly, .yearly]
        var checked = 0
        for round in 0..<3000 {
            var r = RepeatRule(frequency: freqs[pick(4)], interval: 1 + (pick(3) == 0 ? pick(4) : 0))
            switch r.frequency {
            case .weekly:
                if pick(2) == 0 { r.weekdays = Array(Set((0..<(1 + pick(3))).map { _ in Weekday.allCases[pick(7)] })).sorted() }
            case .monthly:
                switch pick(4) {
                case 0: r.monthDay = .day(1 + pick(31))
                case 1: r.monthDay = .last
                case 2: r.monthDay = .weekday(pick(5) == 0 ? -1 : 1 + pick(5), Weekday.allCases[pick(7)])
                default: break
                }
            case .yearly:
                if pick(2) == 0 {
                    let m = 1 + pick(12)
                    r.month = m
                    r.monthDay = .day(1 + pick(DatePhrase.maxDay(m)))
                }
            case .daily, .hourly, .minutely: break
            }
            let anchor = CivilDate(dayNumber: 18_000 + pick(6000))
            let weekStart: Weekday = pick(3) == 0 ? .sunday : .monday
            let after = anchor.adding(days: pick(2500) - 100)
            let got = r.nextOccurrence(after: after, anchor: anchor, weekStart: weekStart)
            var walk = after.adding(days: 1)
            var want: CivilDate? = nil
            for _ in 0..<(366 * 9) {
                if matches(r, walk, anchor: anchor, weekStart: weekStart) { want = walk; break }
                walk = walk.adding(days: 1)
            }
            XCTAssertEqual(got, want, "round \(round): \(r.text(anchor: anchor)) anchor \(anchor.iso) after \(after.iso) week start \(weekStart)")
            checked += 1
        }
        XCTAssertEqual(checked, 3000)
    }

    /// `for N times` and `until` end the series where the walk says they do.
    func testCountAndUntil() {
        var rng = SplitMix(seed: 77)
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        for round in 0..<300 {
            var r = RepeatRule(frequency: [.daily, .weekly, .monthly, .yearly][pick(4)], interval: 1 + pick(3))
            if r.frequency == .weekly, pick(2) == 0 { r.weekdays = [.monday, .thursday] }
            let anchor = CivilDate(dayNumber: 20_000 + pick(400))
            r.count = 1 + pick(12)
            let all = r.occurrences(anchor: anchor, limit: 50)
            XCTAssertEqual(all.count, r.count, "round \(round)")
            // The last occurrence has no next; every other one's next is the one after it.
            for (k, d) in all.enumerated() {
                let next = r.nextOccurrence(after: d, anchor: anchor)
                XCTAssertEqual(next, k + 1 < all.count ? all[k + 1] : nil, "round \(round) item \(k)")
            }
            var u = r
            u.count = nil
            u.until = anchor.adding(days: pick(200))
            let bounded = u.occurrences(anchor: anchor, limit: 500)
            XCTAssertTrue(bounded.allSatisfy { $0 <= (u.until ?? anchor) }, "round \(round): until")
        }
    }
}
