// One task record of a store file, read and checked once: numbers and dates decoded, strings
// left as references into the file. `StoreCodec.decodeTask` builds a Task from it; the column
// loader (TaskIndex+Records) builds index columns from it without building a Task. Both go
// through `readTask`, so a record is refused the same way whichever of them reads it.

/// The fields of a task record; strings are references into the reader's bytes.
struct TaskRecord {
    var start = 0
    var id = 0
    var hasID = false
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
    var estimate: Estimate? = nil
    var heldUntil: CivilDate? = nil
    var completedAt: Instant? = nil
    var createdAt = Instant(seconds: 0)
    var parent: Int? = nil
    var nextOccurrence: Int? = nil
    var pristine = false
    /// Steps are built as they are: they are small and rare.
    var steps: [Step] = []
    /// Kept only when the record is read with `keep` (for a Task); otherwise checked and skipped.
    var reminders: [JSONValue] = []
    var comments: [JSONValue] = []
    var extra = JSONObject()

    /// Clears the record for the next task, keeping the capacity of its lists.
    mutating func reset(at offset: Int) {
        start = offset
        id = 0; hasID = false
        title = .empty; hasTitle = false
        status = nil; due = nil; startDue = nil; priority = .none
        project = nil; area = nil
        tags.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        description = nil; goal = nil
        hasRepeat = false; repeatText = .empty; repeatRRULE = nil; repeatAnchor = nil
        estimate = nil; heldUntil = nil; completedAt = nil; createdAt = Instant(seconds: 0)
        parent = nil; nextOccurrence = nil; pristine = false
        steps.removeAll(keepingCapacity: true)
        if !reminders.isEmpty { reminders = [] }
        if !comments.isEmpty { comments = [] }
        if !extra.members.isEmpty { extra = JSONObject() }
    }
}

/// The keys of a task record that the codec knows.
enum TaskKey: String, CaseIterable {
    case id, title, status, due, start, priority, project, area, tags, notes, description, goal
    case `repeat`, estimate, heldUntil, completedAt, createdAt, parent, nextOccurrence, pristine
    case steps, reminders, comments

    static let all = TaskKey.allCases
    static let spellings: [[UInt8]] = TaskKey.allCases.map { Array($0.rawValue.utf8) }

    /// The key a reference spells, or nil for a key this version does not know.
    static func of(_ ref: JSONStringRef, in r: JSONReader) -> TaskKey? {
        if ref.escaped { return TaskKey(rawValue: r.string(ref)) }
        let n = ref.count
        guard n > 0, n < byLength.count else { return nil }
        return r.bytes.withUnsafeBufferPointer { b in
            outer: for k in byLength[n] {
                let word = spellings[k]
                for j in 0..<n where b[ref.start + j] != word[j] { continue outer }
                return all[k]
            }
            return nil
        }
    }

    /// The keys of each length, as indices into `all`.
    static let byLength: [[Int]] = {
        var out = Array(repeating: [Int](), count: 16)
        for (k, w) in spellings.enumerated() where w.count < 16 { out[w.count].append(k) }
        return out
    }()
}

extension StoreCodec {
    /// Reads one task record into `t`. With `keep`, reminders, comments and unknown fields are
    /// kept as JSON; without it they are checked and skipped.
    static func readTask(_ r: inout JSONReader, into t: inout TaskRecord, keep: Bool) throws(JSONError) {
        r.skipWhitespace()
        let start = r.offset
        t.reset(at: start)
        guard r.peekKind() == .object else { throw r.error("a task is an object") }
        try r.beginObject()
        while let keyRef = try r.nextKeyRef() {
            r.skipWhitespace()
            let at = r.offset
            guard let key = TaskKey.of(keyRef, in: r) else {
                if keep { t.extra[r.string(keyRef)] = try r.readValue() } else { try r.skipValue() }
                continue
            }
            switch key {
            case .id:
                t.id = try r.readInt()
                guard t.id >= 1, t.id <= Store.maxID else { throw r.error("a task id is a whole number from 1 to \(Store.maxID)", at: at) }
                t.hasID = true
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
            case .completedAt:
                guard let s = try r.readStringRefOrNull() else { t.completedAt = nil; continue }
                guard let i = r.withText(s, { TimeText.parseISOInstant($0) }) else { throw r.error("'\(r.string(s))' is not an instant", at: at) }
                t.completedAt = i
            case .createdAt:
                let s = try r.readStringRef()
                guard let i = r.withText(s, { TimeText.parseISOInstant($0) }) else { throw r.error("'\(r.string(s))' is not an instant", at: at) }
                t.createdAt = i
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
                if keep, case .array(let a) = try r.readValue() { t.reminders = a } else if !keep { try r.skipValue() }
            case .comments:
                r.skipWhitespace()
                guard r.peekKind() == .array else { throw r.error("'comments' is a list", at: at) }
                if keep, case .array(let a) = try r.readValue() { t.comments = a } else if !keep { try r.skipValue() }
            }
        }
        guard t.hasID else { throw r.error("a task needs an 'id'", at: start) }
        guard t.hasTitle else { throw r.error("task \(t.id) needs a 'title'", at: start) }
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
        var anchorText: JSONStringRef? = nil
        while let k = try r.nextKeyRef() {
            r.skipWhitespace()
            if r.text(k, is: "text"), r.peekKind() == .string {
                text = try r.readStringRef()
            } else if r.text(k, is: "rrule"), r.peekKind() == .string {
                t.repeatRRULE = try r.readStringRef()
            } else if r.text(k, is: "anchor"), r.peekKind() == .string {
                anchorText = try r.readStringRef()
            } else {
                try r.skipValue()
            }
        }
        guard let text else { throw r.error("a repeat needs its 'text'", at: at) }
        if let a = anchorText {
            guard let d = r.withText(a, { CivilDate.parseISO($0) }) else { throw r.error("a repeat's 'anchor' is a date like 2026-06-15", at: at) }
            t.repeatAnchor = d
        }
        t.repeatText = text
        t.hasRepeat = true
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
                if r.peekKind() == .number, let n = try r.readNumber().int, n >= 0 { minutes = n } else { minutes = nil }
                if minutes == nil { throw r.error("an estimate needs whole 'minutes'", at: at) }
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
