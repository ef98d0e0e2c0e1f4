// A file's identity (to tell whether another process replaced it) and a path with its links
// followed, so a write replaces the file a link names, not the link.

import KeptRules

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a store was read from, as `stat` saw it: a store is replaced by a rename, so a new
/// version is a new file, and an edit in place changes its size or times.
public struct FileIdentity: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: (Int, Int)
    package var changed: (Int, Int)
    /// False for a pipe: read once, its times say nothing of a new version (docs/LIMITS.md).
    package var isRegular: Bool

    public static func == (a: FileIdentity, b: FileIdentity) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size && a.modified == b.modified && a.changed == b.changed
    }

    package init(_ st: stat) {
        device = UInt64(st.st_dev)
        inode = UInt64(st.st_ino)
        size = Int64(st.st_size)
        modified = (Int(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec))
        changed = (Int(st.st_ctim.tv_sec), Int(st.st_ctim.tv_nsec))
        isRegular = (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The identity of the file at a path now; nil when there is none.
    package static func of(_ path: String) -> FileIdentity? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return FileIdentity(st)
    }
}

/// Where a store file is written: the path the user gave, the file it resolves to through
/// symlinks, and the lock beside that file.
public struct StorePath: Sendable {
    /// As given, for messages.
    public let path: String
    /// The file written: `path` with its symlinks followed.
    public let target: String

    public init(_ path: String) {
        self.path = path
        self.target = StorePath.followLinks(path)
    }

    package var folder: String { Files.directory(of: target) }
    package var name: String { Files.basename(of: target) }
    /// `.NAME.lock` beside the store: never removed, so two writers always lock the same file.
    package var lock: String { "\(folder)/.\(name).lock" }
    package var tempPrefix: String { ".\(name).tmp-" }

    /// The file a chain of symlinks ends at (up to 40 links, as the kernel allows); a link
    /// that points nowhere yet names the file a write creates.
    package static func followLinks(_ path: String) -> String {
        var p = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(p, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK else { return p }
            var buf = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(p, &buf, buf.count - 1)
            guard n > 0 else { return p }
            let dest = String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            p = dest.hasPrefix("/") ? dest : Files.directory(of: p) + "/" + dest
        }
        return p
    }
}

extension Files {
    /// The first `n` bytes of a regular file that is not empty; nil for a missing or empty one.
    public static func head(_ path: String, _ n: Int) -> [UInt8]? {
        // Only a regular file is opened to peek: opening a pipe would take its one reading (or
        // wait for a writer), and the store's one read is readBytes' (issue 28, F9).
        var st0 = stat()
        guard stat(path, &st0) == 0, (st0.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: n)
        let got = out.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return Array(out.prefix(max(0, got)))
    }
}
