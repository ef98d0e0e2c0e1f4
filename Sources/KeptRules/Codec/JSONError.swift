// Why a JSON document could not be read, and exactly where: byte offset for programs, line and column for people.

/// A JSON syntax error, or a value of the wrong kind met by `JSONReader`.
public struct JSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong: one line, lowercase, no final period, e.g. "expected ':' after an object key, found '1'".
    public let message: String
    /// Where, as a UTF-8 byte offset from the start of the input.
    public let offset: Int
    /// The 1-based line; lines end at line feeds.
    public let line: Int
    /// The 1-based column, counted in Unicode scalars from the start of the line, so a caret can be drawn under the right character.
    public let column: Int

    /// An error with a message and a position.
    public init(message: String, offset: Int, line: Int, column: Int) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// "line 3, column 14: message".
    public var description: String {
        "line \(line), column \(column): \(message)"
    }
}
