// The REPL: piped input gives exactly what `kept run` gives up to its first error, where it
// stops with exit 1 (`.bail off` reads on, as `kept run` does), `.record` writes a transcript that
// `kept test` passes unchanged, dot-command errors, and (with @testable) the pure parts: what
// Tab completes, how a capture line is coloured, what goes into the history, when a statement
// is unfinished. testPseudoTerminalSession drives the real binary in a pty (Tests/pty),
// testPipedInputKeepsPace through a pipe a line at a time (Tests/pipe).

import Foundation
import XCTest
@testable import KeptCLI
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

final class REPLTests: XCTestCase {
    static let script = """
    # a plain script: a command per line, a continuation, errors (piped into the REPL the first stops it)
    project add Home
    add Call mom @tomorrow 3pm #phone +Home
    add Pay rent @jan 31 every month on the 31st
    lsit
    list (#phone
    ... or #errand)
    add Broken "quote
    @format json
    show 1 due
    complete 1
    count
    """

    static let transcript = """
    # a transcript: its expected blocks are skipped
    > add Buy milk @today
    Added 1 · whatever was expected

    > list
    All 1 task

    > show 9
    ! E0301 no task with id 9

    """

    /// Output with every uid written `UID`: two processes give new tasks different random uids.
    static func uidsMasked(_ s: String) -> String {
        let re = try? NSRegularExpression(pattern: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        return re?.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "UID") ?? s
    }

    /// What `kept run` prints for the same input cut after its first error: piped input is read
    /// as `kept run` reads it and stops at the first error with exit 1 (issue 8). Short errors
    /// are one line each, so the first error is the first stderr line, and stdout up to it is
    /// a prefix of `kept run`'s.
    /// What piped input without a store file says at its end when it changed something.
    static let pipedNoStoreNote = "kept: note: nothing was written: this session had no store file; --store FILE keeps its changes"

    /// Drops a front end's closing note from what it printed on stderr (it is the last line).
    static func dropNote(_ r: inout KeptRun, _ note: String) {
        let line = Data((note + "\n").utf8)
        if r.stderrData.count >= line.count, r.stderrData.suffix(line.count) == line { r.stderrData.removeLast(line.count) }
    }

    func assertStopsWhereKeptRunFirstFails(_ data: Data, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        var run = try Kept.run(["run", "--errors", "short"] + Kept.clock, stdin: data)
        var repl = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: data)
        XCTAssertFalse(repl.stdout.contains("kept>"), "\(name): no prompt when piped", file: file, line: line)
        // Each front end ends with its own note when it had no store to write (R-HOME-2,
        // R-HOME-3); everything else is the same.
        REPLTests.dropNote(&run, Kept.noStoreNote)
        REPLTests.dropNote(&repl, REPLTests.pipedNoStoreNote)
        guard run.status == 1, let first = run.stderr.split(separator: "\n").first else {
            // No error: everything runs, exactly as kept run.
            XCTAssertEqual(REPLTests.uidsMasked(repl.stdout), REPLTests.uidsMasked(run.stdout), "\(name): stdout", file: file, line: line)
            XCTAssertEqual(repl.stderr, run.stderr, "\(name): stderr", file: file, line: line)
            XCTAssertEqual(repl.status, run.status, "\(name): exit status", file: file, line: line)
            return
        }
        XCTAssertEqual(repl.status, 1, "\(name): exit status", file: file, line: line)
        XCTAssertEqual(repl.stderr, String(first) + "\n", "\(name): only the first error", file: file, line: line)
        XCTAssertTrue(REPLTests.uidsMasked(run.stdout).hasPrefix(REPLTests.uidsMasked(repl.stdout)), "\(name): stdout is kept run's up to the error\n\(repl.stdout)", file: file, line: line)
        // With `.bail off` first (dot-commands are the REPL's, not the script's), it reads on
        // and prints all kept run prints; only the error lines' numbers move by one.
        var on = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data(".bail off\n".utf8) + data)
        REPLTests.dropNote(&on, REPLTests.pipedNoStoreNote)
        // (JSON mode prints errors on stdout, with their line: those lines moved too. New tasks'
        // uids are random in each process, so they are compared as `UID`.)
        func withoutErrors(_ t: String) -> [String] { REPLTests.uidsMasked(t).split(separator: "\n").filter { !$0.hasPrefix("{\"error\"") }.map(String.init) }
        XCTAssertEqual(withoutErrors(on.stdout), withoutErrors(run.stdout), "\(name): .bail off stdout", file: file, line: line)
        XCTAssertEqual(on.stdout.split(separator: "\n").count, run.stdout.split(separator: "\n").count, "\(name): .bail off stdout lines", file: file, line: line)
        XCTAssertEqual(on.status, 1, "\(name): .bail off exit status", file: file, line: line)
        XCTAssertEqual(on.stderr.split(separator: "\n").count, run.stderr.split(separator: "\n").count, "\(name): .bail off errors", file: file, line: line)
    }

    /// Piped into `kept repl`, a script without errors prints exactly what `kept run` prints on
    /// stdout and stderr, with the same exit status; one with errors stops at the first.
    func testPipedScriptMatchesKeptRun() throws {
        let clean = REPLTests.script.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("lsit") && !$0.hasPrefix("add Broken") }.joined(separator: "\n")
        for (name, text) in [("clean", clean), ("plain", REPLTests.script), ("transcript", REPLTests.transcript)] {
            try assertStopsWhereKeptRunFirstFails(Data(text.utf8), name)
        }
        let cleanRun = try Kept.run(["repl"] + Kept.clock, stdin: Data(clean.utf8))
        XCTAssertEqual(cleanRun.status, 0, cleanRun.summary)
        XCTAssertTrue(cleanRun.stdout.contains("{\"due\""), cleanRun.summary)
        let plain = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data(REPLTests.script.utf8))
        XCTAssertTrue(plain.stderr.hasPrefix("<stdin>:5:1: error[E0101]"), plain.summary)
        XCTAssertFalse(plain.stdout.contains("{\"due\""), plain.summary)
    }

    /// Every example, piped: the same as `kept run` up to its first error.
    func testPipedExamplesMatchKeptRun() throws {
        let dir = Kept.packageRoot.appendingPathComponent("examples")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".kept") }.sorted()
        XCTAssertGreaterThan(names.count, 5)
        for ex in names {
            try assertStopsWhereKeptRunFirstFails(try Data(contentsOf: dir.appendingPathComponent(ex)), ex)
        }
    }

    /// Input that is not UTF-8 is unreadable (exit 2), as for `kept run`.
    func testPipedInvalidUTF8ExitsTwo() throws {
        let r = try Kept.run(["repl"] + Kept.clock, stdin: Data([0x6C, 0x69, 0x73, 0x74, 0x0A, 0xFF, 0x0A]))
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0003]"), r.summary)
    }

    /// A bulk delete confirmed by `@yes` in piped input is recorded with its `@yes`, so the
    /// recording replays (without it `kept test` would refuse the delete, E0318).
    func testRecordKeepsAtYes() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let store = tmp.path("s.json")
        let rec = tmp.path("yes.kept")
        let session = """
        add Buy milk #errand
        add Post letter #errand
        @yes
        delete where #errand
        .record \(rec)
        """
        let r = try Kept.run(["repl", "--store", store] + Kept.clock, stdin: Data(session.utf8))
        XCTAssertEqual(r.status, 0, r.summary)
        let text = try tmp.readText("yes.kept")
        XCTAssertTrue(text.contains("@yes\n> delete where #errand\n"), text)
        let test = try Kept.run(["test", rec])
        XCTAssertEqual(test.status, 0, test.summary + "\n" + text)
    }

    /// A store larger than a transcript keeps (Recorder.storeLimit) is not read whole for
    /// `.record` (issue 34 item 5): neither the one the REPL starts on nor one `.open` opens.
    /// The transcript says where it was not copied, and the small store opened after it is.
    func testRecordDoesNotCopyALargeStore() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let n = 10_001
        let rows = (0..<n).map { k in
            String(format: "{\"uuid\":\"%08x-2222-4000-8000-%012x\",\"description\":\"Task %d\",\"status\":\"pending\",\"entry\":\"20260101T000000Z\"}", k, k, k)
        }
        try ("[\n" + rows.joined(separator: ",\n") + "\n]\n").write(toFile: tmp.path("big.tw.json"), atomically: true, encoding: .utf8)
        for big in ["big.db", "big2.db"] {
            let made = try Kept.run(["import", tmp.path("big.tw.json"), "--store", tmp.path(big)] + Kept.clock)
            XCTAssertEqual(made.status, 0, made.summary)
        }
        let small = tmp.path("small.json")
        XCTAssertEqual(try Kept.run(["run", "--store", small, "--write"] + Kept.clock + ["-e", "add Water plants"]).status, 0)
        let session = """
        count
        .open \(tmp.path("big2.db"))
        count
        .open \(small)
        list
        .record \(tmp.path("rec.kept"))
        """
        let r = try Kept.run(["repl", "--store", tmp.path("big.db")] + Kept.clock, stdin: Data(session.utf8))
        XCTAssertEqual(r.status, 0, r.summary)
        let text = try tmp.readText("rec.kept")
        XCTAssertTrue(text.contains("# the session's store of \(n) tasks was not copied (a transcript keeps a store of up to 10000)"), text)
        XCTAssertTrue(text.contains("# the store opened here, of \(n) tasks, was not copied (a transcript keeps a store of up to 10000)"), text)
        XCTAssertTrue(text.contains("@store rec.store.json\n> list\n"), text)
        XCTAssertEqual(try tmp.listing().filter { $0.hasPrefix("rec.") }, ["rec.kept", "rec.store.json"])
    }

    /// Piped input checks a directive's argument as `kept run` does.
    func testPipedBadFormatIsAnError() throws {
        let r = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data("@format jsn\nlist\n".utf8))
        XCTAssertEqual(r.status, 2, r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0105]"), r.summary)
    }

    /// `.record` writes the session so far, with the store it started from (a snapshot beside
    /// the transcript, since the REPL has written the store since) and its clock; `kept test`
    /// passes it unchanged, JSON mode, errors and a two-line statement included.
    func testRecordPassesKeptTest() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let store = tmp.path("home.json")
        let setup = try Kept.run(["run", "--store", store, "--write"] + Kept.clock + ["-e", "project add Home", "-e", "add Water plants @today +Home"])
        XCTAssertEqual(setup.status, 0, setup.summary)
        let rec = tmp.path("found.kept")
        let session = """
        .bail off
        add Call mom @tomorrow 3pm #phone +Home
        list (#phone
        ... or +Home)
        complete 1
        show 7
        .mode json
        show 2
        .mode text
        undo
        list
        .record \(rec)
        """
        let r = try Kept.run(["repl", "--store", store] + Kept.clock, stdin: Data(session.utf8))
        XCTAssertEqual(r.status, 1, r.summary) // `show 7` failed
        XCTAssertTrue(r.stdout.contains("Recorded 7 commands to \(rec) (store: \(tmp.path("found.store.json")))"), r.summary)
        let text = try tmp.readText("found.kept")
        XCTAssertTrue(text.contains("@store found.store.json\n> now 2026-06-15 09:00\n\n> zone Europe/Berlin\n"), text)
        XCTAssertTrue(text.contains("> list (#phone\n... or +Home)\n"), text)
        XCTAssertTrue(text.contains("> show 7\n! E0301 "), text)
        // Task 2 was made in the session: its uid is random, so the line matches any uid.
        XCTAssertTrue(text.contains("@format json\n> show 2\n\\Q{\"id\":2,\"uid\":\"\\E[0-9a-f]{8}"), text)
        // The store file moved on (the REPL wrote it); the snapshot is the start.
        let test = try Kept.run(["test", rec])
        XCTAssertEqual(test.status, 0, test.summary + "\n" + text)
        XCTAssertTrue(test.stdout.hasSuffix("9 passed, 0 failed, 0 errors, 0 skipped\n"), test.summary)
        // The store file itself moved on (the REPL wrote it), so the snapshot is what makes the
        // recording replay.
        let now = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "list"])
        XCTAssertEqual(now.stdoutLines.first, "All 2 tasks", now.summary)
    }

    /// The REPL writes the store after each change (kept run only with --write).
    func testReplWritesStoreAfterEachChange() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let store = tmp.path("s.json")
        _ = try Kept.run(["repl", "--store", store] + Kept.clock, stdin: Data("add One\nadd Two\n".utf8))
        let r = try Kept.run(["run", "--store", store] + Kept.clock + ["-e", "list"])
        XCTAssertEqual(r.stdoutLines.first, "All 2 tasks", r.summary)
    }

    /// Dot-command errors are E05xx diagnostics with the line and a caret.
    func testDotCommandErrors() throws {
        let r = try Kept.run(["repl", "--errors", "rich"] + Kept.clock, stdin: Data(".bail off\n.mdoe json\n.mode yaml\n.timer maybe\n.save\n.help .record\n".utf8))
        XCTAssertEqual(r.status, 1, r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0501]: unknown dot-command '.mdoe'"), r.summary)
        XCTAssertTrue(r.stderr.contains("did you mean '.mode'?"), r.summary)
        XCTAssertTrue(r.stderr.contains("  --> <stdin>:3:7"), r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0502]: '.mode' takes text, json or json pretty, not 'yaml'"), r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0502]: '.timer' takes on or off, not 'maybe'"), r.summary)
        XCTAssertTrue(r.stderr.contains("error[E0502]: this session has no store file"), r.summary)
        XCTAssertTrue(r.stdout.contains(".record FILE"), r.summary)
        // Without `.bail off` the first error ends the input.
        let bail = try Kept.run(["repl", "--errors", "short"] + Kept.clock, stdin: Data(".mdoe json\n.mode yaml\n.help\n".utf8))
        XCTAssertEqual(bail.status, 1, bail.summary)
        XCTAssertEqual(bail.stderr.split(separator: "\n").count, 1, bail.summary)
        XCTAssertEqual(bail.stdout, "", bail.summary)
    }

    /// The REPL's did-you-mean is the diagnostic's fix-it: the rich help line is its title, and
    /// in JSON mode the error carries it with the range to replace.
    func testDidYouMeanIsTheFixIt() throws {
        let r = try Kept.run(["repl", "--errors", "rich"] + Kept.clock, stdin: Data(".bail off\nlsit\n.mode json\nlsit\n".utf8))
        XCTAssertTrue(r.stderr.contains("   = help: did you mean 'list'?"), r.summary)
        let json = try XCTUnwrap(r.stdoutLines.last, r.summary)
        let error = try XCTUnwrap(try JSONParser.parse(json)["error"]?.objectValue, json)
        XCTAssertEqual(error["help"]?.stringValue, "did you mean 'list'?", json)
        let fix = try XCTUnwrap(error["fixIts"]?.arrayValue?.first?.objectValue, json)
        XCTAssertEqual(fix["title"]?.stringValue, error["help"]?.stringValue, json)
        XCTAssertEqual(fix["replacement"]?.stringValue, "list", json)
        XCTAssertEqual([fix["line"], fix["column"], fix["endLine"], fix["endColumn"]].map { $0?.numberValue?.int }, [4, 1, 4, 5], json)
    }

    /// `.read` runs a script as `kept run` would; `.open` switches the store.
    func testReadAndOpen() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let script = try tmp.write("s.kept", "add From script\nlist\n")
        let other = tmp.path("other.json")
        let r = try Kept.run(["repl"] + Kept.clock, stdin: Data(".read \(script)\n.open \(other)\nadd In other\n.read \(tmp.path("missing.kept"))\n".utf8))
        XCTAssertEqual(r.stdoutLines, [
            "Added 1 · From script", "All 1 task", "1  From script",
            "Opened \(other) · 0 tasks · written after each change", "Added 1 · In other",
        ], r.summary)
        XCTAssertTrue(r.stderr.contains("E0309"), r.summary)
        XCTAssertEqual(r.status, 1, r.summary)
        let check = try Kept.run(["run", "--store", other] + Kept.clock + ["-e", "list"])
        XCTAssertEqual(check.stdoutLines.first, "All 1 task", check.summary)
    }

    /// The real binary in a pseudo-terminal: Tests/pty/repl_pty.py.
    func testPseudoTerminalSession() throws {
        try Kept.runDriver("Tests/pty/repl_pty.py")
    }

    /// Piped a line at a time, each statement's output arrives before the next line is sent,
    /// and a second process's write between two lines is seen by the next statement, for a
    /// JSON and a SQLite store: Tests/pipe/repl_pace.py.
    func testPipedInputKeepsPace() throws {
        try Kept.runDriver("Tests/pipe/repl_pace.py")
    }

    /// Answers the REPL's reads from a list, as a terminal would (the questions too).
    final class ScriptedEditor: LineEditor {
        var lines: [String]
        var prompts: [String] = []
        init(_ lines: [String]) { self.lines = lines }
        func read(prompt: String) -> EditorInput {
            prompts.append(prompt)
            return lines.isEmpty ? .end : .line(lines.removeFirst())
        }
        func remember(_ entry: String) {}
        var history: [String] { [] }
    }

    /// On a terminal a bulk delete asks; declined in JSON mode, its answer is still JSON.
    func testDeclinedBulkDeleteInJSONMode() {
        let s = session()
        s.bulkDelete = .ask
        _ = s.run(StatementSource(file: SourceFile(name: "t", text: "add Buy milk #phone")))
        let editor = ScriptedEditor([".mode json", "delete where #phone", "n", "count", "delete where #phone", "y"])
        let out = OutputStream(fd: 1)
        out.captured = []
        let err = OutputStream(fd: 2)
        err.captured = []
        let repl = REPL(session: s, editor: editor, options: SessionOptions(), out: out, err: err,
                        renderer: DiagnosticRenderer(style: .short), interactive: true)
        XCTAssertEqual(repl.run(), 0)
        XCTAssertTrue(editor.prompts.contains("Delete 2 tasks where #phone? [y/N] "), "\(editor.prompts)")
        let lines = out.captured ?? []
        XCTAssertTrue(lines.contains(#"{"bulk":"delete","results":[],"skipped":[],"declined":true}"#), "\(lines)")
        XCTAssertTrue(lines.contains(#"{"count":2,"total":2}"#), "\(lines)")
        XCTAssertFalse(lines.contains("Nothing deleted"), "\(lines)")
        XCTAssertEqual(s.store.taskCount, 0)
    }

    // MARK: - the pure parts

    func session() -> Session {
        var store = Store()
        store.put(Project(name: "Home"))
        store.put(Project(name: "Home Stuff"))
        let s = Session(store: JSONStore(memory: store), clock: .wall(SessionFactory.testNow), defaultZone: Zone(identifier: "Europe/Berlin") ?? Zone.utc)
        _ = s.run(StatementSource(file: SourceFile(name: "t", text: "add Call mom #phone")))
        _ = s.run(StatementSource(file: SourceFile(name: "t", text: "set 1 area Family")))
        return s
    }

    func complete(_ line: String, _ c: Completer) -> CompletionResult {
        let b = Array(line.utf8)
        var start = b.count
        while start > 0, !" \t\"(),=<>~&|".utf8.contains(b[start - 1]) { start -= 1 }
        return c.complete(line: b, wordStart: start, cursor: b.count)
    }

    func testCompletion() {
        let c = Completer(session: session())
        let table: [(String, String, CompletionResult)] = [
            ("comp-01", "compl", .words(["complete"])),
            ("comp-02", "re", .words(["repeat", "reopen", "reschedule", "remind", "reminders", "redo"])),
            ("comp-03", ".re", .words([".read", ".record"])),
            ("comp-04", "add Call @tom", .words(["@tomorrow"])),
            ("comp-05", "add Call +Ho", .words(["+Home", "+\"Home Stuff\""])),
            ("comp-06", "list #ph", .words(["#phone"])),
            ("comp-07", "list are", .words(["area:"])),
            ("comp-08", "list area:F", .words(["area:Family"])),
            ("comp-09", "list filter:Ov", .words(["filter:Overdue"])),
            ("comp-10", "add Pay every mo", .words(["monday", "mon", "mondays", "month", "months"])),
            ("comp-11", "show 1 du", .words(["due"])),
            ("comp-12", "set week", .words(["week-start"])),
            ("comp-13", "project ren", .words(["rename"])),
            ("comp-14", ".open ex", .files),
            ("comp-15", ".mode j", .words(["json"])),
            ("comp-16", "help lis", .words(["list"])),
            ("comp-17", "date next fr", .words(["from", "friday", "fri"])),
            ("comp-18", "move 1 to tom", .words(["tomorrow"])),
            ("comp-19", "list has sub", .words(["subtasks", "subtask"])),
            ("comp-20", "list no rem", .words(["reminder", "reminders"])),
            ("comp-21", "count is s", .words(["subtask"])),
            ("comp-22", "list done to", .words(["today"])),
            ("comp-23", "count created > yes", .words(["yesterday"])),
            ("comp-24", "list blo", .words(["blocked", "blocking"])),
            ("comp-25", "set where (has est", .words(["estimate", "estimates"])),
        ]
        for (id, line, want) in table {
            XCTAssertEqual(complete(line, c), want, id)
        }
    }

    /// R-REPL-1: Tab offers only what parses: no `due:` or `title:` in a filter, a setting's
    /// values after `set KEY`, the settable fields after `set ID`, a field's values after them,
    /// the ids of the tasks a verb takes with their titles, and files after `import`/`export`.
    /// R-FIL-7: Taskwarrior's `due:today` and `+tag` complete to Kept's `@today` and `#tag`.
    func testCompletionOffersOnlyWhatParses() {
        let c = Completer(session: session())
        let call = IDCandidate(id: "1", title: "Call mom")
        let table: [(String, String, CompletionResult)] = [
            ("only-01", "list du", .words(["due"])),
            ("only-02", "list ti", .words(["title"])),
            ("only-03", "list cr", .words(["created"])),
            ("only-04", "list title:", .words([])),
            ("only-05", "list due:tod", .words(["@today"])),
            ("only-06", "list +ph", .words(["#phone"])),
            ("only-07", "list +Ho", .words(["+Home", "+\"Home Stuff\""])),
            ("only-08", "list due b", .words(["before"])),
            ("only-09", "list title ", .words(["~"])),
            ("only-10", "set week-start ", .words(["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])),
            ("only-11", "set clock ", .words(["12h", "24h"])),
            ("only-12", "set day-start ", .words(["00:00"])),
            ("only-13", "set 1 cr", .words([])),
            ("only-14", "set 1 i", .words([])),
            ("only-15", "set 1 pr", .words(["priority", "project"])),
            ("only-16", "set 1 priority h", .words(["high"])),
            ("only-17", "set 1 project H", .words(["Home", "\"Home Stuff\""])),
            ("only-18", "complete ", .ids([call])),
            ("only-19", "why 1", .ids([call])),
            ("only-20", "show ", .ids([call])),
            ("only-21", "reopen ", .ids([])),
            ("only-22", "not today ", .ids([call])),
            ("only-23", "set 1", .ids([call])),
            ("only-24", "set we", .words(["week-start"])),
            ("only-25", "complete w", .words(["where"])),
            ("only-26", "import ex", .files),
            ("only-27", "export ex", .files),
            ("only-28", "list status:w", .words(["status:waiting"])),
            ("only-29", "list parent:", .words(["parent:1"])),
            ("only-30", "explain #phone for ", .ids([call])),
            ("only-31", "explain #phone fo", .words([])),
        ]
        for (id, line, want) in table {
            XCTAssertEqual(complete(line, c), want, id)
        }
    }

    func testCompletionNeverWrites() {
        let s = session()
        let before = StoreCodec.encode(s.store.snapshot())
        let c = Completer(session: s)
        for l in ["add x +", "list #", "list area:", "filter del", "@", ""] { _ = complete(l, c) }
        XCTAssertEqual(StoreCodec.encode(s.store.snapshot()), before)
    }

    func testCaptureHighlight() throws {
        let h = CaptureHighlighter(session: session())
        let line = "add Call mom @tomorrow 3pm every monday !high +Home #phone [[Plan]]"
        let got = try XCTUnwrap(h.highlight(Array(line.utf8), cursor: line.utf8.count))
        XCTAssertEqual(got.tokens.map(\.kind), [.date, .repeat, .priority, .project, .tag, .note])
        XCTAssertEqual(got.painted, "\u{1B}[1madd\u{1B}[0m Call mom \u{1B}[36m@tomorrow 3pm\u{1B}[0m \u{1B}[35mevery monday\u{1B}[0m "
            + "\u{1B}[31m!high\u{1B}[0m \u{1B}[34m+Home\u{1B}[0m \u{1B}[32m#phone\u{1B}[0m \u{1B}[33m[[Plan]]\u{1B}[0m")
        XCTAssertEqual(got.ghost, "")
        // The visible text is the line itself.
        XCTAssertEqual(got.painted.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression), line)
        // An unfinished date or repeat phrase shows its completion after the cursor only.
        XCTAssertEqual(h.highlight(Array("add Call @tom".utf8), cursor: 13)?.ghost, "orrow")
        XCTAssertEqual(h.highlight(Array("parse Pay every mo".utf8), cursor: 18)?.ghost, "nday")
        XCTAssertEqual(h.highlight(Array("add Call @tom".utf8), cursor: 5)?.ghost, "")
        // A line with an error still colours the tokens before it.
        XCTAssertEqual(h.highlight(Array("add #phone !hi".utf8), cursor: 14)?.tokens.map(\.kind), [.tag])
        // Only capture lines and filters (testFilterHighlight).
        XCTAssertNil(h.highlight(Array("complete 3".utf8), cursor: 10))
        XCTAssertNil(h.highlight(Array("add".utf8), cursor: 3))
    }

    /// Filters are coloured by the terms the filter parser reads; a look-alike word (W0001) is
    /// underlined; each filter of a comma list, and none of the list clauses.
    func testFilterHighlight() throws {
        let h = CaptureHighlighter(session: session())
        func paint(_ line: String) -> String? { h.highlight(Array(line.utf8), cursor: line.utf8.count)?.painted }
        let e = "\u{1B}["
        XCTAssertEqual(paint("list #phone !high +Home or milk"),
                       "\(e)1mlist\(e)0m \(e)32m#phone\(e)0m \(e)31m!high\(e)0m \(e)34m+Home\(e)0m or milk")
        XCTAssertEqual(paint("count -@today has subtasks"), "\(e)1mcount\(e)0m -\(e)36m@today\(e)0m \(e)96mhas subtasks\(e)0m")
        XCTAssertEqual(paint("list updated today"), "\(e)1mlist\(e)0m \(e)4;33mupdated today\(e)0m")
        XCTAssertEqual(paint("list #a, due < fri order by due, priority"),
                       "\(e)1mlist\(e)0m \(e)32m#a\(e)0m, \(e)36mdue < fri\(e)0m order by due, priority")
        XCTAssertEqual(paint("filter Errands = #errand"), "\(e)1mfilter\(e)0m Errands = \(e)32m#errand\(e)0m")
        // Half typed: drawn plain, the command word bold.
        XCTAssertEqual(paint("list (#a or"), "\(e)1mlist\(e)0m (#a or")
        XCTAssertNil(paint("explain date fri"))
        for line in ["list title ~ /a,b/ , #x", "list \"a, b\"", "count ((", "list ,,", "list order"] {
            let p = try XCTUnwrap(paint(line), line)
            XCTAssertEqual(p.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression), line)
        }
    }

    func testCaptureColumnsMeasureWideCharacters() throws {
        // Readline sets LC_CTYPE from the environment; the painter measures in that locale.
        guard setlocale(LC_CTYPE, "C.UTF-8") != nil else { throw XCTSkip("no C.UTF-8 locale") }
        XCTAssertEqual(CaptureHighlighter.columns(Array("add Pay rent".utf8)), 12)
        // CJK and emoji take two columns each, a combining mark none.
        XCTAssertEqual(CaptureHighlighter.columns(Array("日本 🎉".utf8)), 7)
        XCTAssertEqual(CaptureHighlighter.columns(Array("e\u{301}".utf8)), 1)
        // A control character (readline draws `^X`): not painted.
        XCTAssertNil(CaptureHighlighter.columns([0x61, 0x01]))
        XCTAssertTrue(CaptureHighlighter.narrow(Array("café".utf8)))
        XCTAssertFalse(CaptureHighlighter.narrow(Array("add 日本".utf8)))
    }

    func testHistoryPolicy() {
        XCTAssertEqual(History.path(environment: ["KEPT_HISTFILE": "/a/h", "XDG_STATE_HOME": "/s"]), "/a/h")
        XCTAssertEqual(History.path(environment: ["XDG_STATE_HOME": "/s", "HOME": "/home/u"]), "/s/kept/history")
        XCTAssertEqual(History.path(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]), "/home/u/.local/state/kept/history")
        XCTAssertNil(History.path(environment: [:]))
        XCTAssertTrue(History.accepts("list", after: nil))
        XCTAssertFalse(History.accepts("list", after: "list"))
        XCTAssertFalse(History.accepts(" secret", after: nil))
        XCTAssertFalse(History.accepts("", after: nil))
        XCTAssertEqual(History.maxEntries, 1000)
    }

    func testHistoryFileIsCreated() throws {
        let tmp = try TempDir()
        defer { tmp.cleanUp() }
        let p = tmp.path("a/b/history")
        XCTAssertTrue(History.prepare(p))
        XCTAssertTrue(FileManager.default.fileExists(atPath: p))
    }

    func testIncompleteStatements() {
        func incomplete(_ s: String) -> Bool { Parser.isIncomplete(StatementSource(file: SourceFile(name: "t", text: s))) }
        XCTAssertTrue(incomplete("list (#a or"))
        XCTAssertTrue(incomplete("add Call \"mom"))
        XCTAssertTrue(incomplete("set where (#a priority high"))
        XCTAssertTrue(incomplete("list (#a or\n#b"))
        XCTAssertFalse(incomplete("list (#a or\n#b)"))
        XCTAssertFalse(incomplete("add Buy milk (2 litres"))
        XCTAssertFalse(incomplete("list"))
        XCTAssertFalse(incomplete("list #a)"))
    }

    /// A statement read line by line reports the line of the whole input.
    func testDiagnosticsCountLinesOfTheWholeInput() {
        let file = SourceFile(name: "<repl>", text: "lsit", firstLine: 7)
        let r = Session(store: JSONStore(memory: Store()), clock: .wall(SessionFactory.testNow), defaultZone: Zone.utc).run(StatementSource(file: file))
        let d = r.diagnostics
        XCTAssertEqual(d.first?.location?.line, 7)
        XCTAssertEqual(DiagnosticRenderer(style: .short).render(d[0]), "<repl>:7:1: error[E0101]: unknown command 'lsit'; help: did you mean 'list'?")
        XCTAssertTrue(DiagnosticRenderer(style: .rich).render(d[0]).contains(" 7 | lsit\n   | ^^^^ not a command"))
    }

    func testRecordedExpectedLinesReadBack() {
        XCTAssertEqual(Recorder.expectedLine(""), "<BLANKLINE>")
        XCTAssertEqual(Recorder.expectedLine("All 2 tasks"), "All 2 tasks")
        XCTAssertEqual(Recorder.expectedLine("> x"), "\\Q> x\\E (re)")
        XCTAssertEqual(Recorder.storePath(for: "dir/bug.kept", 1), "dir/bug.store.json")
        XCTAssertEqual(Recorder.storePath(for: "bug", 2), "bug.store-2.json")
    }
}
