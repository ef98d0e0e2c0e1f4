// Running statements through a Session in tests, as every front end drives it.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

/// Adopted by test cases that drive a Session statement by statement.
protocol SessionTesting {}

extension SessionTesting {
    @discardableResult
    func run(_ s: Session, _ text: String) -> CommandOutput {
        s.run(StatementSource(file: SourceFile(name: "t", text: text)))
    }

    /// R-TASK-1: runs an action that must change the store, then checks that undo puts the
    /// store back exactly and redo makes the change again.
    func assertUndoRedo(_ s: Session, _ action: String, _ id: String, file: StaticString = #filePath, line: UInt = #line) {
        let before = Snapshot(s.store.snapshot())
        let r = run(s, action)
        XCTAssertFalse(r.failed, "\(id): \(r.diagnostics.map(\.message))", file: file, line: line)
        let after = Snapshot(s.store.snapshot())
        XCTAssertNotEqual(before, after, "\(id): the action changed nothing", file: file, line: line)
        XCTAssertFalse(run(s, "undo").failed, id, file: file, line: line)
        XCTAssertEqual(Snapshot(s.store.snapshot()), before, "\(id): undo: \(Snapshot(s.store.snapshot()).difference(before))", file: file, line: line)
        XCTAssertFalse(run(s, "redo").failed, id, file: file, line: line)
        XCTAssertEqual(Snapshot(s.store.snapshot()), after, "\(id): redo: \(Snapshot(s.store.snapshot()).difference(after))", file: file, line: line)
    }

    /// The output lines of a statement, then its diagnostics as `! CODE message`.
    func lines(_ s: Session, _ text: String) -> [String] {
        let r = run(s, text)
        return r.lines + r.diagnostics.map { "! \($0.code) \($0.message)" }
    }
}
