// A JSON number kept as the text it was written with, so a store saved again reads the same byte for byte.
// Conversions to Int and Double happen on demand; equality is by text, so `1.0` and `1` are different values.

/// A JSON number, kept as its literal text.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The literal as written, e.g. `1.50` or `-3e2`.
    public let text: String

    /// The number for an integer.
    public init(_ value: Int) {
        text = String(value)
    }

    /// The number for a finite Double, in Swift's shortest round-tripping form; nil for infinities and NaN, which JSON cannot write.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        text = "\(value)"
    }

    /// The number with the given literal text; nil unless the text is exactly one JSON number (no spaces, no leading zeros, no `+`).
    public init?(text: String) {
        guard JSONNumber.isLiteral(text) else { return nil }
        self.text = text
    }

    /// A number whose text the reader has already checked.
    package init(validatedText: String) {
        text = validatedText
    }

    /// The value as an Int when the literal is an integer (no fraction, no exponent) that fits; `1.0` and `1e2` give nil.
    public var int: Int? {
        Int(text)
    }

    /// The value as a Double, rounded to the nearest; nil when it is too large to be finite.
    public var double: Double? {
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// The literal text.
    public var description: String {
        text
    }

    /// Whether `text` is exactly one number by RFC 8259's grammar, checked by the same scanner the parser uses.
    package static func isLiteral(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "-") || (first &- 0x30) < 10 else { return false }
        var reader = JSONReader(bytes: bytes, from: 0)
        guard (try? reader.scanNumber()) != nil else { return false }
        return reader.position == bytes.count
    }
}

extension JSONNumber: ExpressibleByIntegerLiteral {
    /// The number for an integer literal.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}
