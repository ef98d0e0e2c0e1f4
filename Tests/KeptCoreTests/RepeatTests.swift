// Repeat rules (R-REP-1…10, R-DAY-3): next occurrences from fixed dates, canonical words and
// their round trip, RRULE out and in, and completion of repeating tasks through a Session.
//
// Every expected date below was worked out by hand from a printed calendar (weekdays of
// 2021, 2024, 2026–2032), never copied from the engine's output. Each case has a stable id
// that failure messages name. Calendar facts used:
//   2026: Jun 15 Mon, Jun 20 Sat, Jun 21 Sun, Dec 31 Thu; 2027-01-01 Fri.
//   Fridays 2026: Jan 2,9,16,23,30 · May 1,…,29 · Jun 5,…,26 · Jul 3,…,31 · Oct 2,…,30;
//   Feb, Mar, Apr, Jun, Aug, Sep, Nov 2026 have four Fridays; Jan 2027 has five (29th).
//   Tuesdays: Jun 2026 2,9,16,23,30 · Jul 7,14 · Aug 4,11 · Sep 1,8 · Dec 1,8 · Jan 2027 5,12.
//   2021-06-14 is a Monday, 1827 days (261 weeks) before Mon 2026-06-15.
//   Leap years: 2024, 2028, 2032 (Feb 29); 2025–2027, 2029–2031 are common.
// covers: R-REP-1, R-REP-2, R-REP-3, R-REP-4, R-REP-5, R-REP-6, R-REP-7, R-REP-8, R-REP-9,
//         R-REP-10, R-DAY-3, R-DAY-5

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RepeatTests: XCTestCase {

    // MARK: fixtures

    struct Next {
        let id: String
        let rule: String
        let anchor: String
        let after: String
        let want: String?
        let weekStart: Weekday
    }

    static func n(_ id: String, _ rule: String, anchor: String, after: String, want: String?,
                  weekStart: Weekday = .monday) -> Next {
        Next(id: id, rule: rule, anchor: anchor, after: after, want: want, weekStart: weekStart)
    }

    func date(_ s: String, _ id: String, file: StaticString = #filePath, line: UInt = #line) -> CivilDate? {
        let d = CivilDate(iso: s)
        if d == nil { XCTFail("\(id): bad fixture date \(s)", file: file, line: line) }
        return d
    }

    /// Parses a whole rule; a rule that leaves words over is a failure.
    func rule(_ text: String, _ id: String, file: StaticString = #filePath, line: UInt = #line) -> RepeatRule? {
        switch RepeatRule.parse(text) {
        case .success(let (r, used)):
            let count = text.split(separator: " ").count
            if used != count {
                XCTFail("\(id): '\(text)' parsed only \(used) of \(count) words", file: file, line: line)
                return nil
            }
            return r
        case .failure(let e):
            XCTFail("\(id): '\(text)' did not parse: \(e.message)", file: file, line: line)
            return nil
        }
    }

    // MARK: the table of next occurrences

    static let nextCases: [Next] = [
        // Every day, every N days (R-REP-1).
        n("rd-day-01", "every day", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rd-day-02", "every day", anchor: "2026-06-15", after: "2026-12-31", want: "2027-01-01"),
        n("rd-day-03", "every day", anchor: "2024-02-28", after: "2024-02-28", want: "2024-02-29"),
        n("rd-day-04", "every day", anchor: "2026-06-15", after: "2026-06-01", want: "2026-06-15"),
        n("rd-1d-01", "every 1 day", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rd-3d-01", "every 3 days", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-18"),
        n("rd-3d-02", "every 3 days", anchor: "2026-06-15", after: "2026-06-17", want: "2026-06-18"),
        n("rd-3d-03", "every 3 days", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-21"),
        n("rd-3d-04", "every 3 days", anchor: "2026-02-27", after: "2026-02-28", want: "2026-03-02"),
        // 1826 days from 2021-06-15 to 2026-06-15; 1827 is the next multiple of 3.
        n("rd-3d-05", "every 3 days", anchor: "2021-06-15", after: "2026-06-15", want: "2026-06-16"),
        // 1830 is the next multiple of 10 after 1826.
        n("rd-10d-01", "every 10 days", anchor: "2021-06-15", after: "2026-06-15", want: "2026-06-19"),
        n("rd-other-01", "every other day", anchor: "2026-06-15", after: "2026-06-16", want: "2026-06-17"),
        n("rd-2d-01", "every 2 days", anchor: "2026-12-31", after: "2026-12-31", want: "2027-01-02"),
        n("rd-2d-02", "every 2 days", anchor: "2024-02-27", after: "2024-02-28", want: "2024-02-29"),
        n("rd-7d-01", "every 7 days", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-22"),
        // 1827 days from 2021-06-14; the next multiple of 14 is 1834.
        n("rd-14d-01", "every 14 days", anchor: "2021-06-14", after: "2026-06-15", want: "2026-06-22"),

        // Every weekday, every weekend.
        n("rwd-01", "every weekday", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rwd-02", "every weekday", anchor: "2026-06-15", after: "2026-06-19", want: "2026-06-22"),
        n("rwd-03", "every weekday", anchor: "2026-06-15", after: "2026-06-20", want: "2026-06-22"),
        n("rwd-04", "every weekday", anchor: "2026-06-15", after: "2026-12-31", want: "2027-01-01"),
        n("rwd-05", "every weekday", anchor: "2026-06-15", after: "2027-01-01", want: "2027-01-04"),
        n("rwd-06", "every weekday", anchor: "2021-06-14", after: "2026-06-19", want: "2026-06-22"),
        n("rwd-07", "every weekdays", anchor: "2026-06-20", after: "2026-06-19", want: "2026-06-22"),
        n("rwe-01", "every weekend", anchor: "2026-06-13", after: "2026-06-13", want: "2026-06-14"),
        n("rwe-02", "every weekend", anchor: "2026-06-13", after: "2026-06-14", want: "2026-06-20"),
        n("rwe-03", "every weekend", anchor: "2026-06-13", after: "2026-06-17", want: "2026-06-20"),
        n("rwe-04", "every saturday and sunday", anchor: "2026-06-15", after: "2026-06-20", want: "2026-06-21"),

        // Weekly on one day; a weekly rule without days takes the anchor's weekday.
        n("rw-mon-01", "every monday", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-22"),
        n("rw-mon-02", "every monday", anchor: "2026-06-15", after: "2026-06-21", want: "2026-06-22"),
        n("rw-mon-03", "every mon", anchor: "2026-06-15", after: "2026-06-22", want: "2026-06-29"),
        n("rw-mon-04", "every mondays", anchor: "2021-06-14", after: "2026-06-15", want: "2026-06-22"),
        n("rw-week-01", "every week", anchor: "2026-06-18", after: "2026-06-18", want: "2026-06-25"),
        n("rw-week-02", "every week", anchor: "2026-06-18", after: "2026-06-20", want: "2026-06-25"),
        n("rw-1week-01", "every 1 week", anchor: "2026-06-18", after: "2026-06-25", want: "2026-07-02"),
        n("rw-fri-01", "every friday", anchor: "2026-06-15", after: "2026-06-14", want: "2026-06-19"),
        n("rw-sun-01", "every sunday", anchor: "2026-12-27", after: "2026-12-27", want: "2027-01-03"),
        n("rw-thu-01", "every thursday", anchor: "2026-12-31", after: "2026-12-31", want: "2027-01-07"),
        n("rw-thu-02", "every thu", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-25"),
        n("rw-wed-01", "every wednesday", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-17"),
        n("rw-tue-01", "every tuesday", anchor: "2026-06-16", after: "2026-06-16", want: "2026-06-23"),
        n("rw-sat-01", "every saturday", anchor: "2026-06-15", after: "2026-06-19", want: "2026-06-20"),

        // Weekly on a list of days.
        n("rwl-mwf-01", "every mon, wed and fri", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-17"),
        n("rwl-mwf-02", "every mon, wed and fri", anchor: "2026-06-15", after: "2026-06-17", want: "2026-06-19"),
        n("rwl-mwf-03", "every mon, wed and fri", anchor: "2026-06-15", after: "2026-06-19", want: "2026-06-22"),
        n("rwl-tt-01", "every tue and thu", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rwl-tt-02", "every tue and thu", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-23"),
        n("rwl-tt-03", "every tuesday, thursday", anchor: "2026-06-15", after: "2026-06-16", want: "2026-06-18"),
        n("rwl-twt-01", "every tue, wed, thu", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-23"),
        n("rwl-fs-01", "every friday and sunday", anchor: "2026-12-30", after: "2026-12-31", want: "2027-01-01"),
        n("rwl-fs-02", "every friday and sunday", anchor: "2026-12-30", after: "2027-01-01", want: "2027-01-03"),

        // Every N weeks: weeks count from the anchor's week (week start Monday unless given).
        n("rnw-2w-01", "every 2 weeks", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-29"),
        n("rnw-2w-02", "every 2 weeks", anchor: "2026-06-15", after: "2026-06-28", want: "2026-06-29"),
        n("rnw-2w-03", "every 2 weeks", anchor: "2026-06-15", after: "2026-06-29", want: "2026-07-13"),
        // 2026-06-15 is 261 weeks after 2021-06-14: an odd week, so not in the series.
        n("rnw-2w-04", "every 2 weeks", anchor: "2021-06-14", after: "2026-06-15", want: "2026-06-22"),
        n("rnw-2w-05", "every 2 weeks", anchor: "2021-06-14", after: "2026-06-07", want: "2026-06-08"),
        n("rnw-2w-06", "every 2 weeks", anchor: "2026-12-24", after: "2026-12-24", want: "2027-01-07"),
        n("rnw-other-01", "every other week", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-29"),
        n("rnw-3w-01", "every 3 weeks", anchor: "2026-06-18", after: "2026-06-18", want: "2026-07-09"),
        n("rnw-52w-01", "every 52 weeks", anchor: "2026-06-15", after: "2026-06-15", want: "2027-06-14"),
        n("rnw-tt-01", "every 2 weeks on tue and thu", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rnw-tt-02", "every 2 weeks on tue and thu", anchor: "2026-06-15", after: "2026-06-16", want: "2026-06-18"),
        n("rnw-tt-03", "every 2 weeks on tue and thu", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-30"),
        n("rnw-tt-04", "every 2 weeks on tue and thu", anchor: "2026-06-15", after: "2026-07-01", want: "2026-07-02"),
        n("rnw-tt-05", "every 2 weeks on tue, thu", anchor: "2021-06-14", after: "2026-06-15", want: "2026-06-23"),
        // The anchor's week is the first week of the series even when its Monday is already past.
        n("rnw-mon-01", "every 2 weeks on monday", anchor: "2026-06-17", after: "2026-06-17", want: "2026-06-29"),
        n("rnw-4w-fri-01", "every 4 weeks on fri", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-19"),
        n("rnw-4w-fri-02", "every 4 weeks on fri", anchor: "2026-06-15", after: "2026-06-19", want: "2026-07-17"),
        // Week start Monday: series weeks Jun 15–21, Jun 29–Jul 5 → Jun 15, 21, 29, Jul 5.
        // Week start Sunday: series weeks Jun 14–20, Jun 28–Jul 4 → Jun 15, 28, 29, Jul 12, 13.
        n("rnw-sm-01", "every 2 weeks on sun and mon", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-21"),
        n("rnw-sm-02", "every 2 weeks on sun and mon", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-28", weekStart: .sunday),
        n("rnw-sm-03", "every 2 weeks on sun and mon", anchor: "2026-06-15", after: "2026-06-21", want: "2026-06-29"),
        n("rnw-sm-04", "every 2 weeks on sun and mon", anchor: "2026-06-15", after: "2026-06-29", want: "2026-07-12", weekStart: .sunday),
        n("rnw-sm-05", "every 2 weeks on sun and mon", anchor: "2026-06-15", after: "2026-06-29", want: "2026-07-05", weekStart: .monday),
        // Anchor Sunday Jun 21: Monday weeks → Jun 21, 29; Sunday weeks (Jun 21–27) → Jun 21, 22.
        n("rnw-sm-06", "every 2 weeks on mon and sun", anchor: "2026-06-21", after: "2026-06-21", want: "2026-06-29"),
        n("rnw-sm-07", "every 2 weeks on mon and sun", anchor: "2026-06-21", after: "2026-06-21", want: "2026-06-22", weekStart: .sunday),
        n("rnw-ss-01", "every 2 weeks on sat, sun", anchor: "2026-06-20", after: "2026-06-20", want: "2026-06-21"),
        n("rnw-ss-02", "every 2 weeks on sat, sun", anchor: "2026-06-20", after: "2026-06-20", want: "2026-06-28", weekStart: .sunday),
        n("rnw-sun-01", "every 2 weeks on sunday", anchor: "2026-06-20", after: "2026-06-20", want: "2026-06-21"),
        n("rnw-sun-02", "every 2 weeks on sunday", anchor: "2026-06-20", after: "2026-06-20", want: "2026-06-28", weekStart: .sunday),
        // Anchor Fri Jun 19. Monday weeks Jun 15–21, Jul 6–12 → 19, 21, Jul 10, 12.
        // Sunday weeks Jun 14–20, Jul 5–11 → 19, Jul 5, Jul 10.
        n("rnw-fs-01", "every 3 weeks on fri and sun", anchor: "2026-06-19", after: "2026-06-19", want: "2026-06-21"),
        n("rnw-fs-02", "every 3 weeks on fri and sun", anchor: "2026-06-19", after: "2026-06-19", want: "2026-07-05", weekStart: .sunday),
        n("rnw-fs-03", "every 3 weeks on fri and sun", anchor: "2026-06-19", after: "2026-06-21", want: "2026-07-10"),
        n("rnw-fs-04", "every 3 weeks on fri and sun", anchor: "2026-06-19", after: "2026-07-05", want: "2026-07-10", weekStart: .sunday),
        // One day a week: the week start changes nothing.
        n("rnw-2w-ws-01", "every 2 weeks", anchor: "2026-06-21", after: "2026-06-21", want: "2026-07-05", weekStart: .sunday),
        n("rnw-2w-ws-02", "every 2 weeks", anchor: "2026-06-21", after: "2026-06-21", want: "2026-07-05", weekStart: .monday),

        // Monthly, the anchor's day (clamped, R-REP-4).
        n("rm-mon-01", "every month", anchor: "2026-01-15", after: "2026-01-15", want: "2026-02-15"),
        n("rm-mon-02", "every month", anchor: "2026-01-31", after: "2026-01-31", want: "2026-02-28"),
        n("rm-mon-03", "every month", anchor: "2026-01-31", after: "2026-02-28", want: "2026-03-31"),
        n("rm-mon-04", "every month", anchor: "2026-01-31", after: "2026-03-31", want: "2026-04-30"),
        n("rm-mon-05", "every month", anchor: "2026-01-31", after: "2026-04-30", want: "2026-05-31"),
        n("rm-mon-06", "every month", anchor: "2026-02-28", after: "2026-02-28", want: "2026-03-28"),
        n("rm-mon-07", "every month", anchor: "2021-01-31", after: "2026-06-15", want: "2026-06-30"),
        n("rm-mon-08", "every month", anchor: "2023-12-31", after: "2024-01-31", want: "2024-02-29"),
        n("rm-other-01", "every other month", anchor: "2026-01-15", after: "2026-01-15", want: "2026-03-15"),
        n("rm2-01", "every 2 months", anchor: "2025-12-31", after: "2025-12-31", want: "2026-02-28"),
        n("rm2-02", "every 2 months", anchor: "2025-12-31", after: "2026-02-28", want: "2026-04-30"),
        n("rm4-01", "every 4 months", anchor: "2026-10-31", after: "2026-10-31", want: "2027-02-28"),
        n("rm12-01", "every 12 months", anchor: "2024-02-29", after: "2024-02-29", want: "2025-02-28"),
        n("rm12-02", "every 12 months", anchor: "2024-02-29", after: "2027-02-28", want: "2028-02-29"),
        // Monthly on a day.
        n("rm-mon31-01", "every month on the 31st", anchor: "2026-01-31", after: "2026-02-27", want: "2026-02-28"),
        n("rm-mon31-02", "every month on the 31st", anchor: "2026-01-31", after: "2026-02-28", want: "2026-03-31"),
        n("rm-mon31-03", "every month on the 31st", anchor: "2026-01-31", after: "2026-06-01", want: "2026-06-30"),
        n("rm-mon31-04", "every month on the 31st", anchor: "2026-01-31", after: "2026-06-30", want: "2026-07-31"),
        n("rm-mon31-05", "every month on the 31st", anchor: "2024-01-31", after: "2024-01-31", want: "2024-02-29"),
        n("rm-mon31-06", "every month on the 31st", anchor: "2026-01-31", after: "2026-09-30", want: "2026-10-31"),
        n("rm-mon31-07", "every month on the 31st", anchor: "2026-01-15", after: "2026-01-15", want: "2026-01-31"),
        n("rm-mon31-08", "every month on the 31st", anchor: "2021-01-31", after: "2026-02-01", want: "2026-02-28"),
        n("rm-mon30-01", "every month on the 30th", anchor: "2026-01-30", after: "2026-01-30", want: "2026-02-28"),
        n("rm-mon30-02", "every month on the 30th", anchor: "2026-01-30", after: "2026-02-28", want: "2026-03-30"),
        n("rm-mon30-03", "every month on the 30th", anchor: "2028-01-30", after: "2028-01-30", want: "2028-02-29"),
        n("rm-mon29-01", "every month on the 29th", anchor: "2026-01-29", after: "2026-01-29", want: "2026-02-28"),
        n("rm-mon29-02", "every month on the 29th", anchor: "2026-01-29", after: "2026-02-28", want: "2026-03-29"),
        n("rm-mon29-03", "every month on the 29th", anchor: "2024-01-29", after: "2024-01-29", want: "2024-02-29"),
        n("rm-mon28-01", "every month on the 28th", anchor: "2026-01-28", after: "2026-01-28", want: "2026-02-28"),
        n("rm-mon28-02", "every month on the 28th", anchor: "2026-01-28", after: "2026-02-28", want: "2026-03-28"),
        n("rm-mon15-01", "every month on the 15th", anchor: "2026-06-20", after: "2026-06-20", want: "2026-07-15"),
        n("rm-mon1-01", "every month on the 1st", anchor: "2026-06-15", after: "2026-06-15", want: "2026-07-01"),
        n("rm-mon1-02", "every month on the 1st", anchor: "2026-06-15", after: "2026-12-01", want: "2027-01-01"),
        n("rm-mon2-01", "every month on the 2nd", anchor: "2026-06-15", after: "2026-06-15", want: "2026-07-02"),
        n("rm-mon3-01", "every month on the 3rd", anchor: "2026-06-15", after: "2026-06-15", want: "2026-07-03"),
        n("rm-mon11-01", "every month on the 11th", anchor: "2026-06-11", after: "2026-06-11", want: "2026-07-11"),
        n("rm-mon22-01", "every month on the 22nd", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-22"),
        // The last day of the month.
        n("rm-last-01", "every month on the last day", anchor: "2026-01-31", after: "2026-01-31", want: "2026-02-28"),
        n("rm-last-02", "every month on the last day", anchor: "2026-01-31", after: "2026-02-28", want: "2026-03-31"),
        n("rm-last-03", "every month on the last day", anchor: "2024-01-31", after: "2024-01-31", want: "2024-02-29"),
        n("rm-last-04", "every month on the last day", anchor: "2026-04-15", after: "2026-04-15", want: "2026-04-30"),
        n("rm-last-05", "every month on the last day", anchor: "2026-02-28", after: "2026-02-28", want: "2026-03-31"),
        // The nth weekday; a month without a 5th is skipped.
        n("rm-2tue-01", "every month on the 2nd tuesday", anchor: "2026-06-01", after: "2026-06-01", want: "2026-06-09"),
        n("rm-2tue-02", "every month on the 2nd tuesday", anchor: "2026-06-01", after: "2026-06-09", want: "2026-07-14"),
        n("rm-2tue-03", "every month on the 2nd tuesday", anchor: "2026-06-01", after: "2026-07-14", want: "2026-08-11"),
        n("rm-2tue-04", "every month on the 2nd tuesday", anchor: "2021-01-01", after: "2026-06-15", want: "2026-07-14"),
        n("rm-2tue-05", "every month on the second tuesday", anchor: "2026-12-15", after: "2026-12-15", want: "2027-01-12"),
        n("rm-1mon-01", "every month on the first monday", anchor: "2026-06-15", after: "2026-06-15", want: "2026-07-06"),
        n("rm-1mon-02", "every month on the first monday", anchor: "2026-06-15", after: "2026-07-06", want: "2026-08-03"),
        n("rm-3wed-01", "every month on the third wednesday", anchor: "2026-06-01", after: "2026-06-01", want: "2026-06-17"),
        n("rm-3wed-02", "every month on the third wednesday", anchor: "2026-06-01", after: "2026-06-17", want: "2026-07-15"),
        n("rm-4thu-01", "every month on the 4th thursday", anchor: "2026-11-01", after: "2026-11-01", want: "2026-11-26"),
        n("rm-4thu-02", "every month on the 4th thursday", anchor: "2026-11-01", after: "2026-11-26", want: "2026-12-24"),
        n("rm-5fri-01", "every month on the 5th friday", anchor: "2026-01-01", after: "2026-01-01", want: "2026-01-30"),
        n("rm-5fri-02", "every month on the 5th friday", anchor: "2026-01-01", after: "2026-01-30", want: "2026-05-29"),
        n("rm-5fri-03", "every month on the 5th friday", anchor: "2026-01-01", after: "2026-05-29", want: "2026-07-31"),
        n("rm-5fri-04", "every month on the 5th friday", anchor: "2026-01-01", after: "2026-07-31", want: "2026-10-30"),
        n("rm2-5fri-01", "every 2 months on the 5th friday", anchor: "2026-01-01", after: "2026-07-31", want: "2027-01-29"),
        // The last weekday.
        n("rm-lfri-01", "every month on the last friday", anchor: "2026-06-01", after: "2026-06-01", want: "2026-06-26"),
        n("rm-lfri-02", "every month on the last friday", anchor: "2026-06-01", after: "2026-06-26", want: "2026-07-31"),
        n("rm-lfri-03", "every month on the last friday", anchor: "2026-06-01", after: "2026-07-31", want: "2026-08-28"),
        n("rm-lfri-04", "every month on the last friday", anchor: "2021-06-01", after: "2026-06-15", want: "2026-06-26"),
        n("rm-lsun-01", "every month on the last sunday", anchor: "2026-02-01", after: "2026-02-01", want: "2026-02-22"),
        n("rm-lsun-02", "every month on the last sunday", anchor: "2026-02-01", after: "2026-02-22", want: "2026-03-29"),
        n("rm-lmon-01", "every month on the last monday", anchor: "2026-05-01", after: "2026-05-25", want: "2026-06-29"),
        // Every N months.
        n("rm3-01", "every 3 months", anchor: "2026-01-31", after: "2026-01-31", want: "2026-04-30"),
        n("rm3-02", "every 3 months", anchor: "2026-01-31", after: "2026-04-30", want: "2026-07-31"),
        n("rm3-03", "every 3 months", anchor: "2026-01-31", after: "2026-10-31", want: "2027-01-31"),
        n("rm3-2tue-01", "every 3 months on the 2nd tuesday", anchor: "2026-06-01", after: "2026-06-09", want: "2026-09-08"),
        n("rm3-2tue-02", "every 3 months on the 2nd tuesday", anchor: "2026-06-01", after: "2026-09-08", want: "2026-12-08"),
        n("rm2-31-01", "every 2 months on the 31st", anchor: "2026-08-31", after: "2026-12-31", want: "2027-02-28"),
        n("rm2-31-02", "every 2 months on the 31st", anchor: "2026-08-31", after: "2027-02-28", want: "2027-04-30"),
        n("rm6-01", "every 6 months", anchor: "2025-08-31", after: "2025-08-31", want: "2026-02-28"),
        n("rm6-02", "every 6 months", anchor: "2025-08-31", after: "2027-08-31", want: "2028-02-29"),
        // Series months from 2021-03: …, 2024-02, …, 2026-03, 2026-08.
        n("rm5-31-01", "every 5 months on the 31st", anchor: "2021-03-31", after: "2026-06-15", want: "2026-08-31"),
        n("rm5-31-02", "every 5 months on the 31st", anchor: "2021-03-31", after: "2024-01-15", want: "2024-02-29"),

        // Yearly, with and without month and day; Feb 29 over 2024–2032.
        n("ry-01", "every year", anchor: "2026-05-17", after: "2026-05-17", want: "2027-05-17"),
        n("ry-old-01", "every year", anchor: "2021-06-20", after: "2026-06-15", want: "2026-06-20"),
        n("ry-other-01", "every other year", anchor: "2026-03-01", after: "2026-03-01", want: "2028-03-01"),
        n("ry-may17-01", "every year on may 17", anchor: "2026-06-15", after: "2026-06-15", want: "2027-05-17"),
        n("ry-may17-02", "every year on may 17", anchor: "2026-01-01", after: "2026-01-01", want: "2026-05-17"),
        n("ry-may17-03", "every year on may 17th", anchor: "2026-01-01", after: "2026-05-16", want: "2026-05-17"),
        n("ry-feb29-01", "every year", anchor: "2024-02-29", after: "2024-02-29", want: "2025-02-28"),
        n("ry-feb29-02", "every year", anchor: "2024-02-29", after: "2025-02-28", want: "2026-02-28"),
        n("ry-feb29-03", "every year", anchor: "2024-02-29", after: "2027-02-28", want: "2028-02-29"),
        n("ry-feb29-04", "every year", anchor: "2024-02-29", after: "2028-02-29", want: "2029-02-28"),
        n("ry-feb29-05", "every year", anchor: "2024-02-29", after: "2031-02-28", want: "2032-02-29"),
        n("ry-feb29-06", "every year on feb 29", anchor: "2024-02-29", after: "2029-06-01", want: "2030-02-28"),
        n("ry-feb29-07", "every year on feb 29", anchor: "2026-01-01", after: "2026-01-01", want: "2026-02-28"),
        n("ry-feb29-08", "every year on february 29", anchor: "2020-02-29", after: "2026-06-15", want: "2027-02-28"),
        n("ry-feb29-09", "every year on feb 29", anchor: "2026-01-01", after: "2027-06-01", want: "2028-02-29"),
        n("ry4-feb29-01", "every 4 years", anchor: "2024-02-29", after: "2024-02-29", want: "2028-02-29"),
        n("ry4-feb29-02", "every 4 years", anchor: "2024-02-29", after: "2028-02-29", want: "2032-02-29"),
        n("ry2-feb29-01", "every 2 years", anchor: "2024-02-29", after: "2024-02-29", want: "2026-02-28"),
        n("ry2-feb29-02", "every 2 years", anchor: "2024-02-29", after: "2026-02-28", want: "2028-02-29"),
        n("ry2-feb29-03", "every 2 years", anchor: "2024-02-29", after: "2030-02-28", want: "2032-02-29"),
        n("ry2-feb29-04", "every 2 years on feb 29", anchor: "2024-02-29", after: "2024-02-29", want: "2026-02-28"),
        n("ry3-feb29-01", "every 3 years", anchor: "2020-02-29", after: "2026-06-15", want: "2029-02-28"),
        n("ry3-feb29-02", "every 3 years", anchor: "2020-02-29", after: "2029-02-28", want: "2032-02-29"),
        n("ry10-01", "every 10 years", anchor: "2020-02-29", after: "2026-06-15", want: "2030-02-28"),
        n("ry-feb28-01", "every year on february 28", anchor: "2024-02-28", after: "2024-02-28", want: "2025-02-28"),
        n("ry-feb28-02", "every year on february 28", anchor: "2024-02-28", after: "2027-02-28", want: "2028-02-28"),
        n("ry-dec31-01", "every year on december 31", anchor: "2026-06-15", after: "2026-12-30", want: "2026-12-31"),
        n("ry-dec31-02", "every year on december 31", anchor: "2026-06-15", after: "2026-12-31", want: "2027-12-31"),
        n("ry-jan1-01", "every year on jan 1", anchor: "2026-06-15", after: "2026-06-15", want: "2027-01-01"),
        n("ry-jul4-01", "every year on jul 4", anchor: "2026-06-15", after: "2026-06-15", want: "2026-07-04"),
        n("ry-apr30-01", "every year on april 30", anchor: "2026-05-01", after: "2026-05-01", want: "2027-04-30"),
        n("ry-mar31-01", "every year on march 31", anchor: "2026-03-31", after: "2026-03-31", want: "2027-03-31"),
        n("ry2-01", "every 2 years", anchor: "2026-06-15", after: "2026-06-15", want: "2028-06-15"),
        // Series years 2026, 2028, …; May 17, 2026 is before the anchor.
        n("ry2-may17-01", "every 2 years on may 17", anchor: "2026-06-15", after: "2026-06-15", want: "2028-05-17"),

        // at TIME (the date part; the time itself is tested through a Session below).
        n("rt-at-01", "every day at 9am", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rt-at-02", "every monday at 9:30am", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-22"),
        n("rt-at-03", "every month on the 31st at 6pm", anchor: "2026-01-31", after: "2026-01-31", want: "2026-02-28"),
        n("rt-at-04", "every 2 weeks on tue and thu at 17:00", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-30"),
        n("rt-2d-8am-01", "every 2 days at 8am", anchor: "2026-06-15", after: "2026-06-16", want: "2026-06-17"),
        n("rt-wd-7am-01", "every weekday at 7am", anchor: "2026-06-15", after: "2026-06-19", want: "2026-06-22"),
        n("rt-we-10am-01", "every weekend at 10am", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-20"),
        n("rt-last-6pm-01", "every month on the last day at 6pm", anchor: "2026-02-01", after: "2026-02-01", want: "2026-02-28"),
        // from DATE (the anchor).
        n("rf-from-01", "every day from 2026-06-15", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-16"),
        n("rf-from-02", "every 2 weeks from 2026-06-15", anchor: "2026-06-15", after: "2026-06-20", want: "2026-06-29"),
        n("rf-from-03", "every month on the 31st from 2026-01-31", anchor: "2026-01-31", after: "2026-02-01", want: "2026-02-28"),
        // until DATE is inclusive.
        n("ru-until-01", "every day until 2026-06-20", anchor: "2026-06-15", after: "2026-06-19", want: "2026-06-20"),
        n("ru-until-02", "every day until 2026-06-20", anchor: "2026-06-15", after: "2026-06-20", want: nil),
        n("ru-until-03", "every monday until 2026-06-29", anchor: "2026-06-15", after: "2026-06-22", want: "2026-06-29"),
        n("ru-until-04", "every monday until 2026-06-29", anchor: "2026-06-15", after: "2026-06-29", want: nil),
        n("ru-until-05", "every week until 2026-06-28", anchor: "2026-06-15", after: "2026-06-22", want: nil),
        n("ru-until-06", "every month on the 31st until 2026-04-30", anchor: "2026-01-31", after: "2026-03-31", want: "2026-04-30"),
        n("ru-until-07", "every month on the 31st until 2026-04-30", anchor: "2026-01-31", after: "2026-04-30", want: nil),
        n("ru-until-08", "every year on feb 29 until 2027-02-28", anchor: "2024-02-29", after: "2026-02-28", want: "2027-02-28"),
        n("ru-until-09", "every year on feb 29 until 2027-02-28", anchor: "2024-02-29", after: "2027-02-28", want: nil),
        n("ru-wd-01", "every weekday until 2026-06-19", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-19"),
        n("ru-wd-02", "every weekday until 2026-06-19", anchor: "2026-06-15", after: "2026-06-19", want: nil),
        n("ru-lfri-01", "every month on the last friday until 2026-12-31", anchor: "2026-06-01", after: "2026-11-27", want: "2026-12-25"),
        n("ru-lfri-02", "every month on the last friday until 2026-12-31", anchor: "2026-06-01", after: "2026-12-25", want: nil),
        // for N times counts occurrences from the anchor.
        n("rc-for-01", "every day for 3 times", anchor: "2026-06-15", after: "2026-06-16", want: "2026-06-17"),
        n("rc-for-02", "every day for 3 times", anchor: "2026-06-15", after: "2026-06-17", want: nil),
        n("rc-for-03", "every monday for 2 times", anchor: "2026-06-15", after: "2026-06-15", want: "2026-06-22"),
        n("rc-for-04", "every monday for 2 times", anchor: "2026-06-15", after: "2026-06-22", want: nil),
        n("rc-for-05", "every month on the 31st for 3 times", anchor: "2026-01-31", after: "2026-02-28", want: "2026-03-31"),
        n("rc-for-06", "every month on the 31st for 3 times", anchor: "2026-01-31", after: "2026-03-31", want: nil),
        n("rc-for-07", "every 2 weeks on tue and thu for 3 times", anchor: "2026-06-15", after: "2026-06-18", want: "2026-06-30"),
        n("rc-for-08", "every 2 weeks on tue and thu for 3 times", anchor: "2026-06-15", after: "2026-06-30", want: nil),
        // Anchor Wed Jun 17: 17, 18, 19, 22, 23.
        n("rc-for-09", "every weekday for 5 times", anchor: "2026-06-17", after: "2026-06-22", want: "2026-06-23"),
        n("rc-for-10", "every weekday for 5 times", anchor: "2026-06-17", after: "2026-06-23", want: nil),
        n("rc-for-11", "every year for 2 times", anchor: "2024-02-29", after: "2024-02-29", want: "2025-02-28"),
        n("rc-for-12", "every year for 2 times", anchor: "2024-02-29", after: "2025-02-28", want: nil),
        n("rc-for-13", "every 3 days for 1 time", anchor: "2026-06-15", after: "2026-06-14", want: "2026-06-15"),
        n("rc-for-14", "every 3 days for 1 time", anchor: "2026-06-15", after: "2026-06-15", want: nil),
        // 15, 18, 21, 24, 27, 30, Jul 3, 6, 9, 12.
        n("rc-for-15", "every 3 days for 10 times", anchor: "2026-06-15", after: "2026-07-09", want: "2026-07-12"),
        n("rc-for-16", "every 3 days for 10 times", anchor: "2026-06-15", after: "2026-07-12", want: nil),
        n("rc-for-17", "every month on the 5th friday for 3 times", anchor: "2026-01-01", after: "2026-05-29", want: "2026-07-31"),
        n("rc-for-18", "every month on the 5th friday for 3 times", anchor: "2026-01-01", after: "2026-07-31", want: nil),
        n("rc-may17-01", "every year on may 17 for 3 times", anchor: "2026-01-01", after: "2027-05-17", want: "2028-05-17"),
        n("rc-may17-02", "every year on may 17 for 3 times", anchor: "2026-01-01", after: "2028-05-17", want: nil),
        n("rc-we-01", "every weekend for 4 times", anchor: "2026-06-13", after: "2026-06-20", want: "2026-06-21"),
        n("rc-we-02", "every weekend for 4 times", anchor: "2026-06-13", after: "2026-06-21", want: nil),
        // skipping missing days (Grammar/kept.ebnf, docs/REPEATS.md): short months have none.
        n("rsk-01", "every month on the 31st skipping missing days", anchor: "2026-01-31", after: "2026-01-31", want: "2026-03-31"),
        n("rsk-02", "every month on the 31st skipping missing days", anchor: "2026-01-31", after: "2026-03-31", want: "2026-05-31"),
        n("rsk-03", "every month on the 30th skipping missing days", anchor: "2026-01-30", after: "2026-01-30", want: "2026-03-30"),
        n("rsk-04", "every year on feb 29 skipping missing days", anchor: "2024-02-29", after: "2024-02-29", want: "2028-02-29"),
        n("rsk-05", "every month on the 31st skipping missing days", anchor: "2026-07-31", after: "2026-07-31", want: "2026-08-31"),
        // after completion: the anchor is the completion day.
        n("rac-01", "every 3 days after completion", anchor: "2026-06-20", after: "2026-06-20", want: "2026-06-23"),
        n("rac-02", "every month after completion", anchor: "2026-01-31", after: "2026-01-31", want: "2026-02-28"),
        n("rac-03", "every week after completion", anchor: "2026-06-17", after: "2026-06-17", want: "2026-06-24"),
        // Modifiers together, in any order.
        n("rx-01", "every monday at 9am from 2026-06-15 until 2026-12-31", anchor: "2026-06-15", after: "2026-12-21", want: "2026-12-28"),
        n("rx-02", "every monday at 9am from 2026-06-15 until 2026-12-31", anchor: "2026-06-15", after: "2026-12-28", want: nil),
        n("rx-03", "every day until 2026-12-31 at 9am", anchor: "2026-06-15", after: "2026-12-30", want: "2026-12-31"),
        // Jun 16, 18, 30, Jul 2, 14, 16, 28, 30, Aug 11, 13.
        n("rx-04", "every 2 weeks on tuesday and thursday at 5:30pm for 10 times", anchor: "2026-06-15", after: "2026-08-11", want: "2026-08-13"),
        n("rx-05", "every 2 weeks on tuesday and thursday at 5:30pm for 10 times", anchor: "2026-06-15", after: "2026-08-13", want: nil),
    ]

    func testNextOccurrences() {
        var ids = Set<String>()
        for c in Self.nextCases {
            XCTAssertTrue(ids.insert(c.id).inserted, "\(c.id): duplicate case id")
            guard let r = rule(c.rule, c.id), let anchor = date(c.anchor, c.id), let after = date(c.after, c.id) else { continue }
            let got = r.nextOccurrence(after: after, anchor: anchor, weekStart: c.weekStart)
            XCTAssertEqual(got?.iso, c.want,
                           "\(c.id): '\(c.rule)' anchor \(c.anchor) after \(c.after) (week start \(c.weekStart.name))")
        }
        // The table is meant to hold at least 100 distinct rules.
        let rules = Set(Self.nextCases.map { "\($0.rule)|\($0.anchor)|\($0.weekStart.rawValue)" })
        XCTAssertGreaterThanOrEqual(rules.count, 100, "table size")
    }

    /// R-REP-10: the next date is the same however the series is walked: the first of
    /// `occurrences` after the day agrees with `nextOccurrence`, for every case in the table.
    func testOccurrencesAgreeWithTable() {
        for c in Self.nextCases {
            guard let r = rule(c.rule, c.id), let anchor = date(c.anchor, c.id), let after = date(c.after, c.id) else { continue }
            let all = r.occurrences(anchor: anchor, limit: 2_500, weekStart: c.weekStart)
            XCTAssertEqual(all.first { $0 > after }?.iso, c.want, "\(c.id): occurrences walk of '\(c.rule)'")
        }
    }

    func testNextDefaultsToMondayWeekStart() {
        // rnw-sm-01 without the weekStart argument.
        guard let r = rule("every 2 weeks on sun and mon", "ws-default-01"),
              let a = date("2026-06-15", "ws-default-01") else { return }
        XCTAssertEqual(r.nextOccurrence(after: a, anchor: a)?.iso, "2026-06-21", "ws-default-01")
        XCTAssertEqual(r.occurrences(anchor: a, limit: 4).map(\.iso), ["2026-06-15", "2026-06-21", "2026-06-29", "2026-07-05"], "ws-default-02")
        XCTAssertEqual(r.occurrences(anchor: a, limit: 5, weekStart: .sunday).map(\.iso),
                       ["2026-06-15", "2026-06-28", "2026-06-29", "2026-07-12", "2026-07-13"], "ws-default-03")
    }

    // MARK: series lists

    func testOccurrenceLists() {
        let cases: [(id: String, rule: String, anchor: String, limit: Int, want: [String])] = [
            ("occ-01", "every month on the 31st", "2026-01-31", 8,
             ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31", "2026-08-31"]),
            ("occ-02", "every year", "2024-02-29", 9,
             ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28", "2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28", "2032-02-29"]),
            ("occ-03", "every month on the 5th friday", "2026-01-01", 4, ["2026-01-30", "2026-05-29", "2026-07-31", "2026-10-30"]),
            ("occ-04", "every day for 3 times", "2026-06-15", 10, ["2026-06-15", "2026-06-16", "2026-06-17"]),
            ("occ-05", "every monday until 2026-07-06", "2026-06-15", 10, ["2026-06-15", "2026-06-22", "2026-06-29", "2026-07-06"]),
            ("occ-06", "every weekday", "2026-06-19", 4, ["2026-06-19", "2026-06-22", "2026-06-23", "2026-06-24"]),
            ("occ-07", "every month on the last day", "2028-01-31", 3, ["2028-01-31", "2028-02-29", "2028-03-31"]),
            ("occ-08", "every 2 weeks on tue and thu", "2026-06-15", 6,
             ["2026-06-16", "2026-06-18", "2026-06-30", "2026-07-02", "2026-07-14", "2026-07-16"]),
            ("occ-09", "every year on feb 29", "2027-03-01", 3, ["2028-02-29", "2029-02-28", "2030-02-28"]),
            ("occ-10", "every month on the last friday", "2026-06-27", 3, ["2026-07-31", "2026-08-28", "2026-09-25"]),
            ("occ-11", "every 3 days for 10 times", "2026-06-15", 20,
             ["2026-06-15", "2026-06-18", "2026-06-21", "2026-06-24", "2026-06-27", "2026-06-30", "2026-07-03", "2026-07-06", "2026-07-09", "2026-07-12"]),
            ("occ-12", "every weekend for 4 times", "2026-06-13", 9, ["2026-06-13", "2026-06-14", "2026-06-20", "2026-06-21"]),
        ]
        for c in cases {
            guard let r = rule(c.rule, c.id), let a = date(c.anchor, c.id) else { continue }
            XCTAssertEqual(r.occurrences(anchor: a, limit: c.limit).map(\.iso), c.want, "\(c.id): '\(c.rule)' from \(c.anchor)")
        }
    }

    // MARK: canonical words (R-REP-9)

    static let textCases: [(id: String, rule: String, anchor: String, text: String)] = [
        ("tx-01", "every day", "2026-06-15", "Every day"),
        ("tx-02", "every 3 days", "2026-06-15", "Every 3 days"),
        ("tx-03", "every other day", "2026-06-15", "Every 2 days"),
        ("tx-04", "every weekday", "2026-06-15", "Every weekday"),
        ("tx-05", "every weekend", "2026-06-15", "Every weekend"),
        ("tx-06", "every week", "2026-06-18", "Every Thursday"),
        ("tx-07", "every thursday", "2026-06-15", "Every Thursday"),
        ("tx-08", "every mon, wed and fri", "2026-06-15", "Every Monday, Wednesday and Friday"),
        ("tx-09", "every fri, mon, wed", "2026-06-15", "Every Monday, Wednesday and Friday"),
        ("tx-10", "every tue and thu", "2026-06-15", "Every Tuesday and Thursday"),
        ("tx-11", "every saturday and sunday", "2026-06-15", "Every weekend"),
        ("tx-12", "every monday, tuesday, wednesday, thursday and friday", "2026-06-15", "Every weekday"),
        ("tx-13", "every 2 weeks", "2026-06-15", "Every 2 weeks"),
        ("tx-14", "every other week", "2026-06-15", "Every 2 weeks"),
        ("tx-15", "every 2 weeks on tue and thu", "2026-06-15", "Every 2 weeks on Tuesday and Thursday"),
        ("tx-16", "every 3 weeks on friday", "2026-06-15", "Every 3 weeks on Friday"),
        ("tx-17", "every month", "2026-01-31", "Every month"),
        ("tx-18", "every month on the 31st", "2026-01-31", "Every month on the 31st"),
        ("tx-19", "every month on the last day", "2026-01-31", "Every month on the last day"),
        ("tx-20", "every month on the 2nd tuesday", "2026-06-01", "Every month on the 2nd Tuesday"),
        ("tx-21", "every month on the second tuesday", "2026-06-01", "Every month on the 2nd Tuesday"),
        ("tx-22", "every month on the last friday", "2026-06-01", "Every month on the last Friday"),
        ("tx-23", "every month on the first monday", "2026-06-01", "Every month on the 1st Monday"),
        ("tx-24", "every month on the 22nd", "2026-06-01", "Every month on the 22nd"),
        ("tx-25", "every month on the 3rd", "2026-06-01", "Every month on the 3rd"),
        ("tx-26", "every month on the 11th", "2026-06-01", "Every month on the 11th"),
        ("tx-27", "every 3 months", "2026-01-31", "Every 3 months"),
        ("tx-28", "every 3 months on the 15th", "2026-01-31", "Every 3 months on the 15th"),
        ("tx-29", "every year", "2024-02-29", "Every year"),
        ("tx-30", "every year on may 17", "2026-06-15", "Every year on May 17"),
        ("tx-31", "every year on may 17th", "2026-06-15", "Every year on May 17"),
        ("tx-32", "every year on feb 29", "2024-02-29", "Every year on February 29"),
        ("tx-33", "every 2 years", "2026-06-15", "Every 2 years"),
        ("tx-34", "every day at 9am", "2026-06-15", "Every day at 9am"),
        ("tx-35", "every monday at 9:30am", "2026-06-15", "Every Monday at 9:30am"),
        ("tx-36", "every day at 17:00", "2026-06-15", "Every day at 5pm"),
        ("tx-37", "every day from 2026-06-15", "2026-06-15", "Every day from 2026-06-15"),
        ("tx-38", "every day until 2026-12-31", "2026-06-15", "Every day until 2026-12-31"),
        ("tx-39", "every day for 10 times", "2026-06-15", "Every day for 10 times"),
        ("tx-40", "every 3 days after completion", "2026-06-15", "Every 3 days after completion"),
        ("tx-41", "every day until 2026-12-31 at 9am", "2026-06-15", "Every day at 9am until 2026-12-31"),
        ("tx-42", "every monday at 9am from 2026-06-15 until 2026-12-31", "2026-06-15",
         "Every Monday at 9am from 2026-06-15 until 2026-12-31"),
        ("tx-43", "every week after completion", "2026-06-17", "Every Wednesday after completion"),
        ("tx-44", "Every Day", "2026-06-15", "Every day"),
        ("tx-45", "every month on the 31st at 6pm for 3 times", "2026-01-31", "Every month on the 31st at 6pm for 3 times"),
        ("tx-46", "every mondays", "2026-06-15", "Every Monday"),
        ("tx-47", "every 2 years on may 17", "2026-06-15", "Every 2 years on May 17"),
        ("tx-48", "every month on the 5th friday", "2026-01-01", "Every month on the 5th Friday"),
        ("tx-49", "every 2 weeks on sun and mon", "2026-06-15", "Every 2 weeks on Monday and Sunday"),
        // Grammar/kept.ebnf: repeat_rule ::= "every" repeat_body { repeat_modifier } (any order).
        ("tx-50", "every day from 2026-06-15 at 9am", "2026-06-15", "Every day at 9am from 2026-06-15"),
        ("tx-51", "every month on the 31st skipping missing days", "2026-01-31", "Every month on the 31st skipping missing days"),
    ]

    func testCanonicalText() {
        for c in Self.textCases {
            guard let r = rule(c.rule, c.id), let a = date(c.anchor, c.id) else { continue }
            XCTAssertEqual(r.text(anchor: a), c.text, "\(c.id): words of '\(c.rule)'")
        }
    }

    /// Parsing the canonical text gives the same rule back (R-REP-9), for every rule in the
    /// tables: the same words again, the same fields (a weekly rule without days comes back
    /// naming the anchor's weekday), and the same dates under either week start.
    func testCanonicalTextRoundTrip() {
        var seen = Set<String>()
        let all = Self.nextCases.map { ($0.id, $0.rule, $0.anchor) } + Self.textCases.map { ($0.id, $0.rule, $0.anchor) }
        for (id, text, anchorText) in all where seen.insert(text + "|" + anchorText).inserted {
            guard let r = rule(text, id), let a = date(anchorText, id) else { continue }
            roundTrip(r, anchor: a, id: "\(id) round trip")
        }
    }

    func roundTrip(_ r: RepeatRule, anchor a: CivilDate, id: String, file: StaticString = #filePath, line: UInt = #line) {
        let words = r.text(anchor: a)
        guard case .success(let (back, used)) = RepeatRule.parse(words), used == words.split(separator: " ").count else {
            XCTFail("\(id): canonical text '\(words)' does not parse back whole", file: file, line: line)
            return
        }
        XCTAssertEqual(back.text(anchor: a), words, "\(id): '\(words)' reads back differently", file: file, line: line)
        XCTAssertEqual(resolved(back, a), resolved(r, a), "\(id): '\(words)' is another rule", file: file, line: line)
        for ws in [Weekday.monday, .sunday] {
            XCTAssertEqual(back.occurrences(anchor: a, limit: 40, weekStart: ws), r.occurrences(anchor: a, limit: 40, weekStart: ws),
                           "\(id): '\(words)' gives other dates (week start \(ws.name))", file: file, line: line)
        }
    }

    /// A rule with the parts its anchor implies written out: a weekly rule without days is on the
    /// anchor's weekday, a monthly or yearly one without a day on the anchor's day, a yearly one
    /// without a month in the anchor's month; skipping matters only for a day some month lacks.
    func resolved(_ r: RepeatRule, _ a: CivilDate) -> RepeatRule {
        var x = r
        if x.frequency == .weekly, x.weekdays.isEmpty { x.weekdays = [a.weekday] }
        if x.frequency == .yearly, x.month == nil { x.month = a.month }
        if x.frequency == .monthly || x.frequency == .yearly, x.monthDay == nil { x.monthDay = .day(a.day) }
        if case .day(let d)? = x.monthDay {
            let shortest = x.frequency == .yearly ? [2: 28, 4: 30, 6: 30, 9: 30, 11: 30][x.month ?? 1] ?? 31 : 28
            if d <= shortest { x.skipMissing = false }
        } else {
            x.skipMissing = false
        }
        return x
    }

    /// Rules the parser accepts outside the documented list must still have words that read back
    /// as the same rule (R-REP-9).
    func testRoundTripOfOtherAcceptedForms() {
        let cases: [(String, String, String)] = [
            ("rt-extra-01", "every year on the 15th", "2026-01-20"),
            ("rt-extra-02", "every year on the last day", "2026-02-10"),
            ("rt-extra-03", "every 2 years on the 2nd tuesday", "2026-06-01"),
            ("rt-extra-04", "every day at noon", "2026-06-15"),
            ("rt-extra-05", "every 3 days for 1 time", "2026-06-15"),
            ("rt-extra-06", "every day at 12am", "2026-06-15"),
        ]
        for (id, text, anchorText) in cases {
            guard let r = rule(text, id), let a = date(anchorText, id) else { continue }
            roundTrip(r, anchor: a, id: id)
        }
    }

    func testNotRules() {
        let cases: [(String, String)] = [
            ("pe-01", "every"),
            ("pe-02", "every last friday"),
            ("pe-03", "every 0 days"),
            ("pe-04", "every 1001 days"),
            ("pe-05", "daily"),
            ("pe-06", "every 2"),
            ("pe-07", "every month on the 32nd"),
            ("pe-08", "every year on feb 30"),
            ("pe-09", "every day at"),
            ("pe-10", "every monday and"),
            ("pe-11", "every month on the 6th tuesday"),
            ("pe-12", "every day for times"),
        ]
        for (id, text) in cases {
            if case .success(let (r, used)) = RepeatRule.parse(text), used == text.split(separator: " ").count {
                XCTFail("\(id): '\(text)' read as a whole rule: \(r.text(anchor: nil))")
            }
        }
    }

    // MARK: RRULE export

    func testRRULEExport() {
        let cases: [(id: String, rule: String, anchor: String, weekStart: Weekday, want: String)] = [
            ("rr-out-01", "every day", "2026-06-15", .monday, "FREQ=DAILY"),
            ("rr-out-02", "every 3 days", "2026-06-15", .monday, "FREQ=DAILY;INTERVAL=3"),
            ("rr-out-03", "every weekday", "2026-06-15", .monday, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
            ("rr-out-04", "every weekend", "2026-06-15", .monday, "FREQ=WEEKLY;BYDAY=SA,SU"),
            ("rr-out-05", "every week", "2026-06-18", .monday, "FREQ=WEEKLY;BYDAY=TH"),
            ("rr-out-06", "every mon, wed and fri", "2026-06-15", .monday, "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
            ("rr-out-07", "every 2 weeks", "2026-06-15", .monday, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
            ("rr-out-08", "every 2 weeks on tue and thu", "2026-06-15", .monday, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH"),
            ("rr-out-09", "every 2 weeks on sun and mon", "2026-06-15", .sunday, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU;WKST=SU"),
            ("rr-out-10", "every 2 weeks on sun and mon", "2026-06-15", .monday, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,SU"),
            ("rr-out-11", "every month", "2026-01-15", .monday, "FREQ=MONTHLY;BYMONTHDAY=15"),
            ("rr-out-12", "every month on the 31st", "2026-01-31", .monday, "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
            ("rr-out-13", "every month on the 30th", "2026-01-30", .monday, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1"),
            ("rr-out-14", "every month on the 29th", "2026-01-29", .monday, "FREQ=MONTHLY;BYMONTHDAY=28,29;BYSETPOS=-1"),
            ("rr-out-15", "every month", "2026-01-31", .monday, "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
            ("rr-out-16", "every month on the last day", "2026-01-31", .monday, "FREQ=MONTHLY;BYMONTHDAY=-1"),
            ("rr-out-17", "every month on the 2nd tuesday", "2026-06-01", .monday, "FREQ=MONTHLY;BYDAY=2TU"),
            ("rr-out-18", "every month on the last friday", "2026-06-01", .monday, "FREQ=MONTHLY;BYDAY=-1FR"),
            ("rr-out-19", "every 3 months", "2026-01-31", .monday, "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30,31;BYSETPOS=-1"),
            ("rr-out-20", "every year on may 17", "2026-06-15", .monday, "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=17"),
            ("rr-out-21", "every year", "2024-02-29", .monday, "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"),
            ("rr-out-22", "every 2 years", "2026-06-15", .monday, "FREQ=YEARLY;INTERVAL=2;BYMONTH=6;BYMONTHDAY=15"),
            ("rr-out-23", "every day at 9am", "2026-06-15", .monday, "FREQ=DAILY;BYHOUR=9;BYMINUTE=0"),
            ("rr-out-24", "every day for 10 times", "2026-06-15", .monday, "FREQ=DAILY;COUNT=10"),
            ("rr-out-25", "every day until 2026-12-31", "2026-06-15", .monday, "FREQ=DAILY;UNTIL=20261231"),
            ("rr-out-26", "every year on april 30", "2026-06-15", .monday, "FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=30"),
            ("rr-out-27", "every month on the 5th friday", "2026-01-01", .monday, "FREQ=MONTHLY;BYDAY=5FR"),
            ("rr-out-28", "every year on feb 29", "2026-01-01", .monday, "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1"),
            ("rr-out-29", "every month on the 31st skipping missing days", "2026-01-31", .monday, "FREQ=MONTHLY;BYMONTHDAY=31"),
            ("rr-out-30", "every year on feb 29 skipping missing days", "2024-02-29", .monday, "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29"),
        ]
        for c in cases {
            guard let r = rule(c.rule, c.id), let a = date(c.anchor, c.id) else { continue }
            switch r.rrule(anchor: a, weekStart: c.weekStart) {
            case .success(let s): XCTAssertEqual(s, c.want, "\(c.id): RRULE of '\(c.rule)'")
            case .failure(let e): XCTFail("\(c.id): '\(c.rule)' refused: \(e.message)")
            }
            // Read back, the RRULE gives the same dates from the same anchor.
            guard case .success(let s) = r.rrule(anchor: a, weekStart: c.weekStart) else { continue }
            switch RepeatRule.fromRRULE(s) {
            case .success(let back):
                XCTAssertEqual(back.occurrences(anchor: a, limit: 30, weekStart: c.weekStart), r.occurrences(anchor: a, limit: 30, weekStart: c.weekStart),
                               "\(c.id): \(s) read back gives other dates")
            case .failure(let e):
                XCTFail("\(c.id): its own RRULE \(s) does not read back: \(e.message)")
            }
        }
    }

    func testRRULERefusesAfterCompletion() {
        for (id, text) in [("rr-ac-01", "every 3 days after completion"), ("rr-ac-02", "every month on the 31st after completion"),
                           ("rr-ac-03", "every monday at 9am after completion")] {
            guard let r = rule(text, id), let a = date("2026-06-15", id) else { continue }
            if case .success(let s) = r.rrule(anchor: a) { XCTFail("\(id): '\(text)' exported as \(s)") }
        }
    }

    // MARK: RRULE import

    func testRRULEImport() {
        let cases: [(id: String, rrule: String, same: String)] = [
            ("rr-in-01", "FREQ=MONTHLY;BYDAY=-1FR", "every month on the last friday"),
            ("rr-in-02", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "every 2 weeks on tue and thu"),
            ("rr-in-03", "FREQ=DAILY;INTERVAL=3", "every 3 days"),
            ("rr-in-04", "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", "every month on the 31st"),
            ("rr-in-05", "FREQ=MONTHLY;BYMONTHDAY=-1", "every month on the last day"),
            ("rr-in-06", "FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=17", "every year on may 17"),
            ("rr-in-07", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10", "every mon, wed and fri for 10 times"),
            ("rr-in-08", "FREQ=DAILY;UNTIL=20261231", "every day until 2026-12-31"),
            ("rr-in-09", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", "every day at 9am"),
            ("rr-in-10", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("rr-in-11", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1", "every year on feb 29"),
            ("rr-in-12", "freq=monthly;bymonthday=15", "every month on the 15th"),
            ("rr-in-13", "FREQ=WEEKLY;BYDAY=TH,TU;INTERVAL=2", "every 2 weeks on tue and thu"),
            ("rr-in-14", "FREQ=MONTHLY;BYDAY=2TU", "every month on the 2nd tuesday"),
            ("rr-in-15", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=28,29,30;BYSETPOS=-1", "every 3 months on the 30th"),
            // RFC 5545: a plain day that a month lacks has no occurrence in that month.
            ("rr-in-17", "FREQ=MONTHLY;BYMONTHDAY=31", "every month on the 31st skipping missing days"),
            ("rr-in-18", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "every year on feb 29 skipping missing days"),
        ]
        for c in cases {
            guard let want = rule(c.same, c.id) else { continue }
            switch RepeatRule.fromRRULE(c.rrule) {
            case .success(let r): XCTAssertEqual(r, want, "\(c.id): \(c.rrule) should read as '\(c.same)'")
            case .failure(let e): XCTFail("\(c.id): \(c.rrule) refused: \(e.message)")
            }
        }
        // The docs/REPEATS.md example, dated by hand: last Fridays of Jun, Jul, Aug 2026.
        if case .success(let r) = RepeatRule.fromRRULE("FREQ=MONTHLY;BYDAY=-1FR"), let a = date("2026-06-15", "rr-in-16") {
            XCTAssertEqual(r.occurrences(anchor: a, limit: 3).map(\.iso), ["2026-06-26", "2026-07-31", "2026-08-28"], "rr-in-16")
        }
        // The strict-engine dates, by hand: months with 31 days; leap years only.
        let strict: [(String, String, String, [String])] = [
            ("rr-in-19", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-01-31", ["2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31"]),
            ("rr-in-20", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "2024-02-29", ["2024-02-29", "2028-02-29", "2032-02-29"]),
            ("rr-in-21", "FREQ=MONTHLY", "2026-01-31", ["2026-01-31", "2026-03-31", "2026-05-31"]),
            ("rr-in-22", "FREQ=MONTHLY", "2026-01-15", ["2026-01-15", "2026-02-15", "2026-03-15"]),
        ]
        for (id, text, anchorText, want) in strict {
            guard case .success(let r) = RepeatRule.fromRRULE(text), let a = date(anchorText, id) else { XCTFail("\(id): \(text) refused"); continue }
            XCTAssertEqual(r.occurrences(anchor: a, limit: want.count).map(\.iso), want, "\(id): \(text) from \(anchorText)")
        }
    }

    func testRRULEImportRefusals() {
        // The catalog code of each: E0210 not a rule, E0215 a malformed value, E0216 a part its
        // FREQ does not allow, E0220 a part Kept does not have.
        let cases: [(String, String, String)] = [
            ("rr-no-03", "FREQ=WEEKLY;BYDAY=2MO", "E0216"),
            ("rr-no-05", "FREQ=DAILY;BYSECOND=30", "E0220"),
            ("rr-no-06", "INTERVAL=2", "E0210"),
            ("rr-no-07", "FREQ=DAILY;INTERVAL=0", "E0215"),
            ("rr-no-09", "FREQ=YEARLY;BYMONTH=13", "E0215"),
            ("rr-no-10", "FREQ=DAILY;UNTIL=2026", "E0215"),
            ("rr-no-11", "FREQ=WEEKLY;BYDAY=XX", "E0215"),
            ("rr-no-12", "FREQ=DAILY;COUNT=0", "E0215"),
            // Issue 33, item 12: an INTERVAL RFC 5545 allows, past Kept's limit, has the
            // limit's code (docs/LIMITS.md, "repeat interval"); an import keeps it as it came.
            ("rr-no-13", "FREQ=DAILY;INTERVAL=1001", "E0210"),
            ("rr-no-14", "FREQ=DAILY;INTERVAL=99999999999999999999999", "E0210"),
        ]
        for (id, text, code) in cases {
            switch RepeatRule.fromRRULE(text) {
            case .success(let r): XCTFail("\(id): \(text) read as '\(r.text(anchor: nil))'")
            case .failure(let e): XCTAssertEqual(e.code.rawValue, code, "\(id): \(text): \(e.message)")
            }
        }
    }

    /// These RRULEs were refused while Kept read only the shapes of its own words; they are
    /// read with their RFC 5545 meaning now, and give a strict engine's dates (by hand).
    func testRRULEsOnceRefusedHaveTheirRFCDates() {
        let cases: [(id: String, rrule: String, anchor: String, time: String?, want: [String])] = [
            ("rr-no-01", "FREQ=HOURLY", "2026-06-15", "09:00", ["2026-06-15 09:00", "2026-06-15 10:00", "2026-06-15 11:00"]),
            // The last of the 28th and the 30th: the 28th in February.
            ("rr-no-02", "FREQ=MONTHLY;BYMONTHDAY=28,30;BYSETPOS=-1", "2026-01-01", nil,
             ["2026-01-30", "2026-02-28", "2026-03-30", "2026-04-30"]),
            ("rr-no-04", "FREQ=MONTHLY;BYDAY=MO,WE", "2026-06-15", nil,
             ["2026-06-15", "2026-06-17", "2026-06-22", "2026-06-24", "2026-06-29", "2026-07-01"]),
            ("rr-no-08", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-06-15", nil, ["2026-06-15", "2026-07-01", "2026-07-15", "2026-08-01"]),
            // YEARLY with BYDAY=1MO and no BYMONTH: the first Monday of the year.
            ("rr-no-13", "FREQ=YEARLY;BYDAY=1MO", "2026-01-01", nil, ["2026-01-05", "2027-01-04", "2028-01-03"]),
            // YEARLY with BYMONTHDAY and no BYMONTH: that day of every month.
            ("rr-no-14", "FREQ=YEARLY;BYMONTHDAY=15", "2026-06-15", nil, ["2026-06-15", "2026-07-15", "2026-08-15"]),
        ]
        for c in cases {
            guard case .success(let r) = RepeatRule.fromRRULE(c.rrule), let a = date(c.anchor, c.id) else {
                XCTFail("\(c.id): \(c.rrule) refused")
                continue
            }
            let got = r.occurrences(anchor: a, time: c.time.flatMap(WallTime.init(iso:)), limit: c.want.count)
                .map { $0.date.iso + ($0.time.map { " " + $0.iso } ?? "") }
            XCTAssertEqual(got, c.want, "\(c.id): \(c.rrule) from \(c.anchor)")
        }
    }

    /// Rules that exist only as RRULEs still have words that read back (R-REP-9).
    func testImportedRulesHaveCanonicalWords() {
        let cases: [(String, String, String)] = [
            ("rr-words-01", "FREQ=MONTHLY;BYDAY=-1FR", "2026-06-15"),
            ("rr-words-02", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH;COUNT=6", "2026-06-15"),
            ("rr-words-03", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "2026-01-01"),
            ("rr-words-04", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-01-01"),
            ("rr-words-06", "FREQ=MONTHLY", "2026-01-31"),
            ("rr-words-07", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=4", "2026-01-31"),
        ]
        for (id, text, anchorText) in cases {
            guard case .success(let r) = RepeatRule.fromRRULE(text), let a = date(anchorText, id) else {
                XCTFail("\(id): \(text) refused")
                continue
            }
            roundTrip(r, anchor: a, id: id)
        }
        // Thanksgiving: the 4th Thursdays of Nov 2026 and 2027, by hand.
        if case .success(let r) = RepeatRule.fromRRULE("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH"), let a = date("2026-01-01", "rr-words-05") {
            XCTAssertEqual(r.occurrences(anchor: a, limit: 2).map(\.iso), ["2026-11-26", "2027-11-25"], "rr-words-05")
        }
    }

    // MARK: through a Session

    static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func session(_ now: String, store: Store = Store()) -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(CivilDateTime(iso: now) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
                defaultZone: Self.berlin)
    }

    func at(_ s: Session, _ now: String) {
        if let w = CivilDateTime(iso: now) { s.clock = .wall(w) } else { XCTFail("bad now \(now)") }
    }

    func lines(_ s: Session, _ text: String) -> [String] {
        let r = s.run(StatementSource(file: SourceFile(name: "t", text: text)))
        return r.lines + r.diagnostics.map { "! \($0.code) \($0.message)" }
    }

    func due(_ s: Session, _ id: Int) -> String? {
        guard let d = s.store.task(id)?.due else { return nil }
        return d.date.iso + (d.time.map { " " + $0.iso } ?? "")
    }

    /// R-DAY-3: a rule at 9am keeps 09:00 across the spring-forward night of 2026-03-29 in
    /// Europe/Berlin (that day has 23 hours) and the fall-back night of 2026-10-25 (25 hours).
    func testDSTKeepsWallClockTime() {
        let s = session("2026-03-28T08:00")
        XCTAssertEqual(lines(s, "add Standup every day at 9am"), ["Added 1 · Standup · Today 9 AM · Every day at 9am"], "dst-01")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Standup · next: 2 due Sun Mar 29 9 AM"], "dst-02")
        XCTAssertEqual(due(s, 2), "2026-03-29 09:00", "dst-03")
        at(s, "2026-03-29T09:30")
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Standup · next: 3 due Mon Mar 30 9 AM"], "dst-04")
        XCTAssertEqual(due(s, 3), "2026-03-30 09:00", "dst-05")
        // 09:00 on Mar 28 to 09:00 on Mar 29 is 23 hours of real time; the wall clock still says 9.
        if let a = CivilDateTime(iso: "2026-03-28T09:00"), let b = CivilDateTime(iso: "2026-03-29T09:00") {
            let ia = Self.berlin.instant(for: a), ib = Self.berlin.instant(for: b)
            XCTAssertEqual(ia.seconds(until: ib), 23 * 3600, "dst-06")
            XCTAssertEqual(Self.berlin.local(at: ib).time.iso, "09:00", "dst-07")
        }
        // A task due at a time (not a rule time) keeps it too: the due time is kept (R-REP-5).
        let t = session("2026-10-24T08:00")
        XCTAssertEqual(lines(t, "add Walk the dog @2026-10-24 9:00 every day"), ["Added 1 · Walk the dog · Today 9 AM · Every day"], "dst-08")
        XCTAssertEqual(lines(t, "complete 1"), ["Completed 1 · Walk the dog · next: 2 due Sun Oct 25 9 AM"], "dst-09")
        XCTAssertEqual(due(t, 2), "2026-10-25 09:00", "dst-10")
        // A weekly 9am rule across the spring change: Fri Mar 27 → Fri Apr 3.
        let w = session("2026-03-27T08:00")
        XCTAssertEqual(lines(w, "add Review every friday at 9am"), ["Added 1 · Review · Today 9 AM · Every Friday at 9am"], "dst-11")
        XCTAssertEqual(lines(w, "complete 1"), ["Completed 1 · Review · next: 2 due Fri Apr 3 9 AM"], "dst-12")
        XCTAssertEqual(due(w, 2), "2026-04-03 09:00", "dst-13")
    }

    /// R-REP-2, R-REP-3: on time, late (several periods: one next, no pile-up), early.
    func testCompletionDates() {
        let s = session("2026-01-31T09:00")
        XCTAssertEqual(lines(s, "add Pay rent @jan 31 every month on the 31st"), ["Added 1 · Pay rent · Today · Every month on the 31st"], "cmp-01")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Pay rent · next: 2 due Sat Feb 28"], "cmp-02")
        XCTAssertEqual(s.store.task(1)?.status, .done, "cmp-03")
        XCTAssertEqual(s.store.task(1)?.due?.date.iso, "2026-01-31", "cmp-04")
        // Late by more than two months: the next is the first 31st-rule date after today.
        at(s, "2026-05-10T09:00")
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Pay rent · next: 3 due Sun May 31"], "cmp-05")
        XCTAssertEqual(s.store.tasks.filter(\.isOpen).map(\.id), [3], "cmp-06")
        // Early: done on May 20 for May 31, the next is Jun 30, not May 31 again.
        at(s, "2026-05-20T09:00")
        XCTAssertEqual(lines(s, "complete 3"), ["Completed 3 · Pay rent · next: 4 due Tue Jun 30"], "cmp-07")
        // Completing late on the next occurrence's day: daily due Jun 10, done Jun 15 → Jun 16.
        let d = session("2026-06-15T09:00")
        XCTAssertEqual(lines(d, "add Stretch @2026-06-10 every day"), ["Added 1 · Stretch · Overdue 5d · Every day"], "cmp-08")
        XCTAssertEqual(lines(d, "complete 1"), ["Completed 1 · Stretch · next: 2 due Tue Jun 16"], "cmp-09")
        XCTAssertEqual(d.store.tasks.count, 2, "cmp-10")
        // A series that has ended makes no next occurrence.
        let e = session("2026-06-15T09:00")
        _ = lines(e, "add Course @today every day for 2 times")
        XCTAssertEqual(lines(e, "complete 1"), ["Completed 1 · Course · next: 2 due Tue Jun 16"], "cmp-11")
        at(e, "2026-06-16T09:00")
        XCTAssertEqual(e.run(StatementSource(file: SourceFile(name: "t", text: "complete 2"))).lines.first?.hasPrefix("Completed 2 · Course"), true, "cmp-12")
        XCTAssertNil(e.store.task(3), "cmp-13")
        // Next year's date shows its year.
        let y = session("2026-12-31T09:00")
        _ = lines(y, "add Review the year @today every year")
        XCTAssertEqual(lines(y, "complete 1"), ["Completed 1 · Review the year · next: 2 due Fri Dec 31, 2027"], "cmp-14")
    }

    /// R-DAY-2 with R-REP-3: repeat dates use the account's day. With a 04:00 day start,
    /// 01:30 on Jun 16 is still Jun 15, so a daily task due Jun 15 comes back on Jun 16.
    func testCompletionUsesTheDayStart() {
        let s = session("2026-06-15T09:00")
        _ = lines(s, "set day-start 04:00")
        _ = lines(s, "add Journal @today every day")
        at(s, "2026-06-16T01:30")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Journal · next: 2 due Tue Jun 16"], "daystart-01")
        let m = session("2026-06-15T09:00")
        _ = lines(m, "add Journal @today every day")
        at(m, "2026-06-16T01:30")
        XCTAssertEqual(lines(m, "complete 1"), ["Completed 1 · Journal · next: 2 due Wed Jun 17"], "daystart-02")
    }

    /// R-REP-3 at the end of a series: completed late, a series whose last date has passed
    /// makes no next occurrence; a rescheduled occurrence keeps the series' anchor.
    func testLateEndOfSeriesAndRescheduled() {
        let c = session("2026-06-15T09:00")
        _ = lines(c, "add Course @today every day for 3 times")
        at(c, "2026-06-20T09:00")
        XCTAssertEqual(lines(c, "complete 1").first?.hasPrefix("Completed 1 · Course"), true, "end-01")
        XCTAssertNil(c.store.task(2), "end-02: Jun 15–17 are all past")
        let u = session("2026-06-15T09:00")
        _ = lines(u, "add Trial @today every monday until 2026-06-29")
        at(u, "2026-06-30T09:00")
        _ = lines(u, "complete 1")
        XCTAssertNil(u.store.task(2), "end-03: the last Monday, Jun 29, has passed")
        // Due Mon Jun 15, moved to Wed Jun 17 and done then: the next is still a Monday.
        let r = session("2026-06-15T09:00")
        _ = lines(r, "add Team sync @today every monday")
        _ = lines(r, "set 1 due 2026-06-17")
        at(r, "2026-06-17T09:00")
        XCTAssertEqual(lines(r, "complete 1"), ["Completed 1 · Team sync · next: 2 due Mon Jun 22"], "end-04")
    }

    /// R-REP-6: completing twice is E0310 and makes no second copy; undo right after removes
    /// the next; reopen removes an untouched next, leaves a changed or completed one.
    func testCompleteTwiceUndoReopen() {
        let s = session("2026-06-15T09:00")
        _ = lines(s, "add Water plants @today every 3 days")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Water plants · next: 2 due Thu Jun 18"], "rep6-01")
        XCTAssertEqual(lines(s, "complete 1").first?.hasPrefix("! E0310"), true, "rep6-02")
        XCTAssertEqual(s.store.tasks.count, 2, "rep6-03")
        XCTAssertEqual(lines(s, "undo"), ["Undid complete 1 · Water plants"], "rep6-04")
        XCTAssertNil(s.store.task(2), "rep6-05")
        XCTAssertEqual(s.store.task(1)?.status, .open, "rep6-06")
        XCTAssertEqual(s.store.tasks.count, 1, "rep6-07")

        // Reopen with an untouched next: the next goes.
        let r = session("2026-06-15T09:00")
        _ = lines(r, "add Water plants @today every 3 days")
        _ = lines(r, "complete 1")
        XCTAssertEqual(lines(r, "reopen 1").first?.hasPrefix("Reopened 1 · Water plants"), true, "rep6-08")
        XCTAssertNil(r.store.task(2), "rep6-09")
        XCTAssertEqual(r.store.tasks.filter(\.isOpen).map(\.id), [1], "rep6-10")

        // Reopen with a changed next: it stays.
        let c = session("2026-06-15T09:00")
        _ = lines(c, "add Water plants @today every 3 days")
        _ = lines(c, "complete 1")
        XCTAssertEqual(lines(c, "set 2 priority high"), ["Set priority of 2 · Water plants: high"], "rep6-11")
        _ = lines(c, "reopen 1")
        XCTAssertEqual(c.store.task(2)?.priority, .high, "rep6-12")
        XCTAssertEqual(c.store.tasks.filter(\.isOpen).map(\.id), [1, 2], "rep6-13")

        // Reopen with a completed next: it stays done, and its own next stays too.
        let k = session("2026-06-15T09:00")
        _ = lines(k, "add Water plants @today every 3 days")
        _ = lines(k, "complete 1")
        at(k, "2026-06-18T09:00")
        XCTAssertEqual(lines(k, "complete 2"), ["Completed 2 · Water plants · next: 3 due Sun Jun 21"], "rep6-14")
        _ = lines(k, "reopen 1")
        XCTAssertEqual(k.store.task(2)?.status, .done, "rep6-15")
        XCTAssertEqual(k.store.task(3)?.status, .open, "rep6-16")

        // Reopen with a rescheduled next: it stays where it was moved.
        let m = session("2026-06-15T09:00")
        _ = lines(m, "add Water plants @today every 3 days")
        _ = lines(m, "complete 1")
        _ = lines(m, "set 2 due 2026-06-19")
        _ = lines(m, "reopen 1")
        XCTAssertEqual(m.store.task(2)?.due?.date.iso, "2026-06-19", "rep6-17")
        XCTAssertEqual(m.store.tasks.filter(\.isOpen).map(\.id), [1, 2], "rep6-18")
    }

    /// R-REP-9: a list marks an open repeating task; the completed occurrence drops the mark.
    func testListMarks() {
        let s = session("2026-06-15T09:00")
        _ = lines(s, "add Water plants @today every 3 days")
        _ = lines(s, "complete 1")
        guard let done = s.store.task(1), let next = s.store.task(2) else { return XCTFail("mark-00: tasks missing") }
        let rows = s.text.rows([done, next])
        XCTAssertEqual(rows.count, 2, "mark-01")
        XCTAssertFalse(rows.first?.contains("↻") ?? true, "mark-02: \(rows.first ?? "")")
        XCTAssertEqual(rows.last, "2  Water plants  Thu Jun 18  ↻ Every 3 days", "mark-03")
        XCTAssertFalse(s.text.summary(done).contains("Every"), "mark-04: \(s.text.summary(done))")
        XCTAssertEqual(lines(s, "list"), ["All 1 task", "2  Water plants  Thu Jun 18  ↻ Every 3 days"], "mark-05")
    }

    /// R-REP-5: the next occurrence keeps the task's fields and due time, drops a Not today hold
    /// and comments.
    func testNextKeepsFields() {
        guard let due = CivilDate(iso: "2026-06-15"), let nine = WallTime(hour: 9, minute: 0),
              let r = rule("every monday", "rep5-00"), let created = CivilDateTime(iso: "2026-06-01T09:00") else { return }
        var t = Task(id: 1, title: "Team sync", createdAt: Self.berlin.instant(for: created))
        t.due = Due(date: due, time: nine)
        t.priority = .high
        t.project = "Work"
        t.area = "Office"
        t.tags = ["meeting", "weekly"]
        t.notes = ["Sync agenda"]
        t.description = "Bring the numbers"
        t.estimate = Estimate(minutes: 30)
        t.goal = "Ship v2"
        t.heldUntil = CivilDate(iso: "2026-06-16")
        t.comments = [.string("moved from Friday")]
        t.repeatRule = RepeatSpec(rule: r, anchor: due)
        var store = Store(tasks: [t])
        store.projects = [Project(name: "Work")]
        let s = session("2026-06-15T10:00", store: store)
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Team sync · next: 2 due Mon Jun 22 9 AM"], "rep5-01")
        guard let next = s.store.task(2) else { return XCTFail("rep5-02: no next occurrence") }
        XCTAssertEqual(next.title, "Team sync", "rep5-03")
        XCTAssertEqual(next.due, Due(date: CivilDate(iso: "2026-06-22") ?? due, time: nine), "rep5-04")
        XCTAssertEqual(next.priority, .high, "rep5-05")
        XCTAssertEqual(next.project, "Work", "rep5-06")
        XCTAssertEqual(next.area, "Office", "rep5-07")
        XCTAssertEqual(next.tags, ["meeting", "weekly"], "rep5-08")
        XCTAssertEqual(next.notes, ["Sync agenda"], "rep5-09")
        XCTAssertEqual(next.description, "Bring the numbers", "rep5-10")
        XCTAssertEqual(next.estimate, Estimate(minutes: 30), "rep5-11")
        XCTAssertEqual(next.goal, "Ship v2", "rep5-12")
        XCTAssertNil(next.heldUntil, "rep5-13")
        XCTAssertTrue(next.comments.isEmpty, "rep5-14")
        XCTAssertEqual(next.status, .open, "rep5-15")
        XCTAssertNil(next.completedAt, "rep5-16")
        XCTAssertEqual(next.repeatRule?.text, "Every Monday", "rep5-17")
        // The completed occurrence keeps its own fields.
        XCTAssertEqual(s.store.task(1)?.comments.count, 1, "rep5-18")
        XCTAssertEqual(s.store.task(1)?.due?.date.iso, "2026-06-15", "rep5-19")
    }

    /// after completion: the series restarts from the completion day.
    func testAfterCompletion() {
        let s = session("2026-06-15T09:00")
        XCTAssertEqual(lines(s, "add Water cactus @today every 3 days after completion"),
                       ["Added 1 · Water cactus · Today · Every 3 days after completion"], "ac-01")
        at(s, "2026-06-20T09:00")
        // Done 5 days after Jun 15: the default rule would say Jun 21; from the completion day it is Jun 23.
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Water cactus · next: 2 due Tue Jun 23"], "ac-02")
        // Done early (Jun 21 for Jun 23): Jun 24.
        at(s, "2026-06-21T09:00")
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Water cactus · next: 3 due Wed Jun 24"], "ac-03")
        // Weekly after completion on another weekday: a week after the completion day.
        let w = session("2026-06-15T09:00")
        _ = lines(w, "add Clean filter @today every week after completion")
        at(w, "2026-06-17T09:00")
        XCTAssertEqual(lines(w, "complete 1"), ["Completed 1 · Clean filter · next: 2 due Wed Jun 24"], "ac-04")
    }

    /// R-REP-8: repeat never stops the series on that occurrence only.
    func testRepeatNever() {
        let s = session("2026-06-15T09:00")
        _ = lines(s, "add Standup @today every weekday")
        _ = lines(s, "complete 1")
        XCTAssertEqual(lines(s, "set 2 repeat never"), ["Set repeat of 2 · Standup: never"], "rep8-01")
        XCTAssertEqual(s.store.task(1)?.repeatRule?.text, "Every weekday", "rep8-02")
        XCTAssertEqual(lines(s, "complete 2"), ["Completed 2 · Standup"], "rep8-03")
        XCTAssertNil(s.store.task(3), "rep8-04")
    }

    /// R-REP-7: an undated repeating task is dated to its first occurrence on or after today.
    func testUndatedAdd() {
        // Wed Jun 17, 2026.
        let cases: [(String, String, String)] = [
            ("rep7-01", "add Gym every monday", "2026-06-22"),
            ("rep7-02", "add Stretch every day", "2026-06-17"),
            ("rep7-03", "add Invoice every month", "2026-06-17"),
            ("rep7-04", "add Birthday card every year", "2026-06-17"),
            ("rep7-05", "add Report every weekday", "2026-06-17"),
            ("rep7-06", "add Laundry every weekend", "2026-06-20"),
            ("rep7-07", "add Piano every tue and thu", "2026-06-18"),
            ("rep7-08", "add Rent every month on the 1st", "2026-07-01"),
            ("rep7-09", "add Board meeting every month on the last friday", "2026-06-26"),
            ("rep7-10", "add Gym class every wednesday", "2026-06-17"),
            ("rep7-11", "add Taxes every year on may 17", "2027-05-17"),
        ]
        for (id, cmd, want) in cases {
            let s = session("2026-06-17T09:00")
            _ = lines(s, cmd)
            XCTAssertEqual(s.store.task(1)?.due?.date.iso, want, "\(id): \(cmd)")
            XCTAssertNil(s.store.task(1)?.due?.time, "\(id): no time")
        }
        // Setting a repeat on an undated task dates it the same way.
        let s = session("2026-06-17T09:00")
        _ = lines(s, "add Gym")
        XCTAssertEqual(lines(s, "set 1 repeat every monday"), ["Set repeat of 1 · Gym: Every Monday"], "rep7-12")
        XCTAssertEqual(s.store.task(1)?.due?.date.iso, "2026-06-22", "rep7-13")
        _ = lines(s, "add Stretch")
        _ = lines(s, "set 2 repeat every day")
        XCTAssertEqual(s.store.task(2)?.due?.date.iso, "2026-06-17", "rep7-14")
    }

    /// R-REP-10: the same rule gives the same next date whoever completes the task: a session
    /// that added it, one that loaded it from a saved store, and the rule itself.
    func testSameNextDateEverywhere() {
        let cases: [(String, String, String, String)] = [
            // id, add line, completion now, next due
            ("rep10-01", "add Pay rent @2026-01-31 every month on the 31st", "2026-04-02T09:00", "2026-04-30"),
            ("rep10-02", "add Swim @2026-06-15 every 2 weeks on sun and mon", "2026-06-15T09:00", "2026-06-21"),
            ("rep10-03", "add Leap @2024-02-29 every year", "2026-03-01T09:00", "2027-02-28"),
            ("rep10-04", "add Sync @2021-06-14 every 2 weeks", "2026-06-15T09:00", "2026-06-22"),
        ]
        for (id, add, now, want) in cases {
            let a = session(now)
            _ = lines(a, add)
            guard case .success(let loaded) = StoreCodec.decode(StoreCodec.encode(a.store.snapshot())) else { XCTFail("\(id): store round trip"); continue }
            let b = session(now, store: loaded)
            _ = lines(a, "complete 1")
            _ = lines(b, "complete 1")
            XCTAssertEqual(a.store.task(2)?.due?.date.iso, want, "\(id): session")
            XCTAssertEqual(b.store.task(2)?.due?.date.iso, want, "\(id): loaded store")
        }
    }

    /// R-DAY-5 in a session: `week-start sunday` changes an every-2-weeks rule on two days.
    func testWeekStartSettingInSession() {
        let s = session("2026-06-15T09:00")
        _ = lines(s, "set week-start sunday")
        _ = lines(s, "add Swim @today every 2 weeks on sun and mon")
        XCTAssertEqual(lines(s, "complete 1"), ["Completed 1 · Swim · next: 2 due Sun Jun 28"], "ws-session-01")
        let m = session("2026-06-15T09:00")
        _ = lines(m, "add Swim @today every 2 weeks on sun and mon")
        XCTAssertEqual(lines(m, "complete 1"), ["Completed 1 · Swim · next: 2 due Sun Jun 21"], "ws-session-02")
    }

    /// The repeat and rrule statements, and their errors.
    func testRepeatStatements() {
        let s = session("2026-06-15T09:00")
        XCTAssertEqual(lines(s, "repeat every month on the 31st from 2026-01-31 next 4"),
                       ["Every month on the 31st from 2026-01-31", "RRULE FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1",
                        "Sat Jan 31, 2026", "Sat Feb 28, 2026", "Tue Mar 31, 2026", "Thu Apr 30, 2026"], "stmt-01")
        XCTAssertEqual(lines(s, "rrule every month on the last friday"), ["FREQ=MONTHLY;BYDAY=-1FR"], "stmt-02")
        XCTAssertEqual(lines(s, "repeat FREQ=MONTHLY;BYDAY=-1FR next 3"),
                       ["Every month on the last Friday", "RRULE FREQ=MONTHLY;BYDAY=-1FR", "Fri Jun 26, 2026", "Fri Jul 31, 2026", "Fri Aug 28, 2026"], "stmt-03")
        XCTAssertEqual(lines(s, "repeat fortnightly").first?.hasPrefix("! E0210"), true, "stmt-04")
        XCTAssertEqual(lines(s, "rrule every 3 days after completion").first?.hasPrefix("! E0211"), true, "stmt-05")
        XCTAssertEqual(lines(s, "repeat FREQ=SECONDLY").first?.hasPrefix("! E0220"), true, "stmt-06")
        // Without `every`, and with the default of five dates.
        XCTAssertEqual(lines(s, "repeat weekday"),
                       ["Every weekday", "RRULE FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
                        "Mon Jun 15, 2026", "Tue Jun 16, 2026", "Wed Jun 17, 2026", "Thu Jun 18, 2026", "Fri Jun 19, 2026"], "stmt-07")
        s.format = .json
        XCTAssertEqual(lines(s, "repeat every year on feb 29 from 2027-01-01 next 3"),
                       [#"{"rule":"Every year on February 29 from 2027-01-01","rrule":"FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1","dates":["2027-02-28","2028-02-29","2029-02-28"]}"#], "stmt-08")
    }
}
