// The catalog's diagnostics of the engine's errors: the one place a DomainError gets a code, a
// message, a label and a help. The session passes the range of the words the error is about,
// what those words said where the message quotes them (ErrorWords), and how dates and times
// read (TaskText).

import KeptRules
import KeptDomain
import KeptSyntax

extension Catalog {
    /// The diagnostic of an engine error, pointing at `range` in `file`.
    package static func domain(_ e: DomainError, range: SourceRange, file: SourceFile, words: ErrorWords = ErrorWords(),
                               text: TaskText) -> Diagnostic {
        switch e {
        case .noTask(let id): return noTask(id, range: range, file: file)
        case .wrongState(let p): return state(p, range: range, file: file)
        case .unknownProject(let name, let known): return unknownProject(name, range: range, file: file, candidates: known)
        case .archivedProject(let name): return archivedProject(name, range: range, file: file)
        case .projectExists(let name): return projectExists(name, range: range, file: file)
        case .projectHasTasks(let name, let n): return projectHasTasks(name, count: n, range: range, file: file)
        case .unknownStatus(let word, let project, let allowed):
            let whose = project.map { "project \($0)" } ?? "a task without a project"
            let list = "statuses: " + allowed.joined(separator: ", ")
            let help: String
            if let near = didYouMean(Suggestion.nearest(word, in: allowed)) { help = near + "; " + list }
            else if let p = project { help = list + "; 'project statuses \(p) add \(word)' adds it" }
            else { help = list }
            return Diagnostic(code: .E0319, message: "'\(word)' is not a status of \(whose)", file: file, range: range,
                              label: "not one of its statuses", help: help)
        case .statusExists(let project, let status, let builtIn):
            return Diagnostic(code: .E0320, message: "project \(project) already has the status '\(status)'", file: file, range: range,
                              label: builtIn ? "a built-in status" : "already in its list",
                              help: builtIn ? "open, waiting, done and archived are every task's; any and all are words of the status: filter" : nil)
        case .noSuchStatus(let project, let status, let own):
            return Diagnostic(code: .E0321, message: "project \(project) has no status '\(status)'", file: file, range: range,
                              label: "not in its list", help: own.isEmpty ? "it has no statuses of its own" : "its own: " + own.joined(separator: ", "))
        case .badStatusName(let value):
            return badFieldValue("status", value: value, range: range, file: file, expected: "a name of one line, up to 40 characters")
        case .statusDone:
            return badFieldValue("status", value: words.value ?? "done", range: range, file: file, expected: "open, archived or a status of open work",
                                 help: "'complete ID' marks a task done, with its next occurrence")
        case .badTag(let name):
            return badFieldValue("tags", value: words.quoted[name] ?? words.value ?? name, range: range, file: file, expected: "a tag name like #errand",
                                 help: "a tag is not only digits")
        case .parentCycle(let child, let parent):
            return Diagnostic(code: .E0313, message: "task \(parent) cannot be the parent of task \(child)", file: file, range: range,
                              label: "this would make a loop of subtasks")
        case .emptyTitle: return emptyTitle(range: range, file: file)
        case .titleNotOneLine(let v):
            return badFieldValue("title", value: v, range: range, file: file, expected: "one line of text",
                                 help: "a title has no line breaks or tabs; put details in the description")
        case .stepNotOneLine(let v): return badFieldValue("steps", value: v, range: range, file: file, expected: "one line of text")
        case .noStep(let n, let t): return noStep(n, of: t, range: range, file: file)
        case .noReminder(let n, let t): return noReminder(n, of: t, range: range, file: file)
        case .reminder(.tooLateToday):
            return Diagnostic(code: .E0316, message: "it is too late for 'later today'", file: file, range: range,
                              label: "three hours from now is past the end of today",
                              help: "'remind … tomorrow morning' rings at \(text.time(text.settings.morning)) tomorrow")
        case .reminder(.passed(let at, let preset)):
            return Diagnostic(code: .E0316, message: "\(text.reminderTime(at)) has passed", file: file, range: range,
                              label: "a reminder rings ahead of now",
                              help: preset == .thisEvening ? "'remind … tomorrow' rings tomorrow morning" : nil)
        case .cannotMove(.intoOverdue):
            return Diagnostic(code: .E0312, message: "nothing can be moved into Overdue", file: file, range: range,
                              label: "a date cannot be moved into the past this way",
                              help: "'reschedule \(words.target ?? "ID") DATE' sets any date, a past one included")
        case .cannotMove(.weekEnds(let d)):
            return Diagnostic(code: .E0312, message: "this week has no day after tomorrow", file: file, range: range,
                              label: "the week ends \(TimeText.shortDate(d))", help: "move it to tomorrow or later")
        case .nothingToUndo: return nothingToUndo(range: range, file: file)
        case .nothingToRedo: return nothingToRedo(range: range, file: file)
        case .noSavedFilter(let name, let known): return noSavedFilter(name, range: range, file: file, known: known)
        case .savedFilterExists(let name): return savedFilterExists(name, range: range, file: file)
        case .unknownSetting(let key, let known): return unknownSetting(key, range: range, file: file, candidates: known)
        case .badSettingValue(let key, let value, let expected):
            return badSettingValue(key, value: value, range: range, file: file, expected: settingValues(expected))
        case .notInPlan(let t, let why): return notInPlan(t, range: range, file: file, why: Catalog.words(why))
        case .top3Full(let picks, let t): return top3Full(picks, adding: t, range: range, file: file)
        case .notAPick(let t, let picks): return notAPick(t, range: range, file: file, picks: picks)
        case .held(let t, let until): return heldTask(t, until: TimeText.shortDate(until), range: range, file: file)
        case .alreadyPicked(let t): return alreadyPicked(t, range: range, file: file)
        case .idsUsedUp: return idsUsedUp(range: range, file: file)
        case .repeatDate(let t, let p): return repeatDate(t, p, range: range, file: file, text: text)
        case .noCalendar(let name, let known): return noCalendar(name, range: range, file: file, known: known)
        case .calendarExists(let name): return calendarExists(name, range: range, file: file)
        }
    }

    /// What a setting takes, as `set` and `help settings` say it.
    package static func settingValues(_ kind: Settings.ValueKind) -> String {
        switch kind {
        case .time(let like): return "a time like \(like.iso)"
        case .weekday: return "monday or sunday (any weekday)"
        case .hourCycle: return "12h or 24h"
        case .dateOrder: return "mdy or dmy"
        case .nextWeekday: return "coming or following-week"
        case .zone: return "an IANA zone like Europe/Berlin"
        case .duration: return "a duration like 15m"
        case .rowDetail: return "simple or detailed"
        case .onOff: return "on or off"
        case .weight(let minimum): return minimum > -1000 ? "a number from \(UrgencyWeights.text(minimum)) to 1000" : "a number from -1000 to 1000"
        }
    }

    /// Why a task is not in the plan, as the label under it says.
    package static func words(_ why: NotInPlan) -> String {
        switch why {
        case .notOpen: return "only open tasks are planned"
        case .noColumns: return "not in the store's columns"
        case .noSection: return "not in any section"
        }
    }

    // MARK: tasks by title

    /// Where a title was looked for: among tasks of a status, or among the Top 3 picks.
    package enum TitleLookup {
        case tasks(TitleScope)
        case picks
    }

    /// No task of `scope` has the title; `candidates` are the titles that do.
    package static func noTitle(_ title: String, among scope: TitleScope, range: SourceRange, file: SourceFile, candidates: [String]) -> Diagnostic {
        Diagnostic(code: .E0305, message: "no \(scope.word) task titled \"\(title)\"", file: file, range: range,
                   label: "no exact match",
                   // Every single quote becomes a double one, an apostrophe of the title too (as it always was).
                   help: didYouMean(Suggestion.nearest(title, in: candidates)).map { $0.replacingOccurrences(of: "'", with: "\"") })
    }

    /// Several tasks have the title: their ids, and the lines of those shown as candidates.
    package static func ambiguousTitle(_ title: String, among: TitleLookup, ids: [Int], candidates: [String], range: SourceRange,
                                       file: SourceFile) -> Diagnostic {
        let which: String
        switch among {
        case .tasks(let scope): which = "\(scope.word) tasks"
        case .picks: which = "Top 3 picks"
        }
        return Diagnostic(code: .E0306, message: "\(ids.count) \(which) are titled \"\(title)\"", file: file, range: range,
                          label: "matches \(ids.map(String.init).joined(separator: ", "))", notes: candidates.map { "candidate: " + $0 },
                          help: "refer to one by its id")
    }

    // MARK: states

    /// A task, a project or a saved filter in a state the action does not apply to.
    package static func state(_ p: StateProblem, range: SourceRange, file: SourceFile) -> Diagnostic {
        func wrong(_ message: String, help: String? = nil) -> Diagnostic {
            Diagnostic(code: .E0310, message: message, file: file, range: range, label: "see the task's status", help: help)
        }
        switch p {
        case .alreadyCompleted(let id): return wrong("task \(id) is already completed", help: "'reopen \(id)' marks it open again")
        case .notCompleted(let id): return wrong("task \(id) is not completed")
        case .alreadyArchived(let id): return wrong("task \(id) is already archived", help: "'unarchive \(id)' brings it back")
        case .notArchived(let id): return wrong("task \(id) is not archived")
        case .notOpen(let id, let what):
            return wrong("task \(id) is not open",
                         help: what == .notToday ? "Not today holds open tasks" : "\(words(what)) works on open tasks; 'reopen \(id)' opens it again")
        case .remindersCancelled(let id, let status):
            return wrong("task \(id) is \(status == .done ? "completed" : status.rawValue); its reminders are cancelled",
                         help: "reopen it first: its reminders come back with it")
        case .projectArchived(let name, let archived): return wrong("project \(name) is \(archived ? "already" : "not") archived")
        case .filterInUse(let name, let user): return filterInUse(name, by: user, range: range, file: file)
        }
    }

    /// Why a repeat's skipped or added dates cannot change so (docs/REPEATS.md).
    package static func repeatDate(_ t: Task, _ p: RepeatDateProblem, range: SourceRange, file: SourceFile, text: TaskText) -> Diagnostic {
        let id = t.id
        func written(_ d: Due) -> String { d.date.iso + (d.time.map { " " + $0.iso } ?? "") }
        func listed(_ ds: [Due]) -> String { ds.map(text.occurrence).joined(separator: ", ") }
        let code: DiagnosticCode, message: String, label: String
        var help: String? = nil
        switch p {
        case .notRepeating(let hasRepeat):
            code = .E0221
            if hasRepeat {
                message = "task \(id) has no due date, so its repeat has no open occurrence"
                label = "no due date"
                help = "'reschedule \(id) DATE' dates it"
            } else {
                message = "task \(id) does not repeat"
                label = "no repeat"
                help = "'set \(id) repeat every week' gives it one"
            }
        case .notAnOccurrence(let d, let near):
            code = .E0222
            message = "\(text.occurrence(d)) is not a date of task \(id)'s repeat"
            label = "not an occurrence of \(t.repeatRule?.text ?? "its repeat")"
            help = near.isEmpty ? "the series has no dates near it" : "its dates near it: \(listed(near))"
        case .seriesEnds(let after):
            code = .E0223
            message = "task \(id)'s repeat has no occurrence after \(text.occurrence(after))"
            label = "the last of its series"
            help = "'complete \(id)' finishes the series; 'set \(id) repeat never' stops it here"
        case .alreadyAnOccurrence(let d, let skipped):
            code = .E0224
            if skipped {
                message = "\(text.occurrence(d)) is a date of task \(id)'s repeat, skipped"
                label = "taken out by skip"
                help = "'unskip \(id) \(written(d))' gives it back"
            } else {
                message = "\(text.occurrence(d)) is already a date of task \(id)'s repeat"
                label = "the rule gives it"
            }
        case .notListed(let d, let added, let ds):
            code = .E0329
            message = added ? "task \(id)'s repeat has no added date \(text.occurrence(d))" : "task \(id)'s repeat does not skip \(text.occurrence(d))"
            label = added ? "not an added date" : "not a skipped date"
            help = ds.isEmpty ? (added ? "it has no added dates" : "it skips no dates") : (added ? "its added dates: " : "it skips: ") + listed(ds)
        case .passed(let d, let open):
            code = .E0330
            if RepeatSpec.moment(d) < RepeatSpec.moment(open), d.date != open.date || d.time != nil {
                message = "\(text.occurrence(d)) is before task \(id)'s open occurrence, \(text.occurrence(open))"
                label = "the series is past it"
                help = "'skip next \(id)' takes out the open occurrence; a later date takes out that one"
            } else {
                message = "\(text.occurrence(d)) has passed"
                label = "an added date is ahead of now"
            }
        case .timeDoesNotFit(let d, let timed):
            code = .E0331
            if timed {
                message = "task \(id)'s repeat has several times a day: an added date needs one"
                label = "which time of the day?"
                help = "for example: rdate \(id) \(d.date.iso) 5pm"
            } else {
                message = "task \(id)'s repeat has no times of day"
                label = "a time for a series of whole days"
                help = "write the day alone: \(d.date.iso)"
            }
        }
        return Diagnostic(code: code, message: message, file: file, range: range, label: label, help: help)
    }
}

// MARK: sync (docs/SYNC.md, "Using sync")

extension Catalog {
    /// A sync statement or command where no connector reaches a server.
    public static func syncUnavailable(range: SourceRange?, file: SourceFile?) -> Diagnostic {
        Diagnostic(code: .E0338, message: "sync is not available here", file: file, range: range,
                   label: "this program reaches no sync server",
                   help: file == nil ? nil : "'sync status' and 'sync review' read the store without one")
    }

    /// A connection string that does not read. It is never quoted, nor any part of it: it may
    /// hold a password (R-SYNC-9).
    public static func badConnectionString(range: SourceRange?, file: SourceFile?) -> Diagnostic {
        Diagnostic(code: .E0348, message: "the connection string does not read as a libpq connection string or URI", file: file,
                   range: range, label: "not a connection string",
                   help: "key=value pairs (host=db.example.com dbname=kept user=alice) or a URI (postgresql://alice@db.example.com/kept)")
    }

    /// A statement that would change the account, in a query on the server (`kept run --account`).
    public static func accountOnlyReads(range: SourceRange?, file: SourceFile?) -> Diagnostic {
        Diagnostic(code: .E0349, message: "'kept run --account' only reads the account: this statement would change it",
                   file: file, range: range, label: "changes the account",
                   help: "link a store to the account ('account link \"CONNINFO\"'), change it there, and sync")
    }

    /// Why a sync statement could not do what it was asked, at the statement's words.
    public static func sync(_ p: SyncProblem, range: SourceRange?, file: SourceFile?) -> Diagnostic {
        switch p {
        case .notLinked:
            return Diagnostic(code: .E0339, message: "this store is linked to no account", file: file, range: range, label: "not linked",
                              help: "'account link \"CONNINFO\"' links it (or 'kept account link CONNINFO [--store FILE]')")
        case .alreadyLinked(let account):
            return Diagnostic(code: .E0340, message: "this store is linked to the account '\(account)' already", file: file, range: range,
                              label: "linked", help: "'sync status' shows the link; a store is linked to one account for good")
        case .noRefusedChange(let n, let count):
            let there = count == 0 ? "there are none" : count == 1 ? "there is 1" : "there are \(count)"
            return Diagnostic(code: .E0341, message: "no refused change \(n): \(there)", file: file, range: range, label: "no such number",
                              help: count == 0 ? nil : "'sync review' lists them, numbered from 1")
        case .failed(let f, let waiting):
            return syncFailure(f, waiting: waiting, range: range, file: file)
        case .notWritten(let e):
            return Catalog.store(e)
        }
    }

    /// `3 changes waiting`.
    package static func waiting(_ n: Int) -> String {
        n == 0 ? "no changes waiting" : n == 1 ? "1 change waiting" : "\(n) changes waiting"
    }

    /// A server that could not be used: offline (E0342, the one a front end exits 3 for), a
    /// refused login, no schema, no account, the server's refusal, a row that does not read.
    /// `waiting` is the outbox, which stays as it was; nil where no store is involved
    /// (`kept account init`).
    public static func syncFailure(_ f: SyncFailure, waiting: Int?, range: SourceRange?, file: SourceFile?) -> Diagnostic {
        let notes = waiting.map { ["\(Catalog.waiting($0)); the store is as it was"] } ?? []
        switch f {
        case .offline(let why):
            let head = waiting.map { "offline, \(Catalog.waiting($0))" } ?? "offline"
            return Diagnostic(code: .E0342, message: "\(head): the sync server could not be reached (\(why))", file: file, range: range,
                              label: "not reached", help: waiting == nil ? nil : "nothing is lost: the changes go with the next 'sync'")
        case .login(let why):
            return Diagnostic(code: .E0343, message: "the sync server refused the login: \(why)", file: file, range: range,
                              label: "login refused", notes: notes,
                              help: "check the user of the connection string; a password comes from PGPASSWORD or ~/.pgpass, never from the store")
        case .schema(let why):
            return Diagnostic(code: .E0344, message: "the sync server has no kept schema this version can use: \(why)", file: file,
                              range: range, label: "no schema", notes: notes, help: "'kept account init' makes or migrates it")
        case .noAccount(let why):
            return Diagnostic(code: .E0345, message: "the sync server has no such account: \(why)", file: file, range: range,
                              label: "no account", notes: notes, help: "'kept account create NAME' makes one")
        case .server(let why):
            return Diagnostic(code: .E0346, message: "the sync server refused: \(why)", file: file, range: range, label: "refused",
                              notes: notes)
        case .badRow(let why):
            return Diagnostic(code: .E0347, message: "the sync server sent an item this version cannot read: \(why)", file: file,
                              range: range, label: "not read", notes: notes, help: "a newer kept may read it")
        }
    }
}
