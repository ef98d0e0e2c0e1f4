// The words repeat rules are made of, in the order completion offers them (R-CAP-2).

/// The vocabulary of `every …` phrases.
public enum RepeatPhrase {
    /// The words that may follow `every`, in the order completion offers them (`every mo` →
    /// `every monday`, so weekdays come before `month`).
    public static let vocabulary: [String] = [
        "day", "days", "weekday", "weekdays", "weekend", "weekends",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
        "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun",
        "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays",
        "week", "weeks", "fortnight", "month", "months", "year", "years", "other",
        "and", "on", "the", "last", "first", "second", "third", "fourth", "of",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
        "at", "from", "until", "for", "times", "time", "after", "completion",
    ]
}
