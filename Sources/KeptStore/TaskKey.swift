// The keys of a task record, as names and as the 16-byte words the fast reader compares.

import KeptRules
import KeptDomain
import KeptFiles

/// The keys of a task record that the codec knows.
package enum TaskKey: String, CaseIterable {
    case id, uid, title, status, due, start, priority, project, area, tags, notes, description, goal
    case `repeat`, estimate, heldUntil, notTodayOn, completedAt, createdAt, modifiedAt, parent, nextOccurrence, pristine
    case steps, reminders, comments

    package static let all = TaskKey.allCases

    /// One bit per key, so the fast path sees a key written twice (and declines the record).
    package var bit: UInt32 {
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
    package static let spellings: [[UInt8]] = TaskKey.allCases.map { Array($0.rawValue.utf8) }

    /// The key a reference spells, or nil for a key this version does not know.
    @inline(__always)
    package static func of(_ ref: JSONStringRef, in r: JSONReader) -> TaskKey? {
        if ref.escaped { return TaskKey(rawValue: r.string(ref)) }
        return r.bytes.withUnsafeBufferPointer { b in TaskKey.of(b, ref.start, ref.count) }
    }

    /// The key spelled by the `n` plain bytes at `start`, or nil.
    @inline(__always)
    package static func of(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ n: Int) -> TaskKey? {
        guard n > 0, n <= 16 else { return nil }
        // The key's bytes as two little-endian words, compared with each known key's.
        let (w0, w1) = ByteWords.words(b, start, n)
        return of(w0, w1, n)
    }

    /// The key whose `n` bytes are the words `w0` and `w1` (zero past `n`), or nil.
    @inline(__always)
    package static func of(_ w0: UInt64, _ w1: UInt64, _ n: Int) -> TaskKey? {
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

    /// The known keys as little-endian words (literals, so reading them costs nothing; the
    /// tests check each against its spelling).
    package enum Words {
        package static let id: UInt64 = 0x6469 // id
        package static let due: UInt64 = 0x657564 // due
        package static let uid: UInt64 = 0x646975 // uid
        package static let tags: UInt64 = 0x73676174 // tags
        package static let area: UInt64 = 0x61657261 // area
        package static let goal: UInt64 = 0x6c616f67 // goal
        package static let title: UInt64 = 0x656c746974 // title
        package static let start: UInt64 = 0x7472617473 // start
        package static let notes: UInt64 = 0x7365746f6e // notes
        package static let steps: UInt64 = 0x7370657473 // steps
        package static let status: UInt64 = 0x737574617473 // status
        package static let `repeat`: UInt64 = 0x746165706572 // repeat
        package static let parent: UInt64 = 0x746e65726170 // parent
        package static let project: UInt64 = 0x7463656a6f7270 // project
        package static let priority: UInt64 = 0x797469726f697270 // priority
        package static let estimate: UInt64 = 0x6574616d69747365 // estimate
        package static let pristine: UInt64 = 0x656e697473697270 // pristine
        package static let comments: UInt64 = 0x73746e656d6d6f63 // comments
        package static let created: (UInt64, UInt64) = (0x4164657461657263, 0x74) // createdAt
        package static let held: (UInt64, UInt64) = (0x69746e55646c6568, 0x6c) // heldUntil
        package static let notToday: (UInt64, UInt64) = (0x7961646f54746f6e, 0x6e4f) // notTodayOn
        package static let modified: (UInt64, UInt64) = (0x6465696669646f6d, 0x7441) // modifiedAt
        package static let reminders: (UInt64, UInt64) = (0x7265646e696d6572, 0x73) // reminders
        package static let description: (UInt64, UInt64) = (0x7470697263736564, 0x6e6f69) // description
        package static let completed: (UInt64, UInt64) = (0x6574656c706d6f63, 0x744164) // completedAt
        package static let next: (UInt64, UInt64) = (0x7563634f7478656e, 0x65636e657272) // nextOccurrence
    }
}
