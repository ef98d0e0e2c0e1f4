// Byte constants shared by the ISO parsers and printers of KeptCore/Time.
// Internal, and prefixed ISO so it cannot clash with the lexer's own byte tables.

/// Byte constants and a string builder for the time types.
package enum ISOBytes {
    package static let zero: UInt8 = 0x30
    package static let dash: UInt8 = 0x2D
    package static let plus: UInt8 = 0x2B
    package static let colon: UInt8 = 0x3A
    package static let dot: UInt8 = 0x2E
    package static let space: UInt8 = 0x20
    package static let upperT: UInt8 = 0x54
    package static let lowerT: UInt8 = 0x74
    package static let upperZ: UInt8 = 0x5A
    package static let lowerZ: UInt8 = 0x7A

    /// The value of a decimal digit byte, or nil.
    @inline(__always)
    package static func digit(_ byte: UInt8) -> Int? {
        let value = Int(byte) &- 0x30
        return value >= 0 && value <= 9 ? value : nil
    }

    /// Builds a string of at most `capacity` ASCII bytes without an intermediate array.
    package static func string(capacity: Int, _ body: (inout ISOByteWriter) -> Void) -> String {
        // A stack buffer, then one copy; strings this short are stored inline, so nothing hits the heap.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = ISOByteWriter(buffer: buffer)
            body(&writer)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<writer.count]), as: UTF8.self)
        }
    }
}
