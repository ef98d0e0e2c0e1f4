// The engine's errors as diagnostics: the one place a DomainError gets a code, a message and
// the range of the words it is about. A statement passes the range (the task reference, or the
// value) and what the words said where the message quotes them.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// What a statement's words said, for messages that quote them.
package struct ErrorWords {
    /// The value as typed (`set 1 status done`: `done`).
    package var value: String? = nil
    /// How the target reads in a help line (`3`, `where #errand`).
    package var target: String? = nil
    /// Names as the user typed them (`42` → `#42`).
    package var quoted: [String: String] = [:]
}

extension Session {
    /// The diagnostic of an engine error, pointing at `range` in the statement's file.
    package func diagnostic(_ e: DomainError, _ s: Statement, at range: SourceRange, words: ErrorWords = ErrorWords()) -> Diagnostic {
        let file = s.source.file
        switch e {
        case .noTask(let id): return Catalog.noTask(id, range: range, file: file)
        case .wrongState(let p): return stateDiagnostic(p, range: range, file: file)
        case .unknownProject(let name, let known): return Catalog.unknownProject(name, range: range, file: file, candidates: known)
        case .archivedProject(let name): return Catalog.archivedProject(name, range: range, file: file)
        case .projectExists(let name): return Catalog.projectExists(name, range: range, file: file)
        case .projectHasTasks(let name, let n): return Catalog.projectHasTasks(name, count: n, range: range, file: file)
        case .unknownStatus(let word, let project, let allowed):
            let whose = project.map { "project \($0)" } ?? "a task without a project"
            var d = Catalog.unknownStatus("'\(word)' is not a status of \(whose)", range: range, file: file, allowed: allowed)
            if let near = Suggestion.help(word, in: allowed) { d.help = near + "; statuses: " + allowed.joined(separator: ", ") }
            else if let p = project { d.help = "statuses: \(allowed.joined(separator: ", ")); 'project statuses \(p) add \(word)' adds it" }
            return d
        case .statusExists(let project, let status, let builtIn):
            return Catalog.statusExists("project \(project) already has the status '\(status)'", range: range, file: file, builtIn: builtIn)
        case .noSuchStatus(let project, let status, let own):
            return Catalog.noSuchStatus("project \(project) has no status '\(status)'", range: range, file: file, own: own, project: project)
        case .badStatusName(let text):
            return Catalog.badFieldValue("status", value: text, range: range, file: file, expected: "a name of one line, up to 40 characters")
        case .statusDone:
            return Catalog.badFieldValue("status", value: words.value ?? "done", range: range, file: file, expected: "open, archived or a status of open work",
                                         help: "'complete ID' marks a task done, with its next occurrence")
        case .badTag(let name):
            return Catalog.badFieldValue("tags", value: words.quoted[name] ?? words.value ?? name, range: range, file: file, expected: "a tag name like #errand",
                                         help: "a tag is not only digits")
        case .parentCycle(let child, let parent):
            return Catalog.parentCycle("task \(parent) cannot be the parent of task \(child)", range: range, file: file)
        case .emptyTitle: return Catalog.emptyTitle(range: range, file: file)
        case .titleNotOneLine(let v):
            return Catalog.badFieldValue("title", value: v, range: range, file: file, expected: "one line of text",
                                         help: "a title has no line breaks or tabs; put details in the description")
        case .stepNotOneLine(let v): return Catalog.badFieldValue("steps", value: v, range: range, file: file, expected: "one line of text")
        case .noStep(let n, let t): return Catalog.noStep(n, of: t, range: range, file: file)
        case .noReminder(let n, let t): return Catalog.noReminder(n, of: t, range: range, file: file)
        case .reminder(.tooLateToday):
            let st = store.settings
            return Catalog.reminderPassed("it is too late for 'later today'", range: range, file: file,
                                          label: "three hours from now is past the end of today",
                                          help: "'remind … tomorrow morning' rings at \(TimeText.time(st.morning, st.day.hourCycle)) tomorrow")
        case .reminder(.passed(let at, let preset)):
            return Catalog.reminderPassed("\(text.reminderTime(at)) has passed", range: range, file: file, label: "a reminder rings ahead of now",
                                          help: preset == .thisEvening ? "'remind … tomorrow' rings tomorrow morning" : nil)
        case .cannotMove(.intoOverdue):
            return Catalog.cannotMove("nothing can be moved into Overdue", range: range, file: file, reason: "a date cannot be moved into the past this way",
                                      help: "'reschedule \(words.target ?? "ID") DATE' sets any date, a past one included")
        case .cannotMove(.weekEnds(let d)):
            return Catalog.cannotMove("this week has no day after tomorrow", range: range, file: file,
                                      reason: "the week ends \(TimeText.shortDate(d))", help: "move it to tomorrow or later")
        case .nothingToUndo: return Catalog.nothingToUndo(range: range, file: file)
        case .nothingToRedo: return Catalog.nothingToRedo(range: range, file: file)
        case .noSavedFilter(let name, let known): return Catalog.noSavedFilter(name, range: range, file: file, known: known)
        case .savedFilterExists(let name): return Catalog.savedFilterExists(name, range: range, file: file)
        case .unknownSetting(let key, let known):
            return Catalog.unknownSetting(key, range: range, file: file, candidates: known)
        case .badSettingValue(let key, let value, let expected):
            return Catalog.badSettingValue(key, value: value, range: range, file: file, expected: expected)
        case .notInPlan(let t, let why): return Catalog.notInPlan(t, range: range, file: file, why: why)
        case .top3Full(let picks, let t): return Catalog.top3Full(picks, adding: t, range: range, file: file)
        case .notAPick(let t, let picks): return Catalog.notAPick(t, range: range, file: file, picks: picks)
        case .held(let t, let until): return Catalog.heldTask(t, until: TimeText.shortDate(until), range: range, file: file)
        case .alreadyPicked(let t): return Catalog.alreadyPicked(t, range: range, file: file)
        case .idsUsedUp: return Catalog.idsUsedUp(range: range, file: file)
        case .repeatDate(let t, let p): return repeatDateDiagnostic(t, p, range: range, file: file)
        }
    }

    package func stateDiagnostic(_ p: StateProblem, range: SourceRange, file: SourceFile) -> Diagnostic {
        switch p {
        case .alreadyCompleted(let id):
            return Catalog.wrongState("task \(id) is already completed", range: range, file: file, help: "'reopen \(id)' marks it open again")
        case .notCompleted(let id): return Catalog.wrongState("task \(id) is not completed", range: range, file: file)
        case .alreadyArchived(let id):
            return Catalog.wrongState("task \(id) is already archived", range: range, file: file, help: "'unarchive \(id)' brings it back")
        case .notArchived(let id): return Catalog.wrongState("task \(id) is not archived", range: range, file: file)
        case .notOpen(let id, let what):
            let help = what == .notToday ? "Not today holds open tasks" : "\(Catalog.words(what)) works on open tasks; 'reopen \(id)' opens it again"
            return Catalog.wrongState("task \(id) is not open", range: range, file: file, help: help)
        case .remindersCancelled(let id, let status):
            return Catalog.wrongState("task \(id) is \(status == .done ? "completed" : status.rawValue); its reminders are cancelled",
                                      range: range, file: file, help: "reopen it first: its reminders come back with it")
        case .projectArchived(let name, let archived):
            return Catalog.wrongState("project \(name) is \(archived ? "already" : "not") archived", range: range, file: file)
        case .filterInUse(let name, let user): return Catalog.filterInUse(name, by: user, range: range, file: file)
        }
    }
}
