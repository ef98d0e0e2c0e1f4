// Whole-document parsing: reading a JSON file into a `JSONValue` tree, built on `JSONReader`.

/// Parses complete JSON documents, strictly by RFC 8259.
public enum JSONParser: Sendable {
    /// Parses `bytes` (UTF-8) as one JSON document; only whitespace may follow the value.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        let value = try reader.readValue()
        try reader.finish()
        return value
    }

    /// Parses `text` as one JSON document; only whitespace may follow the value.
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}
