// `kept manpage`: the man page kept.1 in roff, made from the same tables as `kept --help`, the
// completion scripts and `help COMMAND` (the verbs, the flags, the keywords of the language,
// the dot-commands). `make man` writes it; `make install` installs it.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

enum ManPage {
    /// Text for roff: backslashes and hyphens escaped, other than ASCII as code points, a line that
    /// starts with `.` or `'` guarded.
    static func text(_ s: String) -> String {
        var e = ""
        for u in s.unicodeScalars {
            switch u {
            case "\\": e += "\\e"
            case "-": e += "\\-"
            default:
                if u.isASCII {
                    e.unicodeScalars.append(u)
                } else {
                    // Any other character as its code point (groff's \[uXXXX]).
                    let hex = String(u.value, radix: 16, uppercase: true)
                    e += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                }
            }
        }
        return e.hasPrefix(".") || e.hasPrefix("'") ? "\\&" + e : e
    }

    static func bold(_ s: String) -> String { "\\fB" + text(s) + "\\fR" }

    static func roff() -> String {
        var l: [String] = []
        l.append(".TH KEPT 1 \"\" \"kept \(KeptMain.version)\" \"User Commands\"")
        l.append(".SH NAME")
        l.append("kept \\- the rules engine of a personal planner, as a small language")
        l.append(".SH SYNOPSIS")
        for u in CommandLineOptions.usage.split(separator: "\n") {
            var line = String(u).trimmedSpaces
            if line.hasPrefix("usage: ") { line = String(line.dropFirst(7)) }
            l.append(".br")
            l.append(text(line))
        }
        l.append(".SH DESCRIPTION")
        l.append("Kept runs the statements of a small language over a task store: quick\\-add capture, date phrases, repeats,")
        l.append("filters, views and the Smart plan. The same statements run in three places, which are the commands below.")
        l.append(".SH COMMANDS")
        for v in CommandLineOptions.verbTable {
            l.append(".TP")
            l.append(bold("kept " + v.name))
            l.append(text(v.summary))
        }
        l.append(".SH OPTIONS")
        for f in CommandLineOptions.flags {
            l.append(".TP")
            l.append(f.names.map(bold).joined(separator: ", ") + (f.value.map { " \\fI" + text($0) + "\\fR" } ?? ""))
            l.append(text(f.summary) + " (" + text(f.verbs.joined(separator: ", ")) + ")")
        }
        l.append(".SH STATEMENTS")
        l.append("Each runs in the REPL, in scripts for \\fBkept run\\fR and in transcripts for \\fBkept test\\fR;")
        l.append("\\fBkept help\\fR \\fIcommand\\fR prints the same.")
        for k in Keyword.commands {
            l.append(".TP")
            l.append(bold(k.usage))
            l.append(text(k.summary) + ".")
            l.append(".br")
            l.append("Example: " + bold(k.example))
        }
        l.append(".SH REPL DOT-COMMANDS")
        for d in DotCommand.table {
            l.append(".TP")
            l.append(bold(d.usage))
            l.append(text(d.summary))
        }
        l.append(".SH ENVIRONMENT")
        for (name, what) in [
            ("NO_COLOR", "when set and not empty, no colour (unless --color always)"),
            ("TERM", "dumb: no colour, and the REPL reads stdin as a script"),
            ("KEPT_UPDATE", "1: kept test rewrites failing blocks, as --update"),
            ("KEPT_HISTFILE", "the REPL's history file"),
            ("XDG_STATE_HOME", "the history is $XDG_STATE_HOME/kept/history when KEPT_HISTFILE is not set"),
            ("KEPT_STORE", "your store, for the shell verbs (add, list, plan, done, show, edit, undo), init, import, export and sync when --store is not given"),
            ("XDG_DATA_HOME", "your store is $XDG_DATA_HOME/kept/tasks.db (~/.local/share/kept/tasks.db) unless KEPT_STORE or the config file names one"),
            ("KEPT_CONFIG, XDG_CONFIG_HOME", "the config file: $KEPT_CONFIG, else $XDG_CONFIG_HOME/kept/config (~/.config/kept/config); KEY = VALUE lines of 'store' and the settings"),
            ("VISUAL, EDITOR", "the editor of 'kept edit' (vi without them)"),
            ("PGHOST, PGDATABASE, PGUSER, PGPASSWORD", "libpq's: the sync server and login of a connection string that leaves them out (\"\" uses them all)"),
        ] {
            l.append(".TP")
            l.append(bold(name))
            l.append(text(what))
        }
        l.append(".SH EXIT STATUS")
        for (code, what) in [("0", "everything ran, and every test passed"), ("1", "a statement or a test failed, or a run's changes could not be written"),
                             ("2", "a script or store could not be read, or a test file could not be tested"),
                             ("3", "a sync could not reach its server: its changes wait for the next sync, and nothing else failed"),
                             ("64", "a usage error")] {
            l.append(".TP")
            l.append(bold(code))
            l.append(text(what))
        }
        l.append(".SH SEE ALSO")
        l.append("The language reference docs/LANGUAGE.md, transcripts docs/SCRIPTS.md, the JSON shapes docs/OUTPUT.md, the REPL docs/REPL.md.")
        return l.joined(separator: "\n") + "\n"
    }
}
