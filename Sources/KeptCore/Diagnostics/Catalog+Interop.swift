// The diagnostics of import and export (E06xx; docs/INTEROP.md). The codes and summaries are
// in Catalog.entries; these make each diagnostic, pointing at the file's name in the statement.

extension Catalog {
    /// A file refused by a reader or by the import: where in the file, and that nothing changed.
    static func importRefused(_ e: ImportError, path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        var at = ""
        if e.line > 0 { at = "line \(e.line)" + (e.column.map { ", column \($0)" } ?? "") + ": " }
        return Diagnostic(code: e.code, message: "could not import '\(path)': \(at)\(e.message)", file: file, range: range,
                          label: "nothing was imported", help: e.help)
    }

    static func unknownFormat(_ name: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "'\(name)' is not a format Kept reads or writes", file: file, range: range,
                   label: "not a format", help: Suggestion.help(name, in: InteropFormat.names.map(\.0)) ?? "formats: tw, ics, jsonl, csv")
    }

    static func formatNotKnown(_ path: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0602, message: "the name '\(path)' does not say the file's format", file: file, range: range,
                   label: "no format known by this name", help: "name the format: 'as tw', 'as ics', 'as jsonl' or 'as csv' (or use .json, .ics, .jsonl, .csv)")
    }

    static func exportFailed(_ path: String, reason: String, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0609, message: "could not write '\(path)': \(reason)", file: file, range: range, label: "this file")
    }

    static func eventsNotICalendar(_ format: InteropFormat, range: SourceRange, file: SourceFile) -> Diagnostic {
        Diagnostic(code: .E0610, message: "'events' reads an iCalendar file's VEVENTs; this file is \(format.title)", file: file,
                   range: range, label: "not iCalendar", help: "leave 'events' out, or say 'as ics'")
    }
}
