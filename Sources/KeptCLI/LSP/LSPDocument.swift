// An open document as the server holds it: its UTF-8 bytes and where each line starts. A
// position on the wire is a line and a character offset counted in the encoding the client and
// server agreed (UTF-16 code units unless the client offered UTF-8); the engine's ranges are byte
// offsets, so every position is converted here, both ways. A position past the end of its line
// means the line's end, and a line past the last the document's end (LSP 3.17, "Position").

import KeptRules
import KeptSyntax

/// How the characters of a position are counted.
enum PositionEncoding: String {
    case utf16 = "utf-16"
    case utf8 = "utf-8"
}

/// A line and character, as the protocol counts them.
struct LSPPosition: Equatable {
    var line: Int
    var character: Int
}

/// One open text document.
struct LSPDocument {
    let uri: String
    var version: Int
    private(set) var bytes: [UInt8]
    /// The byte offset at which each line starts (after a LF; a CR before it stays in the line).
    private(set) var lineStarts: [Int]

    init(uri: String, version: Int, text: String) {
        self.uri = uri
        self.version = version
        self.bytes = Array(text.utf8)
        self.lineStarts = LSPDocument.lineStarts(bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func lineStarts(_ b: [UInt8]) -> [Int] {
        var s = [0]
        appendLineStarts(b, from: 0, to: &s)
        return s
    }

    /// The line starts after each line break from an offset on: LF, CRLF, or a CR alone (LSP
    /// 3.17, "Text Documents": all three end a line).
    static func appendLineStarts(_ b: [UInt8], from: Int, to s: inout [Int]) {
        var i = from
        while i < b.count {
            if b[i] == 0x0A || (b[i] == 0x0D && (i + 1 == b.count || b[i + 1] != 0x0A)) { s.append(i + 1) }
            i += 1
        }
    }

    /// The byte offset where a line's text ends (before its LF, CRLF or CR).
    func lineEnd(_ line: Int) -> Int {
        guard line + 1 < lineStarts.count else { return bytes.count }
        var e = lineStarts[line + 1] - 1
        if bytes[e] == 0x0A, e > lineStarts[line], bytes[e - 1] == 0x0D { e -= 1 }
        return e
    }

    /// The byte offset of a position (clamped to its line, and to the document).
    func offset(_ p: LSPPosition, _ enc: PositionEncoding) -> Int {
        guard p.line >= 0 else { return 0 }
        guard p.line < lineStarts.count else { return bytes.count }
        let s = lineStarts[p.line]
        let e = lineEnd(p.line)
        if enc == .utf8 {
            var o = min(s + max(0, p.character), e)
            // Never inside a character: back to where it starts.
            while o > s, o < e, bytes[o] & 0xC0 == 0x80 { o -= 1 }
            return o
        }
        var units = 0
        var i = s
        while i < e, units < p.character {
            let n = LSPDocument.scalarLength(bytes[i])
            let w = n == 4 ? 2 : 1
            // A position between the two halves of a surrogate pair means the character's start.
            if units + w > p.character { break }
            units += w
            i = min(e, i + n)
        }
        return i
    }

    /// The position of a byte offset.
    func position(_ offset: Int, _ enc: PositionEncoding) -> LSPPosition {
        let o = max(0, min(offset, bytes.count))
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= o { lo = mid } else { hi = mid - 1 }
        }
        let s = lineStarts[lo]
        if enc == .utf8 { return LSPPosition(line: lo, character: o - s) }
        var units = 0
        var i = s
        while i < o {
            let n = LSPDocument.scalarLength(bytes[i])
            units += n == 4 ? 2 : 1
            i += n
        }
        return LSPPosition(line: lo, character: units)
    }

    /// The bytes a UTF-8 sequence takes, from its lead byte (a stray continuation byte is one).
    static func scalarLength(_ b: UInt8) -> Int {
        switch b {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    /// Replaces the text between two positions (an incremental change), or all of it.
    mutating func apply(_ text: String, from: LSPPosition?, to: LSPPosition?, _ enc: PositionEncoding) {
        guard let from, let to else {
            bytes = Array(text.utf8)
            lineStarts = LSPDocument.lineStarts(bytes)
            return
        }
        let s = offset(from, enc)
        let e = max(s, offset(to, enc))
        bytes.replaceSubrange(s..<e, with: Array(text.utf8))
        // Lines before the change keep their starts; from the byte before it (a CR there may
        // now be half of a CRLF) they are found again.
        var starts = Array(lineStarts.prefix { $0 < s })
        LSPDocument.appendLineStarts(bytes, from: max(0, s - 1), to: &starts)
        if starts.isEmpty || starts[0] != 0 { starts.insert(0, at: 0) }
        lineStarts = starts
    }

    /// The text between two byte offsets.
    func text(_ r: SourceRange) -> String {
        let s = max(0, min(r.start, bytes.count)), e = max(s, min(r.end, bytes.count))
        return String(decoding: bytes[s..<e], as: UTF8.self)
    }
}
