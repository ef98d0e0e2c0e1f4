// Fuzz target: the language server's message reader (Sources/KeptCLI/LSP/LSPMessageReader.swift,
// compiled in). The first byte picks the size of the pieces the rest is fed in, as a pipe may
// cut it anywhere. Whatever the bytes: the reader always moves on (never more frames than
// bytes), no body is over its limit, nothing is left half-read after a flush, and the bodies it
// read, framed again and fed in pieces to a new reader, come back the same with nothing dropped.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLSPReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = bytes(data, size)
    guard let first = input.first else { return 0 }
    let piece = Int(first % 64) + 1
    let stream = Array(input.dropFirst())
    let limit = 1024
    func read(_ s: [UInt8]) -> [LSPFrame] {
        var r = LSPMessageReader(maxBody: limit)
        var out: [LSPFrame] = []
        var i = 0
        while i < s.count {
            r.feed(Array(s[i..<min(s.count, i + piece)]))
            i += piece
            while let f = r.next() {
                out.append(f)
                if out.count > s.count + 1 { violated("more frames than bytes: the reader does not move on") }
            }
        }
        if let f = r.flushPartial() { out.append(f) }
        if r.isPartial { violated("a flush left part of a message") }
        return out
    }
    let frames = read(stream)
    var bodies: [[UInt8]] = []
    for f in frames {
        if case .message(let b) = f {
            if b.count > limit { violated("a body of \(b.count) bytes over the limit of \(limit)") }
            bodies.append(b)
        }
    }
    let again = read(bodies.flatMap { LSPMessageReader.frame($0) })
    if again != bodies.map({ LSPFrame.message($0) }) { violated("framed again, the messages did not come back the same") }
    return 0
}
