// The record fast path (StoreCodec+FastRecord) may only ever skip the general reader: a record
// it reads must read the same through `readTask`, and a record it declines must be left to
// `readTask`, which makes every error. These tests hold it to that on hand-made records, on
// every record of a written store, and on many byte-level mutations of real records.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

final class FastRecordTests: XCTestCase {
    /// Everything `readTask` reads into a record, as one line to compare.
    func dump(_ t: TaskRecord, _ r: JSONReader) -> String {
        func s(_ ref: JSONStringRef?) -> String { ref.map { "\($0.start)-\($0.end)\($0.escaped ? "e" : ""):\(r.string($0))" } ?? "nil" }
        func due(_ d: Due?) -> String { d.map { "\($0.date.iso) \($0.time?.iso ?? "-")" } ?? "nil" }
        return [
            "id \(t.id) \(t.hasID)", "title \(s(t.title)) \(t.hasTitle)", "status \(s(t.status))",
            "due \(due(t.due))", "start \(due(t.startDue))", "priority \(t.priority.rawValue)",
            "project \(s(t.project))", "area \(s(t.area))", "tags \(t.tags.map { s($0) })", "notes \(t.notes.map { s($0) })",
            "description \(s(t.description))", "goal \(s(t.goal))",
            "repeat \(t.hasRepeat) \(t.hasRepeat ? s(t.repeatText) : "") \(s(t.repeatRRULE)) \(t.repeatAnchor?.iso ?? "nil")",
            "repeat extras \(t.repeatExtras.map { "\($0)" } ?? "nil")",
            "estimate \(t.estimate.map { "\($0.minutes) \($0.source)" } ?? "nil")",
            "held \(t.heldUntil?.iso ?? "nil")", "notToday \(t.notTodayOn?.iso ?? "nil")",
            "completed \(t.completedAt?.seconds ?? -1)", "created \(t.createdAt.seconds)",
            "parent \(t.parent ?? -1)", "next \(t.nextOccurrence ?? -1)", "pristine \(t.pristine)",
            "steps \(t.steps.count)", "reminders \(t.reminders.map { "\($0.at.iso) \($0.pastDue)" })",
        ].joined(separator: " | ")
    }

    enum Outcome: Equatable {
        case fast(String)
        case general(String)
        case refused(String)
    }

    /// Reads the record at the start of `text` both ways; fails the test when the fast path
    /// accepts what the general reader reads otherwise or refuses.
    @discardableResult
    func check(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        check(Array(text.utf8), file: file, line: line)
    }

    @discardableResult
    func check(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Outcome {
        var r = JSONReader(bytes: bytes, from: 0)
        var general = TaskRecord()
        var generalEnd = -1
        var failure: String? = nil
        do throws(JSONError) {
            try StoreCodec.readTask(&r, into: &general, keep: false)
            generalEnd = r.offset
        } catch {
            failure = "\(error.offset): \(error.message)"
        }
        var fast = TaskRecord()
        let fastEnd = bytes.withUnsafeBufferPointer { StoreCodec.readTaskFast($0, 0, into: &fast) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let fastEnd else { return failure.map { .refused($0) } ?? .general(dump(general, r)) }
        guard failure == nil else {
            XCTFail("the fast path read a record the general reader refuses (\(failure ?? "")): \(text)", file: file, line: line)
            return .refused(failure ?? "")
        }
        XCTAssertEqual(fastEnd, generalEnd, "where the record ends: \(text)", file: file, line: line)
        XCTAssertEqual(dump(fast, r), dump(general, r), text, file: file, line: line)
        return .fast(dump(fast, r))
    }

    func isFast(_ o: Outcome) -> Bool {
        if case .fast = o { return true }
        return false
    }

    func testTheShapeKeptWritesIsReadFast() {
        let records = [
            #"{"id":1,"title":"Pay rent","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":2,"title":"Organize","status":"open","due":{"date":"2026-08-14","time":null},"project":"Home","createdAt":"2025-08-17T01:34:27Z"}"#,
            #"{"id":3,"title":"Merge","status":"done","priority":"high","project":"Work","tags":["a","b"],"estimate":{"minutes":20,"source":"user"},"completedAt":"2026-06-01T06:52:35Z","createdAt":"2026-01-05T16:25:38Z"}"#,
            #"{"id":14,"title":"Check","status":"open","due":{"date":"2026-08-31","time":"15:30"},"priority":"medium","repeat":{"text":"every month on the 31st","rrule":"FREQ=MONTHLY;BYMONTHDAY=-1","anchor":"2026-01-31"},"createdAt":"2025-12-22T22:09:53Z"}"#,
            #"{"id":5,"title":"Ünïcode 😀 title","status":"waiting","area":"Home Life","notes":["Plan"],"description":"Línea","goal":"Fit","start":{"date":"2026-06-01","time":null},"heldUntil":"2026-06-20","notTodayOn":"2026-06-15","parent":4,"nextOccurrence":0,"pristine":true,"priority":"critical","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":6,"title":"Nulls","status":"open","project":null,"area":null,"description":null,"goal":null,"due":null,"start":null,"repeat":null,"estimate":null,"heldUntil":null,"notTodayOn":null,"completedAt":null,"parent":null,"nextOccurrence":null,"pristine":false,"priority":"none","tags":[],"notes":[],"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":7,"title":"Suggested","status":"open","priority":"low","estimate":{"source":"suggested","minutes":0},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":9007199254740,"title":"Big id","status":"open","createdAt":"2025-08-23T18:21:04+02:00"}"#,
        ]
        for text in records {
            let o = check(text)
            XCTAssertTrue(isFast(o), "expected the fast path: \(text) (\(o))")
        }
    }

    func testOtherShapesAreLeftToTheGeneralReader() {
        // Each is a good record the fast path declines; the general reader reads it.
        let records = [
            #"{ "id": 1, "title": "Spaces", "status": "open", "createdAt": "2025-08-23T18:21:04Z" }"#,
            #"{"id":1,"title":"Say \"hi\"","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Tab","st\u0061tus":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Word","status":"open","priority":"urgent","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Unknown","status":"open","syncedFrom":"phone","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Steps","status":"open","steps":[{"title":"a","done":true}],"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Reminders","status":"open","reminders":[{"at":"2026-06-15T09:00"}],"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Comments","status":"open","comments":[],"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Parent","status":"open","parent":-3,"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Estimate","status":"open","estimate":{"minutes":5,"note":"x"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Source","status":"open","estimate":{"minutes":5,"source":7},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Due","status":"open","due":{"date":"2026-06-15","zone":"UTC"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Rule","status":"open","repeat":{"text":"every day","rrule":null,"extra":1},"createdAt":"2025-08-23T18:21:04Z"}"#,
            // A repeat's week start, anchor time, EXDATE and RDATE (issue 16) are the general reader's.
            #"{"id":1,"title":"Week","status":"open","repeat":{"text":"every 2 weeks after completion","anchor":"2026-06-15","wkst":"SU"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Hourly","status":"open","repeat":{"text":"Every 3 hours","rrule":"FREQ=HOURLY;INTERVAL=3","anchor":"2026-06-15T08:30"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Skip","status":"open","repeat":{"text":"Every day","anchor":"2026-06-15","exdate":["2026-07-01","2026-07-02T09:00"],"rdate":["2026-07-04"]},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":9007199254740991,"title":"Largest id","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"title":"Id last","status":"open","createdAt":"2025-08-23T18:21:04Z","id": 1}"#,
        ]
        for text in records {
            let o = check(text)
            guard case .general = o else { return XCTFail("expected the general reader to read it: \(text) (\(o))") }
        }
    }

    func testBadRecordsAreRefusedByTheGeneralReader() {
        let records = [
            #"{}"#,
            #"{"title":"No id","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":0,"title":"Zero","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":01,"title":"Leading zero","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Empty status","status":"","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Bad date","status":"open","due":{"date":"2026-02-30","time":null},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Bad time","status":"open","due":{"date":"2026-02-03","time":"25:00"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"No date","status":"open","due":{"time":"10:00"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Bad instant","status":"open","createdAt":"2025-08-23"}"#,
            #"{"id":1,"title":"Null created","status":"open","createdAt":null}"#,
            #"{"id":1,"title":"Trailing comma","status":"open","createdAt":"2025-08-23T18:21:04Z",}"#,
            #"{"id":1,"title":"Bad priority","status":"open","priority":"sometimes","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Minutes","status":"open","estimate":{"minutes":1.5,"source":"user"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Source","status":"open","estimate":{"minutes":5,"source":"guess"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Repeat","status":"open","repeat":{"rrule":"FREQ=DAILY"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Anchor","status":"open","repeat":{"text":"every day","anchor":"June"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Anchor","status":"open","repeat":{"text":"every day","anchor":"2026-06-15T25:00"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Week","status":"open","repeat":{"text":"every day","wkst":"XX"},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Skip","status":"open","repeat":{"text":"every day","exdate":["2026-13-01"]},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Skip","status":"open","repeat":{"text":"every day","rdate":[7]},"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Tags","status":"open","tags":["a",],"createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Tags","status":"open","tags":"a","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Held","status":"open","heldUntil":"soon","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Pristine","status":"open","pristine":"yes","createdAt":"2025-08-23T18:21:04Z"}"#,
            #"{"id":1,"title":"Unclosed","status":"open","createdAt":"2025-08-23T18:21:04Z""#,
            #"{"id":1,"title":"Cut"#,
            "{\"id\":1,\"title\":\"Control \u{1} char\",\"status\":\"open\",\"createdAt\":\"2025-08-23T18:21:04Z\"}",
        ]
        for text in records {
            let o = check(text)
            guard case .refused = o else { return XCTFail("expected an error: \(text) (\(o))") }
        }
        // A key written twice (issue 20): keeping either value would drop the other on the next
        // write, so both paths refuse it, at the second key. Known keys, keys of the small
        // objects, unknown keys and a key spelled with an escape.
        let twice: [(String, String)] = [
            (#"{"id":8,"title":"Twice","status":"open","tags":["x"],"tags":["y","z"],"createdAt":"2025-08-23T18:21:04Z"}"#, "tags"),
            (#"{"id":8,"title":"Twice","status":"open","title":"Again","createdAt":"2025-08-23T18:21:04Z"}"#, "title"),
            (#"{"id":8,"title":"Twice","due":{"date":"2026-01-01","time":"10:00","time":null},"createdAt":"2025-08-23T18:21:04Z"}"#, "time"),
            (#"{"id":8,"title":"Twice","estimate":{"minutes":5,"minutes":6},"createdAt":"2025-08-23T18:21:04Z"}"#, "minutes"),
            (#"{"id":8,"title":"Twice","repeat":{"text":"every day","text":"every week"},"createdAt":"2025-08-23T18:21:04Z"}"#, "text"),
            (#"{"id":8,"title":"Twice","syncedFrom":"a","syncedFrom":"b","createdAt":"2025-08-23T18:21:04Z"}"#, "syncedFrom"),
            (#"{"id":8,"title":"Twice","x":{"y":1,"y":2},"createdAt":"2025-08-23T18:21:04Z"}"#, "y"),
            (#"{"id":8,"title":"Twice","st\u0061tus":"open","status":"done","createdAt":"2025-08-23T18:21:04Z"}"#, "status"),
            (#"{"id":8,"title":"Twice","reminders":[{"at":"2026-06-18T09:00","at":"2026-06-19T09:00"}],"createdAt":"2025-08-23T18:21:04Z"}"#, "at"),
        ]
        for (text, key) in twice {
            guard case .refused(let e) = check(text) else { return XCTFail("a key written twice is refused: \(text)") }
            XCTAssertTrue(e.contains("the key '\(key)' appears twice"), e)
        }
        // Bytes that are not UTF-8 inside a title.
        var bad = Array(#"{"id":1,"title":"ab","status":"open","createdAt":"2025-08-23T18:21:04Z"}"#.utf8)
        bad[18] = 0xC0
        guard case .refused = check(bad) else { return XCTFail("an invalid UTF-8 byte in a title is refused") }
    }

    /// Every record of a written store goes the fast path, except those with steps, reminders
    /// or comments, and reads as the general reader reads it.
    func testEveryRecordOfAWrittenStore() {
        let bytes = StoreCodec.encode(StoreLoadTests.store(300, seed: 7))
        var fast = 0
        var general = 0
        for line in bytes.split(separator: 0x0A) {
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("{\"id\"") else { continue }
            let record = text.hasSuffix(",") ? String(text.dropLast()) : text
            // The written shapes the fast path leaves alone: steps, reminders, escapes, unknown keys.
            let unusual = ["\"steps\"", "\"reminders\"", "\\", "\"syncedFrom\""].contains { record.contains($0) }
            switch check(record) {
            case .fast:
                fast += 1
                XCTAssertFalse(unusual, "the fast path read \(record)")
            case .general:
                general += 1
                XCTAssertTrue(unusual, "a record the fast path should read: \(record)")
            case .refused(let e): XCTFail("a written record is refused: \(e): \(record)")
            }
        }
        XCTAssertEqual(fast + general, 300)
        // The fixture is made of hard cases: most of its titles and descriptions have escapes.
        XCTAssertGreaterThan(fast, 40)
    }

    /// Byte mutations of real records: whatever the fast path accepts, the general reader reads
    /// the same way.
    func testMutatedRecordsNeverDisagree() {
        let records = [
            #"{"id":3,"title":"Merge","status":"done","priority":"high","project":"Work","tags":["a","b"],"estimate":{"minutes":20,"source":"user"},"completedAt":"2026-06-01T06:52:35Z","createdAt":"2026-01-05T16:25:38Z"}"#,
            #"{"id":14,"title":"Chéck","status":"open","due":{"date":"2026-08-31","time":"15:30"},"repeat":{"text":"every month","rrule":"FREQ=MONTHLY","anchor":"2026-01-31"},"parent":2,"pristine":true,"createdAt":"2025-12-22T22:09:53Z"}"#,
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]":,"0123456789-.eE tnulfrs\ é"#.utf8) + [0x00, 0x0A, 0x80, 0xC3, 0xFF]
        var rng = SplitMix(seed: 42)
        var fastSeen = 0
        for _ in 0..<6000 {
            var bytes = records[Int(rng.next() % UInt64(records.count))]
            for _ in 0..<(1 + Int(rng.next() % 3)) {
                let k = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 3 {
                case 0: bytes[k] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: k)
                default: bytes.insert(alphabet[Int(rng.next() % UInt64(alphabet.count))], at: k)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            if isFast(check(bytes)) { fastSeen += 1 }
        }
        // Some mutations keep the fast shape (a digit for a digit, a letter in a title).
        XCTAssertGreaterThan(fastSeen, 100)
    }

    func testPriorityWordsMatchTheirSpellings() {
        for (word, p) in [("low", Priority.low), ("high", .high), ("none", .none), ("medium", .medium), ("critical", .critical)] {
            let b = Array((word + "\"__________________").utf8)
            XCTAssertEqual(b.withUnsafeBufferPointer { StoreCodec.canonicalPriority($0, 0, word.utf8.count) }, p, word)
        }
        let b = Array("lowe\"________________".utf8)
        XCTAssertNil(b.withUnsafeBufferPointer { StoreCodec.canonicalPriority($0, 0, 4) })
    }
}
