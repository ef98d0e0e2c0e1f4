// GNU readline, for a terminal on both ends. All readline calls live in this file and in
// ReadlineHooks.swift. It uses readline's callback interface under a poll loop, so that Ctrl-C
// (a flag set by the signal handler, seen when poll is interrupted) clears the line and returns
// to the REPL instead of ending the process, and so that live sync's notes can be printed above
// the prompt while a line is typed. Swift 6 needs @preconcurrency for readline's globals.

import KeptRules
import KeptFiles
import KeptDomain
import KeptStore
import KeptInterop
import KeptSyntax
import KeptInterpreter

@preconcurrency import CReadline
#if canImport(Glibc)
import Glibc
#endif

/// Line editing, history, completion and live capture colouring through GNU readline.
final class ReadlineEditor: LineEditor {
    private let historyPath: String?
    private var entries: [String] = []
    /// The lines the history file holds, as far as this session knows (another session may
    /// append too): once past the limit, each append cuts the file back to it.
    private var fileLines = 0

    /// - Parameters:
    ///   - historyPath: the history file, or nil to keep history in memory only.
    ///   - completer: what Tab offers; it reads the session, never changes it.
    ///   - highlighter: colours a capture line as it is typed; nil for no colour.
    init(historyPath: String?, completer: Completer, highlighter: CaptureHighlighter?) {
        self.historyPath = historyPath
        ReadlineHooks.completer = completer
        ReadlineHooks.highlighter = highlighter
        ReadlineHooks.install()
        if let p = historyPath, History.prepare(p) {
            _ = read_history(p)
            _ = history_truncate_file(p, Int32(History.maxEntries))
            stifle_history(Int32(History.maxEntries))
            var k = history_base
            while let h = history_get(k) {
                if let l = h.pointee.line { entries.append(String(cString: l)) }
                k += 1
            }
            fileLines = entries.count
        } else {
            stifle_history(Int32(History.maxEntries))
        }
    }

    deinit {
        if let p = historyPath { _ = history_truncate_file(p, Int32(History.maxEntries)) }
    }

    func read(prompt: String) -> EditorInput {
        ReadlineHooks.read(prompt: prompt)
    }

    func remember(_ entry: String) {
        guard History.accepts(entry, after: entries.last) else { return }
        entries.append(entry)
        if entries.count > History.maxEntries { entries.removeFirst(entries.count - History.maxEntries) }
        add_history(entry)
        // Appended after each accepted line, so a second session or a crash keeps it.
        if let p = historyPath, History.prepare(p), append_history(1, p) == 0 {
            fileLines += 1
            // Never more than the documented size, even in a long session or after a crash.
            if fileLines > History.maxEntries {
                _ = history_truncate_file(p, Int32(History.maxEntries))
                fileLines = History.maxEntries
            }
        }
    }

    var history: [String] { entries }

    /// Turns the live colouring on or off (`.color`).
    func setColor(_ on: Bool) { ReadlineHooks.colorOn = on }

    /// Live sync's wait beside the keys: its lines are printed above the prompt.
    func setIdle(_ idle: EditorIdle?) { ReadlineHooks.idle = idle }
}
