// The filter language's parser (Grammar/kept.ebnf, the filter productions): a run of a
// statement's tokens to a FilterSyntax, with no store and no clock, or a diagnostic. Each parse
// function quotes its production. Names and dates stay as written; FilterBinder binds them. A
// word that looks like an operator but is not one is searched for, with a warning. The parser
// finds where its filter ends as it reads: at a comma or a list clause outside parentheses,
// when its caller says so (`Stops`), with no look ahead over the tokens first.

import KeptRules

/// Parses filters.
public struct FilterParser {
    /// What ends a filter before the end of its range, outside parentheses.
    public enum Stops: Sendable {
        /// Nothing: a comma is an error of the filter (a saved filter's text, `parse filter`).
        case none
        /// A comma: where a comma list of filters would go on (`count a, b` is refused there).
        case commas
        /// A comma or a list clause (`order by`, `group by`, `limit N`): a part of `list`.
        case listParts
    }

    package let source: StatementSource
    package let tokens: [Token]
    package var pos: Int
    /// The filter is at most tokens[start..<end]; tokens[end] is what follows it (the end of
    /// the statement, the `limit` of a plan or what follows the `)` of a `where (…)`).
    package let end: Int
    /// What else ends the filter, outside parentheses.
    package let stops: Stops
    /// How many parentheses the tokens read so far leave open; a stop counts only at 0.
    package var parens = 0
    /// How deep the parse is: parentheses, `not`s, `-`s and the saved filters around it
    /// (Limits.filterDepth), so no filter can recurse to the end of the stack.
    package var depth: Int
    /// A word whose first bytes were read as glued `-`s (`-#someday`): its index and how many,
    /// so `peek` reads the rest of it as the next token.
    package var glued: (index: Int, skip: Int)? = nil
    /// The last token read, for the ranges of terms.
    package var last: Token
    /// Words that look like operators (each a warning), in source order.
    public private(set) var warnings: [Diagnostic] = []

    package var file: SourceFile { source.file }

    /// A parser for `tokens[range]`; `range.upperBound` is the index of the token after the
    /// filter, unless one of `stops` ends it before.
    public init(source: StatementSource, tokens: [Token], range: Range<Int>, stops: Stops = .none, depth: Int = 0) {
        self.source = source
        self.tokens = tokens
        self.pos = range.lowerBound
        self.end = min(range.upperBound, tokens.count - 1)
        self.stops = stops
        self.depth = depth
        self.last = tokens[min(range.lowerBound, tokens.count - 1)]
    }

    /// Parses a whole filter text (a saved filter's); `depth` is how deep it is used.
    public static func parse(_ text: String, name: String, depth: Int = 0) -> Result<ParsedFilter, Diagnostic> {
        let file = SourceFile(name: "filter \(name)", text: text)
        let src = StatementSource(file: file)
        var lexer = Lexer(file: file, statement: src)
        let toks = lexer.tokenize()
        if let d = lexer.diagnostics.first { return .failure(d) }
        var p = FilterParser(source: src, tokens: toks, range: 0..<(toks.count - 1), depth: depth)
        do throws(Diagnostic) {
            return .success(try p.parseWhole())
        } catch {
            return .failure(error)
        }
    }

    /// The whole range as one filter, with its warnings.
    public mutating func parseWhole() throws(Diagnostic) -> ParsedFilter {
        guard !atEnd else { throw Catalog.expected("a filter", after: last.text, found: peek.found, range: peek.range, file: file) }
        let e = try parseFilter()
        guard atEnd else { throw Catalog.unexpectedInFilter(peek.text, range: peek.range, file: file) }
        return ParsedFilter(syntax: e, warnings: warnings, source: source)
    }

    // MARK: tokens

    /// True when tokens[i] ends the filter, `parens` parentheses being open before it.
    package func stops(at i: Int, parens: Int) -> Bool {
        guard i < end else { return true }
        guard parens == 0 else { return false }
        switch stops {
        case .none: return false
        case .commas: return tokens[i].isPunct(",")
        case .listParts: return tokens[i].isPunct(",") || ListClauseParser.isClauseStart(tokens, i)
        }
    }

    /// How a token changes the count of open parentheses.
    package static func parenStep(_ t: Token) -> Int { t.isPunct("(") ? 1 : t.isPunct(")") ? -1 : 0 }

    package var atEnd: Bool { stops(at: pos, parens: parens) }

    /// The token at `pos`, or the one after the filter at its end (the parser never reads past it).
    package var peek: Token { token(min(pos, end)) }

    /// The token `k` ahead, or the one after the filter when the filter ends before it, and
    /// whether it did.
    package func ahead(_ k: Int) -> (token: Token, ended: Bool) {
        var open = parens
        var i = pos
        while true {
            if stops(at: i, parens: open) { return (tokens[min(i, end)], true) }
            if i == pos + k { return (token(i), false) }
            open += Self.parenStep(tokens[i])
            i += 1
        }
    }

    package func at(_ k: Int) -> Token { ahead(k).token }

    package func token(_ i: Int) -> Token {
        let t = tokens[i]
        guard let g = glued, g.index == i else { return t }
        return Token(kind: .word, text: String(t.text.utf8.dropFirst(g.skip)) ?? "", range: SourceRange(start: t.range.start + g.skip, end: t.range.end))
    }

    @discardableResult
    package mutating func advance() -> Token {
        let t = peek
        if !atEnd {
            parens += Self.parenStep(tokens[pos])
            pos += 1
        }
        last = t
        return t
    }

    /// After a filter read, or one that failed at `pos`: goes on to where the filter ends,
    /// counting parentheses as the parser does, and gives the comma there, if it ends at one.
    /// A failed part of a list ends there too, and a comma list is refused before any other
    /// error of its first filter.
    package mutating func skipToStop() -> Token? {
        while !atEnd {
            parens += Self.parenStep(tokens[pos])
            pos += 1
        }
        return pos < end && tokens[pos].isPunct(",") ? tokens[pos] : nil
    }

    /// True for what ends a term: `and`, `or`, their signs, parentheses, or the filter's end.
    package func isOperator(_ t: Token) -> Bool {
        t.isPunct("|") || t.isPunct("&") || t.isPunct(")") || t.isPunct("(") || t.isPunct(",") || t.isWord("or") || t.isWord("and")
            || t.kind == .end
    }

    package func isOperator(at k: Int) -> Bool {
        let a = ahead(k)
        return a.ended || isOperator(a.token)
    }

    // MARK: structure

    /// filter ::= or_filter ;
    public mutating func parseFilter() throws(Diagnostic) -> FilterSyntax {
        let e = try parseOrFilter()
        if !atEnd, peek.isPunct(")") { throw Catalog.unmatchedParen(peek.range, file: file) }
        return e
    }

    /// or_filter ::= and_filter { ( "or" | "|" ) and_filter } ;
    package mutating func parseOrFilter() throws(Diagnostic) -> FilterSyntax {
        var xs = [try parseAndFilter()]
        while !atEnd, peek.isWord("or") || peek.isPunct("|") {
            let op = advance()
            guard !atEnd, !peek.isPunct(")") else { throw Catalog.expected("a filter", after: op.text, found: peek.found, range: peek.range, file: file) }
            xs.append(try parseAndFilter())
        }
        return xs.count == 1 ? xs[0] : .or(xs)
    }

    /// and_filter ::= unary_filter { [ "and" | "&" ] unary_filter } ;
    package mutating func parseAndFilter() throws(Diagnostic) -> FilterSyntax {
        var xs = [try parseUnaryFilter()]
        while !atEnd {
            if peek.isWord("and") || peek.isPunct("&") {
                let op = advance()
                guard !isOperator(at: 0) || (!atEnd && peek.isPunct("(")) else {
                    throw Catalog.expected("a filter", after: op.text, found: peek.found, range: peek.range, file: file)
                }
                xs.append(try parseUnaryFilter())
                continue
            }
            if peek.isPunct(")") || peek.isPunct("|") || peek.isWord("or") { break }
            // Juxtaposition is `and`.
            xs.append(try parseUnaryFilter())
        }
        // Bare words next to each other are one search: every word must match (R-FIL-3).
        var merged: [FilterSyntax] = []
        for x in xs {
            if case .term(let t) = x, case .words(let w, let q) = t.kind, case .term(let p)? = merged.last, case .words(let pw, let pq) = p.kind {
                merged[merged.count - 1] = .term(TermSyntax(kind: .words(pw + w, quoted: pq && q), range: p.range.union(t.range)))
            } else {
                merged.append(x)
            }
        }
        return merged.count == 1 ? merged[0] : .and(merged)
    }

    /// unary_filter ::= ( "not" | "-" ) unary_filter | "(" or_filter ")" | filter_term ;
    package mutating func parseUnaryFilter() throws(Diagnostic) -> FilterSyntax {
        let t = peek
        // `not X`, `- X` and `-(…)`: a `-` standing alone negates what follows, as `not` does.
        if t.isWord("not") || (t.kind == .word && t.text == "-") {
            try enter(t)
            defer { depth -= 1 }
            advance()
            guard !isOperator(at: 0) || (!atEnd && peek.isPunct("(")) else {
                throw Catalog.expected("a filter", after: t.text, found: peek.found, range: peek.range, file: file)
            }
            return .not(try parseUnaryFilter(), t.range)
        }
        if t.isPunct("(") {
            try enter(t)
            defer { depth -= 1 }
            advance()
            guard !atEnd, !peek.isPunct(")") else { throw Catalog.expected("a filter", after: "(", found: peek.found, range: peek.range, file: file) }
            let e = try parseOrFilter()
            guard !atEnd, peek.isPunct(")") else {
                let (l, c) = file.lineColumn(of: t.range.start)
                throw Catalog.parenNotClosed(open: t.range, line: l, column: c, end: SourceRange.at(peek.range.start), file: file)
            }
            advance()
            return e
        }
        // `-#someday`: a minus glued to a term negates it; `-5` is a number to search for.
        if t.kind == .word, t.text.hasPrefix("-"), t.text.utf8.count > 1, !t.text.utf8.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            try enter(t)
            defer { depth -= 1 }
            glued = (pos, (glued?.index == pos ? glued?.skip ?? 0 : 0) + 1)
            return .not(try parseUnaryFilter(), SourceRange(start: t.range.start, end: t.range.start + 1))
        }
        return .term(try parseFilterTerm())
    }

    /// One level deeper, or an error at the token that would go past `Limits.filterDepth`.
    package mutating func enter(_ t: Token) throws(Diagnostic) {
        guard depth < Limits.filterDepth else { throw Catalog.filterTooDeep(file: file, range: t.range) }
        depth += 1
    }

    // MARK: terms

    /// The fields a filter compares or reads with `:`.
    package static let fields = ["due", "priority", "estimate", "created", "modified", "completed", "deleted", "title", "description", "project",
                         "area", "status", "repeat", "tag", "parent"]
    /// The fields of `FIELD:VALUE`.
    package static let colonFields = ["project", "area", "tag", "status", "repeat", "priority", "parent", "filter"]
    /// The fields of `FIELD OP VALUE`.
    package static let comparedFields = ["due", "priority", "estimate", "created", "modified", "completed", "deleted", "title", "description"]
    /// The single words that are terms.
    package static let predicates = ["overdue", "repeating", "open", "done", "archived", "held", "blocked", "blocking"]

    /// A term from `start` to the last token read (read its value into a local first: the
    /// arguments of a call on `self` are evaluated after `self` is).
    package func term(_ k: TermKind, from start: SourceRange) -> TermSyntax {
        TermSyntax(kind: k, range: start.union(last.range), depth: depth)
    }

    /// filter_term ::= TAG | PROJECT | PRIORITY | NOTE | window | comparison | field_value | date_in | done_term | PREDICATE
    ///   | "search" ( STRING | WORD ) | STRING | WORD ;
    package mutating func parseFilterTerm() throws(Diagnostic) -> TermSyntax {
        let t = peek
        let r = t.range
        if t.kind == .string {
            advance()
            return term(.words(SearchText.words(t.text), quoted: true), from: r)
        }
        guard !atEnd, t.kind == .word || t.kind == .number else { throw Catalog.notAFilterTerm(t.text, range: t.range, file: file) }
        let w = t.text
        let lower = w.lowercased()
        if w.hasPrefix("#"), w.count > 1 { advance(); return term(.tag(String(w.dropFirst())), from: r) }
        if w == "+", at(1).kind == .string, !isOperator(at: 1) { advance(); let s = advance(); return term(.project(s.text), from: r) }
        if w.hasPrefix("+"), w.count > 1 { advance(); return term(.project(String(w.dropFirst())), from: r) }
        if w.hasPrefix("!"), w.count > 1 {
            advance()
            guard let p = Priority(word: String(w.dropFirst())) else {
                throw Catalog.badFieldValue("priority", value: w, range: r, file: file, expected: "!low, !medium, !high, !critical",
                                            help: Catalog.didYouMean(Suggestion.nearest(String(w.dropFirst()), in: Priority.words), sign: "!"))
            }
            return term(.priority(.equal, p), from: r)
        }
        if w.hasPrefix("[[") { return try parseNote() }
        if w.hasPrefix("@"), w.count > 1 {
            if lower == "@overdue" { advance(); return term(.predicate(.overdue), from: r) }
            let w = try parseWindow()
            return term(.window(w), from: r)
        }
        if let colon = w.firstIndex(of: ":"), colon != w.startIndex, w.index(after: colon) != w.endIndex || (at(1).kind == .string && !isOperator(at: 1)) {
            return try parseFieldValue()
        }
        if !isOperator(at: 1), at(1).kind == .punct, ["<", "<=", ">", ">=", "=", "~"].contains(at(1).text) { return try parseComparison() }
        if let f = DateField(rawValue: lower), !isOperator(at: 1) {
            let n = at(1).text.lowercased()
            if n == "before" || n == "after" { return try parseComparison() }
            if n.hasPrefix("@"), n.count > 1, f != .due { return try parseDateIn(f) }
        }
        switch lower {
        case "open": advance(); return term(.status(.open), from: r)
        case "archived": advance(); return term(.status(.archived), from: r)
        case "done": return try parseDoneTerm()
        case "search":
            advance()
            guard !atEnd, peek.kind == .string || peek.kind == .word else {
                throw Catalog.expected("words to search for", after: "search", found: peek.found, range: peek.range, file: file)
            }
            return term(.words(SearchText.words(advance().text), quoted: true), from: r)
        case "no", "has", "is":
            if !isOperator(at: 1), at(1).kind == .word {
                let noun = at(1).text.lowercased()
                if lower == "no", noun == "due" { advance(); advance(); return term(.predicate(.noDue), from: r) }
                if lower == "no", let p = FilterPredicate.negated(noun) { advance(); advance(); return term(.notPredicate(p), from: r) }
                if let p = FilterPredicate.allCases.first(where: { $0.spellings.contains(lower + " " + noun) }) {
                    advance(); advance()
                    return term(.predicate(p), from: r)
                }
                // `has subtask` is a term, `has kids` two words: searched for, with a warning.
                let words = lower + " " + noun
                advance(); advance()
                warn(words, SourceRange(start: r.start, end: last.range.end), FilterLookAlike.nearestPhrase(words))
                return term(.words(SearchText.words(words), quoted: false), from: r)
            }
        default:
            if let p = FilterPredicate(rawValue: lower) { advance(); return term(.predicate(p), from: r) }
        }
        if Self.fields.contains(lower), !isOperator(at: 1) {
            // A field name followed by a word: probably a comparison without its operator.
            throw Catalog.comparisonMissing(after: w, field: lower, at: at(1).range, file: file)
        }
        advance()
        // A word that looks like an operator is still a word search, with a warning.
        let next = isOperator(at: 0) ? nil : peek
        if let hint = FilterLookAlike.nearest(lower, next: next?.text.lowercased()) {
            if hint.takesNext, let n = next {
                advance()
                warn(w + " " + n.text, r.union(n.range), hint.text)
                return term(.words(SearchText.words(w + " " + n.text), quoted: false), from: r)
            }
            warn(w, r, hint.text)
        }
        return term(.words(SearchText.words(w), quoted: false), from: r)
    }

    package mutating func warn(_ words: String, _ r: SourceRange, _ nearest: String?) {
        warnings.append(Catalog.lookAlike(words, range: r, file: file, nearest: nearest))
    }

    package mutating func parseNote() throws(Diagnostic) -> TermSyntax {
        let first = advance()
        var text = first.text
        var end = first.range.end
        while !text.hasSuffix("]]"), !atEnd {
            let t = advance()
            text += " " + t.text
            end = t.range.end
        }
        guard text.hasSuffix("]]"), text.count >= 4 else {
            throw Catalog.noteNotClosed(SourceRange(start: first.range.start, end: end), file: file)
        }
        return term(.note(String(text.dropFirst(2).dropLast(2))), from: first.range)
    }

    /// field_value ::= FIELD ":" ( WORD | STRING ) ;
    package mutating func parseFieldValue() throws(Diagnostic) -> TermSyntax {
        let t = advance()
        let parts = t.text.split(separator: ":", maxSplits: 1).map(String.init)
        let field = parts[0].lowercased()
        var value = parts.count > 1 ? parts[1] : ""
        if value.isEmpty, !atEnd, peek.kind == .string { value = advance().text }
        let r = t.range
        switch field {
        case "project": return term(.project(value), from: r)
        case "area": return term(.area(value), from: r)
        case "tag": return term(.tag(value), from: r)
        case "status":
            switch value.lowercased() {
            case "any", "all": return term(.status(.any), from: r)
            case "open": return term(.status(.open), from: r)
            case "done": return term(.status(.done), from: r)
            case "archived": return term(.status(.archived), from: r)
            default: return term(.status(.named(value.lowercased())), from: r)
            }
        case "filter":
            return term(.saved(value), from: r)
        case "repeat":
            guard let f = RepeatRule.Frequency(rawValue: value.lowercased()) else {
                throw Catalog.badFieldValue("repeat", value: value, range: r, file: file, expected: "daily, weekly, monthly, yearly, hourly or minutely",
                                            help: Catalog.didYouMean(Suggestion.nearest(value, in: RepeatRule.Frequency.allCases.map(\.rawValue))))
            }
            return term(.repeatFrequency(f), from: r)
        case "priority":
            guard let p = Priority(word: value) else {
                throw Catalog.badFieldValue("priority", value: value, range: r, file: file, expected: "low, medium, high or critical",
                                            help: Catalog.didYouMean(Suggestion.nearest(value, in: Priority.words)))
            }
            return term(.priority(.equal, p), from: r)
        case "parent":
            if NumberWords.hasTooLargeNumber(value) { throw Catalog.numberTooLarge(value, range: r, file: file) }
            guard let id = Limits.number(value.utf8), id >= 1 else {
                throw Catalog.badFieldValue("parent", value: value, range: r, file: file, expected: "a task id, like parent:12")
            }
            return term(.parent(id), from: r)
        default:
            // Taskwarrior's `due:today`, `title:x`: Kept's own spelling of the term (R-FIL-7).
            if let kept = Self.keptForm(field: field, value: value) {
                throw Catalog.foreignFieldTerm(field, range: SourceRange(start: r.start, end: r.start + field.utf8.count), file: file,
                                               whole: r, keptForm: kept)
            }
            throw Catalog.unknownField(field, range: SourceRange(start: r.start, end: r.start + field.utf8.count), file: file,
                                       candidates: Self.colonFields, label: "not a field a filter reads with ':'")
        }
    }

    /// Kept's spelling of a Taskwarrior `FIELD:VALUE` term whose field Kept reads only with a
    /// comparison (`due:today` is `@today`, `created:today` is `created @today`, `title:x` is a
    /// search), or nil for a field Kept does not know.
    package static func keptForm(field: String, value: String) -> String? {
        guard !value.isEmpty, !value.contains(" "), !value.contains("\"") else { return nil }
        switch field {
        case "due": return "@" + value
        case "scheduled": return "due >= " + value
        case "entry": return "created @" + value
        case "created", "modified", "completed", "deleted": return field + " @" + value
        case "end": return "completed @" + value
        case "title", "description": return value
        case "estimate": return "estimate = " + value
        case "tags": return "#" + value
        default: return nil
        }
    }

    /// comparison ::= FIELD ( "<" | "<=" | ">" | ">=" | "=" ) VALUE | DATE_FIELD ( "before" | "after" ) date_value
    ///   | ( "title" | "description" ) "~" REGEX ;
    package mutating func parseComparison() throws(Diagnostic) -> TermSyntax {
        let f = advance()
        let op = advance()
        let field = f.text.lowercased()
        guard Self.comparedFields.contains(field) else {
            throw Catalog.unknownField(f.text, range: f.range, file: file, candidates: Self.comparedFields)
        }
        if op.text == "~" {
            guard let rf = RegexField(rawValue: field) else { throw Catalog.regexOnNonText(field, range: f.range, file: file) }
            let re = try parseRegex(rf, after: op)
            return term(re, from: f.range)
        }
        let cmp: Comparison
        if op.isWord("before") { cmp = .less } else if op.isWord("after") { cmp = .greater } else {
            guard let c = Comparison(rawValue: op.text) else { throw Catalog.notAComparison(after: f.text, at: op.range, file: file) }
            cmp = c
        }
        let v = peek
        guard !atEnd, v.kind == .word || v.kind == .number else { throw Catalog.expected("a value", after: op.text, found: v.found, range: v.range, file: file) }
        switch field {
        case "priority":
            advance()
            guard let p = Priority(word: v.text) else {
                throw Catalog.badFieldValue("priority", value: v.text, range: v.range, file: file, expected: "low, medium, high or critical",
                                            help: Catalog.didYouMean(Suggestion.nearest(v.text, in: Priority.words)))
            }
            return term(.priority(cmp, p), from: f.range)
        case "estimate":
            advance()
            if NumberWords.hasTooLargeNumber(v.text) { throw Catalog.numberTooLarge(v.text, range: v.range, file: file) }
            guard let m = NumberWords.minutes(v.text) else {
                throw Catalog.badFieldValue("estimate", value: v.text, range: v.range, file: file, expected: "a duration like 15m, 1h or 90m")
            }
            return term(.estimate(cmp, minutes: m), from: f.range)
        default:
            guard let df = DateField(rawValue: field) else { throw Catalog.textNeedsRegex(field, range: op.range, file: file) }
            let v = try parseDateValue()
            return term(.date(df, cmp, v), from: f.range)
        }
    }

    /// done_term ::= "done" [ "today" | window ] ;
    package mutating func parseDoneTerm() throws(Diagnostic) -> TermSyntax {
        let r = advance().range
        if !atEnd, peek.isWord("today") { advance(); return term(.doneToday, from: r) }
        if !atEnd, peek.kind == .word, peek.text.hasPrefix("@"), peek.text.count > 1, peek.text.lowercased() != "@overdue" {
            let w = try parseWindow()
            return term(.dateIn(.completed, w, doneOnly: true), from: r)
        }
        return term(.status(.done), from: r)
    }

    /// date_in ::= DATE_FIELD window ;
    package mutating func parseDateIn(_ f: DateField) throws(Diagnostic) -> TermSyntax {
        let t = advance()
        let w = try parseWindow()
        return term(.dateIn(f, w, doneOnly: false), from: t.range)
    }
}

/// A filter's syntax with the warnings its words gave.
public struct ParsedFilter: Sendable {
    public var syntax: FilterSyntax
    public var warnings: [Diagnostic]
    /// The statement (or saved filter text) it was read from.
    public var source: StatementSource
}
