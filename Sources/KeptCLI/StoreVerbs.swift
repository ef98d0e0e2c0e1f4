// `kept check STORE` and `kept backup STORE FILE`: a store verified whole, and a store copied as
// of one moment (docs/STORE.md, "Checking a store", "Copying and restoring a store").

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum StoreVerbs {
    /// Prints what is damaged, one item a line, or that the store is sound. Exit 0 sound, 1 a
    /// JSON file that reads but changed after Kept wrote it, 2 damaged or unreadable.
    static func check(_ path: String, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        switch StoreCheck.run(path) {
        case .failure(let e):
            err.line(renderer.render(Catalog.store(e)))
            return 2
        case .success(let r):
            let tasks = r.tasks == 1 ? "1 task" : "\(r.tasks) tasks"
            for n in r.notices { err.line(renderer.render(Catalog.store(n))) }
            guard !r.damage.isEmpty else {
                if !r.notices.isEmpty {
                    out.line("\(path) (\(r.kind.rawValue)) reads · \(tasks) · its bytes changed after Kept wrote them")
                    return 1
                }
                out.line("\(path) (\(r.kind.rawValue)) is sound · \(tasks)")
                return 0
            }
            err.line(renderer.render(Catalog.storeDamaged(path, r.damage)))
            out.line("\(path) (\(r.kind.rawValue)) is damaged · \(tasks) sound · \(r.damage.count) damaged \(r.damage.count == 1 ? "item" : "items"):")
            out.lines(r.damage.map { "  \($0)" })
            return 2
        }
    }

    /// A consistent copy of a store into a new file: SQLite's online backup API for a SQLite
    /// store, the whole store written anew for a JSON one (its writes are atomic renames, so a
    /// read sees one whole version). The new file is of the store's own kind.
    static func backup(_ from: String, _ to: String, out: OutputStream, err: OutputStream, renderer: DiagnosticRenderer) -> Int32 {
        if Files.head(StorePath(to).target, 1) != nil || access(to, F_OK) == 0 {
            err.line("kept: '\(to)' exists; backup writes a new file and never replaces one")
            return 64
        }
        let source: any StoreBackend
        switch StoreCheck.openForReading(from) {
        case .success(let s): source = s
        case .failure(let e):
            err.line(renderer.render(Catalog.store(e)))
            return 2
        }
        defer { source.close() }
        let result: Result<Void, StoreError>
        let kind: StoreKind
        if let sql = source as? SQLiteStore {
            kind = .sqlite
            result = sql.backup(to: to)
        } else {
            kind = .json
            result = StoreKind.json.write(source.snapshot(), to: to)
        }
        if case .failure(let e) = result {
            err.line(renderer.render(Catalog.store(e)))
            return 1
        }
        let n = source.taskCount
        out.line("Backed up \(from) to \(to) (\(kind.rawValue)) · \(n == 1 ? "1 task" : "\(n) tasks")")
        return 0
    }
}
