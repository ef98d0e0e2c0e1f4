// The resolve stage of `repeat` and `rrule`: a rule from its words or an RRULE, and how
// many dates a preview shows. Repeats on tasks (dating, the next occurrence) are the engine's
// (Domain/Engine+Repeat).

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A `repeat` or `rrule` statement, resolved: the rule, admitted by the engine.
package enum RepeatRequest {
    /// `repeat`: the rule and how many of its next dates to show.
    case preview(RepeatRule, limit: Int)
    /// `rrule`: the rule as an RRULE.
    case rrule(RepeatRule)
}

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
                    case .success(let (d, used)) where used == words.count - 2:
                        r.from = d.due.date
                        r.fromTime = d.due.time
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
            case .failure(var e):
                // R-CAP-9: the nearest rule Kept reads, as a did-you-mean.
                if !e.refused { e.suggestions = RepeatRule.nearest(words: ws) }
                return .failure(Catalog.badRepeat(e, range: range, file: file))
            }
        }
    }

    /// The request of `repeat` or `rrule`. A `next N` at the end of `repeat` sets how many
    /// dates to show.
    package func resolveRepeat(_ s: Statement, _ arg: TextArg, rruleOnly: Bool) -> Result<RepeatRequest, Diagnostic> {
        let file = s.source.file
        var words = arg.text.split(separator: " ").map(String.init)
        var limit = 5
        // `next N` at the end sets how many dates to show.
        if !rruleOnly, words.count >= 2, words[words.count - 2].lowercased() == "next", Limits.isDigits(words[words.count - 1]) {
            // A number of any length: too many digits is too many dates, not a word of the rule.
            let n = Limits.number(words[words.count - 1].utf8) ?? Int.max
            guard n >= 1, n <= Limits.repeatPreviewDates else {
                return .failure(Catalog.badPreviewCount(words[words.count - 1], range: arg.range, file: file))
            }
            limit = n
            words.removeLast(2)
        }
        return repeatRule(words, range: arg.range, file: file).map { rruleOnly ? .rrule($0) : .preview($0, limit: limit) }
    }
}
