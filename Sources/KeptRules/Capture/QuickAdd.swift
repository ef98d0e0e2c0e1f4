// The quick-add line: one line becomes one task draft (R-CAP-1). Recognised tokens leave the
// title and the other words keep their order and spacing; what only looks like a token stays
// text (R-CAP-5). Works on the line's bytes; only the parts it keeps become Strings.

/// A token capture recognised, with its byte range in the line, for `parse` and highlighting (R-CAP-2).
public struct CaptureToken: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case date, `repeat`, priority, project, tag, note, start, status, parent
    }
    public var kind: Kind
    /// Byte offsets into the capture line.
    public var start: Int
    public var end: Int
    public var text: String
}

/// A completion offered for the unfinished last word (R-CAP-2): `@tom` → `@tomorrow`.
public struct CaptureCompletion: Sendable, Equatable {
    /// The byte range of the unfinished word in the line.
    public var start: Int
    public var end: Int
    /// The word as typed and as completed.
    public var typed: String
    public var completed: String
}

/// What a capture line asks for.
public struct TaskDraft: Sendable {
    public var title = ""
    public var due: Due?
    public var start: Due?
    /// The rule `every …` gave, and the words it was written with.
    public var repeatRule: RepeatRule?
    public var repeatText: String?
    public var priority: Priority?
    public var project: String?
    /// The byte range of the project token, for an error about an unknown project.
    public var projectRange: (start: Int, end: Int)?
    public var tags: [String] = []
    public var notes: [String] = []
    public var status: String?
    public var parent: Int?
    public var tokens: [CaptureToken] = []
    public var completion: CaptureCompletion?
    /// Resolved dates' rules, by token index, when asked for.
    public var dueRule: String?
    /// A due written as a slash date that reads in either order (`3/4`), and the byte range
    /// of its token: read by `date-order`, and asked about where the zone suggests the other
    /// order (R-CAP-10).
    public var ambiguousSlash: (text: String, start: Int, end: Int)?

    /// An empty draft, for callers that build one field by field (an importer, a test).
    public init(title: String = "") {
        self.title = title
    }
}

/// Why a capture line cannot be filed: the reason, and its byte range in the line. The
/// catalog words each reason and gives it its code (Catalog+Rules).
public struct CaptureError: Error, Sendable {
    /// What is wrong with the line.
    public enum Reason: Sendable, Equatable {
        /// A second `@` date.
        case secondDue
        /// An `@` date phrase that does not read.
        case date(DatePhraseError)
        /// An `every …` repeat with a value out of its range: refused, not kept as title text.
        case `repeat`(RepeatRuleError)
        /// `!word` that is no priority.
        case priority(String)
        /// `start:` with a phrase that does not read.
        case startDate(DatePhraseError)
        /// `start:` with words that are more than one date.
        case startNotOneDate(String)
        /// `parent:` with something other than an id.
        case parentNotAnID(String)
        /// Nothing is left for the title.
        case noTitle
    }

    public var reason: Reason
    /// Byte offsets of the words at fault in the line.
    public var start: Int
    public var end: Int
    /// The tokens recognised before the error, so a front end can still highlight them.
    public var tokens: [CaptureToken] = []
    /// The completion offered for an unfinished last word, if one was found before the error.
    public var completion: CaptureCompletion?
}

/// Parses quick-add lines.
public enum QuickAdd {
    /// One word of the line: its bytes and how it must be read.
    package struct Word {
        package enum Kind { case plain, quoted, escaped, note, quotedProject }
        package var start: Int
        package var end: Int
        package var kind: Kind
    }

    package static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }

    package static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c == 0x2D || c >= 0x80
    }

    /// Splits a line into words; quotes and `[[…]]` hold spaces; `--` ends the tokens.
    package static func words(_ b: UnsafeBufferPointer<UInt8>) -> (words: [Word], literalFrom: Int?) {
        var out: [Word] = []
        out.reserveCapacity(12)
        var i = 0
        let n = b.count
        while i < n {
            while i < n, isSpace(b[i]) { i += 1 }
            guard i < n else { break }
            let s = i
            // ` -- `: the rest of the line is title text.
            if b[i] == UInt8(ascii: "-"), i + 1 < n, b[i + 1] == UInt8(ascii: "-"), i + 2 == n || isSpace(b[i + 2]) {
                var r = i + 2
                while r < n, isSpace(b[r]) { r += 1 }
                return (out, r)
            }
            if b[i] == UInt8(ascii: "\"") || (b[i] == UInt8(ascii: "+") && i + 1 < n && b[i + 1] == UInt8(ascii: "\"")) {
                let project = b[i] == UInt8(ascii: "+")
                var j = i + (project ? 2 : 1)
                while j < n, b[j] != UInt8(ascii: "\"") { j += 1 }
                if j < n {
                    i = j + 1
                    while i < n, !isSpace(b[i]) { i += 1 }
                    out.append(Word(start: s, end: i, kind: project ? .quotedProject : .quoted))
                    continue
                }
                i = s
            }
            if b[i] == UInt8(ascii: "["), i + 1 < n, b[i + 1] == UInt8(ascii: "[") {
                var j = i + 2
                while j + 1 < n, !(b[j] == UInt8(ascii: "]") && b[j + 1] == UInt8(ascii: "]")) { j += 1 }
                if j + 1 < n {
                    i = j + 2
                    out.append(Word(start: s, end: i, kind: .note))
                    continue
                }
            }
            var escaped = false
            while i < n, !isSpace(b[i]) {
                if b[i] == UInt8(ascii: "\\"), i + 1 < n { escaped = true; i += 2; continue }
                // `start:"next fri"`: a quoted value after a colon holds its spaces.
                if b[i] == UInt8(ascii: "\""), i > s, b[i - 1] == UInt8(ascii: ":") {
                    var j = i + 1
                    while j < n, b[j] != UInt8(ascii: "\"") { j += 1 }
                    if j < n { i = j + 1; continue }
                }
                i += 1
            }
            out.append(Word(start: s, end: i, kind: escaped ? .escaped : .plain))
        }
        return (out, nil)
    }

    /// Parses one line. `natural` also reads a trailing date without `@` (R-CAP-4, `capture`).
    /// `untitled` reads a line of tokens only (`parse`): no title is needed, and no last word
    /// is taken for an unfinished one.
    public static func parse(_ line: String, in ctx: DateContext, natural: Bool = false, explain: Bool = false,
                             untitled: Bool = false) -> Result<TaskDraft, CaptureError> {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBufferPointer { b in parse(b, in: ctx, natural: natural, explain: explain, tokens: true, untitled: untitled) }
    }

    /// Parses one line given as UTF-8 bytes (the benchmark's and the REPL's path).
    /// Without `tokens`, the draft's tokens are left out (filing a task needs only its fields).
    public static func parse(bytes: [UInt8], in ctx: DateContext, natural: Bool = false, tokens: Bool = true) -> Result<TaskDraft, CaptureError> {
        bytes.withUnsafeBufferPointer { b in parse(b, in: ctx, natural: natural, explain: false, tokens: tokens) }
    }

    package static func string(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)
    }

    package static func parse(_ b: UnsafeBufferPointer<UInt8>, in ctx: DateContext, natural: Bool, explain: Bool, tokens wantTokens: Bool,
                              untitled: Bool = false) -> Result<TaskDraft, CaptureError> {
        let (ws, literalFrom) = words(b)
        var draft = TaskDraft()
        // The tags seen, so a line of 100,000 tags is read in linear time (issue 20).
        var tagSet = Set<String>()
        var keep = [Bool](repeating: true, count: ws.count)
        let endsOpen = !untitled && b.count > 0 && !isSpace(b[b.count - 1]) && literalFrom == nil
        var k = 0
        func err(_ reason: CaptureError.Reason, _ s: Int, _ e: Int) -> Result<TaskDraft, CaptureError> {
            .failure(CaptureError(reason: reason, start: s, end: e, tokens: draft.tokens, completion: draft.completion))
        }
        while k < ws.count {
            let w = ws[k]
            let c0 = b[w.start]
            let len = w.end - w.start
            switch w.kind {
            case .quoted, .escaped:
                k += 1
                continue
            case .note:
                draft.notes.append(string(b, w.start + 2, w.end - 2))
                if wantTokens { draft.tokens.append(CaptureToken(kind: .note, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                keep[k] = false
                k += 1
                continue
            case .quotedProject:
                guard let close = (w.start + 2..<w.end).last(where: { b[$0] == UInt8(ascii: "\"") }), close > w.start + 2 else { k += 1; continue }
                draft.project = string(b, w.start + 2, close)
                draft.projectRange = (w.start, w.end)
                if wantTokens { draft.tokens.append(CaptureToken(kind: .project, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                keep[k] = false
                k += 1
                continue
            case .plain:
                break
            }
            // `@` date phrase.
            if c0 == UInt8(ascii: "@"), len > 1 {
                var classes: [DateWord] = []
                classes.reserveCapacity(6)
                classes.append(DateVocabulary.classify(b, from: w.start + 1, to: w.end))
                var j = k + 1
                // The longest phrase has six words (`end of the month at 9am`).
                while j < ws.count, j < k + 6, ws[j].kind == .plain {
                    classes.append(DateVocabulary.classify(b, from: ws[j].start, to: ws[j].end))
                    j += 1
                }
                switch DatePhraseParser.parse(classes) {
                case .success(let (spec, used)):
                    // R-CAP-7, R-CAP-8: a time after the day that Kept will not guess is
                    // reported at that word, never left in the title.
                    if let e = DatePhraseParser.timeAfterDay(spec, classes, used: used, bareNumbers: true,
                                                             text: { m in k + m < ws.count ? string(b, ws[k + m].start, ws[k + m].end) : "" }) {
                        let bad = ws[min(k + e.word, ws.count - 1)]
                        return err(.date(e), bad.start, bad.end)
                    }
                    switch DatePhrase.resolve(spec, in: ctx, explain: explain) {
                    case .success(let r):
                        let last = ws[k + used - 1]
                        if draft.due != nil {
                            return err(.secondDue, w.start, last.end)
                        }
                        draft.due = r.due
                        if explain { draft.dueRule = r.rule }
                        if let sl = r.ambiguousSlash { draft.ambiguousSlash = (sl, w.start, last.end) }
                        if wantTokens { draft.tokens.append(CaptureToken(kind: .date, start: w.start, end: last.end, text: string(b, w.start, last.end))) }
                        for m in k..<(k + used) { keep[m] = false }
                        k += used
                        continue
                    case .failure(let e):
                        let last = ws[min(k + max(used, 1), ws.count) - 1]
                        return err(.date(e), w.start + 1, last.end)
                    }
                case .failure:
                    let t = phraseTexts(b, ws, k, classes.count)
                    var e = DatePhrase.parse(classes, words: t).failure ?? DatePhraseError(word: 0, .notADateOrTime)
                    // An unfinished last word is offered its completion rather than an error.
                    let wordIndex = min(k + e.word, ws.count - 1)
                    if endsOpen, wordIndex == ws.count - 1, let comp = complete(t, upTo: e.word, date: true) {
                        let ww = ws[wordIndex]
                        draft.completion = CaptureCompletion(start: w.start, end: ww.end, typed: string(b, w.start, ww.end), completed: "@" + comp)
                        for m in k..<ws.count { keep[m] = false }
                        k = ws.count
                        continue
                    }
                    if e.word == 0, let comp = complete(t, upTo: 0, date: true) { e.completion = comp }
                    let bad = ws[wordIndex]
                    let s = e.word == 0 ? bad.start + 1 : bad.start
                    return err(.date(e), s, bad.end)
                }
            }
            // `every …` repeat.
            if len == 5, lower(b, w.start, "every") {
                var texts: [String] = []
                var j = k
                while j < ws.count, j < k + 16, ws[j].kind == .plain { texts.append(string(b, ws[j].start, ws[j].end)); j += 1 }
                switch RepeatRule.parse(words: texts, in: ctx) {
                case .success(let (rule, used)):
                    // R-CAP-7: `every monday at 25:00` is refused at the time, not cut short.
                    if used + 1 < texts.count, texts[used].lowercased() == "at",
                       case .impossible? = DatePhrase.classify([texts[used + 1]]).first {
                        let bad = ws[k + used + 1]
                        return err(.date(DatePhraseError(word: 0, .doesNotExist(texts[used + 1]))), bad.start, bad.end)
                    }
                    let last = ws[k + used - 1]
                    draft.repeatRule = rule
                    draft.repeatText = texts[0..<used].joined(separator: " ")
                    if wantTokens { draft.tokens.append(CaptureToken(kind: .repeat, start: w.start, end: last.end, text: string(b, w.start, last.end))) }
                    for m in k..<(k + used) { keep[m] = false }
                    k += used
                    continue
                case .failure(let e) where e.refused:
                    // A repeat with a value out of range is refused, not kept in the title:
                    // `every 999999999 days` is not a title (write `\every` to keep the words).
                    let bad = ws[min(k + max(e.word, 1), j - 1)]
                    return err(.repeat(e), w.start, bad.end)
                case .failure(var e):
                    if endsOpen, j == ws.count, texts.count >= 2, let comp = complete(texts, upTo: texts.count - 1, date: false) {
                        let ww = ws[ws.count - 1]
                        draft.completion = CaptureCompletion(start: w.start, end: ww.end, typed: string(b, w.start, ww.end), completed: comp)
                    } else if RepeatRule.meantAsRepeat(words: texts) {
                        // R-CAP-9: words meant as a repeat that are none are reported with the
                        // nearest rule, not kept as title text (`\every` keeps them).
                        e.suggestions = RepeatRule.nearest(words: texts)
                        // The range runs to the failing word, or to the weekday or period
                        // right after it: `every last friday`, not `every last`.
                        var last = min(max(e.word, 1), texts.count - 1)
                        if !RepeatRule.saysRepeat(texts[last].lowercased()), last + 1 < texts.count,
                           RepeatRule.saysRepeat(texts[last + 1].lowercased()) { last += 1 }
                        return err(.repeat(e), w.start, ws[k + last].end)
                    }
                }
            }
            // `!high`, `!1`.
            if c0 == UInt8(ascii: "!"), len > 1, isNameByte(b[w.start + 1]) {
                let word = string(b, w.start + 1, w.end)
                guard let p = Priority(word: word), word != "0", word.lowercased() != "none" else {
                    return err(.priority(word), w.start, w.end)
                }
                draft.priority = p
                if wantTokens { draft.tokens.append(CaptureToken(kind: .priority, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                keep[k] = false
                k += 1
                continue
            }
            // `+Project`; `+49` (a phone number) stays text.
            if c0 == UInt8(ascii: "+"), len > 1, isNameByte(b[w.start + 1]), !(b[w.start + 1] >= 0x30 && b[w.start + 1] <= 0x39) {
                draft.project = string(b, w.start + 1, w.end)
                draft.projectRange = (w.start, w.end)
                if wantTokens { draft.tokens.append(CaptureToken(kind: .project, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                keep[k] = false
                k += 1
                continue
            }
            // `#tag`; `#42` (an issue number) stays text.
            if c0 == UInt8(ascii: "#"), len > 1, isNameByte(b[w.start + 1]) {
                var digitsOnly = true
                for x in (w.start + 1)..<w.end where !(b[x] >= 0x30 && b[x] <= 0x39) { digitsOnly = false; break }
                if !digitsOnly {
                    let tag = string(b, w.start + 1, w.end)
                    if tagSet.insert(tag).inserted { draft.tags.append(tag) }
                    if wantTokens { draft.tokens.append(CaptureToken(kind: .tag, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                    keep[k] = false
                    k += 1
                    continue
                }
            }
            // R-CAP-6: `start:fri`, `status:waiting`, `parent:12`.
            if let colon = (w.start..<w.end).first(where: { b[$0] == UInt8(ascii: ":") }), colon > w.start, colon + 1 < w.end {
                let field = string(b, w.start, colon).lowercased()
                var value = string(b, colon + 1, w.end)
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
                switch field {
                case "start":
                    let vw = value.split(separator: " ").map(String.init)
                    switch DatePhrase.resolve(vw, in: ctx) {
                    case .success(let (r, used)) where used == vw.count:
                        draft.start = r.due
                    case .failure(let e):
                        return err(.startDate(e), colon + 1, w.end)
                    default:
                        return err(.startNotOneDate(value), colon + 1, w.end)
                    }
                    if wantTokens { draft.tokens.append(CaptureToken(kind: .start, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                    keep[k] = false
                    k += 1
                    continue
                case "status":
                    draft.status = value.lowercased()
                    if wantTokens { draft.tokens.append(CaptureToken(kind: .status, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                    keep[k] = false
                    k += 1
                    continue
                case "parent":
                    guard let p = Int(value), p >= 1 else {
                        return err(.parentNotAnID(value), colon + 1, w.end)
                    }
                    draft.parent = p
                    if wantTokens { draft.tokens.append(CaptureToken(kind: .parent, start: w.start, end: w.end, text: string(b, w.start, w.end))) }
                    keep[k] = false
                    k += 1
                    continue
                default:
                    break
                }
            }
            k += 1
        }
        // R-CAP-4: a trailing date without `@`, only at the end of the line.
        if natural, draft.due == nil, literalFrom == nil {
            naturalDate(b, ws, &keep, &draft, ctx, explain: explain, tokens: wantTokens)
        }
        draft.title = title(b, ws, keep, literalFrom)
        if draft.title.isEmpty, !untitled {
            return err(.noTitle, 0, b.count)
        }
        return .success(draft)
    }

    /// The words of a failed phrase as text, for its error message (`@` dropped).
    package static func phraseTexts(_ b: UnsafeBufferPointer<UInt8>, _ ws: [Word], _ k: Int, _ count: Int) -> [String] {
        (0..<count).map { m in m == 0 ? string(b, ws[k].start + 1, ws[k].end) : string(b, ws[k + m].start, ws[k + m].end) }
    }

    package static func lower(_ b: UnsafeBufferPointer<UInt8>, _ s: Int, _ word: StaticString) -> Bool {
        var k = 0
        var ok = true
        word.withUTF8Buffer { w in
            for c in w {
                var x = b[s + k]
                if x >= 0x41, x <= 0x5A { x |= 0x20 }
                if x != c { ok = false; return }
                k += 1
            }
        }
        return ok
    }

    /// Abbreviations that are also English words: alone at the end of a line they stay text
    /// ("Enjoy the sun"), while `on sun` or `sun 9am` still read as a date.
    package static let ambiguousAlone: Set<String> = ["sun", "sat", "wed", "mar", "may", "jun", "jan", "aug", "now", "thu", "tue", "mon", "fri"]

    package static func naturalDate(_ b: UnsafeBufferPointer<UInt8>, _ ws: [Word], _ keep: inout [Bool], _ draft: inout TaskDraft,
                            _ ctx: DateContext, explain: Bool, tokens wantTokens: Bool) {
        // The kept plain words at the end of the line.
        var tail: [Int] = []
        var k = ws.count - 1
        while k >= 0, keep[k], ws[k].kind == .plain, tail.count < 8 {
            tail.insert(k, at: 0)
            k -= 1
        }
        let keptCount = keep.filter { $0 }.count
        let all = tail.map { DateVocabulary.classify(b, from: ws[$0].start, to: ws[$0].end) }
        // Only a tail that starts with a date word can be a phrase; most lines end in title words.
        guard all.contains(where: { if case .other = $0 { return false }; return true }) else { return }
        for from in 0..<tail.count {
            let idx = Array(tail[from...])
            // The title must keep at least one word.
            guard keptCount - idx.count >= 1 else { continue }
            let classes = Array(all[from...])
            if case .other = classes[0] { continue }
            guard case .success(let (spec, used)) = DatePhraseParser.parse(classes), used == idx.count else { continue }
            if idx.count == 1, ambiguousAlone.contains(string(b, ws[idx[0]].start, ws[idx[0]].end).lowercased()) { continue }
            guard case .success(let r) = DatePhrase.resolve(spec, in: ctx, explain: explain) else { continue }
            draft.due = r.due
            if explain { draft.dueRule = r.rule }
            var first = idx[0]
            // A connector before the date goes with it: "Board offsite on Friday".
            if first > 0, keep[first - 1], ws[first - 1].kind == .plain, keptCount - idx.count >= 2 {
                let p = string(b, ws[first - 1].start, ws[first - 1].end).lowercased()
                if p == "on" || p == "by" || p == "due" || p == "at" { first -= 1 }
            }
            if let sl = r.ambiguousSlash { draft.ambiguousSlash = (sl, ws[idx[0]].start, ws[idx[idx.count - 1]].end) }
            if wantTokens { draft.tokens.append(CaptureToken(kind: .date, start: ws[first].start, end: ws[idx[idx.count - 1]].end,
                                             text: string(b, ws[first].start, ws[idx[idx.count - 1]].end))) }
            for m in first...idx[idx.count - 1] { keep[m] = false }
            return
        }
    }

    /// The title: the kept words with the spacing they had, escapes undone, and the literal rest.
    package static func title(_ b: UnsafeBufferPointer<UInt8>, _ ws: [Word], _ keep: [Bool], _ literalFrom: Int?) -> String {
        // Written straight into the String's storage: one allocation for the title.
        String(unsafeUninitializedCapacity: b.count + 1) { out in
            var n = 0
            var prevEnd = -1
            for (k, w) in ws.enumerated() where keep[k] {
                if n > 0 {
                    // The gap before this word as written, or one space when tokens were cut out.
                    var g = w.start
                    while g > 0, isSpace(b[g - 1]) { g -= 1 }
                    if g == prevEnd {
                        for x in g..<w.start { out[n] = b[x]; n += 1 }
                    } else {
                        out[n] = 0x20
                        n += 1
                    }
                }
                var x = w.start
                if w.kind == .escaped {
                    while x < w.end {
                        if b[x] == UInt8(ascii: "\\"), x + 1 < w.end { out[n] = b[x + 1]; x += 2 } else { out[n] = b[x]; x += 1 }
                        n += 1
                    }
                } else {
                    while x < w.end { out[n] = b[x]; n += 1; x += 1 }
                }
                prevEnd = w.end
            }
            if let lit = literalFrom, lit < b.count {
                if n > 0 { out[n] = 0x20; n += 1 }
                for x in lit..<b.count { out[n] = b[x]; n += 1 }
            }
            while n > 0, isSpace(out[n - 1]) { n -= 1 }
            return n
        }
    }

    /// The completion of the word at `upTo` among date words (or repeat words), if it is the
    /// prefix of one.
    package static func complete(_ words: [String], upTo index: Int, date: Bool) -> String? {
        guard index < words.count else { return nil }
        let typed = words[index].lowercased()
        guard !typed.isEmpty else { return nil }
        let before = Array(words[..<index])
        let vocab = date ? DateVocabulary.words.map(\.0) : RepeatPhrase.vocabulary
        // The first word with that prefix that the grammar accepts in that place: after
        // `next`, `fr` is `friday`, not `from`.
        for hit in vocab where hit.count > typed.count && hit.hasPrefix(typed) {
            let candidate = before + [hit]
            if date {
                if case .success(let (_, used)) = DatePhraseParser.parse(DatePhrase.classify(candidate)), used == candidate.count {
                    return candidate.joined(separator: " ")
                }
            } else if case .success(let (_, used)) = RepeatRule.parse(words: candidate), used == candidate.count {
                return candidate.joined(separator: " ")
            }
        }
        return nil
    }
}
