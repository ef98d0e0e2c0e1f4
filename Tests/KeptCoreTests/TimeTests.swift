// Table tests for civil dates, wall times and date-times: leap years, month ends, arithmetic, ISO text.
// Every case has a stable id that its failure message names; nothing reads the machine's clock or zone.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TimeTests: XCTestCase {

    private func date(_ text: String, _ id: String) throws -> CivilDate {
        try XCTUnwrap(CivilDate(iso: text), "\(id): bad fixture date \(text)")
    }

    private func dateTime(_ text: String, _ id: String) throws -> CivilDateTime {
        try XCTUnwrap(CivilDateTime(iso: text), "\(id): bad fixture date-time \(text)")
    }

    // MARK: - Leap years and month lengths

    func testLeapYears() {
        let cases: [(String, Int, Bool)] = [
            ("leap-01", 1900, false),
            ("leap-02", 2000, true),
            ("leap-03", 2024, true),
            ("leap-04", 2026, false),
            ("leap-05", 2100, false),
            ("leap-06", 2400, true),
            ("leap-07", 1600, true),
            ("leap-08", 4, true),
            ("leap-09", 1, false),
            ("leap-10", 2028, true),
        ]
        for (id, year, expected) in cases {
            XCTAssertEqual(CivilDate.isLeapYear(year), expected, id)
        }
    }

    func testDaysInMonth() {
        let cases: [(String, Int, Int, Int)] = [
            ("dim-01", 2026, 1, 31), ("dim-02", 2026, 2, 28), ("dim-03", 2024, 2, 29),
            ("dim-04", 1900, 2, 28), ("dim-05", 2000, 2, 29), ("dim-06", 2026, 3, 31),
            ("dim-07", 2026, 4, 30), ("dim-08", 2026, 5, 31), ("dim-09", 2026, 6, 30),
            ("dim-10", 2026, 7, 31), ("dim-11", 2026, 8, 31), ("dim-12", 2026, 9, 30),
            ("dim-13", 2026, 10, 31), ("dim-14", 2026, 11, 30), ("dim-15", 2026, 12, 31),
            ("dim-16", 2026, 0, 0), ("dim-17", 2026, 13, 0),
        ]
        for (id, year, month, expected) in cases {
            XCTAssertEqual(CivilDate.daysInMonth(year: year, month: month), expected, id)
        }
    }

    func testImpossibleDatesAreRejected() {
        let cases: [(String, Int, Int, Int)] = [
            ("bad-01", 2026, 2, 29), ("bad-02", 2026, 2, 30), ("bad-03", 2026, 13, 1),
            ("bad-04", 2026, 0, 1), ("bad-05", 2026, 4, 31), ("bad-06", 2026, 1, 0),
            ("bad-07", 0, 1, 1), ("bad-08", 10_000, 1, 1), ("bad-09", 1900, 2, 29),
            ("bad-10", 2026, 6, -1), ("bad-11", -5, 3, 3), ("bad-12", 2026, 1, 32),
        ]
        for (id, year, month, day) in cases {
            XCTAssertNil(CivilDate(year: year, month: month, day: day), id)
        }
    }

    func testPossibleDatesAreAccepted() {
        let cases: [(String, Int, Int, Int)] = [
            ("ok-01", 2024, 2, 29), ("ok-02", 2000, 2, 29), ("ok-03", 1, 1, 1),
            ("ok-04", 9999, 12, 31), ("ok-05", 2026, 1, 31), ("ok-06", 2026, 4, 30),
        ]
        for (id, year, month, day) in cases {
            let date = CivilDate(year: year, month: month, day: day)
            XCTAssertEqual(date?.year, year, id)
            XCTAssertEqual(date?.month, month, id)
            XCTAssertEqual(date?.day, day, id)
        }
    }

    func testMonthAndYearEnds() throws {
        let cases: [(String, String, String, String, String, String)] = [
            // id, date, first of month, last of month, first of year, last of year
            ("end-01", "2026-02-14", "2026-02-01", "2026-02-28", "2026-01-01", "2026-12-31"),
            ("end-02", "2024-02-29", "2024-02-01", "2024-02-29", "2024-01-01", "2024-12-31"),
            ("end-03", "2026-12-31", "2026-12-01", "2026-12-31", "2026-01-01", "2026-12-31"),
            ("end-04", "2026-04-01", "2026-04-01", "2026-04-30", "2026-01-01", "2026-12-31"),
        ]
        for (id, text, first, last, firstYear, lastYear) in cases {
            let d = try date(text, id)
            XCTAssertEqual(d.firstOfMonth.iso, first, id)
            XCTAssertEqual(d.lastOfMonth.iso, last, id)
            XCTAssertEqual(d.firstOfYear.iso, firstYear, id)
            XCTAssertEqual(d.lastOfYear.iso, lastYear, id)
        }
    }

    // MARK: - Arithmetic

    func testAddingDays() throws {
        let cases: [(String, String, Int, String)] = [
            ("add-d-01", "2026-02-28", 1, "2026-03-01"),
            ("add-d-02", "2024-02-28", 1, "2024-02-29"),
            ("add-d-03", "2024-02-29", 1, "2024-03-01"),
            ("add-d-04", "2026-12-31", 1, "2027-01-01"),
            ("add-d-05", "2026-01-01", -1, "2025-12-31"),
            ("add-d-06", "2026-03-01", -1, "2026-02-28"),
            ("add-d-07", "1970-01-01", -1, "1969-12-31"),
            ("add-d-08", "2026-06-15", 365, "2027-06-15"),
            ("add-d-09", "2026-06-15", 0, "2026-06-15"),
            ("add-d-10", "2026-06-15", Int.max, "9999-12-31"),
            ("add-d-11", "2026-06-15", Int.min, "0001-01-01"),
            ("add-d-12", "9999-12-31", 1, "9999-12-31"),
            ("add-d-13", "0001-01-01", -1, "0001-01-01"),
        ]
        for (id, start, days, expected) in cases {
            XCTAssertEqual(try date(start, id).adding(days: days).iso, expected, id)
        }
    }

    func testAddingMonthsClampsToMonthEnd() throws {
        let cases: [(String, String, Int, String)] = [
            ("add-m-01", "2026-01-31", 1, "2026-02-28"),
            ("add-m-02", "2024-01-31", 1, "2024-02-29"),
            ("add-m-03", "2026-01-31", 2, "2026-03-31"),
            ("add-m-04", "2026-01-31", 3, "2026-04-30"),
            ("add-m-05", "2026-03-31", 1, "2026-04-30"),
            ("add-m-06", "2026-03-31", -1, "2026-02-28"),
            ("add-m-07", "2024-03-31", -1, "2024-02-29"),
            ("add-m-08", "2026-08-31", 1, "2026-09-30"),
            ("add-m-09", "2026-08-31", 6, "2027-02-28"),
            ("add-m-10", "2026-08-31", 18, "2028-02-29"),
            ("add-m-11", "2026-01-31", -2, "2025-11-30"),
            ("add-m-12", "2026-03-31", -13, "2025-02-28"),
            ("add-m-13", "2026-12-15", 1, "2027-01-15"),
            ("add-m-14", "2026-01-15", -1, "2025-12-15"),
            ("add-m-15", "2026-08-31", -6, "2026-02-28"),
            ("add-m-16", "2026-06-15", 0, "2026-06-15"),
            ("add-m-17", "2026-03-31", -25, "2024-02-29"),
            ("add-m-18", "2026-08-31", 120, "2036-08-31"),
            ("add-m-19", "2026-01-31", 12, "2027-01-31"),
            ("add-m-20", "2026-01-31", -12, "2025-01-31"),
            ("add-m-21", "2026-01-31", 11, "2026-12-31"),
            ("add-m-22", "2026-12-31", -10, "2026-02-28"),
            ("add-m-23", "9999-12-01", 1, "9999-12-31"),
            ("add-m-24", "0001-01-15", -1, "0001-01-01"),
            ("add-m-25", "2026-06-15", Int.max, "9999-12-31"),
            ("add-m-26", "2026-06-15", Int.min, "0001-01-01"),
        ]
        for (id, start, months, expected) in cases {
            XCTAssertEqual(try date(start, id).adding(months: months).iso, expected, id)
        }
    }

    func testAddingYearsFromLeapDay() throws {
        let cases: [(String, String, Int, String)] = [
            ("add-y-01", "2024-02-29", 1, "2025-02-28"),
            ("add-y-02", "2024-02-29", 4, "2028-02-29"),
            ("add-y-03", "2024-02-29", -1, "2023-02-28"),
            ("add-y-04", "2024-02-29", 100, "2124-02-29"),
            ("add-y-05", "2000-02-29", 100, "2100-02-28"),
            ("add-y-06", "2026-06-15", -26, "2000-06-15"),
            ("add-y-07", "2026-06-15", Int.max, "9999-12-31"),
            ("add-y-08", "2026-06-15", Int.min, "0001-01-01"),
        ]
        for (id, start, years, expected) in cases {
            XCTAssertEqual(try date(start, id).adding(years: years).iso, expected, id)
        }
    }

    func testDaysUntil() throws {
        let cases: [(String, String, String, Int)] = [
            ("until-01", "2026-06-15", "2026-06-16", 1),
            ("until-02", "2026-06-16", "2026-06-15", -1),
            ("until-03", "2026-01-01", "2027-01-01", 365),
            ("until-04", "2024-01-01", "2025-01-01", 366),
            ("until-05", "1969-12-31", "1970-01-01", 1),
            ("until-06", "2026-06-15", "2026-06-15", 0),
        ]
        for (id, from, to, expected) in cases {
            XCTAssertEqual(try date(from, id).days(until: date(to, id)), expected, id)
        }
    }

    // MARK: - Day numbers and weekdays

    func testKnownDayNumbers() throws {
        let cases: [(String, String, Int)] = [
            ("dn-01", "1970-01-01", 0),
            ("dn-02", "1969-12-31", -1),
            ("dn-03", "2000-01-01", 10_957),
            ("dn-04", "2026-06-15", 20_619),
            ("dn-05", "1900-01-01", -25_567),
            ("dn-06", "0001-01-01", -719_162),
            ("dn-07", "9999-12-31", 2_932_896),
        ]
        for (id, text, number) in cases {
            let d = try date(text, id)
            XCTAssertEqual(d.dayNumber, number, id)
            XCTAssertEqual(CivilDate(dayNumber: number), d, id)
        }
    }

    func testDayNumbersOutsideTheYearsClamp() {
        XCTAssertEqual(CivilDate(dayNumber: -800_000).iso, "0001-01-01", "dn-clamp-01")
        XCTAssertEqual(CivilDate(dayNumber: 3_000_000).iso, "9999-12-31", "dn-clamp-02")
        XCTAssertEqual(CivilDate(dayNumber: Int.min).iso, "0001-01-01", "dn-clamp-03")
        XCTAssertEqual(CivilDate(dayNumber: Int.max).iso, "9999-12-31", "dn-clamp-04")
    }

    func testDayNumberRoundTripsEveryDay1900To2100() throws {
        // dn-rt-01: walk the calendar by hand, field by field, and compare with the day-number math.
        var year = 1900, month = 1, day = 1
        var number = try date("1900-01-01", "dn-rt-01").dayNumber
        var weekday = Weekday.monday
        while year <= 2100 {
            let fromFields = try XCTUnwrap(CivilDate(year: year, month: month, day: day), "dn-rt-01 \(year)-\(month)-\(day)")
            XCTAssertEqual(fromFields.dayNumber, number, "dn-rt-01 \(fromFields)")
            XCTAssertEqual(CivilDate(dayNumber: number), fromFields, "dn-rt-01 \(number)")
            XCTAssertEqual(fromFields.weekday, weekday, "dn-rt-01 weekday \(fromFields)")
            XCTAssertEqual(fromFields.adding(days: 1).dayNumber, number + 1, "dn-rt-01 next \(fromFields)")
            day += 1
            if day > CivilDate.daysInMonth(year: year, month: month) {
                day = 1
                month += 1
                if month > 12 { month = 1; year += 1 }
            }
            number += 1
            weekday = weekday.advanced(by: 1)
        }
    }

    func testDayNumberRoundTripsAcrossAllYears() {
        // dn-rt-02: every 37th day over 0001...9999, so every weekday and month is hit many times.
        var number = CivilDate.earliest.dayNumber
        while number <= CivilDate.latest.dayNumber {
            let d = CivilDate(dayNumber: number)
            XCTAssertEqual(d.dayNumber, number, "dn-rt-02 \(number)")
            XCTAssertEqual(CivilDate(iso: d.iso), d, "dn-rt-02 iso \(d)")
            number += 37
        }
    }

    func testWeekdaysOfKnownDates() throws {
        let cases: [(String, String, Weekday)] = [
            ("wd-01", "2026-06-15", .monday),
            ("wd-02", "2026-12-01", .tuesday),
            ("wd-03", "2000-01-01", .saturday),
            ("wd-04", "1970-01-01", .thursday),
            ("wd-05", "1969-12-31", .wednesday),
            ("wd-06", "2026-02-28", .saturday),
            ("wd-07", "1900-01-01", .monday),
            ("wd-08", "0001-01-01", .monday),
            ("wd-09", "9999-12-31", .friday),
            ("wd-10", "2026-06-21", .sunday),
        ]
        for (id, text, expected) in cases {
            XCTAssertEqual(try date(text, id).weekday, expected, id)
        }
    }

    func testWeekdayNamesAndSteps() {
        XCTAssertEqual(Weekday.allCases.map(\.shortName), ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"], "wd-name-01")
        XCTAssertEqual(Weekday.allCases.map(\.name),
                       ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"], "wd-name-02")
        XCTAssertTrue(Weekday.monday < Weekday.sunday, "wd-cmp-01")
        let steps: [(String, Weekday, Int, Weekday)] = [
            ("wd-step-01", .monday, 1, .tuesday), ("wd-step-02", .sunday, 1, .monday),
            ("wd-step-03", .monday, -1, .sunday), ("wd-step-04", .friday, 14, .friday),
            ("wd-step-05", .wednesday, -10, .sunday), ("wd-step-06", .monday, Int.min, .sunday), ("wd-step-07", .monday, Int.max, .monday),
        ]
        for (id, start, days, expected) in steps {
            XCTAssertEqual(start.advanced(by: days), expected, id)
        }
        let untils: [(String, Weekday, Weekday, Int)] = [
            ("wd-until-01", .monday, .friday, 4), ("wd-until-02", .friday, .monday, 3),
            ("wd-until-03", .sunday, .sunday, 0), ("wd-until-04", .sunday, .monday, 1),
        ]
        for (id, from, to, expected) in untils {
            XCTAssertEqual(from.days(until: to), expected, id)
        }
    }

    // MARK: - ISO text for dates

    func testDateISOParseAndPrint() {
        let good: [(String, String, Int, Int, Int)] = [
            ("diso-01", "2026-06-15", 2026, 6, 15),
            ("diso-02", "2024-02-29", 2024, 2, 29),
            ("diso-03", "0001-01-01", 1, 1, 1),
            ("diso-04", "9999-12-31", 9999, 12, 31),
            ("diso-05", "1969-07-20", 1969, 7, 20),
        ]
        for (id, text, year, month, day) in good {
            let parsed = CivilDate(iso: text)
            XCTAssertEqual(parsed, CivilDate(year: year, month: month, day: day), id)
            XCTAssertEqual(parsed?.iso, text, id)
            XCTAssertEqual(parsed?.description, text, id)
        }
    }

    func testDateISORejectsBadInput() {
        let bad: [(String, String)] = [
            ("diso-bad-01", "2026-13-01"), ("diso-bad-02", "2026-02-30"), ("diso-bad-03", "2026-6-1"),
            ("diso-bad-04", "abcd"), ("diso-bad-05", ""), ("diso-bad-06", "2026-06-15 "),
            ("diso-bad-07", " 2026-06-15"), ("diso-bad-08", "2026/06/15"), ("diso-bad-09", "20260615"),
            ("diso-bad-10", "2026-06-15T09:00"), ("diso-bad-11", "0000-01-01"), ("diso-bad-12", "+2026-06-15"),
            ("diso-bad-13", "2026-06-1x"), ("diso-bad-14", "２０２６-06-15"), ("diso-bad-15", "2026-00-10"),
            ("diso-bad-16", "2026-06-00"), ("diso-bad-17", "2026-02-29"), ("diso-bad-18", "12026-06-15"),
            ("diso-bad-19", "2026-06"), ("diso-bad-20", "2026--06-15"),
        ]
        for (id, text) in bad {
            XCTAssertNil(CivilDate(iso: text), id)
        }
    }

    func testDateISOParsesAnyByteCollection() {
        let bytes: [UInt8] = Array("2026-06-15".utf8)
        XCTAssertEqual(CivilDate.parseISO(bytes)?.iso, "2026-06-15", "diso-bytes-01")
        XCTAssertEqual(CivilDate.parseISO(bytes[...])?.iso, "2026-06-15", "diso-bytes-02")
        let line = "due 2026-06-15 soon"
        let word = line.split(separator: " ")[1]
        XCTAssertEqual(CivilDate.parseISO(word.utf8)?.iso, "2026-06-15", "diso-bytes-03")
        // A collection without contiguous storage takes the index-walking path.
        XCTAssertEqual(CivilDate.parseISO(bytes.lazy.map { $0 })?.iso, "2026-06-15", "diso-bytes-04")
        XCTAssertNil(CivilDate.parseISO(Array("2026-02-30".utf8).lazy.map { $0 }), "diso-bytes-05")
        XCTAssertEqual(WallTime.parseISO(Array("9:05".utf8).lazy.map { $0 })?.iso, "09:05", "diso-bytes-06")
        XCTAssertEqual(CivilDateTime.parseISO(Array("2026-06-15 09:05".utf8).lazy.map { $0 })?.iso,
                       "2026-06-15T09:05", "diso-bytes-07")
        XCTAssertEqual(TimeText.parseISOInstant(Array("1970-01-01T01:00:00+01:00".utf8).lazy.map { $0 }),
                       Instant.epoch, "diso-bytes-08")
    }

    func testDateOrderingAndHashing() throws {
        let a = try date("2026-06-15", "ord-01"), b = try date("2026-06-16", "ord-01")
        let c = try date("2026-07-01", "ord-01"), d = try date("2027-01-01", "ord-01")
        XCTAssertEqual([d, b, c, a].sorted(), [a, b, c, d], "ord-01")
        XCTAssertEqual(Set([a, a, b]).count, 2, "ord-02")
    }

    // MARK: - Wall times

    func testWallTimeParse() {
        let good: [(String, String, Int, String)] = [
            ("wt-01", "09:05", 545, "09:05"), ("wt-02", "9:05", 545, "09:05"),
            ("wt-03", "00:00", 0, "00:00"), ("wt-04", "23:59", 1439, "23:59"),
            ("wt-05", "12:00", 720, "12:00"), ("wt-06", "0:30", 30, "00:30"),
        ]
        for (id, text, minute, iso) in good {
            let t = WallTime(iso: text)
            XCTAssertEqual(t?.minuteOfDay, minute, id)
            XCTAssertEqual(t?.iso, iso, id)
        }
        let bad: [(String, String)] = [
            ("wt-bad-01", "24:00"), ("wt-bad-02", "9:5"), ("wt-bad-03", "09:60"), ("wt-bad-04", "009:00"),
            ("wt-bad-05", "09-00"), ("wt-bad-06", ""), ("wt-bad-07", ":00"), ("wt-bad-08", "9:055"),
            ("wt-bad-09", "09:05 "), ("wt-bad-10", "9am"), ("wt-bad-11", "-1:00"), ("wt-bad-12", "09:05:00"),
        ]
        for (id, text) in bad {
            XCTAssertNil(WallTime(iso: text), id)
        }
    }

    func testWallTimeFields() {
        XCTAssertEqual(WallTime.midnight.minuteOfDay, 0, "wt-f-01")
        XCTAssertEqual(WallTime.noon.iso, "12:00", "wt-f-02")
        XCTAssertEqual(WallTime(hour: 14, minute: 30)?.minuteOfDay, 870, "wt-f-03")
        XCTAssertEqual(WallTime(minuteOfDay: 870)?.hour, 14, "wt-f-04")
        XCTAssertEqual(WallTime(minuteOfDay: 870)?.minute, 30, "wt-f-05")
        XCTAssertNil(WallTime(hour: 24, minute: 0), "wt-f-06")
        XCTAssertNil(WallTime(hour: -1, minute: 0), "wt-f-07")
        XCTAssertNil(WallTime(hour: 0, minute: 60), "wt-f-08")
        XCTAssertNil(WallTime(minuteOfDay: 1440), "wt-f-09")
        XCTAssertNil(WallTime(minuteOfDay: -1), "wt-f-10")
        XCTAssertTrue(WallTime.midnight < WallTime.noon, "wt-f-11")
    }

    func testWallTimeAddingMinutes() throws {
        let cases: [(String, String, Int, String, Int)] = [
            ("wt-add-01", "09:00", 90, "10:30", 0),
            ("wt-add-02", "23:30", 45, "00:15", 1),
            ("wt-add-03", "00:15", -30, "23:45", -1),
            ("wt-add-04", "12:00", 1440 * 3, "12:00", 3),
            ("wt-add-05", "12:00", -1440 * 2 - 1, "11:59", -2),
            ("wt-add-06", "00:00", -1, "23:59", -1),
        ]
        for (id, start, minutes, expected, days) in cases {
            let t = try XCTUnwrap(WallTime(iso: start), id)
            let (result, offset) = t.adding(minutes: minutes)
            XCTAssertEqual(result.iso, expected, id)
            XCTAssertEqual(offset, days, id)
        }
        // wt-add-07: extreme inputs do not trap.
        _ = WallTime.noon.adding(minutes: Int.max)
        _ = WallTime.noon.adding(minutes: Int.min)
    }

    // MARK: - Date-times

    func testDateTimeISO() {
        let good: [(String, String, String)] = [
            ("dt-01", "2026-06-15T09:00", "2026-06-15T09:00"),
            ("dt-02", "2026-06-15 15:00", "2026-06-15T15:00"),
            ("dt-03", "2024-02-29T23:59", "2024-02-29T23:59"),
        ]
        for (id, text, iso) in good {
            XCTAssertEqual(CivilDateTime(iso: text)?.iso, iso, id)
        }
        let bad: [(String, String)] = [
            ("dt-bad-01", "2026-06-15"), ("dt-bad-02", "2026-06-15T24:00"), ("dt-bad-03", "2026-02-30T09:00"),
            ("dt-bad-04", "2026-06-15X09:00"), ("dt-bad-05", "2026-06-15T09:00Z"), ("dt-bad-06", "2026-06-15T9:00"),
            ("dt-bad-07", "2026-06-15T"), ("dt-bad-08", "09:00"),
        ]
        for (id, text) in bad {
            XCTAssertNil(CivilDateTime(iso: text), id)
        }
        XCTAssertEqual(CivilDateTime(year: 2026, month: 6, day: 15, hour: 9, minute: 0)?.description, "2026-06-15T09:00", "dt-04")
        XCTAssertNil(CivilDateTime(year: 2026, month: 6, day: 31, hour: 9, minute: 0), "dt-05")
    }

    func testDateTimeArithmeticIsOnFields() throws {
        let cases: [(String, String, Int, String)] = [
            ("dt-add-01", "2026-06-15T23:30", 45, "2026-06-16T00:15"),
            ("dt-add-02", "2026-12-31T23:59", 1, "2027-01-01T00:00"),
            ("dt-add-03", "2026-03-01T00:10", -20, "2026-02-28T23:50"),
            // On the DST day the wall clock still counts 60 minutes an hour: arithmetic is on fields.
            ("dt-add-04", "2026-03-29T01:30", 60, "2026-03-29T02:30"),
        ]
        for (id, start, minutes, expected) in cases {
            XCTAssertEqual(try dateTime(start, id).adding(minutes: minutes).iso, expected, id)
        }
        let a = try dateTime("2026-06-15T09:00", "dt-add-05")
        XCTAssertEqual(a.adding(days: 1).iso, "2026-06-16T09:00", "dt-add-05")
        XCTAssertEqual(try dateTime("2026-01-31T09:00", "dt-add-06").adding(months: 1).iso, "2026-02-28T09:00", "dt-add-06")
        XCTAssertEqual(a.minutes(until: try dateTime("2026-06-16T08:30", "dt-add-07")), 1410, "dt-add-07")
    }

    func testDateTimeOrdering() throws {
        let a = try dateTime("2026-06-15T09:00", "dt-ord-01")
        let b = try dateTime("2026-06-15T10:00", "dt-ord-01")
        let c = try dateTime("2026-06-16T00:00", "dt-ord-01")
        XCTAssertEqual([c, b, a].sorted(), [a, b, c], "dt-ord-01")
    }
}
