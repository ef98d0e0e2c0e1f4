// What the language server knows of one document: the document read as `kept test` reads a
// transcript (TranscriptReader, Transcript), its commands run in a session of test mode as
// `kept test` runs them (ScriptTest.test: the same comparison, the same `--update` block), the
// diagnostics each command gave, the ids each `add` made and the saved filters each `filter
// NAME = …` defined. Every 32 commands (further apart with a large store, LSPAnalysis.
// checkpointTaskBudget) and after each directive the session is kept as a
// checkpoint: a change re-runs from the last checkpoint before it, and a hover or a completion
// replays the commands since one (at most 31 with a store of usual size) to get the session as
// it stands before its command.
//
// Two kinds of command are not run, since running them as the user types would act outside the
// editor: `export` to a file (a file written at every keystroke) and `sync` / `account`
// (a server reached). Their syntax is still checked.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// One command as the server ran it.
struct LSPBlock {
    let command: TranscriptCommand
    /// False when it was not run (skipped, or a command the server does not run).
    var ran = false
    /// Why it was not run, for its code lens.
    var notRun: String? = nil
    var output: CommandOutput? = nil
    var format: OutputFormat = .text
    var outcome: TestOutcome? = nil
}

/// The state of a run before one command: enough to go on from there.
struct LSPRunState {
    var item: Int
    var block: Int
    var session: Session
    var setup: Session?
    var scope: MarkedScope
    var caseName: String?

    func copied() -> LSPRunState {
        LSPRunState(item: item, block: block, session: session.copy(), setup: setup?.copy(), scope: scope, caseName: caseName)
    }
}

final class LSPAnalysis {
    static let checkpointEvery = 32
    /// The most tasks all checkpoints together may hold copies of (a checkpoint's store shares
    /// its tasks with the running one until a command changes them): with a large `@store`,
    /// checkpoints are spaced further apart, so memory stays bounded and only replays grow.
    static let checkpointTaskBudget = 1_000_000

    let file: SourceFile
    let transcript: Transcript
    /// The script's path (from a `file:` URI), for `@store` and the folders it may read.
    let path: String
    let policy: PathPolicy
    private(set) var blocks: [LSPBlock] = []
    /// Errors of the file itself: a stray line, an unknown directive, a `@store` that failed.
    private(set) var fileErrors: [Diagnostic] = []
    private(set) var checkpoints: [LSPRunState] = []
    /// The command (its index in `blocks`) that made each task id: the last of them, since
    /// each `@case` starts again from the setup's ids.
    var taskOrigin: [Int: Int] { origins.compactMapValues(\.last) }
    /// Every command that made each task id, in order: a re-run from a checkpoint keeps those
    /// before it, so an id a later case made again still goes back to its earlier maker when
    /// the edit means the later one no longer makes it.
    private(set) var origins: [Int: [Int]] = [:]
    /// Where each block's text ends (the byte after its last line), for reuse after a change.
    private(set) var itemEnds: [Int] = []
    /// Set when a `@store` stopped the run: no command after it ran.
    private(set) var stopped = false
    private let tester: ScriptTest
    private let commandCount: Int

    init(path: String, bytes: [UInt8], reusing old: LSPAnalysis? = nil, changedFrom: Int = 0) {
        self.path = path
        let f = SourceFile(name: path, bytes: bytes)
        let t = Transcript(file: f)
        self.file = f
        self.transcript = t
        self.fileErrors = t.diagnostics
        let dir = Files.directory(of: path)
        self.policy = path.hasPrefix("/") ? .confined(to: [dir]) : .confined(to: [])
        var opts = SessionOptions()
        opts.format = .text
        self.tester = ScriptTest(path: path, options: opts, update: true, pathPolicy: policy)
        self.commandCount = t.commands.count
        self.itemEnds = t.items.map { LSPAnalysis.end(of: $0, in: f) }
        // A script over the size limit is refused as `kept test` refuses it.
        if bytes.count > Limits.scriptBytes {
            fileErrors = [Catalog.scriptTooLarge(path)]
            stopped = true
            return
        }
        run(reusing: old, changedFrom: changedFrom)
    }

    /// The offset just past an item's last line (its line break included).
    static func end(of item: TranscriptItem, in file: SourceFile) -> Int {
        let last: Int
        switch item {
        case .command(let c): last = max(c.expectedLines.upperBound - 1, file.line(of: c.statement.range.end))
        case .directive(let d): last = d.line
        }
        return last < file.lineStarts.count ? file.lineStarts[last] : file.bytes.count + 1
    }

    private func fresh() -> LSPRunState? {
        var o = SessionOptions()
        o.format = .text
        guard case .success(let s) = SessionFactory.make(o, testMode: true, pathPolicy: policy) else { return nil }
        // No server is reached from an editor's keystrokes.
        s.syncConnector = nil
        return LSPRunState(item: 0, block: 0, session: s, setup: nil, scope: MarkedScope(path: path), caseName: nil)
    }

    private func run(reusing old: LSPAnalysis?, changedFrom d: Int) {
        var state: LSPRunState? = nil
        if let old, old.transcript.isTranscript == transcript.isTranscript, !old.stopped {
            // The last checkpoint whose items before it all end before the change.
            for cp in old.checkpoints.reversed() {
                let unchanged = cp.item == 0 || (cp.item <= old.itemEnds.count && cp.item <= itemEnds.count
                    && old.itemEnds[cp.item - 1] < d && itemEnds[cp.item - 1] == old.itemEnds[cp.item - 1])
                guard unchanged, cp.block <= old.blocks.count else { continue }
                blocks = Array(old.blocks.prefix(cp.block))
                checkpoints = old.checkpoints.filter { $0.item < cp.item }
                origins = old.origins.compactMapValues { blocks in
                    let kept = blocks.filter { $0 < cp.block }
                    return kept.isEmpty ? nil : kept
                }
                state = cp.copied()
                break
            }
        }
        guard var st = state ?? fresh() else { return }
        if state == nil { checkpoints = [] }
        _ = advance(&st, stopBefore: nil, record: true)
    }

    /// Runs items from a state; stops before the command `stopBefore` (a replay) or at the end.
    /// Returns false when a `@store` stopped the run.
    @discardableResult
    private func advance(_ st: inout LSPRunState, stopBefore: Int?, record: Bool) -> Bool {
        let items = transcript.items
        // A resumed run keeps a checkpoint where it resumed.
        var checkpointNext = record
        var throwaway = ScriptReport(path: path)
        while st.item < items.count {
            switch items[st.item] {
            case .directive(let d) where d.name == "case":
                st.scope.endCase(&throwaway)
                st.scope.startCase(d)
                st.caseName = d.unquoted
                if let s = st.setup { st.session = s.copy() } else { st.setup = st.session.copy() }
                checkpointNext = true
            case .directive(let d) where d.isMark:
                st.scope.mark(d)
                checkpointNext = true
            case .directive(let d) where d.name == "store":
                switch ScriptTest.loadStore(d, scriptPath: path, file: file, pathPolicy: policy) {
                case .success(let s): st.session.replaceStore(s)
                case .failure(let diag):
                    if record {
                        fileErrors.append(diag)
                        stopped = true
                    }
                    return false
                }
                checkpointNext = true
            case .directive:
                break
            case .command(let c):
                if let stop = stopBefore, st.block >= stop { return true }
                if record, checkpointNext || st.block % checkpointSpacing(st.session) == 0 {
                    checkpoints.append(st.copied())
                    checkpointNext = false
                }
                var b = LSPBlock(command: c)
                if let why = LSPAnalysis.notRunReason(c) {
                    b.notRun = why
                } else {
                    let before = st.session.store.nextID
                    var out: CommandOutput? = nil
                    var fmt = OutputFormat.text
                    b.outcome = tester.test(c, role: .check, session: st.session, scope: &st.scope) { out = $0; fmt = $1 }
                    b.output = out
                    b.format = fmt
                    b.ran = out != nil
                    if record {
                        let after = st.session.store.nextID
                        if after > before, after - before < 100_000 { for id in before..<after { origins[id, default: []].append(st.block) } }
                    }
                }
                if record { blocks.append(b) }
                st.block += 1
            }
            st.item += 1
        }
        return true
    }

    /// Commands between checkpoints: 32, or more when the store is so large that a copy every
    /// 32 commands would pass the budget.
    private func checkpointSpacing(_ s: Session) -> Int {
        let commands = max(1, commandCount)
        let perCheckpoint = max(1, s.store.taskCount)
        let most = max(1, LSPAnalysis.checkpointTaskBudget / perCheckpoint)
        return max(LSPAnalysis.checkpointEvery, (commands + most - 1) / most)
    }

    /// Why the server does not run a command, or nil when it does.
    static func notRunReason(_ c: TranscriptCommand) -> String? {
        let (stmt, _) = Parser.parse(c.statement)
        guard let stmt else { return nil }
        switch stmt.kind {
        case .exportFile(let r) where r.file.text != "-": return "not run by the editor: it writes a file"
        case .sync, .account: return "not run by the editor: it reaches a sync server"
        default: return nil
        }
    }

    /// The session as it stands before a command (its index in `blocks`): from the last
    /// checkpoint before it, the commands between replayed. A copy the caller may change.
    func session(before block: Int) -> Session? {
        guard let cp = checkpoints.last(where: { $0.block <= block }) else { return nil }
        var st = cp.copied()
        advance(&st, stopBefore: block, record: false)
        return st.session
    }

    /// The session after the last command: what a document with no command under the cursor sees.
    func sessionAtEnd() -> Session? { session(before: blocks.count) }

    /// The block whose command or expected lines hold a byte offset.
    func block(at offset: Int) -> Int? {
        let line = file.line(of: offset)
        for (k, b) in blocks.enumerated() {
            let first = b.command.line
            let lastStmt = file.line(of: b.command.statement.range.end)
            let last = max(lastStmt, b.command.expectedLines.upperBound - 1)
            if line >= first, line <= last { return k }
            if first > line { return nil }
        }
        return nil
    }

    /// The index of the first block that starts after a byte offset (the next command's).
    func blockAfter(_ offset: Int) -> Int {
        blocks.firstIndex { $0.command.statement.range.start > offset } ?? blocks.count
    }

    /// Saved filters the document defines (`filter NAME = …`), by name lowercased.
    func filterDefinitions() -> [String: SourceRange] {
        var out: [String: SourceRange] = [:]
        for b in blocks {
            var lexer = Lexer(file: file, statement: b.command.statement)
            let t = lexer.tokenize()
            guard t.count >= 3, t[0].isWord("filter"), t[1].kind == .word || t[1].kind == .string, t[2].isPunct("=") else { continue }
            let key = t[1].text.lowercased()
            if out[key] == nil { out[key] = t[1].range }
        }
        return out
    }

    /// Every diagnostic of the document, as `kept run` and `kept test` give them.
    func diagnostics() -> [LSPFinding] {
        var out = fileErrors.map { LSPFinding(diagnostic: $0) }
        for (k, b) in blocks.enumerated() where b.ran {
            guard let o = b.output else { continue }
            if transcript.isTranscript {
                guard let outcome = b.outcome, outcome.status == .failed || outcome.status == .xpassed else { continue }
                out += o.diagnostics.map { LSPFinding(diagnostic: $0, block: k) }
                out.append(LSPFinding(mismatch: k, outcome: outcome))
            } else {
                out += o.diagnostics.map { LSPFinding(diagnostic: $0, block: k) }
            }
        }
        return out
    }
}

/// A diagnostic the server publishes: one of the catalog's, or a block whose output differs.
struct LSPFinding {
    var diagnostic: Diagnostic?
    var block: Int?
    /// The failing block's report (the diff) and its `--update` block.
    var outcome: TestOutcome?

    init(diagnostic: Diagnostic, block: Int? = nil) {
        self.diagnostic = diagnostic
        self.block = block
    }

    init(mismatch block: Int, outcome: TestOutcome) {
        self.block = block
        self.outcome = outcome
    }
}
