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
            let r = session.run(StatementSource(file: file))
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
