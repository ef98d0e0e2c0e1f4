// Where the REPL's lines come from. GNU readline on a terminal, a plain reader otherwise; the
// REPL sees only this protocol, so the engine never knows which one it has.

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

/// What one read gave.
enum EditorInput: Equatable {
    /// A line, without its line break.
    case line(String)
    /// Ctrl-C: the line being typed was thrown away.
    case interrupted
    /// Ctrl-D on an empty line, or the end of the input.
    case end
    /// A line that is not valid UTF-8: its bytes and the offset of the first bad byte.
    case invalid([UInt8], offset: Int)
    /// A line longer than the statement size limit: its first bytes (the rest is dropped).
    case tooLong([UInt8])
}

/// A source of input lines.
protocol LineEditor: AnyObject {
    /// The next line; `prompt` is shown by an editor that shows prompts.
    func read(prompt: String) -> EditorInput
    /// Records an accepted entry in the history (an editor without history ignores it).
    func remember(_ entry: String)
    /// The history, oldest first.
    var history: [String] { get }
    /// True when a read would not wait: a line is buffered, the input ended, or more input is
    /// there to read. The piped REPL runs a finished statement at once when this is false,
    /// rather than wait for a line that may continue it.
    func inputReady() -> Bool
    /// Watches `idle` while waiting for a key (an editor that reads a terminal); the others
    /// ignore it.
    func setIdle(_ idle: EditorIdle?)
    /// Waits until input is there (`inputReady`), `fd` is readable or `timeout` seconds passed,
    /// whichever comes first: the piped REPL waits so between statements.
    func waitForInput(alsoWatching fd: Int32, timeout: Double?)
}

/// What an editor waiting for a key watches besides its input: a descriptor and a deadline.
/// When either fires, `wake` runs, and the lines it returns are shown above the prompt (the
/// REPL's live sync, docs/SYNC.md "Live").
struct EditorIdle {
    /// Readable: `wake` runs.
    let fd: Int32
    /// Seconds until `wake` runs anyway; nil: only when `fd` is readable.
    let timeout: () -> Double?
    let wake: () -> [String]
}

extension LineEditor {
    func inputReady() -> Bool { true }
    func setIdle(_ idle: EditorIdle?) {}
    func waitForInput(alsoWatching fd: Int32, timeout: Double?) {}
}

/// A timeout in seconds as poll(2) takes it: milliseconds, rounded up so a wait never ends
/// before its deadline; -1 for none.
func pollMilliseconds(_ seconds: Double?) -> Int32 {
    guard let seconds else { return -1 }
    return Int32(min(max(0, seconds) * 1000, 86_400_000).rounded(.up))
}

/// Reads standard input line by line: no prompt, no echo, no colour, no history (pipes and
/// TERM=dumb).
final class PlainLineEditor: LineEditor {
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var eof = false
    /// True while the rest of a line past the statement size limit is thrown away.
    private var skipping = false
    private let fd: Int32

    init(fd: Int32 = 0) { self.fd = fd }

    func read(prompt: String) -> EditorInput {
        while true {
            if skipping {
                // The rest of an overlong line is dropped as it arrives, so memory stays bounded.
                guard let nl = buffer.firstIndex(of: 0x0A) else {
                    buffer.removeAll(keepingCapacity: true)
                    if eof { skipping = false; return .end }
                    fill()
                    continue
                }
                buffer.removeSubrange(...nl)
                skipping = false
            }
            if let nl = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                if line.last == 0x0D { line.removeLast() }
                return PlainLineEditor.decode(line)
            }
            if buffer.count > Limits.statementBytes {
                // A line past the limit (docs/LIMITS.md) is unreadable input (a statement too long); its rest
                // is dropped as it comes, never kept.
                let line = Array(buffer[..<min(buffer.count, 80)])
                buffer.removeAll(keepingCapacity: true)
                skipping = true
                return .tooLong(line)
            }
            if eof {
                guard !buffer.isEmpty else { return .end }
                var line = buffer
                buffer.removeAll()
                if line.last == 0x0D { line.removeLast() }
                return PlainLineEditor.decode(line)
            }
            fill()
        }
    }

    func inputReady() -> Bool {
        if eof || buffer.contains(0x0A) { return true }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&p, 1, 0)
            if n < 0, errno == EINTR { continue }
            // POLLHUP (the writer closed) is ready too: the read gives the end.
            return n != 0
        }
    }

    func waitForInput(alsoWatching other: Int32, timeout: Double?) {
        guard !inputReady() else { return }
        var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: other, events: Int16(POLLIN), revents: 0)]
        // An interrupted wait ends early: the caller looks again and waits again.
        _ = poll(&fds, 2, pollMilliseconds(timeout))
    }

    /// Reads what is there into the buffer; sets `eof` at the end of the input.
    private func fill() {
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                eof = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
            return
        }
    }

    static func decode(_ line: [UInt8]) -> EditorInput {
        if let bad = firstInvalidUTF8(line) { return .invalid(line, offset: bad) }
        return .line(String(decoding: line, as: UTF8.self))
    }

    func remember(_ entry: String) {}

    var history: [String] { [] }
}
