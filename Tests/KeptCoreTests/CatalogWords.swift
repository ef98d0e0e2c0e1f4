// The lower layers' errors as the catalog words them: a test reads an error's code, message,
// label and help as its diagnostic shows them. The errors carry typed reasons only
// (docs/ARCHITECTURE.md, "Layers").

@testable import KeptRules
@testable import KeptDomain
@testable import KeptSyntax
@testable import KeptInterpreter

extension RRULEError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
}

extension RepeatRuleError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
    var help: String? { Catalog.help(self) }
}

extension DatePhraseError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
    var help: String? { Catalog.help(self) }
    var label: String { Catalog.label(self) }
}

extension CaptureError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
    var help: String? { Catalog.help(self) }
    var label: String { Catalog.label(self) }
}

extension ImportError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
    var help: String? { Catalog.help(self) }
}
