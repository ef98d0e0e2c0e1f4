// Table tests for the quick-add line, against docs/CAPTURE.md ("The capture line") and
// docs/RULES.md R-CAP-1 … R-CAP-6. Expected values were derived by hand from the docs; all
// lines are read at Monday 2026-06-15 09:00 in Europe/Berlin with default settings unless a
// case says otherwise (so `@fri` is 2026-06-19, `@tomorrow` 2026-06-16, `@may 17` 2027-05-17).
//
// R-CAP-1: tokens set fields and leave the title; the other words keep their order.
// R-CAP-2: every token is reported with its kind and byte range; unfinished words get completions.
// R-CAP-3: dates resolve against now. R-CAP-4: `natural` capture reads a trailing date without `@`.
// R-CAP-5: what only looks like a token stays title text. R-CAP-6: start:, status:, parent:.
// R-DAY-3: a date phrase without a time stays all-day.

import XCTest
@testable import KeptRules
@testable import KeptFiles
@testable import KeptDomain
@testable import KeptStore
@testable import KeptInterop
@testable import KeptSyntax
@testable import KeptInterpreter

private struct CaptureCase {
    let id: String
    let line: String
    var natural = false
    var now = "2026-06-15T09:00"
    /// The exact title; nil only for completion cases, where the title is not specified.
    var title: String?
    /// "YYYY-MM-DD" or "YYYY-MM-DD HH:MM"; nil means no due.
    var due: String?
    var start: String?
    /// The repeat's words; compared ignoring case (the canonical form capitalises the first word).
    var repeatText: String?
    var priority: Priority?
    var project: String?
    var tags: [String] = []
    var notes: [String] = []
    var status: String?
    var parent: Int?
    /// Tokens (kind, start byte, end byte); nil means not checked.
    var tokens: [(CaptureToken.Kind, Int, Int)]?
    /// The completion offered for the unfinished last word (typed, completed).
    var completion: (String, String)?
    /// An error code the line must fail with, or "ANY" for any CaptureError.
    var error: String?
    /// A substring the error's help must contain.
    var help: String?
}

private func cap(_ id: String, _ line: String, natural: Bool = false, now: String = "2026-06-15T09:00",
                 title: String? = nil, due: String? = nil, start: String? = nil, repeatText: String? = nil,
                 priority: Priority? = nil, project: String? = nil, tags: [String] = [], notes: [String] = [],
                 status: String? = nil, parent: Int? = nil, tokens: [(CaptureToken.Kind, Int, Int)]? = nil,
                 completion: (String, String)? = nil, error: String? = nil, help: String? = nil) -> CaptureCase {
    CaptureCase(id: id, line: line, natural: natural, now: now, title: title, due: due, start: start,
                repeatText: repeatText, priority: priority, project: project, tags: tags, notes: notes,
                status: status, parent: parent, tokens: tokens, completion: completion, error: error, help: help)
}

private let captureCases: [CaptureCase] = [
    // MARK: @ dates (R-CAP-1, R-CAP-3); the grammar decides where the phrase ends
    cap("cap-at-01", "Call mom @tomorrow 3pm", title: "Call mom", due: "2026-06-16 15:00", tokens: [(.date, 9, 22)]),
    cap("cap-at-02", "@may 17 dentist", title: "dentist", due: "2027-05-17", tokens: [(.date, 0, 7)]),
    cap("cap-at-03", "Dentist @may 17", title: "Dentist", due: "2027-05-17"),
    cap("cap-at-04", "Standup @next fri 3pm", title: "Standup", due: "2026-06-19 15:00"),
    cap("cap-at-05", "Meeting @tomorrow 3pm call notes", title: "Meeting call notes", due: "2026-06-16 15:00"),
    cap("cap-at-06", "Flight @2026-07-01T06:30", title: "Flight", due: "2026-07-01 06:30"),
    cap("cap-at-07", "Ship it @in 2 weeks", title: "Ship it", due: "2026-06-29"),
    cap("cap-at-08", "Café @tomorrow", title: "Café", due: "2026-06-16", tokens: [(.date, 6, 15)]),
    cap("cap-at-09", "Pay rent @fri", title: "Pay rent", due: "2026-06-19"),

    // MARK: every … (repeat words kept; `every book` is text)
    cap("cap-rep-01", "Take out trash every monday", title: "Take out trash", repeatText: "every monday",
        tokens: [(.repeat, 15, 27)]),
    cap("cap-rep-02", "Water plants every 2 weeks on tue, thu", title: "Water plants",
        repeatText: "every 2 weeks on tue, thu"),
    cap("cap-rep-03", "Pay rent @jan 31 every month on the 31st", now: "2026-01-31T09:00", title: "Pay rent",
        due: "2026-01-31", repeatText: "every month on the 31st"),
    cap("cap-rep-04", "Read every book", title: "Read every book"),
    cap("cap-rep-05", "Stretch every day", title: "Stretch", repeatText: "every day"),

    // MARK: priorities
    cap("cap-pri-01", "Report !low", title: "Report", priority: .low, tokens: [(.priority, 7, 11)]),
    cap("cap-pri-02", "Report !med", title: "Report", priority: .medium),
    cap("cap-pri-03", "Report !medium", title: "Report", priority: .medium),
    cap("cap-pri-04", "Report !high", title: "Report", priority: .high, tokens: [(.priority, 7, 12)]),
    cap("cap-pri-05", "Report !critical", title: "Report", priority: .critical),
    cap("cap-pri-06", "Report !urgent", title: "Report", priority: .critical),
    cap("cap-pri-07", "Report !1", title: "Report", priority: .critical),
    cap("cap-pri-08", "Report !2", title: "Report", priority: .high),
    cap("cap-pri-09", "Report !3", title: "Report", priority: .medium),
    cap("cap-pri-10", "Report !4", title: "Report", priority: .low),
    cap("cap-pri-11", "!high Report", title: "Report", priority: .high),
    cap("cap-pri-12", "Report !hihg", error: "E0209", help: "!high"),
    cap("cap-pri-13", "Report !5", error: "E0209"),

    // MARK: projects, tags, notes
    cap("cap-prj-01", "Fix sink +Home", title: "Fix sink", project: "Home", tokens: [(.project, 9, 14)]),
    cap("cap-prj-02", "Fix sink +\"Home Stuff\"", title: "Fix sink", project: "Home Stuff", tokens: [(.project, 9, 22)]),
    cap("cap-prj-03", "+\"Home Stuff\" Fix sink", title: "Fix sink", project: "Home Stuff"),
    cap("cap-tag-01", "Buy milk #errand #store", title: "Buy milk", tags: ["errand", "store"],
        tokens: [(.tag, 9, 16), (.tag, 17, 23)]),
    cap("cap-tag-02", "#errand Buy #store milk #later", title: "Buy milk", tags: ["errand", "store", "later"]),
    cap("cap-note-01", "Plan trip [[Trip plan]] [[Packing list]]", title: "Plan trip", notes: ["Trip plan", "Packing list"],
        tokens: [(.note, 10, 23), (.note, 24, 40)]),
    cap("cap-all-01", "Trip @fri #travel !high +Home [[Trip plan]] every week", title: "Trip", due: "2026-06-19",
        repeatText: "every week", priority: .high, project: "Home", tags: ["travel"], notes: ["Trip plan"],
        tokens: [(.date, 5, 9), (.tag, 10, 17), (.priority, 18, 23), (.project, 24, 29), (.note, 30, 43), (.repeat, 44, 54)]),

    // MARK: R-CAP-6: start:, status:, parent:
    cap("cap-x-01", "Draft essay start:mon", title: "Draft essay", start: "2026-06-22", tokens: [(.start, 12, 21)]),
    cap("cap-x-02", "Draft essay start:\"next fri\"", title: "Draft essay", start: "2026-06-19"),
    cap("cap-x-03", "Wait for reply status:waiting", title: "Wait for reply", status: "waiting", tokens: [(.status, 15, 29)]),
    cap("cap-x-04", "Sub step parent:12", title: "Sub step", parent: 12, tokens: [(.parent, 9, 18)]),
    cap("cap-x-05", "Draft essay start:tomorrow @fri", title: "Draft essay", due: "2026-06-19", start: "2026-06-16"),

    // MARK: R-CAP-5: what only looks like a token stays title text
    cap("cap-fp-01", "Email bob@example.com about lunch", title: "Email bob@example.com about lunch", tokens: []),
    cap("cap-fp-02", "Learn C# basics", title: "Learn C# basics", tokens: []),
    cap("cap-fp-03", "Fix #42 crash #bug", title: "Fix #42 crash", tags: ["bug"]),
    cap("cap-fp-04", "Call +49 30 1234567", title: "Call +49 30 1234567", tokens: []),
    cap("cap-fp-05", "Wow !! great", title: "Wow !! great", tokens: []),
    cap("cap-fp-06", "Fix a#b and x!high and me+you and a@b", title: "Fix a#b and x!high and me+you and a@b", tokens: []),
    cap("cap-fp-07", "Read \"Dune @tomorrow #scifi\" again", title: "Read \"Dune @tomorrow #scifi\" again", tokens: []),
    cap("cap-fp-08", "Say \"hi\" to Ann", title: "Say \"hi\" to Ann"),
    cap("cap-fp-09", "Post \\#now on the wall", title: "Post #now on the wall", tokens: []),
    cap("cap-fp-10", "Email \\@tomorrow people", title: "Email @tomorrow people", tokens: []),
    cap("cap-fp-11", "Shout \\!high loudly", title: "Shout !high loudly", tokens: []),
    cap("cap-fp-12", "Buy milk #errand -- #not a tag @tomorrow", title: "Buy milk #not a tag @tomorrow", tags: ["errand"]),
    cap("cap-fp-13", "Notes -- every monday !high +Home", title: "Notes every monday !high +Home", tokens: []),
    cap("cap-fp-14", "Buy milk !", title: "Buy milk !", tokens: []),

    // MARK: spacing: kept gaps stay, a cut-out token leaves one space
    cap("cap-sp-01", "Buy  milk   now", title: "Buy  milk   now"),
    cap("cap-sp-02", "Buy #x milk", title: "Buy milk", tags: ["x"]),
    cap("cap-sp-03", "Buy  #x  milk", title: "Buy milk", tags: ["x"]),

    // MARK: errors
    cap("cap-err-01", "#errand !high @tomorrow", error: "E0208"),
    cap("cap-err-02", "!high", error: "E0208"),
    cap("cap-err-03", "Call @tomorrow and @fri", error: "ANY"),
    cap("cap-err-04", "Party @feb 30", error: "E0205"),
    cap("cap-err-05", "Party @tommorow", error: "E0203", help: "tomorrow"),
    cap("cap-err-06", "Meet @4/31", error: "E0205"),
    cap("cap-err-07", "Meet @2026-02-30", error: "E0205"),

    // MARK: R-CAP-2: completions for an unfinished last word
    cap("cap-comp-01", "Call @tom", completion: ("@tom", "@tomorrow")),
    cap("cap-comp-02", "Buy milk every mo", completion: ("every mo", "every monday")),
    cap("cap-comp-03", "Meet @next fr", completion: ("@next fr", "@next friday")),

    // MARK: R-CAP-4: natural capture reads a trailing date without `@`
    cap("cap-nat-01", "Board offsite Friday", natural: true, title: "Board offsite", due: "2026-06-19"),
    cap("cap-nat-02", "Board offsite Friday 9am", natural: true, title: "Board offsite", due: "2026-06-19 09:00",
        tokens: [(.date, 14, 24)]),
    cap("cap-nat-03", "Finish report by Friday", natural: true, title: "Finish report", due: "2026-06-19"),
    cap("cap-nat-04", "The 5th Wave", natural: true, title: "The 5th Wave"),
    cap("cap-nat-05", "Renovation 2nd floor", natural: true, title: "Renovation 2nd floor"),
    cap("cap-nat-06", "Enjoy the sun", natural: true, title: "Enjoy the sun"),
    cap("cap-nat-07", "Watch Friday Night Lights", natural: true, title: "Watch Friday Night Lights"),
    cap("cap-nat-08", "Dentist tomorrow", natural: true, title: "Dentist", due: "2026-06-16"),
    cap("cap-nat-09", "Call Ann on Friday", natural: true, title: "Call Ann", due: "2026-06-19"),
    cap("cap-nat-10", "Pay bills due tomorrow", natural: true, title: "Pay bills", due: "2026-06-16"),
    cap("cap-nat-11", "Tomorrow", natural: true, title: "Tomorrow"),
    cap("cap-nat-12", "Lunch with Sam at noon", natural: true, title: "Lunch with Sam", due: "2026-06-15 12:00"),
    cap("cap-nat-13", "Picnic sun 9am", natural: true, title: "Picnic", due: "2026-06-21 09:00"),
    cap("cap-nat-14", "Renew passport may 17", natural: true, title: "Renew passport", due: "2027-05-17"),
    cap("cap-nat-15", "Plant flowers in may", natural: true, title: "Plant flowers in may"),
    cap("cap-nat-16", "Call mom @tomorrow 3pm", natural: true, title: "Call mom", due: "2026-06-16 15:00"),
    cap("cap-nat-17", "Read the 5th chapter", natural: true, title: "Read the 5th chapter"),
    // Only at the very end of the line: a tag after the weekday keeps it in the title.
    cap("cap-nat-18", "Board offsite Friday #work", natural: true, title: "Board offsite Friday", tags: ["work"]),
    // Without natural capture a trailing date is title text.
    cap("cap-nat-19", "Board offsite Friday", title: "Board offsite Friday"),
    cap("cap-nat-20", "Dentist tomorrow", title: "Dentist tomorrow"),
]

final class CaptureTests: XCTestCase {

    private func context(_ now: String, _ id: String) throws -> DateContext {
        let n = try XCTUnwrap(CivilDateTime(iso: now), "\(id): bad fixture now \(now)")
        let zone = try XCTUnwrap(Zone(identifier: "Europe/Berlin"), "\(id): no zone")
        let settings = Settings()
        return DateContext(now: n, today: settings.day.today(at: n), settings: settings, zone: zone)
    }

    private func text(_ due: Due?) -> String? {
        due.map { $0.date.iso + ($0.time.map { " " + $0.iso } ?? "") }
    }

    func testTableHasEnoughCasesWithUniqueIds() {
        XCTAssertGreaterThanOrEqual(captureCases.count, 40)
        var seen = Set<String>()
        for c in captureCases {
            XCTAssertTrue(seen.insert(c.id).inserted, "duplicate case id \(c.id)")
        }
    }

    func testCaptureTable() throws {
        for c in captureCases {
            let label = "\(c.id): '\(c.line)'\(c.natural ? " (natural)" : "")"
            let ctx = try context(c.now, c.id)
            switch QuickAdd.parse(c.line, in: ctx, natural: c.natural) {
            case .failure(let e):
                guard let want = c.error else {
                    XCTFail("\(label): unexpected \(e.code) \(e.message) [\(e.start)..<\(e.end)] help: \(e.help ?? "-")")
                    continue
                }
                if want != "ANY" { XCTAssertEqual(e.code.rawValue, want, "\(label): error code (\(e.message))") }
                XCTAssertTrue(e.start >= 0 && e.start <= e.end && e.end <= c.line.utf8.count,
                              "\(label): error range \(e.start)..<\(e.end) outside the line")
                if let h = c.help {
                    XCTAssertTrue((e.help ?? "").contains(h), "\(label): help '\(e.help ?? "nil")' should mention '\(h)'")
                }
            case .success(let d):
                if let want = c.error {
                    XCTFail("\(label): want \(want), got a draft titled '\(d.title)' due \(text(d.due) ?? "-")")
                    continue
                }
                if let comp = c.completion {
                    XCTAssertEqual(d.completion?.typed, comp.0, "\(label): completion typed")
                    XCTAssertEqual(d.completion?.completed, comp.1, "\(label): completion offered")
                    continue
                }
                XCTAssertNil(d.completion, "\(label): no completion expected")
                if let t = c.title { XCTAssertEqual(d.title, t, "\(label): title") }
                XCTAssertEqual(text(d.due), c.due, "\(label): due")
                XCTAssertEqual(text(d.start), c.start, "\(label): start")
                XCTAssertEqual(d.repeatText?.lowercased(), c.repeatText?.lowercased(), "\(label): repeat")
                XCTAssertEqual(d.priority, c.priority, "\(label): priority")
                XCTAssertEqual(d.project, c.project, "\(label): project")
                XCTAssertEqual(d.tags, c.tags, "\(label): tags")
                XCTAssertEqual(d.notes, c.notes, "\(label): notes")
                XCTAssertEqual(d.status, c.status, "\(label): status")
                XCTAssertEqual(d.parent, c.parent, "\(label): parent")
                if let want = c.tokens {
                    let got = d.tokens.sorted { $0.start < $1.start }.map { "\($0.kind.rawValue) \($0.start)..<\($0.end)" }
                    let exp = want.map { "\($0.0.rawValue) \($0.1)..<\($0.2)" }
                    XCTAssertEqual(got, exp, "\(label): tokens")
                }
            }
        }
    }

    /// R-CAP-2: a token's text is the slice of the line its byte range names.
    func testTokenTextMatchesItsByteRange() throws {
        let lines = ["Trip @fri #travel !high +Home [[Trip plan]] every week", "Café @tomorrow 3pm #küche",
                     "Fix sink +\"Home Stuff\" start:mon status:waiting parent:3"]
        for (k, line) in lines.enumerated() {
            let id = "cap-range-\(k + 1)"
            let ctx = try context("2026-06-15T09:00", id)
            guard case .success(let d) = QuickAdd.parse(line, in: ctx, natural: false) else {
                XCTFail("\(id): '\(line)' should parse"); continue
            }
            XCTAssertFalse(d.tokens.isEmpty, "\(id): tokens expected")
            let bytes = Array(line.utf8)
            for t in d.tokens {
                guard t.start >= 0, t.start < t.end, t.end <= bytes.count else {
                    XCTFail("\(id): token \(t.kind) range \(t.start)..<\(t.end) outside the line"); continue
                }
                XCTAssertEqual(String(decoding: bytes[t.start..<t.end], as: UTF8.self), t.text, "\(id): token \(t.kind) text")
            }
        }
    }

    /// R-CAP-3: the same line at the same now gives the same draft.
    func testCaptureIsDeterministic() throws {
        for c in captureCases where c.error == nil {
            let ctx = try context(c.now, c.id)
            let a = QuickAdd.parse(c.line, in: ctx, natural: c.natural)
            let b = QuickAdd.parse(c.line, in: ctx, natural: c.natural)
            switch (a, b) {
            case (.success(let x), .success(let y)):
                XCTAssertEqual(x.title, y.title, "\(c.id): title differs between runs")
                XCTAssertEqual(text(x.due), text(y.due), "\(c.id): due differs between runs")
                XCTAssertEqual(x.tokens, y.tokens, "\(c.id): tokens differ between runs")
            case (.failure(let x), .failure(let y)):
                XCTAssertEqual(x.code, y.code, "\(c.id): error differs between runs")
            default:
                XCTFail("\(c.id): one run failed and the other did not")
            }
        }
    }
}

/// Capture reports, never guesses (issue 32): each reproducer of the issue with its new answer.
/// Lines are read at Monday 2026-06-15 09:00 in Europe/Berlin, as in `CaptureTests`.
final class CaptureHonestTests: XCTestCase, SessionTesting {
    private static let berlin = Zone(identifier: "Europe/Berlin") ?? .utc
    private static let monday = CivilDateTime(iso: "2026-06-15T09:00") ?? CivilDateTime(date: CivilDate(dayNumber: 0), time: .midnight)

    private func context(_ order: DateOrder = .mdy) -> DateContext {
        var settings = Settings()
        settings.dateOrder = order
        return DateContext(now: Self.monday, today: settings.day.today(at: Self.monday), settings: settings, zone: Self.berlin)
    }

    private func session(zone: Zone = CaptureHonestTests.berlin) -> Session {
        Session(store: JSONStore(memory: Store()), clock: .wall(Self.monday), defaultZone: zone)
    }

    /// The error of a line, with the words its range covers.
    private func failure(_ line: String, _ id: String, file: StaticString = #filePath, lineNo: UInt = #line) -> (CaptureError, String)? {
        switch QuickAdd.parse(line, in: context()) {
        case .success(let d):
            XCTFail("\(id): '\(line)' filed '\(d.title)' instead of an error", file: file, line: lineNo)
            return nil
        case .failure(let e):
            let bytes = Array(line.utf8)
            guard e.start >= 0, e.start <= e.end, e.end <= bytes.count else {
                XCTFail("\(id): range \(e.start)..<\(e.end) outside the line", file: file, line: lineNo)
                return nil
            }
            return (e, String(decoding: bytes[e.start..<e.end], as: UTF8.self))
        }
    }

    private func draft(_ line: String, _ id: String, file: StaticString = #filePath, lineNo: UInt = #line) -> TaskDraft? {
        switch QuickAdd.parse(line, in: context()) {
        case .success(let d): return d
        case .failure(let e):
            XCTFail("\(id): '\(line)': \(e.code) \(e.message)", file: file, line: lineNo)
            return nil
        }
    }

    /// R-CAP-7: an impossible time after a date is E0205 with its caret on the time, never title text.
    func testImpossibleTimeAfterDateIsE0205AtTheTime() {
        let cases: [(String, String, String)] = [
            ("honest-t-01", "Meet @tomorrow 25:00", "25:00"),
            ("honest-t-02", "Meet @tomorrow 13pm", "13pm"),
            ("honest-t-03", "Meet @fri 25:00", "25:00"),
            ("honest-t-04", "Meet @tomorrow at 25:00", "25:00"),
            ("honest-t-05", "Meet @may 17 24:30 room 4", "24:30"),
            ("honest-t-06", "Standup every monday at 25:00", "25:00"),
        ]
        for (id, line, time) in cases {
            guard let (e, words) = failure(line, id) else { continue }
            XCTAssertEqual(e.code, .E0205, "\(id): \(e.message)")
            XCTAssertEqual(words, time, "\(id): the caret is on the time")
            XCTAssertTrue(e.message.contains(time), "\(id): \(e.message)")
        }
        // An hour that am or pm does not take, written apart, is the same refusal as `13 pm` alone.
        if let (e, words) = failure("Meet @fri 13 pm", "honest-t-07") {
            XCTAssertEqual(e.code, .E0203, "honest-t-07: \(e.message)")
            XCTAssertEqual(words, "13", "honest-t-07")
        }
        // `date` refuses the same words at the time.
        switch DatePhrase.resolve(["tomorrow", "25:00"], in: context()) {
        case .success(let (r, used)): XCTFail("honest-t-08: read \(r.due) using \(used) words")
        case .failure(let e):
            XCTAssertEqual(e.code, .E0205, "honest-t-08")
            XCTAssertEqual(e.word, 1, "honest-t-08: the time is the second word")
        }
    }

    /// R-CAP-7: the reproducers of issue 32 through `add`: an error, and nothing filed.
    func testAddRefusesAnImpossibleTime() {
        for (k, line) in ["add Meet @tomorrow 25:00", "add Meet @tomorrow 13pm", "add Meet @fri 25:00", "add Meet @tomorrow at 25:00"].enumerated() {
            let s = session()
            let out = run(s, line)
            XCTAssertEqual(out.diagnostics.map(\.code), [.E0205], "honest-add-\(k + 1): \(out.lines)")
            let d = out.diagnostics.first
            if let r = d?.range {
                let bytes = Array(line.utf8)
                XCTAssertTrue(r.start >= 0 && r.end <= bytes.count && r.start < r.end, "honest-add-\(k + 1): range")
                if r.start >= 0, r.end <= bytes.count, r.start < r.end {
                    let words = String(decoding: bytes[r.start..<r.end], as: UTF8.self)
                    XCTAssertTrue(["25:00", "13pm"].contains(words), "honest-add-\(k + 1): caret on '\(words)'")
                }
            } else {
                XCTFail("honest-add-\(k + 1): no range")
            }
            XCTAssertEqual(s.store.snapshot().tasks.count, 0, "honest-add-\(k + 1): nothing is filed")
        }
    }

    /// R-CAP-8: a bare number after a day is the ambiguity `at 5` reports (the same code), at
    /// the number; `\7`, `7pm` and `at 19` say which.
    func testBareNumberAfterDayIsAmbiguous() {
        guard case .failure(let atFive) = QuickAdd.parse("Dinner @at 5", in: context()) else {
            return XCTFail("honest-n-00: '@at 5' should be refused")
        }
        if let (e, words) = failure("Dinner @fri 7", "honest-n-01") {
            XCTAssertEqual(e.code, atFive.code, "honest-n-01: the code 'at 5' gives")
            XCTAssertEqual(words, "7", "honest-n-01: the caret is on the number")
            XCTAssertTrue(e.message.contains("7 AM or 7 PM"), "honest-n-01: \(e.message)")
            XCTAssertTrue((e.help ?? "").contains("7am or 7pm"), "honest-n-01: \(e.help ?? "-")")
            XCTAssertTrue((e.help ?? "").contains("\\7"), "honest-n-01: the escape keeps it in the title")
        }
        if let (e, words) = failure("Dinner @fri 19", "honest-n-02") {
            XCTAssertEqual(e.code, .E0203, "honest-n-02")
            XCTAssertEqual(words, "19", "honest-n-02")
        }
        if let (e, words) = failure("Order @tomorrow 3 pizzas", "honest-n-03") {
            XCTAssertEqual(e.code, .E0203, "honest-n-03")
            XCTAssertEqual(words, "3", "honest-n-03")
        }
        if let d = draft("Dinner @fri \\7", "honest-n-04") {
            XCTAssertEqual(d.title, "Dinner 7", "honest-n-04")
            XCTAssertEqual(d.due, Due(date: CivilDate(year: 2026, month: 6, day: 19) ?? CivilDate(dayNumber: 0)), "honest-n-04")
        }
        if let d = draft("Dinner @fri 7pm", "honest-n-05") {
            XCTAssertEqual(d.title, "Dinner", "honest-n-05")
            XCTAssertEqual(d.due?.time, WallTime(hour: 19, minute: 0), "honest-n-05")
        }
        if let d = draft("Dinner @fri at 19", "honest-n-06") {
            XCTAssertEqual(d.due?.time, WallTime(hour: 19, minute: 0), "honest-n-06")
        }
        // Not after a day: a number past the hours, or after a time, stays title text.
        XCTAssertEqual(draft("Read @fri 100 pages", "honest-n-07")?.title, "Read 100 pages", "honest-n-07")
        XCTAssertEqual(draft("Meet @fri 3pm 2 people", "honest-n-08")?.title, "Meet 2 people", "honest-n-08")
        let out = run(session(), "add Dinner @fri 7")
        XCTAssertEqual(out.diagnostics.map(\.code), [.E0203], "honest-n-09: \(out.lines)")
    }

    /// R-CAP-9: `every …` meant as a repeat that is none is E0210 with the nearest rule Kept
    /// reads; each suggestion reads as a whole rule.
    func testEveryThatIsNoRepeatSuggestsTheNearest() {
        let cases: [(String, String, [String])] = [
            ("honest-r-01", "X every last friday", ["every month on the last friday"]),
            ("honest-r-02", "X every 3rd weekday", ["every month on the 3rd weekday"]),
            ("honest-r-03", "X every 2nd friday", ["every 2 weeks on friday", "every month on the 2nd friday"]),
            ("honest-r-04", "X every second tuesday", ["every 2 weeks on tuesday", "every month on the 2nd tuesday"]),
            ("honest-r-05", "X every 2 fridays", ["every 2 weeks on friday"]),
            ("honest-r-06", "X every 15th", ["every month on the 15th"]),
            ("honest-r-07", "X every mondya", ["every monday"]),
            ("honest-r-08", "X every first monday #work", ["every month on the 1st monday"]),
            ("honest-r-09", "X every last day", ["every month on the last day"]),
            ("honest-r-10", "X every 3rd day", ["every 3 days"]),
        ]
        for (id, line, want) in cases {
            guard let (e, words) = failure(line, id) else { continue }
            XCTAssertEqual(e.code, .E0210, "\(id): \(e.message)")
            XCTAssertTrue(words.hasPrefix("every"), "\(id): the caret starts at 'every' ('\(words)')")
            guard case .repeat(let r) = e.reason else { XCTFail("\(id): \(e.reason)"); continue }
            XCTAssertEqual(r.suggestions, want, id)
            for s in r.suggestions {
                if case .success(let (_, used)) = RepeatRule.parse(s), used == s.split(separator: " ").count { continue }
                XCTFail("\(id): the suggestion '\(s)' is not a whole rule")
            }
            XCTAssertTrue((e.help ?? "").contains("did you mean '\(want[0])'"), "\(id): \(e.help ?? "-")")
            XCTAssertTrue((e.help ?? "").contains("\\every"), "\(id): the help names the escape")
        }
        // The caret covers the words meant as a repeat, through the weekday.
        XCTAssertEqual(failure("X every last friday #work", "honest-r-01b")?.1, "every last friday", "honest-r-01b")
        XCTAssertEqual(failure("X every 3rd weekday", "honest-r-02b")?.1, "every 3rd weekday", "honest-r-02b")
    }

    /// R-CAP-9: `every fortnight` and `every other friday` have one meaning and are read;
    /// `\every` and words not meant as a repeat stay title text.
    func testEveryWithOneMeaningIsReadAndTheRestStaysText() {
        if let d = draft("Pay rent every fortnight", "honest-r-11") {
            XCTAssertEqual(d.title, "Pay rent", "honest-r-11")
            XCTAssertEqual(d.repeatRule?.frequency, .weekly, "honest-r-11")
            XCTAssertEqual(d.repeatRule?.interval, 2, "honest-r-11")
        }
        if let d = draft("Bins every other friday", "honest-r-12") {
            XCTAssertEqual(d.title, "Bins", "honest-r-12")
            XCTAssertEqual(d.repeatRule?.interval, 2, "honest-r-12")
            XCTAssertEqual(d.repeatRule?.weekdays, [.friday], "honest-r-12")
        }
        let text: [(String, String)] = [
            ("honest-r-13", "X \\every last friday"), ("honest-r-14", "Read every book"),
            ("honest-r-15", "Water every other plant"), ("honest-r-16", "Run every 5000 meters"),
            ("honest-r-17", "Eat every last crumb"), ("honest-r-18", "Notes -- every last friday"),
        ]
        for (id, line) in text {
            guard let d = draft(line, id) else { continue }
            XCTAssertNil(d.repeatRule, id)
            XCTAssertEqual(d.title, line.replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "-- ", with: ""), id)
        }
        XCTAssertEqual(run(session(), "add X every fortnight").diagnostics.map(\.code), [], "honest-r-19")
    }

    /// R-CAP-9: `repeat every last friday` names what it expected (a weekday works) and suggests the rule.
    func testRepeatStatementSuggestsTheNearestRule() {
        let out = run(session(), "repeat every last friday")
        XCTAssertEqual(out.diagnostics.map(\.code), [.E0210], "honest-r-20")
        let d = out.diagnostics.first
        XCTAssertFalse(d?.message == "expected day, week, month or year", "honest-r-20: \(d?.message ?? "-")")
        XCTAssertTrue(d?.message.contains("weekday") == true, "honest-r-20: \(d?.message ?? "-")")
        XCTAssertEqual(d?.help, "did you mean 'every month on the last friday'?", "honest-r-20")
        let fortnight = run(session(), "repeat every fortnight next 2")
        XCTAssertEqual(fortnight.lines.first, "Every 2 weeks", "honest-r-21: \(fortnight.lines)")
    }

    /// R-CAP-10: which order a zone suggests.
    func testZoneSuggestsADateOrder() {
        let cases: [(String, DateOrder?)] = [
            ("Europe/Berlin", .dmy), ("Europe/London", .dmy), ("Australia/Sydney", .dmy), ("Africa/Lagos", .dmy),
            ("America/Sao_Paulo", .dmy), ("America/Argentina/Buenos_Aires", .dmy), ("Asia/Kolkata", .dmy),
            ("Pacific/Auckland", .dmy), ("America/New_York", .mdy), ("America/Indiana/Indianapolis", .mdy),
            ("America/Los_Angeles", .mdy), ("UTC", nil), ("Asia/Tokyo", nil), ("Asia/Shanghai", nil),
        ]
        for (zone, want) in cases {
            XCTAssertEqual(DateOrder.suggested(forZone: zone), want, zone)
        }
    }

    /// R-CAP-10: the first ambiguous slash date of a session in a day/month zone, read
    /// month/day, gets W0003 once; it still files the task.
    func testAmbiguousSlashDateAsksForDateOrderOnce() {
        let s = session()
        let first = run(s, "add Pay @3/4")
        XCTAssertFalse(first.failed, "honest-d-01")
        XCTAssertEqual(first.diagnostics.map(\.code), [.W0003], "honest-d-01: \(first.lines)")
        XCTAssertTrue(first.diagnostics.first?.message.contains("Europe/Berlin") == true, "honest-d-01")
        XCTAssertTrue(first.diagnostics.first?.help?.contains("date-order") == true, "honest-d-01")
        XCTAssertEqual(s.store.snapshot().tasks.first?.due?.date.iso, "2027-03-04", "honest-d-01: read as set (mdy)")
        XCTAssertEqual(run(s, "add Pay @5/6").diagnostics.map(\.code), [], "honest-d-02: asked once a session")
        XCTAssertEqual(run(s, "date 3/4").diagnostics.map(\.code), [], "honest-d-03")

        // `date` asks too, when it is the first.
        XCTAssertEqual(run(session(), "date 3/4").diagnostics.map(\.code), [.W0003], "honest-d-04")
        // Not ambiguous: one reading only, or both readings the same day.
        XCTAssertEqual(run(session(), "add Pay @3/17").diagnostics.map(\.code), [], "honest-d-05")
        XCTAssertEqual(run(session(), "add Pay @3/3").diagnostics.map(\.code), [], "honest-d-06")
        // Set in the session, either way: no question.
        let dmy = session()
        run(dmy, "set date-order dmy")
        XCTAssertEqual(run(dmy, "add Pay @3/4").diagnostics.map(\.code), [], "honest-d-07")
        XCTAssertEqual(dmy.store.snapshot().tasks.first?.due?.date.iso, "2027-04-03", "honest-d-07: day/month")
        let mdy = session()
        run(mdy, "set date-order mdy")
        XCTAssertEqual(run(mdy, "add Pay @3/4").diagnostics.map(\.code), [], "honest-d-08")
        // A zone that writes month/day, or says nothing: no question.
        if let ny = Zone(identifier: "America/New_York") {
            XCTAssertEqual(run(session(zone: ny), "add Pay @3/4").diagnostics.map(\.code), [], "honest-d-09")
        }
        XCTAssertEqual(run(session(zone: .utc), "add Pay @3/4").diagnostics.map(\.code), [], "honest-d-10")
    }
}
