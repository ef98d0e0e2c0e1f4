// The JSON shape of an error (docs/OUTPUT.md): {"error":{"code","message","file","line","column"}},
// with "help" when there is one and "fixIts" when the catalog knows a fix.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Encodes diagnostics for `--format json`.
enum DiagnosticJSON {
    static func value(_ d: Diagnostic) -> JSONValue {
        var o = JSONObject([("code", .string(d.code.rawValue)), ("message", .string(d.message)),
                            ("file", d.file.map { .string($0.name) } ?? .null)])
        if let loc = d.location {
            o["line"] = .number(JSONNumber(loc.line))
            o["column"] = .number(JSONNumber(loc.column))
        } else {
            o["line"] = .null
            o["column"] = .null
        }
        if let h = d.help { o["help"] = .string(h) }
        if let file = d.file, !d.fixIts.isEmpty { o["fixIts"] = .array(d.fixIts.map { fixIt($0, in: file) }) }
        return .object(JSONObject([("error", .object(o))]))
    }

    /// A fix-it: its title, the replacement, and the range it replaces as 1-based lines and
    /// columns (in Unicode scalars, as the error's own), the end not included.
    static func fixIt(_ f: FixIt, in file: SourceFile) -> JSONValue {
        let start = file.lineColumn(of: f.range.start), end = file.lineColumn(of: f.range.end)
        return .object(JSONObject([("title", .string(f.title)), ("replacement", .string(f.replacement)),
                                   ("line", .number(JSONNumber(start.line))), ("column", .number(JSONNumber(start.column))),
                                   ("endLine", .number(JSONNumber(end.line))), ("endColumn", .number(JSONNumber(end.column)))]))
    }
}
