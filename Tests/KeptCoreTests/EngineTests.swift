// The domain API on its own, with no statement parsed: the rules of repeats, undo, bulk actions
// and plan holds as the engine enforces them, the typed errors it returns, and the one change
// path every mutation takes (docs/ARCHITECTURE.md).
// covers: R-HOME-4, R-REP-2, R-REP-3, R-REP-4, R-REP-6, R-TASK-1, R-TASK-3, R-TASK-5, R-TASK-7, R-PLAN-5, R-PLAN-6

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

/// A backend over another that can watch each change and act before each commit (tests that
/// record the change path, or let another writer in just before a commit).
final class WatchedBackend: StoreBackend {
    let inner: any StoreBackend
    var changes: [StoreChange] = []
    var beforeCommit: () -> Void = {}
    init(_ inner: any StoreBackend) { self.inner = inner }
    convenience init(_ s: Store = Store()) { self.init(JSONStore(memory: s)) }

    var location: String? { inner.location }
    var settings: Settings { inner.settings }
    var projects: [Project] { inner.projects }
    var areas: [Area] { inner.areas }
    var filters: [SavedFilter] { inner.filters }
    var plan: PlanSnapshot? { inner.plan }
    var calendars: [CalendarConnection] { inner.calendars }
    var nextID: Int { inner.nextID }
    var history: Journal { inner.history }
    var taskCount: Int { inner.taskCount }
    func task(_ id: Int) -> Task? { inner.task(id) }
    func task(uid: TaskUID) -> Task? { inner.task(uid: uid) }
    func task(atRow k: Int) -> Task? { inner.task(atRow: k) }
    func tasks(_ query: TaskQuery) -> [Task] { inner.tasks(query) }
    func columns(dayStart: WallTime, withText: Bool, withSearch: Bool) -> TaskIndex {
        inner.columns(dayStart: dayStart, withText: withText, withSearch: withSearch)
    }
    func tombstone(uid: TaskUID) -> Tombstone? { inner.tombstone(uid: uid) }
    var tombstones: [Tombstone] { inner.tombstones }
    var sync: SyncState { inner.sync }
    func task(record: JSONObject) -> Task? { inner.task(record: record) }
    func count(_ expr: FilterExpr, _ fc: FilterContext) -> (matched: Int, total: Int)? { inner.count(expr, fc) }
    func snapshot() -> Store { inner.snapshot() }
    func copyInMemory() -> any StoreBackend { inner.copyInMemory() }
    func prepareToWrite() -> Result<Void, StoreError> { inner.prepareToWrite() }
    func apply(_ change: StoreChange) {
        changes.append(change)
        inner.apply(change)
    }
    var hasPending: Bool { inner.hasPending }
    func commit() -> Result<Void, StoreError> {
        beforeCommit()
        return inner.commit()
    }
    func rollback() { inner.rollback() }
    func changedElsewhere() -> Bool { inner.changedElsewhere() }
    func reload() -> Result<Void, StoreError> { inner.reload() }
}

final class EngineTests: XCTestCase {
    let berlin = Zone(identifier: "Europe/Berlin") ?? .utc

    func engine(at iso: String = "2026-01-31T09:00", _ backend: any StoreBackend = JSONStore(memory: Store())) -> Engine {
        Engine(store: backend, clock: .wall(CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)),
               defaultZone: berlin, uids: .seeded(7))
    }

    func at(_ e: Engine, _ iso: String) {
        e.clock = .wall(CivilDateTime(iso: iso) ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight))
    }

    func draft(_ title: String, due: String? = nil, every rule: RepeatRule? = nil) -> TaskDraft {
        var d = TaskDraft(title: title)
        d.due = due.flatMap { CivilDate(iso: $0) }.map { Due(date: $0) }
        d.repeatRule = rule
        return d
    }

    func done<R>(_ o: Outcome<R>, file: StaticString = #filePath, line: UInt = #line) -> R? {
        guard case .done(let r) = o else {
            XCTFail("expected a change, got \(o)", file: file, line: line)
            return nil
        }
        return r
    }

    /// R-HOME-4: `edit` changes several fields and the tags of one task as one undoable step;
    /// an error in any value takes back the whole edit.
    func testEditIsOneStep() throws {
        let e = engine()
        let t = try e.add(draft("Buy milk", due: "2026-02-01"))
        _ = try e.tag(.task(t.id), ["shop"], add: true)
        let steps = e.store.history.undoStack.count
        let edited = try XCTUnwrap(done(try e.edit(t.id, [.title("Buy oat milk"), .priority(.high)], addTags: ["errand"], removeTags: ["shop"])))
        XCTAssertEqual(edited.title, "Buy oat milk")
        XCTAssertEqual(edited.priority, .high)
        XCTAssertEqual(edited.tags, ["errand"])
        XCTAssertEqual(edited.due, t.due, "a field not given is not touched")
        XCTAssertEqual(e.store.history.undoStack.count, steps + 1, "one step")
        _ = try e.undo(1)
        let back = try XCTUnwrap(e.task(t.id))
        XCTAssertEqual(back.title, "Buy milk")
        XCTAssertEqual(back.priority, .none)
        XCTAssertEqual(back.tags, ["shop"])
        // An error in the second value leaves the first unapplied.
        XCTAssertThrowsError(try e.edit(t.id, [.title("Other"), .project("Nowhere")]))
        XCTAssertEqual(e.task(t.id)?.title, "Buy milk")
        XCTAssertEqual(e.store.history.undoStack.count, steps, "nothing recorded")
        XCTAssertThrowsError(try e.edit(t.id, [.title("")]))
        guard case .unchanged = try e.edit(t.id, [.title("Buy milk")]) else { return XCTFail("the same value changes nothing") }
    }

    /// R-REP-2, R-REP-3, R-REP-4, R-REP-6: a monthly repeat on the 31st completes into the
    /// next occurrence; a late completion lands on the first date still ahead; completing
    /// twice is refused; undo right away takes the made occurrence back.
    func testCompletingARepeat() throws {
        let e = engine()
        var rule = RepeatRule(frequency: .monthly)
        rule.monthDay = .day(31)
        let t = try e.add(draft("Pay rent", due: "2026-01-31", every: rule))
        let c = try XCTUnwrap(done(try e.complete(.task(t.id))))
        XCTAssertEqual(c.task.status, .done)
        XCTAssertEqual(c.next?.due?.date.iso, "2026-02-28", "R-REP-4: the last day of a shorter month")
        XCTAssertNotEqual(c.next?.uid, t.uid, "an occurrence is a task of its own")
        XCTAssertEqual(c.next?.pristine, true)
        XCTAssertThrowsError(try e.complete(.task(t.id))) { XCTAssertEqual($0 as? DomainError, .wrongState(.alreadyCompleted(t.id))) }
        // R-REP-4: back to the 31st after February; R-REP-3: completed in May, the March and
        // April dates are not piled up.
        at(e, "2026-05-20T09:00")
        let second = try XCTUnwrap(c.next)
        let c2 = try XCTUnwrap(done(try e.complete(.task(second.id))))
        XCTAssertEqual(c2.next?.due?.date.iso, "2026-05-31")
        // R-REP-6: undo right away takes the made occurrence back too.
        let undone = try e.undo(1)
        XCTAssertEqual(undone.map(\.summary), ["complete \(second.id) · Pay rent"])
        XCTAssertNil(e.task(c2.next?.id ?? 0))
        XCTAssertEqual(e.task(second.id)?.status, .open)
        XCTAssertEqual(e.store.tasks(.all).count, 2)
    }

    /// R-TASK-3: a deleted parent goes with its subtasks; undo brings them back under new ids,
    /// with the same uids, the subtask under its parent's new id; tombstones come and go.
    func testUndoOfDelete() throws {
        let e = engine()
        let p = try e.add(draft("Plan the trip"))
        let s = try e.add(draft("Book flights"), parent: p.id)
        let d = try XCTUnwrap(done(try e.delete(.task(p.id))))
        XCTAssertEqual(d.subtasks.map(\.id), [s.id])
        XCTAssertNil(e.task(p.id))
        XCTAssertNotNil(e.store.tombstone(uid: p.uid))
        XCTAssertNotNil(e.store.tombstone(uid: s.uid))
        let u = try XCTUnwrap(e.undo(1).first)
        XCTAssertEqual(u.restored.count, 2)
        let back = e.store.tasks(.all)
        let parent = try XCTUnwrap(back.first { $0.uid == p.uid })
        let child = try XCTUnwrap(back.first { $0.uid == s.uid })
        XCTAssertNotEqual(parent.id, p.id, "a restored task gets a new id")
        XCTAssertEqual(child.parent, parent.id)
        XCTAssertNil(e.store.tombstone(uid: p.uid))
        XCTAssertNil(e.store.tombstone(uid: s.uid))
        XCTAssertEqual(e.store.task(uid: p.uid)?.id, parent.id, "found by uid under its new id")
        // Redo deletes the restored tasks (by their new ids) and remembers them again.
        _ = try e.redo(1)
        XCTAssertTrue(e.store.tasks(.all).isEmpty)
        XCTAssertNil(e.store.task(uid: p.uid))
        XCTAssertNotNil(e.store.tombstone(uid: p.uid))
        XCTAssertThrowsError(try e.redo(1)) { XCTAssertEqual($0 as? DomainError, .nothingToRedo) }
    }

    /// R-TASK-5: a bulk action is one step; a task it cannot apply to is skipped with its typed
    /// reason; undo takes back the whole step.
    func testBulkAction() throws {
        let e = engine()
        let a = try e.add(draft("A")), b = try e.add(draft("B")), c = try e.add(draft("C"))
        _ = try e.complete(.task(b.id))
        guard case .bulk(let bulk) = try e.complete(.tasks([a.id, b.id, c.id], label: "where status:any")) else { return XCTFail("not a bulk") }
        XCTAssertEqual(bulk.done.map(\.task.id), [a.id, c.id])
        XCTAssertEqual(bulk.skipped.map(\.task.id), [b.id])
        XCTAssertEqual(bulk.skipped.first?.error, .wrongState(.alreadyCompleted(b.id)))
        XCTAssertEqual(e.store.history.undoStack.last?.summary, "complete where status:any · 2 tasks")
        _ = try e.undo(1)
        XCTAssertEqual([a, b, c].map { e.task($0.id)?.status }, [.open, .done, .open])
        guard case .bulk(let none) = try e.complete(.tasks([], label: "where #nothing")) else { return XCTFail("not a bulk") }
        XCTAssertTrue(none.empty)
    }

    /// R-PLAN-6, R-PLAN-5: Not today holds a task until the next day; a second within a week
    /// holds it seven days; `back` ends a hold and takes a free seat of Top 3. A pick held
    /// leaves its seat in the same step.
    func testPlanHolds() throws {
        let e = engine(at: "2026-06-15T09:00")
        let t = try e.add(draft("Call the dentist", due: "2026-06-15"))
        let picks = e.top3().snapshot.top3
        XCTAssertEqual(picks, [t.id])
        let (o, top3) = try e.notToday(.task(t.id))
        let h = try XCTUnwrap(done(o))
        XCTAssertEqual(h.until.iso, "2026-06-16")
        XCTAssertFalse(h.long)
        XCTAssertEqual(top3?.snapshot.top3, [], "the held pick left Top 3")
        XCTAssertEqual(h.task.due?.date.iso, "2026-06-15", "Not today never moves the due date")
        at(e, "2026-06-17T09:00")
        let h2 = try XCTUnwrap(done(try e.notToday(.task(t.id)).outcome))
        XCTAssertTrue(h2.long)
        XCTAssertEqual(h2.until.iso, "2026-06-24")
        let b = try e.back(t.id)
        XCTAssertTrue(b.endedHold)
        XCTAssertTrue(b.picked)
        XCTAssertEqual(b.view.snapshot.top3, [t.id])
        XCTAssertThrowsError(try e.notToday(.task(99))) { XCTAssertEqual($0 as? DomainError, .noTask(99)) }
    }

    /// Typed errors leave the store as it was; errors never see a source range.
    func testErrorsAreTypedAndChangeNothing() throws {
        let e = engine()
        let t = try e.add(draft("A"))
        let before = e.store.snapshot()
        XCTAssertThrowsError(try e.set(.project("Nowhere"), on: .task(t.id))) {
            XCTAssertEqual($0 as? DomainError, .unknownProject("Nowhere", known: []))
        }
        XCTAssertThrowsError(try e.set(.parent(t.id), on: .task(t.id))) { XCTAssertEqual($0 as? DomainError, .parentCycle(child: t.id, parent: t.id)) }
        XCTAssertThrowsError(try e.set(.title(""), on: .task(t.id))) { XCTAssertEqual($0 as? DomainError, .emptyTitle) }
        XCTAssertThrowsError(try e.set(.status("done"), on: .task(t.id))) { XCTAssertEqual($0 as? DomainError, .statusDone) }
        XCTAssertThrowsError(try e.move(.task(t.id), to: .overdue)) { XCTAssertEqual($0 as? DomainError, .cannotMove(.intoOverdue)) }
        XCTAssertEqual(StoreCodec.encode(e.store.snapshot()), StoreCodec.encode(before), "a refused change leaves the store as it was")
        XCTAssertEqual(e.store.history.undoStack.count, 1, "and leaves no step")
    }

    /// Every change goes through the backend's `apply`: the plan snapshot, ids, tombstones,
    /// undo's renumbering and the history itself, as well as the user's data.
    func testEveryChangeGoesThroughOnePath() throws {
        let rec = WatchedBackend()
        let e = engine(at: "2026-06-15T09:00", rec)
        let t = try e.add(draft("A", due: "2026-06-15"))
        XCTAssertTrue(rec.changes.contains { if case .nextID = $0 { return true }; return false })
        XCTAssertTrue(rec.changes.contains { if case .history(.record) = $0 { return true }; return false })
        rec.changes = []
        _ = e.top3()
        XCTAssertTrue(rec.changes.contains { if case .item(.plan) = $0 { return true }; return false }, "the plan snapshot")
        _ = try e.delete(.task(t.id))
        XCTAssertTrue(rec.changes.contains { if case .tombstone = $0 { return true }; return false })
        rec.changes = []
        _ = try e.undo(1)
        XCTAssertTrue(rec.changes.contains { if case .history(.renumber) = $0 { return true }; return false }, "undo's renumbering")
        XCTAssertTrue(rec.changes.contains { if case .untombstone = $0 { return true }; return false })
        XCTAssertTrue(rec.changes.contains { if case .history(.pushRedo) = $0 { return true }; return false })
        // The backend's store is exactly what the changes made: replaying them on a fresh store
        // gives the same content.
        var replay = Store()
        let all = WatchedBackend()
        let e2 = engine(at: "2026-06-15T09:00", all)
        _ = try e2.add(draft("B"))
        _ = try e2.complete(.task(1))
        _ = try e2.undo(1)
        for c in all.changes { replay.apply(c) }
        XCTAssertEqual(StoreCodec.encode(replay), StoreCodec.encode(all.snapshot()))
    }

    /// R-TASK-7: reminders the undo of a completion brings back are Past due when their time
    /// passed meanwhile, and that flag is a change through the backend too.
    func testUndoRestoresRemindersThroughTheChangePath() throws {
        let rec = WatchedBackend()
        let e = engine(at: "2026-06-15T09:00", rec)
        let t = try e.add(draft("Call", due: "2026-06-15"))
        _ = try e.remind(.task(t.id), at: .at(Due(date: try XCTUnwrap(CivilDate(iso: "2026-06-15")), time: WallTime(hour: 10, minute: 0))))
        _ = try e.complete(.task(t.id))
        at(e, "2026-06-15T11:00")
        rec.changes = []
        _ = try e.undo(1)
        XCTAssertEqual(e.task(t.id)?.reminders.first?.pastDue, true)
        let flags = rec.changes.filter { if case .item(.task(_, let a?)) = $0 { return a.reminders.first?.pastDue == true }; return false }
        XCTAssertFalse(flags.isEmpty)
    }

    /// Identity: a task keeps its uid through every edit; every change stamps modifiedAt.
    func testUIDsAndModifiedAt() throws {
        let e = engine(at: "2026-06-15T09:00")
        let t = try e.add(draft("A"))
        XCTAssertEqual(t.modifiedAt, t.createdAt)
        at(e, "2026-06-15T10:30")
        let a = try XCTUnwrap(done(try e.set(.priority(.high), on: .task(t.id))))
        XCTAssertEqual(a.uid, t.uid)
        XCTAssertEqual(a.modifiedAt, e.now)
        XCTAssertGreaterThan(a.modifiedAt, t.createdAt)
        // Seeded sources repeat; the system's do not.
        var x = UIDSource.seeded(1), y = UIDSource.seeded(1), r = UIDSource.random
        XCTAssertEqual(x.next(), y.next())
        XCTAssertNotEqual(r.next(), r.next())
        let u = r.next()
        XCTAssertEqual(TaskUID(u.description), u)
        XCTAssertEqual(Array(u.description)[14], "4", "version 4")
        XCTAssertTrue("89ab".contains(Array(u.description)[19]), "variant 1")
        XCTAssertEqual(u.description, u.description.lowercased())
    }

    /// Tombstones are bounded: the oldest go first.
    func testTombstonesAreBounded() {
        var s = Store()
        for k in 0..<(Tombstone.limit + 5) {
            s.apply(.tombstone(Tombstone(uid: TaskUID(hi: UInt64(k), lo: 0), deletedAt: Instant(seconds: Int64(k)))))
        }
        XCTAssertLessThanOrEqual(s.tombstones.count, Tombstone.limit + Tombstone.limit / 10, "memory trims a batch at a time")
        guard case .success(let back) = StoreCodec.decode(StoreCodec.encode(s)) else { return XCTFail("round trip") }
        XCTAssertEqual(back.tombstones.count, Tombstone.limit, "the store keeps the newest")
        XCTAssertEqual(back.tombstones.first?.uid, TaskUID(hi: 5, lo: 0))
        XCTAssertEqual(back.tombstones, Array(s.tombstones.suffix(Tombstone.limit)))
        for k in 0..<(Tombstone.limit / 10 + 10) {
            s.apply(.tombstone(Tombstone(uid: TaskUID(hi: UInt64(100_000 + k), lo: 0), deletedAt: Instant(seconds: Int64(100_000 + k)))))
        }
        XCTAssertLessThanOrEqual(s.tombstones.count, Tombstone.limit + Tombstone.limit / 10)
    }
}
