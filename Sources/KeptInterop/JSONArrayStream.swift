// The elements of a JSON array in a file, read a chunk at a time: each element is parsed from
// the bytes read so far, and when it runs past them, parsed again with more. Errors carry the
// line and column in the whole file. A file of objects one after the other without the array's
// brackets (`task export` with json.array=off) is read the same way.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

package struct JSONArrayStream {
    package let input: ByteInput
    package var buf: [UInt8] = []
    package var pos = 0
    /// Lines in the bytes dropped from the front of `buf`.
    package var droppedLines = 0
    /// Columns (scalars) of `buf`'s first line that were dropped with it: not 0 only when a
    /// line too long to keep whole was cut.
    package var droppedColumns = 0
    /// Counting lines as far as `scanPos`: the line it is on, in the whole file.
    package var scanPos = 0
    package var scanLine = 1
    package var state = State.start

    package enum State { case start, inArray, bare, done }

    package init(_ input: ByteInput) { self.input = input }

    /// The next element, read by `body` from a reader at its first byte; nil after the last.
    /// `fault` names a value of the element that JSON allows but the format does not (a date
    /// that is no date, a missing title): it is refused with its own code at its place in the
    /// file, worked out here while the element's bytes are still held.
    package mutating func next<T>(_ body: (inout JSONReader) throws(JSONError) -> T,
                          fault: (T) -> JSONValueFault? = { _ in nil }) throws(ImportError) -> (T, line: Int)? {
        while true {
            skipSpace()
            if pos >= buf.count {
                if try input.read(into: &buf) { continue }
                switch state {
                case .start, .bare, .done:
                    state = .done
                    return nil
                case .inArray:
                    throw fail(.listNotClosed, at: buf.count)
                }
            }
            let b = buf[pos]
            switch state {
            case .done:
                throw fail(.afterList(b), at: pos)
            case .start:
                if b == UInt8(ascii: "[") { pos += 1; state = .inArray; continue }
                guard b == UInt8(ascii: "{") else {
                    throw fail(.notAList(b), at: pos)
                }
                state = .bare
            case .inArray, .bare:
                if b == UInt8(ascii: ",") { pos += 1; continue }
                if b == UInt8(ascii: "]"), state == .inArray { pos += 1; state = .done; continue }
                guard b == UInt8(ascii: "{") else {
                    throw fail(.notATask(b), at: pos)
                }
            }
            let start = pos
            // Taskwarrior writes a record a line: the rest of its line is read first, so a record
            // at the end of the bytes read so far is seldom parsed short and then again.
            while !lineIsRead(from: start), try input.read(into: &buf, max: max(ByteInput.chunk, buf.count)) {}
            while true {
                // The reader shares the buffer only while it parses, so the buffer is unique
                // again when it grows or drops what is read (no copy of it).
                let parsed: Result<(T, Int), JSONError> = {
                    var r = JSONReader(bytes: buf, from: start, textStart: 0)
                    do throws(JSONError) {
                        let v = try body(&r)
                        return .success((v, r.offset))
                    } catch {
                        return .failure(error)
                    }
                }()
                switch parsed {
                case .success(let (v, end)):
                    if let f = fault(v) { throw refuse(f) }
                    pos = end
                    let line = lineNumber(at: start)
                    compact()
                    return (v, line)
                case .failure(let error):
                    // Past the bytes read so far: read more and parse the element again.
                    if error.offset >= buf.count - 16, try input.read(into: &buf, max: max(ByteInput.chunk, buf.count)) { continue }
                    throw fail(.notJSON(error), at: error.offset)
                }
            }
        }
    }

    /// Whether the bytes read hold a line feed at or after `start`, or so many bytes after it
    /// that the record is no one line's (only that much is looked at, so a file of one long
    /// line costs no scan to its end for each record).
    package func lineIsRead(from start: Int) -> Bool {
        let rest = buf.count - start
        guard rest > 0 else { return false }
        guard rest < 65_536 else { return true }
        return buf.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress else { return false }
            return memchr(base + start, 0x0A, rest) != nil
        }
    }

    package mutating func skipSpace() {
        while pos < buf.count, buf[pos] == 0x20 || buf[pos] == 0x0A || buf[pos] == 0x0D || buf[pos] == 0x09 { pos += 1 }
    }

    /// Drops what is read once it is most of the buffer, counting its lines. It cuts after the
    /// last line feed read, or, in a line that long (a file of one line), where the reading is,
    /// keeping the columns of the line's dropped part: each cut drops at least a chunk, so the
    /// file's bytes are looked at a bounded number of times, however long its lines.
    package mutating func compact() {
        guard pos > ByteInput.chunk, pos > buf.count / 2 else { return }
        var lineStart = pos
        while lineStart > 0, buf[lineStart - 1] != 0x0A { lineStart -= 1 }
        let cut = pos - lineStart > ByteInput.chunk ? pos : lineStart
        guard cut > 0 else { return }
        _ = lineNumber(at: cut)
        // Scalars of the line that goes on after the cut, dropped now or before.
        if cut > lineStart {
            var scalars = 0
            for i in lineStart..<cut where buf[i] & 0xC0 != 0x80 { scalars += 1 }
            droppedColumns = (lineStart == 0 ? droppedColumns : 0) + scalars
        } else {
            droppedColumns = 0
        }
        droppedLines = scanLine - 1
        buf.removeFirst(cut)
        pos -= cut
        scanPos -= cut
    }

    /// The line of an offset at or after the last one asked for.
    package mutating func lineNumber(at offset: Int) -> Int {
        let end = min(offset, buf.count)
        guard scanPos < end else { return scanLine }
        var lines = 0
        buf.withUnsafeBufferPointer { b in
            // memchr from one line feed to the next: a record is about one line.
            guard let base = b.baseAddress else { return }
            var k = scanPos
            while k < end, let hit = memchr(base + k, 0x0A, end - k) {
                lines += 1
                k = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
            }
        }
        scanLine += lines
        scanPos = end
        return scanLine
    }

    /// JSON that is not well-formed, at its line and column in the file.
    package func fail(_ p: ImportError.Problem, at offset: Int) -> ImportError {
        let (line, column) = place(of: offset)
        return ImportError(p, line: line, column: column)
    }

    /// A value the format does not allow, at its line and column in the file.
    package func refuse(_ f: JSONValueFault) -> ImportError {
        fail(f.problem, at: f.offset)
    }

    /// The line and column (in scalars) in the whole file of an offset in the buffer.
    package func place(of offset: Int) -> (line: Int, column: Int) {
        let r = JSONReader(bytes: buf, from: 0, textStart: 0)
        let at = r.error("", at: offset)
        return (droppedLines + at.line, at.line == 1 ? droppedColumns + at.column : at.column)
    }
}

/// A value of a JSON element that JSON allows and the import format does not: a field's value
/// or a missing title, at the byte where it starts (docs/INTEROP.md, "Errors").
package struct JSONValueFault: Equatable {
    package let problem: ImportError.Problem
    package let offset: Int
}
