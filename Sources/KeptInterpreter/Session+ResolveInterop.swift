// The resolve stage of import and export (docs/INTEROP.md): the file and its format, the
// paths a session may open, the file to read opened, the file to write checked, and an
// export's filter bound. Interop owns the files (ByteInput, ExportTarget).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// An import, resolved: its file open to read, its format and options.
package struct ImportJob {
    package var path: String
    package var format: InteropFormat
    package var input: ByteInput
    /// Whether an iCalendar file's events are read as tasks.
    package var events: Bool
    package var options: ImportOptions
}

/// An export, resolved: its target checked, its format, and the filter of the tasks it writes.
package struct ExportJob {
    package var path: String
    package var format: InteropFormat
    package var target: ExportTarget
    /// The tasks it writes, or every task when nil.
    package var filter: FilterExpr?
}

/// An import or export statement, resolved.
package enum InteropRequest {
    case importing(ImportJob)
    case exporting(ExportJob)
}

extension Session {
    /// The format a statement names, or its file's name says.
    package func interopFormat(_ file: TextArg, _ given: TextArg?, _ s: Statement) -> Result<InteropFormat, Diagnostic> {
        if let g = given {
            guard let f = InteropFormat(name: g.text) else { return .failure(Catalog.unknownFormat(g.text, range: g.range, file: s.source.file)) }
            return .success(f)
        }
        guard let f = InteropFormat(fileName: file.text) else { return .failure(Catalog.formatNotKnown(file.text, range: file.range, file: s.source.file)) }
        return .success(f)
    }

    /// The request of `import` or `export`, or nil for another statement.
    package func resolveInterop(_ s: Statement) -> Result<InteropRequest, Diagnostic>? {
        switch s.kind {
        case .importFile(let req): return resolveImport(s, req).map(InteropRequest.importing)
        case .exportFile(let req): return resolveExport(s, req).map(InteropRequest.exporting)
        default: return nil
        }
    }

    /// Where a file name of `import` or `export` leads: relative to `fileBase` when there is
    /// one; `-` (standard input or output) and an absolute path as written.
    package func filePath(_ written: String) -> String {
        guard let base = fileBase, written != "-", !written.hasPrefix("/") else { return written }
        return base == "." ? written : base + "/" + written
    }

    /// An import's format, then whether the path may be read, then the file opened.
    package func resolveImport(_ s: Statement, _ req: ImportRequest) -> Result<ImportJob, Diagnostic> {
        let format: InteropFormat
        switch interopFormat(req.file, req.format, s) {
        case .success(let f): format = f
        case .failure(let d): return .failure(d)
        }
        if req.events, format != .icalendar { return .failure(Catalog.eventsNotICalendar(format, range: req.file.range, file: s.source.file)) }
        let path = filePath(req.file.text)
        if let r = pathPolicy.refusal(path) {
            return .failure(Catalog.pathOutsideAllowed(r, range: req.file.range, file: s.source.file, written: req.file.text))
        }
        switch ByteInput.open(path) {
        case .success(let input):
            return .success(ImportJob(path: req.file.text, format: format, input: input, events: req.events,
                                      options: Importing.options(dryRun: req.dryRun, file: req.file.text)))
        case .failure(let e): return .failure(Catalog.importRefused(e, path: req.file.text, range: req.file.range, file: s.source.file))
        }
    }

    /// An export's format, then whether the path may be written, then its filter bound.
    package func resolveExport(_ s: Statement, _ req: ExportRequest) -> Result<ExportJob, Diagnostic> {
        let format: InteropFormat
        switch interopFormat(req.file, req.format, s) {
        case .success(let f): format = f
        case .failure(let d): return .failure(d)
        }
        // Checked before anything is made: an export never writes into a device or a pipe,
        // never replaces a folder, and never destroys the store it reads (issue 28, F7, F8).
        let path = filePath(req.file.text)
        if let r = pathPolicy.refusal(path) {
            return .failure(Catalog.pathOutsideAllowed(r, range: req.file.range, file: s.source.file, written: req.file.text))
        }
        let target = ExportTarget(path)
        if req.file.text != "-", let r = target.refusal(openStore: store.location) {
            return .failure(Catalog.exportTargetRefused(req.file.text, refusal: r, range: req.file.range, file: s.source.file))
        }
        guard let f = req.filter else { return .success(ExportJob(path: req.file.text, format: format, target: target, filter: nil)) }
        return bindFilter(f, s).map { ExportJob(path: req.file.text, format: format, target: target, filter: $0) }
    }
}
