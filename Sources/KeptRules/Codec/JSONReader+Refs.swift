// Strings read without being built: a reference to the bytes between the quotes, checked as
// strictly as `readString()`. The store loader reads keys, names and dates this way, so a task
// costs no String unless its model is asked for.

/// The bytes of one JSON string in the input, without its quotes; `escaped` when they hold a
/// backslash escape and so differ from the text.
public struct JSONStringRef: Sendable {
    public var start: Int
    public var end: Int
    public var escaped: Bool

    @inlinable @inline(__always)
    package init(start: Int, end: Int, escaped: Bool) {
        self.start = start
        self.end = end
        self.escaped = escaped
    }

    public static let empty = JSONStringRef(start: 0, end: 0, escaped: false)

    public var count: Int { end - start }
}

extension JSONReader {
    /// Reads a string as a reference to its bytes.
    public mutating func readStringRef() throws(JSONError) -> JSONStringRef {
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try parseStringRef()
    }

    /// Reads a string as a reference, or `null` as nil.
    public mutating func readStringRefOrNull() throws(JSONError) -> JSONStringRef? {
        if isNull() { return nil }
        guard byte(at: position) == UInt8(ascii: "\"") else { throw mismatch("a string or null") }
        return try parseStringRef()
    }

    /// The next member's key as a reference, with its `:` consumed; nil once `}` is consumed.
    /// A caller that checks its known keys itself passes `noting: false` and notes the others
    /// (`noteKey`), so a record's usual keys cost a bit test, not a lookup (JSONReader+Keys).
    public mutating func nextKeyRef(noting: Bool = true) throws(JSONError) -> JSONStringRef? {
        guard try advanceToMember() else { return nil }
        // A key is nearly always plain ASCII followed at once by its colon: found by the word
        // scan, with no escape or UTF-8 checks to run and no white space to skip.
        let start = position + 1
        let end = plainRunEnd(from: start)
        if end + 1 < bytes.count, bytes[end] == 0x22, bytes[end + 1] == UInt8(ascii: ":") {
            if uniqueKeys, noting { try noteKey(start: start, end: end, escaped: false, at: start - 1) }
            position = end + 2
            return JSONStringRef(start: start, end: end, escaped: false)
        }
        let at = position
        let key = try parseStringRef()
        if uniqueKeys, noting { try noteKey(start: key.start, end: key.end, escaped: key.escaped, at: at) }
        try consumeColon()
        return key
    }

    /// The string whose opening quote is at the current position.
    mutating func parseStringRef() throws(JSONError) -> JSONStringRef {
        let start = position + 1
        var index = start
        var escaped = false
        while true {
            index = plainRunEnd(from: index)
            guard index < bytes.count else { throw error("unterminated string", at: index) }
            switch bytes[index] {
            case 0x22:
                position = index + 1
                return JSONStringRef(start: start, end: index, escaped: escaped)
            case 0x5C:
                escaped = true
                index = try decodeEscape(at: index).end
            case 0x80...:
                index = try utf8SequenceEndOrThrow(at: index)
            default:
                throw controlCharacterError(at: index)
            }
        }
    }

    /// The text of a reference.
    public func string(_ ref: JSONStringRef) -> String {
        guard ref.escaped else { return String(decoding: bytes[ref.start..<ref.end], as: UTF8.self) }
        var out: [UInt8] = []
        appendText(ref, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the text of a reference as UTF-8, escapes decoded.
    public func appendText(_ ref: JSONStringRef, to out: inout [UInt8]) {
        guard ref.escaped else {
            out.append(contentsOf: bytes[ref.start..<ref.end])
            return
        }
        var index = ref.start
        while index < ref.end {
            if bytes[index] == 0x5C, let escape = try? decodeEscape(at: index) {
                JSONReader.appendUTF8(escape.scalar, to: &out)
                index = escape.end
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
    }

    /// Calls `body` with the text of a reference as contiguous UTF-8.
    public func withText<R>(_ ref: JSONStringRef, _ body: (ArraySlice<UInt8>) -> R) -> R {
        guard ref.escaped else { return body(bytes[ref.start..<ref.end]) }
        var out: [UInt8] = []
        appendText(ref, to: &out)
        return body(out[...])
    }

    /// True when a reference's text is exactly `word` (ASCII).
    @inlinable
    public func text(_ ref: JSONStringRef, is word: StaticString) -> Bool {
        guard !ref.escaped else { return string(ref) == word.description }
        let count = word.utf8CodeUnitCount
        guard ref.count == count else { return false }
        let letters = word.utf8Start
        for k in 0..<count where bytes[ref.start + k] != letters[k] { return false }
        return true
    }
}
