// Help and shells through the real binary: `kept help` lists the commands (of the language and
// the front ends), `help run|test|repl` explain the front ends, every command's example is a
// statement that runs, `--color`, the completion scripts (`bash -n`, `zsh -n`, a bash completion
// of `kept te<TAB>`), the man page (groff without a warning) and `make install PREFIX=…`.

import Foundation
@testable import KeptCLI
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter
import XCTest

final class HelpTests: XCTestCase {
    func shell(_ argv: [String], cwd: URL? = nil) throws -> (status: Int32, output: String) {
        try Kept.runProgram(argv, cwd: cwd)
    }

    /// `kept help` lists every command of the language with its summary, then the front ends;
    /// it is not the usage.
    func testHelpListsTheCommands() throws {
        let r = try Kept.run(["help"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertEqual(r.stdoutLines.first, "Commands:", r.summary)
        for kw in Keyword.commands {
            XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix("  \(kw.rawValue) ") && $0.hasSuffix(kw.summary) }, "\(kw.rawValue)\n\(r.summary)")
        }
        for verb in ["repl", "run", "test", "convert", "completion", "manpage"] {
            XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix("  \(verb) ") }, "\(verb)\n\(r.summary)")
        }
        XCTAssertFalse(r.stdout.contains("usage: kept"), r.summary)
    }

    /// `help run`, `help test` and `help repl` explain the front ends with their options (from
    /// the one table of flags); `kept VERB --help` is the same text.
    func testHelpOfTheFrontEnds() throws {
        for (verb, first, option) in [("run", "kept run [OPTIONS] [-e COMMAND]... [SCRIPT...]", "  --write "),
                                      ("test", "kept test [OPTIONS] PATH[:LINE]...", "  --report tap|junit FILE "),
                                      ("repl", "kept repl [OPTIONS]", "  --color auto|always|never ")] {
            let r = try Kept.run(["help", verb])
            XCTAssertEqual(r.status, 0, r.summary)
            XCTAssertEqual(r.stdoutLines.first, first, r.summary)
            XCTAssertTrue(r.stdoutLines.contains { $0.hasPrefix(option) }, r.summary)
            XCTAssertEqual(try Kept.run([verb, "--help"]).stdout, r.stdout, verb)
        }
        XCTAssertFalse(try Kept.run(["help", "run"]).stdout.contains("--update"), "help run lists only run's options")
    }

    /// Every command's example is a real statement: run in order against examples/home.store.json,
    /// not one of them reports any error (not only no syntax error), and each prints something.
    func testEveryExampleRuns() throws {
        let store = Kept.packageRoot.appendingPathComponent("examples/home.store.json").path
        var args = ["run", "--store", store, "--errors", "short", "--echo"] + Kept.clock
        for kw in Keyword.commands {
            let h = try Kept.run(["help", kw.rawValue])
            let example = try XCTUnwrap(h.stdoutLines.first { $0.hasPrefix("example: ") }, h.summary)
            XCTAssertEqual(String(example.dropFirst(9)), kw.example)
            XCTAssertFalse(kw.example.contains("[") && kw.example.contains("|"), "\(kw.rawValue)'s example reads as a usage line")
            args += ["-e", kw.example]
        }
        let r = try Kept.run(args)
        XCTAssertEqual(r.status, 0, r.summary)
        // No error; only the note that the dry run wrote nothing (R-HOME-2).
        XCTAssertEqual(r.stderrLines, ["kept: note: nothing was written to \(store): 'kept run' is a dry run; --write saves its changes"], r.summary)
        XCTAssertEqual(r.stdoutLines.filter { $0.hasPrefix("> ") }.count, Keyword.commands.count, r.summary)
    }

    /// `--color always` colours errors even on a pipe, `never` never, `auto` not on a pipe, and
    /// NO_COLOR turns `auto` off but not `always`; a wrong value is a usage error.
    func testColorChoice() throws {
        let esc = "\u{1B}["
        let base = ["run", "--errors", "rich"] + Kept.clock
        XCTAssertTrue(try Kept.run(base + ["--color", "always", "-e", "show 9"]).stderr.contains(esc))
        XCTAssertTrue(try Kept.run(base + ["--color=always", "-e", "show 9"], environment: ["NO_COLOR": "1"]).stderr.contains(esc))
        XCTAssertFalse(try Kept.run(base + ["--color", "never", "-e", "show 9"]).stderr.contains(esc))
        XCTAssertFalse(try Kept.run(base + ["--color", "auto", "-e", "show 9"]).stderr.contains(esc))
        let rich = try Kept.run(base + ["--color", "never", "-e", "show 9"])
        XCTAssertTrue(rich.stderr.contains("error[E0301]"), rich.summary)
        let bad = try Kept.run(base + ["--color", "sometimes", "-e", "show 9"])
        XCTAssertEqual(bad.status, 64, bad.summary)
        XCTAssertEqual(bad.stderrLines.first, "kept: --color takes auto, always or never, not 'sometimes'", bad.summary)
    }

    /// The completion scripts are generated from the tables: `bash -n` and `zsh -n` accept them,
    /// bash completes `kept te<TAB>` to `test`, a flag's choices, `help` topics from the keyword
    /// table, and every command keyword is in each script.
    func testCompletionScripts() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        for sh in ["bash", "zsh", "fish"] {
            let r = try Kept.run(["completion", sh])
            XCTAssertEqual(r.status, 0, r.summary)
            let file = try dir.write("kept.\(sh)", r.stdout)
            for kw in Keyword.commands { XCTAssertTrue(r.stdout.contains(kw.rawValue), "\(sh) lacks \(kw.rawValue)") }
            for f in CommandLineOptions.flags {
                let n = f.names[0]
                // fish spells a short flag `-s x`.
                let word = n.hasPrefix("--") ? String(n.dropFirst(2)) : sh == "fish" ? "-s \(n.dropFirst())" : n
                XCTAssertTrue(r.stdout.contains(word), "\(sh) lacks \(f.names[0])")
            }
            if sh != "fish" {
                let check = try shell([sh, "-n", file])
                XCTAssertEqual(check.status, 0, "\(sh) -n: \(check.output)")
            }
        }
        func complete(_ words: [String]) throws -> String {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let r = try shell(["bash", "-c", "source \(dir.path("kept.bash")); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _kept; echo \"${COMPREPLY[*]}\""])
            XCTAssertEqual(r.status, 0, r.output)
            return r.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        XCTAssertEqual(try complete(["kept", "te"]), "test")
        XCTAssertEqual(try complete(["kept", "test", "--rep"]), "--report")
        XCTAssertEqual(try complete(["kept", "test", "--report", ""]), "tap junit")
        XCTAssertEqual(try complete(["kept", "run", "--color", ""]), "auto always never")
        XCTAssertEqual(try complete(["kept", "help", "resch"]), "reschedule")
        XCTAssertEqual(try complete(["kept", "completion", "z"]), "zsh")
        let bad = try Kept.run(["completion", "tcsh"])
        XCTAssertEqual(bad.status, 64, bad.summary)
    }

    /// The man page is roff groff reads without a warning, with every command, option and
    /// statement; `make install PREFIX=…` installs the binary, the man page and the three
    /// completion scripts.
    func testManPageAndInstall() throws {
        let dir = try TempDir()
        defer { dir.cleanUp() }
        let r = try Kept.run(["manpage"])
        XCTAssertEqual(r.status, 0, r.summary)
        XCTAssertTrue(r.stdout.hasPrefix(".TH KEPT 1 "), r.summary)
        let page = try dir.write("kept.1", r.stdout)
        let groff = try shell(["groff", "-man", "-Tutf8", "-ww", "-z", page])
        XCTAssertEqual(groff.status, 0, groff.output)
        XCTAssertEqual(groff.output, "", "groff warns")
        // Plain text, no line breaks inside a paragraph: each example reads as one run of words.
        let text = try shell(["groff", "-man", "-Tascii", "-rLL=2000n", "-P-b", "-P-u", "-P-c", page]).output
        for kw in Keyword.commands { XCTAssertTrue(text.contains("Example: \(kw.example)"), "the man page lacks \(kw.rawValue)'s example") }
        for verb in CommandLineOptions.verbs { XCTAssertTrue(text.contains("kept \(verb)"), verb) }

        let prefix = dir.path("prefix")
        let make = try shell(["make", "-s", "install", "PREFIX=\(prefix)", "INSTALL_BIN=\(try Kept.requireBinary())"], cwd: Kept.packageRoot)
        XCTAssertEqual(make.status, 0, make.output)
        for f in ["bin/kept", "share/man/man1/kept.1", "share/bash-completion/completions/kept", "share/zsh/site-functions/_kept",
                  "share/fish/vendor_completions.d/kept.fish"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: "\(prefix)/\(f)"), f)
        }
        XCTAssertEqual(try shell(["\(prefix)/bin/kept", "--version"]).output, "kept \(KeptMain.version)\n")
        XCTAssertEqual(try String(contentsOfFile: "\(prefix)/share/man/man1/kept.1", encoding: .utf8), r.stdout)
    }
}
