// Which files a session's statements may open by name (issue 28, F6). The user's own session
// may open any; a transcript `kept test` runs was perhaps written by someone else (a pull
// request, a CI job), so there `import` and `export` stay inside the folders the runner allows
// (docs/SCRIPTS.md, "Test mode"). A path is judged by where it really leads: `..` and every
// symlink resolved, a dangling link by the file a write would create.

import KeptRules
import KeptDomain
import KeptFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folders a session may open files in, by path.
public struct PathPolicy: Sendable, Equatable {
    /// Canonical folders (realpath, no trailing `/`) inside which a path is allowed; nil for
    /// anywhere.
    public let folders: [String]?

    /// Any path: `kept run`, the REPL, `kept import` and `kept export`.
    public static let unrestricted = PathPolicy(folders: nil)

    private init(folders: [String]?) {
        self.folders = folders
    }

    /// Only inside these folders (and below). A folder that does not exist allows nothing; a
    /// link to a folder allows the folder it leads to.
    public static func confined(to folders: [String]) -> PathPolicy {
        PathPolicy(folders: folders.compactMap { realPath($0) })
    }

    /// A path the policy refuses: as given, and where it leads.
    public struct Refusal: Error, Sendable, Equatable {
        public let path: String
        public let resolved: String
    }

    /// Nil when the session may open `path`; otherwise the refusal. `-` (standard input or
    /// output) is no path and always allowed.
    public func refusal(_ path: String) -> Refusal? {
        guard let folders, path != "-" else { return nil }
        // A path that cannot be resolved is refused: it could lead anywhere.
        guard let resolved = PathPolicy.resolve(path) else { return Refusal(path: path, resolved: path) }
        return folders.contains { PathPolicy.isInside(resolved, $0) } ? nil : Refusal(path: path, resolved: resolved)
    }

    /// Whether `path` (canonical) is `folder` or inside it.
    package static func isInside(_ path: String, _ folder: String) -> Bool {
        if folder == "/" { return path.hasPrefix("/") }
        return path == folder || path.hasPrefix(folder + "/")
    }

    /// Where a path leads, canonical: relative to the working folder, the symlinks of its last
    /// part followed (also one that points nowhere yet: a write creates what it names), then
    /// the realpath of the longest part that exists, with the parts after it as written. Nil
    /// when a part after it is `..` (what it climbs out of is not there to say where it
    /// lands) or the working folder is unknown.
    package static func resolve(_ path: String) -> String? {
        var absolute = path
        if !path.hasPrefix("/") {
            guard let cwd = workingFolder() else { return nil }
            absolute = cwd + "/" + path
        }
        let followed = StorePath.followLinks(absolute)
        if let r = realPath(followed) { return r }
        var parts = followed.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while let last = parts.popLast() {
            rest.insert(last, at: 0)
            let prefix = "/" + parts.joined(separator: "/")
            if let r = realPath(prefix) {
                guard !rest.contains("..") else { return nil }
                let tail = rest.filter { $0 != "." }.joined(separator: "/")
                return tail.isEmpty ? r : (r == "/" ? "/" : r + "/") + tail
            }
        }
        return nil
    }

    /// The canonical path of an existing file or folder; nil when there is none.
    package static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    package static func workingFolder() -> String? {
        guard let c = getcwd(nil, 0) else { return nil }
        defer { free(c) }
        return String(cString: c)
    }
}
