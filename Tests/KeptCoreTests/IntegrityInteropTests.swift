// Issue 28's reproducers on the import side, the store loader and the front end's text: numbers
// out of range in an import file, long VTODOs, a uid or id twice in a JSON store, parent loops
// in an import, the codes INTEROP.md gives, invisible characters in output, a BOM before a
// script, and `list limit -1`. Each case failed (or crashed) before its fix.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class IntegrityInteropTests: XCTestCase, SessionTesting {
    static let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    static let now = CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 15) ?? .earliest, time: WallTime(hour: 9, minute: 0) ?? .midnight)
    static let u1 = "3e065567-25cc-4ac6-a655-94046de63f0a"
    static let u2 = "1c8f6d2f-4a2b-4d3c-8e5f-6a7b8c9d0e1f"
    static let u3 = "0b7e5c1e-3f1a-4c2b-9d4e-5f6a7b8c9d0e"

    func session(_ store: Store = Store()) -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(Self.now), defaultZone: Self.zone, uids: .seeded(7))
    }


    // MARK: F10: numbers out of range in a Taskwarrior file

    /// `estimate` past Int's range stopped the process (Int(Double) traps); every value out of
    /// 0…1,000,000 minutes, as a number or a string, is now E0604 at the value, on both the
    /// fast and the general reader.
    func testAnEstimateOutOfRangeIsRefusedNotACrash() throws {
        let cases: [(String, String, Int?)] = [
            ("est-1e19", "1e19", nil), ("est-neg-1e19", "-1e19", nil), ("est-1e308", "1e308", nil),
            ("est-big-int", "99999999999999999999", nil), ("est-over", "1000001", nil), ("est-neg", "-5", nil),
            ("est-str-big", "\"99999999999\"", nil), ("est-str-neg", "\"-5\"", nil), ("est-str-word", "\"soon\"", nil),
            ("est-bool", "true", nil), ("est-list", "[1]", nil),
            ("est-ok", "30", 30), ("est-ok-frac", "29.6", 30), ("est-ok-str", "\"45\"", 45), ("est-ok-exp", "1e3", 1000),
            ("est-ok-max", "1000000", 1_000_000), ("est-ok-null", "null", -1),
        ]
        for (id, value, expected) in cases {
            let text = "[\n{\"uuid\":\"\(Self.u1)\",\"description\":\"x\",\"status\":\"pending\",\"estimate\":\(value)}\n]"
            for fast in [true, false] {
                var src = TaskwarriorReader(try input(text, id), zone: Self.zone, fast: fast)
                if let expected {
                    let recs = try all(&src)
                    XCTAssertEqual(recs.first?.task.estimate?.minutes ?? -1, expected, id)
                } else {
                    let e = importError(&src)
                    XCTAssertEqual(e?.code, .E0604, "\(id): \(e?.message ?? "no error")")
                    XCTAssertEqual(e?.line, 2, id)
                    XCTAssertEqual(e?.column, 96, "\(id): the column of the value")
                    XCTAssertEqual(e?.message.contains("'estimate'"), true, id)
                }
            }
        }
    }

    /// The issue's file, through a session: a coded refusal, nothing imported.
    func testTheIssuesEstimateFileIsRefusedByTheStatement() throws {
        let path = NSTemporaryDirectory() + "kept-integrity-f10-\(ProcessInfo.processInfo.processIdentifier).tw.json"
        try "[{\"uuid\":\"\(Self.u1)\",\"description\":\"x\",\"status\":\"pending\",\"estimate\":1e19}]".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let s = session()
        let out = run(s, "import \"\(path)\"")
        XCTAssertEqual(out.diagnostics.first?.code, .E0604, "\(out.diagnostics)")
        XCTAssertEqual(s.store.taskCount, 0)
    }

    /// An alarm's duration too long to add up is kept as it came (not a sum that overflows).
    func testAnAlarmDurationPastABillionMinutesIsKeptNotSummed() {
        XCTAssertEqual(ICalendarReader.durationMinutes("-PT15M"), -15)
        XCTAssertEqual(ICalendarReader.durationMinutes("P99W"), 99 * 10080)
        XCTAssertNil(ICalendarReader.durationMinutes("P" + String(repeating: "999999W", count: 2_000)))
    }

    // MARK: E0603 where INTEROP.md says E0604 or E0607

    /// A Taskwarrior value JSON allows and the format does not was E0603 ("not valid JSON");
    /// INTEROP.md's table gives E0604 for a field's value and E0607 for a record without a title.
    func testTaskwarriorValuesGetTheCodesOfTheTable() throws {
        let cases: [(String, String, DiagnosticCode, Int, Int)] = [
            ("code-date", "[\n{\"description\":\"A\",\"due\":\"tomorrow\"}\n]", .E0604, 2, 26),
            ("code-entry", "[\n{\"description\":\"A\",\"entry\":\"2026\"}\n]", .E0604, 2, 28),
            ("code-uuid", "[\n{\"uuid\":\"nope\",\"description\":\"A\"}\n]", .E0604, 2, 9),
            ("code-no-title", "[\n{\"uuid\":\"\(Self.u1)\",\"description\":\"A\"},\n{\"status\":\"pending\"}\n]", .E0607, 3, 1),
            // Not JSON stays E0603.
            ("code-json", "[\n{\"description\":\"A\",}\n]", .E0603, 2, 19),
        ]
        for (id, text, code, line, column) in cases {
            for fast in [true, false] {
                var src = TaskwarriorReader(try input(text, id), zone: Self.zone, fast: fast)
                let e = importError(&src)
                XCTAssertEqual(e?.code, code, "\(id): \(e?.message ?? "no error")")
                XCTAssertEqual(e?.line, line, id)
                XCTAssertEqual(e?.column, column, id)
            }
        }
    }

    /// Every code a reader or the import makes is one of INTEROP.md's table, and the table's
    /// codes are the catalog's E06xx.
    func testInteropDocListsEveryImportCode() throws {
        let doc = try String(contentsOfFile: Self.repo + "/docs/INTEROP.md", encoding: .utf8)
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| E06") }.map { String($0.dropFirst(2).prefix(5)) }
        let catalog = DiagnosticCode.allCases.map(\.rawValue).filter { $0.hasPrefix("E06") }
        XCTAssertEqual(rows, catalog)
        for file in ["KeptInterop/TaskwarriorReader.swift", "KeptInterop/JSONLinesFormat.swift", "KeptInterop/CSVFormat.swift",
                     "KeptInterop/ICalendarReader.swift", "KeptInterop/ICalendarLines.swift", "KeptDomain/Engine+Import.swift"] {
            let text = try String(contentsOfFile: Self.repo + "/Sources/" + file, encoding: .utf8)
            for r in text.ranges(of: ".E06") {
                let code = String(text[r.lowerBound...].dropFirst().prefix(5))
                XCTAssertTrue(rows.contains(code), "\(file) makes \(code), which INTEROP.md does not list")
            }
        }
    }

    static let repo: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    // MARK: F13: long VTODOs in linear time

    /// 100,000 alarms and 100,000 steps on one VTODO: each was appended to the task's
    /// copy-on-write details one at a time, copying them each time (40,000 took 14.6 s).
    func testManyAlarmsAndStepsOnOneVTODOAreReadInLinearTime() throws {
        let n = 100_000
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:\(Self.u1)\r\nSUMMARY:Many\r\nDUE;VALUE=DATE:20260620\r\n"
        text.reserveCapacity(n * 120)
        for k in 0..<n {
            text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT\(k % 1000 + 1)M\r\nEND:VALARM\r\n"
            text += "X-KEPT-STEP;X-DONE=\(k % 2 == 0 ? "TRUE" : "FALSE"):step \(k)\r\n"
        }
        for k in 0..<1_000 { text += "X-KEPT-NOTE:note \(k)\r\nX-KEPT-COMMENT:{\"text\":\"c\(k)\"}\r\n" }
        text += "END:VTODO\r\nEND:VCALENDAR\r\n"
        let started = Date()
        var src = ICalendarReader(try input(text, "f13"), zone: Self.zone)
        let recs = try all(&src)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(recs.count, 1)
        let t = try XCTUnwrap(recs.first).task
        XCTAssertEqual(t.reminders.count, n)
        XCTAssertEqual(t.steps.count, n)
        XCTAssertEqual(t.steps.filter(\.done).count, n / 2)
        XCTAssertEqual(t.steps.last?.title, "step \(n - 1)")
        XCTAssertEqual(t.notes.count, 1_000)
        XCTAssertEqual(t.comments.count, 1_000)
        // In time order: the earliest trigger is 1,000 minutes before the due.
        XCTAssertEqual(t.reminders.first?.at, CivilDateTime(date: CivilDate(year: 2026, month: 6, day: 19) ?? .earliest, time: WallTime(hour: 7, minute: 20) ?? .midnight))
        XCTAssertLessThan(took, 5, "quadratic again? \(took) s")
    }

    /// Many annotations of one Taskwarrior task and many notes of one CSV row: the same trap.
    func testManyAnnotationsAndCSVNotesAreReadInLinearTime() throws {
        let n = 50_000
        var notes = (0..<n).map { "{\"entry\":\"20260601T08\(String(format: "%02d%02d", $0 / 60 % 60, $0 % 60))Z\",\"description\":\"a\($0)\"}" }
        notes[0] = "{\"description\":\"first\"}"
        let tw = "[{\"uuid\":\"\(Self.u1)\",\"description\":\"x\",\"entry\":\"20260601T070000Z\",\"annotations\":[" + notes.joined(separator: ",") + "]}]"
        var started = Date()
        var src = TaskwarriorReader(try input(tw, "f13-tw"), zone: Self.zone)
        let recs = try all(&src)
        XCTAssertEqual(recs.first?.task.comments.count, n - 1)
        XCTAssertEqual(recs.first?.task.description, "first")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        var csv = "TYPE,CONTENT\ntask,Parent\n"
        for k in 0..<n { csv += "note,n\(k)\n" }
        csv += "task,Next\nnote,last\n"
        started = Date()
        var c = CSVReader(try input(csv, "f13-csv"), context: session().dateContext, newUID: { TaskUID(hi: 1, lo: 1) })
        let rows = try all(&c)
        XCTAssertEqual(rows.map(\.task.comments.count), [n, 1])
        XCTAssertEqual(rows.first?.task.comments.last?.objectValue?["text"]?.stringValue, "n\(n - 1)")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }
}

extension IntegrityInteropTests {
    // MARK: F4: one uid (or one id) twice in a JSON store

    /// The uid text of task `id` in a store.
    func uid(_ store: Store, _ id: Int) throws -> String {
        try XCTUnwrap(store.tasks.first { $0.id == id }).uid.description
    }

    /// Task `b` given task `a`'s uid was accepted, and `convert` into SQLite (whose key the uid
    /// is) then dropped one of them. It is refused at `b`, naming both ids and the uid, the same
    /// on the eager path, the one-thread and the two-thread loader, whichever of the fast path
    /// and the general reader read the record.
    func testAStoreWithOneUIDTwiceIsRefusedOnEveryPath() throws {
        let store = StoreLoadTests.store(200, seed: 5)
        let text = String(decoding: StoreCodec.encode(store), as: UTF8.self)
        for (id, a, b, general) in [("uid-near", 3, 4, false), ("uid-across", 20, 180, false), ("uid-second-half", 150, 190, false),
                                    ("uid-general", 7, 60, true), ("uid-back", 170, 30, false)] {
            let ua = try uid(store, a), ub = try uid(store, b)
            var broken = text.replacingOccurrences(of: "\"uid\":\"\(ub)\"", with: "\"uid\":\"\(ua)\"")
            // White space inside a record leaves it to the general reader.
            if general { broken = broken.replacingOccurrences(of: "{\"id\":\(b),", with: "{\"id\": \(b),") }
            XCTAssertNotEqual(broken, text, id)
            let bytes = Array(broken.utf8)
            guard case .failure(let e) = StoreCodec.decode(bytes, deferTasks: false, parallelAt: Int.max) else { XCTFail("\(id): accepted"); continue }
            let (first, second) = (min(a, b), max(a, b))
            XCTAssertEqual(e.message, "tasks \(first) and \(second) have the same uid \(ua); a uid names one task", id)
            // At the later record in the file (ids are in order here).
            let at = try XCTUnwrap(broken.range(of: general ? "{\"id\": \(second)," : "{\"id\":\(second),"), id)
            XCTAssertEqual(e.offset, broken.utf8.distance(from: broken.utf8.startIndex, to: at.lowerBound), id)
            for parallelAt in [0, Int.max] {
                guard case .failure(let d) = StoreCodec.decode(bytes, deferTasks: true, parallelAt: parallelAt) else { XCTFail("\(id): deferred accepted"); continue }
                XCTAssertEqual(d, e, "\(id) parallelAt \(parallelAt)")
            }
        }
    }

    /// A record written before uids has the uid derived from it; another record with that uid
    /// is the same repeat.
    func testADerivedUIDTakenByAnotherTaskIsRefused() throws {
        let store = StoreLoadTests.store(40, seed: 9)
        let text = String(decoding: StoreCodec.encode(store), as: UTF8.self)
        let u5 = try uid(store, 5), u9 = try uid(store, 9)
        let broken = text.replacingOccurrences(of: "\"uid\":\"\(u5)\",", with: "").replacingOccurrences(of: "\"uid\":\"\(u9)\"", with: "\"uid\":\"\(u5)\"")
        for (deferTasks, parallelAt) in [(false, Int.max), (true, Int.max), (true, 0)] {
            guard case .failure(let e) = StoreCodec.decode(Array(broken.utf8), deferTasks: deferTasks, parallelAt: parallelAt) else { XCTFail("accepted"); continue }
            XCTAssertEqual(e.message, "tasks 5 and 9 have the same uid \(u5); a uid names one task")
        }
        // The other way round, across the halves: task 3 holds the uid task 30 derives.
        let u30 = try uid(store, 30), u3 = try uid(store, 3)
        let back = text.replacingOccurrences(of: "\"uid\":\"\(u30)\",", with: "").replacingOccurrences(of: "\"uid\":\"\(u3)\"", with: "\"uid\":\"\(u30)\"")
        var errors: [JSONError] = []
        for (deferTasks, parallelAt) in [(false, Int.max), (true, Int.max), (true, 0)] {
            guard case .failure(let e) = StoreCodec.decode(Array(back.utf8), deferTasks: deferTasks, parallelAt: parallelAt) else { XCTFail("accepted"); continue }
            XCTAssertEqual(e.message, "tasks 3 and 30 have the same uid \(u30); a uid names one task")
            errors.append(e)
        }
        XCTAssertEqual(Set(errors.map(\.offset)).count, 1, "at the same record on every path")
        // Without the second, the derived uid is the one the store had.
        let alone = text.replacingOccurrences(of: "\"uid\":\"\(u5)\",", with: "")
        guard case .success(let s) = StoreCodec.decode(Array(alone.utf8)) else { return XCTFail("refused") }
        XCTAssertEqual(s.tasks.first { $0.id == 5 }?.uid.description, u5)
    }

    /// Through the file: E0308 naming the store, with the place of the second record; nothing
    /// is loaded. The same for one id twice.
    func testAStoreFileWithARepeatedUIDOrIDIsUnreadable() throws {
        let store = StoreLoadTests.store(10, seed: 3)
        let text = String(decoding: StoreCodec.encode(store), as: UTF8.self)
        let u1 = try uid(store, 1), u2 = try uid(store, 2)
        let path = NSTemporaryDirectory() + "kept-integrity-f4-\(ProcessInfo.processInfo.processIdentifier).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        for (broken, message) in [(text.replacingOccurrences(of: "\"uid\":\"\(u2)\"", with: "\"uid\":\"\(u1)\""), "tasks 1 and 2 have the same uid \(u1)"),
                                  (text.replacingOccurrences(of: "{\"id\":2,", with: "{\"id\":1,"), "two tasks have id 1")] {
            try broken.write(toFile: path, atomically: true, encoding: .utf8)
            guard case .failure(let p) = StoreFile.load(path) else { XCTFail("loaded"); continue }
            let d = Catalog.store(p)
            XCTAssertEqual(d.code, .E0308)
            let shown = DiagnosticRenderer(style: .short).render(d)
            XCTAssertTrue(shown.contains(path), shown)
            XCTAssertTrue(shown.contains(message), shown)
        }
    }
}

extension IntegrityInteropTests {
    // MARK: parent loops in an import

    func jsonl(_ lines: [String], _ name: String) throws -> String {
        let path = NSTemporaryDirectory() + "kept-integrity-\(name)-\(ProcessInfo.processInfo.processIdentifier).jsonl"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    /// Two records under each other and one under itself: the import used to drop those parents
    /// without a word. Each is now a line of the report naming both tasks, and the store has no
    /// loop.
    func testParentLoopsOfAnImportAreReported() throws {
        let s = session()
        let path = try jsonl([
            "{\"uid\":\"\(Self.u1)\",\"title\":\"A\",\"parentUid\":\"\(Self.u2)\"}",
            "{\"uid\":\"\(Self.u2)\",\"title\":\"B\",\"parentUid\":\"\(Self.u1)\"}",
            "{\"uid\":\"\(Self.u3)\",\"title\":\"C\",\"parentUid\":\"\(Self.u3)\"}",
        ], "loops")
        // A dry run adds nothing: only the loop of a task with itself shows.
        XCTAssertEqual(lines(s, "import \"\(path)\" dry-run").filter { $0.hasPrefix("Parent") },
                       ["Parent left out, it would make a loop of subtasks: 3 · C under 3 · line 3"])
        let out = lines(s, "import \"\(path)\"")
        XCTAssertEqual(out.filter { $0.hasPrefix("Parent") }, [
            "Parent left out, it would make a loop of subtasks: 1 · A under 2 · line 1",
            "Parent left out, it would make a loop of subtasks: 3 · C under 3 · line 3",
        ], "\(out)")
        XCTAssertEqual(s.store.task(1)?.parent, nil)
        XCTAssertEqual(s.store.task(2)?.parent, 1)
        XCTAssertEqual(s.store.task(3)?.parent, nil)
        // A record that puts a task of the store under its own subtask: reported, and the task
        // keeps the parent it had.
        let change = try jsonl(["{\"uid\":\"\(Self.u1)\",\"title\":\"A\",\"parentUid\":\"\(Self.u2)\",\"modifiedAt\":\"2030-01-01T00:00:00Z\"}"], "loop-change")
        XCTAssertEqual(lines(s, "import \"\(change)\"").filter { $0.hasPrefix("Parent") },
                       ["Parent left out, it would make a loop of subtasks: 1 · A under 2 · line 1"])
        XCTAssertEqual(s.store.task(1)?.parent, nil)
        XCTAssertEqual(s.store.task(2)?.parent, 1)
    }

    /// The engine's report holds them typed, in the file's order.
    func testParentLoopsAreInTheReport() throws {
        let s = session()
        func rec(_ title: String, _ uid: String, parent: String, line: Int) -> ImportedTask {
            var r = ImportedTask(task: Task(id: 0, title: title, createdAt: .epoch, uid: TaskUID(uid)), hasUID: true, fields: [.title, .parent], line: line)
            r.parentUID = TaskUID(parent)
            return r
        }
        let report = try s.engine.importTasks([rec("A", Self.u1, parent: Self.u2, line: 1), rec("B", Self.u2, parent: Self.u1, line: 2)])
        XCTAssertEqual(report.parentLoops, [ImportReport.ParentLoop(id: 1, title: "A", parent: 2, line: 1)])
    }
}

extension IntegrityInteropTests {
    // MARK: invisible characters in text output

    /// Bidi overrides, isolates and marks and zero-width characters were printed raw: a title
    /// could read in another order than it is. They are escaped as control characters are.
    func testBidiAndZeroWidthCharactersAreEscaped() {
        let table: [(String, UInt32)] = [
            ("inv-lre", 0x202A), ("inv-rle", 0x202B), ("inv-pdf", 0x202C), ("inv-lro", 0x202D), ("inv-rlo", 0x202E),
            ("inv-lri", 0x2066), ("inv-rli", 0x2067), ("inv-fsi", 0x2068), ("inv-pdi", 0x2069),
            ("inv-lrm", 0x200E), ("inv-rlm", 0x200F), ("inv-alm", 0x061C),
            ("inv-zwsp", 0x200B), ("inv-zwnj", 0x200C), ("inv-zwj", 0x200D), ("inv-wj", 0x2060), ("inv-bom", 0xFEFF),
        ]
        for (id, v) in table {
            guard let u = Unicode.Scalar(v) else { return XCTFail(id) }
            let hex = String(v, radix: 16)
            let escape = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            XCTAssertEqual(DisplayText.escaped("Pay \(Character(u))rent"), "Pay \(escape)rent", id)
            XCTAssertEqual(DisplayText.escaped("\(Character(u))"), escape, id)
        }
        // Joiners where a script or an emoji sequence needs them stay.
        for kept in ["👨\u{200D}👩\u{200D}👧", "🏳\u{FE0F}\u{200D}🌈", "می\u{200C}خواهم", "क्\u{200D}ष"] {
            XCTAssertEqual(DisplayText.escaped(kept), kept)
        }
        XCTAssertEqual(DisplayText.escaped("a\u{200D}b \u{200C}x"), "a\\u200db \\u200cx")
        // Kept's own punctuation and other text past ASCII are no reason to copy.
        for plain in ["Pay rent · due Tue — 3 → 4…", "Tâche ☕ 😀", "\u{2010}\u{2030}\u{2070}\u{FEFE}"] {
            XCTAssertFalse(DisplayText.mayNeedEscapes(plain), plain)
            XCTAssertEqual(DisplayText.escaped(plain), plain)
        }
        // Under a caret, one column that is not the override.
        XCTAssertEqual(DisplayText.picture("\u{202E}"), "\u{FFFD}")
    }

    /// Through a statement: the list shows the escape, the JSON keeps the text exactly.
    func testATitleWithAnOverrideIsListedEscaped() throws {
        let s = session()
        XCTAssertFalse(run(s, "add Invoice \u{202E}fdp.exe").failed)
        let out = run(s, "list").lines.joined(separator: "\n")
        XCTAssertTrue(out.contains("Invoice \\u202efdp.exe"), out)
        XCTAssertFalse(out.unicodeScalars.contains("\u{202E}"), out)
        XCTAssertEqual(s.store.task(1)?.title, "Invoice \u{202E}fdp.exe", "the store keeps the text as it is")
    }
}

extension IntegrityInteropTests {
    // MARK: list limit -1

    /// `list limit -1` was a text search for "limit -1" ("Nothing matches"); a word a reader
    /// takes for a number after `limit` is the clause's, and refused at that word.
    func testAListLimitThatIsNoCountIsAnErrorAtIt() {
        let s = session()
        XCTAssertFalse(run(s, "add a").failed)
        for (id, text) in [("lim-neg", "list limit -1"), ("lim-plus", "list limit +5"), ("lim-frac", "list limit 2.5"),
                           ("lim-huge", "list limit 99999999999999999999"), ("lim-after", "list #x or a limit -3")] {
            let r = run(s, text)
            XCTAssertEqual(r.diagnostics.map(\.code), [.E0102], "\(id): \(r.lines)")
            XCTAssertEqual(r.diagnostics.first?.message, "expected a whole number of rows after 'limit'", id)
            let word = String(text.split(separator: " ").last ?? "")
            let start = text.utf8.count - word.utf8.count
            XCTAssertEqual(r.diagnostics.first?.range, SourceRange(start: start, end: text.utf8.count), id)
        }
        // A limit that is a count, and a word that is no number, are as before.
        XCTAssertEqual(lines(s, "list limit 1"), ["All 1 task", "1  a"])
        XCTAssertEqual(lines(s, "list limit 0"), ["0 of 1 task"])
        XCTAssertEqual(lines(s, "list limit x"), ["Nothing matches these filters · 1 task · 1 filter on"])
    }
}

extension IntegrityInteropTests {
    /// The loader's table of uids: every repeat found with its earlier row, across growth past
    /// the reservation, and uids that differ in one bit kept apart.
    func testTheUIDTableFindsEveryRepeatAndNothingElse() {
        var t = UIDTable(reserving: 4)
        var rng = SplitMix(seed: 28)
        var made: [TaskUID] = []
        for k in 0..<20_000 {
            let u = k % 2 == 0 ? TaskUID(hi: rng.next(), lo: rng.next()) : TaskUID(hi: made[k - 1].hi, lo: made[k - 1].lo ^ 1)
            XCTAssertNil(t.insert(u, row: k), "uid-table-\(k)")
            made.append(u)
        }
        XCTAssertEqual(t.count, 20_000)
        for k in stride(from: 0, to: 20_000, by: 997) {
            XCTAssertEqual(t.row(of: made[k]), k)
            XCTAssertEqual(t.insert(made[k], row: 99_999), k, "a repeat names the first row")
        }
        XCTAssertEqual(t.count, 20_000, "a repeat is not added")
        XCTAssertNil(t.row(of: TaskUID(hi: 1, lo: 2)))
    }

    /// The check over many uids: the first repeat in the file's order, within a run or across
    /// two, whichever bits the uids fall on; none in distinct uids.
    func testTheFirstRepeatOfManyUIDsIsFound() {
        var rng = SplitMix(seed: 2028)
        let uids = (0..<60_000).map { _ in TaskUID(hi: rng.next(), lo: rng.next()) }
        func segments(_ list: [TaskUID], split: Int) -> [StoreCodec.UIDSegment] {
            [StoreCodec.UIDSegment(entries: list[..<split].enumerated().map { ($0.element, $0.offset) }, base: 0),
             StoreCodec.UIDSegment(entries: list[split...].enumerated().map { ($0.element, $0.offset) }, base: split)]
        }
        XCTAssertNil(StoreCodec.heldUIDRepeat(segments(uids, split: 30_000)))
        var planted = uids
        planted[45_000] = uids[100]   // across the runs
        planted[50_000] = uids[20_000] // later, within the first run's uids
        planted[12_000] = uids[11_000] // the first in the file
        for split in [0, 11_500, 30_000, 60_000] {
            let p = StoreCodec.heldUIDRepeat(segments(planted, split: split))
            XCTAssertEqual(p?.first, 11_000, "split \(split)")
            XCTAssertEqual(p?.second, 12_000, "split \(split)")
        }
    }
}
