// Search text folded for matching: case and accents do not matter (R-FIL-3), so "Café" is
// found by "cafe". Folding is Foundation's, done once per task and query, not per word.

import Foundation

/// Folds text for search.
public enum SearchText {
    /// Lowercase without accents.
    public static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The folded words of a query, split on spaces.
    public static func words(_ s: String) -> [String] {
        fold(s).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }

    /// Everything a search looks at in a task: title, description, steps and comments.
    public static func haystack(_ t: Task) -> String {
        var parts = [t.title]
        if let d = t.description { parts.append(d) }
        for s in t.steps { parts.append(s.title) }
        for c in t.comments {
            if case .string(let s) = c { parts.append(s) } else if case .string(let s)? = c["text"] { parts.append(s) }
        }
        return fold(parts.joined(separator: "\n"))
    }
}
