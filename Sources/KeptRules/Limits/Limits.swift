// The named limits of Kept: how much input it reads, how deep it nests, how large a number it
// takes, how long a query's patterns may run. One table, each row with its kind; docs/LIMITS.md
// prints it with the code the catalog gives each kind, and a test holds the two alike. The
// values live here and the code reads them here.

/// One limit: which it is, its name, and its value in words.
public struct Limit: Sendable {
    /// Which limit: the catalog gives each the code of the error past it.
    public enum Kind: Sendable, CaseIterable {
        case statementSize, scriptSize, statementTokens, numbers, filterNesting, years, regexSteps, regexTime
        case taskIDs, storeSize, importSize, storeNesting, repeatPreview, repeatInterval, readNesting
    }

    public let kind: Kind
    /// The name docs/LIMITS.md uses (`statement size`).
    public let name: String
    /// The value as the documentation writes it (`1 MiB (1,048,576 bytes)`).
    public let value: String
    /// What the limit bounds and what happens past it.
    public let meaning: String
}

/// Kept's limits.
public enum Limits {
    /// The bytes of one statement (a line with its continuations, a `-e` argument, a REPL line).
    public static let statementBytes = 1 << 20
    /// The bytes of a script file or of standard input read as one.
    public static let scriptBytes = 64 << 20
    /// The tokens of one statement.
    public static let statementTokens = 200_000
    /// The largest whole number a date phrase, a duration, an estimate or a repeat takes.
    public static let largestNumber = 999_999_999
    /// How deep a filter nests: parentheses, `not`, a glued `-` and saved filters, together.
    public static let filterDepth = 100
    /// The bytes of a store file.
    public static let storeBytes = 1 << 30
    /// The bytes of an import source: a file, a pipe or standard input (twice a store's, so
    /// the file of any store Kept can hold fits).
    public static let importBytes = 2 << 30
    /// How deep the arrays and objects of a store file nest.
    public static let jsonDepth = 512
    /// The largest task id (2^53 - 1, exact in every JSON reader); `nextId` may be one more.
    public static let largestID = 9_007_199_254_740_991
    /// PCRE2's match limit for one subject (its internal steps), and its depth limit.
    public static let regexSteps = 1_000_000
    public static let regexDepth = 10_000
    /// The time all regular expression matching of one query may take, across its threads.
    public static let regexQueryMilliseconds = 1_000
    /// The dates `repeat … next N` shows, and the interval of a repeat rule.
    public static let repeatPreviewDates = 1_000
    public static let repeatInterval = 1_000
    /// The years of the calendar.
    public static let firstYear = 1
    public static let lastYear = 9_999
    /// How deep `.read` scripts nest in the REPL.
    public static let readNesting = 16

    /// Every limit, in the order docs/LIMITS.md lists them.
    public static let table: [Limit] = [
        Limit(kind: .statementSize, name: "statement size", value: "1 MiB (1,048,576 bytes)",
              meaning: "one statement: a script line with its continuations, a -e argument, a REPL line, a saved filter"),
        Limit(kind: .scriptSize, name: "script size", value: "64 MiB (67,108,864 bytes)",
              meaning: "a script file, a transcript, or standard input read by kept run; nothing of it runs"),
        Limit(kind: .statementTokens, name: "tokens per statement", value: "200,000",
              meaning: "words, numbers, strings and punctuation of one statement"),
        Limit(kind: .numbers, name: "numbers", value: "0 to 999,999,999",
              meaning: "every whole number of a date phrase, a duration, an estimate, a window or a repeat; longer digits are refused, never wrapped"),
        Limit(kind: .filterNesting, name: "filter nesting", value: "100 levels",
              meaning: "parentheses, not, a glued - and saved filters used by saved filters, counted together"),
        Limit(kind: .years, name: "years", value: "0001 to 9999",
              meaning: "every date a phrase, a window, a comparison or a repeat lands on; a date past either end is refused, never clamped"),
        Limit(kind: .regexSteps, name: "regex steps", value: "1,000,000 steps and depth 10,000 for one subject",
              meaning: "PCRE2's match and depth limits; a subject that reaches one fails the query, it is not counted as no match"),
        Limit(kind: .regexTime, name: "regex time", value: "1,000 ms per query",
              meaning: "all matching of one list, count, explain, plan or where, across its threads; past it the query fails"),
        Limit(kind: .taskIDs, name: "task ids", value: "1 to 9,007,199,254,740,991 (2^53 - 1)",
              meaning: "ids and nextId (one more at most) stay exact in any JSON reader; an add past the last id is refused"),
        Limit(kind: .storeSize, name: "store size", value: "1 GiB (1,073,741,824 bytes)",
              meaning: "a store file; a larger file, a device or anything but a regular file or a pipe is refused unread"),
        Limit(kind: .importSize, name: "import size", value: "2 GiB (2,147,483,648 bytes)",
              meaning: "a file or standard input an import reads; a larger file, a device (a terminal aside) or a folder is refused unread, a pipe once past the limit, and nothing is imported"),
        Limit(kind: .storeNesting, name: "store nesting", value: "512 levels",
              meaning: "arrays and objects inside one another in a store file"),
        Limit(kind: .repeatPreview, name: "repeat preview", value: "1 to 1,000 dates",
              meaning: "repeat … next N"),
        Limit(kind: .repeatInterval, name: "repeat interval", value: "1 to 1,000",
              meaning: "every N days, weeks, months or years; INTERVAL of an RRULE"),
        Limit(kind: .readNesting, name: ".read nesting", value: "16 scripts",
              meaning: "scripts read with .read from scripts read with .read, in the REPL"),
    ]

    /// The whole number spelled by ASCII digits, or nil when a byte is not a digit or the
    /// number is past `largestNumber` (however many digits it has: nothing wraps).
    public static func number<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int? {
        guard !digits.isEmpty else { return nil }
        var n = 0
        for b in digits {
            guard b >= 0x30, b <= 0x39 else { return nil }
            n = n * 10 + Int(b - 0x30)
            if n > largestNumber { return nil }
        }
        return n
    }

    /// A number with its thousands grouped, as messages write limits: 1,048,576.
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var out = ""
        for (k, c) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }

    /// True when a word is made of ASCII digits only (a number, however large).
    public static func isDigits(_ s: some StringProtocol) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
