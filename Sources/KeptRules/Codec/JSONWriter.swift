// Writing JSON values back out, compact or pretty, straight into UTF-8 bytes.
// Numbers are written from their kept text and members in their kept order, so an unchanged document is written back as it was read (modulo spacing).

/// Writes JSON values as text.
public struct JSONWriter: Sendable {
    /// One line, no spaces: `{"a":1,"b":[true,null]}`.
    public static func compact(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        append(value, to: &out, pretty: false, indent: 0, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// One member or element per line, indented by `indent` spaces a level; empty `{}` and `[]` stay on one line. No final line feed.
    public static func pretty(_ value: JSONValue, indent: Int = 2) -> String {
        var out: [UInt8] = []
        append(value, to: &out, pretty: true, indent: indent, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `value` to `out`. When pretty, inner lines are indented as for nesting `level`, and the value itself is assumed to be placed already.
    public static func append(_ value: JSONValue, to out: inout [UInt8], pretty: Bool, indent: Int, level: Int) {
        switch value {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .bool(let flag):
            out.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .number(let number):
            out.append(contentsOf: number.text.utf8)
        case .string(let string):
            appendString(string, to: &out)
        case .array(let elements):
            guard !elements.isEmpty else {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { appendLineBreak(to: &out, indent: indent, level: level + 1) }
                append(element, to: &out, pretty: pretty, indent: indent, level: level + 1)
            }
            if pretty { appendLineBreak(to: &out, indent: indent, level: level) }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            guard !object.members.isEmpty else {
                out.append(contentsOf: "{}".utf8)
                return
            }
            out.append(UInt8(ascii: "{"))
            for (position, member) in object.members.enumerated() {
                if position > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { appendLineBreak(to: &out, indent: indent, level: level + 1) }
                appendString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                append(member.value, to: &out, pretty: pretty, indent: indent, level: level + 1)
            }
            if pretty { appendLineBreak(to: &out, indent: indent, level: level) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `string` quoted and escaped: `\"`, `\\`, `\n`, `\r`, `\t`, `\b`, `\f`, other control characters as `\u00xx`;
    /// everything else, non-ASCII and `/` included, as plain UTF-8.
    public static func appendString(_ string: String, to out: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in
            // quotedBound is the most the string can take; were it short, twice the room.
            var room = ByteCursor.quotedBound(utf8.count)
            var done = false
            while !done {
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { room in
                    guard var c = ByteCursor(room) else { return }
                    c.quoted(utf8)
                    guard !c.overflowed else { return }
                    out.append(contentsOf: c.written)
                    done = true
                }
                room *= 2
            }
        }
    }

    /// A line feed and the indentation for `level`.
    private static func appendLineBreak(to out: inout [UInt8], indent: Int, level: Int) {
        out.append(0x0A)
        let spaces = max(indent, 0) * max(level, 0)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: spaces))
    }
}
