// Folding duplicate keys while an object's members are gathered, for the parser and `JSONObject.init(_:)`.
// Duplicates are rare, so the common case must cost almost nothing: a 64-bit filter of key hashes rules most keys out
// without comparing strings, and large objects switch to a dictionary so hostile input with many keys stays linear.

extension JSONObject {
    /// Remembers the keys of one object being gathered and finds a repeated one.
    package struct DuplicateFinder: Sendable {
        /// Above this many members a dictionary beats scanning.
        package static var scanLimit: Int { 32 }

        /// One bit per hash bucket of the keys seen; a clear bit proves a key is new.
        private var filter: UInt64 = 0
        /// Key positions, filled only once the object outgrows `scanLimit`.
        private var positions: [String: Int] = [:]
        /// How many distinct keys have been seen.
        private var count = 0

        /// The position in `members` of an earlier member named `key`; if there is none, the caller must append `key` next.
        package mutating func earlierPosition(of key: String, in members: [(key: String, value: JSONValue)]) -> Int? {
            if count >= DuplicateFinder.scanLimit {
                if positions.isEmpty {
                    for index in members.indices {
                        positions[members[index].key] = index
                    }
                }
                if let earlier = positions[key] { return earlier }
                positions[key] = members.count
                count += 1
                return nil
            }
            let bit: UInt64 = 1 << (DuplicateFinder.hash(key) >> 58)
            if filter & bit != 0 {
                for index in members.indices where members[index].key == key {
                    return index
                }
            }
            filter |= bit
            count += 1
            return nil
        }

        /// FNV-1a over the key's UTF-8, spread by a multiply so its top six bits pick a filter bit.
        private static func hash(_ key: String) -> UInt64 {
            var key = key
            return key.withUTF8 { utf8 in
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                for byte in utf8 {
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                return hash &* 0x9E37_79B9_7F4A_7C15
            }
        }
    }
}
