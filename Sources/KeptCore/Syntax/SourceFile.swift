// A script, a command-line argument or a REPL line, held as UTF-8 bytes so every range in the
// engine is a byte offset; line and column are worked out only when a diagnostic is drawn.

/// One piece of source text with a name to report it by.
public final class SourceFile: Sendable {
    /// The name diagnostics show: a path, `-e`, `<stdin>` or `<repl>`.
    public let name: String
    /// The text as UTF-8 bytes.
    public let bytes: [UInt8]
    /// Byte offsets at which each line starts; line 1 starts at 0.
    public let lineStarts: [Int]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A {
            starts.append(i + 1)
        }
        self.lineStarts = starts
    }

    public convenience init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }

    /// The 1-based line that holds a byte offset.
    public func line(of offset: Int) -> Int {
        var lo = 0
        var hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return lo + 1
    }

    /// The 1-based line and column of a byte offset; columns count Unicode scalars, so a caret
    /// drawn that many cells in lands under the right character.
    public func lineColumn(of offset: Int) -> (line: Int, column: Int) {
        let clamped = max(0, min(offset, bytes.count))
        let line = self.line(of: clamped)
        let start = lineStarts[line - 1]
        return (line, SourceFile.scalarCount(bytes, from: start, to: clamped) + 1)
    }

    /// The text of a 1-based line, without its line break; empty past the end.
    public func lineText(_ line: Int) -> String {
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The text of a byte range, clamped to the file.
    public func text(_ range: SourceRange) -> String {
        let s = max(0, min(range.start, bytes.count))
        let e = max(s, min(range.end, bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }

    /// Counts the scalars that start between two offsets: every byte that is not a UTF-8
    /// continuation byte starts one.
    static func scalarCount(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        var n = 0
        var i = from
        while i < to && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }
}
