// The store's tasks as plain columns for filter evaluation: names interned to integers, dues
// as account days and civil minutes, so a compiled filter compares integers, not strings.

/// Columns over a list of tasks, built once and evaluated many times.
public struct TaskIndex: Sendable {
    /// Interned lowercase names of tags, projects, notes, statuses and area keys.
    var names: [String: Int32] = [:]
    public let count: Int
    var tagStart: [Int32] = []
    var tagIDs: [Int32] = []
    var noteStart: [Int32] = []
    var noteIDs: [Int32] = []
    var project: [Int32] = []
    var area: [Int32] = []
    var statusID: [Int32] = []
    /// 0 open, 1 done, 2 archived, 3 a project's own open status.
    var statusKind: [UInt8] = []
    var priority: [UInt8] = []
    /// The account day of the due, or Int32.min without one.
    var dueDay: [Int32] = []
    /// The due's date as a day number, and its civil minute (-1 for a date-only due).
    var dueDate: [Int32] = []
    var dueMinute: [Int64] = []
    var repeatFreq: [Int8] = []
    var estimate: [Int32] = []
    var created: [Int64] = []
    var completed: [Int64] = []
    var held: [Int32] = []
    /// Text fields, for regex, and the folded search text, built on first use.
    var titles: [String] = []
    var descriptions: [String] = []
    var haystacks: [[UInt8]] = []

    static let none = Int32.min

    mutating func intern(_ s: String) -> Int32 {
        if let id = names[s] { return id }
        let id = Int32(names.count)
        names[s] = id
        return id
    }

    /// Names as stored, to their ids: most names repeat, so each spelling is lowercased once.
    var spelled: [String: Int32] = [:]

    mutating func intern(_ s: String, _ kind: UInt8) -> Int32 {
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
    func id(_ s: String) -> Int32 { names[s] ?? -1 }

    /// `withText` keeps titles and descriptions (for a regex); `withSearch` folds the search
    /// text of every task (for words), which costs the most.
    public init(_ tasks: [Task], dayStart: WallTime, withText: Bool, withSearch: Bool = false) {
        count = tasks.count
        let n = tasks.count
        tagStart.reserveCapacity(n + 1); noteStart.reserveCapacity(n + 1)
        project.reserveCapacity(n); area.reserveCapacity(n); statusID.reserveCapacity(n); statusKind.reserveCapacity(n)
        priority.reserveCapacity(n); dueDay.reserveCapacity(n); dueDate.reserveCapacity(n); dueMinute.reserveCapacity(n)
        repeatFreq.reserveCapacity(n); estimate.reserveCapacity(n); created.reserveCapacity(n); completed.reserveCapacity(n)
        held.reserveCapacity(n)
        let ds = dayStart.minuteOfDay
        for t in tasks {
            tagStart.append(Int32(tagIDs.count))
            for g in t.tags { tagIDs.append(intern(g, 0)) }
            noteStart.append(Int32(noteIDs.count))
            for nt in t.notes { noteIDs.append(intern(nt, 0)) }
            project.append(t.project.map { intern($0, 0) } ?? -1)
            area.append(t.area.map { intern($0, 1) } ?? -1)
            statusID.append(intern(t.status.rawValue, 2))
            statusKind.append(t.status == .open ? 0 : (t.status == .done ? 1 : (t.status == .archived ? 2 : 3)))
            priority.append(UInt8(t.priority.rawValue))
            if let d = t.due {
                let date = d.date.dayNumber
                dueDate.append(Int32(date))
                if let time = d.time {
                    let m = Int64(date) * 1440 + Int64(time.minuteOfDay)
                    dueMinute.append(m)
                    let am = m - Int64(ds)
                    dueDay.append(Int32(am >= 0 ? am / 1440 : (am - 1439) / 1440))
                } else {
                    dueMinute.append(-1)
                    dueDay.append(Int32(date))
                }
            } else {
                dueDate.append(TaskIndex.none)
                dueMinute.append(-1)
                dueDay.append(TaskIndex.none)
            }
            switch t.repeatRule?.rule?.frequency {
            case .daily?: repeatFreq.append(0)
            case .weekly?: repeatFreq.append(1)
            case .monthly?: repeatFreq.append(2)
            case .yearly?: repeatFreq.append(3)
            case nil: repeatFreq.append(t.repeatRule == nil ? -1 : 4)
            }
            estimate.append(t.estimate.map { Int32(clamping: $0.minutes) } ?? -1)
            created.append(t.createdAt.seconds)
            completed.append(t.completedAt?.seconds ?? Int64.min)
            held.append(t.heldUntil.map { Int32($0.dayNumber) } ?? TaskIndex.none)
            if withText {
                titles.append(t.title)
                descriptions.append(t.description ?? "")
            }
            if withSearch { haystacks.append(Array(SearchText.haystack(t).utf8)) }
        }
        tagStart.append(Int32(tagIDs.count))
        noteStart.append(Int32(noteIDs.count))
    }

    @inline(__always)
    func has(_ id: Int32, in start: [Int32], _ ids: [Int32], _ i: Int) -> Bool {
        var k = Int(start[i])
        let end = Int(start[i + 1])
        while k < end {
            if ids[k] == id { return true }
            k += 1
        }
        return false
    }
}
