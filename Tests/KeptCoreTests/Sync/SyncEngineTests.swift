// Sync on the domain API (docs/SYNC.md): stores held in memory, linked to one account on the
// in-memory server (MemoryServer), each at its own injected clock. The rules are tested here
// on the engine, and again through PostgreSQL and `kept` in the server and CLI tests.
// covers: R-SYNC-1, R-SYNC-2, R-SYNC-3, R-SYNC-4, R-SYNC-5, R-SYNC-6, R-SYNC-7, R-REP-10

import XCTest
@testable import KeptRules
@testable import KeptDomain
@testable import KeptStore

final class SyncEngineTests: XCTestCase {
    let zone = Zone(identifier: "Europe/Berlin") ?? .utc
    /// 2026-03-02 09:00 UTC.
    let base: Int64 = 1_772_442_000

    /// A store linked to the server's account, its clock at `base + offset` seconds.
    func device(_ server: MemoryServer, _ node: String, offset: Int64 = 0, seed: UInt64 = 1) throws -> Engine {
        let e = Engine(store: JSONStore(memory: Store()), clock: .instant(Instant(seconds: base + offset)), defaultZone: zone, uids: .seeded(seed))
        try e.link(SyncLink(server: "host=test", account: "alice", device: node))
        XCTAssertNoThrow(try e.sync(with: server))
        return e
    }

    /// Moves a device's clock on by `s` seconds.
    func later(_ e: Engine, _ s: Int64 = 60) {
        if case .instant(let i) = e.clock { e.clock = .instant(i.adding(seconds: s)) }
    }

    func draft(_ title: String, tags: [String] = [], due: String? = nil, every rule: RepeatRule? = nil) -> TaskDraft {
        var d = TaskDraft(title: title)
        d.tags = tags
        d.due = due.flatMap { CivilDate(iso: $0) }.map { Due(date: $0) }
        d.repeatRule = rule
        return d
    }

    @discardableResult
    func sync(_ e: Engine, _ s: MemoryServer, file: StaticString = #filePath, line: UInt = #line) throws -> SyncReport {
        let r = try e.sync(with: s)
        XCTAssertNoThrow(try e.commit().get(), file: file, line: line)
        return r
    }

    func task(_ e: Engine, _ title: String) -> Task? { e.store.tasks(.all).first { $0.title == title } }

    func uid(_ e: Engine, _ title: String) -> TaskUID? { task(e, title)?.uid }

    /// The occurrence a completion made.
    func made(_ o: Outcome<Engine.Completion>) -> Task? {
        if case .done(let c) = o { return c.next }
        return nil
    }

    // R-SYNC-1: a change goes to the server and on to another device; ids stay local.
    func testAChangeTravelsAndIdsStayLocal() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let b = try device(s, "bbbb000000000002", seed: 2)
        _ = try b.add(draft("Only on B"))
        _ = try a.add(draft("Call the dentist", tags: ["phone", "home"], due: "2026-03-05"))
        try sync(a, s)
        try sync(b, s)
        let t = try XCTUnwrap(task(b, "Call the dentist"))
        XCTAssertEqual(t.tags, ["phone", "home"])
        XCTAssertEqual(t.due, Due(date: CivilDate(iso: "2026-03-05") ?? CivilDate(dayNumber: 0)))
        XCTAssertEqual(t.id, 2, "an incoming task takes the next local id")
        XCTAssertEqual(t.uid, uid(a, "Call the dentist"))
    }

    // R-SYNC-2: many edits of one task fold into one entry that sends the final fields.
    func testEditsFoldIntoOneEntry() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Draft"))
        for n in 1...5 {
            later(a)
            _ = try a.set(.title("Draft \(n)"), on: .task(t.id))
        }
        XCTAssertEqual(a.store.sync.outbox.count, 1)
        let r = try sync(a, s)
        XCTAssertEqual(r.sent, 1)
        XCTAssertEqual(s.living(.task)[t.uid.description]?["title"], .string("Draft 5"))
        XCTAssertTrue(a.store.sync.outbox.isEmpty)
    }

    // R-SYNC-3: the later edit wins per field; different fields both stay.
    func testLaterEditWinsPerField() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        _ = try a.add(draft("Pay rent"))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        let ta = try XCTUnwrap(task(a, "Pay rent"))
        let tb = try XCTUnwrap(task(b, "Pay rent"))
        later(a, 10)
        later(b, 20)
        _ = try a.set(.priority(.high), on: .task(ta.id))
        _ = try a.set(.title("Pay the rent"), on: .task(ta.id))
        _ = try b.set(.title("Pay rent now"), on: .task(tb.id))
        try sync(b, s)
        try sync(a, s)
        try sync(b, s)
        for e in [a, b] {
            let t = try XCTUnwrap(e.store.task(uid: ta.uid))
            XCTAssertEqual(t.title, "Pay rent now", "B's edit is later")
            XCTAssertEqual(t.priority, .high, "A's edit of another field stays")
        }
    }

    // R-SYNC-3: a device whose clock runs ahead wins until the others have seen its change.
    func testAFastClockCannotWinForever() throws {
        let s = MemoryServer()
        let fast = try device(s, "ffff000000000001", offset: 3600)
        _ = try fast.add(draft("Water plants"))
        try sync(fast, s)
        let slow = try device(s, "0000000000000002", seed: 2)
        let t = try XCTUnwrap(task(slow, "Water plants"))
        later(slow, 5)
        _ = try slow.set(.title("Water the plants"), on: .task(t.id))
        try sync(slow, s)
        try sync(fast, s)
        XCTAssertEqual(task(fast, "Water the plants")?.uid, t.uid, "the slow device edited after it saw the fast one's change")
    }

    // A stamp reads back as it was written; the byte reader of the canonical form reads what
    // the general reader reads, and leaves every other text to it.
    func testStampsReadAsWritten() {
        for h in [HLC(millis: 0, counter: 0, node: "0"), HLC(millis: 1_772_442_000_000, counter: 0xbeef, node: "3f2a9c0d1e2b4a5c"),
                  HLC(millis: HLC.maxMillis, counter: HLC.maxCounter, node: String(repeating: "f", count: 32))] {
            XCTAssertEqual(HLC.canonical(h.description), h)
            XCTAssertEqual(HLC(h.description), h)
        }
        let texts = ["1772442000000-0000-3f2a9c0d1e2b4a5c", "1772442000000-00a0-0", "1772442000000-ABCD-3f2a", "1772442000000-+fff-3f2a",
                     "1772442000000-0000-", "1772442000000-0000-3F2A", "1772442000000-0000-3f2a-1", "177244200000-0000-3f2a",
                     "17724420000000-0000-3f2a", "1772442000000-000-3f2a", "1772442000000-00000-3f2a", "177244200000a-0000-3f2a",
                     "1772442000000-0000-" + String(repeating: "a", count: 33), "1772442000000-0g00-3f2a", "1772442000000_0000_3f2a",
                     "１772442000000-0000-3f2a", "1772442000000-0000-3f2é", "", "-", "--"]
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABG-+ é")
        var all = texts
        for _ in 0..<2_000 {
            var t = Array(texts[0])
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let k = Int.random(in: 0..<t.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: t[k] = alphabet.randomElement(using: &rng) ?? "0"
                case 1: t.remove(at: k)
                default: t.insert(alphabet.randomElement(using: &rng) ?? "0", at: k)
                }
            }
            all.append(String(t))
        }
        for t in all {
            let general = HLC.general(t)
            if let c = HLC.canonical(t) { XCTAssertEqual(c, general, t) }
            XCTAssertEqual(HLC(t), general, t)
            if let g = general, g.description == t { XCTAssertNotNil(HLC.canonical(t), t) }
        }
        // The text form: 13 digits, 4 hex digits, the node; wider when a stamp was set past them.
        func padded(_ h: HLC) -> String {
            let ms = String(h.millis), c = String(h.counter, radix: 16)
            return String(repeating: "0", count: max(0, 13 - ms.count)) + ms + "-" + String(repeating: "0", count: max(0, 4 - c.count)) + c + "-" + h.node
        }
        for _ in 0..<2_000 {
            let h = HLC(millis: Int64.random(in: 0...HLC.maxMillis, using: &rng) >> Int64.random(in: 0...40, using: &rng),
                        counter: Int.random(in: 0...HLC.maxCounter, using: &rng) >> Int.random(in: 0...16, using: &rng),
                        node: String(UInt64.random(in: 0...UInt64.max, using: &rng), radix: 16))
            XCTAssertEqual(h.description, padded(h))
            XCTAssertEqual(HLC(h.description), h)
        }
        var wide = HLC(millis: 1, counter: 1, node: "ab")
        wide.millis = 12_345_678_901_234_567
        wide.counter = 0x12345
        XCTAssertEqual(wide.description, "12345678901234567-12345-ab")
        XCTAssertNil(HLC.canonical("1772442000000-ABCD-3f2a"))
        XCTAssertNotNil(HLC("1772442000000-ABCD-3f2a"), "the general reader still takes what it took")
    }

    // R-SYNC-4: tags merge per element.
    func testTagsMergePerElement() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Groceries", tags: ["shop"]))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(task(b, "Groceries"))
        _ = try a.tag(.task(t.id), ["a"], add: true)
        _ = try b.tag(.task(tb.id), ["b"], add: true)
        _ = try b.tag(.task(tb.id), ["shop"], add: false)
        try sync(a, s)
        try sync(b, s)
        try sync(a, s)
        XCTAssertEqual(Set(task(a, "Groceries")?.tags ?? []), ["a", "b"])
        XCTAssertEqual(Set(task(b, "Groceries")?.tags ?? []), ["a", "b"])
    }

    // R-SYNC-5: an edit of a task deleted on another device is refused and kept for review;
    // the store takes the delete; retry brings the task back everywhere.
    func testEditOfDeletedIsRefusedAndRetried() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Renew passport", tags: ["admin"]))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(task(b, "Renew passport"))
        _ = try a.delete(.task(t.id))
        try sync(a, s)
        later(b)
        _ = try b.set(.title("Renew passport soon"), on: .task(tb.id))
        let r = try sync(b, s)
        XCTAssertEqual(r.refused.map(\.refusal), [.deletedElsewhere])
        XCTAssertNil(b.store.task(uid: t.uid), "the store takes the server's delete")
        XCTAssertEqual(b.store.sync.review.count, 1)
        XCTAssertEqual(b.store.sync.review.first?.change.label, "Renew passport soon")
        _ = try b.retryRefused(1)
        XCTAssertTrue(b.store.sync.review.isEmpty)
        try sync(b, s)
        try sync(a, s)
        for e in [a, b] {
            let back = try XCTUnwrap(e.store.task(uid: t.uid))
            XCTAssertEqual(back.title, "Renew passport soon")
            XCTAssertEqual(back.tags, ["admin"], "the whole task comes back")
        }
    }

    // R-SYNC-5: discard drops a refused change; the store keeps the server's version.
    func testDiscardDropsTheRefusal() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Old"))
        try sync(a, s)
        s.maxFieldBytes = 30
        later(a)
        _ = try a.set(.title("A title far longer than thirty bytes"), on: .task(t.id))
        let r = try sync(a, s)
        XCTAssertEqual(r.refused.map(\.refusal), [.tooLarge(field: "title", limit: 30)])
        XCTAssertEqual(a.store.task(uid: t.uid)?.title, "Old", "the store holds what the account holds")
        XCTAssertThrowsError(try a.discardRefused(2))
        _ = try a.discardRefused(1)
        XCTAssertTrue(a.store.sync.review.isEmpty)
    }

    // R-SYNC-5: a refused change never holds back the changes queued after it.
    func testARefusalDoesNotBlockOthers() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        s.maxFieldBytes = 40
        _ = try a.add(draft(String(repeating: "x", count: 60)))
        _ = try a.add(draft("Short"))
        let r = try sync(a, s)
        XCTAssertEqual(r.refused.count, 1)
        XCTAssertEqual(r.sent, 1)
        XCTAssertNotNil(s.living(.task)[uid(a, "Short")?.description ?? ""])
        XCTAssertNotNil(task(a, String(repeating: "x", count: 60)), "a task the server never took is not taken as deleted")
    }

    // R-SYNC-6: an outage is not a refusal: the outbox stays, and the next sync sends it.
    func testOfflineKeepsTheQueue() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        _ = try a.add(draft("One"))
        _ = try a.add(draft("Two"))
        s.offline = true
        XCTAssertThrowsError(try a.sync(with: s)) { e in
            guard case SyncProblem.failed(.offline, let waiting) = e else { return XCTFail("\(e)") }
            XCTAssertEqual(waiting, 2)
        }
        XCTAssertEqual(a.store.sync.outbox.count, 2)
        XCTAssertTrue(a.store.sync.review.isEmpty)
        s.offline = false
        XCTAssertEqual(try sync(a, s).sent, 2)
    }

    // R-SYNC-6: a push whose answer is lost is recognised when sent again.
    func testLostAnswerIsNotAppliedTwice() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        _ = try a.add(draft("Once"))
        s.loseAnswers = true
        XCTAssertThrowsError(try a.sync(with: s))
        let v = s.latest
        s.loseAnswers = false
        let r = try sync(a, s)
        XCTAssertEqual(r.sent, 1)
        XCTAssertEqual(s.latest, v, "the resent change was recognised, not applied again")
        XCTAssertEqual(s.living(.task).count, 1)
    }

    // R-SYNC-7, R-REP-10: two devices complete one repeating task offline: one next occurrence.
    func testRepeatsDoNotDuplicate() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Take out bins", due: "2026-03-02", every: RepeatRule(frequency: .weekly)))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        later(a)
        later(b, 90)
        _ = try a.complete(.task(t.id))
        _ = try b.complete(.task(tb.id))
        try sync(a, s)
        try sync(b, s)
        try sync(a, s)
        for e in [a, b] {
            let open = e.store.tasks(.all).filter { $0.title == "Take out bins" && $0.isOpen }
            XCTAssertEqual(open.count, 1, "one next occurrence")
            XCTAssertEqual(open.first?.due?.date.iso, "2026-03-09")
        }
        XCTAssertEqual(s.living(.task).count, 2)
    }

    /// Device A with a task repeating daily from 2026-03-02, synced (R-SYNC-7's tests).
    func dailySeries(_ s: MemoryServer, _ title: String) throws -> (Engine, Task) {
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft(title, due: "2026-03-02", every: RepeatRule(frequency: .daily)))
        try sync(a, s)
        return (a, t)
    }

    // R-SYNC-7: a device that completes an occurrence late makes the next one another device
    // already made, completed and followed: its copy does not reopen it (found by
    // ConvergenceTests, seed 439142: the later make won every field, so the occurrence was
    // open again beside the one after it).
    func testALateMakeDoesNotReopenACompletedOccurrence() throws {
        let s = MemoryServer()
        let (a, t) = try dailySeries(s, "Water plants")
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        // A completes the occurrence and the one it made, and syncs.
        later(a)
        let n1 = try XCTUnwrap(made(a.complete(.task(t.id))))
        later(a)
        _ = try a.complete(.task(n1.id))
        try sync(a, s)
        // B, offline all along, completes the first occurrence an hour later by its clock.
        later(b, 3600)
        let made = try XCTUnwrap(made(b.complete(.task(tb.id))))
        XCTAssertEqual(made.uid, n1.uid, "the same occurrence, by its derived uid")
        try sync(b, s)
        try sync(a, s)
        for e in [a, b] {
            let all = e.store.tasks(.all).filter { $0.title == "Water plants" }
            XCTAssertEqual(all.filter(\.isOpen).map { $0.due?.date.iso ?? "" }, ["2026-03-04"], "one open occurrence, the third")
            let second = try XCTUnwrap(e.store.task(uid: n1.uid))
            XCTAssertEqual(second.status, .done, "the second stays completed")
            XCTAssertNotNil(second.completedAt)
        }
        XCTAssertTrue(b.store.sync.review.isEmpty, "a made occurrence is no change of the user's to review")
    }

    // R-SYNC-7: an occurrence deleted on one device stays deleted when another device makes it
    // again by completing the one before it late; nothing goes to review.
    func testALateMakeDoesNotBringBackADeletedOccurrence() throws {
        let s = MemoryServer()
        let (a, t) = try dailySeries(s, "Stretch")
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        later(a)
        let n1 = try XCTUnwrap(made(a.complete(.task(t.id))))
        later(a)
        _ = try a.delete(.task(n1.id))
        try sync(a, s)
        later(b, 3600)
        _ = try b.complete(.task(tb.id))
        try sync(b, s)
        XCTAssertNil(b.store.task(uid: n1.uid), "the deletion holds")
        XCTAssertTrue(b.store.sync.review.isEmpty)
        XCTAssertTrue(b.store.sync.outbox.isEmpty)
    }

    // R-SYNC-7: the same device completing, undoing and completing again brings its own
    // occurrence back, synced or not.
    func testARedoneCompletionMakesItsOccurrenceAgain() throws {
        let s = MemoryServer()
        let (a, t) = try dailySeries(s, "Read")
        later(a)
        let n1 = try XCTUnwrap(made(a.complete(.task(t.id))))
        try sync(a, s)
        later(a)
        _ = try a.undo(1)
        try sync(a, s)
        later(a)
        let again = try XCTUnwrap(made(a.complete(.task(t.id))))
        try sync(a, s)
        XCTAssertNotNil(a.store.task(uid: again.uid))
        XCTAssertTrue(a.store.sync.review.isEmpty)
        XCTAssertEqual(s.living(.task).count, 2, "the completed one and its next, \(n1.uid) or a fresh uid")
    }

    // R-SYNC-1: undo is a change like any other, and an undone delete comes back everywhere.
    func testUndoOfADeleteSyncs() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Keep me"))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        _ = try a.delete(.task(t.id))
        try sync(a, s)
        try sync(b, s)
        XCTAssertNil(b.store.task(uid: t.uid))
        later(a)
        _ = try a.undo(1)
        try sync(a, s)
        try sync(b, s)
        XCTAssertEqual(b.store.task(uid: t.uid)?.title, "Keep me")
        XCTAssertTrue(a.store.sync.review.isEmpty)
    }

    // R-SYNC-1: a new device takes the account's settings and filters over its defaults.
    func testANewDeviceTakesTheAccountsSettings() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        _ = try a.set(setting: "day-start", to: "05:30")
        _ = try a.renameFilter("Overdue", to: "Late")
        _ = try a.defineFilter("Errands", "#errand")
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        try sync(b, s)
        XCTAssertEqual(b.settings.value(of: "day-start"), "05:30")
        XCTAssertEqual(b.store.filters.map(\.name), a.store.filters.map(\.name))
        XCTAssertTrue(b.store.sync.review.isEmpty)
    }

    // R-SYNC-1: a rename keeps the project one item; two devices' filters are both kept.
    func testRenameDoesNotForkAndFiltersMerge() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        _ = try a.addProject("Home")
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        later(a)
        _ = try a.renameProject("Home", to: "House")
        _ = try a.defineFilter("Mine A", "#a")
        _ = try b.defineFilter("Mine B", "#b")
        try sync(a, s)
        try sync(b, s)
        try sync(a, s)
        XCTAssertEqual(b.store.projects.map(\.name), ["House"])
        XCTAssertEqual(s.living(.project).count, 1)
        for e in [a, b] {
            XCTAssertTrue(e.store.filters.contains { $0.name == "Mine A" })
            XCTAssertTrue(e.store.filters.contains { $0.name == "Mine B" })
        }
    }

    // R-SYNC-2: a change and its outbox entry go together: a rollback drops both.
    func testRollbackDropsTheEntry() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        XCTAssertNoThrow(try a.commit().get())
        _ = try a.add(draft("Never kept"))
        XCTAssertEqual(a.store.sync.outbox.count, 1)
        a.rollback()
        XCTAssertTrue(a.store.sync.outbox.isEmpty)
    }

    // R-SYNC-1: undo takes back the step's own fields, not another device's change since.
    func testUndoKeepsAnotherDevicesEdit() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Book flights", tags: ["trip"]))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        later(a)
        _ = try a.set(.title("Book the flights"), on: .task(t.id))
        _ = try a.tag(.task(t.id), ["travel"], add: true)
        try sync(a, s)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        later(b, 120)
        _ = try b.set(.priority(.high), on: .task(tb.id))
        _ = try b.tag(.task(tb.id), ["urgent"], add: true)
        try sync(b, s)
        try sync(a, s)
        later(a, 300)
        _ = try a.undo(1)
        try sync(a, s)
        try sync(b, s)
        for e in [a, b] {
            let x = try XCTUnwrap(e.store.task(uid: t.uid))
            XCTAssertEqual(x.title, "Book the flights", "the tag step was undone, not the title")
            XCTAssertEqual(x.priority, .high, "B's edit stays")
            XCTAssertEqual(Set(x.tags), ["trip", "urgent"])
        }
    }

    // R-SYNC-1: an edit queued before a delete goes with the delete, so undoing the delete
    // brings the task back with it, on every device.
    func testAnEditBeforeADeleteSurvivesItsUndo() throws {
        let s = MemoryServer()
        let a = try device(s, "aaaa000000000001")
        let t = try a.add(draft("Plan the party"))
        _ = try a.set(.priority(.medium), on: .task(t.id))
        try sync(a, s)
        let b = try device(s, "bbbb000000000002", seed: 2)
        let tb = try XCTUnwrap(b.store.task(uid: t.uid))
        later(b, 600)
        _ = try b.set(.priority(.none), on: .task(tb.id))
        _ = try b.delete(.task(tb.id))
        try sync(b, s)
        later(b, 60)
        _ = try b.undo(1)
        try sync(b, s)
        try sync(a, s)
        for e in [a, b] { XCTAssertEqual(e.store.task(uid: t.uid)?.priority, Priority.none, "B's edit before its delete stays") }
    }
}
