// Sync in the language (docs/SYNC.md, "Using sync"): `account link`, `sync`, `sync status`,
// `sync review`, `sync retry`, `sync discard` and `account`, run through Session as every front
// end runs them, each session a device on one in-memory account (MemoryConnector).
// covers: R-SYNC-1, R-SYNC-2, R-SYNC-5, R-SYNC-6, R-SYNC-8, R-SYNC-9

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class SyncStatementTests: XCTestCase, SessionTesting {
    let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    static let server = "host=test user=alice"

    /// A device: a session over a store in memory that commits after each statement, as the REPL.
    func device(_ c: MemoryConnector?, seed: UInt64 = 1, commits: CommitPolicy = .eachStatement) -> Session {
        let at = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)
        let e = Engine(store: JSONStore(memory: Store()), clock: .wall(at), defaultZone: zone, uids: .seeded(seed))
        let s = Session(engine: e, commits: commits)
        s.syncConnector = c
        return s
    }

    /// A device linked to the account, its first sync done.
    func linked(_ c: MemoryConnector, seed: UInt64) throws -> Session {
        let s = device(c, seed: seed)
        let r = run(s, "account link \"\(Self.server)\"")
        XCTAssertFalse(r.failed, r.diagnostics.map(\.message).joined())
        return s
    }

    func later(_ s: Session, minutes: Int) {
        if case .wall(let w) = s.clock { s.clock = .wall(w.adding(minutes: minutes)) }
    }

    func device(of s: Session) -> String { s.store.sync.link?.device ?? "" }

    // R-SYNC-1: linking sends what the store holds; status and account show the link.
    func testLinkSendsTheStoreAndStatusShowsIt() throws {
        let c = MemoryConnector()
        let a = device(c)
        run(a, "add Call the dentist #phone")
        let r = run(a, "account link \"\(Self.server)\"")
        XCTAssertEqual(r.diagnostics.map(\.message), [])
        let dev = device(of: a)
        XCTAssertEqual(dev.count, 16)
        let sent = c.server(Self.server).rows.count
        XCTAssertEqual(r.lines, ["Linked this store to alice on host=test user=alice as device \(dev).",
                                 "Synced with alice: sent \(sent), received 0."])
        XCTAssertNotNil(c.server(Self.server).living(.task).values.first { $0["title"] == .string("Call the dentist") })
        XCTAssertEqual(lines(a, "sync status"), [
            "Linked to alice", "  server   host=test user=alice", "  device   \(dev)", "  waiting  0 changes", "  refused  0 changes",
            "  version  \(c.server(Self.server).latest)",
        ])
        XCTAssertEqual(lines(a, "account"), ["Linked to alice on host=test user=alice as device \(dev)"])
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 0, received 0."])
    }

    // R-SYNC-1: another device takes the task under its own id; its edit comes back.
    func testAnotherDeviceTakesTheChanges() throws {
        let c = MemoryConnector()
        let a = try linked(c, seed: 1)
        let b = device(c, seed: 2)
        run(b, "add Only on B")
        run(a, "add Pay rent @tomorrow")
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 1, received 0."])
        let r = run(b, "account link \"\(Self.server)\"")
        XCTAssertEqual(r.diagnostics.map(\.message), [])
        XCTAssertEqual(lines(b, "show 2 title"), ["Pay rent"], "the task came under B's next id")
        later(b, minutes: 5)
        run(b, "set 2 priority high")
        XCTAssertEqual(lines(b, "sync"), ["Synced with alice: sent 1, received 0."])
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 0, received 2."])
        XCTAssertEqual(lines(a, "show 1 priority"), ["high", Session.refreshedNote])
        XCTAssertEqual(lines(a, "show 2 title"), ["Only on B"])
    }

    // R-SYNC-8: a statement naming a task another device changed says so, once.
    func testARefreshedTaskSaysSoOnce() throws {
        let c = MemoryConnector()
        let a = try linked(c, seed: 1)
        run(a, "add Water the plants")
        run(a, "add Feed the cat")
        run(a, "sync")
        let b = try linked(c, seed: 2)
        later(b, minutes: 5)
        // B's first pull took the task edited last first: its ids are 1 Feed, 2 Water.
        XCTAssertEqual(lines(b, "show 1 title"), ["Feed the cat"])
        run(b, "set 2 title Water the plants twice")
        run(b, "sync")
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 0, received 1."])
        XCTAssertEqual(lines(a, "show 2 title"), ["Feed the cat"], "another task says nothing")
        XCTAssertEqual(lines(a, "list"), lines(a, "list"), "a list names no task")
        XCTAssertEqual(lines(a, "complete 1"), ["Completed 1 · Water the plants twice", Session.refreshedNote])
        XCTAssertEqual(lines(a, "reopen 1"), ["Reopened 1 · Water the plants twice"], "once")
        // A failed statement does not use the note up.
        later(b, minutes: 10)
        run(b, "sync")
        run(b, "set 1 title Feed the cat at six")
        run(b, "sync")
        run(a, "sync")
        XCTAssertTrue(run(a, "step 2 check 9").failed)
        XCTAssertEqual(lines(a, "show 2 title"), ["Feed the cat at six", Session.refreshedNote])
    }

    // R-SYNC-5: an edit of a task deleted on another device is refused and kept for review,
    // numbered oldest first; retry brings it back; discard drops one; a wrong number says how
    // many there are.
    func testRefusedChangesAreReviewedRetriedAndDiscarded() throws {
        let c = MemoryConnector()
        let a = try linked(c, seed: 1)
        run(a, "add Renew passport #admin")
        run(a, "sync")
        let b = try linked(c, seed: 2)
        run(a, "delete 1")
        run(a, "sync")
        later(b, minutes: 5)
        run(b, "set 1 title Renew passport soon")
        XCTAssertEqual(lines(b, "sync"), ["Synced with alice: sent 0, received 1.", "1 change refused (see sync review)."])
        XCTAssertEqual(lines(b, "sync review"), [
            "1 refused change, oldest first ('sync retry N' sends one again, 'sync discard N' drops it):",
            "  1  task Renew passport soon · title · deleted on another device · Today 9:05 AM",
        ])
        XCTAssertEqual(lines(b, "sync retry 2"), ["! E0341 no refused change 2: there is 1"])
        XCTAssertEqual(lines(b, "sync retry 1"), ["Retried refused change 1 · task Renew passport soon · it goes with the next sync"])
        XCTAssertEqual(lines(b, "sync review"), ["No refused changes"])
        XCTAssertEqual(lines(b, "sync"), ["Synced with alice: sent 1, received 0."])
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 0, received 1."])
        XCTAssertTrue(a.store.tasks.contains { $0.title == "Renew passport soon" && $0.tags == ["admin"] })

        c.server(Self.server).maxFieldBytes = 30
        later(a, minutes: 10)
        run(a, "add A title far longer than thirty bytes")
        XCTAssertEqual(lines(a, "sync").last, "1 change refused (see sync review).")
        XCTAssertEqual(lines(a, "sync review").last,
                       "  1  task A title far longer than thirty bytes · the whole item · a value past the server's limit of 30 bytes (title) · Today 9:10 AM")
        XCTAssertEqual(lines(a, "sync discard 1"), ["Discarded refused change 1 · task A title far longer than thirty bytes"])
        XCTAssertEqual(lines(a, "sync discard 1"), ["! E0341 no refused change 1: there are none"])
    }

    // R-SYNC-6: offline is an error with the changes waiting, and the store is as it was; the
    // next sync sends them.
    func testOfflineKeepsTheOutbox() throws {
        let c = MemoryConnector()
        let a = try linked(c, seed: 1)
        run(a, "add One")
        run(a, "add Two")
        let before = a.store.sync
        c.server(Self.server).offline = true
        let r = run(a, "sync")
        XCTAssertEqual(r.diagnostics.map(\.code), [.E0342])
        XCTAssertEqual(r.diagnostics.first?.message, "offline, 2 changes waiting: the sync server could not be reached (connection refused)")
        XCTAssertEqual(r.syncOffline, 2)
        XCTAssertEqual(a.store.sync, before)
        XCTAssertFalse(a.store.hasPending)
        c.server(Self.server).offline = false
        XCTAssertEqual(lines(a, "sync"), ["Synced with alice: sent 2, received 0."])
        XCTAssertEqual(lines(a, "sync status")[3], "  waiting  0 changes")
    }

    // R-SYNC-2: the link commits like any change, before its first sync: a sync that fails
    // after it leaves the store linked, with everything in its outbox.
    func testTheLinkStaysWhenItsFirstSyncFails() throws {
        let c = MemoryConnector()
        c.dropAfterConnect = true
        let a = device(c)
        run(a, "add Call mom")
        let r = run(a, "account link \"\(Self.server)\"")
        XCTAssertEqual(r.diagnostics.map(\.code), [.E0342])
        XCTAssertEqual(r.lines.count, 1)
        XCTAssertTrue(r.lines[0].hasPrefix("Linked this store to alice on host=test user=alice as device "), r.lines[0])
        XCTAssertFalse(a.store.hasPending)
        XCTAssertNotNil(a.store.sync.link)
        XCTAssertEqual(a.store.sync.outbox.count, a.engine.syncStatus.waiting)
        XCTAssertGreaterThan(a.store.sync.outbox.count, 0)
        c.dropAfterConnect = false
        c.server(Self.server).offline = false
        XCTAssertEqual(lines(a, "sync").count, 1)
        XCTAssertEqual(c.server(Self.server).living(.task).count, 1)
    }

    // R-SYNC-9: a password given to `account link` is never printed, kept in the store, shown
    // in a diagnostic (rich or short) or in the statement's source.
    func testAPasswordIsNeverShownOrKept() throws {
        let c = MemoryConnector()
        let a = device(c)
        let secret = "hunter2"
        let given = "host=test user=alice password=\(secret)"
        var shown: [String] = []
        func look(_ text: String) {
            let src = StatementSource(file: SourceFile(name: "t", text: text))
            let r = a.run(src)
            shown += r.lines
            for d in r.diagnostics {
                shown += [DiagnosticRenderer(style: .rich).render(d), DiagnosticRenderer(style: .short).render(d), d.message]
                shown += d.notes + [d.help ?? "", d.label ?? ""]
                if let f = d.file { shown.append(String(decoding: f.bytes, as: UTF8.self)) }
            }
            shown.append(Parser.masked(src).text)
            shown.append(String(decoding: Parser.masked(src).file.bytes, as: UTF8.self))
        }
        look("account link \"\(given)\" \(secret)")
        look("account link \(given)")
        look("account link \"\(given)")
        look("account link \"\(given) ???\"")
        c.server(Self.server).offline = true
        look("account link \"\(given)\"")
        c.server(Self.server).offline = false
        look("account link \"\(given)\"")
        look("account link \"\(given)\"")
        look("account link \"postgresql://alice:\(secret)@test/kept\"")
        look("sync status")
        look("account")
        a.format = .json
        look("sync status")
        look("account link \"\(given)\"")
        XCTAssertEqual(a.store.sync.link?.server, "host=test user=alice")
        XCTAssertTrue(c.asked.contains(given), "the connection was made with the password")
        let stored = String(decoding: StoreCodec.encode(a.store.snapshot()), as: UTF8.self)
        for text in shown + [stored, "\(a.store.sync)"] {
            XCTAssertFalse(text.contains(secret), text)
        }
        XCTAssertEqual(Parser.masked(StatementSource(file: SourceFile(name: "t", text: "account link \"a b=\\\"c\""))).text,
                       "account link \"* **\\\"*\"")
        XCTAssertEqual(Parser.masked(StatementSource(file: SourceFile(name: "t", text: "list"))).text, "list")
    }

    /// Sync without a connector, without a link, linked twice, a string that does not read, a
    /// number that is no refused change.
    func testErrorsAreCoded() throws {
        let none = device(nil)
        XCTAssertEqual(lines(none, "sync"), ["! E0338 sync is not available here"])
        XCTAssertEqual(lines(none, "account link \"\""), ["! E0338 sync is not available here"])
        XCTAssertEqual(lines(none, "sync status"), [Session.notLinked])
        XCTAssertEqual(lines(none, "sync review"), ["No refused changes"])
        XCTAssertEqual(lines(none, "account"), [Session.notLinked])
        XCTAssertEqual(lines(none, "sync retry 1"), ["! E0339 this store is linked to no account"])
        XCTAssertEqual(lines(none, "sync discard 1"), ["! E0341 no refused change 1: there are none"])
        let c = MemoryConnector()
        let a = device(c)
        XCTAssertEqual(lines(a, "sync"), ["! E0339 this store is linked to no account"])
        XCTAssertEqual(lines(a, "account link \"host=test oops\""), ["! E0348 the connection string does not read as a libpq connection string or URI"])
        XCTAssertFalse(run(a, "account link \"\(Self.server)\"").failed)
        XCTAssertEqual(lines(a, "account link \"host=other\""), ["! E0340 this store is linked to the account 'alice' already"])
        XCTAssertEqual(c.asked, [Self.server], "a linked store reaches no server to be told so")
        XCTAssertEqual(lines(a, "sync retry 0"), ["! E0102 expected the number of a refused change after 'sync retry'"])
        XCTAssertEqual(lines(a, "sync frob"), ["! E0104 unknown subcommand 'frob' of 'sync'"])
        XCTAssertEqual(lines(a, "account unlink"), ["! E0104 unknown subcommand 'unlink' of 'account'"])
        XCTAssertEqual(lines(a, "sync status now"), ["! E0103 unexpected 'now' after a complete 'sync status' statement"])
    }

    /// Every way a server can fail has its code and words; only offline leaves no note (its
    /// message says what waits), and without a store nothing is said to wait.
    func testEveryFailureHasItsCode() {
        let cases: [(SyncFailure, DiagnosticCode, String)] = [
            (.offline("timeout"), .E0342, "offline, 1 change waiting: the sync server could not be reached (timeout)"),
            (.login("password authentication failed"), .E0343, "the sync server refused the login: password authentication failed"),
            (.schema("no kept schema"), .E0344, "the sync server has no kept schema this version can use: no kept schema"),
            (.noAccount("alice"), .E0345, "the sync server has no such account: alice"),
            (.server("disk full (53100)"), .E0346, "the sync server refused: disk full (53100)"),
            (.badRow("task 42"), .E0347, "the sync server sent an item this version cannot read: task 42"),
        ]
        for (f, code, message) in cases {
            let d = Catalog.sync(.failed(f, waiting: 1), range: nil, file: nil)
            XCTAssertEqual(d.code, code)
            XCTAssertEqual(d.message, message)
            XCTAssertEqual(d.notes, code == .E0342 ? [] : ["1 change waiting; the store is as it was"], "\(code)")
            XCTAssertEqual(Catalog.syncFailure(f, waiting: nil, range: nil, file: nil).notes, [])
        }
        XCTAssertEqual(Catalog.syncFailure(.offline("down"), waiting: nil, range: nil, file: nil).message,
                       "offline: the sync server could not be reached (down)")
    }

    /// The JSON of each statement: one object, of the shapes docs/OUTPUT.md lists.
    func testJSONShapes() throws {
        let c = MemoryConnector()
        let a = device(c)
        a.format = .json
        XCTAssertEqual(lines(a, "account"), [#"{"account":null,"server":null,"device":null}"#])
        XCTAssertEqual(lines(a, "sync status"),
                       [#"{"linked":false,"account":null,"server":null,"device":null,"waiting":0,"refused":0,"version":0}"#])
        let linked = try XCTUnwrap(lines(a, "account link \"\(Self.server)\"").first)
        let dev = device(of: a)
        let v = c.server(Self.server).latest
        let sent = c.server(Self.server).rows.count
        XCTAssertEqual(linked, #"{"linked":{"account":"alice","server":"host=test user=alice","device":"\#(dev)"},"#
                       + #""sync":{"sent":\#(sent),"received":0,"refused":[],"version":\#(v),"refreshed":[]}}"#)
        XCTAssertEqual(lines(a, "account"), [#"{"account":"alice","server":"host=test user=alice","device":"\#(dev)"}"#])
        XCTAssertEqual(lines(a, "sync status"),
                       [#"{"linked":true,"account":"alice","server":"host=test user=alice","device":"\#(dev)","waiting":0,"refused":0,"version":\#(v)}"#])
        c.server(Self.server).maxFieldBytes = 40
        run(a, "add A title far longer than forty bytes, surely")
        let uid = try XCTUnwrap(a.store.tasks.first?.uid.description)
        let item = #"{"number":1,"kind":"task","key":"\#(uid)","label":"A title far longer than forty bytes, surely","#
            + #""fields":["createdAt","status","title"],"deleted":false,"reason":"too-large","#
            + #""message":"a value past the server's limit of 40 bytes (title)","#
            + #""refusedAt":"2026-06-15T09:00:00+02:00"}"#
        XCTAssertEqual(lines(a, "sync"), [#"{"sent":0,"received":0,"refused":[\#(item)],"version":\#(v),"refreshed":[]}"#])
        XCTAssertEqual(lines(a, "sync review"), [#"{"review":[\#(item)]}"#])
        XCTAssertEqual(lines(a, "sync discard 1"), [#"{"discarded":\#(item)}"#])
        c.server(Self.server).offline = true
        let off = run(a, "sync")
        XCTAssertEqual(off.diagnostics.map(\.code), [.E0342])
        XCTAssertEqual(off.syncOffline, 0)
    }
}
