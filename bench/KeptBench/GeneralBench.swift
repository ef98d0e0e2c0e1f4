// `kept-bench general RULES.jsonl [SECONDS]`: the next occurrence of general RFC 5545 rules
// (bench/rrule_general.py writes them with dateutil's answers), by family, with fresh anchors
// and anchors five years older. Prints each family's throughput over all its rules, and the
// slowest single rule of each (its own rate over many calls), so that "any rule" is a figure.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

struct GeneralRule {
    var rule: RepeatRule
    var text: String
    var family: String
    var anchor: CivilDate
    var old: CivilDate
    var next: String?
    var oldNext: String?
}

func generalMain(_ args: [String]) {
    let seconds = args.count > 3 ? Double(args[3]) ?? 2 : 2
    guard let data = FileManager.default.contents(atPath: args[2]) else { fail("cannot read \(args[2])") }
    var rules: [GeneralRule] = []
    for line in [UInt8](data).split(separator: UInt8(ascii: "\n")) {
        guard case .object(let o)? = try? JSONParser.parse(Array(line)), case .string(let rr)? = o["rrule"],
              case .string(let fam)? = o["family"], case .string(let a)? = o["dtstart"], case .string(let b)? = o["old"],
              let anchor = CivilDate(iso: a), let old = CivilDate(iso: b) else { fail("bad line in \(args[2])") }
        guard case .success(var r) = RepeatRule.fromRRULE(rr) else { fail("kept refused \(rr)") }
        r.weekStart = r.weekStart ?? .monday
        var next: String?, oldNext: String?
        if case .string(let x)? = o["next"] { next = x }
        if case .string(let x)? = o["oldNext"] { oldNext = x }
        rules.append(GeneralRule(rule: r, text: rr, family: fam, anchor: anchor, old: old, next: next, oldNext: oldNext))
    }
    guard !rules.isEmpty, let now = CivilDateTime(iso: "2026-06-15T09:00") else { fail("no rules") }

    func show(_ d: Due?) -> String? { d.map { $0.date.iso + "T" + ($0.time ?? .midnight).iso } }
    // Checks: kept's next occurrence equals dateutil's, for both anchors.
    // dateutil's answers exist for a sample of each family ("none": no next occurrence).
    var agree = 0, compared = 0, shown = 0
    for g in rules {
        for (anchor, want) in [(g.anchor, g.next), (g.old, g.oldNext)] {
            guard let want else { continue }
            compared += 1
            // dateutil prints a date rule's occurrence at 00:00, as kept shows it here.
            let got = show(g.rule.nextOccurrence(after: now, anchor: anchor)) ?? "none"
            if got == want {
                agree += 1
            } else if shown < 10 {
                shown += 1
                print("  differs: \(g.text) from \(anchor.iso): kept \(got), dateutil \(want)")
            }
        }
    }

    /// Calls over a set of rules, best pass within the seconds.
    func rate(_ set: [GeneralRule], old: Bool) -> Double {
        measureSum(set.count, seconds: seconds) {
            var sum = 0, missing = 0
            set.withUnsafeBufferPointer { rs in
                for g in rs {
                    if let d = g.rule.nextOccurrence(after: now, anchor: old ? g.old : g.anchor) {
                        sum = sum &* 31 &+ d.date.day &+ (d.time?.minuteOfDay ?? 0)
                    } else {
                        missing += 1
                    }
                }
            }
            return (sum, missing)
        }.perSecond
    }

    let verbose = ProcessInfo.processInfo.environment["SLOWEST"] != nil
    let below = Double(ProcessInfo.processInfo.environment["BELOW"] ?? "") ?? 0
    /// The slowest rule of a set: each timed alone over 300 calls (SLOWEST=1 prints the 3 slowest,
    /// BELOW=RATE every rule slower than RATE).
    func slowest(_ set: [GeneralRule], old: Bool) -> (rate: Double, rule: String) {
        var worst = (Double.infinity, "")
        var all: [(Double, String)] = []
        for g in set {
            let anchor = old ? g.old : g.anchor
            var sum = 0
            var best = Double.infinity
            for _ in 0..<3 {
                let t0 = monotonic()
                for _ in 0..<300 { sum &+= g.rule.nextOccurrence(after: now, anchor: anchor)?.date.day ?? 0 }
                best = min(best, monotonic() - t0)
            }
            if sum == -1 { print("") }
            let r = 300 / best
            if verbose { all.append((r, g.text + " from " + anchor.iso)) }
            if r < below { print("    below: \(Int(r))/s  \(g.text) from \(anchor.iso)") }
            if r < worst.0 { worst = (r, g.text + " from " + anchor.iso) }
        }
        for (r, t) in all.sorted(by: { $0.0 < $1.0 }).prefix(3) { print("    \(Int(r))/s  \(t)") }
        return worst
    }

    print("kept next occurrence of general rules, one core (rules: \(args[2]))")
    print("family".padding(toLength: 36, withPad: " ", startingAt: 0) + "rules".leftPad(7) + "fresh/s".leftPad(13) + "~5y/s".leftPad(13)
          + "slowest fresh/s".leftPad(17) + "slowest ~5y/s".leftPad(15))
    let families = Array(Set(rules.map(\.family))).sorted()
    var slowestOverall = (Double.infinity, "")
    var slowestNoCount = (Double.infinity, "")
    for fam in families + ["all"] {
        let set = fam == "all" ? rules : rules.filter { $0.family == fam }
        let f = rate(set, old: false), o = rate(set, old: true)
        var cells = fam.padding(toLength: 36, withPad: " ", startingAt: 0) + String(set.count).leftPad(7)
            + String(Int(f.rounded())).leftPad(13) + String(Int(o.rounded())).leftPad(13)
        if fam != "all" {
            let sf = slowest(set, old: false), so = slowest(set, old: true)
            cells += String(Int(sf.rate.rounded())).leftPad(17) + String(Int(so.rate.rounded())).leftPad(15)
            for s in [sf, so] {
                if s.rate < slowestOverall.0 { slowestOverall = (s.rate, s.rule) }
                if fam != "with COUNT", s.rate < slowestNoCount.0 { slowestNoCount = (s.rate, s.rule) }
            }
        }
        print(cells)
    }
    print("slowest rule without COUNT: \(Int(slowestNoCount.0.rounded()))/s (\(slowestNoCount.1))")
    print("slowest rule of all: \(Int(slowestOverall.0.rounded()))/s (\(slowestOverall.1))")
    print("kept's next occurrence equals dateutil's after(now) on \(agree) of \(compared) (rule, anchor) pairs dateutil answered")
}

/// `kept-bench rule ANCHOR RRULE... ` (CALLS=N, default 200000): each rule's next occurrence
/// after 2026-06-15T09:00 from ANCHOR, N calls, with its rate and answer. With CALLS=0 it only
/// reads the rules, so that `valgrind --tool=callgrind` runs with N and with 0 calls give the
/// instructions of N calls (bench/rrule_callgrind.sh).
func ruleMain(_ args: [String]) {
    guard args.count >= 4, let anchor = CivilDate(iso: args[2]), let now = CivilDateTime(iso: "2026-06-15T09:00") else {
        fail("usage: kept-bench rule ANCHOR RRULE...")
    }
    let calls = Int(ProcessInfo.processInfo.environment["CALLS"] ?? "") ?? 200_000
    for text in args[3...] {
        guard case .success(let r) = RepeatRule.fromRRULE(text) else { fail("kept refused \(text)") }
        let rule = r.admitted(from: .rrule, weekStart: .monday, zone: .utc)
        var sum = 0
        let t0 = monotonic()
        for _ in 0..<calls { sum &+= rule.nextOccurrence(after: now, anchor: anchor)?.date.dayNumber ?? 1 }
        let dt = monotonic() - t0
        let next = rule.nextOccurrence(after: now, anchor: anchor)
        let at = next.map { $0.date.iso + ($0.time.map { "T" + $0.iso } ?? "") } ?? "none"
        print("\(calls > 0 ? String(Int((Double(calls) / dt).rounded())) : "-")/s  next \(at)  (checksum \(sum))  \(text) from \(anchor.iso)")
    }
}
