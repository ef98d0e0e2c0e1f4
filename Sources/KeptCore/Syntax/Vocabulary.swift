// The words a front end can offer while the user types (Tab completion in the REPL), all
// derived from the lists the parsers use: the one keyword list, the filter fields, the task
// fields, the settings, the date words and the repeat words.

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

    /// Filter words that stand alone (`overdue`, `open`, …) and the views of `list`.
    public static var filterWords: [String] {
        FilterParser.predicates + ["no", "has", "search", "and", "or", "not", "where", "order", "by", "limit", "group"]
            + ListView.allCases.map(\.rawValue).filter { !$0.contains(" ") }
    }

    /// The fields `show ID FIELD` and `set ID FIELD VALUE` name.
    public static var taskFields: [String] { TaskField.allCases.map(\.rawValue) }

    /// The settings `set KEY VALUE` takes.
    public static var settings: [String] { Settings.specs.map(\.key) }

    /// Date words (`today`, `tomorrow`, weekdays, months, `eow`, …), spelled out.
    public static var dateWords: [String] { DateVocabulary.spelled }

    /// The words of repeat rules (`every monday`).
    public static var repeatWords: [String] { RepeatPhrase.vocabulary }

    /// The due groups `move ID to GROUP` takes.
    public static let dueGroups = ["today", "tomorrow", "this", "later", "no"]
}
