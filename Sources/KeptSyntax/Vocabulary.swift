// The words a front end can offer while the user types (Tab completion in the REPL), all
// derived from the lists the parsers use: the one keyword list, the filter fields, the task
// fields, the settings, the date words and the repeat words.

import KeptRules

/// The language's vocabulary, for completion.
public enum Vocabulary {
    /// The words that start a statement, in `help` order.
    public static var commands: [String] { Keyword.commands.map(\.rawValue) }

    /// The subcommands of a command (`project add`), or none.
    public static func subcommands(of command: String) -> [String] {
        Keyword(rawValue: command.lowercased())?.subcommands ?? []
    }

    /// Filter fields (`priority`, `due`, …); a filter writes them before `:` or a comparison.
    public static var filterFields: [String] { FilterParser.fields }

    /// The fields a filter reads with `:` (`project:Home`, `status:waiting`).
    public static var colonFields: [String] { FilterParser.colonFields }

    /// The fields a filter reads with a comparison (`due < fri`, `title ~ /x/`).
    public static var comparedFields: [String] { FilterParser.comparedFields }

    /// Filter words that stand alone (`overdue`, `open`, …) and the views of `list`.
    public static var filterWords: [String] {
        FilterParser.predicates + ["no", "has", "is", "search", "and", "or", "not", "where", "order", "by", "limit", "group"]
            + ListView.allCases.map(\.rawValue).filter { !$0.contains(" ") }
    }

    /// The words after `has`, `is` or `no` that make a filter term (`has subtasks`, `no reminder`),
    /// from the one list of predicates the parser reads.
    public static func predicateNouns(after word: String) -> [String] {
        let w = word.lowercased()
        var out: [String] = []
        for p in FilterPredicate.allCases {
            for sp in p.spellings {
                let parts = sp.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                // `no …` negates a `has …` term, and `no due` is its own.
                if parts[0] == w || (w == "no" && parts[0] == "has" && p != .hasDue && p != .hasTime) || (w == "no" && sp == "no due") {
                    if !out.contains(parts[1]) { out.append(parts[1]) }
                }
            }
        }
        return out
    }

    /// The words that compare a date field with a date (`created > -7d`, `due before fri`).
    public static let dateComparisons = ["<", "<=", ">", ">=", "=", "before", "after"]

    /// The date fields a filter compares (`due`, `created`, `modified`, `completed`, `deleted`).
    public static var dateFields: [String] { DateField.allCases.map(\.rawValue) }

    /// The fields `show ID FIELD` and `set ID FIELD VALUE` name.
    public static var taskFields: [String] { TaskField.allCases.map(\.rawValue) }

    /// The fields `set ID FIELD VALUE` changes (a shown field like `id` or `created` is not one).
    public static var settableFields: [String] { TaskField.allCases.filter(\.isSettable).map(\.rawValue) }

    /// The settings `set KEY VALUE` takes.
    public static var settings: [String] { Settings.specs.map(\.key) }

    /// Date words (`today`, `tomorrow`, weekdays, months, `eow`, …), spelled out.
    public static var dateWords: [String] { DateVocabulary.spelled }

    /// The words of repeat rules (`every monday`).
    public static var repeatWords: [String] { RepeatPhrase.vocabulary }

    /// The due groups `move ID to GROUP` takes.
    public static let dueGroups = ["today", "tomorrow", "this", "later", "no"]
}
