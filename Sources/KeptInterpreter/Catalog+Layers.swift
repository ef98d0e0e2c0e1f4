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

    /// Why a repeat's skipped or added dates cannot change so: the code of each problem.
    public static func repeatDate(_ p: RepeatDateProblem, message: String, range: SourceRange, file: SourceFile, label: String,
                           help: String? = nil) -> Diagnostic {
        let code: DiagnosticCode
        switch p {
        case .notRepeating: code = .E0221
        case .notAnOccurrence: code = .E0222
        case .seriesEnds: code = .E0223
        case .alreadyAnOccurrence: code = .E0224
        case .notListed: code = .E0329
        case .passed: code = .E0330
        case .timeDoesNotFit: code = .E0331
        }
        return Diagnostic(code: code, message: message, file: file, range: range, label: label, help: help)
    }

    /// A file refused by a reader or by the import: where in the file, and that nothing changed.
    public static func importRefused(_ e: ImportError, path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        var at = ""
        if e.line > 0 { at = "line \(e.line)" + (e.column.map { ", column \($0)" } ?? "") + ": " }
        return Diagnostic(code: e.code, message: "could not import '\(path)': \(at)\(e.message)", file: file, range: range,
                          label: "nothing was imported", help: e.help)
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
    public static func pathOutsideAllowed(_ r: PathPolicy.Refusal, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0337, message: "'\(r.path)' is outside the folders this transcript may use" + (r.resolved == r.path ? "" : " (it leads to '\(r.resolved)')"),
                   file: file, range: range, label: "not opened",
                   help: "kept test lets a transcript use its own folder and the run's temporary folder; --allow-path DIR adds one")
    }

    public static func eventsNotICalendar(_ format: InteropFormat, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0610, message: "'events' reads an iCalendar file's VEVENTs; this file is \(format.title)", file: file,
                   range: range, label: "not iCalendar", help: "leave 'events' out, or say 'as ics'")
    }

    public static func unknownFormat(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "'\(name)' is not a format Kept reads or writes", file: file, range: range,
                   label: "not a format", help: Suggestion.help(name, in: InteropFormat.names.map(\.0)) ?? "formats: tw, ics, jsonl, csv")
    }
}
