// The repeat and rrule statements: a rule from its words or an RRULE, previewed with its next
// dates. Repeats on tasks (dating, the next occurrence) are the engine's (Domain/Engine+Repeat).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

extension Session {
    /// A rule from words (`every …`, the `every` may be left out) or an RRULE with an optional
    /// `from DATE`: what `repeat`, `rrule` and `set ID repeat` take.
    package func repeatRule(_ words: [String], range: SourceRange, file: SourceFile) -> Result<RepeatRule, Diagnostic> {
        if RepeatRule.saysFREQ(words.joined(separator: " ")) {
            switch RepeatRule.fromRRULE(words.first ?? "") {
            case .success(let read):
                var r = engine.admit(read, from: .rrule)
                if words.count >= 3, words[1].lowercased() == "from" {
                    switch DatePhrase.resolve(Array(words[2...]), in: dateContext) {
                    case .success(let (d, used)) where used == words.count - 2: r.from = d.due.date
                    default:
                        return .failure(Catalog.badDate(words[2...].joined(separator: " "), range: range, file: file))
                    }
                } else if words.count > 1 {
                    return .failure(Catalog.unexpectedAfterRRULE(words[1], range: range, file: file))
                }
                return .success(r)
            case .failure(let e):
                return .failure(Catalog.badRRULE(e, range: range, file: file))
            }
        } else {
            let ws = words.first?.lowercased() == "every" ? words : ["every"] + words
            switch RepeatRule.parse(words: ws, in: dateContext) {
            case .success(let (r, used)) where used == ws.count:
                return .success(engine.admit(r, from: .words))
            case .success(let (_, used)):
                let bad = ws[used]
                return .failure(Catalog.unexpectedAfterRepeat(bad, rule: ws[..<used].joined(separator: " "), range: range, file: file))
            case .failure(let e):
                return .failure(Catalog.badRepeat(e, range: range, file: file))
            }
        }
    }

    package func runRepeat(_ s: Statement, _ arg: TextArg, rruleOnly: Bool) -> CommandOutput {
        let file = s.source.file
        var words = arg.text.split(separator: " ").map(String.init)
        var limit = 5
        // `next N` at the end sets how many dates to show.
        if !rruleOnly, words.count >= 2, words[words.count - 2].lowercased() == "next", Limits.isDigits(words[words.count - 1]) {
            // A number of any length: too many digits is too many dates, not a word of the rule.
            let n = Limits.number(words[words.count - 1].utf8) ?? Int.max
            guard n >= 1, n <= Limits.repeatPreviewDates else {
                return .error(Catalog.badPreviewCount(words[words.count - 1], range: arg.range, file: file))
            }
            limit = n
            words.removeLast(2)
        }
        let rule: RepeatRule
        switch repeatRule(words, range: arg.range, file: file) {
        case .success(let r): rule = r
        case .failure(let d): return .error(d)
        }
        let anchor = rule.from ?? today
        let words_ = rule.text(anchor: anchor)
        let rr = rule.rrule(anchor: anchor, weekStart: weekStart, zone: zone)
        if rruleOnly {
            switch rr {
            case .success(let x): return out([x], json: .object(JSONObject([("rule", .string(words_)), ("rrule", .string(x))])))
            case .failure(let e):
                return .error(Catalog.noRRULE(words_, e, range: arg.range, file: file))
            }
        }
        // An hourly rule without `from` starts now.
        let time = rule.dependsOnAnchorTime && rule.from == nil ? nowLocal.time : nil
        let dates = rule.occurrences(anchor: anchor, time: time, limit: limit, weekStart: weekStart, zone: zone)
        let rrText = (try? rr.get()) ?? "none (\(rr.failure.map(Catalog.message) ?? ""))"
        let json = JSONValue.object(JSONObject([
            ("rule", .string(words_)),
            ("rrule", (try? rr.get()).map { .string($0) } ?? .null),
            ("dates", .array(dates.map { .string($0.date.iso + ($0.time.map { "T" + $0.iso } ?? "")) })),
        ]))
        var lines = [rule.words(anchor: anchor) ?? "No words say this rule: its text is its RRULE", "RRULE " + rrText]
        lines += dates.map { d in d.time.map { "\(TimeText.longDate(d.date)) \(TimeText.time($0, store.settings.day.hourCycle))" } ?? TimeText.longDate(d.date) }
        if dates.count < limit { lines.append("(the series ends here)") }
        return out(lines, json: json)
    }
}
