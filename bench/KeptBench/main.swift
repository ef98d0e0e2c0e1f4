// kept-bench: in-process throughput of the engine's hot paths, on one core. Not a test: it
// prints figures. `kept-bench capture PHRASES.jsonl [SECONDS]` times capture parsing on the
// peers' 10,000 phrases (../shared/bench/peers/dateparse_bench.py writes them).
// `kept-bench next RULES.jsonl [SECONDS]` times the next occurrence of the peers' 100,000
// rules (rrule-next.jsonl from ../shared/bench/peers/rrule_bench.py), with their anchors and
// with the anchors moved about five years back. `kept-bench general RULES.jsonl [SECONDS]` times
// general RFC 5545 rules (bench/rrule_general.py writes them) by family (GeneralBench.swift).

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

func fail(_ s: String) -> Never {
    FileHandle.standardError.write(Data((s + "\n").utf8))
    exit(2)
}

/// Seconds of monotonic time.
func monotonic() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Runs `body` over all items repeatedly for about `seconds`; returns items per second
/// (the best of the rounds, each round one pass).
func measure(_ n: Int, seconds: Double, _ body: () -> Int) -> (perSecond: Double, failures: Int) {
    var failures = body() // warm-up
    var best = 0.0
    let stop = monotonic() + seconds
    repeat {
        let t0 = monotonic()
        failures = body()
        let dt = monotonic() - t0
        best = max(best, Double(n) / dt)
    } while monotonic() < stop
    return (best, failures)
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? self : String(repeating: " ", count: n - count) + self }
}

func main() {
    let args = CommandLine.arguments
    if args.count >= 3, args[1] == "next" { return nextMain(args) }
    if args.count >= 3, args[1] == "general" { return generalMain(args) }
    if args.count >= 4, args[1] == "rule" { return ruleMain(args) }
    if args.count >= 3, args[1] == "filter" { return filterMain(args) }
    if args.count >= 3, args[1] == "load" { return loadMain(args) }
    if args.count >= 3, args[1] == "records" { return recordsMain(args) }
    if args.count >= 3, args[1] == "plan" { return planMain(args) }
    if args.count >= 4, args[1] == "sync" { return syncMain(args) }
    if args.count >= 3, args[1] == "sync-load" { return syncLoadMain(args) }
    guard args.count >= 3, args[1] == "capture" else {
        fail("usage: kept-bench capture PHRASES.jsonl [SECONDS] | kept-bench next RULES.jsonl [SECONDS] | kept-bench filter STORE.json [SECONDS] | kept-bench sync CONNINFO N [ROUNDS] [DIR]")
    }
    let seconds = args.count > 3 ? Double(args[3]) ?? 3 : 3
    guard let data = FileManager.default.contents(atPath: args[2]) else { fail("cannot read \(args[2])") }
    var phrases: [String] = []
    for line in [UInt8](data).split(separator: UInt8(ascii: "\n")) {
        guard case .object(let o)? = try? JSONParser.parse(Array(line)), case .string(let p)? = o["phrase"] else { continue }
        phrases.append(p)
    }
    guard !phrases.isEmpty else { fail("no phrases in \(args[2])") }

    // The peers' base: Mon 2026-06-15 09:00 in Europe/Berlin.
    guard let zone = Zone(identifier: "Europe/Berlin"), let now = CivilDateTime(iso: "2026-06-15T09:00") else { fail("zone") }
    let settings = Settings()
    let ctx = DateContext(now: now, today: settings.day.today(at: now), settings: settings, zone: zone)

    let titles = ["Buy milk", "Call mom", "Submit expense report", "Dentist", "Pay rent", "Review PR for parser",
                  "Book flight to Lisbon", "Water the plants", "Email Anna about budget", "Renew passport"]
    let suffixes = ["", "", " #errands", " #home", " !high", " !1", " #work", " [[Notes]]"]
    var rng = UInt64(11)
        func next() -> Int {
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: rng >> 33)
        }
    // Quick-add lines as a user types them: a title, an @ phrase, sometimes a tag or priority.
    let addLines: [[UInt8]] = phrases.map { p in Array("\(titles[next() % titles.count]) @\(p)\(suffixes[next() % suffixes.count])".utf8) }
    // Capture-box lines: the phrase at the end without @ (R-CAP-4).
    let naturalLines: [[UInt8]] = phrases.map { p in Array("\(titles[next() % titles.count]) \(p)".utf8) }
    let phraseWords: [[String]] = phrases.map { $0.split(separator: " ").map(String.init) }

    func undated(_ lines: [[UInt8]], natural: Bool, tokens: Bool = false) -> Int {
        var n = 0
        for l in lines {
            switch QuickAdd.parse(bytes: l, in: ctx, natural: natural, tokens: tokens) {
            case .success(let d): if d.due == nil { n += 1 }
            case .failure: n += 1
            }
        }
        return n
    }

    let add = measure(addLines.count, seconds: seconds) { undated(addLines, natural: false) }
    let addTokens = measure(addLines.count, seconds: seconds) { undated(addLines, natural: false, tokens: true) }
    let natural = measure(naturalLines.count, seconds: seconds) { undated(naturalLines, natural: true) }
    let bare = measure(phraseWords.count, seconds: seconds) {
        var n = 0
        for w in phraseWords {
            if case .failure = DatePhrase.resolve(w, in: ctx) { n += 1 }
        }
        return n
    }
    func row(_ name: String, _ r: (perSecond: Double, failures: Int)) {
        let rate = Int(r.perSecond.rounded())
        print(name.padding(toLength: 52, withPad: " ", startingAt: 0)
              + String(phrases.count).leftPad(7) + "  " + String(rate).leftPad(12) + "/s  unparsed " + String(r.failures))
    }
    print("kept capture parsing, one core, best pass of \(Int(seconds)) s (phrases: \(args[2]))")
    row("kept QuickAdd.parse  'Title @phrase [tag]'", add)
    row("kept QuickAdd.parse  same, with token spans", addTokens)
    row("kept QuickAdd.parse natural 'Title phrase'", natural)
    row("kept DatePhrase.resolve (phrase words)", bare)

}

// MARK: - next: RepeatRule.nextOccurrence on the peers' 100,000 rules

/// One of the peers' rules, read into kept's terms.
struct BenchRule {
    var rule: RepeatRule
    /// dtstart's date: the series' anchor.
    var anchor: CivilDate
    /// The same series anchored about five years earlier.
    var oldAnchor: CivilDate
    /// dateutil's after(now) is strictly after 2026-06-15T09:00 and every occurrence keeps
    /// dtstart's time, so a rule due later than 09:00 may still fall on the 15th: then the
    /// day to look after is the 14th, else the 15th.
    var after: CivilDate
    /// dateutil's answer (the peers' `next`), as a date.
    var dateutilNext: CivilDate?
    var rrule: String
}

/// The anchor moved back about five years so that the series stays the same: a whole number
/// of intervals of days or weeks; the same month and day five years (60 months) back, or a
/// multiple of the interval above that; a Feb 29 to the first Feb 29 at least five years back.
func olderAnchor(_ r: RepeatRule, _ a: CivilDate) -> CivilDate {
    let n = max(1, r.interval)
    func up(_ x: Int, _ k: Int) -> Int { (x + k - 1) / k * k }
    switch r.frequency {
    case .daily:
        return a.adding(days: -up(1826, n))
    case .weekly:
        return a.adding(days: -7 * up(261, n))
    case .monthly:
        let back = up(60, n)
        let m = a.year * 12 + a.month - 1 - back
        let y = m / 12, mo = m % 12 + 1
        // Without BYMONTHDAY the day is the anchor's: keep it (clamping would change the rule).
        if let d = CivilDate(year: y, month: mo, day: a.day) { return d }
        return CivilDate(year: y, month: mo, day: CivilDate.daysInMonth(year: y, month: mo)) ?? a
    case .yearly:
        var back = up(5, n)
        while CivilDate(year: a.year - back, month: a.month, day: a.day) == nil { back += n }
        return CivilDate(year: a.year - back, month: a.month, day: a.day) ?? a
    case .hourly, .minutely:
        // Whole days that keep the phase: 24 (or 1440) times the days a multiple of the interval.
        let perDay = r.frequency == .hourly ? 24 : 1440
        var g = n, b = perDay
        while b != 0 { (g, b) = (b, g % b) }
        return a.adding(days: -up(1826, n / g))
    }
}

func loadRules(_ path: String) -> [BenchRule] {
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    guard let d15 = CivilDate(iso: "2026-06-15") else { fail("date") }
    let d14 = d15.adding(days: -1)
    var out: [BenchRule] = []
    var refused: [String: Int] = [:]
    for line in [UInt8](data).split(separator: UInt8(ascii: "\n")) {
        guard case .object(let o)? = try? JSONParser.parse(Array(line)),
              case .string(let rr)? = o["rrule"], case .string(let start)? = o["dtstart"],
              let anchor = CivilDate(iso: String(start.prefix(10))) else { fail("bad line in \(path)") }
        var next: CivilDate?
        if case .string(let nx)? = o["next"] { next = CivilDate(iso: String(nx.prefix(10))) }
        switch RepeatRule.fromRRULE(rr) {
        case .success(let rule):
            // "HH:MM" after the date; later than the peers' now (09:00) means the 15th may count.
            let hhmm = start.dropFirst(11).prefix(5)
            out.append(BenchRule(rule: rule, anchor: anchor, oldAnchor: olderAnchor(rule, anchor),
                                 after: hhmm > "09:00" ? d14 : d15, dateutilNext: next, rrule: rr))
        case .failure(let e):
            refused[Catalog.message(e), default: 0] += 1
        }
    }
    for (m, k) in refused.sorted(by: { $0.value > $1.value }) {
        print("  refused \(k) rules: \(m)")
    }
    return out
}

/// Like `measure`, also returning the body's checksum from the last pass.
func measureSum(_ n: Int, seconds: Double, _ body: () -> (sum: Int, missing: Int)) -> (perSecond: Double, sum: Int, missing: Int) {
    var r = body() // warm-up
    var best = 0.0
    let stop = monotonic() + seconds
    repeat {
        let t0 = monotonic()
        r = body()
        let dt = monotonic() - t0
        best = max(best, Double(n) / dt)
    } while monotonic() < stop
    return (best, r.sum, r.missing)
}

func nextMain(_ args: [String]) {
    let seconds = args.count > 3 ? Double(args[3]) ?? 3 : 3
    let rules = loadRules(args[2])
    guard !rules.isEmpty else { fail("no rules in \(args[2])") }
    let n = rules.count
    let ruleList = rules.map(\.rule)
    let fresh = rules.map(\.anchor)
    let old = rules.map(\.oldAnchor)
    let after = rules.map(\.after)
    let texts = rules.map(\.rrule)

    // The hot call: the first occurrence strictly after a day, from an anchor.
    // The rules are read in place (a copy of a rule would time the copy, not the rule).
    func pass(_ anchors: [CivilDate]) -> (sum: Int, missing: Int) {
        var sum = 0, missing = 0
        ruleList.withUnsafeBufferPointer { rules in
            for i in 0..<n {
                if let d = rules[i].nextOccurrence(after: after[i], anchor: anchors[i]) {
                    sum = sum &* 31 &+ d.day &+ d.month << 5 &+ d.year << 9
                } else {
                    missing += 1
                }
            }
        }
        return (sum, missing)
    }
    let parse = measure(n, seconds: seconds) {
        var bad = 0
        for t in texts { if case .failure = RepeatRule.fromRRULE(t) { bad += 1 } }
        return bad
    }
    let a = measureSum(n, seconds: seconds) { pass(fresh) }
    let b = measureSum(n, seconds: seconds) { pass(old) }

    // Checks: the old anchors give the same next date wherever the fresh anchor is not after
    // the day looked after (a future anchor starts its series later); and kept beside dateutil.
    var sameOld = 0, comparable = 0, agree = 0
    var disagree: [String: (count: Int, example: String)] = [:]
    for (i, r) in rules.enumerated() {
        let x = r.rule.nextOccurrence(after: r.after, anchor: r.anchor)
        if r.anchor <= r.after {
            comparable += 1
            if r.rule.nextOccurrence(after: r.after, anchor: r.oldAnchor) == x { sameOld += 1 }
        }
        if x == r.dateutilNext { agree += 1 } else {
            let key = r.rrule + (r.anchor.month == 2 && r.anchor.day == 29 ? " from a Feb 29" : "")
            let ex = "from \(r.anchor.iso): kept \(x?.iso ?? "none"), dateutil \(r.dateutilNext?.iso ?? "none") (rule \(i + 1))"
            if var e = disagree[key] { e.count += 1; disagree[key] = e } else { disagree[key] = (1, ex) }
        }
    }

    func row(_ name: String, _ rate: Double, _ extra: String) {
        print(name.padding(toLength: 48, withPad: " ", startingAt: 0)
              + String(n).leftPad(8) + "  " + String(Int(rate.rounded())).leftPad(12) + " rules/s  " + extra)
    }
    func hex(_ x: Int) -> String { "0x" + String(UInt64(bitPattern: Int64(x)), radix: 16) }
    print("kept next occurrence, one core, best pass of \(Int(seconds)) s (rules: \(args[2]))")
    row("kept RepeatRule.fromRRULE", parse.perSecond, "refused \(parse.failures)")
    row("kept nextOccurrence, fresh anchors", a.perSecond, "checksum \(hex(a.sum)), none \(a.missing)")
    row("kept nextOccurrence, anchors ~5y earlier", b.perSecond, "checksum \(hex(b.sum)), none \(b.missing)")
    print("old anchors give the fresh next date on \(sameOld) of \(comparable) rules whose fresh anchor is not in the future")
    print("kept's next date equals dateutil's after(now) on \(agree) of \(n) rules")
    for (k, v) in disagree.sorted(by: { $0.value.count > $1.value.count }) {
        print("  differs on \(v.count): \(k); e.g. \(v.example)")
    }
}

main()
