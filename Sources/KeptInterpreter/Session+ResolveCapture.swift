// The resolve stage of the capture statements (R-CAP-1…6): add and capture read a quick-add
// line into a draft checked against the store; parse reads one to show it; date and explain
// date resolve a phrase. Errors point at the token or the word they are about.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A capture statement, resolved.
package enum CaptureRequest {
    /// Files a checked draft.
    case add(TaskDraft)
    /// Shows what a line would file, token by token.
    case parse(TaskDraft)
    /// A date phrase, resolved; `explain` shows the rule and the clock it used.
    case date(ResolvedDate, explain: Bool)
}

extension Session {
    /// Turns a capture error (byte offsets in the line) into a diagnostic in the file.
    package func diagnostic(_ e: CaptureError, _ line: TextArg, _ s: Statement) -> Diagnostic {
        Catalog.capture(e, lineStart: line.range.start, file: s.source.file)
    }

    /// The request of a capture statement, or nil when the statement is not one.
    package func resolveCapture(_ s: Statement) -> Result<CaptureRequest, Diagnostic>? {
        switch s.kind {
        case .add(let line): return resolveAdd(s, line, natural: false).map(CaptureRequest.add)
        case .capture(let line): return resolveAdd(s, line, natural: true).map(CaptureRequest.add)
        case .parse(let line):
            switch draft(s, line, natural: false, explain: false) {
            case .success(let d): return .success(.parse(d))
            case .failure(let e):
                // A title-less line still shows its tokens: parse explores, it files nothing.
                if Catalog.saysNoTitle(e), case .success(let x) = QuickAdd.parse(line.text, in: dateContext, untitled: true) {
                    return .success(.parse(x))
                }
                return .failure(e)
            }
        case .date(let phrase): return resolveDate(s, phrase, explain: false)
        case .explainDate(let phrase): return resolveDate(s, phrase, explain: true)
        default: return nil
        }
    }

    /// The draft of `add` or `capture`, or of `subtask` with its parent: checked, with no
    /// unfinished token.
    package func resolveAdd(_ s: Statement, _ line: TextArg, natural: Bool, parent: Int? = nil) -> Result<TaskDraft, Diagnostic> {
        draft(s, line, natural: natural, parent: parent).flatMap { d in
            if let c = d.completion {
                // An unfinished token is not filed as title text: the user meant a date or repeat.
                let r = SourceRange(start: line.range.start + c.start, end: line.range.start + c.end)
                return .failure(Catalog.unfinished(c.typed, completed: c.completed, range: r, file: s.source.file))
            }
            if let sl = d.ambiguousSlash, let due = d.due {
                askDateOrder(sl.text, read: due.date, range: SourceRange(start: line.range.start + sl.start, end: line.range.start + sl.end),
                             file: s.source.file)
            }
            return .success(d)
        }
    }

    /// R-CAP-10: the first slash date of the session that reads in either order (`3/4`), read
    /// month/day where the zone usually writes day/month and `date-order` was not set in this
    /// session, gets W0003 asking to set it. Once a session: the store keeps no mark of it.
    package func askDateOrder(_ slash: String, read date: CivilDate, range: SourceRange, file: SourceFile) {
        guard !dateOrderAsked, store.settings.dateOrder == .mdy, DateOrder.suggested(forZone: zone.identifier) == .dmy else { return }
        dateOrderAsked = true
        warnings.append(Catalog.dateOrderUnset(slash, read: date, zone: zone.identifier, range: range, file: file))
    }

    /// The request of `date` or `explain date`: the phrase read whole; an error points at the
    /// word it is about.
    package func resolveDate(_ s: Statement, _ phrase: TextArg, explain: Bool) -> Result<CaptureRequest, Diagnostic> {
        let words = phrase.text.split(separator: " ").map(String.init)
        let file = s.source.file
        // Word ranges in the file, for errors that point at one word.
        var ranges: [SourceRange] = []
        var off = phrase.range.start
        let bytes = Array(phrase.text.utf8)
        var i = 0
        while i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 { i += 1 }
            let st = i
            while i < bytes.count, bytes[i] != 0x20 { i += 1 }
            if i > st { ranges.append(SourceRange(start: off + st, end: off + i)) }
        }
        off = 0
        func range(_ k: Int) -> SourceRange { k < ranges.count ? ranges[k] : phrase.range }
        switch DatePhrase.resolve(words, in: dateContext, explain: explain) {
        case .failure(let e):
            let r = e.word == 0 && !e.impossible ? range(0) : (e.impossible && e.word == 0 ? phrase.range : range(e.word))
            return .failure(Catalog.datePhrase(e, range: r, file: file))
        case .success(let (r, used)):
            guard used == words.count else {
                let rest = SourceRange(start: range(used).start, end: phrase.range.end)
                return .failure(Catalog.unexpectedAfterDate(words[used], date: words[..<used].joined(separator: " "), range: rest, file: file))
            }
            if let sl = r.ambiguousSlash { askDateOrder(sl, read: r.due.date, range: phrase.range, file: file) }
            return .success(.date(r, explain: explain))
        }
    }
}
