// The filter language's parser (Grammar/kept.ebnf, the filter productions): the tokens after
// `list` or `count` to a FilterExpr, or a diagnostic with a suggestion. Each parse function
// quotes its production. Windows are made concrete here, against the session's today.

/// Parses filters.
public struct FilterParser {
    let source: StatementSource
    var tokens: [Token]
    var pos: Int
    let ctx: DateContext
    let projects: [String]
    /// Saved filters, for `filter:NAME`, and the chain being expanded (to catch a cycle).
    var saved: [SavedFilter] = []
    var visiting: [String] = []
    /// How deep the parse is: parentheses, `not`s, glued `-`s and the saved filters around it
    /// (Limits.filterDepth), so no filter can recurse to the end of the stack.
    var depth = 0

    var file: SourceFile { source.file }

    public init(source: StatementSource, tokens: [Token], from start: Int, context: DateContext, projects: [String],
                saved: [SavedFilter] = [], visiting: [String] = [], depth: Int = 0) {
        self.source = source
        self.tokens = tokens
        self.pos = start
        self.ctx = context
        self.projects = projects
        self.saved = saved
        self.visiting = visiting
        self.depth = depth
    }

    /// Parses a whole filter text (a saved filter's), with the same context.
    public static func parse(_ text: String, name: String, context: DateContext, projects: [String], saved: [SavedFilter],
                             visiting: [String], depth: Int = 0) -> Result<FilterExpr, Diagnostic> {
        let file = SourceFile(name: "filter \(name)", text: text)
        let src = StatementSource(file: file)
        var lexer = Lexer(file: file, statement: src)
        let toks = lexer.tokenize()
        if let d = lexer.diagnostics.first { return .failure(d) }
        var p = FilterParser(source: src, tokens: toks, from: 0, context: context, projects: projects, saved: saved, visiting: visiting,
                             depth: depth)
        do throws(Diagnostic) {
            let e = try p.parseFilter()
            guard p.peek.kind == .end else {
                throw Diagnostic(code: "E0103", message: "unexpected '\(p.peek.text)' in the filter", file: file, range: p.peek.range, label: "not part of the filter")
            }
            return .success(e)
        } catch {
            return .failure(error)
        }
    }

    static let fields = ["due", "priority", "estimate", "created", "title", "description", "project", "area", "status",
                         "repeat", "tag"]
    static let predicates = ["overdue", "repeating", "open", "done", "archived", "held"]

    var peek: Token { tokens[min(pos, tokens.count - 1)] }
    func at(_ k: Int) -> Token { tokens[min(pos + k, tokens.count - 1)] }
    mutating func advance() -> Token {
        let t = peek
        if pos < tokens.count - 1 { pos += 1 }
        return t
    }

    func isOperator(_ t: Token) -> Bool {
        t.isPunct("|") || t.isPunct("&") || t.isPunct(")") || t.isPunct("(") || t.isWord("or") || t.isWord("and") || t.kind == .end
    }

    /// filter ::= or_filter ;
    public mutating func parseFilter() throws(Diagnostic) -> FilterExpr {
        let e = try parseOrFilter()
        if peek.isPunct(")") {
            throw Diagnostic(code: "E0106", message: "unmatched ')'", file: file, range: peek.range, label: "no '(' opens this")
        }
        return e
    }

    /// or_filter ::= and_filter { ( "or" | "|" ) and_filter } ;
    mutating func parseOrFilter() throws(Diagnostic) -> FilterExpr {
        var xs = [try parseAndFilter()]
        while peek.isWord("or") || peek.isPunct("|") {
            let op = advance()
            guard !(peek.kind == .end || peek.isPunct(")")) else {
                throw Catalog.expected("a filter", after: op.text, at: peek, file: file)
            }
            xs.append(try parseAndFilter())
        }
        return xs.count == 1 ? xs[0] : .or(xs)
    }

    /// and_filter ::= unary_filter { [ "and" | "&" ] unary_filter } ;
    mutating func parseAndFilter() throws(Diagnostic) -> FilterExpr {
        var xs = [try parseUnaryFilter()]
        while true {
            if peek.isWord("and") || peek.isPunct("&") {
                let op = advance()
                guard !isOperator(peek) || peek.isPunct("(") else { throw Catalog.expected("a filter", after: op.text, at: peek, file: file) }
                xs.append(try parseUnaryFilter())
                continue
            }
            if peek.kind == .end || peek.isPunct(")") || peek.isPunct("|") || peek.isWord("or") { break }
            // Juxtaposition is `and`.
            xs.append(try parseUnaryFilter())
        }
        // Bare words next to each other are one search: every word must match (R-FIL-3).
        var merged: [FilterExpr] = []
        for x in xs {
            if case .term(.words(let w)) = x, case .term(.words(let prev))? = merged.last {
                merged[merged.count - 1] = .term(.words(prev + w))
            } else {
                merged.append(x)
            }
        }
        return merged.count == 1 ? merged[0] : .and(merged)
    }

    /// unary_filter ::= ( "not" | "-" ) unary_filter | "(" or_filter ")" | filter_term ;
    mutating func parseUnaryFilter() throws(Diagnostic) -> FilterExpr {
        let t = peek
        if t.isWord("not") {
            try enter(t)
            defer { depth -= 1 }
            _ = advance()
            return .not(try parseUnaryFilter())
        }
        if t.isPunct("(") {
            try enter(t)
            defer { depth -= 1 }
            _ = advance()
            let e = try parseOrFilter()
            guard peek.isPunct(")") else {
                let (l, c) = file.lineColumn(of: t.range.start)
                throw Diagnostic(code: "E0106", message: "expected ')' to close '(' at \(l):\(c)", file: file,
                                 range: SourceRange.at(peek.range.start), label: "the filter ends here",
                                 secondary: [DiagnosticLabel(range: t.range, text: "'(' opened here")])
            }
            _ = advance()
            return e
        }
        // `-#someday`: a minus glued to a term negates it.
        if t.kind == .word, t.text.hasPrefix("-"), t.text.count > 1, !t.text.dropFirst().allSatisfy({ $0.isNumber }) {
            let rest = String(t.text.dropFirst())
            try enter(t)
            defer { depth -= 1 }
            tokens[pos] = Token(kind: .word, text: rest, range: SourceRange(start: t.range.start + 1, end: t.range.end))
            return .not(try parseUnaryFilter())
        }
        return .term(try parseFilterTerm())
    }

    /// One level deeper, or E0008 at the token that would go past `Limits.filterDepth`.
    mutating func enter(_ t: Token) throws(Diagnostic) {
        guard depth < Limits.filterDepth else { throw Catalog.filterTooDeep(file: file, range: t.range) }
        depth += 1
    }

    /// filter_term ::= TAG | PROJECT | PRIORITY | NOTE | "@" window | comparison | field_value | PREDICATE
    ///   | "search" STRING | STRING | WORD ;
    mutating func parseFilterTerm() throws(Diagnostic) -> FilterTerm {
        let t = peek
        if t.kind == .string {
            _ = advance()
            return .words(SearchText.words(t.text))
        }
        guard t.kind == .word || t.kind == .number else {
            throw Diagnostic(code: "E0103", message: "unexpected '\(t.text)' in a filter", file: file, range: t.range, label: "not a filter term")
        }
        let w = t.text
        let lower = w.lowercased()
        if w.hasPrefix("#"), w.count > 1 { _ = advance(); return .tag(String(w.dropFirst())) }
        if w == "+", at(1).kind == .string { _ = advance(); let s = advance(); return try project(s.text, s.range) }
        if w.hasPrefix("+"), w.count > 1 { _ = advance(); return try project(String(w.dropFirst()), t.range) }
        if w.hasPrefix("!"), w.count > 1 {
            _ = advance()
            guard let p = Priority(word: String(w.dropFirst())) else {
                throw Catalog.badFieldValue("priority", value: w, range: t.range, file: file, expected: "!low, !medium, !high, !critical",
                                            help: Suggestion.nearest(String(w.dropFirst()), in: Priority.words).map { "did you mean '!\($0)'?" })
            }
            return .priority(.equal, p)
        }
        if w.hasPrefix("[[") { return try parseNote() }
        if w.hasPrefix("@"), w.count > 1 { return try parseWindow() }
        if let colon = w.firstIndex(of: ":"), colon != w.startIndex, w.index(after: colon) != w.endIndex || at(1).kind == .string {
            return try parseFieldValue()
        }
        if at(1).kind == .punct, ["<", "<=", ">", ">=", "=", "~"].contains(at(1).text) { return try parseComparison() }
        switch lower {
        case "overdue": _ = advance(); return .overdue
        case "repeating": _ = advance(); return .repeating
        case "open": _ = advance(); return .status(.open)
        case "archived": _ = advance(); return .status(.archived)
        case "held": _ = advance(); return .held
        case "done":
            _ = advance()
            if peek.isWord("today") { _ = advance(); return .doneToday }
            return .status(.done)
        case "no", "has":
            if at(1).isWord("due") { _ = advance(); _ = advance(); return lower == "no" ? .noDue : .hasDue }
            if lower == "has", at(1).isWord("time") { _ = advance(); _ = advance(); return .hasTime }
        case "search":
            _ = advance()
            guard peek.kind == .string || peek.kind == .word else { throw Catalog.expected("words to search for", after: "search", at: peek, file: file) }
            return .words(SearchText.words(advance().text))
        default:
            break
        }
        if Self.fields.contains(lower), at(1).kind != .end, !isOperator(at(1)) {
            // A field name followed by a word: probably a comparison without its operator.
            throw Diagnostic(code: "E0102", message: "expected a comparison after '\(w)'", file: file, range: at(1).range,
                             label: "expected <, <=, >, >=, = or ~", help: "for example: \(lower) < fri")
        }
        _ = advance()
        return .words(SearchText.words(w))
    }

    /// `filter:NAME`: the saved filter's own filter, parsed in place (R-FIL-5).
    mutating func savedFilter(_ name: String, _ r: SourceRange) throws(Diagnostic) -> FilterTerm {
        guard let f = saved.first(where: { $0.name.lowercased() == name.lowercased() }) else {
            throw Diagnostic(code: "E0213", message: "no saved filter named '\(name)'", file: file, range: r, label: "not a saved filter",
                             help: Suggestion.nearest(name, in: saved.map(\.name)).map { "did you mean '\($0)'?" } ?? "'filters' lists them")
        }
        if let k = visiting.firstIndex(where: { $0.lowercased() == f.name.lowercased() }) {
            let chain = (visiting[k...] + [f.name]).joined(separator: " → ")
            throw Diagnostic(code: "E0214", message: "saved filters refer to each other in a cycle: \(chain)", file: file, range: r,
                             label: "this makes the cycle")
        }
        guard depth < Limits.filterDepth else { throw Catalog.filterTooDeep(file: file, range: r) }
        switch FilterParser.parse(f.filter, name: f.name, context: ctx, projects: projects, saved: saved, visiting: visiting + [f.name],
                                  depth: depth + 1) {
        case .success(let e): return .saved(f.name, e)
        case .failure(let d):
            if d.code == "E0214" || d.code == "E0008" {
                var x = d
                x.file = file
                x.range = r
                throw x
            }
            throw Diagnostic(code: d.code, message: "in saved filter '\(f.name)': \(d.message)", file: file, range: r,
                             label: "this saved filter does not read", help: d.help)
        }
    }

    mutating func project(_ name: String, _ r: SourceRange) throws(Diagnostic) -> FilterTerm {
        guard let p = projects.first(where: { $0.lowercased() == name.lowercased() }) else {
            throw Catalog.unknownProject(name, range: r, file: file, candidates: projects)
        }
        return .project(p)
    }

    mutating func parseNote() throws(Diagnostic) -> FilterTerm {
        let first = advance()
        var text = first.text
        var end = first.range.end
        while !text.hasSuffix("]]"), peek.kind != .end {
            let t = advance()
            text += " " + t.text
            end = t.range.end
        }
        guard text.hasSuffix("]]"), text.count >= 4 else {
            throw Diagnostic(code: "E0102", message: "expected ']]' to close '[['", file: file, range: SourceRange(start: first.range.start, end: end),
                             label: "this note link is not closed")
        }
        return .note(String(text.dropFirst(2).dropLast(2)))
    }

    /// window ::= "@" ( "today" | "tomorrow" | "yesterday" | "overdue" | ( "this" | "next" ) ( "week" | "month" )
    ///   | "next" NUMBER "days" | ISO_DATE ".." ISO_DATE | date_phrase ) ;
    mutating func parseWindow() throws(Diagnostic) -> FilterTerm {
        let first = advance()
        let w = String(first.text.dropFirst()).lowercased()
        let today = ctx.today.dayNumber
        let rules = ctx.settings.day
        func next(_ k: Int) -> String { at(k).kind == .word || at(k).kind == .number ? at(k).text.lowercased() : "" }
        switch w {
        case "overdue": return .overdue
        case "today": return .window(DayWindow(start: today, end: today + 1))
        case "tomorrow": return .window(DayWindow(start: today + 1, end: today + 2))
        case "yesterday": return .window(DayWindow(start: today - 1, end: today))
        case "this", "next":
            let week = rules.startOfWeek(containing: ctx.today).dayNumber
            if next(0) == "week" {
                _ = advance()
                return .window(w == "this" ? DayWindow(start: week, end: week + 7) : DayWindow(start: week + 7, end: week + 14))
            }
            if next(0) == "month" {
                _ = advance()
                let m = w == "this" ? ctx.today.firstOfMonth : ctx.today.firstOfMonth.adding(months: 1)
                return .window(DayWindow(start: m.dayNumber, end: m.adding(months: 1).dayNumber))
            }
            if w == "next", let n = Int(next(0)), n >= 1, n <= 3660, next(1) == "days" || next(1) == "day" {
                _ = advance(); _ = advance()
                // R-VIEW-1: the next N days start today.
                return .window(DayWindow(start: today, end: today + n))
            }
        default:
            break
        }
        if let dots = w.range(of: "..") {
            let a = CivilDate(iso: String(w[..<dots.lowerBound]))
            let b = CivilDate(iso: String(w[dots.upperBound...]))
            guard let a, let b, a <= b else {
                throw Diagnostic(code: "E0205", message: "'\(w)' is not a range of two dates", file: file, range: first.range,
                                 label: "expected @2026-06-01..2026-06-30", help: "both ends are ISO dates, the first not after the second")
            }
            // Both ends are whole days: a..b covers a through b.
            return .window(DayWindow(start: a.dayNumber, end: b.dayNumber + 1))
        }
        // Any other date phrase is the window of that one day.
        var words = [w]
        var k = 0
        while !isOperator(at(k)), at(k).kind == .word || at(k).kind == .number, words.count < 6 { words.append(at(k).text); k += 1 }
        switch DatePhrase.resolve(words, in: ctx) {
        case .success(let (r, used)):
            for _ in 1..<used { _ = advance() }
            let d = r.due.date.dayNumber
            return .window(DayWindow(start: d, end: d + 1))
        case .failure(let e):
            throw Diagnostic(code: e.code, message: e.message, file: file, range: first.range,
                             label: "not a window or date", help: e.help ?? "windows: @today, @tomorrow, @this week, @next week, @next 7 days, @2026-06-01..2026-06-30")
        }
    }

    /// field_value ::= FIELD ":" WORD ;
    mutating func parseFieldValue() throws(Diagnostic) -> FilterTerm {
        let t = advance()
        let parts = t.text.split(separator: ":", maxSplits: 1).map(String.init)
        let field = parts[0].lowercased()
        var value = parts.count > 1 ? parts[1] : ""
        if value.isEmpty, peek.kind == .string { value = advance().text }
        switch field {
        case "project": return try project(value, t.range)
        case "area": return .area(value)
        case "tag": return .tag(value)
        case "status":
            switch value.lowercased() {
            case "any", "all": return .status(.any)
            case "open": return .status(.open)
            case "done": return .status(.done)
            case "archived": return .status(.archived)
            default: return .status(.named(value.lowercased()))
            }
        case "filter":
            return try savedFilter(value, t.range)
        case "repeat":
            guard let f = RepeatRule.Frequency(rawValue: value.lowercased()) else {
                throw Catalog.badFieldValue("repeat", value: value, range: t.range, file: file, expected: "daily, weekly, monthly, yearly, hourly or minutely",
                                            help: Suggestion.help(value, in: RepeatRule.Frequency.allCases.map(\.rawValue)))
            }
            return .repeatFrequency(f)
        case "priority":
            guard let p = Priority(word: value) else {
                throw Catalog.badFieldValue("priority", value: value, range: t.range, file: file, expected: "low, medium, high or critical",
                                            help: Suggestion.help(value, in: Priority.words))
            }
            return .priority(.equal, p)
        default:
            let tok = Token(kind: .word, text: field, range: SourceRange(start: t.range.start, end: t.range.start + field.utf8.count))
            throw Catalog.unknownField(tok, file: file, candidates: ["project", "area", "tag", "status", "repeat", "priority", "filter"],
                                       label: "not a field a filter reads with ':'")
        }
    }

    /// comparison ::= FIELD ( "<" | "<=" | ">" | ">=" | "=" ) VALUE | ( "title" | "description" ) "~" REGEX ;
    mutating func parseComparison() throws(Diagnostic) -> FilterTerm {
        let f = advance()
        let op = advance()
        let field = f.text.lowercased()
        guard Self.fields.contains(field) else {
            throw Catalog.unknownField(f, file: file, candidates: ["due", "priority", "estimate", "created", "title", "description"])
        }
        if op.text == "~" {
            guard let rf = RegexField(rawValue: field) else {
                throw Diagnostic(code: "E0209", message: "'~' matches title or description, not \(field)", file: file, range: f.range, label: "not a text field")
            }
            return try parseRegex(rf, after: op)
        }
        guard let cmp = Comparison(rawValue: op.text) else {
            throw Diagnostic(code: "E0102", message: "expected a comparison after '\(f.text)'", file: file, range: op.range, label: "not <, <=, >, >= or =")
        }
        let v = peek
        guard v.kind == .word || v.kind == .number else { throw Catalog.expected("a value", after: op.text, at: v, file: file) }
        switch field {
        case "priority":
            _ = advance()
            guard let p = Priority(word: v.text) else {
                throw Catalog.badFieldValue("priority", value: v.text, range: v.range, file: file, expected: "low, medium, high or critical",
                                            help: Suggestion.help(v.text, in: Priority.words))
            }
            return .priority(cmp, p)
        case "estimate":
            _ = advance()
            if Self.hasTooLargeNumber(v.text) { throw Catalog.numberTooLarge(v.text, range: v.range, file: file) }
            guard let m = Self.minutes(v.text) else {
                throw Catalog.badFieldValue("estimate", value: v.text, range: v.range, file: file, expected: "a duration like 15m, 1h or 90m")
            }
            return .estimate(cmp, minutes: m)
        case "created":
            _ = advance()
            if Self.hasTooLargeNumber(v.text) { throw Catalog.numberTooLarge(v.text, range: v.range, file: file) }
            if let ago = Self.daysAgo(v.text) {
                guard let day = ctx.today.addingChecked(days: ago) else {
                    throw Catalog.dateOutOfRange("'\(v.text)' is before 0001-01-01, the first day of the calendar", range: v.range, file: file)
                }
                let instant = ctx.zone.instant(for: CivilDateTime(date: day, time: ctx.settings.day.dayStart))
                return .created(cmp, instant)
            }
            let d = try dateValue(first: v)
            return .created(cmp, ctx.zone.instant(for: CivilDateTime(date: CivilDate(dayNumber: d), time: ctx.settings.day.dayStart)))
        case "due":
            _ = advance()
            return .due(cmp, day: try dateValue(first: v))
        default:
            throw Diagnostic(code: "E0209", message: "'\(field)' is compared with '~' and a /pattern/", file: file, range: op.range,
                             label: "not a comparison for text", help: "for example: \(field) ~ /^call/i")
        }
    }

    /// The day a date phrase in a comparison names; its words follow the operator.
    mutating func dateValue(first: Token) throws(Diagnostic) -> Int {
        var words = [first.text]
        var k = 0
        while !isOperator(at(k)), at(k).kind == .word || at(k).kind == .number, words.count < 6 { words.append(at(k).text); k += 1 }
        switch DatePhrase.resolve(words, in: ctx) {
        case .success(let (r, used)):
            for _ in 1..<used { _ = advance() }
            return r.due.date.dayNumber
        case .failure(let e):
            throw Diagnostic(code: e.code, message: e.message, file: file, range: first.range,
                             label: "not a date", help: e.help)
        }
    }

    /// `/pattern/flags` after `~`, read from the statement's text (it may hold spaces and `|`).
    mutating func parseRegex(_ field: RegexField, after op: Token) throws(Diagnostic) -> FilterTerm {
        let b = source.bytes
        var i = op.range.end - source.range.start
        while i < b.count, b[i] == 0x20 { i += 1 }
        guard i < b.count, b[i] == UInt8(ascii: "/") else {
            throw Catalog.expected("a /pattern/", after: "~", at: peek, file: file, help: "for example: title ~ /^call/i")
        }
        let start = i
        i += 1
        var pattern: [UInt8] = []
        while i < b.count, b[i] != UInt8(ascii: "/") {
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count { pattern.append(b[i]); pattern.append(b[i + 1]); i += 2; continue }
            pattern.append(b[i])
            i += 1
        }
        guard i < b.count else {
            throw Diagnostic(code: "E0001", message: "unterminated pattern", file: file,
                             range: SourceRange(start: source.range.start + start, end: source.range.start + start + 1),
                             label: "this '/' is never closed", help: "end the pattern with '/'")
        }
        i += 1
        var caseless = false
        var multiline = false
        while i < b.count, b[i] != 0x20, b[i] != UInt8(ascii: ")") {
            switch b[i] {
            case UInt8(ascii: "i"): caseless = true
            case UInt8(ascii: "m"): multiline = true
            default:
                throw Diagnostic(code: "E0209", message: "unknown pattern flag '\(String(decoding: [b[i]], as: UTF8.self))'", file: file,
                                 range: SourceRange(start: source.range.start + i, end: source.range.start + i + 1), label: "flags are i and m")
            }
            i += 1
        }
        let end = source.range.start + i
        let re: RegexPattern
        do throws(RegexError) {
            re = try RegexPattern(String(decoding: pattern, as: UTF8.self), caseless: caseless, multiline: multiline)
        } catch {
            let at = source.range.start + start + 1 + (error.offset ?? 0)
            throw Diagnostic(code: "E0212", message: "bad pattern: \(error.message)", file: file, range: SourceRange(start: at, end: at + 1), label: "here")
        }
        // Skip the tokens the pattern covered.
        while peek.kind != .end, peek.range.start < end { _ = advance() }
        return .regex(field: field, re)
    }

    /// True when a word holds a run of ASCII digits past `Limits.largestNumber`.
    static func hasTooLargeNumber(_ s: String) -> Bool {
        var run = 0
        for b in s.utf8 {
            if b >= 0x30, b <= 0x39 {
                run += 1
                if run > 9 { return true }
            } else {
                run = 0
            }
        }
        return false
    }

    /// `15m`, `2h`, `90`, `1h30m`; nil for anything else, or a number past `Limits.largestNumber`.
    static func minutes(_ s: String) -> Int? {
        let l = s.lowercased()
        guard !hasTooLargeNumber(l) else { return nil }
        if let n = Int(l) { return n }
        var total = 0
        var num = 0
        var digits = false
        for c in l {
            // Nine digits at most (checked above), so neither the number nor the total can overflow.
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits = true; continue }
            guard digits else { return nil }
            switch c {
            case "m": total += num
            case "h": total += num * 60
            case "d": total += num * 1440
            default: return nil
            }
            num = 0
            digits = false
        }
        return digits ? nil : total
    }

    /// `-7d` is seven days before today; `-2w` two weeks.
    static func daysAgo(_ s: String) -> Int? {
        guard s.hasPrefix("-"), s.count >= 3, let unit = s.last, let n = Limits.number(s.utf8.dropFirst().dropLast()) else { return nil }
        switch unit {
        case "d": return -n
        case "w": return -7 * n
        default: return nil
        }
    }
}
