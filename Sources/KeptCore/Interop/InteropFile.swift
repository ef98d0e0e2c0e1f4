// The bytes of an import file, read in chunks so that a file of a million tasks is never held
// whole, and lines cut from them with their numbers (LF or CRLF). `-` is standard input.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file (or standard input) read a chunk at a time.
public final class ByteInput {
    let fd: Int32
    let owned: Bool
    public let name: String
    private(set) var atEnd = false
    /// The file's size in bytes; 0 for a pipe.
    public private(set) var size = 0

    /// How much is read at a time.
    static let chunk = 1 << 20

    private init(fd: Int32, owned: Bool, name: String) {
        self.fd = fd
        self.owned = owned
        self.name = name
    }

    deinit {
        if owned { close(fd) }
        scratch.deallocate()
    }

    /// Opens a file to read, or standard input for `-`.
    public static func open(_ path: String) -> Result<ByteInput, ImportError> {
        if path == "-" { return .success(ByteInput(fd: 0, owned: false, name: "<stdin>")) }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            return .failure(ImportError(.E0601, "could not read '\(path)': \(reason)", line: 0))
        }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            return .failure(ImportError(.E0601, "could not read '\(path)': it is a directory", line: 0))
        }
        let i = ByteInput(fd: fd, owned: true, name: path)
        if (st.st_mode & S_IFMT) == S_IFREG { i.size = Int(st.st_size) }
        return .success(i)
    }

    /// Where `read` reads into before appending (one chunk, allocated once).
    private lazy var scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: ByteInput.chunk, alignment: 16)

    /// Appends up to `max` bytes; false at the end of the input (or on an error, reported).
    func read(into buf: inout [UInt8], max: Int = ByteInput.chunk) throws(ImportError) -> Bool {
        guard !atEnd else { return false }
        var total = 0
        while total < max {
            let want = Swift.min(ByteInput.chunk, max - total)
            let n = Glibc.read(fd, scratch.baseAddress, want)
            if n < 0, errno == EINTR { continue }
            if n < 0 {
                throw ImportError(.E0601, "could not read '\(name)': \(String(cString: strerror(errno)).lowercased())", line: 0)
            }
            if n == 0 {
                atEnd = true
                break
            }
            buf.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
            total += n
            if n < want { break }
        }
        return total > 0
    }

    /// The whole input (small files, and tests).
    func readAll() throws(ImportError) -> [UInt8] {
        var out: [UInt8] = []
        while try read(into: &out) {}
        return out
    }
}

/// Lines of an input, with their numbers; a UTF-8 byte order mark at the start is skipped.
struct LineReader {
    let input: ByteInput
    var buf: [UInt8] = []
    var pos = 0
    /// The number of the line `next` returns last.
    private(set) var line = 0
    var started = false

    init(_ input: ByteInput) { self.input = input }

    /// The next line without its line break, nil at the end.
    mutating func next() throws(ImportError) -> ArraySlice<UInt8>? {
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

    static func newline(in b: [UInt8], from: Int) -> Int? {
        b.withUnsafeBufferPointer { p -> Int? in
            guard from < p.count, let base = p.baseAddress else { return nil }
            guard let hit = memchr(base + from, 0x0A, p.count - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}

extension ImportError {
    /// A line that is not UTF-8.
    static func notUTF8(_ line: Int) -> ImportError {
        ImportError(.E0603, "line \(line) is not valid UTF-8", line: line, help: "save the file as UTF-8")
    }
}

/// Text of a line, refused when it is not UTF-8.
func utf8Line(_ s: ArraySlice<UInt8>, line: Int) throws(ImportError) -> String {
    guard let t = String(validating: s, as: UTF8.self) else { throw .notUTF8(line) }
    return t
}
