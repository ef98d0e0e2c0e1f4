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
