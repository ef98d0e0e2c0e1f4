// The REPL on a linked store (docs/SYNC.md, "Live"): between statements it waits on its input
// and on live sync's wakes together, and pulls another device's changes within a second of their
// commit; after each statement that changed the store it pushes at once. What a pull brought is
// said between statements, never inside a statement's output: above the prompt on a terminal
// (ReadlineHooks.printAbove), as lines of their own on a pipe. An unlinked store has no thread
// and waits on its input alone, as before.

import KeptRules
import KeptDomain
import KeptStore
import KeptSyntax
import KeptInterpreter

extension REPL {
    /// Starts, restarts or stops live sync to match the session's store: a store file (the
    /// REPL commits after each statement) that is linked, with a way to its server.
    func updateLive() {
        if let l = live, l.matchesStore {
            installIdle()
            return
        }
        live?.stop()
        live = nil
        if options.store != nil, session.commits == .eachStatement {
            live = LiveSync(session: session, connector: session.syncConnector, voice: .prompt)
        }
        installIdle()
    }

    /// Hands the terminal editor what to watch while a line is typed.
    func installIdle() {
        guard let live else {
            editor.setIdle(nil)
            return
        }
        editor.setIdle(EditorIdle(fd: live.wakes.readEnd, timeout: { [unowned live] in live.timeout() }, wake: { [unowned live] in
            live.wokeOrTimedOut()
        }))
    }

    /// After a statement: a new link starts live sync, and a change goes to the server at once
    /// (a pull comes with it). While the server cannot be reached, changes wait for the next
    /// poll rather than stall every statement.
    func afterStatement() {
        updateLive()
        guard let live, lastChanged, live.online || live.lastAttempt == nil, session.engine.syncStatus.waiting > 0 else { return }
        sayLive(live.sync())
    }

    /// The piped REPL between statements: syncs when woken or due, and waits for the next line
    /// with the wakes in view.
    func idleBetweenStatements() {
        while let live {
            sayLive(live.wokeOrTimedOut())
            if editor.inputReady() { return }
            editor.waitForInput(alsoWatching: live.wakes.readEnd, timeout: live.timeout())
        }
    }

    /// Live sync's lines, on standard output at once.
    func sayLive(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        out.lines(lines)
        flush()
    }
}
