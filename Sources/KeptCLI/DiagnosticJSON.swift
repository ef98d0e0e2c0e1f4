// The JSON shape of an error (docs/OUTPUT.md): {"error":{"code","message","file","line","column"}},
// with "help" when there is one.

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
        return .object(JSONObject([("error", .object(o))]))
    }
}
