// `kept test`: runs transcripts as regression tests. Each command's output is compared with the
// block written under it; a failure prints file:line, the case, the command and a unified diff.
// `--update` rewrites the failing blocks in place. Scripts run in parallel, reports in order.

import Dispatch
import Foundation
import KeptCore

/// The outcome of one script.
struct ScriptReport: Sendable {
    var path: String
    var passed = 0
    var failed = 0
    var skipped = 0
    /// The failure texts, in order.
    var failures: [String] = []
    /// The file could not be read or its transcript is malformed.
    var broken = false
    var updatedBlocks = 0
}

/// Runs transcripts.
struct TestRunner {
    let options: SessionOptions
    let update: Bool
    let jobs: Int

    /// Runs every script under the paths; returns the exit code.
    func run(_ paths: [String], out: OutputStream, err: OutputStream) -> Int32 {
        var files: [String] = []
        var missing: [String] = []
        for p in paths {
            let found = ScriptFinder.scripts(at: p)
            if found.isEmpty { missing.append(p) }
            files += found
        }
        for m in missing {
            err.line("error[E0309]: no .kept scripts at '\(m)'")
        }
        let results = ReportBox(count: files.count)
        let work = files
        let opts = options
        let upd = update
        DispatchQueue.concurrentPerform(iterations: min(max(jobs, 1), max(work.count, 1))) { worker in
            var k = worker
            let step = min(max(jobs, 1), max(work.count, 1))
            while k < work.count {
                results.set(k, ScriptTest(path: work[k], options: opts, update: upd).run())
                k += step
            }
        }
        var passed = 0, failed = 0, skipped = 0, updated = 0
        var broken = !missing.isEmpty
        for r in results.all() {
            passed += r.passed
            failed += r.failed
            skipped += r.skipped
            updated += r.updatedBlocks
            if r.broken { broken = true }
            for f in r.failures { out.line(f) }
            let status = r.broken ? "ERROR" : (r.failed > 0 ? (update ? "UPDATED" : "FAIL") : "ok")
            out.line("\(status.padding(7)) \(r.path) (\(r.passed) passed, \(r.failed) failed\(r.skipped > 0 ? ", \(r.skipped) skipped" : ""))")
        }
        if update, updated > 0 { out.line("updated \(updated) expected block\(updated == 1 ? "" : "s")") }
        out.line("\(passed) passed, \(failed) failed" + (skipped > 0 ? ", \(skipped) skipped" : ""))
        out.flush()
        err.flush()
        if broken { return 2 }
        if failed > 0, !update { return 1 }
        return 0
    }
}

extension String {
    func padding(_ n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}

/// Results written from several threads, each to its own slot.
final class ReportBox: @unchecked Sendable {
    // @unchecked: every slot is written by one worker and read after all have finished; the
    // lock orders those accesses.
    private var slots: [ScriptReport?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ r: ScriptReport) {
        lock.locked { slots[k] = r }
    }

    func all() -> [ScriptReport] {
        lock.locked { slots.compactMap { $0 } }
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
