// The values inside filter terms: windows (`@this week`, `@today..fri`), date values (a date
// phrase, `-7d`, `30 days ago`), durations and `/patterns/`. Read without a clock: a date phrase
// is parsed here and resolved by FilterBinder.

import KeptRules

extension FilterParser {
    /// window ::= "@" ( "today" | "tomorrow" | "yesterday" | ( "this" | "next" ) ( "week" | "month" )
    ///   | "next" NUMBER "days" | date_value [ ".." date_value ] ) ;
    package mutating func parseWindow() throws(Diagnostic) -> WindowSyntax {
        let first = peek
        let w = String(first.text.dropFirst()).lowercased()
        func next(_ k: Int) -> String { isOperator(at: k) || !(at(k).kind == .word || at(k).kind == .number) ? "" : at(k).text.lowercased() }
        if !w.contains("..") {
            switch w {
            case "today": advance(); return .today
            case "tomorrow": advance(); return .tomorrow
            case "yesterday": advance(); return .yesterday
            case "this", "next":
                if next(1) == "week" { advance(); advance(); return w == "this" ? .thisWeek : .nextWeek }
                if next(1) == "month" { advance(); advance(); return w == "this" ? .thisMonth : .nextMonth }
                if w == "next", let n = Int(next(1)), n >= 1, n <= 3660, next(2) == "days" || next(2) == "day" {
                    advance(); advance(); advance()
                    return .nextDays(n)
                }
            default:
                break
            }
        }
        // A day, or a range of two: the words up to the next operator.
        // A word that starts another term (`@fri @-2d..today`, `@fri #errand`) ends the window.
        var words = [w]
        var k = 1
        while words.count < 9, let b = next(k).utf8.first, !FilterParser.startsTerm(b) { words.append(at(k).text); k += 1 }
        let help = "windows: @today, @tomorrow, @this week, @next week, @next 7 days, @2026-06-01..2026-06-30, @today..fri"
        guard let dots = words.firstIndex(where: { $0.contains("..") }), let split = words[dots].range(of: "..") else {
            let (v, used) = try dateValue(words, range: first.range, label: "not a window or date", help: help)
            for _ in 0..<used { advance() }
            return .day(v)
        }
        let leftPart = String(words[dots][..<split.lowerBound]), rightPart = String(words[dots][split.upperBound...])
        let left = Array(words[..<dots]) + (leftPart.isEmpty ? [] : [leftPart])
        let right = (rightPart.isEmpty ? [] : [rightPart]) + Array(words[(dots + 1)...])
        let text = words[...dots].joined(separator: " ")
        guard !left.isEmpty, !right.isEmpty else { throw Catalog.badRange(text, range: first.range, file: file) }
        let (a, usedLeft) = try dateValue(left, range: first.range, label: "not a window or date", help: help)
        guard usedLeft == left.count else { throw Catalog.badRange(text, range: first.range, file: file) }
        let (b, usedRight) = try dateValue(right, range: first.range, label: "not a window or date", help: help)
        // The words up to the one with `..`, then the right end's (its first word may be in that one).
        let taken = dots + usedRight + (rightPart.isEmpty ? 1 : 0)
        for _ in 0..<taken { advance() }
        return .range(a, b)
    }

    /// date_value ::= date_phrase | RELATIVE_AGO | NUMBER ( DATE_UNIT | CLOCK_UNIT ) "ago" ;
    /// The value after a comparison's operator.
    package mutating func parseDateValue() throws(Diagnostic) -> DateValueSyntax {
        let first = peek
        var words: [String] = []
        var k = 0
        while words.count < 6, !isOperator(at: k), at(k).kind == .word || at(k).kind == .number { words.append(at(k).text); k += 1 }
        let (v, used) = try dateValue(words, range: first.range, label: "not a date", help: nil)
        for _ in 0..<used { advance() }
        return v
    }

    /// The date value at the start of `words` and how many words it took.
    package func dateValue(_ words: [String], range: SourceRange, label: String, help: String?) throws(Diagnostic) -> (DateValueSyntax, Int) {
        guard let w0 = words.first else { throw Catalog.expected("a date", after: last.text, found: peek.found, range: peek.range, file: file) }
        if NumberWords.hasTooLargeNumber(w0) { throw Catalog.numberTooLarge(w0, range: range, file: file) }
        if let r = FilterParser.relativeAgo(w0) { return (r, 1) }
        if words.count >= 3, words[2].lowercased() == "ago" {
            let n = words[0].lowercased() == "a" || words[0].lowercased() == "an" ? 1 : Limits.number(words[0].utf8)
            if NumberWords.hasTooLargeNumber(words[0]) { throw Catalog.numberTooLarge(words[0], range: range, file: file) }
            if let n, let v = FilterParser.ago(n, unit: words[1].lowercased(), text: words[..<3].joined(separator: " ")) { return (v, 3) }
        }
        switch DatePhrase.parse(DatePhrase.classify(words), words: words) {
        case .success(let (spec, used)):
            return (.phrase(spec, text: words[..<used].joined(separator: " ")), used)
        case .failure(let e):
            throw Catalog.dateInFilter(e, range: range, file: file, label: label, help: help)
        }
    }

    /// The first bytes of the terms that are marked by a sign (`@`, `#`, `+`, `!`, `[[`).
    package static func startsTerm(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "@") || b == UInt8(ascii: "#") || b == UInt8(ascii: "+") || b == UInt8(ascii: "!") || b == UInt8(ascii: "[")
    }

    /// `-7d`, `-2w`, `-1mo`, `-1y` (days before today) and `-2h`, `-90m` (minutes before now).
    package static func relativeAgo(_ s: String) -> DateValueSyntax? {
        let l = s.lowercased()
        guard l.hasPrefix("-") else { return nil }
        let body = l.utf8.dropFirst()
        let digits = body.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard let n = Limits.number(digits) else { return nil }
        let unit = String(body.dropFirst(digits.count)) ?? ""
        switch unit {
        case "d": return .daysAgo(n, unit: .day, text: s)
        case "w": return .daysAgo(n, unit: .week, text: s)
        case "mo": return .daysAgo(n, unit: .month, text: s)
        case "y": return .daysAgo(n, unit: .year, text: s)
        case "h": return .minutesAgo(n * 60, text: s)
        case "m": return .minutesAgo(n, text: s)
        default: return nil
        }
    }

    /// `N UNIT ago`.
    package static func ago(_ n: Int, unit: String, text: String) -> DateValueSyntax? {
        switch unit {
        case "day", "days": return .daysAgo(n, unit: .day, text: text)
        case "week", "weeks": return .daysAgo(n, unit: .week, text: text)
        case "month", "months": return .daysAgo(n, unit: .month, text: text)
        case "year", "years": return .daysAgo(n, unit: .year, text: text)
        case "hour", "hours", "hr", "hrs": return .minutesAgo(n * 60, text: text)
        case "minute", "minutes", "min", "mins": return .minutesAgo(n, text: text)
        default: return nil
        }
    }

    /// `/pattern/flags` after `~`: one token, read by the lexer (it may hold spaces, `,`, `)`
    /// and `|`). Its flags are checked here, and what is glued to them, other than `)` or `,`,
    /// is a flag too, and no flag.
    package mutating func parseRegex(_ field: RegexField, after op: Token) throws(Diagnostic) -> TermKind {
        let t = peek
        if t.kind == .unclosedPattern {
            throw Catalog.unterminatedPattern(SourceRange(start: t.range.start, end: t.range.start + 1), file: file)
        }
        guard case .pattern(let flagCount) = t.kind else {
            throw Catalog.expected("a /pattern/", after: "~", found: t.found, range: t.range, file: file, help: "for example: title ~ /^call/i")
        }
        let next = tokens[min(pos + 1, tokens.count - 1)]
        advance()
        let b = Array(t.text.utf8)
        // The flags are the last `flagCount` bytes; the closing `/` is just before them.
        let flags = b.count - flagCount
        var caseless = false
        var multiline = false
        for k in flags..<b.count {
            switch b[k] {
            case UInt8(ascii: "i"): caseless = true
            case UInt8(ascii: "m"): multiline = true
            default:
                throw Catalog.unknownPatternFlag(String(decoding: [b[k]], as: UTF8.self),
                                                 range: SourceRange(start: t.range.start + k, end: t.range.start + k + 1), file: file)
            }
        }
        if next.kind != .end, next.range.start == t.range.end, !next.isPunct(")"), !next.isPunct(",") {
            // Punctuation or a quote: its first byte is the flag.
            let flag = next.kind == .string ? "\"" : String(next.text.prefix(1))
            throw Catalog.unknownPatternFlag(flag, range: SourceRange(start: next.range.start, end: next.range.start + 1), file: file)
        }
        let re: RegexPattern
        do throws(RegexError) {
            re = try RegexPattern(String(decoding: b[1..<(flags - 1)], as: UTF8.self), caseless: caseless, multiline: multiline)
        } catch {
            let at = t.range.start + 1 + (error.offset ?? 0)
            throw Catalog.badPattern(error.message, range: SourceRange(start: at, end: at + 1), file: file)
        }
        return .regex(field, re, at: SourceRange(start: t.range.start, end: t.range.start + flags))
    }
}
