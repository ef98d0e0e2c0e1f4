// The quick-add line: one line becomes one task draft (R-CAP-1). This version knows the `@`
// date phrase; recognised tokens leave the title and the other words keep their order.

/// A token capture recognised, with its range in the line, for `parse` and highlighting (R-CAP-2).
public struct CaptureToken: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case date
    }
    public var kind: Kind
    /// Byte offsets into the capture line.
    public var start: Int
    public var end: Int
    public var text: String
}

/// What a capture line asks for.
public struct TaskDraft: Sendable {
    public var title: String
    public var due: Due?
    public var tokens: [CaptureToken] = []
}

/// Why a capture line cannot be filed: a message, its byte range in the line, and a help.
public struct CaptureError: Error, Sendable {
    public var code: String
    public var message: String
    public var start: Int
    public var end: Int
    public var label: String
    public var help: String?
}

/// Parses quick-add lines.
public enum QuickAdd {
    /// Parses one line against a date context.
    public static func parse(_ line: String, in ctx: DateContext) -> Result<TaskDraft, CaptureError> {
        let b = Array(line.utf8)
        // Words with their byte ranges; `\` keeps the next byte as text.
        var words: [(start: Int, end: Int)] = []
        var i = 0
        while i < b.count {
            while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
            guard i < b.count else { break }
            let s = i
            while i < b.count, b[i] != 0x20, b[i] != 0x09 {
                i += b[i] == UInt8(ascii: "\\") && i + 1 < b.count ? 2 : 1
            }
            words.append((s, i))
        }
        func text(_ w: (start: Int, end: Int)) -> String { String(decoding: b[w.start..<w.end], as: UTF8.self) }

        var draft = TaskDraft(title: "")
        var taken = [Bool](repeating: false, count: words.count)
        var k = 0
        while k < words.count {
            let w = words[k]
            guard b[w.start] == UInt8(ascii: "@"), w.end - w.start > 1 else {
                k += 1
                continue
            }
            var phrase = [String(decoding: b[(w.start + 1)..<w.end], as: UTF8.self)]
            var j = k + 1
            while j < words.count, j < k + 3 {
                phrase.append(text(words[j]))
                j += 1
            }
            switch DatePhrase.resolve(phrase, in: ctx) {
            case .success(let (resolved, used)):
                if draft.due != nil {
                    let last = words[k + used - 1]
                    return .failure(CaptureError(code: "E0203", message: "a task takes one due date", start: w.start,
                                                 end: last.end, label: "a second date", help: "keep one '@' date"))
                }
                draft.due = resolved.due
                let last = words[k + used - 1]
                draft.tokens.append(CaptureToken(kind: .date, start: w.start, end: last.end,
                                                 text: String(decoding: b[w.start..<last.end], as: UTF8.self)))
                for m in k..<(k + used) { taken[m] = true }
                k += used
            case .failure(let e):
                let bad = words[min(k + e.word, words.count - 1)]
                return .failure(CaptureError(code: e.impossible ? "E0205" : "E0203", message: e.message,
                                             start: e.word == 0 ? bad.start + 1 : bad.start, end: bad.end,
                                             label: e.impossible ? "no such day" : "not a date phrase", help: e.help))
            }
        }
        var title: [UInt8] = []
        for (m, w) in words.enumerated() where !taken[m] {
            if !title.isEmpty { title.append(0x20) }
            var x = w.start
            while x < w.end {
                if b[x] == UInt8(ascii: "\\"), x + 1 < w.end {
                    title.append(b[x + 1])
                    x += 2
                } else {
                    title.append(b[x])
                    x += 1
                }
            }
        }
        draft.title = String(decoding: title, as: UTF8.self)
        if draft.title.isEmpty {
            return .failure(CaptureError(code: "E0208", message: "the task has no title", start: 0, end: b.count,
                                         label: "only dates here", help: "write a title, or escape a token with '\\' to keep it as text"))
        }
        return .success(draft)
    }
}
