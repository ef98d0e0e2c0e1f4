// Keys written twice in one object. RFC 8259 leaves them to the reader; a store's reader refuses
// them (with the line and column of the second), since keeping either value would drop the
// other on the next write, behind the user's back. Every object of a store is checked, whichever
// way it is read: built, read by reference, or skipped.

/// The keys of the objects a reader has open, innermost last.
package struct KeyLog: Sendable {
    /// A key. Up to 16 plain bytes it is its own bytes as two words (`exact`), compared in two
    /// instructions; a longer key or one with escapes has a hash there and is compared by text.
    package struct Entry: Sendable {
        package var w0: UInt64
        package var w1: UInt64
        /// The key's length in bytes (decoded).
        package var length: Int
        package var exact: Bool
        /// Where its bytes are (`start < 0`: in `decoded`).
        package var start: Int
        package var end: Int

        package var hash: UInt64 { w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(length) << 1 ^ (exact ? 1 : 0) }
    }

    /// The keys of the open objects in `entries[0..<top]`; slots past `top` are reused.
    package var entries: [Entry] = []
    package var top = 0
    /// Where each open object's keys start in `entries`.
    package var levels: [Int] = []
    /// The key hashes of an open object (by its place in `levels`) once it has many, so a
    /// hostile object of 100,000 keys is checked in linear time; empty for the usual few.
    package var sets: [Int: Set<UInt64>] = [:]
    /// The text of keys written with escapes, decoded.
    package var decoded: [[UInt8]] = []

    /// Past this many keys an object's hashes go into a set.
    package static let scanLimit = 32

    package mutating func open() {
        levels.append(top)
    }

    package mutating func close() {
        guard let start = levels.popLast() else { return }
        top = start
        if !sets.isEmpty { sets[levels.count] = nil }
        if levels.isEmpty, !decoded.isEmpty { decoded.removeAll(keepingCapacity: true) }
    }

    package static func fnv(_ b: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        var k = from
        while k < to {
            h = (h ^ UInt64(b[k])) &* 0x0000_0100_0000_01B3
            k += 1
        }
        return h
    }
}

extension KeyLog {
    /// Notes a plain key of at most 16 bytes in the innermost open object (the common case, kept
    /// to loads and compares on this one value); false when the object has it already.
    @inline(__always)
    package mutating func notePlain(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let (w0, w1) = ByteWords.words(b, start, end - start)
        return note(Entry(w0: w0, w1: w1, length: end - start, exact: true, start: start, end: end), b)
    }

    /// Notes a key; false when the innermost open object has it already.
    package mutating func note(_ entry: Entry, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let levelStart = levels.last else { return true }
        var maybe = true
        if top - levelStart >= KeyLog.scanLimit {
            let level = levels.count - 1
            if sets[level] == nil { sets[level] = Set(entries[levelStart..<top].map(\.hash)) }
            maybe = sets[level]?.insert(entry.hash).inserted == false
        }
        if maybe {
            let found = entries.withUnsafeBufferPointer { es -> Int? in
                var k = levelStart
                while k < top {
                    let e = es[k]
                    if e.w0 == entry.w0, e.w1 == entry.w1, e.length == entry.length, e.exact == entry.exact { return k }
                    k += 1
                }
                return nil
            }
            if let k = found, entry.exact || text(entries[k], b) == text(entry, b) { return false }
        }
        if top < entries.count { entries[top] = entry } else { entries.append(entry) }
        top += 1
        return true
    }

    /// The text of a noted key.
    package func text(_ e: Entry, _ b: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        if e.start < 0 { return decoded[-e.start - 1] }
        return Array(b[e.start..<e.end])
    }
}

extension JSONReader {
    /// Notes a key of the innermost open object (its text between `start` and `end`, `escaped`
    /// when it holds a backslash escape); throws at `keyOffset` when the object has it already.
    @inline(__always)
    package mutating func noteKey(start: Int, end: Int, escaped: Bool, at keyOffset: Int) throws(JSONError) {
        guard uniqueKeys else { return }
        let fresh: Bool
        if !escaped, end - start <= 16 {
            fresh = bytes.withUnsafeBufferPointer { keys.notePlain($0, start, end) }
        } else {
            fresh = noteOtherKey(start: start, end: end, escaped: escaped)
        }
        if !fresh {
            var text: [UInt8] = []
            appendText(JSONStringRef(start: start, end: end, escaped: escaped), to: &text)
            throw error("the key '\(String(decoding: text.prefix(40), as: UTF8.self))' appears twice in one object", at: keyOffset)
        }
    }

    /// A key longer than 16 bytes or written with escapes: compared by its decoded text.
    package mutating func noteOtherKey(start: Int, end: Int, escaped: Bool) -> Bool {
        var text: [UInt8] = []
        appendText(JSONStringRef(start: start, end: end, escaped: escaped), to: &text)
        return bytes.withUnsafeBufferPointer { b in
            let entry: KeyLog.Entry
            if text.count <= 16 {
                // Decoded, a short key is exact like a plain one.
                let (w0, w1) = text.withUnsafeBufferPointer { ByteWords.words($0, 0, $0.count) }
                entry = KeyLog.Entry(w0: w0, w1: w1, length: text.count, exact: true, start: start, end: end)
            } else {
                keys.decoded.append(text)
                let h = text.withUnsafeBufferPointer { KeyLog.fnv($0, 0, $0.count) }
                entry = KeyLog.Entry(w0: h, w1: 0, length: text.count, exact: false, start: -keys.decoded.count, end: 0)
            }
            return keys.note(entry, b)
        }
    }
}
