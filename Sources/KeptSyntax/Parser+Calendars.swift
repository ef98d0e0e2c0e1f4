// The statement of connected calendars (docs/AGENDA.md, "Connected calendars"): `calendar …`.

import KeptRules

extension Parser {
    /// calendar_stmt ::= "calendar" ( "connect" NAME FILE | "list" | ( "hide" | "show" | "disconnect" ) NAME ) ;
    package mutating func parseCalendarStmt() throws(Diagnostic) -> StatementKind {
        let sub = peek
        let verb = sub.kind == .word ? sub.text.lowercased() : ""
        guard Keyword.calendar.subcommands.contains(verb) else {
            if sub.kind == .end {
                throw Catalog.expected("'connect', 'list', 'hide', 'show' or 'disconnect'", after: "calendar", found: sub.found, range: sub.range,
                                       file: file, help: "for example: \(Keyword.calendar.example)")
            }
            throw Catalog.unknownSubcommand(sub.text, range: sub.range, of: "calendar", file: file, candidates: Keyword.calendar.subcommands)
        }
        _ = advance()
        if verb == "list" {
            try expectEnd("calendar list")
            return .calendar(.list)
        }
        let n = peek
        guard n.kind == .word || n.kind == .string || n.kind == .number else {
            throw Catalog.expected("a calendar name", after: "calendar \(verb)", found: n.found, range: n.range, file: file,
                                   help: "for example: calendar \(verb) Work\(verb == "connect" ? " work.ics" : "")")
        }
        _ = advance()
        let name = TextArg(text: n.text, range: n.range)
        switch verb {
        case "connect":
            let f = try fileArg(after: "calendar connect \(n.text)", example: "calendar connect \(n.text) work.ics")
            try expectEnd("calendar connect")
            return .calendar(.connect(name: name, file: f))
        case "hide":
            try expectEnd("calendar hide")
            return .calendar(.hide(name))
        case "show":
            try expectEnd("calendar show")
            return .calendar(.show(name))
        default:
            try expectEnd("calendar disconnect")
            return .calendar(.disconnect(name))
        }
    }
}
