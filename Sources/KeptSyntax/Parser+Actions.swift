// The parser's task actions (R-TASK): statements that change one task, a task named by title,
// or every task a `where` filter matches. Each parse function quotes its production.

import KeptRules

extension Parser {
    /// archive_stmt ::= ( "archive" | "unarchive" ) task_target ;
    package mutating func parseArchiveStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let t = try parseTaskTarget(after: kw.text.lowercased())
        return kw.isWord("archive") ? .archive(t) : .unarchive(t)
    }

    /// tomorrow_stmt ::= "tomorrow" task_target ;
    package mutating func parseTomorrowStmt() throws(Diagnostic) -> StatementKind {
        .tomorrow(try parseTaskTarget(after: "tomorrow"))
    }

    /// duplicate_stmt ::= "duplicate" task_target ;
    package mutating func parseDuplicateStmt() throws(Diagnostic) -> StatementKind {
        .duplicate(try parseTaskTarget(after: "duplicate"))
    }

    /// reschedule_stmt ::= "reschedule" bounded_target ( DATE_PHRASE | "clear" | "none" ) ;
    package mutating func parseRescheduleStmt() throws(Diagnostic) -> StatementKind {
        let t = try parseBoundedTarget(after: "reschedule")
        let when = try requireRest("a date", after: "reschedule \(t.describe)", example: "reschedule \(t.describe) next week")
        return .reschedule(t, when)
    }

    /// move_stmt ::= "move" bounded_target "to" DUE_GROUP ;
    package mutating func parseMoveStmt() throws(Diagnostic) -> StatementKind {
        let t = try parseBoundedTarget(after: "move")
        guard peek.isWord("to") else {
            throw Catalog.expected("'to' and a due group", after: "move \(t.describe)", found: peek.found, range: peek.range, file: file,
                                   help: "for example: move \(t.describe) to tomorrow")
        }
        _ = advance()
        let g = try requireRest("a due group", after: "to", example: "move \(t.describe) to this week")
        return .move(t, group: g)
    }

    /// tag_stmt ::= ( "tag" | "untag" ) bounded_target TAG_NAME { TAG_NAME } ;
    package mutating func parseTagStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let verb = kw.text.lowercased()
        let t = try parseBoundedTarget(after: verb)
        var tags: [TextArg] = []
        while !atEnd {
            let w = advance()
            tags.append(TextArg(text: w.text, range: w.range))
        }
        guard !tags.isEmpty else {
            throw Catalog.expected("a tag", after: "\(verb) \(t.describe)", found: peek.found, range: peek.range, file: file, help: "for example: \(verb) \(t.describe) #errand")
        }
        return .tag(t, tags, add: verb == "tag")
    }

    /// step_stmt ::= "step" task_ref ( "add" TEXT | ( "check" | "uncheck" | "remove" ) NUMBER ) ;
    package mutating func parseStepStmt() throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "step")
        let sub = peek
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        guard Keyword.step.subcommands.contains(verb) else {
            if sub.kind == .end {
                throw Catalog.expected("add, check, uncheck or remove", after: "step \(ref.describe)", found: sub.found, range: sub.range, file: file,
                                       help: "for example: step \(ref.describe) add Pack the charger")
            }
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "step", file: file, candidates: Keyword.step.subcommands)
        }
        _ = advance()
        if verb == "add" {
            guard let title = valueText(), !title.text.isEmpty else {
                throw Catalog.expected("the step's text", after: "step \(ref.describe) add", found: peek.found, range: peek.range, file: file)
            }
            return .step(ref, .add(title))
        }
        let n = peek
        guard n.kind == .number, let k = Int(n.text), k >= 1 else {
            throw Catalog.expected("a step number from 1", after: "step \(ref.describe) \(verb)", found: n.found, range: n.range, file: file,
                                   help: "'show \(ref.describe)' lists the steps")
        }
        _ = advance()
        try expectEnd("step")
        switch verb {
        case "check": return .step(ref, .check(k, n.range))
        case "uncheck": return .step(ref, .uncheck(k, n.range))
        default: return .step(ref, .remove(k, n.range))
        }
    }

    /// comment_stmt ::= "comment" task_ref TEXT ;
    package mutating func parseCommentStmt() throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "comment")
        guard let text = valueText(), !text.text.isEmpty else {
            throw Catalog.expected("the comment", after: "comment \(ref.describe)", found: peek.found, range: peek.range, file: file,
                                   help: "for example: comment \(ref.describe) \"called, left a message\"")
        }
        return .comment(ref, text)
    }

    /// link_stmt ::= ( "link" | "unlink" ) bounded_target NOTE { NOTE } ;
    package mutating func parseLinkStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let verb = kw.text.lowercased()
        let t = try parseBoundedTarget(after: verb)
        let notes = try requireRest("a note like [[Trip plan]]", after: "\(verb) \(t.describe)", example: "\(verb) \(t.describe) [[Trip plan]]")
        return .link(t, notes, add: verb == "link")
    }

    /// subtask_stmt ::= "subtask" task_ref CAPTURE_LINE ;
    package mutating func parseSubtaskStmt() throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "subtask")
        let line = try requireRest("a title", after: "subtask \(ref.describe)", example: "subtask \(ref.describe) Book the flights")
        return .subtask(ref, line)
    }

    /// task_target ::= task_ref | "where" filter ;
    package mutating func parseTaskTarget(after command: String) throws(Diagnostic) -> TaskTarget {
        guard peek.isWord("where") else {
            let r = try parseTaskRef(after: command)
            try expectEnd(command)
            return .task(r)
        }
        let w = advance()
        // R-TASK-5: a bulk action runs on a selection, never on everything by accident.
        guard let f = restAsFilter() else { throw Catalog.whereWithoutFilter(range: w.range, file: file, command: command) }
        return .filter(f)
    }

    /// bounded_target ::= task_ref | "where" "(" filter ")" ;
    package mutating func parseBoundedTarget(after command: String) throws(Diagnostic) -> TaskTarget {
        guard peek.isWord("where") else { return .task(try parseTaskRef(after: command)) }
        let w = advance()
        if atEnd { throw Catalog.whereWithoutFilter(range: w.range, file: file, command: command) }
        // More words follow the filter here, so it is closed by its parentheses.
        guard peek.isPunct("(") else {
            throw Catalog.expected("'(' to open the filter", after: "where", found: peek.found, range: peek.range, file: file,
                                   help: "a filter followed by more words is written in parentheses: \(command) where (#errand) …")
        }
        let open = pos
        var depth = 0
        var k = pos
        while k < tokens.count, tokens[k].kind != .end {
            if tokens[k].isPunct("(") { depth += 1 }
            if tokens[k].isPunct(")") {
                depth -= 1
                if depth == 0 { break }
            }
            k += 1
        }
        guard k < tokens.count, tokens[k].isPunct(")") else {
            throw Catalog.whereFilterNotClosed(tokens[open].range, file: file)
        }
        let close = tokens[k]
        if k == open + 1 { throw Catalog.whereWithoutFilter(range: w.range, file: file, command: command) }
        let range = tokens[open].range.union(close.range)
        pos = k + 1
        return .filter(filter(open, k + 1, range: range, commas: keyword?.rawValue))
    }
}

extension TaskTarget {
    /// The target as written, for messages: `3`, `"Call mom"` or `where (…)`.
    public var describe: String {
        switch self {
        case .task(let r): return r.describe
        case .filter: return "where (…)"
        }
    }
}
