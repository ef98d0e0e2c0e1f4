// How a task is held in memory: small, since a store, an undo step and an import hold many.
// The details box is shared between copies until one changes it, and never shows: tasks are
// equal, and print, by their fields. Dates and times are packed, and order as their fields do.
// A store is written in pieces that are, joined, the bytes of one encoding.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class TaskLayoutTests: XCTestCase {
    func testATaskDateAndTimeStaySmall() {
        XCTAssertEqual(MemoryLayout<CivilDate>.size, 4)
        XCTAssertEqual(MemoryLayout<WallTime>.size, 2)
        XCTAssertLessThanOrEqual(MemoryLayout<Due?>.size, 8)
        // 413 bytes before the details box and the packed dates, 152 after: a new inline field
        // should be a choice, not an accident.
        XCTAssertLessThanOrEqual(MemoryLayout<Task>.stride, 160, "a Task is \(MemoryLayout<Task>.stride) bytes")
    }

    func testDetailsAreCopiedOnWriteAndEqualByValue() {
        var a = Task(id: 1, title: "A", createdAt: Instant(seconds: 0))
        let plain = a
        a.description = "why"
        a.steps = [Step(title: "one")]
        var b = a
        b.steps.append(Step(title: "two"))
        b.goal = "Fit"
        XCTAssertEqual(a.steps.map(\.title), ["one"], "changing a copy's details changed the original")
        XCTAssertNil(a.goal)
        XCTAssertEqual(b.steps.map(\.title), ["one", "two"])
        XCTAssertEqual(b.description, "why")
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, plain)
        XCTAssertNotEqual("\(a)", "\(plain)", "a task's printed form must show its details")
        // Details set and cleared again: equal to a task that never had any, and printed alike.
        a.description = nil
        a.steps = []
        XCTAssertEqual(a, plain)
        XCTAssertEqual("\(a)", "\(plain)")
        let edits: [(inout Task) -> Void] = [
            { $0.start = Due(date: CivilDate.earliest) }, { $0.area = "Work" }, { $0.notes = ["n"] },
            { $0.estimate = Estimate(minutes: 5) }, { $0.heldUntil = .earliest }, { $0.notTodayOn = .latest },
            { $0.parent = 3 }, { $0.nextOccurrence = 4 }, { $0.pristine = true },
            { $0.reminders = [Reminder(at: CivilDateTime(date: .earliest, time: .noon))] }, { $0.comments = [.string("c")] },
        ]
        for (k, edit) in edits.enumerated() {
            var t = plain
            edit(&t)
            XCTAssertNotEqual(t, plain, "detail \(k) was not kept")
            XCTAssertNotEqual("\(t)", "\(plain)", "detail \(k) does not print")
        }
    }

    func testPackedDatesAndTimesKeepTheirFieldsAndOrder() {
        var dates: [CivilDate] = []
        for y in [1, 2, 1969, 1970, 2026, 9998, 9999] {
            for m in 1...12 {
                for d in [1, 15, 28, CalendarMath.daysInMonth(year: y, month: m)] {
                    guard let c = CivilDate(year: y, month: m, day: d) else { return XCTFail("\(y)-\(m)-\(d)") }
                    XCTAssertEqual([c.year, c.month, c.day], [y, m, d])
                    XCTAssertEqual(CivilDate(dayNumber: c.dayNumber), c)
                    dates.append(c)
                }
            }
        }
        for (a, b) in zip(dates, dates.dropFirst()) {
            XCTAssertEqual(a < b, (a.year, a.month, a.day) < (b.year, b.month, b.day), "\(a) \(b)")
            XCTAssertEqual(a == b, a.dayNumber == b.dayNumber)
        }
        for m in [0, 1, 59, 60, 719, 720, 1438, 1439] {
            guard let t = WallTime(minuteOfDay: m) else { return XCTFail("\(m)") }
            XCTAssertEqual(t.minuteOfDay, m)
            XCTAssertEqual(WallTime(hour: t.hour, minute: t.minute), t)
        }
        XCTAssertNil(WallTime(minuteOfDay: 1440))
        XCTAssertNil(CivilDate(year: 10_000, month: 1, day: 1))
    }

    func testAStoreIsWrittenInPiecesThatJoinToItsBytes() throws {
        var tasks: [Task] = []
        for k in 0..<9_000 {
            var t = Task(id: k + 1, title: "Task \(k) " + String(repeating: "x", count: k % 300), createdAt: Instant(seconds: Int64(k)))
            if k % 7 == 0 { t.description = String(repeating: "long ", count: 400) }
            tasks.append(t)
        }
        let s = Store(tasks: tasks)
        let pieces = StoreCodec.encodePieces(s)
        XCTAssertGreaterThan(pieces.count, 3, "a store of several MB comes in pieces")
        XCTAssertTrue(pieces.allSatisfy { $0.count <= StoreCodec.pieceBytes + 8_192 }, "\(pieces.map(\.count).max() ?? 0)")
        let whole = StoreCodec.encode(s)
        XCTAssertEqual(Array(pieces.joined()), whole)
        let back = try StoreCodec.decode(whole).get()
        XCTAssertEqual(back.tasks, s.tasks)
    }
}
