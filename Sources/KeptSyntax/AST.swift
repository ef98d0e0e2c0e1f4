// The statement tree. The parser builds it from tokens; the interpreter runs it. Values whose
// grammar belongs to another module (a capture line, a date phrase) stay as text with a range.

import KeptRules

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

/// What an action works on: one task, or every task a filter matches (a bulk action, R-TASK-5).
public enum TaskTarget: Sendable {
    case task(TaskRef)
    /// `where FILTER`; the filter's range is where errors about the selection point.
    case filter(FilterSource)

    public var range: SourceRange {
        switch self {
        case .task(let r): return r.range
        case .filter(let f): return f.range
        }
    }
}

/// What `step ID …` does to a task's checklist; numbers count from 1.
public enum StepEdit: Sendable {
    case add(TextArg)
    case check(Int, SourceRange)
    case uncheck(Int, SourceRange)
    case remove(Int, SourceRange)
}

/// A change to a project's statuses.
public enum StatusEdit: Sendable {
    case add(TextArg)
    case remove(TextArg)
}

/// What `project delete NAME` does with the project's tasks (R-TASK-6).
public enum ProjectTasksChoice: String, Sendable {
    case moveToInbox = "move-to inbox"
    case deleteTasks = "delete-tasks"
}

/// What `plan` and `explain plan` show (R-PLAN-1…5).
public struct PlanRequest: Sendable {
    public enum Order: Sendable { case smart, byDate }
    public var order: Order = .smart
    /// `plan refresh`: score again now and pick a new Top 3.
    public var refresh = false
    /// `explain plan`: every row with its score.
    public var explain = false
    public var filter: FilterSource? = nil
    /// `limit N` (rows of Quick wins and of the rest); nil for the default, Int.max for `all`.
    public var limit: Int? = nil
}

/// What `agenda` asks (docs/AGENDA.md): how many days (nil: 7), from which day (nil: today),
/// and which tasks.
public struct AgendaSpec: Sendable {
    public var days: Int? = nil
    public var daysRange: SourceRange? = nil
    public var from: TextArg? = nil
    public var filter: FilterSource? = nil
    public init() {}
}

/// What `top3 …` does (R-PLAN-7).
public enum Top3Edit: Sendable {
    case show
    case change
    case add(TaskRef)
    case replace(TaskRef, with: TaskRef)
}

/// A change of a repeat's dates (EXDATE and RDATE): the task, and the date as written.
public enum RepeatDateEdit: Sendable {
    case skipNext(TaskTarget)
    case skip(TaskTarget, TextArg)
    case unskip(TaskTarget, TextArg)
    case rdate(TaskTarget, TextArg)
    case unrdate(TaskTarget, TextArg)
}

/// `import FILE [as FORMAT] [events] [dry-run]` (docs/INTEROP.md).
public struct ImportRequest: Sendable {
    public var file: TextArg
    public var format: TextArg?
    public var events = false
    public var dryRun = false
}

/// `export FILE [as FORMAT] [FILTER]`.
public struct ExportRequest: Sendable {
    public var file: TextArg
    public var format: TextArg?
    public var filter: FilterSource?
}

/// What `sync …` asks (docs/SYNC.md, "Statements and commands"): a sync, or the store's sync
/// state, or a refused change by its number in `sync review` (from 1).
public enum SyncCommand: Sendable, Equatable {
    case sync
    case status
    case review
    case retry(Int, SourceRange)
    case discard(Int, SourceRange)
}

/// What `calendar …` asks (docs/AGENDA.md, "Connected calendars").
public enum CalendarCommand: Sendable, Equatable {
    /// `calendar connect NAME FILE`.
    case connect(name: TextArg, file: TextArg)
    case list
    case hide(TextArg)
    case show(TextArg)
    case disconnect(TextArg)
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

/// A filter as the parser read it, in the statement's one pass (docs/FILTERS.md, "Stages"): its
/// syntax tree with the warnings its words gave, or the error that stopped it, and the range it
/// covers. An error is reported when the statement runs, after those of its other parts, and
/// the warnings with the statement's output.
public struct FilterSource: Sendable {
    public var parsed: Result<ParsedFilter, Diagnostic>
    public var range: SourceRange

    public init(parsed: Result<ParsedFilter, Diagnostic>, range: SourceRange) {
        self.parsed = parsed
        self.range = range
    }
}

/// What a statement does.
public enum StatementKind: Sendable {
    case now(TextArg?)
    case zone(TextArg?)
    /// `set` alone lists the settings; `set KEY VALUE` changes one.
    case setting(key: TextArg?, value: TextArg?)
    case setField(TaskTarget, field: TextArg, value: TextArg)
    case add(TextArg)
    case capture(TextArg)
    case parse(TextArg)
    /// `parse filter F`: the filter's syntax tree.
    case parseFilter(FilterSource)
    case date(TextArg)
    case explainDate(TextArg)
    case repeatPreview(TextArg)
    case rrule(TextArg)
    case show(TaskRef, field: TextArg?)
    /// `list` and its parts and clauses, or the error that stopped them (reported when it runs).
    case list(Result<ListClauses, Diagnostic>)
    case filterDefine(TextArg, FilterSource)
    case filterStar(TextArg, Bool)
    case filterDelete(TextArg)
    case filterRename(TextArg, TextArg)
    case filterMove(TextArg, Int)
    case filters
    /// `explain FILTER`, or `explain FILTER for ID`: each part of the filter tried on one task.
    case explainFilter(FilterSource, for: TaskRef?)
    case areas
    case count(FilterSource?)
    case complete(TaskTarget)
    case reopen(TaskTarget)
    case delete(TaskTarget)
    case archive(TaskTarget)
    case unarchive(TaskTarget)
    /// R-VIEW-6: one day later, keeping the time.
    case tomorrow(TaskTarget)
    case reschedule(TaskTarget, TextArg)
    /// `move ID to GROUP`: a due group of R-VIEW-4.
    case move(TaskTarget, group: TextArg)
    case tag(TaskTarget, [TextArg], add: Bool)
    case duplicate(TaskTarget)
    case step(TaskRef, StepEdit)
    case comment(TaskRef, TextArg)
    case link(TaskTarget, TextArg, add: Bool)
    case subtask(TaskRef, TextArg)
    /// `remind ID PRESET|DATE-PHRASE` (R-TASK-7).
    case remind(TaskTarget, TextArg)
    /// `unremind ID N|all`.
    case unremind(TaskTarget, TextArg)
    case reminders
    /// `skip`, `unskip`, `rdate`, `unrdate`: a repeat's taken-out and added dates.
    case repeatDates(RepeatDateEdit)
    case undo(count: Int)
    case redo(count: Int)
    case projectAdd(TextArg)
    case projectRename(TextArg, to: TextArg)
    case projectArchive(TextArg, archived: Bool)
    case projectDelete(TextArg, ProjectTasksChoice?)
    /// `project statuses NAME [add|remove STATUS]`: a project's own statuses.
    case projectStatuses(TextArg, StatusEdit?)
    case projects
    case help(TextArg?)
    case plan(PlanRequest)
    case why(TaskRef)
    case notToday(TaskTarget)
    case back(TaskRef)
    case top3(Top3Edit)
    case importFile(ImportRequest)
    case exportFile(ExportRequest)
    case sync(SyncCommand)
    /// `account` shows the link; `account link "CONNINFO"` links the store (the connection
    /// string as written: it may hold a password, which the statement's source never shows).
    case account(link: TextArg?)
    /// `agenda [N days] [from DATE] [where FILTER]`: the days ahead (docs/AGENDA.md).
    case agenda(AgendaSpec)
    /// `plan openings [N]`: free times today for the Top 3 picks, suggested only.
    case openings(Int?)
    /// `calendar connect|list|hide|show|disconnect …`.
    case calendar(CalendarCommand)

    /// Whether the statement can change the store (a plan stores its snapshot, so `plan` and
    /// `why` can). Only reads are false: a store that locks takes its lock for the others.
    public var mayChange: Bool {
        switch self {
        case .now, .zone, .parse, .parseFilter, .date, .explainDate, .repeatPreview, .rrule, .show, .list, .filters, .explainFilter,
             .areas, .count, .reminders, .projects, .help, .exportFile, .agenda, .openings:
            return false
        case .importFile(let r): return !r.dryRun
        case .sync(let c): return c != .status && c != .review
        case .account(let link): return link != nil
        case .calendar(let c): return c != .list
        case .setting(_, let value): return value != nil
        case .projectStatuses(_, let edit): return edit != nil
        default: return true
        }
    }
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
