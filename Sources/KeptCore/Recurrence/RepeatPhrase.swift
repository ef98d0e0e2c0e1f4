// Where an `every …` phrase of a capture line ends, by the words repeat rules are made of. The
// rule model reads the phrase itself; capture only needs its extent and its words.

/// Finds the extent of repeat phrases.
public enum RepeatPhrase {
    /// The words that may follow `every`, in the order completion offers them (`every mo` →
    /// `every monday`, so weekdays come before `month`).
    public static let vocabulary: [String] = [
        "day", "days", "weekday", "weekdays", "weekend", "weekends",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
        "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
        "week", "weeks", "month", "months", "year", "years", "other",
        "and", "on", "the", "last", "first", "second", "third", "fourth", "of",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "at", "from", "until", "for", "times", "time", "after", "completion",
    ]

    /// The words that say how often: a phrase needs one of them.
    static let frequencyWords: Set<String> = [
        "day", "days", "weekday", "weekdays", "weekend", "weekends", "week", "weeks", "month", "months", "year", "years",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
        "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
    ]

    static let known: Set<String> = Set(vocabulary)

    /// How many of `words` (the first being `every`) the phrase takes, or nil when they do not
    /// make a repeat (`every book` is title text).
    public static func extent(_ words: [String]) -> Int? {
        guard words.count >= 2, words[0].lowercased() == "every" else { return nil }
        var k = 1
        var sawFrequency = false
        var lastGood = 0
        while k < words.count {
            var w = words[k].lowercased()
            if w.hasSuffix(","), w.count > 1 { w.removeLast() }
            if frequencyWords.contains(w) { sawFrequency = true }
            if known.contains(w) {
                // `at`, `from`, `until` take a time or date; `for` takes `N times`.
                if w == "at" || w == "from" || w == "until" {
                    let rest = Array(words[(k + 1)...])
                    let classes = DatePhrase.classify(Array(rest.prefix(6)))
                    guard case .success(let (_, used)) = DatePhraseParser.parse(classes), used > 0 else { break }
                    k += 1 + used
                    if sawFrequency { lastGood = k }
                    continue
                }
                k += 1
                if sawFrequency, !["and", "on", "the", "of", "at", "from", "until", "for", "after", "last", "first", "second", "third", "fourth"].contains(w) {
                    lastGood = k
                }
                continue
            }
            let c = DatePhrase.classify([w]).first
            switch c {
            case .number?, .ordinal?:
                k += 1
                if sawFrequency { lastGood = k }
                continue
            default:
                break
            }
            break
        }
        guard sawFrequency, lastGood >= 2 else { return nil }
        return lastGood
    }

    /// The words of a phrase as a rule reads: `every month on the 31st` → `Every month on the 31st`.
    public static func text(_ words: [String]) -> String {
        let joined = words.joined(separator: " ")
        guard let f = joined.first else { return joined }
        return f.uppercased() + joined.dropFirst()
    }
}
