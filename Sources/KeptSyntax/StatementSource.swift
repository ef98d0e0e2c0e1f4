// One statement's text as it sits in its file: continuation prefixes (`... `) are blanked to
// spaces so that every byte keeps its file offset and diagnostics point into the real line.

import KeptRules

/// The bytes of one statement and where they sit in their file.
public struct StatementSource: Sendable {
    public let file: SourceFile
    /// The statement's range in the file.
    public let range: SourceRange
    /// The statement's bytes; `bytes[k]` is the file's byte at `range.start + k`.
    public let bytes: [UInt8]

    public init(file: SourceFile, range: SourceRange, blanking prefixes: [SourceRange] = []) {
        self.file = file
        self.range = range
        let s = max(0, min(range.start, file.bytes.count))
        let e = max(s, min(range.end, file.bytes.count))
        var b = Array(file.bytes[s..<e])
        for p in prefixes {
            var k = p.start
            while k < p.end {
                let j = k - s
                if j >= 0, j < b.count { b[j] = 0x20 }
                k += 1
            }
        }
        self.bytes = b
    }

    /// A statement whose bytes were already laid out (a masked copy, Parser.masked).
    package init(file: SourceFile, range: SourceRange, bytes: [UInt8]) {
        self.file = file
        self.range = range
        self.bytes = bytes
    }

    /// A whole file (a `-e` argument or a REPL line) as one statement.
    public init(file: SourceFile) {
        self.init(file: file, range: SourceRange(start: 0, end: file.bytes.count))
    }

    /// The statement's text from a file offset to its end, with each line break and the
    /// indentation after it folded into one space.
    public func rawText(from offset: Int) -> String {
        rawText(SourceRange(start: offset, end: range.end))
    }

    /// The text of a file range inside this statement, line breaks folded as in `rawText(from:)`.
    public func rawText(_ r: SourceRange) -> String {
        let s = max(0, min(r.start - range.start, bytes.count))
        let e = max(s, min(r.end - range.start, bytes.count))
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var k = s
        while k < e {
            let c = bytes[k]
            if c == 0x0A || c == 0x0D {
                while let last = out.last, last == 0x20 { out.removeLast() }
                out.append(0x20)
                k += 1
                while k < e, bytes[k] == 0x20 || bytes[k] == 0x09 || bytes[k] == 0x0A || bytes[k] == 0x0D { k += 1 }
                continue
            }
            out.append(c)
            k += 1
        }
        while let last = out.last, last == 0x20 || last == 0x09 { out.removeLast() }
        return String(decoding: out, as: UTF8.self)
    }

    /// The whole statement as text, folded.
    public var text: String { rawText(range) }
}
