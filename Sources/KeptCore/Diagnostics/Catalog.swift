// The message catalog: every diagnostic code with its one-line summary, and the functions that
// make each diagnostic. Codes: E00xx lexical, E01xx syntax, E02xx meaning, E03xx runtime, E04xx
// the plan, E05xx the front ends (the REPL's dot-commands, piped input, the test runner), E06xx other
// tools' files (import, export), W warnings.

/// A diagnostic's code, as it prints: `E00xx` lexical, `E01xx` syntax, `E02xx` meaning, `E03xx`
/// runtime, `E04xx` the plan, `E05xx` the front ends (the REPL's dot-commands, piped input, the test runner), `E06xx` other
/// tools' files (import, export), `W…` warnings. The cases and
/// their summaries below are the catalog: one row per code, in order.
public enum DiagnosticCode: String, CaseIterable, Sendable, CustomStringConvertible {
    case E0001, E0002, E0003, E0004, E0005, E0006, E0007, E0008, E0101, E0102
    case E0103, E0104, E0105, E0106, E0107, E0201, E0202, E0203, E0204, E0205
    case E0206, E0207, E0208, E0209, E0210, E0211, E0212, E0213, E0214, E0215
    case E0216, E0217, E0218, E0219, E0220, E0221, E0222, E0223, E0224, E0225
    case E0226, E0227, E0228, E0230, E0231, E0232, E0233, E0234, E0301, E0302
    case E0303, E0304, E0305, E0306, E0307, E0308, E0309, E0310, E0311, E0312
    case E0313, E0314, E0315, E0316, E0317, E0318, E0319, E0320, E0321, E0322
    case E0323, E0324, E0325, E0326, E0327, E0328, E0329, E0330, E0331, E0332
    case E0333, E0336, E0337, E0401, E0402, E0403, E0404, E0405, E0406, E0501
    case E0502, E0503, E0504, E0505, E0506, E0507, E0508, E0509, E0601, E0602
    case E0603, E0604, E0605, E0606, E0607, E0608, E0609, E0610, E0611, W0001
    case W0002

    public var description: String { rawValue }

    /// A `W` code is a warning; every other code is an error.
    public var severity: Severity { rawValue.hasPrefix("W") ? .warning : .error }

    /// The one-line summary `kept help errors` prints.
    public var summary: String {
        switch self {
        case .E0001: return "a quoted string is not closed"
        case .E0002: return "a line of a transcript is outside any command block"
        case .E0003: return "the source is not valid UTF-8"
        case .E0004: return "a statement is longer than the statement size limit"
        case .E0005: return "a script is larger than the script size limit"
        case .E0006: return "a statement has more tokens than the limit"
        case .E0007: return "a number is larger than the largest number kept reads"
        case .E0008: return "a filter nests deeper than the limit"
        case .E0101: return "unknown command"
        case .E0102: return "something expected is missing"
        case .E0103: return "unexpected words after a complete statement"
        case .E0104: return "unknown subcommand"
        case .E0105: return "unknown transcript directive"
        case .E0106: return "a parenthesis of a filter is not closed or not opened"
        case .E0107: return "'where' without a filter"
        case .E0201: return "unknown setting"
        case .E0202: return "a setting's value is not allowed"
        case .E0203: return "not a date or time this version understands"
        case .E0204: return "unknown time zone"
        case .E0205: return "a date that does not exist"
        case .E0206: return "unknown project"
        case .E0207: return "unknown field"
        case .E0208: return "a task needs a title"
        case .E0209: return "a value is not allowed for this field"
        case .E0210: return "not a repeat rule this version understands"
        case .E0211: return "a repeat rule that cannot be written as an rrule"
        case .E0212: return "a regular expression that does not compile"
        case .E0213: return "no saved filter has that name"
        case .E0214: return "saved filters refer to each other in a cycle"
        case .E0215: return "an rrule part with a value that is not allowed"
        case .E0216: return "an rrule part that the rule's frequency does not allow"
        case .E0217: return "an until that does not fit the rule"
        case .E0218: return "times of day that one repeat rule cannot hold"
        case .E0219: return "a repeat rule without any date"
        case .E0220: return "a recurrence part this version does not support"
        case .E0221: return "the task does not repeat"
        case .E0222: return "not a date of the task's repeat"
        case .E0223: return "the task's repeat has no occurrence after this one"
        case .E0224: return "a date the task's repeat already has"
        case .E0225: return "a date outside the years 1 to 9999"
        case .E0226: return "a regular expression ran past its budget"
        case .E0227: return "the store has used up its task ids"
        case .E0228: return "the store file is too large or not a file"
        case .E0230: return "a filter over deleted tasks names what deleted tasks do not keep"
        case .E0231: return "deleted tasks cannot be acted on or planned"
        case .E0232: return "a filter of a comma list is empty"
        case .E0233: return "a comma list of filters where one filter is expected"
        case .E0234: return "a time of day where a whole day is meant"
        case .E0301: return "no task with that id"
        case .E0302: return "nothing to undo"
        case .E0303: return "nothing to redo"
        case .E0304: return "a project with that name exists"
        case .E0305: return "no open task has that title"
        case .E0306: return "more than one open task has that title"
        case .E0307: return "the store could not be written"
        case .E0308: return "the store could not be read"
        case .E0309: return "a script could not be read"
        case .E0310: return "the task is not in a state this action applies to"
        case .E0311: return "no step with that number"
        case .E0312: return "a task cannot be moved into that due group"
        case .E0313: return "a task cannot be a subtask of itself or of its own subtask"
        case .E0314: return "a project with tasks needs to be told what happens to them"
        case .E0315: return "not a reminder time this version understands"
        case .E0316: return "a reminder time that has passed"
        case .E0317: return "no reminder with that number"
        case .E0318: return "a bulk delete needs confirmation"
        case .E0319: return "a status the task's project does not have"
        case .E0320: return "a project already has that status"
        case .E0321: return "a project does not have that status"
        case .E0322: return "an archived project takes no tasks"
        case .E0323: return "another process wrote the store since it was read; nothing was written"
        case .E0324: return "another writer holds the store's lock"
        case .E0325: return "the store or its folder cannot be written"
        case .E0326: return "a run with a failed statement writes nothing"
        case .E0327: return "the file is not a store this program reads, or a damaged one"
        case .E0328: return "the store was written by a newer version"
        case .E0329: return "not a date the task's repeat skips or adds"
        case .E0330: return "a date the task's repeat is already past"
        case .E0331: return "a time that does not fit the occurrences of the task's repeat"
        case .E0332: return "a part of the store is damaged: a record, its checksum or a table"
        case .E0333: return "the -wal file beside a database store does not belong to it"
        case .E0336: return "the store is a pipe or has other hard links, so a new version would not replace it"
        case .E0337: return "a transcript run by kept test may not use a path outside its folders"
        case .E0401: return "a plan limit is a whole number from 1, or all"
        case .E0402: return "the task is not in the plan"
        case .E0403: return "top 3 is full"
        case .E0404: return "the task is not a top 3 pick"
        case .E0405: return "the task is held by not today"
        case .E0406: return "the task is already a top 3 pick"
        case .E0501: return "unknown dot-command"
        case .E0502: return "a dot-command's argument is missing or not allowed"
        case .E0503: return "a file a dot-command writes could not be written"
        case .E0504: return "scripts read with '.read' nest too deeply"
        case .E0505: return "a continuation line came after its statement had run"
        case .E0506: return "a '@skip' or '@xfail' of a file or case comes after its first command"
        case .E0507: return "no command or case at that line of the script"
        case .E0508: return "no command of the scripts matches the selection"
        case .E0509: return "a test report or an updated script could not be written"
        case .E0601: return "an import file could not be read"
        case .E0602: return "the format of a file is not known"
        case .E0603: return "an import file is not well-formed json or not UTF-8"
        case .E0604: return "a field of an import record has a value that is not allowed"
        case .E0605: return "an import file is not well-formed icalendar"
        case .E0606: return "an import file is not well-formed csv"
        case .E0607: return "an import record has no title"
        case .E0608: return "a uid appears twice in one import file"
        case .E0609: return "an export file could not be written"
        case .E0610: return "an import option does not apply to the file's format"
        case .E0611: return "an export target is a device, a pipe, a folder or the open store"
        case .W0001: return "a word that looks like a filter operator is searched for as text"
        case .W0002: return "a store file changed after it was written (its checksum differs)"
        }
    }
}

/// Every diagnostic the engine can produce.
public enum Catalog {
    /// One code of the catalog with its summary.
    public struct Entry: Sendable {
        public let code: DiagnosticCode
        public let summary: String
    }

    /// All codes, in order; `kept help errors` prints this list and a test checks the ranges.
    public static var entries: [Entry] { DiagnosticCode.allCases.map { Entry(code: $0, summary: $0.summary) } }

    /// The summary of a code written as text, or nil for a code not in the catalog.
    public static func summary(of code: String) -> String? {
        DiagnosticCode(rawValue: code)?.summary
    }

    // MARK: E00xx lexical

    static func unterminatedString(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0001, message: "unterminated string", file: file, range: range,
                   label: "this quote is never closed", help: "add a closing '\"'")
    }

    public static func strayTranscriptLine(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0002, message: "line outside any command block", file: file, range: range,
                   label: "not a command, comment, directive or expected output",
                   help: "start a command with '> ' and a comment with '#'; expected output follows its command without a blank line")
    }

    public static func invalidUTF8(file: SourceFile, offset: Int) -> Diagnostic {
        Diagnostic(code: .E0003, message: "the source is not valid UTF-8", file: file,
                   range: SourceRange(start: offset, end: offset + 1), label: "this byte")
    }

    /// A statement past `Limits.statementBytes`.
    public static func statementTooLong(file: SourceFile, range: SourceRange, bytes: Int?) -> Diagnostic {
        Diagnostic(code: .E0004, message: bytes.map { "the statement is \(Limits.grouped($0)) bytes long; the limit is \(Limits.grouped(Limits.statementBytes))" }
                       ?? "a line is longer than \(Limits.grouped(Limits.statementBytes)) bytes, the statement size limit",
                   file: file, range: SourceRange(start: range.start, end: range.start + 1), label: "this statement",
                   help: "split it into several statements (docs/LIMITS.md)")
    }

    /// A script or standard input past `Limits.scriptBytes`.
    public static func scriptTooLarge(_ name: String) -> Diagnostic {
        Diagnostic(code: .E0005, message: "'\(name)' is larger than \(Limits.grouped(Limits.scriptBytes)) bytes, the script size limit",
                   notes: ["nothing of it was run"], help: "split it into several scripts (docs/LIMITS.md)")
    }

    /// A statement with more than `Limits.statementTokens` tokens.
    static func tooManyTokens(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0006, message: "the statement has more than \(Limits.grouped(Limits.statementTokens)) tokens", file: file, range: range,
                   label: "this token is past the limit", help: "split it into several statements (docs/LIMITS.md)")
    }

    /// A run of digits past `Limits.largestNumber`.
    public static func numberTooLarge(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0007, message: numberTooLargeMessage(text), file: file, range: range,
                   label: "too large", help: "numbers go from 0 to \(Limits.grouped(Limits.largestNumber)) (docs/LIMITS.md)")
    }

    public static func numberTooLargeMessage(_ text: String) -> String {
        "'\(text.count > 24 ? String(text.prefix(20)) + "…" : text)' is larger than \(Limits.grouped(Limits.largestNumber)), the largest number Kept reads"
    }

    /// A filter nested past `Limits.filterDepth`.
    static func filterTooDeep(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0008, message: "the filter nests deeper than \(Limits.filterDepth) levels", file: file, range: range,
                   label: "one level too many", help: "parentheses, 'not', '-' and saved filters inside saved filters count together (docs/LIMITS.md)")
    }

    // MARK: E01xx syntax

    public static func unknownCommand(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0101, message: "unknown command '\(t.text)'", file: file, range: t.range,
                   label: "not a command", help: Suggestion.help(t.text, in: candidates) ?? "'help' lists the commands")
    }

    public static func expected(_ what: String, after: String, at t: Token, file: SourceFile, help: String? = nil) -> Diagnostic {
        let found = t.kind == .end ? "the end of the line" : "'\(t.text)'"
        return Diagnostic(code: .E0102, message: "expected \(what) after '\(after)'", file: file,
                          range: t.kind == .end ? SourceRange.at(t.range.start) : t.range,
                          label: "found \(found)", help: help)
    }

    public static func unexpected(_ t: Token, file: SourceFile, statement: String) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(t.text)' after a complete '\(statement)' statement",
                   file: file, range: t.range, label: "not part of the statement")
    }

    public static func unknownSubcommand(_ t: Token, of command: String, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0104, message: "unknown subcommand '\(t.text)' of '\(command)'", file: file, range: t.range,
                   label: "expected one of: \(candidates.joined(separator: ", "))",
                   help: Suggestion.help(t.text, in: candidates))
    }

    public static func unknownDirective(_ d: TranscriptDirective, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0105, message: "unknown directive '@\(d.name)'", file: file, range: d.range,
                   label: "not a directive",
                   help: Suggestion.nearest(d.name, in: candidates).map { "did you mean '@\($0)'?" })
    }

    static func whereWithoutFilter(_ w: Token, file: SourceFile, command: String) -> Diagnostic {
        Diagnostic(code: .E0107, message: "'where' needs a filter", file: file, range: w.range,
                   label: "no filter after this", help: "for example: \(command) where #errand; a bulk action never runs on every task by accident")
    }

    /// Words after a complete RRULE that are not `from DATE`.
    static func unexpectedAfterRRULE(_ word: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the RRULE", file: file, range: range,
                   label: "not part of the rule", help: "an RRULE takes 'from DATE' and 'next N' after it")
    }

    /// Words after a complete repeat rule.
    static func unexpectedAfterRepeat(_ word: String, rule: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the repeat '\(rule)'", file: file, range: range, label: "not part of the rule")
    }

    /// Words after a complete date phrase that must be read whole.
    static func unexpectedAfterDate(_ word: String, date: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the date '\(date)'", file: file, range: range, label: "not part of the date")
    }

    /// A token after a complete filter.
    public static func unexpectedInFilter(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(t.text)' in the filter", file: file, range: t.range, label: "not part of the filter")
    }

    /// A token after the clauses of a list.
    static func unexpectedAfterClauses(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(t.text)' after the list's clauses", file: file, range: t.range,
                   label: "not part of the list", help: "a filter comes before order by, limit and group by")
    }

    /// `group by` something other than due.
    static func groupByDueOnly(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0104, message: "lists are grouped by due only", file: file, range: t.range, label: "expected 'due'", help: "group by due")
    }

    /// `@format` with a value that is not a format.
    static func badFormatDirective(_ value: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0105, message: "'@format' takes text or json, not '\(value)'", file: file, range: range, label: "not a format")
    }

    /// The '(' of `where (…)` is never closed.
    static func whereFilterNotClosed(_ open: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "expected ')' to close '(' of the filter", file: file, range: open, label: "this '(' is never closed")
    }

    // MARK: E02xx meaning

    public static func unknownSetting(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0201, message: "unknown setting '\(t.text)'", file: file, range: t.range,
                   label: "not a setting", help: Suggestion.help(t.text, in: candidates) ?? "'set' lists the settings")
    }

    public static func badSettingValue(_ key: String, value: String, range: SourceRange, file: SourceFile, expected: String,
                                       help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0202, message: "'\(value)' is not a value of '\(key)'", file: file, range: range,
                   label: "expected \(expected)", help: help)
    }

    public static func badDate(_ text: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0203, message: "'\(text)' is not a date or time", file: file, range: range,
                   label: "not understood", help: help)
    }

    public static func unknownZone(_ text: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0204, message: "unknown time zone '\(text)'", file: file, range: range,
                   label: "not an IANA zone name", help: help ?? "zones are named like Europe/Berlin or America/New_York")
    }

    public static func impossibleDate(_ text: String, range: SourceRange, file: SourceFile, why: String) -> Diagnostic {
        Diagnostic(code: .E0205, message: "'\(text)' is not a date that exists", file: file, range: range, label: why)
    }

    public static func unknownProject(_ name: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0206, message: "unknown project '\(name)'", file: file, range: range, label: "no such project",
                   help: Suggestion.help(name, in: candidates) ?? "create it first with 'project add \(name)'")
    }

    public static func unknownField(_ t: Token, file: SourceFile, candidates: [String], label: String = "not a task field") -> Diagnostic {
        Diagnostic(code: .E0207, message: "unknown field '\(t.text)'", file: file, range: t.range, label: label,
                   help: Suggestion.help(t.text, in: candidates))
    }

    public static func emptyTitle(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0208, message: "the task has no title", file: file, range: range,
                   label: "only dates and tokens here", help: "write a title, or escape a token with '\\' to keep it as text")
    }

    public static func badFieldValue(_ field: String, value: String, range: SourceRange, file: SourceFile,
                                     expected: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'\(value)' is not a value of '\(field)'", file: file, range: range,
                   label: "expected \(expected)", help: help)
    }

    /// Words that are not a whole date phrase where one is needed.
    static func wholeDate(_ e: DatePhraseError, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: e.impossible ? .E0205 : .E0203, message: e.message, file: file, range: range,
                   label: e.impossible ? "no such day" : "not a date phrase", help: e.help)
    }

    /// A date or repeat token typed only in part.
    static func unfinished(_ typed: String, completed: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0203, message: "'\(typed)' is unfinished", file: file, range: range,
                   label: "not a complete date or repeat", help: "did you mean '\(completed)'?")
    }

    /// Words that name no due group.
    static func notADueGroup(_ words: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'\(words)' is not a due group", file: file, range: range,
                   label: "expected today, tomorrow, this week, later or no due date", help: Suggestion.help(words, in: candidates))
    }

    /// `repeat … next N` past the preview's limit.
    static func badPreviewCount(_ n: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'next \(n)' shows from 1 to \(Limits.repeatPreviewDates) dates", file: file, range: range, label: "too many")
    }

    /// A rule that no RRULE can say.
    static func noRRULE(_ rule: String, why: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0211, message: "'\(rule)' cannot be written as an RRULE", file: file, range: range,
                   label: "no RRULE says this", notes: [why])
    }

    /// A date past 9999-12-31 or before 0001-01-01.
    public static func dateOutOfRange(_ message: String, range: SourceRange, file: SourceFile, label: String = "outside the calendar") -> Diagnostic {
        Diagnostic(code: .E0225, message: message, file: file, range: range, label: label,
                   help: "dates go from 0001-01-01 to 9999-12-31 (docs/LIMITS.md)")
    }

    /// A regular expression that reached PCRE2's limits on a subject, or the query's time.
    public static func regexBudget(_ pattern: String, timedOut: Bool, range: SourceRange, file: SourceFile) -> Diagnostic {
        let why = timedOut
            ? "the query's patterns ran for more than \(Limits.grouped(Limits.regexQueryMilliseconds)) ms"
            : "one subject took more than \(Limits.grouped(Limits.regexSteps)) steps (or depth \(Limits.grouped(Limits.regexDepth)))"
        return Diagnostic(code: .E0226, message: "the pattern /\(pattern)/ ran past its budget: \(why)", file: file, range: range,
                          label: "this query", notes: ["nothing was counted, listed or changed"],
                          help: "a pattern with nested repeats like (a+)* backtracks without end; anchor it or make it simpler (docs/LIMITS.md)")
    }

    /// An add (or a copy a completion makes) past the last task id.
    public static func idsUsedUp(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0227, message: "the store has no task ids left (the last is \(Limits.grouped(Limits.largestID)))", file: file, range: range,
                   label: "no id for a new task", help: "ids are never reused; start a new store (docs/LIMITS.md)")
    }

    /// A store path that is a device, a folder's sibling of no kind Kept reads, or too large.
    public static func storeRefused(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0228, message: "could not read the store '\(path)': \(reason)",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    // MARK: filters (E01xx and E02xx, docs/FILTERS.md)

    static func unmatchedParen(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "unmatched ')'", file: file, range: r, label: "no '(' opens this")
    }

    /// A filter's '(' that is never closed, naming where it opened (Lua's habit).
    static func parenNotClosed(open: SourceRange, line: Int, column: Int, end: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "expected ')' to close '(' at \(line):\(column)", file: file, range: end, label: "the filter ends here",
                   secondary: [DiagnosticLabel(range: open, text: "'(' opened here")])
    }

    static func notAFilterTerm(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(t.text)' in a filter", file: file, range: t.range, label: "not a filter term")
    }

    /// A field name followed by a word: a comparison without its operator.
    static func comparisonMissing(after word: String, field: String, at r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected a comparison after '\(word)'", file: file, range: r,
                   label: "expected <, <=, >, >=, = or ~", help: "for example: \(field) < fri")
    }

    static func notAComparison(after word: String, at r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected a comparison after '\(word)'", file: file, range: r, label: "not <, <=, >, >= or =")
    }

    static func noteNotClosed(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected ']]' to close '[['", file: file, range: r, label: "this note link is not closed")
    }

    static func savedFilterCycle(_ chain: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0214, message: "saved filters refer to each other in a cycle: \(chain)", file: file, range: range, label: "this makes the cycle")
    }

    /// A saved filter that no longer reads, reported where it is used.
    static func inSavedFilter(_ name: String, _ d: Diagnostic, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: d.code, message: "in saved filter '\(name)': \(d.message)", file: file, range: range,
                   label: "this saved filter does not read", help: d.help)
    }

    static func badRange(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0205, message: "'\(text)' is not a range of two dates", file: file, range: range,
                   label: "expected @2026-06-01..2026-06-30", help: "both ends are ISO dates, the first not after the second")
    }

    static func regexOnNonText(_ field: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'~' matches title or description, not \(field)", file: file, range: range, label: "not a text field")
    }

    static func textNeedsRegex(_ field: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'\(field)' is compared with '~' and a /pattern/", file: file, range: range,
                   label: "not a comparison for text", help: "for example: \(field) ~ /^call/i")
    }

    static func unterminatedPattern(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0001, message: "unterminated pattern", file: file, range: r, label: "this '/' is never closed", help: "end the pattern with '/'")
    }

    static func unknownPatternFlag(_ flag: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "unknown pattern flag '\(flag)'", file: file, range: range, label: "flags are i and m")
    }

    static func badPattern(_ why: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0212, message: "bad pattern: \(why)", file: file, range: range, label: "here")
    }

    /// A date phrase error at the words of a filter.
    static func dateInFilter(_ e: DatePhraseError, range: SourceRange, file: SourceFile, label: String, help: String?) -> Diagnostic {
        Diagnostic(code: e.code, message: e.message, file: file, range: range, label: label, help: help)
    }

    /// A term about deleted tasks beside one about anything else (docs/FILTERS.md, "Deleted tasks").
    static func deletedMixed(at other: SourceRange, deleted: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0230, message: "a deleted task keeps only its uid and when it was deleted", file: file, range: other,
                   label: "deleted tasks have no such field", secondary: [DiagnosticLabel(range: deleted, text: "this looks at deleted tasks")],
                   help: "a filter over deleted tasks uses 'deleted' dates only: deleted @today, deleted >= -7d")
    }

    /// `where`, `plan` or another selection of tasks from a filter over deleted tasks.
    public static func deletedNotActionable(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0231, message: "a filter over deleted tasks selects no task to act on or plan", file: file, range: range,
                   label: "these tasks are gone", help: "'list deleted …' and 'count deleted …' show them; 'undo' brings back a deletion")
    }

    /// `list a, , b` or a comma at either end.
    static func emptyCommaFilter(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0232, message: "a filter of the comma list is empty", file: file, range: range,
                   label: "nothing between these commas", help: "for example: list today, overdue")
    }

    /// A comma list where one filter is expected (`count a, b`).
    static func commaListHere(_ command: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0233, message: "'\(command)' takes one filter, not a comma list", file: file, range: range,
                   label: "a second filter starts here", help: "'list a, b' prints one section for each; join filters with 'or' here")
    }

    /// A due or a window given a time of day.
    static func timeWhereDayIsMeant(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0234, message: "'\(text)' has a time of day, but a due's day and a window are whole days", file: file, range: range,
                   label: "a time, not a day", help: "leave out the time; 'created', 'modified', 'completed' and 'deleted' compare times")
    }

    /// A word that looks like an operator but is searched for.
    static func lookAlike(_ words: String, range: SourceRange, file: SourceFile, nearest: String?) -> Diagnostic {
        Diagnostic(code: .W0001, message: "'\(words)' is not a filter term: it searches for the words", file: file, range: range,
                   label: "a word search", help: nearest.map { "did you mean '\($0)'?" } ?? "quote words to search for them without this warning")
    }

    // MARK: E03xx runtime

    public static func noTask(_ id: Int, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0301, message: "no task with id \(id)", file: file, range: range, label: "not in the store",
                   help: "'list' shows the open tasks with their ids")
    }

    public static func nothingToUndo(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0302, message: "nothing to undo", file: file, range: range, label: "the history is empty")
    }

    public static func nothingToRedo(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0303, message: "nothing to redo", file: file, range: range,
                   label: "no undone change is waiting", notes: ["a new change after an undo clears what could be redone"])
    }

    public static func projectExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0304, message: "a project named '\(name)' exists", file: file, range: range, label: "already in the store")
    }

    public static func noTitle(_ title: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0305, message: "no open task titled \"\(title)\"", file: file, range: range,
                   label: "no exact match", help: Suggestion.help(title, in: candidates).map { $0.replacingOccurrences(of: "'", with: "\"") })
    }

    public static func ambiguousTitle(_ title: String, ids: [Int], range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0306, message: "\(ids.count) open tasks are titled \"\(title)\"", file: file, range: range,
                   label: "matches \(ids.map(String.init).joined(separator: ", "))", help: "refer to one by its id")
    }

    public static func storeWriteFailed(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0307, message: "could not write the store '\(path)': \(reason)",
                   notes: ["the store file was left as it was"])
    }

    public static func storeConflict(_ path: String) -> Diagnostic {
        Diagnostic(code: .E0323, message: "another process wrote the store '\(path)' after it was read here; nothing was written",
                   notes: ["no change of this statement was kept"])
    }

    public static func storeLocked(_ path: String) -> Diagnostic {
        Diagnostic(code: .E0324, message: "the store '\(path)' stayed locked by another writer; nothing was written",
                   help: "another kept process is writing it; try again when it is done")
    }

    public static func storeReadOnly(_ path: String, folder: Bool) -> Diagnostic {
        Diagnostic(code: .E0325, message: folder ? "the folder '\(path)' of the store cannot be written; nothing was written"
                                                  : "the store '\(path)' is read-only; nothing was written",
                   help: folder ? "a store is written as a new file beside the old one, so its folder must be writable"
                                : "make it writable, or run without --write to leave it as it is")
    }

    public static func notAKeptDatabase(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0327, message: "'\(path)' is not a Kept store that can be read: \(reason)",
                   notes: ["the file is left untouched; nothing will be written to it"])
    }

    /// Damage a read found: the store, and each damaged item by table and key.
    public static func storeDamaged(_ path: String, _ items: [StoreDamage]) -> Diagnostic {
        let first = items.first.map(\.description) ?? "it cannot be read"
        let more = items.count > 1 ? " (and \(items.count - 1) more)" : ""
        return Diagnostic(code: .E0332, message: "the store '\(path)' is damaged: \(first)\(more)",
                          notes: items.dropFirst().prefix(9).map(\.description)
                              + ["nothing will be written to it; nothing was read as if it were not there"],
                          help: "'kept check \(path)' lists every damaged item; 'kept convert --salvage' copies what is sound")
    }

    public static func foreignWAL(_ path: String, wal: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0333, message: "the file '\(wal)' beside the store '\(path)' does not belong to it: \(reason)",
                   notes: ["the store is left untouched; nothing was written to it or to the -wal"],
                   help: "a store copied or restored goes without its old -wal and -shm (docs/STORE.md); move '\(wal)' away to open it")
    }

    /// A store to read (`kept convert`, `check`, `backup`) that is not there.
    public static func noStoreFile(_ path: String) -> Diagnostic {
        Diagnostic(code: .E0308, message: "no store file '\(path)'", help: "name an existing store file")
    }

    public static func storeChangedOutside(_ path: String) -> Diagnostic {
        Diagnostic(code: .W0002, message: "the store '\(path)' changed after Kept wrote it: its checksum does not match; it is read as it is now",
                   notes: ["a hand edit or a merge does this; so does damage to the file"],
                   help: "'kept check \(path)' says whether it reads; the next write gives it a new checksum")
    }

    public static func newerStore(_ path: String, version: Int, reads: Int) -> Diagnostic {
        Diagnostic(code: .E0328, message: "the store '\(path)' has schema version \(version); this Kept reads up to \(reads)",
                   notes: ["the file is left untouched; nothing will be written to it"], help: "open it with a newer Kept")
    }

    public static func storeNotReplaceable(_ path: String, reason: StoreError.NotReplaceable) -> Diagnostic {
        switch reason {
        case .notAFile:
            return Diagnostic(code: .E0336, message: "the store '\(path)' is not a regular file; nothing was written",
                              notes: ["a pipe is read once, and a new version would take its place as a file"],
                              help: "write to a file: '.save FILE', or 'kept convert'")
        case .hardLinks(let n):
            return Diagnostic(code: .E0336, message: "the store '\(path)' has \(n) hard links; nothing was written",
                              notes: ["a new version is a new file: the other names would keep the old one"],
                              help: "keep one name and use a symlink for the others ('ln -sf'), or copy the file")
        }
    }

    public static func runNotWritten(_ path: String, failed: Int) -> Diagnostic {
        Diagnostic(code: .E0326, message: "nothing was written to '\(path)': \(failed == 1 ? "1 statement" : "\(failed) statements") failed",
                   notes: ["a run writes its changes once, at its end, and only when every statement succeeded"],
                   help: "--keep-going writes what succeeded; --bail stops at the first error")
    }

    public static func storeUnreadable(file: SourceFile, offset: Int?, reason: String) -> Diagnostic {
        Diagnostic(code: .E0308, message: "could not read the store: \(reason)", file: offset == nil ? nil : file,
                   range: offset.map { SourceRange(start: $0, end: $0 + 1) }, label: offset == nil ? nil : "here",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    public static func storeUnreadable(path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0308, message: "could not read the store '\(path)': \(reason)",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    /// A transcript's `@store` names a file that is not there.
    public static func noStoreFile(_ path: String, file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0308, message: "no store file '\(path)'", file: file, range: range)
    }

    public static func scriptUnreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0309, message: "could not read '\(path)': \(reason)")
    }

    static func noStep(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0311, message: "task \(t.id) has no step \(n)", file: file, range: range,
                   label: t.steps.isEmpty ? "it has no steps" : "its steps are 1 to \(t.steps.count)",
                   help: "'step \(t.id) add TEXT' adds one")
    }

    static func cannotMove(_ message: String, range: SourceRange, file: SourceFile, reason: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0312, message: message, file: file, range: range, label: reason, help: help)
    }

    static func parentCycle(_ message: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0313, message: message, file: file, range: range, label: "this would make a loop of subtasks")
    }

    static func projectHasTasks(_ name: String, count: Int, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0314, message: "project '\(name)' has \(count == 1 ? "1 task" : "\(count) tasks")", file: file, range: range,
                   label: "say what happens to its tasks",
                   help: "'project delete \(name) move-to inbox' keeps them without a project; 'project delete \(name) delete-tasks' deletes them")
    }

    static func badReminderTime(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0315, message: "'\(text)' is not a reminder time", file: file, range: range, label: "not a preset or a date phrase",
                   help: "presets: later today, in an hour, this evening, tomorrow morning, next week, in 1 month; or a date and time like fri 9am")
    }

    static func reminderPassed(_ message: String, range: SourceRange, file: SourceFile, label: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0316, message: message, file: file, range: range, label: label, help: help)
    }

    static func noReminder(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0317, message: "task \(t.id) has no reminder \(n)", file: file, range: range,
                   label: t.reminders.isEmpty ? "it has no reminders" : "its reminders are 1 to \(t.reminders.count)",
                   help: "'show \(t.id) reminders' lists them in order")
    }

    static func bulkDeleteNeedsConfirmation(_ message: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0318, message: message, file: file, range: range, label: "these tasks would be deleted",
                   help: "confirm it: answer y in the REPL, pass --yes to 'kept run' or 'kept test', or write @yes before it in a transcript")
    }

    static func unknownStatus(_ message: String, range: SourceRange, file: SourceFile, allowed: [String]) -> Diagnostic {
        Diagnostic(code: .E0319, message: message, file: file, range: range, label: "not one of its statuses",
                   help: "statuses: " + allowed.joined(separator: ", "))
    }

    static func statusExists(_ message: String, range: SourceRange, file: SourceFile, builtIn: Bool) -> Diagnostic {
        Diagnostic(code: .E0320, message: message, file: file, range: range, label: builtIn ? "a built-in status" : "already in its list",
                   help: builtIn ? "open, waiting, done and archived are every task's; any and all are words of the status: filter" : nil)
    }

    static func noSuchStatus(_ message: String, range: SourceRange, file: SourceFile, own: [String], project: String) -> Diagnostic {
        Diagnostic(code: .E0321, message: message, file: file, range: range, label: "not in its list",
                   help: own.isEmpty ? "it has no statuses of its own" : "its own: " + own.joined(separator: ", "))
    }

    static func archivedProject(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0322, message: "project \(name) is archived", file: file, range: range, label: "an archived project takes no tasks",
                   help: "'project unarchive \(name)' brings it back")
    }

    static func noSavedFilter(_ name: String, range: SourceRange, file: SourceFile, known: [String]) -> Diagnostic {
        Diagnostic(code: .E0213, message: "no saved filter named '\(name)'", file: file, range: range, label: "not a saved filter",
                   help: Suggestion.nearest(name, in: known).map { "did you mean '\($0)'?" } ?? "'filters' lists them")
    }

    static func savedFilterExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0304, message: "a saved filter named '\(name)' exists", file: file, range: range, label: "already in the store")
    }

    static func filterInUse(_ name: String, by user: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0310, message: "filter \(user) uses \(name)", file: file, range: range, label: "still used",
                   help: "change or delete \(user) first")
    }

    public static func wrongState(_ message: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0310, message: message, file: file, range: range, label: "see the task's status", help: help)
    }

    // MARK: a repeat's dates (skip, unskip, rdate, unrdate)

    /// Why a repeat's skipped or added dates cannot change so: the code of each problem.
    static func repeatDate(_ p: RepeatDateProblem, message: String, range: SourceRange, file: SourceFile, label: String,
                           help: String? = nil) -> Diagnostic {
        let code: DiagnosticCode
        switch p {
        case .notRepeating: code = .E0221
        case .notAnOccurrence: code = .E0222
        case .seriesEnds: code = .E0223
        case .alreadyAnOccurrence: code = .E0224
        case .notListed: code = .E0329
        case .passed: code = .E0330
        case .timeDoesNotFit: code = .E0331
        }
        return Diagnostic(code: code, message: message, file: file, range: range, label: label, help: help)
    }

    // MARK: E05xx the REPL's dot-commands

    public static func unknownDotCommand(_ name: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0501, message: "unknown dot-command '.\(name)'", file: file, range: range, label: "not a dot-command",
                   help: Suggestion.nearest(name, in: candidates).map { "did you mean '.\($0)'?" } ?? "'.help' lists the dot-commands")
    }

    public static func dotArgument(_ message: String, range: SourceRange, file: SourceFile, label: String, usage: String) -> Diagnostic {
        Diagnostic(code: .E0502, message: message, file: file, range: range, label: label, help: "usage: \(usage)")
    }

    public static func dotWriteFailed(_ path: String, reason: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0503, message: "could not write '\(path)': \(reason)", file: file, range: range, label: "this file")
    }

    public static func readTooDeep(_ path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0504, message: "'.read \(path)' nests more than 16 scripts deep", file: file, range: range,
                   label: "read from a script already being read", help: "a script that reads itself never ends")
    }

    // MARK: E0505–E0519 the front ends: piped input and the test runner

    /// Piped input: a `... ` line that arrived after the statement it continues had run, because
    /// nothing more was waiting when that statement's line came in.
    public static func lateContinuation(file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0505, message: "this line continues a statement that already ran", file: file,
                   range: SourceRange(start: 0, end: min(3, file.bytes.count)), label: "a continuation",
                   help: "send a statement's lines together: piped input runs a finished statement when no more input is waiting")
    }

    /// A `@skip` or `@xfail` standing alone (a blank line after it) once its file or case has
    /// had a command.
    public static func misplacedMark(_ d: TranscriptDirective, file: SourceFile, inCase: Bool) -> Diagnostic {
        Diagnostic(code: .E0506, message: "'@\(d.name)' stands alone after the \(inCase ? "case's" : "file's") first command",
                   file: file, range: d.range, label: "marks nothing",
                   help: "write it right above the command it marks (no blank line between), right above a '@case' line, "
                       + "or alone before the first command of the file or case")
    }

    /// `kept test FILE:LINE` where the line is in no command and no case.
    public static func nothingAtLine(_ path: String, line: Int, lines: Int) -> Diagnostic {
        Diagnostic(code: .E0507, message: line > lines ? "'\(path)' has \(lines) lines, not \(line)" : "no command or case at \(path):\(line)",
                   help: "name the line of a '> ' command, a line of its expected block, or a line of a '@case'")
    }

    /// `kept test -k PATTERN` or `FILE:LINE` that selects no command at all.
    public static func nothingSelected(_ what: String) -> Diagnostic {
        Diagnostic(code: .E0508, message: "no command matches \(what)",
                   help: "-k matches part of 'path::case name' (any case, ignoring case); 'kept test PATH' runs everything")
    }

    /// A report file (`--report`) or a script `--update` rewrites could not be written.
    public static func testWriteFailed(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0509, message: "could not write '\(path)': \(reason)")
    }

    // MARK: E04xx the plan

    /// `list limit -1`, `limit 2.5`: a list's limit is a count of rows.
    static func badListLimit(_ t: Token, file: SourceFile) -> Diagnostic {
        expected("a whole number of rows", after: "limit", at: t, file: file, help: "limit takes a whole number, 0 or more: list limit 5")
    }

    static func badPlanLimit(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0401, message: "a plan limit is a whole number from 1, or all", file: file,
                   range: t.kind == .end ? SourceRange.at(t.range.start) : t.range, label: "not a row count", help: "for example: plan limit 50")
    }

    static func notInPlan(_ t: Task, range: SourceRange, file: SourceFile, why: String) -> Diagnostic {
        Diagnostic(code: .E0402, message: "task \(t.id) is not in the plan", file: file, range: range, label: why,
                   help: t.isOpen ? nil : "'reopen \(t.id)' brings a finished task back into the plan")
    }

    static func top3Full(_ picks: [Task], adding t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        var d = Diagnostic(code: .E0403, message: "Top 3 is full: which pick does \(t.id) replace?", file: file, range: range,
                           label: "three picks already", help: "top3 replace \(picks.first.map { String($0.id) } ?? "ID") with \(t.id)")
        d.notes = picks.map { "pick: \($0.id) · \($0.title)" }
        return d
    }

    static func notAPick(_ t: Task, range: SourceRange, file: SourceFile, picks: [Int]) -> Diagnostic {
        Diagnostic(code: .E0404, message: "task \(t.id) is not a Top 3 pick", file: file, range: range,
                   label: picks.isEmpty ? "Top 3 is empty" : "the picks are \(picks.map(String.init).joined(separator: ", "))",
                   help: "'top3' lists the picks")
    }

    static func heldTask(_ t: Task, until: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0405, message: "task \(t.id) is held by Not today until \(until)", file: file, range: range,
                   label: "held", help: "'back \(t.id)' ends the hold and shows it in Top 3")
    }

    static func alreadyPicked(_ t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0406, message: "task \(t.id) is already a Top 3 pick", file: file, range: range, label: "in Top 3")
    }

    // MARK: E06xx import and export (docs/INTEROP.md)

    /// A file refused by a reader or by the import: where in the file, and that nothing changed.
    static func importRefused(_ e: ImportError, path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        var at = ""
        if e.line > 0 { at = "line \(e.line)" + (e.column.map { ", column \($0)" } ?? "") + ": " }
        return Diagnostic(code: e.code, message: "could not import '\(path)': \(at)\(e.message)", file: file, range: range,
                          label: "nothing was imported", help: e.help)
    }

    static func unknownFormat(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "'\(name)' is not a format Kept reads or writes", file: file, range: range,
                   label: "not a format", help: Suggestion.help(name, in: InteropFormat.names.map(\.0)) ?? "formats: tw, ics, jsonl, csv")
    }

    static func formatNotKnown(_ path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "the name '\(path)' does not say the file's format", file: file, range: range,
                   label: "no format known by this name", help: "name the format: 'as tw', 'as ics', 'as jsonl' or 'as csv' (or use .json, .ics, .jsonl, .csv)")
    }

    static func exportFailed(_ path: String, reason: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0609, message: "could not write '\(path)': \(reason)", file: file, range: range, label: "this file")
    }

    /// An export that would write into a device or a pipe, replace a folder, or destroy the
    /// store the session has open (issue 28, F7 and F8).
    static func exportTargetRefused(_ path: String, refusal: ExportTarget.Refusal, range: SourceRange, file: SourceFile) -> Diagnostic {
        let reason: String
        switch refusal {
        case .directory: reason = "it is a directory"
        case .device: reason = "it is a device, not a file"
        case .pipe: reason = "it is a pipe (FIFO), not a file"
        case .notAFile: reason = "it is not a regular file"
        case .openStore(let store): reason = "it is the open store '\(store)'"
        }
        let help = refusal == .directory ? "name a file inside it" : "export to a regular file of its own, or to '-' (standard output)"
        return Diagnostic(code: .E0611, message: "will not export to '\(path)': \(reason)", file: file, range: range,
                          label: "nothing was written", help: help)
    }

    /// A path a confined transcript may not use (docs/SCRIPTS.md, "Test mode").
    public static func pathOutsideAllowed(_ r: PathPolicy.Refusal, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0337, message: "'\(r.path)' is outside the folders this transcript may use" + (r.resolved == r.path ? "" : " (it leads to '\(r.resolved)')"),
                   file: file, range: range, label: "not opened",
                   help: "kept test lets a transcript use its own folder and the run's temporary folder; --allow-path DIR adds one")
    }

    static func eventsNotICalendar(_ format: InteropFormat, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0610, message: "'events' reads an iCalendar file's VEVENTs; this file is \(format.title)", file: file,
                   range: range, label: "not iCalendar", help: "leave 'events' out, or say 'as ics'")
    }
}
