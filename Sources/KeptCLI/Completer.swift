// Tab completion from the grammar and the store: commands and keywords from the one keyword
// list (KeptCore's Vocabulary), field names, project, tag, area and saved-filter names, date
// and repeat words, and file names after the dot-commands that take a file. It only reads.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// What Tab offers for the word at the cursor.
enum CompletionResult: Equatable {
    /// Whole words to replace the word at the cursor.
    case words([String])
    /// File names (the line editor's own file completion).
    case files
}

/// Completes the word at the cursor.
final class Completer {
    private let session: Session

    init(session: Session) { self.session = session }

    /// The dot-commands that take a file name.
    static let fileDotCommands: Set<String> = [".open", ".read", ".record", ".save"]

    /// The completions of the word that runs from `wordStart` to `cursor` (byte offsets).
    func complete(line: [UInt8], wordStart: Int, cursor: Int) -> CompletionResult {
        let s = max(0, min(wordStart, line.count))
        let e = max(s, min(cursor, line.count))
        if wantsFile(line: line, wordStart: s) { return .files }
        let word = String(decoding: line[s..<e], as: UTF8.self)
        let before = String(decoding: line[..<s], as: UTF8.self)
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return .words(candidates(word: word, before: words))
    }

    func candidates(word: String, before: [String]) -> [String] {
        // The first word: a command or a dot-command.
        guard let first = before.first?.lowercased() else {
            if word.hasPrefix(".") { return Completer.filter(DotCommand.names.map { "." + $0 }, word) }
            return Completer.filter(Vocabulary.commands, word)
        }
        if first.hasPrefix(".") { return dotArgument(first, word: word, before: before) }
        // Sigils mean the same in capture lines and filters.
        if word.hasPrefix("+") { return Completer.filter(projects.map { "+" + Completer.quoted($0) }, word) }
        if word.hasPrefix("#") { return Completer.filter(tags.map { "#" + $0 }, word) }
        if word.hasPrefix("@") { return Completer.filter(Vocabulary.dateWords.map { "@" + $0 }, word) }
        if let colon = word.firstIndex(of: ":") {
            let field = word[..<colon].lowercased()
            let values: [String]
            switch field {
            case "area": values = areas.map(Completer.quoted)
            case "filter": values = session.store.filters.map { Completer.quoted($0.name) }
            case "project": values = projects.map(Completer.quoted)
            case "tag": values = tags
            case "status": values = ["open", "done", "archived", "waiting"]
            case "repeat": values = ["daily", "weekly", "monthly", "yearly"]
            case "priority": values = ["low", "medium", "high", "critical"]
            case "due", "start": values = Vocabulary.dateWords
            default: values = []
            }
            return Completer.filter(values.map { String(word[...colon]) + $0 }, word)
        }
        let last = before.last?.lowercased() ?? ""
        // A repeat phrase or a date phrase already started: its words.
        if let every = before.lastIndex(where: { $0.lowercased() == "every" }), before.count - every <= 6 {
            return Completer.filter(Vocabulary.repeatWords, word)
        }
        if let at = before.lastIndex(where: { $0.hasPrefix("@") }), before.count - at <= 3 {
            return Completer.filter(Vocabulary.dateWords, word)
        }
        // Inside a filter: the noun of `has …`, `is …`, `no …`, `done today`, and a date after a
        // date field's comparison (`created > …`, `due before …`).
        if Completer.inFilter(first, before) {
            // `(has`, `-(has`: the word after its parentheses and signs.
            let term = String(last.drop { $0 == "(" || $0 == "-" })
            if ["has", "is", "no"].contains(term) { return Completer.filter(Vocabulary.predicateNouns(after: term), word) }
            if term == "done" { return Completer.filter(["today"], word) }
            if before.count >= 2, Vocabulary.dateComparisons.contains(last), Vocabulary.dateFields.contains(before[before.count - 2].lowercased()) {
                return Completer.filter(Vocabulary.dateWords, word)
            }
        }
        let kw = Keyword(rawValue: first)
        let position = before.count
        switch kw {
        case .help?:
            return Completer.filter(Vocabulary.commands, word)
        case .project? where position == 1, .step? where position == 2, .filter? where position == 1, .sync? where position == 1,
             .account? where position == 1:
            let subs = Vocabulary.subcommands(of: first)
            if first == "filter" { return Completer.filter(subs + session.store.filters.map { Completer.quoted($0.name) }, word) }
            return Completer.filter(subs, word)
        case .project? where position >= 2:
            if last == "move-to" { return Completer.filter(["inbox"], word) }
            return Completer.filter(projects.map(Completer.quoted) + ["move-to", "delete-tasks", "to"], word)
        case .filter? where position >= 2:
            return Completer.filter(session.store.filters.map { Completer.quoted($0.name) } + filterWords, word)
        case .set? where position == 1:
            return Completer.filter(Vocabulary.settings + ["where"], word)
        case .set? where position == 2, .show? where position == 2:
            return Completer.filter(Vocabulary.taskFields, word)
        case .explain? where position == 1:
            return Completer.filter(["date"] + filterWords, word)
        case .skip? where position == 1:
            return Completer.filter(["next", "where"], word)
        case .date?, .reschedule?, .skip?, .unskip?, .rdate?, .unrdate?:
            return Completer.filter(Vocabulary.dateWords, word)
        case .repeat?, .rrule?:
            return Completer.filter(["every"] + Vocabulary.repeatWords, word)
        case .move? where last == "to":
            return Completer.filter(Vocabulary.dueGroups, word)
        case .list?, .count?, .explain?:
            return Completer.filter(filterWords, word)
        case .add?, .capture?, .parse?, .subtask?:
            return Completer.filter(["every"], word)
        default:
            if before.contains(where: { $0.lowercased() == "where" }) { return Completer.filter(filterWords, word) }
            return []
        }
    }

    func dotArgument(_ dot: String, word: String, before: [String]) -> [String] {
        switch dot {
        case ".mode": return Completer.filter(["text", "json"], word)
        case ".timer", ".color", ".bail": return Completer.filter(["on", "off"], word)
        case ".help": return Completer.filter(Vocabulary.commands + DotCommand.names.map { "." + $0 }, word)
        default: return []
        }
    }

    /// Whether the word after a dot-command is a file name.
    func wantsFile(line: [UInt8], wordStart: Int) -> Bool {
        let before = String(decoding: line[..<max(0, min(wordStart, line.count))], as: UTF8.self)
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count == 1, let d = words.first else { return false }
        return Completer.fileDotCommands.contains(d.lowercased())
    }

    /// Whether the words before the cursor are in a filter: after `list`, `count`, `explain`, a
    /// saved filter's `=`, or a `where`.
    static func inFilter(_ first: String, _ before: [String]) -> Bool {
        if ["list", "count", "explain"].contains(first) { return true }
        if first == "filter", before.contains("=") { return true }
        return before.contains { $0.lowercased() == "where" }
    }

    var filterWords: [String] {
        Vocabulary.filterFields.map { $0 + ":" } + Vocabulary.filterWords
    }

    var projects: [String] { session.store.projects.filter { !$0.archived }.map(\.name) }

    var tags: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for t in session.store.tasks {
            for g in t.tags where seen.insert(g.lowercased()).inserted { out.append(g) }
        }
        return out.sorted()
    }

    var areas: [String] { session.areaNames.sorted() }

    /// A name with a space is written in quotes.
    static func quoted(_ name: String) -> String {
        name.contains(" ") ? "\"\(name)\"" : name
    }

    /// The candidates that start with the word (ASCII case ignored), in order, once each.
    static func filter(_ candidates: [String], _ word: String) -> [String] {
        let w = word.lowercased()
        var seen = Set<String>()
        var out: [String] = []
        // A quoted name (`+"Home Stuff"`) also matches as typed without its quote (`+Ho`).
        for c in candidates where (c.lowercased().hasPrefix(w) || c.lowercased().replacingOccurrences(of: "\"", with: "").hasPrefix(w))
            && seen.insert(c).inserted { out.append(c) }
        return out
    }
}
