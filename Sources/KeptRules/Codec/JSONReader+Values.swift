// Reading whole values: the tree builder behind `JSONParser`, skipping, and the typed reads a record decoder uses.

extension JSONReader {
    /// Reads the next value, however deep, into a tree.
    public mutating func readValue() throws(JSONError) -> JSONValue {
        skipWhitespace()
        switch byte(at: position) {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "{"):
            return .object(try readObject())
        case UInt8(ascii: "["):
            return .array(try readArray())
        case UInt8(ascii: "t"):
            try consumeLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try consumeLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try consumeLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumberLiteral())
        default:
            throw unexpected("a value")
        }
    }

    /// Reads the object whose `{` is at the current position.
    private mutating func readObject() throws(JSONError) -> JSONObject {
        try openObject()
        let level = depth
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(capacityHint(level: level, forObject: true))
        var duplicates = JSONObject.DuplicateFinder()
        while let key = try nextKey() {
            let value = try readValue()
            if let earlier = duplicates.earlierPosition(of: key, in: members) {
                members[earlier].value = value
            } else {
                members.append((key, value))
            }
        }
        rememberSize(members.count, level: level, forObject: true)
        return JSONObject(uniqueMembers: members)
    }

    /// Reads the array whose `[` is at the current position.
    private mutating func readArray() throws(JSONError) -> [JSONValue] {
        try open()
        let level = depth
        var elements: [JSONValue] = []
        elements.reserveCapacity(capacityHint(level: level, forObject: false))
        while try nextElement() {
            let element = try readValue()
            elements.append(element)
        }
        rememberSize(elements.count, level: level, forObject: false)
        return elements
    }

    /// The capacity to reserve for a container at nesting `level`: the size of the last one closed there.
    ///
    /// Records in a store look alike, so this usually gives each container one exactly sized allocation instead of a
    /// chain of doublings; it is capped so one large sibling cannot make every later one waste memory.
    private func capacityHint(level: Int, forObject: Bool) -> Int {
        let slot = 2 * level + (forObject ? 1 : 0)
        return slot < sizeHints.count ? sizeHints[slot] : 0
    }

    /// Records a container's size as the hint for the next one at the same level.
    private mutating func rememberSize(_ size: Int, level: Int, forObject: Bool) {
        let slot = 2 * level + (forObject ? 1 : 0)
        while sizeHints.count <= slot {
            sizeHints.append(0)
        }
        sizeHints[slot] = min(size, 64)
    }

    /// Moves past the next value, checking it as strictly as `readValue()` but building nothing.
    public mutating func skipValue() throws(JSONError) {
        skipWhitespace()
        switch byte(at: position) {
        case UInt8(ascii: "\""):
            try skipString()
        case UInt8(ascii: "{"):
            try openObject()
            while try advanceToMember() {
                let at = position
                let key = try parseStringRef()
                if uniqueKeys { try noteKey(start: key.start, end: key.end, escaped: key.escaped, at: at) }
                try consumeColon()
                try skipValue()
            }
        case UInt8(ascii: "["):
            try open()
            while try nextElement() {
                try skipValue()
            }
        case UInt8(ascii: "t"):
            try consumeLiteral("true")
        case UInt8(ascii: "f"):
            try consumeLiteral("false")
        case UInt8(ascii: "n"):
            try consumeLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            _ = try scanNumber()
        default:
            throw unexpected("a value")
        }
    }

    /// Reads a string.
    public mutating func readString() throws(JSONError) -> String {
        skipWhitespace()
        guard byte(at: position) == UInt8(ascii: "\"") else { throw mismatch("a string") }
        return try parseString()
    }

    /// Reads a string, or `null` as nil.
    public mutating func readStringOrNull() throws(JSONError) -> String? {
        if isNull() { return nil }
        guard byte(at: position) == UInt8(ascii: "\"") else { throw mismatch("a string or null") }
        return try parseString()
    }

    /// Reads an integer literal (no fraction, no exponent) that fits in an Int.
    public mutating func readInt() throws(JSONError) -> Int {
        skipWhitespace()
        let start = position
        let first = byte(at: start)
        guard first == UInt8(ascii: "-") || JSONReader.isDigit(first) else { throw mismatch("an integer") }
        let isInteger = try scanNumber()
        guard isInteger else {
            throw error("expected an integer, found \(literalForMessage(from: start))", at: start)
        }
        guard let value = integerValue(from: start, to: position) else {
            throw error("integer \(literalForMessage(from: start)) is out of range", at: start)
        }
        return value
    }

    /// Reads an integer, or `null` as nil.
    public mutating func readIntOrNull() throws(JSONError) -> Int? {
        if isNull() { return nil }
        let first = byte(at: position)
        guard first == UInt8(ascii: "-") || JSONReader.isDigit(first) else { throw mismatch("an integer or null") }
        return try readInt()
    }

    /// Reads any number, keeping its text.
    public mutating func readNumber() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        let first = byte(at: position)
        guard first == UInt8(ascii: "-") || JSONReader.isDigit(first) else { throw mismatch("a number") }
        return try readNumberLiteral()
    }

    /// Reads `true` or `false`.
    public mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        if matchesLiteral("true", at: position) {
            position += 4
            return true
        }
        if matchesLiteral("false", at: position) {
            position += 5
            return false
        }
        throw mismatch("true or false")
    }

    /// True, with the `null` consumed, if the next value is `null`; otherwise nothing but whitespace is consumed.
    public mutating func isNull() -> Bool {
        skipWhitespace()
        guard matchesLiteral("null", at: position) else { return false }
        position += 4
        return true
    }

    // MARK: - Literals

    /// Consumes `word` at the current position.
    package mutating func consumeLiteral(_ word: StaticString) throws(JSONError) {
        guard matchesLiteral(word, at: position) else { throw error("invalid literal, expected '\(word)'") }
        position += word.utf8CodeUnitCount
    }

    /// Whether the bytes at `index` spell `word`.
    package func matchesLiteral(_ word: StaticString, at index: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let letters = word.utf8Start
        for offset in 0..<count where bytes[index + offset] != letters[offset] {
            return false
        }
        return true
    }
}
