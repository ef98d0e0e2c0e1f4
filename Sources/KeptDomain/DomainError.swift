// Why the engine refused a change, as a typed value. The engine never builds a diagnostic: the
// interpreter turns each of these into one, with the range of the words it is about
// (Interpreter/Session+DomainErrors.swift), and other callers (an importer, a test) read the
// case itself.

import KeptRules

/// A task in a state an action does not apply to.
public enum StateProblem: Sendable, Equatable {
    case alreadyCompleted(Int)
    case notCompleted(Int)
    case alreadyArchived(Int)
    case notArchived(Int)
    /// An action on open tasks only.
    case notOpen(Int, what: OpenAction)
    /// A reminder for a task whose reminders are cancelled (completed or archived).
    case remindersCancelled(Int, status: TaskStatus)
    case projectArchived(String, archived: Bool)
    /// A saved filter another one uses.
    case filterInUse(String, by: String)
}

/// The actions that apply to open tasks only.
public enum OpenAction: Sendable, Equatable {
    case notToday, back, top3Add, top3Replace, skip, unskip, rdate, unrdate
}

/// Why a reminder time is refused.
public enum ReminderProblem: Sendable, Equatable {
    /// "Later today" would ring after the account's day ends.
    case tooLateToday
    /// The time has passed; `preset` when a preset named it.
    case passed(CivilDateTime, preset: ReminderPreset?)
}

/// Why a task cannot move into a due group (R-VIEW-4).
public enum MoveProblem: Sendable, Equatable {
    case intoOverdue
    /// The week ends tomorrow or sooner: no day of it is after tomorrow.
    case weekEnds(CivilDate)
}

/// Why a repeat's dates (its EXDATE and RDATE) cannot change so.
public enum RepeatDateProblem: Sendable, Equatable {
    /// The task has no repeat, or no due date for its open occurrence (`hasRepeat`).
    case notRepeating(hasRepeat: Bool)
    /// The series has no occurrence there; `near` are its dates around it.
    case notAnOccurrence(Due, near: [Due])
    /// Taking out the open occurrence leaves no later one.
    case seriesEnds(after: Due)
    /// An added date the series has already; `skipped` when it is one taken out.
    case alreadyAnOccurrence(Due, skipped: Bool)
    /// Not among the dates taken out (`added` false) or added (`added` true), which are `listed`.
    case notListed(Due, added: Bool, listed: [Due])
    /// Before the open occurrence (`open`), or passed: the series is beyond it.
    case passed(Due, open: Due)
    /// A time for a series of whole days (`timed` false), or a day without one for a series of
    /// several times a day.
    case timeDoesNotFit(Due, timed: Bool)
}

/// Why a task is not in today's plan (`why`).
public enum NotInPlan: Sendable, Equatable {
    /// Only open tasks are planned.
    case notOpen
    /// The store's columns have no row of it.
    case noColumns
    /// No section of the plan holds it.
    case noSection
}

/// A rule the engine enforces, broken.
public enum DomainError: Error, Sendable, Equatable {
    case noTask(Int)
    case wrongState(StateProblem)
    case unknownProject(String, known: [String])
    case archivedProject(String)
    case projectExists(String)
    case projectHasTasks(String, count: Int)
    case unknownStatus(String, project: String?, allowed: [String])
    case statusExists(project: String, status: String, builtIn: Bool)
    case noSuchStatus(project: String, status: String, own: [String])
    case badStatusName(String)
    /// `done` is not set but reached by completing (which makes the next occurrence).
    case statusDone
    /// A tag that is only digits (`#42` is text in capture, so it is no tag here either).
    case badTag(String)
    case parentCycle(child: Int, parent: Int)
    case emptyTitle
    /// A title with a line break or another control character.
    case titleNotOneLine(String)
    case stepNotOneLine(String)
    case noStep(Int, of: Task)
    case noReminder(Int, of: Task)
    case reminder(ReminderProblem)
    case cannotMove(MoveProblem)
    case nothingToUndo
    case nothingToRedo
    case noSavedFilter(String, known: [String])
    case savedFilterExists(String)
    case unknownSetting(String, known: [String])
    case badSettingValue(key: String, value: String, expected: Settings.ValueKind)
    case notInPlan(Task, why: NotInPlan)
    case top3Full(picks: [Task], adding: Task)
    case notAPick(Task, picks: [Int])
    case held(Task, until: CivilDate)
    case alreadyPicked(Task)
    /// `skip`, `unskip`, `rdate`, `unrdate` on this task.
    case repeatDate(Task, RepeatDateProblem)
    /// Every id a store can hold is used (ids are never reused).
    case idsUsedUp
    /// No connected calendar has this name (`calendar hide|show|disconnect`).
    case noCalendar(String, known: [String])
    /// A connected calendar has this name already (`calendar connect`).
    case calendarExists(String)
}
