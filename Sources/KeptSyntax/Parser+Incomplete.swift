// Whether a statement is unfinished, so a front end reading line by line (the REPL) asks for
// another line instead of reporting an error: a quote still open, or a filter's '(' not closed.

import KeptRules

extension Parser {
    /// Commands whose words are free text, or take no filter: a '(' there is part of a title
    /// (or of a connection string), never a filter's.
    package static let freeTextCommands: Set<Keyword> = [.add, .capture, .parse, .subtask, .comment, .step, .help, .sync, .account]

    /// True when the statement cannot end here: a `"` is still open, or a filter's `(` has no
    /// `)` yet (in `list`, `count`, `explain`, `filter`, and after `where`). An unfinished
    /// statement is not an error in the REPL; it continues on the next line.
    public static func isIncomplete(_ source: StatementSource) -> Bool {
        var lexer = Lexer(file: source.file, statement: source)
        let tokens = lexer.tokenize()
        if lexer.diagnostics.contains(where: Catalog.isUnclosedQuote) { return true }
        guard let first = tokens.first, first.kind == .word else { return false }
        let kw = Keyword(rawValue: first.text.lowercased())
        let hasWhere = tokens.contains { $0.isWord("where") }
        if let kw, freeTextCommands.contains(kw), !hasWhere { return false }
        var depth = 0
        for t in tokens {
            if t.isPunct("(") { depth += 1 }
            if t.isPunct(")") { depth -= 1 }
        }
        return depth > 0
    }
}
