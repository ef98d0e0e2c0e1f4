// Printing a JSON value as compact JSON, so logs and test failures show the data as it would be written.

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON.
    public var description: String {
        JSONWriter.compact(self)
    }
}
