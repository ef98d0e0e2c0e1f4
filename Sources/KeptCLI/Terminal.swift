// The process's terminal facts and its output streams. Output is buffered and written with
// write(2); nothing here is shared between threads (the test runner gives each script its own).

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

/// Facts about the terminal, read once.
public struct TerminalInfo: Sendable {
    public var stdinIsTTY: Bool
    public var stdoutIsTTY: Bool
    public var stderrIsTTY: Bool
    /// NO_COLOR set, or TERM=dumb.
    public var colorDisabled: Bool
    public var termIsDumb: Bool

    public static func current() -> TerminalInfo {
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        let noColor = getenv("NO_COLOR").map { String(cString: $0) }.map { !$0.isEmpty } ?? false
        return TerminalInfo(stdinIsTTY: isatty(0) == 1, stdoutIsTTY: isatty(1) == 1, stderrIsTTY: isatty(2) == 1,
                            colorDisabled: noColor || term == "dumb", termIsDumb: term == "dumb")
    }
}

extension TerminalInfo {
    /// The width of the terminal on standard output (TIOCGWINSZ), or nil when it is none.
    public static func stdoutColumns() -> Int? {
        var ws = winsize()
        let r = withUnsafeMutablePointer(to: &ws) { ioctl(1, UInt(TIOCGWINSZ), $0) }
        guard r == 0, ws.ws_col > 0 else { return nil }
        return Int(ws.ws_col)
    }

    /// `$COLUMNS`, when it is a number of columns Kept takes.
    public static func columnsVariable() -> Int? {
        guard let v = getenv("COLUMNS").map({ String(cString: $0) }), let n = Int(v), n >= WidthChoice.minimum else { return nil }
        return n
    }
}

/// `--width`: a number of columns, `auto` (`$COLUMNS`, else the terminal's width on standard
/// output, else no limit) or `none`.
public enum WidthChoice: Sendable, Equatable {
    case auto, none
    case columns(Int)

    /// The narrowest width Kept lays out (a narrower one is a usage error).
    public static let minimum = 20

    public init?(_ text: String) {
        switch text.lowercased() {
        case "auto": self = .auto
        case "none": self = .none
        default:
            guard let n = Int(text), n >= WidthChoice.minimum, n <= 10_000 else { return nil }
            self = .columns(n)
        }
    }

    /// For `auto` on a terminal without `$COLUMNS`: reads the terminal's width again before
    /// each listing, so a resized window is followed. Nil otherwise.
    public func measure() -> (() -> Int?)? {
        guard self == .auto, TerminalInfo.columnsVariable() == nil, isatty(1) == 1 else { return nil }
        return { TerminalInfo.stdoutColumns() }
    }

    /// The width it gives, read now.
    public func resolved() -> Int? {
        switch self {
        case .none: return nil
        case .columns(let n): return n
        case .auto: return TerminalInfo.columnsVariable() ?? (isatty(1) == 1 ? TerminalInfo.stdoutColumns() : nil)
        }
    }
}

extension Session {
    /// Runs `body` with a command's `@width N` (or `@width none`) in force, as `@format` is for
    /// its one command (docs/SCRIPTS.md).
    func withWidth<T>(_ modifiers: [TranscriptDirective], _ body: () -> T) -> T {
        guard let d = modifiers.last(where: { $0.name == "width" }), let w = WidthChoice(d.argument), w != .auto else { return body() }
        let (savedWidth, savedMeasure) = (display.width, measureWidth)
        display.width = w.resolved()
        measureWidth = nil
        defer { (display.width, measureWidth) = (savedWidth, savedMeasure) }
        return body()
    }
}

extension SessionOptions {
    /// How a session made from these options lays out its output. Test mode is the same on
    /// every machine: no width (a transcript sets one with `@width N`) and no colour.
    public func display(testMode: Bool, _ t: TerminalInfo) -> DisplayOptions {
        guard !testMode else { return DisplayOptions(prettyJSON: pretty) }
        return DisplayOptions(width: width.resolved(), color: format == .text && color.enabled(tty: t.stdoutIsTTY, t), prettyJSON: pretty)
    }
}

/// A buffered output stream over a file descriptor.
public final class OutputStream {
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// When set, lines are collected here instead of written (tests).
    public var captured: [String]? = nil

    public init(fd: Int32) {
        self.fd = fd
        buffer.reserveCapacity(1 << 16)
    }

    public func line(_ s: String) {
        if captured != nil {
            captured?.append(s)
            return
        }
        buffer.append(contentsOf: s.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func lines(_ ls: [String]) {
        for l in ls { line(l) }
    }

    public func raw(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { b in
            var off = 0
            while off < b.count {
                let n = write(fd, b.baseAddress.map { $0 + off }, b.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                off += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Reads all of standard input, or nil once it passes `limit` bytes (the rest is not read).
func readAllStdin(limit: Int) -> [UInt8]? {
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        if out.count > limit { return nil }
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { continue }
            break
        }
        if n == 0 { break }
        out.append(contentsOf: chunk[0..<n])
    }
    return out
}

/// The first byte offset at which bytes stop being valid UTF-8, or nil when they are valid.
func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
    var i = 0
    let n = bytes.count
    while i < n {
        let b = bytes[i]
        if b < 0x80 { i += 1; continue }
        var need = 0
        var minScalar: UInt32 = 0
        var scalar: UInt32 = 0
        if b & 0xE0 == 0xC0 { need = 1; minScalar = 0x80; scalar = UInt32(b & 0x1F) }
        else if b & 0xF0 == 0xE0 { need = 2; minScalar = 0x800; scalar = UInt32(b & 0x0F) }
        else if b & 0xF8 == 0xF0 { need = 3; minScalar = 0x10000; scalar = UInt32(b & 0x07) }
        else { return i }
        guard i + need < n else { return i }
        for k in 1...need {
            let c = bytes[i + k]
            guard c & 0xC0 == 0x80 else { return i }
            scalar = (scalar << 6) | UInt32(c & 0x3F)
        }
        if scalar < minScalar || scalar > 0x10FFFF || (scalar >= 0xD800 && scalar <= 0xDFFF) { return i }
        i += need + 1
    }
    return nil
}
