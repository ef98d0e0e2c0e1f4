// The language server's wire (LSP 3.17, "Base Protocol"): each message is a header part
// (`Content-Length: N` in bytes, an optional `Content-Type`, each line ended by CRLF, then an
// empty line) and N bytes of JSON. The reader takes bytes as they come and hands out whole
// messages; what is not a message (a header without a length, a length past the limit, a body
// that is not JSON) is dropped with a reason the server logs, and the reader finds the next
// header, so no input makes it crash or wait for ever.

import Foundation

/// What the reader found in the bytes so far.
enum LSPFrame: Equatable {
    /// One message's body, as the bytes of a JSON text.
    case message([UInt8])
    /// Bytes that were dropped, and why (the server logs it; a body it could not read is
    /// answered with a parse error).
    case dropped(String, answer: Bool)
}

/// Splits a byte stream into messages. Pure: feed it bytes, take frames.
struct LSPMessageReader {
    /// The longest header part read (real clients send about 60 bytes).
    static let maxHeaderBytes = 8 * 1024
    /// The largest body read; a longer one is skipped unread (the whole of a 5,000-line script
    /// is about 200 KB).
    static let defaultMaxBody = 64 * 1024 * 1024

    let maxBody: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// The body being read: its length, once its header was read.
    private var bodyLength: Int? = nil
    /// Bytes of an over-long body still to skip.
    private var skipping = 0

    init(maxBody: Int = LSPMessageReader.defaultMaxBody) { self.maxBody = maxBody }

    /// True while part of a message is buffered (a header or body not yet complete).
    var isPartial: Bool { bodyLength != nil || skipping > 0 || start < buffer.count }

    mutating func feed(_ bytes: [UInt8]) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        var bytes = bytes[...]
        if skipping > 0 {
            let n = min(skipping, bytes.count)
            skipping -= n
            bytes = bytes.dropFirst(n)
        }
        buffer.append(contentsOf: bytes)
    }

    /// What is buffered and not a whole message, dropped (the stream ended or stalled).
    mutating func flushPartial() -> LSPFrame? {
        guard isPartial else { return nil }
        let n = buffer.count - start + skipping
        buffer.removeAll()
        start = 0
        skipping = 0
        let wasBody = bodyLength != nil
        bodyLength = nil
        return .dropped("dropped \(n) bytes of an unfinished message\(wasBody ? " (its body is shorter than its Content-Length)" : "")",
                        answer: wasBody)
    }

    /// The next frame, or nil when more bytes are needed.
    mutating func next() -> LSPFrame? {
        if start > 4096, start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        if let n = bodyLength {
            guard buffer.count - start >= n else { return nil }
            let body = Array(buffer[start..<(start + n)])
            start += n
            bodyLength = nil
            return .message(body)
        }
        // The header part ends at the first CRLF CRLF (a bare LF LF is taken too).
        guard let (end, next) = headerEnd() else {
            if buffer.count - start > LSPMessageReader.maxHeaderBytes {
                return resync("a header part longer than \(LSPMessageReader.maxHeaderBytes) bytes")
            }
            return nil
        }
        let header = String(decoding: buffer[start..<end], as: UTF8.self)
        var length: Int? = nil
        // By scalars: "\r\n" is one Character.
        for line in header.unicodeScalars.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).map({ String(String.UnicodeScalarView($0)) }) {
            guard let colon = line.firstIndex(of: ":") else {
                return resync("a header line without ':' (\(Self.shown(String(line))))")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let n = Int(value), n >= 0 else { return resync("a Content-Length that is not a number (\(Self.shown(value)))") }
                length = n
            }
        }
        guard let n = length else { return resync("a header part without Content-Length") }
        start = next
        if n > maxBody {
            // Skipped unread, as it comes.
            let have = min(n, buffer.count - start)
            start += have
            skipping = n - have
            return .dropped("a message of \(n) bytes is over the limit of \(maxBody) bytes: skipped", answer: true)
        }
        bodyLength = n
        return self.next() ?? nil
    }

    /// Where the header part ends, and where its body starts.
    private func headerEnd() -> (Int, Int)? {
        var i = start
        while i < buffer.count {
            if buffer[i] == 0x0A {
                if i + 1 < buffer.count, buffer[i + 1] == 0x0A { return (i, i + 2) }
                if i + 2 < buffer.count, buffer[i + 1] == 0x0D, buffer[i + 2] == 0x0A { return (i, i + 3) }
            }
            i += 1
        }
        return nil
    }

    /// Drops bytes up to the next `Content-Length` after the bad header, or all of them.
    private mutating func resync(_ why: String) -> LSPFrame {
        let needle = Array("content-length".utf8)
        var i = start + 1
        var found: Int? = nil
        while i + needle.count <= buffer.count {
            var ok = true
            for k in 0..<needle.count where buffer[i + k] | 0x20 != needle[k] { ok = false; break }
            if ok { found = i; break }
            i += 1
        }
        // None yet: keep only a tail that may begin one (`Content-Le` of a message half come),
        // and always drop at least a byte, so a header that stays bad is never read twice.
        var to = found ?? buffer.count
        if found == nil {
            var k = min(needle.count - 1, buffer.count - start - 1)
            while k > 0 {
                var ok = true
                for j in 0..<k where buffer[buffer.count - k + j] | 0x20 != needle[j] { ok = false; break }
                if ok { break }
                k -= 1
            }
            to = buffer.count - max(0, k)
        }
        to = max(to, min(start + 1, buffer.count))
        let n = to - start
        start = to
        return .dropped("dropped \(n) bytes: \(why)", answer: false)
    }

    static func shown(_ s: String) -> String {
        s.count > 40 ? String(s.prefix(40)) + "…" : s
    }

    /// A message as it goes on the wire.
    static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}
