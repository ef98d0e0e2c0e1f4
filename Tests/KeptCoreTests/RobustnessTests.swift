// Issue 20: no input crashes Kept, hangs it, or changes data behind the user's back. Each
// reproducer of the issue is a case here (`rob-…`), through a Session as every front end drives
// it; each input fuzzing found is a case too (`fuzz-…`). docs/LIMITS.md lists the limits these
// hold, and a test here holds that page to the table in Limits.swift.

import Foundation
import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class RobustnessTests: XCTestCase, SessionTesting {
    func session(_ store: Store = Store(), now: String = "2026-06-15T09:00") -> Session {
        Session(store: JSONStore(memory: store), clock: .wall(CivilDateTime(iso: now) ?? CivilDateTime(date: .earliest, time: .midnight)),
                defaultZone: Zone(identifier: "Europe/Berlin") ?? .utc)
    }

    /// Runs a statement that must fail with `code`, leaving the store as it was; returns the message.
    @discardableResult
    func refused(_ s: Session, _ text: String, _ code: String, _ id: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let before = StoreCodec.encode(s.store.snapshot())
        let r = run(s, text)
        XCTAssertEqual(r.diagnostics.first?.code.rawValue, code, "\(id): \(r.lines) \(r.diagnostics.map(\.message))", file: file, line: line)
        XCTAssertFalse(r.changed, "\(id): a refused statement reported a change", file: file, line: line)
        XCTAssertEqual(StoreCodec.encode(s.store.snapshot()), before, "\(id): a refused statement changed the store", file: file, line: line)
        return r.diagnostics.first?.message ?? ""
    }

    // MARK: numbers and dates (E0007, E0225)

    /// The overflow traps of the issue, and their neighbours: each is a coded error now.
    func testNumbersPastTheLimitAreRefusedNotWrapped() {
        let cases: [(String, String, String)] = [
            ("rob-01", "date 1.1.99999999999999999999", "E0225"),
            ("rob-02", "add x @1/1/99999999999999999999", "E0225"),
            ("rob-03", "list estimate < 99999999999999999999m", "E0007"),
            ("rob-04", "count created > -2000000000000000000w", "E0007"),
            ("rob-05", "count created > -999999999w", "E0225"),
            ("rob-06", "add x @in 9999999999 days", "E0007"),
            ("rob-07", "add x @in 999999999 days", "E0225"),
            ("rob-08", "date in 999999999 hours", "E0225"),
            ("rob-09", "date 12345-01-01", "E0225"),
            ("rob-10", "repeat every 99999999999999999999 days", "E0007"),
            ("rob-11", "add x every 999999999 days", "E0210"),
            ("rob-12", "repeat every day next 99999999999999999999", "E0209"),
            ("rob-13", "list @next 99999999999999999999 days", "E0007"),
            ("rob-14", "add x @99999999999m", "E0007"),
            ("rob-15", "date 5/17/123456", "E0225"),
            ("rob-16", "list due < 1.1.99999", "E0225"),
            ("rob-17", "rrule FREQ=MONTHLY;BYMONTHDAY=28,999999999999;BYSETPOS=-1", "E0215"),
        ]
        for (id, text, code) in cases {
            refused(session(), text, code, id)
        }
        // The messages say what is wrong: not "expected an amount of time", not "expected day, week…".
        XCTAssertEqual(refused(session(), "add x @in 9999999999 days", "E0007", "rob-06"),
                       "'9999999999' is larger than 999,999,999, the largest number Kept reads")
        XCTAssertTrue(refused(session(), "repeat every 99999999999999999999 days", "E0007", "rob-10").contains("an interval is from 1 to 1,000"))
        XCTAssertEqual(refused(session(), "add x every 999999999 days", "E0210", "rob-11"), "an interval is from 1 to 1,000")
    }

    /// Dates at the ends of the calendar: refused past them, never clamped onto the last day.
    func testTheCalendarEndsAt9999() {
        let end = session(now: "9999-12-31T12:00")
        refused(end, "date tomorrow", "E0225", "rob-20")
        refused(end, "add x @next week", "E0225", "rob-21")
        refused(end, "add x @mon", "E0225", "rob-22")
        refused(end, "date jan 5", "E0225", "rob-23")
        refused(end, "date in 13 hours", "E0225", "rob-24")
        XCTAssertEqual(lines(end, "date today"), ["Fri Dec 31, 9999"], "rob-25")
        // A phrase far ahead but inside the calendar reads (it used to be 'too far ahead').
        XCTAssertEqual(lines(session(), "date in 200000 days"), ["Thu Jan 13, 2574"], "rob-26")
        // `every 5000 meters` is no repeat at all: it stays title text.
        XCTAssertEqual(lines(session(), "add x every 5000 meters"), ["Added 1 · x every 5000 meters"], "rob-27")
    }

    /// rob-30: the series ends with the calendar: Dec 31, 9999 once, not four times.
    func testARepeatEndsWithTheCalendar() {
        XCTAssertEqual(lines(session(), "repeat every day from 9999-12-30 next 5"),
                       ["Every day from 9999-12-30", "RRULE FREQ=DAILY", "Thu Dec 30, 9999", "Fri Dec 31, 9999", "(the series ends here)"])
        XCTAssertEqual(lines(session(), "repeat every 4 days from 9999-12-25 next 5").suffix(3),
                       ["Sat Dec 25, 9999", "Wed Dec 29, 9999", "(the series ends here)"], "rob-31: never a clamped date off the series")
        XCTAssertEqual(lines(session(), "repeat every week from 9999-12-25 next 3").suffix(2), ["Sat Dec 25, 9999", "(the series ends here)"], "rob-32")
        guard let rule = try? RepeatRule.parse("every day").get().0, let last = CivilDate(year: 9999, month: 12, day: 31) else { return XCTFail("rule") }
        XCTAssertNil(rule.nextOccurrence(after: last, anchor: last), "rob-33")
    }

    // MARK: nesting (E0008)

    /// The stack overflows of the issue: deep parentheses, many `not`s, unclosed parentheses,
    /// and a saved filter like that in a store.
    func testFiltersNestAtMostTheLimit() throws {
        refused(session(), "list " + String(repeating: "(", count: 5000) + "#a" + String(repeating: ")", count: 5000), "E0008", "rob-40")
        refused(session(), "count " + String(repeating: "not ", count: 20000) + "#a", "E0008", "rob-41")
        refused(session(), "list " + String(repeating: "(", count: 5000), "E0008", "rob-42")
        refused(session(), "list " + String(repeating: "-", count: 5000) + "#a", "E0008", "rob-43")
        // At the limit it still reads.
        let ok = "count " + String(repeating: "(", count: 99) + "#a" + String(repeating: ")", count: 99)
        XCTAssertFalse(run(session(), ok).failed, "rob-44: 99 parentheses read")
        // A saved filter in a store, and a chain of saved filters each using the next.
        let deep = String(repeating: "(", count: 3000) + "#a" + String(repeating: ")", count: 3000)
        var filters = [#"{"name": "Deep", "filter": "\#(deep)"}"#]
        for k in 0..<300 { filters.append(#"{"name": "F\#(k)", "filter": "filter:F\#(k + 1)"}"#) }
        filters.append(##"{"name": "F300", "filter": "#a"}"##)
        let text = #"{"filters": [\#(filters.joined(separator: ","))], "tasks": []}"#
        let store = try StoreCodec.decode(Array(text.utf8)).get()
        refused(session(store), "list filter:Deep", "E0008", "rob-45")
        refused(session(store), "count filter:F0", "E0008", "rob-46")
        XCTAssertFalse(run(session(store), "count filter:F250").failed, "rob-47: a chain of 50 reads")
    }

    // MARK: statements (E0004, E0006)

    func testStatementsPastTheSizeLimitsAreRefused() {
        refused(session(), "add " + String(repeating: "a", count: Limits.statementBytes), "E0004", "rob-50")
        refused(session(), "list " + String(repeating: "a ", count: Limits.statementTokens + 1), "E0006", "rob-51")
        XCTAssertFalse(run(session(), "count " + String(repeating: "a ", count: 1000)).failed, "rob-52")
    }

    /// rob-53: 100,000 tags in one add are all kept, in linear time (it was quadratic: 4 minutes
    /// in a debug build). The bound is generous; it only catches the quadratic walk.
    func testManyTagsAreLinear() {
        let s = session()
        let line = "add many " + (0..<100_000).map { "#t\($0)" }.joined(separator: " ")
        let start = Date()
        let r = run(s, line)
        XCTAssertFalse(r.failed, "rob-53")
        XCTAssertLessThan(Date().timeIntervalSince(start), 30, "rob-53: quadratic again?")
        XCTAssertEqual(s.store.task(1)?.tags.count, 100_000, "rob-53")
    }

    // MARK: the store (E0227, E0308)

    /// rob-60: a store at the last id refuses an add it could not read back; what it wrote reads.
    func testIdsStayInARangeThatRoundTrips() throws {
        let text = #"{"format": "kept-store", "version": 1, "nextId": 9007199254740991, "tasks": []}"#
        let s = session(try StoreCodec.decode(Array(text.utf8)).get())
        XCTAssertEqual(lines(s, "add last"), ["Added 9007199254740991 · last"], "rob-60")
        refused(s, "add one more", "E0227", "rob-61")
        refused(s, "duplicate 9007199254740991", "E0227", "rob-62")
        let back = try StoreCodec.decode(StoreCodec.encode(s.store.snapshot())).get()
        XCTAssertEqual(back.nextID, 9_007_199_254_740_992, "rob-63: nextId one past the last id reads back")
        XCTAssertEqual(back.task(9_007_199_254_740_991)?.title, "last", "rob-63")
        // A repeating task at the last id cannot make its next occurrence: refused, not ended.
        let r = #"{"nextId": 9007199254740991, "tasks": [{"id": 5, "title": "r", "due": {"date": "2026-06-15"}, "repeat": {"text": "every day"}}]}"#
        let rs = session(try StoreCodec.decode(Array(r.utf8)).get())
        XCTAssertFalse(run(rs, "add last").failed)
        refused(rs, "complete 5", "E0227", "rob-64")
        // Undo of a delete needs a new id for the task it restores.
        XCTAssertFalse(run(rs, "delete 5").failed)
        refused(rs, "undo", "E0227", "rob-65")
        guard case .failure = StoreCodec.decode(Array(#"{"nextId": 9007199254740993, "tasks": []}"#.utf8)) else { return XCTFail("rob-66: a nextId past one more than the last id") }
    }

    /// rob-70: a key written twice in an object of the store is an error at the second key,
    /// on every load path; keeping either value dropped the other on the next write.
    func testDuplicateKeysAreRefusedWithTheirPlace() {
        let cases: [(String, String, Int, Int)] = [
            ("rob-70", "{\"tasks\": [\n{\"id\": 1, \"title\": \"a\", \"title\": \"b\"}\n]}", 2, 25),
            ("rob-71", "{\"tasks\": [\n{\"id\":1,\"title\":\"a\",\"due\":{\"date\":\"2026-06-01\",\"date\":\"2026-06-02\"}}\n]}", 2, 48),
            ("rob-72", "{\"theme\": {\"a\": 1, \"a\": 2}, \"tasks\": []}", 1, 20),
            ("rob-73", "{\"settings\": {\"clock\": \"12h\", \"clock\": \"24h\"}}", 1, 31),
            ("rob-74", "{\"nextId\": 3, \"nextId\": 4}", 1, 15),
            ("rob-75", "{\"projects\": [{\"name\": \"A\", \"name\": \"B\"}]}", 1, 29),
        ]
        for (id, text, line, column) in cases {
            for (deferred, parallel) in [(false, Int.max), (true, Int.max), (true, 8)] {
                guard case .failure(let e) = StoreCodec.decode(Array(text.utf8), deferTasks: deferred, parallelAt: parallel) else {
                    XCTFail("\(id): accepted"); continue
                }
                XCTAssertTrue(e.message.hasSuffix("appears twice in one object"), "\(id): \(e.message)")
                XCTAssertEqual(e.line, line, id)
                XCTAssertEqual(e.column, column, id)
            }
        }
        // Many keys: a repeat among thousands is found, escaped and long spellings included,
        // and 100,000 distinct keys read in linear time.
        let many = (0..<2000).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        for (id, extra) in [("rob-77", #""k1999": 0"#), ("rob-78", #""\u006b7": 0"#), ("rob-79", #""a key of more than sixteen bytes": 1, "a key of more than sixteen byte\u0073": 2"#)] {
            let text = #"{"x": {\#(many), \#(extra)}, "tasks": []}"#
            guard case .failure(let e) = StoreCodec.decode(Array(text.utf8)) else { XCTFail("\(id): accepted"); continue }
            XCTAssertTrue(e.message.hasSuffix("appears twice in one object"), "\(id): \(e.message)")
        }
        let wide = #"{"x": {"# + (0..<100_000).map { #""k\#($0)": 0"# }.joined(separator: ",") + "}}"
        XCTAssertNotNil(try? StoreCodec.decode(Array(wide.utf8)).get(), "rob-79b")
        // Any other JSON keeps RFC 8259's reading: the last value wins.
        XCTAssertEqual(try JSONParser.parse(#"{"a": 1, "a": 2}"#), ["a": 2], "rob-76")
    }

    /// rob-80: a repeat that cannot be read ("banana") is refused at load, on both paths, not
    /// turned into "the series has ended" at the next completion.
    func testAnUnreadableRepeatIsReported() {
        let text = "{\"tasks\": [\n{\"id\": 1, \"title\": \"r\", \"due\": {\"date\": \"2026-06-15\"}, \"repeat\": {\"text\": \"banana\"}}\n]}"
        for deferred in [false, true] {
            guard case .failure(let e) = StoreCodec.decode(Array(text.utf8), deferTasks: deferred, parallelAt: Int.max) else {
                return XCTFail("rob-80: accepted")
            }
            XCTAssertEqual(e.message, "task 1's repeat 'banana' is not a rule this version reads", "rob-80")
            XCTAssertEqual(e.line, 2)
        }
        // A text that does not read with an RRULE that does is fine (the RRULE is the fallback).
        let ok = #"{"tasks": [{"id": 1, "title": "r", "due": {"date": "2026-06-15"}, "repeat": {"text": "banana", "rrule": "FREQ=DAILY"}}]}"#
        XCTAssertNotNil(try? StoreCodec.decode(Array(ok.utf8)).get(), "rob-81")
    }

    /// rob-85: a store nested past the limit is refused, not a stack overflow.
    func testDeepJSONIsRefused() {
        let text = #"{"x": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        guard case .failure(let e) = StoreCodec.decode(Array(text.utf8)) else { return XCTFail("rob-85") }
        XCTAssertTrue(e.message.contains("nesting deeper than 512"), e.message)
    }

    // MARK: regular expressions (E0226)

    /// A store whose titles make `^(\w+\s?)*\d$` backtrack past PCRE2's limit on every task.
    static func backtrackingStore(_ n: Int) -> Store {
        Store(tasks: (1...n).map { k in
            Task(id: k, title: "Quiocogriox gro lunch teawas plan braiwedrix kitchen \(k % 7 == 0 ? "x" : "y")", createdAt: Instant(seconds: 0))
        })
    }

    /// rob-90: the query fails with its error naming the pattern, never a silent no-match; a
    /// bulk action on it changes nothing.
    func testARegexPastItsBudgetFailsTheQuery() {
        for n in [50, CompiledFilter.splitAt + 10] {
            let s = session(RobustnessTests.backtrackingStore(n))
            let m = refused(s, #"count status:any title ~ /^(\w+\s?)*\d$/"#, "E0226", "rob-90 \(n)")
            XCTAssertTrue(m.hasPrefix(#"the pattern /^(\w+\s?)*\d$/ ran past its budget"#), m)
            refused(s, #"set where (title ~ /^(\w+\s?)*\d$/) priority high"#, "E0226", "rob-91 \(n)")
            refused(s, #"delete where title ~ /^(\w+\s?)*\d$/"#, "E0226", "rob-92 \(n)")
            refused(s, #"list title ~ /^(\w+\s?)*\d$/"#, "E0226", "rob-93 \(n)")
            refused(s, #"plan title ~ /^(\w+\s?)*\d$/"#, "E0226", "rob-94 \(n)")
            refused(s, #"explain title ~ /^(\w+\s?)*\d$/"#, "E0226", "rob-95 \(n)")
        }
        // The caret is under the pattern.
        let d = run(session(RobustnessTests.backtrackingStore(5)), #"count title ~ /^(\w+\s?)*\d$/"#).diagnostics.first
        XCTAssertEqual(d?.location?.column, 15, "rob-96")
    }

    /// rob-97: the query's time budget, shared by both threads: a budget already spent stops
    /// a pattern that never reaches PCRE2's limit, with the time as the reason.
    func testTheTimeBudgetStopsAQuery() throws {
        let s = session(StoreLoadTests.store(CompiledFilter.splitAt + 100, seed: 3))
        for f in ["title ~ /./", "status:any title ~ /e/ or #call"] {
            let expr = try FilterBinder.bind(f, name: "t", scope: s.filterScope).get()
            for ix in [s.store.columns(dayStart: .midnight, withText: true), TaskIndex(Array(s.store.tasks.prefix(100)), dayStart: .midnight, withText: true)] {
                let compiled = CompiledFilter(expr, index: ix, context: s.filterContext)
                XCTAssertThrowsError(try compiled.rows(in: ix, budget: RegexBudget(milliseconds: 0)), f) { e in
                    XCTAssertEqual((e as? RegexBudgetError)?.timedOut, true, f)
                }
                XCTAssertFalse(try compiled.rows(in: ix).isEmpty, "\(f): with the normal budget it runs")
            }
        }
    }

    // MARK: data walks

    /// rob-100: a chain of 20,000 subtasks: completing the last completes every parent (it was
    /// a recursion to the stack's end), and deleting the root then undoing it is linear.
    func testLongChainsOfSubtasks() throws {
        let n = 20_000
        let tasks = (1...n).map { k in #"{"id": \#(k), "title": "t\#(k)"\#(k > 1 ? ", \"parent\": \(k - 1)" : "")}"# }
        let store = try StoreCodec.decode(Array(#"{"tasks": [\#(tasks.joined(separator: ",\n"))]}"#.utf8)).get()
        let s = session(store)
        let r = run(s, "complete \(n)")
        XCTAssertFalse(r.failed, "rob-100")
        XCTAssertTrue(r.lines.first?.hasSuffix("completed its parent 1 · t1") == true, "rob-100")
        XCTAssertEqual(lines(s, "count status:any done"), ["\(n) of \(n)"], "rob-100")
        let d = session(store)
        XCTAssertEqual(lines(d, "delete 1"), ["Deleted 1 · t1 with \(n - 1) subtasks"], "rob-101")
        let u = run(d, "undo")
        XCTAssertFalse(u.failed, "rob-102")
        XCTAssertEqual(lines(d, "count"), ["All \(n) tasks"], "rob-102")
        // The restored tree keeps its shape under the new ids.
        XCTAssertEqual(d.store.tasks.last?.parent, d.store.tasks.dropLast().last?.id, "rob-103")
    }

    // MARK: output

    /// rob-110: control characters of titles are escaped in text output and in diagnostics, and
    /// kept exactly in JSON.
    func testControlCharactersAreEscapedInText() throws {
        let s = session()
        XCTAssertEqual(lines(s, "add Evil \u{1B}[2J\u{7} bell\u{0} nul \u{7F} del \u{9B} csi"),
                       [#"Added 1 · Evil \e[2J\u0007 bell\u0000 nul \u007f del \u009b csi"#], "rob-110")
        XCTAssertEqual(lines(s, "list"), ["All 1 task", #"1  Evil \e[2J\u0007 bell\u0000 nul \u007f del \u009b csi"#], "rob-111")
        XCTAssertEqual(lines(s, "show 1 title"), [#"Evil \e[2J\u0007 bell\u0000 nul \u007f del \u009b csi"#], "rob-112")
        let d = try XCTUnwrap(run(s, "lsit\u{1B}[31m").diagnostics.first)
        XCTAssertEqual(d.message, #"unknown command 'lsit\e[31m'"#, "rob-113")
        XCTAssertFalse(DiagnosticRenderer(style: .rich).render(d).contains("\u{1B}"), "rob-114: the quoted line shows a picture")
        s.format = .json
        let json = try XCTUnwrap(run(s, "show 1 title").lines.first)
        XCTAssertTrue(json.contains(#"\u001b[2J\u0007"#), "rob-115: \(json)")
        XCTAssertEqual(try JSONParser.parse(json)["title"]?.stringValue, "Evil \u{1B}[2J\u{7} bell\u{0} nul \u{7F} del \u{9B} csi", "rob-115")
        // Tabs and line breaks are text, not controls.
        XCTAssertEqual(DisplayText.escaped("a\tb\nc"), "a\tb\nc", "rob-116")
    }

    // MARK: limits

    /// docs/LIMITS.md holds the table of Limits.swift row by row, each with the code the catalog
    /// gives its kind.
    func testTheLimitsPageListsEveryLimit() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/LIMITS.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| limit") }
        XCTAssertEqual(rows.count, Limits.table.count, "one row a limit")
        for l in Limits.table {
            let code = Catalog.code(l.kind)
            XCTAssertTrue(rows.contains("| \(l.name) | \(l.value) | \(code) | \(l.meaning) |"), "docs/LIMITS.md lacks the row of \(l.name)")
            XCTAssertNotNil(Catalog.summary(of: code.rawValue), code.rawValue)
        }
        XCTAssertEqual(Set(Limits.table.map(\.kind)), Set(Limit.Kind.allCases), "a row for every kind of limit")
        XCTAssertEqual(Limits.grouped(1_048_576), "1,048,576")
        XCTAssertEqual(Limits.number(Array("999999999".utf8)), 999_999_999)
        XCTAssertNil(Limits.number(Array("1000000000".utf8)))
        XCTAssertNil(Limits.number(Array("99999999999999999999999999".utf8)))
    }

    // MARK: inputs fuzzing found

    /// fuzz-01: a repeated id, then a later syntax error: every load path reports the id (the
    /// deferred ones reported the syntax error, found after reading on).
    func testARepeatedIdIsTheFirstError() {
        var lines = (1...40).map { #"{"id": \#($0), "title": "t"}"# }
        lines[5] = #"{"id": 5, "title": "again"}"#
        lines[30] = #"{"id": 31, "title": "broken"#
        let text = "{\"tasks\": [\n" + lines.joined(separator: ",\n") + "\n]}"
        var seen: [String] = []
        for (deferred, parallel) in [(false, Int.max), (true, Int.max), (true, 64)] {
            guard case .failure(let e) = StoreCodec.decode(Array(text.utf8), deferTasks: deferred, parallelAt: parallel) else { return XCTFail("fuzz-01") }
            seen.append("\(e.line):\(e.column) \(e.message)")
        }
        XCTAssertEqual(seen, Array(repeating: "7:1 two tasks have id 5", count: 3), "fuzz-01")
        // Ids out of order, then a repeat of an earlier one.
        let shuffled = "{\"tasks\": [\n{\"id\": 3, \"title\": \"a\"},\n{\"id\": 1, \"title\": \"b\"},\n{\"id\": 3, \"title\": \"c\"},\n{\"id\": 9, \"title\": \"x\n]}"
        for deferred in [false, true] {
            guard case .failure(let e) = StoreCodec.decode(Array(shuffled.utf8), deferTasks: deferred, parallelAt: Int.max) else { return XCTFail("fuzz-01b") }
            XCTAssertEqual("\(e.line) \(e.message)", "4 two tasks have id 3", "fuzz-01b")
        }
    }

    /// fuzz-02: a rule whose words do not read back (`FREQ=YEARLY;BYMONTH=9` says "Every year in
    /// September") is stored with its RRULE, and reads back with the same dates.
    func testAStoredRuleReadsBack() throws {
        for rr in ["FREQ=YEARLY;BYMONTH=9", "FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR"] {
            let rule = try RepeatRule.fromRRULE(rr).get()
            let anchor = try XCTUnwrap(CivilDate(iso: "2026-06-15"))
            let written = RepeatSpec(rule: rule, anchor: anchor)
            let back = try XCTUnwrap(RepeatSpec(text: written.storedText, rrule: written.storedRRULE, anchor: anchor).rule, "fuzz-02 \(rr)")
            XCTAssertEqual(back.occurrences(anchor: anchor, limit: 30), rule.occurrences(anchor: anchor, limit: 30), "fuzz-02 \(rr)")
        }
    }

    /// fuzz-03: two records without uids, ids 2 and 1, titles "b" and "a": the derived uids were
    /// equal (the id and the first byte were XORed together), so the eager load refused the store
    /// as two tasks with one uid while the deferred load read it. Every path reads it now, with
    /// two uids.
    func testDerivedUIDsOfNeighbouringIdsDiffer() {
        let text = #"{"tasks":[{"id":2,"title":"b","status":"open"},{"id":1,"title":"a","parent":2}]}"#
        for (deferred, parallel) in [(false, Int.max), (true, Int.max), (true, 16)] {
            guard case .success(let s) = StoreCodec.decode(Array(text.utf8), deferTasks: deferred, parallelAt: parallel) else {
                return XCTFail("fuzz-03 deferred \(deferred) parallel \(parallel)")
            }
            XCTAssertEqual(Set(s.tasks.map(\.uid)).count, 2, "fuzz-03")
        }
        XCTAssertNotEqual(TaskUID.derived(id: 2, createdAt: Instant(seconds: 0), title: "b"),
                          TaskUID.derived(id: 1, createdAt: Instant(seconds: 0), title: "a"), "fuzz-03")
    }
}
