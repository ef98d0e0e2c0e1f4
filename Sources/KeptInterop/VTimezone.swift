// The VTIMEZONE of a zone (RFC 5545 section 3.6.5), so that an exported calendar's TZID times
// read the same in a reader that does not know the zone by name: the zone's yearly rules as
// they stand in a given year, each a STANDARD or DAYLIGHT observance with its RRULE, from 1970.

import KeptRules
import KeptDomain
import KeptFiles

import Foundation

package enum VTimezone {
    package static func lines(_ zone: Zone, year: Int) -> [ContentLine] {
        let tz = zone.timeZone
        var out = [ContentLine("BEGIN", "VTIMEZONE"), ContentLine("TZID", zone.identifier)]
        guard let start = CivilDate(year: year, month: 1, day: 1), let end = CivilDate(year: year + 1, month: 1, day: 1) else { return out }
        let from = Zone.utc.instant(for: CivilDateTime(date: start, time: .midnight)).date
        let until = Zone.utc.instant(for: CivilDateTime(date: end, time: .midnight)).date
        var transitions: [Date] = []
        var t = from
        while let n = tz.nextDaylightSavingTimeTransition(after: t), n < until, transitions.count < 4 {
            transitions.append(n)
            t = n
        }
        if transitions.isEmpty {
            let off = tz.secondsFromGMT(for: from)
            out += [ContentLine("BEGIN", "STANDARD"), ContentLine("DTSTART", "19700101T000000"),
                    ContentLine("TZOFFSETFROM", offset(off)), ContentLine("TZOFFSETTO", offset(off))]
            if let a = tz.abbreviation(for: from) { out.append(ContentLine("TZNAME", a)) }
            out.append(ContentLine("END", "STANDARD"))
        } else {
            for tr in transitions {
                let before = tz.secondsFromGMT(for: tr.addingTimeInterval(-1))
                let after = tz.secondsFromGMT(for: tr)
                let wall = Zone.utc.local(at: Instant(tr).adding(seconds: Int64(before)))
                let d = wall.date
                let last = d.day + 7 > CivilDate.daysInMonth(year: d.year, month: d.month)
                let nth = last ? -1 : (d.day - 1) / 7 + 1
                let code = RepeatRule.codes[d.weekday] ?? "SU"
                // The same rule's day in 1970.
                var day1970 = CivilDate(year: 1970, month: d.month, day: 1) ?? d
                if last { day1970 = day1970.lastOfMonth }
                while day1970.weekday != d.weekday { day1970 = day1970.adding(days: last ? -1 : 1) }
                if !last { day1970 = day1970.adding(days: 7 * (nth - 1)) }
                let kind = tz.isDaylightSavingTime(for: tr) ? "DAYLIGHT" : "STANDARD"
                out += [ContentLine("BEGIN", kind), ContentLine("DTSTART", InteropValues.compactWall(day1970, wall.time)),
                        ContentLine("RRULE", "FREQ=YEARLY;BYMONTH=\(d.month);BYDAY=\(nth)\(code)"),
                        ContentLine("TZOFFSETFROM", offset(before)), ContentLine("TZOFFSETTO", offset(after))]
                if let a = tz.abbreviation(for: tr) { out.append(ContentLine("TZNAME", a)) }
                out.append(ContentLine("END", kind))
            }
        }
        out.append(ContentLine("END", "VTIMEZONE"))
        return out
    }

    /// `+0200`, `-0500`.
    package static func offset(_ seconds: Int) -> String {
        let a = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + InteropValues.two(a / 60) + InteropValues.two(a % 60)
    }
}
