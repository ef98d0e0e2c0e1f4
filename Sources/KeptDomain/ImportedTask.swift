// What an import carries from a file to the engine (docs/INTEROP.md): each record as a typed
// task with the fields its format holds, the report the engine returns, and the errors a reader
// raises. The readers (one file a format) make ImportedTask values; Engine.importTasks matches
// them by uid and applies them as one step.

import KeptRules

/// The formats Kept reads and writes.
public enum InteropFormat: String, Sendable, CaseIterable {
    case taskwarrior = "tw"
    case icalendar = "ics"
    case jsonLines = "jsonl"
    case csv

    /// How messages name it.
    public var title: String {
        switch self {
        case .taskwarrior: return "Taskwarrior JSON"
        case .icalendar: return "iCalendar"
        case .jsonLines: return "JSON Lines"
        case .csv: return "CSV"
        }
    }

    /// The words `as FORMAT` takes for each.
    package static let names: [(String, InteropFormat)] = [
        ("tw", .taskwarrior), ("taskwarrior", .taskwarrior), ("ics", .icalendar), ("ical", .icalendar),
        ("icalendar", .icalendar), ("jsonl", .jsonLines), ("ndjson", .jsonLines), ("csv", .csv),
    ]

    public init?(name: String) {
        guard let f = InteropFormat.names.first(where: { $0.0 == name.lowercased() })?.1 else { return nil }
        self = f
    }

    /// The format a file name says: `.tw.json`, `.json` (Taskwarrior's export), `.ics`, `.ifb`,
    /// `.jsonl`, `.ndjson`, `.csv`; nil for another name (and for `-`).
    public init?(fileName: String) {
        let n = fileName.lowercased()
        if n.hasSuffix(".json") { self = .taskwarrior }
        else if n.hasSuffix(".ics") || n.hasSuffix(".ical") || n.hasSuffix(".icalendar") { self = .icalendar }
        else if n.hasSuffix(".jsonl") || n.hasSuffix(".ndjson") { self = .jsonLines }
        else if n.hasSuffix(".csv") { self = .csv }
        else { return nil }
    }

    /// The key of a task's store record that keeps what this format holds and Kept has no field
    /// for (docs/INTEROP.md): written back on export, never dropped.
    public var extraKey: String {
        switch self {
        case .taskwarrior: return "taskwarrior"
        case .icalendar: return "icalendar"
        case .jsonLines: return "jsonl"
        case .csv: return "csv"
        }
    }
}

/// The fields of a task a record can hold: an update changes these and keeps the others.
public struct ImportFields: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let title = ImportFields(rawValue: 1 << 0)
    public static let status = ImportFields(rawValue: 1 << 1)
    public static let due = ImportFields(rawValue: 1 << 2)
    public static let start = ImportFields(rawValue: 1 << 3)
    public static let priority = ImportFields(rawValue: 1 << 4)
    public static let project = ImportFields(rawValue: 1 << 5)
    public static let area = ImportFields(rawValue: 1 << 6)
    public static let tags = ImportFields(rawValue: 1 << 7)
    public static let notes = ImportFields(rawValue: 1 << 8)
    public static let description = ImportFields(rawValue: 1 << 9)
    public static let `repeat` = ImportFields(rawValue: 1 << 10)
    public static let estimate = ImportFields(rawValue: 1 << 11)
    public static let completed = ImportFields(rawValue: 1 << 12)
    public static let created = ImportFields(rawValue: 1 << 13)
    public static let parent = ImportFields(rawValue: 1 << 14)
    public static let goal = ImportFields(rawValue: 1 << 15)
    public static let steps = ImportFields(rawValue: 1 << 16)
    public static let reminders = ImportFields(rawValue: 1 << 17)
    public static let comments = ImportFields(rawValue: 1 << 18)
    public static let held = ImportFields(rawValue: 1 << 19)

    /// Names for the report and docs, in the order of docs/STORE.md.
    public var names: [String] { ImportField.all.filter { contains($0.field) }.map(\.name) }
}

/// One record of an import file, as a task.
public struct ImportedTask: Sendable {
    /// The task the record describes. Its id is not used: an added task gets the next id.
    public var task: Task
    /// Whether the record named the task's uid; a record without one is always added.
    public var hasUID: Bool
    /// What the record holds: a change of a task already in the store changes only these.
    public var fields: ImportFields
    /// Whether the record gave its last modification (`task.modifiedAt` is it); the newer of
    /// the record and the store wins (docs/INTEROP.md, "Identity").
    public var hasModified = false
    /// The parent task by uid (iCalendar RELATED-TO), found in the file or the store.
    public var parentUID: TaskUID?
    /// The record says the task was deleted (a Taskwarrior `deleted` task).
    public var deleted = false
    /// What the record held that Kept has no field for: each name is kept in the task's
    /// `extra[format.extraKey]` and counted in the report.
    public var unmapped: [String] = []
    /// The line the record starts on.
    public var line: Int

    public init(task: Task, hasUID: Bool, fields: ImportFields, line: Int) {
        self.task = task
        self.hasUID = hasUID
        self.fields = fields
        self.line = line
    }
}

/// A reader of one import file: records one at a time, so a large file is never held whole.
public protocol ImportSource {
    var format: InteropFormat { get }
    /// About how many records the file holds (from its size), so a large import reserves its
    /// tables once instead of growing them; 0 when not known.
    var estimatedRecords: Int { get }
    /// The next record, nil at the end of the file; an error refuses the whole file.
    mutating func next() throws(ImportError) -> ImportedTask?
}

extension ImportSource {
    public var estimatedRecords: Int { 0 }
}

/// Records already read, as a source (tests, and callers that build tasks themselves).
public struct ImportList: ImportSource {
    public let format: InteropFormat
    package var items: [ImportedTask]
    package var k = 0

    public init(_ items: [ImportedTask], format: InteropFormat = .jsonLines) {
        self.items = items
        self.format = format
    }

    public mutating func next() throws(ImportError) -> ImportedTask? {
        guard k < items.count else { return nil }
        k += 1
        return items[k - 1]
    }
}

/// Why an import file is refused: what is wrong, and where. The catalog words each problem and
/// gives it its code (Catalog+Layers).
public struct ImportError: Error, Sendable, Equatable {
    /// What is wrong with the file or one of its records.
    public enum Problem: Sendable, Equatable {
        // The file cannot be read.
        /// The file (`name`, `<stdin>` for standard input) cannot be opened or read.
        case unreadable(name: String, Unreadable)

        // JSON that is not well-formed, or text that is not UTF-8.
        /// The file is not JSON.
        case notJSON(JSONError)
        /// A JSON array of tasks: its `]` is missing.
        case listNotClosed
        /// A byte after the array of tasks.
        case afterList(UInt8)
        /// A byte where the array of tasks should start.
        case notAList(UInt8)
        /// A byte where a task's object should start.
        case notATask(UInt8)
        /// A line of a JSON Lines file that is not JSON.
        case lineNotJSON(Int, JSONError)
        /// A line of a JSON Lines file that is not an object.
        case lineNotObject(Int)
        case notUTF8(line: Int)

        // A field's value the format does not allow.
        /// `'key' is not …`: a field by its name.
        case field(String, not: Expected)
        /// `NAME 'value' is not …`: a property or column with its value.
        case value(String, String, not: Expected)
        /// A status the engine cannot give a project.
        case cannotBeAStatus(String)
        case notATaskwarriorStatus(String)
        /// A Taskwarrior `rrule` that is neither an RRULE nor Kept's words.
        case notARepeat(String)

        // iCalendar that is not well-formed.
        case propertyNameMissing
        case parameterNotNameValue(property: String)
        case quotedParameterNotClosed(property: String)
        case colonExpected(property: String)
        case notStartingWithVCALENDAR
        /// END:`what` where `open` (or nothing) is open.
        case endMismatch(String, open: String?)
        case outsideCalendar(String)
        case endsInside(String)
        case noCalendar
        /// An RRULE the reader cannot read.
        case malformedRepeat(String, RRULEError)

        // CSV that is not well-formed.
        case quoteNotClosed
        case quoteInUnquotedField
        case textAfterQuotedField
        case noContentColumn
        case fieldCount(Int, header: Int)

        // A record without a title: as the engine finds it, a JSON Lines record, a Taskwarrior task.
        case noTitle
        case noTitleInLine
        case noDescription

        /// A uid the file gives twice.
        case uidTwice(TaskUID)
    }

    /// Why a file cannot be read.
    public enum Unreadable: Sendable, Equatable {
        /// What the system said (`no such file or directory`).
        case system(String)
        /// Past the import size limit.
        case tooLarge(limit: Int)
        case directory
        case device
        case notAFile
    }

    /// What a field's value should have been.
    public enum Expected: Sendable, Equatable {
        case string, strings, instant, dueWithOffset, isoDate, uuidLike, status, priorityWord, minutes, uuid
        case steps, stepObjects, reminders, reminderObjects, list, repeatObject, readableRepeat
        case icalDue, icalInstant, icalPriority, percentage, keptRepeat, keptComment, keptField
        case todoistPriority, indent, wholeNumber, taskwarriorDate, taskwarriorMinutes
    }

    public var problem: Problem
    /// 1-based; 0 when the error is about the file as a whole.
    public var line: Int
    /// 1-based, in characters; nil where a format has no columns to speak of.
    public var column: Int?

    public init(_ problem: Problem, line: Int, column: Int? = nil) {
        self.problem = problem
        self.line = line
        self.column = column
    }
}

/// How an import runs.
public struct ImportOptions: Sendable {
    /// Work out the report and change nothing.
    public var dryRun = false
    /// Keep every task's line of the report (a dry run lists them).
    public var listItems = false
    /// The file's name, for the undo step's summary.
    public var name = "file"
    /// How many new tasks the undo step holds (Journal.heldAdds; tests make it small).
    public var heldAdds = Journal.heldAdds

    public init(dryRun: Bool = false, listItems: Bool = false, name: String = "file") {
        self.dryRun = dryRun
        self.listItems = listItems || dryRun
        self.name = name
    }
}

/// What an import did, or would do.
public struct ImportReport: Sendable {
    public enum Action: String, Sendable {
        case add, change, delete, skip
    }

    public enum SkipReason: String, Sendable, CaseIterable {
        /// The store holds the task exactly as the record says.
        case same
        /// The task changed in the store after the record's last modification.
        case newerHere = "newer here"
        /// The task was deleted in the store after the record's last modification.
        case deletedHere = "deleted here"
        /// The record is a deleted task the store does not hold.
        case deletedInFile = "deleted in the file"
    }

    /// One record's fate (kept when `listItems`).
    public struct Item: Sendable {
        public var action: Action
        /// The task's id in the store (the new one for an add); nil for a skip of a task the
        /// store does not hold.
        public var id: Int?
        public var uid: TaskUID
        public var title: String
        public var line: Int
        /// For a change: the fields that change.
        public var fields: [String] = []
        public var reason: SkipReason?
    }

    /// A parent a record names that would close a loop of subtasks (the task under itself, or
    /// under one of its own subtasks): it is left out, and the task keeps the parent it had.
    public struct ParentLoop: Sendable, Equatable {
        /// The task's id in the store (the new one for an add).
        public var id: Int
        public var title: String
        /// The id of the parent the record names.
        public var parent: Int
        public var line: Int
    }

    public var format: InteropFormat
    public var dryRun: Bool
    public var added = 0
    public var changed = 0
    public var deleted = 0
    public var skipped: [SkipReason: Int] = [:]
    /// Names of fields no Kept field holds, with how many tasks had each (kept, see ImportedTask).
    public var unmapped: [String: Int] = [:]
    /// Projects the import made for the tasks that name them.
    public var projectsAdded: [String] = []
    /// Other things worth knowing (Taskwarrior templates folded into their occurrence…).
    public var notes: [String] = []
    /// Parents left out because each would close a loop of subtasks, in the file's order.
    public var parentLoops: [ParentLoop] = []
    /// False for an import too large to be one undo step (Journal.heldAdds).
    public var undoable = true
    public var items: [Item] = []

    public var skippedCount: Int { skipped.values.reduce(0, +) }
    public var records: Int { added + changed + deleted + skippedCount }

    public init(format: InteropFormat, dryRun: Bool) {
        self.format = format
        self.dryRun = dryRun
    }
}
