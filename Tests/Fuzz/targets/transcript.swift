// Fuzz target: a transcript. It is split into commands, directives and expected blocks; each
// command runs on the small store, case by case as `kept test` runs it, and its output is
// matched against the block (ExpectedOutput, compiled in from KeptCLI). Nothing may crash or
// hang, whatever the lines, patterns and globs.

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTranscript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = SourceFile(name: "fuzz.kept", bytes: bytes(data, size))
    let t = Transcript(file: file)
    for d in t.diagnostics where d.location == nil { violated("a transcript error without a place: \(d.message)") }
    guard t.diagnostics.isEmpty else { return 0 }
    var session = fuzzSession()
    var setup: Session? = nil
    var ran = 0
    for item in t.items {
        switch item {
        case .directive(let d) where d.name == "case":
            if let s = setup { session = s.copy() } else { setup = session.copy() }
        case .directive:
            continue
        case .command(let c):
            // A bound on the work of one input: libFuzzer's own time limit catches a hang.
            ran += 1
            if ran > 64 { return 0 }
            if c.modifiers.contains(where: { $0.name == "skip" }) { continue }
            let saved = session.format
            if let f = c.modifiers.first(where: { $0.name == "format" }), let fmt = OutputFormat(rawValue: f.argument) { session.format = fmt }
            let r = session.run(c.statement, confirmed: c.modifiers.contains { $0.name == "yes" })
            session.format = saved
            var lines = r.lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            for d in r.diagnostics { lines.append("! \(d.code) \(d.message)") }
            let expected = ExpectedOutput(c.expected)
            _ = expected.matches(lines, unordered: c.modifiers.contains { $0.name == "unordered" })
            // A block always matches the lines it was written from.
            let literal = ExpectedOutput(lines.map { $0.isEmpty ? "<BLANKLINE>" : $0 })
            if !literal.matches(lines, unordered: false), !lines.contains(where: { $0.hasSuffix(" (re)") || $0.hasSuffix(" (glob)") || $0 == "..." || $0.hasPrefix("! ") }) {
                violated("output does not match itself: \(lines)")
            }
        }
    }
    return 0
}
