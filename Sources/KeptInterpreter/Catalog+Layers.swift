// The catalog's diagnostics about values of the layers below the syntax: the store's errors and
// notices, a repeat's dates, import and export, and the paths a script may open.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Catalog {
    /// The diagnostic of a store that could not be read, written or committed.
    public static func store(_ e: StoreError) -> Diagnostic {
        switch e {
        case .conflict(let p): return storeConflict(p)
        case .locked(let p): return storeLocked(p)
        case .readOnly(let p, let folder): return storeReadOnly(p, folder: folder)
        case .writeFailed(let p, let reason): return storeWriteFailed(p, reason: reason)
        case .unreadable(let problem): return store(problem)
        case .notReplaceable(let p, let reason): return storeNotReplaceable(p, reason: reason)
        }
    }

    /// The diagnostic of a store that cannot be read.
    public static func store(_ p: StoreProblem) -> Diagnostic {
        switch p {
        case .unreadable(let path, let reason): return storeUnreadable(path: path, reason: reason)
        case .unreadableAt(let path, let text, let offset, let reason):
            // Line starts are worked out only for an error: a large store never pays for them.
            return storeUnreadable(file: SourceFile(name: path, bytes: text), offset: offset, reason: reason)
        case .refused(let path, let reason): return storeRefused(path, reason: reason)
        case .notKept(let path, let reason): return notAKeptDatabase(path, reason: reason)
        case .newer(let path, let version, let reads): return newerStore(path, version: version, reads: reads)
        case .damaged(let path, let items): return storeDamaged(path, items)
        case .foreignWAL(let path, let wal, let reason): return foreignWAL(path, wal: wal, reason: reason)
        case .noFile(let path): return noStoreFile(path)
        }
    }

    /// Where a statement met a store error: taking the store's lock before it could change it,
    /// reading a damaged store, or committing (`reread` when the store was read again after).
    package enum StoreMoment {
        case locking, damagedRead
        case commit(reread: Bool)
    }

    /// A store error of a statement, pointing at the statement.
    package static func store(_ e: StoreError, at moment: StoreMoment, statement: StatementSource) -> Diagnostic {
        let d = store(e)
        var label = d.label, notes = d.notes, help = d.help
        switch moment {
        case .locking: break
        case .damagedRead: label = "read a damaged store"
        case .commit(let reread):
            label = "not written"
            if case .conflict = e {
                if reread { notes = ["the store has been read again with the other process's changes"] }
                help = "run '\(statement.text)' again"
            }
        }
        return Diagnostic(code: d.code, severity: d.severity, message: d.message, file: statement.file, range: statement.range,
                          label: label, secondary: d.secondary, notes: notes, help: help)
    }

    /// The diagnostic of what a store says when it is opened.
    public static func store(_ n: StoreNotice) -> Diagnostic {
        switch n {
        case .changedOutside(let path): return storeChangedOutside(path)
        }
    }

    /// Damage a read found: the store, and each damaged item by table and key.
    public static func storeDamaged(_ path: String, _ items: [StoreDamage]) -> Diagnostic {
        let first = items.first.map(\.description) ?? "it cannot be read"
        let more = items.count > 1 ? " (and \(items.count - 1) more)" : ""
        return Diagnostic(code: .E0332, message: "the store '\(path)' is damaged: \(first)\(more)",
                          notes: items.dropFirst().prefix(9).map(\.description)
                              + ["nothing will be written to it; nothing was read as if it were not there"],
                          help: "'kept check \(path)' lists every damaged item; 'kept convert --salvage' copies what is sound")
    }

    public static func storeNotReplaceable(_ path: String, reason: StoreError.NotReplaceable) -> Diagnostic {
        switch reason {
        case .notAFile:
            return Diagnostic(code: .E0336, message: "the store '\(path)' is not a regular file; nothing was written",
                              notes: ["a pipe is read once, and a new version would take its place as a file"],
                              help: "write to a file: '.save FILE', or 'kept convert'")
        case .hardLinks(let n):
            return Diagnostic(code: .E0336, message: "the store '\(path)' has \(n) hard links; nothing was written",
                              notes: ["a new version is a new file: the other names would keep the old one"],
                              help: "keep one name and use a symlink for the others ('ln -sf'), or copy the file")
        }
    }

    /// A file refused by a reader or by the import: where in the file, and that nothing changed.
    public static func importRefused(_ e: ImportError, path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        var at = ""
        if e.line > 0 { at = "line \(e.line)" + (e.column.map { ", column \($0)" } ?? "") + ": " }
        return Diagnostic(code: code(e), message: "could not import '\(path)': \(at)\(message(e))", file: file, range: range,
                          label: "nothing was imported", help: help(e))
    }

    /// R-CAL-6: a connected calendar's file that does not read: at `calendar connect` an
    /// error at the file's name (nothing is connected); at agenda time (no `range`) a
    /// warning under the same code, since the agenda still shows everything else.
    public static func calendarUnreadable(_ e: ImportError, name: String?, path: String, range: SourceRange? = nil, file: SourceFile? = nil) -> Diagnostic {
        var at = ""
        if e.line > 0 { at = "line \(e.line)" + (e.column.map { ", column \($0)" } ?? "") + ": " }
        // A file that cannot be opened says so itself (`could not read 'work.ics': …`).
        var what = "could not read '\(path)': \(at)\(message(e))"
        if case .unreadable = e.problem { what = message(e) }
        if let name {
            return Diagnostic(code: .E0612, severity: range == nil ? .warning : nil, message: "calendar \(name): \(what)",
                              file: file, range: range, label: range == nil ? nil : "not read",
                              help: "its events are left out and everything else is shown; 'calendar hide \(name)' leaves it out quietly")
        }
        if case .unreadable = e.problem { what = "could not read the calendar: " + message(e) } else { what = "could not read the calendar '\(path)': \(at)\(message(e))" }
        return Diagnostic(code: .E0612, message: what, file: file, range: range,
                          label: "nothing was connected", help: help(e))
    }

    /// The words of an action on open tasks only, as the statement says it.
    package static func words(_ a: OpenAction) -> String {
        switch a {
        case .notToday: return "not today"
        case .back: return "back"
        case .top3Add: return "top3 add"
        case .top3Replace: return "top3 replace"
        case .skip: return "skip"
        case .unskip: return "unskip"
        case .rdate: return "rdate"
        case .unrdate: return "unrdate"
        }
    }

    // MARK: import errors (docs/INTEROP.md, "Errors")

    /// The code of a file an import refuses.
    package static func code(_ e: ImportError) -> DiagnosticCode {
        switch e.problem {
        case .unreadable: return .E0601
        case .notJSON, .listNotClosed, .afterList, .notAList, .notATask, .lineNotJSON, .lineNotObject, .notUTF8: return .E0603
        case .field, .value, .cannotBeAStatus, .notATaskwarriorStatus, .notARepeat: return .E0604
        case .propertyNameMissing, .parameterNotNameValue, .quotedParameterNotClosed, .colonExpected, .notStartingWithVCALENDAR,
             .endMismatch, .outsideCalendar, .endsInside, .noCalendar, .malformedRepeat:
            return .E0605
        case .quoteNotClosed, .quoteInUnquotedField, .textAfterQuotedField, .noContentColumn, .fieldCount: return .E0606
        case .noTitle, .noTitleInLine, .noDescription: return .E0607
        case .uidTwice: return .E0608
        }
    }

    /// A byte as an error quotes it: `'x'`, or `byte 0x7`.
    package static func describe(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? "'\(Character(UnicodeScalar(b)))'" : "byte 0x\(String(b, radix: 16))"
    }

    /// What a field's value should have been, in words.
    package static func words(_ x: ImportError.Expected) -> String {
        switch x {
        case .string: return "a string"
        case .strings: return "a list of strings"
        case .instant: return "an instant like 2026-06-15T07:00:00Z"
        case .dueWithOffset: return "a date like 2026-06-15 or a date-time with an offset"
        case .isoDate: return "a date like 2026-06-15"
        case .uuidLike: return "a UUID like 0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e"
        case .status: return "a status"
        case .priorityWord: return "none, low, medium, high, urgent or critical"
        case .minutes: return "a number of minutes"
        case .uuid: return "a UUID"
        case .steps: return "a list of steps"
        case .stepObjects: return "a list of {\"title\", \"done\"}"
        case .reminders: return "a list of reminders"
        case .reminderObjects: return "a list of {\"at\": \"2026-06-15T09:00\"}"
        case .list: return "a list"
        case .repeatObject: return "{\"text\", \"rrule\"} or null"
        case .readableRepeat: return "a repeat this version reads"
        case .icalDue: return "a date like 20260615 or a date-time like 20260615T090000"
        case .icalInstant: return "a date-time like 20260615T070000Z"
        case .icalPriority: return "a priority from 0 to 9"
        case .percentage: return "a percentage"
        case .keptRepeat: return "a repeat as Kept writes it"
        case .keptComment: return "a comment as Kept writes it"
        case .keptField: return "a field as Kept writes it"
        case .todoistPriority: return "1, 2, 3 or 4"
        case .indent: return "a number from 1"
        case .wholeNumber: return "a whole number"
        case .taskwarriorDate: return "a date like 20260615T070000Z"
        case .taskwarriorMinutes: return "a number of minutes from 0 to 1000000"
        }
    }

    /// Whether a byte starts a JSON value (a number, a string, an array, `true`, `false`, `null`).
    package static func startsValue(_ b: UInt8) -> Bool {
        return (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || [UInt8(ascii: "-"), UInt8(ascii: "\""), UInt8(ascii: "["),
                                                                      UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n")].contains(b)
    }

    /// What an import refuses, without where.
    package static func message(_ e: ImportError) -> String {
        let notJSON = "the file is not valid JSON: "
        switch e.problem {
        case .unreadable(let name, let why):
            let reason: String
            switch why {
            case .system(let text): reason = text
            case .tooLarge(let limit): reason = "it is larger than \(Limits.grouped(limit)) bytes, the import size limit (docs/LIMITS.md)"
            case .directory: reason = "it is a directory"
            case .device: reason = "it is a device, not a file"
            case .notAFile: reason = "it is not a regular file"
            }
            return "could not read '\(name)': \(reason)"
        case .notJSON(let j): return notJSON + j.message
        case .listNotClosed: return notJSON + "the list of tasks is not closed with ']'"
        case .afterList(let b): return notJSON + "unexpected \(describe(b)) after the list of tasks"
        // A value of another type where the list or a task goes is well-formed JSON of the
        // wrong shape: said as that, not as "not valid JSON".
        case .notAList(let b): return (startsValue(b) ? "the file is not a list of tasks: " : notJSON) + "expected a list of tasks ('['), found \(describe(b))"
        case .notATask(let b): return (startsValue(b) ? "the list holds a value that is not a task: " : notJSON) + "expected a task ('{'), found \(describe(b))"
        case .lineNotJSON(let n, let j): return "line \(n) is not JSON: \(j.message)"
        case .lineNotObject(let n): return "line \(n) is not a JSON object"
        case .notUTF8(let n): return "line \(n) is not valid UTF-8"
        case .field(let key, let what): return "'\(key)' is not \(words(what))"
        case .value(let name, let value, let what): return "\(name) '\(value)' is not \(words(what))"
        case .cannotBeAStatus(let s): return "'\(s)' cannot be a status"
        case .notATaskwarriorStatus(let s): return "'\(s)' is not a Taskwarrior status"
        case .notARepeat(let rr): return "'rrule' '\(rr)' is neither an RRULE nor a repeat Kept reads"
        case .propertyNameMissing: return "a property name is missing"
        case .parameterNotNameValue(let p): return "a parameter of \(p) is not NAME=VALUE"
        case .quotedParameterNotClosed(let p): return "a quoted parameter value of \(p) is not closed"
        case .colonExpected(let p): return "expected ':' after \(p)"
        case .notStartingWithVCALENDAR: return "the file does not start with BEGIN:VCALENDAR"
        case .endMismatch(let what, let open): return open.map { "END:\(what) closes BEGIN:\($0)" } ?? "END:\(what) without its BEGIN"
        case .outsideCalendar(let name): return "\(name) outside BEGIN:VCALENDAR"
        case .endsInside(let open): return "the file ends inside BEGIN:\(open)"
        case .noCalendar: return "the file holds no calendar"
        case .malformedRepeat(let rrule, let r): return "the repeat '\(rrule)' is malformed: \(message(r))"
        case .quoteNotClosed: return "a quoted field is not closed"
        case .quoteInUnquotedField: return "a quote inside an unquoted field"
        case .textAfterQuotedField: return "text after a quoted field"
        case .noContentColumn: return "the header has no CONTENT column"
        case .fieldCount(let n, let header): return "row has \(n) fields and the header \(header)"
        case .noTitle, .noTitleInLine: return "the record has no title"
        case .noDescription: return "the task has no 'description'"
        case .uidTwice(let uid): return "uid \(uid) appears twice in the file"
        }
    }

    package static func help(_ e: ImportError) -> String? {
        switch e.problem {
        case .lineNotObject: return "each line holds one task, like {\"title\": \"Pay rent\"}"
        case .notUTF8: return "save the file as UTF-8"
        case .value(_, _, .todoistPriority): return "Todoist's 4 is p1, the highest"
        case .cannotBeAStatus: return "a status of open work is a name of one line, up to 40 characters"
        case .notATaskwarriorStatus: return "statuses: pending, waiting, completed, deleted, recurring"
        case .propertyNameMissing, .parameterNotNameValue, .quotedParameterNotClosed, .colonExpected:
            return "an iCalendar line is NAME[;PARAM=VALUE]:VALUE"
        case .endsInside: return "every BEGIN needs its END"
        case .noCalendar: return "an iCalendar file starts with BEGIN:VCALENDAR"
        case .malformedRepeat: return "RFC 5545 section 3.3.10 says how an RRULE is written"
        case .quoteNotClosed: return "a field that starts with \" ends with \""
        case .quoteInUnquotedField: return "quote the whole field and double the quotes in it"
        case .noContentColumn: return "the first row names the columns: TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,DATE,…"
        case .noTitle: return "every task needs a title (Taskwarrior description, SUMMARY, CONTENT)"
        case .noTitleInLine: return "each line needs \"title\""
        case .noDescription: return "every task needs a title (Taskwarrior description)"
        case .uidTwice: return "each task of a file has its own uid; remove or renumber the second one"
        default: return nil
        }
    }

    /// An export that would write into a device or a pipe, replace a folder, or destroy the
    /// store the session has open (issue 28, F7 and F8).
    public static func exportTargetRefused(_ path: String, refusal: ExportTarget.Refusal, range: SourceRange, file: SourceFile) -> Diagnostic {
        let reason: String
        switch refusal {
        case .directory: reason = "it is a directory"
        case .device: reason = "it is a device, not a file"
        case .pipe: reason = "it is a pipe (FIFO), not a file"
        case .notAFile: reason = "it is not a regular file"
        case .openStore(let store): reason = "it is the open store '\(store)'"
        }
        let help = refusal == .directory ? "name a file inside it" : "export to a regular file of its own, or to '-' (standard output)"
        return Diagnostic(code: .E0611, message: "will not export to '\(path)': \(reason)", file: file, range: range,
                          label: "nothing was written", help: help)
    }

    /// A path a confined transcript may not use (docs/SCRIPTS.md, "Test mode").
    /// `written`: the path as the statement wrote it, when it was read against another folder.
    public static func pathOutsideAllowed(_ r: PathPolicy.Refusal, range: SourceRange, file: SourceFile, written: String? = nil) -> Diagnostic {
        let path = written ?? r.path
        return Diagnostic(code: .E0337, message: "'\(path)' is outside the folders this transcript may use" + (r.resolved == path ? "" : " (it leads to '\(r.resolved)')"),
                   file: file, range: range, label: "not opened",
                   help: "kept test lets a transcript use its own folder and the run's temporary folder; --allow-path DIR adds one")
    }

    public static func eventsNotICalendar(_ format: InteropFormat, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0610, message: "'events' reads an iCalendar file's VEVENTs; this file is \(format.title)", file: file,
                   range: range, label: "not iCalendar", help: "leave 'events' out, or say 'as ics'")
    }

    public static func unknownFormat(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        let m = didYouMean(name, in: InteropFormat.names.map(\.0), at: range, file: file)
        return Diagnostic(code: .E0602, message: "'\(name)' is not a format Kept reads or writes", file: file, range: range,
                          label: "not a format", help: m.help(else: "formats: tw, ics, jsonl, csv"), fixIts: m.fixIts)
    }
}
