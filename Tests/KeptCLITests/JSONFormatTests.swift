// `--format json` (docs/LANGUAGE.md "Output"): one JSON object per command, one per line, in the
// shapes of docs/OUTPUT.md; this form is an interface, so the keys are pinned exactly.

import Foundation
import XCTest

final class JSONFormatTests: XCTestCase {
    /// The keys of a task object, exactly (docs/OUTPUT.md).
    static let taskKeys: Set<String> = [
        "id", "uid", "title", "status", "due", "priority", "project", "area", "tags", "notes", "repeat",
        "estimate", "heldUntil", "completedAt", "createdAt", "modifiedAt", "parent", "steps", "reminders",
    ]

    func parseLines(_ r: KeptRun, file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        try r.stdoutLines.enumerated().map { k, l in
            guard let o = try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any] else {
                XCTFail("stdout line \(k + 1) is not a JSON object: \(l)", file: file, line: line)
                throw CocoaError(.propertyListReadCorrupt)
            }
            return o
        }
    }

    /// The task shape of a fresh task with a due date and time: exactly the documented keys,
    /// due {"date":"2026-06-16","time":"15:00"}, defaults for the rest.
    func assertFreshTask(_ t: [String: Any]?, file: StaticString = #filePath, line: UInt = #line) {
        guard let t else { return XCTFail("no task object", file: file, line: line) }
        XCTAssertEqual(Set(t.keys), Self.taskKeys, file: file, line: line)
        XCTAssertEqual(t["id"] as? Int, 1, file: file, line: line)
        XCTAssertEqual(t["title"] as? String, "Pay rent", file: file, line: line)
        XCTAssertEqual(t["status"] as? String, "open", file: file, line: line)
        let due = t["due"] as? [String: Any]
        XCTAssertEqual(due?.count, 2, file: file, line: line)
        XCTAssertEqual(due?["date"] as? String, "2026-06-16", file: file, line: line)
        XCTAssertEqual(due?["time"] as? String, "15:00", file: file, line: line)
        XCTAssertEqual(t["priority"] as? String, "none", file: file, line: line)
        for k in ["project", "area", "repeat", "estimate", "heldUntil", "completedAt", "parent"] {
            XCTAssertTrue(t[k] is NSNull, "\(k) should be null", file: file, line: line)
        }
        for k in ["tags", "notes", "steps", "reminders"] {
            XCTAssertEqual((t[k] as? [Any])?.count, 0, "\(k) should be []", file: file, line: line)
        }
        XCTAssertEqual(t["createdAt"] as? String, "2026-06-15T09:00:00+02:00", file: file, line: line)
    }

    /// add → {"added":TASK}, show → TASK, list → {"tasks":[…],"shown":1,"total":1}, and an error
    /// → {"error":{"code":"E0301","message":…,"line":1,"column":6,…}} on stdout; exit 1; every
    /// stdout line is one JSON object and stderr stays empty.
    func testShapes() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + [
            "-e", "add Pay rent @tomorrow 15:00", "-e", "show 1", "-e", "list", "-e", "show 9",
        ])
        XCTAssertEqual(r.reason, .exit, r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertEqual(r.stderr, "", r.summary)
        let objs = try parseLines(r)
        XCTAssertEqual(objs.count, 4, r.summary)
        guard objs.count == 4 else { return }

        XCTAssertEqual(Set(objs[0].keys), ["added"])
        assertFreshTask(objs[0]["added"] as? [String: Any])

        assertFreshTask(objs[1])

        XCTAssertEqual(Set(objs[2].keys), ["tasks", "shown", "total"])
        XCTAssertEqual(objs[2]["shown"] as? Int, 1)
        XCTAssertEqual(objs[2]["total"] as? Int, 1)
        let tasks = objs[2]["tasks"] as? [[String: Any]]
        XCTAssertEqual(tasks?.count, 1)
        assertFreshTask(tasks?.first)

        XCTAssertEqual(Set(objs[3].keys), ["error"])
        let e = try XCTUnwrap(objs[3]["error"] as? [String: Any])
        XCTAssertEqual(e["code"] as? String, "E0301")
        XCTAssertEqual(e["message"] as? String, "no task with id 9")
        XCTAssertEqual(e["line"] as? Int, 1)
        XCTAssertEqual(e["column"] as? Int, 6, "the column of '9' in 'show 9'")
        XCTAssertTrue(Set(e.keys).isSuperset(of: ["code", "message", "line", "column"]), "\(e.keys)")
    }

    /// The exact bytes of the first line: key order is part of the interface. The uid is a
    /// random RFC 4122 version 4 UUID, lowercase; it is checked, then compared as `UID`.
    func testAddLineIsExact() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + ["-e", "add Pay rent @tomorrow 15:00"])
        XCTAssertEqual(r.status, 0, r.summary)
        let re = try NSRegularExpression(pattern: #""uid":"([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})""#)
        let whole = NSRange(r.stdout.startIndex..., in: r.stdout)
        XCTAssertEqual(re.numberOfMatches(in: r.stdout, range: whole), 1, r.summary)
        let line = re.stringByReplacingMatches(in: r.stdout, range: whole, withTemplate: #""uid":"UID""#)
        XCTAssertEqual(line, #"{"added":{"id":1,"uid":"UID","title":"Pay rent","status":"open","due":{"date":"2026-06-16","time":"15:00"},"priority":"none","project":null,"area":null,"tags":[],"notes":[],"repeat":null,"estimate":null,"heldUntil":null,"completedAt":null,"createdAt":"2026-06-15T09:00:00+02:00","modifiedAt":"2026-06-15T09:00:00+02:00","parent":null,"steps":[],"reminders":[]}}"# + "\n", r.summary)
    }

    /// complete → {"completed":TASK,"next":null}; a due without a time has "time":null.
    func testCompleteShape() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + ["-e", "add Pay rent @2026-07-01", "-e", "complete 1"])
        XCTAssertEqual(r.status, 0, r.summary)
        let objs = try parseLines(r)
        XCTAssertEqual(objs.count, 2, r.summary)
        guard objs.count == 2 else { return }
        let added = objs[0]["added"] as? [String: Any]
        let due = added?["due"] as? [String: Any]
        XCTAssertEqual(due?["date"] as? String, "2026-07-01")
        XCTAssertTrue(due?["time"] is NSNull)
        XCTAssertEqual(Set(objs[1].keys), ["completed", "next"])
        XCTAssertTrue(objs[1]["next"] is NSNull)
        let done = objs[1]["completed"] as? [String: Any]
        XCTAssertEqual(done.map { Set($0.keys) }, Self.taskKeys)
        XCTAssertEqual(done?["status"] as? String, "done")
        XCTAssertEqual(done?["completedAt"] as? String, "2026-06-15T09:00:00+02:00")
    }

    /// A repeat → "repeat":{"text","rrule","exdate","rdate"} exactly, the dates a repeat skips
    /// and adds as `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`, [] for none; skip, unskip, rdate and
    /// unrdate → {"updated":TASK}; `show ID repeat` → {"repeat":{…}}.
    func testRepeatShape() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + [
            "-e", "add Check in @2026-06-16 9am every day at 9am and 5pm", "-e", "skip next 1", "-e", "skip 1 jun 18",
            "-e", "rdate 1 jun 19 8pm", "-e", "unskip 1 jun 18", "-e", "unrdate 1 jun 19 8pm", "-e", "show 1 repeat",
        ])
        XCTAssertEqual(r.status, 0, r.summary)
        let objs = try parseLines(r)
        XCTAssertEqual(objs.count, 7, r.summary)
        guard objs.count == 7 else { return }
        func rep(_ o: [String: Any], _ key: String) -> [String: Any]? { (o[key] as? [String: Any])?["repeat"] as? [String: Any] }
        let fresh = try XCTUnwrap(rep(objs[0], "added"))
        XCTAssertEqual(Set(fresh.keys), ["text", "rrule", "exdate", "rdate"])
        XCTAssertEqual(fresh["text"] as? String, "Every day at 9am and 5pm")
        XCTAssertEqual(fresh["rrule"] as? String, "FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0")
        XCTAssertEqual((fresh["exdate"] as? [Any])?.count, 0)
        XCTAssertEqual((fresh["rdate"] as? [Any])?.count, 0)
        for k in 1...5 { XCTAssertEqual(Set(objs[k].keys), ["updated"], "statement \(k + 1)") }
        XCTAssertEqual((objs[1]["updated"] as? [String: Any]).map { Set($0.keys) }, Self.taskKeys)
        XCTAssertEqual(rep(objs[1], "updated")?["exdate"] as? [String], ["2026-06-16T09:00"])
        XCTAssertEqual(rep(objs[2], "updated")?["exdate"] as? [String], ["2026-06-16T09:00", "2026-06-18"])
        XCTAssertEqual(rep(objs[3], "updated")?["rdate"] as? [String], ["2026-06-19T20:00"])
        XCTAssertEqual(rep(objs[4], "updated")?["exdate"] as? [String], ["2026-06-16T09:00"])
        XCTAssertEqual(rep(objs[5], "updated")?["rdate"] as? [String], [])
        XCTAssertEqual(Set(objs[6].keys), ["repeat"])
        XCTAssertEqual((objs[6]["repeat"] as? [String: Any]).map { Set($0.keys) }, ["text", "rrule", "exdate", "rdate"])
    }

    /// Text that needs escaping stays one line of valid JSON: a description set to a quoted
    /// string with quotes, a backslash, a newline and a tab (the lexer's `\"`, `\\`, `\n`, `\t`)
    /// and non-ASCII; `updated` and `show ID FIELD` shapes on the way. (A title is one line, so
    /// the same value as a title is refused with E0209.)
    func testEscapingKeepsOneObjectPerLine() throws {
        let r = try Kept.run(["run", "--format", "json"] + Kept.clock + [
            "-e", "add x", "-e", #"set 1 description "Say \"hi\" \\ to\nJosé\tnow""#, "-e", "show 1 description",
            "-e", #"set 1 title "two\nlines""#,
        ])
        XCTAssertEqual(r.status, 1, r.summary)
        let objs = try parseLines(r)
        XCTAssertEqual(objs.count, 4, r.summary)
        guard objs.count == 4 else { return }
        let want = "Say \"hi\" \\ to\nJosé\tnow"
        // The task object of docs/OUTPUT.md has no description; `show 1 description` gives it.
        XCTAssertEqual((objs[1]["updated"] as? [String: Any])?["id"] as? Int, 1)
        XCTAssertEqual(objs[2] as? [String: String], ["description": want])
        XCTAssertEqual((objs[3]["error"] as? [String: Any])?["code"] as? String, "E0209")
    }

    /// A store that cannot be read is, in JSON mode, one error object on stdout (as every error
    /// there is) naming the store; stderr stays empty; exit 2.
    func testUnreadableStoreInJSONMode() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let store = try dir.write("bad.json", "[1,2]\n")
        let r = try Kept.run(["run", "--format", "json", "--store", store] + Kept.clock + ["--errors", "short", "-e", "list"])
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertEqual(r.stderr, "", r.summary)
        let objs = try parseLines(r)
        XCTAssertEqual(objs.count, 1, r.summary)
        let e = try XCTUnwrap(objs.first?["error"] as? [String: Any], r.summary)
        XCTAssertEqual(e["code"] as? String, "E0308")
        XCTAssertEqual(e["file"] as? String, store)
        // The REPL the same.
        let repl = try Kept.run(["repl", "--format", "json", "--store", store] + Kept.clock, stdin: Data("list\n".utf8))
        XCTAssertEqual(repl.status, 2, repl.summary)
        XCTAssertEqual(repl.stderr, "", repl.summary)
        XCTAssertEqual(try parseLines(repl).first?.keys.sorted(), ["error"], repl.summary)
    }

    /// Every statement of `kept help` (by its example, in help order), every other statement
    /// form with the setters, errors (with their file), dot-commands in the piped REPL and an
    /// unreadable store: each prints one JSON object, validated with Python's jsonschema against
    /// docs/schema/output.schema.json (Tests/schema/json_schema_test.py).
    func testEveryLineMatchesTheSchema() throws {
        try Kept.runDriver("Tests/schema/json_schema_test.py")
    }
}
