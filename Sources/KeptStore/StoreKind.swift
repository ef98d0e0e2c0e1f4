// Which backend a store file is: an existing file by its first bytes, a new one by its name
// (docs/STORE.md, "Which backend"). Opening and writing a copy go through here, so the front
// ends never choose a file format themselves.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The two kinds of store file.
public enum StoreKind: String, Sendable {
    case json = "JSON"
    case sqlite = "SQLite"

    /// The names a new store may end in, and their kinds.
    public static let extensions: [(String, StoreKind)] = [(".json", .json), (".db", .sqlite), (".sqlite", .sqlite), (".sqlite3", .sqlite)]

    /// The kind of the store at a path: an existing file's first bytes decide (`SQLite format
    /// 3` is SQLite, anything else the JSON file), a new file's name. Nil, with the reason, for
    /// a new file whose name says neither.
    public static func of(_ path: String) -> Result<StoreKind, StoreKindError> {
        let target = StorePath(path).target
        if let head = Files.head(target, SQLiteStore.header.count) {
            return .success(head == SQLiteStore.header ? .sqlite : .json)
        }
        // Something there that is not a regular file with bytes (a device, a folder, a pipe):
        // the JSON reader refuses it with its reason; an empty file goes by its name.
        var st = stat()
        if stat(target, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG { return .success(.json) }
        let lower = path.lowercased()
        guard let k = extensions.first(where: { lower.hasSuffix($0.0) })?.1 else {
            return .failure(StoreKindError(path: path))
        }
        return .success(k)
    }

    /// Opens the store at a path with its backend.
    public static func open(_ path: String) -> Result<any StoreBackend, StoreOpenError> {
        switch of(path) {
        case .failure(let e): return .failure(.kind(e))
        case .success(.json): return JSONStore.open(path).map { $0 as any StoreBackend }.mapError { .store($0) }
        case .success(.sqlite): return SQLiteStore.open(path).map { $0 as any StoreBackend }.mapError { .store($0) }
        }
    }

    /// Writes a whole store to a new file of this kind (`kept convert`, `.save FILE`); a
    /// SQLite file is made afresh, a JSON file written atomically.
    public func write(_ s: Store, to path: String) -> Result<Void, StoreError> {
        switch self {
        case .json:
            return StoreFile.overwrite(StoreCodec.encodePieces(s), to: StorePath(path)).map { _ in () }
        case .sqlite:
            let target = StorePath(path).target
            if let head = Files.head(target, SQLiteStore.header.count), head != SQLiteStore.header {
                return .failure(.writeFailed(path: path, reason: "it exists and is not a SQLite database"))
            }
            // SQLite opens its own files, so the name is what protects them: random, never one
            // guessed in advance (issue 28, F5), and refused if anything is already there.
            let tmp = Files.temporaryName(beside: target)
            for f in [tmp, tmp + "-wal", tmp + "-shm"] {
                var st = stat()
                if lstat(f, &st) == 0 { return .failure(.writeFailed(path: path, reason: "the temporary name '\(f)' is taken")) }
            }
            if let e = SQLiteStore.make(tmp, holding: s) {
                for f in [tmp, tmp + "-wal", tmp + "-shm"] { unlink(f) }
                return .failure(e)
            }
            // The new file takes the place of the old one whole, as a JSON store does; a
            // checkpointed, closed database has no -wal or -shm to go with it.
            guard rename(tmp, target) == 0 else {
                let e = FileError(errno: errno)
                unlink(tmp)
                return .failure(.writeFailed(path: path, reason: e.reason))
            }
            for f in [target + "-wal", target + "-shm"] { unlink(f) }
            return .success(())
        }
    }
}

/// A new store's name that says no kind.
public struct StoreKindError: Error, Sendable {
    public let path: String
    public var message: String {
        "'\(path)' names no store kind: a new store ends in " + StoreKind.extensions.map { "\($0.0) (\($0.1.rawValue))" }.joined(separator: ", ")
    }
}

/// Why a store could not be opened.
public enum StoreOpenError: Error, Sendable {
    case kind(StoreKindError)
    case store(StoreError)
}
