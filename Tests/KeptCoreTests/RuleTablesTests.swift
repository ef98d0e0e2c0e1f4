// A rule's tables (RuleTables: the month masks, year skips and year sets made once when a rule
// is read) change no date (R-REP-1, RFC 5545 rules): for random rules of every FREQ and every
// BY part, the next occurrence after several moments, the first occurrences and COUNT's end
// are the same with the tables as without them, from fresh and old anchors. A rule whose
// parts change after it was read does not use tables made from the old parts. The rules
// compared carry tables of their own (`withOwnTables`), since the registry the readers use may
// be full by the time these tests run.

import XCTest
@testable import KeptCore

final class RuleTablesTests: XCTestCase {
    private func without(_ r: RepeatRule) -> RepeatRule {
        var plain = r
        plain.tables = RuleTablesRef()
        return plain
    }

    /// A random RRULE with the parts its FREQ allows.
    private func randomRule(_ dice: RuleDice) -> String {
        let pick = dice.pick, some = dice.some, codes = RuleDice.codes
        let f = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY", "HOURLY", "MINUTELY"][pick(6)]
        let intervals = f == "HOURLY" ? [1, 5, 25, 49] : f == "MINUTELY" ? [1, 7, 45, 1000] : [1, 2, 3, 5]
        var parts = ["FREQ=" + f, "INTERVAL=\(intervals[pick(intervals.count)])"]
        if pick(3) == 0 { parts.append(dice.months(3)) }
        if f != "WEEKLY", pick(2) == 0 { parts.append(dice.monthDays(3)) }
        if (f == "MONTHLY" || f == "YEARLY"), pick(3) == 0 {
            parts.append("BYDAY=" + (0..<(1 + pick(2))).map { _ in "\([1, 2, 4, 5, -1, -2][pick(6)])" + codes[pick(7)] }.joined(separator: ","))
        } else if pick(2) == 0 {
            parts.append(dice.weekdays(3))
        }
        if f != "MONTHLY", f != "WEEKLY", pick(6) == 0 { parts.append("BYYEARDAY=" + some(1 + pick(3)) { (1 + pick(366)) * (pick(3) == 0 ? -1 : 1) }) }
        if f == "YEARLY", pick(6) == 0 { parts.append("BYWEEKNO=" + some(1 + pick(2)) { (1 + pick(53)) * (pick(4) == 0 ? -1 : 1) }) }
        if pick(3) == 0 { parts.append("BYHOUR=" + some(1 + pick(3)) { pick(24) }) }
        if pick(3) == 0 || f == "MINUTELY" { parts.append("BYMINUTE=" + some(1 + pick(2)) { pick(60) }) }
        if pick(5) == 0 { parts.append("BYSETPOS=" + some(1 + pick(2)) { [1, 2, -1, -2][pick(4)] }) }
        if pick(3) == 0 { parts.append("COUNT=\(1 + pick(60))") }
        if pick(3) == 0 { parts.append("WKST=" + codes[pick(7)]) }
        return parts.joined(separator: ";")
    }

    func testTablesChangeNoDate() {
        let dice = RuleDice(seed: 20_261_202)
        var owner: [RuleTables] = []
        var rules = 0, withTables = 0, compared = 0
        for round in 0..<1500 {
            let text = randomRule(dice)
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { continue }
            let rule = without(r.admitted(from: .rrule, weekStart: .monday, zone: .utc)).withOwnTables(&owner)
            let plain = without(rule)
            rules += 1
            if rule.hasTables { withTables += 1 }
            XCTAssertFalse(plain.hasTables)
            XCTAssertEqual(rule, plain, "equality ignores the tables")
            let anchor = CivilDate(dayNumber: 19_000 + dice.pick(3000))
            let old = CivilDate(dayNumber: anchor.dayNumber - 1826)
            let time = dice.pick(2) == 0 ? WallTime(minuteOfDay: dice.pick(1440)) : nil
            for a in [anchor, old] {
                let label = "round \(round): \(text) from \(a.iso)"
                XCTAssertEqual(rule.occurrences(anchor: a, time: time, limit: 12), plain.occurrences(anchor: a, time: time, limit: 12), label)
                for _ in 0..<3 {
                    let day = CivilDate(dayNumber: a.dayNumber + dice.pick(4000))
                    let moment = CivilDateTime(date: day, time: WallTime(minuteOfDay: dice.pick(1440)) ?? .midnight)
                    XCTAssertEqual(rule.nextOccurrence(after: moment, anchor: a, time: time), plain.nextOccurrence(after: moment, anchor: a, time: time),
                                   label + " after \(day.iso)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(rules, 1000)
        XCTAssertGreaterThan(withTables, rules / 2, "most random rules have day parts, so tables")
        withExtendedLifetime(owner) {}
        XCTAssertGreaterThan(compared, 6000)
    }

    func testTheReadersMakeTables() throws {
        // Once `most` distinct rules have tables, a new one has none, and the tests before this
        // one may have read that many.
        let full = RuleTables.count >= RuleTables.most - 4
        for text in ["FREQ=MONTHLY;BYDAY=-1FR", "FREQ=DAILY;BYMONTHDAY=13;BYDAY=FR", "FREQ=YEARLY;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8"] {
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { return XCTFail(text) }
            if !full { XCTAssertTrue(r.hasTables, text) }
            XCTAssertEqual(r.admitted(from: .rrule, weekStart: .sunday, zone: .utc).hasTables, r.hasTables, text + " admitted")
        }
        guard case .success(let words) = RepeatRule.parse("every friday the 13th") else { return XCTFail("words") }
        if !full { XCTAssertTrue(words.0.hasTables) }
        XCTAssertLessThanOrEqual(RuleTables.count, RuleTables.most)
        // Without day parts the anchor gives the day: no tables.
        guard case .success(let plain) = RepeatRule.fromRRULE("FREQ=WEEKLY;INTERVAL=2") else { return XCTFail("plain") }
        XCTAssertFalse(plain.hasTables)
    }

    func testARuleChangedAfterItWasReadComputesAfresh() throws {
        // Friday the 13th, read with its tables, then made "Friday the 14th" by hand.
        var owner: [RuleTables] = []
        guard case .success(let read) = RepeatRule.fromRRULE("FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR"),
              case .success(let fourteenth) = RepeatRule.fromRRULE("FREQ=MONTHLY;BYMONTHDAY=14;BYDAY=FR"),
              let anchor = CivilDate(iso: "2026-01-01"), let now = CivilDateTime(iso: "2026-06-15T09:00") else { return XCTFail("rules") }
        var r = read.withOwnTables(&owner)
        XCTAssertEqual(r.nextOccurrence(after: now, anchor: anchor)?.date.iso, "2026-11-13")
        r.monthDayMask = 1 << 14
        XCTAssertTrue(r.hasTables, "the stale tables are still carried")
        XCTAssertEqual(r.nextOccurrence(after: now, anchor: anchor)?.date.iso, "2026-08-14")
        XCTAssertEqual(r.nextOccurrence(after: now, anchor: anchor), fourteenth.nextOccurrence(after: now, anchor: anchor))
        // A yearly rule made monthly: its year sets are not a month's.
        guard case .success(let readYearly) = RepeatRule.fromRRULE("FREQ=YEARLY;BYMONTH=3;BYDAY=MO;BYSETPOS=-1") else { return XCTFail("yearly") }
        var y = readYearly.withOwnTables(&owner)
        XCTAssertEqual(y.nextOccurrence(after: now, anchor: anchor)?.date.iso, "2027-03-29")
        y.frequency = .monthly
        XCTAssertEqual(y.nextOccurrence(after: now, anchor: anchor), without(y).nextOccurrence(after: now, anchor: anchor))
        y.monthMask = 1 << 4
        XCTAssertEqual(y.nextOccurrence(after: now, anchor: anchor), without(y).nextOccurrence(after: now, anchor: anchor))
        withExtendedLifetime(owner) {}
    }

    func testTablesMadeForOtherMonthsAreNotRead() throws {
        var owner: [RuleTables] = []
        guard let now = CivilDateTime(iso: "2026-06-15T09:00") else { return XCTFail("now") }
        // A yearly rule in Kept's words takes its month from the anchor; its tables are made for
        // January, so an anchor in another month must not read January's year sets.
        guard case .success(let words) = RepeatRule.parse("every year on the last monday for 9 times") else { return XCTFail("words") }
        let yearly = without(words.0).withOwnTables(&owner)
        XCTAssertTrue(yearly.monthFromAnchor)
        XCTAssertTrue(yearly.hasTables)
        // A yearly rule whose BYMONTH changes after it was read, staying yearly; a daily rule
        // whose BYMONTH changes (its year skips were made for February).
        guard case .success(let y) = RepeatRule.fromRRULE("FREQ=YEARLY;BYMONTH=2;BYDAY=MO,FR;BYSETPOS=-1,2;COUNT=30"),
              case .success(let d) = RepeatRule.fromRRULE("FREQ=DAILY;INTERVAL=3;BYMONTH=2;BYMONTHDAY=13;BYDAY=FR") else { return XCTFail("rules") }
        var changedYearly = without(y).withOwnTables(&owner), changedDaily = without(d).withOwnTables(&owner)
        changedYearly.monthMask = 1 << 9
        changedDaily.monthMask = 1 << 9
        for rule in [yearly, changedYearly, changedDaily] {
            for month in 1...12 {
                guard let anchor = CivilDate(year: 2020, month: month, day: 3) else { return XCTFail("anchor") }
                let label = "\(rule.rrule(anchor: anchor)) from \(anchor.iso)"
                XCTAssertEqual(rule.occurrences(anchor: anchor, limit: 8), without(rule).occurrences(anchor: anchor, limit: 8), label)
                XCTAssertEqual(rule.nextOccurrence(after: now, anchor: anchor), without(rule).nextOccurrence(after: now, anchor: anchor), label)
            }
        }
        withExtendedLifetime(owner) {}
    }

    func testTheTablesOfDistinctRulesAreBounded() throws {
        // More distinct rules than `most`: the tables stop at `most`, and rules past them
        // compute their dates without (the same dates).
        guard let anchor = CivilDate(iso: "2026-01-01"), let now = CivilDateTime(iso: "2026-06-15T09:00") else { return XCTFail("dates") }
        var last: RepeatRule? = nil
        for k in 1...(RuleTables.most + 10) {
            let f = ["DAILY", "MONTHLY", "YEARLY", "HOURLY", "MINUTELY"][k / 999]
            let text = "FREQ=\(f);INTERVAL=\(1 + k % 999);BYMONTHDAY=13,-2;BYDAY=FR,SA"
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { return XCTFail(text) }
            last = r
        }
        XCTAssertEqual(RuleTables.count, RuleTables.most)
        let r = try XCTUnwrap(last)
        XCTAssertFalse(r.hasTables)
        XCTAssertEqual(r.nextOccurrence(after: now, anchor: anchor), without(r).nextOccurrence(after: now, anchor: anchor))
    }
}
