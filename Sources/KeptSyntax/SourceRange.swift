// A half-open range of UTF-8 byte offsets into a SourceFile; 1-based line:column exist only
// when a range is drawn.

import KeptRules

/// A half-open byte range `start..<end` in one source file.
public struct SourceRange: Hashable, Sendable {
    public var start: Int
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// An empty range at one offset, for "expected … here".
    public static func at(_ offset: Int) -> SourceRange {
        SourceRange(start: offset, end: offset)
    }

    public var length: Int { end - start }

    /// The smallest range that covers both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }
}
