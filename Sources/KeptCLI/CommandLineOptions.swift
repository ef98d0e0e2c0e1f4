// The command line (README.md, `kept --help`): `kept [repl]`, `kept run`, `kept test`, `kept help`,
// `--help`, `--version`. A usage error names what was wrong and exits 64.

import KeptCore

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
    /// (E0318) and the REPL asks.
    public var yes = false
    /// `kept run --write`: write what succeeded even when a statement failed.
    public var keepGoing = false
    /// `kept run`: stop at the first statement that fails.
    public var bail = false
}

/// One source of statements for `kept run`, in command-line order.
public enum RunSource: Sendable, Equatable {
    case script(String)
    /// A `-e` command; `bytes` are the argument as the process got it, when known, so a command
    /// that is not UTF-8 is refused (E0003) as a script is, not read with U+FFFD in it.
    case expression(String, bytes: [UInt8]? = nil)
}

/// What the command line asks for.
public enum Invocation: Sendable {
    case repl(SessionOptions)
    case run(SessionOptions, [RunSource])
    case test(SessionOptions, paths: [String], update: Bool, jobs: Int)
    case help(String?)
    case version
    /// `kept convert FROM TO`: a store copied into a new file of the other kind (or the same).
    case convert(from: String, to: String)
}

/// A command line that could not be understood.
public struct UsageError: Error, Sendable {
    public let message: String
}

/// Parses arguments (without the program name).
public enum CommandLineOptions {
    public static let usage = """
    usage: kept [repl] [--store FILE] [--now ISO] [--zone TZ] [--format text|json] [--yes]
           kept run [--store FILE] [--now ISO] [--zone TZ] [--format text|json] [--write [--keep-going]] [--bail] [--echo] [--yes] [-e COMMAND]... [SCRIPT...]
           kept test [--update] [--yes] [-j N] PATH...
           kept convert FROM TO
           kept import FILE|- --store FILE [--as FORMAT] [--dry-run] [--events]
           kept export FILE|- --store FILE [--as FORMAT] [FILTER...]
           kept help [COMMAND] | kept --help | kept --version
    """

    /// Each verb's flags that take no value.
    static let booleanFlags: [String: Set<String>] = {
        let shared: Set<String> = ["--yes", "--help"]
        return [
            "repl": shared,
            "run": shared.union(["--echo", "--write", "--keep-going", "--bail"]),
            "test": shared.union(["--update", "--bless"]),
            "import": shared.union(["--dry-run", "--events"]),
            "export": shared,
        ]
    }()

    /// `raw` holds the arguments' bytes as the process got them (the same count as `args`).
    public static func parse(_ args: [String], raw: [[UInt8]]? = nil) -> Result<Invocation, UsageError> {
        var rest = args[...]
        var verb = "repl"
        if let first = rest.first, !first.hasPrefix("-") {
            verb = first
            rest = rest.dropFirst()
        } else if rest.first == "--help" || rest.first == "-h" {
            return .success(.help(nil))
        } else if rest.first == "--version" || rest.first == "-V" {
            return .success(.version)
        }
        switch verb {
        case "convert":
            guard rest.count == 2, let from = rest.first, let to = rest.last, !from.hasPrefix("-"), !to.hasPrefix("-") else {
                return .failure(UsageError(message: "'convert' takes a store to read and a new file to write: kept convert FROM TO"))
            }
            return .success(.convert(from: from, to: to))
        case "help":
            guard rest.count <= 1 else { return .failure(UsageError(message: "'help' takes at most one command name")) }
            return .success(.help(rest.first))
        case "repl", "run", "test", "import", "export":
            break
        default:
            let hint = Suggestion.nearest(verb, in: ["repl", "run", "test", "convert", "import", "export", "help"]).map { "; did you mean '\($0)'?" } ?? ""
            return .failure(UsageError(message: "unknown command '\(verb)'\(hint)"))
        }
        var opts = SessionOptions()
        var sources: [RunSource] = []
        var paths: [String] = []
        var update = false
        var jobs = 2
        var interop = InteropArguments()
        // An index, not an iterator: a `-e` value's raw bytes are found by its place.
        var pos = rest.startIndex
        func nextArgument() -> String? {
            guard pos < rest.endIndex else { return nil }
            defer { pos += 1 }
            return rest[pos]
        }
        func value(_ flag: String) -> Result<String, UsageError> {
            guard let v = nextArgument() else { return .failure(UsageError(message: "\(flag) needs a value")) }
            return .success(v)
        }
        while let a = nextArgument() {
            var flag = a
            var inline: String? = nil
            if a.hasPrefix("--"), let eq = a.firstIndex(of: "=") {
                flag = String(a[..<eq])
                inline = String(a[a.index(after: eq)...])
            }
            func take() -> Result<String, UsageError> {
                if let inline { return .success(inline) }
                return value(flag)
            }
            // A flag of this verb that takes no value is set by its name alone, so that
            // `--write=false` is refused rather than read as set.
            if let inline, (CommandLineOptions.booleanFlags[verb] ?? []).contains(flag) {
                return .failure(UsageError(message: "\(flag) takes no value (not '\(inline)'): write '\(flag)' alone to set it, leave it out otherwise"))
            }
            switch flag {
            case "--store":
                switch take() { case .success(let v): opts.store = v; case .failure(let e): return .failure(e) }
            case "--now":
                switch take() { case .success(let v): opts.now = v; case .failure(let e): return .failure(e) }
            case "--zone":
                switch take() { case .success(let v): opts.zone = v; case .failure(let e): return .failure(e) }
            case "--format":
                switch take() {
                case .success(let v):
                    guard let f = OutputFormat(rawValue: v) else { return .failure(UsageError(message: "--format takes text or json, not '\(v)'")) }
                    opts.format = f
                case .failure(let e): return .failure(e)
                }
            case "--errors":
                switch take() {
                case .success(let v):
                    guard let s = DiagnosticRenderer.Style(rawValue: v) else { return .failure(UsageError(message: "--errors takes rich or short, not '\(v)'")) }
                    opts.errors = s
                case .failure(let e): return .failure(e)
                }
            case "--yes", "-y":
                opts.yes = true
            case "--echo" where verb == "run":
                opts.echo = true
            case "--write" where verb == "run":
                opts.write = true
            case "--keep-going" where verb == "run":
                opts.keepGoing = true
            case "--bail" where verb == "run":
                opts.bail = true
            case "-e" where verb == "run":
                switch value("-e") {
                case .success(let v):
                    let bytes = raw.flatMap { r in pos - 1 < r.count && r.count == args.count ? r[pos - 1] : nil }
                    sources.append(.expression(v, bytes: bytes))
                case .failure(let e): return .failure(e)
                }
            case "--update" where verb == "test", "--bless" where verb == "test":
                update = true
            case "-j" where verb == "test", "--jobs" where verb == "test":
                switch take() {
                case .success(let v):
                    guard let n = Int(v), n >= 1, n <= 64 else { return .failure(UsageError(message: "-j takes a number from 1 to 64, not '\(v)'")) }
                    jobs = n
                case .failure(let e): return .failure(e)
                }
            case "--as" where verb == "import" || verb == "export":
                switch take() { case .success(let v): interop.format = v; case .failure(let e): return .failure(e) }
            case "--dry-run" where verb == "import":
                interop.dryRun = true
            case "--events" where verb == "import":
                interop.events = true
            case "--help", "-h":
                return .success(.help(nil))
            default:
                if a.hasPrefix("-") && a != "-" {
                    return .failure(UsageError(message: "unknown option '\(a)' for 'kept \(verb)'"))
                }
                switch verb {
                case "import", "export": interop.words.append(a)
                case "run": sources.append(.script(a))
                case "test": paths.append(a)
                default: return .failure(UsageError(message: "'kept repl' takes no script; use 'kept run \(a)'"))
                }
            }
        }
        switch verb {
        case "import", "export":
            // One statement of the language, run as `kept run` runs it; an import writes the
            // store unless it is a dry run.
            guard opts.store != nil else { return .failure(UsageError(message: "'kept \(verb)' needs --store FILE")) }
            switch interop.statement(verb) {
            case .success(let text):
                opts.write = verb == "import" && !interop.dryRun
                return .success(.run(opts, [.expression(text)]))
            case .failure(let e): return .failure(e)
            }
        case "run": return .success(.run(opts, sources))
        case "test":
            guard !paths.isEmpty else { return .failure(UsageError(message: "'kept test' needs at least one script or folder")) }
            return .success(.test(opts, paths: paths, update: update, jobs: jobs))
        default: return .success(.repl(opts))
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
