// An ordered JSON object: members stay in document order, so a field written by hand or by a newer planner is saved back where it was.

/// A JSON object whose members keep their order.
///
/// Keys are unique in objects made by the parser, by `init(_:)` and through the subscript. A duplicate key keeps
/// the last value (what a reader that builds a dictionary would see) but the first position (so the member does not
/// move). Assigning `members` directly is not checked. Lookup is a linear scan: the store's objects are small, and
/// keeping the order is the point. Equality is member by member, in order.
public struct JSONObject: Sendable, Equatable {
    /// The members, in order.
    public var members: [(key: String, value: JSONValue)]

    /// An empty object.
    public init() {
        members = []
    }

    /// An object with these members in this order; for a repeated key the last value wins, at the first position.
    public init(_ members: [(String, JSONValue)]) {
        var unique: [(key: String, value: JSONValue)] = []
        unique.reserveCapacity(members.count)
        var duplicates = DuplicateFinder()
        for (key, value) in members {
            if let earlier = duplicates.earlierPosition(of: key, in: unique) {
                unique[earlier].value = value
            } else {
                unique.append((key, value))
            }
        }
        self.members = unique
    }

    /// An object from members already known to have unique keys.
    package init(uniqueMembers: [(key: String, value: JSONValue)]) {
        members = uniqueMembers
    }

    /// The number of members.
    public var count: Int {
        members.count
    }

    /// True if there are no members.
    public var isEmpty: Bool {
        members.isEmpty
    }

    /// The keys, in order.
    public var keys: [String] {
        members.map(\.key)
    }

    /// The position of the member named `key`.
    public func index(forKey key: String) -> Int? {
        members.firstIndex { $0.key == key }
    }

    /// The value for `key`; setting a missing key appends it, setting nil removes the member.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key {
                return member.value
            }
            return nil
        }
        set {
            if let index = index(forKey: key) {
                if let newValue {
                    members[index].value = newValue
                } else {
                    members.remove(at: index)
                }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// Same members with equal values, in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        for (left, right) in zip(lhs.members, rhs.members) where left.key != right.key || left.value != right.value {
            return false
        }
        return true
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object from a dictionary literal, members in the order written.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }
}
