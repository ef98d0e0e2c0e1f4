// `kept lsp` (docs/EDITORS.md): the message reader's framing and its malformed inputs, the
// document's positions in UTF-16 and UTF-8 and its incremental edits, in process; then the
// end-to-end driver (Tests/lsp/lsp_test.py) through the real binary.

import Foundation
@testable import KeptCLI
import KeptRules
import KeptSyntax
import XCTest

final class LSPTests: XCTestCase {
    private func frames(_ chunks: [[UInt8]], maxBody: Int = 1 << 20) -> [LSPFrame] {
        var r = LSPMessageReader(maxBody: maxBody)
        var out: [LSPFrame] = []
        for c in chunks {
            r.feed(c)
            while let f = r.next() { out.append(f) }
        }
        if let f = r.flushPartial() { out.append(f) }
        return out
    }

    private func msg(_ s: String) -> [UInt8] { LSPMessageReader.frame(Array(s.utf8)) }

    func testFramingCountsBytesAndSplitsAnywhere() {
        // A body with multi-byte characters: its length is in bytes, not characters.
        let body = "{\"x\":\"é😀\"}"
        let stream = msg(body) + msg("{}")
        XCTAssertEqual(frames([stream]), [.message(Array(body.utf8)), .message(Array("{}".utf8))])
        // Fed a byte at a time, the same two messages.
        XCTAssertEqual(frames(stream.map { [$0] }), [.message(Array(body.utf8)), .message(Array("{}".utf8))])
        // Content-Type and a bare LF header are read too.
        let typed = Array("Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}".utf8)
        XCTAssertEqual(frames([typed]), [.message(Array("{}".utf8))])
    }

    func testMalformedHeadersAreDroppedAndTheNextMessageRead() {
        for bad in ["Content-Length: abc\r\n\r\n", "Content-Type: x\r\n\r\n", "no colon here\r\n\r\n", "Content-Length: -5\r\n\r\n"] {
            for split in [false, true] {
                let chunks = split ? [Array(bad.utf8), msg("{}")] : [Array(bad.utf8) + msg("{}")]
                let f = frames(chunks)
                XCTAssertEqual(f.last, .message(Array("{}".utf8)), "\(bad) split=\(split): \(f)")
                XCTAssertTrue(f.dropLast().allSatisfy { if case .dropped(_, answer: false) = $0 { return true } else { return false } }, "\(f)")
            }
        }
        // Noise longer than a header part may be.
        let noise = [UInt8](repeating: 0x58, count: 20_000)
        XCTAssertEqual(frames([noise, msg("{}")]).last, .message(Array("{}".utf8)))
    }

    func testOverLongAndShortBodies() {
        // Over the limit: refused at once (answered), its bytes skipped as they come.
        let f = frames([Array("Content-Length: 100\r\n\r\n".utf8), [UInt8](repeating: 0x20, count: 100), msg("{}")], maxBody: 10)
        XCTAssertEqual(f.count, 2)
        if case .dropped(_, answer: true) = f[0] {} else { XCTFail("\(f)") }
        XCTAssertEqual(f[1], .message(Array("{}".utf8)))
        // A body that never comes whole: dropped when the input ends (or stalls), answered.
        let g = frames([Array("Content-Length: 50\r\n\r\n{}".utf8)])
        XCTAssertEqual(g.count, 1)
        if case .dropped(_, answer: true) = g[0] {} else { XCTFail("\(g)") }
    }

    func testPositionsInUTF16AndUTF8() {
        let doc = LSPDocument(uri: "u", version: 1, text: "a😀é\r\nb\rc\n")
        // Lines end at CRLF, CR and LF.
        XCTAssertEqual(doc.lineStarts, [0, 9, 11, 13])
        // 😀 is 2 UTF-16 units and 4 bytes; é 1 unit and 2 bytes.
        XCTAssertEqual(doc.offset(LSPPosition(line: 0, character: 3), .utf16), 5)
        XCTAssertEqual(doc.offset(LSPPosition(line: 0, character: 5), .utf8), 5)
        XCTAssertEqual(doc.position(7, .utf16), LSPPosition(line: 0, character: 4))
        XCTAssertEqual(doc.position(7, .utf8), LSPPosition(line: 0, character: 7))
        // Inside a surrogate pair or a UTF-8 sequence: the character's start.
        XCTAssertEqual(doc.offset(LSPPosition(line: 0, character: 2), .utf16), 1)
        XCTAssertEqual(doc.offset(LSPPosition(line: 0, character: 3), .utf8), 1)
        // Past the end of a line: its end (before CRLF); past the last line: the end.
        XCTAssertEqual(doc.offset(LSPPosition(line: 0, character: 99), .utf16), 7)
        XCTAssertEqual(doc.offset(LSPPosition(line: 9, character: 0), .utf16), doc.bytes.count)
        XCTAssertEqual(doc.position(10, .utf16), LSPPosition(line: 1, character: 1))
    }

    func testIncrementalEditsMatchAModel() {
        var rng = SystemRandomNumberGenerator()
        let pieces = ["a", " ", "\n", "\r\n", "\r", "é", "😀", "中", "> add ", ""]
        var model: [Character] = Array("> add x\n")
        var doc = LSPDocument(uri: "u", version: 1, text: String(model))
        for _ in 0..<3000 {
            let text = String(model)
            // A code point index, off the middle of a CRLF (which is one Character here).
            let a = Int.random(in: 0...model.count, using: &rng)
            let b = min(model.count, a + Int.random(in: 0...3, using: &rng))
            let ins = pieces.randomElement(using: &rng) ?? ""
            func pos(_ k: Int) -> LSPPosition {
                let prefix = String(model[0..<k])
                let b = Array(prefix.utf8)
                let full = LSPDocument(uri: "", version: 0, text: text)
                return full.position(b.count, .utf16)
            }
            doc.apply(ins, from: pos(a), to: pos(b), .utf16)
            model.replaceSubrange(a..<b, with: Array(ins))
            // As Characters again, so a CR and LF that met are one (no position is between them).
            model = Array(String(model))
            XCTAssertEqual(doc.text, String(model))
            XCTAssertEqual(doc.lineStarts, LSPDocument.lineStarts(doc.bytes))
            if doc.text != String(model) { return }
        }
    }

    /// What a document's run says of each block and of the file, to compare two runs.
    private func summary(_ a: LSPAnalysis) -> [String] {
        a.fileErrors.map { "file \($0.code) \($0.message)" }
            + a.blocks.map { b in
                "\(b.command.line) \(b.notRun ?? "") \(b.outcome?.status.rawValue ?? "-") "
                    + (b.outcome?.failure ?? []).joined(separator: "|")
                    + (b.output.map { ScriptTest.actualLines($0, format: b.format) } ?? []).joined(separator: "|")
            }
            + a.taskOrigin.sorted { $0.key < $1.key }.map { "id \($0.key) from \($0.value)" }
    }

    /// A change re-runs from the last checkpoint before it: the result is the same as a run of
    /// the whole changed document, for random one-character edits of two examples with cases,
    /// and the session a hover replays before a command is the one a whole run reaches there.
    func testRerunFromACheckpointIsAWholeRun() throws {
        var rng = SystemRandomNumberGenerator()
        for name in ["examples/filters.kept", "examples/repeats.kept"] {
            let path = Kept.packageRoot.appendingPathComponent(name).path
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            var old = LSPAnalysis(path: path, bytes: bytes)
            XCTAssertTrue(old.blocks.allSatisfy { $0.outcome?.status != .failed }, name)
            for _ in 0..<25 {
                let at = Int.random(in: 0...bytes.count, using: &rng)
                if Bool.random(using: &rng), at < bytes.count, bytes[at] != 0x0A {
                    bytes.remove(at: at)
                } else {
                    bytes.insert([0x78, 0x20, 0x0A, 0x31].randomElement(using: &rng) ?? 0x78, at: at)
                }
                let reused = LSPAnalysis(path: path, bytes: bytes, reusing: old, changedFrom: at)
                let whole = LSPAnalysis(path: path, bytes: bytes)
                XCTAssertEqual(summary(reused), summary(whole), "\(name) after an edit at \(at)")
                if let k = whole.blocks.indices.randomElement(using: &rng), let s1 = reused.session(before: k),
                   let s2 = whole.session(before: k) {
                    XCTAssertEqual(s1.store.nextID, s2.store.nextID)
                    XCTAssertEqual(s1.store.tasks.map(\.title), s2.store.tasks.map(\.title))
                }
                old = reused
            }
        }
    }

    /// `kept lsp` takes no argument but `--stdio` (what editors add); `--help` explains it.
    func testCommandLine() throws {
        let help = try Kept.run(["lsp", "--help"])
        XCTAssertEqual(help.status, 0, help.summary)
        XCTAssertTrue(help.stdout.contains("docs/EDITORS.md"), help.summary)
        let extra = try Kept.run(["lsp", "file.kept"])
        XCTAssertEqual(extra.status, 64, extra.summary)
        XCTAssertTrue(extra.stderr.contains("'lsp' takes no arguments"), extra.summary)
        // Empty input: the end of input without `exit` is status 1, and nothing is written.
        let empty = try Kept.run(["lsp", "--stdio"])
        XCTAssertEqual(empty.status, 1, empty.summary)
        XCTAssertEqual(empty.stdout, "", empty.summary)
    }

    /// The whole server through the real binary: lifecycle, malformed input, cancellation, every
    /// feature with Neovim's and VS Code's capabilities, and 10,000 random incremental edits.
    func testEndToEndDriver() throws {
        try Kept.runDriver("Tests/lsp/lsp_test.py")
    }

    /// Headless Neovim (Debian's `neovim`, installed by `make deps`) attaches `kept lsp` through
    /// vim.lsp and reads back a diagnostic and a hover.
    func testHeadlessNeovim() throws {
        try Kept.runDriver("Tests/lsp/nvim_test.py")
    }
}
