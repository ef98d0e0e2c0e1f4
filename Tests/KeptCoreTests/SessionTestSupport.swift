// Running statements through a Session in tests, as every front end drives it.

import XCTest
@testable import KeptCore

/// Adopted by test cases that drive a Session statement by statement.
protocol SessionTesting {}

extension SessionTesting {
    @discardableResult
    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    /// The output lines of a statement, then its diagnostics as `! CODE message`.
    func lines(_ s: Session, _ text: String) -> [String] {
        let r = run(s, text)
        return r.lines + r.diagnostics.map { "! \($0.code) \($0.message)" }
    }
}
