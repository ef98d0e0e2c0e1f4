// An import's error as the catalog words it, for the tests that read its code and message.

@testable import KeptRules
@testable import KeptDomain
@testable import KeptSyntax
@testable import KeptInterpreter

extension ImportError {
    var code: DiagnosticCode { Catalog.code(self) }
    var message: String { Catalog.message(self) }
}
