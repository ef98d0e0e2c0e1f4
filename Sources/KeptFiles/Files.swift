// Reading and writing files, whatever they hold: a bounded read that refuses a device and waits
// for a pipe's writer, an atomic write through a temporary file beside the target (flushed, then
// renamed, then the folder flushed), and path names. The store and the readers of other tools'
// files both go through here.

import KeptRules

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// File operations on a path.
public enum Files {
    /// Reads the bytes of a file of at most `limit` bytes (docs/LIMITS.md: the store size; a
    /// script passes its own); nil with a reason when it cannot. Only a regular file or a pipe
    /// is read: a device (`/dev/zero`, a terminal) is refused unread, and a file or pipe past
    /// the limit is refused once the limit is passed, so neither can fill the memory.
    public static func readBytes(_ path: String, limit: Int = Limits.storeBytes) -> Result<[UInt8], FileError> {
        // O_NONBLOCK: opening a FIFO no process writes would wait forever (issue 28, F9).
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileError(errno: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { return .failure(FileError(errno: errno)) }
        switch st.st_mode & S_IFMT {
        case S_IFDIR: return .failure(FileError(reason: "it is a directory", code: EISDIR))
        case S_IFREG: break
        case S_IFIFO:
            if let e = awaitWriter(fd) { return .failure(e) }
        case S_IFCHR, S_IFBLK: return .failure(FileError(reason: "it is a device, not a file", code: ENODEV))
        default: return .failure(FileError(reason: "it is not a regular file", code: ENODEV))
        }
        // Read straight into the array, sized by fstat; a file that grows meanwhile is read on.
        // A large file is read in two halves at once: most of a read's time is faulting in and
        // copying the pages of the array, which two cores do in half the time.
        let size = max(Int(st.st_size), 0)
        guard size <= limit else { return .failure(FileError.tooLarge(limit)) }
        // Pipes have no offsets: they are read on, from where they are.
        let regular = (st.st_mode & S_IFMT) == S_IFREG
        var failure: Int32 = 0
        var out = [UInt8](unsafeUninitializedCapacity: size) { buf, count in
            guard let base = buf.baseAddress else { return }
            let half = regular && size >= parallelReadThreshold && Cores.online() >= 2 ? size / 2 : size
            let tail = Mutex<(Int, Int32)>((0, 0))
            let group = DispatchGroup()
            if half < size {
                let address = UInt(bitPattern: base + half)
                DispatchQueue.global(qos: .userInitiated).async(group: group) {
                    let got = readFully(fd, UnsafeMutablePointer(bitPattern: address), size - half, at: half)
                    tail.withLock { $0 = got }
                }
            }
            let head = readFully(fd, base, half, at: regular ? 0 : nil)
            group.wait()
            let (tailCount, tailError) = tail.withLock { $0 }
            failure = head.1 != 0 ? head.1 : tailError
            // A short first half (the file shrank) ends the array there; the second half is
            // used only when the first was read whole.
            count = head.0 < half ? head.0 : half + tailCount
        }
        if failure != 0 { return .failure(FileError(errno: failure)) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // A pipe, or a file that grew after fstat, is read in chunks up to the limit.
            if out.count > limit { return .failure(FileError.tooLarge(limit)) }
            let at = off_t(out.count)
            let n = chunk.withUnsafeMutableBytes { regular ? pread(fd, $0.baseAddress, $0.count, at) : read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(FileError(errno: errno))
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
        }
        return .success(out)
    }

    /// How long a pipe is waited for: the time its writer has to send a first byte.
    package static let pipeWaitMilliseconds = 10_000

    /// Waits, on a pipe opened with O_NONBLOCK, until a writer has sent something or has come
    /// and gone (up to `pipeWaitMilliseconds`), then makes it blocking, so it is read once to
    /// its end. Nil when it may be read; the error when no writer came (issue 28, F9: a FIFO
    /// nobody writes waited forever; one a writer fills a moment later must still be read).
    package static func awaitWriter(_ fd: Int32) -> FileError? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var n: Int32
        repeat { n = poll(&p, 1, Int32(pipeWaitMilliseconds)) } while n < 0 && errno == EINTR
        if n < 0 { return FileError(errno: errno) }
        if n == 0 {
            return FileError(reason: "it is a pipe no process wrote to within \(pipeWaitMilliseconds / 1000) s", code: ETIMEDOUT)
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else { return FileError(errno: errno) }
        return nil
    }

    /// A file this large is read on two threads.
    package static let parallelReadThreshold = 1 << 22

    /// Reads up to `n` bytes at `offset` (pread, so threads share the descriptor; nil reads on
    /// from the descriptor's position): the count read and the errno that stopped it, or 0 when
    /// it reached `n` or the end of the file.
    package static func readFully(_ fd: Int32, _ base: UnsafeMutablePointer<UInt8>?, _ n: Int, at offset: Int?) -> (Int, Int32) {
        guard let base else { return (0, 0) }
        prefault(UnsafeMutableRawPointer(base), n)
        var count = 0
        while count < n {
            let got = offset.map { pread(fd, base + count, n - count, off_t($0 + count)) } ?? read(fd, base + count, n - count)
            if got < 0 {
                if errno == EINTR { continue }
                return (count, errno)
            }
            if got == 0 { break }
            count += got
        }
        return (count, 0)
    }

    /// Asks for the pages of a large fresh buffer to be mapped in one call rather than one
    /// page fault per 4 KB as it is filled, and from 2 MB for huge pages. Advice only: where
    /// the kernel refuses it, the writes fault the pages in as before. The range is the
    /// buffer's own whole pages.
    package static func prefault(_ base: UnsafeMutableRawPointer, _ n: Int) {
        #if os(Linux)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        guard n >= 1 << 18, page > 0 else { return }
        let start = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + n) / page * page
        guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
        if n >= 2 << 20 { _ = madvise(p, end - start, MADV_HUGEPAGE) }
        _ = madvise(p, end - start, MADV_POPULATE_WRITE)
        #endif
    }

    /// Writes bytes to a path through a temporary file and a rename. An existing file keeps its
    /// permission bits; a new one gets `newMode` (0600 for a store: it is the user's own data).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, newMode: mode_t = 0o600) -> Result<Void, FileError> {
        writeAtomically(pieces: [bytes], to: path, newMode: newMode)
    }

    /// `writeAtomically` of bytes given in pieces, written one after the other.
    public static func writeAtomically(pieces: [[UInt8]], to path: String, newMode: mode_t = 0o600) -> Result<Void, FileError> {
        let dir = directory(of: path)
        var mode: mode_t = newMode
        var st = stat()
        if stat(path, &st) == 0 { mode = st.st_mode & 0o7777 }
        let fd: Int32
        let tmp: String
        switch makeTemporary(beside: path, mode: mode) {
        case .success(let t): (fd, tmp) = t
        case .failure(let e): return .failure(e)
        }
        // The umask narrows a new file's bits; a store written again keeps exactly its own.
        _ = fchmod(fd, mode)
        var ok = true
        var err: Int32 = 0
        for bytes in pieces where ok {
            bytes.withUnsafeBytes { buf in
                var off = 0
                while off < buf.count {
                    let n = write(fd, buf.baseAddress.map { $0 + off }, buf.count - off)
                    if n < 0 {
                        if errno == EINTR { continue }
                        ok = false
                        err = errno
                        return
                    }
                    off += n
                }
            }
        }
        if ok, fsync(fd) != 0 {
            ok = false
            err = errno
        }
        if close(fd) != 0, ok {
            ok = false
            err = errno
        }
        guard ok else {
            unlink(tmp)
            return .failure(FileError(errno: err))
        }
        guard rename(tmp, path) == 0 else {
            let e = errno
            unlink(tmp)
            return .failure(FileError(errno: e))
        }
        let dfd = open(dir, O_RDONLY)
        if dfd >= 0 {
            _ = fsync(dfd)
            close(dfd)
        }
        return .success(())
    }

    /// How many random names a temporary file tries before giving up: each one that exists
    /// already (EEXIST) is passed over, and 16 collisions of 64 random bits mean someone is
    /// planting names, not bad luck.
    package static let temporaryAttempts = 16

    /// The name of a temporary file beside `path`: `.NAME.tmp-PID-RANDOM`. The PID lets a later
    /// writer remove what a dead one left (removeStrayTemps); the 64 random bits make the name
    /// one nobody can plant a link under in advance (issue 28, F5).
    package static func temporaryName(beside path: String) -> String {
        let r = UInt64.random(in: 0...UInt64.max)
        let hex = String(r, radix: 16)
        let padded = String(repeating: "0", count: 16 - hex.count) + hex
        return "\(directory(of: path))/.\(basename(of: path)).tmp-\(getpid())-\(padded)"
    }

    /// Creates a new temporary file beside `path`, opened for writing: O_EXCL and O_NOFOLLOW, so
    /// whatever is already at the name (a file, a planted symlink) is never opened, let alone
    /// truncated or written through; a name that exists is passed over for another.
    package static func makeTemporary(beside path: String, mode: mode_t) -> Result<(Int32, String), FileError> {
        for _ in 0..<temporaryAttempts {
            let tmp = temporaryName(beside: path)
            let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 { return .success((fd, tmp)) }
            let e = errno
            if e == EEXIST || e == EINTR { continue }
            return .failure(FileError(errno: e))
        }
        return .failure(FileError(reason: "no temporary file could be made beside it: \(temporaryAttempts) names were taken", code: EEXIST))
    }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let d = String(path[..<slash])
        return d.isEmpty ? "/" : d
    }

    public static func basename(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

/// Why a file operation failed, in words.
public struct FileError: Error, Sendable {
    public let reason: String
    public let code: Int32

    public init(reason: String, code: Int32) {
        self.reason = reason
        self.code = code
    }

    /// A file or pipe past `limit` bytes.
    public static func tooLarge(_ limit: Int) -> FileError {
        FileError(reason: "it is larger than \(limit) bytes (docs/LIMITS.md)", code: EFBIG)
    }

    /// Whether the file was refused for its size.
    public var isTooLarge: Bool { code == EFBIG }

    /// Whether the file was refused for its kind or its size (not an I/O error).
    public var refusedUnread: Bool { code == EFBIG || code == ENODEV }

    public init(errno e: Int32) {
        self.code = e
        if let s = strerror(e) {
            self.reason = String(cString: s).lowercased()
        } else {
            self.reason = "error \(e)"
        }
    }
}
