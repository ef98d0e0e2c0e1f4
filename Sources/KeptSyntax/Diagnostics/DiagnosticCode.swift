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
    case E0226, E0227, E0228, E0230, E0231, E0232, E0233, E0234, E0235, E0301, E0302
    case E0303, E0304, E0305, E0306, E0307, E0308, E0309, E0310, E0311, E0312
    case E0313, E0314, E0315, E0316, E0317, E0318, E0319, E0320, E0321, E0322
    case E0323, E0324, E0325, E0326, E0327, E0328, E0329, E0330, E0331, E0332
    case E0333, E0336, E0337, E0338, E0339, E0340, E0341, E0342, E0343, E0344
    case E0345, E0346, E0347, E0348, E0349, E0350, E0351, E0401, E0402, E0403, E0404, E0405, E0406, E0407
    case E0501, E0502, E0503, E0504, E0505, E0506, E0507, E0508, E0509, E0510, E0511, E0601
    case E0602, E0603, E0604, E0605, E0606, E0607, E0608, E0609, E0610, E0611, E0612
    case W0001, W0002, W0003

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
        case .E0235: return "an agenda is 1 to 366 days long"
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
        case .E0338: return "sync is not available where this statement runs"
        case .E0339: return "the store is linked to no account"
        case .E0340: return "the store is linked to an account already"
        case .E0341: return "no refused change has that number"
        case .E0342: return "the sync server could not be reached; the changes wait for the next sync"
        case .E0343: return "the sync server refused the login"
        case .E0344: return "the sync server has no kept schema this version can use"
        case .E0345: return "the account does not exist on the sync server"
        case .E0346: return "the sync server refused what was asked"
        case .E0347: return "the sync server sent an item this version cannot read"
        case .E0348: return "not a connection string"
        case .E0349: return "a query on the server only reads: the statement would change the account"
        case .E0350: return "no connected calendar has that name"
        case .E0351: return "a connected calendar has that name already"
        case .E0401: return "a plan limit is a whole number from 1, or all"
        case .E0402: return "the task is not in the plan"
        case .E0403: return "top 3 is full"
        case .E0404: return "the task is not a top 3 pick"
        case .E0405: return "the task is held by not today"
        case .E0406: return "the task is already a top 3 pick"
        case .E0407: return "plan openings shows 1 to 24 openings a pick"
        case .E0501: return "unknown dot-command"
        case .E0502: return "a dot-command's argument is missing or not allowed"
        case .E0503: return "a file a dot-command writes could not be written"
        case .E0504: return "scripts read with '.read' nest too deeply"
        case .E0505: return "a continuation line came after its statement had run"
        case .E0506: return "a '@skip' or '@xfail' of a file or case comes after its first command"
        case .E0507: return "no command or case at that line of the script"
        case .E0508: return "no command of the scripts matches the selection"
        case .E0509: return "a test report or an updated script could not be written"
        case .E0510: return "the config file could not be read, or a line of it is not a known key with a value it takes"
        case .E0511: return "the text 'kept edit' got back from the editor is not the task's fields, or the editor failed"
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
        case .E0612: return "a connected calendar's file could not be read"
        case .W0001: return "a word that looks like a filter operator is searched for as text"
        case .W0002: return "a store file changed after it was written (its checksum differs)"
        case .W0003: return "a slash date read month/day where the zone usually writes day/month"
        }
    }
}

/// How bad a diagnostic is.
public enum Severity: String, Sendable {
    case error, warning, note
}
