// Live capture feedback (R-CAP-2): while an `add`, `capture` or `parse` line is typed, the
// tokens the quick-add parser recognises are coloured by kind, and the completion it offers for
// an unfinished date or repeat phrase is the grey "ghost" after the cursor. Pure: it reads the
// session's date context and returns text; ReadlineHooks draws it.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter
@preconcurrency import CReadline

/// One line as it should be drawn.
struct CaptureHighlight: Equatable {
    /// The line with ANSI colour around each token; the same visible characters as the line.
    var painted: String
    /// The rest of the completion of the unfinished last word, to show after the cursor.
    var ghost: String
    /// The tokens, with offsets into the whole line.
    var tokens: [CaptureToken]
}

/// Colours capture lines.
final class CaptureHighlighter {
    private let session: Session

    init(session: Session) { self.session = session }

    /// The statements whose rest is a quick-add line.
    static let captureCommands: Set<String> = ["add", "capture", "parse"]

    /// The SGR colour of each token kind.
    static func color(_ kind: CaptureToken.Kind) -> String {
        switch kind {
        case .date: return "36"
        case .repeat: return "35"
        case .priority: return "31"
        case .project: return "34"
        case .tag: return "32"
        case .note: return "33"
        case .start, .status, .parent: return "96"
        }
    }

    /// Terminal columns of UTF-8 text as readline counts them (wcwidth in the locale readline
    /// set up: 2 for CJK and most emoji, 0 for a combining mark), or nil when a character has
    /// no width (a control character, which readline draws as `^X`): such a line is not painted.
    static func columns(_ bytes: [UInt8]) -> Int? {
        var n = 0
        for s in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if s.value < 0x80 {
                guard s.value >= 0x20, s.value != 0x7F else { return nil }
                n += 1
                continue
            }
            let w = kept_wcwidth(s.value)
            guard w >= 0 else { return nil }
            n += Int(w)
        }
        return n
    }

    /// True when every character of the text takes one column, so a line that wraps breaks
    /// exactly every `width` columns (readline moves a wide character that does not fit to the
    /// next row, which this painter does not follow).
    static func narrow(_ bytes: [UInt8]) -> Bool {
        for s in String(decoding: bytes, as: UTF8.self).unicodeScalars where s.value >= 0x80 {
            if kept_wcwidth(s.value) != 1 { return false }
        }
        return true
    }

    /// The drawing of a line, or nil when it is neither a capture line nor a filter (FilterHighlighter).
    func highlight(_ line: [UInt8], cursor: Int) -> CaptureHighlight? {
        var i = 0
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        let kwStart = i
        while i < line.count, line[i] != 0x20, line[i] != 0x09 { i += 1 }
        let kwEnd = i
        let keyword = String(decoding: line[kwStart..<kwEnd], as: UTF8.self).lowercased()
        guard kwEnd < line.count else { return nil }
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        let base = i
        guard CaptureHighlighter.captureCommands.contains(keyword) else {
            return FilterHighlighter.highlight(line, keyword: keyword, kwStart: kwStart, kwEnd: kwEnd, base: base)
        }
        let rest = Array(line[base...])
        var tokens: [CaptureToken] = []
        var completion: CaptureCompletion?
        switch QuickAdd.parse(bytes: rest, in: session.dateContext, natural: keyword == "capture", tokens: true) {
        case .success(let d):
            tokens = d.tokens
            completion = d.completion
        case .failure(let e):
            tokens = e.tokens
            completion = e.completion
        }
        tokens = tokens.map { var t = $0; t.start += base; t.end += base; return t }.sorted { $0.start < $1.start }
        var out = String(decoding: line[..<kwStart], as: UTF8.self)
        out += "\u{1B}[1m" + String(decoding: line[kwStart..<kwEnd], as: UTF8.self) + "\u{1B}[0m"
        var at = kwEnd
        for t in tokens where t.start >= at && t.end <= line.count && t.start < t.end {
            out += String(decoding: line[at..<t.start], as: UTF8.self)
            out += "\u{1B}[\(CaptureHighlighter.color(t.kind))m" + String(decoding: line[t.start..<t.end], as: UTF8.self) + "\u{1B}[0m"
            at = t.end
        }
        out += String(decoding: line[at...], as: UTF8.self)
        var ghost = ""
        if let c = completion, base + c.end == line.count, cursor == line.count,
           c.completed.count > c.typed.count, c.completed.lowercased().hasPrefix(c.typed.lowercased()) {
            ghost = String(c.completed.dropFirst(c.typed.count))
        }
        return CaptureHighlight(painted: out, ghost: ghost, tokens: tokens)
    }
}
