// A pull-style cursor over JSON bytes: the parser builds whole trees with it, and the store decoder walks records
// with it, reading known fields straight into its own types. Line and column are worked out only when an error is made.

/// A cursor that reads a JSON document, or parts of one, from UTF-8 bytes (RFC 8259, strict).
///
/// Containers are walked with `beginObject()`/`nextKey()` and `beginArray()`/`nextElement()`: after `nextKey()`
/// returns a key, or `nextElement()` returns true, read or skip exactly one value before the next call.
/// A UTF-8 byte order mark at the very start is skipped, as RFC 8259 allows; offsets still count it.
public struct JSONReader: Sendable {
    /// The deepest nesting of arrays and objects accepted, so hostile input cannot exhaust the stack.
    public static var maxDepth: Int { Limits.jsonDepth }

    /// What kind of value comes next, as told by its first byte.
    public enum Kind: Sendable, Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    @usableFromInline package let bytes: [UInt8]
    /// The next byte to read.
    package var position: Int
    /// Where line 1 starts: after a byte order mark, so columns match what an editor shows.
    package let textStart: Int
    /// How many arrays and objects are open.
    package var depth = 0
    /// Set just after `{` or `[` is consumed, so the next `nextKey()`/`nextElement()` knows no comma comes first.
    var justOpened = false
    /// Reused for strings with escapes, so decoding them does not allocate each time.
    package var scratch: [UInt8] = []
    /// Size of the last array and object closed at each nesting level, to reserve capacity for the next (see `capacityHint`).
    var sizeHints: [Int] = []
    /// Whether a key written twice in one object is an error (JSONReader+Keys): on for every
    /// reader of a store (StoreCodec turns it on, and a task record is always read with it);
    /// off for any other JSON, where the last value wins, as RFC 8259 allows.
    public var uniqueKeys = false
    /// The keys of the open objects, when `uniqueKeys` is on.
    var keys = KeyLog()

    /// A reader positioned at the start of `bytes`.
    public init(bytes: [UInt8]) {
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        self.init(bytes: bytes, from: hasByteOrderMark ? 3 : 0)
    }

    /// A reader starting at `start`, with no byte order mark check; lines are counted from
    /// `textStart` (by default `start`) when an error is described.
    package init(bytes: [UInt8], from start: Int, textStart: Int? = nil) {
        self.bytes = bytes
        position = start
        self.textStart = textStart ?? start
    }

    /// The byte offset of the next unread byte (which may be whitespace).
    public var offset: Int {
        position
    }

    /// The byte at `index`, or 0 past the end: 0 is never what a caller looks for, and end of input is told apart by position when an error is described.
    @inline(__always)
    package func byte(at index: Int) -> UInt8 {
        index < bytes.count ? bytes[index] : 0
    }

    /// Moves past spaces, tabs, carriage returns and line feeds.
    @inline(__always)
    public mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09:
                position += 1
            default:
                return
            }
        }
    }

    /// The kind of the next value, skipping whitespace; nil at the end of input or at a byte that cannot start a value.
    public mutating func peekKind() -> Kind? {
        skipWhitespace()
        switch byte(at: position) {
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: return nil
        }
    }

    // MARK: - Containers

    /// Consumes the `{` that starts an object.
    public mutating func beginObject() throws(JSONError) {
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "{") else { throw mismatch("an object") }
        try openObject()
    }

    /// Consumes the `{` at the current position and starts its list of keys.
    mutating func openObject() throws(JSONError) {
        try open()
        if uniqueKeys { keys.open() }
    }

    /// The next member's key, with its `:` consumed; nil once the closing `}` is consumed. Commas are handled here.
    public mutating func nextKey() throws(JSONError) -> String? {
        guard try advanceToMember() else { return nil }
        let at = position
        let ref = try parseStringRef()
        if uniqueKeys { try noteKey(start: ref.start, end: ref.end, escaped: ref.escaped, at: at) }
        try consumeColon()
        return string(ref)
    }

    /// Consumes the `[` that starts an array.
    public mutating func beginArray() throws(JSONError) {
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "[") else { throw mismatch("an array") }
        try open()
    }

    /// True if another element follows (read it next); false once the closing `]` is consumed. Commas are handled here.
    public mutating func nextElement() throws(JSONError) -> Bool {
        skipWhitespace()
        let next = byte(at: position)
        if justOpened {
            justOpened = false
            if next == UInt8(ascii: "]") {
                close()
                return false
            }
            return true
        }
        if next == UInt8(ascii: ",") {
            let comma = position
            position += 1
            skipWhitespace()
            if byte(at: position) == UInt8(ascii: "]") {
                throw error("trailing comma before ']'", at: comma)
            }
            return true
        }
        if next == UInt8(ascii: "]") {
            close()
            return false
        }
        throw unexpected("',' or ']' after an array element")
    }

    /// Checks that only whitespace is left.
    public mutating func finish() throws(JSONError) {
        skipWhitespace()
        guard position == bytes.count else { throw error("extra text after the value") }
    }

    /// Consumes an opening bracket at the current position, refusing to nest deeper than `maxDepth`.
    package mutating func open() throws(JSONError) {
        guard depth < JSONReader.maxDepth else {
            throw error("nesting deeper than \(JSONReader.maxDepth) levels")
        }
        depth += 1
        position += 1
        justOpened = true
    }

    /// Consumes a closing bracket at the current position.
    package mutating func close() {
        depth = max(depth - 1, 0)
        position += 1
        justOpened = false
    }

    /// Moves to the opening quote of the next member's key and returns true, or consumes `}` and returns false.
    mutating func advanceToMember() throws(JSONError) -> Bool {
        skipWhitespace()
        let next = byte(at: position)
        if justOpened {
            justOpened = false
            if next == UInt8(ascii: "}") {
                close()
                if uniqueKeys { keys.close() }
                return false
            }
            guard next == UInt8(ascii: "\"") else { throw unexpected("a string key or '}'") }
            return true
        }
        if next == UInt8(ascii: ",") {
            let comma = position
            position += 1
            skipWhitespace()
            switch byte(at: position) {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "}"):
                throw error("trailing comma before '}'", at: comma)
            default:
                throw unexpected("a string key after ','")
            }
        }
        if next == UInt8(ascii: "}") {
            close()
            if uniqueKeys { keys.close() }
            return false
        }
        throw unexpected("',' or '}' after an object member")
    }

    /// Consumes the `:` between a key and its value.
    mutating func consumeColon() throws(JSONError) {
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: ":") else { throw unexpected("':' after an object key") }
        position += 1
    }

    // MARK: - Errors

    /// An error at the current position.
    public func error(_ message: String) -> JSONError {
        error(message, at: position)
    }

    /// An error at a byte offset, e.g. one saved from `offset` before reading a value that then proved unacceptable.
    public func error(_ message: String, at offset: Int) -> JSONError {
        let offset = min(max(offset, 0), bytes.count)
        var line = 1
        var lineStart = min(textStart, offset)
        var index = lineStart
        while index < offset {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        // Continuation bytes (10xxxxxx) do not start a scalar, so skipping them counts scalars.
        var column = 1
        for index in lineStart..<offset where bytes[index] & 0xC0 != 0x80 {
            column += 1
        }
        return JSONError(message: message, offset: offset, line: line, column: column)
    }

    /// "expected X, found Y", with Y the byte or character at the current position.
    package func unexpected(_ expected: String) -> JSONError {
        error("expected \(expected), found \(describeByte(at: position))")
    }

    /// "expected X, found Y", with Y the kind of value at the current position, for the typed reads.
    func mismatch(_ expected: String) -> JSONError {
        error("expected \(expected), found \(describeValue(at: position))")
    }

    /// The character at `index` as an error message shows it.
    func describeByte(at index: Int) -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        switch byte {
        case 0x20...0x7E:
            return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x00..<0x20, 0x7F:
            return "control character \(JSONReader.hex(byte))"
        default:
            if let end = utf8SequenceEnd(at: index) {
                return "'\(String(decoding: bytes[index..<end], as: UTF8.self))'"
            }
            return "byte \(JSONReader.hex(byte))"
        }
    }

    /// The kind of value starting at `index`, as an error message names it.
    func describeValue(at index: Int) -> String {
        switch byte(at: index) {
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        case UInt8(ascii: "t") where matchesLiteral("true", at: index): return "true"
        case UInt8(ascii: "f") where matchesLiteral("false", at: index): return "false"
        case UInt8(ascii: "n") where matchesLiteral("null", at: index): return "null"
        default: return describeByte(at: index)
        }
    }

    /// A byte as two lowercase hex digits, e.g. `0x0a`.
    package static func hex(_ byte: UInt8) -> String {
        (byte < 0x10 ? "0x0" : "0x") + String(byte, radix: 16)
    }
}
