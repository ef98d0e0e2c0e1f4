// kept-bench: in-process throughput of the engine's hot paths, on one core. Not a test: it
// prints figures. `kept-bench capture PHRASES.jsonl [SECONDS]` times capture parsing on the
// peers' 10,000 phrases (../shared/bench/peers/dateparse_bench.py writes them).

import Foundation
import KeptCore

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
    guard args.count >= 3, args[1] == "capture" else {
        fail("usage: kept-bench capture PHRASES.jsonl [SECONDS]")
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

main()
