// The parser's way into the catalog: a token is its text and its range, and the end of the
// statement is where nothing was found. Only the parser holds tokens; everything above it
// calls the catalog with values.

import KeptRules

extension Catalog {
    package static func unknownCommand(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        unknownCommand(t.text, range: t.range, file: file, candidates: candidates)
    }

    package static func expected(_ what: String, after: String, at t: Token, file: SourceFile, help: String? = nil) -> Diagnostic {
        expected(what, after: after, found: t.kind == .end ? nil : t.text, range: t.range, file: file, help: help)
    }

    package static func unexpected(_ t: Token, file: SourceFile, statement: String) -> Diagnostic {
        unexpected(t.text, range: t.range, file: file, statement: statement)
    }

    package static func unknownSubcommand(_ t: Token, of command: String, file: SourceFile, candidates: [String]) -> Diagnostic {
        unknownSubcommand(t.text, range: t.range, of: command, file: file, candidates: candidates)
    }

    package static func whereWithoutFilter(_ w: Token, file: SourceFile, command: String) -> Diagnostic {
        whereWithoutFilter(range: w.range, file: file, command: command)
    }

    package static func unexpectedInFilter(_ t: Token, file: SourceFile) -> Diagnostic {
        unexpectedInFilter(t.text, range: t.range, file: file)
    }

    package static func unexpectedAfterClauses(_ t: Token, file: SourceFile) -> Diagnostic {
        unexpectedAfterClauses(t.text, range: t.range, file: file)
    }

    package static func groupByDueOnly(_ t: Token, file: SourceFile) -> Diagnostic {
        groupByDueOnly(range: t.range, file: file)
    }

    package static func unknownSetting(_ t: Token, file: SourceFile, candidates: [String]) -> Diagnostic {
        unknownSetting(t.text, range: t.range, file: file, candidates: candidates)
    }

    package static func unknownField(_ t: Token, file: SourceFile, candidates: [String], label: String = "not a task field") -> Diagnostic {
        unknownField(t.text, range: t.range, file: file, candidates: candidates, label: label)
    }

    package static func notAFilterTerm(_ t: Token, file: SourceFile) -> Diagnostic {
        notAFilterTerm(t.text, range: t.range, file: file)
    }

    package static func badListLimit(_ t: Token, file: SourceFile) -> Diagnostic {
        badListLimit(found: t.kind == .end ? nil : t.text, range: t.range, file: file)
    }

    package static func badPlanLimit(_ t: Token, file: SourceFile) -> Diagnostic {
        badPlanLimit(atEnd: t.kind == .end, range: t.range, file: file)
    }
}
