// Builds ISO and display strings byte by byte from integers, without Foundation formatting.
// Writes are bounds-checked against the buffer, so a wrong capacity truncates instead of trapping.

/// Writes ASCII bytes into a fixed buffer; writes past its end are dropped rather than trapping.
package struct ISOByteWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    package init(buffer: UnsafeMutableBufferPointer<UInt8>) {
        self.buffer = buffer
    }

    /// Appends one byte.
    package mutating func byte(_ value: UInt8) {
        guard count < buffer.count else { return }
        buffer[count] = value
        count += 1
    }

    /// Appends every byte of a static ASCII string.
    package mutating func text(_ value: StaticString) {
        value.withUTF8Buffer { bytes in
            for b in bytes { byte(b) }
        }
    }

    /// Appends `value` zero-padded to `width` digits (more digits if it needs them).
    package mutating func digits(_ value: Int, width: Int) {
        let magnitude = value.magnitude
        if value < 0 { byte(ISOBytes.dash) }
        // Find the leading power of ten, then emit most significant digit first.
        var divisor: UInt = 1
        var produced = 1
        while magnitude / divisor >= 10 {
            divisor *= 10
            produced += 1
        }
        var padding = width - produced
        while padding > 0 {
            byte(ISOBytes.zero)
            padding -= 1
        }
        var rest = magnitude
        while divisor > 0 {
            byte(ISOBytes.zero + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Appends a number in 0...99 as exactly two digits: the fast path for months, days, hours, minutes.
    package mutating func twoDigits(_ value: Int) {
        let v = value < 0 ? 0 : (value > 99 ? 99 : value)
        byte(ISOBytes.zero + UInt8(v / 10))
        byte(ISOBytes.zero + UInt8(v % 10))
    }

    /// Appends a number in 0...9999 as exactly four digits: years.
    package mutating func fourDigits(_ value: Int) {
        let v = value < 0 ? 0 : (value > 9999 ? 9999 : value)
        twoDigits(v / 100)
        twoDigits(v % 100)
    }

    /// Appends a non-negative number without padding: hours on a 12-hour clock, days in short dates.
    package mutating func number(_ value: Int) {
        if value >= 0 && value < 10 {
            byte(ISOBytes.zero + UInt8(value))
        } else if value >= 10 && value < 100 {
            twoDigits(value)
        } else {
            digits(value, width: 1)
        }
    }
}
