// The parser's reminder statements (R-TASK-7): remind, unremind and reminders. Each parse
// function quotes its production.

import KeptRules

extension Parser {
    /// remind_stmt ::= "remind" bounded_target REMIND_TIME ;
    package mutating func parseRemindStmt() throws(Diagnostic) -> StatementKind {
        let t = try parseBoundedTarget(after: "remind")
        let when = try requireRest("a reminder time", after: "remind \(t.describe)", example: "remind \(t.describe) tomorrow morning")
        return .remind(t, when)
    }

    /// unremind_stmt ::= "unremind" bounded_target ( NUMBER | "all" ) ;
    package mutating func parseUnremindStmt() throws(Diagnostic) -> StatementKind {
        let t = try parseBoundedTarget(after: "unremind")
        let w = peek
        guard w.kind == .number || w.isWord("all") else {
            throw Catalog.expected("a reminder number or 'all'", after: "unremind \(t.describe)", found: w.found, range: w.range, file: file,
                                   help: "for example: unremind \(t.describe) 1; N counts from 1 in the time order 'show ID reminders' lists")
        }
        _ = advance()
        try expectEnd("unremind")
        return .unremind(t, TextArg(text: w.text, range: w.range))
    }

    /// reminders_stmt ::= "reminders" ;
    package mutating func parseRemindersStmt() throws(Diagnostic) -> StatementKind {
        try expectEnd("reminders")
        return .reminders
    }
}
