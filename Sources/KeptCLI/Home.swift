// The user's own store and config file (docs/LANGUAGE.md, "Your store"): the store the shell
// verbs (`kept add`, `kept list`, …), `kept init`, `import`, `export` and `sync` use when no
// `--store` names one, and the config file whose keys are the settings table plus `store`.
// Everything here reads the environment it is given, so tests pass their own.

import KeptRules
import KeptFiles
import KeptDomain
import KeptSyntax

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the user's store and config file are, from the environment.
struct Home {
    let environment: [String: String]

    /// The variables Home reads.
    static let variables = ["KEPT_STORE", "KEPT_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME"]

    static var process: Home {
        var env: [String: String] = [:]
        for key in variables {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return Home(environment: env)
    }

    /// An XDG folder: the variable when it is an absolute path (the XDG rules ignore a relative
    /// one), else the folder under HOME.
    func xdg(_ variable: String, _ fallback: String) -> String? {
        if let v = environment[variable], v.hasPrefix("/") { return v }
        if let h = environment["HOME"], !h.isEmpty { return "\(h)/\(fallback)" }
        return nil
    }

    /// `$XDG_DATA_HOME/kept` (default `~/.local/share/kept`).
    var dataFolder: String? { xdg("XDG_DATA_HOME", ".local/share").map { "\($0)/kept" } }

    /// `KEPT_CONFIG`, else `$XDG_CONFIG_HOME/kept/config` (default `~/.config/kept/config`).
    var configPath: String? {
        if let p = environment["KEPT_CONFIG"], !p.isEmpty { return p }
        return xdg("XDG_CONFIG_HOME", ".config").map { "\($0)/kept/config" }
    }

    /// The default store: `tasks.db` (SQLite) in the data folder.
    var defaultStore: String? { dataFolder.map { "\($0)/tasks.db" } }

    /// Where a store's path came from, for notes and `kept init`.
    enum Source: Equatable {
        case flag, environment, config, fallback
        var words: String {
            switch self {
            case .flag: return "--store"
            case .environment: return "KEPT_STORE"
            case .config: return "the config file"
            case .fallback: return "the default"
            }
        }
    }

    /// The store a command works on: `--store`, else `KEPT_STORE`, else the config file's
    /// `store`, else the default. Nil when there is no HOME either.
    func store(flag: String?, config: HomeConfig) -> (path: String, source: Source)? {
        if let f = flag { return (f, .flag) }
        if let e = environment["KEPT_STORE"], !e.isEmpty { return (expand(e), .environment) }
        if let c = config.store { return (expand(c), .config) }
        return defaultStore.map { ($0, .fallback) }
    }

    /// `~/x` with the home folder.
    func expand(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/"), let h = environment["HOME"], !h.isEmpty else { return path }
        return h + path.dropFirst()
    }

    /// Makes the folders above a store path (mode 0700, as the XDG rules ask) so its first
    /// write can land; an error's reason when one cannot be made.
    static func makeFolders(above path: String) -> String? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
        guard !parts.isEmpty else { return nil }
        var built = parts.removeFirst().description
        for p in parts where !p.isEmpty {
            built += "/" + p
            var st = stat()
            if stat(built, &st) == 0 {
                if (st.st_mode & S_IFMT) != S_IFDIR { return "'\(built)' is not a folder" }
                continue
            }
            if mkdir(built, 0o700) != 0, errno != EEXIST { return "could not make the folder '\(built)': \(FileError(errno: errno).reason)" }
        }
        return nil
    }
}

/// The config file: `KEY = VALUE` lines, `#` comments. Its keys are `store` and the settings
/// table's (`Settings.specs`), each value checked as `set KEY VALUE` checks it; the settings are
/// what a new store starts with.
struct HomeConfig {
    var store: String?
    /// The settings it gives, in file order.
    var settings: [(key: String, value: String)] = []

    static let storeKey = "store"

    /// The keys a config file may hold.
    static var keys: [String] { [storeKey] + Settings.specs.map(\.key) }

    /// Reads the file at a path; an empty config when there is none.
    static func read(_ path: String?) -> Result<HomeConfig, Diagnostic> {
        guard let path else { return .success(HomeConfig()) }
        switch Files.readBytes(path, limit: 64 * 1024) {
        case .failure(let e):
            if e.code == ENOENT { return .success(HomeConfig()) }
            return .failure(Catalog.configUnreadable(path, reason: e.reason))
        case .success(let bytes):
            return parse(SourceFile(name: path, bytes: bytes))
        }
    }

    /// Reads a config file's text.
    static func parse(_ file: SourceFile) -> Result<HomeConfig, Diagnostic> {
        var c = HomeConfig()
        var offset = 0
        for lineBytes in file.bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let start = offset
            offset += lineBytes.count + 1
            let line = String(decoding: lineBytes, as: UTF8.self)
            let lead = line.prefix { $0 == " " || $0 == "\t" }.utf8.count
            let body = line.trimmedSpaces
            if body.isEmpty || body.hasPrefix("#") { continue }
            let lineRange = SourceRange(start: start + lead, end: start + lead + body.utf8.count)
            guard let eq = body.firstIndex(of: "=") else {
                return .failure(Catalog.configLine(.notKeyValue, range: lineRange, file: file))
            }
            let key = String(body[..<eq]).trimmedSpaces.lowercased()
            let value = String(body[body.index(after: eq)...]).trimmedSpaces
            let keyRange = SourceRange(start: lineRange.start, end: lineRange.start + String(body[..<eq]).trimmedSpaces.utf8.count)
            let valueStart = lineRange.end - value.utf8.count
            let valueRange = SourceRange(start: valueStart, end: lineRange.end)
            if key == storeKey {
                guard !value.isEmpty else { return .failure(Catalog.configLine(.badValue(key: key, expected: "a store file"), range: valueRange, file: file)) }
                c.store = value
                continue
            }
            guard let spec = Settings.spec(key) else {
                return .failure(Catalog.configLine(.unknownKey(key, nearest: Suggestion.nearest(key, in: keys)), range: keyRange, file: file))
            }
            var probe = Settings()
            guard probe.set(spec.key, to: value) else {
                return .failure(Catalog.configLine(.badValue(key: spec.key, expected: Catalog.settingValues(spec.values)), range: valueRange, file: file))
            }
            c.settings.removeAll { $0.key == spec.key }
            c.settings.append((spec.key, value))
        }
        return .success(c)
    }

    /// A new store's settings: the config file's, and the zone of the machine unless the file
    /// names one, so the store keeps its days when the machine's zone changes.
    func newStoreSettings(machineZone: String) -> Settings {
        var s = Settings()
        for (k, v) in settings { _ = s.set(k, to: v) }
        if s.zone == nil { s.zone = machineZone }
        return s
    }
}
