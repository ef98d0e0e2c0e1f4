// The bytes of an import file, read in chunks so that a file of a million tasks is never held
// whole, and lines cut from them with their numbers (LF or CRLF). `-` is standard input.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file (or standard input) read a chunk at a time, up to `limit` bytes (docs/LIMITS.md:
/// the import size), so an endless source (`/dev/zero`, a pipe that never ends) is refused
/// instead of read forever.
public final class ByteInput {
    package let fd: Int32
    package let owned: Bool
    public let name: String
    private(set) var atEnd = false
    /// The file's size in bytes; 0 for a pipe.
    public private(set) var size = 0
    /// The most bytes read before the input is refused.
    package let limit: Int
    /// The bytes read so far.
    private var consumed = 0

    /// How much is read at a time.
    package static let chunk = 1 << 20

    private init(fd: Int32, owned: Bool, name: String, limit: Int) {
        self.fd = fd
        self.owned = owned
        self.name = name
        self.limit = limit
    }

    deinit {
        if owned { close(fd) }
        scratch.deallocate()
    }

    /// Opens a file to read, or standard input for `-`. A folder, a device other than a
    /// terminal, a socket and a file larger than `limit` are refused before a byte is read.
    public static func open(_ path: String, limit: Int = Limits.importBytes) -> Result<ByteInput, ImportError> {
        let name = path == "-" ? "<stdin>" : path
        let fd: Int32
        if path == "-" {
            fd = 0
        } else {
            // O_NONBLOCK: a FIFO nobody writes would hold the open forever; it is read
            // blocking again below, to its end.
            fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { return .failure(unreadable(name, .system(String(cString: strerror(errno)).lowercased()))) }
        }
        let owned = path != "-"
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = errno
            if owned { close(fd) }
            return .failure(unreadable(name, .system(String(cString: strerror(e)).lowercased())))
        }
        var refusal: ImportError.Unreadable? = nil
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            if Int(st.st_size) > limit { refusal = .tooLarge(limit: limit) }
        case S_IFIFO:
            // A named pipe is waited for as a store's is (Files.awaitWriter); standard
            // input is read as it comes.
            if owned, let e = Files.awaitWriter(fd) { refusal = .system(e.reason) }
        case S_IFDIR: refusal = .directory
        // A terminal is someone typing; any other device (/dev/zero, /dev/urandom) never ends.
        case S_IFCHR where isatty(fd) == 1: break
        case S_IFCHR, S_IFBLK: refusal = .device
        // Standard input may be a socket (some process spawners give one); it is a stream,
        // bounded by the limit as a pipe is.
        case S_IFSOCK: break
        default: refusal = .notAFile
        }
        if refusal == nil, owned {
            let flags = fcntl(fd, F_GETFL)
            if flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 { refusal = .system(String(cString: strerror(errno)).lowercased()) }
        }
        if let refusal {
            if owned { close(fd) }
            return .failure(unreadable(name, refusal))
        }
        let i = ByteInput(fd: fd, owned: owned, name: name, limit: limit)
        if (st.st_mode & S_IFMT) == S_IFREG { i.size = Int(st.st_size) }
        return .success(i)
    }

    package static func unreadable(_ name: String, _ why: ImportError.Unreadable) -> ImportError {
        ImportError(.unreadable(name: name, why), line: 0)
    }

    /// Where `read` reads into before appending (one chunk, allocated once).
    private lazy var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: ByteInput.chunk, alignment: 16)

    /// Appends up to `max` bytes; false at the end of the input (or on an error, reported).
    package func read(into buf: inout [UInt8], max: Int = ByteInput.chunk) throws(ImportError) -> Bool {
        guard !atEnd else { return false }
        var total = 0
        while total < max {
            let want = Swift.min(ByteInput.chunk, max - total)
            let n = Glibc.read(fd, scratch.baseAddress, want)
            if n < 0, errno == EINTR { continue }
            if n < 0 {
                throw ByteInput.unreadable(name, .system(String(cString: strerror(errno)).lowercased()))
            }
            if n == 0 {
                atEnd = true
                break
            }
            // A pipe, or a file that grew after it was opened, is refused once past the limit.
            consumed += n
            if consumed > limit { throw ByteInput.unreadable(name, .tooLarge(limit: limit)) }
            buf.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            total += n
            if n < want { break }
        }
        return total > 0
    }

    /// The whole input (small files, and tests).
    package func readAll() throws(ImportError) -> [UInt8] {
        var out: [UInt8] = []
        while try read(into: &out) {}
        return out
    }
}

/// Lines of an input, with their numbers; a UTF-8 byte order mark at the start is skipped.
package struct LineReader {
    package let input: ByteInput
    package var buf: [UInt8] = []
    package var pos = 0
    /// The number of the line `next` returns last.
    private(set) var line = 0
    package var started = false

    package init(_ input: ByteInput) { self.input = input }

    /// The next line without its line break, nil at the end.
    package mutating func next() throws(ImportError) -> ArraySlice<UInt8>? {
        if !started {
            started = true
            _ = try input.read(into: &buf)
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF { pos = 3 }
        }
        var scan = pos
        while true {
            if let nl = LineReader.newline(in: buf, from: scan) {
                var end = nl
                if end > pos, buf[end - 1] == 0x0D { end -= 1 }
                let s = buf[pos..<end]
                pos = nl + 1
                line += 1
                return s
            }
            scan = buf.count
            if pos > 0, pos >= buf.count / 2 {
                buf.removeFirst(pos)
                scan -= pos
                pos = 0
            }
            guard try input.read(into: &buf) else {
                guard pos < buf.count else { return nil }
                var end = buf.count
                if buf[end - 1] == 0x0D { end -= 1 }
                let s = buf[pos..<end]
                pos = buf.count
                line += 1
                return s
            }
        }
    }

    package static func newline(in b: [UInt8], from: Int) -> Int? {
        b.withUnsafeBufferPointer { p -> Int? in
            guard from < p.count, let base = p.baseAddress else { return nil }
            guard let hit = memchr(base + from, 0x0A, p.count - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}

extension ImportError {
    /// A line that is not UTF-8.
    package static func notUTF8(_ line: Int) -> ImportError {
        ImportError(.notUTF8(line: line), line: line)
    }
}

/// Text of a line, refused when it is not UTF-8.
package func utf8Line(_ s: ArraySlice<UInt8>, line: Int) throws(ImportError) -> String {
    guard let t = String(validating: s, as: UTF8.self) else { throw .notUTF8(line) }
    return t
}
