// The message catalog: the functions that make each diagnostic (the codes and their summaries
// are `DiagnosticCode`).

import KeptRules

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

    // MARK: codes others ask about

    /// The code of a run that wrote nothing because a statement failed (`kept help run` cites it).
    public static var runNotWrittenCode: DiagnosticCode { .E0326 }

    /// The code of a bulk delete a front end that cannot ask refuses (`--yes` cites it).
    public static var unconfirmedDeleteCode: DiagnosticCode { .E0318 }

    /// Whether a lexer's diagnostic is a string or a pattern never closed: the REPL reads on.
    public static func isUnclosedQuote(_ d: Diagnostic) -> Bool { d.code == .E0001 }

    /// Whether a diagnostic says a capture line left no title: `parse` still shows its tokens.
    public static func saysNoTitle(_ d: Diagnostic) -> Bool { d.code == .E0208 }

    // MARK: E00xx lexical

    package static func unterminatedString(file: SourceFile, range: SourceRange) -> Diagnostic {
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
    package static func tooManyTokens(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0006, message: "the statement has more than \(Limits.grouped(Limits.statementTokens)) tokens", file: file, range: range,
                   label: "this token is past the limit", help: "split it into several statements (docs/LIMITS.md)")
    }

    /// A run of digits past `Limits.largestNumber`.
    public static func numberTooLarge(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0007, message: numberTooLargeText(text), file: file, range: range,
                   label: "too large", help: "numbers go from 0 to \(Limits.grouped(Limits.largestNumber)) (docs/LIMITS.md)")
    }

    /// A filter nested past `Limits.filterDepth`.
    package static func filterTooDeep(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: .E0008, message: "the filter nests deeper than \(Limits.filterDepth) levels", file: file, range: range,
                   label: "one level too many", help: "parentheses, 'not', '-' and saved filters inside saved filters count together (docs/LIMITS.md)")
    }

    // MARK: did you mean

    /// A did-you-mean for a misspelled word: a fix-it when the word stands at its range (the
    /// fix-it's title is then the diagnostic's help), else only the help line.
    package struct DidYouMean {
        package var help: String?
        package var fixIts: [FixIt] = []

        /// The help to give: none of its own with a fix-it (the fix-it's title is shown), the
        /// did-you-mean, or `fallback` when nothing is near.
        package func help(else fallback: String?) -> String? {
            fixIts.isEmpty ? (help ?? fallback) : nil
        }
    }

    /// The help of a near name, `did you mean 'SIGNnear'?`, said without a fix-it; nil without one.
    package static func didYouMean(_ near: String?, sign: String = "") -> String? {
        near.map { "did you mean '\(sign)\($0)'?" }
    }

    /// The nearest candidate to `word`, as `did you mean 'SIGNword'?` and as a fix-it replacing
    /// the word where `range` holds it (alone, after its sign, or inside quotes). A candidate
    /// that would need quotes where the word has none is only said, not offered as a fix.
    package static func didYouMean(_ word: String, in candidates: [String], at range: SourceRange?, file: SourceFile?,
                                   sign: String = "") -> DidYouMean {
        guard let near = Suggestion.nearest(word, in: candidates), let title = didYouMean(near, sign: sign) else { return DidYouMean() }
        guard let range, let file else { return DidYouMean(help: title) }
        let text = file.text(range)
        let n = word.utf8.count
        var at: SourceRange? = nil
        var quoted = false
        if text == word {
            at = range
        } else if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""), String(text.dropFirst().dropLast()) == word {
            at = SourceRange(start: range.start + 1, end: range.end - 1)
            quoted = true
        } else if text.hasSuffix(word), range.end - n >= range.start {
            at = SourceRange(start: range.end - n, end: range.end)
        }
        let plain = near.utf8.allSatisfy { $0 > 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "'") }
        guard let at, quoted || plain else { return DidYouMean(help: title) }
        return DidYouMean(fixIts: [FixIt(title: title, range: at, replacement: near)])
    }

    // MARK: E01xx syntax

    public static func unknownCommand(_ word: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(word, in: candidates, at: range, file: file)
        return Diagnostic(code: .E0101, message: "unknown command '\(word)'", file: file, range: range,
                          label: "not a command", help: m.help(else: "'help' lists the commands"), fixIts: m.fixIts)
    }

    /// Something missing after a word: `found` is what stands there instead, nil at the end of
    /// the line (`range` then marks where the line ends).
    public static func expected(_ what: String, after: String, found: String?, range: SourceRange, file: SourceFile,
                                help: String? = nil) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected \(what) after '\(after)'", file: file,
                   range: found == nil ? SourceRange.at(range.start) : range,
                   label: "found \(found.map { "'\($0)'" } ?? "the end of the line")", help: help)
    }

    /// `account link` without one quoted connection string. What stands there is never quoted:
    /// it may be a password (R-SYNC-9).
    package static func connectionStringExpected(range: SourceRange, file: SourceFile, found: Bool) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected one quoted connection string after 'account link'", file: file,
                   range: found ? range : SourceRange.at(range.start), label: found ? "not one quoted string" : "found the end of the line",
                   help: "for example: account link \"host=db.example.com dbname=kept user=alice\"; \"\" uses the PG* variables")
    }

    public static func unexpected(_ word: String, range: SourceRange, file: SourceFile, statement: String) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after a complete '\(statement)' statement",
                   file: file, range: range, label: "not part of the statement")
    }

    public static func unknownSubcommand(_ word: String, range: SourceRange, of command: String, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(word, in: candidates, at: range, file: file)
        return Diagnostic(code: .E0104, message: "unknown subcommand '\(word)' of '\(command)'", file: file, range: range,
                          label: "expected one of: \(candidates.joined(separator: ", "))", help: m.help(else: nil), fixIts: m.fixIts)
    }

    public static func unknownDirective(_ d: TranscriptDirective, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(d.name, in: candidates, at: d.range, file: file, sign: "@")
        return Diagnostic(code: .E0105, message: "unknown directive '@\(d.name)'", file: file, range: d.range,
                          label: "not a directive", help: m.help(else: nil), fixIts: m.fixIts)
    }

    package static func whereWithoutFilter(range: SourceRange, file: SourceFile, command: String) -> Diagnostic {
        Diagnostic(code: .E0107, message: "'where' needs a filter", file: file, range: range,
                   label: "no filter after this", help: "for example: \(command) where #errand; a bulk action never runs on every task by accident")
    }

    /// Words after a complete RRULE that are not `from DATE`.
    package static func unexpectedAfterRRULE(_ word: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the RRULE", file: file, range: range,
                   label: "not part of the rule", help: "an RRULE takes 'from DATE' and 'next N' after it")
    }

    /// Words after a complete repeat rule.
    package static func unexpectedAfterRepeat(_ word: String, rule: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the repeat '\(rule)'", file: file, range: range, label: "not part of the rule")
    }

    /// Words after a complete date phrase that must be read whole.
    package static func unexpectedAfterDate(_ word: String, date: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the date '\(date)'", file: file, range: range, label: "not part of the date")
    }

    /// A word after a complete filter.
    public static func unexpectedInFilter(_ word: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' in the filter", file: file, range: range, label: "not part of the filter")
    }

    /// A word after the clauses of a list.
    package static func unexpectedAfterClauses(_ word: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' after the list's clauses", file: file, range: range,
                   label: "not part of the list", help: "a filter comes before order by, limit and group by")
    }

    /// `group by` something other than due.
    package static func groupByDueOnly(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0104, message: "lists are grouped by due only", file: file, range: range, label: "expected 'due'", help: "group by due")
    }

    /// `@format` with a value that is not a format.
    package static func badFormatDirective(_ value: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0105, message: "'@format' takes text or json, not '\(value)'", file: file, range: range, label: "not a format")
    }

    package static func badWidthDirective(_ value: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0105, message: "'@width' takes a number of columns from 20 or none, not '\(value)'", file: file, range: range, label: "not a width")
    }

    /// The '(' of `where (…)` is never closed.
    package static func whereFilterNotClosed(_ open: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "expected ')' to close '(' of the filter", file: file, range: open, label: "this '(' is never closed")
    }

    // MARK: E02xx meaning

    public static func unknownSetting(_ key: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(key, in: candidates, at: range, file: file)
        return Diagnostic(code: .E0201, message: "unknown setting '\(key)'", file: file, range: range,
                          label: "not a setting", help: m.help(else: "'set' lists the settings"), fixIts: m.fixIts)
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

    /// `tagForm`: the name was written `+name`, Taskwarrior's tag, so the help names Kept's `#name`.
    public static func unknownProject(_ name: String, range: SourceRange, file: SourceFile, candidates: [String],
                                      tagForm: Bool = false) -> Diagnostic {
        let m = didYouMean(name, in: candidates, at: range, file: file)
        let tag = tagForm && !name.contains(" ") ? "; a tag is '#\(name)' (Taskwarrior's '+\(name)')" : ""
        return Diagnostic(code: .E0206, message: "unknown project '\(name)'", file: file, range: range, label: "no such project",
                          help: m.help(else: "create it first with 'project add \(name)'" + tag), fixIts: m.fixIts)
    }

    public static func unknownField(_ field: String, range: SourceRange, file: SourceFile, candidates: [String],
                                    label: String = "not a task field") -> Diagnostic {
        let m = didYouMean(field, in: candidates, at: range, file: file)
        return Diagnostic(code: .E0207, message: "unknown field '\(field)'", file: file, range: range, label: label,
                          help: m.help(else: nil), fixIts: m.fixIts)
    }

    /// A filter's `FIELD:VALUE` (Taskwarrior's form) for a field Kept compares instead: the help
    /// and the fix-it give Kept's form of the whole term (`due:today` is `@today`).
    package static func foreignFieldTerm(_ field: String, range: SourceRange, file: SourceFile, whole: SourceRange,
                                         keptForm: String) -> Diagnostic {
        let title = "Taskwarrior's '\(file.text(whole))' is '\(keptForm)' in Kept"
        return Diagnostic(code: .E0207, message: "unknown field '\(field)'", file: file, range: range,
                          label: "not a field a filter reads with ':'",
                          fixIts: [FixIt(title: title, range: whole, replacement: keptForm)])
    }

    /// `set ID FIELD` with a field that is shown but not set (`id`, `created`).
    package static func fieldNotSettable(_ field: String, range: SourceRange, file: SourceFile, settable: [String]) -> Diagnostic {
        Diagnostic(code: .E0207, message: "field '\(field)' cannot be set", file: file, range: range, label: "not settable",
                   help: "settable fields: \(settable.joined(separator: ", "))")
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

    /// A date or repeat token typed only in part.
    package static func unfinished(_ typed: String, completed: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0203, message: "'\(typed)' is unfinished", file: file, range: range,
                   label: "not a complete date or repeat", help: "did you mean '\(completed)'?")
    }

    /// Words that name no due group.
    package static func notADueGroup(_ words: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(words, in: candidates, at: range, file: file)
        return Diagnostic(code: .E0209, message: "'\(words)' is not a due group", file: file, range: range,
                          label: "expected today, tomorrow, this week, later or no due date", help: m.help(else: nil), fixIts: m.fixIts)
    }

    /// `repeat … next N` past the preview's limit.
    package static func badPreviewCount(_ n: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'next \(n)' shows from 1 to \(Limits.repeatPreviewDates) dates", file: file, range: range, label: "too many")
    }

    /// A filter's date before 0001-01-01 (`99999999 days ago`, `-99999999d`).
    public static func dateBeforeCalendar(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0225, message: "'\(text)' is before 0001-01-01, the first day of the calendar", file: file, range: range,
                   label: "outside the calendar", help: "dates go from 0001-01-01 to 9999-12-31 (docs/LIMITS.md)")
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

    package static func unmatchedParen(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "unmatched ')'", file: file, range: r, label: "no '(' opens this")
    }

    /// A filter's '(' that is never closed, naming where it opened (Lua's habit).
    package static func parenNotClosed(open: SourceRange, line: Int, column: Int, end: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0106, message: "expected ')' to close '(' at \(line):\(column)", file: file, range: end, label: "the filter ends here",
                   secondary: [DiagnosticLabel(range: open, text: "'(' opened here")])
    }

    package static func notAFilterTerm(_ word: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0103, message: "unexpected '\(word)' in a filter", file: file, range: range, label: "not a filter term")
    }

    /// A field name followed by a word: a comparison without its operator.
    package static func comparisonMissing(after word: String, field: String, at r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected a comparison after '\(word)'", file: file, range: r,
                   label: "expected <, <=, >, >=, = or ~", help: "for example: \(field) < fri")
    }

    package static func notAComparison(after word: String, at r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected a comparison after '\(word)'", file: file, range: r, label: "not <, <=, >, >= or =")
    }

    package static func noteNotClosed(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0102, message: "expected ']]' to close '[['", file: file, range: r, label: "this note link is not closed")
    }

    package static func savedFilterCycle(_ chain: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0214, message: "saved filters refer to each other in a cycle: \(chain)", file: file, range: range, label: "this makes the cycle")
    }

    /// An error inside a saved filter, reported where the statement uses it: a cycle and the
    /// depth limit as they are, anything else as a saved filter that no longer reads.
    package static func inSavedFilter(_ name: String, _ d: Diagnostic, range: SourceRange, file: SourceFile) -> Diagnostic {
        if d.code == .E0214 || d.code == .E0008 {
            return Diagnostic(code: d.code, severity: d.severity, message: d.message, file: file, range: range, label: d.label,
                              notes: d.notes, help: d.help)
        }
        return Diagnostic(code: d.code, message: "in saved filter '\(name)': \(d.message)", file: file, range: range,
                          label: "this saved filter does not read", help: d.help)
    }

    package static func badRange(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0205, message: "'\(text)' is not a range of two dates", file: file, range: range,
                   label: "expected @2026-06-01..2026-06-30", help: "both ends are ISO dates, the first not after the second")
    }

    package static func regexOnNonText(_ field: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'~' matches title or description, not \(field)", file: file, range: range, label: "not a text field")
    }

    package static func textNeedsRegex(_ field: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "'\(field)' is compared with '~' and a /pattern/", file: file, range: range,
                   label: "not a comparison for text", help: "for example: \(field) ~ /^call/i")
    }

    package static func unterminatedPattern(_ r: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0001, message: "unterminated pattern", file: file, range: r, label: "this '/' is never closed", help: "end the pattern with '/'")
    }

    package static func unknownPatternFlag(_ flag: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0209, message: "unknown pattern flag '\(flag)'", file: file, range: range, label: "flags are i and m")
    }

    package static func badPattern(_ why: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0212, message: "bad pattern: \(why)", file: file, range: range, label: "here")
    }

    /// A term about deleted tasks beside one about anything else (docs/FILTERS.md, "Deleted tasks").
    package static func deletedMixed(at other: SourceRange, deleted: SourceRange, file: SourceFile) -> Diagnostic {
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
    package static func emptyCommaFilter(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0232, message: "a filter of the comma list is empty", file: file, range: range,
                   label: "nothing between these commas", help: "for example: list today, overdue")
    }

    /// A comma list where one filter is expected (`count a, b`).
    package static func commaListHere(_ command: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0233, message: "'\(command)' takes one filter, not a comma list", file: file, range: range,
                   label: "a second filter starts here", help: "'list a, b' prints one section for each; join filters with 'or' here")
    }

    /// A due or a window given a time of day.
    package static func timeWhereDayIsMeant(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0234, message: "'\(text)' has a time of day, but a due's day and a window are whole days", file: file, range: range,
                   label: "a time, not a day", help: "leave out the time; 'created', 'modified', 'completed' and 'deleted' compare times")
    }

    /// `agenda N days` with N not a count of days the agenda shows.
    package static func badAgendaDays(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0235, message: "an agenda is 1 to 366 days long, not '\(text)'", file: file, range: range,
                   label: "not a count of days", help: "for example: agenda 14 days")
    }

    /// A word that looks like an operator but is searched for.
    package static func lookAlike(_ words: String, range: SourceRange, file: SourceFile, nearest: String?) -> Diagnostic {
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

    /// `runFlags`: the command takes `--keep-going` and `--bail` (`kept run`); a verb's one
    /// statement (`kept import`) is told only what happened.
    public static func runNotWritten(_ path: String, failed: Int, runFlags: Bool = true) -> Diagnostic {
        Diagnostic(code: .E0326, message: "nothing was written to '\(path)': \(failed == 1 ? "1 statement" : "\(failed) statements") failed",
                   notes: [runFlags ? "a run writes its changes once, at its end, and only when every statement succeeded"
                                    : "the command's changes are written only when it succeeds"],
                   help: runFlags ? "--keep-going writes what succeeded; --bail stops at the first error" : nil)
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

    /// `kept test PATH` where PATH holds no transcript.
    public static func noScripts(_ path: String) -> Diagnostic {
        Diagnostic(code: .E0309, message: "no .kept scripts at '\(path)'")
    }

    public static func scriptUnreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0309, message: "could not read '\(path)': \(reason)")
    }

    package static func noStep(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0311, message: "task \(t.id) has no step \(n)", file: file, range: range,
                   label: t.steps.isEmpty ? "it has no steps" : "its steps are 1 to \(t.steps.count)",
                   help: "'step \(t.id) add TEXT' adds one")
    }

    package static func projectHasTasks(_ name: String, count: Int, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0314, message: "project '\(name)' has \(count == 1 ? "1 task" : "\(count) tasks")", file: file, range: range,
                   label: "say what happens to its tasks",
                   help: "'project delete \(name) move-to inbox' keeps them without a project; 'project delete \(name) delete-tasks' deletes them")
    }

    /// Words that are neither a preset nor a whole date phrase; a date that does not exist is
    /// that date phrase's error, and another phrase's error lends its help.
    package static func badReminderTime(_ text: String, range: SourceRange, file: SourceFile, dateError: DatePhraseError? = nil) -> Diagnostic {
        if let e = dateError, e.impossible { return datePhrase(e, range: range, file: file) }
        return Diagnostic(code: .E0315, message: "'\(text)' is not a reminder time", file: file, range: range, label: "not a preset or a date phrase",
                          help: dateError.flatMap(help) ?? "presets: later today, in an hour, this evening, tomorrow morning, next week, in 1 month; or a date and time like fri 9am")
    }

    package static func noReminder(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0317, message: "task \(t.id) has no reminder \(n)", file: file, range: range,
                   label: t.reminders.isEmpty ? "it has no reminders" : "its reminders are 1 to \(t.reminders.count)",
                   help: "'show \(t.id) reminders' lists them in order")
    }

    /// `delete where FILTER` that a front end that cannot ask refuses: how many tasks and
    /// subtasks it would take, and the first of them (`shown`).
    package static func bulkDeleteNeedsConfirmation(_ filter: String, tasks: Int, subtasks: Int, shown: [String], range: SourceRange,
                                                    file: SourceFile) -> Diagnostic {
        let what = (tasks == 1 ? "1 task" : "\(tasks) tasks") + (subtasks == 0 ? "" : subtasks == 1 ? " and 1 subtask" : " and \(subtasks) subtasks")
        return Diagnostic(code: .E0318, message: "'delete \(filter)' would delete \(what)", file: file, range: range,
                          label: "these tasks would be deleted",
                          notes: shown.map { "would delete: " + $0 } + (tasks > shown.count ? ["and \(tasks - shown.count) more"] : []),
                          help: "confirm it: answer y in the REPL, pass --yes to 'kept run' or 'kept test', or write @yes before it in a transcript")
    }

    package static func archivedProject(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0322, message: "project \(name) is archived", file: file, range: range, label: "an archived project takes no tasks",
                   help: "'project unarchive \(name)' brings it back")
    }

    package static func noSavedFilter(_ name: String, range: SourceRange, file: SourceFile, known: [String]) -> Diagnostic {
        let m = didYouMean(name, in: known, at: range, file: file)
        return Diagnostic(code: .E0213, message: "no saved filter named '\(name)'", file: file, range: range, label: "not a saved filter",
                          help: m.help(else: "'filters' lists them"), fixIts: m.fixIts)
    }

    package static func savedFilterExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0304, message: "a saved filter named '\(name)' exists", file: file, range: range, label: "already in the store")
    }

    package static func noCalendar(_ name: String, range: SourceRange, file: SourceFile, known: [String]) -> Diagnostic {
        let m = didYouMean(name, in: known, at: range, file: file)
        return Diagnostic(code: .E0350, message: "no calendar named '\(name)'", file: file, range: range, label: "not a connected calendar",
                          help: m.help(else: "'calendar list' lists them"), fixIts: m.fixIts)
    }

    package static func calendarExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0351, message: "a calendar named '\(name)' is connected already", file: file, range: range, label: "already in the store",
                   help: "'calendar disconnect \(name)' first, or pick another name")
    }

    package static func filterInUse(_ name: String, by user: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0310, message: "filter \(user) uses \(name)", file: file, range: range, label: "still used",
                   help: "change or delete \(user) first")
    }

    // MARK: a repeat's dates (skip, unskip, rdate, unrdate)

    // MARK: E05xx the REPL's dot-commands

    public static func unknownDotCommand(_ name: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        let m = didYouMean(name, in: candidates, at: range, file: file, sign: ".")
        return Diagnostic(code: .E0501, message: "unknown dot-command '.\(name)'", file: file, range: range, label: "not a dot-command",
                          help: m.help(else: "'.help' lists the dot-commands"), fixIts: m.fixIts)
    }

    /// What is wrong with a dot-command's argument.
    public enum DotArgument: Sendable {
        /// `.timer maybe`: a switch takes on or off.
        case notOnOff(command: String, value: String)
        /// `.mode yaml`.
        case notAMode(String)
        /// `.open`, `.read` or `.record` without its file.
        case noFile(FileCommand)
        /// `.save` in a session without a store file.
        case noStoreFile
        /// A store file's name that says no kind of store, with the reason the store layer gives.
        case notAStoreName(String)
        /// A store file that cannot be opened, with the reason the front end gives.
        case cannotOpen(String)
        /// `.width 5`: a width takes a number of columns from `minimum`, auto or none.
        case notAWidth(String, minimum: Int)
    }

    /// The dot-commands that take a file.
    public enum FileCommand: String, Sendable {
        case open, read, record
    }

    public static func dotArgument(_ a: DotArgument, range: SourceRange, file: SourceFile, usage: String) -> Diagnostic {
        let message: String, label: String
        switch a {
        case .notOnOff(let command, let value): (message, label) = ("'.\(command)' takes on or off, not '\(value)'", "expected on or off")
        case .notAMode(let value): (message, label) = ("'.mode' takes text, json or json pretty, not '\(value)'", "expected text, json or json pretty")
        case .notAWidth(let value, let minimum):
            (message, label) = ("'.width' takes a number of columns from \(minimum), auto or none, not '\(value)'", "expected a width")
        case .noFile(let command):
            let what: String
            switch command {
            case .open: what = "a store file"
            case .read: what = "a script"
            case .record: what = "a file to write"
            }
            (message, label) = ("'.\(command.rawValue)' needs \(what)", "expected a file name")
        case .noStoreFile: (message, label) = ("this session has no store file", "expected a file name")
        case .notAStoreName(let reason): (message, label) = (reason, "not a store file name")
        case .cannotOpen(let reason): (message, label) = (reason, "this file")
        }
        return Diagnostic(code: .E0502, message: message, file: file, range: range, label: label, help: "usage: \(usage)")
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

    /// The config file (docs/LANGUAGE.md, "Your store") could not be read.
    public static func configUnreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: .E0510, message: "could not read the config file '\(path)': \(reason)")
    }

    /// What is wrong with a line of the config file.
    public enum ConfigLine: Sendable {
        case notKeyValue
        case unknownKey(String, nearest: String?)
        case badValue(key: String, expected: String)
    }

    /// A line of the config file that is not `KEY = VALUE` with a known key and a value it takes.
    public static func configLine(_ problem: ConfigLine, range: SourceRange, file: SourceFile) -> Diagnostic {
        switch problem {
        case .notKeyValue:
            return Diagnostic(code: .E0510, message: "a config line is 'KEY = VALUE'", file: file, range: range,
                              label: "no '=' here", help: "for example: week-start = sunday; '#' starts a comment")
        case .unknownKey(let key, let nearest):
            return Diagnostic(code: .E0510, message: "unknown config key '\(key)'", file: file, range: range, label: "not a key",
                              help: didYouMean(nearest) ?? "the keys are 'store' and the settings 'kept help set' lists")
        case .badValue(let key, let expected):
            return Diagnostic(code: .E0510, message: "the config key '\(key)' takes \(expected)", file: file, range: range,
                              label: "expected \(expected)")
        }
    }

    /// What is wrong with the text `kept edit` got back from the editor.
    public enum EditText: Sendable {
        case notFieldValue
        case repeated(String)
        case editorFailed(String)
        /// Fields another process changed while the editor was open.
        case changedElsewhere([String])
    }

    /// The edited text of a task that cannot be applied; nothing was changed.
    public static func editText(_ problem: EditText, range: SourceRange? = nil, file: SourceFile? = nil) -> Diagnostic {
        switch problem {
        case .notFieldValue:
            return Diagnostic(code: .E0511, message: "an edited line is 'FIELD: VALUE'", file: file, range: range,
                              label: "no ':' here", help: "nothing was changed; '#' starts a comment line")
        case .repeated(let field):
            return Diagnostic(code: .E0511, message: "the field '\(field)' is there twice", file: file, range: range,
                              label: "again here", help: "nothing was changed; keep one line a field")
        case .changedElsewhere(let fields):
            let list = fields.map { "'\($0)'" }.joined(separator: ", ")
            return Diagnostic(code: .E0511, message: "\(list) changed in the store while the editor was open; nothing was changed",
                              file: file, help: "run 'kept edit' again to edit the task as it is now (your text is kept in the file named below)")
        case .editorFailed(let why):
            return Diagnostic(code: .E0511, message: "the editor \(why); nothing was changed",
                              help: "kept edit runs $VISUAL, else $EDITOR, else vi")
        }
    }

    // MARK: E04xx the plan

    /// `list limit -1`, `limit 2.5`: a list's limit is a count of rows; `found` nil at the end.
    package static func badListLimit(found: String?, range: SourceRange, file: SourceFile) -> Diagnostic {
        expected("a whole number of rows", after: "limit", found: found, range: range, file: file,
                 help: "limit takes a whole number, 0 or more: list limit 5")
    }

    package static func badPlanLimit(atEnd: Bool, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0401, message: "a plan limit is a whole number from 1, or all", file: file,
                   range: atEnd ? SourceRange.at(range.start) : range, label: "not a row count", help: "for example: plan limit 50")
    }

    /// `plan openings N` with N not a count of openings.
    package static func badOpeningsCount(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0407, message: "plan openings shows 1 to 24 openings a pick, not '\(text)'", file: file, range: range,
                   label: "not a count of openings", help: "for example: plan openings 5")
    }

    package static func notInPlan(_ t: Task, range: SourceRange, file: SourceFile, why: String) -> Diagnostic {
        Diagnostic(code: .E0402, message: "task \(t.id) is not in the plan", file: file, range: range, label: why,
                   help: t.isOpen ? nil : "'reopen \(t.id)' brings a finished task back into the plan")
    }

    package static func top3Full(_ picks: [Task], adding t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        var d = Diagnostic(code: .E0403, message: "Top 3 is full: which pick does \(t.id) replace?", file: file, range: range,
                           label: "three picks already", help: "top3 replace \(picks.first.map { String($0.id) } ?? "ID") with \(t.id)")
        d.notes = picks.map { "pick: \($0.id) · \($0.title)" }
        return d
    }

    package static func notAPick(_ t: Task, range: SourceRange, file: SourceFile, picks: [Int]) -> Diagnostic {
        Diagnostic(code: .E0404, message: "task \(t.id) is not a Top 3 pick", file: file, range: range,
                   label: picks.isEmpty ? "Top 3 is empty" : "the picks are \(picks.map(String.init).joined(separator: ", "))",
                   help: "'top3' lists the picks")
    }

    package static func heldTask(_ t: Task, until: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0405, message: "task \(t.id) is held by Not today until \(until)", file: file, range: range,
                   label: "held", help: "'back \(t.id)' ends the hold and shows it in Top 3")
    }

    package static func alreadyPicked(_ t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0406, message: "task \(t.id) is already a Top 3 pick", file: file, range: range, label: "in Top 3")
    }

    // MARK: E06xx import and export (docs/INTEROP.md)

    package static func formatNotKnown(_ path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "the name '\(path)' does not say the file's format", file: file, range: range,
                   label: "no format known by this name", help: "name the format: 'as tw', 'as ics', 'as jsonl' or 'as csv' (or use .json, .ics, .jsonl, .csv)")
    }

    package static func exportFailed(_ path: String, reason: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0609, message: "could not write '\(path)': \(reason)", file: file, range: range, label: "this file")
    }

}
