// Fuzzing the real binary (docs/LANGUAGE.md "Errors": no input, however malformed, crashes the
// interpreter or damages the store; R-STORE-2). Inputs come from a seeded SplitMix64, so a run
// is reproducible: set KEPT_FUZZ_SEED to try another seed, KEPT_FUZZ_ITERATIONS for more cases.
// A failure names the seed, the case and the input (escaped), which is enough to replay it.

import Foundation
import XCTest

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and the same on every platform.
struct SplitMix64 {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<n (n ≥ 1).
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }

    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    mutating func pick<T>(_ a: [T]) -> T { a[below(a.count)] }

    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) } }
}

/// Failures found on worker threads, reported on the test's thread afterwards.
final class FailureLog: @unchecked Sendable {
    // @unchecked: every access goes through the lock.
    private var items: [String] = []
    private let lock = NSLock()

    func add(_ s: String) {
        lock.lock()
        items.append(s)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

final class FuzzTests: XCTestCase {
    /// How many inputs each generator makes (random bytes, random lines, mutated transcripts,
    /// and the store fuzz); every script input runs three ways.
    static let iterations: Int = {
        if let s = ProcessInfo.processInfo.environment["KEPT_FUZZ_ITERATIONS"], let n = Int(s), n > 0 { return n }
        return 150
    }()

    static let seed: UInt64 = {
        if let s = ProcessInfo.processInfo.environment["KEPT_FUZZ_SEED"], let n = UInt64(s) { return n }
        return 0x4B45_5054 // "KEPT"
    }()

    /// Child processes at once (the brief's machine has two cores).
    static let workers = 2

    /// A small valid store: a project, a done task, a task with a due and an unknown field.
    static let validStore = """
    {
      "format": "kept-store",
      "version": 1,
      "nextId": 4,
      "settings": {"clock": "12h", "zone": "Europe/Berlin", "theme": "dark"},
      "projects": [{"name": "Home"}],
      "areas": [],
      "filters": [],
      "tasks": [
        {"id": 1, "title": "Pay rent", "status": "open", "due": {"date": "2026-06-15", "time": null}, "priority": "high", "project": "Home", "createdAt": "2026-06-01T08:00:00Z"},
        {"id": 2, "title": "Water the plants", "status": "done", "completedAt": "2026-06-14T17:00:00Z", "createdAt": "2026-06-10T09:00:00Z"},
        {"id": 3, "title": "Call the dentist", "status": "open", "due": {"date": "2026-06-16", "time": "09:30"}, "createdAt": "2026-06-11T12:00:00Z", "syncedFrom": "phone"}
      ],
      "sync": {"device": "laptop", "revision": 42}
    }

    """

    /// A valid transcript to mutate; it passes `kept test` as written.
    static let validTranscript = """
    # a transcript to mutate
    > now 2026-06-15 09:00
    > zone Europe/Berlin
    > add Call the dentist @tomorrow 3pm
    Added 1 · Call the dentist · Tomorrow 3 PM

    > add Renew passport @2026-07-01
    Added 2 · Renew passport · Wed Jul 1

    > list
    All 2 tasks
    1  Call the dentist  Tomorrow 3 PM
    2  Renew passport    Wed Jul 1

    > complete 1
    Completed 1 · Call the dentist

    > undo
    Undid complete 1 · Call the dentist

    > show 2 due
    Wed Jul 1, 2026

    > set 2 priority high
    ...

    > set day-start 04:00

    > undo 2
    Undid set day-start 04:00
    Undid set 2 priority · * (glob)

    > show 9
    ! E0301 no task with id 9

    @case "json"
    @format json
    > show 2
    \\{"id":2,.*\\} (re)

    """

    /// Pieces the line generator strings together: keywords, sigils, transcript syntax, numbers
    /// at the edges, dates and times, escapes, and a few awkward characters.
    static let vocabulary = [
        "add", "show", "list", "complete", "reopen", "delete", "set", "undo", "redo", "project",
        "now", "zone", "help", "add", "show", "complete", "undo", "set", "now", "zone",
        "@", "@", "\"", "\"", "#", "!", "+", "~", "where", "--", "\\", "\\n", "\\t", "\\\"",
        "> ", "... ", "...", "@case", "@skip", "@format json", "@format", "@store", "@unordered",
        "<BLANKLINE>", " (re)", " (glob)", "! E0301", "! ",
        "0", "1", "2", "3", "9", "-1", "42", "999999", "9223372036854775807", "9223372036854775808",
        "99999999999999999999999", "1e308", "0x10", "00", "1.5",
        "2026-06-15", "2026-02-30", "2026-06-15T15:00", "2026-06-15 15:00", "0000-01-01", "9999-12-31",
        "15:00", "25:61", "3pm", "3:30pm", "13pm", "noon", "midnight", "today", "tomorrow", "yesterday",
        "@today", "@tomorrow", "@2026-07-01", "@tomorrow 3pm", "@jan 31",
        "Europe/Berlin", "America/New_York", "UTC", "Nowhere/City", "Etc/GMT+14",
        "title", "description", "due", "priority", "high", "critical", "none", "day-start", "week-start",
        "clock", "12h", "24h", "date-order", "morning", "tonight", "04:00",
        "\"Pay rent\"", "Pay", "rent", "x", "é", "😀", "\u{301}", "\u{200B}", "\t", "  ", "\r",
        "/a+/i", "[[", "]]", "(", ")", "{", "}", "=", ">=", "<", ",",
    ]

    // MARK: - Generators

    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        let n = rng.below(400)
        var b = rng.bytes(n)
        // Now and then, sprinkle newlines and `> ` so the transcript reader sees structure.
        if rng.chance(50) {
            for _ in 0..<rng.below(8) where !b.isEmpty {
                let at = rng.below(b.count)
                b.replaceSubrange(at..<at, with: rng.chance(50) ? [0x0A, 0x3E, 0x20] : [0x0A])
            }
        }
        return b
    }

    static func randomLines(_ rng: inout SplitMix64) -> [UInt8] {
        var lines: [String] = []
        for _ in 0..<(1 + rng.below(14)) {
            var line = rng.pick(["> ", "> ", "> ", "... ", "", "", "@", "#", "  ", ">"])
            for k in 0..<rng.below(9) {
                if k > 0 { line += rng.pick([" ", " ", " ", "", "  ", "\t"]) }
                if rng.chance(8) {
                    // A printable ASCII character on its own.
                    line.append(Character(Unicode.Scalar(UInt8(0x21 + rng.below(94)))))
                } else {
                    line += rng.pick(vocabulary)
                }
            }
            lines.append(line)
            if rng.chance(20) { lines.append("") }
        }
        var s = lines.joined(separator: "\n")
        if rng.chance(80) { s += "\n" }
        return Array(s.utf8)
    }

    static func mutatedTranscript(_ rng: inout SplitMix64) -> [UInt8] {
        var b = Array(validTranscript.utf8)
        for _ in 0..<(1 + rng.below(6)) {
            switch rng.below(9) {
            case 0 where !b.isEmpty: // delete a run of bytes
                let at = rng.below(b.count)
                b.removeSubrange(at..<min(b.count, at + 1 + rng.below(12)))
            case 1: // insert a piece of the vocabulary
                let at = rng.below(b.count + 1)
                b.insert(contentsOf: Array(rng.pick(vocabulary).utf8), at: at)
            case 2 where !b.isEmpty: // overwrite a byte with any byte
                b[rng.below(b.count)] = UInt8(truncatingIfNeeded: rng.next())
            case 3: // insert a line break
                b.insert(0x0A, at: rng.below(b.count + 1))
            case 4: // truncate
                b.removeSubrange(rng.below(b.count + 1)..<b.count)
            default: // work on whole lines: duplicate, drop, swap
                var lines = b.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                guard !lines.isEmpty else { break }
                let i = rng.below(lines.count), j = rng.below(lines.count)
                switch rng.below(3) {
                case 0: lines.insert(lines[i], at: j)
                case 1: lines.remove(at: i)
                default: lines.swapAt(i, j)
                }
                b = Array(lines.joined(separator: [0x0A]))
            }
        }
        return b
    }

    /// Bytes that are certainly not a store: random, but never starting (after spaces) with `{`.
    static func badStoreBytes(_ rng: inout SplitMix64) -> [UInt8] {
        var b = rng.bytes(rng.below(300))
        if let first = b.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "{") {
            b.insert(UInt8(ascii: "x"), at: 0)
        }
        return b
    }

    static func mutatedStore(_ rng: inout SplitMix64) -> [UInt8] {
        var b = Array(validStore.utf8)
        let pieces = ["\"", ",", "}", "]", "{", "[", ":", "null", "true", "0", "-1", "9223372036854775807",
                      "1e999", "\\u0000", "\\ud800", "\"id\": 1,", "\"nextId\": 2,", "\"due\": {},", "é"]
        for _ in 0..<(1 + rng.below(4)) {
            switch rng.below(4) {
            case 0 where !b.isEmpty:
                let at = rng.below(b.count)
                b.removeSubrange(at..<min(b.count, at + 1 + rng.below(6)))
            case 1:
                b.insert(contentsOf: Array(rng.pick(pieces).utf8), at: rng.below(b.count + 1))
            case 2 where !b.isEmpty:
                b[rng.below(b.count)] = UInt8(truncatingIfNeeded: rng.next())
            default:
                b.removeSubrange(rng.below(b.count + 1)..<b.count)
            }
        }
        return b
    }

    // MARK: - Helpers

    /// The input, escaped and cut to a readable size, for a failure message.
    static func describe(_ b: [UInt8]) -> String {
        let s = String(decoding: b.prefix(600), as: UTF8.self)
        return s.unicodeScalars.map { $0.escaped(asASCII: true) }.joined() + (b.count > 600 ? "… (\(b.count) bytes)" : "")
    }

    static func checkExit(_ r: KeptRun, allowed: Set<Int32>, _ what: String) -> String? {
        if r.timedOut { return "\(what): timed out\n\(r.summary)" }
        if r.reason != .exit { return "\(what): died on signal \(r.status)\n\(r.summary.prefix(1500))" }
        if !allowed.contains(r.status) { return "\(what): exit \(r.status), expected one of \(allowed.sorted())\n\(r.summary.prefix(1500))" }
        return nil
    }

    /// Runs `body` for cases 0..<count on `workers` threads; case k gets its own generator,
    /// seeded from the seed, the generator's salt and k, so a case replays on its own.
    func forEachCase(_ count: Int, salt: UInt64, _ body: @escaping @Sendable (Int, inout SplitMix64, Int) -> [String]) -> [String] {
        let log = FailureLog()
        let seed = Self.seed
        let workers = Self.workers
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var k = w
            while k < count {
                var rng = SplitMix64(seed: seed ^ (salt &* 0x1000_0000_01B3) ^ UInt64(k) &* 0x9E37_79B9)
                for f in body(k, &rng, w) { log.add(f) }
                k += workers
            }
        }
        return log.all
    }

    func report(_ failures: [String], file: StaticString = #filePath, line: UInt = #line) {
        for f in failures.prefix(10) { XCTFail(f, file: file, line: line) }
        if failures.count > 10 { XCTFail("… and \(failures.count - 10) more fuzz failures", file: file, line: line) }
    }

    // MARK: - Tests

    /// No script input crashes `kept run` or `kept test`, and none changes the store when run
    /// without --write (R-STORE-2): random bytes, random keyword lines and mutated transcripts,
    /// each run as a script file against a copy of a valid store, as `kept test SCRIPT`, and on
    /// stdin. Exit statuses stay in {0, 1, 2}; the store file is byte-identical afterwards and
    /// no file appears next to it; `kept test` does not touch the script.
    func testScriptsNeverCrashOrTouchTheStore() throws {
        _ = try Kept.requireBinary()
        let root = try TempDir()
        defer { root.cleanUp() }
        let storeBytes = Data(Self.validStore.utf8)
        // Each worker has its own store folder and script folder.
        for w in 0..<Self.workers {
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent("store\(w)"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent("script\(w)"), withIntermediateDirectories: true)
            try storeBytes.write(to: root.url.appendingPathComponent("store\(w)/s.json"))
        }
        // Sanity: the valid inputs behave as the checks assume.
        let sanity = try Kept.run(["run", "--store", root.path("store0/s.json")] + Kept.clock + ["-e", "list"])
        XCTAssertEqual(sanity.status, 0, sanity.summary)
        XCTAssertEqual(sanity.stdoutLines.first, "All 2 tasks", sanity.summary)
        try Data(Self.validTranscript.utf8).write(to: root.url.appendingPathComponent("script0/valid.kept"))
        let valid = try Kept.run(["test", root.path("script0/valid.kept")])
        XCTAssertEqual(valid.status, 0, "the transcript the fuzzer mutates should pass as written: \(valid.summary)")
        try FileManager.default.removeItem(at: root.url.appendingPathComponent("script0/valid.kept"))

        let generators: [(String, @Sendable (inout SplitMix64) -> [UInt8])] = [
            ("random bytes", { Self.randomBytes(&$0) }),
            ("random lines", { Self.randomLines(&$0) }),
            ("mutated transcript", { Self.mutatedTranscript(&$0) }),
        ]
        let started = Date()
        var failures: [String] = []
        for (salt, (name, gen)) in generators.enumerated() {
            let rootURL = root.url
            failures += forEachCase(Self.iterations, salt: UInt64(salt + 1)) { k, rng, w in
                let input = gen(&rng)
                let store = rootURL.appendingPathComponent("store\(w)/s.json").path
                let storeDir = rootURL.appendingPathComponent("store\(w)").path
                let script = rootURL.appendingPathComponent("script\(w)/case.kept")
                let tag = "seed \(Self.seed), \(name) case \(k): \(Self.describe(input))"
                var out: [String] = []
                do {
                    try Data(input).write(to: script)
                    let runs: [(String, () throws -> KeptRun)] = [
                        ("kept run SCRIPT", { try Kept.run(["run", "--store", store] + Kept.clock + [script.path], timeout: 15) }),
                        ("kept test SCRIPT", { try Kept.run(["test", script.path], timeout: 15) }),
                        ("kept run < stdin", { try Kept.run(["run", "--store", store] + Kept.clock, stdin: Data(input), timeout: 15) }),
                    ]
                    for (how, go) in runs {
                        let r = try go()
                        if let f = Self.checkExit(r, allowed: [0, 1, 2], "\(how), \(tag)") { out.append(f) }
                        if try Data(contentsOf: URL(fileURLWithPath: store)) != storeBytes {
                            out.append("\(how) changed the store without --write, \(tag)")
                            try storeBytes.write(to: URL(fileURLWithPath: store))
                        }
                        let listing = try FileManager.default.contentsOfDirectory(atPath: storeDir)
                        if listing != ["s.json"] { out.append("\(how) left files next to the store: \(listing), \(tag)") }
                        if try Data(contentsOf: script) != Data(input) {
                            out.append("\(how) changed the script, \(tag)")
                            try Data(input).write(to: script)
                        }
                    }
                } catch {
                    out.append("\(tag): \(error)")
                }
                return out
            }
        }
        report(failures)
        // Keeps the suite honest about its budget (the brief: the whole fuzz under ~60 s).
        print("fuzz: \(3 * Self.iterations) scripts × 3 runs in \(String(format: "%.1f", Date().timeIntervalSince(started))) s (seed \(Self.seed))")
    }

    /// R-STORE-2: random bytes as the store file are reported as E0308 with exit 2, with and
    /// without --write, and the file is never written; a mutated valid store either loads
    /// (exit 0; a write then produces a store that loads again) or is refused with E0308 and
    /// left byte-identical. Nothing crashes.
    func testBadStoresAreRefusedAndNeverWritten() throws {
        _ = try Kept.requireBinary()
        let root = try TempDir()
        defer { root.cleanUp() }
        for w in 0..<Self.workers {
            try FileManager.default.createDirectory(at: root.url.appendingPathComponent("w\(w)"), withIntermediateDirectories: true)
        }
        let rootURL = root.url
        var failures = forEachCase(Self.iterations, salt: 11) { k, rng, w in
            let bytes = Data(Self.badStoreBytes(&rng))
            let dir = rootURL.appendingPathComponent("w\(w)")
            let bad = dir.appendingPathComponent("bad.json")
            let tag = "seed \(Self.seed), bad store case \(k): \(Self.describe(Array(bytes)))"
            var out: [String] = []
            do {
                try bytes.write(to: bad)
                defer { try? FileManager.default.removeItem(at: bad) }
                for args in [["-e", "list"], ["--write", "-e", "add x"]] {
                    let r = try Kept.run(["run", "--store", bad.path] + Kept.clock + ["--errors", "short"] + args, timeout: 15)
                    let what = "kept run --store BAD \(args.joined(separator: " ")), \(tag)"
                    if let f = Self.checkExit(r, allowed: [2], what) { out.append(f) }
                    if !r.stderr.contains("E0308") { out.append("\(what): no E0308 on stderr\n\(r.summary.prefix(1500))") }
                    if !r.stdout.isEmpty { out.append("\(what): ran statements on an unreadable store\n\(r.summary.prefix(1500))") }
                    if try Data(contentsOf: bad) != bytes { out.append("\(what): the unreadable store was written") }
                    let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path)
                    if listing != ["bad.json"] { out.append("\(what): left files next to the store: \(listing)") }
                }
            } catch {
                out.append("\(tag): \(error)")
            }
            return out
        }
        failures += forEachCase(Self.iterations, salt: 12) { k, rng, w in
            let bytes = Data(Self.mutatedStore(&rng))
            let dir = rootURL.appendingPathComponent("w\(w)")
            let store = dir.appendingPathComponent("m.json")
            let tag = "seed \(Self.seed), mutated store case \(k): \(Self.describe(Array(bytes)))"
            var out: [String] = []
            do {
                try bytes.write(to: store)
                defer { try? FileManager.default.removeItem(at: store) }
                let read = try Kept.run(["run", "--store", store.path] + Kept.clock + ["--errors", "short", "-e", "list"], timeout: 15)
                if let f = Self.checkExit(read, allowed: [0, 2], "kept run --store M -e list, \(tag)") { out.append(f); return out }
                if read.status == 2, !read.stderr.contains("E0308") { out.append("exit 2 without E0308, \(tag)\n\(read.summary.prefix(1500))") }
                if try Data(contentsOf: store) != bytes { out.append("the store changed without --write, \(tag)") }
                let write = try Kept.run(["run", "--store", store.path, "--write"] + Kept.clock + ["--errors", "short", "-e", "add x"], timeout: 15)
                if read.status == 2 {
                    if let f = Self.checkExit(write, allowed: [2], "kept run --store M --write (unreadable), \(tag)") { out.append(f) }
                    if try Data(contentsOf: store) != bytes { out.append("an unreadable store was written, \(tag)") }
                } else {
                    if let f = Self.checkExit(write, allowed: [0, 1], "kept run --store M --write, \(tag)") { out.append(f); return out }
                    let again = try Kept.run(["run", "--store", store.path] + Kept.clock + ["--errors", "short", "-e", "list"], timeout: 15)
                    if let f = Self.checkExit(again, allowed: [0], "reading back what kept wrote, \(tag)") { out.append(f) }
                }
                // The lock file beside a store is its own (docs/STORE.md); nothing else may be left.
                let listing = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != ".m.json.lock" }
                if listing != ["m.json"] { out.append("left files next to the store: \(listing), \(tag)") }
            } catch {
                out.append("\(tag): \(error)")
            }
            return out
        }
        report(failures)
    }
}
