// Loading without building tasks (DeferredTasks) must be indistinguishable from building them:
// the same tasks, the same filter answers, the same errors at the same offsets, whether the
// records are read on one thread or two, and wherever the second thread's guess falls.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class StoreLoadTests: XCTestCase {
    /// A store of `n` varied tasks: escapes in titles, names spelled in several ways, repeats,
    /// estimates, steps, reminders, unknown fields.
    static func store(_ n: Int, seed: UInt64) -> Store {
        var rng = SplitMix(seed: seed)
        var tasks: [Task] = []
        let projects = ["Home", "home", "Work", "Ünïcode", "Q\"uote"]
        let tags = ["errand", "Errand", "call", "a\\b", "tag with space"]
        let titles = ["Pay rent", "Say \"hi\"", "Tab\there", "Back\\slash", "Smile 😀", "Review budget report", "fix the report"]
        for id in 1...n {
            var t = Task(id: id, title: titles[Int(rng.next() % UInt64(titles.count))] + " \(id)",
                         createdAt: Instant(seconds: 1_780_000_000 + Int64(rng.next() % 10_000_000)))
            switch rng.next() % 4 {
            case 0: t.status = .done; t.completedAt = Instant(seconds: 1_781_500_000 + Int64(rng.next() % 100_000))
            case 1: t.status = TaskStatus(rawValue: rng.next() % 2 == 0 ? "waiting" : "archived")
            default: break
            }
            if rng.next() % 3 != 0 {
                let date = CivilDate(dayNumber: 20_600 + Int(rng.next() % 30))
                let time: WallTime? = rng.next() % 2 == 0 ? WallTime(minuteOfDay: Int(rng.next() % 1440)) : nil
                t.due = Due(date: date, time: time)
            }
            if rng.next() % 2 == 0 { t.project = projects[Int(rng.next() % UInt64(projects.count))] }
            if rng.next() % 4 == 0 { t.area = rng.next() % 2 == 0 ? "Home Life" : "home  life" }
            for _ in 0..<Int(rng.next() % 3) { t.tags.append(tags[Int(rng.next() % UInt64(tags.count))]) }
            if rng.next() % 3 == 0 { t.description = "Notes: \"budget\" review \\ \(id)" }
            if rng.next() % 5 == 0 { t.priority = .high }
            if rng.next() % 6 == 0 { t.repeatRule = RepeatSpec(text: rng.next() % 2 == 0 ? "every week" : "every month", anchor: t.due?.date) }
            if rng.next() % 7 == 0 { t.estimate = Estimate(minutes: Int(rng.next() % 90), source: rng.next() % 2 == 0 ? .user : .suggested) }
            if rng.next() % 9 == 0 { t.steps = [Step(title: "first", done: true), Step(title: "second")] }
            if rng.next() % 11 == 0, let at = CivilDateTime(iso: "2026-06-15T08:00") {
                // A reminder with a key this version does not know, and a Past due one.
                var r = Reminder(at: at)
                r.extra["via"] = .string("phone")
                t.reminders = [r, Reminder(at: at.adding(days: 1), pastDue: true)]
            }
            if rng.next() % 13 == 0 { t.extra["syncedFrom"] = .string("phone") }
            tasks.append(t)
        }
        var s = Store(tasks: tasks)
        s.settings.zone = "Europe/Berlin"
        return s
    }

    static let filters = [
        "overdue", "no due", "has time", "status:any", "done", "archived", "status:waiting", "+Home", "#errand", "#call or #errand",
        "area:\"Home Life\"", "repeating", "repeat:weekly", "estimate <= 30m", "!high", "title ~ /budget|report/i",
        "description ~ /\\\\/", "title ~ /😀/", "status:any title ~ /\"hi\"/", "due <= fri", "@next 7 days", "#call #errand",
    ]

    func counts(_ s: Store) -> [String] {
        guard let now = CivilDateTime(year: 2026, month: 6, day: 15, hour: 9, minute: 0) else { return [] }
        let session = Session(store: JSONStore(memory: s), clock: .wall(now), defaultZone: Zone.utc)
        // The plan's scores too: its columns (estimates, goals, parents, reminders on the day)
        // come from the same record reader.
        return StoreLoadTests.filters.map { f in
            session.run(StatementSource(file: SourceFile(name: "t", text: "count " + f))).lines.joined(separator: "|")
        } + session.run(StatementSource(file: SourceFile(name: "t", text: "explain plan limit all"))).lines
    }

    /// A store written and loaded again with its tasks deferred, as `kept run --store` loads it.
    static func reloaded(_ s: Store) -> Store {
        guard case .success(let back) = StoreCodec.decode(StoreCodec.encode(s), deferTasks: true) else { return Store() }
        return back
    }

    func decode(_ bytes: [UInt8], deferTasks: Bool, parallelAt: Int = StoreCodec.parallelThreshold) -> Store? {
        guard case .success(let s) = StoreCodec.decode(bytes, deferTasks: deferTasks, parallelAt: parallelAt) else { return nil }
        return s
    }

    func testDeferredLoadingBuildsTheSameTasksAndAnswers() throws {
        for seed in [1, 2, 3] as [UInt64] {
            let bytes = StoreCodec.encode(StoreLoadTests.store(400, seed: seed))
            let eager = try XCTUnwrap(decode(bytes, deferTasks: false))
            let one = try XCTUnwrap(decode(bytes, deferTasks: true, parallelAt: Int.max))
            let two = try XCTUnwrap(decode(bytes, deferTasks: true, parallelAt: 0))
            let expected = counts(eager)
            XCTAssertEqual(counts(one), expected, "seed \(seed), one thread")
            XCTAssertEqual(counts(two), expected, "seed \(seed), two threads")
            // Single tasks are built alone; then all of them.
            XCTAssertEqual(two.task(200), eager.task(200))
            XCTAssertEqual(two.task(401), nil)
            XCTAssertEqual(one.tasks, eager.tasks)
            XCTAssertEqual(two.tasks, eager.tasks)
            XCTAssertEqual(StoreCodec.encode(two), bytes)
        }
    }

    func testEveryFilterMatchesSomethingInTheFixture() throws {
        // A filter that matches nothing here would not tell the loaders apart.
        let s = try XCTUnwrap(decode(StoreCodec.encode(StoreLoadTests.store(400, seed: 1)), deferTasks: false))
        for (f, c) in zip(StoreLoadTests.filters, counts(s)) {
            XCTAssertFalse(c.hasPrefix("Nothing matches"), "\(f): \(c)")
        }
    }

    func testAChangeBuildsTheTasksFirst() throws {
        let bytes = StoreCodec.encode(StoreLoadTests.store(50, seed: 4))
        var s = try XCTUnwrap(decode(bytes, deferTasks: true))
        var t = try XCTUnwrap(s.task(7))
        t.title = "Changed"
        s.put(t)
        XCTAssertEqual(s.task(7)?.title, "Changed")
        XCTAssertEqual(s.tasks.count, 50)
        s.remove(3)
        XCTAssertNil(s.task(3))
        XCTAssertEqual(s.tasks.count, 49)
        XCTAssertEqual(s.columns(dayStart: .midnight, withText: true).count, 49)
    }

    /// Records the second thread's guess cannot start at: a task spread over lines, with a
    /// line that starts with `{` inside it.
    func testAGuessInsideARecordIsDropped() throws {
        var text = "{\"format\": \"kept-store\", \"version\": 1, \"tasks\": [\n"
        for id in 1...60 {
            if id == 31 {
                text += "{\"id\": 31, \"title\": \"spread\", \"createdAt\": \"2026-06-01T08:00:00Z\", \"extra\":\n{\"a\": 1}},\n"
            } else {
                text += "{\"id\": \(id), \"title\": \"t\(id)\", \"createdAt\": \"2026-06-01T08:00:00Z\"}" + (id == 60 ? "\n" : ",\n")
            }
        }
        text += "]}"
        let bytes = Array(text.utf8)
        let eager = try XCTUnwrap(decode(bytes, deferTasks: false))
        for at in [0, 1, 100] {
            let two = try XCTUnwrap(decode(bytes, deferTasks: true, parallelAt: at))
            XCTAssertEqual(two.tasks, eager.tasks)
        }
    }

    func testErrorsAreTheSameOnEveryPath() throws {
        let store = StoreLoadTests.store(200, seed: 5)
        let base = Array(StoreCodec.encode(store))
        let text = String(decoding: base, as: UTF8.self)
        func uid(_ id: Int) -> String { "\"uid\":\"" + (store.tasks.first { $0.id == id }?.uid.description ?? "") + "\"" }
        let broken: [String] = [
            text.replacingOccurrences(of: uid(30), with: uid(10)),                               // one uid twice, in the first half
            text.replacingOccurrences(of: uid(190), with: uid(20)),                              // across the halves
            text.replacingOccurrences(of: uid(160), with: uid(180)),                             // in the second half
            text.replacingOccurrences(of: uid(190), with: uid(20)).replacingOccurrences(of: "{\"id\":20,", with: "{\"id\":180,"),
            text.replacingOccurrences(of: uid(30), with: uid(10)).replacingOccurrences(of: "{\"id\":130,", with: "{\"id\":130 \"title\":\"x\","), // the repeat first
            text.replacingOccurrences(of: uid(150), with: uid(10)).replacingOccurrences(of: "{\"id\":30,", with: "{\"id\":30 \"title\":\"x\","),   // the syntax error first
            text.replacingOccurrences(of: "{\"id\":150,", with: "{\"id\":149,"),                 // duplicate, in the second half
            text.replacingOccurrences(of: "{\"id\":20,", with: "{\"id\":180,"),                  // duplicate, out of order
            text.replacingOccurrences(of: "{\"id\":170,", with: "{\"id\":170,\"due\":{\"date\":\"2026-13-01\"},"),
            text.replacingOccurrences(of: "{\"id\":160,", with: "{\"id\":160,\"estimate\":{\"minutes\":-1},"),
            text.replacingOccurrences(of: "{\"id\":40,", with: "{\"id\":40,\"steps\":[{}],"),
            text.replacingOccurrences(of: "{\"id\":190,", with: "{\"id\":190,\"reminders\":{},"),
            text.replacingOccurrences(of: "{\"id\":100,", with: "{\"id\":100,\"reminders\":[{\"at\":\"soon\"}],"),
            text.replacingOccurrences(of: "{\"id\":120,", with: "{\"id\":120,\"priority\":\"huge\","),
            text.replacingOccurrences(of: "{\"id\":130,", with: "{\"id\":130 \"title\":\"x\","),
        ]
        for b in broken {
            XCTAssertNotEqual(b, text)
            let bytes = Array(b.utf8)
            guard case .failure(let e) = StoreCodec.decode(bytes, deferTasks: false, parallelAt: Int.max) else { return XCTFail("accepted") }
            for at in [0, Int.max] {
                guard case .failure(let d) = StoreCodec.decode(bytes, deferTasks: true, parallelAt: at) else { return XCTFail("deferred accepted") }
                XCTAssertEqual(d, e)
            }
        }
    }

    func testTasksBeforeSettingsUseTheStoresDayStart() throws {
        let text = """
        {"format": "kept-store", "version": 1, "tasks": [
        {"id": 1, "title": "late", "due": {"date": "2026-06-16", "time": "02:00"}, "createdAt": "2026-06-01T08:00:00Z"}
        ], "settings": {"day-start": "04:00", "zone": "Europe/Berlin"}}
        """
        let bytes = Array(text.utf8)
        let eager = try XCTUnwrap(decode(bytes, deferTasks: false))
        let lazy = try XCTUnwrap(decode(bytes, deferTasks: true))
        XCTAssertEqual(counts(lazy), counts(eager))
        let ix = lazy.columns(dayStart: lazy.settings.day.dayStart, withText: false)
        // 02:00 on the 16th belongs to the account day of the 15th with a 04:00 day start.
        XCTAssertEqual(ix.dueDay[0], Int32(try XCTUnwrap(CivilDate(year: 2026, month: 6, day: 15)).dayNumber))
    }
}


final class TaskKeyTests: XCTestCase {
    func testEveryKeyIsFoundByItsSpellingAndNothingElseIs() {
        for key in TaskKey.allCases {
            let bytes = Array("\"\(key.rawValue)\"".utf8)
            let r = JSONReader(bytes: bytes)
            XCTAssertEqual(TaskKey.of(JSONStringRef(start: 1, end: bytes.count - 1, escaped: false), in: r), key, key.rawValue)
            let other = Array("\"\(key.rawValue.dropLast())x\"".utf8)
            XCTAssertNil(TaskKey.of(JSONStringRef(start: 1, end: other.count - 1, escaped: false), in: JSONReader(bytes: other)))
        }
        // Inside a record the key is read as two whole words and masked to its length: the
        // bytes after it must not count, and a prefix of a key is not the key.
        let tail = ":1,\"priorityestimates\":2}"
        for key in TaskKey.allCases {
            let name = key.rawValue
            let bytes = Array("{\"\(name)\"\(tail)".utf8)
            let r = JSONReader(bytes: bytes)
            XCTAssertEqual(TaskKey.of(JSONStringRef(start: 2, end: 2 + name.utf8.count, escaped: false), in: r), key, name)
            let prefix = Array("{\"\(name.dropLast())\"\(tail)".utf8)
            XCTAssertNil(TaskKey.of(JSONStringRef(start: 2, end: 2 + name.utf8.count - 1, escaped: false), in: JSONReader(bytes: prefix)), "prefix of \(name)")
            let longer = Array("{\"\(name)s\"\(tail)".utf8)
            XCTAssertNil(TaskKey.of(JSONStringRef(start: 2, end: 2 + name.utf8.count + 1, escaped: false), in: JSONReader(bytes: longer)), "\(name)s")
        }
        let escaped = Array("\"\\u0069d\"".utf8)
        XCTAssertEqual(TaskKey.of(JSONStringRef(start: 1, end: escaped.count - 1, escaped: true), in: JSONReader(bytes: escaped)), .id)
    }
}

final class SplitEvaluationTests: XCTestCase {
    /// A regex or word filter over a large index runs on two threads; the rows must be the
    /// ones a plain walk finds, in order.
    func testTwoThreadsFindTheSameRowsInOrder() throws {
        let store = StoreLoadTests.store(CompiledFilter.splitAt + 5_001, seed: 9)
        let ix = store.columns(dayStart: .midnight, withText: true, withSearch: true)
        guard let now = CivilDateTime(year: 2026, month: 6, day: 15, hour: 9, minute: 0) else { return XCTFail("now") }
        let session = Session(store: JSONStore(memory: store), clock: .wall(now), defaultZone: Zone.utc)
        for f in ["title ~ /budget|report/i", "status:any description ~ /review/", "budget", "#call or title ~ /hi/",
                  "title ~ /(re(view)|fix) .*(budget|report)/i"] {
            let expr = try FilterBinder.bind(f, name: "t", scope: session.filterScope).get()
            let compiled = CompiledFilter(expr, index: ix, context: session.filterContext)
            XCTAssertTrue(CompiledFilter.costly(compiled.root), f)
            let plain = (0..<ix.count).filter { compiled.matches($0, in: ix) }
            XCTAssertFalse(plain.isEmpty, f)
            XCTAssertEqual(try compiled.rows(in: ix), plain, f)
        }
    }
}

final class StoreFileReadTests: XCTestCase {
    /// A large file is read in two halves on two threads; the bytes must be the file's, at
    /// every size around the threshold, odd sizes included.
    func testTwoHalfReadGivesTheFileBytes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-read-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let t = Files.parallelReadThreshold
        for size in [0, 1, 4_097, t - 1, t, t + 1, 3 * t + 7] {
            var bytes = [UInt8](repeating: 0, count: size)
            var x: UInt32 = 2_463_534_242
            for k in 0..<size {
                x ^= x << 13; x ^= x >> 17; x ^= x << 5
                bytes[k] = UInt8(truncatingIfNeeded: x)
            }
            let path = dir.appendingPathComponent("f\(size)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            guard case .success(let read) = Files.readBytes(path) else { return XCTFail("read \(size)") }
            XCTAssertEqual(read.count, size)
            XCTAssertTrue(read == bytes, "bytes of a \(size)-byte file")
        }
    }

    /// A pipe has no offsets: it is read on from where it is, to its end.
    func testAPipeIsReadToItsEnd() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("kept-fifo-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(path, 0o600), 0)
        let text = String(repeating: "{\"id\": 1}\n", count: 20_000)
        let writer = Thread {
            let fd = open(path, O_WRONLY)
            guard fd >= 0 else { return }
            _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
            close(fd)
        }
        writer.start()
        guard case .success(let read) = Files.readBytes(path) else { return XCTFail("read the pipe") }
        XCTAssertEqual(String(decoding: read, as: UTF8.self), text)
    }
}

final class RecordLengthTests: XCTestCase {
    /// The columns are reserved from the first lines' mean length, less an eighth.
    func testTheFirstLinesPredictTheRecordLength() {
        let hundred = Array((String(repeating: "x", count: 99) + "\n").utf8)
        XCTAssertEqual(StoreCodec.recordLength(Array(repeating: hundred, count: 50).flatMap { $0 }, from: 0), 87)
        // Too few lines to go on, and lines shorter than any record.
        XCTAssertEqual(StoreCodec.recordLength(Array(repeating: hundred, count: 5).flatMap { $0 }, from: 0), 256)
        XCTAssertEqual(StoreCodec.recordLength(Array("a\n".utf8) + Array(repeating: 0x0A, count: 100), from: 0), 64)
        XCTAssertEqual(StoreCodec.recordLength(hundred, from: 1_000), 256)
    }
}

final class ByteInternerTests: XCTestCase {
    /// The loader's name table: keys of every length up to 40 bytes, keys that share their
    /// first 16 bytes, the same bytes under two kinds, and keys at the very end of the buffer.
    func testByteInternerFindsWhatWasPutAndNothingElse() {
        var keys: [String] = ["", "a", "ab"]
        for n in 3...40 { keys.append(String(repeating: "k", count: n - 1) + "z") }
        keys += ["same first sixteen A", "same first sixteen B", "same first sixteen", "same first sixteeN", "last"]
        let text = keys.joined(separator: "|")
        let bytes = Array(text.utf8)
        var spans: [(Int, Int)] = []
        var at = 0
        for k in keys {
            spans.append((at, k.utf8.count))
            at += k.utf8.count + 1
        }
        var table = ByteInterner()
        bytes.withUnsafeBufferPointer { b in
            for (i, (s, n)) in spans.enumerated() where i % 2 == 0 { table.insert(b, s, n, 0, Int32(i), aux: UInt8(i % 7)) }
            for (i, (s, n)) in spans.enumerated() {
                let found = table.find(b, s, n, 0)
                if i % 2 == 0 {
                    XCTAssertEqual(found?.id, Int32(i), keys[i])
                    XCTAssertEqual(found?.aux, UInt8(i % 7), keys[i])
                } else {
                    XCTAssertNil(found, keys[i])
                }
                XCTAssertNil(table.find(b, s, n, 1), "another kind: \(keys[i])")
            }
        }
        // The last key ends the buffer, so its words are read byte by byte.
        let last = spans[spans.count - 1]
        XCTAssertEqual(last.0 + last.1, bytes.count)
        XCTAssertNil(bytes.withUnsafeBufferPointer { table.find($0, last.0, last.1, 0) })
        bytes.withUnsafeBufferPointer { table.insert($0, last.0, last.1, 0, 99) }
        XCTAssertEqual(bytes.withUnsafeBufferPointer { table.find($0, last.0, last.1, 0)?.id }, 99)
    }

    /// Names that share a long prefix, or differ only in their last bytes, still spread over the
    /// table: with a hash of the first 16 bytes alone they all probed one chain.
    func testNamesSharingAPrefixDoNotShareAChain() {
        var table = ByteInterner()
        var names: [String] = []
        for k in 0..<3000 { names.append("invoice-2026-\(1000 + k)") }     // 17 bytes, 16 shared
        for k in 0..<3000 { names.append("https://jira.example.com/browse/PROJ-\(10000 + k)") }
        for k in 0..<256 { names.append("fifteen-letters" + String(UnicodeScalar(UInt8(k % 94 + 33)))) } // 16 bytes, last differs
        names = Array(Set(names)).sorted()
        let bytes = Array(names.joined().utf8)
        var at = 0
        var spans: [(Int, Int)] = []
        for n in names {
            spans.append((at, n.utf8.count))
            at += n.utf8.count
        }
        bytes.withUnsafeBufferPointer { b in
            for (i, (s, n)) in spans.enumerated() { table.insert(b, s, n, 0, Int32(i)) }
            for (i, (s, n)) in spans.enumerated() { XCTAssertEqual(table.find(b, s, n, 0)?.id, Int32(i), names[i]) }
        }
        XCTAssertLessThan(table.longestProbe, 40, "a long chain of slots")
    }
}
