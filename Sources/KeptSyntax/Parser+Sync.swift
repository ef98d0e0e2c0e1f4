// The statements of sync (docs/SYNC.md, "Statements and commands"): `sync …` and `account …`.
// A connection string may hold a password, so the source of an `account link` statement is
// masked before any diagnostic, echo or record could show it (R-SYNC-9).

import KeptRules

extension Parser {
    /// sync_stmt ::= "sync" [ "status" | "review" | ( "retry" | "discard" ) NUMBER ] ;
    package mutating func parseSyncStmt() throws(Diagnostic) -> StatementKind {
        let sub = peek
        if sub.kind == .end { return .sync(.sync) }
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        guard Keyword.sync.subcommands.contains(verb) else {
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "sync", file: file, candidates: Keyword.sync.subcommands)
        }
        _ = advance()
        switch verb {
        case "status":
            try expectEnd("sync status")
            return .sync(.status)
        case "review":
            try expectEnd("sync review")
            return .sync(.review)
        default:
            let n = peek
            guard n.kind == .number, let k = Int(n.text), k >= 1 else {
                throw Catalog.expected("the number of a refused change", after: "sync \(verb)", found: n.found, range: n.range, file: file,
                                       help: "'sync review' numbers them from 1, oldest first")
            }
            _ = advance()
            try expectEnd("sync \(verb)")
            return .sync(verb == "retry" ? .retry(k, n.range) : .discard(k, n.range))
        }
    }

    /// account_stmt ::= "account" [ "link" STRING ] ;
    package mutating func parseAccountStmt() throws(Diagnostic) -> StatementKind {
        let sub = peek
        if sub.kind == .end { return .account(link: nil) }
        guard sub.isWord("link") else {
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "account", file: file, candidates: Keyword.account.subcommands)
        }
        _ = advance()
        // R-SYNC-9: what follows `link` is never quoted back, since it may be a password.
        let value = peek
        guard value.kind == .string else {
            throw Catalog.connectionStringExpected(range: value.range, file: file, found: value.kind != .end)
        }
        _ = advance()
        guard atEnd else { throw Catalog.connectionStringExpected(range: peek.range, file: file, found: true) }
        return .account(link: TextArg(text: value.text, range: value.range))
    }

    /// Where the statement's secret is: everything after `account link`, or nil for any other
    /// statement.
    package static func secretRange(_ tokens: [Token], source: StatementSource) -> SourceRange? {
        guard tokens.count >= 3, tokens[0].isWord("account"), tokens[1].isWord("link"), tokens[2].kind != .end else { return nil }
        return SourceRange(start: tokens[2].range.start, end: source.range.end)
    }

    /// The statement with what could be a password masked (`account link "*****"`): every byte
    /// after `account link` but quotes, backslashes and white space becomes `*`, so the masked
    /// text lexes to tokens at the same places. Any other statement is returned as it is.
    /// Front ends show and keep this form (an echo, the history, a recording).
    public static func masked(_ source: StatementSource) -> StatementSource {
        // Most statements are told apart by their first word, without lexing them.
        let b = source.bytes
        var i = 0
        while i < b.count, Lexer.isSpace(b[i]) { i += 1 }
        let word = Array("account".utf8)
        guard i + word.count <= b.count, zip(b[i..<(i + word.count)], word).allSatisfy({ $0 | 0x20 == $1 }) else { return source }
        var lexer = Lexer(file: source.file, statement: source)
        return masked(source, tokens: lexer.tokenize())
    }

    package static func masked(_ source: StatementSource, tokens: [Token]) -> StatementSource {
        guard let secret = secretRange(tokens, source: source) else { return source }
        var file = source.file.bytes
        var bytes = source.bytes
        for k in secret.start..<secret.end {
            let j = k - source.range.start
            guard k >= 0, k < file.count, j >= 0, j < bytes.count else { continue }
            let b = bytes[j]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || Lexer.isSpace(b) { continue }
            bytes[j] = UInt8(ascii: "*")
            file[k] = UInt8(ascii: "*")
        }
        let f = SourceFile(name: source.file.name, bytes: file, firstLine: source.file.firstLine)
        return StatementSource(file: f, range: source.range, bytes: bytes)
    }
}
