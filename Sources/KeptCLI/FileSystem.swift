// File-system questions the front ends ask: does a path exist, which files lie below a folder.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum FileSystem {
    static func exists(_ path: String, isDirectory: inout Bool) -> Bool {
        var d: ObjCBool = false
        let e = FileManager.default.fileExists(atPath: path, isDirectory: &d)
        isDirectory = d.boolValue
        return e
    }

    /// Every regular file below a folder, as paths that start with the folder.
    static func walk(_ dir: String) -> [String] {
        guard let en = FileManager.default.enumerator(atPath: dir) else { return [] }
        var out: [String] = []
        let base = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        while let rel = en.nextObject() as? String {
            let full = "\(base)/\(rel)"
            var isDir = false
            if exists(full, isDirectory: &isDir), !isDir { out.append(full) }
        }
        return out
    }
}

extension NSLock {
    func locked<T>(_ body: () -> T) -> T {
        lock()
        defer { unlock() }
        return body()
    }
}
