// The statement tree. The parser builds it from tokens; the interpreter runs it. Values whose
// grammar belongs to another module (a capture line, a date phrase) stay as text with a range.

/// How a statement names a task: by id, or by a quoted title that must match one open task.
public enum TaskRef: Sendable, Equatable {
    case id(Int, SourceRange)
    case title(String, SourceRange)

    public var range: SourceRange {
        switch self {
        case .id(_, let r), .title(_, let r): return r
        }
    }
}

/// A piece of statement text that another module parses (a date, a value).
public struct TextArg: Sendable, Equatable {
    public var text: String
    public var range: SourceRange
    public init(text: String, range: SourceRange) {
        self.text = text
        self.range = range
    }
}

/// A filter's tokens, parsed when the statement runs (a filter's windows and projects depend
/// on the session's now and store).
public struct FilterSource: Sendable {
    public var tokens: [Token]
    public var start: Int
    public var range: SourceRange
}

/// What a statement does.
public enum StatementKind: Sendable {
    case now(TextArg?)
    case zone(TextArg?)
    /// `set` alone lists the settings; `set KEY VALUE` changes one.
    case setting(key: TextArg?, value: TextArg?)
    case setField(TaskRef, field: TextArg, value: TextArg)
    case add(TextArg)
    case capture(TextArg)
    case parse(TextArg)
    case date(TextArg)
    case explainDate(TextArg)
    case repeatPreview(TextArg)
    case rrule(TextArg)
    case show(TaskRef, field: TextArg?)
    case list(FilterSource?)
    case filterDefine(TextArg, FilterSource)
    case filterStar(TextArg, Bool)
    case filterDelete(TextArg)
    case filterRename(TextArg, TextArg)
    case filterMove(TextArg, Int)
    case filters
    case explainFilter(FilterSource)
    case areas
    case count(FilterSource?)
    case complete(TaskRef)
    case reopen(TaskRef)
    case delete(TaskRef)
    case undo(count: Int)
    case redo(count: Int)
    case projectAdd(TextArg)
    case help(TextArg?)
}

/// One parsed statement with its source.
public struct Statement: Sendable {
    public var kind: StatementKind
    public var keyword: Keyword
    /// The whole statement's range.
    public var range: SourceRange
    /// The range of its first word, where errors about the command point.
    public var keywordRange: SourceRange
    public var source: StatementSource
}
