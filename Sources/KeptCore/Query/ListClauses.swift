// What `list` takes besides a filter: a view (`list today`), `order by`, `limit` and
// `group by due` (docs/FILTERS.md, R-VIEW-1, R-VIEW-4). Read from the statement's tokens; the
// filter is what stands before the first clause. Each parse function quotes its production.

/// The views of R-VIEW-1.
public enum ListView: String, Sendable, CaseIterable {
    case today, tomorrow, next7 = "next 7 days", all, archived, doneToday = "done today"
}

/// A sort key of `order by`.
public enum OrderKey: String, Sendable, CaseIterable {
    case due, priority, created, title, id
}

/// The parts of a list statement after its command word.
public struct ListClauses: Sendable {
    public var view: ListView?
    /// The filter's tokens end before this index.
    public var filterEnd: Int
    public var order: [(key: OrderKey, descending: Bool)] = []
    public var limit: Int?
    public var groupByDue = false
}

/// Reads the clauses of `list`.
public struct ListClauseParser {
    let tokens: [Token]
    let file: SourceFile
    var pos: Int

    public init(tokens: [Token], from start: Int, file: SourceFile) {
        self.tokens = tokens
        self.pos = start
        self.file = file
    }

    var peek: Token { tokens[min(pos, tokens.count - 1)] }
    func at(_ k: Int) -> Token { tokens[min(pos + k, tokens.count - 1)] }

    static func isClauseStart(_ tokens: [Token], _ k: Int) -> Bool {
        let t = tokens[k]
        let n = k + 1 < tokens.count ? tokens[k + 1] : t
        return (t.isWord("order") && n.isWord("by")) || (t.isWord("group") && n.isWord("by")) || (t.isWord("limit") && n.kind == .number)
    }

    /// list_body ::= [ list_view | filter ] { list_clause } ;
    public mutating func parseListBody() throws(Diagnostic) -> ListClauses {
        let start = pos
        var end = start
        var depth = 0
        while end < tokens.count - 1 {
            if tokens[end].isPunct("(") { depth += 1 }
            if tokens[end].isPunct(")") { depth -= 1 }
            if depth == 0, ListClauseParser.isClauseStart(tokens, end) { break }
            end += 1
        }
        var c = ListClauses(view: parseListView(start, end), filterEnd: end)
        pos = end
        while peek.kind != .end {
            try parseListClause(&c)
        }
        return c
    }

    /// list_view ::= "today" | "tomorrow" | "next" "7" "days" | "all" | "archived" | "done" "today" ;
    func parseListView(_ start: Int, _ end: Int) -> ListView? {
        let words = tokens[start..<end].map { $0.text.lowercased() }.joined(separator: " ")
        return ListView(rawValue: words)
    }

    /// list_clause ::= "order" "by" order_key { "," order_key } | "limit" NUMBER | "group" "by" "due" ;
    mutating func parseListClause(_ c: inout ListClauses) throws(Diagnostic) {
        let t = peek
        if t.isWord("limit") {
            pos += 1
            guard let n = Int(peek.text), n >= 0 else { throw Catalog.expected("a number", after: "limit", at: peek, file: file) }
            c.limit = n
            pos += 1
            return
        }
        if t.isWord("group") {
            pos += 2
            guard peek.isWord("due") else {
                throw Catalog.groupByDueOnly(peek, file: file)
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
        throw Catalog.unexpectedAfterClauses(t, file: file)
    }

    /// order_key ::= ORDER_FIELD [ "asc" | "desc" ] ;
    mutating func parseOrderKey(_ c: inout ListClauses) throws(Diagnostic) {
        let t = peek
        guard let k = OrderKey(rawValue: t.text.lowercased()) else {
            throw Catalog.unknownField(t, file: file, candidates: OrderKey.allCases.map(\.rawValue), label: "not a key to order by")
        }
        pos += 1
        var desc = false
        if peek.isWord("desc") { desc = true; pos += 1 } else if peek.isWord("asc") { pos += 1 }
        c.order.append((k, desc))
    }
}
