// The examples of RFC 5545 section 3.8.5.3 (Recurrence Rule), each with its DTSTART and the
// instances the RFC lists for it, in America/New_York. The expected instances are the RFC's
// own lists, written out here (a range "September 2-30" as the days 2 … 30); a rule the RFC
// gives "forever" is checked over the instances it shows. The case ids are stable: rfc-NN
// numbers the examples in the RFC's order, with a letter for a second form of one.
// covers: R-REP-1, R-REP-4

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RRULEExampleTests: XCTestCase {
    static let newYork = Zone(identifier: "America/New_York") ?? .utc

    struct Example {
        let id: String
        let rrule: String
        /// DTSTART, a wall time in New York.
        let start: String
        let want: [String]
        /// The RFC's list is the whole series (COUNT or UNTIL), so nothing follows it.
        let finite: Bool
        var exdates: [String] = []
    }

    /// "1997-09-02 09:00" for each day of a month, at a time.
    static func days(_ ym: String, _ ds: [Int], _ time: String = "09:00") -> [String] {
        ds.map { ym + "-" + ($0 < 10 ? "0" : "") + "\($0) " + time }
    }

    /// Instances at 09:00 from "1997-09: 2 9 16" (days) and "1997-09: 2-30" (a range) pieces.
    static func m(_ pieces: String...) -> [String] {
        var out: [String] = []
        for p in pieces {
            let parts = p.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            for item in parts[1].split(separator: " ") {
                let ends = item.split(separator: "-").compactMap { Int($0) }
                if ends.count == 2, let a = ends.first, let b = ends.last, a <= b { out += days(String(parts[0]), Array(a...b)) } else { out += days(String(parts[0]), ends) }
            }
        }
        return out
    }

    static func times(_ day: String, _ ts: [String]) -> [String] { ts.map { day + " " + $0 } }

    static let examples: [Example] = {
        var x: [Example] = []
        func add(_ id: String, _ rrule: String, _ start: String, _ want: [String], finite: Bool, exdates: [String] = []) {
            x.append(Example(id: id, rrule: rrule, start: start, want: want, finite: finite, exdates: exdates))
        }
        add("rfc-01", "FREQ=DAILY;COUNT=10", "1997-09-02 09:00", m("1997-09: 2-11"), finite: true)
        add("rfc-02", "FREQ=DAILY;UNTIL=19971224T000000Z", "1997-09-02 09:00",
            m("1997-09: 2-30", "1997-10: 1-31", "1997-11: 1-30", "1997-12: 1-23"), finite: true)
        add("rfc-03", "FREQ=DAILY;INTERVAL=2", "1997-09-02 09:00", m("1997-09: 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30", "1997-10: 2 4"), finite: false)
        add("rfc-04", "FREQ=DAILY;INTERVAL=10;COUNT=5", "1997-09-02 09:00", m("1997-09: 2 12 22", "1997-10: 2 12"), finite: true)
        let january = m("1998-01: 1-31", "1999-01: 1-31", "2000-01: 1-31")
        add("rfc-05a", "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", "1998-01-01 09:00", january, finite: true)
        add("rfc-05b", "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1", "1998-01-01 09:00", january, finite: true)
        add("rfc-06", "FREQ=WEEKLY;COUNT=10", "1997-09-02 09:00", m("1997-09: 2 9 16 23 30", "1997-10: 7 14 21 28", "1997-11: 4"), finite: true)
        add("rfc-07", "FREQ=WEEKLY;UNTIL=19971224T000000Z", "1997-09-02 09:00",
            m("1997-09: 2 9 16 23 30", "1997-10: 7 14 21 28", "1997-11: 4 11 18 25", "1997-12: 2 9 16 23"), finite: true)
        add("rfc-08", "FREQ=WEEKLY;INTERVAL=2;WKST=SU", "1997-09-02 09:00",
            m("1997-09: 2 16 30", "1997-10: 14 28", "1997-11: 11 25", "1997-12: 9 23", "1998-01: 6 20", "1998-02: 3 17"), finite: false)
        let tuth = m("1997-09: 2 4 9 11 16 18 23 25 30", "1997-10: 2")
        add("rfc-09a", "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", "1997-09-02 09:00", tuth, finite: true)
        add("rfc-09b", "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", "1997-09-02 09:00", tuth, finite: true)
        add("rfc-10", "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", "1997-09-01 09:00",
            m("1997-09: 1 3 5 15 17 19 29", "1997-10: 1 3 13 15 17 27 29 31", "1997-11: 10 12 14 24 26 28", "1997-12: 8 10 12 22"), finite: true)
        add("rfc-11", "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", "1997-09-02 09:00",
            m("1997-09: 2 4 16 18 30", "1997-10: 2 14 16"), finite: true)
        let firstFridays = m("1997-09: 5", "1997-10: 3", "1997-11: 7", "1997-12: 5")
        add("rfc-12", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", "1997-09-05 09:00",
            firstFridays + m("1998-01: 2", "1998-02: 6", "1998-03: 6", "1998-04: 3", "1998-05: 1", "1998-06: 5"), finite: true)
        add("rfc-13", "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR", "1997-09-05 09:00", firstFridays, finite: true)
        add("rfc-14", "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", "1997-09-07 09:00",
            m("1997-09: 7 28", "1997-11: 2 30", "1998-01: 4 25", "1998-03: 1 29", "1998-05: 3 31"), finite: true)
        add("rfc-15", "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", "1997-09-22 09:00",
            m("1997-09: 22", "1997-10: 20", "1997-11: 17", "1997-12: 22", "1998-01: 19", "1998-02: 16"), finite: true)
        add("rfc-16", "FREQ=MONTHLY;BYMONTHDAY=-3", "1997-09-28 09:00",
            m("1997-09: 28", "1997-10: 29", "1997-11: 28", "1997-12: 29", "1998-01: 29", "1998-02: 26"), finite: false)
        add("rfc-17", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", "1997-09-02 09:00",
            m("1997-09: 2 15", "1997-10: 2 15", "1997-11: 2 15", "1997-12: 2 15", "1998-01: 2 15"), finite: true)
        add("rfc-18", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", "1997-09-30 09:00",
            m("1997-09: 30", "1997-10: 1 31", "1997-11: 1 30", "1997-12: 1 31", "1998-01: 1 31", "1998-02: 1"), finite: true)
        add("rfc-19", "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", "1997-09-10 09:00",
            m("1997-09: 10-15", "1999-03: 10-13"), finite: true)
        add("rfc-20", "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", "1997-09-02 09:00",
            m("1997-09: 2 9 16 23 30", "1997-11: 4 11 18 25", "1998-01: 6 13 20 27", "1998-03: 3 10 17 24 31"), finite: false)
        add("rfc-21", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", "1997-06-10 09:00",
            (1997...2001).flatMap { ["\($0)-06-10 09:00", "\($0)-07-10 09:00"] }, finite: true)
        add("rfc-22", "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", "1997-03-10 09:00",
            ["1997-03-10 09:00"] + [1999, 2001, 2003].flatMap { y in ["\(y)-01-10 09:00", "\(y)-02-10 09:00", "\(y)-03-10 09:00"] }, finite: true)
        add("rfc-23", "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", "1997-01-01 09:00",
            ["1997-01-01 09:00", "1997-04-10 09:00", "1997-07-19 09:00", "2000-01-01 09:00", "2000-04-09 09:00", "2000-07-18 09:00",
             "2003-01-01 09:00", "2003-04-10 09:00", "2003-07-19 09:00", "2006-01-01 09:00"], finite: true)
        add("rfc-24", "FREQ=YEARLY;BYDAY=20MO", "1997-05-19 09:00", ["1997-05-19 09:00", "1998-05-18 09:00", "1999-05-17 09:00"], finite: false)
        add("rfc-25", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "1997-05-12 09:00", ["1997-05-12 09:00", "1998-05-11 09:00", "1999-05-17 09:00"], finite: false)
        add("rfc-26", "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", "1997-03-13 09:00",
            m("1997-03: 13 20 27", "1998-03: 5 12 19 26", "1999-03: 4 11 18 25"), finite: false)
        add("rfc-27", "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", "1997-06-05 09:00",
            m("1997-06: 5 12 19 26", "1997-07: 3 10 17 24 31", "1997-08: 7 14 21 28", "1998-06: 4 11 18 25", "1998-07: 2 9 16 23 30", "1998-08: 6 13 20 27", "1999-06: 3 10 17 24", "1999-07: 1 8 15 22 29", "1999-08: 5 12 19 26"), finite: false)
        add("rfc-28", "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", "1997-09-02 09:00",
            ["1998-02-13 09:00", "1998-03-13 09:00", "1998-11-13 09:00", "1999-08-13 09:00", "2000-10-13 09:00"], finite: false,
            exdates: ["1997-09-02 09:00"])
        add("rfc-29", "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", "1997-09-13 09:00",
            m("1997-09: 13", "1997-10: 11", "1997-11: 8", "1997-12: 13", "1998-01: 10", "1998-02: 7", "1998-03: 7", "1998-04: 11", "1998-05: 9", "1998-06: 13"), finite: false)
        add("rfc-30", "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", "1996-11-05 09:00",
            ["1996-11-05 09:00", "2000-11-07 09:00", "2004-11-02 09:00"], finite: false)
        add("rfc-31", "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", "1997-09-04 09:00",
            ["1997-09-04 09:00", "1997-10-07 09:00", "1997-11-06 09:00"], finite: true)
        add("rfc-32", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "1997-09-29 09:00",
            m("1997-09: 29", "1997-10: 30", "1997-11: 27", "1997-12: 30", "1998-01: 29", "1998-02: 26", "1998-03: 30"), finite: false)
        // The RFC lists 09:00, 12:00 and 15:00 for UNTIL=19970902T170000Z, which is 13:00 in New
        // York (EDT): read strictly, the rule ends after 12:00. Its errata give 21:00Z for the list.
        add("rfc-33a", "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T210000Z", "1997-09-02 09:00", times("1997-09-02", ["09:00", "12:00", "15:00"]), finite: true)
        add("rfc-33b", "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", "1997-09-02 09:00", times("1997-09-02", ["09:00", "12:00"]), finite: true)
        add("rfc-34", "FREQ=MINUTELY;INTERVAL=15;COUNT=6", "1997-09-02 09:00",
            times("1997-09-02", ["09:00", "09:15", "09:30", "09:45", "10:00", "10:15"]), finite: true)
        add("rfc-35", "FREQ=MINUTELY;INTERVAL=90;COUNT=4", "1997-09-02 09:00", times("1997-09-02", ["09:00", "10:30", "12:00", "13:30"]), finite: true)
        let twenty = ["09:00", "09:20", "09:40", "10:00", "10:20", "10:40", "11:00", "11:20", "11:40", "12:00", "12:20", "12:40",
                      "13:00", "13:20", "13:40", "14:00", "14:20", "14:40", "15:00", "15:20", "15:40", "16:00", "16:20", "16:40"]
        let everyTwenty = times("1997-09-02", twenty) + times("1997-09-03", twenty) + ["1997-09-04 09:00"]
        add("rfc-36a", "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", "1997-09-02 09:00", everyTwenty, finite: false)
        add("rfc-36b", "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", "1997-09-02 09:00", everyTwenty, finite: false)
        add("rfc-37a", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", "1997-08-05 09:00", m("1997-08: 5 10 19 24"), finite: true)
        add("rfc-37b", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", "1997-08-05 09:00", m("1997-08: 5 17 19 31"), finite: true)
        add("rfc-38", "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", "2007-01-15 09:00",
            m("2007-01: 15 30", "2007-02: 15", "2007-03: 15 30"), finite: true)
        return x
    }()

    static func text(_ d: Due) -> String { d.date.iso + " " + (d.time?.iso ?? "--:--") }

    func testTheRFCExamples() {
        var ids = Set<String>()
        for e in Self.examples {
            XCTAssertTrue(ids.insert(e.id).inserted, "\(e.id): duplicate case id")
            guard case .success(var rule) = RepeatRule.fromRRULE(e.rrule) else { XCTFail("\(e.id): \(e.rrule) refused"); continue }
            rule.weekStart = rule.weekStart ?? .monday
            guard let start = CivilDateTime(iso: e.start.replacingOccurrences(of: " ", with: "T")) else { XCTFail("\(e.id): bad DTSTART"); continue }
            var spec = RepeatSpec(rule: rule, anchor: start.date, anchorTime: start.time)
            spec.exceptions = e.exdates.compactMap { CivilDateTime(iso: $0.replacingOccurrences(of: " ", with: "T")) }.map { Due(date: $0.date, time: $0.time) }
            let limit = e.want.count + (e.finite ? 5 : 0)
            let got = spec.occurrences(limit: limit, time: start.time, weekStart: .monday, zone: Self.newYork).map(Self.text)
            XCTAssertEqual(got, e.want, "\(e.id): \(e.rrule) from \(e.start)")
        }
        XCTAssertGreaterThanOrEqual(ids.count, 40, "the RFC's examples, with their second forms")
    }

    /// The rules the RFC lists come back from Kept's RRULE of them: exporting and reading again
    /// gives the same instances (rfc-NN-rt).
    func testTheRFCExamplesRoundTrip() {
        for e in Self.examples {
            guard case .success(var rule) = RepeatRule.fromRRULE(e.rrule),
                  let start = CivilDateTime(iso: e.start.replacingOccurrences(of: " ", with: "T")) else { continue }
            rule.weekStart = rule.weekStart ?? .monday
            guard case .success(let out) = rule.rrule(anchor: start.date, zone: Self.newYork, dueTime: start.time) else {
                XCTFail("\(e.id)-rt: no RRULE")
                continue
            }
            guard case .success(var back) = RepeatRule.fromRRULE(out) else { XCTFail("\(e.id)-rt: \(out) does not read back"); continue }
            back.weekStart = back.weekStart ?? .monday
            let a = rule.occurrences(anchor: start.date, time: start.time, limit: 60, zone: Self.newYork)
            let b = back.occurrences(anchor: start.date, time: start.time, limit: 60, zone: Self.newYork)
            XCTAssertEqual(a, b, "\(e.id)-rt: \(e.rrule) exported as \(out)")
        }
    }

    /// What reads as an RRULE rather than words: `FREQ=` in any case, anywhere in the text.
    func testAnRRULEIsTextThatSaysFREQ() {
        for (text, says) in [("FREQ=DAILY", true), ("freq=weekly;byday=MO", true), ("RRULE:FREQ=MONTHLY", true),
                             ("INTERVAL=2;Freq=Yearly", true), ("FREQ", false), ("FREQ:DAILY", false), ("every day", false),
                             ("", false), ("FRE", false), ("fréq=daily", false), ("FREQ=", true), ("xFREQ=", true)] {
            XCTAssertEqual(RepeatRule.saysFREQ(text), says, text)
            XCTAssertEqual(RepeatRule.saysFREQ(text), text.uppercased().contains("FREQ="), text)
        }
    }
}
