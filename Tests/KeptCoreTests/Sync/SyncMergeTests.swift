// kept.push's merge rules one by one (docs/SYNC.md, "Merging"), on a real server: the later stamp
// wins each field, a delete wins over edits and refuses a later edit, a restore revives, a change
// id is applied once, and what the server cannot take is refused with the item as it is.
// covers: R-SYNC-3, R-SYNC-4, R-SYNC-5, R-SYNC-6, R-SYNC-10, R-SYNC-12

import Foundation
import XCTest
import KeptRules
import KeptDomain
import KeptSync

final class SyncMergeTests: XCTestCase {
    static let slot = ClusterSlot()

    override class func setUp() {
        super.setUp()
        slot.start { c in
            guard case .success = Accounts.initialize(c.conninfo(user: "postgres")) else { throw ClusterError(description: "init failed") }
            for (name, ro) in [("alice", false), ("rita", true)] {
                let made = Accounts.create(name: name, readOnly: ro, password: nil, conninfo: c.conninfo(user: "postgres"))
                guard case .success = made else { throw ClusterError(description: "create \(name): \(made)") }
            }
        }
    }

    override class func tearDown() {
        slot.stop()
        super.tearDown()
    }

    func alice() throws -> PostgresServer {
        try ok(PostgresServer.connect(try Self.slot.require().conninfo(user: "alice")))
    }

    /// The refusal of a result, or a failed test.
    func refusal(_ r: PushResult, file: StaticString = #filePath, line: UInt = #line) -> (Refusal, PulledItem?)? {
        guard case .refused(let why, let current) = r.outcome else {
            XCTFail("\(r.changeID) was applied", file: file, line: line)
            return nil
        }
        return (why, current)
    }

    // MARK: fields

    func testTheLaterStampWinsEachField() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "m1", [("title", "first"), ("notes", "n")], at: stamp(10))]))
        _ = try ok(s.push([change(.task, "m1", [("title", "second")], at: stamp(20))]))
        var item = try XCTUnwrap(try s.item(.task, "m1"))
        XCTAssertEqual(item.field("title"), "second")
        XCTAssertEqual(item.field("notes"), "n", "a field the change does not name stays")
        XCTAssertEqual(item.clocks, ["title": stamp(20), "notes": stamp(10)])
        let v = item.version

        // Older and equal stamps lose: applied, and nothing changes (not even the version).
        let older = try ok(s.push([change(.task, "m1", [("title", "older")], at: stamp(15)),
                                   change(.task, "m1", [("title", "same stamp")], at: stamp(20))]))
        XCTAssertEqual(older.map(\.outcome), [.applied, .applied])
        item = try XCTUnwrap(try s.item(.task, "m1"))
        XCTAssertEqual(item.field("title"), "second")
        XCTAssertEqual(item.version, v)

        // The counter and then the device break a tie of milliseconds.
        _ = try ok(s.push([change(.task, "m1", [("title", "counter")], at: stamp(20, counter: 1))]))
        XCTAssertEqual(try s.item(.task, "m1")?.field("title"), "counter")
        _ = try ok(s.push([change(.task, "m1", [("title", "device b")], at: stamp(20, "bbbb", counter: 1))]))
        XCTAssertEqual(try s.item(.task, "m1")?.field("title"), "device b")
    }

    func testElementKeysMergeApart() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "m2", [("tag:home", true)], at: stamp(30, "aaaa"))]))
        _ = try ok(s.push([change(.task, "m2", [("tag:work", true)], at: stamp(10, "bbbb"))]))
        _ = try ok(s.push([change(.task, "m2", [("tag:home", .null)], at: stamp(40, "bbbb"))]))
        let item = try XCTUnwrap(try s.item(.task, "m2"))
        XCTAssertEqual(item.field("tag:home"), .null, "removed later on b")
        XCTAssertEqual(item.field("tag:work"), true, "an older stamp on another key still lands")
    }

    func testAFieldWithAClockButNoValueBecomesNull() throws {
        let s = try alice()
        var c = change(.task, "m3", [("title", "x")], at: stamp(1))
        c.clocks["due"] = stamp(1)
        _ = try ok(s.push([c]))
        XCTAssertEqual(try s.item(.task, "m3")?.field("due"), .null)
    }

    // MARK: deletes and restores

    func testADeleteWinsAndALaterEditIsRefused() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "d1", [("title", "to go"), ("notes", "kept")], at: stamp(50))]))
        // Deleted at 40 on another device: earlier than the title's stamp, and still it wins.
        let del = try ok(s.push([change(.task, "d1", deleted: stamp(40, "bbbb"))]))
        XCTAssertEqual(del.map(\.outcome), [.applied])
        let gone = try XCTUnwrap(try s.item(.task, "d1"))
        XCTAssertEqual(gone.deleted, stamp(40, "bbbb"))
        XCTAssertEqual(gone.field("title"), "to go", "a tombstone keeps the fields, for a restore")

        let edit = try ok(s.push([change(.task, "d1", [("title", "edited")], at: stamp(60))]))
        let (why, current) = try XCTUnwrap(refusal(edit[0]))
        XCTAssertEqual(why, .deletedElsewhere)
        XCTAssertEqual(current?.deleted, stamp(40, "bbbb"))
        XCTAssertEqual(current?.version, gone.version)
        XCTAssertEqual(try s.item(.task, "d1")?.field("title"), "to go")

        // A second delete keeps the later stamp; an earlier one changes nothing.
        _ = try ok(s.push([change(.task, "d1", deleted: stamp(45))]))
        XCTAssertEqual(try s.item(.task, "d1")?.deleted, stamp(45))
        let v = try XCTUnwrap(try s.item(.task, "d1")).version
        _ = try ok(s.push([change(.task, "d1", deleted: stamp(41))]))
        XCTAssertEqual(try s.item(.task, "d1")?.deleted, stamp(45))
        XCTAssertEqual(try s.item(.task, "d1")?.version, v)
    }

    func testADeleteOfAnUnknownItemLeavesATombstone() throws {
        let s = try alice()
        _ = try ok(s.push([change(.project, "d2", deleted: stamp(5))]))
        let t = try XCTUnwrap(try s.item(.project, "d2"))
        XCTAssertEqual(t.deleted, stamp(5))
        XCTAssertTrue(t.fields.isEmpty)
        let edit = try ok(s.push([change(.project, "d2", [("name", "late")], at: stamp(9))]))
        XCTAssertEqual(refusal(edit[0])?.0, .deletedElsewhere)
    }

    func testARestoreLaterThanTheDeleteRevives() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "r1", [("title", "t"), ("notes", "n")], at: stamp(10))]))
        _ = try ok(s.push([change(.task, "r1", deleted: stamp(20, "bbbb"))]))
        // Restored before the delete: still refused.
        let early = try ok(s.push([change(.task, "r1", [("title", "early")], at: stamp(25), restored: stamp(15))]))
        XCTAssertEqual(refusal(early[0])?.0, .deletedElsewhere)
        // Restored after it: alive again, with its fields and the change's.
        let late = try ok(s.push([change(.task, "r1", [("title", "back")], at: stamp(30), restored: stamp(30))]))
        XCTAssertEqual(late.map(\.outcome), [.applied])
        let item = try XCTUnwrap(try s.item(.task, "r1"))
        XCTAssertNil(item.deleted)
        XCTAssertEqual(item.field("title"), "back")
        XCTAssertEqual(item.field("notes"), "n")
    }

    func testAChangeWithBothStampsIsTheLaterOne() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "r2", [("title", "t")], at: stamp(10))]))
        // Deleted and undone on one device before it pushed: an edit.
        _ = try ok(s.push([change(.task, "r2", [("title", "u")], at: stamp(13), deleted: stamp(11), restored: stamp(12))]))
        XCTAssertNil(try s.item(.task, "r2")?.deleted)
        XCTAssertEqual(try s.item(.task, "r2")?.field("title"), "u")
        // Restored, then deleted again: a delete.
        _ = try ok(s.push([change(.task, "r2", deleted: stamp(15), restored: stamp(14))]))
        XCTAssertEqual(try s.item(.task, "r2")?.deleted, stamp(15))
    }

    // MARK: once only

    func testAChangeIDIsAppliedOnce() throws {
        let s = try alice()
        let c = change(.task, "o1", [("title", "once")], id: "change-o1", at: stamp(10))
        let first = try ok(s.push([c]))
        XCTAssertEqual(first, [PushResult(changeID: "change-o1", outcome: .applied, duplicate: false)])
        let v = try ok(s.version())
        // Sent again (an answer lost on the way), alone and twice in one push.
        let again = try ok(s.push([c, c]))
        XCTAssertEqual(again, [PushResult(changeID: "change-o1", outcome: .applied, duplicate: true),
                               PushResult(changeID: "change-o1", outcome: .applied, duplicate: true)])
        XCTAssertEqual(try ok(s.version()), v)
        // The id names the change: the same id with other content is still the first change.
        var other = c
        other.values["title"] = "twice"
        other.clocks["title"] = stamp(99)
        XCTAssertEqual(try ok(s.push([other]))[0].duplicate, true)
        XCTAssertEqual(try s.item(.task, "o1")?.field("title"), "once")
        XCTAssertEqual(try ok(s.version()), v)
    }

    func testARefusalIsRepeatedWithTheItemAsItIsNow() throws {
        let s = try alice()
        _ = try ok(s.push([change(.task, "o2", [("title", "t")], at: stamp(10))]))
        _ = try ok(s.push([change(.task, "o2", deleted: stamp(20))]))
        let edit = change(.task, "o2", [("title", "late")], at: stamp(30))
        XCTAssertEqual(refusal(try ok(s.push([edit]))[0])?.1?.deleted, stamp(20))
        _ = try ok(s.push([change(.task, "o2", deleted: stamp(25))]))
        let again = try ok(s.push([edit]))[0]
        XCTAssertTrue(again.duplicate)
        XCTAssertEqual(refusal(again)?.1?.deleted, stamp(25))
    }

    // MARK: versions and pulls

    func testEachChangedRowTakesTheNextVersion() throws {
        let s = try alice()
        let v0 = try ok(s.version())
        _ = try ok(s.push([change(.task, "v1", [("title", "a")], at: stamp(1)),
                           change(.task, "v2", [("title", "b")], at: stamp(1)),
                           change(.task, "v1", [("title", "old")], at: stamp(0)),
                           change(.area, "v3", [("name", "c")], at: stamp(1))]))
        XCTAssertEqual(try ok(s.version()), v0 + 3)
        let pulled = try s.all(after: v0)
        XCTAssertEqual(pulled.map(\.version), [v0 + 1, v0 + 2, v0 + 3])
        XCTAssertEqual(pulled.map(\.key), [SyncKey(.task, "v1"), SyncKey(.task, "v2"), SyncKey(.area, "v3")])
    }

    func testPullPagesInVersionOrder() throws {
        let s = try alice()
        let v0 = try ok(s.version())
        _ = try ok(s.push((0..<25).map { change(.task, "p\($0)", [("title", .string("item \($0)"))], at: stamp(1)) }))
        var cursor = v0
        var pages: [[PulledItem]] = []
        while true {
            let page = try ok(s.pull(after: cursor, limit: 10))
            if page.isEmpty { break }
            pages.append(page)
            cursor = try XCTUnwrap(page.last).version
        }
        XCTAssertEqual(pages.map(\.count), [10, 10, 5])
        let all = pages.flatMap { $0 }
        XCTAssertEqual(all.map(\.version), Array((v0 + 1)...(v0 + 25)))
        XCTAssertEqual(all.map(\.key.id), (0..<25).map { "p\($0)" })
        XCTAssertEqual(try ok(s.pull(after: cursor, limit: 10)), [])
        XCTAssertEqual(try ok(s.pull(after: v0, limit: 0)), [])
        // A changed item moves to the end.
        _ = try ok(s.push([change(.task, "p3", [("title", "again")], at: stamp(2))]))
        XCTAssertEqual(try ok(s.pull(after: cursor, limit: 10)).map(\.key.id), ["p3"])
    }

    func testTwoDevicesPushingAtOnceGetDistinctVersions() throws {
        let c = try Self.slot.require()
        let a = try alice(), b = try ok(PostgresServer.connect(c.conninfo(user: "alice")))
        let v0 = try ok(a.version())
        nonisolated(unsafe) let servers = [a, b]
        nonisolated(unsafe) var failures: [String] = []
        let lock = NSLock()
        DispatchQueue.concurrentPerform(iterations: 2) { k in
            for n in 0..<20 {
                let r = servers[k].push([change(.task, "c\(k)-\(n)", [("title", "x")], at: stamp(1))])
                if case .failure(let e) = r { lock.lock(); failures.append("\(e)"); lock.unlock() }
            }
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(try a.all(after: v0).map(\.version), Array((v0 + 1)...(v0 + 40)))
    }

    // MARK: refusals

    func testAValueLargerThanTheLimitIsRefused() throws {
        let c = try Self.slot.require()
        let s = try alice()
        try c.superuserSQL("UPDATE kept.meta SET max_field_bytes = 100")
        defer { _ = try? c.superuserSQL("UPDATE kept.meta SET max_field_bytes = 65536") }
        // A string's JSON text is its quotes and its bytes: 98 letters are 100 bytes.
        let fits = String(repeating: "x", count: 98)
        let over = String(repeating: "x", count: 99)
        _ = try ok(s.push([change(.task, "big", [("title", "small")], at: stamp(1))]))
        let r = try ok(s.push([change(.task, "big", [("notes", .string(fits))], at: stamp(2)),
                               change(.task, "big", [("title", "ok"), ("zebra", .string(over))], at: stamp(3))]))
        XCTAssertEqual(r[0].outcome, .applied)
        let (why, current) = try XCTUnwrap(refusal(r[1]))
        XCTAssertEqual(why, .tooLarge(field: "zebra", limit: 100))
        XCTAssertEqual(current?.field("title"), "small", "nothing of a refused change lands")
        // Multi-byte characters count in bytes: 50 × 2 bytes + quotes.
        let wide = String(repeating: "é", count: 50)
        let w = try ok(s.push([change(.task, "big", [("notes", .string(wide))], at: stamp(4))]))
        XCTAssertEqual(refusal(w[0])?.0, .tooLarge(field: "notes", limit: 100))
    }

    func testAReadOnlyAccountIsRefused() throws {
        let c = try Self.slot.require()
        let rita = try ok(PostgresServer.connect(c.conninfo(user: "rita")))
        let v0 = try ok(rita.version())
        let r = try ok(rita.push([change(.task, "ro", [("title", "no")], at: stamp(1)), change(.task, "ro2", deleted: stamp(1))]))
        XCTAssertEqual(r.map { refusal($0)?.0 }, [.readOnly, .readOnly])
        XCTAssertEqual(r.map(\.duplicate), [false, false])
        XCTAssertEqual(try ok(rita.version()), v0)
        XCTAssertEqual(try rita.all(), [])
        XCTAssertEqual(try c.superuserSQL("SELECT count(*) FROM kept.pushes WHERE account = 'rita'"), "0\n", "a reader's refusals are not kept")
    }

    func testAChangeThatDoesNotReadIsRefused() throws {
        let c = try Self.slot.require()
        let s = try alice()
        // What OutgoingChange cannot say, said through the function itself.
        let pg = try ok(PGConnection.connect(c.conninfo(user: "alice")))
        let ok1 = #""fields": {}, "clocks": {}, "deleted": null, "restored": null"#
        let cases: [(String, String)] = [
            (#"{"id": "i1", "kind": "widget", "key": "k", \#(ok1)}"#, "unknown kind \"widget\""),
            (#"{"id": "i2", "kind": "task", "key": "", \#(ok1)}"#, "the key is empty"),
            (#"{"id": "i3", "kind": "task", "key": "k", "fields": {"title": "x"}, "clocks": {"title": "yesterday"}}"#, "the clock of \"title\" is not a clock: \"yesterday\""),
            (#"{"id": "i4", "kind": "task", "key": "k", "fields": {"title": "x"}, "clocks": {}}"#, "the field \"title\" has no clock"),
            (#"{"id": "i5", "kind": "task", "key": "k", "fields": [], "clocks": {}}"#, "fields is not an object"),
            (#"{"id": "i6", "kind": "task", "key": "k", "fields": {}, "clocks": {}, "deleted": "1780000000000-0000-AAAA"}"#, "deleted is not a clock: \"1780000000000-0000-AAAA\""),
            (#"{"id": "i7", "kind": "task", "key": "k", "fields": {}, "clocks": {"t": "1780000000000-00000-aa"}}"#, "the clock of \"t\" is not a clock: \"1780000000000-00000-aa\""),
            (#"{"kind": "task", "key": "k", \#(ok1)}"#, "the change has no id"),
            (#""just a string""#, "a change is not an object"),
        ]
        let v0 = try ok(s.version())
        let body = "[" + cases.map(\.0).joined(separator: ",") + "]"
        let text = try XCTUnwrap(try ok(pg.exec("SELECT kept.push($1::jsonb)::text", params: [body])).scalar)
        let answers = try XCTUnwrap(try JSONParser.parse(text).arrayValue)
        XCTAssertEqual(answers.count, cases.count)
        for (a, (_, detail)) in zip(answers, cases) {
            XCTAssertEqual(a["outcome"], "refused")
            XCTAssertEqual(a["reason"], "invalid")
            XCTAssertEqual(a["detail"]?.stringValue, detail)
        }
        XCTAssertEqual(try ok(s.version()), v0)
        // Through the seam: an empty key.
        let r = try ok(s.push([change(.task, "", [("title", "x")], at: stamp(1))]))
        XCTAssertEqual(refusal(r[0])?.0, .invalid("the key is empty"))
        // And a push that is not an array fails whole.
        XCTAssertEqual(try failure(pg.exec("SELECT kept.push('{}')")).sqlstate, "22023")
    }

    func testANULIsRefusedHereAndTheRestGoes() throws {
        let s = try alice()
        let r = try ok(s.push([change(.task, "nul", [("title", "a\u{0}b")], at: stamp(1)),
                               change(.task, "nul2", [("title", "fine")], at: stamp(1))]))
        guard case .invalid = refusal(r[0])?.0 else { return XCTFail("\(r[0])") }
        XCTAssertEqual(r[1].outcome, .applied)
        XCTAssertNil(try s.item(.task, "nul"))
    }

    // MARK: text

    func testHostileTextTravelsIntact() throws {
        let s = try alice()
        let titles: [String] = [
            #"it's "quoted" and \backslashed\ and \\double"#,
            "'); DROP TABLE kept.items; --",
            "$1 $$ $body$ %s %I %L ::jsonb",
            "ünïcödé · 日本語 · עברית · 👩‍👩‍👧 · e\u{301}",
            "line\nbreak\ttab\u{1}control",
            #"{"not": "an object"}"#,
            "\u{FEFF}bom and \u{2028} separator",
        ]
        let key = "'); DROP TABLE kept.items; -- \"k\""
        let changes = titles.enumerated().map { k, t in
            change(.task, "\(key)\(k)", [("title", .string(t)), ("field '\"\\\(k)", .string(t))], at: stamp(1), label: t)
        }
        XCTAssertEqual(try ok(s.push(changes)).map(\.outcome), Array(repeating: .applied, count: titles.count))
        for (k, t) in titles.enumerated() {
            let item = try XCTUnwrap(try s.item(.task, "\(key)\(k)"))
            XCTAssertEqual(item.field("title")?.stringValue, t)
            XCTAssertEqual(item.field("field '\"\\\(k)")?.stringValue, t)
        }
        let numbers = try ok(s.push([change(.task, "numbers", [("n", .number(JSONNumber(-12))), ("list", .array([1, "two", .null, false]))], at: stamp(1))]))
        XCTAssertEqual(numbers[0].outcome, .applied)
        let item = try XCTUnwrap(try s.item(.task, "numbers"))
        XCTAssertEqual(item.field("n"), .number(JSONNumber(-12)))
        XCTAssertEqual(item.field("list"), .array([1, "two", .null, false]))
    }
}
