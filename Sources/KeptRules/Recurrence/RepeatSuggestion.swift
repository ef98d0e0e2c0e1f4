// The nearest repeat Kept reads, for `every …` words that are none (R-CAP-9), and whether such
// words meant a repeat at all: `every last friday` did (it is an error with a did-you-mean),
// `every book` did not (it is title text). Only rules that parse whole are suggested.

extension RepeatRule {
    /// The words a repeat is made of right after `every` (or after an amount): a weekday, a
    /// period, a clock unit, and the near words people write for them.
    package static let periodWords: Set<String> = [
        "day", "days", "week", "weeks", "month", "months", "year", "years", "quarter", "quarters",
        "weekday", "weekdays", "weekend", "weekends", "fortnight", "fortnights", "workday", "workdays",
        "hour", "hours", "hr", "hrs", "minute", "minutes", "min", "mins",
    ]

    /// Spelled ordinals (`every last friday`, `every second tuesday`).
    package static let ordinalWords: [String: Int] = ["first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "last": -1]

    /// The spelled words a misspelling after `every` is compared with.
    package static let spelledRepeatWords: [String] = Weekday.allCases.map { $0.name.lowercased() }
        + ["weekday", "weekdays", "weekend", "weekends", "week", "weeks", "month", "months", "year", "years", "quarter", "fortnight"]

    /// The weekday a word names, singular or plural (`fri`, `fridays`).
    package static func weekday(_ word: String) -> Weekday? {
        if case .weekday(let d)? = DatePhrase.classify([word]).first { return d }
        if word.count > 3, word.hasSuffix("s"), case .weekday(let d)? = DatePhrase.classify([String(word.dropLast())]).first { return d }
        return nil
    }

    /// A word that says a repeat on its own: a weekday or a period, or a close misspelling
    /// of one (five letters or more, one edit: `mondya`, `weeek`).
    package static func saysRepeat(_ word: String) -> Bool {
        if periodWords.contains(word) || weekday(word) != nil { return true }
        guard word.utf8.count >= 5 else { return false }
        return spelledRepeatWords.contains { Suggestion.distance(word, $0) == 1 }
    }

    /// The amount or ordinal of a word: `3`, `3rd`, `third`, `last` (-1), `other` (2).
    package static func amount(_ word: String) -> (n: Int, ordinal: Bool)? {
        if word == "other" { return (2, false) }
        if let k = ordinalWords[word] { return (k, true) }
        switch DatePhrase.classify([word]).first {
        case .number(let n, _)?: return (n, false)
        case .ordinal(let n)?: return (n, true)
        case .tooLarge?: return (Int.max, false)
        default: return nil
        }
    }

    /// Whether `every` and the words after it were meant as a repeat (R-CAP-9): a word that says
    /// a repeat, or an amount or ordinal before one (`every 3rd weekday`, `every other friday`),
    /// or a numeric ordinal alone (`every 15th`). `every book`, `every other plant` and
    /// `every 5000 meters` were not.
    public static func meantAsRepeat(words: [String]) -> Bool {
        let w = words.map { $0.lowercased().trimmingSuffix(",") }
        guard w.count >= 2, w[0] == "every" else { return false }
        if saysRepeat(w[1]) { return true }
        guard let a = amount(w[1]) else { return false }
        if w.count >= 3 { return saysRepeat(w[2]) }
        return a.ordinal && ordinalWords[w[1]] == nil
    }

    /// The nearest rules Kept reads for words that start with `every` and are none, each
    /// written whole (`every month on the last friday`). Two when the words could mean either
    /// (`every 2nd friday`: every other week, or the month's second).
    public static func nearest(words: [String]) -> [String] {
        let w = words.map { $0.lowercased().trimmingSuffix(",") }
        guard w.count >= 2, w[0] == "every" else { return [] }
        func ok(_ s: String) -> Bool {
            if case .success(let (_, used)) = RepeatRule.parse(s), used == s.split(separator: " ").count { return true }
            return false
        }
        func first(_ c: [String]) -> [String] { c.filter(ok) }
        let b = w.count > 2 ? w[2] : ""
        let c = w.count > 3 ? w[3] : ""
        if let (n, ordinal) = amount(w[1]) {
            let nth = n == -1 ? "last" : DatePhrase.ordinal(n)
            if let d = weekday(b) {
                let day = d.name.lowercased()
                if n == -1 || n == 1, ordinal { return first(["every month on the \(nth) \(day)"]) }
                if !ordinal { return first(["every \(n) weeks on \(day)"]) }
                return first(["every \(n) weeks on \(day)", "every month on the \(nth) \(day)"])
            }
            switch b {
            case "weekday", "workday": return first(["every month on the \(nth) weekday"])
            case "weekend" where c == "day": return first(["every month on the \(nth) weekend day"])
            case "weekdays", "workdays", "business":
                return n == -1 ? [] : first(["every month on the \(nth) weekday"])
            case "day", "days":
                if n == -1 { return first(["every month on the last day"]) }
                return first([n == 1 ? "every day" : "every \(n) days"])
            case "week", "weeks", "month", "months", "year", "years":
                let unit = b.hasSuffix("s") ? String(b.dropLast()) : b
                if n == -1 { return [] }
                return first([n == 1 ? "every \(unit)" : "every \(n) \(unit)s"])
            case "fortnight", "fortnights":
                return n == -1 ? [] : first(["every \(2 * n) weeks"])
            case "" where ordinal && n > 0:
                return first(["every month on the \(nth)"])
            default:
                break
            }
        }
        switch w[1] {
        case "workday", "workdays", "business": return ["every weekday"]
        default: break
        }
        // A misspelled word: the nearest word that makes the rest a rule.
        for k in 1..<min(w.count, 4) {
            guard RepeatRule.weekday(w[k]) == nil, !periodWords.contains(w[k]),
                  let near = Suggestion.nearest(w[k], in: spelledRepeatWords + RepeatPhrase.vocabulary) else { continue }
            var fixed = w
            fixed[k] = near
            if case .success(let (_, used)) = RepeatRule.parse(words: fixed), used > k {
                return [fixed[..<used].joined(separator: " ")]
            }
        }
        return []
    }
}

extension String {
    /// The string without one trailing `suffix` (a comma after a word).
    package func trimmingSuffix(_ suffix: String) -> String {
        count > suffix.count && hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
