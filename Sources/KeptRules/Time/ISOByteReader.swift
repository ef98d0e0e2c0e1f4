// Reads the ASCII fields of ISO dates and times from UTF-8 bytes.
// Parsing works on bytes, never on Characters, so it stays on plain integers.

/// A cursor over UTF-8 bytes that reads the fixed-width digit fields of ISO 8601 text.
package struct ISOByteReader<Bytes: Collection<UInt8>> {
    package let bytes: Bytes
    private(set) var index: Bytes.Index

    package init(_ bytes: Bytes) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// True when every byte has been read.
    package var isAtEnd: Bool { index == bytes.endIndex }

    /// The next byte, without reading it.
    package var peek: UInt8? { index == bytes.endIndex ? nil : bytes[index] }

    /// Reads `byte` if it comes next; otherwise reads nothing.
    package mutating func skip(_ byte: UInt8) -> Bool {
        guard index != bytes.endIndex, bytes[index] == byte else { return false }
        bytes.formIndex(after: &index)
        return true
    }

    /// Reads exactly `count` decimal digits; nil (and the cursor may have moved) if they are not there.
    package mutating func digits(exactly count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let byte = peek, let digit = ISOBytes.digit(byte) else { return nil }
            value = value * 10 + digit
            bytes.formIndex(after: &index)
        }
        return value
    }

    /// Reads between `minCount` and `maxCount` decimal digits, as many as there are.
    package mutating func digits(minCount: Int, maxCount: Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while count < maxCount, let byte = peek, let digit = ISOBytes.digit(byte) {
            value = value * 10 + digit
            count += 1
            bytes.formIndex(after: &index)
        }
        return count >= minCount ? (value, count) : nil
    }
}
