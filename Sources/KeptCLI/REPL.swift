// The interactive loop: read a line, run it in the session, print. The same Session as
// `kept run`; with --store, the REPL writes the store after each change.

import KeptCore

/// The read-eval-print loop.
final class REPL {
    let session: Session
    let editor: LineEditor
    let options: SessionOptions
    let out: OutputStream
    let err: OutputStream
    let renderer: DiagnosticRenderer
    let interactive: Bool
    var failed = false

    init(session: Session, editor: LineEditor, options: SessionOptions, out: OutputStream, err: OutputStream,
         renderer: DiagnosticRenderer, interactive: Bool) {
        self.session = session
        self.editor = editor
        self.options = options
        self.out = out
        self.err = err
        self.renderer = renderer
        self.interactive = interactive
    }

    /// Asks a question: true for y or yes, false for anything else, nil at the end of input.
    func confirm(_ q: Confirmation) -> Bool? {
        out.lines(q.details)
        let ask = q.question + " [y/N] "
        if !interactive { out.line(ask.trimmedSpaces) }
        out.flush()
        guard let answer = editor.readLine(prompt: interactive ? ask : "") else { return nil }
        return ["y", "yes"].contains(answer.trimmedSpaces.lowercased())
    }

    func run() -> Int32 {
        if interactive {
            let where_ = options.store.map { "store \($0), written after each change" } ?? "no store file: changes last for this session"
            out.line("Kept \(KeptMain.version) · \(where_) · 'help' lists the commands, Ctrl-D quits")
            out.flush()
        }
        var n = 0
        while let line = editor.readLine(prompt: interactive ? "kept> " : "") {
            n += 1
            let trimmed = line.trimmedSpaces
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            editor.remember(line)
            if trimmed == ".quit" || trimmed == ".exit" { break }
            let file = SourceFile(name: interactive ? "<repl>" : "<stdin>", text: line)
            var r = session.run(StatementSource(file: file))
            if let q = r.confirmation {
                // The engine asks; the REPL reads the answer through its editor (R-TASK-5).
                guard let yes = confirm(q) else { break }
                if yes {
                    r = session.run(StatementSource(file: file), confirmed: true)
                } else {
                    out.line("Nothing deleted")
                    out.flush()
                    continue
                }
            }
            if r.changed, let path = options.store {
                if case .failure(let d) = StoreFile.save(session.store, to: path) {
                    err.line(renderer.render(d))
                    failed = true
                }
            }
            out.lines(r.lines)
            out.flush()
            for d in r.diagnostics {
                if session.format == .json {
                    out.line(JSONWriter.compact(DiagnosticJSON.value(d)))
                } else {
                    err.line(renderer.render(d))
                }
                failed = true
            }
            out.flush()
            err.flush()
        }
        return failed && !interactive ? 1 : 0
    }
}
