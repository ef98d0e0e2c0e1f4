// Why a store cannot be read, as values: the interpreter's catalog words each one and gives it
// its code (docs/STORE.md), and a front end shows it. The store layer knows no diagnostic.

import KeptRules

/// What makes a store unreadable, with what its message needs.
public enum StoreProblem: Error, Sendable {
    /// The file could not be read (or held something that is not a store).
    case unreadable(path: String, reason: String)
    /// The file's text does not parse, at a byte of it (`text` is what was read).
    case unreadableAt(path: String, text: [UInt8], offset: Int?, reason: String)
    /// A path that is a device, a folder, or too large: refused before reading.
    case refused(path: String, reason: String)
    /// A file that is not a Kept store: empty, another program's database, or damaged.
    case notKept(path: String, reason: String)
    /// A store of a newer schema than this Kept reads.
    case newer(path: String, version: Int, reads: Int)
    /// Damage a read found, each item by table and key.
    case damaged(path: String, [StoreDamage])
    /// A `-wal` beside the store that does not belong to it.
    case foreignWAL(path: String, wal: String, reason: String)
    /// A store to read (`kept convert`, `check`, `backup`) that is not there.
    case noFile(path: String)
}

extension StoreProblem {
    /// The same problem named by another path: a store read through a symlink is spoken of by
    /// the name the user gave, not the file it resolves to.
    public func naming(_ target: String, as given: String) -> StoreProblem {
        func n(_ p: String) -> String { p == target ? given : p }
        switch self {
        case .unreadable(let p, let r): return .unreadable(path: n(p), reason: r)
        case .unreadableAt(let p, let t, let o, let r): return .unreadableAt(path: n(p), text: t, offset: o, reason: r)
        case .refused(let p, let r): return .refused(path: n(p), reason: r)
        case .notKept(let p, let r): return .notKept(path: n(p), reason: r)
        case .newer(let p, let v, let r): return .newer(path: n(p), version: v, reads: r)
        case .damaged(let p, let d): return .damaged(path: n(p), d)
        case .foreignWAL(let p, let w, let r): return .foreignWAL(path: n(p), wal: w, reason: r)
        case .noFile(let p): return .noFile(path: n(p))
        }
    }
}

/// What a store has to say when it is opened, shown once before the first statement.
public enum StoreNotice: Sendable, Equatable {
    /// A JSON file changed after Kept wrote it (its checksum differs); read as it is.
    case changedOutside(path: String)
}
