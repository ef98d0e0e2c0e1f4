// Tab completion from the grammar and the store: commands and keywords from the one keyword
// list (KeptCore's Vocabulary), field names, project, tag, area and saved-filter names, date
// and repeat words, settings' values, task ids with their titles, and file names after the
// commands that take a file. It offers only what parses (docs/REPL.md), and it only reads.

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
    /// Task ids, each shown with its title; the id is what goes into the line.
    case ids([IDCandidate])
    /// File names (the line editor's own file completion).
    case files
}

/// A task id Tab offers, and the title shown beside it.
struct IDCandidate: Equatable {
    let id: String
    let title: String
}

/// Completes the word at the cursor.
final class Completer {
    private let session: Session

    init(session: Session) { self.session = session }

    /// The dot-commands that take a file name.
    static let fileDotCommands: Set<String> = [".open", ".read", ".record", ".save"]
    /// The statements whose first word after the command is a file name.
    static let fileStatements: Set<String> = ["import", "export"]

    /// Which tasks a verb takes by id: its first argument (`complete 3`), or for `not today`
    /// and `top3 add|replace` the one after the subcommand.
    enum IDScope { case open, finished, archived, any }

    /// The verbs whose argument at `position` (1 is the word after the verb) is a task id.
    static func idScope(_ before: [String]) -> IDScope? {
        let first = before.first?.lowercased() ?? ""
        let position = before.count
        switch (first, position) {
        case ("reopen", 1): return .finished
        case ("unarchive", 1): return .archived
        case ("show", 1), ("delete", 1), ("duplicate", 1): return .any
        case ("complete", 1), ("archive", 1), ("tomorrow", 1), ("reschedule", 1), ("move", 1), ("tag", 1), ("untag", 1),
             ("step", 1), ("comment", 1), ("link", 1), ("unlink", 1), ("subtask", 1), ("remind", 1), ("unremind", 1),
             ("unskip", 1), ("rdate", 1), ("unrdate", 1), ("why", 1), ("back", 1), ("set", 1), ("skip", 1):
            return .open
        case ("skip", 2) where before[1].lowercased() == "next": return .open
        case ("not", 2) where before[1].lowercased() == "today": return .open
        case ("top3", 2) where ["add", "replace"].contains(before[1].lowercased()): return .open
        case ("top3", 4) where before[1].lowercased() == "replace" && before[3].lowercased() == "with": return .open
        // `explain FILTER for ID` tries the filter on any task.
        case ("explain", 3...) where before[position - 1].lowercased() == "for": return .any
        default: return nil
        }
    }

    /// The completions of the word that runs from `wordStart` to `cursor` (byte offsets).
    func complete(line: [UInt8], wordStart: Int, cursor: Int) -> CompletionResult {
        let s = max(0, min(wordStart, line.count))
        let e = max(s, min(cursor, line.count))
        if wantsFile(line: line, wordStart: s) { return .files }
        let word = String(decoding: line[s..<e], as: UTF8.self)
        let before = String(decoding: line[..<s], as: UTF8.self)
        let words = before.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        // A task id: the tasks the verb takes, each with its title (a word that is not a number
        // goes on to the words the verb also takes, like `where` or a setting).
        // `set` and `skip` also take words there (a setting, `next`): an id once a digit is typed.
        let wordsToo = ["set", "skip"].contains(words.first?.lowercased() ?? "") && words.count == 1
        if let scope = Completer.idScope(words), word.allSatisfy({ $0.isASCII && $0.isNumber }), !(wordsToo && word.isEmpty) {
            return .ids(ids(scope, prefix: word))
        }
        return .words(candidates(word: word, before: words))
    }

    /// The tasks of a scope whose id starts with `prefix`, in id order.
    func ids(_ scope: IDScope, prefix: String) -> [IDCandidate] {
        session.store.tasks.filter { t in
            switch scope {
            case .open: return t.isOpen
            case .finished: return t.status == .done
            case .archived: return t.status == .archived
            case .any: return true
            }
        }
        .sorted { $0.id < $1.id }
        .map { IDCandidate(id: String($0.id), title: DisplayText.escaped($0.title).replacingOccurrences(of: "\n", with: " ")) }
        .filter { $0.id.hasPrefix(prefix) }
    }

    func candidates(word: String, before: [String]) -> [String] {
        // The first word: a command or a dot-command.
        guard let first = before.first?.lowercased() else {
            if word.hasPrefix(".") { return Completer.filter(DotCommand.names.map { "." + $0 }, word) }
            return Completer.filter(Vocabulary.commands, word)
        }
        if first.hasPrefix(".") { return dotArgument(first, word: word, before: before) }
        // Sigils mean the same in capture lines and filters.
        if word.hasPrefix("+") {
            let found = Completer.filter(projects.map { "+" + Completer.quoted($0) }, word)
            // Taskwarrior's `+tag`: no project starts so, but a tag does; Kept writes `#tag`.
            if found.isEmpty, word.count > 1 { return Completer.filter(tags.map { "#" + $0 }, "#" + word.dropFirst()) }
            return found
        }
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
            case "status": values = ["open", "done", "archived", "waiting", "any"]
            case "repeat": values = ["daily", "weekly", "monthly", "yearly", "hourly", "minutely"]
            case "priority": values = ["low", "medium", "high", "critical"]
            case "parent": values = ids(.any, prefix: "").map(\.id)
            case "due":
                // Taskwarrior's `due:today`: Kept's form is the window `@today`.
                let value = String(word[word.index(after: colon)...])
                return Completer.filter(Vocabulary.dateWords.map { "@" + $0 }, "@" + value)
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
            // A field compared: its comparisons, then (for priority) its values.
            if Vocabulary.dateFields.contains(last) { return Completer.filter(["before", "after", "<", "<=", ">", ">=", "="], word) }
            if last == "title" || last == "description" { return Completer.filter(["~"], word) }
            if last == "priority" || last == "estimate" { return Completer.filter(["<", "<=", ">", ">=", "="], word) }
            if before.count >= 2, before[before.count - 2].lowercased() == "priority", ["<", "<=", ">", ">=", "="].contains(last) {
                return Completer.filter(["low", "medium", "high", "critical"], word)
            }
        }
        let kw = Keyword(rawValue: first)
        let position = before.count
        // A verb that takes a task or `where FILTER`: a word that is not an id starts `where`.
        if Completer.idScope(before) != nil, !["show", "why", "back", "step", "comment", "subtask", "set", "skip", "top3", "explain"].contains(first) {
            return Completer.filter(["where"], word)
        }
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
        case .set? where position == 2:
            // `set KEY VALUE` takes the setting's values; `set ID FIELD VALUE` a field `set` changes.
            if let spec = Settings.spec(before[1]) { return Completer.filter(settingValues(spec), word) }
            return Completer.filter(Vocabulary.settableFields, word)
        case .set? where position == 3 && Settings.spec(before[1]) == nil:
            return Completer.filter(fieldValues(before[2]), word)
        case .show? where position == 2:
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

    /// The values a setting takes: every one of a closed list, or its value now (a time, a
    /// duration, a weight) as the example to edit.
    func settingValues(_ spec: Settings.Spec) -> [String] {
        switch spec.values {
        case .weekday: return Weekday.allCases.map { $0.name.lowercased() }
        case .hourCycle: return HourCycle.allCases.map(\.rawValue)
        case .dateOrder: return DateOrder.allCases.map(\.rawValue)
        case .nextWeekday: return NextWeekday.allCases.map(\.rawValue)
        case .rowDetail: return RowDetail.allCases.map(\.rawValue)
        case .onOff: return ["on", "off"]
        case .zone: return TimeZone.knownTimeZoneIdentifiers.sorted()
        case .time, .duration, .weight: return [spec.get(session.store.settings)]
        }
    }

    /// The values `set ID FIELD` takes for a field.
    func fieldValues(_ field: String) -> [String] {
        switch TaskField(rawValue: field.lowercased()) {
        case .due?, .start?: return Vocabulary.dateWords + ["none"]
        case .priority?: return ["none", "low", "medium", "high", "critical"]
        case .project?: return projects.map(Completer.quoted) + ["none"]
        case .area?: return areas.map(Completer.quoted) + ["none"]
        case .status?: return ["open", "waiting", "done", "archived"]
        case .repeat?: return ["every", "daily", "weekly", "monthly", "yearly", "never"]
        case .estimate?: return ["15m", "30m", "1h", "none"]
        case .parent?: return ids(.any, prefix: "").map(\.id) + ["none"]
        case .description?, .goal?: return ["none"]
        default: return []
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
        return Completer.fileDotCommands.contains(d.lowercased()) || Completer.fileStatements.contains(d.lowercased())
    }

    /// Whether the words before the cursor are in a filter: after `list`, `count`, `explain`, a
    /// saved filter's `=`, or a `where`.
    static func inFilter(_ first: String, _ before: [String]) -> Bool {
        if ["list", "count", "explain"].contains(first) { return true }
        if first == "filter", before.contains("=") { return true }
        return before.contains { $0.lowercased() == "where" }
    }

    /// The words a filter term starts with: the fields read with `:` (`project:`), the fields
    /// read with a comparison (`due`, then `<` or `before`), and the words that stand alone.
    var filterWords: [String] {
        Vocabulary.colonFields.map { $0 + ":" } + Vocabulary.comparedFields + Vocabulary.filterWords
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
