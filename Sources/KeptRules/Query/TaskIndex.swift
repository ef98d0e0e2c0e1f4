// The store's tasks as plain columns for filter evaluation: names interned to integers, dues
// as account days and civil minutes, so a compiled filter compares integers, not strings.

/// Columns over a list of tasks, built once and evaluated many times.
public struct TaskIndex: Sendable {
    /// Interned lowercase names of tags, projects, notes, statuses and area keys.
    package var names: [String: Int32] = [:]
    public package(set) var count: Int
    package var tagStart: [Int32] = []
    package var tagIDs: [Int32] = []
    package var noteStart: [Int32] = []
    package var noteIDs: [Int32] = []
    package var project: [Int32] = []
    package var area: [Int32] = []
    package var statusID: [Int32] = []
    package var statusKind: [StatusKind] = []
    package var priority: [UInt8] = []
    /// The account day of the due, or Int32.min without one.
    package var dueDay: [Int32] = []
    /// The due's date as a day number, and its civil minute (-1 for a date-only due).
    package var dueDate: [Int32] = []
    package var dueMinute: [Int64] = []
    package var repeatFreq: [Int8] = []
    package var estimate: [Int32] = []
    package var created: [Int64] = []
    /// When a task last changed, kept sparse: most tasks last changed when they were made or
    /// finished, so only the rows whose last change is neither (`impliedModified`), ascending,
    /// and that change (`modifiedColumn()` makes the whole column for a filter that asks).
    package var modifiedRows: [Int32] = []
    package var modifiedSeconds: [Int64] = []
    package var completed: [Int64] = []
    package var held: [Int32] = []
    /// The plan's columns (R-PLAN): each task's id, its estimate in minutes when the user set it
    /// (-1 without one, or for a suggested one), whether it has a goal, and its parent's id (0
    /// for none).
    package var ids: [Int] = []
    package var userEstimate: [Int32] = []
    package var hasGoal: [Bool] = []
    package var parent: [Int] = []
    /// Reminders, sparse (most tasks have none): row k has a reminder at civil minute
    /// `reminderMinutes[j]` for each j with `reminderRows[j] == k`, rows ascending.
    package var reminderRows: [Int32] = []
    package var reminderMinutes: [Int64] = []
    /// Titles and descriptions as UTF-8, for a regex, without a String per task: task i's title
    /// is the span `textSpans[4i]..<textSpans[4i+1]` of `text`, its description the next two.
    /// Built from records, `text` is the store file itself; a string with escapes is decoded
    /// into `decoded` instead, and its span is stored negated (start -1-k for offset k there).
    package var text: [UInt8] = []
    package var decoded: [UInt8] = []
    package var textSpans: [Int] = []
    package var hasText = false
    /// The folded search text of each task, for words.
    package var haystacks: [[UInt8]] = []
    /// The day start the due days were computed with.
    package var dayStart: WallTime

    package static let none = Int32.min

    package mutating func intern(_ s: String) -> Int32 {
        if let id = names[s] { return id }
        let id = Int32(names.count)
        names[s] = id
        return id
    }

    /// Names as stored, to their ids: most names repeat, so each spelling is lowercased once.
    package var spelled: [String: Int32] = [:]

    package mutating func intern(_ s: String, _ kind: UInt8) -> Int32 {
        let key = kind == 0 ? s : String(UnicodeScalar(kind)) + s
        if let id = spelled[key] { return id }
        let id: Int32
        switch kind {
        case 1: id = intern("area:" + AreaName.key(s))
        case 2: id = intern("status:" + s)
        default: id = intern(s.lowercased())
        }
        spelled[key] = id
        return id
    }

    /// The id of a name, or -1 when no task has it (then nothing can match it).
    package func id(_ s: String) -> Int32 { names[s] ?? -1 }

    /// `withText` keeps titles and descriptions (for a regex); `withSearch` folds the search
    /// text of every task (for words), which costs the most.
    public init(_ tasks: [Task], dayStart: WallTime, withText: Bool, withSearch: Bool = false) {
        count = tasks.count
        self.dayStart = dayStart
        hasText = withText
        let n = tasks.count
        if withText { textSpans.reserveCapacity(4 * n) }
        reserveColumns(n)
        let ds = dayStart.minuteOfDay
        for t in tasks {
            tagStart.append(Int32(tagIDs.count))
            for g in t.tags { tagIDs.append(intern(g, 0)) }
            noteStart.append(Int32(noteIDs.count))
            for nt in t.notes { noteIDs.append(intern(nt, 0)) }
            project.append(t.project.map { intern($0, 0) } ?? -1)
            area.append(t.area.map { intern($0, 1) } ?? -1)
            statusID.append(intern(t.status.rawValue, 2))
            statusKind.append(StatusKind(t.status))
            priority.append(UInt8(t.priority.rawValue))
            appendDue(t.due, ds)
            repeatFreq.append(t.repeatRule?.rule?.frequency.code ?? (t.repeatRule == nil ? -1 : 4))
            estimate.append(t.estimate.map { Int32(clamping: $0.minutes) } ?? -1)
            created.append(t.createdAt.seconds)
            if t.modifiedAt.seconds != TaskIndex.impliedModified(t.createdAt.seconds, t.completedAt?.seconds) {
                modifiedRows.append(Int32(ids.count))
                modifiedSeconds.append(t.modifiedAt.seconds)
            }
            completed.append(t.completedAt?.seconds ?? Int64.min)
            held.append(t.heldUntil.map { Int32($0.dayNumber) } ?? TaskIndex.none)
            ids.append(t.id)
            userEstimate.append(t.estimate.map { $0.source == .user ? Int32(clamping: $0.minutes) : -1 } ?? -1)
            hasGoal.append(t.goal != nil)
            parent.append(t.parent ?? 0)
            for r in t.reminders {
                reminderRows.append(Int32(ids.count - 1))
                reminderMinutes.append(TaskIndex.civilMinute(r.at))
            }
            if withText {
                textSpans.append(text.count)
                text.append(contentsOf: t.title.utf8)
                textSpans.append(text.count)
                textSpans.append(text.count)
                if let d = t.description { text.append(contentsOf: d.utf8) }
                textSpans.append(text.count)
            }
            if withSearch { haystacks.append(Array(SearchText.haystack(t).utf8)) }
        }
        tagStart.append(Int32(tagIDs.count))
        noteStart.append(Int32(noteIDs.count))
    }

    /// Room for `n` tasks in every per-task column (the text spans are reserved by the caller).
    package mutating func reserveColumns(_ n: Int) {
        tagStart.reserveCapacity(n + 1); noteStart.reserveCapacity(n + 1)
        project.reserveCapacity(n); area.reserveCapacity(n); statusID.reserveCapacity(n); statusKind.reserveCapacity(n)
        priority.reserveCapacity(n); dueDay.reserveCapacity(n); dueDate.reserveCapacity(n); dueMinute.reserveCapacity(n)
        repeatFreq.reserveCapacity(n); estimate.reserveCapacity(n); created.reserveCapacity(n); completed.reserveCapacity(n)
        held.reserveCapacity(n)
        ids.reserveCapacity(n); userEstimate.reserveCapacity(n); hasGoal.reserveCapacity(n); parent.reserveCapacity(n)
    }

    /// The due columns of one task.
    @inline(__always)
    package mutating func appendDue(_ due: Due?, _ ds: Int) {
        guard let d = due else {
            dueDate.append(TaskIndex.none)
            dueMinute.append(-1)
            dueDay.append(TaskIndex.none)
            return
        }
        let date = d.date.dayNumber
        dueDate.append(Int32(date))
        if let time = d.time {
            let m = Int64(date) * 1440 + Int64(time.minuteOfDay)
            dueMinute.append(m)
            dueDay.append(TaskIndex.accountDay(m, ds))
        } else {
            dueMinute.append(-1)
            dueDay.append(Int32(date))
        }
    }

    /// A wall-clock date and time as minutes since the civil epoch.
    @inline(__always)
    package static func civilMinute(_ at: CivilDateTime) -> Int64 {
        Int64(at.date.dayNumber) * 1440 + Int64(at.time.minuteOfDay)
    }

    /// The rows with a reminder on an account day (the plan's reminder-today term).
    public func rowsWithReminder(onDay day: Int32) -> Set<Int> {
        var rows = Set<Int>()
        let ds = dayStart.minuteOfDay
        for (j, m) in reminderMinutes.enumerated() where TaskIndex.accountDay(m, ds) == day {
            rows.insert(Int(reminderRows[j]))
        }
        return rows
    }

    /// The account day of a civil minute: a timed due before the day start belongs to the day before.
    @inline(__always)
    package static func accountDay(_ minute: Int64, _ dayStart: Int) -> Int32 {
        let am = minute - Int64(dayStart)
        return Int32(am >= 0 ? am / 1440 : (am - 1439) / 1440)
    }

    /// The same columns with due days for another day start.
    public func rebased(dayStart ds: WallTime) -> TaskIndex {
        guard ds != dayStart else { return self }
        var ix = self
        ix.dayStart = ds
        for i in 0..<count where dueMinute[i] >= 0 { ix.dueDay[i] = TaskIndex.accountDay(dueMinute[i], ds.minuteOfDay) }
        return ix
    }

    /// The title (field 0) or description (field 1) of task i as UTF-8.
    @inline(__always)
    package func withText<R>(_ i: Int, _ field: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let a = textSpans[4 * i + 2 * field]
        let b = textSpans[4 * i + 2 * field + 1]
        if a < 0 { return decoded.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[(-1 - a)..<(-1 - b)])) } }
        return text.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[a..<b])) }
    }

    /// When each task last changed, in seconds: the later of its creation and its completion,
    /// or the change kept for its row.
    package func modifiedColumn() -> [Int64] {
        var out = created
        for i in 0..<min(count, completed.count, out.count) where completed[i] > out[i] { out[i] = completed[i] }
        for (r, v) in zip(modifiedRows, modifiedSeconds) where Int(r) < out.count { out[Int(r)] = v }
        return out
    }

    /// The last change a task's creation and completion tell: the later of the two.
    @inline(__always)
    package static func impliedModified(_ created: Int64, _ completed: Int64?) -> Int64 {
        guard let c = completed, c > created else { return created }
        return c
    }

    /// Whether task i is open (open, or a project's own open status).
    @inline(__always)
    public func isOpen(_ i: Int) -> Bool {
        statusKind[i].isOpen
    }

    /// Whether task i is held (Not today or a hold) past `today`, an account day (R-PLAN-6).
    @inline(__always)
    package func isHeld(_ i: Int, today: Int32) -> Bool {
        let h = held[i]
        return h != TaskIndex.none && h > today
    }

    /// Whether task i was completed at or after `since` (seconds): done today, from today's start.
    @inline(__always)
    package func isDone(_ i: Int, since: Int64) -> Bool {
        statusKind[i] == .done && completed[i] != Int64.min && completed[i] >= since
    }

    @inline(__always)
    package func has(_ id: Int32, in start: [Int32], _ ids: [Int32], _ i: Int) -> Bool {
        var k = Int(start[i])
        let end = Int(start[i + 1])
        while k < end {
            if ids[k] == id { return true }
            k += 1
        }
        return false
    }
}
