// Live filter colouring: while a `list`, `count` or `explain` line, or the filter of `filter NAME
// = …`, is typed, each term the filter parser reads is coloured by kind (the colours of capture
// lines: tags green, projects blue, priorities red, notes yellow, dates and windows cyan), and a
// word that looks like an operator but is searched for (a warning) is underlined. The parser is the
// one `list` runs (FilterParser, no store and no clock), so the colours never disagree with it;
// a filter that does not read yet (half typed) is drawn plain. Pure: returns text.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum FilterHighlighter {
    /// The statements whose rest is a filter (or a comma list of them, with list clauses).
    static let commands: Set<String> = ["list", "count", "explain"]

    /// The words that end a list's filter and start its clauses.
    static let clauseWords: Set<String> = ["order", "limit", "group"]

    /// The SGR colour of a term.
    static func color(_ k: TermKind) -> String? {
        switch k {
        case .tag: return "32"
        case .project: return "34"
        case .priority: return "31"
        case .note: return "33"
        case .window, .date, .dateIn: return "36"
        case .repeatFrequency, .regex: return "35"
        case .status, .doneToday, .predicate, .notPredicate, .parent, .estimate, .area: return "96"
        case .saved: return "95"
        case .words: return nil
        }
    }

    /// The painted line, or nil when the line is no filter statement. `kwStart..<kwEnd` is the
    /// command word; the filter text starts at `base`.
    static func highlight(_ line: [UInt8], keyword: String, kwStart: Int, kwEnd: Int, base: Int) -> CaptureHighlight? {
        var start = base
        if keyword == "filter" {
            guard let eq = line[base...].firstIndex(of: UInt8(ascii: "=")) else { return nil }
            start = eq + 1
        } else {
            guard commands.contains(keyword) else { return nil }
            let next = firstWord(line, from: base).lowercased()
            if keyword == "explain", next == "date" || next == "plan" { return nil }
        }
        var spans: [(Int, Int, String)] = []
        for piece in pieces(line, from: start) {
            let text = String(decoding: line[piece], as: UTF8.self)
            guard !text.allSatisfy({ $0 == " " }), case .success(let p) = FilterParser.parse(text, name: "line") else { continue }
            for t in p.syntax.terms {
                if let c = color(t.kind) { spans.append((piece.lowerBound + t.range.start, piece.lowerBound + t.range.end, c)) }
            }
            for w in p.warnings { if let r = w.range { spans.append((piece.lowerBound + r.start, piece.lowerBound + r.end, "4;33")) } }
        }
        spans.sort { $0.0 < $1.0 }
        var out = String(decoding: line[..<kwStart], as: UTF8.self)
        out += "\u{1B}[1m" + String(decoding: line[kwStart..<kwEnd], as: UTF8.self) + "\u{1B}[0m"
        var at = kwEnd
        for (s, e, c) in spans where s >= at && e <= line.count && s < e {
            out += String(decoding: line[at..<s], as: UTF8.self)
            out += "\u{1B}[\(c)m" + String(decoding: line[s..<e], as: UTF8.self) + "\u{1B}[0m"
            at = e
        }
        out += String(decoding: line[at...], as: UTF8.self)
        return CaptureHighlight(painted: out, ghost: "", tokens: [])
    }

    static func firstWord(_ line: [UInt8], from i: Int) -> String {
        var e = i
        while e < line.count, line[e] != 0x20, line[e] != 0x09 { e += 1 }
        return String(decoding: line[i..<e], as: UTF8.self)
    }

    /// The filters of the line from `start`: split at commas outside parentheses, quotes and
    /// /patterns/, each cut where a list clause (`order by`, `limit`, `group by`) begins.
    static func pieces(_ line: [UInt8], from start: Int) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var depth = 0, quoted = false, pattern = false
        var pieceStart = start, wordStart = start, cut: Int? = nil
        var i = start
        func endWord(_ at: Int) {
            if cut == nil, depth == 0, !quoted, clauseWords.contains(String(decoding: line[wordStart..<at], as: UTF8.self).lowercased()) {
                cut = wordStart
            }
        }
        // The clauses come after the last filter: the first one ends the filters.
        while i < line.count, cut == nil {
            let b = line[i]
            if quoted { if b == UInt8(ascii: "\"") { quoted = false } } else if pattern {
                if b == UInt8(ascii: "\\") { i += 1 } else if b == UInt8(ascii: "/") { pattern = false }
            } else {
                switch b {
                case UInt8(ascii: "\""): quoted = true
                case UInt8(ascii: "/") where i > 0 && (line[i - 1] == 0x20 || line[i - 1] == UInt8(ascii: "~")): pattern = true
                case UInt8(ascii: "("): depth += 1
                case UInt8(ascii: ")"): depth = max(0, depth - 1)
                case UInt8(ascii: ","):
                    if depth == 0 {
                        endWord(i)
                        if cut != nil { break }
                        out.append(pieceStart..<i)
                        pieceStart = i + 1
                        wordStart = i + 1
                    }
                case 0x20, 0x09:
                    endWord(i)
                    wordStart = i + 1
                default: break
                }
            }
            i += 1
        }
        if cut == nil { endWord(line.count) }
        out.append(pieceStart..<(cut ?? line.count))
        return out.filter { !$0.isEmpty }
    }
}
