// Taskwarrior's `recur` periods and Kept's repeats (docs/INTEROP.md, "Taskwarrior"): a period
// Taskwarrior can say is a rule in words, and a rule with only a frequency and an interval
// (and the anchor's own day) is a period. Any other rule goes out in the `rrule` attribute
// alone, which Kept reads back exactly.

import KeptRules
import KeptDomain
import KeptFiles

package enum TaskwarriorRecur {
    /// The words of a Taskwarrior period (`weekly`, `3d`, `2mo`, `P1W`); nil for one Kept has no
    /// rule for.
    package static func words(_ recur: String) -> String? {
        var s = recur.lowercased().trimmedSpaces
        switch s {
        case "daily", "day": return "every day"
        case "weekly", "week": return "every week"
        case "weekdays": return "every weekday"
        case "biweekly", "fortnight", "fortnightly": return "every 2 weeks"
        case "monthly", "month": return "every month"
        case "bimonthly": return "every 2 months"
        case "quarterly", "quarter": return "every quarter"
        case "semiannual": return "every 6 months"
        case "yearly", "annual", "year", "annually": return "every year"
        case "biannual", "biyearly": return "every 2 years"
        default: break
        }
        if s.hasPrefix("p") { s.removeFirst() }
        let digits = s.prefix { $0.isASCII && $0.isNumber }
        let unit = s.dropFirst(digits.count)
        guard let n = digits.isEmpty ? 1 : Int(digits), n >= 1, n <= 1000 else { return nil }
        let word: String
        switch unit {
        case "d", "day", "days": word = "day"
        case "w", "wk", "wks", "week", "weeks": word = "week"
        case "mo", "mos", "mth", "mths", "month", "months", "m": word = "month"
        case "q", "qtr", "qtrs", "quarter", "quarters": return n == 1 ? "every quarter" : "every \(3 * n) months"
        case "y", "yr", "yrs", "year", "years": word = "year"
        default: return nil
        }
        return n == 1 ? "every \(word)" : "every \(n) \(word)s"
    }

    /// The Taskwarrior period of a repeat, when one says it exactly; nil otherwise.
    package static func period(_ spec: RepeatSpec, due: Due?) -> String? {
        guard let rr = spec.rrule, spec.exceptions.isEmpty, spec.additions.isEmpty, let due,
              spec.rule?.afterCompletion != true else { return nil }
        var parts: [String: String] = [:]
        for p in rr.split(separator: ";") {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { return nil }
            parts[kv[0]] = kv[1]
        }
        let n = parts["INTERVAL"].flatMap { Int($0) } ?? 1
        let allowed: Set<String> = ["FREQ", "INTERVAL", "BYDAY", "BYMONTHDAY", "BYMONTH", "WKST"]
        guard Set(parts.keys).isSubset(of: allowed), n >= 1 else { return nil }
        let day = RepeatRule.codes[due.date.weekday]
        switch parts["FREQ"] {
        case "DAILY":
            guard parts.count == 1 + (parts["INTERVAL"] == nil ? 0 : 1) else { return nil }
            return n == 1 ? "daily" : "\(n)d"
        case "WEEKLY":
            guard parts["BYMONTHDAY"] == nil, parts["BYMONTH"] == nil else { return nil }
            if parts["BYDAY"] == "MO,TU,WE,TH,FR", n == 1 { return "weekdays" }
            guard parts["BYDAY"] == nil || parts["BYDAY"] == day else { return nil }
            return n == 1 ? "weekly" : "\(n)w"
        case "MONTHLY":
            guard parts["BYDAY"] == nil, parts["BYMONTH"] == nil, due.date.day <= 28,
                  parts["BYMONTHDAY"] == nil || parts["BYMONTHDAY"] == String(due.date.day) else { return nil }
            return n == 1 ? "monthly" : n == 3 ? "quarterly" : "\(n)mo"
        case "YEARLY":
            guard parts["BYDAY"] == nil, !(due.date.month == 2 && due.date.day == 29),
                  parts["BYMONTH"] == nil || parts["BYMONTH"] == String(due.date.month),
                  parts["BYMONTHDAY"] == nil || parts["BYMONTHDAY"] == String(due.date.day) else { return nil }
            return n == 1 ? "yearly" : "\(n)y"
        default:
            return nil
        }
    }
}
