// The C side of the readline editor: callbacks cannot capture context, so everything they read
// sits in this one static box. Only the main thread touches it (live sync's thread only writes
// to its own wake pipe); the signal handler writes only the sig_atomic_t flag.

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

/// Set by the SIGINT handler, read by the poll loop.
nonisolated(unsafe) private var sigintSeen: sig_atomic_t = 0
/// Set by the SIGWINCH handler: the terminal was resized, readline must learn its new width.
nonisolated(unsafe) private var sigwinchSeen: sig_atomic_t = 0
/// The handler also writes a byte here, so a Ctrl-C that lands outside poll (while a key is
/// being handled) still wakes the next poll instead of waiting for another key.
nonisolated(unsafe) private var wakeRead: Int32 = -1
nonisolated(unsafe) private var wakeWrite: Int32 = -1

/// The state readline's callbacks read, and the callbacks themselves.
enum ReadlineHooks {
    nonisolated(unsafe) static var completer: Completer?
    nonisolated(unsafe) static var highlighter: CaptureHighlighter?
    nonisolated(unsafe) static var colorOn = true
    /// The grey completion shown after the cursor, accepted by Right arrow or Tab.
    nonisolated(unsafe) static var ghost = ""
    /// True while the screen shows something readline does not know about (colour or ghost).
    nonisolated(unsafe) static var painted = false
    nonisolated(unsafe) static var matches: [String] = []
    nonisolated(unsafe) static var matchIndex = 0
    nonisolated(unsafe) static var lineDone = false
    nonisolated(unsafe) static var lineRead: String?
    nonisolated(unsafe) static var installed = false
    /// What the poll loop watches besides the keys (live sync); nil: only the keys.
    nonisolated(unsafe) static var idle: EditorIdle?

    /// Sets the note-and-wake handler for a signal: the poll loop sees the flag (SIGINT or
    /// SIGWINCH) and the byte on the wake pipe ends its wait.
    static func trap(_ sig: Int32, flags: Int32) {
        var sa = sigaction()
        sa.__sigaction_handler.sa_handler = { sig in
            if sig == SIGINT { sigintSeen = 1 } else { sigwinchSeen = 1 }
            if wakeWrite >= 0 {
                var b: UInt8 = 1
                _ = write(wakeWrite, &b, 1)
            }
        }
        sigemptyset(&sa.sa_mask)
        sa.sa_flags = flags
        sigaction(sig, &sa, nil)
    }

    static func install() {
        guard !installed else { return }
        installed = true
        rl_readline_name = UnsafePointer(strdup("kept"))
        rl_catch_signals = 0
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            wakeRead = fds[0]
            wakeWrite = fds[1]
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        trap(SIGINT, flags: 0)
        // A resize: readline's own handler is only in place while it handles a key (callback
        // mode), so a resize during poll would go unseen and the next redisplay would wrap at
        // the old width. The poll loop tells readline instead.
        rl_catch_sigwinch = 0
        trap(SIGWINCH, flags: SA_RESTART)
        // A parent may have started us with SIGINT blocked (the mask is inherited across exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        // Readline reads the terminal's capabilities once, at its first initialisation, and
        // treats the terminal as dumb (no wrapping: long lines scroll sideways) when a custom
        // redisplay function is set by then; so it initialises first.
        _ = rl_initialize()
        // Bracketed paste wraps each prompt in escape codes that confuse pty-driven tests (set
        // after initialising, which reads inputrc).
        _ = rl_variable_bind("enable-bracketed-paste", "off")
        // `@`, `+`, `#`, `:`, `.` and `/` stay inside a word, so `@tom`, `+Ho`, `area:Ho` and
        // file paths complete as one word.
        rl_completer_word_break_characters = UnsafePointer(strdup(" \t\n\"(),=<>~&|"))
        rl_attempted_completion_function = { text, start, end in ReadlineHooks.complete(text, start, end) }
        rl_redisplay_function = { ReadlineHooks.redisplay() }
        _ = rl_bind_keyseq("\\e[C", { count, key in ReadlineHooks.rightArrow(count, key) })
        _ = rl_bind_keyseq("\\eOC", { count, key in ReadlineHooks.rightArrow(count, key) })
        _ = rl_bind_key(13, { count, key in ReadlineHooks.accept(count, key) })
        _ = rl_bind_key(10, { count, key in ReadlineHooks.accept(count, key) })
    }

    // MARK: reading a line

    static func read(prompt: String) -> EditorInput {
        lineDone = false
        lineRead = nil
        ghost = ""
        painted = false
        sigintSeen = 0
        drainWake()
        // Resized while a command ran: the new size, before the prompt is drawn.
        if sigwinchSeen != 0 {
            sigwinchSeen = 0
            rl_reset_screen_size()
        }
        rl_callback_handler_install(prompt) { line in
            ReadlineHooks.lineDone = true
            ReadlineHooks.lineRead = line.map { String(cString: $0) }
            if let line { free(line) }
            // Removing the handler here stops readline from drawing the prompt again.
            rl_callback_handler_remove()
        }
        while !lineDone {
            // A descriptor of -1 (no wake pipe, no live sync) is skipped by poll.
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: idle?.fd ?? -1, events: Int16(POLLIN), revents: 0)]
            let r = sigintSeen != 0 ? 0 : poll(&fds, 3, pollMilliseconds(idle?.timeout()))
            // Read before anything below can change it.
            let pollErrno = r < 0 ? errno : 0
            if sigintSeen != 0 {
                sigintSeen = 0
                drainWake()
                // Ctrl-C: drop what was typed, leave the terminal as readline found it.
                rl_free_line_state()
                rl_callback_sigcleanup()
                rl_replace_line("", 0)
                rl_point = 0
                rl_end = 0
                // The ghost goes from the screen too (it is only ever shown at the line's end).
                if !ghost.isEmpty { fputs("\u{1B}[J", rl_outstream) }
                ghost = ""
                fputs("^C\n", stdout)
                fflush(stdout)
                rl_callback_handler_remove()
                return .interrupted
            }
            if sigwinchSeen != 0 {
                sigwinchSeen = 0
                drainWake()
                // The new width, and the line drawn again for it on the cursor's row (the
                // terminal has rewrapped what was there; a row above it may stay as it was).
                resized()
            }
            if r < 0 {
                if pollErrno == EINTR { continue }
                rl_callback_handler_remove()
                return .end
            }
            // Live sync: woken, or its deadline came (poll timed out).
            if let idle, r == 0 || fds[2].revents != 0 {
                let lines = idle.wake()
                if !lines.isEmpty { printAbove(lines) }
            }
            if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                rl_callback_read_char()
            }
        }
        guard let line = lineRead else {
            // Ctrl-D on an empty line: end the prompt's line so the shell starts on a fresh one.
            fputs("\n", stdout)
            fflush(stdout)
            return .end
        }
        return .line(line)
    }

    static func drainWake() {
        guard wakeRead >= 0 else { return }
        var b = [UInt8](repeating: 0, count: 64)
        while Glibc.read(wakeRead, &b, b.count) > 0 {}
    }

    /// A resize while a line is edited: readline learns the new size, and the line is drawn
    /// again from its first row. Terminals that rewrap their rows on a resize (most do) put
    /// the cursor at row (prompt + text before it) / new width; one that does not may leave
    /// a stale row above.
    static func resized() {
        rl_reset_screen_size()
        var rows: Int32 = 0
        var cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        let prompt = Array((rl_display_prompt.map { String(cString: $0) } ?? "").utf8)
        var at = 0
        if let buf = rl_line_buffer {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buf).assumingMemoryBound(to: UInt8.self), count: Int(rl_end)))
            let point = max(0, min(Int(rl_point), bytes.count))
            at = (CaptureHighlighter.columns(prompt) ?? 0) + (CaptureHighlighter.columns(Array(bytes[..<point])) ?? 0)
        }
        let row = cols > 0 ? at / Int(cols) : 0
        fputs((row > 0 ? "\u{1B}[\(row)A" : "") + "\r\u{1B}[J", rl_outstream)
        painted = false
        // Readline starts its drawing at the cursor (rl_on_new_line), then the painter runs.
        _ = rl_forced_update_display()
    }

    /// Lines printed above the prompt while a line is typed: the prompt and the line are
    /// cleared from their first row, the lines printed, and both drawn again below them, with
    /// the cursor where it was.
    static func printAbove(_ lines: [String]) {
        var rows: Int32 = 0
        var cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        let prompt = Array((rl_display_prompt.map { String(cString: $0) } ?? "").utf8)
        var at = CaptureHighlighter.columns(prompt) ?? 0
        if let buf = rl_line_buffer {
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buf).assumingMemoryBound(to: UInt8.self), count: Int(rl_end)))
            let point = max(0, min(Int(rl_point), bytes.count))
            at += CaptureHighlighter.columns(Array(bytes[..<point])) ?? 0
        }
        let row = cols > 0 ? at / Int(cols) : 0
        var text = (row > 0 ? "\u{1B}[\(row)A" : "") + "\r\u{1B}[J"
        for l in lines { text += l + "\n" }
        fputs(text, rl_outstream)
        painted = false
        // Readline draws the prompt and the line again from the cursor, as if new.
        _ = rl_forced_update_display()
        fflush(rl_outstream)
    }

    // MARK: Enter, Right arrow

    /// Enter: redraw without the ghost, then accept the line.
    static func accept(_ count: Int32, _ key: Int32) -> Int32 {
        if !ghost.isEmpty || painted {
            ghost = ""
            redisplay(showGhost: false)
        }
        return rl_newline(count, key)
    }

    /// Right arrow at the end of the line takes the ghost completion; elsewhere it moves.
    static func rightArrow(_ count: Int32, _ key: Int32) -> Int32 {
        if !ghost.isEmpty, rl_point == rl_end {
            let g = ghost
            ghost = ""
            _ = rl_insert_text(g)
            return 0
        }
        return rl_forward_char(count, key)
    }

    // MARK: completion

    /// The titles of the task ids offered by the last Tab, by id.
    nonisolated(unsafe) static var labels: [String: String] = [:]

    /// Lists the ids readline offers, one a line with its title, then draws the prompt again.
    static func displayIDs(_ m: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ n: Int32) {
        guard let m, n > 0 else { return }
        var text = "\n"
        let ids = (1...Int(n)).compactMap { m[$0].map { String(cString: $0) } }
        let width = ids.map(\.count).max() ?? 0
        for id in ids {
            text += String(repeating: " ", count: width - id.count) + id + "  " + (labels[id] ?? "") + "\n"
        }
        fputs(text, rl_outstream)
        _ = rl_forced_update_display()
        fflush(rl_outstream)
    }

    static func complete(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
        // Readline's own list, unless this Tab offers task ids.
        rl_completion_display_matches_hook = nil
        labels = [:]
        rl_completion_append_character = 32
        let line = rl_line_buffer.map { String(cString: $0) } ?? ""
        let word = text.map { String(cString: $0) } ?? ""
        var found: [String]
        if !ghost.isEmpty, rl_point == rl_end {
            found = [word + ghost]
            ghost = ""
        } else {
            guard let completer else { return nil }
            let bytes = Array(line.utf8)
            let s = max(0, min(Int(start), bytes.count))
            let e = max(s, min(Int(end), bytes.count))
            switch completer.complete(line: bytes, wordStart: s, cursor: e) {
            case .files:
                // File names after `.open`, `.read`, `.record`, `.save`: readline's own completer.
                rl_attempted_completion_over = 0
                return nil
            case .words(let w):
                found = w
            case .ids(let c):
                found = c.map(\.id)
                // The list shows each id with its title; the line takes the id alone.
                labels = Dictionary(c.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
                rl_completion_display_matches_hook = { m, n, _ in ReadlineHooks.displayIDs(m, n) }
            }
        }
        guard !found.isEmpty else { return nil }
        if found.count == 1, let only = found.first, only.hasSuffix(":") || only.hasSuffix("/") {
            rl_completion_append_character = 0
        }
        matches = found
        matchIndex = 0
        return rl_completion_matches(text) { _, state in
            if state == 0 { ReadlineHooks.matchIndex = 0 }
            guard ReadlineHooks.matchIndex < ReadlineHooks.matches.count else { return nil }
            let m = ReadlineHooks.matches[ReadlineHooks.matchIndex]
            ReadlineHooks.matchIndex += 1
            return strdup(m)
        }
    }

    // MARK: live colouring (R-CAP-2)

    static func redisplay() { redisplay(showGhost: true) }

    /// Lets readline draw the line, then draws it again with capture tokens coloured and the
    /// ghost completion in grey after it, and puts the cursor back where readline left it. A
    /// line that wraps is drawn row by row when every character is one column wide (readline
    /// breaks such a line every `width` columns); a wrapping line with wide characters, or one
    /// taller than the screen, is left as readline drew it.
    static func redisplay(showGhost: Bool) {
        rl_redisplay()
        guard colorOn, let highlighter, let buf = rl_line_buffer else {
            ghost = ""
            return
        }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buf).assumingMemoryBound(to: UInt8.self), count: Int(rl_end)))
        let point = max(0, min(Int(rl_point), bytes.count))
        let h = highlighter.highlight(bytes, cursor: point)
        ghost = showGhost ? (h?.ghost ?? "") : ""
        // Nothing of ours on the screen and nothing to colour: readline's drawing stands.
        guard h != nil || painted else { return }
        // No longer a capture line (its command word was edited): the plain text, drawn once
        // more so the colour and any ghost go.
        let drawn = h?.painted ?? String(decoding: bytes, as: UTF8.self)
        let promptBytes = Array((rl_display_prompt.map { String(cString: $0) } ?? "").utf8)
        var rows: Int32 = 0
        var cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        let ghostBytes = Array(ghost.utf8)
        guard let promptCols = CaptureHighlighter.columns(promptBytes),
              let lineCols = CaptureHighlighter.columns(bytes),
              let pointCols = CaptureHighlighter.columns(Array(bytes[..<point])),
              let ghostCols = CaptureHighlighter.columns(ghostBytes) else {
            return unpainted(atEnd: point == bytes.count)
        }
        let width = Int(cols) > 0 ? Int(cols) : Int.max
        let total = promptCols + lineCols + ghostCols
        if total >= width {
            // Wrapping: only for one-column characters, and only when the whole line is on
            // the screen (moving up past its top row is not possible).
            guard CaptureHighlighter.narrow(promptBytes + bytes + ghostBytes),
                  rows <= 0 || total / width < Int(rows) - 1 else { return unpainted(atEnd: point == bytes.count) }
        }
        // Readline left the cursor at the point: row (prompt + text before it) / width.
        let at = promptCols + pointCols
        let pointRow = at / width
        var out = pointRow > 0 ? "\u{1B}[\(pointRow)A\r" : "\r"
        out += String(decoding: promptBytes, as: UTF8.self) + drawn
        if !ghost.isEmpty { out += "\u{1B}[90m" + ghost + "\u{1B}[0m" }
        // A drawing that ends on the right margin leaves the cursor waiting to wrap (or
        // wrapped, by the terminal): a space and a carriage return put it at the next row's
        // start either way.
        if total > 0, total % width == 0 { out += " \r" }
        out += "\u{1B}[J"
        let endRow = total / width
        if endRow > pointRow { out += "\u{1B}[\(endRow - pointRow)A" }
        out += "\r"
        let col = at % width
        if col > 0 { out += "\u{1B}[\(col)C" }
        fputs(out, rl_outstream)
        fflush(rl_outstream)
        // A plain drawing leaves nothing of ours behind.
        painted = h != nil
    }

    /// A line this painter cannot draw: readline's own drawing stands and the ghost goes. With
    /// the cursor at the end, what an earlier painting left after the line is cleared.
    static func unpainted(atEnd: Bool) {
        ghost = ""
        guard painted else { return }
        painted = false
        if atEnd {
            fputs("\u{1B}[J", rl_outstream)
            fflush(rl_outstream)
        }
    }
}
