// Committing a store file when other processes may write it too (docs/STORE.md, "Two
// processes"). A writer takes an exclusive lock on a sidecar file (the store's own inode
// changes with every rename, so it cannot carry the lock), checks that the store is still the
// one it read (the same file, the same revision), and only then renames its new version over
// it. Readers never lock: a store is only ever replaced whole, so what a reader opened stays
// whole. A symlinked store is written through to its target; a store or folder that cannot be
// written, a store with other hard links and one that is not a regular file are refused before
// anything is written; temp files of dead writers are removed.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension StoreFile {
    /// How long a writer waits for another writer's lock.
    package static let lockTimeoutMilliseconds = 10_000

    /// Reads a store file with the identity of exactly the bytes read: the path is looked at
    /// before and after, and read again if another writer replaced it meanwhile.
    public static func loadWithIdentity(_ path: StorePath) -> Result<(Loaded, FileIdentity?), StoreProblem> {
        var last: Result<(Loaded, FileIdentity?), StoreProblem> = .failure(.unreadable(path: path.path, reason: "it kept changing while it was read"))
        for _ in 0..<5 {
            let before = FileIdentity.of(path.target)
            let loaded = load(path.target)
            let after = FileIdentity.of(path.target)
            switch loaded {
            case .failure(let d):
                return .failure(d.naming(path.target, as: path.path))
            case .success(let l):
                last = .success((l, after))
                // A pipe is read once: a second read would wait for a writer that is gone.
                if before == after || after?.isRegular == false { return last }
            }
        }
        return last
    }

    /// The revision written near the start of a store file (`"revision": N`, as Kept writes it),
    /// or nil when the head does not say.
    package static func headRevision(_ path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 512)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        let key = Array("\"revision\": ".utf8)
        var k = 0
        while k + key.count < n {
            if head[k] == key[0], Array(head[k..<(k + key.count)]) == key {
                var v = 0
                var j = k + key.count
                var digits = 0
                while j < n, head[j] >= 0x30, head[j] <= 0x39, digits < 15 {
                    v = v * 10 + Int(head[j] - 0x30)
                    j += 1
                    digits += 1
                }
                return digits > 0 ? v : nil
            }
            k += 1
        }
        return nil
    }

    /// Writes `pieces` (a store's bytes, in order) as the new version of a store read as
    /// `identity` (nil: there was no file) at `revision`, unless another process wrote it
    /// since: then nothing is written.
    /// Returns the identity of the file written.
    public static func commit(_ pieces: [[UInt8]], to path: StorePath, readAs identity: FileIdentity?, revision: Int) -> Result<FileIdentity, StoreError> {
        locked(pieces, path) {
            // The store must still be the file this process read, at the revision it read.
            guard FileIdentity.of(path.target) == identity else { return .conflict(path: path.path) }
            if identity != nil, let r = headRevision(path.target), r != revision { return .conflict(path: path.path) }
            return nil
        }
    }

    /// Writes a store to a path whatever is there (`.save FILE`), under the same lock as a
    /// commit, through symlinks, refusing what cannot be written.
    public static func overwrite(_ pieces: [[UInt8]], to path: StorePath) -> Result<FileIdentity, StoreError> {
        locked(pieces, path) { nil }
    }

    /// The write both share: refused before anything when the store or its folder is read-only;
    /// then under the lock, with dead writers' temp files gone, `check` (an error stops it), the
    /// atomic write, and the identity of the file written.
    private static func locked(_ pieces: [[UInt8]], _ path: StorePath, check: () -> StoreError?) -> Result<FileIdentity, StoreError> {
        if let refused = refusedForWriting(path) { return .failure(refused) }
        let lock: Int32
        switch takeLock(path) {
        case .success(let fd): lock = fd
        case .failure(let e): return .failure(e)
        }
        defer { close(lock) }
        removeStrayTemps(path)
        if let e = check() { return .failure(e) }
        switch Files.writeAtomically(pieces: pieces, to: path.target) {
        case .failure(let e): return .failure(.writeFailed(path: path.path, reason: e.reason))
        case .success:
            guard let id = FileIdentity.of(path.target) else { return .failure(.writeFailed(path: path.path, reason: "the file written is gone")) }
            return .success(id)
        }
    }

    /// Why a store may not be written, checked before anything is: the store, or the folder a
    /// new version is renamed into, is read-only. A file or folder without any write bit counts
    /// as read-only even for root, who could write it: the mode says what its owner meant.
    package static func refusedForWriting(_ path: StorePath) -> StoreError? {
        func readOnly(_ p: String) -> Bool {
            var st = stat()
            guard stat(p, &st) == 0 else { return false }
            return access(p, W_OK) != 0 || st.st_mode & 0o222 == 0
        }
        if readOnly(path.target) { return .readOnly(path: path.path, folder: false) }
        if readOnly(path.folder) { return .readOnly(path: path.folder, folder: true) }
        var st = stat()
        guard stat(path.target, &st) == 0 else { return nil }
        // A pipe is read once (docs/LIMITS.md); a rename would put a file in its place, so it is
        // never written.
        guard (st.st_mode & S_IFMT) == S_IFREG else { return .notReplaceable(path: path.path, reason: .notAFile) }
        // A new version is a new file: a rename over a store with other hard links would leave
        // them holding the old version, two stores where the user had one. Refused rather than
        // split silently (docs/STORE.md).
        if st.st_nlink > 1 { return .notReplaceable(path: path.path, reason: .hardLinks(Int(st.st_nlink))) }
        return nil
    }

    /// The exclusive lock on the store's sidecar lock file (created 0600), waited for up to
    /// `lockTimeoutMilliseconds`. Closing the descriptor releases it, also when the process dies.
    package static func takeLock(_ path: StorePath) -> Result<Int32, StoreError> {
        let fd = open(path.lock, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(.writeFailed(path: path.lock, reason: FileError(errno: errno).reason)) }
        var waited = 0
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let e = errno
            guard e == EWOULDBLOCK || e == EINTR else {
                close(fd)
                return .failure(.writeFailed(path: path.lock, reason: FileError(errno: e).reason))
            }
            guard waited < lockTimeoutMilliseconds else {
                close(fd)
                return .failure(.locked(path: path.path))
            }
            usleep(2_000)
            waited += 2
        }
        return .success(fd)
    }

    /// Removes `.NAME.tmp-PID-RANDOM` files beside the store whose process is gone: a writer killed
    /// mid-write leaves one, and they would pile up. Called with the lock held, so no live
    /// writer of this store is writing one.
    package static func removeStrayTemps(_ path: StorePath) {
        guard let dir = opendir(path.folder) else { return }
        defer { closedir(dir) }
        let prefix = path.tempPrefix
        var stray: [String] = []
        while let e = readdir(dir) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            // `.NAME.tmp-PID-RANDOM`, or `.NAME.tmp-PID` as earlier versions named them.
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0 else { continue }
            if pid == getpid() { continue }
            if kill(pid, 0) != 0, errno == ESRCH { stray.append(name) }
        }
        for n in stray { unlink("\(path.folder)/\(n)") }
    }
}
