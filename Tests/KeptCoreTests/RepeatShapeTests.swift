// The repeat shapes beyond the simple ones (issue: the whole of RFC 5545): their words and the
// one canonical phrase each reads back as (R-REP-9), their RRULEs, their dates; UNTIL as RFC
// 5545 means it; WKST as part of the rule; what a completion makes for several occurrences a
// day, late, `after completion` and across DST (R-REP-2, R-REP-3, R-REP-5); EXDATE and RDATE.
//
// Every expected date was worked out by hand from a calendar, never copied from the engine.
// Calendar facts used: 2026: Jan 1 Thu, Jan 30 Fri, Feb 13 Fri, Mar 13 Fri, Jun 1 Mon, Jun 15
// Mon, Jun 30 Tue, Jul 31 Fri, Aug 31 Mon, Sep 30 Wed, Nov 13 Fri, Nov 27 Fri, Dec 25 Fri;
// 2027-01-01 Fri, 2027-01-04 Mon. Europe/Berlin springs forward at 02:00 on 2026-03-29 and is
// UTC+2 in summer; 2026 has 53 ISO weeks (Jan 1 is a Thursday), 2021 has 52.
// covers: R-REP-1, R-REP-2, R-REP-3, R-REP-4, R-REP-5, R-REP-7, R-REP-9, R-REP-10, R-DAY-3, R-DAY-5

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RepeatShapeTests: XCTestCase, SessionTesting {
    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    struct Shape {
        let id: String
        let words: String
        let anchor: String
        let text: String
        let rrule: String
        let dates: [String]
    }

    static let shapes: [Shape] = [
        Shape(id: "sh-01", words: "every month on the 1st and 15th", anchor: "2026-06-15", text: "Every month on the 1st and 15th",
              rrule: "FREQ=MONTHLY;BYMONTHDAY=1,15", dates: ["2026-06-15", "2026-07-01", "2026-07-15", "2026-08-01"]),
        Shape(id: "sh-02", words: "every month on the 3rd to last day", anchor: "2026-01-01", text: "Every month on the 3rd to last day",
              rrule: "FREQ=MONTHLY;BYMONTHDAY=-3", dates: ["2026-01-29", "2026-02-26", "2026-03-29", "2026-04-28"]),
        Shape(id: "sh-03", words: "every last weekday", anchor: "2026-06-01", text: "Every month on the last weekday",
              rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", dates: ["2026-06-30", "2026-07-31", "2026-08-31", "2026-09-30"]),
        Shape(id: "sh-04", words: "every month on the 2nd to last monday", anchor: "2026-06-01", text: "Every month on the 2nd to last Monday",
              rrule: "FREQ=MONTHLY;BYDAY=-2MO", dates: ["2026-06-22", "2026-07-20", "2026-08-24"]),
        Shape(id: "sh-05", words: "every friday the 13th", anchor: "2026-01-01", text: "Every Friday the 13th",
              rrule: "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", dates: ["2026-02-13", "2026-03-13", "2026-11-13"]),
        Shape(id: "sh-06", words: "every day in january", anchor: "2026-06-15", text: "Every day in January",
              rrule: "FREQ=DAILY;BYMONTH=1", dates: ["2027-01-01", "2027-01-02", "2027-01-03"]),
        Shape(id: "sh-07", words: "every quarter on the 1st", anchor: "2026-06-15", text: "Every quarter on the 1st",
              rrule: "FREQ=MONTHLY;BYMONTH=1,4,7,10;BYMONTHDAY=1", dates: ["2026-07-01", "2026-10-01", "2027-01-01"]),
        Shape(id: "sh-08", words: "every weekday at 9am and 5pm", anchor: "2026-06-15", text: "Every weekday at 9am and 5pm",
              rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,17;BYMINUTE=0",
              dates: ["2026-06-15 09:00", "2026-06-15 17:00", "2026-06-16 09:00"]),
        Shape(id: "sh-09", words: "every 2 hours from 9am to 5pm", anchor: "2026-06-15", text: "Every 2 hours from 9am to 5pm",
              rrule: "FREQ=DAILY;BYHOUR=9,11,13,15,17;BYMINUTE=0",
              dates: ["2026-06-15 09:00", "2026-06-15 11:00", "2026-06-15 13:00", "2026-06-15 15:00", "2026-06-15 17:00", "2026-06-16 09:00"]),
        // The clamp (R-REP-4) of one of several days: RFC 7529 says it, a BYSETPOS cannot.
        Shape(id: "sh-10", words: "every month on the 31st and 15th", anchor: "2026-02-01", text: "Every month on the 15th and 31st",
              rrule: "RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=15,31;SKIP=BACKWARD", dates: ["2026-02-15", "2026-02-28", "2026-03-15", "2026-03-31"]),
        Shape(id: "sh-11", words: "every 2 months on every tuesday", anchor: "2026-06-01", text: "Every 2 months on every Tuesday",
              rrule: "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", dates: ["2026-06-02", "2026-06-09", "2026-06-16", "2026-06-23", "2026-06-30", "2026-08-04"]),
        Shape(id: "sh-12", words: "every monday in january and february", anchor: "2026-06-15", text: "Every Monday in January and February",
              rrule: "FREQ=WEEKLY;BYMONTH=1,2;BYDAY=MO", dates: ["2027-01-04", "2027-01-11", "2027-01-18"]),
        Shape(id: "sh-13", words: "every quarter on the last day", anchor: "2026-06-15", text: "Every quarter on the last day",
              rrule: "FREQ=MONTHLY;BYMONTH=3,6,9,12;BYMONTHDAY=-1", dates: ["2026-06-30", "2026-09-30", "2026-12-31"]),
        Shape(id: "sh-14", words: "every month on the 3rd of tue, wed and thu", anchor: "2026-06-01",
              text: "Every month on the 3rd of Tuesday, Wednesday and Thursday",
              rrule: "FREQ=MONTHLY;BYDAY=TU,WE,TH;BYSETPOS=3", dates: ["2026-06-04", "2026-07-07", "2026-08-06"]),
        Shape(id: "sh-15", words: "every year on the last friday of november and december", anchor: "2026-01-01",
              text: "Every year on the last Friday of November and December",
              rrule: "FREQ=YEARLY;BYMONTH=11,12;BYDAY=-1FR", dates: ["2026-11-27", "2026-12-25"]),
        Shape(id: "sh-16", words: "every weekday every 30 minutes from 9am to 10:30am", anchor: "2026-06-15",
              text: "Every weekday every 30 minutes from 9am to 10:30am",
              rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,10;BYMINUTE=0,30",
              dates: ["2026-06-15 09:00", "2026-06-15 09:30", "2026-06-15 10:00", "2026-06-15 10:30", "2026-06-16 09:00"]),
        Shape(id: "sh-17", words: "every 15 minutes", anchor: "2026-06-15", text: "Every 15 minutes",
              rrule: "FREQ=MINUTELY;INTERVAL=15", dates: ["2026-06-15 00:00", "2026-06-15 00:15", "2026-06-15 00:30"]),
        Shape(id: "sh-18", words: "every 3 hours", anchor: "2026-06-15", text: "Every 3 hours",
              rrule: "FREQ=HOURLY;INTERVAL=3", dates: ["2026-06-15 00:00", "2026-06-15 03:00", "2026-06-15 06:00"]),
        Shape(id: "sh-19", words: "every month on the 1st weekday", anchor: "2026-06-15", text: "Every month on the 1st weekday",
              rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", dates: ["2026-07-01", "2026-08-03", "2026-09-01"]),
        Shape(id: "sh-20", words: "every month on the 1st monday and last friday", anchor: "2026-06-15",
              text: "Every month on the 1st Monday and last Friday",
              rrule: "FREQ=MONTHLY;BYDAY=1MO,-1FR", dates: ["2026-06-26", "2026-07-06", "2026-07-31"]),
        Shape(id: "sh-21", words: "every day at 8am, noon and 6pm", anchor: "2026-06-15", text: "Every day at 8am, 12pm and 6pm",
              rrule: "FREQ=DAILY;BYHOUR=8,12,18;BYMINUTE=0", dates: ["2026-06-15 08:00", "2026-06-15 12:00", "2026-06-15 18:00", "2026-06-16 08:00"]),
        Shape(id: "sh-22", words: "every quarter on the 2nd tuesday", anchor: "2026-06-15", text: "Every quarter on the 2nd Tuesday",
              rrule: "FREQ=MONTHLY;BYMONTH=1,4,7,10;BYDAY=2TU", dates: ["2026-07-14", "2026-10-13", "2027-01-12"]),
    ]

    static func show(_ d: Due) -> String { d.date.iso + (d.time.map { " " + $0.iso } ?? "") }

    func parsed(_ text: String, _ id: String) -> RepeatRule? {
        switch RepeatRule.parse(text) {
        case .success(let (r, used)) where used == text.split(separator: " ").count: return r
        case .success(let (_, used)): XCTFail("\(id): '\(text)' parsed \(used) words only"); return nil
        case .failure(let e): XCTFail("\(id): '\(text)' did not parse: \(e.message)"); return nil
        }
    }

    /// R-REP-9: each shape's words read as its rule; the rule's canonical phrase reads back as the
    /// same rule, phrase and RRULE; the dates are the calendar's.
    func testShapes() {
        var ids = Set<String>()
        for c in Self.shapes {
            XCTAssertTrue(ids.insert(c.id).inserted, "\(c.id): duplicate id")
            guard let r = parsed(c.words, c.id), let a = CivilDate(iso: c.anchor) else { continue }
            XCTAssertEqual(r.text(anchor: a), c.text, "\(c.id): words of '\(c.words)'")
            XCTAssertEqual(try? r.rrule(anchor: a).get(), c.rrule, "\(c.id): RRULE of '\(c.words)'")
            XCTAssertEqual(r.occurrences(anchor: a, limit: c.dates.count).map(Self.show), c.dates, "\(c.id): dates of '\(c.words)'")
            guard let back = parsed(c.text, c.id + " canonical") else { continue }
            XCTAssertEqual(back, r, "\(c.id): '\(c.text)' is another rule")
            XCTAssertEqual(back.text(anchor: a), c.text, "\(c.id): '\(c.text)' reads back as other words")
            // The RRULE reads back with the same dates.
            if case .success(let fromRR) = RepeatRule.fromRRULE(c.rrule) {
                XCTAssertEqual(fromRR.occurrences(anchor: a, limit: 12), r.occurrences(anchor: a, limit: 12), "\(c.id): \(c.rrule) read back")
            } else {
                XCTFail("\(c.id): \(c.rrule) does not read back")
            }
        }
    }

    /// Words that say no rule: several kinds of day in one list, times that are not one list of
    /// hours by one of minutes (E0218), the nth weekday with several times a day (E0218).
    func testWordsRefused() {
        let cases: [(String, String, String)] = [
            ("shno-01", "every day at 9am and 5:30pm", "E0218"),
            ("shno-02", "every month on the 1st and last friday", "E0210"),
            ("shno-03", "every month on the last weekday at 9am and 5pm", "E0218"),
            ("shno-04", "every quarter on every tuesday", "E0210"),
            ("shno-05", "every 2 hours from 5pm to 9am", "E0210"),
        ]
        for (id, text, code) in cases {
            switch RepeatRule.parse(text) {
            case .success(let (r, used)) where used == text.split(separator: " ").count:
                XCTFail("\(id): '\(text)' read as '\(r.text(anchor: nil))'")
            case .success:
                break
            case .failure(let e):
                XCTAssertEqual(e.code.rawValue, code, "\(id): '\(text)': \(e.message)")
            }
        }
        let s = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: .earliest, time: .midnight)),
                        defaultZone: Self.berlin)
        XCTAssertEqual(lines(s, "repeat every day at 9am and 5:30pm").first?.hasPrefix("! E0218"), true, "shno-06")
    }

    /// A rule words cannot say keeps its RRULE as its text, which reads back as the same rule.
    func testRulesWithoutWords() {
        let cases: [(String, String)] = [
            ("nw-01", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO"),
            ("nw-02", "FREQ=YEARLY;INTERVAL=3;BYYEARDAY=1,100,200"),
            ("nw-03", "FREQ=YEARLY;BYDAY=20MO"),
            ("nw-04", "FREQ=MONTHLY;BYDAY=-1SA;BYMONTHDAY=13"),
            ("nw-05", "FREQ=DAILY;UNTIL=19971224T000000Z"),
            ("nw-06", "FREQ=HOURLY;INTERVAL=2;BYHOUR=9,11,13"),
            ("nw-07", "FREQ=WEEKLY;BYDAY=MO,TU;BYSETPOS=1"),
        ]
        for (id, text) in cases {
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { XCTFail("\(id): \(text) refused"); continue }
            XCTAssertNil(r.words(anchor: CivilDate(iso: "2026-06-15")), id)
            let t = r.text(anchor: CivilDate(iso: "2026-06-15"))
            let spec = RepeatSpec(text: t)
            XCTAssertEqual(spec.rule, r, "\(id): the text \(t) reads back as another rule")
        }
        // The -1SA;13 intersection (RFC 5545 takes both parts): a 13th that is a month's last Saturday.
        if case .success(let r) = RepeatRule.fromRRULE("FREQ=MONTHLY;BYDAY=-1SA;BYMONTHDAY=13"), let a = CivilDate(iso: "2026-01-01") {
            XCTAssertEqual(r.occurrences(anchor: a, limit: 0), [], "nw-04b")
        }
    }

    // MARK: UNTIL

    func testUntil() {
        guard let a = CivilDate(iso: "2026-06-15") else { return }
        // A timed rule's `until DATE` is the end of that day: an instant in the zone, floating without one.
        if let r = parsed("every day at 9am until 2026-06-20", "un-01") {
            XCTAssertEqual(try? r.rrule(anchor: a, zone: Self.berlin).get(), "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T215959Z", "un-01")
            XCTAssertEqual(try? r.rrule(anchor: a).get(), "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T235959", "un-02")
            XCTAssertEqual(r.occurrences(anchor: a, limit: 10, zone: Self.berlin).count, 6, "un-03: Jun 15 to 20")
        }
        if let r = parsed("every day until 2026-06-20", "un-04") {
            XCTAssertEqual(try? r.rrule(anchor: a, zone: Self.berlin).get(), "FREQ=DAILY;UNTIL=20260620", "un-04")
            // With a due time (DTSTART a date-time), UNTIL is a date-time too.
            XCTAssertEqual(try? r.rrule(anchor: a, zone: Self.berlin, dueTime: WallTime(hour: 9, minute: 0)).get(),
                           "FREQ=DAILY;UNTIL=20260620T215959Z", "un-05")
        }
        let read: [(String, String, String?)] = [
            // id, RRULE, its words (nil: none), read in Berlin
            ("un-06", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T235959", "Every day at 9am until 2026-06-20"),
            ("un-07", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T215959Z", "Every day at 9am until 2026-06-20"),
            ("un-08", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T120000Z", nil),
        ]
        for (id, text, words) in read {
            guard case .success(let r) = RepeatRule.fromRRULE(text) else { XCTFail("\(id): refused"); continue }
            XCTAssertEqual(r.untilAsDay(in: Self.berlin).words(anchor: a), words, id)
        }
        // 12:00Z is 14:00 in Berlin: the 9:00 of Jun 20 is in, the series ends there.
        if case .success(let r) = RepeatRule.fromRRULE("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T120000Z") {
            XCTAssertEqual(r.occurrences(anchor: a, limit: 10, zone: Self.berlin).last.map(Self.show), "2026-06-20 09:00", "un-09")
            XCTAssertEqual(r.occurrences(anchor: a, limit: 10, zone: Self.berlin).count, 6, "un-10")
        }
        // 06:59:59Z is 08:59:59 in Berlin: Jun 20 9:00 is out.
        if case .success(let r) = RepeatRule.fromRRULE("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20260620T065959Z") {
            XCTAssertEqual(r.occurrences(anchor: a, limit: 10, zone: Self.berlin).count, 5, "un-11")
        }
        let refused: [(String, String, String)] = [
            ("un-12", "FREQ=DAILY;UNTIL=19971224T235959+0100", "E0215"),
            ("un-13", "FREQ=DAILY;BYHOUR=9;UNTIL=20260620", "E0217"),
            ("un-14", "FREQ=DAILY;COUNT=3;UNTIL=20260620", "E0216"),
            ("un-15", "FREQ=DAILY;UNTIL=20261340", "E0215"),
            ("un-16", "FREQ=DAILY;UNTIL=20260620T250000Z", "E0215"),
        ]
        for (id, text, code) in refused {
            if case .failure(let e) = RepeatRule.fromRRULE(text) { XCTAssertEqual(e.code.rawValue, code, "\(id): \(e.message)") } else { XCTFail("\(id): \(text) read") }
        }
    }

    // MARK: WKST

    /// WKST belongs to the rule: an imported one is kept and exported, a rule in words takes
    /// the account's week start when it is written and keeps it (R-DAY-5).
    func testWeekStartBelongsToTheRule() {
        let s = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "1997-08-05T09:00") ?? CivilDateTime(date: .earliest, time: .midnight)),
                        defaultZone: Self.berlin)
        _ = lines(s, "set week-start sunday")
        // No WKST is Monday (RFC 5545), whatever the account's: Aug 5, 10, 19, 24.
        XCTAssertEqual(lines(s, "repeat FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU from 1997-08-05").suffix(5),
                       ["Tue Aug 5, 1997", "Sun Aug 10, 1997", "Tue Aug 19, 1997", "Sun Aug 24, 1997", "(the series ends here)"], "wk-01")
        XCTAssertEqual(lines(s, "rrule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU"), ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;WKST=SU"], "wk-02")
        XCTAssertEqual(lines(s, "rrule FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU"), ["FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU"], "wk-03")
        // Words written under Sunday weeks keep them after the account goes back to Monday.
        _ = lines(s, "add Swim @1997-08-05 every 2 weeks on tue and sun")
        _ = lines(s, "add Run @1997-08-05 every 2 weeks on tue and sun after completion")
        _ = lines(s, "set week-start monday")
        XCTAssertEqual(s.store.task(1)?.repeatRule?.rule?.weekStart, .sunday, "wk-04")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Swim · next: 3 due Sun Aug 17"], "wk-05")
        // Stored and loaded: the RRULE carries WKST=SU; the rule without an RRULE stores "wkst".
        guard case .success(let loaded) = StoreCodec.decode(StoreCodec.encode(s.store.snapshot())) else { return XCTFail("wk-06: store round trip") }
        XCTAssertEqual(loaded.task(3)?.repeatRule?.rule?.weekStart, .sunday, "wk-06")
        XCTAssertEqual(loaded.task(2)?.repeatRule?.rule?.weekStart, .sunday, "wk-07")
        XCTAssertTrue(String(decoding: StoreCodec.encode(s.store.snapshot()), as: UTF8.self).contains(#""wkst":"SU""#), "wk-08")
    }

    /// BYWEEKNO counts ISO-style weeks from WKST; week 53 exists in 2026 (Dec 28 - Jan 3).
    func testWeekNumbers() {
        guard case .success(let r) = RepeatRule.fromRRULE("FREQ=YEARLY;BYWEEKNO=53;BYDAY=SU"), let a = CivilDate(iso: "2021-09-15") else { return XCTFail("wn-01") }
        XCTAssertEqual(r.occurrences(anchor: a, limit: 1).map(Self.show), ["2027-01-03"], "wn-01: 2021 to 2025 have 52 weeks")
        guard case .success(let first) = RepeatRule.fromRRULE("FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO,SU"), let b = CivilDate(iso: "2026-06-15") else { return XCTFail("wn-02") }
        // Week 1 of 2027 runs Mon Jan 4 - Sun Jan 10.
        XCTAssertEqual(first.occurrences(anchor: b, limit: 2).map(Self.show), ["2027-01-04", "2027-01-10"], "wn-02")
        guard case .success(let last) = RepeatRule.fromRRULE("FREQ=YEARLY;BYWEEKNO=-1;BYDAY=TH") else { return XCTFail("wn-03") }
        // The last week of 2026 is week 53: Thu Dec 31; of 2027, week 52: Thu Dec 30.
        XCTAssertEqual(last.occurrences(anchor: b, limit: 2).map(Self.show), ["2026-12-31", "2027-12-30"], "wn-03")
    }

    // MARK: completion

    func spec(_ words: String, _ anchor: String, time: String? = nil) -> RepeatSpec? {
        guard let r = parsed(words, words), let a = CivilDate(iso: anchor) else { return nil }
        return RepeatSpec(rule: r, anchor: a, anchorTime: time.flatMap(WallTime.init(iso:)))
    }

    func due(_ s: String) -> Due? {
        if let t = CivilDateTime(iso: s) { return Due(date: t.date, time: t.time) }
        return CivilDate(iso: s).map { Due(date: $0) }
    }

    func next(_ spec: RepeatSpec?, _ done: String, at: String, _ id: String) -> String? {
        guard let spec, let d = due(done), let now = CivilDateTime(iso: at) else { XCTFail("\(id): fixture"); return nil }
        return spec.next(afterCompleting: d, at: now, today: now.date, zone: Self.berlin, weekStart: .monday).map { Self.show($0.due) }
    }

    /// R-REP-2, R-REP-3 with several occurrences a day: completing the 9am one makes the 5pm one;
    /// late, the first one still ahead; early, the one after the completed one.
    func testCompletionWithTimes() {
        let twice = spec("every day at 9am and 5pm", "2026-06-15")
        XCTAssertEqual(next(twice, "2026-06-15T09:00", at: "2026-06-15T09:10", "cp-01"), "2026-06-15 17:00", "cp-01")
        XCTAssertEqual(next(twice, "2026-06-15T17:00", at: "2026-06-15T17:30", "cp-02"), "2026-06-16 09:00", "cp-02")
        XCTAssertEqual(next(twice, "2026-06-15T09:00", at: "2026-06-16T08:00", "cp-03"), "2026-06-16 09:00", "cp-03")
        XCTAssertEqual(next(twice, "2026-06-15T09:00", at: "2026-06-16T12:00", "cp-04"), "2026-06-16 17:00", "cp-04")
        XCTAssertEqual(next(twice, "2026-06-16T09:00", at: "2026-06-15T20:00", "cp-05"), "2026-06-16 17:00", "cp-05: early")
        let range = spec("every 2 hours from 9am to 5pm", "2026-06-15")
        XCTAssertEqual(next(range, "2026-06-15T15:00", at: "2026-06-15T15:05", "cp-06"), "2026-06-15 17:00", "cp-06")
        XCTAssertEqual(next(range, "2026-06-15T17:00", at: "2026-06-15T17:05", "cp-07"), "2026-06-16 09:00", "cp-07")
        // A date rule of a task with a due time: its occurrences are at that time.
        let daily = spec("every day", "2026-06-10")
        XCTAssertEqual(next(daily, "2026-06-10T22:00", at: "2026-06-15T09:00", "cp-08"), "2026-06-15 22:00", "cp-08: still ahead today")
        XCTAssertEqual(next(daily, "2026-06-10", at: "2026-06-15T09:00", "cp-09"), "2026-06-16", "cp-09: a day without a time")
        // Hourly: the anchor's phase; after completion from the completion moment.
        let hourly = spec("every 3 hours", "2026-06-15", time: "08:30")
        XCTAssertEqual(next(hourly, "2026-06-15T08:30", at: "2026-06-15T13:00", "cp-10"), "2026-06-15 14:30", "cp-10")
        let again = spec("every 2 hours after completion", "2026-06-15", time: "08:30")
        XCTAssertEqual(next(again, "2026-06-15T08:30", at: "2026-06-15T10:37", "cp-11"), "2026-06-15 12:37", "cp-11")
        let monthly = spec("every month after completion", "2026-01-31")
        XCTAssertEqual(next(monthly, "2026-01-31", at: "2026-02-10T09:00", "cp-12"), "2026-03-10", "cp-12: a month from Feb 10")
    }

    /// R-DAY-3: 02:00 on the spring-forward night is 03:00, the next hour's moment: completing
    /// it makes 04:00, not a second 03:00.
    func testCompletionAcrossTheGap() {
        let hourly = spec("every hour", "2026-03-29", time: "00:00")
        XCTAssertEqual(next(hourly, "2026-03-29T01:00", at: "2026-03-29T01:05", "gap-01"), "2026-03-29 02:00", "gap-01: 02:00 is shown as 03:00")
        // Done early, at 01:30: the next wall time, 03:00, is the moment 02:00 moved to.
        XCTAssertEqual(next(hourly, "2026-03-29T02:00", at: "2026-03-29T01:30", "gap-02"), "2026-03-29 04:00", "gap-02")
        if let t = CivilDateTime(iso: "2026-03-29T02:00") {
            XCTAssertEqual(Self.berlin.local(at: Self.berlin.instant(for: t)).time.iso, "03:00", "gap-03")
        }
    }

    /// R-REP-5: a reminder moves by the span between the occurrences' times, or by days.
    func testRemindersMoveWithTheOccurrence() {
        guard let r = CivilDateTime(iso: "2026-06-15T08:45"), let nine = due("2026-06-15T09:00"), let five = due("2026-06-15T17:00"),
              let tomorrow = due("2026-06-16"), let today = due("2026-06-15") else { return XCTFail("rm-00") }
        XCTAssertEqual(RepeatSpec.moved(r, from: nine, to: five).iso, "2026-06-15T16:45", "rm-01")
        XCTAssertEqual(RepeatSpec.moved(r, from: today, to: tomorrow).iso, "2026-06-16T08:45", "rm-02")
        XCTAssertEqual(RepeatSpec.moved(r, from: nil, to: tomorrow).iso, "2026-06-16T08:45", "rm-03")
    }

    /// The same through a session: the 9am occurrence's completion makes the 5pm one, and an
    /// undated task takes the rule's first time (R-REP-7).
    func testSessionWithTimes() {
        let s = Session(store: JSONStore(memory: Store()), clock: .wall(CivilDateTime(iso: "2026-06-15T08:00") ?? CivilDateTime(date: .earliest, time: .midnight)),
                        defaultZone: Self.berlin)
        XCTAssertEqual(lines(s, "add Standup every weekday at 9am and 5pm"), ["Added 1 · Standup · Today 9 AM · Every weekday at 9am and 5pm"], "ss-01")
        s.clock = .wall(CivilDateTime(iso: "2026-06-15T09:05") ?? CivilDateTime(date: .earliest, time: .midnight))
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Standup · next: 2 due Mon Jun 15 5 PM"], "ss-02")
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Standup · next: 3 due Tue Jun 16 9 AM"], "ss-03")
    }

    // MARK: EXDATE and RDATE

    func testExceptionsAndAdditions() {
        guard var s = spec("every month on the 1st", "2026-06-01"), let jul1 = CivilDate(iso: "2026-07-01"), let jun20 = CivilDate(iso: "2026-06-20") else { return }
        s.exceptions = [Due(date: jul1)]
        XCTAssertEqual(next(s, "2026-06-01", at: "2026-06-01T09:00", "ex-01"), "2026-08-01", "ex-01")
        s.additions = [Due(date: jun20)]
        XCTAssertEqual(next(s, "2026-06-01", at: "2026-06-01T09:00", "ex-02"), "2026-06-20", "ex-02")
        XCTAssertEqual(s.occurrences(limit: 4, time: nil, weekStart: .monday, zone: Self.berlin).map(Self.show),
                       ["2026-06-01", "2026-06-20", "2026-08-01", "2026-09-01"], "ex-03")
        // A day taken out of a timed series takes out each occurrence of that day.
        guard var t = spec("every day at 9am and 5pm", "2026-06-15"), let jun16 = CivilDate(iso: "2026-06-16") else { return }
        t.exceptions = [Due(date: jun16)]
        XCTAssertEqual(next(t, "2026-06-15T17:00", at: "2026-06-15T17:05", "ex-04"), "2026-06-17 09:00", "ex-04")
        t.exceptions = [Due(date: jun16, time: WallTime(hour: 9, minute: 0))]
        XCTAssertEqual(next(t, "2026-06-15T17:00", at: "2026-06-15T17:05", "ex-05"), "2026-06-16 17:00", "ex-05")
    }

    /// The iCalendar lines of a repeat, and back.
    func testICalendar() {
        guard var t = spec("every day at 9am", "2026-06-15"), let jun17 = CivilDate(iso: "2026-06-17"), let jun20 = CivilDate(iso: "2026-06-20") else { return }
        t.exceptions = [Due(date: jun17)]
        t.additions = [Due(date: jun20, time: WallTime(hour: 18, minute: 0))]
        let want = """
        DTSTART;TZID=Europe/Berlin:20260615T090000
        RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0
        EXDATE;TZID=Europe/Berlin:20260617T090000
        RDATE;TZID=Europe/Berlin:20260620T180000
        """
        XCTAssertEqual(try? t.icalendar(zone: Self.berlin, weekStart: .monday).get(), want, "ic-01")
        guard case .success(let back) = RepeatSpec.fromICalendar(want, zone: Self.berlin) else { return XCTFail("ic-02") }
        XCTAssertEqual(back.occurrences(limit: 8, time: nil, weekStart: .monday, zone: Self.berlin),
                       t.occurrences(limit: 8, time: nil, weekStart: .monday, zone: Self.berlin), "ic-02")
        // UTC and other zones are read as Berlin wall times; a date series writes dates.
        let other = "DTSTART;VALUE=DATE:20260601\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1\nEXDATE;VALUE=DATE:20260701\nRDATE:20260620T160000Z"
        guard case .success(let o) = RepeatSpec.fromICalendar(other, zone: Self.berlin) else { return XCTFail("ic-03") }
        XCTAssertEqual(o.occurrences(limit: 3, time: nil, weekStart: .monday, zone: Self.berlin).map(Self.show),
                       ["2026-06-01", "2026-06-20 18:00", "2026-08-01"], "ic-03")
        XCTAssertEqual(try? o.icalendar(zone: Self.berlin, weekStart: .monday).get(),
                       "DTSTART;VALUE=DATE:20260601\nRRULE:FREQ=MONTHLY;BYMONTHDAY=1\nEXDATE;VALUE=DATE:20260701\nRDATE;TZID=Europe/Berlin:20260620T180000", "ic-04")
        if case .success = RepeatSpec.fromICalendar("RRULE:FREQ=DAILY\nSUMMARY:x", zone: Self.berlin) { XCTFail("ic-05: SUMMARY read") }
        if case .success = RepeatSpec.fromICalendar("DTSTART:2026", zone: Self.berlin) { XCTFail("ic-06: a bad DTSTART read") }
    }

    /// EXDATE, RDATE, the anchor's time and the week start are stored with the repeat and read
    /// back; a store without them reads as before.
    func testStoredExtras() {
        guard var t = spec("every 3 hours", "2026-06-15", time: "08:30"), let jul1 = CivilDate(iso: "2026-07-01") else { return }
        t.exceptions = [Due(date: jul1, time: WallTime(hour: 8, minute: 30))]
        t.additions = [Due(date: jul1)]
        var task = Task(id: 1, title: "Stretch", createdAt: Instant(seconds: 0))
        task.due = Due(date: jul1, time: WallTime(hour: 8, minute: 30))
        task.repeatRule = t
        let bytes = StoreCodec.encode(Store(tasks: [task]))
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(#""anchor":"2026-06-15T08:30""#), "st-01")
        XCTAssertTrue(text.contains(#""exdate":["2026-07-01T08:30"]"#), "st-02")
        XCTAssertTrue(text.contains(#""rdate":["2026-07-01"]"#), "st-03")
        guard case .success(let back) = StoreCodec.decode(bytes) else { return XCTFail("st-04") }
        XCTAssertEqual(back.task(1)?.repeatRule?.anchorTime, WallTime(hour: 8, minute: 30), "st-04")
        XCTAssertEqual(back.task(1)?.repeatRule?.exceptions, t.exceptions, "st-05")
        XCTAssertEqual(back.task(1)?.repeatRule?.additions, t.additions, "st-06")
        // A repeat as stores have always written it has none of these.
        var plain = Task(id: 2, title: "Rent", createdAt: Instant(seconds: 0))
        plain.due = Due(date: jul1)
        plain.repeatRule = spec("every month on the 1st", "2026-07-01")
        let old = String(decoding: StoreCodec.encode(Store(tasks: [plain])), as: UTF8.self)
        XCTAssertTrue(old.contains(#""repeat":{"text":"Every month on the 1st","rrule":"FREQ=MONTHLY;BYMONTHDAY=1","anchor":"2026-07-01"}"#), "st-07: \(old)")
    }
}
