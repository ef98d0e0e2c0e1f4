// Table tests for date phrases, against docs/CAPTURE.md ("Date phrases") and docs/LANGUAGE.md.
// Every expected value was derived by hand from the docs and a calendar, never by running the
// code: 2026-06-15 is a Monday, 2026-06-19 a Friday, 2026-01-31 a Saturday, 2026-12-31 a
// Thursday; Europe/Berlin springs forward 02:00→03:00 on 2026-03-29 and falls back
// (02:00–03:00 twice) on 2026-10-25; America/New_York on 2026-03-08 and 2026-11-01.
//
// Rules covered: R-CAP-3 (a phrase resolves against now; same input, same result), R-DAY-2
// (today follows the day start), R-DAY-3 (a phrase without a time never gets one; wall-clock
// times survive DST), R-DAY-5 (weeks follow the week-start setting).
//
// `want` is "YYYY-MM-DD" (all-day), "YYYY-MM-DD HH:MM" (with a time), "E0203" (not a date
// word: DatePhraseError.impossible == false), "E0205" (a date that does not exist:
// impossible == true), or "ERR" (refused, either kind).

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

private struct PhraseCase {
    let id: String
    let now: String
    let zone: String
    let settings: [(String, String)]
    let phrase: String
    let want: String
    /// How many words the phrase must use; nil means all of them.
    let used: Int?
    /// A substring the error's help must contain (did-you-mean).
    let help: String?
}

private func c(_ id: String, now: String = "2026-06-15T09:00", zone: String = "Europe/Berlin",
               settings: [(String, String)] = [], _ phrase: String, _ want: String,
               used: Int? = nil, help: String? = nil) -> PhraseCase {
    PhraseCase(id: id, now: now, zone: zone, settings: settings, phrase: phrase, want: want, used: used, help: help)
}

// Frequently used nows and settings.
private let mon = "2026-06-15T09:00"      // Monday
private let fri = "2026-06-19T09:00"      // Friday
private let sat = "2026-06-20T09:00"      // Saturday
private let sun = "2026-06-21T09:00"      // Sunday
private let jan31 = "2026-01-31T10:00"    // Saturday, month end
private let dec31 = "2026-12-31T10:00"    // Thursday, year end
private let sundayStart = [("week-start", "sunday")]
private let dayStart4 = [("day-start", "04:00")]
private let dmy = [("date-order", "dmy")]
private let followingWeek = [("next-weekday", "following-week")]
private let ny = "America/New_York"

private let phraseCases: [PhraseCase] = [
    // MARK: every row of the table, at Monday 2026-06-15 09:00 (R-CAP-3, R-DAY-3)
    c("dp-rel-01", "today", "2026-06-15"),
    c("dp-rel-02", "tomorrow", "2026-06-16"),
    c("dp-rel-03", "yesterday", "2026-06-14"),
    c("dp-rel-04", "Tomorrow", "2026-06-16"),
    c("dp-rel-05", "TODAY", "2026-06-15"),

    // weekdays: the first such day strictly after today (Monday the 15th)
    c("dp-wd-01", "mon", "2026-06-22"),
    c("dp-wd-02", "monday", "2026-06-22"),
    c("dp-wd-03", "tue", "2026-06-16"),
    c("dp-wd-04", "tues", "2026-06-16"),
    c("dp-wd-05", "tuesday", "2026-06-16"),
    c("dp-wd-06", "wed", "2026-06-17"),
    c("dp-wd-07", "weds", "2026-06-17"),
    c("dp-wd-08", "wednesday", "2026-06-17"),
    c("dp-wd-09", "thu", "2026-06-18"),
    c("dp-wd-10", "thur", "2026-06-18"),
    c("dp-wd-11", "thurs", "2026-06-18"),
    c("dp-wd-12", "thursday", "2026-06-18"),
    c("dp-wd-13", "fri", "2026-06-19"),
    c("dp-wd-14", "friday", "2026-06-19"),
    c("dp-wd-15", "sat", "2026-06-20"),
    c("dp-wd-16", "saturday", "2026-06-20"),
    c("dp-wd-17", "sun", "2026-06-21"),
    c("dp-wd-18", "sunday", "2026-06-21"),
    c("dp-wd-19", "Fri", "2026-06-19"),
    c("dp-wd-20", "on fri", "2026-06-19"),
    c("dp-wd-21", "next fri", "2026-06-19"),
    c("dp-wd-22", "this fri", "2026-06-19"),
    c("dp-wd-23", "this mon", "2026-06-15"),
    c("dp-wd-24", "fri next week", "2026-06-26"),
    c("dp-wd-25", "next mon", "2026-06-22"),
    c("dp-wd-26", "on monday", "2026-06-22"),
    c("dp-wd-27", "this sun", "2026-06-21"),
    c("dp-wd-28", "mon next week", "2026-06-22"),

    // `next-weekday following-week`: `next fri` is the Friday of next week
    c("dp-nw-01", settings: followingWeek, "next fri", "2026-06-26"),
    c("dp-nw-02", settings: followingWeek, "next wed", "2026-06-24"),
    c("dp-nw-03", settings: followingWeek, "next mon", "2026-06-22"),
    c("dp-nw-04", settings: followingWeek, "fri", "2026-06-19"),
    c("dp-nw-05", now: fri, settings: followingWeek, "next fri", "2026-06-26"),
    c("dp-nw-06", now: sun, settings: followingWeek, "next mon", "2026-06-22"),
    c("dp-nw-07", now: sun, settings: followingWeek, "next sun", "2026-06-28"),

    // periods
    c("dp-per-01", "next week", "2026-06-22"),
    c("dp-per-02", "next month", "2026-07-01"),
    c("dp-per-03", "next year", "2027-01-01"),
    c("dp-per-04", "eow", "2026-06-21"),
    c("dp-per-05", "end of week", "2026-06-21"),
    c("dp-per-06", "eom", "2026-06-30"),
    c("dp-per-07", "end of month", "2026-06-30"),
    c("dp-per-08", "end of the month", "2026-06-30"),
    c("dp-per-09", "eoy", "2026-12-31"),
    c("dp-per-10", "end of year", "2026-12-31"),

    // weekends
    c("dp-we-01", "this weekend", "2026-06-20"),
    c("dp-we-02", "weekend", "2026-06-20"),
    c("dp-we-03", "next weekend", "2026-06-27"),
    c("dp-we-04", now: sat, "this weekend", "2026-06-20"),
    c("dp-we-05", now: sat, "weekend", "2026-06-20"),
    c("dp-we-06", now: sat, "next weekend", "2026-06-27"),
    c("dp-we-07", now: sun, "this weekend", "2026-06-20"),
    c("dp-we-08", now: sun, "next weekend", "2026-06-27"),
    c("dp-we-09", now: fri, "weekend", "2026-06-20"),

    // in N units: days, weeks, months (clamped), years after today — a date, no time
    c("dp-in-01", "in 3 days", "2026-06-18"),
    c("dp-in-02", "in a week", "2026-06-22"),
    c("dp-in-03", "in 2 weeks", "2026-06-29"),
    c("dp-in-04", "in 1 month", "2026-07-15"),
    c("dp-in-05", "in 2 years", "2028-06-15"),
    c("dp-in-06", "in 3d", "2026-06-18"),
    c("dp-in-07", "in 2w", "2026-06-29"),
    c("dp-in-08", "in 1mo", "2026-07-15"),
    c("dp-in-09", "in 1y", "2027-06-15"),
    c("dp-in-10", "3 days from now", "2026-06-18"),
    c("dp-in-11", "in 1 day", "2026-06-16"),
    c("dp-in-12", "in 20 days", "2026-07-05"),
    c("dp-in-13", now: "2026-03-31T10:00", "in 1 month", "2026-04-30"),
    c("dp-in-14", now: "2026-05-31T10:00", "in 1mo", "2026-06-30"),
    c("dp-in-15", now: "2028-01-31T10:00", "in 1 month", "2028-02-29"),
    c("dp-in-16", now: "2028-02-29T10:00", "in 1 year", "2029-02-28"),

    // in N hours/minutes: that long after now, a date and a time
    c("dp-dur-01", "in an hour", "2026-06-15 10:00"),
    c("dp-dur-02", "in 2 hours", "2026-06-15 11:00"),
    c("dp-dur-03", "in 20 minutes", "2026-06-15 09:20"),
    c("dp-dur-04", "in 90m", "2026-06-15 10:30"),
    c("dp-dur-05", "in 2h", "2026-06-15 11:00"),
    c("dp-dur-06", "20 minutes from now", "2026-06-15 09:20"),
    c("dp-dur-07", now: "2026-06-15T23:30", "in an hour", "2026-06-16 00:30"),
    c("dp-dur-08", now: "2026-12-31T23:30", "in an hour", "2027-01-01 00:30"),

    // month and day: the next one not in the past (today counts)
    c("dp-md-01", "may 17", "2027-05-17"),
    c("dp-md-02", "17 may", "2027-05-17"),
    c("dp-md-03", "may 17th", "2027-05-17"),
    c("dp-md-04", "17th of may", "2027-05-17"),
    c("dp-md-05", "may 17,", "2027-05-17"),
    c("dp-md-06", "jun 15", "2026-06-15"),
    c("dp-md-07", "june 16", "2026-06-16"),
    c("dp-md-08", "june 14", "2027-06-14"),
    c("dp-md-09", "dec 25", "2026-12-25"),
    c("dp-md-10", "sept 1", "2026-09-01"),
    c("dp-md-11", "1st of july", "2026-07-01"),
    c("dp-md-12", now: "2026-04-10T10:00", "may 17", "2026-05-17"),

    // the Nth: the next Nth of a month that is not in the past
    c("dp-nth-01", "the 17th", "2026-06-17"),
    c("dp-nth-02", "the 15th", "2026-06-15"),
    c("dp-nth-03", "the 14th", "2026-07-14"),
    c("dp-nth-04", "the 31st", "2026-07-31"),
    c("dp-nth-05", "the 1st", "2026-07-01"),
    c("dp-nth-06", "the 30th", "2026-06-30"),
    c("dp-nth-07", now: "2026-02-01T10:00", "the 31st", "2026-03-31"),
    c("dp-nth-08", now: "2026-04-15T10:00", "the 31st", "2026-05-31"),
    c("dp-nth-09", now: "2026-02-10T10:00", "the 29th", "2026-03-29"),

    // with a year: that day
    c("dp-y-01", "may 17 2027", "2027-05-17"),
    c("dp-y-02", "may 17, 2027", "2027-05-17"),
    c("dp-y-03", "17 may 2027", "2027-05-17"),
    c("dp-y-04", "2027-05-17", "2027-05-17"),
    c("dp-y-05", "2026-06-15", "2026-06-15"),
    c("dp-y-06", "may 17 2025", "2025-05-17"),

    // slash dates: month/day by default, day/month with date-order dmy
    c("dp-sl-01", "5/17", "2027-05-17"),
    c("dp-sl-02", "5/17/2027", "2027-05-17"),
    c("dp-sl-03", "5/17/27", "2027-05-17"),
    c("dp-sl-04", "6/20", "2026-06-20"),
    c("dp-sl-05", "5/6", "2027-05-06"),
    c("dp-sl-06", settings: dmy, "5/6", "2027-06-05"),
    c("dp-sl-07", settings: dmy, "17/5", "2027-05-17"),
    c("dp-sl-08", settings: dmy, "20/6/2026", "2026-06-20"),
    c("dp-sl-09", settings: dmy, "13/5", "2027-05-13"),
    c("dp-sl-10", "4/31", "E0205"),
    c("dp-sl-11", "13/5", "E0205"),
    c("dp-sl-12", "2/30", "E0205"),
    c("dp-sl-13", settings: dmy, "31/4", "E0205"),
    c("dp-sl-14", settings: dmy, "5/13", "E0205"),
    c("dp-sl-15", "2/29", "2028-02-29"),
    c("dp-sl-16", "2/29/2027", "E0205"),
    c("dp-sl-17", "2/29/2028", "2028-02-29"),
    c("dp-sl-18", "12/31", "2026-12-31"),

    // dotted dates: day.month whatever the order
    c("dp-dot-01", "28.11.", "2026-11-28"),
    c("dp-dot-02", "28.11.2026", "2026-11-28"),
    c("dp-dot-03", settings: dmy, "28.11.", "2026-11-28"),
    c("dp-dot-04", "1.7.", "2026-07-01"),
    c("dp-dot-05", "14.6.", "2027-06-14"),
    c("dp-dot-06", "31.4.", "E0205"),
    c("dp-dot-07", "30.2.2026", "E0205"),
    c("dp-dot-08", "29.2.2028", "2028-02-29"),

    // ISO date-time
    c("dp-iso-01", "2026-06-15T15:00", "2026-06-15 15:00"),
    c("dp-iso-02", "2027-01-02T07:45", "2027-01-02 07:45"),

    // a time alone: today while still ahead, else tomorrow (now 09:00)
    c("dp-t-01", "3pm", "2026-06-15 15:00"),
    c("dp-t-02", "3:30pm", "2026-06-15 15:30"),
    c("dp-t-03", "3 pm", "2026-06-15 15:00"),
    c("dp-t-04", "15:00", "2026-06-15 15:00"),
    c("dp-t-05", "9:05", "2026-06-15 09:05"),
    c("dp-t-06", "noon", "2026-06-15 12:00"),
    c("dp-t-07", "midnight", "2026-06-16 00:00"),
    c("dp-t-08", "8am", "2026-06-16 08:00"),
    c("dp-t-09", "8:59am", "2026-06-16 08:59"),
    c("dp-t-10", "9:01", "2026-06-15 09:01"),
    c("dp-t-11", "11pm", "2026-06-15 23:00"),
    c("dp-t-12", "12pm", "2026-06-15 12:00"),
    c("dp-t-13", "12am", "2026-06-16 00:00"),
    c("dp-t-14", now: "2026-06-15T16:00", "15:00", "2026-06-16 15:00"),
    c("dp-t-15", now: "2026-06-15T13:00", "noon", "2026-06-16 12:00"),
    c("dp-t-16", now: "2026-06-15T23:00", "midnight", "2026-06-16 00:00"),
    c("dp-t-17", now: "2026-12-31T23:30", "3pm", "2027-01-01 15:00"),
    c("dp-t-18", "3 am", "2026-06-16 03:00"),

    // at H: the 24-hour clock; at 1 … at 7 are ambiguous and refused
    c("dp-at-01", now: "2026-06-15T08:00", "at 9", "2026-06-15 09:00"),
    c("dp-at-02", "at 12", "2026-06-15 12:00"),
    c("dp-at-03", "at 20", "2026-06-15 20:00"),
    c("dp-at-04", "at 8", "2026-06-16 08:00"),
    c("dp-at-05", "at 5", "ERR"),
    c("dp-at-06", "at 1", "ERR"),
    c("dp-at-07", "at 7", "ERR"),
    c("dp-at-08", "at 3pm", "2026-06-15 15:00"),

    // named times: the setting's time, the next time it comes; `tonight`, `this …` are today's
    c("dp-nt-01", now: "2026-06-15T08:00", "morning", "2026-06-15 09:00"),
    c("dp-nt-02", now: "2026-06-15T10:00", "morning", "2026-06-16 09:00"),
    c("dp-nt-03", "afternoon", "2026-06-15 15:00"),
    c("dp-nt-04", "evening", "2026-06-15 18:00"),
    c("dp-nt-05", now: "2026-06-15T19:00", "evening", "2026-06-16 18:00"),
    c("dp-nt-06", "tonight", "2026-06-15 20:00"),
    c("dp-nt-07", now: "2026-06-15T21:00", "tonight", "2026-06-15 20:00"),
    c("dp-nt-08", now: "2026-06-15T19:00", "this evening", "2026-06-15 18:00"),
    c("dp-nt-09", now: "2026-06-15T10:00", "this morning", "2026-06-15 09:00"),
    c("dp-nt-10", settings: [("evening", "19:30")], "evening", "2026-06-15 19:30"),

    // DATE TIME, DATE at TIME, TIME DATE, TIME on DATE
    c("dp-dt-01", "tomorrow 3pm", "2026-06-16 15:00"),
    c("dp-dt-02", "3pm tomorrow", "2026-06-16 15:00"),
    c("dp-dt-03", "fri at 9", "2026-06-19 09:00"),
    c("dp-dt-04", "tomorrow morning", "2026-06-16 09:00"),
    c("dp-dt-05", "tomorrow at 3pm", "2026-06-16 15:00"),
    c("dp-dt-06", "3pm on fri", "2026-06-19 15:00"),
    c("dp-dt-07", "next fri 3pm", "2026-06-19 15:00"),
    c("dp-dt-08", "may 17 9am", "2027-05-17 09:00"),
    c("dp-dt-09", "tomorrow evening", "2026-06-16 18:00"),
    c("dp-dt-10", "today 8am", "2026-06-15 08:00"),
    c("dp-dt-11", "in 3 days at noon", "2026-06-18 12:00"),
    c("dp-dt-12", "fri 9:30am", "2026-06-19 09:30"),
    c("dp-dt-13", "tomorrow 15:00", "2026-06-16 15:00"),
    c("dp-dt-14", "9am next fri", "2026-06-19 09:00"),
    c("dp-dt-15", "fri at 5", "ERR"),

    // MARK: a Friday now (2026-06-19): fri is next week's
    c("dp-fri-01", now: fri, "fri", "2026-06-26"),
    c("dp-fri-02", now: fri, "friday", "2026-06-26"),
    c("dp-fri-03", now: fri, "next fri", "2026-06-26"),
    c("dp-fri-04", now: fri, "this fri", "2026-06-19"),
    c("dp-fri-05", now: fri, "fri next week", "2026-06-26"),
    c("dp-fri-06", now: fri, "on fri", "2026-06-26"),
    c("dp-fri-07", now: fri, "this mon", "2026-06-15"),
    c("dp-fri-08", now: fri, "sat", "2026-06-20"),
    c("dp-fri-09", now: fri, "thu", "2026-06-25"),
    c("dp-fri-10", now: fri, "next week", "2026-06-22"),
    c("dp-fri-11", now: fri, "eow", "2026-06-21"),
    c("dp-fri-12", now: fri, "fri 3pm", "2026-06-26 15:00"),

    // MARK: a month end (Saturday 2026-01-31)
    c("dp-me-01", now: jan31, "in 1 month", "2026-02-28"),
    c("dp-me-02", now: jan31, "in 1mo", "2026-02-28"),
    c("dp-me-03", now: jan31, "in 2 months", "2026-03-31"),
    c("dp-me-04", now: jan31, "in 3 months", "2026-04-30"),
    c("dp-me-05", now: jan31, "in 13 months", "2027-02-28"),
    c("dp-me-06", now: jan31, "eom", "2026-01-31"),
    c("dp-me-07", now: jan31, "the 31st", "2026-01-31"),
    c("dp-me-08", now: jan31, "the 30th", "2026-03-30"),
    c("dp-me-09", now: jan31, "tomorrow", "2026-02-01"),
    c("dp-me-10", now: jan31, "next month", "2026-02-01"),
    c("dp-me-11", now: jan31, "eow", "2026-02-01"),
    c("dp-me-12", now: jan31, "next week", "2026-02-02"),
    c("dp-me-13", now: jan31, "this weekend", "2026-01-31"),
    c("dp-me-14", now: jan31, "feb 29", "2028-02-29"),

    // MARK: the year end (Thursday 2026-12-31)
    c("dp-ye-01", now: dec31, "tomorrow", "2027-01-01"),
    c("dp-ye-02", now: dec31, "next month", "2027-01-01"),
    c("dp-ye-03", now: dec31, "next week", "2027-01-04"),
    c("dp-ye-04", now: dec31, "eow", "2027-01-03"),
    c("dp-ye-05", now: dec31, "eoy", "2026-12-31"),
    c("dp-ye-06", now: dec31, "end of year", "2026-12-31"),
    c("dp-ye-07", now: dec31, "next year", "2027-01-01"),
    c("dp-ye-08", now: dec31, "may 17", "2027-05-17"),
    c("dp-ye-09", now: dec31, "dec 31", "2026-12-31"),
    c("dp-ye-10", now: dec31, "dec 30", "2027-12-30"),
    c("dp-ye-11", now: dec31, "in 1 month", "2027-01-31"),
    c("dp-ye-12", now: dec31, "in 2 months", "2027-02-28"),
    c("dp-ye-13", now: dec31, "fri", "2027-01-01"),
    c("dp-ye-14", now: dec31, "thu", "2027-01-07"),
    c("dp-ye-15", now: dec31, "fri next week", "2027-01-08"),
    c("dp-ye-16", now: dec31, "this fri", "2027-01-01"),
    c("dp-ye-17", now: dec31, "in a week", "2027-01-07"),
    c("dp-ye-18", now: dec31, "the 1st", "2027-01-01"),
    c("dp-ye-19", now: dec31, "1/1", "2027-01-01"),
    c("dp-ye-20", now: dec31, "eom", "2026-12-31"),

    // MARK: week start Sunday (R-DAY-5), Monday 2026-06-15: the week is Sun 14 – Sat 20
    c("dp-ws-01", settings: sundayStart, "this sun", "2026-06-14"),
    c("dp-ws-02", settings: sundayStart, "eow", "2026-06-20"),
    c("dp-ws-03", settings: sundayStart, "next week", "2026-06-21"),
    c("dp-ws-04", settings: sundayStart, "this fri", "2026-06-19"),
    c("dp-ws-05", settings: sundayStart, "fri next week", "2026-06-26"),
    c("dp-ws-06", settings: sundayStart, "sun", "2026-06-21"),
    c("dp-ws-07", settings: sundayStart, "this sat", "2026-06-20"),
    c("dp-ws-08", settings: sundayStart, "end of week", "2026-06-20"),
    c("dp-ws-09", now: sun, settings: sundayStart, "this sun", "2026-06-21"),
    c("dp-ws-10", now: sun, settings: sundayStart, "eow", "2026-06-27"),
    c("dp-ws-11", now: sun, settings: sundayStart, "next week", "2026-06-28"),
    c("dp-ws-12", now: sun, settings: sundayStart, "this fri", "2026-06-26"),
    c("dp-ws-13", now: sun, "this fri", "2026-06-19"),
    c("dp-ws-14", now: sun, "eow", "2026-06-21"),
    c("dp-ws-15", now: sun, "next week", "2026-06-22"),
    c("dp-ws-16", now: sat, settings: sundayStart, "eow", "2026-06-20"),
    c("dp-ws-17", now: sat, settings: sundayStart, "next week", "2026-06-21"),
    c("dp-ws-18", settings: sundayStart + followingWeek, "next fri", "2026-06-26"),

    // MARK: day start 04:00 at 01:30 on Tue 2026-06-16: the account day is still Mon the 15th (R-DAY-2)
    c("dp-ds-01", now: "2026-06-16T01:30", settings: dayStart4, "today", "2026-06-15"),
    c("dp-ds-02", now: "2026-06-16T01:30", settings: dayStart4, "tomorrow", "2026-06-16"),
    c("dp-ds-03", now: "2026-06-16T01:30", settings: dayStart4, "yesterday", "2026-06-14"),
    c("dp-ds-04", now: "2026-06-16T01:30", settings: dayStart4, "tue", "2026-06-16"),
    c("dp-ds-05", now: "2026-06-16T01:30", settings: dayStart4, "mon", "2026-06-22"),
    c("dp-ds-06", now: "2026-06-16T01:30", settings: dayStart4, "in 3 days", "2026-06-18"),
    c("dp-ds-07", now: "2026-06-16T01:30", settings: dayStart4, "jun 15", "2026-06-15"),
    c("dp-ds-08", now: "2026-06-16T01:30", settings: dayStart4, "the 15th", "2026-06-15"),
    c("dp-ds-09", now: "2026-06-16T01:30", settings: dayStart4, "tomorrow 9am", "2026-06-16 09:00"),
    c("dp-ds-10", now: "2026-06-16T01:30", settings: dayStart4, "tonight", "2026-06-15 20:00"),
    c("dp-ds-11", now: "2026-06-16T01:30", settings: dayStart4, "3am", "2026-06-16 03:00"),
    c("dp-ds-12", now: "2026-06-16T01:30", settings: dayStart4, "in an hour", "2026-06-16 02:30"),
    c("dp-ds-13", now: "2026-07-01T01:30", settings: dayStart4, "eom", "2026-06-30"),
    c("dp-ds-14", now: "2026-07-01T01:30", settings: dayStart4, "next month", "2026-07-01"),
    c("dp-ds-15", now: "2027-01-01T01:30", settings: dayStart4, "eoy", "2026-12-31"),
    c("dp-ds-16", now: "2026-06-16T04:00", settings: dayStart4, "today", "2026-06-16"),

    // MARK: Europe/Berlin DST (R-DAY-3): a skipped time moves forward by the gap; a repeated one is the first
    c("dp-dst-01", now: "2026-03-28T10:00", "tomorrow 2:30am", "2026-03-29 03:30"),
    c("dp-dst-02", now: "2026-03-28T10:00", "tomorrow 02:30", "2026-03-29 03:30"),
    c("dp-dst-03", now: "2026-03-28T10:00", "tomorrow 2am", "2026-03-29 03:00"),
    c("dp-dst-04", now: "2026-03-28T10:00", "tomorrow 9:00", "2026-03-29 09:00"),
    c("dp-dst-05", now: "2026-03-28T10:00", "tomorrow 9am", "2026-03-29 09:00"),
    c("dp-dst-06", now: "2026-03-28T10:00", "tomorrow", "2026-03-29"),
    c("dp-dst-07", now: "2026-03-28T10:00", "2026-03-29T02:30", "2026-03-29 03:30"),
    c("dp-dst-08", now: "2026-03-29T01:30", "in an hour", "2026-03-29 03:30"),
    c("dp-dst-09", now: "2026-03-29T01:30", "in 30 minutes", "2026-03-29 03:00"),
    c("dp-dst-10", now: "2026-03-29T01:30", "2:30am", "2026-03-29 03:30"),
    c("dp-dst-11", now: "2026-03-20T10:00", "2:30am mar 29", "2026-03-29 03:30"),
    c("dp-dst-12", now: "2026-10-24T10:00", "tomorrow 2:30am", "2026-10-25 02:30"),
    c("dp-dst-13", now: "2026-10-24T10:00", "tomorrow 9am", "2026-10-25 09:00"),
    c("dp-dst-14", now: "2026-10-25T01:30", "in an hour", "2026-10-25 02:30"),
    c("dp-dst-15", now: "2026-10-24T10:00", "2026-10-25T02:30", "2026-10-25 02:30"),

    // MARK: America/New_York DST
    c("dp-ny-01", now: "2026-03-07T12:00", zone: ny, "tomorrow 2:30am", "2026-03-08 03:30"),
    c("dp-ny-02", now: "2026-03-07T12:00", zone: ny, "tomorrow 9am", "2026-03-08 09:00"),
    c("dp-ny-03", now: "2026-03-08T01:30", zone: ny, "in an hour", "2026-03-08 03:30"),
    c("dp-ny-04", now: "2026-10-31T12:00", zone: ny, "tomorrow 1:30am", "2026-11-01 01:30"),
    c("dp-ny-05", now: "2026-11-01T00:30", zone: ny, "in an hour", "2026-11-01 01:30"),
    c("dp-ny-06", now: "2026-03-28T10:00", zone: ny, "tomorrow 2:30am", "2026-03-29 02:30"),
    c("dp-ny-07", now: "2026-03-07T12:00", zone: ny, "tomorrow", "2026-03-08"),

    // MARK: feb 29 and leap years
    c("dp-leap-01", "feb 29", "2028-02-29"),
    c("dp-leap-02", now: "2028-01-10T10:00", "feb 29", "2028-02-29"),
    c("dp-leap-03", now: "2028-03-01T10:00", "feb 29", "2032-02-29"),
    c("dp-leap-04", now: "2024-02-29T10:00", "feb 29", "2024-02-29"),
    c("dp-leap-05", now: "2096-03-01T10:00", "feb 29", "2104-02-29"),
    c("dp-leap-06", "feb 29 2028", "2028-02-29"),
    c("dp-leap-07", "feb 29 2027", "E0205"),
    c("dp-leap-08", "feb 29 2100", "E0205"),
    c("dp-leap-09", "feb 29 2000", "2000-02-29"),
    c("dp-leap-10", "2028-02-29", "2028-02-29"),
    c("dp-leap-11", "2027-02-29", "E0205"),
    c("dp-leap-12", "29 feb", "2028-02-29"),

    // MARK: `used`: the longest phrase at the start of the words
    c("dp-used-01", "may 17 dentist", "2027-05-17", used: 2),
    c("dp-used-02", "tomorrow 3pm call", "2026-06-16 15:00", used: 2),
    c("dp-used-03", "fri lunch", "2026-06-19", used: 1),
    c("dp-used-04", "next fri 3pm standup", "2026-06-19 15:00", used: 3),
    c("dp-used-05", "in 2 weeks review", "2026-06-29", used: 3),
    c("dp-used-06", "today at 5pm gym", "2026-06-15 17:00", used: 3),
    c("dp-used-07", "17 may 2027 party", "2027-05-17", used: 3),
    c("dp-used-08", "eom report", "2026-06-30", used: 1),
    c("dp-used-09", "the 17th rent", "2026-06-17", used: 2),
    c("dp-used-10", "may 17, dentist", "2027-05-17", used: 2),

    // MARK: misspellings: E0203 with a did-you-mean
    c("dp-typo-01", "tommorow", "E0203", help: "tomorrow"),
    c("dp-typo-02", "nxt fri", "E0203", help: "next"),
    c("dp-typo-03", "tomorow", "E0203", help: "tomorrow"),
    c("dp-typo-04", "fridya", "E0203", help: "friday"),
    c("dp-typo-05", "yesterdy", "E0203", help: "yesterday"),
    c("dp-typo-06", "wednesdy", "E0203", help: "wednesday"),
    c("dp-typo-07", "xyzzy", "E0203"),

    // MARK: dates and times that do not exist: E0205, never a silent roll-over
    c("dp-imp-01", "feb 30", "E0205"),
    c("dp-imp-02", "2026-02-30", "E0205"),
    c("dp-imp-03", "25:00", "E0205"),
    c("dp-imp-04", "13pm", "E0205"),
    c("dp-imp-05", "apr 31", "E0205"),
    c("dp-imp-06", "31 apr", "E0205"),
    c("dp-imp-07", "2026-13-01", "E0205"),
    c("dp-imp-08", "12:60", "E0205"),
    c("dp-imp-09", "feb 30 2028", "E0205"),
    c("dp-imp-11", "the 32nd", "E0205"),
]

final class DatePhraseTests: XCTestCase {

    /// The context a case resolves in; today is the settings' day at now (R-DAY-2).
    private func context(_ c: PhraseCase) throws -> DateContext {
        let now = try XCTUnwrap(CivilDateTime(iso: c.now), "\(c.id): bad fixture now \(c.now)")
        let zone = try XCTUnwrap(Zone(identifier: c.zone), "\(c.id): unknown zone \(c.zone)")
        var settings = Settings()
        for (key, value) in c.settings {
            let ok = settings.set(key, to: value)
            XCTAssertTrue(ok, "\(c.id): setting \(key) \(value) refused")
        }
        return DateContext(now: now, today: settings.day.today(at: now), settings: settings, zone: zone)
    }

    private func words(_ phrase: String) -> [String] {
        phrase.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    private func text(_ due: Due) -> String {
        due.date.iso + (due.time.map { " " + $0.iso } ?? "")
    }

    /// What a case resolves to, as the table writes it (`used` kept apart).
    private func outcome(_ c: PhraseCase) throws -> (String, used: Int?, help: String?) {
        let ctx = try context(c)
        switch DatePhrase.resolve(words(c.phrase), in: ctx) {
        case .success(let (r, used)):
            return (text(r.due), used, nil)
        case .failure(let e):
            return (e.impossible ? "E0205" : "E0203", nil, e.help)
        }
    }

    func testTableHasEnoughCasesWithUniqueIds() {
        XCTAssertGreaterThanOrEqual(phraseCases.count, 150)
        var seen = Set<String>()
        for c in phraseCases {
            XCTAssertTrue(seen.insert(c.id).inserted, "duplicate case id \(c.id)")
        }
    }

    func testPhraseTable() throws {
        for c in phraseCases {
            let (got, used, help) = try outcome(c)
            let label = "\(c.id): '\(c.phrase)' at \(c.now) \(c.zone)\(c.settings.isEmpty ? "" : " \(c.settings)")"
            switch c.want {
            case "ERR":
                XCTAssertTrue(got == "E0203" || got == "E0205", "\(label): want a refusal, got \(got)")
            case "E0203", "E0205":
                XCTAssertEqual(got, c.want, "\(label)")
                if let h = c.help, got == c.want {
                    XCTAssertTrue((help ?? "").contains(h), "\(label): help '\(help ?? "nil")' should mention '\(h)'")
                }
            default:
                XCTAssertEqual(got, c.want, "\(label)")
                if got == c.want {
                    let want = c.used ?? words(c.phrase).count
                    XCTAssertEqual(used, want, "\(label): words used")
                }
            }
        }
    }

    /// R-DAY-3: a phrase without a time never gets one.
    func testDatesWithoutTimeStayAllDay() throws {
        let dateOnly = ["today", "tomorrow", "fri", "next week", "eom", "in 3 days", "may 17", "the 17th", "5/17",
                        "28.11.", "2027-05-17", "this weekend"]
        for (k, p) in dateOnly.enumerated() {
            let pc = c("dp-allday-\(k + 1)", p, "")
            let ctx = try context(pc)
            guard case .success(let (r, _)) = DatePhrase.resolve(words(p), in: ctx) else {
                XCTFail("\(pc.id): '\(p)' should resolve"); continue
            }
            XCTAssertNil(r.due.time, "\(pc.id): '\(p)' must stay all-day")
        }
    }

    /// R-CAP-3: the same phrase at the same now, zone and settings always gives the same result.
    func testResolvingTheTableTwiceGivesTheSameResults() throws {
        var first: [String: String] = [:]
        for c in phraseCases {
            let (got, used, help) = try outcome(c)
            first[c.id] = "\(got)|\(used.map(String.init) ?? "-")|\(help ?? "-")"
        }
        for c in phraseCases.reversed() {
            let (got, used, help) = try outcome(c)
            XCTAssertEqual("\(got)|\(used.map(String.init) ?? "-")|\(help ?? "-")", first[c.id], "\(c.id): not deterministic")
        }
    }
}
