// Where an export may write (issue 28, F7 and F8). An export replaces its file by a rename, so
// a device, a pipe or a folder at the path would be replaced by a plain file (as root, /dev/full
// was), and the store the session has open would be destroyed. Those are refused before
// anything is written; a symlink is written through to the file it names, as a store is.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file an export writes, checked before it is written.
public struct ExportTarget: Sendable {
    /// The path as the statement gave it.
    public let path: String
    /// The file written: `path` with its symlinks followed (the links stay links).
    public let file: String

    /// Why an export target is refused.
    public enum Refusal: Sendable, Equatable {
        case directory
        case device
        case pipe
        case notAFile
        /// The store the session has open, or one of its own files (`-wal`, `-shm`, the lock).
        case openStore(String)
    }

    public init(_ path: String) {
        self.path = path
        self.file = StorePath.followLinks(path)
    }

    /// Writes an export through a temporary file and a rename, to the file a symlink names: the
    /// link stays a link (docs/INTEROP.md).
    public func write(_ bytes: [UInt8]) -> Result<Void, FileError> {
        Files.writeAtomically(bytes, to: file)
    }

    /// Why this target may not be written while `store` (the session's store file, nil for a
    /// store in memory) is open; nil when it may.
    public func refusal(openStore store: String?) -> Refusal? {
        var st = stat()
        if stat(file, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR: return .directory
            case S_IFCHR, S_IFBLK: return .device
            case S_IFIFO: return .pipe
            default: return .notAFile
            }
        }
        guard let store else { return nil }
        let storeFile = StorePath(store).target
        // The store's own files: a SQLite store's journal files and a JSON store's lock hold
        // its state as much as the file does.
        let own = [storeFile, storeFile + "-wal", storeFile + "-shm", storeFile + "-journal",
                   "\(Files.directory(of: storeFile))/.\(Files.basename(of: storeFile)).lock"]
        for f in own where ExportTarget.sameFile(file, f) { return .openStore(store) }
        return nil
    }

    /// Whether two paths name one file: the same device and inode when both exist (whatever
    /// links or spellings lead there), else the same folder, found by realpath, and name.
    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var sa = stat(), sb = stat()
        let ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0
        if ea && eb { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        if ea != eb { return false }
        guard let da = PathPolicy.realPath(Files.directory(of: a)), let db = PathPolicy.realPath(Files.directory(of: b)) else { return false }
        return da == db && Files.basename(of: a) == Files.basename(of: b)
    }
}
