// `kept test`: runs transcripts as regression tests. Each command's output is compared with the
// block written under it; a failure prints file:line, the case, the command and a diff. Scripts
// run on `-j` workers and are reported in path order as soon as each one and those before it
// are done, so `-j 1` and `-j 2` print the same. `-k` and `FILE:LINE` select, `--max-failures`
// stops, `--report` writes TAP or JUnit beside the human output, `--update` (`-i` asking
// first) rewrites failing blocks; a progress line shows on a terminal.

import Dispatch
import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Runs transcripts.
struct TestRunner {
    let options: SessionOptions
    let test: TestOptions
    /// Whether stdout is a terminal (the progress line's default).
    var stdoutIsTTY = false

    /// The scripts the arguments name, with the lines `FILE:LINE` asks for, and the arguments
    /// that name nothing.
    static func scripts(_ args: [String]) -> (files: [String], selection: [String: [Int]], missing: [String]) {
        var files: [String] = []
        var seen = Set<String>()
        var lines: [String: [Int]] = [:]
        var whole = Set<String>()
        var missing: [String] = []
        for a in args {
            var isDir = false
            var found: [String]
            var line: Int? = nil
            if FileSystem.exists(a, isDirectory: &isDir) {
                found = ScriptFinder.scripts(at: a)
            } else if let colon = a.lastIndex(of: ":"), let n = Int(a[a.index(after: colon)...]), n >= 1,
                      FileSystem.exists(String(a[..<colon]), isDirectory: &isDir), !isDir {
                found = [String(a[..<colon])]
                line = n
            } else {
                found = []
            }
            if found.isEmpty { missing.append(a) }
            for f in found {
                if seen.insert(f).inserted { files.append(f) }
                if let line { lines[f, default: []].append(line) } else { whole.insert(f) }
            }
        }
        for f in whole { lines[f] = nil }
        return (files, lines, missing)
    }

    /// Runs every script under the paths; returns the exit code.
    func run(_ paths: [String], out: OutputStream, err: OutputStream) -> Int32 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        let (files, lines, missing) = TestRunner.scripts(paths)
        // With a report on stdout, the human output goes to stderr.
        let human = test.reports.contains { $0.path == "-" } ? err : out
        let reports = test.reports.map { TestReportWriter($0, stdout: out) }
        for m in missing {
            err.line(DiagnosticRenderer(style: .short).render(Catalog.noScripts(m)))
        }
        err.flush()
        let selection = TestSelection(patterns: test.patterns, lines: lines)
        let queue = TestQueue(count: files.count)
        let workers = min(max(test.jobs, 1), max(files.count, 1))
        let group = DispatchGroup()
        let opts = options
        let update = test.update
        let maxFailures = test.maxFailures
        // The run's temporary folder: private (0700), new, and removed at the end.
        let scratch = TestRunner.makeScratchFolder()
        defer { if let scratch { try? FileManager.default.removeItem(atPath: scratch) } }
        let allowed = (scratch.map { [$0] } ?? []) + test.allowedPaths
        DispatchQueue.global().async(group: group) {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let k = queue.take() {
                    var t = ScriptTest(path: files[k], options: opts, update: update, selection: selection, maxFailures: maxFailures)
                    // A transcript may be someone else's (CI, a pull request): its import and
                    // export stay inside its own folder and the allowed ones (issue 28, F6).
                    t.pathPolicy = .confined(to: [Files.directory(of: files[k])] + allowed)
                    queue.put(k, t.run())
                }
            }
        }
        var progress = ProgressLine(enabled: test.progress ?? (stdoutIsTTY && human === out), out: human, total: files.count)
        var tally = Tally()
        var asker = test.interactive ? UpdateAsker(out: human) : nil
        var finished = 0
        var k = 0
        while k < files.count, !tally.stopped {
            let (ready, done) = queue.wait(for: k, finished: finished)
            finished = done
            guard var r = ready else {
                progress.draw(done: finished, tally)
                continue
            }
            progress.clear()
            if let n = test.maxFailures { tally.cut(&r, limit: n) }
            if tally.stopped { queue.stop(after: k) }
            if r.selected {
                report(&r, tally: &tally, asker: &asker, human: human)
                for w in reports { w.add(r) }
            }
            tally.add(r)
            human.flush()
            k += 1
            progress.draw(done: finished, tally)
        }
        progress.clear()
        let notRun = files.count - k
        group.wait()
        tally.errors += missing.count
        tally.erroredPaths += missing
        if tally.checked == 0, tally.errors == 0, !selection.isEverything {
            human.line(DiagnosticRenderer(style: .short).render(Catalog.nothingSelected(
                (test.patterns.map { "-k \($0)" } + lines.flatMap { f, ls in ls.map { "\(f):\($0)" } }.sorted()).joined(separator: ", "))))
            tally.errors += 1
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
        for w in reports {
            if let e = w.finish(seconds: seconds) {
                err.line(DiagnosticRenderer(style: .short).render(Catalog.testWriteFailed(w.target.path, reason: e.reason)))
                tally.errors += 1
            }
        }
        summary(tally, notRun: notRun, human: human)
        out.flush()
        err.flush()
        if tally.errors > 0 { return 2 }
        if tally.failed > tally.updated || tally.xpassed > 0 { return 1 }
        return 0
    }

    /// A new private folder for the run (`kept-test.XXXXXX` in TMPDIR, or /tmp), whose path
    /// transcripts are allowed to use; nil when none can be made (then none is allowed).
    static func makeScratchFolder() -> String? {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/kept-test.XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { b -> String? in
            guard let p = b.baseAddress, mkdtemp(p) != nil else { return nil }
            return String(cString: p)
        }
    }

    /// Prints one script's results and applies its updates.
    func report(_ r: inout ScriptReport, tally: inout Tally, asker: inout UpdateAsker?, human: OutputStream) {
        for e in r.errors { human.line(e) }
        var accepted: [BlockUpdate] = []
        for o in r.outcomes where o.isFailure {
            human.lines(o.failure)
            guard let u = o.update else { continue }
            if var a = asker {
                human.flush()
                let yes = a.ask("\(r.path):\(o.line)")
                asker = a
                if !yes { continue }
            }
            accepted.append(u)
        }
        if !accepted.isEmpty {
            switch readAndRewrite(r.path, accepted) {
            case nil:
                r.updatedBlocks = accepted.count
            case let e?:
                human.line(DiagnosticRenderer(style: .short).render(Catalog.testWriteFailed(r.path, reason: e.reason)))
                r.errors.append(e.reason)
            }
        }
        let status: String
        if r.broken { status = "ERROR" }
        else if r.failures > 0 { status = r.updatedBlocks > 0 ? "UPDATED" : "FAIL" }
        else { status = "ok" }
        if r.broken {
            human.line("\(status.padding(7)) \(r.path)")
        } else {
            var counts = "\(r.count(.passed)) passed, \(r.failures) failed"
            if r.count(.skipped) > 0 { counts += ", \(r.count(.skipped)) skipped" }
            if r.count(.xfailed) > 0 { counts += ", \(r.count(.xfailed)) xfailed" }
            human.line("\(status.padding(7)) \(r.path) (\(counts))")
        }
    }

    func readAndRewrite(_ path: String, _ updates: [BlockUpdate]) -> FileError? {
        switch Files.readBytes(path, limit: Limits.scriptBytes) {
        case .failure(let e): return e
        case .success(let bytes):
            if case .failure(let e) = TranscriptUpdater.rewrite(path: path, bytes: bytes, updates: updates) { return e }
            return nil
        }
    }

    func summary(_ t: Tally, notRun: Int, human: OutputStream) {
        human.lines(t.notes)
        for p in t.erroredPaths { human.line("error   \(p)") }
        if t.stopped, let n = test.maxFailures {
            human.line("stopped after \(n) failure\(n == 1 ? "" : "s") (\(n == 1 ? "--fail-fast" : "--max-failures \(n)")): \(notRun) script\(notRun == 1 ? "" : "s") not run")
        }
        if t.updated > 0 { human.line("updated \(t.updated) expected block\(t.updated == 1 ? "" : "s")") }
        var last = "\(t.passed) passed, \(t.failed + t.xpassed) failed, \(t.errors) errors, \(t.skipped) skipped"
        if t.xfailed > 0 { last += ", \(t.xfailed) xfailed" }
        if t.deselected > 0 { last += ", \(t.deselected) deselected" }
        human.line(last)
    }
}

/// The run's totals, and the stop of `--max-failures`.
struct Tally {
    var passed = 0, failed = 0, xpassed = 0, skipped = 0, xfailed = 0, errors = 0, deselected = 0, updated = 0
    var erroredPaths: [String] = []
    var notes: [String] = []
    var stopped = false
    var checked: Int { passed + failed + xpassed + skipped + xfailed }

    /// Keeps a script's outcomes up to the failure that reaches the limit, and stops there.
    mutating func cut(_ r: inout ScriptReport, limit: Int) {
        let left = limit - failed - xpassed
        var seen = 0
        guard let at = r.outcomes.firstIndex(where: { o in
            if o.isFailure { seen += 1 }
            return seen >= left
        }) else { return }
        stopped = true
        let last = r.outcomes[at].line
        r.outcomes.removeSubrange((at + 1)...)
        r.notes.removeAll { $0.line > last }
    }

    mutating func add(_ r: ScriptReport) {
        passed += r.count(.passed)
        failed += r.count(.failed)
        xpassed += r.count(.xpassed)
        skipped += r.count(.skipped)
        xfailed += r.count(.xfailed)
        deselected += r.deselected
        updated += r.updatedBlocks
        notes += r.allNotes
        if r.broken {
            errors += 1
            erroredPaths.append(r.path)
        }
    }
}

/// `-i`: asks before each block is rewritten. `y` yes, `n` no, `a` this and every block after,
/// `q` no to this and every block after; the end of input is `q`.
struct UpdateAsker {
    let out: OutputStream
    let editor = PlainLineEditor(fd: 0)
    /// Whether a terminal shows the answer as it is typed.
    let echoed = isatty(0) != 0
    var all: Bool? = nil

    init(out: OutputStream) { self.out = out }

    mutating func ask(_ place: String) -> Bool {
        if let all { return all }
        while true {
            out.raw("update the block of \(place)? [y]es, [n]o, [a]ll, [q]uit: ")
            out.flush()
            guard case .line(let l) = editor.read(prompt: "") else {
                all = false
                out.line("")
                return false
            }
            // Piped answers are not echoed by a terminal: the answer ends the prompt's line.
            if !echoed { out.line(l) }
            switch l.trimmedSpaces.lowercased() {
            case "y", "yes": return true
            case "n", "no": return false
            case "a", "all": all = true; return true
            case "q", "quit": all = false; return false
            default: out.line("answer y, n, a or q")
            }
        }
    }
}

/// The progress line on a terminal: how many scripts are done, and the totals so far.
struct ProgressLine {
    let enabled: Bool
    let out: OutputStream
    let total: Int
    var shown = false

    mutating func draw(done: Int, _ t: Tally) {
        guard enabled, total > 0 else { return }
        out.raw("\r\u{1B}[K[\(done)/\(total)] \(t.passed) passed, \(t.failed + t.xpassed) failed, \(t.errors) errors")
        out.flush()
        shown = true
    }

    mutating func clear() {
        guard shown else { return }
        out.raw("\r\u{1B}[K")
        shown = false
    }
}

extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}

/// The scripts' reports, written by the workers in any order and read by the reporter in
/// order; the reporter stops the workers after the script where `--max-failures` was reached.
final class TestQueue: @unchecked Sendable {
    // @unchecked: every field is read and written under `condition`.
    private let condition = NSCondition()
    private var slots: [ScriptReport?]
    private var next = 0
    private var last: Int
    private var finished = 0

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
        last = count - 1
    }

    /// The next script to run, or nil when there is none (or the run stopped before it).
    func take() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        guard next <= last else { return nil }
        next += 1
        return next - 1
    }

    func put(_ k: Int, _ r: ScriptReport) {
        condition.lock()
        slots[k] = r
        finished += 1
        condition.broadcast()
        condition.unlock()
    }

    /// No script after `k` starts.
    func stop(after k: Int) {
        condition.lock()
        last = min(last, k)
        condition.unlock()
    }

    /// Waits until script `k` is done or another one finishes (past `finished`); gives the
    /// report of `k` when there is one, and how many scripts are done.
    func wait(for k: Int, finished seen: Int) -> (ScriptReport?, Int) {
        condition.lock()
        defer { condition.unlock() }
        while slots[k] == nil, finished == seen { condition.wait() }
        let r = slots[k]
        slots[k] = nil
        return (r, finished)
    }
}

/// Finds `.kept` scripts: a file as given, a folder searched recursively, in sorted order.
enum ScriptFinder {
    static func scripts(at path: String) -> [String] {
        var isDir = false
        guard FileSystem.exists(path, isDirectory: &isDir) else { return [] }
        if !isDir { return [path] }
        return FileSystem.walk(path).filter { $0.hasSuffix(".kept") }.sorted()
    }
}
