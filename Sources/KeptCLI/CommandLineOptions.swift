// The command line (README.md, `kept --help`): `kept [repl]`, `kept run`, `kept test`,
// `kept convert`, `kept help`, `kept completion`, `kept manpage`, `--help`, `--version`. Every
// option is a row of one table (`flags`), with its handler, which the parser runs and `kept --help`,
// `kept help run|test|repl`, the completion scripts and the man page read. A usage error names
// what was wrong and exits 64; a boolean flag takes no value (`--update=no` is a usage error,
// never read as set).

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// The options `run`, `repl` and `test` share.
public struct SessionOptions: Sendable {
    public var store: String?
    public var now: String?
    public var zone: String?
    public var format: OutputFormat = .text
    public var write = false
    public var errors: DiagnosticRenderer.Style?
    /// Print each command (`> …`) before its output, as a transcript reads.
    public var echo = false
    /// Confirm every bulk delete in advance (`--yes`); without it `run` and `test` refuse one
    /// (docs/SCRIPTS.md) and the REPL asks.
    public var yes = false
    /// `kept run --write`: write what succeeded even when a statement failed.
    public var keepGoing = false
    /// `kept run`: stop at the first statement that fails.
    public var bail = false
    /// `--color auto|always|never`.
    public var color = ColorChoice.auto
    /// `kept run --account CONNINFO`: the statements read the account's items on the server,
    /// with no store (docs/SYNC.md, "Queries on the server").
    public var account: String?
    /// Commit after each statement, as the REPL does (`kept account link`: the link first, then
    /// each page of its first pull, so a pull cut short keeps what came).
    public var commitEachStatement = false
    /// `--width N|auto|none`: the columns listings fit (docs/OUTPUT.md, "Width and colour").
    public var width = WidthChoice.auto
    /// `--pretty`: JSON output over several lines, indented.
    public var pretty = false
}

/// `--color`: `auto` colours on a terminal unless NO_COLOR is set or TERM is dumb; `always` and
/// `never` win over both.
public enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    func enabled(tty: Bool, _ t: TerminalInfo) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto: return tty && !t.colorDisabled
        }
    }
}

/// What `kept test` does besides running scripts: which commands, when to stop, what it writes.
public struct TestOptions: Sendable {
    /// `--update`: failing blocks are rewritten with what the commands printed.
    public var update = false
    /// `-i`: ask before each block is rewritten (y, n, a for all, q to stop asking).
    public var interactive = false
    public var jobs = 2
    /// `-k PATTERN`, repeatable: only the cases whose `path::case` holds one (ignoring case;
    /// `*` and `?` make it a glob that matches a part of the name).
    public var patterns: [String] = []
    /// `--max-failures N` (`--fail-fast` is 1): stop once N commands failed.
    public var maxFailures: Int? = nil
    /// `--report tap|junit FILE` (`-` is stdout), repeatable.
    public var reports: [ReportTarget] = []
    /// `--progress` / `--no-progress`; nil shows it when stdout is a terminal.
    public var progress: Bool? = nil
    /// `--allow-path DIR`, repeatable: folders a transcript's `import` and `export` may use
    /// besides its own folder and the run's temporary folder (docs/SCRIPTS.md).
    public var allowedPaths: [String] = []

    public init() {}
}

/// A report `kept test` writes: its format and its file (`-` for stdout).
public struct ReportTarget: Sendable, Equatable {
    public enum Format: String, Sendable, CaseIterable { case tap, junit }
    public var format: Format
    public var path: String
}

/// One source of statements for `kept run`, in command-line order.
public enum RunSource: Sendable, Equatable {
    case script(String)
    /// A `-e` command; `bytes` are the argument as the process got it, when known, so a command
    /// that is not UTF-8 is refused as a script is, not read with U+FFFD in it.
    case expression(String, bytes: [UInt8]? = nil)
    /// A statement a verb made from its command line (`kept add …`, `kept import FILE`): its
    /// errors are shown in that command line, `kept ` and all, never as `-e`.
    case commandLine(String)
}

/// What the command line asks for.
public enum Invocation: Sendable {
    case repl(SessionOptions)
    case run(SessionOptions, [RunSource])
    case test(SessionOptions, paths: [String], TestOptions)
    /// `kept help [TOPIC]`, and `kept VERB --help` (the verb as the topic).
    case help(String?)
    /// `kept --help`: the usage and every option.
    case options
    case version
    /// `kept convert [--salvage] FROM TO`: a store copied into a new file of the other kind (or
    /// the same); `salvage` copies what is sound of a damaged store.
    case convert(from: String, to: String, salvage: Bool)
    /// `kept check STORE`: the whole store verified, reading only.
    case check(String)
    /// `kept backup STORE FILE`: a consistent copy of a store into a new file.
    case backup(from: String, to: String)
    /// `kept sync [status] --store FILE`: one sync of the store, or its status.
    case sync(SessionOptions, status: Bool)
    /// `kept sync --watch --store FILE`: the store kept in sync until interrupted.
    case syncWatch(SessionOptions)
    /// `kept account init|create …` (`kept account link` is a run of its statement), with the
    /// options of its output.
    case account(AccountCommand, SessionOptions)
    /// `kept completion bash|zsh|fish`.
    case completion(Shell)
    /// `kept manpage`: the man page, as roff.
    case manpage
    /// `kept lsp`: the language server on stdin and stdout (docs/EDITORS.md).
    case lsp
    /// A shell verb on the user's store (`kept add`, `list`, `plan`, `done`, `show`, `undo`,
    /// `edit`, `init`; docs/LANGUAGE.md, "Your store"): `--store`, else `KEPT_STORE`, else the
    /// config file's, else the default store.
    case home(HomeCommand, SessionOptions)
}

/// What a shell verb does on the user's store.
public enum HomeCommand: Sendable, Equatable {
    /// One statement of the language, committed at once: `kept add …` is `add …`, `kept done
    /// 3` is `complete 3`. `shown` is the command line as the user typed it after `kept `
    /// (where its errors point), `text` the statement.
    case statement(text: String, verb: String)
    /// `kept edit ID`: the task as text in $VISUAL/$EDITOR, applied as one undoable change.
    case edit(String)
    /// `kept init [PATH]`: a new store, made now, with the config file's settings and the
    /// machine's zone.
    case initialize(String?)
}

/// What `kept account` does on a server (docs/SYNC.md, "Statements and commands"). A server is
/// a libpq connection string; an empty one means the PG* variables.
public enum AccountCommand: Sendable, Equatable {
    /// `kept account init`: makes or migrates the Kept schema.
    case initialize(server: String)
    /// `kept account create NAME`: an account and its login role; the password, if any, is read
    /// from standard input (`--password-stdin`), never from the command line.
    case create(name: String, readOnly: Bool, passwordStdin: Bool, server: String)
}

/// A command line that could not be understood.
public struct UsageError: Error, Sendable {
    public let message: String
}

/// One option of the command line: its spellings, the verbs that take it, its help, and what it
/// does. A row cannot be written without its handler, and a boolean flag is one whose handler
/// takes no value, so the table and the parser cannot disagree (OptionsTableTests runs each row).
public struct Flag: Sendable {
    /// Its spellings, the main one first.
    public let names: [String]
    /// The verbs that take it.
    public let verbs: [String]
    public let summary: String
    /// The words its value may be, for completion (empty: a file or free text).
    public let choices: [String]
    /// What the parser does when it meets the flag.
    let action: Action

    enum Action: Sendable {
        /// A boolean flag, set by its name alone.
        case set(@Sendable (inout ParsedArguments) -> Void)
        /// A flag with a value (written as the usage writes it); the handler returns the usage
        /// error's message when it refuses the value.
        case read(String, @Sendable (inout ParsedArguments, inout FlagValue) -> String?)
    }

    /// A boolean flag.
    init(_ names: [String], _ verbs: [String], _ summary: String, set: @escaping @Sendable (inout ParsedArguments) -> Void) {
        self.names = names
        self.verbs = verbs
        self.summary = summary
        self.choices = []
        self.action = .set(set)
    }

    /// A flag with a value.
    init(_ names: [String], _ verbs: [String], _ value: String, _ summary: String, choices: [String] = [],
         read: @escaping @Sendable (inout ParsedArguments, inout FlagValue) -> String?) {
        self.names = names
        self.verbs = verbs
        self.summary = summary
        self.choices = choices
        self.action = .read(value, read)
    }

    /// Its value as the usage writes it; nil for a boolean flag, set by its name alone.
    public var value: String? {
        if case .read(let v, _) = action { return v }
        return nil
    }

    /// Whether its value is a file name (completion offers files).
    public var takesFile: Bool { value == "FILE" || value == "FROM" }
}

/// What the flags and words of one command line have set so far; each row of
/// `CommandLineOptions.flags` changes it.
struct ParsedArguments {
    var session = SessionOptions()
    /// `kept run`'s scripts and `-e` statements, in command-line order.
    var sources: [RunSource] = []
    /// `kept test`'s scripts and folders.
    var paths: [String] = []
    var test = TestOptions()
    var interop = InteropArguments()
    /// `kept convert --salvage`.
    var salvage = false
    /// `--help`: the verb's help, whatever follows it.
    var helpAsked = false
    /// `kept sync` and `kept account`: their words (`status`; `init`, `create NAME`, `link CONNINFO`).
    var words: [String] = []
    /// `kept account`: `--server`, `--read-only`, `--password-stdin`.
    var server: String?
    var readOnly = false
    var passwordStdin = false
    /// `kept sync --watch`.
    var watch = false
}

/// A flag's value as its handler gets it.
struct FlagValue {
    let text: String
    /// The value's bytes as the process got them, when known (`-e` refuses a command that is
    /// not UTF-8).
    let bytes: [UInt8]?
    /// The arguments after the value, for a flag that takes two (`--report tap FILE`).
    var arguments: ArgumentCursor
}

/// The arguments still to read, by index (so an argument's raw bytes are found by its place).
struct ArgumentCursor {
    let arguments: ArraySlice<String>
    var position: Int

    mutating func next() -> String? {
        guard position < arguments.endIndex else { return nil }
        defer { position += 1 }
        return arguments[position]
    }
}

/// Parses arguments (without the program name).
public enum CommandLineOptions {
    public static let usage = """
    usage: kept [repl] [--store FILE] [--now ISO] [--zone TZ] [--format text|json [--pretty]] [--errors rich|short] [--color WHEN] [--width N] [--yes]
           kept run [--store FILE | --account CONNINFO] [--now ISO] [--zone TZ] [--format text|json [--pretty]] [--width N] [--write [--keep-going]] [--bail] [--echo] [--yes] [-e COMMAND]... [SCRIPT...]
           kept test [-k PATTERN]... [--update [-i]] [--fail-fast | --max-failures N] [--report tap|junit FILE]... [--[no-]progress] [--allow-path DIR]... [--yes] [-j N] PATH[:LINE]...
           kept convert [--salvage] FROM TO
           kept check STORE
           kept backup STORE FILE
           kept import FILE|- [--store FILE] [--as FORMAT] [--dry-run] [--events]
           kept export FILE|- [--store FILE] [--as FORMAT] [FILTER...]
           kept sync [status | --watch] [--store FILE] [--json]
           kept account init [--server CONNINFO]
           kept account create NAME [--read-only] [--password-stdin] [--server CONNINFO]
           kept account link CONNINFO [--store FILE]
           kept add LINE | list [FILTER] | plan | done ID | show ID | edit ID | undo   (your store)
           kept init [PATH]
           kept lsp [--stdio]
           kept help [COMMAND | run | test | repl] | kept completion bash|zsh|fish | kept manpage | kept --help | kept --version
    """

    /// The verbs with what each does, in the order help lists them.
    public static let verbTable: [(name: String, summary: String)] = [
        ("repl", "the interactive REPL (the default): readline on a terminal, a script reader on a pipe"),
        ("add", "file a task on your store from a quick-add line: kept add Buy milk @tomorrow"),
        ("list", "list your open tasks, or those a filter matches: kept list due today"),
        ("plan", "your plan for today: Top 3, then the Smart order"),
        ("agenda", "your next 7 days: tasks on the clock and connected calendars: kept agenda 14 days"),
        ("done", "mark tasks of your store done: kept done 3"),
        ("show", "print a task of your store"),
        ("edit", "change a task of your store in $EDITOR, as one undoable change"),
        ("undo", "take back the last change to your store"),
        ("init", "make a store: your default one, or PATH (SQLite, or JSON by its name)"),
        ("run", "run scripts, -e statements or stdin against a store"),
        ("test", "run transcripts as regression tests"),
        ("convert", "copy a store into a new JSON or SQLite file"),
        ("check", "verify a whole store: pages, every record's checksum, uids, the history"),
        ("backup", "copy a store, as of one moment, into a new file (safe while others write it)"),
        ("import", "read tasks from Taskwarrior JSON, iCalendar, JSON Lines or Todoist CSV into a store"),
        ("export", "write a store's tasks (or a filter's) as Taskwarrior JSON, iCalendar, JSON Lines or CSV"),
        ("sync", "sync a store with its account: send its changes, take in the other devices' ('sync status': where it stands; --watch: until interrupted)"),
        ("account", "make a server's kept schema (init), an account (create), or link a store to one (link)"),
        ("help", "list the commands of the language, or explain one or a front end"),
        ("completion", "print a completion script for bash, zsh or fish"),
        ("manpage", "print the man page (roff)"),
        ("lsp", "a language server (LSP 3.17) on stdin and stdout, for .kept scripts in an editor"),
    ]

    public static var verbs: [String] { verbTable.map(\.name) }

    /// Every option, in the order `kept --help` lists them.
    public static let flags: [Flag] = {
        let session = ["repl", "run", "test"]
        let interop = ["import", "export"]
        let home = CommandLineOptions.homeVerbs
        return [
            Flag(["--store"], session + interop + ["sync", "account"] + home.filter { $0 != "init" }, "FILE",
                 "the store to open (JSON or SQLite, docs/STORE.md); a missing file is an empty store. The shell verbs, import, export and sync use your store without it (KEPT_STORE, the config file, or ~/.local/share/kept/tasks.db)") {
                $0.session.store = $1.text
                return nil
            },
            Flag(["--now"], session + interop + ["sync"] + home, "ISO", "fix the clock: 2026-06-15T09:00 (wall clock) or 2026-06-15T07:00:00Z") {
                $0.session.now = $1.text
                return nil
            },
            Flag(["--zone"], session + interop + ["sync"] + home, "TZ", "the account time zone for this run, like Europe/Berlin") {
                $0.session.zone = $1.text
                return nil
            },
            Flag(["--format"], session + interop + ["sync", "account"] + home, "text|json", "text (default) or json: one JSON object per statement", choices: ["text", "json"]) {
                guard let f = OutputFormat(rawValue: $1.text) else { return "--format takes text or json, not '\($1.text)'" }
                $0.session.format = f
                return nil
            },
            Flag(["--errors"], session + interop + ["sync", "account"] + home, "rich|short", "rich (source line and caret) or short (file:line:col); default by terminal",
                 choices: ["rich", "short"]) {
                guard let s = DiagnosticRenderer.Style(rawValue: $1.text) else { return "--errors takes rich or short, not '\($1.text)'" }
                $0.session.errors = s
                return nil
            },
            Flag(["--color"], session + interop + ["sync", "account"] + home, "auto|always|never", "colour on a terminal unless NO_COLOR is set or TERM=dumb (auto), always, or never",
                 choices: ColorChoice.allCases.map(\.rawValue)) {
                guard let c = ColorChoice(rawValue: $1.text) else { return "--color takes auto, always or never, not '\($1.text)'" }
                $0.session.color = c
                return nil
            },
            Flag(["--width"], ["repl", "run", "list", "plan", "agenda"], "N|auto|none", "the columns lists and plans fit: auto ($COLUMNS, else the terminal's width, else none), a number, or none",
                 choices: ["auto", "none"]) {
                guard let w = WidthChoice($1.text) else { return "--width takes a number of columns from \(WidthChoice.minimum), auto or none, not '\($1.text)'" }
                $0.session.width = w
                return nil
            },
            Flag(["--pretty"], ["repl", "run"] + home.filter { $0 != "init" && $0 != "edit" }, "with --format json: print each JSON object indented, over several lines") {
                $0.session.pretty = true
            },
            Flag(["--yes", "-y"], session + interop + home, "confirm bulk deletes ('delete where …') in advance; without it 'run' and 'test' refuse one (\(Catalog.unconfirmedDeleteCode))") {
                $0.session.yes = true
            },
            Flag(["--write"], ["run"], "let 'run' write the store, once at the end and only when every statement succeeded") {
                $0.session.write = true
            },
            Flag(["--account"], ["run"], "CONNINFO", "read the account's items on its sync server instead of a store: only statements that read") {
                $0.session.account = $1.text
                return nil
            },
            Flag(["--keep-going"], ["run"], "with --write: write what succeeded even when a statement failed") {
                $0.session.keepGoing = true
            },
            Flag(["--bail"], ["run"], "stop at the first statement that fails") {
                $0.session.bail = true
            },
            Flag(["--echo"], ["run"], "print each statement as '> …' before its output, as a transcript") {
                $0.session.echo = true
            },
            Flag(["-e"], ["run"], "COMMAND", "run one statement; may be repeated; stdin is read when there is no script") {
                $0.sources.append(.expression($1.text, bytes: $1.bytes))
                return nil
            },
            Flag(["--update", "--bless"], ["test"], "rewrite the lines of failing expected blocks that differ (also KEPT_UPDATE=1)") {
                $0.test.update = true
            },
            Flag(["-i", "--interactive"], ["test"], "--update, asking before each block (y yes, n no, a all, q quit)") {
                $0.test.update = true
                $0.test.interactive = true
            },
            Flag(["-j", "--jobs"], ["test"], "N", "scripts to run at once (1 to 64, default 2)") {
                guard let n = Int($1.text), n >= 1, n <= 64 else { return "-j takes a number from 1 to 64, not '\($1.text)'" }
                $0.test.jobs = n
                return nil
            },
            Flag(["-k"], ["test"], "PATTERN", "run the commands whose 'path::case' holds PATTERN (a glob with * or ?); may be repeated") {
                guard !$1.text.isEmpty else { return "-k takes a part of 'path::case name', not an empty pattern" }
                $0.test.patterns.append($1.text)
                return nil
            },
            Flag(["--fail-fast", "-x"], ["test"], "stop at the first failure") {
                $0.test.maxFailures = 1
            },
            Flag(["--max-failures"], ["test"], "N", "stop after N failures") {
                guard let n = Int($1.text), n >= 1 else { return "--max-failures takes a number from 1, not '\($1.text)'" }
                $0.test.maxFailures = n
                return nil
            },
            Flag(["--report"], ["test"], "tap|junit FILE", "also write a TAP or JUnit XML report to FILE ('-': stdout, the human output to stderr)",
                 choices: ReportTarget.Format.allCases.map(\.rawValue)) {
                let v = $1.text
                guard let f = ReportTarget.Format(rawValue: v) else {
                    return "--report takes tap or junit and a file ('-' for stdout), not '\(v)'"
                }
                guard let path = $1.arguments.next() else { return "--report \(v) needs a file ('-' for stdout)" }
                if path == "-", $0.test.reports.contains(where: { $0.path == "-" }) { return "only one --report can go to stdout ('-')" }
                $0.test.reports.append(ReportTarget(format: f, path: path))
                return nil
            },
            Flag(["--progress"], ["test"], "show a progress line (the default when stdout is a terminal)") {
                $0.test.progress = true
            },
            Flag(["--no-progress"], ["test"], "never show the progress line") {
                $0.test.progress = false
            },
            Flag(["--allow-path"], ["test"], "DIR", "let transcripts import and export inside DIR too (by default only inside their own folder); may be repeated") {
                var isDir = false
                guard FileSystem.exists($1.text, isDirectory: &isDir), isDir else { return "--allow-path takes a folder, and '\($1.text)' is none" }
                $0.test.allowedPaths.append($1.text)
                return nil
            },
            Flag(["--as"], interop, "FORMAT", "the file's format: tw, ics, jsonl or csv (default: by the file's extension, docs/INTEROP.md)") {
                $0.interop.format = $1.text
                return nil
            },
            Flag(["--dry-run"], ["import"], "report what the import would change and write nothing") {
                $0.interop.dryRun = true
            },
            Flag(["--events"], ["import"], "read an iCalendar file's VEVENTs as tasks too") {
                $0.interop.events = true
            },
            Flag(["--json"], ["sync", "account"], "print one JSON object (as --format json), also when the server cannot be reached") {
                $0.session.format = .json
            },
            Flag(["--watch"], ["sync"], "keep syncing until interrupted: at once when another device changes the account, when another process writes the store, every 10 s while the server is away") {
                $0.watch = true
            },
            Flag(["--server"], ["account"], "CONNINFO", "the server for 'init' and 'create': a libpq connection string or URI (default: the PG* variables)") {
                $0.server = $1.text
                return nil
            },
            Flag(["--read-only"], ["account"], "with 'create': the account's login may read but not write") {
                $0.readOnly = true
            },
            Flag(["--password-stdin"], ["account"], "with 'create': read the login's password from standard input (never echoed, never an argument)") {
                $0.passwordStdin = true
            },
            Flag(["--salvage"], ["convert"], "copy what is sound of a damaged store and list what was not (without it a damaged store is refused)") {
                $0.salvage = true
            },
            Flag(["--help", "-h"], session + interop + ["sync", "account"] + home, "explain the verb and its options") {
                $0.helpAsked = true
            },
        ]
    }()

    /// `raw` holds the arguments' bytes as the process got them (the same count as `args`).
    public static func parse(_ args: [String], raw: [[UInt8]]? = nil) -> Result<Invocation, UsageError> {
        func fail(_ m: String) -> Result<Invocation, UsageError> { .failure(UsageError(message: m)) }
        var rest = args[...]
        var verb = "repl"
        if let first = rest.first, !first.hasPrefix("-") {
            verb = first
            rest = rest.dropFirst()
        } else if rest.first == "--help" || rest.first == "-h" {
            return rest.count == 1 ? .success(.options) : fail("'--help' takes nothing after it")
        } else if rest.first == "--version" || rest.first == "-V" {
            return rest.count == 1 ? .success(.version) : fail("'--version' takes nothing after it")
        }
        switch verb {
        case "convert":
            // Its one flag comes first, or it is not a flag: `kept convert a --salvage` is refused.
            var parsed = ParsedArguments()
            if let first = rest.first, let spec = flags.first(where: { $0.names.contains(first) }), spec.verbs.contains(verb),
               case .set(let apply) = spec.action {
                apply(&parsed)
                rest = rest.dropFirst()
            }
            let salvage = parsed.salvage
            guard rest.count == 2, let from = rest.first, let to = rest.last, !from.hasPrefix("-"), !to.hasPrefix("-") else {
                return fail("'convert' takes a store to read and a new file to write: kept convert [--salvage] FROM TO")
            }
            return .success(.convert(from: from, to: to, salvage: salvage))
        case "check":
            guard rest.count == 1, let path = rest.first, !path.hasPrefix("-") else {
                return fail("'check' takes one store: kept check STORE")
            }
            return .success(.check(path))
        case "backup":
            guard rest.count == 2, let from = rest.first, let to = rest.last, !from.hasPrefix("-"), !to.hasPrefix("-") else {
                return fail("'backup' takes a store to copy and a new file to write: kept backup STORE FILE")
            }
            return .success(.backup(from: from, to: to))
        case "help":
            guard rest.count <= 1 else { return fail("'help' takes at most one command name") }
            return .success(.help(rest.first))
        case "completion":
            guard rest.count == 1, let shell = rest.first.flatMap(Shell.init(rawValue:)) else {
                return fail("'completion' takes one shell: bash, zsh or fish")
            }
            return .success(.completion(shell))
        case "manpage":
            return rest.isEmpty ? .success(.manpage) : fail("'manpage' takes no arguments")
        case "lsp":
            // `--stdio` is what editors pass to a server on standard input and output.
            if rest.elementsEqual(["--help"]) || rest.elementsEqual(["-h"]) { return .success(.help("lsp")) }
            return rest.isEmpty || rest.elementsEqual(["--stdio"]) ? .success(.lsp) : fail("'lsp' takes no arguments")
        case "repl", "run", "test", "import", "export", "sync", "account":
            break
        case let v where homeVerbs.contains(v):
            break
        default:
            let hint = Suggestion.nearest(verb, in: verbs).map { "; did you mean '\($0)'?" } ?? ""
            return fail("unknown command '\(verb)'\(hint)")
        }
        var parsed = ParsedArguments()
        var cursor = ArgumentCursor(arguments: rest, position: rest.startIndex)
        let isHome = homeVerbs.contains(verb)
        // After `--` every argument of a shell verb is a word (`kept add -- -x` files "-x"; for
        // `add` the `--` stays, so capture keeps the rest as title text, R-CAP-5).
        var literal = false
        while let a = cursor.next() {
            if literal {
                parsed.words.append(a)
                continue
            }
            if isHome, a == "--" {
                literal = true
                if verb == "add" { parsed.words.append(a) }
                continue
            }
            // A word like `-5kg` or `-1` is a word of the line, not an option.
            if isHome, a.count > 1, a.hasPrefix("-"), let second = a.dropFirst().first, second.isNumber {
                parsed.words.append(a)
                continue
            }
            var flag = a
            var inline: String? = nil
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                flag = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            guard flag.hasPrefix("-"), flag != "-" else {
                switch verb {
                case "import", "export": parsed.interop.words.append(a)
                case "sync", "account": parsed.words.append(a)
                case let v where homeVerbs.contains(v): parsed.words.append(a)
                case "run": parsed.sources.append(.script(a))
                case "test": parsed.paths.append(a)
                default: return fail("'kept repl' takes no script; use 'kept run \(a)'")
                }
                continue
            }
            guard let spec = flags.first(where: { $0.names.contains(flag) }), spec.verbs.contains(verb) else {
                return fail(unknownOption(flag, verb: verb))
            }
            switch spec.action {
            case .set(let apply):
                // Set by its name alone, so that `--write=false` is refused rather than read as set.
                if let inline {
                    return fail("\(flag) takes no value (not '\(inline)'): write '\(flag)' alone to set it, leave it out otherwise")
                }
                apply(&parsed)
                if parsed.helpAsked { return .success(.help(verb)) }
            case .read(_, let read):
                let valueAt = cursor.position
                guard let v = inline ?? cursor.next() else { return fail("\(flag) needs a value") }
                let bytes = inline != nil ? nil : raw.flatMap { r in valueAt < r.count && r.count == args.count ? r[valueAt] : nil }
                var value = FlagValue(text: v, bytes: bytes, arguments: cursor)
                if let message = read(&parsed, &value) { return fail(message) }
                cursor = value.arguments
            }
        }
        var opts = parsed.session
        switch verb {
        case "import", "export":
            // One statement of the language, run as `kept run` runs it; an import writes the
            // store unless it is a dry run.
            switch parsed.interop.statement(verb) {
            case .success(let text):
                opts.write = verb == "import" && !parsed.interop.dryRun
                return .success(.run(opts, [.commandLine(text)]))
            case .failure(let e): return .failure(e)
            }
        case "sync":
            guard parsed.words.isEmpty || parsed.words == ["status"] else {
                return fail("'kept sync' takes 'status' or nothing: kept sync [status] --store FILE")
            }
            if parsed.watch {
                guard parsed.words.isEmpty else { return fail("'kept sync status' takes no --watch: kept sync --watch --store FILE") }
                return .success(.syncWatch(opts))
            }
            return .success(.sync(opts, status: !parsed.words.isEmpty))
        case "account": return account(parsed, opts)
        case "run":
            if opts.account != nil, opts.store != nil || opts.write {
                return fail("'kept run --account' reads the account on its server: it takes no --store and no --write")
            }
            return .success(.run(opts, parsed.sources))
        case "test":
            guard !parsed.paths.isEmpty else { return fail("'kept test' needs at least one script or folder") }
            return .success(.test(opts, paths: parsed.paths, parsed.test))
        case let v where homeVerbs.contains(v): return home(v, parsed.words, opts)
        default: return .success(.repl(opts))
        }
    }

    /// An option the verb does not take, with the nearest one it does (never one of another
    /// verb's), and where the one asked for belongs when another verb takes it.
    static func unknownOption(_ flag: String, verb: String) -> String {
        let own = flags.filter { $0.verbs.contains(verb) }.flatMap(\.names).filter { $0.hasPrefix("--") || flag.count <= 2 }
        var m = "unknown option '\(flag)' for 'kept \(verb)'"
        if let near = Suggestion.nearest(flag, in: own) {
            m += "; did you mean '\(near)'?"
        } else if let other = flags.first(where: { $0.names.contains(flag) }) {
            m += "; \(flag) is an option of " + other.verbs.prefix(4).map { "'kept \($0)'" }.joined(separator: ", ")
        }
        return m
    }

    /// The shell verbs: one statement each on the user's store (docs/LANGUAGE.md, "Your store").
    public static let homeVerbs = ["add", "list", "plan", "agenda", "done", "show", "edit", "undo", "init"]

    static func home(_ verb: String, _ words: [String], _ opts: SessionOptions) -> Result<Invocation, UsageError> {
        func fail(_ m: String) -> Result<Invocation, UsageError> { .failure(UsageError(message: m)) }
        func statement(_ keyword: String) -> Result<Invocation, UsageError> {
            .success(.home(.statement(text: ([keyword] + words).joined(separator: " "), verb: verb), opts))
        }
        switch verb {
        case "init":
            guard words.count <= 1 else { return fail("'kept init' takes at most one path: kept init [PATH]") }
            guard opts.store == nil else { return fail("'kept init' takes the new store's path as its argument, not --store: kept init PATH") }
            return .success(.home(.initialize(words.first), opts))
        case "edit":
            guard words.count == 1, let id = words.first else { return fail("'kept edit' takes one task: kept edit 3") }
            return .success(.home(.edit(id), opts))
        case "add":
            guard !words.isEmpty else { return fail("'kept add' needs a quick-add line: kept add Buy milk @tomorrow") }
            return statement("add")
        case "done":
            guard !words.isEmpty else { return fail("'kept done' needs the tasks: kept done 3") }
            return statement("complete")
        case "show":
            guard !words.isEmpty else { return fail("'kept show' needs a task: kept show 3") }
            return statement("show")
        case "undo":
            guard words.isEmpty else { return fail("'kept undo' takes nothing: it takes back the last change") }
            return statement("undo")
        default:
            return statement(verb)
        }
    }
}

extension CommandLineOptions {
    static let accountUsage = "kept account init [--server CONNINFO] | kept account create NAME [--read-only] [--password-stdin] [--server CONNINFO]"
        + " | kept account link CONNINFO [--store FILE]"

    /// `kept account init|create|link`; each takes only its own options. `link` is its
    /// statement run on the store, written when it succeeded (as `kept import`).
    static func account(_ parsed: ParsedArguments, _ opts: SessionOptions) -> Result<Invocation, UsageError> {
        func fail(_ m: String) -> Result<Invocation, UsageError> { .failure(UsageError(message: m)) }
        let words = parsed.words
        let forCreate = parsed.readOnly || parsed.passwordStdin
        switch words.first {
        case "init":
            guard words.count == 1 else { return fail("'kept account init' takes no words: \(accountUsage)") }
            guard !forCreate, opts.store == nil else { return fail("'kept account init' takes only --server") }
            return .success(.account(.initialize(server: parsed.server ?? ""), opts))
        case "create":
            guard words.count == 2, let name = words.last, !name.isEmpty else { return fail("'kept account create' takes one account name: \(accountUsage)") }
            guard opts.store == nil else { return fail("'kept account create' makes an account on a server and opens no store") }
            return .success(.account(.create(name: name, readOnly: parsed.readOnly, passwordStdin: parsed.passwordStdin, server: parsed.server ?? ""), opts))
        case "link":
            guard words.count == 2, let conninfo = words.last else { return fail("'kept account link' takes one connection string: \(accountUsage)") }
            guard parsed.server == nil, !forCreate else { return fail("'kept account link' takes the server as its argument, and only --store") }
            var o = opts
            o.write = true
            o.commitEachStatement = true
            return .success(.run(o, [.commandLine("account link " + InteropArguments.quoted(conninfo))]))
        default:
            return fail("'kept account' takes init, create or link: \(accountUsage)")
        }
    }
}

/// `kept import` and `kept export`: the words and flags that make their statement.
struct InteropArguments {
    var format: String?
    var dryRun = false
    var events = false
    /// The file, then (for export) the filter's words.
    var words: [String] = []

    func statement(_ verb: String) -> Result<String, UsageError> {
        guard let file = words.first else { return .failure(UsageError(message: "'kept \(verb)' needs a file (or - for standard \(verb == "import" ? "input" : "output"))")) }
        if verb == "import", words.count > 1 { return .failure(UsageError(message: "'kept import' takes one file")) }
        var out = verb + " " + InteropArguments.quoted(file)
        if let f = format { out += " as " + f }
        if events { out += " events" }
        if dryRun { out += " dry-run" }
        if words.count > 1 { out += " " + words.dropFirst().joined(separator: " ") }
        return .success(out)
    }

    static func quoted(_ s: String) -> String {
        var q = "\""
        for c in s {
            if c == "\"" || c == "\\" { q.append("\\") }
            q.append(c)
        }
        return q + "\""
    }
}
