// How a session prints its results; a transcript names it in `@format`.

import KeptRules

/// How results are printed.
public enum OutputFormat: String, Sendable {
    case text, json
}
