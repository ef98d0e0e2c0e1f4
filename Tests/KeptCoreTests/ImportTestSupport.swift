// What the import tests share: a file written for a reader and opened, and a reader's records or
// its error, read to the end.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

extension XCTestCase {
    /// Writes a file for a reader and opens it; the file goes when the test ends.
    func input(_ text: String, _ name: String = "in") throws -> ByteInput {
        let path = NSTemporaryDirectory() + "kept-import-\(name)-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        switch ByteInput.open(path) {
        case .success(let i): return i
        case .failure(let e): throw NSError(domain: e.message, code: 1)
        }
    }

    /// Every record a reader gives.
    func all<S: ImportSource>(_ s: inout S) throws -> [ImportedTask] {
        var out: [ImportedTask] = []
        while let r = try s.next() { out.append(r) }
        return out
    }

    /// The error a reader stops with, or nil when it reads to the end.
    func importError<S: ImportSource>(_ s: inout S) -> ImportError? {
        do {
            _ = try all(&s)
            return nil
        } catch let e as ImportError {
            return e
        } catch {
            return nil
        }
    }
}
