// The REPL's history file: where it lives, which lines go in, and how long it may grow.
// `$XDG_STATE_HOME/kept/history` (default `~/.local/state/kept/history`), or `KEPT_HISTFILE`.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

#if canImport(Glibc)
import Glibc
#endif

/// The history policy, apart from readline so it can be tested on its own.
struct History {
    /// The most lines the file keeps; older ones are dropped at start-up, when an append takes
    /// the file past it, and at exit.
    static let maxEntries = 1000

    /// The file, from the environment; nil when neither variable nor a home gives one.
    static func path(environment env: [String: String]) -> String? {
        if let p = env["KEPT_HISTFILE"], !p.isEmpty { return p }
        if let s = env["XDG_STATE_HOME"], s.hasPrefix("/") { return "\(s)/kept/history" }
        if let h = env["HOME"], !h.isEmpty { return "\(h)/.local/state/kept/history" }
        return nil
    }

    /// The process environment as a dictionary.
    static var processEnvironment: [String: String] {
        var env: [String: String] = [:]
        for key in ["KEPT_HISTFILE", "XDG_STATE_HOME", "HOME"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return env
    }

    /// True when an entry goes into the history: not empty, not starting with a space (a way to
    /// keep a line out, as in bash), and not the same as the entry before it.
    static func accepts(_ entry: String, after previous: String?) -> Bool {
        guard !entry.isEmpty, !entry.hasPrefix(" "), !entry.allSatisfy({ $0 == " " || $0 == "\t" }) else { return false }
        return entry != previous
    }

    /// Makes the folder and an empty file when they are missing (readline's `append_history`
    /// does not create the file). Returns false when it cannot.
    static func prepare(_ path: String) -> Bool {
        let dir = Files.directory(of: path)
        var parts: [String] = []
        var d = dir
        while !d.isEmpty, d != "/", d != ".", access(d, F_OK) != 0 {
            parts.insert(d, at: 0)
            d = Files.directory(of: d)
        }
        for p in parts { _ = mkdir(p, 0o700) }
        if access(path, F_OK) == 0 { return access(path, W_OK) == 0 }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }
}
