// Where the REPL's lines come from. GNU readline on a terminal, a plain reader otherwise; the
// REPL sees only this protocol, so the engine never knows which one it has.

import KeptCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A source of input lines.
protocol LineEditor: AnyObject {
    /// The next line without its line break, or nil at the end of input.
    func readLine(prompt: String) -> String?
    /// Records an accepted line in the history.
    func remember(_ line: String)
}

/// Reads standard input line by line: no prompt, no echo, no colour (pipes and TERM=dumb).
final class PlainLineEditor: LineEditor {
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var eof = false

    func readLine(prompt: String) -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                var line = Array(buffer[..<nl])
                buffer.removeSubrange(...nl)
                if line.last == 0x0D { line.removeLast() }
                return String(decoding: line, as: UTF8.self)
            }
            if eof {
                guard !buffer.isEmpty else { return nil }
                let line = buffer
                buffer.removeAll()
                return String(decoding: line, as: UTF8.self)
            }
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 {
                eof = true
            } else {
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }

    func remember(_ line: String) {}
}
