// Fuzz target: one statement, parsed and run on the small store (both formats). Nothing may
// crash; a statement that fails must leave the store as it was.

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStatement(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    // The first byte picks the format; the rest is the statement.
    let format: OutputFormat = data[0] & 1 == 0 ? .text : .json
    let file = SourceFile(name: "fuzz", bytes: bytes(data + 1, size - 1))
    let source = StatementSource(file: file)
    let (stmt, diags) = Parser.parse(source)
    let blank = file.bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    if stmt == nil, diags.isEmpty, !blank { violated("no statement and no diagnostic") }
    let session = fuzzSession(format: format)
    let before = StoreCodec.encode(session.store.snapshot())
    let out = session.run(source, confirmed: data[0] & 2 != 0)
    if out.failed, out.changed { violated("a failed statement reported a change") }
    if out.failed, StoreCodec.encode(session.store.snapshot()) != before { violated("a failed statement changed the store") }
    for d in out.diagnostics {
        _ = DiagnosticRenderer(style: .rich).render(d)
        _ = DiagnosticRenderer(style: .short).render(d)
    }
    if format == .text {
        for l in out.lines where DisplayText.escaped(l) != l { violated("a control character printed raw: \(l.debugDescription)") }
    }
    return 0
}
