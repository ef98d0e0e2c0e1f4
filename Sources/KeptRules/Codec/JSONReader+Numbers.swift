// Numbers: RFC 8259's grammar (no leading zeros, no '+', digits on both sides of the point) and exact integer reads.

extension JSONReader {
    /// Moves past the number starting at the current position ('-' or a digit); true if it is an integer literal, with no fraction or exponent.
    package mutating func scanNumber() throws(JSONError) -> Bool {
        var index = position
        if byte(at: index) == UInt8(ascii: "-") {
            index += 1
        }
        let first = byte(at: index)
        guard JSONReader.isDigit(first) else { throw error("expected a digit after '-'", at: index) }
        index += 1
        if first == UInt8(ascii: "0") {
            if JSONReader.isDigit(byte(at: index)) {
                throw error("leading zeros are not allowed in numbers", at: index - 1)
            }
        } else {
            while JSONReader.isDigit(byte(at: index)) { index += 1 }
        }
        var isInteger = true
        if byte(at: index) == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard JSONReader.isDigit(byte(at: index)) else {
                throw error("expected a digit after the decimal point", at: index)
            }
            while JSONReader.isDigit(byte(at: index)) { index += 1 }
        }
        if (byte(at: index) | 0x20) == UInt8(ascii: "e") {  // e or E
            isInteger = false
            index += 1
            if byte(at: index) == UInt8(ascii: "+") || byte(at: index) == UInt8(ascii: "-") {
                index += 1
            }
            guard JSONReader.isDigit(byte(at: index)) else {
                throw error("expected a digit in the exponent", at: index)
            }
            while JSONReader.isDigit(byte(at: index)) { index += 1 }
        }
        position = index
        return isInteger
    }

    /// Reads the number starting at the current position, keeping its text.
    package mutating func readNumberLiteral() throws(JSONError) -> JSONNumber {
        let start = position
        _ = try scanNumber()
        return JSONNumber(validatedText: String(decoding: bytes[start..<position], as: UTF8.self))
    }

    /// The value of the integer literal in `start..<end`, or nil if it does not fit in an Int.
    package func integerValue(from start: Int, to end: Int) -> Int? {
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative {
            index += 1
        }
        // Negative numbers are built downwards so Int.min fits.
        var value = 0
        while index < end {
            let digit = Int(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdd) = negative
                ? shifted.subtractingReportingOverflow(digit)
                : shifted.addingReportingOverflow(digit)
            if overflowShift || overflowAdd { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// A number's text for an error message, cut short if it is very long.
    package func literalForMessage(from start: Int) -> String {
        let end = min(position, start + 40)
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return end < position ? text + "..." : text
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    package static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
