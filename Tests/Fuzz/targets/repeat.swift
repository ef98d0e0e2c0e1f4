// Fuzz target: a repeat rule in words or an RRULE. What parses must preview, print and print
// as an RRULE without crashing, its dates must rise and stay in the calendar, and a store's
// round trip (the rule's canonical words read back) must give the same dates.

@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRepeat(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = text(data, size)
    var rules: [RepeatRule] = []
    if case .success(let (r, _)) = RepeatRule.parse(input, in: fuzzContext) { rules.append(r) }
    let words = input.split(separator: " ").map(String.init)
    if case .success(let (r, _)) = RepeatRule.parse(words: ["every"] + words, in: fuzzContext) { rules.append(r) }
    if case .success(let r) = RepeatRule.fromRRULE(input) { rules.append(r) }
    for rule in rules {
        let anchor = rule.from ?? fuzzNow.date
        let dates = rule.occurrences(anchor: anchor, limit: 40)
        // A day comes twice when the rule has two times that day (HOURLY, BYHOUR): the days never
        // fall, and the occurrences themselves, day and time, always rise.
        for (a, b) in zip(dates, dates.dropFirst()) where b < a { violated("dates fall: \(a) then \(b) for \(input.debugDescription)") }
        let dues = rule.occurrences(anchor: anchor, time: nil, limit: 40)
        for (a, b) in zip(dues, dues.dropFirst()) where !(a.date < b.date || (a.date == b.date && (a.time?.minuteOfDay ?? -1) < (b.time?.minuteOfDay ?? -1))) {
            violated("occurrences do not rise: \(a) then \(b) for \(input.debugDescription)")
        }
        _ = rule.nextOccurrence(after: dates.last ?? anchor, anchor: anchor)
        _ = rule.nextOccurrence(after: .latest, anchor: anchor)
        // What the store writes (RepeatSpec: the canonical words and the RRULE) must read back
        // with the same dates.
        let written = RepeatSpec(rule: rule, anchor: anchor)
        let spec = RepeatSpec(text: written.storedText, rrule: written.storedRRULE, anchor: anchor)
        let words = written.storedText
        guard let back = spec.rule else { violated("the rule as written does not read: \(words.debugDescription) / \(written.storedRRULE ?? "no RRULE") from \(input.debugDescription)") }
        let again = back.occurrences(anchor: anchor, limit: 40)
        if again != dates { violated("\(words.debugDescription) reads back with other dates (from \(input.debugDescription))") }
    }
    return 0
}
