// One task record of a store file, read and checked once: numbers and dates decoded, strings
// left as references into the file. `StoreCodec.decodeTask` builds a Task from it; the column
// loader (TaskIndex+Records) builds index columns from it without building a Task. Both go
// through `readTask`, so a record is refused the same way whichever of them reads it.

import KeptRules
import KeptDomain
import KeptFiles

/// The fields of a task record; strings are references into the reader's bytes.
package struct TaskRecord {
    package var start = 0
    package var id = 0
    package var hasID = false
    /// Absent in a store written before uids: the task's uid is then derived (TaskUID.derived).
    package var uid: TaskUID? = nil
    package var title = JSONStringRef.empty
    package var hasTitle = false
    package var status: JSONStringRef? = nil
    package var due: Due? = nil
    package var startDue: Due? = nil
    package var priority = Priority.none
    package var project: JSONStringRef? = nil
    package var area: JSONStringRef? = nil
    package var tags: [JSONStringRef] = []
    package var notes: [JSONStringRef] = []
    package var description: JSONStringRef? = nil
    package var goal: JSONStringRef? = nil
    package var hasRepeat = false
    package var repeatText = JSONStringRef.empty
    package var repeatRRULE: JSONStringRef? = nil
    package var repeatAnchor: CivilDate? = nil
    /// What a repeat holds besides its text, rule and anchor date (a rule's week start, the
    /// anchor's time, EXDATE and RDATE); read by the general reader only, nil when absent.
    package var repeatExtras: RepeatExtras? = nil
    /// Where the repeat's value starts, for the error of a rule that cannot be read.
    package var repeatAt = 0
    package var estimate: Estimate? = nil
    package var heldUntil: CivilDate? = nil
    package var notTodayOn: CivilDate? = nil
    package var completedAt: Instant? = nil
    package var createdAt = Instant(seconds: 0)
    /// Absent in a store written before it: the later of creation and completion.
    package var modifiedAt: Instant? = nil
    /// When the task last changed: its `modifiedAt`, or for a record without one the later of
    /// its creation and its completion.
    package var lastModified: Instant { modifiedAt ?? max(createdAt, completedAt ?? createdAt) }
    package var parent: Int? = nil
    package var nextOccurrence: Int? = nil
    package var pristine = false
    /// Steps are built as they are: they are small and rare.
    package var steps: [Step] = []
    /// Reminders are always checked; built only when the record is read with `keep`.
    package var reminders: [Reminder] = []
    /// Kept only when the record is read with `keep` (for a Task); otherwise checked and skipped.
    package var comments: [JSONValue] = []
    package var extra = JSONObject()

    /// Clears the record for the next task, keeping the capacity of its lists.
    package mutating func reset(at offset: Int) {
        start = offset
        id = 0; hasID = false; uid = nil
        title = .empty; hasTitle = false
        status = nil; due = nil; startDue = nil; priority = .none
        project = nil; area = nil
        tags.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        description = nil; goal = nil
        hasRepeat = false; repeatText = .empty; repeatRRULE = nil; repeatAnchor = nil; repeatExtras = nil; repeatAt = 0
        estimate = nil; heldUntil = nil; notTodayOn = nil; completedAt = nil; createdAt = Instant(seconds: 0); modifiedAt = nil
        parent = nil; nextOccurrence = nil; pristine = false
        steps.removeAll(keepingCapacity: true)
        if !reminders.isEmpty { reminders = [] }
        if !comments.isEmpty { comments = [] }
        if !extra.members.isEmpty { extra = JSONObject() }
    }
}

extension StoreCodec {
    /// The priority a store writes (`none`, `low`, `medium`, `high`, `critical`), or nil.
    @inline(__always)
    package static func canonicalPriority(_ ref: JSONStringRef, _ r: JSONReader) -> Priority? {
        if ref.escaped { return nil }
        return r.bytes.withUnsafeBufferPointer { canonicalPriority($0, ref.start, ref.count) }
    }

    /// The same over `n` plain bytes at `start`: the word as one masked little-endian load.
    @inline(__always)
    package static func canonicalPriority(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Priority? {
        guard n >= 3, n <= 8 else { return nil }
        let (w, _) = ByteWords.words(b, start, n)
        switch n {
        case 3: return w == 0x776f6c ? .low : nil // low
        case 4: return w == 0x68676968 ? .high : (w == 0x656e6f6e ? Priority.none : nil) // high, none
        case 6: return w == 0x6d756964656d ? .medium : nil // medium
        case 8: return w == 0x6c61636974697263 ? .critical : nil // critical
        default: return nil
        }
    }

    /// Reads one task record into `t`. With `keep`, reminders, comments and unknown fields are
    /// kept as JSON; without it they are checked and skipped.
    package static func readTask(_ r: inout JSONReader, into t: inout TaskRecord, keep: Bool) throws(JSONError) {
        // A key written twice in a record is an error with its line and column, on every path.
        r.uniqueKeys = true
        r.skipWhitespace()
        let start = r.offset
        t.reset(at: start)
        guard r.peekKind() == .object else { throw r.error("a task is an object") }
        try r.beginObject()
        // Known keys are checked for a repeat by a bit each; the others by the reader.
        var seen: UInt32 = 0
        while let keyRef = try r.nextKeyRef(noting: false) {
            let keyAt = keyRef.start - 1
            r.skipWhitespace()
            let at = r.offset
            guard let key = TaskKey.of(keyRef, in: r) else {
                try r.noteKey(start: keyRef.start, end: keyRef.end, escaped: keyRef.escaped, at: keyAt)
                if keep { t.extra[r.string(keyRef)] = try r.readValue() } else { try r.skipValue() }
                continue
            }
            guard seen & key.bit == 0 else { throw r.error("the key '\(key.rawValue)' appears twice in one object", at: keyAt) }
            seen |= key.bit
            switch key {
            case .id:
                t.id = try r.readInt()
                guard t.id >= 1, t.id <= Store.maxID else { throw r.error("a task id is a whole number from 1 to \(Store.maxID)", at: at) }
                t.hasID = true
            case .uid:
                let s = try r.readStringRef()
                guard let u = r.withText(s, { TaskUID.parse($0) }) else {
                    throw r.error("'\(r.string(s))' is not a uid (a UUID like 0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e)", at: at)
                }
                t.uid = u
            case .title:
                t.title = try r.readStringRef()
                t.hasTitle = true
            case .status:
                let s = try r.readStringRef()
                guard s.count > 0 else { throw r.error("a status is not empty", at: at) }
                t.status = s
            case .due: t.due = try decodeDue(&r, at)
            case .start: t.startDue = try decodeDue(&r, at)
            case .priority:
                let ref = try r.readStringRef()
                // The words a store is written with, matched on their bytes; any other spelling
                // goes through the accepted words of Priority.
                if let pr = canonicalPriority(ref, r) {
                    t.priority = pr
                    continue
                }
                let p = r.string(ref)
                guard let pr = Priority(word: p) else { throw r.error("'\(p)' is not a priority", at: at) }
                t.priority = pr
            case .project: t.project = try r.readStringRefOrNull()
            case .area: t.area = try r.readStringRefOrNull()
            case .tags: try stringRefs(&r, into: &t.tags)
            case .notes: try stringRefs(&r, into: &t.notes)
            case .description: t.description = try r.readStringRefOrNull()
            case .goal: t.goal = try r.readStringRefOrNull()
            case .repeat:
                if r.isNull() { t.hasRepeat = false; continue }
                try readRepeat(&r, at, into: &t)
            case .estimate:
                if r.isNull() { t.estimate = nil; continue }
                t.estimate = try readEstimate(&r, at)
            case .heldUntil:
                guard let s = try r.readStringRefOrNull() else { t.heldUntil = nil; continue }
                guard let d = r.withText(s, { CivilDate.parseISO($0) }) else { throw r.error("'\(r.string(s))' is not a date", at: at) }
                t.heldUntil = d
            case .notTodayOn:
                guard let s = try r.readStringRefOrNull() else { t.notTodayOn = nil; continue }
                guard let d = r.withText(s, { CivilDate.parseISO($0) }) else { throw r.error("'\(r.string(s))' is not a date", at: at) }
                t.notTodayOn = d
            case .completedAt:
                guard let s = try r.readStringRefOrNull() else { t.completedAt = nil; continue }
                guard let i = r.withText(s, { TimeText.parseISOInstant($0) }) else { throw r.error("'\(r.string(s))' is not an instant", at: at) }
                t.completedAt = i
            case .createdAt:
                let s = try r.readStringRef()
                guard let i = r.withText(s, { TimeText.parseISOInstant($0) }) else { throw r.error("'\(r.string(s))' is not an instant", at: at) }
                t.createdAt = i
            case .modifiedAt:
                let s = try r.readStringRef()
                guard let i = r.withText(s, { TimeText.parseISOInstant($0) }) else { throw r.error("'\(r.string(s))' is not an instant", at: at) }
                t.modifiedAt = i
            case .parent: t.parent = try r.readIntOrNull()
            case .nextOccurrence: t.nextOccurrence = try r.readIntOrNull()
            case .pristine: t.pristine = try r.readBool()
            case .steps:
                r.skipWhitespace()
                guard r.peekKind() == .array else { throw r.error("'steps' is a list", at: at) }
                try r.beginArray()
                while try r.nextElement() {
                    let o = try object(&r)
                    guard case .string(let title)? = o.known["title"] else { throw r.error("a step needs a 'title'", at: o.start) }
                    var done = false
                    if case .bool(let b)? = o.known["done"] { done = b }
                    t.steps.append(Step(title: title, done: done))
                }
            case .reminders:
                r.skipWhitespace()
                guard r.peekKind() == .array else { throw r.error("'reminders' is a list", at: at) }
                try readReminders(&r, into: &t.reminders, keep: keep)
            case .comments:
                r.skipWhitespace()
                guard r.peekKind() == .array else { throw r.error("'comments' is a list", at: at) }
                if keep, case .array(let a) = try r.readValue() { t.comments = a } else if !keep { try r.skipValue() }
            }
        }
        guard t.hasID else { throw r.error("a task needs an 'id'", at: start) }
        guard t.hasTitle else { throw r.error("task \(t.id) needs a 'title'", at: start) }
    }

    /// R-TASK-7: each reminder is `{"at": "2026-06-15T09:00", "pastDue": true}`; `at` is required
    /// and checked whether or not the reminders are kept, so every load path refuses the same file.
    package static func readReminders(_ r: inout JSONReader, into out: inout [Reminder], keep: Bool) throws(JSONError) {
        // A repeated key is refused by the reader (JSONReader+Keys) before this runs again.
        out.removeAll(keepingCapacity: true)
        try r.beginArray()
        while try r.nextElement() {
            let o = try object(&r, known: ["at", "pastDue"])
            guard case .string(let s)? = o.known["at"], let at = CivilDateTime.parseISO(Array(s.utf8)) else {
                throw r.error("a reminder needs an 'at' like 2026-06-15T09:00 (a wall-clock time)", at: o.start)
            }
            var pastDue = false
            if let v = o.known["pastDue"] {
                guard case .bool(let b) = v else { throw r.error("a reminder's 'pastDue' is true or false", at: o.start) }
                pastDue = b
            }
            // Kept on every path: the plan's columns need their times (unknown keys only for a Task).
            var rem = Reminder(at: at, pastDue: pastDue)
            if keep { rem.extra = o.rest }
            out.append(rem)
        }
    }

    package static func stringRefs(_ r: inout JSONReader, into out: inout [JSONStringRef]) throws(JSONError) {
        r.skipWhitespace()
        guard r.peekKind() == .array else { throw r.error("expected a list of strings") }
        out.removeAll(keepingCapacity: true)
        try r.beginArray()
        while try r.nextElement() { out.append(try r.readStringRef()) }
    }

    package static func readRepeat(_ r: inout JSONReader, _ at: Int, into t: inout TaskRecord) throws(JSONError) {
        r.skipWhitespace()
        guard r.peekKind() == .object else { throw r.error("expected an object") }
        try r.beginObject()
        var text: JSONStringRef? = nil
        t.repeatRRULE = nil
        t.repeatAnchor = nil
        t.repeatExtras = nil
        var anchorText: JSONStringRef? = nil
        var extras = RepeatExtras()
        while let k = try r.nextKeyRef() {
            r.skipWhitespace()
            if r.text(k, is: "text"), r.peekKind() == .string {
                text = try r.readStringRef()
            } else if r.text(k, is: "rrule"), r.peekKind() == .string {
                t.repeatRRULE = try r.readStringRef()
            } else if r.text(k, is: "anchor"), r.peekKind() == .string {
                anchorText = try r.readStringRef()
            } else if r.text(k, is: "wkst"), r.peekKind() == .string {
                let w = try r.readStringRef()
                guard let wd = r.withText(w, { RepeatExtras.weekday(Array($0)) }) else { throw r.error("a repeat's 'wkst' is a weekday like MO or SU", at: at) }
                extras.weekStart = wd
            } else if r.text(k, is: "exdate") || r.text(k, is: "rdate"), r.peekKind() == .array {
                let isEx = r.text(k, is: "exdate")
                try r.beginArray()
                while try r.nextElement() {
                    r.skipWhitespace()
                    guard r.peekKind() == .string else { throw r.error("a repeat's 'exdate' and 'rdate' are dates like 2026-07-01 or 2026-07-01T09:00", at: at) }
                    let v = try r.readStringRef()
                    guard let d = r.withText(v, { RepeatExtras.due(Array($0)) }) else {
                        throw r.error("a repeat's 'exdate' and 'rdate' are dates like 2026-07-01 or 2026-07-01T09:00", at: at)
                    }
                    if isEx { extras.exceptions.append(d) } else { extras.additions.append(d) }
                }
            } else {
                try r.skipValue()
            }
        }
        guard let text else { throw r.error("a repeat needs its 'text'", at: at) }
        if let a = anchorText {
            guard let d = r.withText(a, { RepeatExtras.due(Array($0)) }) else { throw r.error("a repeat's 'anchor' is a date like 2026-06-15", at: at) }
            t.repeatAnchor = d.date
            extras.anchorTime = d.time
        }
        if !extras.isEmpty { t.repeatExtras = extras }
        t.repeatText = text
        t.repeatAt = at
        t.hasRepeat = true
    }

    /// The error of a repeat neither of whose texts reads as a rule (issue 20: it loaded, and
    /// completing the task then said the series had ended).
    package static func unreadableRepeat(_ t: TaskRecord, _ r: JSONReader) -> JSONError {
        let text = String(r.string(t.repeatText).prefix(60))
        let rule = t.repeatRRULE.map { " nor its rrule '\(String(r.string($0).prefix(60)))'" } ?? ""
        return r.error("task \(t.id)'s repeat '\(text)'\(rule) is not a rule this version reads", at: t.repeatAt)
    }

    package static func readEstimate(_ r: inout JSONReader, _ at: Int) throws(JSONError) -> Estimate {
        r.skipWhitespace()
        guard r.peekKind() == .object else { throw r.error("expected an object") }
        try r.beginObject()
        var minutes: Int? = nil
        var source = EstimateSource.user
        var sawMinutes = false
        while let k = try r.nextKeyRef() {
            r.skipWhitespace()
            if r.text(k, is: "minutes") {
                sawMinutes = true
                // Whole minutes only, as JSONNumber.int reads them: "30", never "30.0" or "3e1".
                guard r.peekKind() == .number else { throw r.error("an estimate needs whole 'minutes'", at: at) }
                let n: Int
                do throws(JSONError) { n = try r.readInt() } catch { throw r.error("an estimate needs whole 'minutes'", at: at) }
                guard n >= 0 else { throw r.error("an estimate needs whole 'minutes'", at: at) }
                minutes = n
            } else if r.text(k, is: "source"), r.peekKind() == .string {
                let s = r.string(try r.readStringRef())
                guard let x = EstimateSource(rawValue: s) else { throw r.error("'\(s)' is not an estimate source", at: at) }
                source = x
            } else {
                try r.skipValue()
            }
        }
        guard sawMinutes, let m = minutes else { throw r.error("an estimate needs whole 'minutes'", at: at) }
        return Estimate(minutes: m, source: source)
    }
}
