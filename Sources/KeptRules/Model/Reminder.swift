// A reminder of a task (R-TASK-7): a wall-clock time in the account zone, like a timed due, so a
// 9:00 reminder stays at 9:00 across DST. Whether it is scheduled is worked out at now, from the
// task's state and the other reminders; only "Past due" has to be remembered.

/// One reminder of a task.
public struct Reminder: Sendable, Equatable {
    /// When it rings: a wall-clock date and time in the account zone.
    public var at: CivilDateTime
    /// Its time passed while it was not scheduled (the task was completed, archived or deleted
    /// then), so it never rang: it reads "Past due" until it is removed (R-TASK-7).
    public var pastDue = false
    /// Keys of the stored reminder this version does not know; written back unchanged.
    public var extra = JSONObject()

    public init(at: CivilDateTime, pastDue: Bool = false) {
        self.at = at
        self.pastDue = pastDue
    }

    /// How many reminders are scheduled at a time, across all tasks (R-TASK-7).
    public static let scheduledLimit = 60
}

/// What a reminder is at a given now.
public enum ReminderState: String, Sendable {
    /// Ahead, on an open task, among the nearest 60.
    case scheduled
    /// Ahead, on an open task, beyond the nearest 60: scheduled when nearer ones have passed.
    case waiting
    /// Its task is completed, archived or deleted; reopening restores it.
    case cancelled
    /// Its time passed while it was scheduled: it rang.
    case sent
    /// Its time passed while it was not scheduled.
    case pastDue = "past due"
}
