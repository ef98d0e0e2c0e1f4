// What the language server answers, each from the engine's own parts: diagnostics (the
// catalog's, and `kept test`'s diff), completion (the REPL's Completer), hover (the statements
// `explain date`, `repeat`, `explain`, `parse filter`, `show` and `help`, run in the session as it
// stands before the command), definition, document symbols, semantic tokens (the REPL's token
// kinds: the quick-add parser's and the filter parser's, the lexer's strings and numbers),
// quick fixes (the catalog's fix-its) and code lenses (a block's result, and its `--update`).

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

extension LSPServer {
    static let runCommand = "kept.runBlock"
    static let updateCommand = "kept.updateBlock"

    // MARK: positions

    func range(_ doc: LSPDocument, _ r: SourceRange) -> [String: Any] {
        let s = doc.position(r.start, encoding), e = doc.position(r.end, encoding)
        return ["start": ["line": s.line, "character": s.character], "end": ["line": e.line, "character": e.character]]
    }

    func offset(_ doc: LSPDocument, _ params: [String: Any]) -> Int? {
        LSPServer.position(params["position"]).map { doc.offset($0, encoding) }
    }

    /// The range of a whole line of the script (1-based, as the engine counts lines: after each
    /// LF), without its line break.
    func lineRange(_ a: LSPAnalysis, _ line: Int) -> SourceRange {
        let l = max(1, min(line, a.file.lineStarts.count))
        var e = a.file.lineEnd(l)
        if e > a.file.lineStarts[l - 1], e <= a.file.bytes.count, a.file.bytes[e - 1] == 0x0D { e -= 1 }
        return SourceRange(start: a.file.lineStarts[l - 1], end: e)
    }

    // MARK: diagnostics

    func diagnostics(_ doc: LSPDocument, _ a: LSPAnalysis) -> [[String: Any]] {
        a.diagnostics().map { lspDiagnostic($0, doc, a) }
    }

    /// Where a finding points: its own range in the document, else its command's line.
    func findingRange(_ f: LSPFinding, _ doc: LSPDocument, _ a: LSPAnalysis) -> SourceRange {
        if let d = f.diagnostic, let r = d.range, d.file === a.file { return r }
        if let k = f.block, k < a.blocks.count { return lineRange(a, a.blocks[k].command.line) }
        return SourceRange(start: 0, end: 0)
    }

    func lspDiagnostic(_ f: LSPFinding, _ doc: LSPDocument, _ a: LSPAnalysis) -> [String: Any] {
        var out: [String: Any] = ["range": range(doc, findingRange(f, doc, a))]
        if let d = f.diagnostic {
            var text = d.message
            if let l = d.label, !l.isEmpty { text += "\n" + l }
            for n in d.notes { text += "\nnote: " + n }
            if let h = d.help { text += "\nhelp: " + h }
            out["message"] = text
            out["severity"] = d.severity == .error ? 1 : 2
            out["code"] = d.code.rawValue
            out["source"] = "kept"
            if d.file === a.file, !d.secondary.isEmpty {
                out["relatedInformation"] = d.secondary.map {
                    ["location": ["uri": doc.uri, "range": range(doc, $0.range)] as [String: Any], "message": $0.text] as [String: Any]
                }
            }
        } else if let o = f.outcome {
            let head = o.status == .xpassed ? "this command passed, but '@xfail' expects it to fail"
                                            : "the output no longer matches the expected block"
            out["message"] = ([head] + o.failure.dropFirst(2)).joined(separator: "\n")
            out["severity"] = 1
            out["source"] = "kept test"
        }
        return out
    }

    // MARK: completion

    /// The characters that end a word for completion: readline's, as the REPL sets them.
    static let wordBreaks: Set<UInt8> = Set(" \t\n\r\"(),=<>~&|".utf8)

    func completion(_ doc: LSPDocument, _ a: LSPAnalysis, _ params: [String: Any]) -> Any? {
        guard let o = offset(doc, params) else { return nil }
        let lineStart = a.file.lineStarts[a.file.localLine(of: o) - 1]
        let lineText = Array(doc.bytes[lineStart..<o])
        var items: [[String: Any]] = []
        func item(_ label: String, from: Int, kind: Int) -> [String: Any] {
            ["label": label, "kind": kind,
             "textEdit": ["range": range(doc, SourceRange(start: from, end: o)), "newText": label] as [String: Any]]
        }
        // A directive line: the directives.
        if lineText.first == UInt8(ascii: "@") {
            let typed = String(decoding: lineText, as: UTF8.self)
            let names = (Transcript.fileDirectives + Transcript.commandDirectives).map { "@" + $0 }
            items = Completer.filter(names, typed).map { item($0, from: lineStart, kind: 14) }
            return ["isIncomplete": false, "items": items]
        }
        guard let k = a.block(at: o) else { return ["isIncomplete": false, "items": items] }
        let stmt = a.blocks[k].command.statement
        guard o >= stmt.range.start, o <= stmt.range.end else { return ["isIncomplete": false, "items": items] }
        // The statement up to the cursor, its line breaks as spaces.
        var bytes = Array(stmt.bytes[0..<min(stmt.bytes.count, o - stmt.range.start)])
        for i in bytes.indices where bytes[i] == 0x0A || bytes[i] == 0x0D { bytes[i] = 0x20 }
        var ws = bytes.count
        while ws > 0, !LSPServer.wordBreaks.contains(bytes[ws - 1]) { ws -= 1 }
        guard let session = a.session(before: k) else { return nil }
        let first = !bytes[..<ws].contains { $0 != 0x20 && $0 != 0x09 }
        switch Completer(session: session).complete(line: bytes, wordStart: ws, cursor: bytes.count) {
        case .words(let words):
            // Dot-commands are the REPL's: a script does not take them.
            items = words.filter { !$0.hasPrefix(".") }.map { item($0, from: stmt.range.start + ws, kind: first ? 14 : 12) }
        case .ids(let ids):
            // A task id, its title beside it (as the REPL shows it).
            items = ids.map { var i = item($0.id, from: stmt.range.start + ws, kind: 12); i["detail"] = $0.title; return i }
        case .files:
            break
        }
        return ["isIncomplete": false, "items": items]
    }

    // MARK: hover

    /// The word around an offset (up to white space), and its range.
    func word(_ doc: LSPDocument, at o: Int) -> (String, SourceRange) {
        let b = doc.bytes
        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
        var s = min(o, b.count), e = min(o, b.count)
        while s > 0, !isSpace(b[s - 1]) { s -= 1 }
        while e < b.count, !isSpace(b[e]) { e += 1 }
        return (String(decoding: b[s..<e], as: UTF8.self), SourceRange(start: s, end: e))
    }

    /// What a statement prints in a session (its lines, then its errors as `kept test` writes them).
    static func printed(_ session: Session, _ text: String) -> [String] {
        let f = SourceFile(name: "<hover>", text: text)
        let saved = session.format
        session.format = .text
        defer { session.format = saved }
        let out = session.run(StatementSource(file: f))
        return out.lines + out.diagnostics.map { "! \($0.code) \($0.message)" }
    }

    static func markdown(_ title: String, _ lines: [String]) -> [String: Any] {
        ["kind": "markdown", "value": title + "\n```\n" + lines.joined(separator: "\n") + "\n```"]
    }

    func hover(_ doc: LSPDocument, _ a: LSPAnalysis, _ params: [String: Any]) -> Any? {
        guard let o = offset(doc, params) else { return nil }
        guard let (value, r) = hoverText(doc, a, o) else { return nil }
        return ["contents": value, "range": range(doc, r)] as [String: Any]
    }

    func hoverText(_ doc: LSPDocument, _ a: LSPAnalysis, _ o: Int) -> ([String: Any], SourceRange)? {
        let (w, wr) = word(doc, at: o)
        // A diagnostic code, anywhere (an expected `! E0301 …` line too): its catalog entry.
        let bare = w.trimmingCharacters(in: CharacterSet(charactersIn: "!:,.()'\""))
        if bare.count == 5, let code = DiagnosticCode(rawValue: bare) {
            return (["kind": "markdown", "value": "**\(code)** (\(code.severity == .error ? "error" : "warning")): \(code.summary)"], wr)
        }
        guard let k = a.block(at: o) else { return nil }
        let c = a.blocks[k].command
        let stmt = c.statement
        guard o >= stmt.range.start, o < max(stmt.range.end, stmt.range.start + 1) else { return nil }
        guard let session = a.session(before: k) else { return nil }
        let rel = o - stmt.range.start
        let b = stmt.bytes
        var i = 0
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 }
        let kwStart = i
        while i < b.count, !LSPServer.isBlank(b[i]) { i += 1 }
        let kwEnd = i
        let keyword = String(decoding: b[kwStart..<kwEnd], as: UTF8.self).lowercased()
        while i < b.count, LSPServer.isBlank(b[i]) { i += 1 }
        let base = i
        func fileRange(_ s: Int, _ e: Int) -> SourceRange { SourceRange(start: stmt.range.start + s, end: stmt.range.start + e) }
        let rest = String(decoding: b[base...], as: UTF8.self)
        // The command word: its help.
        if rel >= kwStart, rel < kwEnd, Keyword(rawValue: keyword) != nil {
            return (LSPServer.markdown("**\(keyword)**", LSPServer.printed(session, "help \(keyword)")), fileRange(kwStart, kwEnd))
        }
        // A quick-add line: the date or repeat phrase under the cursor.
        if CaptureHighlighter.captureCommands.contains(keyword) || keyword == "subtask" {
            let line = Array(b[base...])
            let tokens: [CaptureToken]
            switch QuickAdd.parse(bytes: line, in: session.dateContext, natural: keyword == "capture", tokens: true) {
            case .success(let d): tokens = d.tokens
            case .failure(let e): tokens = e.tokens
            }
            if let t = tokens.first(where: { base + $0.start <= rel && rel < base + $0.end }) {
                let text = String(decoding: line[max(0, t.start)..<min(line.count, t.end)], as: UTF8.self)
                let r = fileRange(base + t.start, base + t.end)
                switch t.kind {
                case .date:
                    let phrase = text.hasPrefix("@") ? String(text.dropFirst()) : text
                    return (LSPServer.markdown("date `\(text)`", LSPServer.printed(session, "explain date \(phrase)")), r)
                case .repeat:
                    return (LSPServer.markdown("repeat `\(text)`", LSPServer.printed(session, "repeat \(text)")), r)
                default:
                    break
                }
            }
        }
        // A repeat rule: its words, RRULE and next dates.
        if keyword == "repeat" || keyword == "rrule", !rest.isEmpty {
            return (LSPServer.markdown("repeat", LSPServer.printed(session, "repeat \(rest)")), fileRange(base, b.count))
        }
        if keyword == "explain", rest.lowercased().hasPrefix("date ") {
            return (LSPServer.markdown("date", LSPServer.printed(session, "explain date " + rest.dropFirst(5))), fileRange(base, b.count))
        }
        if keyword == "date", !rest.isEmpty {
            return (LSPServer.markdown("date", LSPServer.printed(session, "explain date " + rest)), fileRange(base, b.count))
        }
        // `reschedule ID PHRASE`: the phrase after the task (a word of it under the cursor).
        if keyword == "reschedule", let sp = b[base...].firstIndex(where: LSPServer.isBlank), rel > sp {
            var ps = sp
            while ps < b.count, LSPServer.isBlank(b[ps]) { ps += 1 }
            let phrase = String(decoding: b[ps...], as: UTF8.self)
            if !phrase.isEmpty, phrase.lowercased() != "clear" {
                return (LSPServer.markdown("date `\(phrase)`", LSPServer.printed(session, "explain date " + phrase)), fileRange(ps, b.count))
            }
        }
        // A filter: its tree and what it matches in the session's store.
        if let (fs, fe) = filterPiece(b, keyword: keyword, base: base, at: rel) {
            let text = String(decoding: b[fs..<fe], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if !text.isEmpty {
                let lines = LSPServer.printed(session, "parse filter \(text)") + [""] + LSPServer.printed(session, "explain \(text)")
                return (LSPServer.markdown("filter `\(text)`", lines), fileRange(fs, fe))
            }
        }
        // A task id: the task.
        if let id = Int(bare), id > 0, session.store.task(id) != nil {
            return (LSPServer.markdown("task \(id)", LSPServer.printed(session, "show \(id)")), wr)
        }
        return nil
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

    /// The filter of a statement (list, count, explain, a saved filter's `=`, after `where`)
    /// that holds an offset, as FilterHighlighter splits it.
    func filterPiece(_ b: [UInt8], keyword: String, base: Int, at rel: Int) -> (Int, Int)? {
        var start: Int? = nil
        if FilterHighlighter.commands.contains(keyword) {
            let next = FilterHighlighter.firstWord(b, from: base).lowercased()
            if !(keyword == "explain" && (next == "date" || next == "plan")) { start = base }
        } else if keyword == "filter", let eq = b[base...].firstIndex(of: UInt8(ascii: "=")) {
            start = eq + 1
        } else {
            // After ` where `.
            let text = String(decoding: b, as: UTF8.self).lowercased()
            if let w = text.range(of: " where ") { start = text.utf8.distance(from: text.startIndex, to: w.upperBound) }
        }
        guard let s = start, rel >= s else { return nil }
        for p in FilterHighlighter.pieces(b, from: s) where p.lowerBound <= rel && rel <= p.upperBound {
            return (p.lowerBound, p.upperBound)
        }
        return nil
    }

    // MARK: definition

    func definition(_ doc: LSPDocument, _ a: LSPAnalysis, _ params: [String: Any]) -> Any? {
        guard let o = offset(doc, params) else { return nil }
        var (w, _) = word(doc, at: o)
        w = w.trimmingCharacters(in: CharacterSet(charactersIn: "(),"))
        if let id = Int(w), let k = a.taskOrigin[id], k < a.blocks.count {
            return ["uri": doc.uri, "range": range(doc, a.blocks[k].command.statement.range)] as [String: Any]
        }
        var name = w
        if name.lowercased().hasPrefix("filter:") { name = String(name.dropFirst(7)) }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        if let r = a.filterDefinitions()[name.lowercased()] {
            return ["uri": doc.uri, "range": range(doc, r)] as [String: Any]
        }
        return nil
    }

    // MARK: symbols

    /// The cases of a transcript, each with its commands, and the commands before the first case.
    func symbols(_ doc: LSPDocument, _ a: LSPAnalysis) -> Any? {
        var top: [[String: Any]] = []
        var currentCase: [String: Any]? = nil
        var children: [[String: Any]] = []
        var caseStart = 0
        var k = 0
        func closeCase(end: Int) {
            guard var c = currentCase else { return }
            let r = SourceRange(start: caseStart, end: max(caseStart, end))
            c["range"] = range(doc, r)
            c["children"] = children
            top.append(c)
            currentCase = nil
            children = []
        }
        for item in a.transcript.items {
            switch item {
            case .directive(let d) where d.name == "case":
                closeCase(end: max(caseStart, d.range.start - 1))
                caseStart = d.range.start
                currentCase = ["name": "case \"\(d.unquoted)\"", "kind": 3, "selectionRange": range(doc, d.range)]
            case .directive:
                break
            case .command(let c):
                let endLine = max(a.file.line(of: c.statement.range.end), c.expectedLines.upperBound - 1)
                let r = SourceRange(start: lineRange(a, c.line).start, end: lineRange(a, endLine).end)
                var name = c.statement.text
                if name.count > 60 { name = String(name.prefix(59)) + "…" }
                if name.isEmpty { name = "(empty)" }
                var detail = ""
                if k < a.blocks.count {
                    let b = a.blocks[k]
                    detail = b.notRun != nil ? "not run" : (b.outcome?.status.rawValue ?? "")
                }
                let sym: [String: Any] = ["name": name, "detail": detail, "kind": 12, "range": range(doc, r),
                                          "selectionRange": range(doc, c.statement.range)]
                if currentCase != nil { children.append(sym) } else { top.append(sym) }
                k += 1
            }
        }
        closeCase(end: doc.bytes.count)
        return top
    }

    // MARK: semantic tokens

    /// The token types, in the legend's order (docs/EDITORS.md maps the REPL's colours to them).
    static let tokenTypes = ["keyword", "string", "number", "comment", "macro", "enumMember", "event", "namespace",
                             "type", "enum", "property", "regexp", "variable"]

    static func tokenType(_ k: CaptureToken.Kind) -> Int {
        switch k {
        case .date: return 5
        case .repeat: return 6
        case .project: return 7
        case .tag: return 8
        case .priority: return 9
        case .note: return 1
        case .start, .status, .parent: return 10
        }
    }

    static func tokenType(_ k: TermKind) -> Int? {
        switch k {
        case .tag: return 8
        case .project: return 7
        case .priority: return 9
        case .note: return 1
        case .window, .date, .dateIn: return 5
        case .repeatFrequency: return 6
        case .regex: return 11
        case .status, .doneToday, .predicate, .notPredicate, .parent, .estimate, .area: return 10
        case .saved: return 12
        case .words: return nil
        }
    }

    /// The spans of a document (byte ranges with a token type), sorted and not overlapping.
    func tokenSpans(_ a: LSPAnalysis) -> [(Int, Int, Int)] {
        var spans: [(Int, Int, Int)] = []
        let file = a.file
        // Comments and directives: lines outside the commands' blocks.
        var inBlock = Set<Int>()
        for b in a.blocks {
            let last = max(file.line(of: b.command.statement.range.end), b.command.expectedLines.upperBound - 1)
            if last >= b.command.line { for l in b.command.line...last { inBlock.insert(l) } }
        }
        for l in 1...max(1, file.lineStarts.count) where !inBlock.contains(l) {
            let s = file.lineStarts[l - 1], e = file.lineEnd(l)
            guard s < e else { continue }
            if file.bytes[s] == UInt8(ascii: "#") { spans.append((s, e, 3)) } else if file.bytes[s] == UInt8(ascii: "@") { spans.append((s, e, 4)) }
        }
        for b in a.blocks {
            let stmt = b.command.statement
            var own: [(Int, Int, Int)] = []
            var lexer = Lexer(file: file, statement: stmt)
            let tokens = lexer.tokenize()
            guard let first = tokens.first, first.kind == .word else { continue }
            own.append((first.range.start, first.range.end, 0))
            let keyword = first.text.lowercased()
            let bytes = stmt.bytes
            let base = max(0, min(bytes.count, first.range.end - stmt.range.start))
            var restStart = base
            while restStart < bytes.count, LSPServer.isBlank(bytes[restStart]) { restStart += 1 }
            if CaptureHighlighter.captureCommands.contains(keyword) || keyword == "subtask" {
                let ctx = a.checkpoints.first?.session.dateContext
                if let ctx {
                    let line = Array(bytes[restStart...])
                    let toks: [CaptureToken]
                    switch QuickAdd.parse(bytes: line, in: ctx, natural: keyword == "capture", tokens: true) {
                    case .success(let d): toks = d.tokens
                    case .failure(let e): toks = e.tokens
                    }
                    for t in toks where t.start < t.end {
                        own.append((stmt.range.start + restStart + t.start, stmt.range.start + restStart + t.end, LSPServer.tokenType(t.kind)))
                    }
                }
            } else if let (fs, _) = filterStart(bytes, keyword, restStart) {
                for p in FilterHighlighter.pieces(bytes, from: fs) {
                    let text = String(decoding: bytes[p], as: UTF8.self)
                    guard !text.allSatisfy({ $0 == " " }), case .success(let parsed) = FilterParser.parse(text, name: "line") else { continue }
                    for t in parsed.syntax.terms {
                        if let ty = LSPServer.tokenType(t.kind) {
                            own.append((stmt.range.start + p.lowerBound + t.range.start, stmt.range.start + p.lowerBound + t.range.end, ty))
                        }
                    }
                }
            }
            for t in tokens.dropFirst() {
                switch t.kind {
                case .string: own.append((t.range.start, t.range.end, 1))
                case .number: own.append((t.range.start, t.range.end, 2))
                case .pattern: own.append((t.range.start, t.range.end, 11))
                default: break
                }
            }
            // The first span that claims a byte keeps it.
            own.sort { $0.0 < $1.0 }
            var at = 0
            for s in own where s.0 >= at && s.1 > s.0 {
                spans.append(s)
                at = s.1
            }
        }
        spans.sort { $0.0 < $1.0 }
        return spans
    }

    /// Where a statement's filter starts, for the ones `filterPiece` finds only at an offset.
    func filterStart(_ b: [UInt8], _ keyword: String, _ base: Int) -> (Int, Int)? {
        if FilterHighlighter.commands.contains(keyword) {
            let next = FilterHighlighter.firstWord(b, from: base).lowercased()
            if keyword == "explain", next == "date" || next == "plan" { return nil }
            return (base, b.count)
        }
        if keyword == "filter", let eq = b[base...].firstIndex(of: UInt8(ascii: "=")) { return (eq + 1, b.count) }
        let text = String(decoding: b, as: UTF8.self).lowercased()
        if let w = text.range(of: " where ") { return (text.utf8.distance(from: text.startIndex, to: w.upperBound), b.count) }
        return nil
    }

    func semanticTokens(_ doc: LSPDocument, _ a: LSPAnalysis) -> Any? {
        var data: [Int] = []
        var prevLine = 0, prevChar = 0
        for (s, e, ty) in tokenSpans(a) {
            // A token never spans lines: one per line it covers.
            var from = s
            while from < e {
                let p = doc.position(from, encoding)
                let lineEnd = doc.lineEnd(p.line)
                let to = min(e, lineEnd)
                if to > from {
                    let q = doc.position(to, encoding)
                    data += [p.line - prevLine, p.line == prevLine ? p.character - prevChar : p.character, q.character - p.character, ty, 0]
                    prevLine = p.line
                    prevChar = p.character
                }
                guard p.line + 1 < doc.lineStarts.count else { break }
                from = max(to + 1, doc.lineStarts[p.line + 1])
            }
        }
        return ["data": data]
    }

    // MARK: code actions and lenses

    func codeActions(_ doc: LSPDocument, _ a: LSPAnalysis, _ params: [String: Any]) -> Any? {
        guard let r = params["range"] as? [String: Any], let s = LSPServer.position(r["start"]), let e = LSPServer.position(r["end"]) else {
            return [Any]()
        }
        let from = doc.offset(s, encoding), to = doc.offset(e, encoding)
        var actions: [[String: Any]] = []
        for f in a.diagnostics() {
            let fr = findingRange(f, doc, a)
            guard fr.start <= to, fr.end >= from else { continue }
            let diag = lspDiagnostic(f, doc, a)
            if let d = f.diagnostic, d.file === a.file {
                for fix in d.fixIts {
                    let edit = ["range": range(doc, fix.range), "newText": fix.replacement] as [String: Any]
                    actions.append(["title": fix.title, "kind": "quickfix", "diagnostics": [diag], "isPreferred": d.fixIts.count == 1,
                                    "edit": ["changes": [doc.uri: [edit]]]])
                }
            }
            if let u = f.outcome?.update {
                actions.append(["title": "Update the expected output (kept test --update)", "kind": "quickfix", "diagnostics": [diag],
                                "edit": ["changes": [doc.uri: [updateEdit(doc, a, u)]]]])
            }
        }
        return actions
    }

    /// The edit that writes a block `kept test --update` computed (its lines, 1-based, and the
    /// lines to put there) as TranscriptUpdater.rewrite writes it into the file.
    func updateEdit(_ doc: LSPDocument, _ a: LSPAnalysis, _ u: BlockUpdate) -> [String: Any] {
        let starts = a.file.lineStarts
        let count = a.file.bytes.count
        let endsWithNewline = a.file.bytes.last == 0x0A
        // The lines of the file as `rewrite` counts them: a final line break ends the last line.
        let lines = endsWithNewline ? starts.count - 1 : starts.count
        func at(_ l: Int) -> Int { l < lines ? starts[l] : count }
        var s = at(max(0, u.lines.lowerBound - 1))
        let e = at(max(0, u.lines.upperBound - 1))
        var text = u.replacement.joined(separator: "\n")
        if u.replacement.isEmpty {
            if e == count, !endsWithNewline, s > 0 { s -= 1 }
        } else if s == count, count > 0, !endsWithNewline {
            text = "\n" + text
        } else if !(e == count && !endsWithNewline) {
            text += "\n"
        }
        return ["range": range(doc, SourceRange(start: s, end: max(s, e))), "newText": text]
    }

    func codeLenses(_ doc: LSPDocument, _ a: LSPAnalysis) -> Any? {
        guard a.transcript.isTranscript else { return [Any]() }
        var lenses: [[String: Any]] = []
        for b in a.blocks {
            let r = range(doc, lineRange(a, b.command.line))
            let args: [Any] = [doc.uri, b.command.line]
            let title: String
            if let why = b.notRun { title = why } else {
                switch b.outcome?.status {
                case .passed?: title = "✓ passes"
                case .failed?: title = "✗ fails"
                case .skipped?: title = "skipped"
                case .xfailed?: title = "xfail (fails as expected)"
                case .xpassed?: title = "✗ XPASS"
                case nil: title = "not run"
                }
            }
            lenses.append(["range": r, "command": ["title": title, "command": LSPServer.runCommand, "arguments": args] as [String: Any]])
            if b.outcome?.update != nil {
                lenses.append(["range": r, "command": ["title": "Update expected output", "command": LSPServer.updateCommand,
                                                       "arguments": args] as [String: Any]])
            }
        }
        return lenses
    }

    /// `kept.runBlock URI LINE` shows the block's output; `kept.updateBlock URI LINE` asks the
    /// client to apply its `--update` edit (workspace/applyEdit). Each returns what it did.
    func executeCommand(_ params: [String: Any]) -> Any? {
        guard let command = params["command"] as? String, let args = params["arguments"] as? [Any], args.count >= 2,
              let uri = args[0] as? String, let line = lspInt(args[1]), let doc = documents[uri], let a = analysis(uri),
              let b = a.blocks.first(where: { $0.command.line == line }) else { return nil }
        switch command {
        case LSPServer.runCommand:
            var lines: [String] = []
            if let o = b.output { lines = ScriptTest.actualLines(o, format: b.format) }
            let status = b.notRun ?? b.outcome?.status.rawValue ?? "not run"
            let text = (["\(status): > \(b.command.statement.text)"] + lines + (b.outcome?.failure.dropFirst(2) ?? [])).joined(separator: "\n")
            notify("window/showMessage", ["type": 3, "message": text] as [String: Any])
            return ["status": status, "output": lines] as [String: Any]
        case LSPServer.updateCommand:
            guard let u = b.outcome?.update else { return ["applied": false] }
            let edit: [String: Any] = ["changes": [uri: [updateEdit(doc, a, u)]]]
            send(["id": nextOutgoing, "method": "workspace/applyEdit", "params": ["label": "Update expected output", "edit": edit] as [String: Any]])
            nextOutgoing += 1
            return ["applied": true, "edit": edit] as [String: Any]
        default:
            return nil
        }
    }
}
