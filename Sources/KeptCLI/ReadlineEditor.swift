// GNU readline, for a terminal on both ends. All readline calls live in this file; Swift 6
// needs @preconcurrency for readline's C globals.

import KeptCore

@preconcurrency import CReadline
#if canImport(Glibc)
import Glibc
#endif

/// Line editing and history through GNU readline.
final class ReadlineEditor: LineEditor {
    init() {
        // Bracketed paste wraps each prompt in escape codes that confuse pty-driven tests.
        _ = rl_variable_bind("enable-bracketed-paste", "off")
    }

    func readLine(prompt: String) -> String? {
        guard let p = readline(prompt) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    func remember(_ line: String) {
        guard !line.isEmpty, !line.hasPrefix(" ") else { return }
        add_history(line)
    }
}
