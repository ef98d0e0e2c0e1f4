// A script, a command-line argument or a REPL line, held as UTF-8 bytes so every range in the
// engine is a byte offset; line and column are worked out only when a diagnostic is drawn.

import KeptRules

/// One piece of source text with a name to report it by.
public final class SourceFile: Sendable {
    /// The name diagnostics show: a path, `-e`, `<stdin>` or `<repl>`.
    public let name: String
    /// The text as UTF-8 bytes.
    public let bytes: [UInt8]
    /// Byte offsets at which each line starts; line 1 starts at 0.
    public let lineStarts: [Int]
    /// The line number of the first line: 1 for a whole file; a later number when the text is
    /// one piece of a longer input read line by line (the REPL), so diagnostics count lines of
    /// the whole input.
    public let firstLine: Int
    /// Text shown before the first line, and counted in its columns: a statement made from a
    /// command line (`kept add …` runs `add …`) is shown, and its errors located, in the
    /// command line as typed, `kept ` included.
    public let lead: String

    public init(name: String, bytes: [UInt8], firstLine: Int = 1, lead: String = "") {
        self.name = name
        self.bytes = bytes
        self.firstLine = max(1, firstLine)
        self.lead = lead
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == 0x0A {
            starts.append(i + 1)
        }
        self.lineStarts = starts
    }

    /// The bytes of a script or transcript file without a UTF-8 byte order mark at its very
    /// start: editors on Windows write one, and it is no part of the script (kept, it was an unknown command
    /// on a character no one can see). One anywhere else stays, and is reported where it is.
    /// Stores are not read through this: their errors' offsets are into the file's own bytes.
    public static func droppingBOM(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF else { return bytes }
        return Array(bytes[3...])
    }

    /// A line's text without a BOM before it: the first line read from a pipe.
    public static func droppingBOM(_ line: String) -> String {
        line.unicodeScalars.first == "\u{FEFF}" ? String(line.unicodeScalars.dropFirst()) : line
    }

    public convenience init(name: String, text: String, firstLine: Int = 1) {
        self.init(name: name, bytes: Array(text.utf8), firstLine: firstLine)
    }

    /// The line number (counting from `firstLine`) that holds a byte offset.
    public func line(of offset: Int) -> Int {
        localLine(of: offset) + firstLine - 1
    }

    /// The 1-based line within this text that holds a byte offset.
    package func localLine(of offset: Int) -> Int {
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
        let local = localLine(of: clamped)
        let start = lineStarts[local - 1]
        let shift = local == 1 ? lead.unicodeScalars.count : 0
        return (local + firstLine - 1, SourceFile.scalarCount(bytes, from: start, to: clamped) + 1 + shift)
    }

    /// The byte offset where a line (counting from `firstLine`) ends, before its line break.
    public func lineEnd(_ line: Int) -> Int {
        let local = line - firstLine + 1
        return local >= 1 && local < lineStarts.count ? lineStarts[local] - 1 : bytes.count
    }

    /// The text of a line (counting from `firstLine`), without its line break; empty past the end.
    public func lineText(_ number: Int) -> String {
        let line = number - firstLine + 1
        guard line >= 1, line <= lineStarts.count else { return "" }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return (line == 1 ? lead : "") + String(decoding: bytes[start..<max(start, end)], as: UTF8.self)
    }

    /// The text of a byte range, clamped to the file.
    public func text(_ range: SourceRange) -> String {
        let s = max(0, min(range.start, bytes.count))
        let e = max(s, min(range.end, bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }

    /// Counts the scalars that start between two offsets: every byte that is not a UTF-8
    /// continuation byte starts one.
    package static func scalarCount(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        var n = 0
        var i = from
        while i < to && i < bytes.count {
            if bytes[i] & 0xC0 != 0x80 { n += 1 }
            i += 1
        }
        return n
    }
}
