// The first hour (issue 32): the user's own store, the shell verbs, `kept init`, the config
// file, `kept edit`, the notes of a run that writes nothing, and command-line errors located in
// the command line. Each test gets a home folder of its own (HOME and the XDG folders); nothing
// here reads or writes the real user's files.
// covers: R-HOME-1, R-HOME-2, R-HOME-3, R-HOME-4, R-HOME-5

import Foundation
import XCTest

final class HomeTests: XCTestCase {
    /// A home folder for one test: HOME points at it, the XDG folders are left to their defaults.
    struct HomeDir {
        let dir: TempDir
        var path: String { dir.url.path }
        var env: [String: String] { ["HOME": path, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "TMPDIR": path] }
        var store: String { path + "/.local/share/kept/tasks.db" }
        var config: String { path + "/.config/kept/config" }

        init() throws { dir = try TempDir() }

        func kept(_ args: [String], env extra: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> KeptRun {
            try Kept.run(args + Kept.clock, environment: env.merging(extra) { $1 }, file: file, line: line)
        }

        func writeConfig(_ text: String) throws {
            try FileManager.default.createDirectory(atPath: path + "/.config/kept", withIntermediateDirectories: true)
            try text.write(toFile: config, atomically: true, encoding: .utf8)
        }
    }

    func mode(_ path: String) throws -> Int {
        let a = try FileManager.default.attributesOfItem(atPath: path)
        return (a[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// R-HOME-1: on a fresh machine (an empty home), `kept add Buy milk @tomorrow && kept list
    /// && kept done 1 && kept undo` works on a store made at the first change, readable only by
    /// its owner, with the zone it was made in.
    func testAFreshMachine() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let add = try h.kept(["add", "Buy", "milk", "@tomorrow"])
        XCTAssertEqual(add.status, 0, add.summary)
        XCTAssertEqual(add.stdoutLines, ["Added 1 · Buy milk · Tomorrow"])
        XCTAssertEqual(add.stderr, "")
        XCTAssertEqual(try mode(h.store), 0o600, "the store is its owner's only")
        XCTAssertEqual(try mode(h.path + "/.local/share/kept"), 0o700)
        let list = try h.kept(["list"])
        XCTAssertEqual(list.stdoutLines, ["All 1 task", "1  Buy milk  Tomorrow"], list.summary)
        let agenda = try h.kept(["agenda", "2", "days"])
        XCTAssertEqual(agenda.status, 0, agenda.summary)
        XCTAssertEqual(agenda.stdoutLines.prefix(2), ["Agenda · Mon Jun 15 – Tue Jun 16", "Mon Jun 15 · Today"], agenda.summary)
        XCTAssertTrue(agenda.stdoutLines.contains("    1  Buy milk"), agenda.summary)
        XCTAssertEqual(try h.kept(["done", "1"]).stdoutLines, ["Completed 1 · Buy milk"])
        XCTAssertEqual(try h.kept(["undo"]).stdoutLines, ["Undid complete 1 · Buy milk"])
        XCTAssertEqual(try h.kept(["list"]).stdoutLines, ["All 1 task", "1  Buy milk  Tomorrow"])
        // The store keeps the zone it was made in (--zone here, else the machine's).
        let zone = try Kept.run(["run", "--store", h.store, "-e", "set zone"], environment: h.env)
        XCTAssertEqual(zone.stdoutLines, ["Europe/Berlin"], zone.summary)

        // The same chain as a shell runs it, in one line.
        let h2 = try HomeDir()
        defer { h2.dir.cleanUp() }
        let clock = Kept.clock.joined(separator: " ")
        let (status, err) = try Kept.shell("""
            export HOME="$1" XDG_DATA_HOME= XDG_CONFIG_HOME= KEPT_STORE= ; \
            "$0" add Buy milk @tomorrow \(clock) && "$0" list \(clock) && "$0" done 1 \(clock) && "$0" undo \(clock)
            """, [h2.path])
        XCTAssertEqual(status, 0, err)
        XCTAssertEqual(try mode(h2.store), 0o600)
    }

    /// R-HOME-1: a read on a store not made yet makes none and says where it will be; a change
    /// that fails leaves no empty store behind.
    func testReadsAndFailuresMakeNoStore() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let list = try h.kept(["list"])
        XCTAssertEqual(list.status, 0, list.summary)
        XCTAssertEqual(list.stdoutLines, ["No open tasks"])
        XCTAssertEqual(list.stderrLines, ["kept: note: there is no store at \(h.store) yet (the default); 'kept add' makes it"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.store))
        let bad = try h.kept(["add", "Call", "+Nowhere"])
        XCTAssertEqual(bad.status, 1, bad.summary)
        XCTAssertTrue(bad.stderr.contains("E0206"), bad.summary)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.store), "a failed first change leaves no store")
        XCTAssertEqual(try h.kept(["undo"]).status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.store))
    }

    /// R-HOME-1: `--store` wins over `KEPT_STORE`, which wins over the config file's `store`,
    /// which wins over the default; `~/` is the home folder.
    func testWhichStore() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        try h.writeConfig("# my settings\nstore = ~/from-config.json\n")
        XCTAssertEqual(try h.kept(["add", "A"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path + "/from-config.json"))
        XCTAssertEqual(try h.kept(["add", "B"], env: ["KEPT_STORE": h.path + "/env.json"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: h.path + "/env.json"))
        XCTAssertEqual(try h.kept(["add", "C", "--store", h.path + "/flag.db"], env: ["KEPT_STORE": h.path + "/env.json"]).status, 0)
        XCTAssertEqual(try h.kept(["list", "--store", h.path + "/flag.db"]).stdoutLines, ["All 1 task", "1  C"])
        XCTAssertEqual(try h.kept(["list"], env: ["KEPT_STORE": h.path + "/env.json"]).stdoutLines, ["All 1 task", "1  B"])
        XCTAssertEqual(try h.kept(["list"]).stdoutLines, ["All 1 task", "1  A"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.store), "the default was never used")
        // `kept import` and `kept export` use it too.
        let tw = h.path + "/tw.json"
        try #"[{"uuid":"6f1d5f38-5a4e-4b8a-8c57-1d2f0f6b9a11","description":"From Taskwarrior","status":"pending","entry":"20260601T080000Z"}]"#
            .write(toFile: tw, atomically: true, encoding: .utf8)
        let imp = try h.kept(["import", tw])
        XCTAssertEqual(imp.status, 0, imp.summary)
        XCTAssertEqual(try h.kept(["list"]).stdoutLines, ["All 2 tasks", "2  From Taskwarrior", "1  A"])
    }

    /// R-HOME-1: the config file's keys are the settings table's plus `store`; a new store
    /// starts with its settings; a wrong line is E0510 at its place, with the nearest key.
    func testTheConfigFile() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        try h.writeConfig("clock = 24h\n  week-start = sunday\n")
        XCTAssertEqual(try h.kept(["add", "Call", "@tomorrow", "3pm"]).stdoutLines, ["Added 1 · Call · Tomorrow 15:00"])
        let s = try Kept.run(["run", "--store", h.store, "-e", "set week-start", "-e", "set clock"], environment: h.env)
        XCTAssertEqual(s.stdoutLines, ["sunday", "24h"], s.summary)
        try h.writeConfig("clock = 24h\nwek-start = sunday\n")
        let bad = try h.kept(["list"])
        XCTAssertEqual(bad.status, 2, bad.summary)
        XCTAssertEqual(bad.stderrLines, ["\(h.config):2:1: error[E0510]: unknown config key 'wek-start'; help: did you mean 'week-start'?"])
        try h.writeConfig("clock = 25h\n")
        XCTAssertEqual(try h.kept(["list"]).stderrLines, ["\(h.config):1:9: error[E0510]: the config key 'clock' takes 12h or 24h"])
        try h.writeConfig("clock\n")
        XCTAssertEqual(try h.kept(["list"]).stderrLines, ["\(h.config):1:1: error[E0510]: a config line is 'KEY = VALUE'; help: for example: week-start = sunday; '#' starts a comment"])
    }

    /// R-HOME-1: a new store takes the machine's zone, so a Taskwarrior import into it keeps
    /// an all-day Monday on Monday (it used to read as "Sun 10 PM, Overdue 1d" in a store left
    /// on UTC); `zone NAME` is for one session, `set zone NAME` is saved.
    func testANewStoreTakesTheMachinesZone() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let tw = h.path + "/tw.json"
        try #"[{"uuid":"6f1d5f38-5a4e-4b8a-8c57-1d2f0f6b9a12","description":"Dentist","status":"pending","entry":"20260601T080000Z","due":"20260614T220000Z"}]"#
            .write(toFile: tw, atomically: true, encoding: .utf8)
        let now = ["--now", "2026-06-15T09:00"]
        let imp = try Kept.run(["import", tw] + now, environment: h.env.merging(["TZ": "Europe/Berlin"]) { $1 })
        XCTAssertEqual(imp.status, 0, imp.summary)
        let list = try Kept.run(["list"] + now, environment: h.env.merging(["TZ": "Europe/Berlin"]) { $1 })
        XCTAssertEqual(list.stdoutLines, ["All 1 task", "1  Dentist  Today"], list.summary)
        // Elsewhere later (another machine zone), the store keeps its own zone.
        let away = try Kept.run(["list"] + now, environment: h.env.merging(["TZ": "America/New_York"]) { $1 })
        XCTAssertEqual(away.stdoutLines, list.stdoutLines, away.summary)
        let zone = try Kept.run(["run", "--store", h.store, "-e", "set zone", "-e", "zone UTC", "-e", "set zone"], environment: h.env)
        XCTAssertEqual(zone.stdoutLines, ["Europe/Berlin", "Europe/Berlin"], "zone NAME sets the session's zone, not the store's")
    }

    /// R-HOME-1: `kept init` makes the default store, or PATH, with the config file's settings
    /// and the zone; it never replaces a store.
    func testInit() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let made = try h.kept(["init"])
        XCTAssertEqual(made.stdoutLines, ["Made \(h.store) (SQLite) · zone Europe/Berlin"], made.summary)
        XCTAssertEqual(try mode(h.store), 0o600)
        let again = try h.kept(["init"])
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.stderrLines, ["kept: '\(h.store)' exists; 'kept init' makes a new store and never replaces one"])
        let json = try Kept.run(["init", h.path + "/b.json", "--zone", "America/New_York"], environment: h.env)
        XCTAssertEqual(json.stdoutLines, ["Made \(h.path)/b.json (JSON) · zone America/New_York"], json.summary)
        XCTAssertEqual(try mode(h.path + "/b.json"), 0o600)
        XCTAssertEqual(try Kept.run(["init", "--store", "x.db"], environment: h.env).status, 64)
    }

    /// R-HOME-2: `kept run` that changed a store but writes it not says so at its end; a store
    /// path that does not exist is named.
    func testARunThatWritesNothingSaysSo() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let nw = h.path + "/nw.json"
        let dry = try Kept.run(["run", "--store", nw, "-e", "add Forgotten write @today"] + Kept.clock, environment: h.env)
        XCTAssertEqual(dry.status, 0)
        XCTAssertEqual(dry.stdoutLines, ["Added 1 · Forgotten write · Today"])
        XCTAssertEqual(dry.stderrLines, ["kept: note: there is no store at \(nw): the run reads an empty store",
                                         "kept: note: nothing was written to \(nw): 'kept run' is a dry run; --write saves its changes"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: nw))
        let noStore = try Kept.run(["run", "--write", "-e", "add x"] + Kept.clock, environment: h.env)
        XCTAssertEqual(noStore.stderrLines, ["kept: note: nothing was written: this run has no store; --store FILE --write saves its changes, and 'kept add …' files on your own store"])
        let typo = try Kept.run(["run", "--store", h.path + "/hom.json", "-e", "list"] + Kept.clock, environment: h.env)
        XCTAssertEqual(typo.stdoutLines, ["No open tasks"])
        XCTAssertEqual(typo.stderrLines, ["kept: note: there is no store at \(h.path)/hom.json: the run reads an empty store"])
        // A run that only reads says nothing more; one that wrote says nothing either.
        let wrote = try Kept.run(["run", "--store", nw, "--write", "-e", "add Kept"] + Kept.clock, environment: h.env)
        XCTAssertEqual(wrote.stderr, "", "a run with --write makes the store it was asked to: \(wrote.summary)")
        let read = try Kept.run(["run", "--store", nw, "-e", "list"] + Kept.clock, environment: h.env)
        XCTAssertEqual(read.stderr, "", read.summary)
    }

    /// An editor: a shell script that rewrites lines of the file it is given.
    func editor(_ h: HomeDir, _ body: String) throws -> String {
        let path = h.path + "/editor-\(UUID().uuidString).sh"
        try "#!/bin/sh\nset -e\nf=\"$1\"\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// R-HOME-4: `kept edit` opens the task as text in $EDITOR and applies the lines changed as
    /// one step: `kept undo` takes both fields back at once.
    func testEditChangesTwoFieldsAsOneStep() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        XCTAssertEqual(try h.kept(["add", "Buy", "milk", "@tomorrow", "#shop"]).status, 0)
        let ed = try editor(h, """
            sed -i -e 's/^title: .*/title: Buy oat milk/' -e 's/^priority: .*/priority: high/' -e 's/^tags: .*/tags: shop errand/' "$f"
            """)
        let e = try h.kept(["edit", "1"], env: ["EDITOR": ed, "VISUAL": ""])
        XCTAssertEqual(e.status, 0, e.summary)
        XCTAssertEqual(e.stdoutLines, ["Edited 1 · Buy oat milk · title, priority, tags"])
        let show = try h.kept(["show", "1", "--format", "json"])
        XCTAssertTrue(show.stdout.contains(#""title":"Buy oat milk""#), show.summary)
        XCTAssertTrue(show.stdout.contains(#""priority":"high""#), show.summary)
        XCTAssertTrue(show.stdout.contains(#""tags":["shop","errand"]"#), show.summary)
        XCTAssertTrue(show.stdout.contains(#""due":{"date":"2026-06-16","time":null}"#), "an unchanged line changes nothing: \(show.stdout)")
        XCTAssertEqual(try h.kept(["undo"]).stdoutLines, ["Undid edit 1 · Buy oat milk"])
        let back = try h.kept(["show", "1", "--format", "json"])
        XCTAssertTrue(back.stdout.contains(#""title":"Buy milk""#) && back.stdout.contains(#""priority":"none""#)
                      && back.stdout.contains(#""tags":["shop"]"#), back.summary)
        // The editor saw the task as text: every field a line, the store's values.
        let look = try editor(h, "cp \"$f\" \"\(h.path)/seen.txt\"")
        let same = try h.kept(["edit", "1"], env: ["EDITOR": look])
        XCTAssertEqual(same.stdoutLines, ["No change · 1 · Buy milk"], same.summary)
        let seen = try String(contentsOfFile: h.path + "/seen.txt", encoding: .utf8)
        XCTAssertTrue(seen.contains("\ntitle: Buy milk\ndue: 2026-06-16\n"), seen)
        XCTAssertTrue(seen.contains("\ntags: shop\n"), seen)
    }

    /// R-HOME-4: what cannot be applied changes nothing: a line that is not `FIELD: VALUE`, a
    /// bad value (at its place in the file), an editor that fails, and a field another process
    /// changed while the editor was open (the user's text is kept).
    func testEditRefusesWhatItCannotApply() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        XCTAssertEqual(try h.kept(["add", "Buy", "milk"]).status, 0)
        let noColon = try editor(h, "echo 'just words' >> \"$f\"")
        let r1 = try h.kept(["edit", "1"], env: ["EDITOR": noColon])
        XCTAssertEqual(r1.status, 1)
        XCTAssertTrue(r1.stderr.contains("error[E0511]: an edited line is 'FIELD: VALUE'"), r1.summary)
        let badDue = try editor(h, "sed -i 's/^due: .*/due: someday maybe/' \"$f\"")
        let r2 = try h.kept(["edit", "1"], env: ["EDITOR": badDue])
        XCTAssertEqual(r2.status, 1)
        XCTAssertTrue(r2.stderr.contains(":6:6: error["), "the error points at the due's value: \(r2.stderr)")
        XCTAssertTrue(r2.stderr.contains("your edited text is kept in"), r2.summary)
        let failing = try editor(h, "exit 3")
        let r3 = try h.kept(["edit", "1"], env: ["EDITOR": failing])
        XCTAssertEqual(r3.status, 1)
        XCTAssertTrue(r3.stderr.contains("exited with status 3; nothing was changed"), r3.summary)
        let bin = try Kept.requireBinary()
        let racing = try editor(h, """
            "\(bin)" run --store "\(h.store)" --write -e 'set 1 title Bought elsewhere' \(Kept.clock.joined(separator: " "))
            sed -i 's/^title: .*/title: Buy oat milk/' "$f"
            """)
        let r4 = try h.kept(["edit", "1"], env: ["EDITOR": racing])
        XCTAssertEqual(r4.status, 1, r4.summary)
        XCTAssertTrue(r4.stderr.contains("'title' changed in the store while the editor was open"), r4.summary)
        XCTAssertEqual(try h.kept(["list"]).stdoutLines, ["All 1 task", "1  Bought elsewhere"], "the other process's change stands")
        XCTAssertEqual(try h.kept(["edit", "9"], env: ["EDITOR": failing]).status, 1)
        XCTAssertEqual(try h.kept(["edit", "x"]).status, 64)
    }

    /// R-HOME-5: a verb's errors point into the command line as typed, `kept` and all; an
    /// unknown option suggests only the options of that command.
    func testCommandLineErrorsLocateThemselves() throws {
        let h = try HomeDir()
        defer { h.dir.cleanUp() }
        let add = try h.kept(["add", "Call", "+Nowhere", "--errors", "rich"])
        XCTAssertEqual(add.status, 1)
        XCTAssertTrue(add.stderr.contains("--> command line:1:15\n"), add.stderr)
        XCTAssertTrue(add.stderr.contains(" 1 | kept add Call +Nowhere\n   |               ^^^^^^^^"), add.stderr)
        // The issue's reproducer from the shell: an impossible time is E0205 at its place in
        // the command line, and no store is made for it.
        let meet = try h.kept(["add", "Meet", "@tomorrow", "25:00", "--errors", "rich"])
        XCTAssertEqual(meet.status, 1)
        XCTAssertTrue(meet.stderr.contains("error[E0205]") && meet.stderr.contains("--> command line:1:25\n"), meet.stderr)
        XCTAssertTrue(meet.stderr.contains(" 1 | kept add Meet @tomorrow 25:00\n   |                         ^^^^^"), meet.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: h.store))
        // `kept import` errors are the command line's, and never recommend --keep-going.
        let bad = h.path + "/bad.json"
        try #"[{"description":"x","status":"pending","uuid":"zz"}]"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let imp = try h.kept(["import", bad, "--store", h.path + "/s.json"])
        XCTAssertEqual(imp.status, 1)
        XCTAssertTrue(imp.stderr.hasPrefix("command line:1:13: error[E0604]"), imp.stderr)
        XCTAssertFalse(imp.stderr.contains("--keep-going"), imp.stderr)
        let run = try Kept.run(["run", "--wirte"])
        XCTAssertEqual(run.stderrLines.first, "kept: unknown option '--wirte' for 'kept run'; did you mean '--write'?")
        let imp2 = try Kept.run(["import", "x.json", "--keep-going"])
        XCTAssertEqual(imp2.stderrLines.first, "kept: unknown option '--keep-going' for 'kept import'; --keep-going is an option of 'kept run'")
    }

    /// The REPL without a store file asks before Ctrl-D throws its changes away
    /// (R-HOME-3): Tests/pty/home_pty.py.
    func testTheStorelessREPLAsksBeforeDiscarding() throws {
        try Kept.runDriver("Tests/pty/home_pty.py")
    }
}
