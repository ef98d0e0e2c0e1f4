// The help of the front ends, which are not part of the language: `kept --help` (every option,
// from CommandLineOptions.flags), `kept help run`, `kept help test`, `kept help repl` and
// `kept help .NAME`. `kept help` lists the language's commands (the `help` statement).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum FrontEndHelp {
    /// The options of some verbs, aligned, from the one table of flags.
    static func optionLines(for verb: String?) -> [String] {
        let rows = CommandLineOptions.flags.filter { verb == nil || $0.verbs.contains(verb ?? "") }.map { f -> (String, String) in
            (f.names.joined(separator: ", ") + (f.value.map { " " + $0 } ?? ""), f.summary)
        }
        let w = rows.map(\.0.count).max() ?? 0
        return rows.map { "  \($0.0.padding(w))  \($0.1)" }
    }

    /// `kept --help`.
    static var options: [String] {
        ["Kept: the rules engine of a personal planner, as a small language.", "", CommandLineOptions.usage, ""]
            + optionLines(for: nil)
            + ["",
               "'kept help' lists the commands of the language; 'kept help COMMAND' explains one.",
               "'kept help run', 'kept help test' and 'kept help repl' explain the front ends.",
               "Exit codes: 0 ok, 1 a statement or test failed, 2 a script or store could not be read,",
               "3 a sync could not reach its server (its changes wait; nothing else failed), 64 usage."]
    }

    /// `kept help` with no topic: the commands of the language, then where the rest is.
    static func commands(_ statementHelp: [String]) -> [String] {
        let w = CommandLineOptions.verbTable.map(\.name.count).max() ?? 0
        return statementHelp + ["", "Front ends (kept VERB):"]
            + CommandLineOptions.verbTable.map { "  \($0.name.padding(w))  \($0.summary)" }
            + ["", "'kept help run', 'kept help test' and 'kept help repl' explain the front ends; 'kept --help' lists the options."]
    }

    /// `kept help run|test|repl`, or nil for another topic.
    static func frontEnd(_ verb: String) -> [String]? {
        switch verb {
        case "run": return run
        case "test": return test
        case "repl": return repl
        case "lsp": return lsp
        default: return nil
        }
    }

    static var lsp: [String] {
        ["kept lsp",
         "",
         "A language server (LSP 3.17) on stdin and stdout for .kept scripts and transcripts, for an editor to start.",
         "It runs a document as 'kept test' runs it and shows, as you type: the errors of its commands and the blocks",
         "whose output no longer matches (with the diff), completion, hover that explains dates, repeats, filters, codes",
         "and tasks, definitions, symbols, semantic tokens, quick fixes and a code lens per block that updates it as",
         "'kept test --update' does. Set-up for Neovim, VS Code, Helix and Emacs: docs/EDITORS.md."]
    }

    static var run: [String] {
        ["kept run [OPTIONS] [-e COMMAND]... [SCRIPT...]",
         "",
         "Runs scripts, -e statements (in command-line order) or stdin against a store and prints what each prints.",
         "A script is a transcript ('> ' commands; expected blocks are ignored) or a plain script (a statement a line).",
         "A failing statement is reported with file:line:col and the next one still runs, unless --bail.",
         "The store file changes only with --write, and then the run is one transaction: written once at the end,",
         "and only when every statement succeeded (\(Catalog.runNotWrittenCode) otherwise; --keep-going writes what succeeded).",
         "A sync that could not reach its server is reported but is no failure: the run goes on, is written, and exits 3.",
         "",
         "Options:"] + optionLines(for: "run")
    }

    static var test: [String] {
        ["kept test [OPTIONS] PATH[:LINE]...",
         "",
         "Runs transcripts (folders are searched for .kept files) and compares each command's output with the",
         "block under it, in test mode: the clock at Mon 2026-06-15 09:00 in Europe/Berlin until a script sets its own.",
         "Scripts run on -j workers and are reported in path order as each finishes; a failure prints FAIL file:line",
         "and a diff. The last line counts commands: N passed, N failed, N errors (scripts that could not be tested,",
         "named above it), N skipped; then xfailed and deselected when there are any.",
         "",
         "Selecting: -k PATTERN runs the commands whose 'path::case' holds it (the lines before the first @case set up",
         "  every case and run as needed); PATH:LINE runs the command, or the case, at that line.",
         "Stopping: --fail-fast stops at the first failure, --max-failures N after N; the scripts not run are counted.",
         "Directives: @skip \"why\" and @xfail \"why\" right above a command mark it; right above @case, the case;",
         "  standing alone (a blank line after) before the first command of the file or a case, all of it.",
         "  An @xfail whose command (or every command of its case or file) passes is a failure (XPASS).",
         "  @unordered matches lines as a multiset (patterns too); under @format json each expected JSON value is",
         "  compared as a value (key order and layout aside; a string may be a (re) or (glob) pattern).",
         "Updating: --update rewrites only the lines that differ (patterns and '...' that still match stay); -i asks",
         "  per block (y yes, n no, a all the rest, q none of the rest); KEPT_UPDATE=1 is --update.",
         "Reports: --report tap FILE and --report junit FILE (each command with its time); '-' writes it to stdout and",
         "  the human output to stderr. A progress line shows when stdout is a terminal (--progress, --no-progress).",
         "",
         "Options:"] + optionLines(for: "test")
    }

    static var repl: [String] {
        let width = DotCommand.table.map(\.usage.count).max() ?? 0
        return [
            "kept repl [OPTIONS]",
            "",
            "The REPL runs the statements of the language, as 'kept run' does, and writes the store after each change.",
            "On a terminal it uses GNU readline; piped or with TERM=dumb it reads stdin exactly as 'kept run' does,",
            "line by line (each statement's output comes before the next line is read), but stops at the first error",
            "with exit 1 ('.bail off' reads on).",
            "On a store linked to an account it syncs live: another device's changes come between statements (above the",
            "prompt on a terminal) within a second, and each change goes to the server at once (docs/SYNC.md, \"Live\").",
            "",
            "Dot-commands (one line each, for the session; never part of a script for 'kept run'):",
        ] + DotCommand.table.map { "  \($0.usage.padding(width))  \($0.summary)" } + [
            "",
            "Keys: Tab completes commands, fields, names from the store, date and repeat words, and files after",
            "  .open/.read/.record/.save; Right arrow or Tab takes the grey completion of an unfinished date or repeat;",
            "  Ctrl-C clears the line (or the unfinished statement); Ctrl-D on an empty line quits",
            "  (without a store file it asks first when there are changes: '.save FILE' keeps them).",
            "A statement with an open quote or an unclosed filter '(' continues on the next line ('  ... ').",
            "History: $KEPT_HISTFILE, else $XDG_STATE_HOME/kept/history (~/.local/state/kept/history), the last \(History.maxEntries) lines;",
            "  a line starting with a space, or the same as the one before, is not kept, nor an 'account link' statement.",
            "Colour: capture tokens as you type and errors; off with NO_COLOR, TERM=dumb, --color never or '.color off'.",
            "",
            "Options:",
        ] + optionLines(for: "repl")
    }
}
