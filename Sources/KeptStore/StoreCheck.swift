// `kept check STORE`: a whole store read and verified, reading only (docs/STORE.md, "Checking a
// store"). A SQLite store: its pages and indexes, every record's checksum, its columns, its
// history, tombstones and sync rows. A JSON store: the whole file read as the loader reads it,
// which refuses any record, uid, history or sync state that does not read.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `kept check` found.
public struct StoreCheckReport: Sendable {
    public var kind: StoreKind
    /// How many tasks were read sound.
    public var tasks: Int
    public var damage: [StoreDamage]
    /// What the store said when opened (a JSON file changed after Kept wrote it).
    public var notices: [StoreNotice] = []
}

public enum StoreCheck {
    /// Checks the store at `path`; a store that cannot even be opened is the error.
    public static func run(_ path: String) -> Result<StoreCheckReport, StoreError> {
        guard access(StorePath(path).target, F_OK) == 0 else { return .failure(.unreadable(.noFile(path: path))) }
        switch StoreKind.of(path) {
        case .failure: return .failure(.unreadable(.noFile(path: path)))
        case .success(.json):
            switch JSONStore.open(path) {
            case .failure(let e): return .failure(e)
            case .success(let s): return .success(StoreCheckReport(kind: .json, tasks: s.taskCount, damage: [], notices: s.notices))
            }
        case .success(.sqlite):
            switch SQLiteStore.open(path, readOnly: true) {
            case .failure(let e): return .failure(e)
            case .success(let s):
                defer { s.close() }
                let damage = s.checkAll()
                return .success(StoreCheckReport(kind: .sqlite, tasks: s.snapshot().taskCount, damage: damage))
            }
        }
    }

    /// Opens an existing store for reading alone (`kept convert`, `kept backup`): a SQLite store
    /// read-only, so neither a migration nor a checkpoint writes it.
    public static func openForReading(_ path: String) -> Result<any StoreBackend, StoreError> {
        guard access(StorePath(path).target, F_OK) == 0 else { return .failure(.unreadable(.noFile(path: path))) }
        switch StoreKind.of(path) {
        case .failure: return .failure(.unreadable(.noFile(path: path)))
        case .success(.json): return JSONStore.open(path).map { $0 }
        case .success(.sqlite): return SQLiteStore.open(path, readOnly: true).map { $0 }
        }
    }
}
