// The parser's plan statements (R-PLAN): plan, why, not today, back and top3, and the agenda. Each parse
// function quotes its production of Grammar/kept.ebnf.

import KeptRules

extension Parser {
    /// plan_stmt ::= "plan" ( "refresh" | "openings" [ NUMBER ] | [ "by" "date" ] plan_body ) ;
    package mutating func parsePlanStmt() throws(Diagnostic) -> StatementKind {
        if peek.isWord("openings") {
            _ = advance()
            guard !atEnd else { return .openings(nil) }
            let n = peek
            guard n.kind == .number, let k = Int(n.text), k >= 1, k <= 24 else {
                throw Catalog.badOpeningsCount(n.text, range: n.range, file: file)
            }
            _ = advance()
            try expectEnd("plan openings")
            return .openings(k)
        }
        if peek.isWord("refresh") {
            _ = advance()
            try expectEnd("plan refresh")
            var r = PlanRequest()
            r.refresh = true
            return .plan(r)
        }
        var byDate = false
        if peek.isWord("by") {
            _ = advance()
            guard peek.isWord("date") else {
                throw Catalog.expected("'date'", after: "plan by", found: peek.found, range: peek.range, file: file, help: "plan by date prints the date order; plan alone the Smart order")
            }
            _ = advance()
            byDate = true
        }
        var r = try parsePlanBody()
        if byDate { r.order = .byDate }
        return .plan(r)
    }

    /// plan_body ::= [ filter ] [ "limit" ( NUMBER | "all" ) ] ;
    package mutating func parsePlanBody() throws(Diagnostic) -> PlanRequest {
        var r = PlanRequest()
        guard !atEnd else { return r }
        // The end token is last; `limit N` are the two words before it.
        let end = tokens.count - 1
        var filterEnd = end
        if end - pos >= 2, tokens[end - 2].isWord("limit") {
            let n = tokens[end - 1]
            if n.isWord("all") {
                r.limit = Int.max
            } else if n.kind == .number, let k = Int(n.text), k >= 1 {
                r.limit = k
            } else {
                throw Catalog.badPlanLimit(atEnd: n.kind == .end, range: n.range, file: file)
            }
            filterEnd = end - 2
        } else if end - pos >= 1, tokens[end - 1].isWord("limit") {
            throw Catalog.badPlanLimit(atEnd: tokens[end].kind == .end, range: tokens[end].range, file: file)
        }
        if filterEnd > pos {
            r.filter = filter(pos, filterEnd, range: tokens[pos].range.union(tokens[filterEnd - 1].range), commas: keyword?.rawValue)
        }
        pos = end
        return r
    }

    /// why_stmt ::= "why" task_ref ;
    package mutating func parseWhyStmt() throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "why")
        try expectEnd("why")
        return .why(ref)
    }

    /// not_today_stmt ::= "not" "today" task_target ;
    package mutating func parseNotTodayStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        guard peek.isWord("today") else {
            if atEnd {
                throw Catalog.expected("'today' and a task", after: "not", found: peek.found, range: peek.range, file: file, help: "for example: not today 3")
            }
            throw Catalog.unknownSubcommand(peek.text, range: peek.range, of: "not", file: file, candidates: Keyword.not.subcommands)
        }
        _ = advance()
        return .notToday(try parseTaskTarget(after: "not today"))
    }

    /// back_stmt ::= "back" task_ref ;
    package mutating func parseBackStmt() throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "back")
        try expectEnd("back")
        return .back(ref)
    }

    /// top3_stmt ::= "top3" [ "change" | "add" task_ref | "replace" task_ref "with" task_ref ] ;
    package mutating func parseTop3Stmt() throws(Diagnostic) -> StatementKind {
        if atEnd { return .top3(.show) }
        let sub = peek
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        guard Keyword.top3.subcommands.contains(verb) else {
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "top3", file: file, candidates: Keyword.top3.subcommands)
        }
        _ = advance()
        switch verb {
        case "change":
            try expectEnd("top3 change")
            return .top3(.change)
        case "add":
            let ref = try parseTaskRef(after: "top3 add")
            try expectEnd("top3 add")
            return .top3(.add(ref))
        default:
            let old = try parseTaskRef(after: "top3 replace")
            guard peek.isWord("with") else {
                throw Catalog.expected("'with' and the task to pick", after: "top3 replace \(old.describe)", found: peek.found, range: peek.range, file: file,
                                       help: "for example: top3 replace \(old.describe) with 7")
            }
            _ = advance()
            let new = try parseTaskRef(after: "with")
            try expectEnd("top3 replace")
            return .top3(.replace(old, with: new))
        }
    }
}

// MARK: agenda (docs/AGENDA.md)

extension Parser {
    /// The most days one agenda shows.
    public static let agendaMaxDays = 366

    /// agenda_stmt ::= "agenda" [ NUMBER ( "days" | "day" ) ] [ "from" DATE_PHRASE ] [ "where" filter ] ;
    package mutating func parseAgendaStmt() throws(Diagnostic) -> StatementKind {
        var spec = AgendaSpec()
        if peek.kind == .number {
            let n = advance()
            guard let k = Int(n.text), k >= 1, k <= Parser.agendaMaxDays else {
                throw Catalog.badAgendaDays(n.text, range: n.range, file: file)
            }
            guard peek.isWord("days") || peek.isWord("day") else {
                throw Catalog.expected("'days'", after: "agenda \(n.text)", found: peek.found, range: peek.range, file: file,
                                       help: "for example: agenda 14 days")
            }
            spec.daysRange = n.range.union(advance().range)
            spec.days = k
        }
        if peek.isWord("from") {
            _ = advance()
            var words: [Token] = []
            while !atEnd, !peek.isWord("where") { words.append(advance()) }
            guard let a = words.first, let b = words.last else {
                throw Catalog.expected("a date", after: "from", found: peek.found, range: peek.range, file: file,
                                       help: "for example: agenda from tomorrow, agenda from 2026-07-01")
            }
            let r = a.range.union(b.range)
            spec.from = TextArg(text: source.rawText(r), range: r)
        }
        if peek.isWord("where") {
            let w = advance()
            guard let f = restAsFilter(commas: "agenda") else {
                throw Catalog.expected("a filter", after: "where", found: peek.found, range: peek.range.union(w.range), file: file,
                                       help: "for example: agenda where #work")
            }
            spec.filter = f
        }
        if !atEnd {
            throw Catalog.unexpected(peek.text, range: peek.range, file: file, statement: "agenda")
        }
        return .agenda(spec)
    }
}
