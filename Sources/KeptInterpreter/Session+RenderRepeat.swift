// The render stage of `repeat` and `rrule`: the rule in words, its RRULE, and its next dates,
// or the RRULE alone. A rule no RRULE says is an error of `rrule` and a line of `repeat`.

import KeptRules
import KeptDomain
import KeptInterop
import KeptSyntax

/// A rule's preview: its anchor, its RRULE or why it has none, and its next dates.
package struct RepeatPreview {
    package var rule: RepeatRule
    package var anchor: CivilDate
    package var rrule: Result<String, RRULEError>
    package var dates: [Due]
    package var limit: Int
}

/// What a `repeat` or `rrule` statement worked out.
package enum RepeatOutcome {
    case previewed(RepeatPreview)
    case rrule(RepeatRule, anchor: CivilDate, Result<String, RRULEError>)
}

extension Session {
    /// The output of `repeat` or `rrule`.
    package func render(_ o: RepeatOutcome, _ s: Statement) -> CommandOutput {
        switch o {
        case .rrule(let rule, let anchor, let rr):
            let words_ = rule.text(anchor: anchor)
            switch rr {
            case .success(let x): return out([x], json: .object(JSONObject([("rule", .string(words_)), ("rrule", .string(x))])))
            case .failure(let e):
                guard case .rrule(let arg) = s.kind else { return CommandOutput() }
                return .error(Catalog.noRRULE(words_, e, range: arg.range, file: s.source.file))
            }
        case .previewed(let p):
            let (rule, anchor, rr, dates, limit) = (p.rule, p.anchor, p.rrule, p.dates, p.limit)
            let words_ = rule.text(anchor: anchor)
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
}
