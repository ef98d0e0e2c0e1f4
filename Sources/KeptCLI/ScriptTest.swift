// One transcript under test: runs its commands in a session of test mode (frozen clock, fixed
// zone, no colour), case by case, and compares each output with its expected block. `@skip`
// and `@xfail` mark a command, a case or the whole file; the selection (`-k`, `FILE:LINE`)
// says which commands are checked, and which run only to set up the state a later one needs.

import Dispatch
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// What a command printed, as a transcript compares it.
struct ActualOutput: Sendable {
    var lines: [String]
    /// Which lines are errors written `! CODE message` (kept as they are by `--update`; an
    /// output line is escaped when it would read as syntax).
    var isError: [Bool]
}

/// Tests one script.
struct ScriptTest {
    let path: String
    let options: SessionOptions
    /// Work out the block `--update` would write for each failing command.
    let update: Bool
    var selection = TestSelection()
    /// Stop after this many failures (the runner cuts across scripts).
    var maxFailures: Int? = nil
    /// The files the transcript's statements and `@store` may open (the runner confines them).
    var pathPolicy: PathPolicy = .unrestricted

    /// The lines a command produced, as a transcript writes them: output lines, then each
    /// error as `! CODE message` (in JSON mode the error object is an output line).
    static func actualLines(_ r: CommandOutput, format: OutputFormat) -> [String] {
        actual(r, format: format).lines
    }

    static func actual(_ r: CommandOutput, format: OutputFormat) -> ActualOutput {
        // A value with a line break prints as several lines, as it does on a terminal.
        var lines = r.lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        var isError = Array(repeating: false, count: lines.count)
        for d in r.diagnostics {
            if format == .json {
                lines.append(JSONWriter.compact(DiagnosticJSON.value(d)))
                isError.append(false)
            } else {
                lines.append("! \(d.code) \(d.message)")
                isError.append(true)
            }
        }
        return ActualOutput(lines: lines, isError: isError)
    }

    /// What a command is to this run.
    enum Role { case check, setup, none }

    /// The role of each command, in order, or the error of a `FILE:LINE` that names no command
    /// or case.
    func roles(_ t: Transcript, lineCount: Int) -> Result<[Role], Diagnostic> {
        let commands = t.commands
        // The case of each command (-1 before the first `@case`) and the lines of each case.
        var caseOf: [Int] = []
        var caseStarts: [Int] = []
        for item in t.items {
            switch item {
            case .directive(let d) where d.name == "case": caseStarts.append(d.line)
            case .command: caseOf.append(caseStarts.count - 1)
            default: break
            }
        }
        var checked = commands.map { selection.picks(TestSelection.name(path, $0.caseName)) }
        if let asked = selection.lines[path] {
            var byLine = Array(repeating: false, count: commands.count)
            for line in asked {
                if let k = commands.firstIndex(where: { $0.line <= line && line < max($0.expectedLines.upperBound, $0.line + 1) }) {
                    byLine[k] = true
                } else if let c = caseStarts.lastIndex(where: { $0 <= line }), line <= lineCount {
                    for k in commands.indices where caseOf[k] == c { byLine[k] = true }
                } else {
                    return .failure(Catalog.nothingAtLine(path, line: line, lines: lineCount))
                }
            }
            checked = zip(checked, byLine).map { $0 && $1 }
        }
        // A command left out still runs when a checked one after it in its case needs its
        // state; the lines before the first case set up every case.
        var lastChecked: [Int: Int] = [:]
        for k in commands.indices where checked[k] { lastChecked[caseOf[k]] = k }
        let anyCase = lastChecked.keys.contains { $0 >= 0 }
        return .success(commands.indices.map { k in
            if checked[k] { return .check }
            if let last = lastChecked[caseOf[k]], k < last { return .setup }
            if caseOf[k] < 0, anyCase { return .setup }
            return .none
        })
    }

    func run() -> ScriptReport {
        let started = DispatchTime.now().uptimeNanoseconds
        var report = runScript()
        report.seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return report
    }

    private func runScript() -> ScriptReport {
        var report = ScriptReport(path: path)
        let short = DiagnosticRenderer(style: .short)
        let bytes: [UInt8]
        switch Files.readBytes(path, limit: Limits.scriptBytes) {
        case .success(let b): bytes = SourceFile.droppingBOM(b)
        case .failure(let e):
            let d = e.isTooLarge ? Catalog.scriptTooLarge(path) : Catalog.scriptUnreadable(path, reason: e.reason)
            report.errors.append(short.render(d))
            return report
        }
        let file = SourceFile(name: path, bytes: bytes)
        if let bad = firstInvalidUTF8(bytes) {
            report.errors.append(short.render(Catalog.invalidUTF8(file: file, offset: bad)))
            return report
        }
        let transcript = Transcript(file: file)
        if !transcript.diagnostics.isEmpty {
            report.errors += transcript.diagnostics.map { short.render($0) }
            return report
        }
        let roles: [Role]
        switch self.roles(transcript, lineCount: file.lineStarts.count) {
        case .success(let r): roles = r
        case .failure(let d):
            report.errors.append(short.render(d))
            return report
        }
        report.deselected = roles.filter { $0 != .check }.count
        guard roles.contains(where: { $0 != .none }) else { return report }

        var session: Session
        switch SessionFactory.make(options, testMode: true, pathPolicy: pathPolicy) {
        case .success(let s):
            session = s
            // `import FILE` and `export FILE` read relative names against the transcript's
            // folder, as `@store` does.
            session.fileBase = Files.directory(of: path)
        case .failure(.usage(let m)):
            report.errors.append("\(path): \(m)")
            return report
        case .failure(.store(let d)):
            report.errors.append(short.render(d))
            return report
        }
        var run = MarkedScope(path: path)
        var setup: Session? = nil
        var k = 0
        for item in transcript.items {
            switch item {
            case .directive(let d) where d.name == "case":
                run.endCase(&report)
                run.startCase(d)
                // Every case starts from the state the lines before the first case reached.
                if let s = setup { session = s.copy() } else { setup = session.copy() }
            case .directive(let d) where d.isMark:
                run.mark(d)
            case .directive(let d) where d.name == "store":
                let dir = Files.directory(of: path)
                let target = d.argument.hasPrefix("/") ? d.argument : "\(dir)/\(d.argument)"
                // A store outside the allowed folders is not read: its error would quote its lines.
                if let r = pathPolicy.refusal(target) {
                    report.errors.append(short.render(Catalog.pathOutsideAllowed(r, range: d.range, file: file)))
                    return report
                }
                switch StoreFile.load(target) {
                // Held in memory, never written, and named, so an export cannot replace it.
                case .success(.store(let s)): session.replaceStore(JSONStore(memory: s, readFrom: target))
                case .success(.missing):
                    report.errors.append(short.render(Catalog.noStoreFile(d.argument, file: file, range: d.range)))
                    return report
                case .failure(let diag):
                    report.errors.append(short.render(Catalog.store(diag)))
                    return report
                }
            case .directive:
                break
            case .command(let c):
                let role = roles[k]
                k += 1
                if role == .none { continue }
                if let outcome = test(c, role: role, session: session, scope: &run) {
                    report.outcomes.append(outcome)
                    if let n = maxFailures, report.failures >= n { return report }
                }
            }
        }
        run.endCase(&report)
        run.endFile(&report)
        return report
    }

    /// Runs one command and compares its output; nil for a command that only set up state.
    func test(_ c: TranscriptCommand, role: Role, session: Session, scope: inout MarkedScope) -> TestOutcome? {
        // R-SYNC-9: reports show an `account link` statement masked.
        let shown = Parser.masked(c.statement).text
        var outcome = TestOutcome(line: c.line, caseName: c.caseName, statement: shown, status: .passed)
        let header = c.caseName.map { " (case \"\($0)\")" } ?? ""
        if let skip = scope.skip(c) {
            guard role == .check else { return nil }
            outcome.status = .skipped
            outcome.reason = skip.unquoted
            if c.modifiers.contains(where: { $0.name == "skip" }) {
                outcome.note = "skipped \(path):\(c.line)\(header): \(MarkedScope.reason(skip))"
            }
            return outcome
        }
        let t0 = DispatchTime.now().uptimeNanoseconds
        let saved = session.format
        if let f = c.modifiers.first(where: { $0.name == "format" }), let fmt = OutputFormat(rawValue: f.argument) {
            session.format = fmt
        }
        let result = session.withWidth(c.modifiers) { session.run(c.statement, confirmed: c.modifiers.contains { $0.name == "yes" }) }
        let format = session.format
        session.format = saved
        guard role == .check else { return nil }
        let actual = ScriptTest.actual(result, format: format)
        let expected = ExpectedOutput(c.expected, json: format == .json)
        let unordered = c.modifiers.contains { $0.name == "unordered" }
        let matched = expected.matches(actual.lines, unordered: unordered)
        outcome.seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        let ownXfail = c.modifiers.first { $0.name == "xfail" }
        if matched {
            scope.passed()
            guard let x = ownXfail else { return outcome }
            outcome.status = .xpassed
            outcome.reason = x.unquoted
            outcome.failure = ["XPASS \(path):\(c.line)\(header)", "> " + shown,
                               "its output matched, but '@xfail' expects it to fail: \(MarkedScope.reason(x))"]
            return outcome
        }
        if let x = ownXfail ?? scope.xfail {
            scope.xfailed()
            outcome.status = .xfailed
            outcome.reason = x.unquoted
            if ownXfail != nil { outcome.note = "xfail   \(path):\(c.line)\(header): \(MarkedScope.reason(x))" }
            return outcome
        }
        outcome.status = .failed
        outcome.failure = ["FAIL \(path):\(c.line)\(header)", "> " + shown]
            + TestDiff.lines(expected, actual.lines, unordered: unordered)
        if update {
            outcome.update = BlockUpdate(lines: c.expectedLines,
                                         replacement: TranscriptUpdater.block(expected, actual, unordered: unordered))
        }
        return outcome
    }
}

/// The `@skip` and `@xfail` of the file and of the case being run, and whether a command under
/// an `@xfail` of a case or the file failed as it expects.
struct MarkedScope {
    let path: String
    var fileSkip: TranscriptDirective? = nil
    var fileXfail: TranscriptDirective? = nil
    var caseSkip: TranscriptDirective? = nil
    var caseXfail: TranscriptDirective? = nil
    var caseName: String? = nil
    var inCase = false
    /// Per scope: commands checked, and whether one failed.
    var fileRan = 0, fileFailed = false
    var caseRan = 0, caseFailed = false

    init(path: String) { self.path = path }

    static func reason(_ d: TranscriptDirective) -> String {
        d.unquoted.isEmpty ? "no reason given" : d.unquoted
    }

    var xfail: TranscriptDirective? { caseXfail ?? fileXfail }

    func skip(_ c: TranscriptCommand) -> TranscriptDirective? {
        c.modifiers.first { $0.name == "skip" } ?? caseSkip ?? fileSkip
    }

    mutating func mark(_ d: TranscriptDirective) {
        switch (d.name, inCase) {
        case ("skip", false): fileSkip = d
        case ("skip", true): caseSkip = d
        case (_, false): fileXfail = d
        default: caseXfail = d
        }
    }

    mutating func startCase(_ d: TranscriptDirective) {
        inCase = true
        caseName = d.unquoted
        caseSkip = nil
        caseXfail = nil
        caseRan = 0
        caseFailed = false
    }

    mutating func passed() {
        fileRan += 1
        caseRan += 1
    }

    mutating func xfailed() {
        passed()
        fileFailed = true
        caseFailed = true
    }

    /// Ends the case being run: its `@skip` or `@xfail` goes into the summary, and an `@xfail`
    /// under which every command passed is a failure.
    mutating func endCase(_ report: inout ScriptReport) {
        guard inCase else { return }
        let where_ = caseName.map { " (case \"\($0)\")" } ?? ""
        let name = caseName
        close(&report, skip: caseSkip, xfail: caseXfail, ran: caseRan, failed: caseFailed, what: "case", caseName: name,
              skipped: { $0.caseName == name && $0.line > $1.line }, place: { "\(path):\($0.line)\(where_)" })
        caseSkip = nil
        caseXfail = nil
    }

    /// Ends the file: the same for its own `@skip` or `@xfail`.
    mutating func endFile(_ report: inout ScriptReport) {
        close(&report, skip: fileSkip, xfail: fileXfail, ran: fileRan, failed: fileFailed, what: "file", caseName: nil,
              skipped: { _, _ in true }, place: { _ in path })
    }

    /// The summary lines of a scope's `@skip` (when it skipped a command, by `skipped`) and
    /// `@xfail` (when a command ran), or the XPASS of an `@xfail` under which nothing failed.
    private func close(_ report: inout ScriptReport, skip: TranscriptDirective?, xfail: TranscriptDirective?, ran: Int, failed: Bool,
                       what: String, caseName: String?, skipped: (TestOutcome, TranscriptDirective) -> Bool,
                       place: (TranscriptDirective) -> String) {
        if let s = skip, report.outcomes.contains(where: { $0.status == .skipped && skipped($0, s) }) {
            report.notes.append(ScriptReport.Note(line: s.line, text: "skipped \(place(s)): \(MarkedScope.reason(s))"))
        }
        guard let x = xfail, ran > 0 else { return }
        if failed {
            report.notes.append(ScriptReport.Note(line: x.line, text: "xfail   \(place(x)): \(MarkedScope.reason(x))"))
        } else {
            report.outcomes.append(MarkedScope.xpass(x, path: path, caseName: caseName, what: what))
        }
    }

    static func xpass(_ x: TranscriptDirective, path: String, caseName: String?, what: String) -> TestOutcome {
        let where_ = caseName.map { " (case \"\($0)\")" } ?? ""
        return TestOutcome(line: x.line, caseName: caseName, statement: "@xfail \(x.argument)".trimmedSpaces, status: .xpassed,
                           reason: x.unquoted,
                           failure: ["XPASS \(path):\(x.line)\(where_)",
                                     "every command of the \(what) passed, but '@xfail' expects one to fail: \(reason(x))"])
    }
}
