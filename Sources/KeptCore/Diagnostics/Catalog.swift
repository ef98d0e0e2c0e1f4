// The message catalog: every diagnostic code with its one-line summary, and the functions that
// make each diagnostic. Codes: E00xx lexical, E01xx syntax, E02xx meaning, E03xx runtime, E04xx
// the plan, E05xx the front ends (the REPL's dot-commands, piped input, the test runner), E06xx other
// tools' files (import, export), W warnings.

/// Every diagnostic the engine can produce.
public enum Catalog {
    /// One code of the catalog.
    public struct Entry: Sendable {
        public let code: String
        public let summary: String
    }

    /// All codes, in order; `kept help errors` prints this list and a test checks the ranges.
    public static let entries: [Entry] = [
        Entry(code: "E0001", summary: "a quoted string is not closed"),
        Entry(code: "E0002", summary: "a line of a transcript is outside any command block"),
        Entry(code: "E0003", summary: "the source is not valid UTF-8"),
        Entry(code: "E0004", summary: "a statement is longer than the statement size limit"),
        Entry(code: "E0005", summary: "a script is larger than the script size limit"),
        Entry(code: "E0006", summary: "a statement has more tokens than the limit"),
        Entry(code: "E0007", summary: "a number is larger than the largest number kept reads"),
        Entry(code: "E0008", summary: "a filter nests deeper than the limit"),
        Entry(code: "E0101", summary: "unknown command"),
        Entry(code: "E0102", summary: "something expected is missing"),
        Entry(code: "E0103", summary: "unexpected words after a complete statement"),
        Entry(code: "E0104", summary: "unknown subcommand"),
        Entry(code: "E0105", summary: "unknown transcript directive"),
        Entry(code: "E0106", summary: "a parenthesis of a filter is not closed or not opened"),
        Entry(code: "E0107", summary: "'where' without a filter"),
        Entry(code: "E0201", summary: "unknown setting"),
        Entry(code: "E0202", summary: "a setting's value is not allowed"),
        Entry(code: "E0203", summary: "not a date or time this version understands"),
        Entry(code: "E0204", summary: "unknown time zone"),
        Entry(code: "E0205", summary: "a date that does not exist"),
        Entry(code: "E0206", summary: "unknown project"),
        Entry(code: "E0207", summary: "unknown field"),
        Entry(code: "E0208", summary: "a task needs a title"),
        Entry(code: "E0209", summary: "a value is not allowed for this field"),
        Entry(code: "E0210", summary: "not a repeat rule this version understands"),
        Entry(code: "E0211", summary: "a repeat rule that cannot be written as an rrule"),
        Entry(code: "E0212", summary: "a regular expression that does not compile"),
        Entry(code: "E0213", summary: "no saved filter has that name"),
        Entry(code: "E0214", summary: "saved filters refer to each other in a cycle"),
        Entry(code: "E0215", summary: "an rrule part with a value that is not allowed"),
        Entry(code: "E0216", summary: "an rrule part that the rule's frequency does not allow"),
        Entry(code: "E0217", summary: "an until that does not fit the rule"),
        Entry(code: "E0218", summary: "times of day that one repeat rule cannot hold"),
        Entry(code: "E0219", summary: "a repeat rule without any date"),
        Entry(code: "E0220", summary: "a recurrence part this version does not support"),
        Entry(code: "E0225", summary: "a date outside the years 1 to 9999"),
        Entry(code: "E0226", summary: "a regular expression ran past its budget"),
        Entry(code: "E0227", summary: "the store has used up its task ids"),
        Entry(code: "E0228", summary: "the store file is too large or not a file"),
        Entry(code: "E0301", summary: "no task with that id"),
        Entry(code: "E0302", summary: "nothing to undo"),
        Entry(code: "E0303", summary: "nothing to redo"),
        Entry(code: "E0304", summary: "a project with that name exists"),
        Entry(code: "E0305", summary: "no open task has that title"),
        Entry(code: "E0306", summary: "more than one open task has that title"),
        Entry(code: "E0307", summary: "the store could not be written"),
        Entry(code: "E0308", summary: "the store could not be read"),
        Entry(code: "E0309", summary: "a script could not be read"),
        Entry(code: "E0310", summary: "the task is not in a state this action applies to"),
        Entry(code: "E0311", summary: "no step with that number"),
        Entry(code: "E0312", summary: "a task cannot be moved into that due group"),
        Entry(code: "E0313", summary: "a task cannot be a subtask of itself or of its own subtask"),
        Entry(code: "E0314", summary: "a project with tasks needs to be told what happens to them"),
        Entry(code: "E0315", summary: "not a reminder time this version understands"),
        Entry(code: "E0316", summary: "a reminder time that has passed"),
        Entry(code: "E0317", summary: "no reminder with that number"),
        Entry(code: "E0318", summary: "a bulk delete needs confirmation"),
        Entry(code: "E0319", summary: "a status the task's project does not have"),
        Entry(code: "E0320", summary: "a project already has that status"),
        Entry(code: "E0321", summary: "a project does not have that status"),
        Entry(code: "E0322", summary: "an archived project takes no tasks"),
        Entry(code: "E0323", summary: "another process wrote the store since it was read; nothing was written"),
        Entry(code: "E0324", summary: "another writer holds the store's lock"),
        Entry(code: "E0325", summary: "the store or its folder cannot be written"),
        Entry(code: "E0326", summary: "a run with a failed statement writes nothing"),
        Entry(code: "E0327", summary: "the file is not a store this program reads, or a damaged one"),
        Entry(code: "E0328", summary: "the store was written by a newer version"),
        Entry(code: "E0401", summary: "a plan limit is a whole number from 1, or all"),
        Entry(code: "E0402", summary: "the task is not in the plan"),
        Entry(code: "E0403", summary: "top 3 is full"),
        Entry(code: "E0404", summary: "the task is not a top 3 pick"),
        Entry(code: "E0405", summary: "the task is held by not today"),
        Entry(code: "E0406", summary: "the task is already a top 3 pick"),
        Entry(code: "E0501", summary: "unknown dot-command"),
        Entry(code: "E0502", summary: "a dot-command's argument is missing or not allowed"),
        Entry(code: "E0503", summary: "a file a dot-command writes could not be written"),
        Entry(code: "E0504", summary: "scripts read with '.read' nest too deeply"),
        Entry(code: "E0505", summary: "a continuation line came after its statement had run"),
        Entry(code: "E0601", summary: "an import file could not be read"),
        Entry(code: "E0602", summary: "the format of a file is not known"),
        Entry(code: "E0603", summary: "an import file is not well-formed json or not UTF-8"),
        Entry(code: "E0604", summary: "a field of an import record has a value that is not allowed"),
        Entry(code: "E0605", summary: "an import file is not well-formed icalendar"),
        Entry(code: "E0606", summary: "an import file is not well-formed csv"),
        Entry(code: "E0607", summary: "an import record has no title"),
        Entry(code: "E0608", summary: "a uid appears twice in one import file"),
        Entry(code: "E0609", summary: "an export file could not be written"),
        Entry(code: "E0610", summary: "an import option does not apply to the file's format"),
    ]

    /// The summary of a code, or nil for a code not in the catalog.
    public static func summary(of code: String) -> String? {
        entries.first { $0.code == code }?.summary
    }

    // MARK: E00xx lexical

    static func unterminatedString(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: "E0001", message: "unterminated string", file: file, range: range,
                   label: "this quote is never closed", help: "add a closing '\"'")
    }

    public static func strayTranscriptLine(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: "E0002", message: "line outside any command block", file: file, range: range,
                   label: "not a command, comment, directive or expected output",
                   help: "start a command with '> ' and a comment with '#'; expected output follows its command without a blank line")
    }

    public static func invalidUTF8(file: SourceFile, offset: Int) -> Diagnostic {
        Diagnostic(code: "E0003", message: "the source is not valid UTF-8", file: file,
                   range: SourceRange(start: offset, end: offset + 1), label: "this byte")
    }

    /// A statement past `Limits.statementBytes`.
    public static func statementTooLong(file: SourceFile, range: SourceRange, bytes: Int?) -> Diagnostic {
        Diagnostic(code: "E0004", message: bytes.map { "the statement is \(Limits.grouped($0)) bytes long; the limit is \(Limits.grouped(Limits.statementBytes))" }
                       ?? "a line is longer than \(Limits.grouped(Limits.statementBytes)) bytes, the statement size limit",
                   file: file, range: SourceRange(start: range.start, end: range.start + 1), label: "this statement",
                   help: "split it into several statements (docs/LIMITS.md)")
    }

    /// A script or standard input past `Limits.scriptBytes`.
    public static func scriptTooLarge(_ name: String) -> Diagnostic {
        Diagnostic(code: "E0005", message: "'\(name)' is larger than \(Limits.grouped(Limits.scriptBytes)) bytes, the script size limit",
                   notes: ["nothing of it was run"], help: "split it into several scripts (docs/LIMITS.md)")
    }

    /// A statement with more than `Limits.statementTokens` tokens.
    static func tooManyTokens(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: "E0006", message: "the statement has more than \(Limits.grouped(Limits.statementTokens)) tokens", file: file, range: range,
                   label: "this token is past the limit", help: "split it into several statements (docs/LIMITS.md)")
    }

    /// A run of digits past `Limits.largestNumber`.
    public static func numberTooLarge(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0007", message: numberTooLargeMessage(text), file: file, range: range,
                   label: "too large", help: "numbers go from 0 to \(Limits.grouped(Limits.largestNumber)) (docs/LIMITS.md)")
    }

    public static func numberTooLargeMessage(_ text: String) -> String {
        "'\(text.count > 24 ? String(text.prefix(20)) + "…" : text)' is larger than \(Limits.grouped(Limits.largestNumber)), the largest number Kept reads"
    }

    /// A filter nested past `Limits.filterDepth`.
    static func filterTooDeep(file: SourceFile, range: SourceRange) -> Diagnostic {
        Diagnostic(code: "E0008", message: "the filter nests deeper than \(Limits.filterDepth) levels", file: file, range: range,
                   label: "one level too many", help: "parentheses, 'not', '-' and saved filters inside saved filters count together (docs/LIMITS.md)")
    }

    // MARK: E01xx syntax

    public static func unknownCommand(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0101", message: "unknown command '\(t.text)'", file: file, range: t.range,
                   label: "not a command", help: Suggestion.help(t.text, in: candidates) ?? "'help' lists the commands")
    }

    public static func expected(_ what: String, after: String, at t: Token, file: SourceFile, help: String? = nil) -> Diagnostic {
        let found = t.kind == .end ? "the end of the line" : "'\(t.text)'"
        return Diagnostic(code: "E0102", message: "expected \(what) after '\(after)'", file: file,
                          range: t.kind == .end ? SourceRange.at(t.range.start) : t.range,
                          label: "found \(found)", help: help)
    }

    public static func unexpected(_ t: Token, file: SourceFile, statement: String) -> Diagnostic {
        Diagnostic(code: "E0103", message: "unexpected '\(t.text)' after a complete '\(statement)' statement",
                   file: file, range: t.range, label: "not part of the statement")
    }

    public static func unknownSubcommand(_ t: Token, of command: String, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0104", message: "unknown subcommand '\(t.text)' of '\(command)'", file: file, range: t.range,
                   label: "expected one of: \(candidates.joined(separator: ", "))",
                   help: Suggestion.help(t.text, in: candidates))
    }

    public static func unknownDirective(_ d: TranscriptDirective, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0105", message: "unknown directive '@\(d.name)'", file: file, range: d.range,
                   label: "not a directive",
                   help: Suggestion.nearest(d.name, in: candidates).map { "did you mean '@\($0)'?" })
    }

    static func whereWithoutFilter(_ w: Token, file: SourceFile, command: String) -> Diagnostic {
        Diagnostic(code: "E0107", message: "'where' needs a filter", file: file, range: w.range,
                   label: "no filter after this", help: "for example: \(command) where #errand; a bulk action never runs on every task by accident")
    }

    // MARK: E02xx meaning

    public static func unknownSetting(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0201", message: "unknown setting '\(t.text)'", file: file, range: t.range,
                   label: "not a setting", help: Suggestion.help(t.text, in: candidates) ?? "'set' lists the settings")
    }

    public static func badSettingValue(_ key: String, value: String, range: SourceRange, file: SourceFile, expected: String,
                                       help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0202", message: "'\(value)' is not a value of '\(key)'", file: file, range: range,
                   label: "expected \(expected)", help: help)
    }

    public static func badDate(_ text: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0203", message: "'\(text)' is not a date or time", file: file, range: range,
                   label: "not understood", help: help)
    }

    public static func unknownZone(_ text: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0204", message: "unknown time zone '\(text)'", file: file, range: range,
                   label: "not an IANA zone name", help: help ?? "zones are named like Europe/Berlin or America/New_York")
    }

    public static func impossibleDate(_ text: String, range: SourceRange, file: SourceFile, why: String) -> Diagnostic {
        Diagnostic(code: "E0205", message: "'\(text)' is not a date that exists", file: file, range: range, label: why)
    }

    public static func unknownProject(_ name: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0206", message: "unknown project '\(name)'", file: file, range: range, label: "no such project",
                   help: Suggestion.help(name, in: candidates) ?? "create it first with 'project add \(name)'")
    }

    public static func unknownField(_ t: Token, file: SourceFile, candidates: [String], label: String = "not a task field") -> Diagnostic {
        Diagnostic(code: "E0207", message: "unknown field '\(t.text)'", file: file, range: t.range, label: label,
                   help: Suggestion.help(t.text, in: candidates))
    }

    public static func emptyTitle(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0208", message: "the task has no title", file: file, range: range,
                   label: "only dates and tokens here", help: "write a title, or escape a token with '\\' to keep it as text")
    }

    public static func badFieldValue(_ field: String, value: String, range: SourceRange, file: SourceFile,
                                     expected: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0209", message: "'\(value)' is not a value of '\(field)'", file: file, range: range,
                   label: "expected \(expected)", help: help)
    }

    /// A date past 9999-12-31 or before 0001-01-01.
    public static func dateOutOfRange(_ message: String, range: SourceRange, file: SourceFile, label: String = "outside the calendar") -> Diagnostic {
        Diagnostic(code: "E0225", message: message, file: file, range: range, label: label,
                   help: "dates go from 0001-01-01 to 9999-12-31 (docs/LIMITS.md)")
    }

    /// A regular expression that reached PCRE2's limits on a subject, or the query's time.
    public static func regexBudget(_ pattern: String, timedOut: Bool, range: SourceRange, file: SourceFile) -> Diagnostic {
        let why = timedOut
            ? "the query's patterns ran for more than \(Limits.grouped(Limits.regexQueryMilliseconds)) ms"
            : "one subject took more than \(Limits.grouped(Limits.regexSteps)) steps (or depth \(Limits.grouped(Limits.regexDepth)))"
        return Diagnostic(code: "E0226", message: "the pattern /\(pattern)/ ran past its budget: \(why)", file: file, range: range,
                          label: "this query", notes: ["nothing was counted, listed or changed"],
                          help: "a pattern with nested repeats like (a+)* backtracks without end; anchor it or make it simpler (docs/LIMITS.md)")
    }

    /// An add (or a copy a completion makes) past the last task id.
    public static func idsUsedUp(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0227", message: "the store has no task ids left (the last is \(Limits.grouped(Limits.largestID)))", file: file, range: range,
                   label: "no id for a new task", help: "ids are never reused; start a new store (docs/LIMITS.md)")
    }

    /// A store path that is a device, a folder's sibling of no kind Kept reads, or too large.
    public static func storeRefused(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: "E0228", message: "could not read the store '\(path)': \(reason)",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    // MARK: E03xx runtime

    public static func noTask(_ id: Int, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0301", message: "no task with id \(id)", file: file, range: range, label: "not in the store",
                   help: "'list' shows the open tasks with their ids")
    }

    public static func nothingToUndo(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0302", message: "nothing to undo", file: file, range: range, label: "the history is empty")
    }

    public static func nothingToRedo(range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0303", message: "nothing to redo", file: file, range: range,
                   label: "no undone change is waiting", notes: ["a new change after an undo clears what could be redone"])
    }

    public static func projectExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0304", message: "a project named '\(name)' exists", file: file, range: range, label: "already in the store")
    }

    public static func noTitle(_ title: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0305", message: "no open task titled \"\(title)\"", file: file, range: range,
                   label: "no exact match", help: Suggestion.help(title, in: candidates).map { $0.replacingOccurrences(of: "'", with: "\"") })
    }

    public static func ambiguousTitle(_ title: String, ids: [Int], range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0306", message: "\(ids.count) open tasks are titled \"\(title)\"", file: file, range: range,
                   label: "matches \(ids.map(String.init).joined(separator: ", "))", help: "refer to one by its id")
    }

    public static func storeWriteFailed(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: "E0307", message: "could not write the store '\(path)': \(reason)",
                   notes: ["the store file was left as it was"])
    }

    public static func storeConflict(_ path: String) -> Diagnostic {
        Diagnostic(code: "E0323", message: "another process wrote the store '\(path)' after it was read here; nothing was written",
                   notes: ["no change of this statement was kept"])
    }

    public static func storeLocked(_ path: String) -> Diagnostic {
        Diagnostic(code: "E0324", message: "the store '\(path)' stayed locked by another writer; nothing was written",
                   help: "another kept process is writing it; try again when it is done")
    }

    public static func storeReadOnly(_ path: String, folder: Bool) -> Diagnostic {
        Diagnostic(code: "E0325", message: folder ? "the folder '\(path)' of the store cannot be written; nothing was written"
                                                  : "the store '\(path)' is read-only; nothing was written",
                   help: folder ? "a store is written as a new file beside the old one, so its folder must be writable"
                                : "make it writable, or run without --write to leave it as it is")
    }

    public static func notAKeptDatabase(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: "E0327", message: "'\(path)' is not a Kept store that can be read: \(reason)",
                   notes: ["the file is left untouched; nothing will be written to it"])
    }

    public static func newerStore(_ path: String, version: Int, reads: Int) -> Diagnostic {
        Diagnostic(code: "E0328", message: "the store '\(path)' has schema version \(version); this Kept reads up to \(reads)",
                   notes: ["the file is left untouched; nothing will be written to it"], help: "open it with a newer Kept")
    }

    public static func runNotWritten(_ path: String, failed: Int) -> Diagnostic {
        Diagnostic(code: "E0326", message: "nothing was written to '\(path)': \(failed == 1 ? "1 statement" : "\(failed) statements") failed",
                   notes: ["a run writes its changes once, at its end, and only when every statement succeeded"],
                   help: "--keep-going writes what succeeded; --bail stops at the first error")
    }

    public static func storeUnreadable(file: SourceFile, offset: Int?, reason: String) -> Diagnostic {
        Diagnostic(code: "E0308", message: "could not read the store: \(reason)", file: offset == nil ? nil : file,
                   range: offset.map { SourceRange(start: $0, end: $0 + 1) }, label: offset == nil ? nil : "here",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    public static func storeUnreadable(path: String, reason: String) -> Diagnostic {
        Diagnostic(code: "E0308", message: "could not read the store '\(path)': \(reason)",
                   notes: ["the store file is left untouched; nothing will be written to it"])
    }

    public static func scriptUnreadable(_ path: String, reason: String) -> Diagnostic {
        Diagnostic(code: "E0309", message: "could not read '\(path)': \(reason)")
    }

    static func noStep(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0311", message: "task \(t.id) has no step \(n)", file: file, range: range,
                   label: t.steps.isEmpty ? "it has no steps" : "its steps are 1 to \(t.steps.count)",
                   help: "'step \(t.id) add TEXT' adds one")
    }

    static func cannotMove(_ message: String, range: SourceRange, file: SourceFile, reason: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0312", message: message, file: file, range: range, label: reason, help: help)
    }

    static func parentCycle(_ message: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0313", message: message, file: file, range: range, label: "this would make a loop of subtasks")
    }

    static func projectHasTasks(_ name: String, count: Int, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0314", message: "project '\(name)' has \(count == 1 ? "1 task" : "\(count) tasks")", file: file, range: range,
                   label: "say what happens to its tasks",
                   help: "'project delete \(name) move-to inbox' keeps them without a project; 'project delete \(name) delete-tasks' deletes them")
    }

    static func badReminderTime(_ text: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0315", message: "'\(text)' is not a reminder time", file: file, range: range, label: "not a preset or a date phrase",
                   help: "presets: later today, in an hour, this evening, tomorrow morning, next week, in 1 month; or a date and time like fri 9am")
    }

    static func reminderPassed(_ message: String, range: SourceRange, file: SourceFile, label: String, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0316", message: message, file: file, range: range, label: label, help: help)
    }

    static func noReminder(_ n: Int, of t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0317", message: "task \(t.id) has no reminder \(n)", file: file, range: range,
                   label: t.reminders.isEmpty ? "it has no reminders" : "its reminders are 1 to \(t.reminders.count)",
                   help: "'show \(t.id) reminders' lists them in order")
    }

    static func bulkDeleteNeedsConfirmation(_ message: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0318", message: message, file: file, range: range, label: "these tasks would be deleted",
                   help: "confirm it: answer y in the REPL, pass --yes to 'kept run' or 'kept test', or write @yes before it in a transcript")
    }

    static func unknownStatus(_ message: String, range: SourceRange, file: SourceFile, allowed: [String]) -> Diagnostic {
        Diagnostic(code: "E0319", message: message, file: file, range: range, label: "not one of its statuses",
                   help: "statuses: " + allowed.joined(separator: ", "))
    }

    static func statusExists(_ message: String, range: SourceRange, file: SourceFile, builtIn: Bool) -> Diagnostic {
        Diagnostic(code: "E0320", message: message, file: file, range: range, label: builtIn ? "a built-in status" : "already in its list",
                   help: builtIn ? "open, waiting, done and archived are every task's; any and all are words of the status: filter" : nil)
    }

    static func noSuchStatus(_ message: String, range: SourceRange, file: SourceFile, own: [String], project: String) -> Diagnostic {
        Diagnostic(code: "E0321", message: message, file: file, range: range, label: "not in its list",
                   help: own.isEmpty ? "it has no statuses of its own" : "its own: " + own.joined(separator: ", "))
    }

    static func archivedProject(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0322", message: "project \(name) is archived", file: file, range: range, label: "an archived project takes no tasks",
                   help: "'project unarchive \(name)' brings it back")
    }

    static func noSavedFilter(_ name: String, range: SourceRange, file: SourceFile, known: [String]) -> Diagnostic {
        Diagnostic(code: "E0213", message: "no saved filter named '\(name)'", file: file, range: range, label: "not a saved filter",
                   help: Suggestion.nearest(name, in: known).map { "did you mean '\($0)'?" } ?? "'filters' lists them")
    }

    static func savedFilterExists(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0304", message: "a saved filter named '\(name)' exists", file: file, range: range, label: "already in the store")
    }

    static func filterInUse(_ name: String, by user: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0310", message: "filter \(user) uses \(name)", file: file, range: range, label: "still used",
                   help: "change or delete \(user) first")
    }

    public static func wrongState(_ message: String, range: SourceRange, file: SourceFile, help: String? = nil) -> Diagnostic {
        Diagnostic(code: "E0310", message: message, file: file, range: range, label: "see the task's status", help: help)
    }

    // MARK: E05xx the REPL's dot-commands

    public static func unknownDotCommand(_ name: String, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: "E0501", message: "unknown dot-command '.\(name)'", file: file, range: range, label: "not a dot-command",
                   help: Suggestion.nearest(name, in: candidates).map { "did you mean '.\($0)'?" } ?? "'.help' lists the dot-commands")
    }

    public static func dotArgument(_ message: String, range: SourceRange, file: SourceFile, label: String, usage: String) -> Diagnostic {
        Diagnostic(code: "E0502", message: message, file: file, range: range, label: label, help: "usage: \(usage)")
    }

    public static func dotWriteFailed(_ path: String, reason: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0503", message: "could not write '\(path)': \(reason)", file: file, range: range, label: "this file")
    }

    public static func readTooDeep(_ path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0504", message: "'.read \(path)' nests more than 16 scripts deep", file: file, range: range,
                   label: "read from a script already being read", help: "a script that reads itself never ends")
    }

    // MARK: E0505–E0519 the front ends: piped input and the test runner

    /// Piped input: a `... ` line that arrived after the statement it continues had run, because
    /// nothing more was waiting when that statement's line came in.
    public static func lateContinuation(file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0505", message: "this line continues a statement that already ran", file: file,
                   range: SourceRange(start: 0, end: min(3, file.bytes.count)), label: "a continuation",
                   help: "send a statement's lines together: piped input runs a finished statement when no more input is waiting")
    }

    // MARK: E04xx the plan

    static func badPlanLimit(_ t: Token, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0401", message: "a plan limit is a whole number from 1, or all", file: file,
                   range: t.kind == .end ? SourceRange.at(t.range.start) : t.range, label: "not a row count", help: "for example: plan limit 50")
    }

    static func notInPlan(_ t: Task, range: SourceRange, file: SourceFile, why: String) -> Diagnostic {
        Diagnostic(code: "E0402", message: "task \(t.id) is not in the plan", file: file, range: range, label: why,
                   help: t.isOpen ? nil : "'reopen \(t.id)' brings a finished task back into the plan")
    }

    static func top3Full(_ picks: [Task], adding t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        var d = Diagnostic(code: "E0403", message: "Top 3 is full: which pick does \(t.id) replace?", file: file, range: range,
                           label: "three picks already", help: "top3 replace \(picks.first.map { String($0.id) } ?? "ID") with \(t.id)")
        d.notes = picks.map { "pick: \($0.id) · \($0.title)" }
        return d
    }

    static func notAPick(_ t: Task, range: SourceRange, file: SourceFile, picks: [Int]) -> Diagnostic {
        Diagnostic(code: "E0404", message: "task \(t.id) is not a Top 3 pick", file: file, range: range,
                   label: picks.isEmpty ? "Top 3 is empty" : "the picks are \(picks.map(String.init).joined(separator: ", "))",
                   help: "'top3' lists the picks")
    }

    static func heldTask(_ t: Task, until: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0405", message: "task \(t.id) is held by Not today until \(until)", file: file, range: range,
                   label: "held", help: "'back \(t.id)' ends the hold and shows it in Top 3")
    }

    static func alreadyPicked(_ t: Task, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: "E0406", message: "task \(t.id) is already a Top 3 pick", file: file, range: range, label: "in Top 3")
    }
}
