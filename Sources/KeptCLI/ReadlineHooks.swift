// The C side of the readline editor: callbacks cannot capture context, so everything they read
// sits in this one static box. Only the main thread touches it (the REPL is single-threaded);
// the signal handler writes only the sig_atomic_t flag.

import KeptCore

@preconcurrency import CReadline
#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGINT handler, read by the poll loop.
nonisolated(unsafe) private var sigintSeen: sig_atomic_t = 0
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

    static func install() {
        guard !installed else { return }
        installed = true
        rl_readline_name = UnsafePointer(strdup("kept"))
        // Bracketed paste wraps each prompt in escape codes that confuse pty-driven tests.
        _ = rl_variable_bind("enable-bracketed-paste", "off")
        rl_catch_signals = 0
        var sa = sigaction()
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            wakeRead = fds[0]
            wakeWrite = fds[1]
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        }
        sa.__sigaction_handler.sa_handler = { _ in
            sigintSeen = 1
            if wakeWrite >= 0 {
                var b: UInt8 = 1
                _ = write(wakeWrite, &b, 1)
            }
        }
        sigemptyset(&sa.sa_mask)
        sa.sa_flags = 0
        sigaction(SIGINT, &sa, nil)
        // A parent may have started us with SIGINT blocked (the mask is inherited across exec).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
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
        rl_callback_handler_install(prompt) { line in
            ReadlineHooks.lineDone = true
            ReadlineHooks.lineRead = line.map { String(cString: $0) }
            if let line { free(line) }
            // Removing the handler here stops readline from drawing the prompt again.
            rl_callback_handler_remove()
        }
        while !lineDone {
            var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let r = sigintSeen != 0 ? 0 : poll(&fds, wakeRead >= 0 ? 2 : 1, -1)
            if sigintSeen != 0 {
                sigintSeen = 0
                drainWake()
                // Ctrl-C: drop what was typed, leave the terminal as readline found it.
                rl_free_line_state()
                rl_callback_sigcleanup()
                rl_replace_line("", 0)
                rl_point = 0
                rl_end = 0
                ghost = ""
                fputs("^C\n", stdout)
                fflush(stdout)
                rl_callback_handler_remove()
                return .interrupted
            }
            if r < 0 {
                if errno == EINTR { continue }
                rl_callback_handler_remove()
                return .end
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

    static func complete(_ text: UnsafePointer<CChar>?, _ start: Int32, _ end: Int32) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        rl_attempted_completion_over = 1
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
    /// ghost completion in grey after it, and puts the cursor back where readline left it. Only
    /// for a line that fits the terminal's width; a wrapping line is left as readline drew it.
    static func redisplay(showGhost: Bool) {
        rl_redisplay()
        guard colorOn, let highlighter, let buf = rl_line_buffer else {
            ghost = ""
            return
        }
        let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(buf).assumingMemoryBound(to: UInt8.self), count: Int(rl_end)))
        let point = max(0, min(Int(rl_point), bytes.count))
        guard let h = highlighter.highlight(bytes, cursor: point) else {
            ghost = ""
            if painted {
                painted = false
                if point == bytes.count { fputs("\u{1B}[K", rl_outstream); fflush(rl_outstream) }
            }
            return
        }
        ghost = showGhost ? h.ghost : ""
        let prompt = rl_display_prompt.map { String(cString: $0) } ?? ""
        let promptWidth = prompt.unicodeScalars.count
        var rows: Int32 = 0
        var cols: Int32 = 0
        rl_get_screen_size(&rows, &cols)
        let width = promptWidth + CaptureHighlighter.columns(bytes) + ghost.unicodeScalars.count
        guard cols <= 0 || width < Int(cols) else {
            ghost = ""
            if painted, point == bytes.count { fputs("\u{1B}[K", rl_outstream); fflush(rl_outstream) }
            return
        }
        var out = "\r" + prompt + h.painted
        if !ghost.isEmpty { out += "\u{1B}[90m" + ghost + "\u{1B}[0m" }
        out += "\u{1B}[K\r"
        let col = promptWidth + CaptureHighlighter.columns(Array(bytes[..<point]))
        if col > 0 { out += "\u{1B}[\(col)C" }
        fputs(out, rl_outstream)
        fflush(rl_outstream)
        painted = true
    }
}
