// Random rules of every part through each of their texts (R-REP-9, R-REP-10): a rule's RRULE
// as its text reads back as the same rule; its words, when it has them, read back as the same
// words and the same dates; its exported RRULE (anchor written out) gives the same dates; the
// next occurrence after any moment is the first of the series after it; and an anchor moved
// back by whole periods gives the same next occurrence (no series walk can disagree).
// covers: R-REP-1, R-REP-9, R-REP-10

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RecurrenceRoundTripTests: XCTestCase {
    /// A random rule, read through its literal RRULE so that it is in the form an import gives.
    static func randomRule(_ rng: inout SplitMix) -> RepeatRule? {
        func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        func chance(_ p: Int) -> Bool { pick(100) < p }
        let freqs: [RepeatRule.Frequency] = [.yearly, .monthly, .weekly, .daily, .hourly, .minutely]
        var r = RepeatRule(frequency: freqs[pick(6)], interval: chance(60) ? 1 : 1 + pick(5))
        if chance(25) { for _ in 0...pick(2) { r.monthMask |= UInt16(1) << UInt16(1 + pick(12)) } }
        if r.frequency != .weekly, chance(35) {
            for _ in 0...pick(2) {
                if chance(70) { r.monthDayMask |= UInt32(1) << UInt32(1 + pick(31)) } else { r.monthDayFromEndMask |= UInt32(1) << UInt32(1 + pick(5)) }
            }
        }
        if chance(45) {
            if (r.frequency == .monthly || r.frequency == .yearly), chance(50) {
                r.nthWeekdays = [RepeatRule.NthWeekday((1 + pick(4)) * (chance(50) ? 1 : -1), Weekday.allCases[pick(7)])]
            } else {
                for _ in 0...pick(3) { r.weekdayMask |= RepeatRule.bit(Weekday.allCases[pick(7)]) }
            }
        }
        if r.frequency == .yearly, r.monthMask == 0, r.monthDayMask == 0, chance(15) { r.weekNoMask = UInt64(1) << UInt64(1 + pick(52)) }
        if chance(35) { r.hourMask = UInt32(1) << UInt32(pick(24)) | (chance(40) ? UInt32(1) << UInt32(pick(24)) : 0) }
        if chance(35) { r.minuteMask = UInt64(1) << UInt64(pick(60)) | (chance(30) ? UInt64(1) << UInt64(pick(60)) : 0) }
        if chance(15), r.hasDayParts || r.hourMask != 0 { r.setPositions = [chance(50) ? 1 : -1] }
        if chance(25) { r.weekStart = Weekday.allCases[pick(7)] }
        if chance(15) { r.count = 1 + pick(30) } else if chance(15), let d = CivilDate(iso: "2027-06-30") { r.until = d.adding(days: pick(900)) }
        if chance(30) { r.skip = .omit }
        guard case .success(let read) = RepeatRule.fromRRULE(r.literalRRULE) else { return nil }
        return read
    }

    func testRandomRulesThroughTheirTexts() {
        var rng = SplitMix(seed: 515)
        var checked = 0, withWords = 0
        for round in 0..<4000 {
            guard let r = Self.randomRule(&rng) else { continue }
            let anchor = CivilDate(dayNumber: 18_500 + Int(rng.next() % 3000))
            let id = "rt-\(round): \(r.literalRRULE) from \(anchor.iso)"
            // The literal RRULE is the same rule.
            XCTAssertEqual(try? RepeatRule.fromRRULE(r.literalRRULE).get(), r, "\(id): literal")
            let dates = r.occurrences(anchor: anchor, time: nil, limit: 30)
            // The exported RRULE (the anchor written out) gives the same dates.
            if case .success(let out) = r.rrule(anchor: anchor), case .success(let back) = RepeatRule.fromRRULE(out) {
                XCTAssertEqual(back.occurrences(anchor: anchor, time: nil, limit: 30), dates, "\(id): exported as \(out)")
            } else {
                XCTFail("\(id): no RRULE")
            }
            // The words, when there are some, say the same rule.
            if let w = r.words(anchor: anchor) {
                withWords += 1
                guard case .success(let (back, used)) = RepeatRule.parse(w), used == w.split(separator: " ").count else {
                    XCTFail("\(id): words '\(w)' do not parse whole")
                    continue
                }
                var b = back
                b.weekStart = r.weekStart
                XCTAssertEqual(b.text(anchor: anchor), w, "\(id): '\(w)' reads back as other words")
                XCTAssertEqual(b.occurrences(anchor: anchor, time: nil, limit: 30), dates, "\(id): '\(w)' gives other dates")
            }
            // The next occurrence after each date is the next date of the list.
            let timed = r.occurrences(anchor: anchor, time: nil, limit: 12)
            for (k, d) in timed.enumerated() where k + 1 < timed.count {
                let moment = CivilDateTime(date: d.date, time: d.time ?? WallTime(unchecked: 1439))
                let want = timed[k + 1]
                if d.time == nil, want.date == d.date { continue }
                XCTAssertEqual(r.nextOccurrence(after: moment, anchor: anchor), want, "\(id): next after #\(k)")
            }
            checked += 1
        }
        XCTAssertGreaterThan(checked, 2500, "rules made")
        XCTAssertGreaterThan(withWords, 300, "rules with words")
    }

    /// An anchor moved back whole periods (a 400-year Gregorian cycle for monthly and yearly
    /// rules, which repeats every weekday too) gives the same next occurrence: nothing walks
    /// the series from the anchor.
    func testOldAnchorsGiveTheSameNextOccurrence() {
        var rng = SplitMix(seed: 99)
        var checked = 0
        for _ in 0..<1500 {
            guard var r = Self.randomRule(&rng) else { continue }
            r.count = nil
            let anchor = CivilDate(dayNumber: 19_000 + Int(rng.next() % 2000))
            guard let old = CivilDate(year: anchor.year - 400, month: anchor.month, day: anchor.day) else { continue }
            let after = CivilDateTime(date: anchor.adding(days: Int(rng.next() % 800)), time: WallTime(unchecked: Int(rng.next() % 1440)))
            // Weeks and days: 400 years are 20871 weeks, 146097 days, so the phase is the same.
            let a = r.nextOccurrence(after: after, anchor: anchor)
            let b = r.nextOccurrence(after: after, anchor: old)
            if r.frequency == .hourly || r.frequency == .minutely || (r.interval > 1 && 146_097 % r.interval != 0 && r.frequency == .daily) { continue }
            if r.frequency == .weekly, r.interval > 1, 20_871 % r.interval != 0 { continue }
            if r.frequency == .yearly, 400 % r.interval != 0 { continue }
            if r.frequency == .monthly, 4800 % r.interval != 0 { continue }
            XCTAssertEqual(a, b, "\(r.literalRRULE) from \(anchor.iso) and \(old.iso), after \(after.iso)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 500)
    }
}
