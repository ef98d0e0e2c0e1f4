// The parser's statements of a repeat's own dates (docs/REPEATS.md, "Skipping and adding
// dates"): skip, unskip, rdate and unrdate. Each parse function quotes its production.

import KeptRules

extension Parser {
    /// skip_stmt ::= "skip" ( "next" task_target | bounded_target DATE_PHRASE ) ;
    package mutating func parseSkipStmt() throws(Diagnostic) -> StatementKind {
        if peek.isWord("next") {
            _ = advance()
            return .repeatDates(.skipNext(try parseTaskTarget(after: "skip next")))
        }
        let t = try parseBoundedTarget(after: "skip")
        let when = try requireRest("the date to skip", after: "skip \(t.describe)",
                                   example: "skip \(t.describe) jul 1, or skip next \(t.describe) for its next occurrence")
        return .repeatDates(.skip(t, when))
    }

    /// unskip_stmt ::= "unskip" bounded_target DATE_PHRASE ;
    package mutating func parseUnskipStmt() throws(Diagnostic) -> StatementKind {
        let t = try parseBoundedTarget(after: "unskip")
        let when = try requireRest("the skipped date", after: "unskip \(t.describe)", example: "unskip \(t.describe) jul 1")
        return .repeatDates(.unskip(t, when))
    }

    /// rdate_stmt ::= ( "rdate" | "unrdate" ) bounded_target DATE_PHRASE ;
    package mutating func parseRdateStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let add = kw.text.lowercased() == "rdate"
        let verb = add ? "rdate" : "unrdate"
        let t = try parseBoundedTarget(after: verb)
        let when = try requireRest(add ? "the date to add" : "the added date", after: "\(verb) \(t.describe)",
                                   example: "\(verb) \(t.describe) sat 5pm")
        return .repeatDates(add ? .rdate(t, when) : .unrdate(t, when))
    }
}
