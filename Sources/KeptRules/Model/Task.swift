// A task as the store holds it. Dues are calendar fields (a date, maybe a wall-clock time),
// never instants, so a 9:00 task stays at 9:00 across DST (R-DAY-3).

/// A due or start date: a whole day, or a day with a wall-clock time in the account zone.
public struct Due: Sendable, Hashable {
    public var date: CivilDate
    public var time: WallTime?

    public init(date: CivilDate, time: WallTime? = nil) {
        self.date = date
        self.time = time
    }
}

/// One checklist step of a task.
public struct Step: Sendable, Equatable {
    public var title: String
    public var done: Bool

    public init(title: String, done: Bool = false) {
        self.title = title
        self.done = done
    }
}

/// Whether an estimate was typed by the user or suggested by Kept; only the user's count for
/// Quick wins (R-PLAN-3).
public enum EstimateSource: String, Sendable {
    case user, suggested
}

/// How long a task is expected to take.
public struct Estimate: Sendable, Equatable {
    public var minutes: Int
    public var source: EstimateSource

    public init(minutes: Int, source: EstimateSource = .user) {
        self.minutes = minutes
        self.source = source
    }
}

/// A task's status: `open`, `done`, `archived`, or a project's own status name (`waiting`).
public struct TaskStatus: RawRepresentable, Sendable, Hashable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let open = TaskStatus(rawValue: "open")
    public static let done = TaskStatus(rawValue: "done")
    public static let archived = TaskStatus(rawValue: "archived")

    /// Open, or a custom status of open work.
    public var isOpen: Bool { self != .done && self != .archived }

    /// The statuses every task may have: `waiting` is the built-in status of open work.
    public static let builtIn = ["open", "waiting", "done", "archived"]
    /// Words that a filter reads as something else (`status:any`), so no project may use them.
    public static let reserved = builtIn + ["any", "all"]
}

/// The kind of a status, as the filter columns and the SQLite store hold it: the one list of
/// the numbers a status kind is stored as.
public enum StatusKind: UInt8, Sendable, CaseIterable, BitwiseCopyable {
    case open = 0, done = 1, archived = 2
    /// A status of open work that is not `open`: `waiting`, or a project's own.
    case other = 3

    public init(_ s: TaskStatus) {
        self = s == .open ? .open : (s == .done ? .done : (s == .archived ? .archived : .other))
    }

    /// The kind a raw value names (anything past the known ones is other open work), without
    /// the outlined `init?(rawValue:)` the loader would call once per task.
    @inline(__always)
    package static func of(raw: UInt8) -> StatusKind {
        raw == 0 ? .open : raw == 1 ? .done : raw == 2 ? .archived : .other
    }

    /// Open work: open, or a status of open work.
    @inline(__always)
    public var isOpen: Bool { self == .open || self == .other }

    /// The SQL test of open work on a `kind` column.
    package static let openSQL = "kind IN (\(StatusKind.open.rawValue), \(StatusKind.other.rawValue))"
}

/// One task.
///
/// The fields most tasks leave empty (a start, an area, notes, a description, an estimate, a
/// hold, a parent, a goal, steps, reminders, comments and the made-occurrence links) live in one
/// shared box, `TaskDetails`, made when one of them is first set: a task is about half the size,
/// and so is every copy the store, an undo step or an import holds.
public struct Task: Sendable, Equatable {
    /// The display id: a small integer, unique in its store, never reused after a delete.
    public var id: Int
    /// The identity that never changes, whatever the id (docs/STORE.md, "Identity").
    public var uid: TaskUID
    public var title: String
    public var status: TaskStatus = .open
    public var due: Due?
    public var priority: Priority = .none
    public var project: String?
    public var tags: [String] = []
    /// The repeat, held in a box: a task without one (most) stays small, and so do the stores,
    /// undo steps and imports that hold many tasks (a RepeatSpec is larger than the rest of a task).
    public var repeatRule: RepeatSpec? {
        get { repeatBox?.spec }
        set { repeatBox = newValue.map(RepeatBox.init) }
    }
    private var repeatBox: RepeatBox?
    public var completedAt: Instant?
    public var createdAt: Instant
    /// When anything last changed the task; every change the engine makes sets it.
    public var modifiedAt: Instant
    /// Fields this version does not know; written back unchanged (R-STORE-1).
    public var extra = JSONObject()
    private var details = DetailsRef()

    public var start: Due? {
        get { details.box?.fields.start }
        set { details.edit(empty: newValue == nil) { $0.start = newValue } }
    }
    public var area: String? {
        get { details.box?.fields.area }
        set { details.edit(empty: newValue == nil) { $0.area = newValue } }
    }
    /// Linked notes (`[[Trip plan]]`), by title.
    public var notes: [String] {
        get { details.box?.fields.notes ?? [] }
        set { details.edit(empty: newValue.isEmpty) { $0.notes = newValue } }
    }
    public var description: String? {
        get { details.box?.fields.description }
        set { details.edit(empty: newValue == nil) { $0.description = newValue } }
    }
    public var estimate: Estimate? {
        get { details.box?.fields.estimate }
        set { details.edit(empty: newValue == nil) { $0.estimate = newValue } }
    }
    /// The day a Not today hold ends (R-PLAN-6).
    public var heldUntil: CivilDate? {
        get { details.box?.fields.heldUntil }
        set { details.edit(empty: newValue == nil) { $0.heldUntil = newValue } }
    }
    /// The account day of the last Not today: a second one within seven days holds for seven
    /// days (R-PLAN-6).
    public var notTodayOn: CivilDate? {
        get { details.box?.fields.notTodayOn }
        set { details.edit(empty: newValue == nil) { $0.notTodayOn = newValue } }
    }
    public var parent: Int? {
        get { details.box?.fields.parent }
        set { details.edit(empty: newValue == nil) { $0.parent = newValue } }
    }
    public var goal: String? {
        get { details.box?.fields.goal }
        set { details.edit(empty: newValue == nil) { $0.goal = newValue } }
    }
    public var steps: [Step] {
        get { details.box?.fields.steps ?? [] }
        set { details.edit(empty: newValue.isEmpty) { $0.steps = newValue } }
    }
    /// On a completed occurrence: the id of the occurrence its completion made (R-REP-6).
    public var nextOccurrence: Int? {
        get { details.box?.fields.nextOccurrence }
        set { details.edit(empty: newValue == nil) { $0.nextOccurrence = newValue } }
    }
    /// On a made occurrence: true until anything changes it, so reopening the earlier one may
    /// take it back (R-REP-6).
    public var pristine: Bool {
        get { details.box?.fields.pristine ?? false }
        set { details.edit(empty: !newValue) { $0.pristine = newValue } }
    }
    /// Reminders, in the order they were added (R-TASK-7).
    public var reminders: [Reminder] {
        get { details.box?.fields.reminders ?? [] }
        set { details.edit(empty: newValue.isEmpty) { $0.reminders = newValue } }
    }
    /// Comments are kept as written until their issue models them.
    public var comments: [JSONValue] {
        get { details.box?.fields.comments ?? [] }
        set { details.edit(empty: newValue.isEmpty) { $0.comments = newValue } }
    }

    /// A task whose uid is derived from its id, creation and title until a new one is given
    /// (the engine gives every task it makes a random one; see `TaskUID.derived`).
    public init(id: Int, title: String, createdAt: Instant, uid: TaskUID? = nil) {
        self.id = id
        self.title = title
        self.createdAt = createdAt
        self.modifiedAt = createdAt
        self.uid = uid ?? TaskUID.derived(id: id, createdAt: createdAt, title: title)
    }

    public var isOpen: Bool { status.isOpen }
}

/// The fields of a task that most tasks leave empty (see `Task`). Internal, with its box: the
/// box's one stored property is then known to this module only, so reading a detail needs no
/// run-time exclusivity check wherever the read is compiled.
struct TaskDetails: Sendable, Equatable {
    var start: Due?
    var area: String?
    var notes: [String] = []
    var description: String?
    var estimate: Estimate?
    var heldUntil: CivilDate?
    var notTodayOn: CivilDate?
    var parent: Int?
    var goal: String?
    var steps: [Step] = []
    var nextOccurrence: Int?
    var pristine = false
    var reminders: [Reminder] = []
    var comments: [JSONValue] = []
}

/// A task's details, shared between copies of the task until one of them changes them (copy
/// on write). Mutated only through `DetailsRef.edit`, when this is its one reference.
final class DetailsBox: @unchecked Sendable {
    var fields: TaskDetails
    init(_ fields: TaskDetails) { self.fields = fields }
}

/// A task's details box, or none while every detail is empty; equal, and printed, by what the
/// details are (a task's printed form shows every field, as tests that compare states expect).
struct DetailsRef: Sendable, Equatable, CustomDebugStringConvertible {
    var box: DetailsBox?

    /// Changes the details, copying the box first when another task shares it. Setting a
    /// detail to its empty value on a task without details makes no box (an import sets every
    /// field it maps).
    mutating func edit(empty: Bool, _ change: (inout TaskDetails) -> Void) {
        if empty, box == nil { return }
        if !isKnownUniquelyReferenced(&box) { box = DetailsBox(box?.fields ?? TaskDetails()) }
        if let b = box { change(&b.fields) }
    }

    static func == (a: DetailsRef, b: DetailsRef) -> Bool {
        if a.box === b.box { return true }
        return (a.box?.fields ?? TaskDetails()) == (b.box?.fields ?? TaskDetails())
    }

    var debugDescription: String { String(reflecting: box?.fields ?? TaskDetails()) }
}

/// A task's repeat, shared between copies of the task until one of them sets another.
package final class RepeatBox: Sendable, Equatable {
    package let spec: RepeatSpec
    package init(_ spec: RepeatSpec) { self.spec = spec }
    package static func == (a: RepeatBox, b: RepeatBox) -> Bool { a === b || a.spec == b.spec }
}
