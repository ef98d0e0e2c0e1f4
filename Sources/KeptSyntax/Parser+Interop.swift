// The statements of other tools' files: import and export (docs/INTEROP.md).

import KeptRules

extension Parser {
    /// The file a statement names: a word (a path, or `-`) or a quoted string.
    package mutating func fileArg(after statement: String, example: String) throws(Diagnostic) -> TextArg {
        let t = peek
        guard t.kind == .word || t.kind == .string || t.kind == .number else {
            throw Catalog.expected("a file name", after: statement, found: t.found, range: t.range, file: file, help: "for example: \(example)")
        }
        _ = advance()
        return TextArg(text: t.text, range: t.range)
    }

    /// import_stmt ::= "import" FILE { "as" FORMAT | "events" | "dry-run" } ;
    package mutating func parseImportStmt() throws(Diagnostic) -> StatementKind {
        var r = ImportRequest(file: try fileArg(after: "import", example: "import tasks.ics dry-run"))
        while !atEnd {
            let t = advance()
            if t.isWord("as") {
                guard peek.kind == .word else {
                    throw Catalog.expected("a format", after: "as", found: peek.found, range: peek.range, file: file, help: "formats: tw, ics, jsonl, csv")
                }
                let f = advance()
                r.format = TextArg(text: f.text, range: f.range)
            } else if t.isWord("events") || t.isWord("--events") {
                r.events = true
            } else if t.isWord("dry-run") || t.isWord("--dry-run") {
                r.dryRun = true
            } else {
                throw Catalog.unexpected(t.text, range: t.range, file: file, statement: "import")
            }
        }
        return .importFile(r)
    }

    /// export_stmt ::= "export" FILE [ "as" FORMAT ] [ filter ] ;
    package mutating func parseExportStmt() throws(Diagnostic) -> StatementKind {
        var r = ExportRequest(file: try fileArg(after: "export", example: "export tasks.ics +Home"))
        if peek.isWord("as") {
            _ = advance()
            guard peek.kind == .word else {
                throw Catalog.expected("a format", after: "as", found: peek.found, range: peek.range, file: file, help: "formats: tw, ics, jsonl, csv")
            }
            let f = advance()
            r.format = TextArg(text: f.text, range: f.range)
        }
        r.filter = restAsFilter()
        return .exportFile(r)
    }
}
