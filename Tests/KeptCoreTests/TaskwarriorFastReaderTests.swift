// The fast path of the Taskwarrior reader (TaskwarriorFastRecord) held to the general reader:
// on seeded records of every shape the file may take (escapes, UTF-8, white space, null, ISO
// dates, unknown keys, keys twice, odd numbers) both give the same tasks, and on the same
// records made malformed, the same error at the same line and column.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TaskwarriorFastReaderTests: XCTestCase {
    static let zone = Zone(identifier: "Europe/Berlin") ?? .utc

    static let dates = ["\"20260615T070000Z\"", "\"20251231T230000Z\"", "\"20260101T000000Z\"", "\"2026-06-15T09:00:00+02:00\"", "null"]
    static let texts = ["\"Pay rent\"", "\"Caf\u{e9} au lait\"", "\"A \\\"quoted\\\" word\"", "\"Line\\nbreak\"", "\"\\u00e9t\\u00e9\"",
                        "\"Water the plants\"", "\"\"", "\"Tab\\tand slash \\/\""]

    /// One record of a shape the general reader takes, `k` its number.
    static func record(_ g: inout SeededRandom, _ k: Int) -> String {
        var members: [String] = []
        let sep = g.chance(10) ? ": " : ":"
        func add(_ key: String, _ value: String) { members.append("\"\(key)\"\(sep)\(value)") }
        if g.chance(95) { add("uuid", g.chance(5) ? "\"\(String(format: "%08X-0000-4000-8000-%012X", k, k))\"" : "\"\(String(format: "%08x-0000-4000-8000-%012x", k, k))\"") }
        add("description", g.chance(70) ? "\"Task \(k) of the plan\"" : g.pick(texts))
        if g.chance(90) { add("status", g.pick(["\"pending\"", "\"pending\"", "\"completed\"", "\"deleted\"", "\"waiting\"", "null"])) }
        for key in ["entry", "modified", "due", "end", "scheduled"] where g.chance(key == "entry" ? 95 : 40) {
            add(key, g.chance(80) ? "\"2026\(String(format: "%02d%02d", 1 + g.below(12), 1 + g.below(28)))T\(String(format: "%02d%02d%02d", g.below(24), g.below(60), g.below(60)))Z\"" : g.pick(dates))
        }
        if g.chance(70) { add("project", g.pick(["\"Home\"", "\"Work.Ops\"", "\"R\u{e9}sum\u{e9}\"", "null", "\"\""])) }
        if g.chance(60) { add("priority", g.pick(["\"H\"", "\"M\"", "\"L\"", "\"U\"", "\"X\"", "\"\"", "null"])) }
        if g.chance(60) {
            add("tags", g.pick(["[\"bills\",\"money\"]", "[]", "[\"one\"]", "\"a,b\"", "null", "[\"caf\u{e9}\", \"x\"]", "[\"a\",\"a\"]"]))
        }
        // Taskwarrior writes an undeclared UDA back as a string ("30.000000"), a duration UDA
        // as ISO 8601 ("PT30M"): the fast path declines both, the general reader reads them.
        if g.chance(40) { add("estimate", g.pick(["60", "0", "5", "1000000", "1.5", "2e2", "\"45\"", "null", "30.0", "\"30.000000\"",
                                                   "\"PT30M\"", "\"PT1H30M\"", "\"1.5e1\"", "\"P1D\""])) }
        if g.chance(30) {
            let notes = (0..<g.below(3)).map { _ in
                g.pick(["{\"entry\":\"20260601T080000Z\",\"description\":\"Called\"}", "{\"description\":\"First\",\"entry\":\"20260602T080000Z\"}",
                        "{\"entry\":\"20260601T080000Z\",\"description\":\"Note\",\"extra\":1}", "{}", "{\"description\":\"No date\"}",
                        "{\"entry\":null,\"description\":\"x\"}", "{\"entry\":\"20260603T100000Z\", \"description\":\"spaced\"}"])
            }
            add("annotations", g.chance(10) ? "null" : "[" + notes.joined(separator: ",") + "]")
        }
        if g.chance(10) { add("rrule", g.pick(["\"FREQ=WEEKLY;BYDAY=MO\"", "\"FREQ=MONTHLY\"", "\"every 2 days\""])) }
        if g.chance(8) {
            add("recur", g.pick(["\"weekly\"", "\"daily\"", "\"2h\""]))
            if g.chance(50) { add("until", g.pick(dates)) }
        }
        if g.chance(5) { add("parent", "\"2d9a7e3a-5b3c-4e4d-9f6a-7b8c9d0e1f2a\"") }
        if g.chance(10) { add(g.pick(["depends", "wait", "mask", "udaish"]), g.pick(["\"x\"", "3", "[1,2]", "{\"a\":true}", "null"])) }
        if g.chance(5) { add(g.pick(["id", "urgency"]), g.pick(["4", "8.1"])) }
        if g.chance(3) { add("project", "\"Twice\"") }
        if g.chance(3) { add("tags", "[\"again\"]") }
        if g.chance(5) { members.shuffle(using: &g) }
        return "{" + members.joined(separator: g.chance(5) ? ", " : ",") + "}"
    }

    func write(_ text: String, _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "kept-twfast-\(name)-\(ProcessInfo.processInfo.processIdentifier)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// What a reader makes of a file: its records as text to compare, or its error.
    func read(_ path: String, fast: Bool) throws -> Result<[String], ImportError> {
        switch ByteInput.open(path) {
        case .failure(let e): throw NSError(domain: e.message, code: 1)
        case .success(let input):
            var src = TaskwarriorReader(input, zone: Self.zone, fast: fast)
            var out: [String] = []
            do throws(ImportError) {
                while let r = try src.next() {
                    out.append("\(r.task) \(r.hasUID) \(r.fields.rawValue) \(r.hasModified) \(String(describing: r.parentUID)) \(r.deleted) \(r.unmapped) \(r.line)")
                }
            } catch {
                return .failure(error)
            }
            return .success(out)
        }
    }

    func testTheFastPathReadsWhatTheGeneralReaderReads() throws {
        var g = SeededRandom(state: 20_260_615)
        var tasks = 0
        for file in 0..<12 {
            // Clean files of 250 records each, one a line as `task export` writes them.
            let recs = (0..<250).map { Self.record(&g, file * 1_000 + $0) }
            let path = try write("[\n" + recs.joined(separator: ",\n") + "\n]\n", "varied-\(file)")
            let fast = try read(path, fast: true)
            XCTAssertEqual(fast, try read(path, fast: false), "file \(file)")
            if case .success(let r) = fast { tasks += r.count }
        }
        XCTAssertGreaterThan(tasks, 1_000, "most files are valid, so the tasks are compared, not only the errors")
    }

    func testTheFastPathRefusesWhatTheGeneralReaderRefusesAtTheSamePlace() throws {
        var g = SeededRandom(state: 17)
        let bytes: [String] = ["\"", "\\", ",", "}", "{", "]", "[", ":", "x", "0", "-", " ", "\n", "\u{1}", "\u{e9}", "n"]
        var refused = 0
        for k in 0..<300 {
            var rec = Array(Self.record(&g, k))
            let at = g.below(rec.count)
            switch g.below(3) {
            case 0: rec = Array(rec[..<at])
            case 1: rec[at] = Character(g.pick(bytes))
            default: rec.insert(Character(g.pick(bytes)), at: at)
            }
            let text = "[\n" + Self.record(&g, 10_000 + k) + ",\n" + String(rec) + ",\n" + Self.record(&g, 20_000 + k) + "\n]"
            let path = try write(text, "bad-\(k)")
            let fast = try read(path, fast: true)
            XCTAssertEqual(fast, try read(path, fast: false), "case \(k): \(String(rec))")
            if case .failure = fast { refused += 1 }
        }
        XCTAssertGreaterThan(refused, 100, "most changed records are refused, so the errors are compared")
    }

    /// R-IO-2: the numeric UDA `estimate` as Taskwarrior writes it back, a string ("30.000000")
    /// or an ISO 8601 duration ("PT1H30M"), is read as minutes; the fast path declines the record
    /// and the general reader reads it, and both agree.
    func testNumericStringUDAsAreReadAsNumbersOnBothPaths() throws {
        let cases: [(String, Int?)] = [("\"30.000000\"", 30), ("\"45\"", 45), ("\"1.5e1\"", 15), ("\"PT30M\"", 30), ("\"PT1H30M\"", 90),
                                       ("\"P1DT2H\"", 1_560), ("\"PT90S\"", 2), ("30", 30), ("29.6", 30)]
        for (value, minutes) in cases {
            let rec = "{\"uuid\":\"3e065567-25cc-4ac6-a655-94046de63f0a\",\"description\":\"x\",\"status\":\"pending\",\"estimate\":\(value)}"
            let path = try write("[\n" + rec + "\n]\n", "uda")
            let fast = try read(path, fast: true)
            XCTAssertEqual(fast, try read(path, fast: false), value)
            var src = TaskwarriorReader(try XCTUnwrap(try? ByteInput.open(path).get()), zone: Self.zone, fast: true)
            XCTAssertEqual(try src.next()?.task.estimate?.minutes, minutes, value)
        }
    }

    /// R-IO-3: a value of the wrong type is well-formed JSON, so it is the format's error at the
    /// value (E0604, "'tags' is not a list of strings"), never "not valid JSON"; both paths agree.
    func testWrongTypesAreTheFormatsErrorOnBothPaths() throws {
        let cases: [(String, String)] = [
            ("\"tags\":5", "'tags' is not a list of strings"), ("\"tags\":[1]", "'tags' is not a list of strings"),
            ("\"project\":true", "'project' is not a string"), ("\"due\":5", "'due' is not a date like 20260615T070000Z"),
            ("\"annotations\":5", "'annotations' is not a list"), ("\"annotations\":[5]", "'annotations' is not a list"),
            ("\"estimate\":\"soon\"", "'estimate' is not a number of minutes from 0 to 1000000"),
            ("\"estimate\":\"PT\"", "'estimate' is not a number of minutes from 0 to 1000000"),
        ]
        for (member, message) in cases {
            let rec = "{\"uuid\":\"3e065567-25cc-4ac6-a655-94046de63f0a\",\"description\":\"x\",\(member)}"
            let path = try write("[\n" + rec + "\n]\n", "type")
            let fast = try read(path, fast: true)
            XCTAssertEqual(fast, try read(path, fast: false), member)
            guard case .failure(let e) = fast else { XCTFail("\(member) was read"); continue }
            XCTAssertEqual(Catalog.code(e), .E0604, member)
            XCTAssertEqual(Catalog.message(e), message, member)
        }
    }

    /// The shape `task export` writes is the fast path's: a record of it is read without the
    /// general reader.
    func testTaskwarriorsOwnShapeTakesTheFastPath() {
        let rec = "{\"uuid\":\"3e065567-25cc-4ac6-a655-94046de63f0a\",\"description\":\"Plan lunch\",\"entry\":\"20250823T182104Z\",\"status\":\"pending\",\"modified\":\"20250823T182104Z\",\"project\":\"Home\",\"tags\":[\"a\",\"b\"],\"priority\":\"M\",\"due\":\"20260813T220000Z\",\"estimate\":60,\"annotations\":[{\"entry\":\"20250823T182104Z\",\"description\":\"Called.\"}]}"
        let b = Array(rec.utf8)
        let got = b.withUnsafeBufferPointer { TaskwarriorRecord.fast($0, from: 0) }
        XCTAssertEqual(got?.end, b.count)
        XCTAssertEqual(got?.0.tags, ["a", "b"])
        XCTAssertEqual(got?.0.estimate, 60)
        XCTAssertEqual(got?.0.annotations.first?.text, "Called.")
        let escaped = Array(rec.replacingOccurrences(of: "Plan lunch", with: "Plan \\\"lunch\\\"").utf8)
        XCTAssertNil(escaped.withUnsafeBufferPointer { TaskwarriorRecord.fast($0, from: 0) }, "an escape is the general reader's")
        let cut = Array(b.dropLast(3))
        XCTAssertNil(cut.withUnsafeBufferPointer { TaskwarriorRecord.fast($0, from: 0) }, "a record cut short is the general reader's")
    }
}

/// Picks from the seeded generator (JSONTests), so each run reads the same records.
extension SeededRandom {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
