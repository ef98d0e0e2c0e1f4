// Words that look like filter operators but are not (`updated today`, `has kids`, `overdeu`):
// they are searched for as words, as every bare word is, and the parser warns with the
// nearest operator, so a saved filter never quietly means something else (docs/FILTERS.md).

import KeptRules

/// The nearest operator of a word a filter searches for.
package enum FilterLookAlike {
    /// What to suggest; `takesNext` when the suggestion covers the next word too (`modified @today`
    /// for `updated today`).
    package struct Hint {
        package var text: String
        package var takesNext: Bool
    }

    /// Other words for a filter's operators, to the operator.
    package static let synonyms: [String: String] = [
        "updated": "modified", "changed": "modified", "edited": "modified", "touched": "modified",
        "finished": "done", "closed": "done", "complete": "done", "completed": "done",
        "removed": "deleted", "trashed": "deleted",
        "subtask": "has subtasks", "subtasks": "has subtasks", "children": "has subtasks", "child": "is subtask",
        "reminder": "has reminder", "reminders": "has reminder", "reminded": "has reminder",
        "estimated": "has estimate", "blocker": "blocking", "blockers": "blocking", "waiting": "status:waiting",
        "late": "overdue", "recurring": "repeating", "repeats": "repeating", "recurrent": "repeating",
        "today": "@today", "tomorrow": "@tomorrow", "yesterday": "@yesterday", "pending": "open", "due": "has due",
    ]

    /// The words that start a day a date field can be given with `@` (`modified @today`).
    package static let dayWords: Set<String> = ["today", "tomorrow", "yesterday", "mon", "tue", "wed", "thu", "fri", "sat", "sun",
                                        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// The operator a bare word looks like, if any; `next` is the word after it.
    package static func nearest(_ word: String, next: String?) -> Hint? {
        let fieldish: String?
        if let s = synonyms[word] {
            fieldish = s
        } else if ["created", "modified", "deleted"].contains(word) {
            fieldish = word
        } else {
            fieldish = nil
        }
        if let f = fieldish {
            if f == "done", next == "today" { return Hint(text: "done today", takesNext: true) }
            let field = f == "done" ? "completed" : f
            if DateField(rawValue: field) != nil, let n = next, dayWords.contains(n) { return Hint(text: "\(field) @\(n)", takesNext: true) }
            if DateField(rawValue: f) != nil { return Hint(text: "\(f) @today", takesNext: false) }
            return Hint(text: f, takesNext: false)
        }
        // A misspelt operator: one edit from a word five letters or longer.
        guard word.utf8.count >= 5 else { return nil }
        let operators = FilterParser.predicates + FilterParser.fields + ["search"]
        for o in operators where o.utf8.count >= 5 && Suggestion.distance(word, o) == 1 { return Hint(text: o, takesNext: false) }
        return nil
    }

    /// The `has …` or `is …` term nearest to two words that are none.
    package static func nearestPhrase(_ words: String) -> String? {
        let spellings = FilterPredicate.allCases.flatMap(\.spellings)
        var best: (String, Int)? = nil
        for s in spellings where s.hasPrefix(String(words.prefix(3))) {
            let d = Suggestion.distance(words, s)
            if d <= 2, d < (best?.1 ?? Int.max) { best = (s, d) }
        }
        return best?.0
    }
}
