// The one keyword list. Completion, the grammar check, did-you-mean and `help` are all
// derived from it, so a command cannot be known to one of them and missing from another.

import KeptRules

/// Every keyword of the language.
public enum Keyword: String, CaseIterable, Sendable {
    // Commands, in the order `help` lists them.
    case add
    case capture
    case parse
    case date
    case explain
    case `repeat`
    case rrule
    case show
    case list
    case count
    case filter
    case filters
    case areas
    case complete
    case reopen
    case delete
    case archive
    case unarchive
    case tomorrow
    case reschedule
    case move
    case tag
    case untag
    case duplicate
    case step
    case comment
    case link
    case unlink
    case subtask
    case remind
    case unremind
    case reminders
    case skip
    case unskip
    case rdate
    case unrdate
    case set
    case undo
    case redo
    case project
    case projects
    case now
    case zone
    case help
    case plan
    case why
    case not
    case back
    case top3
    case `import`
    case export
    case sync
    case account
    case agenda
    case calendar
    // Words inside statements.
    case all

    /// True for a word that starts a statement.
    public var isCommand: Bool { Keyword.commands.contains(self) }

    /// The keywords that start statements.
    public static let commands: [Keyword] = [
        .add, .capture, .parse, .date, .explain, .repeat, .rrule, .show, .list, .count, .filter, .filters, .areas, .complete, .reopen, .delete,
        .archive, .unarchive, .tomorrow, .reschedule, .move, .tag, .untag, .duplicate, .step, .comment, .link, .unlink, .subtask,
        .remind, .unremind, .reminders, .skip, .unskip, .rdate, .unrdate, .set, .undo, .redo, .project, .projects, .now, .zone, .help,
        .plan, .why, .not, .back, .top3, .import, .export, .sync, .account, .agenda,
        .calendar,
    ]

    /// The subcommands a command takes, for `project add`.
    public var subcommands: [String] {
        switch self {
        case .project: return ["add", "rename", "archive", "unarchive", "delete", "statuses"]
        case .step: return ["add", "check", "uncheck", "remove"]
        case .explain: return ["date", "plan"]
        case .plan: return ["refresh", "by", "openings"]
        case .top3: return ["change", "add", "replace"]
        case .not: return ["today"]
        case .skip: return ["next"]
        case .filter: return ["star", "unstar", "delete", "rename", "move"]
        case .sync: return ["status", "review", "retry", "discard"]
        case .account: return ["link"]
        case .calendar: return ["connect", "list", "hide", "show", "disconnect"]
        default: return []
        }
    }

    /// One line on what the command does.
    public var summary: String {
        switch self {
        case .add: return "file a task from a quick-add line"
        case .capture: return "file a task, also reading a date at the end without '@'"
        case .parse: return "show what a quick-add line would file, token by token, or a filter's syntax, without running it"
        case .date: return "print the date and time a phrase means now"
        case .explain: return "say which rule decided a date, what a filter means, or why it matches a task"
        case .repeat: return "preview the dates of a repeat rule"
        case .rrule: return "print the RFC 5545 RRULE of a repeat rule"
        case .show: return "print a task, or one of its fields"
        case .list: return "list the open tasks, or those a filter matches"
        case .count: return "count the tasks a filter matches"
        case .filter: return "save a filter by name, or star, rename, move or delete one"
        case .filters: return "list the saved filters, starred first"
        case .areas: return "list the areas, each once"
        case .complete: return "mark a task done"
        case .reopen: return "mark a done task open again"
        case .delete: return "delete a task with its subtasks"
        case .archive: return "archive a task"
        case .unarchive: return "bring an archived task back"
        case .tomorrow: return "move a due date one day later, keeping its time"
        case .reschedule: return "give a task a new due date (today, tomorrow, next week, a date, or clear)"
        case .move: return "move a task into a due group, keeping its time"
        case .tag: return "add tags to a task"
        case .untag: return "remove tags from a task"
        case .duplicate: return "copy a task as a new open task"
        case .step: return "add, check, uncheck or remove a checklist step"
        case .comment: return "add a comment to a task"
        case .link: return "link a task to notes"
        case .unlink: return "remove note links from a task"
        case .subtask: return "file a task as a subtask of another"
        case .remind: return "add a reminder: later today, in an hour, this evening, tomorrow morning, next week, in 1 month, or a date and time"
        case .unremind: return "remove one reminder of a task, or all of them"
        case .reminders: return "list the Past due reminders and the nearest 60 scheduled ones"
        case .skip: return "take an occurrence out of a task's repeat: the next one (the task moves on), or a date"
        case .unskip: return "give back an occurrence that skip took out"
        case .rdate: return "add an occurrence to a task's repeat"
        case .unrdate: return "remove an occurrence that rdate added"
        case .set: return "change a setting, or a field of a task"
        case .undo: return "undo the last change, or the last N"
        case .redo: return "redo what undo undid"
        case .project: return "manage projects and their own statuses"
        case .projects: return "list the projects with their task counts and statuses"
        case .now: return "print the clock, or fix it"
        case .zone: return "print the zone in use, or set it for this session only (as --zone); 'set zone NAME' saves the account zone with the store"
        case .help: return "list the commands, or explain one"
        case .plan: return "print the Smart plan: Top 3, Quick wins and all other tasks (or by date)"
        case .why: return "print every term of a task's score, its section and its neighbours"
        case .not: return "not today: hold a task out of Top 3 and Quick wins until tomorrow"
        case .back: return "end a Not today hold early and show the task in Top 3"
        case .top3: return "print Top 3, pick a new one, add a task or replace a pick"
        case .import: return "import tasks from a Taskwarrior, iCalendar, JSON Lines or CSV file, as one undo step"
        case .export: return "write tasks to a Taskwarrior, iCalendar, JSON Lines or CSV file"
        case .sync: return "sync the store with its account: send its changes, take in the other devices'; or its status and refused changes"
        case .account: return "show the account this store syncs with, or link it to an account on a server"
        case .agenda: return "print the days ahead: overdue, due this day, timed tasks and events in time order, upcoming repeats"
        case .calendar: return "connect an iCalendar file whose events the agenda shows (read-only), list, hide, show or disconnect one"
        case .all: return ""
        }
    }

    /// The usage line.
    public var usage: String {
        switch self {
        case .add: return "add TITLE [@DATE] [every RULE] [!PRIORITY] [+PROJECT] [#TAG]... [[[NOTE]]]..."
        case .capture: return "capture TITLE [DATE]"
        case .parse: return "parse LINE | parse filter FILTER"
        case .date: return "date PHRASE"
        case .explain: return "explain date PHRASE | explain plan [FILTER] [limit N] | explain FILTER [for ID]"
        case .repeat: return "repeat RULE|RRULE [from DATE] [next N]"
        case .rrule: return "rrule RULE"
        case .show: return "show ID|\"TITLE\" [FIELD]"
        case .list: return "list [FILTER]"
        case .count: return "count [FILTER]"
        case .filter: return "filter NAME = FILTER | filter star|unstar|delete NAME | filter rename OLD to NEW | filter move NAME to N"
        case .filters: return "filters"
        case .areas: return "areas"
        case .complete: return "complete ID|\"TITLE\"|where FILTER"
        case .reopen: return "reopen ID|\"TITLE\"|where FILTER"
        case .delete: return "delete ID|\"TITLE\"|where FILTER"
        case .archive: return "archive ID|\"TITLE\"|where FILTER"
        case .unarchive: return "unarchive ID|\"TITLE\"|where FILTER"
        case .tomorrow: return "tomorrow ID|\"TITLE\"|where FILTER"
        case .reschedule: return "reschedule ID|\"TITLE\"|where (FILTER) today|tomorrow|next week|DATE|clear"
        case .move: return "move ID|\"TITLE\"|where (FILTER) to today|tomorrow|this week|later|no due date"
        case .tag: return "tag ID|\"TITLE\"|where (FILTER) TAG..."
        case .untag: return "untag ID|\"TITLE\"|where (FILTER) TAG..."
        case .duplicate: return "duplicate ID|\"TITLE\"|where FILTER"
        case .step: return "step ID|\"TITLE\" add TEXT | step ID check|uncheck|remove N"
        case .comment: return "comment ID|\"TITLE\" TEXT"
        case .link: return "link ID|\"TITLE\"|where (FILTER) [[NOTE]]..."
        case .unlink: return "unlink ID|\"TITLE\"|where (FILTER) [[NOTE]]..."
        case .subtask: return "subtask PARENT-ID|\"TITLE\" QUICK-ADD-LINE"
        case .remind: return "remind ID|\"TITLE\"|where (FILTER) later today|in an hour|this evening|tomorrow morning|next week|in 1 month|DATE [TIME]"
        case .unremind: return "unremind ID|\"TITLE\"|where (FILTER) N|all"
        case .reminders: return "reminders"
        case .skip: return "skip next ID|\"TITLE\"|where FILTER | skip ID|\"TITLE\"|where (FILTER) DATE [TIME]"
        case .unskip: return "unskip ID|\"TITLE\"|where (FILTER) DATE [TIME]"
        case .rdate: return "rdate ID|\"TITLE\"|where (FILTER) DATE [TIME]"
        case .unrdate: return "unrdate ID|\"TITLE\"|where (FILTER) DATE [TIME]"
        case .set: return "set [SETTING VALUE] | set ID|\"TITLE\"|where (FILTER) FIELD VALUE"
        case .undo: return "undo [N]"
        case .redo: return "redo [N]"
        case .project: return "project add NAME | project rename OLD to NEW | project archive|unarchive NAME | project delete NAME [move-to inbox|delete-tasks] | project statuses NAME [add|remove STATUS]"
        case .projects: return "projects"
        case .now: return "now [YYYY-MM-DD HH:MM | ISO-INSTANT]"
        case .zone: return "zone [IANA-NAME]"
        case .help: return "help [COMMAND]"
        case .plan: return "plan [refresh | by date | openings [N]] [FILTER] [limit N|all]"
        case .why: return "why ID|\"TITLE\""
        case .not: return "not today ID|\"TITLE\"|where FILTER"
        case .back: return "back ID|\"TITLE\""
        case .top3: return "top3 [change | add ID | replace ID with ID]"
        case .import: return "import FILE|- [as tw|ics|jsonl|csv] [events] [dry-run]"
        case .export: return "export FILE|- [as tw|ics|jsonl|csv] [FILTER]"
        case .sync: return "sync [status | review | retry N | discard N]"
        case .account: return "account [link \"CONNINFO\"]"
        case .agenda: return "agenda [N days] [from DATE] [where FILTER]"
        case .calendar: return "calendar connect NAME FILE.ics | calendar list | calendar hide|show|disconnect NAME"
        case .all: return ""
        }
    }

    /// A runnable example, shown by `help COMMAND`. Run in the order of `commands` against
    /// examples/home.store.json, every one succeeds (HelpTests.testEveryExampleRuns).
    public var example: String {
        switch self {
        case .add: return "add Call the dentist @tomorrow 3pm every 6 months +Home #phone !high"
        case .capture: return "capture Board offsite Friday 9am"
        case .parse: return "parse Pay rent @jan 31 every month on the 31st"
        case .date: return "date next fri 3pm"
        case .explain: return "explain date fri"
        case .repeat: return "repeat every month on the 31st from 2026-01-31 next 6"
        case .rrule: return "rrule every month on the last friday"
        case .show: return "show 1 due"
        case .list: return "list +Home or overdue order by due limit 5"
        case .count: return "count #phone or overdue"
        case .filter: return "filter Errands = #errand or +Home"
        case .filters: return "filters"
        case .areas: return "areas"
        case .complete: return "complete 1"
        case .reopen: return "reopen 1"
        case .delete: return "delete \"Read 'Thinking in Systems'\""
        case .archive: return "archive where done"
        case .unarchive: return "unarchive 4"
        case .tomorrow: return "tomorrow where overdue"
        case .reschedule: return "reschedule 1 next fri 3pm"
        case .move: return "move where (overdue) to today"
        case .tag: return "tag 1 #errand #phone"
        case .untag: return "untag where (#someday) someday"
        case .duplicate: return "duplicate 1"
        case .step: return "step 1 add Pack the charger"
        case .comment: return "comment 1 \"called, left a message\""
        case .link: return "link 1 [[Trip plan]]"
        case .unlink: return "unlink 1 [[Trip plan]]"
        case .subtask: return "subtask 1 Book the flights @fri"
        case .remind: return "remind 1 tomorrow morning"
        case .unremind: return "unremind 1 all"
        case .reminders: return "reminders"
        case .skip: return "skip next 7"
        case .unskip: return "unskip 7 jun 16"
        case .rdate: return "rdate 7 sat 5pm"
        case .unrdate: return "unrdate 7 sat 5pm"
        case .set: return "set where (+Home) priority high"
        case .undo: return "undo 2"
        case .redo: return "redo"
        case .project: return "project statuses Home add \"In review\""
        case .projects: return "projects"
        case .now: return "now 2026-06-15 09:00"
        case .zone: return "zone Europe/Berlin"
        case .help: return "help add"
        case .plan: return "plan @next 7 days limit 10"
        case .why: return "why 3"
        case .not: return "not today 3"
        case .back: return "back 3"
        case .top3: return "top3 replace 7 with 3"
        case .import: return "import examples/interop/tasks.tw.json dry-run"
        case .export: return "export - as ics +Home"
        case .sync: return "sync status"
        case .account: return "account"
        case .agenda: return "agenda 3 days from tomorrow where #phone"
        case .calendar: return "calendar connect Work examples/agenda-work.ics"
        case .all: return ""
        }
    }
}
