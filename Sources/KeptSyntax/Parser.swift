// The statement parser: tokens to a Statement plus diagnostics, never printing. Each parse
// function is named after its production in Grammar/kept.ebnf and quotes it on its first doc
// line; GrammarTests fails when the two disagree.

import KeptRules

/// Parses one statement.
public struct Parser {
    package let source: StatementSource
    package var tokens: [Token]
    package var pos = 0
    package var diagnostics: [Diagnostic] = []
    /// The statement's command, which an error about a comma list names.
    package var keyword: Keyword? = nil

    /// The source diagnostics and the statement show: the source, or its masked copy.
    package var shown: StatementSource? = nil

    package var file: SourceFile { (shown ?? source).file }

    package init(source: StatementSource) {
        self.source = source
        var lexer = Lexer(file: source.file, statement: source)
        self.tokens = lexer.tokenize()
        self.diagnostics = lexer.diagnostics
    }

    /// Parses one statement; on an error the statement is nil and the diagnostics say why.
    /// A blank statement gives neither.
    public static func parse(_ source: StatementSource) -> (Statement?, [Diagnostic]) {
        var p = Parser(source: source)
        // R-SYNC-9: a statement that may hold a password is read from its own text, and every
        // diagnostic and the statement's source point into a masked copy.
        let masked = Parser.masked(source, tokens: p.tokens)
        if masked.file !== source.file {
            p.shown = masked
            if !p.diagnostics.isEmpty {
                var lexer = Lexer(file: masked.file, statement: masked)
                _ = lexer.tokenize()
                return (nil, lexer.diagnostics)
            }
        }
        if !p.diagnostics.isEmpty { return (nil, p.diagnostics) }
        if p.peek.kind == .end { return (nil, []) }
        do {
            let s = try p.parseStatement()
            return (s, p.diagnostics)
        } catch {
            return (nil, p.diagnostics + [error])
        }
    }

    // MARK: token helpers

    package var peek: Token { tokens[min(pos, tokens.count - 1)] }

    package mutating func advance() -> Token {
        let t = peek
        if pos < tokens.count - 1 { pos += 1 }
        return t
    }

    package var atEnd: Bool { peek.kind == .end }

    /// Everything from the current token to the end, as text; consumes it.
    package mutating func restOfStatement() -> TextArg? {
        guard !atEnd else { return nil }
        let start = peek.range.start
        let text = source.rawText(from: start)
        pos = tokens.count - 1
        return TextArg(text: text, range: SourceRange(start: start, end: source.range.end))
    }

    /// Like `restOfStatement`, but a lone quoted string gives its unquoted text.
    package mutating func valueText() -> TextArg? {
        if peek.kind == .string, tokens.count >= 2, pos == tokens.count - 2 {
            let t = advance()
            return TextArg(text: t.text, range: t.range)
        }
        return restOfStatement()
    }

    /// The rest of the statement, which must not be empty.
    package mutating func requireRest(_ what: String, after: String, example: String) throws(Diagnostic) -> TextArg {
        guard let rest = restOfStatement() else {
            throw Catalog.expected(what, after: after, found: peek.found, range: peek.range, file: file, help: "for example: \(example)")
        }
        return rest
    }

    package func expectEnd(_ statement: String) throws(Diagnostic) {
        if !atEnd { throw Catalog.unexpected(peek.text, range: peek.range, file: file, statement: statement) }
    }

    // MARK: productions

    /// statement ::= now_stmt | zone_stmt | set_stmt | add_stmt | capture_stmt | parse_stmt
    ///   | date_stmt | explain_stmt | repeat_stmt | rrule_stmt | show_stmt | list_stmt
    ///   | count_stmt | filter_stmt | filters_stmt | areas_stmt | complete_stmt | reopen_stmt
    ///   | delete_stmt | archive_stmt | tomorrow_stmt | reschedule_stmt | move_stmt | tag_stmt
    ///   | duplicate_stmt | step_stmt | comment_stmt | link_stmt | subtask_stmt
    ///   | remind_stmt | unremind_stmt | reminders_stmt | skip_stmt | unskip_stmt | rdate_stmt
    ///   | undo_stmt | redo_stmt | project_stmt | projects_stmt | help_stmt
    ///   | plan_stmt | why_stmt | not_today_stmt | back_stmt | top3_stmt | import_stmt | export_stmt
    ///   | sync_stmt | account_stmt | agenda_stmt | calendar_stmt ;
    package mutating func parseStatement() throws(Diagnostic) -> Statement {
        let first = peek
        guard first.kind == .word, let kw = Keyword(rawValue: first.text.lowercased()), kw.isCommand else {
            throw Catalog.unknownCommand(first.text, range: first.range, file: file, candidates: Keyword.commands.map(\.rawValue))
        }
        _ = advance()
        keyword = kw
        let kind: StatementKind
        switch kw {
        case .now: kind = parseNowStmt()
        case .zone: kind = try parseZoneStmt()
        case .set: kind = try parseSetStmt()
        case .add: kind = try parseAddStmt(first)
        case .capture: kind = try parseCaptureStmt()
        case .parse: kind = try parseParseStmt()
        case .date: kind = try parseDateStmt()
        case .explain: kind = try parseExplainStmt()
        case .repeat: kind = try parseRepeatStmt()
        case .rrule: kind = try parseRruleStmt()
        case .show: kind = try parseShowStmt(first)
        case .list: kind = .list(parseListStmt())
        case .count: kind = .count(parseCountStmt())
        case .filter: kind = try parseFilterStmt()
        case .filters: kind = try parseFiltersStmt()
        case .areas: kind = try parseAreasStmt()
        case .complete: kind = .complete(try parseCompleteStmt(first))
        case .reopen: kind = .reopen(try parseReopenStmt(first))
        case .delete: kind = .delete(try parseDeleteStmt(first))
        case .archive, .unarchive: kind = try parseArchiveStmt(first)
        case .tomorrow: kind = try parseTomorrowStmt()
        case .reschedule: kind = try parseRescheduleStmt()
        case .move: kind = try parseMoveStmt()
        case .tag, .untag: kind = try parseTagStmt(first)
        case .duplicate: kind = try parseDuplicateStmt()
        case .step: kind = try parseStepStmt()
        case .comment: kind = try parseCommentStmt()
        case .link, .unlink: kind = try parseLinkStmt(first)
        case .subtask: kind = try parseSubtaskStmt()
        case .remind: kind = try parseRemindStmt()
        case .unremind: kind = try parseUnremindStmt()
        case .reminders: kind = try parseRemindersStmt()
        case .skip: kind = try parseSkipStmt()
        case .unskip: kind = try parseUnskipStmt()
        case .rdate, .unrdate: kind = try parseRdateStmt(first)
        case .undo: kind = .undo(count: try parseUndoStmt())
        case .redo: kind = .redo(count: try parseRedoStmt())
        case .project: kind = try parseProjectStmt(first)
        case .projects: kind = try parseProjectsStmt()
        case .help: kind = try parseHelpStmt()
        case .plan: kind = try parsePlanStmt()
        case .why: kind = try parseWhyStmt()
        case .not: kind = try parseNotTodayStmt(first)
        case .back: kind = try parseBackStmt()
        case .top3: kind = try parseTop3Stmt()
        case .import: kind = try parseImportStmt()
        case .export: kind = try parseExportStmt()
        case .sync: kind = try parseSyncStmt()
        case .account: kind = try parseAccountStmt()
        case .agenda: kind = try parseAgendaStmt()
        case .calendar: kind = try parseCalendarStmt()
        case .all:
            throw Catalog.unknownCommand(first.text, range: first.range, file: file, candidates: Keyword.commands.map(\.rawValue))
        }
        return Statement(kind: kind, keyword: kw, range: source.range, keywordRange: first.range, source: shown ?? source)
    }

    /// now_stmt ::= "now" [ DATETIME ] ;
    package mutating func parseNowStmt() -> StatementKind {
        .now(restOfStatement())
    }

    /// zone_stmt ::= "zone" [ ZONE ] ;
    package mutating func parseZoneStmt() throws(Diagnostic) -> StatementKind {
        guard !atEnd else { return .zone(nil) }
        let t = advance()
        try expectEnd("zone")
        return .zone(TextArg(text: t.text, range: t.range))
    }

    /// set_stmt ::= "set" [ field_assign | setting_assign ] ;
    package mutating func parseSetStmt() throws(Diagnostic) -> StatementKind {
        if atEnd { return .setting(key: nil, value: nil) }
        if peek.kind == .number || peek.kind == .string || peek.isWord("where") { return try parseFieldAssign() }
        return try parseSettingAssign()
    }

    /// setting_assign ::= SETTING [ TEXT ] ;
    package mutating func parseSettingAssign() throws(Diagnostic) -> StatementKind {
        let key = advance()
        return .setting(key: TextArg(text: key.text, range: key.range), value: valueText())
    }

    /// field_assign ::= bounded_target FIELD TEXT ;
    package mutating func parseFieldAssign() throws(Diagnostic) -> StatementKind {
        let ref = try parseBoundedTarget(after: "set")
        guard peek.kind == .word else {
            throw Catalog.expected("a field name", after: "set \(ref.describe)", found: peek.found, range: peek.range, file: file,
                                   help: "fields: \(TaskField.allCases.filter(\.isSettable).map(\.rawValue).joined(separator: ", "))")
        }
        let f = advance()
        guard let value = valueText() else {
            throw Catalog.expected("a value", after: f.text, found: peek.found, range: peek.range, file: file)
        }
        return .setField(ref, field: TextArg(text: f.text, range: f.range), value: value)
    }

    /// add_stmt ::= "add" CAPTURE_LINE ;
    package mutating func parseAddStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        return .add(try requireRest("a title", after: "add", example: "add Call mom @tomorrow 18:00"))
    }

    /// capture_stmt ::= "capture" CAPTURE_LINE ;
    package mutating func parseCaptureStmt() throws(Diagnostic) -> StatementKind {
        return .capture(try requireRest("a title", after: "capture", example: "capture Board offsite Friday"))
    }

    /// parse_stmt ::= "parse" ( "filter" filter | CAPTURE_LINE ) ;
    package mutating func parseParseStmt() throws(Diagnostic) -> StatementKind {
        if peek.isWord("filter"), tokens[min(pos + 1, tokens.count - 1)].kind != .end {
            _ = advance()
            if let f = restAsFilter(commas: nil) { return .parseFilter(f) }
        }
        return .parse(try requireRest("a quick-add line", after: "parse", example: "parse Call mom @tomorrow 6pm"))
    }

    /// date_stmt ::= "date" DATE_PHRASE ;
    package mutating func parseDateStmt() throws(Diagnostic) -> StatementKind {
        return .date(try requireRest("a date phrase", after: "date", example: "date next fri 3pm"))
    }

    /// explain_stmt ::= "explain" ( "date" DATE_PHRASE | "plan" plan_body | filter [ "for" task_ref ] ) ;
    package mutating func parseExplainStmt() throws(Diagnostic) -> StatementKind {
        let sub = peek
        if sub.kind == .end {
            throw Catalog.expected("what to explain", after: "explain", found: sub.found, range: sub.range, file: file, help: "explain date PHRASE, explain plan, or explain FILTER")
        }
        if sub.isWord("plan") {
            _ = advance()
            if peek.isWord("by") {
                // The date order has no scores to explain.
                throw Catalog.expected("a filter or 'limit'", after: "explain plan", found: peek.found, range: peek.range, file: file,
                                       help: "explain plan explains the Smart order's scores; 'plan by date' prints the date order")
            }
            var r = try parsePlanBody()
            r.explain = true
            return .plan(r)
        }
        guard sub.isWord("date") else {
            // `explain FILTER for ID`: a `for` and a task reference end the statement.
            let end = tokens.count - 1
            if end - pos >= 3, tokens[end - 2].kind == .word, tokens[end - 2].isWord("for"),
               tokens[end - 1].kind == .number || tokens[end - 1].kind == .string {
                let f = filter(pos, end - 2, range: SourceRange(start: peek.range.start, end: tokens[end - 3].range.end), commas: "explain")
                pos = end - 1
                let ref = try parseTaskRef(after: "for")
                return .explainFilter(f, for: ref)
            }
            guard let f = restAsFilter() else { throw Catalog.expected("a filter", after: "explain", found: sub.found, range: sub.range, file: file) }
            return .explainFilter(f, for: nil)
        }
        _ = advance()
        return .explainDate(try requireRest("a date phrase", after: "explain date", example: "explain date fri"))
    }

    /// filter_stmt ::= "filter" ( ( "star" | "unstar" | "delete" ) NAME | "rename" NAME "to" NAME
    ///   | "move" NAME "to" NUMBER | NAME "=" filter ) ;
    package mutating func parseFilterStmt() throws(Diagnostic) -> StatementKind {
        let sub = peek
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        func name(until stop: String?) throws(Diagnostic) -> TextArg {
            if peek.kind == .string {
                let t = advance()
                return TextArg(text: t.text, range: t.range)
            }
            var words: [Token] = []
            while peek.kind != .end, !(stop.map { peek.isWord($0) || peek.isPunct($0) } ?? false) { words.append(advance()) }
            guard let first = words.first, let last = words.last else {
                throw Catalog.expected("a filter name", after: "filter", found: peek.found, range: peek.range, file: file)
            }
            return TextArg(text: words.map(\.text).joined(separator: " "), range: first.range.union(last.range))
        }
        switch verb {
        case "star", "unstar", "delete":
            _ = advance()
            let n = try name(until: nil)
            return verb == "delete" ? .filterDelete(n) : .filterStar(n, verb == "star")
        case "rename":
            _ = advance()
            let old = try name(until: "to")
            guard peek.isWord("to") else { throw Catalog.expected("'to'", after: "filter rename \(old.text)", found: peek.found, range: peek.range, file: file) }
            _ = advance()
            return .filterRename(old, try name(until: nil))
        case "move":
            _ = advance()
            let n = try name(until: "to")
            guard peek.isWord("to") else { throw Catalog.expected("'to'", after: "filter move \(n.text)", found: peek.found, range: peek.range, file: file) }
            _ = advance()
            guard peek.kind == .number, let k = Int(peek.text), k >= 1 else {
                throw Catalog.expected("a position from 1", after: "to", found: peek.found, range: peek.range, file: file)
            }
            _ = advance()
            try expectEnd("filter move")
            return .filterMove(n, k)
        default:
            let n = try name(until: "=")
            guard peek.isPunct("=") else {
                throw Catalog.expected("'=' and a filter", after: "filter \(n.text)", found: peek.found, range: peek.range, file: file,
                                       help: "filter NAME = FILTER saves one; filter star|unstar|delete|rename|move changes one")
            }
            _ = advance()
            guard let f = restAsFilter(commas: "filter") else { throw Catalog.expected("a filter", after: "=", found: peek.found, range: peek.range, file: file) }
            return .filterDefine(n, f)
        }
    }

    /// filters_stmt ::= "filters" ;
    package mutating func parseFiltersStmt() throws(Diagnostic) -> StatementKind {
        try expectEnd("filters")
        return .filters
    }

    /// areas_stmt ::= "areas" ;
    package mutating func parseAreasStmt() throws(Diagnostic) -> StatementKind {
        try expectEnd("areas")
        return .areas
    }

    /// repeat_stmt ::= "repeat" REPEAT_TEXT ;
    package mutating func parseRepeatStmt() throws(Diagnostic) -> StatementKind {
        return .repeatPreview(try requireRest("a repeat rule", after: "repeat", example: "repeat every month on the 31st next 6"))
    }

    /// rrule_stmt ::= "rrule" REPEAT_TEXT ;
    package mutating func parseRruleStmt() throws(Diagnostic) -> StatementKind {
        return .rrule(try requireRest("a repeat rule", after: "rrule", example: "rrule every month on the last friday"))
    }

    /// show_stmt ::= "show" task_ref [ FIELD ] ;
    package mutating func parseShowStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let ref = try parseTaskRef(after: "show")
        var field: TextArg? = nil
        if !atEnd {
            let f = advance()
            field = TextArg(text: f.text, range: f.range)
        }
        try expectEnd("show")
        return .show(ref, field: field)
    }

    /// list_stmt ::= "list" list_body ;
    package mutating func parseListStmt() -> Result<ListClauses, Diagnostic> {
        guard !atEnd else { return .success(ListClauses()) }
        var cp = ListClauseParser(source: source, tokens: tokens, range: pos..<(tokens.count - 1))
        pos = tokens.count - 1
        do throws(Diagnostic) { return .success(try cp.parseListBody()) } catch { return .failure(error) }
    }

    /// count_stmt ::= "count" [ filter ] ;
    package mutating func parseCountStmt() -> FilterSource? {
        restAsFilter()
    }

    /// The remaining tokens as a filter.
    package mutating func restAsFilter() -> FilterSource? {
        restAsFilter(commas: keyword?.rawValue)
    }

    /// The remaining tokens as a filter; `commas` names the statement a comma list is refused
    /// for (nil: the filter parser says what a comma is).
    package mutating func restAsFilter(commas statement: String?) -> FilterSource? {
        guard !atEnd else { return nil }
        let f = filter(pos, tokens.count - 1, range: SourceRange(start: peek.range.start, end: source.range.end), commas: statement)
        pos = tokens.count - 1
        return f
    }

    /// `tokens[start..<end]` read as one filter (`tokens[end]` is what follows it). Only `list`
    /// takes a comma list: elsewhere the filter ends at a comma outside parentheses (a pattern
    /// is one token), and that comma is refused, before anything else about the filter, naming
    /// `statement`.
    package func filter(_ start: Int, _ end: Int, range: SourceRange, commas statement: String?) -> FilterSource {
        var p = FilterParser(source: source, tokens: tokens, range: start..<end, stops: statement == nil ? .none : .commas)
        let parsed: Result<ParsedFilter, Diagnostic>
        do throws(Diagnostic) { parsed = .success(try p.parseWhole()) } catch { parsed = .failure(error) }
        if let statement, let comma = p.skipToStop() {
            return FilterSource(parsed: .failure(Catalog.commaListHere(statement, range: comma.range, file: file)), range: range)
        }
        return FilterSource(parsed: parsed, range: range)
    }

    /// complete_stmt ::= "complete" task_target ;
    package mutating func parseCompleteStmt(_ kw: Token) throws(Diagnostic) -> TaskTarget {
        try parseTaskTarget(after: "complete")
    }

    /// reopen_stmt ::= "reopen" task_target ;
    package mutating func parseReopenStmt(_ kw: Token) throws(Diagnostic) -> TaskTarget {
        try parseTaskTarget(after: "reopen")
    }

    /// delete_stmt ::= "delete" task_target ;
    package mutating func parseDeleteStmt(_ kw: Token) throws(Diagnostic) -> TaskTarget {
        try parseTaskTarget(after: "delete")
    }

    /// undo_stmt ::= "undo" [ NUMBER ] ;
    package mutating func parseUndoStmt() throws(Diagnostic) -> Int {
        try parseCount("undo")
    }

    /// redo_stmt ::= "redo" [ NUMBER ] ;
    package mutating func parseRedoStmt() throws(Diagnostic) -> Int {
        try parseCount("redo")
    }

    package mutating func parseCount(_ statement: String) throws(Diagnostic) -> Int {
        guard !atEnd else { return 1 }
        let t = peek
        guard t.kind == .number, let n = Int(t.text), n >= 1 else {
            throw Catalog.expected("a count of steps", after: statement, found: t.found, range: t.range, file: file, help: "for example: \(statement) 2")
        }
        _ = advance()
        try expectEnd(statement)
        return n
    }

    /// project_stmt ::= "project" ( "add" NAME | "rename" NAME "to" NAME | ( "archive" | "unarchive" ) NAME
    ///   | "delete" NAME [ "move-to" "inbox" | "delete-tasks" ] | "statuses" NAME [ ( "add" | "remove" ) NAME ] ) ;
    package mutating func parseProjectStmt(_ kw: Token) throws(Diagnostic) -> StatementKind {
        let sub = peek
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        guard Keyword.project.subcommands.contains(verb) else {
            if sub.kind == .end {
                throw Catalog.expected("a subcommand", after: "project", found: sub.found, range: sub.range, file: file, help: "project add|rename|archive|unarchive|delete|statuses NAME")
            }
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "project", file: file, candidates: Keyword.project.subcommands)
        }
        _ = advance()
        switch verb {
        case "add":
            guard let name = valueText(), !name.text.isEmpty else {
                throw Catalog.expected("a project name", after: "project add", found: peek.found, range: peek.range, file: file)
            }
            return .projectAdd(name)
        case "rename":
            let old = try projectName(after: "project rename", until: { $0.isWord("to") })
            guard peek.isWord("to") else { throw Catalog.expected("'to' and the new name", after: "project rename \(old.text)", found: peek.found, range: peek.range, file: file) }
            _ = advance()
            guard let new = valueText(), !new.text.isEmpty else {
                throw Catalog.expected("the new name", after: "to", found: peek.found, range: peek.range, file: file)
            }
            return .projectRename(old, to: new)
        case "archive", "unarchive":
            let name = try projectName(after: "project \(verb)", until: { _ in false })
            return .projectArchive(name, archived: verb == "archive")
        case "statuses":
            let name = try projectName(after: "project statuses", until: { $0.isWord("add") || $0.isWord("remove") })
            guard !atEnd else { return .projectStatuses(name, nil) }
            let op = advance()
            guard let status = valueText(), !status.text.isEmpty else {
                throw Catalog.expected("a status", after: "project statuses \(name.text) \(op.text.lowercased())", found: peek.found, range: peek.range, file: file,
                                       help: "for example: project statuses \(name.text) add \"In review\"")
            }
            return .projectStatuses(name, op.isWord("add") ? .add(status) : .remove(status))
        default:
            // R-TASK-6: what happens to the tasks is the caller's choice, written after the name.
            let name = try projectName(after: "project delete", until: { $0.isWord("move-to") || $0.isWord("delete-tasks") })
            var choice: ProjectTasksChoice? = nil
            if peek.isWord("move-to") {
                _ = advance()
                guard peek.isWord("inbox") else { throw Catalog.expected("'inbox'", after: "move-to", found: peek.found, range: peek.range, file: file) }
                _ = advance()
                choice = .moveToInbox
            } else if peek.isWord("delete-tasks") {
                _ = advance()
                choice = .deleteTasks
            }
            try expectEnd("project delete")
            return .projectDelete(name, choice)
        }
    }

    /// projects_stmt ::= "projects" ;
    package mutating func parseProjectsStmt() throws(Diagnostic) -> StatementKind {
        try expectEnd("projects")
        return .projects
    }

    /// A project name: a quoted string, or the words up to `stop`.
    package mutating func projectName(after: String, until stop: (Token) -> Bool) throws(Diagnostic) -> TextArg {
        if peek.kind == .string {
            let t = advance()
            return TextArg(text: t.text, range: t.range)
        }
        var words: [Token] = []
        while !atEnd, !stop(peek) { words.append(advance()) }
        guard let first = words.first, let last = words.last else {
            throw Catalog.expected("a project name", after: after, found: peek.found, range: peek.range, file: file)
        }
        return TextArg(text: source.rawText(first.range.union(last.range)), range: first.range.union(last.range))
    }

    /// help_stmt ::= "help" [ WORD ] ;
    package mutating func parseHelpStmt() throws(Diagnostic) -> StatementKind {
        guard !atEnd else { return .help(nil) }
        let t = advance()
        try expectEnd("help")
        return .help(TextArg(text: t.text, range: t.range))
    }

    /// task_ref ::= NUMBER | STRING ;
    package mutating func parseTaskRef(after command: String) throws(Diagnostic) -> TaskRef {
        let t = peek
        switch t.kind {
        case .number:
            _ = advance()
            guard let id = Int(t.text) else {
                throw Catalog.expected("a task id", after: command, found: t.found, range: t.range, file: file)
            }
            return .id(id, t.range)
        case .string:
            _ = advance()
            return .title(t.text, t.range)
        default:
            throw Catalog.expected("a task id or a quoted title", after: command, found: t.found, range: t.range, file: file,
                                   help: "for example: \(command) 3, or \(command) \"Call mom\"")
        }
    }
}

extension TaskRef {
    /// The reference as written: `3` or `"Call mom"`.
    public var describe: String {
        switch self {
        case .id(let n, _): return String(n)
        case .title(let t, _): return "\"\(t)\""
        }
    }
}
