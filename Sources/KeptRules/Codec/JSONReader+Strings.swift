// Strings: the scan for the closing quote, escapes including surrogate pairs, and UTF-8 checking.
// A string without escapes becomes a String straight from its byte slice, checked once by our own scan so errors have exact positions.

extension JSONReader {
    /// Reads the string whose opening quote is at the current position: scanned and checked as
    /// a reference (JSONReader+Refs), then built.
    package mutating func parseString() throws(JSONError) -> String {
        let ref = try parseStringRef()
        // Built from the bytes in place: calling `string(_:)` here would copy the reader.
        guard ref.escaped else {
            return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[ref.start..<ref.end]), as: UTF8.self) }
        }
        return string(ref)
    }

    /// Moves past the string whose opening quote is at the current position, checking it but building nothing.
    package mutating func skipString() throws(JSONError) {
        _ = try parseStringRef()
    }

    /// The first index at or after `index` holding a quote, a backslash, a control character or a non-ASCII byte; `bytes.count` if none.
    @inline(__always)
    package func plainRunEnd(from index: Int) -> Int {
        bytes.withUnsafeBufferPointer { JSONReader.plainRunEnd($0, from: index) }
    }

    /// `plainRunEnd(from:)` over a buffer: the record fast path (StoreCodec+FastRecord) scans with it too.
    @inlinable @inline(__always)
    package static func plainRunEnd(_ buffer: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        // Eight bytes at a time while none of them is special (the classic SWAR tests: a byte
        // below 0x20, a high bit, or a byte equal to '"' or '\\').
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            while index >= 0, index + 8 <= buffer.count {
                let w = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let below = (w &- ones &* 0x20) & ~w
                let q = w ^ (ones &* 0x22)
                let bs = w ^ (ones &* 0x5C)
                let special = (below | w | ((q &- ones) & ~q) | ((bs &- ones) & ~bs)) & highs
                // The lowest flagged byte is always a special one (a borrow only runs
                // upwards, past it), so it is where the run ends.
                if special != 0 { return index + special.trailingZeroBitCount >> 3 }
                index += 8
            }
        }
        while index >= 0, index < buffer.count {
            let byte = buffer[index]
            // One unsigned compare catches both < 0x20 and >= 0x80.
            if byte &- 0x20 >= 0x60 || byte == 0x22 || byte == 0x5C { break }
            index += 1
        }
        return index
    }

    /// Decodes the escape whose backslash is at `index`: the scalar it stands for and the index after it.
    package func decodeEscape(at index: Int) throws(JSONError) -> (scalar: UInt32, end: Int) {
        guard index + 1 < bytes.count else { throw error("unterminated string", at: index + 1) }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""): return (0x22, index + 2)
        case UInt8(ascii: "\\"): return (0x5C, index + 2)
        case UInt8(ascii: "/"): return (0x2F, index + 2)
        case UInt8(ascii: "b"): return (0x08, index + 2)
        case UInt8(ascii: "f"): return (0x0C, index + 2)
        case UInt8(ascii: "n"): return (0x0A, index + 2)
        case UInt8(ascii: "r"): return (0x0D, index + 2)
        case UInt8(ascii: "t"): return (0x09, index + 2)
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: index + 2) else {
                throw error("invalid \\u escape, expected four hex digits", at: index)
            }
            switch unit {
            case 0xD800..<0xDC00:
                // A high surrogate counts only with a low one escaped right after it.
                if byte(at: index + 6) == UInt8(ascii: "\\"), byte(at: index + 7) == UInt8(ascii: "u"),
                   let low = hex4(at: index + 8), (0xDC00..<0xE000).contains(low) {
                    return (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), index + 12)
                }
                throw unpairedSurrogate(unit, at: index)
            case 0xDC00..<0xE000:
                throw unpairedSurrogate(unit, at: index)
            default:
                return (unit, index + 6)
            }
        case let letter where letter > 0x20 && letter < 0x7F:
            throw error("invalid escape '\\\(Character(Unicode.Scalar(letter)))'", at: index)
        default:
            throw error("invalid escape sequence", at: index)
        }
    }

    /// The value of four hex digits at `index`.
    private func hex4(at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = bytes[index + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func unpairedSurrogate(_ unit: UInt32, at index: Int) -> JSONError {
        let digits = String(unit, radix: 16)
        return error("unpaired surrogate \\u\(digits) in a string", at: index)
    }

    /// The error for a raw control character inside a string; a line break usually means a missing closing quote.
    package func controlCharacterError(at index: Int) -> JSONError {
        let byte = bytes[index]
        if byte == 0x0A || byte == 0x0D {
            return error("unescaped line break in a string", at: index)
        }
        return error("unescaped control character \(JSONReader.hex(byte)) in a string", at: index)
    }

    /// The index after the well-formed UTF-8 sequence starting at `index`, or nil (overlong forms, surrogates and values past U+10FFFF are not well formed).
    package func utf8SequenceEnd(at index: Int) -> Int? {
        bytes.withUnsafeBufferPointer { JSONReader.utf8SequenceEnd($0, at: index) }
    }

    /// `utf8SequenceEnd(at:)` over a buffer.
    package static func utf8SequenceEnd(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        guard index >= 0, index < bytes.count else { return nil }
        let lead = bytes[index]
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        let trailing: Int
        switch lead {
        case 0xC2...0xDF: trailing = 1
        case 0xE0: trailing = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED: trailing = 2; high = 0x9F
        case 0xF0: trailing = 3; low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4: trailing = 3; high = 0x8F
        default: return nil
        }
        guard index + trailing < bytes.count else { return nil }
        let second = bytes[index + 1]
        guard second >= low && second <= high else { return nil }
        var next = index + 2
        while next <= index + trailing {
            guard bytes[next] & 0xC0 == 0x80 else { return nil }
            next += 1
        }
        return next
    }

    /// Like `utf8SequenceEnd(at:)`, but throwing an error at the sequence's first byte.
    package func utf8SequenceEndOrThrow(at index: Int) throws(JSONError) -> Int {
        if let end = utf8SequenceEnd(at: index) { return end }
        let lead = bytes[index]
        if (0xC2...0xF4).contains(lead) {
            throw error("invalid utf-8 sequence starting with byte \(JSONReader.hex(lead))", at: index)
        }
        throw error("invalid utf-8 byte \(JSONReader.hex(lead))", at: index)
    }

    /// Appends the UTF-8 form of a scalar (never a surrogate: `decodeEscape` refuses those).
    package static func appendUTF8(_ scalar: UInt32, to out: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            out.append(UInt8(truncatingIfNeeded: scalar))
        case 0x80..<0x800:
            out.append(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        default:
            out.append(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
            out.append(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
        }
    }
}
