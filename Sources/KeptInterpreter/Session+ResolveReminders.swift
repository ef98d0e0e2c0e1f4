// The resolve stage of reminders (R-TASK-7): `remind`'s target and its time (a preset or a
// date phrase read whole), `unremind`'s target and which reminder. The rules are the engine's
// (Domain/Engine+Reminders).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A reminder statement, resolved.
package enum ReminderRequest {
    /// R-TASK-7: adds a reminder; a task can have several, never the same time twice.
    case remind(Selection, at: ReminderTime)
    /// Removes one reminder (by its number in `show ID`), or all of a task's when nil.
    case unremind(Selection, number: Int?)
    /// `reminders`: what is scheduled across the store.
    case list
}

extension Session {
    /// The time a reminder's words name: a preset, or a date phrase read whole.
    package func reminderTime(_ when: TextArg, _ s: Statement) -> Result<ReminderTime, Diagnostic> {
        let file = s.source.file
        let words = when.text.lowercased().split(separator: " ").map(String.init)
        if let p = ReminderPreset(words: words.joined(separator: " ")) { return .success(.preset(p)) }
        switch DatePhrase.resolve(words, in: dateContext) {
        case .success(let (r, used)) where used == words.count: return .success(.at(r.due))
        case .success:
            return .failure(Catalog.badReminderTime(when.text, range: when.range, file: file))
        case .failure(let e):
            return .failure(Catalog.badReminderTime(when.text, range: when.range, file: file, dateError: e))
        }
    }

    /// The request of `remind`, `unremind` or `reminders`, or nil for another statement. A
    /// task named by reference is looked up before the time is read, so a missing task is the
    /// error.
    package func resolveReminder(_ s: Statement) -> Result<ReminderRequest, Diagnostic>? {
        switch s.kind {
        case .remind(let target, let when):
            if case .task(let ref) = target, case .failure(let d) = resolve(ref, s) { return .failure(d) }
            return reminderTime(when, s).flatMap { time in selection(target, s).map { .remind($0, at: time) } }
        case .unremind(let target, let which):
            var number: Int? = nil
            if which.text.lowercased() != "all" {
                guard let n = Int(which.text), n >= 1 else {
                    return .failure(Catalog.badFieldValue("reminders", value: which.text, range: which.range, file: s.source.file,
                                                          expected: "a reminder number from 1, or all", help: "'show ID' lists a task's reminders in order"))
                }
                number = n
            }
            return selection(target, s).map { .unremind($0, number: number) }
        case .reminders: return .success(.list)
        default: return nil
        }
    }
}
