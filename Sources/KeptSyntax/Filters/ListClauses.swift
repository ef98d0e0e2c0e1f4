// What `list` takes besides a filter: a view (`list today`), `order by`, `limit` and
// `group by due` (docs/FILTERS.md, R-VIEW-1, R-VIEW-4). Read from the statement's tokens with
// the statement, in one pass: each filter is read to its syntax up to the comma or the clause
// that ends it, outside parentheses, and the next part or the clauses go on from there. Each
// parse function quotes its production.

import KeptRules

/// One filter or view of a list: `list today, overdue` has two (Todoist's comma form), each
/// printed as its own section.
public struct ListPart: Sendable {
    /// The view the part names, if it is one.
    public var view: ListView?
    /// The part's filter, read, when it is no view.
    public var filter: FilterSource?
    /// The part as written, for its section's head.
    public var text: String
}

/// The parts of a list statement after its command word.
public struct ListClauses: Sendable {
    /// The filters or views, in order; none for a plain `list`.
    public var parts: [ListPart] = []
    public var order: SortOrder = []
    public var limit: Int?
    public var groupByDue = false

    public init() {}
}

/// Reads the clauses of `list`.
public struct ListClauseParser {
    package let tokens: [Token]
    package let source: StatementSource
    package var pos: Int
    package let end: Int

    package var file: SourceFile { source.file }

    /// A reader of `tokens[range]`; `range.upperBound` is the index of the token after the body.
    public init(source: StatementSource, tokens: [Token], range: Range<Int>) {
        self.tokens = tokens
        self.pos = range.lowerBound
        self.end = range.upperBound
        self.source = source
    }

    package var peek: Token { tokens[min(pos, end)] }
    package func at(_ k: Int) -> Token { tokens[min(pos + k, end)] }

    package static func isClauseStart(_ tokens: [Token], _ k: Int) -> Bool {
        let t = tokens[k]
        let n = k + 1 < tokens.count ? tokens[k + 1] : t
        return (t.isWord("order") && n.isWord("by")) || (t.isWord("group") && n.isWord("by")) || (t.isWord("limit") && looksLikeANumber(n))
    }

    /// A number, or a word that a reader takes for one (`-1`, `+5`, `2.5`): after `limit` it is
    /// the clause's, and refused there, never quietly a text search for "limit -1".
    package static func looksLikeANumber(_ t: Token) -> Bool {
        if t.kind == .number { return true }
        guard t.kind == .word else { return false }
        var b = Substring(t.text)
        if b.first == "-" || b.first == "+" { b = b.dropFirst() }
        guard let d = b.first, d.isASCII, d.isNumber else { return false }
        return b.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == "." }
    }

    /// list_body ::= [ list_part { "," list_part } ] { list_clause } ;
    public mutating func parseListBody() throws(Diagnostic) -> ListClauses {
        let start = pos
        var c = ListClauses()
        if pos < end, !ListClauseParser.isClauseStart(tokens, pos) {
            while true {
                // A part ends at a comma, a clause or the end: none may stand where one starts.
                if pos >= end || tokens[pos].isPunct(",") || ListClauseParser.isClauseStart(tokens, pos) {
                    let r = tokens[pos].range
                    throw Catalog.emptyCommaFilter(range: pos > start ? tokens[pos - 1].range.union(r) : r, file: file)
                }
                c.parts.append(parseListPart())
                guard pos < end, tokens[pos].isPunct(",") else { break }
                pos += 1
            }
        }
        while pos < end {
            try parseListClause(&c)
        }
        return c
    }

    /// list_part ::= list_view | filter ;
    package mutating func parseListPart() -> ListPart {
        let from = pos
        let view = parseListView()
        var filter: FilterSource? = nil
        if view == nil {
            // A part's error is its section's: the sections before it still print their errors
            // first, and the next part starts where this one ends.
            var p = FilterParser(source: source, tokens: tokens, range: from..<end, stops: .listParts)
            let parsed: Result<ParsedFilter, Diagnostic>
            do throws(Diagnostic) { parsed = .success(try p.parseWhole()) } catch { parsed = .failure(error) }
            _ = p.skipToStop()
            pos = p.pos
            filter = FilterSource(parsed: parsed, range: tokens[from].range.union(tokens[pos - 1].range))
        }
        let range = tokens[from].range.union(tokens[pos - 1].range)
        return ListPart(view: view, filter: filter, text: source.rawText(range))
    }

    /// list_view ::= "today" | "tomorrow" | "next" "7" "days" | "all" | "archived" | "done" "today" ;
    /// A view is a whole part: its words, up to the comma, clause or end after them. On a view,
    /// `pos` moves to that end; otherwise it stays.
    package mutating func parseListView() -> ListView? {
        var k = pos
        var words: [String] = []
        // No view is longer than three words; a parenthesis is in none.
        while k < end, words.count < 3, !tokens[k].isPunct(","), !tokens[k].isPunct("("), !tokens[k].isPunct(")"),
              k == pos || !ListClauseParser.isClauseStart(tokens, k) {
            words.append(tokens[k].text.lowercased())
            k += 1
        }
        guard k >= end || tokens[k].isPunct(",") || ListClauseParser.isClauseStart(tokens, k),
              let view = ListView(rawValue: words.joined(separator: " ")) else { return nil }
        pos = k
        return view
    }

    /// list_clause ::= "order" "by" order_key { "," order_key } | "limit" NUMBER | "group" "by" "due" ;
    package mutating func parseListClause(_ c: inout ListClauses) throws(Diagnostic) {
        let t = peek
        if t.isWord("limit") {
            pos += 1
            guard peek.kind == .number, let n = Int(peek.text) else { throw Catalog.badListLimit(found: peek.found, range: peek.range, file: file) }
            c.limit = n
            pos += 1
            return
        }
        if t.isWord("group") {
            pos += 2
            guard peek.isWord("due") else {
                throw Catalog.groupByDueOnly(range: peek.range, file: file)
            }
            c.groupByDue = true
            pos += 1
            return
        }
        if t.isWord("order") {
            pos += 2
            try parseOrderKey(&c)
            while peek.isPunct(",") {
                pos += 1
                try parseOrderKey(&c)
            }
            return
        }
        throw Catalog.unexpectedAfterClauses(t.text, range: t.range, file: file)
    }

    /// order_key ::= ORDER_FIELD [ "asc" | "desc" ] ;
    package mutating func parseOrderKey(_ c: inout ListClauses) throws(Diagnostic) {
        let t = peek
        guard let k = OrderKey(rawValue: t.text.lowercased()) else {
            throw Catalog.unknownField(t.text, range: t.range, file: file, candidates: OrderKey.allCases.map(\.rawValue), label: "not a key to order by")
        }
        pos += 1
        var desc = false
        if peek.isWord("desc") { desc = true; pos += 1 } else if peek.isWord("asc") { pos += 1 }
        c.order.append((k, desc))
    }
}
