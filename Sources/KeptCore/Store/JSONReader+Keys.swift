// Keys written twice in one object. RFC 8259 leaves them to the reader; a store's reader refuses
// them (with the line and column of the second), since keeping either value would drop the
// other on the next write, behind the user's back. Every object of a store is checked, whichever
// way it is read: built, read by reference, or skipped.

/// The keys of the objects a reader has open, innermost last.
struct KeyLog: Sendable {
    /// A key: a hash of its text and where its bytes are (`start < 0`: in `decoded`).
    struct Entry: Sendable {
        var hash: UInt64
        var start: Int
        var end: Int
    }

    var entries: [Entry] = []
    /// Where each open object's keys start in `entries`.
    var levels: [Int] = []
    /// The hashes of an object's keys once it has many (by its index in `levels`), so a
    /// hostile object of 100,000 keys is checked in linear time.
    var sets: [Int: Set<UInt64>] = [:]
    /// The text of keys written with escapes, decoded.
    var decoded: [[UInt8]] = []

    /// Past this many keys an object's hashes go into a set.
    static let scanLimit = 32

    mutating func open() {
        levels.append(entries.count)
    }

    mutating func close() {
        guard let start = levels.popLast() else { return }
        entries.removeSubrange(start...)
        sets[levels.count] = nil
        if levels.isEmpty { decoded.removeAll(keepingCapacity: true) }
    }

    static func hash(_ b: some Sequence<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for x in b { h = (h ^ UInt64(x)) &* 0x0000_0100_0000_01B3 }
        return h
    }
}

extension JSONReader {
    /// Notes a key of the innermost open object (its text between `start` and `end`, `escaped`
    /// when it holds a backslash escape); throws at `keyOffset` when the object has it already.
    mutating func noteKey(start: Int, end: Int, escaped: Bool, at keyOffset: Int) throws(JSONError) {
        guard uniqueKeys, let levelStart = keys.levels.last else { return }
        var entry: KeyLog.Entry
        if escaped {
            var text: [UInt8] = []
            appendText(JSONStringRef(start: start, end: end, escaped: true), to: &text)
            keys.decoded.append(text)
            entry = KeyLog.Entry(hash: KeyLog.hash(text), start: -keys.decoded.count, end: 0)
        } else {
            entry = KeyLog.Entry(hash: KeyLog.hash(bytes[start..<end]), start: start, end: end)
        }
        let level = keys.levels.count - 1
        let count = keys.entries.count - levelStart
        var maybe = true
        if count >= KeyLog.scanLimit {
            if keys.sets[level] == nil { keys.sets[level] = Set(keys.entries[levelStart...].map(\.hash)) }
            maybe = keys.sets[level]?.insert(entry.hash).inserted == false
        }
        if maybe {
            var k = levelStart
            while k < keys.entries.count {
                if keys.entries[k].hash == entry.hash, keyText(keys.entries[k]) == keyText(entry) {
                    let shown = String(decoding: keyText(entry).prefix(40), as: UTF8.self)
                    throw error("the key '\(shown)' appears twice in one object", at: keyOffset)
                }
                k += 1
            }
        }
        keys.entries.append(entry)
    }

    /// The bytes of a noted key.
    func keyText(_ e: KeyLog.Entry) -> ArraySlice<UInt8> {
        e.start < 0 ? keys.decoded[-e.start - 1][...] : bytes[e.start..<e.end]
    }
}
