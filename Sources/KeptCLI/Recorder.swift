// `.record FILE`: the session so far as a `kept test` transcript. It starts from the store and
// the clock the session started from (a snapshot of the store is written beside the
// transcript, since the REPL has been writing the store file since), then every statement with
// the output it printed, so a surprise found by hand becomes a regression test in one step.

import Foundation
import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

/// Collects what the session ran, to write it as a transcript.
final class Recorder {
    enum Entry {
        /// A statement's lines as typed, the format it ran in, what it printed, and whether the
        /// user said yes to its question (a bulk delete; written as `@yes`).
        case command(lines: [String], format: OutputFormat, output: [String], confirmed: Bool, width: Int?)
        /// The session switched to another store (`.open`), in this state.
        case store(Store)
        /// The session switched to a store larger than a transcript keeps, of this many tasks.
        case uncopiedStore(Int)
        /// The live clock moved on to another minute; recorded as `now INSTANT`.
        case now(String)
    }

    private(set) var entries: [Entry] = []
    /// The store the session started from; nil for the empty store of a session without one,
    /// or for one larger than a transcript keeps.
    private let startStore: Store?
    /// How many tasks the stores were that were too large to copy (issue 34: a REPL on a large
    /// store does not read every task before its first prompt).
    private(set) var uncopied: [Int] = []
    /// The most tasks a store may hold for the recorder to copy it (a snapshot reads every task).
    static let storeLimit = 10_000
    /// The argument of the first `now`.
    private let startNow: String
    /// The argument of the first `zone`, when test mode's default would not give the same zone.
    private let startZone: String?
    private var lastMinute: Int64

    init(session: Session, startedWithStore: Bool) {
        let n = startedWithStore ? session.store.taskCount : 0
        startStore = startedWithStore && n <= Recorder.storeLimit ? session.store.snapshot() : nil
        if n > Recorder.storeLimit { uncopied.append(n) }
        let now = session.now
        lastMinute = Recorder.minute(now)
        switch session.clock {
        case .wall(let w): startNow = "\(w.date.iso) \(w.time.iso)"
        case .instant(let i): startNow = TimeText.isoInstant(i, in: Zone.utc)
        case .clock: startNow = TimeText.isoInstant(now, in: Zone.utc)
        }
        if let z = session.zoneOverride {
            startZone = z.identifier
        } else if session.store.settings.zone == nil {
            startZone = session.defaultZone.identifier
        } else {
            startZone = nil
        }
    }

    /// Called before a statement runs: a session on the system clock records the minute it runs in.
    func willRun(_ session: Session) {
        guard case .clock = session.clock else { return }
        let now = session.now
        let minute = Recorder.minute(now)
        if minute != lastMinute {
            lastMinute = minute
            entries.append(.now(TimeText.isoInstant(now, in: Zone.utc)))
        }
    }

    static func minute(_ i: Instant) -> Int64 {
        Int64((i.date.timeIntervalSince1970 / 60).rounded(.down))
    }

    func command(_ lines: [String], format: OutputFormat, output: CommandOutput, confirmed: Bool = false) {
        // Output lines are written so they read back as themselves; errors as `! CODE message`.
        var text = output
        text.diagnostics = []
        // A replay has no colour; a listing's width is written as `@width N` (R-VIEW-7).
        if output.styled { text.lines = text.lines.map(Recorder.uncoloured) }
        var expected = ScriptTest.actualLines(text, format: format).map(Recorder.expectedLine)
        var errors = output
        errors.lines = []
        expected += ScriptTest.actualLines(errors, format: format).map { $0.isEmpty ? "<BLANKLINE>" : $0 }
        entries.append(.command(lines: lines, format: format, output: expected, confirmed: confirmed, width: output.fittedTo))
    }

    /// A line without its SGR colour sequences.
    static func uncoloured(_ line: String) -> String {
        guard line.utf8.contains(0x1B) else { return line }
        return line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }

    /// The session switched to another store (`.open`): copied as it is now, unless it is
    /// larger than a transcript keeps (a snapshot reads every task; issue 34 item 5).
    func opened(_ store: any StoreBackend) {
        let n = store.taskCount
        entries.append(n <= Recorder.storeLimit ? .store(store.snapshot()) : .uncopiedStore(n))
    }

    var commandCount: Int {
        entries.reduce(0) { n, e in if case .command = e { return n + 1 }; return n }
    }

    /// The snapshot file for the k-th store (from 1) of a transcript at `path`.
    static func storePath(for path: String, _ k: Int) -> String {
        let stem = path.hasSuffix(".kept") ? String(path.dropLast(5)) : path
        return k == 1 ? "\(stem).store.json" : "\(stem).store-\(k).json"
    }

    /// An expected line as a transcript must write it so it is read back as that line.
    static func expectedLine(_ line: String) -> String {
        if line.isEmpty { return "<BLANKLINE>" }
        let uids = uidRanges(line)
        if !uids.isEmpty {
            // A new task's uid is random, and a replay under `kept test` makes other ones: any
            // uid matches, everything around it literally.
            var pattern = ""
            var at = line.startIndex
            for r in uids {
                pattern += quoted(String(line[at..<r.lowerBound])) + "[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}"
                at = r.upperBound
            }
            return pattern + quoted(String(line[at...])) + " (re)"
        }
        if line.hasPrefix(">") || line == "..." || line.hasPrefix("... ") || line.hasPrefix("! ")
            || line.utf8.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            // These would read as a command, "any lines", a continuation, an error or the
            // blank line that ends the block: match them literally.
            return quoted(line) + " (re)"
        }
        return line
    }

    /// Text a PCRE2 pattern matches literally.
    static func quoted(_ s: String) -> String {
        s.isEmpty ? "" : "\\Q\(s.replacingOccurrences(of: "\\E", with: "\\E\\\\E\\Q"))\\E"
    }

    /// Where a line holds uids (`8-4-4-4-12` lowercase hex).
    static func uidRanges(_ line: String) -> [Range<String.Index>] {
        var out: [Range<String.Index>] = []
        let chars = Array(line.utf8)
        var k = 0
        while k + 36 <= chars.count {
            if TaskUID.parse(chars[k..<(k + 36)]) != nil, chars[k..<(k + 36)].allSatisfy({ !(0x41...0x46).contains($0) }) {
                let a = line.utf8.index(line.startIndex, offsetBy: k)
                let b = line.utf8.index(a, offsetBy: 36)
                out.append(a..<b)
                k += 36
            } else {
                k += 1
            }
        }
        return out
    }

    /// The transcript text and the stores to write beside it (path, store).
    func transcript(path: String) -> (text: String, stores: [(String, Store)]) {
        var out = ["# recorded in the kept REPL with .record; 'kept test' checks it, 'kept test --update' refreshes it"]
        var stores: [(String, Store)] = []
        func addStore(_ s: Store) {
            let p = Recorder.storePath(for: path, stores.count + 1)
            stores.append((p, s))
            out.append("@store \(Files.basename(of: p))")
        }
        for n in uncopied {
            out.append("# the session's store of \(n) tasks was not copied (a transcript keeps a store of up to \(Recorder.storeLimit))")
        }
        if let s = startStore { addStore(s) }
        out.append("> now \(startNow)")
        out.append("")
        if let z = startZone {
            out.append("> zone \(z)")
            out.append("")
        }
        for e in entries {
            switch e {
            case .store(let s):
                addStore(s)
            case .uncopiedStore(let n):
                out.append("# the store opened here, of \(n) tasks, was not copied (a transcript keeps a store of up to \(Recorder.storeLimit))")
                out.append("")
            case .now(let n):
                out.append("> now \(n)")
                out.append("")
            case .command(let lines, let format, let output, let confirmed, let width):
                if format == .json { out.append("@format json") }
                if let width { out.append("@width \(width)") }
                if confirmed { out.append("@yes") }
                for (k, l) in lines.enumerated() { out.append((k == 0 ? "> " : "... ") + l) }
                out += output
                out.append("")
            }
        }
        return (out.joined(separator: "\n"), stores)
    }

    /// Writes the transcript and its store snapshots; the error names the file that failed.
    struct WriteError: Error {
        let path: String
        let reason: String
    }

    func write(to path: String) -> Result<[String], WriteError> {
        let (text, stores) = transcript(path: path)
        for (p, s) in stores {
            if case .failure(let e) = Files.writeAtomically(StoreCodec.encode(s), to: p) { return .failure(WriteError(path: p, reason: e.reason)) }
        }
        // 0600, as the snapshots beside it: a transcript holds what the session printed, the
        // user's tasks (issue 28). An existing file keeps its own bits.
        if case .failure(let e) = Files.writeAtomically(Array(text.utf8), to: path, newMode: 0o600) { return .failure(WriteError(path: path, reason: e.reason)) }
        return .success(stores.map(\.0))
    }
}
