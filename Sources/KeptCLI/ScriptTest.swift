// One transcript under test: runs its commands in a session of test mode (frozen clock, fixed
// zone, no colour), case by case, and compares each output with its expected block.

import KeptCore

/// Tests one script.
struct ScriptTest {
    let path: String
    let options: SessionOptions
    let update: Bool

    /// The lines a command produced, as a transcript writes them: output lines, then each
    /// error as `! CODE message` (in JSON mode the error object is an output line).
    static func actualLines(_ r: CommandOutput, format: OutputFormat) -> [String] {
        // A value with a line break prints as several lines, as it does on a terminal.
        var lines = r.lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        for d in r.diagnostics {
            if format == .json {
                lines.append(JSONWriter.compact(DiagnosticJSON.value(d)))
            } else {
                lines.append("! \(d.code) \(d.message)")
            }
        }
        return lines
    }

    func run() -> ScriptReport {
        var report = ScriptReport(path: path)
        let bytes: [UInt8]
        switch StoreFile.readBytes(path, limit: Limits.scriptBytes) {
        case .success(let b): bytes = b
        case .failure(let e):
            report.broken = true
            let d = e.isTooLarge ? Catalog.scriptTooLarge(path) : Catalog.scriptUnreadable(path, reason: e.reason)
            report.failures.append(DiagnosticRenderer(style: .short).render(d))
            return report
        }
        let file = SourceFile(name: path, bytes: bytes)
        let short = DiagnosticRenderer(style: .short)
        if let bad = firstInvalidUTF8(bytes) {
            report.broken = true
            report.failures.append(short.render(Catalog.invalidUTF8(file: file, offset: bad)))
            return report
        }
        let transcript = Transcript(file: file)
        let problems = transcript.diagnostics
        if !problems.isEmpty {
            report.broken = true
            report.failures += problems.map { short.render($0) }
            return report
        }
        var session: Session
        switch SessionFactory.make(options, testMode: true) {
        case .success(let s): session = s
        case .failure(.usage(let m)):
            report.broken = true
            report.failures.append("\(path): \(m)")
            return report
        case .failure(.store(let d)):
            report.broken = true
            report.failures.append(short.render(d))
            return report
        }
        var setup: Session? = nil
        var updates: [(TranscriptCommand, [String])] = []
        for item in transcript.items {
            switch item {
            case .directive(let d) where d.name == "case":
                // Every case starts from the state the lines before the first case reached.
                if let s = setup { session = s.copy() } else { setup = session.copy() }
            case .directive(let d) where d.name == "store":
                let dir = StoreFile.directory(of: path)
                let target = d.argument.hasPrefix("/") ? d.argument : "\(dir)/\(d.argument)"
                switch StoreFile.load(target) {
                case .success(.store(let s)): session.replaceStore(s)
                case .success(.missing):
                    report.broken = true
                    report.failures.append(short.render(Diagnostic(code: "E0308", message: "no store file '\(d.argument)'", file: file, range: d.range)))
                    return report
                case .failure(let diag):
                    report.broken = true
                    report.failures.append(short.render(diag))
                    return report
                }
            case .directive:
                break
            case .command(let c):
                if c.modifiers.contains(where: { $0.name == "skip" }) {
                    report.skipped += 1
                    continue
                }
                let saved = session.format
                if let f = c.modifiers.first(where: { $0.name == "format" }), let fmt = OutputFormat(rawValue: f.argument) {
                    session.format = fmt
                }
                let result = session.run(c.statement, confirmed: c.modifiers.contains { $0.name == "yes" })
                let actual = ScriptTest.actualLines(result, format: session.format)
                session.format = saved
                let expected = ExpectedOutput(c.expected)
                let unordered = c.modifiers.contains { $0.name == "unordered" }
                if expected.matches(actual, unordered: unordered) {
                    report.passed += 1
                    continue
                }
                report.failed += 1
                updates.append((c, actual))
                var text = ["FAIL \(path):\(c.line)" + (c.caseName.map { " (case \"\($0)\")" } ?? "")]
                text.append("> " + c.statement.text)
                text += UnifiedDiff.lines(expected: c.expected, actual: actual) { i, j in expected.same(i, actual[j]) }
                report.failures.append(text.joined(separator: "\n"))
            }
        }
        if update, !updates.isEmpty {
            if TranscriptUpdater.rewrite(path: path, bytes: bytes, updates: updates) {
                report.updatedBlocks = updates.count
            } else {
                report.broken = true
                report.failures.append("\(path): could not rewrite the file")
            }
        }
        return report
    }
}

/// Writes actual output over failing expected blocks.
enum TranscriptUpdater {
    static func rewrite(path: String, bytes: [UInt8], updates: [(TranscriptCommand, [String])]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let endsWithNewline = text.hasSuffix("\n")
        if endsWithNewline { lines.removeLast() }
        // From the bottom up, so earlier line numbers stay valid.
        for (c, actual) in updates.sorted(by: { $0.0.line > $1.0.line }) {
            let from = c.expectedLines.lowerBound - 1
            let to = c.expectedLines.upperBound - 1
            guard from >= 0, from <= lines.count, to <= lines.count else { return false }
            lines.replaceSubrange(from..<to, with: actual.map { $0.isEmpty ? "<BLANKLINE>" : $0 })
        }
        var out = lines.joined(separator: "\n")
        if endsWithNewline { out += "\n" }
        return StoreFile.writeAtomically(Array(out.utf8), to: path, newMode: 0o644).isSuccess
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
