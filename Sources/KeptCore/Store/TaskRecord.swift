// One task record of a store file, read and checked once: numbers and dates decoded, strings
// left as references into the file. `StoreCodec.decodeTask` builds a Task from it; the column
// loader (TaskIndex+Records) builds index columns from it without building a Task. Both go
// through `readTask`, so a record is refused the same way whichever of them reads it.

/// The fields of a task record; strings are references into the reader's bytes.
struct TaskRecord {
    var start = 0
    var id = 0
    var hasID = false
    /// Absent in a store written before uids: the task's uid is then derived (TaskUID.derived).
    var uid: TaskUID? = nil
    var title = JSONStringRef.empty
    var hasTitle = false
    var status: JSONStringRef? = nil
    var due: Due? = nil
    var startDue: Due? = nil
    var priority = Priority.none
    var project: JSONStringRef? = nil
    var area: JSONStringRef? = nil
    var tags: [JSONStringRef] = []
    var notes: [JSONStringRef] = []
    var description: JSONStringRef? = nil
    var goal: JSONStringRef? = nil
    var hasRepeat = false
    var repeatText = JSONStringRef.empty
    var repeatRRULE: JSONStringRef? = nil
    var repeatAnchor: CivilDate? = nil
    /// What a repeat holds besides its text, rule and anchor date (a rule's week start, the
    /// anchor's time, EXDATE and RDATE); read by the general reader only, nil when absent.
    var repeatExtras: RepeatExtras? = nil
    /// Where the repeat's value starts, for the error of a rule that cannot be read.
    var repeatAt = 0
    var estimate: Estimate? = nil
    var heldUntil: CivilDate? = nil
    var notTodayOn: CivilDate? = nil
    var completedAt: Instant? = nil
    var createdAt = Instant(seconds: 0)
    /// Absent in a store written before it: the later of creation and completion.
    var modifiedAt: Instant? = nil
    var parent: Int? = nil
    var nextOccurrence: Int? = nil
    var pristine = false
    /// Steps are built as they are: they are small and rare.
    var steps: [Step] = []
    /// Reminders are always checked; built only when the record is read with `keep`.
    var reminders: [Reminder] = []
    /// Kept only when the record is read with `keep` (for a Task); otherwise checked and skipped.
    var comments: [JSONValue] = []
    var extra = JSONObject()

    /// Clears the record for the next task, keeping the capacity of its lists.
    mutating func reset(at offset: Int) {
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

/// The keys of a task record that the codec knows.
enum TaskKey: String, CaseIterable {
    case id, uid, title, status, due, start, priority, project, area, tags, notes, description, goal
    case `repeat`, estimate, heldUntil, notTodayOn, completedAt, createdAt, modifiedAt, parent, nextOccurrence, pristine
    case steps, reminders, comments

    static let all = TaskKey.allCases

    /// One bit per key, so the fast path sees a key written twice (and declines the record).
    var bit: UInt32 {
        switch self {
        case .id: return 1 << 0
        case .title: return 1 << 1
        case .status: return 1 << 2
        case .due: return 1 << 3
        case .start: return 1 << 4
        case .priority: return 1 << 5
        case .project: return 1 << 6
        case .area: return 1 << 7
        case .tags: return 1 << 8
        case .notes: return 1 << 9
        case .description: return 1 << 10
        case .goal: return 1 << 11
        case .repeat: return 1 << 12
        case .estimate: return 1 << 13
        case .heldUntil: return 1 << 14
        case .notTodayOn: return 1 << 15
        case .completedAt: return 1 << 16
        case .createdAt: return 1 << 17
        case .parent: return 1 << 18
        case .nextOccurrence: return 1 << 19
        case .pristine: return 1 << 20
        case .steps: return 1 << 21
        case .reminders: return 1 << 22
        case .comments: return 1 << 23
        case .uid: return 1 << 24
        case .modifiedAt: return 1 << 25
        }
    }
    static let spellings: [[UInt8]] = TaskKey.allCases.map { Array($0.rawValue.utf8) }

    /// The key a reference spells, or nil for a key this version does not know.
    @inline(__always)
    static func of(_ ref: JSONStringRef, in r: JSONReader) -> TaskKey? {
        if ref.escaped { return TaskKey(rawValue: r.string(ref)) }
        return r.bytes.withUnsafeBufferPointer { b in TaskKey.of(b, ref.start, ref.count) }
    }

    /// The key spelled by the `n` plain bytes at `start`, or nil.
    @inline(__always)
    static func of(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> TaskKey? {
        guard n > 0, n <= 16 else { return nil }
        // The key's bytes as two little-endian words, compared with each known key's.
        let (w0, w1) = TaskKey.words(b, start, n)
        return of(w0, w1, n)
    }

    /// The key whose `n` bytes are the words `w0` and `w1` (zero past `n`), or nil.
    @inline(__always)
    static func of(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> TaskKey? {
        switch n {
        case 2: return w0 == Words.id ? .id : nil
        case 3: return w0 == Words.due ? .due : (w0 == Words.uid ? .uid : nil)
        case 4: return w0 == Words.tags ? .tags : (w0 == Words.area ? .area : (w0 == Words.goal ? .goal : nil))
        case 5:
            if w0 == Words.title { return .title }
            if w0 == Words.start { return .start }
            if w0 == Words.notes { return .notes }
            return w0 == Words.steps ? .steps : nil
        case 6: return w0 == Words.status ? .status : (w0 == Words.repeat ? .repeat : (w0 == Words.parent ? .parent : nil))
        case 7: return w0 == Words.project ? .project : nil
        case 8:
            if w0 == Words.priority { return .priority }
            if w0 == Words.estimate { return .estimate }
            if w0 == Words.pristine { return .pristine }
            return w0 == Words.comments ? .comments : nil
        case 9:
            if w0 == Words.created.0, w1 == Words.created.1 { return .createdAt }
            if w0 == Words.held.0, w1 == Words.held.1 { return .heldUntil }
            if w0 == Words.reminders.0, w1 == Words.reminders.1 { return .reminders }
            return nil
        case 10:
            if w0 == Words.notToday.0, w1 == Words.notToday.1 { return .notTodayOn }
            return w0 == Words.modified.0 && w1 == Words.modified.1 ? .modifiedAt : nil
        case 11:
            if w0 == Words.description.0, w1 == Words.description.1 { return .description }
            if w0 == Words.completed.0, w1 == Words.completed.1 { return .completedAt }
            return nil
        case 14: return w0 == Words.next.0 && w1 == Words.next.1 ? .nextOccurrence : nil
        default: return nil
        }
    }

    /// Two loaded words with the bytes past the first `n` (0...16) cleared.
    @inline(__always)
    static func masked(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> (UInt64, UInt64) {
        let m0: UInt64 = n >= 8 ? ~0 : (1 << (8 * UInt64(n))) - 1
        let m1: UInt64 = n >= 16 ? ~0 : (n <= 8 ? 0 : (1 << (8 * UInt64(n - 8))) - 1)
        return (w0 & m0, w1 & m1)
    }

    /// Up to 16 bytes from `start` as two words, zero past `n`.
    @inline(__always)
    static func words(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> (UInt64, UInt64) {
        // Two unaligned loads when 16 bytes are there (a key is always followed by more of the
        // record), masked to the key's length; byte by byte near the end of the buffer.
        if n <= 16, start >= 0, start + 16 <= b.count, let base = b.baseAddress {
            let raw = UnsafeRawPointer(base + start)
            let a = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let c = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            return masked(a, c, n)
        }
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        var k = 0
        while k < n, start + k < b.count {
            let x = UInt64(b[start + k])
            if k < 8 { w0 |= x << (8 * UInt64(k)) } else { w1 |= x << (8 * UInt64(k - 8)) }
            k += 1
        }
        return (w0, w1)
    }

    /// The known keys as little-endian words (literals, so reading them costs nothing; the
    /// tests check each against its spelling).
    enum Words {
        static let id: UInt64 = 0x6469 // id
        static let due: UInt64 = 0x657564 // due
        static let uid: UInt64 = 0x646975 // uid
        static let tags: UInt64 = 0x73676174 // tags
        static let area: UInt64 = 0x61657261 // area
        static let goal: UInt64 = 0x6c616f67 // goal
        static let title: UInt64 = 0x656c746974 // title
        static let start: UInt64 = 0x7472617473 // start
        static let notes: UInt64 = 0x7365746f6e // notes
        static let steps: UInt64 = 0x7370657473 // steps
        static let status: UInt64 = 0x737574617473 // status
        static let `repeat`: UInt64 = 0x746165706572 // repeat
        static let parent: UInt64 = 0x746e65726170 // parent
        static let project: UInt64 = 0x7463656a6f7270 // project
        static let priority: UInt64 = 0x797469726f697270 // priority
        static let estimate: UInt64 = 0x6574616d69747365 // estimate
        static let pristine: UInt64 = 0x656e697473697270 // pristine
        static let comments: UInt64 = 0x73746e656d6d6f63 // comments
        static let created: (UInt64, UInt64) = (0x4164657461657263, 0x74) // createdAt
        static let held: (UInt64, UInt64) = (0x69746e55646c6568, 0x6c) // heldUntil
        static let notToday: (UInt64, UInt64) = (0x7961646f54746f6e, 0x6e4f) // notTodayOn
        static let modified: (UInt64, UInt64) = (0x6465696669646f6d, 0x7441) // modifiedAt
        static let reminders: (UInt64, UInt64) = (0x7265646e696d6572, 0x73) // reminders
        static let description: (UInt64, UInt64) = (0x7470697263736564, 0x6e6f69) // description
        static let completed: (UInt64, UInt64) = (0x6574656c706d6f63, 0x744164) // completedAt
        static let next: (UInt64, UInt64) = (0x7563634f7478656e, 0x65636e657272) // nextOccurrence
    }
}

extension StoreCodec {
    /// The priority a store writes (`none`, `low`, `medium`, `high`, `critical`), or nil.
    @inline(__always)
    static func canonicalPriority(_ ref: JSONStringRef, _ r: JSONReader) -> Priority? {
        if ref.escaped { return nil }
        return r.bytes.withUnsafeBufferPointer { canonicalPriority($0, ref.start, ref.count) }
    }

    /// The same over `n` plain bytes at `start`: the word as one masked little-endian load.
    @inline(__always)
    static func canonicalPriority(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> Priority? {
        guard n >= 3, n <= 8 else { return nil }
        let (w, _) = TaskKey.words(b, start, n)
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
    static func readTask(_ r: inout JSONReader, into t: inout TaskRecord, keep: Bool) throws(JSONError) {
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
    static func readReminders(_ r: inout JSONReader, into out: inout [Reminder], keep: Bool) throws(JSONError) {
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

    static func stringRefs(_ r: inout JSONReader, into out: inout [JSONStringRef]) throws(JSONError) {
        r.skipWhitespace()
        guard r.peekKind() == .array else { throw r.error("expected a list of strings") }
        out.removeAll(keepingCapacity: true)
        try r.beginArray()
        while try r.nextElement() { out.append(try r.readStringRef()) }
    }

    static func readRepeat(_ r: inout JSONReader, _ at: Int, into t: inout TaskRecord) throws(JSONError) {
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
    static func unreadableRepeat(_ t: TaskRecord, _ r: JSONReader) -> JSONError {
        let text = String(r.string(t.repeatText).prefix(60))
        let rule = t.repeatRRULE.map { " nor its rrule '\(String(r.string($0).prefix(60)))'" } ?? ""
        return r.error("task \(t.id)'s repeat '\(text)'\(rule) is not a rule this version reads", at: t.repeatAt)
    }

    static func readEstimate(_ r: inout JSONReader, _ at: Int) throws(JSONError) -> Estimate {
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

/// The parts of a stored repeat besides its text, RRULE and anchor date, each written only
/// where it says something: `"wkst":"SU"` for a rule whose dates need its week start and no
/// stored RRULE carries it, `"anchor":"2026-06-15T09:30"` where the anchor's time matters,
/// `"exdate"` and `"rdate"` lists of dates or wall times.
struct RepeatExtras: Equatable {
    var weekStart: Weekday? = nil
    var anchorTime: WallTime? = nil
    var exceptions: [Due] = []
    var additions: [Due] = []

    var isEmpty: Bool { weekStart == nil && anchorTime == nil && exceptions.isEmpty && additions.isEmpty }

    static let codes: [String: Weekday] = ["MO": .monday, "TU": .tuesday, "WE": .wednesday, "TH": .thursday,
                                           "FR": .friday, "SA": .saturday, "SU": .sunday]

    static func weekday(_ b: [UInt8]) -> Weekday? { codes[String(decoding: b, as: UTF8.self)] }

    /// "2026-07-01" or "2026-07-01T09:00".
    static func due(_ b: [UInt8]) -> Due? {
        if let d = CivilDate.parseISO(b) { return Due(date: d) }
        guard let t = CivilDateTime.parseISO(b) else { return nil }
        return Due(date: t.date, time: t.time)
    }

    static func text(_ d: Due) -> String { d.date.iso + (d.time.map { "T" + $0.iso } ?? "") }
}
